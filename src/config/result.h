/*
 * idlekit: what a run produces, and the reports made from it.
 *
 * Here in src/config, below the engines, because the simulator (src/sim) and the trace
 * replay (src/trace) both fill a struct ik_run_result and the reports (src/report) and
 * sweeps (src/sweep) read it, and a layer includes only the ones below it.  The code is in
 * src/report: run_result.c (the figures of a run), stats.c and welch.c (summaries and the
 * test), table.c, json.c and csv.c (the writers).  Its histograms are src/util's.
 */
#ifndef IDLEKIT_RESULT_H
#define IDLEKIT_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include "config/scenario.h"
#include "idlekit/cpuidle.h"
#include "util/histogram.h"
#include "util/idle_hist.h"
#include "util/timeline.h"

struct ik_state_counters {
	uint64_t usage;
	uint64_t time_ns;
	uint64_t above;
	uint64_t below;
	uint64_t rejected;
	uint64_t above_time_ns; /* time of the entries counted in above */
	uint64_t below_time_ns; /* time of the entries counted in below */
};

/* One CPU's counters of a state added into the run's total for it. */
static inline void ik__state_counters_add(struct ik_state_counters *total,
					 const struct ik_state_counters *k)
{
	total->usage += k->usage;
	total->time_ns += k->time_ns;
	total->above += k->above;
	total->below += k->below;
	total->rejected += k->rejected;
	total->above_time_ns += k->above_time_ns;
	total->below_time_ns += k->below_time_ns;
}

/*
 * Requests of the server workload: each one's latency from its device interrupt to the end
 * of its service, and that latency's three parts, which add up to it:
 *   wake    interrupt to a worker starting on it (the IRQ CPU's exit, the handler, the
 *           worker CPU's IPI and exit, the context switch); for a queued request only the
 *           interrupt and handler part;
 *   queue   waiting for a worker because all were busy (0 for a request that woke one);
 *   service the service itself, as long as it really took (turbo, interrupts).
 */
struct ik_request_stats {
	int workers;
	uint64_t arrived;   /* interrupts in the measured window */
	uint64_t done;      /* requests completed in the window (each one a sample) */
	uint64_t dropped;   /* turned away because queue_limit requests were waiting */
	int64_t service_ns; /* summed service time of the completed requests */
	double target_load_pct;
	struct ik_hist latency, wake, queue, service;
};
/* Share of the workers' time spent serving, in percent (0 without workers or time). */
double ik__request_achieved_load_pct(const struct ik_request_stats *q, int64_t measured_ns);

/* One simulation run (one seed). */
struct ik_run_result {
	uint64_t seed;
	int ncpus;
	int nstates;
	struct ik_state states[IK_STATE_MAX];         /* the driver's table as registered */
	struct ik_state_counters total[IK_STATE_MAX]; /* summed over CPUs */
	struct ik_state_counters *per_cpu;            /* ncpus * nstates, owned */
	int64_t measured_ns;  /* length of the measured window (after warm-up) */
	int64_t busy_ns;      /* summed over CPUs: running tasks or handlers */
	int64_t idle_ns;      /* summed over CPUs: in the idle loop */
	uint64_t idle_entries;  /* calls into the governor's select */
	uint64_t idle_in_progress; /* CPUs still in an idle state when the run ended */
	/* summed over CPUs: the measured part of idle periods still open at the end, which the
	   state counters (like sysfs) do not hold yet */
	int64_t open_idle_ns;
	/* per CPU (ncpus, owned; NULL = not recorded): the state and measured ns of its idle
	   period still open at the end (state -1, ns 0 = none) */
	struct ik_open_idle {
		int state;
		int64_t ns;
	} *open_idle;
	/* per CPU (ncpus, owned; NULL = not recorded): its busy time in the window (running
	   tasks or handlers), so that its idle share is the rest */
	int64_t *cpu_busy_ns;
	uint64_t wakeups;       /* task wakeups (each one a wake-latency sample) */
	uint64_t ipis;          /* IPIs sent to wake idle CPUs */
	struct ik_hist wake_latency; /* from the waker's wake-up to the task running */
	uint64_t messages;      /* pingpong messages delivered */
	uint64_t bytes;         /* their payload */
	uint64_t side_units;    /* work units done by the side spinners (side_spin_cpus) */
	int64_t package_deep_ns; /* summed over packages: time in the package deep state */
	/* after a periodic workload stops: per CPU, from its last work to its first entry into
	   a state that neither polls nor is lite (keeps SMT resources) */
	struct ik_hist leave_lite;
	/* the same CPUs: how many times each entered a lite state on the way (0 for one that
	   went deeper at once; polling not counted), each stay ended by a wake-up: with the
	   tick kept, the ticks it spent there */
	struct ik_hist leave_lite_entries;
	double energy_j;
	/* optional, owned: idle states per CPU over a window (scenario timeline_len_ns), or NULL */
	struct ik_timeline *timeline;
	/* measured idle periods (governor entry to exit, as the time counter takes them) by
	   length, in the log2 buckets of ik__trace_hist_bucket(): [0,1us) [1,2us) [2,4us) ... */
	uint64_t idle_hist[IK_IDLE_HIST_BUCKETS];
	uint64_t idle_time_hist_ns[IK_IDLE_HIST_BUCKETS]; /* their summed durations */
	/* optional, owned: the server workload's requests, or NULL for other workloads */
	struct ik_request_stats *requests;
	/* learned workload: its wake-ups by kind (timer, remote, device interrupt); the other
	   idle periods were ended by the tick or a poll limit */
	uint64_t learned_wakes[3];
};

/*
 * A workload's own figures in one run, as a list every report prints the same way, so that
 * no report knows one workload from another: counts (a key with its unit in its name, and
 * the label the text and HTML tables give it), distributions (a key, a short name for the
 * tables and CSV columns, the histogram in ns), and the per-run figures of the runs and
 * summary tables (by their key among the report's figures, ik__rep_figure_key(), with the
 * column's header, scale and decimals).  Pointers point into the run and the workload's
 * static text: valid while the run is.
 */
struct ik_workload_count {
	const char *key;   /* JSON key and CSV column: "requests_per_s" */
	const char *label; /* table header: "requests/s" */
	bool integer;      /* count (exact) or value (2 decimals; 4 in CSV) */
	uint64_t count;
	double value;
};
struct ik_workload_dist {
	const char *key;  /* JSON key: "latency_ns" */
	const char *name; /* table row and CSV column prefix: "latency" */
	const struct ik_hist *h;
};
struct ik_workload_column {
	const char *figure; /* the report's per-run figure: "request_p50_ns" */
	const char *header; /* "req_p50_us" */
	double scale;       /* 1e-3 turns ns into us */
	int decimals;
};
#define IK_WORKLOAD_COUNTS 8
#define IK_WORKLOAD_DISTS 4
#define IK_WORKLOAD_COLUMNS 4
struct ik_workload_figures {
	const char *key;        /* the JSON object's key: "requests" */
	const char *title;      /* the text and HTML heading: "Requests" */
	const char *definition; /* what the distributions measure, one or two sentences */
	char warning[256];      /* "" or what makes this run's figures suspect, one sentence */
	bool brief;             /* a JSON object on one line */
	int ncounts, ndists, ncolumns;
	struct ik_workload_count count[IK_WORKLOAD_COUNTS];
	struct ik_workload_dist dist[IK_WORKLOAD_DISTS];
	struct ik_workload_column column[IK_WORKLOAD_COLUMNS];
};
/* The figures of run r of workload w: false (f->n* = 0) when it has none of its own. */
bool ik__workload_figures(const struct ik_workload *w, const struct ik_run_result *r,
			 struct ik_workload_figures *f);
/* For the workloads' own hooks (src/sim/workload.c): the heading (key, title, definition);
   append a count, a value, a distribution or a column (ignored past the array's end). */
void ik__workload_figures_head(struct ik_workload_figures *f, const char *key, const char *title,
			      const char *definition);
void ik__workload_figures_count(struct ik_workload_figures *f, const char *key, const char *label,
			       uint64_t n);
void ik__workload_figures_value(struct ik_workload_figures *f, const char *key, const char *label,
			       double x);
void ik__workload_figures_dist(struct ik_workload_figures *f, const char *key, const char *name,
			      const struct ik_hist *h);
void ik__workload_figures_column(struct ik_workload_figures *f, const char *figure,
				const char *header, double scale, int decimals);

/* Figures derived from a run, in the units their names say; count per second of the
   measured time (0 when none was measured). */
double ik__run_per_s(const struct ik_run_result *r, uint64_t count);
double ik__run_messages_per_s(const struct ik_run_result *r);
double ik__run_mb_per_s(const struct ik_run_result *r);
double ik__run_avg_power_w(const struct ik_run_result *r);
double ik__run_residency_pct(const struct ik_run_result *r, int state);
void ik__run_result_free(struct ik_run_result *r);

/* Statistics across runs, as in mmtests' tables. */
struct ik_summary {
	int n;
	double min, max, median, amean, hmean, stddev, cov_pct;
};
/* hmean is 0 when a value is <= 0; stddev is the sample standard deviation (n-1). */
void ik__summarize(const double *values, int n, struct ik_summary *s);

/*
 * Welch's t-test on two summaries (n, amean, stddev): the two-sided p-value that their
 * means differ only by chance; NaN when either has fewer than 2 runs or neither has any
 * spread (nothing to test: equal runs are equal, different ones differ every time).
 */
double ik__welch_p(const struct ik_summary *a, const struct ik_summary *b);
/* The whole test of b against a, with the `confidence` (0.95) interval of b - a. */
struct ik_welch {
	double diff;            /* b.amean - a.amean */
	double t, df, p;        /* NaN when not tested */
	double ci_low, ci_high; /* of diff; NaN when not tested */
	bool tested;            /* 2+ runs each and some spread */
};
void ik__welch_test(const struct ik_summary *a, const struct ik_summary *b, double confidence,
		   struct ik_welch *w);
/* t with P(|T| > t) = two_sided_p for df degrees of freedom (2.228 for 0.05 and 10). */
double ik__student_t_quantile(double two_sided_p, double df);
/* Regularized incomplete beta function I_x(a, b). */
double ik__incomplete_beta(double a, double b, double x);

/* Reports of a set of runs of one scenario: human table, JSON, CSV. */
int ik__report_table(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		    int nruns);
int ik__report_json(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		   int nruns);
/* CSV: one table (docs/csv.md); ik__report_csv is the first of ik__csv_tables ("runs"). */
int ik__report_csv(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		  int nruns);
/* The table names, NULL-terminated: runs states per_cpu summary config. */
extern const char *const ik__csv_tables[];
/* One table by name (NULL = "runs"); -1 for an unknown name or a write error. */
int ik__report_csv_table(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
			int nruns, const char *table);

#endif
