/*
 * The HTML report: one self-contained file (inline SVG, a little CSS, no script, nothing
 * fetched from the network) with a run's settings, the text report's tables as HTML tables,
 * and plots:
 *   - residency per state: stacked bars per run, and per CPU for the first run (CPUs grouped
 *     into at most MAX_CPU_BARS bars on large machines, each bar their mean);
 *   - wake latency: histogram and CDF of all runs' wake-ups, p50/p90/p99/p99.9 marked, the
 *     x axis in log scale when the samples span two decades or more;
 *   - throughput across runs: one dot per run (a bimodal set shows two bands);
 *   - idle-entry accuracy per run: too deep / too shallow / right, stacked.
 * docs/html-report.md describes the page.  Written in the "C" locale: same input, same bytes.
 * The tables the text report shows too come from sim_tables.c, drawn by the table model's
 * HTML renderer; compare's page is html_compare.c.
 *
 * Divisions: settings, tables, plots, the page (ik__report_html).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/html_internal.h"
#include "report/report_internal.h"
#include "report/sim_tables.h"
#include "report/svg.h"
#include "report/table_model.h"
#include "config/config.h"

#define PLOT_W IK_HTML_PLOT_W
#define PLOT_H IK_HTML_PLOT_H
#define SEED_LABEL_LEN IK_HTML_LABEL_LEN

/* Every key of the effective configuration with its origin, folded away by default. */
static void config_table(FILE *out, const struct ik_config *cfg)
{
	if (!cfg)
		return;
	fprintf(out, "<details class=\"config\"><summary>Effective configuration: %d keys, with "
		     "where each came from (<code>idlekit sim ... --print-config</code> writes them "
		     "as a scenario file)</summary>\n<table class=\"config\">\n", cfg->n);
	static const char *const head[] = {"section", "key", "value", "origin"};
	ik__html_head_row(out, head, sizeof(head) / sizeof(head[0]));
	for (int i = 0; i < cfg->n; i++) {
		const struct ik_config_entry *e = &cfg->entry[i];
		fputs("<tr>", out);
		ik__html_td_text(out, e->section, sizeof(e->section));
		ik__html_td_text(out, e->key, sizeof(e->key));
		ik__html_td_text(out, e->has_value ? e->value : "(not set)",
				sizeof(e->value));
		ik__html_td_text(out, ik__config_origin_name(e->origin), 16);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</details>\n", out);
}

static void settings_table(FILE *out, const struct ik_scenario *sc,
			   const struct ik_run_result *runs, int nruns)
{
	const struct ik_platform *p = &sc->platform;
	char buf[512], a[IK_FMT_NUM_LEN], b[IK_FMT_NUM_LEN];
	const struct ik_workload *wl = &sc->workload;

	fputs("<h2>Settings</h2>\n<table class=\"settings\">\n", out);
	ik__html_setting(out, "scenario", sc->name, sizeof(sc->name));
	snprintf(buf, sizeof(buf), "%.*s: %d packages x %d cores x %d threads = %d CPUs",
		 (int)strnlen(p->name, sizeof(p->name)), p->name, p->packages, p->cores_per_package,
		 p->threads_per_core, ik__platform_cpus(p));
	ik__html_setting(out, "platform", buf, sizeof(buf));
	if (sc->kernel_driver[0] && strcmp(sc->kernel_driver, sc->driver) != 0) {
		snprintf(buf, sizeof(buf), "%.15s (not the kernel's choice, which is %.15s; "
			 "cpuidle.driver = auto runs it)", sc->driver, sc->kernel_driver);
		ik__html_setting(out, "driver", buf, sizeof(buf));
	} else {
		ik__html_setting(out, "driver", sc->driver, sizeof(sc->driver));
	}
	ik__html_setting(out, "governor", sc->governor, sizeof(sc->governor));
	if (sc->governor_sha256[0])
		ik__html_setting(out, "governor sha256", sc->governor_sha256,
				sizeof(sc->governor_sha256));
	if (sc->governor_api[0])
		ik__html_setting(out, "governor file", sc->governor_api, sizeof(sc->governor_api));
	for (int i = 0; i < sc->ngov_params; i++) {
		char name[96];
		snprintf(name, sizeof(name), "governor.%s", sc->gov_params[i].name);
		ik__html_setting(out, name, sc->gov_params[i].value, sizeof(sc->gov_params[i].value));
	}
	snprintf(buf, sizeof(buf), "%d", sc->hz);
	ik__html_setting(out, "HZ", buf, sizeof(buf));
	if (sc->latency_limit_us < 0)
		snprintf(buf, sizeof(buf), "no CPU latency limit");
	else
		snprintf(buf, sizeof(buf), "CPU latency limit %lld us", (long long)sc->latency_limit_us);
	ik__html_setting(out, "PM QoS", buf, sizeof(buf));
	buf[0] = '\0';
	for (int i = 0; i < sc->ndisabled && i < IK_MAX_DISABLED; i++) {
		size_t len = strlen(buf);
		snprintf(buf + len, sizeof(buf) - len, "%s%.*s", i ? " " : "",
			 (int)strnlen(sc->disabled[i], sizeof(sc->disabled[i])), sc->disabled[i]);
	}
	ik__html_setting(out, "disabled", sc->ndisabled > 0 ? buf : "none", sizeof(buf));
	ik__workload_describe(wl, true, buf, sizeof(buf));
	ik__html_setting(out, "workload", buf, sizeof(buf));
	ik__fmt_exact(a, sizeof(a), sc->duration_ns, 6);
	ik__fmt_exact(b, sizeof(b), sc->warmup_ns, 6);
	snprintf(buf, sizeof(buf), "%s ms measured after %s ms of warm-up", a, b);
	ik__html_setting(out, "duration", buf, sizeof(buf));
	if (nruns > 0)
		snprintf(buf, sizeof(buf), "%d run%s, seeds %llu to %llu", nruns, nruns == 1 ? "" : "s",
			 (unsigned long long)runs[0].seed, (unsigned long long)runs[nruns - 1].seed);
	else
		snprintf(buf, sizeof(buf), "no runs");
	ik__html_setting(out, "runs", buf, sizeof(buf));
	if (sc->config)
		ik__html_setting(out, "idlekit", ik__version(), 256);
	fputs("</table>\n", out);
	config_table(out, sc->config);
}

/* ---- tables ---- */

static int states_table(FILE *out, const struct ik_run_result *r)
{
	struct ik_tab t;
	ik__rep_tab_states(&t, r);
	int rc = ik__tab_print_html(out, &t, "states");
	ik__tab_free(&t);
	return rc;
}

static int latency_table(FILE *out, const struct ik_run_result *runs, int nruns)
{
	struct ik_tab t;
	ik__rep_tab_wake_latency(&t, runs, nruns, true);
	int rc = ik__tab_print_html(out, &t, "latency");
	ik__tab_free(&t);
	return rc;
}

/* After a periodic workload stops: each run's way out of polling and lite states. */
static int leave_lite_table(FILE *out, const struct ik_run_result *runs, int nruns)
{
	/* the time in brief, then the entries on the way without their count (the same) */
	const int n = IK_REP_BRIEF_STATS, ne = IK_REP_BRIEF_STATS - 1;
	struct ik_tab t;
	ik__tab_init(&t, 1 + n + ne);
	ik__tab_col(&t, 0, IK_TAB_NUM, "seed", NULL);
	ik__tab_hist_cols(&t, 1, ik__rep_brief_stats, n, "CPUs", NULL, true);
	ik__tab_hist_cols(&t, 1 + n, ik__rep_brief_stats + 1, ne, NULL, "entries_", false);
	for (int k = 0; k < nruns; k++) {
		int row = ik__tab_row(&t);
		ik__tab_u64(&t, row, 0, runs[k].seed);
		ik__tab_hist(&t, row, 1, &runs[k].leave_lite, ik__rep_brief_stats, n, true);
		ik__tab_hist(&t, row, 1 + n, &runs[k].leave_lite_entries, ik__rep_brief_stats + 1, ne,
			    false);
	}
	int rc = ik__tab_print_html(out, &t, "leave");
	ik__tab_free(&t);
	return rc;
}

/* The per-run figures and, over several runs, their summary (as the text table). */
static int runs_tables(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		       int nruns)
{
	struct ik_rep_run_columns c;
	ik__rep_run_columns(&c, sc, &runs[0], true, IK_REP_RUN_COLUMNS);
	const struct ik_rep_column *rep = c.col;
	int ncols = c.n;
	struct ik_tab t;

	fputs("<h3>Runs</h3>\n<p class=\"note\">One line per seed; &lt;state&gt;_% is the share of "
	      "all CPUs' time in that state.</p>\n", out);
	ik__rep_tab_runs(&t, runs, nruns, rep, ncols);
	int rc = ik__tab_print_html(out, &t, "runs");
	ik__tab_free(&t);
	if (nruns < 2)
		return rc;

	rc |= ik__rep_tab_summary(&t, runs, nruns, rep, ncols);
	fprintf(out, "<h3>Summary over %d runs</h3>\n<p class=\"note\">Stddev: sample standard "
		     "deviation; CoefVar%%: 100 * Stddev / AMean.</p>\n", nruns);
	rc |= ik__tab_print_html(out, &t, "summary");
	ik__tab_free(&t);
	return rc;
}

/* ---- plots ---- */

/* A category per run, labelled by its seed, with per values each (ik__html_cats_new). */
static int seed_cats(struct ik_html_cats *c, const struct ik_run_result *runs, int nruns,
		     size_t per)
{
	if (ik__html_cats_new(c, nruns, per))
		return -1;
	for (int k = 0; k < nruns; k++)
		snprintf(c->text[k], SEED_LABEL_LEN, "%llu", (unsigned long long)runs[k].seed);
	return 0;
}

/* Series names and colours of the residency bars: the states, then the rest in grey. */
static void state_series(const struct ik_run_result *r, const char **names, const char **colors,
			 char (*namebuf)[IK_NAME_LEN + 1])
{
	int ns = ik__rep_nstates(r);
	for (int s = 0; s < ns; s++) {
		snprintf(namebuf[s], IK_NAME_LEN + 1, "%.*s",
			 (int)strnlen(r->states[s].name, sizeof(r->states[s].name)), r->states[s].name);
		names[s] = namebuf[s];
		colors[s] = ik__svg_color(s);
	}
	names[ns] = "busy + idle-loop code";
	colors[ns] = IK_SVG_GREY;
}

static int plot_residency_runs(FILE *out, const struct ik_run_result *runs, int nruns)
{
	int ns = ik__rep_nstates(&runs[0]);
	struct ik_html_cats cats;
	if (seed_cats(&cats, runs, nruns, (size_t)(ns + 1)))
		return -1;
	double *v = cats.v;
	for (int k = 0; k < nruns; k++) {
		double sum = 0;
		for (int s = 0; s < ns; s++) {
			/* (idle periods still open at the end included, as in the tables) */
			double pct = s < ik__rep_nstates(&runs[k]) ? ik__run_residency_pct(&runs[k], s) : 0.0;
			v[(size_t)k * (size_t)(ns + 1) + (size_t)s] = pct;
			sum += pct;
		}
		v[(size_t)k * (size_t)(ns + 1) + (size_t)ns] = sum < 100.0 ? 100.0 - sum : 0.0;
	}
	const char *names[IK_STATE_MAX + 1], *colors[IK_STATE_MAX + 1];
	char namebuf[IK_STATE_MAX][IK_NAME_LEN + 1];
	state_series(&runs[0], names, colors, namebuf);

	struct ik_svg p;
	struct ik_svg_axis x = {.label = "run (seed)", .ncat = nruns, .cat_labels = cats.p,
				.cat_label_every = ik__html_label_every(nruns)};
	struct ik_svg_axis y = {.min = 0, .max = 100, .label = "share of all CPUs' time (%)"};
	ik__svg_begin(&p, out, PLOT_W, PLOT_H, "Residency per state, per run", &x, &y);
	ik__svg_stacked_bars(&p, nruns, ns + 1, v, names, colors);
	ik__svg_axes(&p);
	ik__svg_legend(&p, ns + 1, names, colors);
	ik__svg_end(&p);
	ik__html_cats_free(&cats);
	return 0;
}

static int plot_residency_cpus(FILE *out, const struct ik_run_result *r)
{
	int ns = ik__rep_nstates(r), ncpus = r->ncpus;
	if (!r->per_cpu || ncpus <= 0 || r->measured_ns <= 0) {
		ik__html_note(out, "No per-CPU counters in this result.");
		return 0;
	}
	double *t = calloc((size_t)ncpus * (size_t)(ns ? ns : 1), sizeof(double));
	if (!t)
		return -1;
	for (int c = 0; c < ncpus; c++) {
		for (int s = 0; s < ns; s++) {
			const struct ik_state_counters *k = ik__rep_per_cpu(r, c, s);
			t[(size_t)c * (size_t)ns + (size_t)s] = k ? (double)k->time_ns : 0.0;
		}
		/* an idle period still open at the end is time in its state, not busy time */
		if (r->open_idle && r->open_idle[c].state >= 0 && r->open_idle[c].state < ns)
			t[(size_t)c * (size_t)ns + (size_t)r->open_idle[c].state] +=
				(double)r->open_idle[c].ns;
	}
	const char *names[IK_STATE_MAX + 1], *colors[IK_STATE_MAX + 1];
	char namebuf[IK_STATE_MAX][IK_NAME_LEN + 1];
	state_series(r, names, colors, namebuf);
	char title[128];
	snprintf(title, sizeof(title), "Residency per state, per CPU (seed %llu)",
		 (unsigned long long)r->seed);
	int rc = ik__html_residency_cpus(out, title, 0, ncpus, ns, names, t, (double)r->measured_ns,
					names[ns]);
	free(t);
	return rc;
}

/* All runs' measured idle periods by length, each state's target residency marked. */
static int plot_idle_durations(FILE *out, const struct ik_run_result *runs, int nruns)
{
	uint64_t hist[IK_IDLE_HIST_BUCKETS] = { 0 };
	for (int k = 0; k < nruns; k++)
		for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
			hist[i] += runs[k].idle_hist[i];
	struct ik_driver *drv = calloc(1, sizeof(*drv)); /* the table, for its residencies */
	if (!drv)
		return -1;
	drv->state_count = ik__rep_nstates(&runs[0]);
	memcpy(drv->states, runs[0].states, sizeof(drv->states));
	ik__html_idle_hist(out, "Idle durations, all CPUs, all runs: by count", NULL, hist,
			  IK_IDLE_HIST_BUCKETS, drv, "idle periods ended in the measured window");
	uint64_t time[IK_IDLE_HIST_BUCKETS] = { 0 };
	for (int k = 0; k < nruns; k++)
		for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
			time[i] += runs[k].idle_time_hist_ns[i];
	ik__html_idle_hist(out, "Idle durations, all CPUs, all runs: by time",
			  "share of idle time (%)", time, IK_IDLE_HIST_BUCKETS, drv,
			  "time of those periods");
	free(drv);
	return 0;
}

static int plot_latency(FILE *out, const struct ik_hist *h, const struct ik_run_result *runs,
			int nruns)
{
	int n = nruns > 1 && nruns <= IK_SVG_NCOLORS - 1 ? nruns : 0;
	const struct ik_hist *hs[IK_SVG_NCOLORS];
	const char *names[IK_SVG_NCOLORS];
	char namebuf[IK_SVG_NCOLORS][SEED_LABEL_LEN + 8];
	for (int k = 0; k < n; k++) {
		hs[k] = &runs[k].wake_latency;
		snprintf(namebuf[k], sizeof(namebuf[k]), "seed %llu", (unsigned long long)runs[k].seed);
		names[k] = namebuf[k];
	}
	ik__html_latency(out, h, n ? hs : NULL, n ? names : NULL, nruns, NULL,
			nruns > 1 ? "all runs together" : "all wake-ups",
			"Wake latency: from the waker's wake-up to the task running.");
	return 0;
}

/*
 * The workload's own figures (ik__workload_figures): the distribution of its first
 * distribution over all runs, then per run each distribution's percentiles (as the text
 * table), then its counts, a row per run.
 */
static int workload_section(FILE *out, const struct ik_scenario *sc,
			    const struct ik_run_result *runs, int nruns)
{
	struct ik_workload_figures f;
	if (nruns <= 0 || !ik__workload_figures(&sc->workload, &runs[0], &f))
		return 0;
	fputs("<h2>", out);
	ik__svg_escape(out, f.title);
	fputs("</h2>\n", out);
	if (f.ndists > 0) {
		struct ik_hist *all = malloc(sizeof(*all));
		if (!all)
			return -1;
		ik__hist_init(all);
		for (int k = 0; k < nruns; k++) {
			struct ik_workload_figures fk;
			if (ik__workload_figures(&sc->workload, &runs[k], &fk) && fk.ndists > 0)
				ik__hist_merge(all, fk.dist[0].h);
		}
		ik__html_latency(out, all, NULL, NULL, nruns, NULL,
				nruns > 1 ? "all runs together" : "all samples", f.definition);
		free(all);
		static const char *const headers[] = {"seed", "part", "samples", "p50_us", "p90_us",
						      "p99_us", "p99.9_us", "max_us", "mean_us"};
		fputs("<table class=\"latency\">\n", out);
		ik__html_head_row(out, headers, sizeof(headers) / sizeof(headers[0]));
		for (int k = 0; k < nruns; k++) {
			struct ik_workload_figures fk;
			if (!ik__workload_figures(&sc->workload, &runs[k], &fk))
				continue;
			for (int i = 0; i < fk.ndists; i++) {
				const struct ik_hist *h = fk.dist[i].h;
				fprintf(out, "<tr><td class=\"num\">%llu</td>",
					(unsigned long long)runs[k].seed);
				ik__html_td_text(out, fk.dist[i].name, strlen(fk.dist[i].name));
				ik__html_td_u64(out, h->count);
				ik__html_td_us(out, ik__hist_percentile(h, 50.0));
				ik__html_td_us(out, ik__hist_percentile(h, 90.0));
				ik__html_td_us(out, ik__hist_percentile(h, 99.0));
				ik__html_td_us(out, ik__hist_percentile(h, 99.9));
				ik__html_td_us(out, h->count ? h->max : 0);
				ik__html_td_fixed(out, h->count ? h->sum / (double)h->count / 1000.0
							       : 0.0, 2);
				fputs("</tr>\n", out);
			}
		}
		fputs("</table>\n", out);
	} else {
		ik__html_note(out, "%s", f.definition);
	}
	if (f.warning[0])
		ik__html_note(out, "Warning (the first run): %s.", f.warning);
	if (f.ncounts == 0)
		return 0;
	fputs("<table class=\"workload\">\n<tr>", out);
	ik__html_th(out, "seed");
	for (int i = 0; i < f.ncounts; i++)
		ik__html_th(out, f.count[i].label);
	fputs("</tr>\n", out);
	for (int k = 0; k < nruns; k++) {
		struct ik_workload_figures fk;
		if (!ik__workload_figures(&sc->workload, &runs[k], &fk))
			continue;
		fprintf(out, "<tr><td class=\"num\">%llu</td>", (unsigned long long)runs[k].seed);
		for (int i = 0; i < fk.ncounts; i++) {
			if (fk.count[i].integer)
				ik__html_td_u64(out, fk.count[i].count);
			else
				ik__html_td_fixed(out, fk.count[i].value, 2);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	return 0;
}

static int plot_timeline(FILE *out, const struct ik_run_result *r)
{
	const struct ik_timeline *tl = r->timeline;
	if (!tl) {
		ik__html_note(out, "No timeline in this result (idlekit sim --html captures one for the "
				  "first run).");
		return 0;
	}
	const char *names[IK_STATE_MAX + 1], *colors[IK_STATE_MAX + 1];
	char namebuf[IK_STATE_MAX][IK_NAME_LEN + 1];
	state_series(r, names, colors, namebuf);
	ik__html_note(out,
		     "Seed %llu, from %.3f ms to %.3f ms after the warm-up: the idle periods of "
		     "each CPU (at most the first %d CPUs and %zu periods are kept, so memory stays "
		     "bounded).",
		     (unsigned long long)r->seed, (double)(tl->start_ns - tl->origin_ns) / 1e6,
		     (double)(tl->start_ns - tl->origin_ns + tl->len_ns) / 1e6, IK_TIMELINE_MAX_CPUS,
		     tl->max_segs);
	char title[96];
	snprintf(title, sizeof(title), "Idle states per CPU over time (seed %llu)",
		 (unsigned long long)r->seed);
	ik__html_timeline(out, title, tl, ik__rep_nstates(r), names,
			 "time since the end of the warm-up (us)");
	return 0;
}

static int plot_throughput(FILE *out, const struct ik_scenario *sc,
			   const struct ik_run_result *runs, int nruns)
{
	if (!ik__workload_has_throughput(&sc->workload)) {
		ik__html_note(out, "This workload (%s) has no throughput figure.",
		     ik__workload_type_name(sc->workload.kind));
		return 0;
	}
	bool use_mb = false;
	for (int k = 0; k < nruns; k++)
		if (ik__run_mb_per_s(&runs[k]) > 0)
			use_mb = true;
	double ymax = 0;
	for (int k = 0; k < nruns; k++) {
		double v = use_mb ? ik__run_mb_per_s(&runs[k]) : ik__run_messages_per_s(&runs[k]);
		if (isfinite(v) && v > ymax)
			ymax = v;
	}
	struct ik_html_cats cats;
	if (seed_cats(&cats, runs, nruns, 0))
		return -1;
	struct ik_svg p;
	struct ik_svg_axis x = {.label = "run (seed)", .ncat = nruns, .cat_labels = cats.p,
				.cat_label_every = ik__html_label_every(nruns)};
	struct ik_svg_axis y = {.min = 0, .max = ymax > 0 ? ymax * 1.1 : 1,
				.label = use_mb ? "throughput (MB/s)" : "throughput (messages/s)"};
	ik__svg_begin(&p, out, PLOT_W, PLOT_H, "Throughput, one dot per run", &x, &y);
	for (int k = 0; k < nruns; k++) {
		char tip[96];
		double v = use_mb ? ik__run_mb_per_s(&runs[k]) : ik__run_messages_per_s(&runs[k]);
		snprintf(tip, sizeof(tip), "seed %llu: %.2f %s", (unsigned long long)runs[k].seed, v,
			 use_mb ? "MB/s" : "messages/s");
		ik__svg_dot(&p, ik__svg_cat_px(&p, k), v, ik__svg_color(0), tip);
	}
	ik__svg_axes(&p);
	ik__svg_end(&p);
	ik__html_note(out, "Each dot is one run. Runs that split into two bands (a bimodal result) show "
		  "the system settling into one of two behaviours.");
	ik__html_cats_free(&cats);
	return 0;
}

/*
 * The share of a run's idle entries that entered a state with a higher exit latency than
 * the shallowest non-polling state of the table: wake-ups that paid a deeper state's exit.
 * Also the mean advertised exit latency per entry (us).
 */
static double deeper_exit_pct(const struct ik_run_result *r, double *mean_exit_us)
{
	int ns = ik__rep_nstates(r);
	uint32_t shallowest = UINT32_MAX;
	for (int s = 0; s < ns; s++)
		if (!(r->states[s].flags & IK_FLAG_POLLING) && r->states[s].exit_latency < shallowest)
			shallowest = r->states[s].exit_latency;
	uint64_t entries = 0, deeper = 0;
	double lat = 0;
	for (int s = 0; s < ns; s++) {
		entries += r->total[s].usage;
		lat += (double)r->total[s].usage * r->states[s].exit_latency;
		if (shallowest != UINT32_MAX && r->states[s].exit_latency > shallowest)
			deeper += r->total[s].usage;
	}
	*mean_exit_us = entries ? lat / (double)entries : 0.0;
	return entries ? 100.0 * (double)deeper / (double)entries : 0.0;
}

static int plot_accuracy(FILE *out, const struct ik_run_result *runs, int nruns)
{
	struct ik_html_cats cats;
	if (seed_cats(&cats, runs, nruns, 4))
		return -1;
	double *v = cats.v;
	double *deeper = v + (size_t)nruns * 3;
	double ymax = 0;
	for (int k = 0; k < nruns; k++) {
		struct ik_rep_accuracy a;
		ik__rep_accuracy(&runs[k], &a);
		v[k * 3] = a.too_deep_time_pct;
		v[k * 3 + 1] = a.too_shallow_time_pct;
		v[k * 3 + 2] = a.right_time_pct;
		double mean_exit;
		deeper[k] = deeper_exit_pct(&runs[k], &mean_exit);
		ymax = fmax(ymax, deeper[k]);
	}
	const char *colors[3] = {ik__html_acc_color(0), ik__html_acc_color(1), ik__html_acc_color(2)};
	struct ik_svg p;
	struct ik_svg_axis x = {.label = "run (seed)", .ncat = nruns, .cat_labels = cats.p,
				.cat_label_every = ik__html_label_every(nruns)};
	struct ik_svg_axis y = {.min = 0, .max = 100, .label = "time in idle states (%)"};
	ik__svg_begin(&p, out, PLOT_W, PLOT_H, "Governor accuracy by time, per run", &x, &y);
	ik__svg_stacked_bars(&p, nruns, 3, v, ik__html_acc_names, colors);
	ik__svg_axes(&p);
	ik__svg_legend(&p, 3, ik__html_acc_names, colors);
	ik__svg_end(&p);
	ik__html_note(out, "Weighted by time: of the time CPUs spent in idle states, the share in "
		     "entries the kernel counts too deep ('above': woke before the state's target "
		     "residency while a shallower state was enabled), too shallow ('below': a deeper "
		     "state's target residency fitted in the idle time), and the rest. The JSON's "
		     "accuracy object has the same shares by count (too_deep_pct) and by time "
		     "(too_deep_time_pct).");

	/* the other way a choice goes wrong: right by residency, but slow to wake from */
	struct ik_svg_axis y2 = {.min = 0, .max = ymax > 0 ? fmin(100.0, ymax * 1.15) : 1,
				 .label = "idle entries (%)"};
	ik__svg_begin(&p, out, PLOT_W, PLOT_H, "Wake-ups from a deeper state than the shallowest, "
		     "per run", &x, &y2);
	for (int k = 0; k < nruns; k++) {
		char tip[96];
		double mean_exit;
		deeper_exit_pct(&runs[k], &mean_exit);
		snprintf(tip, sizeof(tip), "seed %llu: %.2f%% of entries, mean exit latency %.2f us",
			 (unsigned long long)runs[k].seed, deeper[k], mean_exit);
		ik__svg_dot(&p, ik__svg_cat_px(&p, k), deeper[k], ik__html_acc_color(0), tip);
	}
	ik__svg_axes(&p);
	ik__svg_end(&p);
	ik__html_note(out, "The share of idle entries that went into a state with a higher exit "
		     "latency than the table's shallowest non-polling state: each of them pays the "
		     "deeper state's exit on wake-up. A run can be right by the kernel's rule and "
		     "still bad here: long idle periods in a slow-to-leave state lengthen every "
		     "wake-up (compare the wake latency per run).");
	ik__html_cats_free(&cats);
	return 0;
}

/* ---- the page ---- */

static int html_page(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		     int nruns, const void *arg)
{
	(void)arg;
	int rc = 0;
	char title[128];
	snprintf(title, sizeof(title), "idlekit sim: %.*s", (int)strnlen(sc->name, sizeof(sc->name)),
		 sc->name);
	ik__html_begin(out, title);
	settings_table(out, sc, runs, nruns);

	if (nruns > 0) {
		struct ik_hist *all = malloc(sizeof(*all));
		if (!all)
			return -1;
		ik__hist_init(all);
		for (int k = 0; k < nruns; k++)
			ik__hist_merge(all, &runs[k].wake_latency);

		fputs("<h2>Residency per state</h2>\n", out);
		rc |= plot_residency_runs(out, runs, nruns);
		rc |= plot_residency_cpus(out, &runs[0]);
		fputs("<h3>Idle states", out);
		fprintf(out, " of seed %llu, summed over all %d CPUs</h3>\n",
			(unsigned long long)runs[0].seed, runs[0].ncpus);
		rc |= states_table(out, &runs[0]);

		fputs("<h2>Idle durations</h2>\n", out);
		rc |= plot_idle_durations(out, runs, nruns);

		fputs("<h2>Timeline</h2>\n", out);
		rc |= plot_timeline(out, &runs[0]);

		fputs("<h2>Wake latency</h2>\n", out);
		rc |= plot_latency(out, all, runs, nruns);
		rc |= latency_table(out, runs, nruns);
		free(all);

		rc |= workload_section(out, sc, runs, nruns);

		if (runs[0].leave_lite.count > 0) {
			fputs("<h2>Leaving polling and lite states after the work stopped</h2>\n"
			      "<p>Per CPU, from its last work to its first entry into a state that "
			      "neither polls nor is lite; and how many times it entered a lite "
			      "state on the way (each stay ended by a wake-up: with the tick kept, "
			      "the ticks it spent there).</p>\n",
			      out);
			rc |= leave_lite_table(out, runs, nruns);
		}

		fputs("<h2>Throughput across runs</h2>\n", out);
		rc |= plot_throughput(out, sc, runs, nruns);

		fputs("<h2>Governor accuracy</h2>\n", out);
		rc |= plot_accuracy(out, runs, nruns);

		fputs("<h2>Tables</h2>\n", out);
		rc |= runs_tables(out, sc, runs, nruns);
	}
	ik__html_end(out);
	return rc;
}

int ik__report_html(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		   int nruns)
{
	return ik__rep_runs_report(out, sc, runs, nruns, html_page, NULL);
}
