/*
 * compare's results as read (compare_load.c) and reported (compare.c): each figure's
 * values over a result's runs, its states and entry methods by name, its configuration.
 */
#ifndef IDLEKIT_REPORT_COMPARE_INTERNAL_H
#define IDLEKIT_REPORT_COMPARE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "report/compare.h"
#include "config/config.h"
#include "report/html_internal.h"

#define MAX_RUNS 1000
#define MAX_NAMES 24
#define MAX_METHODS 5 /* what method_of() returns */
#define MAX_CONFIG 1024

/* A figure of every run of one result (NaN: the run does not have it). */
struct series {
	double v[MAX_RUNS];
	int n;
};

enum fig {
	FIG_MB_S,
	FIG_MSG_S,
	FIG_WAKE_P50,
	FIG_WAKE_P99,
	FIG_POWER,
	FIG_ENERGY,
	FIG_TOO_DEEP,
	FIG_TOO_SHALLOW,
	FIG_ENTRIES,
	NFIGS,
};

/* The figures compared (compare_load.c); better: +1 higher is better, -1 lower, 0 neither
   (no --fail-if). */
struct ik_cmp_fig {
	const char *key, *label, *unit;
	int better;
};
extern const struct ik_cmp_fig ik__cmp_figs[NFIGS];

/* Per state (matched by name across results) and per entry method. */
struct named {
	char name[40];
	struct series residency_pct;
	struct series usage;
	struct series time_us;
};

/* A figure of the workload's own (its JSON object, named by the run's "workload_figures"):
   "requests.done", "requests.latency_p99_us"; better as for ik_cmp_fig. */
#define MAX_WFIGS 64
struct wfig {
	char name[80];
	char unit[24];
	int better;
	struct series s;
};
/* better for a workload figure's name: +1, -1 or 0 (compare_load.c). */
int ik__cmp_wfig_better(const char *name);

struct config_kv {
	char key[IK_CONFIG_SECTION_LEN + IK_CONFIG_KEY_LEN + 1];
	char value[IK_CONFIG_VALUE_LEN];
};

struct ik_compare_set {
	char label[320];
	char schema[40];
	int nruns;
	struct series fig[NFIGS];
	int nstates;
	struct named states[MAX_NAMES];
	int nmethods;
	struct named methods[MAX_METHODS];
	int nwfigs;
	struct wfig wfigs[MAX_WFIGS];
	/* the configuration: sim's config keys, else the document's identity (governor, ...) */
	bool has_config;
	int nconfig;
	struct config_kv config[MAX_CONFIG];
	/* for the HTML overlays: wake-latency percentiles summed over the runs that have them,
	   and the idle-duration histograms summed over runs (absent in older results) */
	double lat_q_sum[IK_HTML_CMP_QUANTILES];
	int lat_q_runs;
	uint64_t idle_hist[IK_IDLE_HIST_BUCKETS];
	bool has_idle_hist;
};

#endif
