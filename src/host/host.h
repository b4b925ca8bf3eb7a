/*
 * idlekit: the real machine.
 *
 * Everything here reads or changes the machine idlekit runs on (or a captured copy of its
 * sysfs): the cpuidle tree under /sys/devices/system/cpu, the PM QoS device, and two
 * benchmarks that measure wake-up latency and context switches on real CPUs.
 *
 *   struct ik_sysfs       a read-only view of a cpu tree: a directory (ROOT stands for '/',
 *                         as lscpu's --sysroot: ROOT/sys/devices/system/cpu is read) or a
 *                         dump file of 'rw|/sys/devices/system/cpu/...|value' lines
 *   struct ik_cpuset      a set of CPU numbers; ik__cpulist_parse reads "0-3,8,10-11"
 *                         (both in util/cpuset.h, below this API and the trace code)
 *   struct ik_host_idle   driver, governor and per-CPU idle-state tables with counters
 *   struct ik_pmqos       a CPU latency limit held through /dev/cpu_dma_latency
 *   struct ik_journal     changes written to sysfs, remembered so they can be undone
 *   ik__wakelat_run        wake-up latency: a waker and a wakee pinned to two CPUs
 *   ik__ctxsw_run          context switches per second (context_switch2 semantics)
 *
 * Every function that can fail returns non-zero and writes a one-line message naming the
 * file (and line, for a dump) and what was expected into err.
 *
 * Global state: none, except what signal handling needs (see ik__signals_catch): a signal
 * handler cannot reach a context, so the caught signal and the pid to forward it to live
 * in two process-wide variables in src/host/restore.c.
 *
 * One header for the whole of src/host (sysfs.c, restore.c, cpuidle_info.c, pmqos.c,
 * wakelat.c, ctxsw.c, units.c, trace_instances.c); record_tracefs.h is the tracefs engine's
 * own.
 */
#ifndef IDLEKIT_HOST_H
#define IDLEKIT_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "idlekit/cpuidle.h"
#include "util/cpuset.h" /* struct ik_cpuset: the sets this API is written in */

#define IK_HOST_ERR_LEN 512

/* ---- CPU sets and lists: util/cpuset.h (src/util/cpuset.c) ------------------------------ */

#define IK_HOST_CPU_MAX IK_CPUSET_MAX /* the most CPUs a machine here has */

/* ---- A view of a cpu tree (src/host/sysfs.c) -------------------------------------------- */

struct ik_sysfs;

enum { IK_SYSFS_OK = 0, IK_SYSFS_MISSING = 1, IK_SYSFS_ERROR = -1 };

/*
 * A directory tree: root stands for '/', so ROOT/sys/devices/system/cpu is read.  It must
 * exist and be a directory.
 */
int ik__sysfs_open_root(const char *root, struct ik_sysfs **out, char *err, size_t errlen);
/*
 * A dump: one line per file, 'rw|/sys/devices/system/cpu/REL|value' (or 'ro|...'); empty
 * lines and lines starting with '#' are skipped, a trailing CR is dropped, the value is the
 * rest of the line (it may hold '|').  Lines for other parts of /sys are ignored.  A line of
 * any other shape, or a path given twice, is an error naming the file and line.
 */
int ik__sysfs_open_dump(const char *path, struct ik_sysfs **out, char *err, size_t errlen);
/* The same from memory (text need not be NUL-terminated); origin names it in messages. */
int ik__sysfs_parse_dump(const char *origin, const char *text, size_t len, struct ik_sysfs **out,
			char *err, size_t errlen);
void ik__sysfs_close(struct ik_sysfs *fs);

bool ik__sysfs_is_dump(const struct ik_sysfs *fs);
/* "ROOT/sys/devices/system/cpu" or the dump's path. */
const char *ik__sysfs_origin(const struct ik_sysfs *fs);
/* The root directory of a tree ("/" for the live machine), NULL for a dump. */
const char *ik__sysfs_root(const struct ik_sysfs *fs);
/* Number of values in a dump (0 for a tree). */
size_t ik__sysfs_dump_size(const struct ik_sysfs *fs);

/*
 * Read the file `rel` (relative to the cpu directory, e.g. "online" or
 * "cpu3/cpuidle/state1/usage") into buf without its trailing newline.  Returns IK_SYSFS_OK,
 * IK_SYSFS_MISSING (no such file; err untouched) or IK_SYSFS_ERROR (unreadable, too long).
 */
int ik__sysfs_read(const struct ik_sysfs *fs, const char *rel, char *buf, size_t len, char *err,
		  size_t errlen);
/* A decimal unsigned value; anything else is IK_SYSFS_ERROR with what was found. */
int ik__sysfs_read_u64(const struct ik_sysfs *fs, const char *rel, uint64_t *value, char *err,
		      size_t errlen);
bool ik__sysfs_is_dir(const struct ik_sysfs *fs, const char *rel);
/*
 * Call fn for each name directly inside directory rel ("" = the cpu directory); for a dump
 * in sorted order, for a tree in directory order.  Returns what a non-zero fn returned (it
 * stops there), 0, IK_SYSFS_MISSING, or IK_SYSFS_ERROR.
 */
int ik__sysfs_list(const struct ik_sysfs *fs, const char *rel,
		  int (*fn)(const char *name, void *arg), void *arg, char *err, size_t errlen);
/* The real path of rel, for writing; -1 for a dump (it cannot be written). */
int ik__sysfs_path(const struct ik_sysfs *fs, const char *rel, char *buf, size_t len);
/* Where rel's value comes from, for messages: "DUMP:LINE: /sys/.../REL" or the file's path. */
void ik__sysfs_where(const struct ik_sysfs *fs, const char *rel, char *buf, size_t len);
/* Whether rel is a writable file: its mode bits in a tree, its 'rw' flag in a dump. */
bool ik__sysfs_writable(const struct ik_sysfs *fs, const char *rel);
/*
 * The CPU lists, cpuidle/ and every cpuN/online and cpuN/cpuidle/ as a dump that
 * ik__sysfs_open_dump reads back (src/host/sysfs_dump.c), sorted by path.  Files that cannot
 * be read are left out and counted in *skipped.  0, or -1 with err.
 */
int ik__sysfs_write_dump(const struct ik_sysfs *fs, FILE *out, int *skipped, char *err,
			size_t errlen);

/* ---- cpuidle as sysfs shows it (src/host/cpuidle_info.c) --------------------------------- */

/*
 * Files of a state beyond name, latency and residency (which must be there): older kernels
 * lack some (above/below came in 5.x, default_status in 5.9), a dump may hold only the table.
 */
#define IK_HAVE_DESC (1u << 0)
#define IK_HAVE_POWER (1u << 1)
#define IK_HAVE_ABOVE (1u << 2)
#define IK_HAVE_BELOW (1u << 3)
#define IK_HAVE_REJECTED (1u << 4)
#define IK_HAVE_DISABLE (1u << 5)
#define IK_HAVE_DEFAULT_STATUS (1u << 6)
#define IK_HAVE_S2IDLE (1u << 7)
#define IK_HAVE_USAGE (1u << 8) /* usage and time: every kernel has them, a trimmed dump */
#define IK_HAVE_TIME (1u << 9)  /* (static tables only) may not */

/* sysfs prints a power_usage of -1 (POLL's) as this. */
#define IK_HOST_POWER_UNKNOWN 4294967295u

struct ik_host_state {
	char name[32];
	char desc[64];
	uint64_t latency_us;   /* exit latency */
	uint64_t residency_us; /* target residency */
	uint64_t power;        /* mW as sysfs prints it (IK_HOST_POWER_UNKNOWN: none given) */
	uint64_t usage;
	uint64_t time_us;
	uint64_t above;
	uint64_t below;
	uint64_t rejected;
	uint64_t s2idle_usage;
	uint64_t s2idle_time_us;
	bool disabled;        /* the user bit, as 'disable' shows it */
	bool default_enabled; /* 'default_status' */
	unsigned have;        /* IK_HAVE_* for the optional files that were there */
};

struct ik_host_cpu {
	int cpu;
	bool online;
	bool has_dir;     /* cpuN exists (a copied tree or dump may lack one 'present' lists) */
	bool has_cpuidle; /* cpuN/cpuidle exists */
	int nstates;
	struct ik_host_state states[IK_STATE_MAX];
};

struct ik_host_idle {
	char driver[64];               /* "none" when there is no cpuidle driver */
	char governor[64];             /* "" when not known */
	char available_governors[256]; /* space-separated, no trailing space */
	bool have_cpuidle_dir;         /* the cpuidle/ directory exists at all */
	struct ik_cpuset present;      /* the 'present' list and every cpuN directory */
	struct ik_cpuset online;
	int ncpus;                     /* entries in cpus */
	struct ik_host_cpu *cpus;      /* the CPUs asked for, ascending, owned */
};

/* Which CPUs exist (the 'present' file and the cpuN directories) and which are online. */
int ik__host_cpus(const struct ik_sysfs *fs, struct ik_cpuset *present, struct ik_cpuset *online,
		 char *err, size_t errlen);
/*
 * Read driver, governor and the idle-state tables of the CPUs in `want` (NULL: every
 * present CPU).  A CPU in want that is not present is an error.  A state directory that
 * lacks name, latency or residency is an error (a partial tree); the other files are
 * optional and `have` says which were there.
 */
int ik__host_idle_read(const struct ik_sysfs *fs, const struct ik_cpuset *want,
		      struct ik_host_idle *idle, char *err, size_t errlen);
/* Re-read only the counters (usage, time, above, below, rejected) of every CPU in idle. */
int ik__host_idle_refresh(const struct ik_sysfs *fs, struct ik_host_idle *idle, char *err,
			 size_t errlen);
void ik__host_idle_free(struct ik_host_idle *idle);

/* Same table: state count and, per state, every field except the counters. */
bool ik__host_same_table(const struct ik_host_cpu *a, const struct ik_host_cpu *b);
/* Some CPU has cpuidle states (a cpuidle driver registered them); false with none. */
bool ik__host_idle_has_states(const struct ik_host_idle *idle);
/*
 * Fold the online CPUs that have a cpuidle directory into groups with the same table:
 * group_of[i] (one entry per idle->cpus[i]) is the index in idle->cpus of the group's first
 * CPU, or -1 for CPUs left out (offline, or no cpuidle directory).  Returns the number of
 * groups.
 */
int ik__host_fold(const struct ik_host_idle *idle, int *group_of);

/*
 * With no cpuidle driver, the kernel idles through its default routine
 * (arch/x86/kernel/process.c).  Describe which one this machine uses, as far as can be
 * told: from the idle= boot option (ROOT/proc/cmdline), and for the live machine on x86
 * from CPUID leaves 1 and 5 (MONITOR/MWAIT and C1 sub-states), else from ROOT/proc/cpuinfo.
 * Writes e.g. "HLT (default_idle): no MONITOR/MWAIT in /proc/cpuinfo flags".
 */
void ik__host_default_idle(const struct ik_sysfs *fs, char *buf, size_t len);

/* ---- The clock (src/host/clock.c) ----------------------------------------------------------- */

/* CLOCK_MONOTONIC now, in ns. */
int64_t ik__host_now_ns(void);
/* T plus NS (>= 0): a deadline for clock_nanosleep or pthread_cond_timedwait. */
struct timespec ik__timespec_add(struct timespec t, int64_t ns);
/* NS from now on CLOCK, as such a deadline. */
struct timespec ik__deadline_in(clockid_t clock, int64_t ns);

/* ---- Durations with units (src/host/units.c) -------------------------------------------- */

/*
 * "100us", "1.5ms", "250ns", "2s", or a bare number in default_unit ("ns", "us", "ms" or
 * "s").  The result must be a whole number of ns in 0..max_ns.
 */
int ik__parse_duration_ns(const char *text, const char *default_unit, int64_t max_ns,
			 int64_t *ns, char *err, size_t errlen);

/* ---- PM QoS (src/host/pmqos.c) -------------------------------------------------------- */

#define IK_PMQOS_DEV "/dev/cpu_dma_latency"
#define IK_PMQOS_MAX_US 2000000000 /* the kernel's default: 2000 s, "no limit" */

/*
 * A CPU latency limit lives while the file descriptor that set it stays open (the kernel
 * takes the minimum of all open ones).  The descriptor is close-on-exec, so a command run
 * meanwhile does not inherit the limit.
 */
struct ik_pmqos {
	int fd;
	int32_t latency_us; /* -1 until set */
	char path[4096];
};
/* Open path (IK_PMQOS_DEV, or a stand-in file for tests) for writing; nothing is set yet. */
int ik__pmqos_open(struct ik_pmqos *q, const char *path, char *err, size_t errlen);
/* Set the limit: a binary s32 in us, written in one write() at offset 0. */
int ik__pmqos_set(struct ik_pmqos *q, int32_t latency_us, char *err, size_t errlen);
/* Release the limit (close the descriptor); harmless if not open. */
void ik__pmqos_close(struct ik_pmqos *q);
/* Read the limit in force (reading the device gives the aggregate as a binary s32). */
int ik__pmqos_read(const char *path, int32_t *latency_us, char *err, size_t errlen);

/* ---- Changes and their undoing (src/host/restore.c) ----------------------------------- */

struct ik_journal_entry {
	char path[4096];
	char old_value[128];
	char new_value[128];
};
struct ik_journal {
	struct ik_journal_entry *entries;
	int count;
	int capacity;
};
void ik__journal_init(struct ik_journal *j);
void ik__journal_free(struct ik_journal *j);
/* Can path be opened for writing?  (Nothing is written.)  On EACCES/EPERM/EROFS the message
 * says "needs root". */
int ik__check_writable(const char *path, char *err, size_t errlen);
/*
 * Write value to path (one write, as sysfs wants), first reading what was there so that
 * ik__journal_undo can put it back.  Writing the value already there records nothing.
 */
int ik__journal_write(struct ik_journal *j, const char *path, const char *value, char *err,
		     size_t errlen);
/*
 * Undo every recorded change, newest first, and empty the journal.  Goes on past a failed
 * write; returns 0, or -1 with the first failure in err.  Async-signal-safe it is not:
 * call it from normal flow after ik__signals_caught() says so.
 */
int ik__journal_undo(struct ik_journal *j, char *err, size_t errlen);

/*
 * Signals.  ik__signals_catch installs handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT that
 * only record the signal and forward it to the running child (ik__run_command), if any and
 * if the signal did not come from the terminal (which signals the child itself); a second
 * signal kills the child.  This is the process-wide state documented at the top.
 */
int ik__signals_catch(void);
void ik__signals_restore(void); /* back to the default dispositions */
int ik__signals_caught(void);   /* the first signal caught, or 0 */
/* Block (or unblock) those signals around changes that must not be cut in half. */
void ik__signals_block(bool block);
/* Wait until one of those signals arrives. */
void ik__signals_wait(void);
/*
 * Run argv (argv[0] searched in PATH) and wait for it.  *exit_code is its exit status, or
 * 128 + the signal that ended it.  Returns -1 if it could not be started.
 */
int ik__run_command(char *const argv[], int *exit_code, char *err, size_t errlen);

/* ---- Wake-up latency (src/host/wakelat.c) ---------------------------------------------- */

enum ik_wakelat_method { IK_WAKELAT_FUTEX, IK_WAKELAT_PIPE, IK_WAKELAT_EVENTFD };
const char *ik__wakelat_method_name(enum ik_wakelat_method m);
/* The method named text (an enum ik_wakelat_method), or -1. */
int ik__wakelat_method_parse(const char *text);

struct ik_wakelat_config {
	int waker_cpu;
	int wakee_cpu;
	long count;      /* wake-ups measured */
	long warmup;     /* wake-ups done first and not measured */
	int64_t gap_ns;  /* idle time the wakee waits before each wake-up */
	enum ik_wakelat_method method;
	int rt_priority; /* 0: the default policy; 1..99: both threads SCHED_FIFO at this priority */
	int (*should_stop)(void); /* optional: polled between wake-ups; non-zero ends the run */
};

struct ik_wakelat_result {
	int64_t *samples_ns; /* count values, sorted ascending, owned */
	long count;
	int64_t min_ns;
	int64_t max_ns;
	double mean_ns;
	int64_t elapsed_ns; /* wall time of the measured part */
};

/*
 * Each wake-up: the waker sleeps gap_ns, reads CLOCK_MONOTONIC and wakes the wakee (futex
 * wake, pipe write or eventfd write); the wakee, blocked meanwhile, reads the clock as soon
 * as it runs.  The sample is the difference.  Both threads are pinned.
 */
int ik__wakelat_run(const struct ik_wakelat_config *c, struct ik_wakelat_result *r, char *err,
		   size_t errlen);
/* Nearest-rank percentile (p in 0..100] of the sorted samples; 0 if there are none. */
int64_t ik__wakelat_percentile(const struct ik_wakelat_result *r, double p);
void ik__wakelat_free(struct ik_wakelat_result *r);

/* ---- tracefs instances a killed `idlekit record` left (src/host/trace_instances.c) ----- */

struct ik_stale_instance {
	char name[256];   /* idlekit-record-PID */
	char path[4096];  /* TRACING_DIR/instances/NAME */
	long pid;         /* no longer an idlekit process */
	bool removed;
	int error;        /* errno of a failed removal */
};
/*
 * Instances in TRACING_DIR/instances named idlekit-record-PID whose PID is not a running
 * idlekit (nor this process); with REMOVE each is removed (rmdir).  Up to MAX in OUT;
 * returns how many, or -1 with err (the directory cannot be listed).
 */
int ik__trace_instances_stale(const char *tracing_dir, bool remove, struct ik_stale_instance *out,
			     int max, char *err, size_t errlen);

/* CPUs this process may run on (sched_getaffinity). */
int ik__host_allowed_cpus(struct ik_cpuset *allowed, char *err, size_t errlen);
/*
 * A benchmark's two CPUs against those this process may run on: the index in cpus[] of the
 * first it may not use, with the ones it may written into list; -1 when it may use both;
 * -2 when its affinity cannot be read (why in err).
 */
int ik__host_unavailable_cpu(const int cpus[2], char *list, size_t len, char *err, size_t errlen);
/* The same as a check before a run: 0, or -1 with why in err. */
int ik__host_check_cpus(const int cpus[2], char *err, size_t errlen);

/* ---- Context switches (src/host/ctxsw.c) ------------------------------------------------ */

enum ik_ctxsw_test { IK_CTXSW_PIPE, IK_CTXSW_FUTEX, IK_CTXSW_YIELD };
const char *ik__ctxsw_test_name(enum ik_ctxsw_test t);
/* The test named text (an enum ik_ctxsw_test), or -1. */
int ik__ctxsw_test_parse(const char *text);

struct ik_ctxsw_config {
	int cpu_a;
	int cpu_b;
	enum ik_ctxsw_test test;
	int64_t duration_ns;
	int64_t tick_ns; /* how often on_tick is called (0: never) */
	/* Called from the calling thread: switches and ns since the previous call. */
	void (*on_tick)(void *arg, int tick, uint64_t switches, int64_t elapsed_ns);
	void *arg;
	int (*should_stop)(void); /* optional: polled at each tick; non-zero ends the run */
};

struct ik_ctxsw_result {
	uint64_t switches; /* a pipe or futex round trip is two; a yield is one */
	int64_t elapsed_ns;
};

/*
 * Two threads pinned to cpu_a and cpu_b hand control back and forth as fast as they can:
 * through a pair of pipes, a pair of futexes, or sched_yield() (which only switches when
 * both share a CPU).
 */
int ik__ctxsw_run(const struct ik_ctxsw_config *c, struct ik_ctxsw_result *r, char *err,
		 size_t errlen);

#endif
