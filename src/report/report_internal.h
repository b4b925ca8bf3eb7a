/*
 * idlekit report subsystem, internal: the locale and the figures shared by the table,
 * JSON and CSV writers.  Not part of the public API (nothing outside src/report uses it).
 *
 * Files including this header must define _POSIX_C_SOURCE 200809L (or get it from
 * -std=gnu11) before any system header, for locale_t.
 */
#ifndef IDLEKIT_REPORT_INTERNAL_H
#define IDLEKIT_REPORT_INTERNAL_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "config/result.h"
#include "util/number_format.h"

/* Numbers as text: util/number_format.h (ik_fmt_*). */

/*
 * Reports are written in the "C" numeric locale whatever the program's locale is, so that
 * the decimal point is always '.' (JSON and CSV need it; determinism wants it for the table).
 * Per thread (uselocale), so two reports can be written in parallel.
 */
struct ik_rep_locale {
	locale_t c_locale;
	locale_t previous;
};
void ik__rep_locale_enter(struct ik_rep_locale *l);
void ik__rep_locale_leave(struct ik_rep_locale *l);

/* nstates of a run clamped to [0, IK_STATE_MAX]. */
int ik__rep_nstates(const struct ik_run_result *r);
/* The per-CPU counters of (cpu, state), or NULL when the run has none. */
const struct ik_state_counters *ik__rep_per_cpu(const struct ik_run_result *r, int cpu, int state);

/*
 * Governor accuracy, idlekit's one definition (docs/json-schema.md): over every idle entry
 * that entered a state (the sum of usage over states and CPUs), "too deep" is the kernel's
 * `above` count, "too shallow" is its `below` count and "right" is the rest.  The kernel
 * counts an entry in at most one of above and below, so right >= 0 (clamped to 0 if the
 * counters say otherwise).  Percentages are of entries (0 when there are none).
 */
struct ik_rep_accuracy {
	uint64_t entries;
	uint64_t too_deep;
	uint64_t too_shallow;
	uint64_t right;
	double too_deep_pct;
	double too_shallow_pct;
	double right_pct;
	/* weighted by time: shares of the time in states (docs/json-schema.md) */
	double too_deep_time_pct;
	double too_shallow_time_pct;
	double right_time_pct;
};
void ik__rep_accuracy(const struct ik_run_result *r, struct ik_rep_accuracy *a);

/* Idle entries per CPU per second of measured time (0 when either is 0). */
double ik__rep_idle_entries_per_cpu_per_s(const struct ik_run_result *r);

/* The per-run figures that summaries across runs are made of. */
enum ik_rep_figure {
	IK_FIG_MESSAGES_PER_S,
	IK_FIG_MB_PER_S,
	IK_FIG_WAKE_P50_NS,
	IK_FIG_WAKE_P90_NS,
	IK_FIG_WAKE_P99_NS,
	IK_FIG_WAKE_P99_9_NS,
	IK_FIG_WAKE_MAX_NS,
	IK_FIG_ENERGY_J,
	IK_FIG_AVG_POWER_W,
	IK_FIG_IDLE_ENTRIES_PER_CPU_PER_S,
	IK_FIG_TOO_DEEP_PCT,
	IK_FIG_TOO_SHALLOW_PCT,
	IK_FIG_REQUEST_P50_NS, /* a workload's requests (its figures' columns name them) */
	IK_FIG_REQUEST_P99_NS,
	IK_FIG_ACHIEVED_LOAD_PCT,
	IK_FIG_RESIDENCY_PCT, /* of one state */
	IK_FIG_COUNT
};
/* Its name in JSON (units in the name), e.g. "mb_per_s". */
const char *ik__rep_figure_key(enum ik_rep_figure figure);
/* The figure of that key: 0, or -1 when none has it. */
int ik__rep_figure_find(const char *key, enum ik_rep_figure *figure);
double ik__rep_figure_value(const struct ik_run_result *r, enum ik_rep_figure figure, int state);
/* ik__summarize over the runs' values of one figure; -1 if memory ran out. */
int ik__rep_summarize_figure(const struct ik_run_result *runs, int nruns,
			    enum ik_rep_figure figure, int state, struct ik_summary *s);

/* fflush then ferror: 0 if everything written reached the stream, else -1. */
int ik__rep_finish(FILE *out);
/* The end of every report: ik__rep_locale_leave, then rc, or -1 if ik__rep_finish fails. */
int ik__rep_done(FILE *out, struct ik_rep_locale *l, int rc);

/*
 * The frame of a report of a scenario's runs (table, JSON, CSV, HTML): -1 when the
 * arguments do not hold together (out or sc NULL, nruns < 0, runs NULL with nruns > 0),
 * else body's result written in the "C" locale (ik__rep_done).  arg is passed to body.
 */
struct ik_scenario;
typedef int (*ik_rep_runs_body)(FILE *out, const struct ik_scenario *sc,
				const struct ik_run_result *runs, int nruns, const void *arg);
int ik__rep_runs_report(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		       int nruns, ik_rep_runs_body body, const void *arg);

#endif
