/*
 * idlekit: one self-contained HTML file from a result (inline SVG plots, no script, no
 * network), for looking at idle behaviour.  docs/html-report.md says what each plot shows.
 * Every function writes in the "C" locale (same input, same bytes) and returns 0, or -1
 * (bad arguments, out of memory, or a write error on out).
 *
 * The HTML reports for their callers; html_internal.h beside it holds the pieces html.c,
 * html_trace.c and html_compare.c share among themselves.
 */
#ifndef IDLEKIT_HTML_H
#define IDLEKIT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "config/result.h"
#include "config/scenario.h"
#include "host/host.h"
#include "report/trace_replay.h"
#include "util/timeline.h"

/* The report of a set of runs of one scenario (`idlekit sim --html`). */
int ik__report_html(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		   int nruns);

/* `idlekit analyze TRACE --html`: origin names the trace; tl may be NULL. */
int ik__report_html_analyze(FILE *out, const char *origin, const struct ik_trace_header *h,
			   const struct ik_trace_analysis *a, const struct ik_timeline *tl);

/* `idlekit replay TRACE --html`: drv is the replayed table; tl (replayed entries) may be NULL. */
struct ik_html_replay {
	const char *origin;
	const char *governor;
	const char *platform;
	int hz;
	bool compare; /* --compare-recorded: agreement and the confusion matrix */
	const struct ik_driver *drv;
	const struct ik_trace_header *h;
	const struct ik_trace_replay *rp; /* the first governor's (its timeline is tl) */
	const struct ik_timeline *tl;
	/* every governor's figures side by side (NULL: only rp's) */
	const struct ik_trace_replay_report *report;
};
int ik__report_html_replay(FILE *out, const struct ik_html_replay *r);

/* `idlekit wakelat --html`. */
struct ik_html_wakelat {
	const char *method;
	int waker_cpu, wakee_cpu;
	long warmup;
	int64_t gap_ns;
	int64_t latency_limit_ns;     /* -1: none */
	const char *only_state;       /* NULL: all states enabled */
	const struct ik_wakelat_result *r;
	/* the wakee CPU's idle states during the run (deltas); nstates 0: not known */
	int nstates;
	const char *const *state_names;
	const uint64_t *usage;
	const uint64_t *time_us;
};
int ik__report_html_wakelat(FILE *out, const struct ik_html_wakelat *w);

#endif
