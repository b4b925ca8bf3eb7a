/*
 * The tables of a `sim` result that both the text report and the HTML page show
 * (sim_tables.h): the per-state counters, the wake-latency percentiles, and the per-run
 * figures with their summary across runs.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/sim_tables.h"

void ik__rep_tab_states(struct ik_tab *t, const struct ik_run_result *r)
{
	ik__tab_init(t, 10);
	ik__tab_col(t, 0, IK_TAB_NUM, "state", NULL);
	ik__tab_col(t, 1, IK_TAB_TEXT, "name", NULL);
	ik__tab_col(t, 2, IK_TAB_NUM, "latency", "us");
	ik__tab_col(t, 3, IK_TAB_NUM, "residency", "us");
	ik__tab_col(t, 4, IK_TAB_NUM, "usage", NULL);
	ik__tab_col(t, 5, IK_TAB_NUM, "time", "us");
	ik__tab_col(t, 6, IK_TAB_NUM, "above", NULL);
	ik__tab_col(t, 7, IK_TAB_NUM, "below", NULL);
	ik__tab_col(t, 8, IK_TAB_NUM, "rejected", NULL);
	ik__tab_col(t, 9, IK_TAB_NUM, "residency", "%");
	char num[IK_FMT_NUM_LEN];
	for (int i = 0; i < ik__rep_nstates(r); i++) {
		const struct ik_state_counters *c = &r->total[i];
		int row = ik__tab_row(t);
		ik__tab_set(t, row, 0, "%d", i);
		ik__tab_text(t, row, 1, r->states[i].name, sizeof(r->states[i].name));
		ik__tab_set(t, row, 2, "%u", r->states[i].exit_latency);
		ik__tab_set(t, row, 3, "%u", r->states[i].target_residency);
		ik__tab_u64(t, row, 4, c->usage);
		/* whole us: the counter sysfs shows */
		ik__fmt_scaled(num, sizeof(num), c->time_ns > INT64_MAX ? INT64_MAX
									 : (int64_t)c->time_ns,
				  3, 0);
		ik__tab_text(t, row, 5, num, sizeof(num));
		ik__tab_u64(t, row, 6, c->above);
		ik__tab_u64(t, row, 7, c->below);
		ik__tab_u64(t, row, 8, c->rejected);
		ik__tab_fixed(t, row, 9, ik__run_residency_pct(r, i), 2);
	}
}

void ik__rep_tab_wake_latency(struct ik_tab *t, const struct ik_run_result *runs, int nruns,
			     bool seed)
{
	static const enum ik_tab_stat stats[] = {IK_TAB_COUNT, IK_TAB_P50,   IK_TAB_P90, IK_TAB_P99,
						 IK_TAB_P99_9, IK_TAB_MAX, IK_TAB_MEAN};
	enum { NSTATS = sizeof(stats) / sizeof(stats[0]) };
	int first = seed ? 1 : 0;
	ik__tab_init(t, first + NSTATS);
	if (seed)
		ik__tab_col(t, 0, IK_TAB_NUM, "seed", NULL);
	ik__tab_hist_cols(t, first, stats, NSTATS, "count", NULL, true);
	for (int k = 0; k < nruns; k++) {
		int row = ik__tab_row(t);
		if (seed)
			ik__tab_u64(t, row, 0, runs[k].seed);
		ik__tab_hist(t, row, first, &runs[k].wake_latency, stats, NSTATS, true);
	}
}

const enum ik_tab_stat ik__rep_brief_stats[IK_REP_BRIEF_STATS] = {IK_TAB_COUNT, IK_TAB_MIN,
								  IK_TAB_P50, IK_TAB_P99,
								  IK_TAB_MAX};

void ik__rep_tab_runs(struct ik_tab *t, const struct ik_run_result *runs, int nruns,
		     const struct ik_rep_column *cols, int ncols)
{
	ik__tab_init(t, ncols + 1);
	ik__tab_col(t, 0, IK_TAB_NUM, "seed", NULL);
	for (int c = 0; c < ncols; c++)
		ik__tab_col(t, c + 1, IK_TAB_NUM, cols[c].header, NULL);
	for (int k = 0; k < nruns; k++) {
		int row = ik__tab_row(t);
		ik__tab_u64(t, row, 0, runs[k].seed);
		for (int c = 0; c < ncols; c++)
			ik__tab_fixed(t, row, c + 1,
				     ik__rep_figure_value(&runs[k], cols[c].figure, cols[c].state) *
					     cols[c].scale,
				     cols[c].decimals);
	}
}

int ik__rep_tab_summary(struct ik_tab *t, const struct ik_run_result *runs, int nruns,
		       const struct ik_rep_column *cols, int ncols)
{
	static const char *const rows[] = {"Min",   "Max",    "Median",  "AMean",
					   "HMean", "Stddev", "CoefVar%"};
	enum { NROWS = sizeof(rows) / sizeof(rows[0]) };
	int rc = 0;
	ik__tab_init(t, ncols + 1);
	ik__tab_col(t, 0, IK_TAB_LABEL, "", NULL);
	for (int r = 0; r < NROWS; r++)
		ik__tab_set(t, ik__tab_row(t), 0, "%s", rows[r]);
	for (int c = 0; c < ncols; c++) {
		struct ik_summary s;
		rc |= ik__rep_summarize_figure(runs, nruns, cols[c].figure, cols[c].state, &s);
		double k = cols[c].scale;
		/* scaling by k > 0 scales every statistic but the coefficient of variation */
		const double values[NROWS] = {s.min * k,   s.max * k,    s.median * k, s.amean * k,
					      s.hmean * k, s.stddev * k, s.cov_pct};
		ik__tab_col(t, c + 1, IK_TAB_NUM, cols[c].header, NULL);
		for (int r = 0; r < NROWS; r++)
			ik__tab_fixed(t, r, c + 1, values[r],
				     r == NROWS - 1 ? 2 : cols[c].decimals);
	}
	return rc;
}

int ik__rep_workload_columns(const struct ik_workload *w, const struct ik_run_result *first,
			    struct ik_rep_column *cols, int max)
{
	struct ik_workload_figures f;
	int n = 0;
	if (!ik__workload_figures(w, first, &f))
		return 0;
	for (int i = 0; i < f.ncolumns && n < max; i++) {
		enum ik_rep_figure fig;
		if (ik__rep_figure_find(f.column[i].figure, &fig))
			continue;
		cols[n++] = (struct ik_rep_column){fig, 0, f.column[i].scale, f.column[i].decimals,
						   f.column[i].header};
	}
	return n;
}

void ik__rep_run_columns(struct ik_rep_run_columns *c, const struct ik_scenario *sc,
			const struct ik_run_result *first, bool rates, int max)
{
	struct ik_rep_column *col = c->col;
	int n = 0;
	if (max > IK_REP_RUN_COLUMNS)
		max = IK_REP_RUN_COLUMNS;
	if (ik__workload_has_throughput(&sc->workload)) {
		col[n++] = (struct ik_rep_column){ IK_FIG_MB_PER_S, 0, 1.0, 2, "MB/s" };
		col[n++] = (struct ik_rep_column){ IK_FIG_MESSAGES_PER_S, 0, 1.0, 2, "messages/s" };
	}
	n += ik__rep_workload_columns(&sc->workload, first, col + n, max - n);
	col[n++] = (struct ik_rep_column){ IK_FIG_WAKE_P50_NS, 0, 1e-3, 2, "wake_p50_us" };
	col[n++] = (struct ik_rep_column){ IK_FIG_WAKE_P99_NS, 0, 1e-3, 2, "wake_p99_us" };
	col[n++] = (struct ik_rep_column){ IK_FIG_AVG_POWER_W, 0, 1.0, 3, "power_W" };
	if (rates) {
		col[n++] = (struct ik_rep_column){ IK_FIG_IDLE_ENTRIES_PER_CPU_PER_S, 0, 1.0, 2,
						   "entries/CPU/s" };
		col[n++] = (struct ik_rep_column){ IK_FIG_TOO_DEEP_PCT, 0, 1.0, 2, "too_deep_%" };
		col[n++] = (struct ik_rep_column){ IK_FIG_TOO_SHALLOW_PCT, 0, 1.0, 2,
						   "too_shallow_%" };
	}
	for (int i = 0; i < ik__rep_nstates(first) && i < IK_STATE_MAX && n < max; i++) {
		char *h = c->state_header[i];
		size_t len = strnlen(first->states[i].name, sizeof(first->states[i].name));
		for (size_t k = 0; k < len; k++) {
			unsigned char ch = (unsigned char)first->states[i].name[k];
			h[k] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
		}
		memcpy(h + len, "_%", 3);
		col[n++] = (struct ik_rep_column){ IK_FIG_RESIDENCY_PCT, i, 1.0, 2, h };
	}
	c->n = n;
}
