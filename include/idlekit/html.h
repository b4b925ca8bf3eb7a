/*
 * idlekit: one self-contained HTML file from a result (inline SVG plots, no script, no
 * network), for looking at idle behaviour.  docs/html-report.md says what each plot shows.
 */
#ifndef IDLEKIT_HTML_H
#define IDLEKIT_HTML_H

#include <stdio.h>

#include "idlekit/result.h"
#include "idlekit/scenario.h"

/* The report of a set of runs of one scenario (`idlekit sim --html`).  0, or -1. */
int ik_report_html(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		   int nruns);

#endif
