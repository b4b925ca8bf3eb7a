/*
 * idlekit report subsystem, internal: the HTML page's shared pieces, used by html.c,
 * html_trace.c and html_compare.c (which draws the results compare.c loads).
 */
#ifndef IDLEKIT_REPORT_HTML_INTERNAL_H
#define IDLEKIT_REPORT_HTML_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/result.h"
#include "trace/analyze.h"
#include "util/timeline.h"

/* One result of `idlekit compare`, as the HTML comparison plots it. */
#define IK_HTML_CMP_STATES 24
/* The wake-latency percentiles overlaid: wake_latency_ns keys and their percentiles. */
#define IK_HTML_CMP_QUANTILES 9
extern const char *const ik__html_cmp_quantile_keys[IK_HTML_CMP_QUANTILES];
extern const double ik__html_cmp_quantile_pct[IK_HTML_CMP_QUANTILES];
#define IK_HTML_CMP_FIGURES 8 /* MB/s msg/s p50 p99 too_deep too_shallow power energy */
struct ik_html_cmp_result {
	const char *label;
	int nruns;
	const double *mb_s;  /* per run (NaN: missing) */
	const double *msg_s;
	const double *wake_p50_us;
	const double *wake_p99_us;
	const double *too_deep_pct;
	const double *too_shallow_pct;
	const double *avg_power_w;
	const double *energy_j;
	/* against the baseline (not for the first result), in the order of
	   ik_html_cmp_figure_names: Welch's test on the means */
	bool significant[IK_HTML_CMP_FIGURES];
	double p_value[IK_HTML_CMP_FIGURES]; /* NaN: no test */
	double wake_q_us[IK_HTML_CMP_QUANTILES]; /* mean over runs; NaN: not in the result */
	const uint64_t *idle_hist; /* IK_IDLE_HIST_BUCKETS, summed over runs; NULL: absent */
	int nstates;
	const char *state_names[IK_HTML_CMP_STATES];
	double residency_mean_pct[IK_HTML_CMP_STATES]; /* mean over runs */
};

/* A named figure of the results (a workload's "requests.latency_p99_us", a validate
   result's "validate.cpu0 busy"): per result its mean over runs (NaN: the result lacks it),
   and against the baseline its relative change and Welch's test. */
struct ik_html_cmp_named {
	const char *name, *unit;
	double mean[64], change_pct[64], p_value[64];
	bool significant[64];
};

/* The page setting n results side by side (the first is the baseline), with nnamed named
   figures in a table of their own.  0, or -1. */
int ik__html_compare(FILE *out, const struct ik_html_cmp_result *r, int n,
		    const struct ik_html_cmp_named *named, int nnamed);

/* The page's start (<!DOCTYPE> to <body>, with the title as <h1>) and its end. */
void ik__html_begin(FILE *out, const char *title);
void ik__html_end(FILE *out);

/* ---- shared pieces (html_common.c) ---- */

#define IK_HTML_PLOT_W 900
#define IK_HTML_PLOT_H 360
#define IK_HTML_LABEL_LEN 32

/* <p class="note">, printf-style, escaped. */
void ik__html_note(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Table cells, escaped. */
void ik__html_th(FILE *out, const char *s);
/* A table's header row: <tr>, a <th> per name, </tr>. */
void ik__html_head_row(FILE *out, const char *const *names, size_t n);
void ik__html_td_text(FILE *out, const char *s, size_t n);
void ik__html_td_num(FILE *out, const char *s);
void ik__html_td_u64(FILE *out, uint64_t v);
void ik__html_td_fixed(FILE *out, double v, int decimals);
void ik__html_td_us(FILE *out, int64_t ns); /* ns as us, 2 decimals */
/* A row of a settings table: key, value (at most n bytes of it). */
void ik__html_setting(FILE *out, const char *key, const char *value, size_t n);
/* Pointers to n labels (NULL-terminated, to free), and how often to label n categories. */
const char **ik__html_label_ptrs(char (*labels)[IK_HTML_LABEL_LEN], int n);
int ik__html_label_every(int n);
/*
 * A category plot's buffers: n labels (text to fill, p pointing at them, NULL-terminated)
 * and per zeroed values a category (v; NULL when per is 0).  ik__html_cats_new: 0, or -1
 * when memory ran out (nothing left to free).
 */
struct ik_html_cats {
	char (*text)[IK_HTML_LABEL_LEN];
	const char **p;
	double *v;
};
int ik__html_cats_new(struct ik_html_cats *c, int n, size_t per);
void ik__html_cats_free(struct ik_html_cats *c);

/* The idle-entry accuracy series of the sim and compare pages, and their colours (i 0-2). */
extern const char *const ik__html_acc_names[3];
const char *ik__html_acc_color(int i);

/*
 * Residency per state, per CPU: stacked bars of time_ns[cpu * nstates + state] / span_ns,
 * the rest ("other") in grey; more than 64 CPUs are grouped into at most 64 bars (means).
 * CPUs are labelled from first_cpu.
 */
int ik__html_residency_cpus(FILE *out, const char *title, int first_cpu, int ncpus, int nstates,
			   const char *const *state_names, const double *time_ns, double span_ns,
			   const char *other);
/*
 * Latency histogram and CDF of h (log x axis when the samples span two decades), with p50,
 * p90, p99, p99.9 marked: exact_us (4 values) if given, else h's.  With 2 to 7 runs, each
 * run's CDF too.  all_name names h in the legend; definition opens the note below.
 */
void ik__html_latency(FILE *out, const struct ik_hist *h, const struct ik_hist *const *runs,
		     const char *const *run_names, int nruns, const double *exact_us,
		     const char *all_name, const char *definition);
/* Idle durations in log2 buckets (ik__trace_hist_lower_ns), drv's target residencies marked. */
/* ylabel: NULL = "share of idle periods (%)" (hist counts periods); else hist is weighted
   by something else (ns of idle time) and ylabel names its share. */
void ik__html_idle_hist(FILE *out, const char *title, const char *ylabel, const uint64_t *hist,
		       int nbuckets,
		       const struct ik_driver *drv, const char *what);
/*
 * Idle-duration histograms (IK_IDLE_HIST_BUCKETS) side by side as shares of their periods,
 * over the buckets first..last that any of them fills (ik__html_idle_span widens them to h's,
 * from first = IK_IDLE_HIST_BUCKETS, last = -1).  ik__html_idle_axis: edges, the x (us) of
 * buckets first..last + 1 ([0, 1 us) drawn from 0.5 us, the open last bucket one bucket
 * wide), and the x axis over them (log when they span two decades).
 */
void ik__html_idle_span(const uint64_t *h, int *first, int *last);
struct ik_svg_axis;
void ik__html_idle_axis(struct ik_svg_axis *x, double *edges, int first, int last);
/* The largest bucket's share of h's periods (%), 0 when h is empty. */
double ik__html_idle_share_max(const uint64_t *h);
/* h as a step line of shares over first..last, named name; false (nothing drawn) when empty. */
struct ik_svg;
bool ik__html_idle_share_line(struct ik_svg *p, const uint64_t *h, const double *edges, int first,
			     int last, const char *color, const char *name);
/* The per-CPU timeline of states; what: the x axis' label. */
void ik__html_timeline(FILE *out, const char *title, const struct ik_timeline *tl, int nstates,
		      const char *const *state_names, const char *what);

#endif
