/* The idlekit command: shared helpers of its subcommands. */
#ifndef IDLEKIT_CLI_H
#define IDLEKIT_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit statuses: 0 success, 1 the work failed, 2 bad input (options, files), 4 a
   kernel:FILE governor crashed or hung (src/core/gov_guard.c ends the process with it). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_GOV_CRASH = 4 };

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
/* The same for MIN..MAX: every range message of the command reads alike. */
int cli_parse_range(const char *cmd, const char *opt, const char *text, uint64_t min, uint64_t max,
		    uint64_t *out);

/*
 * Output to a file goes to a temporary name beside it and is renamed when complete, so a
 * failed run never leaves a half-written file in place of a good one.  A symbolic link is
 * followed (its target replaced, the link kept); a device or a FIFO is written through and
 * never replaced; a directory is refused.  A signal (INT, TERM, HUP, PIPE) while a
 * temporary exists removes it.  Messages name the path the user gave.
 */
#include <limits.h>
#include <stdbool.h>
struct cli_output_group;
struct cli_output {
	FILE *fp;
	const char *path;	   /* as the user typed it; NULL = stdout */
	char target[PATH_MAX];	   /* what is really written: PATH with its links followed */
	char tmp[PATH_MAX + 32];   /* the temporary beside TARGET */
	bool through;		   /* a device or FIFO, written directly */
	int fd;			   /* under FP */
	int write_errno;	   /* the first write error */
	int slot;		   /* the temporary's signal-cleanup slot, -1 none, -2 gone */
	struct cli_output_group *group;
};
int cli_output_open(struct cli_output *o, const char *path);
/* Closes; on success renames into place (in a group: leaves that to the commit), else
 * removes the temporary (in a group: all of the group's).  0 or -1. */
int cli_output_close(struct cli_output *o, int ok);
/*
 * Before a long run: PATH can be written (its directory exists and takes a new file, it is
 * not a directory).  0, or EXIT_USAGE with "idlekit CMD: PATH: ..." printed.  NULL is fine.
 */
int cli_output_check(const char *cmd, const char *path);

/* Several outputs of one command: all are written, or none (the temporaries all removed). */
#define CLI_OUTPUT_GROUP_MAX 4
struct cli_output_group {
	struct cli_output *o[CLI_OUTPUT_GROUP_MAX];
	int n;
	bool failed;
};
/* cli_output_open as a member of G; a failure removes every temporary of G. */
int cli_output_open_in(struct cli_output_group *g, struct cli_output *o, const char *path);
/* OK: renames every member into place; else (or after any failure) removes them.  0 or -1. */
int cli_output_group_commit(struct cli_output_group *g, int ok);

/*
 * Input files: only a regular file is read.  A directory, a FIFO, a device or a socket gets
 * "idlekit CMD: PATH: ..." and EXIT_USAGE, without blocking (src/cli/input.c).
 * cli_input_check: 0 when PATH is a regular file or does not exist (the caller's loader
 * reports a missing file, or takes PATH as a built-in name); cli_input_fopen: the open file
 * (rc_out unset) or NULL with *rc_out = EXIT_USAGE.  "-" is not special here.
 */
int cli_input_check(const char *cmd, const char *path);
FILE *cli_input_fopen(const char *cmd, const char *path, int *rc_out);

#endif
