/* Helpers shared by the commands that look at the real machine (info, set, monitor, ...). */
#ifndef IDLEKIT_HOST_CLI_H
#define IDLEKIT_HOST_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "report/textout.h"
#include "host/host.h"

/* Where the cpu tree comes from: --sysfs-root DIR, --sysfs-dump FILE, or the live '/'. */
struct host_source {
	const char *root;
	const char *dump;
};

/*
 * --sysfs-root and --sysfs-dump: their getopt ids (below every command's own, which start at
 * 256), their entries for a getopt_long table, and the one place that takes them.
 */
enum { HOST_OPT_ROOT = 200, HOST_OPT_DUMP };
#define HOST_SOURCE_OPTIONS                                              \
	{ "sysfs-root", required_argument, NULL, HOST_OPT_ROOT },        \
	{ "sysfs-dump", required_argument, NULL, HOST_OPT_DUMP }
/* getopt_long returned c: if it is a source option, note its value in src and say true. */
bool host_source_opt(int c, const char *arg, struct host_source *src);

/* --json / --csv of the commands that report in either: each excludes the other. */
enum host_format { HOST_FMT_TEXT, HOST_FMT_JSON, HOST_FMT_CSV };
/* Ask for format want; a different one already asked for is an error (printed, -1). */
int host_format_opt(const char *cmd, enum host_format want, enum host_format *format);

/*
 * What the commands that show the idle states (info, monitor) are asked to show: --cpu LIST,
 * --per-cpu, --json or --csv, from the tree or dump of the source options.  Their getopt ids
 * follow the source options'; HOST_VIEW_OPTIONS are their table entries.
 */
struct host_view {
	struct host_source src;
	const char *cpu_list; /* NULL: every CPU */
	bool per_cpu;
	enum host_format format;
};
enum { HOST_OPT_CPU = HOST_OPT_DUMP + 1, HOST_OPT_PER_CPU, HOST_OPT_JSON, HOST_OPT_CSV };
#define HOST_VIEW_OPTIONS                                                \
	{ "cpu", required_argument, NULL, HOST_OPT_CPU },                \
	{ "per-cpu", no_argument, NULL, HOST_OPT_PER_CPU },              \
	{ "json", no_argument, NULL, HOST_OPT_JSON },                    \
	{ "csv", no_argument, NULL, HOST_OPT_CSV },                      \
	HOST_SOURCE_OPTIONS
/* getopt_long returned c, one of HOST_VIEW_OPTIONS: note it in v.  -1 on an error (printed). */
int host_view_opt(const char *cmd, int c, const char *arg, struct host_view *v);

/* The options every such command takes, for its usage text. */
#define HOST_SOURCE_HELP                                                                   \
	"  --sysfs-root DIR         read DIR/sys/devices/system/cpu instead of the live tree\n" \
	"                           (DIR stands for '/', as lscpu's --sysroot)\n"             \
	"  --sysfs-dump FILE        read a dump of 'rw|/sys/devices/system/cpu/...|value' lines\n"

/* Open the tree or dump; on error print "idlekit CMD: message" and return -1. */
int host_open(const char *cmd, const struct host_source *src, struct ik_sysfs **fs);
/*
 * Parse --cpu LIST against the CPUs present in fs; a CPU that is not there is an error
 * naming the CPUs that are.  Prints the message and returns -1 on error.
 */
int host_cpu_arg(const char *cmd, const struct ik_sysfs *fs, const char *list,
		 struct ik_cpuset *out);
/* A non-negative integer option in 0..max; prints and returns -1 on error. */
int host_long_arg(const char *cmd, const char *opt, const char *text, long min, long max,
		  long *out);
/* A duration option ("100us"); prints and returns -1 on error. */
int host_duration_arg(const char *cmd, const char *opt, const char *text,
		      const char *default_unit, int64_t max_ns, int64_t *ns);
/* Seconds, possibly fractional ("0.5"), > 0: as ns. */
int host_seconds_arg(const char *cmd, const char *opt, const char *text, int64_t *ns);

/*
 * --waker-cpu and --wakee-cpu against the CPUs this process may run on (wakelat, platform
 * calibrate): 0, or EXIT_USAGE with "idlekit CMD: --wakee-cpu N: not available ..." printed.
 * 0 too when the affinity cannot be read: the run itself then says.
 */
int host_waker_wakee_check(const char *cmd, int waker_cpu, int wakee_cpu);

/* Power as signed mW: sysfs prints the kernel's int power_usage as unsigned. */
long long host_power_mw(uint64_t sysfs_power);

/* The PM QoS device: --pm-qos-dev, else $IDLEKIT_PM_QOS_DEV, else /dev/cpu_dma_latency. */
const char *host_pmqos_path(const char *option);

/*
 * A PM QoS CPU latency limit to hold while the command runs (set, wakelat): --latency TIME,
 * a duration ("20us") in whole microseconds, and --pm-qos-dev PATH.  Their getopt ids
 * follow the view options'; HOST_PMQOS_OPTIONS are their table entries.
 */
struct host_pmqos_limit {
	int64_t latency_ns; /* -1: no limit */
	const char *dev;    /* --pm-qos-dev, else NULL */
};
enum { HOST_OPT_LATENCY = HOST_OPT_CSV + 1, HOST_OPT_PMQOS };
#define HOST_PMQOS_OPTIONS                                               \
	{ "latency", required_argument, NULL, HOST_OPT_LATENCY },        \
	{ "pm-qos-dev", required_argument, NULL, HOST_OPT_PMQOS }
/* getopt_long returned c, one of HOST_PMQOS_OPTIONS: note it in l.  -1 on an error (printed). */
int host_pmqos_opt(const char *cmd, int c, const char *arg, struct host_pmqos_limit *l);
/* Open l's device into q; -1 with "idlekit CMD: ..." printed. */
int host_pmqos_open(const char *cmd, const struct host_pmqos_limit *l, struct ik_pmqos *q);

/*
 * A text table: columns sized to their widest cell, text left-aligned and numbers
 * right-aligned as align says ('l' or 'r' per column), two spaces between columns.
 */
struct host_table {
	int ncols;
	const char *const *headers;
	const char *align;
	char **cells; /* nrows * ncols, owned */
	int nrows;
	int capacity;
};
void host_table_init(struct host_table *t, int ncols, const char *const *headers,
		     const char *align);
/* Add a row of ncols printf-formatted cells: each argument is one cell's text. */
void host_table_row(struct host_table *t, const char *const *cells);
void host_table_print(FILE *f, const struct host_table *t);
void host_table_free(struct host_table *t);

#endif
