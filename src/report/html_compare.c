/*
 * The page of `idlekit compare --html` (ik__html_compare, html_internal.h): results side by
 * side, the first the baseline.  A table of each result's means with Welch's significance
 * marks, then one dot per run per result (throughput, power, energy, wake latency), each
 * result's wake-latency percentiles on a "nines" axis, its idle durations, its residency per
 * state and its idle-entry accuracy.  compare.c loads the results; this file only draws them,
 * in the "C" locale, so the same results give the same bytes.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_internal.h"
#include "report/report_internal.h"
#include "report/svg.h"

#define PLOT_W IK_HTML_PLOT_W
#define PLOT_H IK_HTML_PLOT_H

static double finite_or(double v, double dflt)
{
	return isfinite(v) ? v : dflt;
}

/* A figure of a result's runs: 0 MB/s, 1 msg/s, 2 wake p50, 3 wake p99, 4 W, 5 J. */
static const double *cmp_series(const struct ik_html_cmp_result *r, int which)
{
	switch (which) {
	case 0: return r->mb_s;
	case 1: return r->msg_s;
	case 2: return r->wake_p50_us;
	case 3: return r->wake_p99_us;
	case 4: return r->avg_power_w;
	default: return r->energy_j;
	}
}

/* One dot per run per result, a column per result. */
static void cmp_dots(FILE *out, const struct ik_html_cmp_result *r, int n, const char *title,
		     const char *ylabel, int which, const char **lp, const char **legend,
		     const char **colors)
{
	double ymax = 0;
	for (int k = 0; k < n; k++) {
		const double *v = cmp_series(&r[k], which);
		for (int i = 0; i < r[k].nruns; i++)
			if (finite_or(v[i], 0) > ymax)
				ymax = v[i];
	}
	struct ik_svg p;
	struct ik_svg_axis x = {.label = "result (numbered as in the legend)", .ncat = n, .cat_labels = lp};
	struct ik_svg_axis y = {.min = 0, .max = ymax > 0 ? ymax * 1.1 : 1, .label = ylabel};
	ik__svg_begin(&p, out, PLOT_W, PLOT_H, title, &x, &y);
	for (int k = 0; k < n; k++) {
		const double *v = cmp_series(&r[k], which);
		double w = ik__svg_cat_width(&p) * 0.6;
		for (int i = 0; i < r[k].nruns; i++) {
			if (!isfinite(v[i]))
				continue;
			/* runs spread across the column in order, so equal values stay visible */
			double dx = r[k].nruns > 1 ? w * ((double)i / (r[k].nruns - 1) - 0.5) : 0.0;
			char tip[64];
			snprintf(tip, sizeof(tip), "run %d: %.2f", i + 1, v[i]);
			ik__svg_dot(&p, ik__svg_cat_px(&p, k) + dx, v[i], colors[k], tip);
		}
	}
	ik__svg_axes(&p);
	ik__svg_legend(&p, n, legend, colors);
	ik__svg_end(&p);
}

const char *const ik__html_cmp_quantile_keys[IK_HTML_CMP_QUANTILES] = {
	"p25", "p50", "p75", "p90", "p95", "p99", "p99_9", "p99_95", "p99_99",
};
const double ik__html_cmp_quantile_pct[IK_HTML_CMP_QUANTILES] = {
	25, 50, 75, 90, 95, 99, 99.9, 99.95, 99.99,
};

/* A plot of one line per result ends: axes, and the legend of the results drawn. */
static void cmp_plot_end(struct ik_svg *p, int n, const bool *drawn, const char *const *legend,
			 const char *const *colors)
{
	const char *names[64], *lcolors[64];
	int shown = 0;
	for (int k = 0; k < n; k++)
		if (drawn[k]) {
			names[shown] = legend[k];
			lcolors[shown++] = colors[k];
		}
	ik__svg_axes(p);
	ik__svg_legend(p, shown, names, lcolors);
	ik__svg_end(p);
}

/*
 * Each result's wake-latency percentiles (the mean over its runs) on a "nines" axis,
 * -log10(1 - p): p90 at 1, p99 at 2, p99.9 at 3, so the tail gets as much room as the body.
 */
static void cmp_latency_profile(FILE *out, const struct ik_html_cmp_result *r, int n,
				const char *const *legend, const char *const *colors)
{
	double lo = INFINITY, hi = 0;
	for (int k = 0; k < n; k++)
		for (int q = 0; q < IK_HTML_CMP_QUANTILES; q++)
			if (isfinite(r[k].wake_q_us[q]) && r[k].wake_q_us[q] > 0) {
				lo = fmin(lo, r[k].wake_q_us[q]);
				hi = fmax(hi, r[k].wake_q_us[q]);
			}
	if (!(hi > 0)) {
		ik__html_note(out, "No wake-latency percentiles in these results.");
		return;
	}
	bool logy = hi / lo >= 100.0;
	struct ik_svg p;
	struct ik_svg_axis x = {.min = 0, .max = 4.2,
				.label = "percentile, in nines (1 = p90, 2 = p99, 3 = p99.9, 4 = p99.99)"};
	struct ik_svg_axis y = {.min = logy ? lo / 1.5 : 0, .max = hi * 1.1, .log = logy,
				.label = "wake latency (us, mean over runs)"};
	ik__svg_begin(&p, out, PLOT_W, PLOT_H, "Wake latency percentiles, per result", &x, &y);
	bool drawn[64] = { false };
	for (int k = 0; k < n; k++) {
		double xs[IK_HTML_CMP_QUANTILES], ys[IK_HTML_CMP_QUANTILES];
		int m = 0;
		for (int q = 0; q < IK_HTML_CMP_QUANTILES; q++) {
			if (!isfinite(r[k].wake_q_us[q]) || (logy && !(r[k].wake_q_us[q] > 0)))
				continue;
			xs[m] = -log10(1.0 - ik__html_cmp_quantile_pct[q] / 100.0);
			ys[m++] = r[k].wake_q_us[q];
		}
		if (!m)
			continue;
		ik__svg_line(&p, m, xs, ys, colors[k], false, legend[k]);
		for (int i = 0; i < m; i++) {
			char tip[96];
			snprintf(tip, sizeof(tip), "%s: %.2f us", ik__html_cmp_quantile_keys[i], ys[i]);
			ik__svg_dot(&p, ik__svg_px(&p, xs[i]), ys[i], colors[k], tip);
		}
		drawn[k] = true;
	}
	cmp_plot_end(&p, n, drawn, legend, colors);
	ik__html_note(out, "Each line joins one result's wake-latency percentiles p25, p50, p75, p90, "
		     "p95, p99, p99.9, p99.95 and p99.99, each the mean over that result's runs "
		     "(from its JSON's wake_latency_ns).");
}

/* Each result's idle periods by length (summed over its runs) as a share, one step line each. */
static void cmp_idle_durations(FILE *out, const struct ik_html_cmp_result *r, int n,
			       const char *const *legend, const char *const *colors)
{
	int first = IK_IDLE_HIST_BUCKETS, last = -1;
	for (int k = 0; k < n; k++)
		if (r[k].idle_hist)
			ik__html_idle_span(r[k].idle_hist, &first, &last);
	if (last < 0) {
		ik__html_note(out, "No idle-duration histograms in these results (results written "
			     "before idlekit had them, or with no idle periods).");
		return;
	}
	/* bucket i spans [edge(i), edge(i+1)) us; [0, 1 us) is drawn from 0.5 us on the log axis */
	double edges[IK_IDLE_HIST_BUCKETS + 1];
	struct ik_svg p;
	struct ik_svg_axis x;
	ik__html_idle_axis(&x, edges, first, last);
	struct ik_svg_axis y = {.min = 0, .max = 0, .label = "share of idle periods (%)"};
	double ymax = 0;
	for (int k = 0; k < n; k++)
		if (r[k].idle_hist)
			ymax = fmax(ymax, ik__html_idle_share_max(r[k].idle_hist));
	y.max = ymax * 1.1;
	ik__svg_begin(&p, out, PLOT_W, PLOT_H, "Idle durations, per result", &x, &y);
	bool drawn[64] = { false };
	for (int k = 0; k < n; k++) {
		if (!r[k].idle_hist || !ik__html_idle_share_line(&p, r[k].idle_hist, edges, first,
								last, colors[k], legend[k]))
			continue;
		drawn[k] = true;
	}
	cmp_plot_end(&p, n, drawn, legend, colors);
	ik__html_note(out, "Each result's idle periods (all CPUs, all runs) in power-of-two buckets "
		     "of microseconds, as a share of its own periods: a line shifted left means "
		     "shorter idle periods.");
}

/* The named figures: one row each, per result its mean and change from the baseline. */
static void cmp_named_table(FILE *out, const struct ik_html_cmp_result *r, int n,
			    const struct ik_html_cmp_named *named, int nnamed)
{
	if (nnamed == 0)
		return;
	fputs("<h2>Figures of the workload</h2>\n<table class=\"named\">\n<tr>", out);
	ik__html_th(out, "figure");
	ik__html_th(out, "unit");
	for (int k = 0; k < n; k++) {
		char h[300];
		snprintf(h, sizeof(h), "%d: %s (mean)", k + 1, r[k].label);
		ik__html_th(out, h);
	}
	fputs("</tr>\n", out);
	for (int f = 0; f < nnamed; f++) {
		const struct ik_html_cmp_named *x = &named[f];
		fputs("<tr>", out);
		ik__html_td_text(out, x->name, strlen(x->name));
		ik__html_td_text(out, x->unit, strlen(x->unit));
		for (int k = 0; k < n; k++) {
			char num[IK_FMT_NUM_LEN + 48], chg[40] = "";
			if (!isfinite(x->mean[k])) {
				ik__html_td_num(out, "-");
				continue;
			}
			if (k > 0 && isfinite(x->change_pct[k]))
				snprintf(chg, sizeof(chg), " (%+.2f%%)", x->change_pct[k]);
			char v[IK_FMT_NUM_LEN];
			ik__fmt_fixed(v, sizeof(v), x->mean[k], 2);
			snprintf(num, sizeof(num), "%s%s%s", v, chg, k > 0 && x->significant[k] ? " *" : "");
			if (k > 0 && isfinite(x->p_value[k]))
				fprintf(out, "<td class=\"num\" title=\"Welch p = %.4f\">", x->p_value[k]);
			else
				fputs("<td class=\"num\">", out);
			ik__svg_escape(out, num);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	ik__html_note(out, "Each figure as the result's JSON names it (a workload's object and key; "
		     "distributions as p50, p99, p99.9 in us; a validate result's figures and, on "
		     "its predicted side, the error of each).  '-': the result does not have it.  "
		     "The change is from the baseline's mean; '*' as above.");
}

int ik__html_compare(FILE *out, const struct ik_html_cmp_result *r, int n,
		    const struct ik_html_cmp_named *named, int nnamed)
{
	if (!out || n < 1 || n > 64)
		return -1;
	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);
	/* on the x axis the results' numbers, in the legend "number: label" */
	const char *lp[64], *colors[64], *legend[64];
	char numbers[64][12], legbuf[64][280];
	for (int k = 0; k < n; k++) {
		snprintf(numbers[k], sizeof(numbers[k]), "%d", k + 1);
		/* a long label (a path) keeps its tail, which names the file */
		size_t len = strlen(r[k].label);
		if (len > 17) /* "N: ..." and the tail: one legend line */
			snprintf(legbuf[k], sizeof(legbuf[k]), "%d: ...%s", k + 1, r[k].label + len - 14);
		else
			snprintf(legbuf[k], sizeof(legbuf[k]), "%d: %s", k + 1, r[k].label);
		lp[k] = numbers[k];
		legend[k] = legbuf[k];
		colors[k] = ik__svg_color(k);
	}
	ik__html_begin(out, "idlekit compare");

	fputs("<h2>Results</h2>\n<table class=\"results\">\n", out);
	static const char *const head[] = {
		"#", "result", "runs", "MB/s (mean)", "messages/s (mean)", "wake p50 us (mean)",
		"wake p99 us (mean)", "too deep % (mean)", "too shallow % (mean)",
		"avg power W (mean)", "energy J (mean)",
	};
	ik__html_head_row(out, head, sizeof(head) / sizeof(head[0]));
	for (int k = 0; k < n; k++) {
		/* in the order of the significance marks (IK_HTML_CMP_FIGURES) */
		const double *cols[IK_HTML_CMP_FIGURES] = {r[k].mb_s, r[k].msg_s, r[k].wake_p50_us,
							   r[k].wake_p99_us, r[k].too_deep_pct,
							   r[k].too_shallow_pct, r[k].avg_power_w,
							   r[k].energy_j};
		fprintf(out, "<tr><td class=\"num\">%d</td>", k + 1);
		ik__html_td_text(out, r[k].label, strlen(r[k].label));
		fprintf(out, "<td class=\"num\">%d</td>", r[k].nruns);
		for (int c = 0; c < IK_HTML_CMP_FIGURES; c++) {
			double sum = 0;
			int m = 0;
			for (int i = 0; cols[c] && i < r[k].nruns; i++)
				if (isfinite(cols[c][i])) {
					sum += cols[c][i];
					m++;
				}
			char num[IK_FMT_NUM_LEN + 8];
			ik__fmt_fixed(num, sizeof(num), m ? sum / m : NAN, c == 7 ? 4 : 2);
			if (k > 0 && r[k].significant[c]) {
				fprintf(out, "<td class=\"num\" title=\"Welch p = %.4f\">", r[k].p_value[c]);
				ik__svg_escape(out, num);
				fputs(" *</td>", out);
			} else {
				ik__html_td_num(out, num);
			}
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	ik__html_note(out, "The first result is the baseline. '*': the mean differs from the "
		     "baseline's by Welch's t-test, two-sided p < 0.05 (hover it for p); no mark "
		     "with fewer than 2 runs on a side or no spread on either. `idlekit compare` "
		     "without --html gives the changes, p-values and 95%% confidence intervals.");
	cmp_named_table(out, r, n, named, nnamed);

	bool use_mb = false;
	for (int k = 0; k < n; k++)
		for (int i = 0; i < r[k].nruns; i++)
			if (finite_or(r[k].mb_s[i], 0) > 0)
				use_mb = true;
	fputs("<h2>Throughput across runs</h2>\n", out);
	cmp_dots(out, r, n, "Throughput, one dot per run", use_mb ? "throughput (MB/s)"
								    : "throughput (messages/s)",
		 use_mb ? 0 : 1, lp, legend, colors);
	fputs("<h2>Power and energy across runs</h2>\n", out);
	cmp_dots(out, r, n, "Average power, one dot per run", "average power (W)", 4, lp, legend,
		 colors);
	cmp_dots(out, r, n, "Energy, one dot per run", "energy (J)", 5, lp, legend, colors);
	fputs("<h2>Wake latency across runs</h2>\n", out);
	cmp_dots(out, r, n, "Wake latency p50, one dot per run", "wake latency p50 (us)", 2, lp,
		 legend, colors);
	cmp_dots(out, r, n, "Wake latency p99, one dot per run", "wake latency p99 (us)", 3, lp,
		 legend, colors);
	cmp_latency_profile(out, r, n, legend, colors);
	fputs("<h2>Idle durations</h2>\n", out);
	cmp_idle_durations(out, r, n, legend, colors);

	/* residency: the union of the states' names, in order of first appearance */
	const char *names[IK_HTML_CMP_STATES + 1];
	const char *scolors[IK_HTML_CMP_STATES + 1];
	int ns = 0;
	for (int k = 0; k < n; k++)
		for (int s = 0; s < r[k].nstates; s++) {
			int j = 0;
			while (j < ns && strcmp(names[j], r[k].state_names[s]) != 0)
				j++;
			if (j == ns && ns < IK_HTML_CMP_STATES) {
				names[ns] = r[k].state_names[s];
				scolors[ns] = ik__svg_color(ns);
				ns++;
			}
		}
	names[ns] = "other (busy, overhead)";
	scolors[ns] = IK_SVG_GREY;
	double *v = calloc((size_t)n * (size_t)(ns + 1), sizeof(double));
	double *acc = calloc((size_t)n * 3, sizeof(double));
	int rc = 0;
	if (!v || !acc) {
		rc = -1;
	} else {
		for (int k = 0; k < n; k++) {
			double sum = 0;
			for (int s = 0; s < r[k].nstates; s++)
				for (int j = 0; j < ns; j++)
					if (strcmp(names[j], r[k].state_names[s]) == 0) {
						double x = finite_or(r[k].residency_mean_pct[s], 0);
						v[(size_t)k * (size_t)(ns + 1) + (size_t)j] = x;
						sum += x;
					}
			v[(size_t)k * (size_t)(ns + 1) + (size_t)ns] = sum < 100 ? 100 - sum : 0;
		}
		fputs("<h2>Residency per state</h2>\n", out);
		struct ik_svg p;
		struct ik_svg_axis x = {.label = "result (numbered as in the legend)", .ncat = n, .cat_labels = lp};
		struct ik_svg_axis y = {.min = 0, .max = 100,
					.label = "share of all CPUs' time (%, mean over runs)"};
		ik__svg_begin(&p, out, PLOT_W, PLOT_H, "Residency per state, per result", &x, &y);
		ik__svg_stacked_bars(&p, n, ns + 1, v, names, scolors);
		ik__svg_axes(&p);
		ik__svg_legend(&p, ns + 1, names, scolors);
		ik__svg_end(&p);

		for (int k = 0; k < n; k++) {
			double d = 0, s = 0;
			int md = 0, ms = 0;
			for (int i = 0; i < r[k].nruns; i++) {
				if (isfinite(r[k].too_deep_pct[i])) {
					d += r[k].too_deep_pct[i];
					md++;
				}
				if (isfinite(r[k].too_shallow_pct[i])) {
					s += r[k].too_shallow_pct[i];
					ms++;
				}
			}
			acc[k * 3] = md ? d / md : 0;
			acc[k * 3 + 1] = ms ? s / ms : 0;
			acc[k * 3 + 2] = (md || ms) ? 100.0 - acc[k * 3] - acc[k * 3 + 1] : 0;
		}
		const char *acolors[3] = {ik__html_acc_color(0), ik__html_acc_color(1), ik__html_acc_color(2)};
		fputs("<h2>Idle-entry accuracy</h2>\n", out);
		y.label = "idle entries (%, mean over runs)";
		ik__svg_begin(&p, out, PLOT_W, PLOT_H, "Idle-entry accuracy, per result", &x, &y);
		ik__svg_stacked_bars(&p, n, 3, acc, ik__html_acc_names, acolors);
		ik__svg_axes(&p);
		ik__svg_legend(&p, 3, ik__html_acc_names, acolors);
		ik__svg_end(&p);
	}
	free(v);
	free(acc);
	ik__html_end(out);
	return ik__rep_done(out, &locale, rc);
}
