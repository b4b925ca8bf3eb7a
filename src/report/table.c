/*
 * `idlekit sim` default output: a table for people.
 *
 * A header says what was simulated.  One run gets the full picture (the per-state table as
 * sysfs would show it summed over CPUs, wake latency, throughput, idle entries, governor
 * accuracy, energy); several runs get one compact line each and then a summary in the style
 * of mmtests' tables: rows Min, Max, Median, AMean, HMean, Stddev, CoefVar%, one
 * column per figure.  Every column header carries its unit.
 *
 * Tables are built in the table model (table_model.h) and drawn by its text renderer, so
 * every column is as wide as its widest cell, numbers are right-aligned, names
 * left-aligned, and no line ends in spaces.  The tables the HTML page shows too (states,
 * wake latency, runs, summary) are built by sim_tables.c, once for both.
 *
 * Divisions: the header, one run in full (with the workload's own figures, as it lists
 * them), several runs.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "report/report_internal.h"
#include "report/sim_tables.h"
#include "report/table_model.h"

#define CELL_LEN 64
#define GRID_MAX_COLS IK_TAB_MAX_COLS

/* A model table under a title line, then freed. */
static int print_tab(FILE *out, const char *title, struct ik_tab *t)
{
	fprintf(out, "\n%s\n", title);
	int rc = ik__tab_print_text(out, t);
	ik__tab_free(t);
	return rc;
}

/* Cell formatting helpers: a double with fixed decimals, ns as ms exactly. */
static const char *fixed(char *buf, double v, int decimals)
{
	ik__fmt_fixed(buf, IK_FMT_NUM_LEN, v, decimals);
	return buf;
}

static const char *ns_as_ms(char *buf, int64_t ns)
{
	ik__fmt_exact(buf, IK_FMT_NUM_LEN, ns, 6);
	return buf;
}

/* ---- header ---- */

static void print_name(FILE *out, const char *name, size_t maxlen)
{
	size_t n = strnlen(name, maxlen);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

static void print_label(FILE *out, const char *label)
{
	fprintf(out, "%-10s ", label);
}

/* The workload in its own words (ik__workload_describe). */
static void print_workload(FILE *out, const struct ik_workload *wl)
{
	char line[1024];

	ik__workload_describe(wl, false, line, sizeof(line));
	fprintf(out, "%s\n", line);
}

/*
 * The effective configuration in brief: the version, how many keys came from where, and
 * every key a --set changed (the full list: --json, --csv-table config, --print-config).
 */
static void print_config(FILE *out, const struct ik_config *cfg)
{
	int count[IK_ORIGIN_COUNT] = { 0 };

	if (!cfg)
		return;
	print_label(out, "idlekit");
	fprintf(out, "%s\n", ik__version());
	for (int i = 0; i < cfg->n; i++)
		count[cfg->entry[i].origin]++;
	print_label(out, "config");
	fprintf(out, "%d keys: %d from the scenario, %d from the platform, %d defaults, %d derived, "
		     "%d from --set (all: --print-config)\n", cfg->n, count[IK_ORIGIN_SCENARIO],
		count[IK_ORIGIN_PLATFORM], count[IK_ORIGIN_DEFAULT], count[IK_ORIGIN_DERIVED],
		count[IK_ORIGIN_SET]);
	if (count[IK_ORIGIN_SET] == 0)
		return;
	print_label(out, "--set");
	int shown = 0;
	for (int i = 0; i < cfg->n; i++) {
		const struct ik_config_entry *e = &cfg->entry[i];
		if (e->origin != IK_ORIGIN_SET)
			continue;
		fprintf(out, "%s%s.%s=", shown++ ? " " : "", e->section, e->key);
		print_name(out, e->value, sizeof(e->value));
	}
	fputc('\n', out);
}

static void print_header(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
			 int nruns)
{
	const struct ik_platform *p = &sc->platform;
	char a[IK_FMT_NUM_LEN], b[IK_FMT_NUM_LEN];

	print_label(out, "scenario");
	print_name(out, sc->name, sizeof(sc->name));
	fputc('\n', out);
	print_label(out, "platform");
	print_name(out, p->name, sizeof(p->name));
	fprintf(out, ": %d packages x %d cores x %d threads = %d CPUs\n", p->packages,
		p->cores_per_package, p->threads_per_core, ik__platform_cpus(p));
	print_label(out, "driver");
	print_name(out, sc->driver, sizeof(sc->driver));
	if (sc->kernel_driver[0] && strcmp(sc->kernel_driver, sc->driver) != 0)
		fprintf(out, " (not the kernel's choice, which is %.15s: idlekit platform show "
			     "shows that one; --set cpuidle.driver=auto runs it)", sc->kernel_driver);
	else if (strcmp(sc->driver, "table") == 0)
		fputs(" (the platform's states as listed)", out);
	fputc('\n', out);
	print_label(out, "governor");
	print_name(out, sc->governor, sizeof(sc->governor));
	if (sc->governor_sha256[0])
		fprintf(out, " (sha256 %s)", sc->governor_sha256);
	for (int i = 0; i < sc->ngov_params; i++)
		fprintf(out, "%s%s=%s", i ? " " : ", parameters ", sc->gov_params[i].name,
			sc->gov_params[i].value);
	fputc('\n', out);
	if (sc->governor_api[0]) {
		print_label(out, "");
		fprintf(out, "the file is %.*s\n", (int)sizeof(sc->governor_api), sc->governor_api);
	}
	print_label(out, "HZ");
	fprintf(out, "%d\n", sc->hz);
	char kernel[512];
	print_label(out, "kernel");
	fprintf(out, "%s\n",
		ik_kernel_describe(ik_kernel_or_default(&sc->kernel), kernel, sizeof(kernel)));
	print_label(out, "PM QoS");
	if (sc->latency_limit_us < 0)
		fputs("no CPU latency limit\n", out);
	else
		fprintf(out, "CPU latency limit %lld us\n", (long long)sc->latency_limit_us);
	print_label(out, "disabled");
	if (sc->ndisabled <= 0)
		fputs("none\n", out);
	for (int i = 0; i < sc->ndisabled && i < IK_MAX_DISABLED; i++) {
		print_name(out, sc->disabled[i], sizeof(sc->disabled[i]));
		fputs(i + 1 < sc->ndisabled && i + 1 < IK_MAX_DISABLED ? " " : " (on every CPU)\n",
		      out);
	}
	print_label(out, "workload");
	print_workload(out, &sc->workload);
	print_label(out, "duration");
	fprintf(out, "%s ms measured after %s ms of warm-up\n", ns_as_ms(a, sc->duration_ns),
		ns_as_ms(b, sc->warmup_ns));

	/* the seeds actually run: all of them when few, else the first and last */
	print_label(out, "seeds");
	fprintf(out, "%d run%s", nruns, nruns == 1 ? "" : "s");
	if (nruns > 0)
		fputc(':', out);
	for (int i = 0; i < nruns; i++) {
		if (nruns > 8 && i == 3) {
			fputs(" ...", out);
			i = nruns - 2;
			continue;
		}
		fprintf(out, " %llu", (unsigned long long)runs[i].seed);
	}
	fputc('\n', out);
	print_config(out, sc->config);
}

/* ---- one run in full ---- */

static int print_states(FILE *out, const struct ik_run_result *r)
{
	char num[IK_FMT_NUM_LEN];
	struct ik_tab t;
	ik__rep_tab_states(&t, r);
	char title[160];
	snprintf(title, sizeof(title), "Idle states, summed over all %d CPUs, %s ms measured",
		 r->ncpus, ns_as_ms(num, r->measured_ns));
	return print_tab(out, title, &t);
}

static int print_wake_latency(FILE *out, const struct ik_run_result *r)
{
	struct ik_tab t;
	ik__rep_tab_wake_latency(&t, r, 1, false);
	return print_tab(out, "Wake latency (task wake-up to running)", &t);
}

/* A two-row table: headers, then values. */
static int print_pairs(FILE *out, const char *title, const char *const *headers,
			char values[][IK_FMT_NUM_LEN], int n)
{
	struct ik_tab t;
	ik__tab_init(&t, n);
	int row = ik__tab_row(&t);
	for (int c = 0; c < n; c++) {
		ik__tab_col(&t, c, IK_TAB_NUM, headers[c], NULL);
		ik__tab_text(&t, row, c, values[c], IK_FMT_NUM_LEN);
	}
	return print_tab(out, title, &t);
}

/* A distribution in brief: its sample count, min, p50, p99 and max, in us (ns_in_us) or as
   plain counts. */
static int print_hist_brief(FILE *out, const char *title, const char *const *headers,
			    const struct ik_hist *h, bool ns_in_us)
{
	struct ik_tab t;
	ik__tab_init(&t, IK_REP_BRIEF_STATS);
	for (int c = 0; c < IK_REP_BRIEF_STATS; c++)
		ik__tab_col(&t, c, IK_TAB_NUM, headers[c], NULL);
	ik__tab_hist(&t, ik__tab_row(&t), 0, h, ik__rep_brief_stats, IK_REP_BRIEF_STATS, ns_in_us);
	return print_tab(out, title, &t);
}

/* Percentile rows of several histograms, under a title. */
static int print_hists(FILE *out, const char *title, const char *const *names,
		       const struct ik_hist *const *hs, int n)
{
	static const enum ik_tab_stat stats[] = {IK_TAB_P50,   IK_TAB_P90, IK_TAB_P99,
						 IK_TAB_P99_9, IK_TAB_MAX, IK_TAB_MEAN, IK_TAB_COUNT};
	enum { NSTATS = sizeof(stats) / sizeof(stats[0]) };
	struct ik_tab t;
	ik__tab_init(&t, 1 + NSTATS);
	ik__tab_col(&t, 0, IK_TAB_TEXT, "", NULL);
	ik__tab_hist_cols(&t, 1, stats, NSTATS, "samples", NULL, true);
	for (int i = 0; i < n; i++) {
		int row = ik__tab_row(&t);
		ik__tab_text(&t, row, 0, names[i], CELL_LEN - 1);
		ik__tab_hist(&t, row, 1, hs[i], stats, NSTATS, true);
	}
	return print_tab(out, title, &t);
}

/* The workload's own figures (ik__workload_figures): its counts in a row, then its
   distributions' percentiles. */
static int print_workload_figures(FILE *out, const struct ik_scenario *sc,
				  const struct ik_run_result *r)
{
	struct ik_workload_figures f;
	if (!ik__workload_figures(&sc->workload, r, &f))
		return 0;
	const char *headers[IK_WORKLOAD_COUNTS];
	char v[IK_WORKLOAD_COUNTS][IK_FMT_NUM_LEN];
	for (int i = 0; i < f.ncounts; i++) {
		headers[i] = f.count[i].label;
		if (f.count[i].integer)
			snprintf(v[i], sizeof(v[i]), "%llu", (unsigned long long)f.count[i].count);
		else
			fixed(v[i], f.count[i].value, 2);
	}
	char title[512];
	snprintf(title, sizeof(title), f.ndists ? "%s" : "%s (%s)", f.title, f.definition);
	int rc = f.ncounts ? print_pairs(out, title, headers, v, f.ncounts) : 0;
	if (f.ndists > 0) {
		const char *names[IK_WORKLOAD_DISTS];
		const struct ik_hist *hs[IK_WORKLOAD_DISTS];
		for (int i = 0; i < f.ndists; i++)
			names[i] = f.dist[i].name, hs[i] = f.dist[i].h;
		rc |= print_hists(out, f.definition, names, hs, f.ndists);
	}
	if (f.warning[0])
		rc |= fprintf(out, "warning: %s\n\n", f.warning) < 0;
	return rc;
}

static int print_one_run(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *r)
{
	char v[8][IK_FMT_NUM_LEN];

	int rc = print_states(out, r);
	rc |= print_wake_latency(out, r);

	if (ik__workload_has_throughput(&sc->workload)) {
		static const char *const tput_headers[] = {"messages", "messages/s", "MB/s"};
		snprintf(v[0], sizeof(v[0]), "%llu", (unsigned long long)r->messages);
		fixed(v[1], ik__run_messages_per_s(r), 2);
		fixed(v[2], ik__run_mb_per_s(r), 2);
		rc |= print_pairs(out, "Throughput", tput_headers, v, 3);
	}

	rc |= print_workload_figures(out, sc, r);

	if (sc->workload.nside_spin_cpus > 0) {
		static const char *const side_headers[] = {"CPUs", "units", "units/s"};
		snprintf(v[0], sizeof(v[0]), "%d", sc->workload.nside_spin_cpus);
		snprintf(v[1], sizeof(v[1]), "%llu", (unsigned long long)r->side_units);
		fixed(v[2], ik__run_per_s(r, r->side_units), 2);
		rc |= print_pairs(out, "Side spinners (busy tasks beside the workload)", side_headers,
				  v, 3);
	}

	if (r->leave_lite.count > 0) {
		static const char *const time_headers[] = {"CPUs", "min_us", "p50_us", "p99_us",
							   "max_us"};
		static const char *const count_headers[] = {"CPUs", "min", "p50", "p99", "max"};
		rc |= print_hist_brief(out, "Time to leave polling and lite states after the work stopped",
				       time_headers, &r->leave_lite, true);
		rc |= print_hist_brief(out, "Entries into lite states on the way (0: deeper at once)",
				       count_headers, &r->leave_lite_entries, false);
	}

	static const char *const entry_headers[] = {"entries", "entries/CPU", "entries/CPU/s",
						    "wakeups", "IPIs", "busy_ms", "idle_ms"};
	snprintf(v[0], sizeof(v[0]), "%llu", (unsigned long long)r->idle_entries);
	fixed(v[1], r->ncpus > 0 ? (double)r->idle_entries / r->ncpus : 0.0, 2);
	fixed(v[2], ik__rep_idle_entries_per_cpu_per_s(r), 2);
	snprintf(v[3], sizeof(v[3]), "%llu", (unsigned long long)r->wakeups);
	snprintf(v[4], sizeof(v[4]), "%llu", (unsigned long long)r->ipis);
	ik__fmt_scaled(v[5], sizeof(v[5]), r->busy_ns, 6, 3);
	ik__fmt_scaled(v[6], sizeof(v[6]), r->idle_ns, 6, 3);
	rc |= print_pairs(out, "Idle entries (calls to the governor's select)", entry_headers, v, 7);

	struct ik_rep_accuracy a;
	ik__rep_accuracy(r, &a);
	static const char *const acc_headers[] = {"entered", "too_deep", "too_deep_%",
						  "too_shallow", "too_shallow_%", "right", "right_%"};
	snprintf(v[0], sizeof(v[0]), "%llu", (unsigned long long)a.entries);
	snprintf(v[1], sizeof(v[1]), "%llu", (unsigned long long)a.too_deep);
	fixed(v[2], a.too_deep_pct, 2);
	snprintf(v[3], sizeof(v[3]), "%llu", (unsigned long long)a.too_shallow);
	fixed(v[4], a.too_shallow_pct, 2);
	snprintf(v[5], sizeof(v[5]), "%llu", (unsigned long long)a.right);
	fixed(v[6], a.right_pct, 2);
	rc |= print_pairs(out,
		    "Governor accuracy (of entries into a state: too deep = above, "
		    "too shallow = below, right = the rest)",
		    acc_headers, v, 7);

	static const char *const energy_headers[] = {"energy_J", "avg_power_W"};
	fixed(v[0], r->energy_j, 3);
	fixed(v[1], ik__run_avg_power_w(r), 3);
	rc |= print_pairs(out, "Energy (the platform's per-CPU power summed: active_power_mw "
			  "running, power_mw in each state; where those are deltas over the "
			  "deepest state, an idle machine is near 0 W)", energy_headers, v, 2);
	return rc;
}

/* ---- several runs ---- */

static int print_runs(FILE *out, const struct ik_run_result *runs, int nruns,
		      const struct ik_rep_run_columns *c)
{
	struct ik_tab t;
	ik__rep_tab_runs(&t, runs, nruns, c->col, c->n);
	return print_tab(out, "Runs (one line per seed; <state>_% = share of all CPUs' time in that "
			 "state)", &t);
}

static int print_summary(FILE *out, const struct ik_run_result *runs, int nruns,
			 const struct ik_rep_run_columns *c)
{
	struct ik_tab t;
	int rc = ik__rep_tab_summary(&t, runs, nruns, c->col, c->n);
	char title[160];
	snprintf(title, sizeof(title), "Summary over %d runs (Stddev: sample standard deviation; "
		 "CoefVar%%: 100 * Stddev / AMean)", nruns);
	return rc | print_tab(out, title, &t);
}

static int table_report(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
			int nruns, const void *arg)
{
	(void)arg;
	int rc = 0;

	print_header(out, sc, runs, nruns);
	if (nruns == 1) {
		rc = print_one_run(out, sc, &runs[0]);
	} else if (nruns > 1) {
		struct ik_rep_run_columns c; /* the seed is the first column of the table */
		ik__rep_run_columns(&c, sc, &runs[0], false, GRID_MAX_COLS - 1);
		rc = print_runs(out, runs, nruns, &c);
		rc |= print_summary(out, runs, nruns, &c);
	}
	return rc;
}

int ik__report_table(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		    int nruns)
{
	return ik__rep_runs_report(out, sc, runs, nruns, table_report, NULL);
}
