/*
 * idlekit: several results side by side (idlekit compare).
 */
#ifndef IDLEKIT_COMPARE_H
#define IDLEKIT_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config/result.h"

struct ik_compare_set;

/*
 * Load "FILE" (all its runs), "FILE@N" (run N, from 1) or "FILE@GOVERNOR" (a replay
 * document's run of that governor) of `idlekit sim`, `replay` or `analyze --json` output:
 * one result, or one per governor of a replay/2 document (at most max).  0, or -1 with a
 * message naming the file (and line for bad JSON).
 */
int ik__compare_load_many(const char *spec, struct ik_compare_set **out, int max, int *n,
			 char *err, size_t errlen);
/* The same from text in memory (len bytes; spec names it); text NULL = read the file. */
int ik__compare_load_text(const char *spec, const char *text, size_t len,
			 struct ik_compare_set **out, int max, int *n, char *err, size_t errlen);
/* The first result of spec. */
int ik__compare_load(const char *spec, struct ik_compare_set **out, char *err, size_t errlen);
void ik__compare_free(struct ik_compare_set *set);
/* The table, the first set as the baseline. */
int ik__compare_report(FILE *out, struct ik_compare_set *const *sets, int n);
/* The same figures as JSON (schema idlekit.compare/1) and CSV (docs/compare.md). */
int ik__compare_report_json(FILE *out, struct ik_compare_set *const *sets, int n);
int ik__compare_report_csv(FILE *out, struct ik_compare_set *const *sets, int n);

/* A regression gate, "FIGURE:worse-than:PCT" (--fail-if). */
struct ik_compare_gate {
	int figure;    /* one of compare's own figures, or -1: the workload figure `name` */
	char name[80];
	int better;    /* +1 higher is better, -1 lower */
	double pct;
};
/* 0, or -1 with a message saying what was expected. */
int ik__compare_parse_gate(const char *text, struct ik_compare_gate *g, char *err, size_t errlen);
/*
 * The workload figures the gates name, found in the results once they are read: the name
 * as compare lists it, or one that has its words (request_latency_p99 for
 * requests.latency_p99_us; said on msg).  0, or -1 with a message (no such figure, more
 * than one, or one with no better side).
 */
int ik__compare_resolve_gates(FILE *msg, struct ik_compare_set *const *sets, int n,
			     struct ik_compare_gate *gates, int ngates, char *err, size_t errlen);
/*
 * 1 when a result's mean of a gate's figure is worse than the baseline's by more than its
 * percentage (or a result lacks the figure), with one line per failure on msg; else 0.
 */
int ik__compare_check_gates(FILE *msg, struct ik_compare_set *const *sets, int n,
			   const struct ik_compare_gate *gates, int ngates);
/* The same results as one self-contained HTML page with plots (idlekit compare --html). */
int ik__compare_report_html(FILE *out, struct ik_compare_set *const *sets, int n);

/*
 * govreplay results (idlekit.govreplay/1) decision by decision against the first: 0, or -1
 * with a message (nothing written: a result of another kind, different inputs).
 * ik__compare_is_govreplay: whether a file says it is one (its first bytes).
 */
bool ik__compare_is_govreplay(const char *path);
int ik__compare_decisions(FILE *out, const char *const *paths, int n, uint64_t max_bytes,
			 char *err, size_t errlen);
/* The same from the documents' texts (paths name them in messages). */
int ik__compare_decisions_text(FILE *out, const char *const *paths, const char *const *texts,
			      const size_t *lens, int n, char *err, size_t errlen);
/* The largest result file compare reads (IDLEKIT_COMPARE_MAX_MB, else 512 MiB), bytes. */
uint64_t ik__compare_max_bytes(void);

#endif
