/*
 * idlekit validate: the model held against the machine it runs on.
 *
 * A workload runs for real on this machine, with the sysfs cpuidle counters of every CPU
 * and state read before and after one CLOCK_MONOTONIC window, and the same workload runs in
 * the simulator on the platform of this machine for the same duration.  Each side runs N
 * times; every figure is the median of its runs, with their spread, and the error is the
 * prediction's against the measurement.
 *
 *   window.c   the counters read around a window, and one run's figures from them
 *   real.c     the real runs: an rt-app file by the real rt-app binary, the pipe ping-pong
 *              of `idlekit ctxsw`; the machine's settings they ran under
 *   command.c  any command: its runs, and the workload learned from its traced run
 *   cyclictest.c  rt-tests' cyclictest, its window and its latency histogram
 *   traced.c   one more real run with idlekit's recorder on: the idle-duration histogram
 *   predict.c  the same workload in the simulator, and the figures of its runs
 *   compare.c  the figures of both sides, their medians, spreads and errors
 *   output.c   the table, the JSON and the HTML page
 *
 * No global state.  Every function that can fail returns non-zero with a one-line message
 * in err.  The machine is only read: nothing here writes a knob.
 */
#ifndef IDLEKIT_VALIDATE_H
#define IDLEKIT_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "config/result.h"
#include "config/scenario.h"
#include "host/host.h"
#include "util/idle_hist.h"

struct ik_config;

#define IK_VAL_ERR_LEN 1024
#define IK_VAL_MAX_RUNS 64
#define IK_VAL_MAX_SETS 32

/* ---- What is validated ------------------------------------------------------------------ */

enum ik_val_kind {
	IK_VAL_RTAPP,    /* an rt-app file: real rt-app, predicted by workload.type = rtapp */
	IK_VAL_PINGPONG, /* the pipe ping-pong of ctxsw, predicted by workload.type = pingpong */
	IK_VAL_PERIODIC, /* a timer sleeper: a generated rt-app file, predicted by periodic */
	IK_VAL_COMMAND,  /* any command: recorded once, learned, predicted by learned */
	IK_VAL_CYCLICTEST, /* rt-tests' cyclictest, predicted by periodic */
	IK_VAL_TBENCH,   /* dbench's tbench, one client over loopback, predicted by pingpong */
};
const char *ik__val_kind_name(enum ik_val_kind k);

struct ik_val_spec {
	enum ik_val_kind kind;
	char rtapp_file[4096];  /* rtapp: the user's file; periodic: the generated one */
	int64_t duration_ns;    /* rtapp: the file's global.duration; else the option */
	int runs;               /* each side */
	/* periodic: tasks on CPUs 0..tasks-1, each woken every period_us for duty_pct of it */
	int tasks;
	int64_t period_us;
	double duty_pct;
	/* pingpong: the two CPUs; work_ns per message in the model (cyclictest: per cycle;
	   tbench: per request or reply) */
	int cpu_a, cpu_b;
	int64_t pingpong_work_ns;
	/* command: the program and its arguments (NULL-terminated); limit_ns > 0: its window
	   ends then (the command is stopped), else when it exits; the model learned from the
	   recorded run (its file in tmpdir) */
	char *const *command;
	int64_t limit_ns;
	char learned_file[2100];
	/* the model's timer slack (its platform's [os] timer_slack_ns, 0 when it names none):
	   the periodic model's wake-up latency starts at its timer's firing, which the slack
	   delays; rt-app's wu_lat and cyclictest count from the timer's time */
	int64_t model_slack_ns;
	/* the model's platform: its INI text and where it came from */
	const char *platform_text;
	char platform_origin[4096];
	/* --set overrides for the model's scenario, after validate's own */
	const char *sets[IK_VAL_MAX_SETS];
	int nsets;
	/* a scratch directory of the caller's (rt-app's logs, the generated file) */
	char tmpdir[2048];
	bool quiet; /* no progress lines on standard error */
};

/* ---- One run's figures (window.c) -------------------------------------------------------- */

#define IK_VAL_NAME_LEN 32
struct ik_val_sample {
	int ncpus, nstates;
	int *cpu_ids; /* the CPUs' numbers (ncpus) */
	char state_names[IK_STATE_MAX][IK_VAL_NAME_LEN];
	double window_ns;
	/* per CPU and state (cpu * nstates + state): counts and ns over the window */
	double *usage, *time_ns, *above, *below;
	bool have_above_below;
	/* wake-up latency of the workload's own activations (rt-app's wu_lat, the model's) */
	bool have_wake;
	double wake_p50_us, wake_p99_us;
	/* the workload's throughput: rt-app activations/s or ping-pong messages/s */
	bool have_throughput;
	const char *throughput_name;
	double throughput;
	/* idle periods by length (IK_IDLE_HIST_BUCKETS log2 buckets), when known */
	bool have_hist;
	uint64_t idle_hist[IK_IDLE_HIST_BUCKETS];
};
int ik__val_sample_alloc(struct ik_val_sample *s, int ncpus, int nstates);
void ik__val_sample_free(struct ik_val_sample *s);

/* The counters of every online CPU with a cpuidle directory, and when they were read. */
struct ik_val_counters {
	struct ik_host_idle idle;
	int64_t at_ns; /* CLOCK_MONOTONIC, the middle of the read */
};
int ik__val_counters_read(const struct ik_sysfs *fs, struct ik_val_counters *c, char *err,
			 size_t errlen);
void ik__val_counters_free(struct ik_val_counters *c);
/* The figures of the window between two reads of the same CPUs. */
int ik__val_sample_window(const struct ik_val_counters *before, const struct ik_val_counters *after,
			 struct ik_val_sample *s, char *err, size_t errlen);

/* ---- The machine (real.c) ----------------------------------------------------------------- */

#define IK_VAL_MAX_PARAMS 16
struct ik_val_machine {
	char kernel[128];         /* uname -r */
	char driver[64], governor[64];
	int nparams;              /* /sys/module/GOVERNOR/parameters (haltpoll's polling) */
	char param_name[IK_VAL_MAX_PARAMS][64];
	char param_value[IK_VAL_MAX_PARAMS][64];
	int ncpus_online;
	bool has_states;          /* some CPU has cpuidle states (and counters) */
	char rtapp_version[64];   /* the Debian package's version, "" when not known */
	double loadavg_before, loadavg_after; /* /proc/loadavg's 1-minute figure, -1 unknown */
	/* a parameter that another process changed while validate ran ("" when none did) */
	char changed[400];
};
void ik__val_machine_read(const struct ik_sysfs *fs, struct ik_val_machine *m);
/*
 * Read the parameters again (after real run `run`, from 1): one that differs from m's is
 * noted in m->changed (the first only) and true returned.  validate writes none: a change
 * is another process's, and the runs measured a machine that was not the one recorded.
 */
bool ik__val_machine_recheck(struct ik_val_machine *m, int run);
/* /proc/loadavg's 1-minute load, -1 when it cannot be read: other work on the CPUs. */
double ik__val_loadavg(void);

/*
 * Start file (searched on PATH when it has no '/') with argv, standard input from
 * /dev/null, standard output and error into outfile, default signal handling and mask.
 * The pid, or -1 with err (also when the program could not be executed).
 */
pid_t ik__val_spawn(const char *file, char *const argv[], const char *outfile, char *err,
		   size_t errlen);
/* Wait for the child, at most limit_ns (then it is killed; SIGTERM on a caught signal);
   its exit status (128 + signal when killed) or -1.  It polls every 5 ms. */
int ik__val_wait_child(pid_t pid, int64_t limit_ns, bool *signalled);
/* The last non-empty line of a program's output file, for a message ("" when none). */
void ik__val_last_output(const char *outfile, char *buf, size_t len);
/* Threads of a process (/proc/PID/status), -1 when it is gone. */
int ik__val_threads_of(pid_t pid);
/* Sleep until CLOCK_MONOTONIC at_ns; false when a caught signal came first. */
bool ik__val_sleep_until(int64_t at_ns);
struct ik_val_hooks;
/*
 * The window of a program that starts threads and ends by itself (rt-app, cyclictest),
 * already spawned as pid: awaited until it has `threads` threads (at most ready_ns; one that
 * ends first is reaped at once), the counters read, hooks started, duration_ns slept, the
 * counters read again, hooks stopped, and the program awaited to its end (30 s at most).
 * Its figures into s and the window's edges into t0/t1 (CLOCK_MONOTONIC).  0, or -1 with
 * err naming the program (name) and quoting its output's last line.
 */
int ik__val_program_window(const char *name, pid_t pid, int threads, int64_t ready_ns,
			  int64_t duration_ns, const char *outfile, const struct ik_sysfs *fs,
			  const struct ik_val_hooks *hooks, struct ik_val_sample *s, int64_t *t0_ns,
			  int64_t *t1_ns, char *err, size_t errlen);
/* One real run of cyclictest (cyclictest.c): its threads, then the window, its histogram. */
int ik__val_cyclictest_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
			  const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
			  size_t errlen);

/* One real run of tbench (tbench.c): tbench_srv, then one client, its window after one
   second, its operations in the window from its per-second counts. */
int ik__val_tbench_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		      const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
		      size_t errlen);

/*
 * The tools' own logs, read from f (the fuzz target's entry points too).
 * ik__val_rtapp_log: one rt-app log, a header line "#idx perf run period start end rel_st
 * slack ... wu_lat" and a line per activation; the columns found by name in the header; an
 * activation counts when it started in [t0_ns, t1_ns) (start is CLOCK_MONOTONIC in us, as
 * rt-app takes it); l accumulates over several logs (l->wu freed by the caller).
 * ik__val_cyclictest_hist: cyclictest's histogram ("USEC COUNT..." a bucket, one column a
 * thread, "# Histogram Overflows: N..."): p50 and p99 over every thread into s (have_wake;
 * an overflow counts as the last bucket), the cycles counted.  0, or -1 with err (origin
 * and line named).
 */
struct ik_val_logs {
	double *wu; /* wake-up latencies, us */
	size_t n, cap;
	uint64_t lines; /* activations in the window */
	bool have_wu;
};
int ik__val_rtapp_log(FILE *f, int64_t t0_ns, int64_t t1_ns, struct ik_val_logs *l, char *err,
		     size_t errlen);
int ik__val_cyclictest_hist(FILE *f, const char *origin, struct ik_val_sample *s,
			   uint64_t *cycles, char *err, size_t errlen);
/*
 * ik__val_tbench_log: tbench's output, its per-second counts ("N OPS MB/sec execute S sec
 * ..."; operations so far, at S s from the clients' release) in order, and its closing
 * "Throughput X MB/sec" when there; 0, or -1 with err (origin and line named; no count at
 * all is an error).  ik__val_tbench_ops_between: the operations between a_s and b_s,
 * interpolated linearly between the counts; NAN outside them.
 */
#define IK_VAL_TBENCH_MAX_SECONDS 3600
struct ik_val_tbench_log {
	int n;
	double sec[IK_VAL_TBENCH_MAX_SECONDS], ops[IK_VAL_TBENCH_MAX_SECONDS];
	bool have_mb_s;
	double mb_s;
};
int ik__val_tbench_log(FILE *f, const char *origin, struct ik_val_tbench_log *l, char *err,
		      size_t errlen);
double ik__val_tbench_ops_between(const struct ik_val_tbench_log *l, double a_s, double b_s);

/* Where rt-app is on PATH ("" when it is not). */
bool ik__val_find_rtapp(char *path, size_t len);

/*
 * The rt-app file as the real side runs it: rtapp's duration (s) and its thread instances,
 * read with the simulator's own reader (so a file the model refuses is refused here first).
 */
int ik__val_rtapp_info(const char *file, int64_t *duration_ns, int *instances, char *err,
		      size_t errlen);
/* A periodic workload as an rt-app file in spec->tmpdir (spec->rtapp_file is set). */
int ik__val_periodic_file(struct ik_val_spec *spec, char *err, size_t errlen);

/*
 * Called right after the window opens (after the first read of the counters) and right
 * before it closes (before the second): the traced run's recorder.  start returns 0, or
 * -1 with err (the run fails).
 */
struct ik_val_hooks {
	int (*start)(void *arg, char *err, size_t errlen);
	void (*stop)(void *arg);
	void *arg;
};

/* One real run of spec's workload: its figures in s (allocated here); hooks may be NULL. */
int ik__val_real_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		    const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
		    size_t errlen);

/*
 * One more real run with idlekit's recorder (src/host/record_tracefs.c) on over the window:
 * its figures in s, with the idle periods of the trace by length in s->idle_hist.  The
 * recorder adds its own wake-ups (its drain thread), so the caller keeps this run out of
 * the figures.  0, or -1 with err (no tracefs, not root, built without libtracefs).
 */
int ik__val_traced_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		      struct ik_val_sample *s, char *err, size_t errlen);

/* ---- Any command (command.c) ------------------------------------------------------------- */

/* One real run of spec->command: the window is its life (or spec->limit_ns of it). */
int ik__val_command_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		       const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
		       size_t errlen);
/*
 * The model of the command: its traced run's trace (ik__val_traced_run leaves it in
 * spec->tmpdir as window.trace) learned as a workload (src/trace/learn.c), written to
 * spec->learned_file; spec->duration_ns becomes the traced window's length (the limit,
 * when there is one), rounded to the millisecond.  0, or -1 with err.
 */
int ik__val_command_learn(struct ik_val_spec *spec, const struct ik_val_sample *traced,
			 char *err, size_t errlen);
/* Whether the command can be run: a file with '/' that is executable, or a name on PATH. */
bool ik__val_command_found(const char *file);

/* ---- The model (predict.c) ---------------------------------------------------------------- */

/*
 * The scenario of spec's prediction (platform, workload, duration), loaded with its
 * effective configuration; *sc and *cfg are the caller's (cfg freed with ik__config_free).
 */
int ik__val_scenario(const struct ik_val_spec *spec, struct ik_scenario *sc, struct ik_config **cfg,
		    char *err, size_t errlen);
/*
 * When the model (sc) runs the machine's governor, it runs it with the machine's module
 * parameters (haltpoll's guest_halt_poll_ns...): governor.NAME=VALUE are put before the
 * user's --set (which win) in spec->sets and sc, *cfg are read again with them.  0: done or
 * nothing to do; non-zero: the model does not take them, sc stays as it was and msg says why.
 */
int ik__val_machine_params(struct ik_val_spec *spec, const struct ik_val_machine *m,
			  struct ik_scenario *sc, struct ik_config **cfg, char *msg, size_t len);
/* Run seed 1..runs of sc; runs[] (spec->runs of them) freed by the caller. */
int ik__val_predict(const struct ik_val_spec *spec, const struct ik_scenario *sc,
		   struct ik_run_result *runs, char *err, size_t errlen);
/* One simulated run's figures, in the same form as a real one's. */
int ik__val_sample_sim(const struct ik_val_spec *spec, const struct ik_run_result *r,
		      struct ik_val_sample *s, char *err, size_t errlen);

/* ---- The comparison (compare.c) ----------------------------------------------------------- */

struct ik_val_figure {
	char name[96];      /* "cpu0 POLL entries/s" */
	const char *unit;   /* "1/s", "%", "us" */
	const char *group;  /* "state", "cpu", "all", "wake", "throughput", "structure" */
	int cpu, state;     /* -1 when the figure is not a CPU's or a state's */
	int nm, np;         /* runs that gave it on each side */
	double measured[IK_VAL_MAX_RUNS], predicted[IK_VAL_MAX_RUNS];
	struct ik_summary ms, ps;
	double error_pct;   /* (predicted - measured) / measured; NaN when measured is 0 */
};

struct ik_val_comparison {
	int nfig;
	struct ik_val_figure *fig;
	char notes[8][320]; /* what did not match one to one (CPU or state counts), the trace */
	int nnotes;
	/* idle periods by length, summed over the runs (have_*: the side gave them) */
	bool have_measured_hist, have_predicted_hist;
	uint64_t measured_hist[IK_IDLE_HIST_BUCKETS], predicted_hist[IK_IDLE_HIST_BUCKETS];
	/* the table of states the figures name (the machine's), for the page */
	int ncpus, nstates;
	char state_names[IK_STATE_MAX][IK_VAL_NAME_LEN];
};
int ik__val_compare(const struct ik_val_sample *measured, int nm, const struct ik_val_sample *predicted,
		   int np, struct ik_val_comparison *c, char *err, size_t errlen);
void ik__val_comparison_free(struct ik_val_comparison *c);
/* The traced run's histogram as the machine's (tr NULL: none, why in trace_err), noted. */
void ik__val_traced_note(struct ik_val_comparison *c, const struct ik_val_sample *tr,
			const char *trace_err);

/* ---- Output (output.c) ------------------------------------------------------------------- */

struct ik_val_report {
	const struct ik_val_spec *spec;
	const struct ik_val_machine *machine;
	const struct ik_scenario *sc;
	const struct ik_run_result *runs; /* the predicted runs (spec->runs) */
	const struct ik_val_comparison *cmp;
	const char *command;              /* the command line, for the record */
};
int ik__val_table(FILE *out, const struct ik_val_report *r);
int ik__val_json(FILE *out, const struct ik_val_report *r);
int ik__val_html(FILE *out, const struct ik_val_report *r);

#endif
