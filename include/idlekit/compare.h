/*
 * idlekit: several results side by side (idlekit compare).
 */
#ifndef IDLEKIT_COMPARE_H
#define IDLEKIT_COMPARE_H

#include <stdio.h>

#include "idlekit/result.h"

struct ik_compare_set;

/*
 * Load "FILE" (all its runs) or "FILE@N" (run N, from 1) of `idlekit sim --json` output.
 * 0, or -1 with a message naming the file (and line for bad JSON).
 */
int ik_compare_load(const char *spec, struct ik_compare_set **out, char *err, size_t errlen);
void ik_compare_free(struct ik_compare_set *set);
/* The table, the first set as the baseline. */
int ik_compare_report(FILE *out, struct ik_compare_set *const *sets, int n);
/* The same results as one self-contained HTML page with plots (idlekit compare --html). */
int ik_compare_report_html(FILE *out, struct ik_compare_set *const *sets, int n);

#endif
