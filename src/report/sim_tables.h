/*
 * idlekit report subsystem, internal: the tables of a `sim` result that the text report
 * (table.c) and the HTML page (html.c) both show, each built once in the table model
 * (table_model.h) and drawn by either renderer.  Titles and notes around a table stay with
 * the report that prints it; the columns and the figures in them are decided here.
 */
#ifndef IDLEKIT_REPORT_SIM_TABLES_H
#define IDLEKIT_REPORT_SIM_TABLES_H

#include <stdbool.h>

#include "config/result.h"
#include "config/scenario.h"
#include "report/report_internal.h"
#include "report/table_model.h"

/* The per-state counters of one run summed over its CPUs, as sysfs names them. */
void ik__rep_tab_states(struct ik_tab *t, const struct ik_run_result *r);

/* Wake latency (count, percentiles, max, mean) of each run; with seed, the seed first. */
void ik__rep_tab_wake_latency(struct ik_tab *t, const struct ik_run_result *runs, int nruns,
			     bool seed);

/* A distribution in brief: its count, min, p50, p99 and max. */
#define IK_REP_BRIEF_STATS 5
extern const enum ik_tab_stat ik__rep_brief_stats[IK_REP_BRIEF_STATS];

/* A column of the runs and summary tables: one per-run figure, scaled for its unit. */
struct ik_rep_column {
	enum ik_rep_figure figure;
	int state;      /* for IK_FIG_RESIDENCY_PCT */
	double scale;   /* multiplies the figure: 1e-3 turns ns into us */
	int decimals;
	const char *header;
};
/* The workload's own columns (its figures' columns, ik__workload_figures), at most max, into
   cols; how many.  Their headers are the workload's static text. */
int ik__rep_workload_columns(const struct ik_workload *w, const struct ik_run_result *first,
			    struct ik_rep_column *cols, int max);
/* The columns of a sim result's runs and summary tables, at most max (the fixed ones are
   always there): MB/s and messages/s where the workload passes messages, the workload's
   own, wake-up latency p50/p99 and power; with rates (the HTML page) idle entries per CPU
   per second and the too-deep and too-shallow shares; then each state's residency,
   headed NAME_% (a control character in the name as '?'). */
#define IK_REP_RUN_COLUMNS (8 + IK_WORKLOAD_COLUMNS + IK_STATE_MAX)
struct ik_rep_run_columns {
	struct ik_rep_column col[IK_REP_RUN_COLUMNS];
	char state_header[IK_STATE_MAX][IK_NAME_LEN + 8];
	int n;
};
void ik__rep_run_columns(struct ik_rep_run_columns *c, const struct ik_scenario *sc,
			const struct ik_run_result *first, bool rates, int max);
/* One row per run: its seed, then the columns' figures. */
void ik__rep_tab_runs(struct ik_tab *t, const struct ik_run_result *runs, int nruns,
		     const struct ik_rep_column *cols, int ncols);
/* The columns' Min, Max, Median, AMean, HMean, Stddev and CoefVar% over the runs, one row
   each; -1 if a summary ran out of memory (its row shows what it has). */
int ik__rep_tab_summary(struct ik_tab *t, const struct ik_run_result *runs, int nruns,
		       const struct ik_rep_column *cols, int ncols);

#endif
