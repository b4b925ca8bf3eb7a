/*
 * The HTML pages of the trace commands and of wakelat (docs/html-report.md):
 *   analyze: settings, the text report's tables, residency per state per CPU, the idle-
 *            duration histogram with the target residencies marked, the wake causes, and a
 *            timeline of states per CPU;
 *   replay:  every governor's what-if side by side (energy, its parts as stacked bars, the
 *            wake latency's CDF per governor, too deep / too shallow, agreement), then the
 *            first governor's replayed entries as analyze shows them, and with
 *            --compare-recorded its choices against the recorded states (a confusion matrix);
 *   wakelat: settings, the percentiles, the latency histogram and CDF (exact percentiles
 *            marked) and the wakee CPU's idle states.
 * Plots come from html_common.c and svg.c.  Written in the "C" locale: same input, same bytes.
 *
 * Divisions: shared table pieces (rows, state names, driver rows, the histogram table);
 * analyze's page (ik__report_html_analyze); replay's page (confusion plot, the governors'
 * sections, ik__report_html_replay); wakelat's page.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/html_internal.h"
#include "report/report_internal.h"
#include "report/svg.h"
#include "report/table_model.h"

#define NAME_BUF (IK_NAME_LEN + 1)

/* ns as us with 3 decimals, as the text report prints them. */
static void tab_us3(struct ik_tab *t, int row, int col, uint64_t ns)
{
	ik__tab_set(t, row, col, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

/* A table drawn into the page, then freed. */
static int print_tab(FILE *out, struct ik_tab *t, const char *cls)
{
	int rc = ik__tab_print_html(out, t, cls);
	ik__tab_free(t);
	return rc;
}

static void row_u64(FILE *out, const char *key, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "%" PRIu64, v);
	ik__html_setting(out, key, b, sizeof(b));
}

static int max_states(const struct ik_trace_header *h)
{
	int n = ik__trace_max_states(h);
	return n > IK_STATE_MAX ? IK_STATE_MAX : n;
}

/* The names of the states by index over all CPUs: the driver's, or stateN when they differ. */
static void all_state_names(const struct ik_trace_header *h, char (*buf)[NAME_BUF],
			    const char **names, int n)
{
	const struct ik_driver *d = &h->drivers[0].drv;
	for (int i = 0; i < n; i++) {
		if (h->ndrivers == 1 && i < d->state_count)
			snprintf(buf[i], NAME_BUF, "%.*s",
				 (int)strnlen(d->states[i].name, sizeof(d->states[i].name)),
				 d->states[i].name);
		else
			snprintf(buf[i], NAME_BUF, "state%d", i);
		names[i] = buf[i];
	}
}

/* The first n of a driver's state names into buf, names[i] pointing at them, names[n] NULL. */
static void driver_state_names(const struct ik_driver *drv, int n, char (*buf)[NAME_BUF],
			       const char **names)
{
	for (int i = 0; i < n; i++) {
		snprintf(buf[i], NAME_BUF, "%.*s", (int)strnlen(drv->states[i].name, IK_NAME_LEN),
			 drv->states[i].name);
		names[i] = buf[i];
	}
	names[n] = NULL;
}

static void driver_rows(FILE *out, const struct ik_trace_header *h)
{
	for (int d = 0; d < h->ndrivers; d++) {
		const struct ik_trace_driver *td = &h->drivers[d];
		char buf[1024], key[48];
		size_t len = (size_t)snprintf(buf, sizeof(buf), "%.*s, CPUs %d-%d:",
					      (int)strnlen(td->drv.name, sizeof(td->drv.name)),
					      td->drv.name, td->first_cpu,
					      td->first_cpu + td->ncpus - 1);
		for (int s = 0; s < td->drv.state_count && len < sizeof(buf); s++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						" %.*s (latency %u us, target residency %u us)",
						(int)strnlen(td->drv.states[s].name, IK_NAME_LEN),
						td->drv.states[s].name, td->drv.states[s].exit_latency,
						td->drv.states[s].target_residency);
		snprintf(key, sizeof(key), "driver %d", d);
		ik__html_setting(out, key, buf, sizeof(buf));
	}
}

static void window_text(char *buf, size_t len, const struct ik_timeline *tl, const char *from)
{
	snprintf(buf, len, "%.3f ms to %.3f ms after %s", (double)(tl->start_ns - tl->origin_ns) / 1e6,
		 (double)(tl->start_ns - tl->origin_ns + tl->len_ns) / 1e6, from);
}

static int hist_table(FILE *out, const uint64_t *hist)
{
	struct ik_tab t;
	ik__tab_init(&t, 2);
	ik__tab_col(&t, 0, IK_TAB_TEXT, "duration", "us");
	ik__tab_col(&t, 1, IK_TAB_NUM, "periods", NULL);
	for (int i = 0; i < IK_TRACE_HIST_BUCKETS; i++) {
		char range[64];
		int row = ik__tab_row(&t);
		ik__trace_hist_label(i, range, sizeof(range));
		ik__tab_text(&t, row, 0, range, sizeof(range));
		ik__tab_u64(&t, row, 1, hist[i]);
	}
	return print_tab(out, &t, "histogram");
}

/* ---- analyze ---- */

/* The analyze tables of states: a row per state (of one CPU, when cpu is not NULL). */
static void analyze_state_rows(struct ik_tab *t, const char *cpu, const char *const *names,
			       int n, const struct ik_trace_cpu_stats *s)
{
	for (int i = 0; i < n; i++) {
		const struct ik_trace_state_stats *st = &s->states[i];
		int row = ik__tab_row(t), c = 0;
		if (cpu)
			ik__tab_text(t, row, c++, cpu, strlen(cpu));
		ik__tab_text(t, row, c++, names[i], strlen(names[i]));
		ik__tab_u64(t, row, c++, st->entries);
		tab_us3(t, row, c++, st->min_ns);
		tab_us3(t, row, c++, st->entries ? st->total_ns / st->entries : 0);
		tab_us3(t, row, c++, st->max_ns);
		tab_us3(t, row, c++, st->total_ns);
		ik__tab_u64(t, row, c++, st->too_deep);
		ik__tab_u64(t, row, c, st->too_shallow);
	}
}

static void analyze_state_cols(struct ik_tab *t, bool cpu)
{
	static const char *const hd[] = {"state", "entries", "min_us", "avg_us", "max_us",
					 "total_us", "too_deep", "too_shallow"};
	enum { NHD = sizeof(hd) / sizeof(hd[0]) };
	int first = cpu ? 1 : 0;
	ik__tab_init(t, first + NHD);
	if (cpu)
		ik__tab_col(t, 0, IK_TAB_TEXT, "CPU", NULL);
	for (int i = 0; i < NHD; i++)
		ik__tab_col(t, first + i, i == 0 ? IK_TAB_TEXT : IK_TAB_NUM, hd[i], NULL);
}

static void plot_causes(FILE *out, const struct ik_trace_cpu_stats *all)
{
	const char *labels[IK_CAUSE_COUNT + 2];
	double v[(IK_CAUSE_COUNT + 1) * 2];
	double ymax = 0;
	for (int k = 0; k <= IK_CAUSE_COUNT; k++) {
		labels[k] = ik__trace_cause_name((enum ik_trace_cause)k);
		v[k * 2] = (double)all->too_deep_by_cause[k];
		v[k * 2 + 1] = (double)(all->wakes[k] - all->too_deep_by_cause[k]);
		if ((double)all->wakes[k] > ymax)
			ymax = (double)all->wakes[k];
	}
	labels[IK_CAUSE_COUNT + 1] = NULL;
	static const char *const names[] = {"too deep", "not too deep"};
	const char *colors[] = {ik__svg_color(5), ik__svg_color(0)};
	struct ik_svg p;
	struct ik_svg_axis x = {.label = "wake cause (first wake event of the period)",
				.ncat = IK_CAUSE_COUNT + 1, .cat_labels = labels};
	struct ik_svg_axis y = {.min = 0, .max = ymax > 0 ? ymax * 1.1 : 1,
				.label = "idle periods"};
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, IK_HTML_PLOT_H, "Wake causes, all CPUs", &x, &y);
	ik__svg_stacked_bars(&p, IK_CAUSE_COUNT + 1, 2, v, names, colors);
	ik__svg_axes(&p);
	ik__svg_legend(&p, 2, names, colors);
	ik__svg_end(&p);
}

/* A CPU's time in a state (ns): of a trace's analysis, of its replay. */
typedef double (*cpu_state_ns)(const void *of, int cpu, int state);

static double analyzed_ns(const void *of, int cpu, int state)
{
	return (double)((const struct ik_trace_analysis *)of)->cpu[cpu].states[state].total_ns;
}

static double replayed_ns(const void *of, int cpu, int state)
{
	return (double)((const struct ik_trace_replay *)of)->cpu[cpu].states[state].time_ns;
}

/*
 * "Residency per state": each of cpus CPUs' share of span in each of n states, ns(of, cpu,
 * state) its time there; the plot's result ORed into *rc.  false when memory ran out (the
 * heading written, no plot).
 */
static bool residency_section(FILE *out, const char *title, int cpus, int n,
			      const char *const *names, uint64_t span, cpu_state_ns ns,
			      const void *of, int *rc)
{
	fputs("<h2>Residency per state</h2>\n", out);
	double *t = calloc((size_t)(cpus > 0 ? cpus : 1) * (size_t)(n ? n : 1), sizeof(double));
	if (!t)
		return false;
	for (int c = 0; c < cpus; c++)
		for (int s = 0; s < n; s++)
			t[(size_t)c * (size_t)n + (size_t)s] = ns(of, c, s);
	*rc |= ik__html_residency_cpus(out, title, 0, cpus, n, names, t, (double)span,
				      "not in an idle state");
	free(t);
	return true;
}

int ik__report_html_analyze(FILE *out, const char *origin, const struct ik_trace_header *h,
			   const struct ik_trace_analysis *a, const struct ik_timeline *tl)
{
	if (!out || !origin || !h || !a || (a->cpus > 0 && !a->cpu))
		return -1;
	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);
	int rc = 0;
	char title[512], buf[256];
	snprintf(title, sizeof(title), "idlekit analyze: %s", origin);
	ik__html_begin(out, title);

	int n = max_states(h);
	char namebuf[IK_STATE_MAX][NAME_BUF];
	const char *names[IK_STATE_MAX + 1];
	all_state_names(h, namebuf, names, n);
	uint64_t span = a->last_ns > a->first_ns ? (uint64_t)(a->last_ns - a->first_ns) : 0;

	fputs("<h2>Settings</h2>\n<table class=\"settings\">\n", out);
	ik__html_setting(out, "trace", origin, strlen(origin));
	snprintf(buf, sizeof(buf), "%d CPUs, HZ %d", h->cpus, h->hz);
	ik__html_setting(out, "machine", buf, sizeof(buf));
	driver_rows(out, h);
	row_u64(out, "events", a->events);
	row_u64(out, "bad lines skipped (--lenient)", a->skipped);
	row_u64(out, "idle periods", a->periods);
	row_u64(out, "still open at the end (not counted)", a->open_at_end);
	snprintf(buf, sizeof(buf), "%.3f ms", (double)span / 1e6);
	ik__html_setting(out, "traced time", buf, sizeof(buf));
	fputs("</table>\n", out);

	if (!residency_section(out, "Residency per state, per CPU", a->cpus, n, names, span,
			       analyzed_ns, a, &rc)) {
		rc = -1;
		goto done;
	}
	ik__html_note(out, "A CPU's share of the traced time (first to last event) spent in each "
			  "state: the idle periods' durations, exit included.");
	fputs("<h3>All CPUs</h3>\n", out);
	struct ik_tab tab;
	analyze_state_cols(&tab, false);
	analyze_state_rows(&tab, NULL, names, n, &a->all);
	rc |= print_tab(out, &tab, "states");

	fputs("<h2>Idle durations</h2>\n", out);
	ik__html_idle_hist(out, "Idle durations, all CPUs", NULL, a->hist, IK_TRACE_HIST_BUCKETS,
			  &h->drivers[0].drv, "recorded idle periods");
	if (h->ndrivers > 1)
		ik__html_note(out, "Target residencies of the first driver (%s).",
			     h->drivers[0].drv.name);
	rc |= hist_table(out, a->hist);

	fputs("<h2>Wake causes</h2>\n", out);
	plot_causes(out, &a->all);
	ik__tab_init(&tab, 3);
	ik__tab_col(&tab, 0, IK_TAB_TEXT, "cause", NULL);
	ik__tab_col(&tab, 1, IK_TAB_NUM, "idle periods", NULL);
	ik__tab_col(&tab, 2, IK_TAB_NUM, "too deep", NULL);
	for (int k = 0; k <= IK_CAUSE_COUNT; k++) {
		const char *cn = ik__trace_cause_name((enum ik_trace_cause)k);
		int row = ik__tab_row(&tab);
		ik__tab_text(&tab, row, 0, cn, strlen(cn));
		ik__tab_u64(&tab, row, 1, a->all.wakes[k]);
		ik__tab_u64(&tab, row, 2, a->all.too_deep_by_cause[k]);
	}
	rc |= print_tab(out, &tab, "causes");
	ik__html_note(out, "The cause of a period is the first wake event on its CPU at or after its "
			  "idle_enter and before the next one; 'none' if there was none.");

	fputs("<h2>Timeline</h2>\n", out);
	if (tl) {
		window_text(buf, sizeof(buf), tl, "the first event");
		ik__html_note(out, "Window: %s. A period still open at the end of the trace is drawn "
				  "up to the last event.", buf);
	}
	ik__html_timeline(out, "Idle states per CPU over time", tl, n, names,
			 "time since the first event (us)");

	fputs("<h2>Per CPU</h2>\n", out);
	analyze_state_cols(&tab, true);
	for (int c = 0; c < a->cpus; c++) {
		char cpu[16], nb[IK_STATE_MAX][NAME_BUF];
		const char *cn[IK_STATE_MAX];
		const struct ik_driver *d = &h->drivers[h->cpu_driver[c]].drv;
		int dn = d->state_count > IK_STATE_MAX ? IK_STATE_MAX : d->state_count;
		for (int i = 0; i < dn; i++) {
			snprintf(nb[i], NAME_BUF, "%.*s", (int)strnlen(d->states[i].name, IK_NAME_LEN),
				 d->states[i].name);
			cn[i] = nb[i];
		}
		snprintf(cpu, sizeof(cpu), "%d", c);
		analyze_state_rows(&tab, cpu, cn, dn, &a->cpu[c]);
	}
	rc |= print_tab(out, &tab, "per-cpu");
	ik__html_end(out);
done:
	return ik__rep_done(out, &locale, rc);
}

/* ---- replay ---- */

static void plot_confusion(FILE *out, const struct ik_html_replay *r, const char *const *rec_names,
			   int nrec)
{
	const struct ik_driver *drv = r->drv;
	int nch = drv->state_count > IK_STATE_MAX ? IK_STATE_MAX : drv->state_count;
	char chbuf[IK_STATE_MAX][NAME_BUF];
	const char *chosen[IK_STATE_MAX + 1];
	driver_state_names(drv, nch, chbuf, chosen);
	/* each row (recorded state) shaded by the share of its periods in each column */
	struct ik_svg p;
	struct ik_svg_axis x = {.label = "state the governor chose (first entry of the period)",
				.ncat = nch, .cat_labels = chosen};
	struct ik_svg_axis y = {.label = "recorded state", .ncat = nrec, .cat_labels = rec_names};
	int height = 130 + 36 * nrec;
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, height, "Governor's choice against the recorded state",
		     &x, &y);
	for (int i = 0; i < nrec; i++) {
		uint64_t row = 0;
		for (int j = 0; j < nch; j++)
			row += r->rp->confusion[i][j];
		for (int j = 0; j < nch; j++) {
			uint64_t v = r->rp->confusion[i][j];
			double share = row ? (double)v / (double)row : 0.0;
			/* white to blue (#0072B2) by share */
			int cr = (int)lround(255 - share * (255 - 0x00));
			int cg = (int)lround(255 - share * (255 - 0x72));
			int cb = (int)lround(255 - share * (255 - 0xB2));
			char fill[16], text[32], tip[2 * NAME_BUF + 96];
			snprintf(fill, sizeof(fill), "#%02X%02X%02X", cr & 0xff, cg & 0xff, cb & 0xff);
			snprintf(text, sizeof(text), "%" PRIu64, v);
			snprintf(tip, sizeof(tip), "recorded %s, chosen %s: %" PRIu64 " periods (%.1f%% of the row)",
				 rec_names[i], chosen[j], v, 100.0 * share);
			ik__svg_cell(&p, j, i, fill, text, tip);
		}
	}
	ik__svg_axes(&p);
	ik__svg_end(&p);
	ik__html_note(out, "Counts of recorded idle periods; a cell's shade is its share of the row. "
			  "The diagonal (same index) is agreement.");
}

/* Every governor's figures: a table, the energy's parts, the wake latency per governor. */
static int governors_section(FILE *out, const struct ik_trace_replay_report *rep)
{
	int n = rep->nruns;
	fputs("<h2>Governors side by side</h2>\n", out);
	static const char *const hd[] = {"governor", "idle entries", "wake pending", "energy_j",
					 "avg_power_w", "wake p50 (us)", "wake p99 (us)", "wake max (us)",
					 "too_deep_%", "too_shallow_%", "agreement_%"};
	enum { NHD = sizeof(hd) / sizeof(hd[0]) };
	static const enum ik_tab_stat wake[] = {IK_TAB_P50, IK_TAB_P99, IK_TAB_MAX};
	struct ik_tab t;
	ik__tab_init(&t, NHD);
	for (int i = 0; i < NHD; i++)
		ik__tab_col(&t, i, i == 0 ? IK_TAB_TEXT : IK_TAB_NUM, hd[i], NULL);
	for (int g = 0; g < n; g++) {
		const struct ik_trace_replay *rp = &rep->runs[g];
		struct ik_rep_accuracy a;
		ik__rep_accuracy(&rp->run, &a);
		int row = ik__tab_row(&t);
		ik__tab_text(&t, row, 0, rep->governors[g], strlen(rep->governors[g]));
		ik__tab_u64(&t, row, 1, rp->entries);
		ik__tab_u64(&t, row, 2, rp->wake_pending);
		if (rp->has_energy) {
			ik__tab_fixed(&t, row, 3, rp->run.energy_j, 6);
			ik__tab_fixed(&t, row, 4, ik__run_avg_power_w(&rp->run), 4);
		} else {
			ik__tab_set(&t, row, 3, "n/a");
			ik__tab_set(&t, row, 4, "n/a");
		}
		ik__tab_hist(&t, row, 5, &rp->run.wake_latency, wake, 3, true);
		ik__tab_fixed(&t, row, 8, a.too_deep_pct, 2);
		ik__tab_fixed(&t, row, 9, a.too_shallow_pct, 2);
		ik__tab_fixed(&t, row, 10, rp->compared ? 100.0 * (double)rp->agree / (double)rp->compared
						       : 0.0, 2);
	}
	if (print_tab(out, &t, "states") != 0)
		return -1;
	ik__html_note(out, "%s loop (docs/replay.md). Wake latency: per recorded period, from the wake "
			  "to the work starting (the real exit cost paid, or the wait when the wake was "
			  "pending). Too deep / too shallow: the kernel's above / below over the "
			  "entries, as idlekit sim counts them.", rep->closed_loop ? "Closed" : "Open");
	if (rep->runs[0].has_energy) {
		double *v = calloc((size_t)n * 3, sizeof(double));
		if (!v)
			return -1;
		double top = 0;
		for (int g = 0; g < n; g++) {
			const struct ik_trace_replay *rp = &rep->runs[g];
			v[g * 3] = rp->state_j;
			v[g * 3 + 1] = rp->entry_exit_j;
			v[g * 3 + 2] = rp->run.energy_j - rp->state_j - rp->entry_exit_j;
			if (rp->run.energy_j > top)
				top = rp->run.energy_j;
		}
		static const char *const parts[] = {"idle states", "entry and exit", "busy and package"};
		struct ik_svg p;
		struct ik_svg_axis x = {.label = "governor", .ncat = n, .cat_labels = rep->governors};
		struct ik_svg_axis y = {.min = 0, .max = top > 0 ? top * 1.05 : 1, .label = "energy (J)"};
		ik__svg_begin(&p, out, IK_HTML_PLOT_W, 320, "Energy per governor", &x, &y);
		ik__svg_stacked_bars(&p, n, 3, v, parts, NULL);
		ik__svg_axes(&p);
		ik__svg_legend(&p, 3, parts, NULL);
		ik__svg_end(&p);
		free(v);
		if (rep->package_note)
			ik__html_note(out, "The energy leaves out %s.", rep->package_note);
	}
	const struct ik_hist *hs[IK_TRACE_REPLAY_MAX_GOVS];
	for (int g = 0; g < n; g++)
		hs[g] = &rep->runs[g].run.wake_latency;
	ik__html_latency(out, hs[0], hs, rep->governors, n, NULL, rep->governors[0],
			"Wake latency: from each recorded wake to the work starting on the replayed CPU.");
	return 0;
}

int ik__report_html_replay(FILE *out, const struct ik_html_replay *r)
{
	if (!out || !r || !r->origin || !r->drv || !r->h || !r->rp ||
	    (r->rp->cpus > 0 && !r->rp->cpu))
		return -1;
	const struct ik_trace_replay *rp = r->rp;
	const struct ik_driver *drv = r->drv;
	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);
	int rc = 0;
	char title[512], buf[256];
	snprintf(title, sizeof(title), "idlekit replay: %s", r->origin);
	ik__html_begin(out, title);

	int n = rp->nstates > IK_STATE_MAX ? IK_STATE_MAX : rp->nstates;
	char namebuf[IK_STATE_MAX][NAME_BUF];
	const char *names[IK_STATE_MAX + 1];
	driver_state_names(drv, n, namebuf, names);
	uint64_t span = rp->last_ns > rp->first_ns ? (uint64_t)(rp->last_ns - rp->first_ns) : 0;

	if (r->report)
		rc |= governors_section(out, r->report);
	fputs("<h2>Settings</h2>\n<table class=\"settings\">\n", out);
	ik__html_setting(out, "trace", r->origin, strlen(r->origin));
	ik__html_setting(out, "governor", r->governor ? r->governor : "",
			r->governor ? strlen(r->governor) + 1 : 1);
	ik__html_setting(out, "platform", r->platform ? r->platform : "", 256);
	snprintf(buf, sizeof(buf), "%d CPUs, HZ %d", rp->cpus, r->hz);
	ik__html_setting(out, "machine", buf, sizeof(buf));
	driver_rows(out, r->h);
	row_u64(out, "recorded idle periods", rp->periods);
	row_u64(out, "replayed idle entries", rp->entries);
	row_u64(out, "re-entries after a tick, timer or poll-limit wake-up", rp->extra_entries);
	row_u64(out, "wake already pending at entry", rp->wake_pending);
	snprintf(buf, sizeof(buf), "periods cut at %d entries", IK_TRACE_REENTRY_CAP);
	row_u64(out, buf, rp->capped);
	row_u64(out, "bad lines skipped (--lenient)", rp->skipped);
	snprintf(buf, sizeof(buf), "%.3f ms", (double)span / 1e6);
	ik__html_setting(out, "traced time", buf, sizeof(buf));
	fputs("</table>\n", out);

	fprintf(out, "<h2>Replayed idle states (%s)</h2>\n", r->governor ? r->governor : "");
	static const char *const hd[] = {"state", "name", "usage", "time_us", "above", "below"};
	struct ik_tab tab;
	ik__tab_init(&tab, 6);
	for (int i = 0; i < 6; i++)
		ik__tab_col(&tab, i, i == 1 ? IK_TAB_TEXT : IK_TAB_NUM, hd[i], NULL);
	for (int i = 0; i < n; i++) {
		int row = ik__tab_row(&tab);
		ik__tab_set(&tab, row, 0, "%d", i);
		ik__tab_text(&tab, row, 1, names[i], strlen(names[i]));
		ik__tab_u64(&tab, row, 2, rp->all[i].usage);
		tab_us3(&tab, row, 3, rp->all[i].time_ns);
		ik__tab_u64(&tab, row, 4, rp->all[i].above);
		ik__tab_u64(&tab, row, 5, rp->all[i].below);
	}
	rc |= print_tab(out, &tab, "states");

	if (!residency_section(out, "Replayed residency per state, per CPU", rp->cpus, n, names,
			       span, replayed_ns, rp, &rc)) {
		rc = -1;
		goto done;
	}
	ik__html_note(out, "A CPU's share of the traced time (first to last event) in each state "
			  "the governor chose in the replay.");

	fputs("<h2>Idle durations</h2>\n", out);
	ik__html_idle_hist(out, "Replayed idle entries by residency, all CPUs", NULL, rp->hist,
			  IK_TRACE_HIST_BUCKETS, drv, "replayed idle entries");
	rc |= hist_table(out, rp->hist);

	if (r->compare) {
		fputs("<h2>Against the recorded states</h2>\n", out);
		ik__html_note(out, "Agreement with the recorded state (first entry of each period, the "
				  "recorded state mapped onto the platform's table): %.2f %% (%llu of %llu periods).",
			     rp->compared ? 100.0 * (double)rp->agree / (double)rp->compared : 0.0,
			     (unsigned long long)rp->agree, (unsigned long long)rp->compared);
		fputs("<table class=\"settings\">\n", out);
		for (int d = 0; d < rp->map.ndrivers; d++)
			for (int i = 0; i < rp->map.nstates[d] && i < IK_STATE_MAX; i++) {
				char key[2 * NAME_BUF + 8], val[NAME_BUF + 32];
				int to = rp->map.to[d][i];
				snprintf(key, sizeof(key), "%.*s %.*s", IK_NAME_LEN, r->h->drivers[d].drv.name,
					 IK_NAME_LEN, r->h->drivers[d].drv.states[i].name);
				snprintf(val, sizeof(val), "%.*s (by %s)", IK_NAME_LEN,
					 to >= 0 ? drv->states[to].name : "(none)",
					 ik__trace_map_how_name(rp->map.how[d][i]));
				ik__html_setting(out, key, val, sizeof(val));
			}
		fputs("</table>\n", out);
		int nrec = max_states(r->h);
		char rb[IK_STATE_MAX][NAME_BUF];
		const char *rn[IK_STATE_MAX + 1];
		all_state_names(r->h, rb, rn, nrec);
		rn[nrec] = NULL;
		if (nrec > 0 && n > 0)
			plot_confusion(out, r, rn, nrec);
		ik__tab_init(&tab, 1 + n);
		ik__tab_col(&tab, 0, IK_TAB_LABEL, "recorded \\ chosen", NULL);
		for (int j = 0; j < n; j++)
			ik__tab_col(&tab, 1 + j, IK_TAB_NUM, names[j], NULL);
		for (int i = 0; i < nrec; i++) {
			int row = ik__tab_row(&tab);
			ik__tab_text(&tab, row, 0, rn[i], strlen(rn[i]));
			for (int j = 0; j < n; j++)
				ik__tab_u64(&tab, row, 1 + j, rp->confusion[i][j]);
		}
		rc |= print_tab(out, &tab, "confusion");
	}

	fputs("<h2>Timeline</h2>\n", out);
	if (r->tl) {
		window_text(buf, sizeof(buf), r->tl, "the first event");
		ik__html_note(out, "Window: %s. The replayed idle entries (re-entries included).", buf);
	}
	ik__html_timeline(out, "Replayed idle states per CPU over time", r->tl, n, names,
			 "time since the first event (us)");
	ik__html_end(out);
done:
	return ik__rep_done(out, &locale, rc);
}

/* ---- wakelat ---- */

int ik__report_html_wakelat(FILE *out, const struct ik_html_wakelat *w)
{
	if (!out || !w || !w->r || (w->r->count > 0 && !w->r->samples_ns) ||
	    (w->nstates > 0 && (!w->state_names || !w->usage || !w->time_us)))
		return -1;
	const struct ik_wakelat_result *r = w->r;
	struct ik_hist *h = malloc(sizeof(*h));
	if (!h)
		return -1;
	ik__hist_init(h);
	for (long i = 0; i < r->count; i++)
		ik__hist_add(h, r->samples_ns[i]);

	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);
	int rc = 0;
	char buf[256];
	ik__html_begin(out, "idlekit wakelat");

	fputs("<h2>Settings</h2>\n<table class=\"settings\">\n", out);
	ik__html_setting(out, "method", w->method ? w->method : "", 64);
	snprintf(buf, sizeof(buf), "waker CPU %d, wakee CPU %d", w->waker_cpu, w->wakee_cpu);
	ik__html_setting(out, "CPUs", buf, sizeof(buf));
	snprintf(buf, sizeof(buf), "%" PRId64 " ns", w->gap_ns);
	ik__html_setting(out, "idle gap before each wake-up", buf, sizeof(buf));
	snprintf(buf, sizeof(buf), "%ld (after %ld of warm-up), in %.3f s", r->count, w->warmup,
		 (double)r->elapsed_ns / 1e9);
	ik__html_setting(out, "samples", buf, sizeof(buf));
	if (w->latency_limit_ns >= 0)
		snprintf(buf, sizeof(buf), "CPU latency limit %" PRId64 " us", w->latency_limit_ns / 1000);
	else
		snprintf(buf, sizeof(buf), "no CPU latency limit set");
	ik__html_setting(out, "PM QoS", buf, sizeof(buf));
	ik__html_setting(out, "idle states of the wakee CPU",
			w->only_state ? w->only_state : "all enabled", IK_NAME_LEN);
	fputs("</table>\n", out);

	fputs("<h2>Wake latency</h2>\n", out);
	static const double pct[] = {25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
	struct ik_tab tab;
	ik__tab_init(&tab, 2);
	ik__tab_col(&tab, 0, IK_TAB_LABEL, "percentile", NULL);
	ik__tab_col(&tab, 1, IK_TAB_NUM, "latency", "ns");
	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		int row = ik__tab_row(&tab);
		ik__tab_set(&tab, row, 0, "p%g", pct[i]);
		ik__tab_u64(&tab, row, 1, (uint64_t)ik__wakelat_percentile(r, pct[i]));
	}
	int row = ik__tab_row(&tab);
	ik__tab_set(&tab, row, 0, "min");
	ik__tab_u64(&tab, row, 1, (uint64_t)(r->count ? r->min_ns : 0));
	row = ik__tab_row(&tab);
	ik__tab_set(&tab, row, 0, "max");
	ik__tab_u64(&tab, row, 1, (uint64_t)(r->count ? r->max_ns : 0));
	row = ik__tab_row(&tab);
	ik__tab_set(&tab, row, 0, "mean");
	ik__tab_fixed(&tab, row, 1, r->count ? r->mean_ns : 0.0, 1);
	rc |= print_tab(out, &tab, "latency");
	double exact[4] = {(double)ik__wakelat_percentile(r, 50) / 1000.0,
			   (double)ik__wakelat_percentile(r, 90) / 1000.0,
			   (double)ik__wakelat_percentile(r, 99) / 1000.0,
			   (double)ik__wakelat_percentile(r, 99.9) / 1000.0};
	ik__html_latency(out, h, NULL, NULL, 1, exact, "all wake-ups",
			"Wake latency: from the waker's clock read just before the wake-up to the "
			"wakee's as soon as it runs.");

	fputs("<h2>Idle states of the wakee CPU</h2>\n", out);
	if (w->nstates <= 0) {
		ik__html_note(out, "Not known: no cpuidle counters on this machine.");
	} else {
		int n = w->nstates > IK_STATE_MAX ? IK_STATE_MAX : w->nstates;
		double t[IK_STATE_MAX], sum = 0;
		for (int s = 0; s < n; s++) {
			t[s] = (double)w->time_us[s] * 1000.0;
			sum += t[s];
		}
		double span = (double)r->elapsed_ns > sum ? (double)r->elapsed_ns : sum;
		snprintf(buf, sizeof(buf), "Residency per state of CPU %d during the run", w->wakee_cpu);
		rc |= ik__html_residency_cpus(out, buf, w->wakee_cpu, 1, n, w->state_names, t, span,
					     "not in an idle state");
		ik__html_note(out, "From the CPU's sysfs counters before and after the run, as a share "
				  "of the measured part's wall time.");
		ik__tab_init(&tab, 3);
		ik__tab_col(&tab, 0, IK_TAB_TEXT, "state", NULL);
		ik__tab_col(&tab, 1, IK_TAB_NUM, "usage", NULL);
		ik__tab_col(&tab, 2, IK_TAB_NUM, "time", "us");
		for (int s = 0; s < n; s++) {
			row = ik__tab_row(&tab);
			ik__tab_text(&tab, row, 0, w->state_names[s], strlen(w->state_names[s]));
			ik__tab_u64(&tab, row, 1, w->usage[s]);
			ik__tab_u64(&tab, row, 2, w->time_us[s]);
		}
		rc |= print_tab(out, &tab, "states");
	}
	ik__html_end(out);
	free(h);
	return ik__rep_done(out, &locale, rc);
}
