/*
 * The per-run figures a sweep keeps: the rows' columns after the settings, what
 * bad_below and --bad-below name, what the summary and the page report.  At the bottom of
 * src/sweep: the spec reader names them, the rows and reports use them.
 */
#include <string.h>

#include "report/report_internal.h"
#include "sweep/spec_internal.h"

/* The figures of a row: every per-run figure of `sim`'s summaries but per-state ones (the
   server workload's last: 0 for the other workloads, and not plotted then). */
static const enum ik_rep_figure row_figures[] = {
	IK_FIG_MESSAGES_PER_S, IK_FIG_MB_PER_S,	     IK_FIG_WAKE_P50_NS,
	IK_FIG_WAKE_P90_NS,    IK_FIG_WAKE_P99_NS,   IK_FIG_WAKE_P99_9_NS,
	IK_FIG_WAKE_MAX_NS,    IK_FIG_ENERGY_J,	     IK_FIG_AVG_POWER_W,
	IK_FIG_IDLE_ENTRIES_PER_CPU_PER_S, IK_FIG_TOO_DEEP_PCT, IK_FIG_TOO_SHALLOW_PCT,
	IK_FIG_REQUEST_P50_NS, IK_FIG_REQUEST_P99_NS, IK_FIG_ACHIEVED_LOAD_PCT,
};
#define NFIG ((int)(sizeof(row_figures) / sizeof(row_figures[0])))

int ik__sweep_figure_count(void)
{
	return NFIG;
}

const char *ik__sweep_figure_key(int figure)
{
	return figure >= 0 && figure < NFIG ? ik__rep_figure_key(row_figures[figure]) : "unknown";
}

int ik__sweep_figure_find(const char *key)
{
	for (int i = 0; i < NFIG; i++)
		if (strcmp(key, ik__sweep_figure_key(i)) == 0)
			return i;
	return -1;
}

enum ik_rep_figure ik__sweep_figure_rep(int figure)
{
	return row_figures[figure];
}
