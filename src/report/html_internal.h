/*
 * idlekit report subsystem, internal: the HTML page's shared pieces, used by html.c and by
 * compare.c (whose loaded results are private to it).
 */
#ifndef IDLEKIT_REPORT_HTML_INTERNAL_H
#define IDLEKIT_REPORT_HTML_INTERNAL_H

#include <stdio.h>

/* One result of `idlekit compare`, as the HTML comparison plots it. */
#define IK_HTML_CMP_STATES 24
struct ik_html_cmp_result {
	const char *label;
	int nruns;
	const double *mb_s;  /* per run (NaN: missing) */
	const double *msg_s;
	const double *wake_p50_us;
	const double *wake_p99_us;
	const double *too_deep_pct;
	const double *too_shallow_pct;
	int nstates;
	const char *state_names[IK_HTML_CMP_STATES];
	double residency_mean_pct[IK_HTML_CMP_STATES]; /* mean over runs */
};

/* The page setting n results side by side (the first is the baseline).  0, or -1. */
int ik_html_compare(FILE *out, const struct ik_html_cmp_result *r, int n);

/* The page's start (<!DOCTYPE> to <body>, with the title as <h1>) and its end. */
void ik_html_begin(FILE *out, const char *title);
void ik_html_end(FILE *out);

#endif
