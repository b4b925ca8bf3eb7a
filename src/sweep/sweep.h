/*
 * idlekit: sweeps, a grid of what-ifs over scenario and platform keys (docs/sweep.md).
 *
 * A spec names a base scenario, the keys to vary (axes: lists, linear or log ranges; axes
 * zipped into groups move together, groups are crossed), overrides of the base, and the
 * runs (seeds) per point.  Points are numbered in a fixed order (the last group fastest),
 * runs within a point by seed, so a task (point, run) has one number everywhere: on one
 * machine with any number of threads, and in any shard of a cluster job.
 *
 * A sweep's results are one row per task, streamed to a rows file in task order; every
 * report (tidy CSV/JSON, summary, HTML page) is made from that file, so a local run and the
 * merge of shard outputs give the same bytes.
 *
 * The sweep module's interface for the commands; sweep_internal.h (the rows file) and
 * spec_internal.h (what the spec reader, grid and rows share) are src/sweep's own.
 */
#ifndef IDLEKIT_SWEEP_H
#define IDLEKIT_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/result.h"
#include "config/scenario.h"

#define IK_SWEEP_MAX_AXES 16
#define IK_SWEEP_MAX_VALUES 10000   /* per axis */
#define IK_SWEEP_MAX_POINTS 1000000
#define IK_SWEEP_MAX_RUNS 1000
#define IK_SWEEP_MAX_OVERRIDES 64
#define IK_SWEEP_KEY_LEN 64
#define IK_SWEEP_VALUE_LEN 96
#define IK_SWEEP_OVERRIDE_LEN 320
#define IK_SWEEP_SETTING_LEN 64

/* One varied key. */
struct ik_sweep_axis {
	char key[IK_SWEEP_KEY_LEN];       /* "section.key" */
	char template_[IK_SWEEP_VALUE_LEN]; /* "" or a text with "{}" where the value goes */
	int line;                         /* of vary.KEY in the spec; 0 = not from a file */
	int template_line;
	int nvalues;
	char (*values)[IK_SWEEP_VALUE_LEN]; /* as listed (owned) */
	bool numeric;                     /* every value is a number */
	double *num;                      /* the values as numbers when numeric (owned) */
	int group;                        /* its group: axes of a group are zipped */
};

/* What counts as a bad run: FIGURE below VALUE (for bimodal results). */
struct ik_sweep_bad {
	bool on;
	int figure; /* index into ik__sweep_figure_key() */
	double below;
};

struct ik_sweep_spec {
	char origin[256];  /* the spec file as named, for messages */
	char base[256];    /* as written: a built-in scenario name or a file */
	char base_ref[4096]; /* what ik__scenario_load gets: a file is relative to the spec's folder */
	int base_line;
	int runs;          /* 0 = the base scenario's */
	int runs_line;
	bool have_seed;
	uint64_t seed;     /* first seed; else the base scenario's */
	int naxes;
	struct ik_sweep_axis axes[IK_SWEEP_MAX_AXES];
	int ngroups;       /* groups in the order of their first axis */
	int group_len[IK_SWEEP_MAX_AXES];
	int noverrides;    /* "section.key=value" from the spec's other sections */
	char overrides[IK_SWEEP_MAX_OVERRIDES][IK_SWEEP_OVERRIDE_LEN];
	int override_line[IK_SWEEP_MAX_OVERRIDES];
	struct ik_sweep_bad bad;
	int bad_line;
	int64_t npoints;   /* product of the group lengths (1 with no axis) */
};

/* ---- the spec (src/sweep/spec_ini.c) ---- */

/* An empty spec (one point, the base as it is); free with ik__sweep_spec_free. */
void ik__sweep_spec_init(struct ik_sweep_spec *s, const char *origin, const char *base);
void ik__sweep_spec_free(struct ik_sweep_spec *s);

/*
 * Parse a spec from text (origin names it in messages; files named in `base` are relative
 * to origin's folder).  Only the spec itself is checked here; ik__sweep_spec_check loads
 * the scenario.  0, or -1 with one message "FILE:LINE: [sweep] key: expected ..., got ...".
 */
int ik__sweep_spec_parse_string(const char *origin, const char *text, struct ik_sweep_spec *s,
			       char *err, size_t errlen);
int ik__sweep_spec_load(const char *path, struct ik_sweep_spec *s, char *err, size_t errlen);

/* Add an axis "KEY=LIST" (sim --vary), as a vary.KEY line would. 0, or -1 with a message. */
int ik__sweep_spec_add_axis(struct ik_sweep_spec *s, const char *key, const char *list, int line,
			   char *err, size_t errlen);
/* "FIGURE:VALUE" (--bad-below). 0, or -1 with a message. */
int ik__sweep_parse_bad(const char *text, struct ik_sweep_bad *bad, char *err, size_t errlen);

/*
 * Load the base with the overrides, and with each value of each axis, as the points will:
 * a bad key or value is reported at the spec's line.  Fills runs and seed from the base
 * when the spec leaves them out.  0, or -1 with a message (src/sweep/check.c).
 */
int ik__sweep_spec_check(struct ik_sweep_spec *s, char *err, size_t errlen);
/*
 * After ik__sweep_spec_check: open each kernel: or plugin: governor of the sweep once per
 * release its points run as (a run of 1 us), so that a file that does not compile for one
 * of them is reported before anything runs.  0, or -1 with a message naming the point
 * (src/sweep/governors_check.c).
 */
int ik__sweep_governors_check(const struct ik_sweep_spec *s, char *err, size_t errlen);

/* The spec in a canonical text (reads back as the same spec; comments and order of other
   sections dropped), and its 64-bit FNV-1a hash: what makes two specs "the same". */
int ik__sweep_spec_write(FILE *out, const struct ik_sweep_spec *s);
uint64_t ik__sweep_spec_hash(const struct ik_sweep_spec *s);

/* ---- the grid (src/sweep/grid.c) ---- */

/* The value index of each axis at a point (idx[naxes]). */
void ik__sweep_point_index(const struct ik_sweep_spec *s, int64_t point, int *idx);
/* A point's values as text: "KEY=VALUE, KEY=VALUE" (cut at len). */
void ik__sweep_point_label(const struct ik_sweep_spec *s, int64_t point, char *buf, size_t len);
/* The scenario of a point: the base, the overrides, then each axis's value. */
int ik__sweep_point_load(const struct ik_sweep_spec *s, int64_t point, struct ik_scenario *sc,
			char *err, size_t errlen);
/* An axis's override text for value i ("section.key=value", the template applied). */
void ik__sweep_axis_override(const struct ik_sweep_axis *a, int i, char *buf, size_t len);

/* ---- shards (src/sweep/shard.c) ---- */

struct ik_sweep_shard {
	int index; /* 0..count-1 */
	int count;
};
/* "I/N" with 0 <= I < N. 0, or -1 with a message. */
int ik__sweep_shard_parse(const char *text, struct ik_sweep_shard *sh, char *err, size_t errlen);
/*
 * The shard from the environment when not given: a Slurm job array (SLURM_ARRAY_TASK_ID
 * minus SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT), or a Kubernetes Indexed Job's
 * JOB_COMPLETION_INDEX of `count_hint` (--shard-count; required then).  Returns 1 when
 * found, 0 when the environment names no shard, -1 with a message when it is malformed.
 */
int ik__sweep_shard_from_env(int count_hint, struct ik_sweep_shard *sh, char *src, size_t srclen,
			    char *err, size_t errlen);
/* Points of a shard: point p belongs to shard p mod count. */
int64_t ik__sweep_shard_points(const struct ik_sweep_spec *s, const struct ik_sweep_shard *sh);
int64_t ik__sweep_shard_point(const struct ik_sweep_shard *sh, int64_t k); /* k-th point */

/* ---- results: rows (src/sweep/rows.c) ---- */

/* The per-run figures of a row, their names with units ("mb_per_s") (src/sweep/figures.c). */
int ik__sweep_figure_count(void);
const char *ik__sweep_figure_key(int figure);
int ik__sweep_figure_find(const char *key); /* -1 if none */

/* The tidy table's header line (results.csv). */
void ik__sweep_rows_header(FILE *out, const struct ik_sweep_spec *s);

/*
 * Scan a rows file of a shard: the points it holds in full must be the shard's first points
 * in order, each with its `runs` rows.  *done = how many; *good_bytes = where the last
 * complete point ends (a run cut short leaves a tail to drop).  0, or -1 with a message
 * (the file is not this sweep's).
 */
int ik__sweep_rows_scan(FILE *rows, const char *name, const struct ik_sweep_spec *s,
		       const struct ik_sweep_shard *sh, int64_t *done, long *good_bytes, char *err,
		       size_t errlen);

/*
 * A sweep folder's manifest (DIR/manifest): which spec (its hash), which shard, how many
 * points and runs per point.  Local runs are shard 0/1.
 */
struct ik_sweep_manifest {
	uint64_t spec_hash;
	struct ik_sweep_shard shard;
	int64_t points; /* of the shard */
	int runs;
};
int ik__sweep_manifest_write(FILE *out, const struct ik_sweep_spec *s,
			    const struct ik_sweep_shard *sh);
/* 0, or -1 with "PATH:LINE: ..." in err. */
int ik__sweep_manifest_read(const char *path, struct ik_sweep_manifest *m, char *err,
			   size_t errlen);

/* ---- running (src/sweep/run.c) ---- */

struct ik_sweep_progress {
	/* done of total: tasks for a sweep (at each end), simulated ms for ik__sim_run_many (as
	   its runs go on) */
	void (*step)(void *user, int64_t done, int64_t total);
	void *user;
};

/* Take the folder for this process (sweep/lock.c): the descriptor holding the lock (kept
   open to the end), or -1 with a message (another sweep writes it; cannot create the lock
   file). */
int ik__sweep_lock(const char *dir, char *err, size_t errlen);

/*
 * Run the shard's points from its `first` (earlier ones are done) on `threads` threads,
 * appending rows to `rows` in task order, a point at a time (flushed), so a stopped run
 * loses at most the points in flight.  The same bytes for any number of threads.
 * 0; 2 when a point's scenario does not load or a run fails on bad input (message in err);
 * -1 when writing fails.
 */
int ik__sweep_run(const struct ik_sweep_spec *s, const struct ik_sweep_shard *sh, int64_t first,
		 int threads, FILE *rows, const struct ik_sweep_progress *progress, char *err,
		 size_t errlen);

/*
 * n seeds (seed, seed+1, ...) of one scenario on `threads` threads into out[0..n-1]: run 0
 * of `first` (which may ask for a timeline), the others of `rest`.  0, or -1 with the
 * lowest failing run's message (nothing left to free).  The progress is told in simulated
 * ms: done of all runs' total, as the runs go on (src/sweep/many.c).
 */
int ik__sim_run_many(const struct ik_scenario *first, const struct ik_scenario *rest,
		    uint64_t seed, int n, int threads, struct ik_run_result *out,
		    const struct ik_sweep_progress *progress, char *err, size_t errlen);

/* ---- reports (src/sweep/report.c, html.c) ---- */

/* Per point and figure: median, quartiles, mean and its 95% confidence interval. */
struct ik_sweep_stat {
	double median, q1, q3, mean, ci_low, ci_high;
};
struct ik_sweep_summary {
	int64_t npoints;
	int nfigures;
	int *nruns;                  /* per point */
	struct ik_sweep_stat *stat;  /* npoints * nfigures */
	double *bad_fraction;        /* per point, when the spec's bad is on */
	char (*settings)[4][IK_SWEEP_SETTING_LEN]; /* per point: scenario, platform, driver, governor */
};
/* From a rows file holding every point in order. 0, or -1 with a message. */
int ik__sweep_summarize(FILE *rows, const struct ik_sweep_spec *s,
		       struct ik_sweep_summary *sum, char *err, size_t errlen);
void ik__sweep_summary_free(struct ik_sweep_summary *sum);

int ik__sweep_write_results_csv(FILE *out, FILE *rows, const struct ik_sweep_spec *s);
int ik__sweep_write_results_json(FILE *out, FILE *rows, const struct ik_sweep_spec *s);
int ik__sweep_write_summary_csv(FILE *out, const struct ik_sweep_spec *s,
			       const struct ik_sweep_summary *sum);
int ik__sweep_write_html(FILE *out, const struct ik_sweep_spec *s,
			const struct ik_sweep_summary *sum);

/* Median, quartiles (linear interpolation between order statistics), mean and the
   Student-t 95% interval of n values (sorted in place); NaN where undefined. */
void ik__sweep_stat_of(double *values, int n, struct ik_sweep_stat *st);

#endif
