/*
 * `idlekit analyze`'s writers (analyze_out.c): one trace analysis as text, JSON
 * ("idlekit.analyze/1") or CSV (idlestat's columns).  Internal to idlekit: the command
 * calls them, nothing is installed.  Each returns 0, or -1 when writing to f failed.
 */
#ifndef IDLEKIT_REPORT_ANALYZE_OUT_H
#define IDLEKIT_REPORT_ANALYZE_OUT_H

#include <stdio.h>

#include "trace/analyze.h"

/* origin names the trace in the first line. */
int ik__report_analyze_text(FILE *f, const char *origin, const struct ik_trace_header *h,
			   const struct ik_trace_analysis *a);
int ik__report_analyze_json(FILE *f, const struct ik_trace_header *h,
			   const struct ik_trace_analysis *a);
int ik__report_analyze_csv(FILE *f, const struct ik_trace_header *h,
			  const struct ik_trace_analysis *a);

#endif
