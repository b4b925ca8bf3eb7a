/*
 * idlekit platform calibrate (src/cli/platform_calibrate.c) and the import it starts from
 * (src/cli/platform_import.c).
 */
#ifndef IDLEKIT_CLI_PLATFORM_CALIBRATE_H
#define IDLEKIT_CLI_PLATFORM_CALIBRATE_H

#include "cli/host_cli.h"

int cmd_platform_calibrate(int argc, char **argv);
/*
 * The text `platform import` writes for src (malloc'd, in *out, checked by the platform
 * reader): EXIT_OK, or another exit status with the message printed as "idlekit CMD: ...".
 */
int cli_platform_import_text(const struct host_source *src, long cpu, const char *name_opt,
			     const char *cmd, char **out);

#endif
