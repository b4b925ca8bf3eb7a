/*
 * What the three report writers share: locale-independent number formatting, and the
 * figures derived from a run (accuracy, per-run figures and their summaries across runs).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

void ik__rep_locale_enter(struct ik_rep_locale *l)
{
	l->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	l->previous = (locale_t)0;
	if (l->c_locale != (locale_t)0)
		l->previous = uselocale(l->c_locale);
}

void ik__rep_locale_leave(struct ik_rep_locale *l)
{
	if (l->c_locale == (locale_t)0)
		return;
	uselocale(l->previous);
	freelocale(l->c_locale);
	l->c_locale = (locale_t)0;
}

int ik__rep_nstates(const struct ik_run_result *r)
{
	if (r->nstates < 0)
		return 0;
	return r->nstates > IK_STATE_MAX ? IK_STATE_MAX : r->nstates;
}

const struct ik_state_counters *ik__rep_per_cpu(const struct ik_run_result *r, int cpu, int state)
{
	if (!r->per_cpu || cpu < 0 || cpu >= r->ncpus || state < 0 || state >= r->nstates)
		return NULL;
	return &r->per_cpu[(size_t)cpu * (size_t)r->nstates + (size_t)state];
}

static double percent_of(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0.0;
}

void ik__rep_accuracy(const struct ik_run_result *r, struct ik_rep_accuracy *a)
{
	memset(a, 0, sizeof(*a));
	int nstates = ik__rep_nstates(r);
	for (int i = 0; i < nstates; i++) {
		a->entries += r->total[i].usage;
		a->too_deep += r->total[i].above;
		a->too_shallow += r->total[i].below;
	}
	uint64_t missed = a->too_deep + a->too_shallow;
	a->right = a->entries > missed ? a->entries - missed : 0;
	a->too_deep_pct = percent_of(a->too_deep, a->entries);
	a->too_shallow_pct = percent_of(a->too_shallow, a->entries);
	a->right_pct = percent_of(a->right, a->entries);
	/* by time: the share of the time in states spent in entries counted too deep or too
	   shallow (the counted entries' own durations) */
	uint64_t time = 0, deep = 0, shallow = 0;
	for (int i = 0; i < nstates; i++) {
		time += r->total[i].time_ns;
		deep += r->total[i].above_time_ns;
		shallow += r->total[i].below_time_ns;
	}
	a->too_deep_time_pct = percent_of(deep, time);
	a->too_shallow_time_pct = percent_of(shallow, time);
	a->right_time_pct = time ? 100.0 - a->too_deep_time_pct - a->too_shallow_time_pct : 0.0;
}

double ik__rep_idle_entries_per_cpu_per_s(const struct ik_run_result *r)
{
	if (r->ncpus <= 0 || r->measured_ns <= 0)
		return 0.0;
	double seconds = (double)r->measured_ns / (double)IK_NSEC_PER_SEC;
	return (double)r->idle_entries / r->ncpus / seconds;
}

static const char *const figure_keys[IK_FIG_COUNT] = {
	[IK_FIG_MESSAGES_PER_S] = "messages_per_s",
	[IK_FIG_MB_PER_S] = "mb_per_s",
	[IK_FIG_WAKE_P50_NS] = "wake_p50_ns",
	[IK_FIG_WAKE_P90_NS] = "wake_p90_ns",
	[IK_FIG_WAKE_P99_NS] = "wake_p99_ns",
	[IK_FIG_WAKE_P99_9_NS] = "wake_p99_9_ns",
	[IK_FIG_WAKE_MAX_NS] = "wake_max_ns",
	[IK_FIG_ENERGY_J] = "energy_j",
	[IK_FIG_AVG_POWER_W] = "avg_power_w",
	[IK_FIG_IDLE_ENTRIES_PER_CPU_PER_S] = "idle_entries_per_cpu_per_s",
	[IK_FIG_TOO_DEEP_PCT] = "too_deep_pct",
	[IK_FIG_TOO_SHALLOW_PCT] = "too_shallow_pct",
	[IK_FIG_REQUEST_P50_NS] = "request_p50_ns",
	[IK_FIG_REQUEST_P99_NS] = "request_p99_ns",
	[IK_FIG_ACHIEVED_LOAD_PCT] = "achieved_load_pct",
	[IK_FIG_RESIDENCY_PCT] = "residency_pct",
};

const char *ik__rep_figure_key(enum ik_rep_figure figure)
{
	if ((int)figure < 0 || figure >= IK_FIG_COUNT)
		return "unknown";
	return figure_keys[figure];
}

int ik__rep_figure_find(const char *key, enum ik_rep_figure *figure)
{
	for (int i = 0; i < IK_FIG_COUNT; i++)
		if (strcmp(figure_keys[i], key) == 0) {
			*figure = (enum ik_rep_figure)i;
			return 0;
		}
	return -1;
}

double ik__rep_figure_value(const struct ik_run_result *r, enum ik_rep_figure figure, int state)
{
	struct ik_rep_accuracy accuracy;
	switch (figure) {
	case IK_FIG_MESSAGES_PER_S:
		return ik__run_messages_per_s(r);
	case IK_FIG_MB_PER_S:
		return ik__run_mb_per_s(r);
	case IK_FIG_WAKE_P50_NS:
		return (double)ik__hist_percentile(&r->wake_latency, 50.0);
	case IK_FIG_WAKE_P90_NS:
		return (double)ik__hist_percentile(&r->wake_latency, 90.0);
	case IK_FIG_WAKE_P99_NS:
		return (double)ik__hist_percentile(&r->wake_latency, 99.0);
	case IK_FIG_WAKE_P99_9_NS:
		return (double)ik__hist_percentile(&r->wake_latency, 99.9);
	case IK_FIG_WAKE_MAX_NS:
		return (double)ik__hist_percentile(&r->wake_latency, 100.0);
	case IK_FIG_ENERGY_J:
		return r->energy_j;
	case IK_FIG_AVG_POWER_W:
		return ik__run_avg_power_w(r);
	case IK_FIG_IDLE_ENTRIES_PER_CPU_PER_S:
		return ik__rep_idle_entries_per_cpu_per_s(r);
	case IK_FIG_TOO_DEEP_PCT:
		ik__rep_accuracy(r, &accuracy);
		return accuracy.too_deep_pct;
	case IK_FIG_TOO_SHALLOW_PCT:
		ik__rep_accuracy(r, &accuracy);
		return accuracy.too_shallow_pct;
	case IK_FIG_REQUEST_P50_NS:
		return r->requests ? (double)ik__hist_percentile(&r->requests->latency, 50.0) : 0.0;
	case IK_FIG_REQUEST_P99_NS:
		return r->requests ? (double)ik__hist_percentile(&r->requests->latency, 99.0) : 0.0;
	case IK_FIG_ACHIEVED_LOAD_PCT:
		return ik__request_achieved_load_pct(r->requests, r->measured_ns);
	case IK_FIG_RESIDENCY_PCT:
		return ik__run_residency_pct(r, state);
	case IK_FIG_COUNT:
		break;
	}
	return 0.0;
}

int ik__rep_summarize_figure(const struct ik_run_result *runs, int nruns,
			    enum ik_rep_figure figure, int state, struct ik_summary *s)
{
	if (nruns <= 0) {
		ik__summarize(NULL, 0, s);
		return 0;
	}
	double *values = malloc((size_t)nruns * sizeof(*values));
	if (!values) {
		memset(s, 0, sizeof(*s));
		return -1;
	}
	for (int i = 0; i < nruns; i++)
		values[i] = ik__rep_figure_value(&runs[i], figure, state);
	ik__summarize(values, nruns, s);
	free(values);
	return 0;
}

int ik__rep_finish(FILE *out)
{
	if (fflush(out) != 0)
		return -1;
	return ferror(out) ? -1 : 0;
}

int ik__rep_done(FILE *out, struct ik_rep_locale *l, int rc)
{
	ik__rep_locale_leave(l);
	if (ik__rep_finish(out) != 0)
		rc = -1;
	return rc;
}

int ik__rep_runs_report(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		       int nruns, ik_rep_runs_body body, const void *arg)
{
	if (!out || !sc || nruns < 0 || (nruns > 0 && !runs))
		return -1;
	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);
	int rc = body(out, sc, runs, nruns, arg);
	return ik__rep_done(out, &locale, rc);
}
