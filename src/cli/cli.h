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
int cmd_validate(int argc, char **argv); /* src/cli/validate.c */

/* -j N: 1..1024 threads; the default is the number of CPUs this process may run on. */
int cli_default_jobs(void);
int cli_parse_jobs(const char *cmd, const char *text, int *out);

/*
 * A command's option loop (src/cli/args.c).  cli_getopt() is getopt_long with what every
 * command does alike done once: -h/--help prints the usage; -o/--output, -q/--quiet,
 * -j/--jobs, -p/--platform, --json, --lenient, --hz, --html, --timeline-window, --kernel
 * and --switch (where the command's table has them) fill in the fields below; an unknown option, or one without its value, gets
 * the command's message.  It returns only the command's own options, and -1 when there are
 * no more; then done says whether the command is over, with status its exit status (help:
 * 0; a bad option or value, or an argument where no_args: 2).  The messages differ between
 * the families of commands (the host commands print their usage again), and each keeps its
 * own: bad says which it is.
 */
#include <getopt.h>
#include <stdbool.h>
struct ik_kernel;
enum cli_bad_option {
	CLI_BAD_USAGE,	     /* "unknown option or missing value: 'X'", a blank line, usage */
	CLI_BAD_INCOMPLETE,  /* "unknown or incomplete option 'X' (see idlekit CMD --help)" */
	CLI_BAD_SEE_HELP,    /* "unknown option 'X'" and "(see idlekit CMD --help)" */
	CLI_BAD_NEEDS_VALUE, /* as CLI_BAD_SEE_HELP, but "'X' needs a value" for one of ours */
	CLI_BAD_GETOPT,	     /* getopt's own message, then the usage, on standard error */
};
struct cli_opts {
	const char *cmd;	       /* as in "idlekit CMD: ..." */
	const char *usage;	       /* the --help text */
	const char *shortopts;	       /* getopt_long's ("+": stop at the first argument) */
	const struct option *longopts; /* ends with CLI_OPTIONS_END */
	enum cli_bad_option bad;
	bool no_args;		       /* an argument after the options is an error */
	const char *help_cmd;	       /* "(see idlekit HELP_CMD --help)"; NULL: cmd */
	int first;		       /* the index of the first option in argv; 0: 1 */
	/* what the loop found */
	const char *output;	       /* -o FILE, else NULL */
	bool quiet;		       /* -q */
	int jobs;		       /* -j N, else 0 */
	const char *platform;	       /* -p/--platform P, else NULL */
	bool json;		       /* --json */
	bool lenient;		       /* --lenient: a trace's bad lines skipped */
	uint64_t hz;		       /* --hz N (1..100000): a trace's tick rate, else 0 */
	const char *html, *window;     /* --html FILE, --timeline-window START:LEN */
	int64_t win_start, win_len;    /* the window (default 0:2ms) */
	struct ik_kernel *kernel;      /* given: --kernel and --switch change it */
	bool done;		       /* the options ended the command: return status */
	int status;
	bool started;
};
int cli_getopt(struct cli_opts *o, int argc, char **argv);

/* The table entries of the options cli_getopt() takes itself; every table ends with
   CLI_OPTIONS_END (--help and the terminator). */
#define CLI_OPTION_OUTPUT { "output", required_argument, NULL, 'o' }
#define CLI_OPTION_QUIET { "quiet", no_argument, NULL, 'q' }
#define CLI_OPTION_JOBS { "jobs", required_argument, NULL, 'j' }
#define CLI_OPTION_PLATFORM { "platform", required_argument, NULL, 'p' }
#define CLI_OPTION_JSON { "json", no_argument, NULL, CLI_OPT_JSON }
#define CLI_OPTION_LENIENT { "lenient", no_argument, NULL, CLI_OPT_LENIENT }
#define CLI_OPTION_HZ { "hz", required_argument, NULL, CLI_OPT_HZ }
#define CLI_OPTIONS_END { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
/* The ids of the long-only ones: below every command's own (from 256) and the host
   commands' (src/cli/host_cli.h, from 200). */
enum { CLI_OPT_HTML = 210, CLI_OPT_WINDOW, CLI_OPT_KERNEL, CLI_OPT_SWITCH, CLI_OPT_JSON,
       CLI_OPT_LENIENT, CLI_OPT_HZ };
#define CLI_HTML_OPTIONS                                                  \
	{ "html", required_argument, NULL, CLI_OPT_HTML },                \
	{ "timeline-window", required_argument, NULL, CLI_OPT_WINDOW }
#define CLI_KERNEL_OPTIONS                                                \
	{ "kernel", required_argument, NULL, CLI_OPT_KERNEL },            \
	{ "switch", required_argument, NULL, CLI_OPT_SWITCH }
/* After the options: --timeline-window without --html is an error (printed, -1). */
int cli_window_needs_html(const struct cli_opts *o);

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
/* Each line of notes (a workload's: what it read otherwise than its own tool, or leaves
   out) on standard error as "idlekit CMD: note: LINE"; nothing for "". */
void cli_print_notes(const char *cmd, const char *notes);

/* Two outputs (a given with option a_opt, b with b_opt) must be two files: the same file by
   another name (./F, a symbolic link) is refused with one message, EXIT_USAGE; 0 when they
   differ or either is NULL. */
int cli_outputs_distinct(const char *cmd, const char *a, const char *a_opt, const char *b,
			 const char *b_opt);

/*
 * Before a long run: PATH can be written (its directory exists and takes a new file, it is
 * not a directory).  0, or EXIT_USAGE with "idlekit CMD: PATH: ..." printed.  NULL is fine.
 */
int cli_output_check(const char *cmd, const char *path);
/* A report's -o (OUTPATH) and --html (HTMLPATH), either NULL: both can be written and are
   two files; 0, or EXIT_USAGE with the message printed. */
int cli_report_outputs_check(const char *cmd, const char *outpath, const char *htmlpath);
/* The same for a command's -o and --html as its option loop found them, after
   cli_window_needs_html(). */
int cli_report_options_check(const struct cli_opts *o);

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
 * A report to -o (NULL: standard output) and, when htmlpath is given, its page: both
 * written or neither, in a group.  Each writer returns 0 or -1 for a failed write (the
 * output has its own message).  EXIT_OK, or EXIT_FAIL with nothing left in place.
 */
typedef int (*cli_writer)(FILE *f, void *ctx);
int cli_write_report_and_page(const char *outpath, cli_writer report, const char *htmlpath,
			      cli_writer page, void *ctx);

/*
 * Input files: only a regular file is read.  A directory, a FIFO, a device or a socket gets
 * "idlekit CMD: PATH: ..." and EXIT_USAGE, without blocking (src/cli/input.c).
 * cli_input_check: 0 when PATH is a regular file or does not exist (the caller's loader
 * reports a missing file, or takes PATH as a built-in name); cli_input_fopen: the open file
 * (rc_out unset) or NULL with *rc_out = EXIT_USAGE.  "-" is not special here.
 */
int cli_input_check(const char *cmd, const char *path);
FILE *cli_input_fopen(const char *cmd, const char *path, int *rc_out);
/* The input of a command that reads "-" as standard input: stdin for "-", else
   cli_input_fopen; cli_input_close closes it but leaves standard input open (NULL: nothing). */
FILE *cli_input_open(const char *cmd, const char *path, int *rc_out);
void cli_input_close(FILE *f);

#endif
