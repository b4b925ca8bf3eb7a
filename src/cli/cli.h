/* The idlekit command: shared helpers of its subcommands. */
#ifndef IDLEKIT_CLI_H
#define IDLEKIT_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit statuses: 0 success, 1 the work failed, 2 bad input (options, files). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

int cmd_sim(int argc, char **argv);
int cmd_platform(int argc, char **argv);
/* The real machine (src/cli/info.c, set.c, monitor.c, wakelat.c, ctxsw.c). */
int cmd_info(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_wakelat(int argc, char **argv);
int cmd_ctxsw(int argc, char **argv);
int cmd_platform_import(int argc, char **argv); /* src/cli/platform_import.c */
int cmd_compare(int argc, char **argv);
int cmd_govreplay(int argc, char **argv);
int cmd_kernel(int argc, char **argv);  /* src/cli/kernel.c */
int cmd_analyze(int argc, char **argv); /* src/cli/trace.c */
int cmd_replay(int argc, char **argv);  /* src/cli/trace.c */
int cmd_record(int argc, char **argv);  /* src/cli/record.c */
int cmd_import(int argc, char **argv);  /* src/cli/import.c */
int cmd_sweep(int argc, char **argv);   /* src/cli/sweep.c */
int cmd_workload(int argc, char **argv); /* src/cli/workload.c */

/* -j N: 1..1024 threads; the default is the number of CPUs this process may run on. */
int cli_default_jobs(void);
int cli_parse_jobs(const char *cmd, const char *text, int *out);

struct ik_kernel;
/* --switch NAME=on|off onto k; -1 with err (known switches listed) if bad. */
int cli_kernel_switch(struct ik_kernel *k, const char *arg, char *err, size_t errlen);
/* {"version": "6.12", "switches": {"NAME": "on", ...}}: the release and its flips. */
void cli_kernel_json(FILE *f, const struct ik_kernel *k);

/* An unsigned option value 0..max; prints "idlekit CMD: OPT: expected ..." and returns -1. */
int cli_parse_u64(const char *cmd, const char *opt, const char *text, uint64_t max, uint64_t *out);

/*
 * Output to a file goes to a temporary name beside it and is renamed when complete, so a
 * failed run never leaves a half-written file in place of a good one.
 */
struct cli_output {
	FILE *fp;
	const char *path; /* NULL = stdout */
	char tmp[4096];
};
int cli_output_open(struct cli_output *o, const char *path);
/* Closes; on success renames into place, else removes the temporary.  0 or -1. */
int cli_output_close(struct cli_output *o, int ok);

#endif
