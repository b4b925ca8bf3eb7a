/*
 * The HTML report's shared pieces (html_internal.h): the page's start and end, table cells,
 * and the plots more than one page draws: residency per state per CPU, the latency
 * histogram and CDF, the idle-duration histogram and the per-CPU timeline of states.
 * Callers hold the "C" numeric locale (ik__rep_locale_enter), so output depends on input only.
 *
 * Divisions: the page's frame and notes; table cells and settings rows; labels and category
 * buffers for the plots; residency per state, per CPU; latency (histogram and CDF); idle
 * durations (log2 buckets, target residencies marked); the per-CPU timeline of states.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_internal.h"
#include "report/report_internal.h"
#include "report/svg.h"

#define MAX_CPU_BARS 64
#define HIST_BINS_PER_DECADE 10
#define HIST_LINEAR_BINS 60

void ik__html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", out);
	ik__svg_escape(out, title);
	fputs("</title>\n<style>\n"
	      "body { font-family: sans-serif; margin: 1.5em; max-width: 1150px; color: #111; }\n"
	      "table { border-collapse: collapse; margin: 0.5em 0 1em 0; }\n"
	      "th, td { border: 1px solid #ccc; padding: 2px 8px; }\n"
	      "td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
	      "th { background: #f2f2f2; text-align: left; }\n"
	      "p.note { color: #444; font-size: 90%; }\n"
	      "svg { display: block; margin: 0.5em 0 1.5em 0; }\n"
	      "</style>\n</head>\n<body>\n<h1>",
	      out);
	ik__svg_escape(out, title);
	fputs("</h1>\n", out);
}

void ik__html_end(FILE *out)
{
	fputs("<p class=\"note\">Written by idlekit. Colours: the Okabe-Ito palette. Hover a mark "
	      "for its value.</p>\n</body>\n</html>\n",
	      out);
}

void ik__html_note(FILE *out, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fputs("<p class=\"note\">", out);
	ik__svg_escape(out, buf);
	fputs("</p>\n", out);
}

void ik__html_th(FILE *out, const char *s)
{
	fputs("<th>", out);
	ik__svg_escape(out, s);
	fputs("</th>", out);
}

void ik__html_head_row(FILE *out, const char *const *names, size_t n)
{
	fputs("<tr>", out);
	for (size_t i = 0; i < n; i++)
		ik__html_th(out, names[i]);
	fputs("</tr>\n", out);
}

void ik__html_td_text(FILE *out, const char *s, size_t n)
{
	fputs("<td>", out);
	ik__svg_escape_n(out, s, n);
	fputs("</td>", out);
}

void ik__html_td_num(FILE *out, const char *s)
{
	fputs("<td class=\"num\">", out);
	ik__svg_escape(out, s);
	fputs("</td>", out);
}

void ik__html_td_u64(FILE *out, uint64_t v)
{
	fprintf(out, "<td class=\"num\">%llu</td>", (unsigned long long)v);
}

void ik__html_td_fixed(FILE *out, double v, int decimals)
{
	char num[IK_FMT_NUM_LEN];
	ik__fmt_fixed(num, sizeof(num), v, decimals);
	ik__html_td_num(out, num);
}

void ik__html_td_us(FILE *out, int64_t ns)
{
	char num[IK_FMT_NUM_LEN];
	ik__fmt_scaled(num, sizeof(num), ns, 3, 2);
	ik__html_td_num(out, num);
}

void ik__html_setting(FILE *out, const char *key, const char *value, size_t n)
{
	fputs("<tr>", out);
	ik__html_th(out, key);
	ik__html_td_text(out, value, n);
	fputs("</tr>\n", out);
}

const char **ik__html_label_ptrs(char (*labels)[IK_HTML_LABEL_LEN], int n)
{
	const char **p = calloc((size_t)n + 1, sizeof(*p));
	if (p)
		for (int i = 0; i < n; i++)
			p[i] = labels[i];
	return p;
}

void ik__html_cats_free(struct ik_html_cats *c)
{
	free(c->v);
	free(c->text);
	free(c->p);
}

int ik__html_cats_new(struct ik_html_cats *c, int n, size_t per)
{
	c->v = per ? calloc((size_t)n * per, sizeof(double)) : NULL;
	c->text = calloc((size_t)n, IK_HTML_LABEL_LEN);
	c->p = c->text ? ik__html_label_ptrs(c->text, n) : NULL;
	bool ok = c->p && (c->v || !per);
	if (!ok)
		ik__html_cats_free(c);
	return ok ? 0 : -1;
}

int ik__html_label_every(int n)
{
	return n > 24 ? (n + 23) / 24 : 1;
}

const char *const ik__html_acc_names[3] = {"too deep (above)", "too shallow (below)",
					  "right by the kernel's rule"};

const char *ik__html_acc_color(int i)
{
	static const int idx[] = {5, 4, 2}; /* vermillion, sky blue, bluish green */
	return ik__svg_color(idx[i]);
}

/* ---- residency per state, per CPU ---- */

int ik__html_residency_cpus(FILE *out, const char *title, int first_cpu, int ncpus, int nstates,
			   const char *const *state_names, const double *time_ns, double span_ns,
			   const char *other)
{
	int ns = nstates < 0 ? 0 : nstates > IK_STATE_MAX ? IK_STATE_MAX : nstates;
	if (ncpus <= 0 || !(span_ns > 0)) {
		ik__html_note(out, "No per-CPU time to plot.");
		return 0;
	}
	int per_bar = (ncpus + MAX_CPU_BARS - 1) / MAX_CPU_BARS;
	int nbars = (ncpus + per_bar - 1) / per_bar;
	struct ik_html_cats cats;
	if (ik__html_cats_new(&cats, nbars, (size_t)(ns + 1)))
		return -1;
	double *v = cats.v;
	for (int b = 0; b < nbars; b++) {
		int first = b * per_bar, last = first + per_bar - 1;
		if (last >= ncpus)
			last = ncpus - 1;
		if (first == last)
			snprintf(cats.text[b], IK_HTML_LABEL_LEN, "%d", first_cpu + first);
		else
			snprintf(cats.text[b], IK_HTML_LABEL_LEN, "%d-%d", first_cpu + first,
				 first_cpu + last);
		double sum = 0;
		for (int s = 0; s < ns; s++) {
			double t = 0;
			for (int c = first; c <= last; c++)
				t += time_ns[(size_t)c * (size_t)nstates + (size_t)s];
			double pct = 100.0 * t / (span_ns * (last - first + 1));
			v[(size_t)b * (size_t)(ns + 1) + (size_t)s] = pct;
			sum += pct;
		}
		v[(size_t)b * (size_t)(ns + 1) + (size_t)ns] = sum < 100.0 ? 100.0 - sum : 0.0;
	}
	const char *names[IK_STATE_MAX + 1], *colors[IK_STATE_MAX + 1];
	for (int s = 0; s < ns; s++) {
		names[s] = state_names[s];
		colors[s] = ik__svg_color(s);
	}
	names[ns] = other;
	colors[ns] = IK_SVG_GREY;

	struct ik_svg p;
	struct ik_svg_axis x = {.label = per_bar > 1 ? "CPUs (each bar: the mean of a group)" : "CPU",
				.ncat = nbars, .cat_labels = cats.p,
				.cat_label_every = ik__html_label_every(nbars)};
	struct ik_svg_axis y = {.min = 0, .max = 100, .label = "share of the CPU's time (%)"};
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, IK_HTML_PLOT_H, title, &x, &y);
	ik__svg_stacked_bars(&p, nbars, ns + 1, v, names, colors);
	ik__svg_axes(&p);
	ik__svg_legend(&p, ns + 1, names, colors);
	ik__svg_end(&p);
	int last_bar = ncpus - (nbars - 1) * per_bar;
	if (per_bar > 1 && last_bar != per_bar)
		ik__html_note(out,
			     "%d CPUs in %d bars: each bar is the mean over %d consecutive CPUs (the "
			     "last bar over %d), so the plot stays readable on large machines.",
			     ncpus, nbars, per_bar, last_bar);
	else if (per_bar > 1)
		ik__html_note(out,
			     "%d CPUs in %d bars: each bar is the mean over %d consecutive CPUs, so the "
			     "plot stays readable on large machines.",
			     ncpus, nbars, per_bar);
	ik__html_cats_free(&cats);
	return 0;
}

/* ---- latency: histogram and CDF ---- */

/* The value a histogram bucket stands for, as src/report/histogram.c defines it. */
static int64_t bucket_value(int index)
{
	const int sub = 1 << IK_HIST_SUB_BITS;
	if (index < 2 * sub)
		return index;
	int shift = (index >> IK_HIST_SUB_BITS) - 1;
	uint64_t lowest = ((uint64_t)(index & (sub - 1)) + (uint64_t)sub) << shift;
	return (int64_t)(lowest + (((uint64_t)1 << shift) / 2));
}

static const double pcts[] = {50.0, 90.0, 99.0, 99.9};
static const char *const pnames[] = {"p50", "p90", "p99", "p99.9"};

static void pct_markers(struct ik_svg *p, const struct ik_hist *h, const double *exact_us)
{
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		char label[64];
		double v = exact_us ? exact_us[i] : (double)ik__hist_percentile(h, pcts[i]) / 1000.0;
		snprintf(label, sizeof(label), "%s %.2f us", pnames[i], v);
		ik__svg_vmarker(p, v, label, ik__svg_color(5));
	}
}

void ik__html_latency(FILE *out, const struct ik_hist *h, const struct ik_hist *const *runs,
		     const char *const *run_names, int nruns, const double *exact_us,
		     const char *all_name, const char *definition)
{
	/* the range, in us, of the buckets that hold samples */
	double lo = 0, hi = 0;
	bool any = false;
	for (int i = 0; i < IK_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		double v = (double)bucket_value(i) / 1000.0;
		if (!any || v < lo)
			lo = v;
		if (!any || v > hi)
			hi = v;
		any = true;
	}
	if (!any) {
		ik__html_note(out, "No wake-ups were measured: no latency to plot.");
		return;
	}
	double lo_pos = lo > 0 ? lo : 0.001; /* 1 ns: the smallest value a log axis shows */
	bool logx = hi / lo_pos >= 100.0;
	double xmin, xmax;
	int nbins;
	double edges[HIST_LINEAR_BINS * 2 + 2];
	double heights[HIST_LINEAR_BINS * 2 + 1];
	if (logx) {
		double d0 = floor(log10(lo_pos) * HIST_BINS_PER_DECADE) / HIST_BINS_PER_DECADE;
		double d1 = ceil(log10(hi) * HIST_BINS_PER_DECADE + 1e-9) / HIST_BINS_PER_DECADE;
		nbins = (int)lround((d1 - d0) * HIST_BINS_PER_DECADE);
		if (nbins < 1)
			nbins = 1;
		if (nbins > HIST_LINEAR_BINS * 2)
			nbins = HIST_LINEAR_BINS * 2;
		for (int i = 0; i <= nbins; i++)
			edges[i] = pow(10.0, d0 + (d1 - d0) * i / nbins);
	} else {
		double d0 = 0, d1 = hi * 1.02 + 0.001;
		nbins = HIST_LINEAR_BINS;
		for (int i = 0; i <= nbins; i++)
			edges[i] = d0 + (d1 - d0) * i / nbins;
	}
	xmin = edges[0];
	xmax = edges[nbins];
	memset(heights, 0, sizeof(heights));
	for (int i = 0; i < IK_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		double v = (double)bucket_value(i) / 1000.0;
		if (logx && v < lo_pos)
			v = lo_pos;
		int b;
		if (logx)
			b = (int)floor((log10(v) - log10(xmin)) / (log10(xmax) - log10(xmin)) * nbins);
		else
			b = (int)floor((v - xmin) / (xmax - xmin) * nbins);
		b = b < 0 ? 0 : b >= nbins ? nbins - 1 : b;
		heights[b] += 100.0 * (double)h->buckets[i] / (double)h->count;
	}
	double ymax = 0;
	for (int i = 0; i < nbins; i++)
		if (heights[i] > ymax)
			ymax = heights[i];

	struct ik_svg p;
	struct ik_svg_axis x = {.min = xmin, .max = xmax, .log = logx, .label = "wake latency (us)"};
	struct ik_svg_axis y = {.min = 0, .max = ymax * 1.1, .label = "share of wake-ups (%)"};
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, IK_HTML_PLOT_H, "Wake latency: histogram", &x, &y);
	ik__svg_hist(&p, nbins, edges, heights, ik__svg_color(0));
	pct_markers(&p, h, exact_us);
	ik__svg_axes(&p);
	const char *lnames[] = {all_name};
	const char *lcolors[] = {ik__svg_color(0)};
	ik__svg_legend(&p, 1, lnames, lcolors);
	ik__svg_end(&p);

	/* CDF: all samples together, and each run when they are few */
	int overlay = runs && nruns > 1 && nruns <= IK_SVG_NCOLORS - 1 ? nruns : 0;
	double *xs = malloc(sizeof(double) * IK_HIST_BUCKETS);
	double *ys = malloc(sizeof(double) * IK_HIST_BUCKETS);
	if (!xs || !ys) {
		free(xs);
		free(ys);
		return;
	}
	x.min = logx ? xmin : 0;
	y = (struct ik_svg_axis){.min = 0, .max = 100, .label = "wake-ups at or below (%)"};
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, IK_HTML_PLOT_H, "Wake latency: cumulative distribution",
		     &x, &y);
	const char *names[IK_SVG_NCOLORS];
	const char *colors[IK_SVG_NCOLORS];
	int nl = 0;
	for (int k = -1; k < overlay; k++) {
		const struct ik_hist *hk = k < 0 ? h : runs[k];
		if (!hk->count)
			continue;
		int n = 0;
		uint64_t cum = 0;
		for (int i = 0; i < IK_HIST_BUCKETS; i++) {
			if (!hk->buckets[i])
				continue;
			cum += hk->buckets[i];
			double v = (double)bucket_value(i) / 1000.0;
			xs[n] = logx && v < lo_pos ? lo_pos : v;
			ys[n] = 100.0 * (double)cum / (double)hk->count;
			n++;
		}
		names[nl] = k < 0 ? (overlay ? "all runs" : all_name) : run_names[k];
		colors[nl] = k < 0 ? ik__svg_color(7) : ik__svg_color(k);
		ik__svg_line(&p, n, xs, ys, colors[nl], true, names[nl]);
		nl++;
	}
	pct_markers(&p, h, exact_us);
	ik__svg_axes(&p);
	ik__svg_legend(&p, nl, names, colors);
	ik__svg_end(&p);
	free(xs);
	free(ys);
	ik__html_note(out, "%s %s; dashed lines mark p50, p90, p99 and p99.9%s%s.", definition,
		     logx ? "The x axis is logarithmic (the samples span two decades or more)"
			  : "The x axis is linear",
		     nruns > 1 ? " of all runs together" : "",
		     exact_us ? " (exact, from every sample)" : "");
}

/* ---- idle durations: log2 buckets, target residencies marked ---- */

void ik__html_idle_span(const uint64_t *h, int *first, int *last)
{
	for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
		if (h[i]) {
			*first = i < *first ? i : *first;
			*last = i > *last ? i : *last;
		}
}

void ik__html_idle_axis(struct ik_svg_axis *x, double *edges, int first, int last)
{
	for (int i = 0; i <= IK_IDLE_HIST_BUCKETS; i++)
		edges[i] = 0;
	for (int i = first; i <= last + 1 && i <= IK_IDLE_HIST_BUCKETS; i++)
		edges[i] = i == 0 ? 0.5 : (double)ik__trace_hist_lower_ns(i) / 1000.0;
	if (last + 1 == IK_IDLE_HIST_BUCKETS)
		edges[last + 1] = edges[last] * 2;
	*x = (struct ik_svg_axis){ .min = edges[first], .max = edges[last + 1],
				   .log = edges[last + 1] / edges[first] >= 100.0,
				   .label = "idle duration (us)" };
}

double ik__html_idle_share_max(const uint64_t *h)
{
	uint64_t total = 0, top = 0;
	for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++) {
		total += h[i];
		top = h[i] > top ? h[i] : top;
	}
	return total ? 100.0 * (double)top / (double)total : 0;
}

bool ik__html_idle_share_line(struct ik_svg *p, const uint64_t *h, const double *edges, int first,
			     int last, const char *color, const char *name)
{
	uint64_t total = 0;
	for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
		total += h[i];
	if (!total)
		return false;
	double xs[IK_IDLE_HIST_BUCKETS + 1], ys[IK_IDLE_HIST_BUCKETS + 1];
	int m = 0;
	for (int i = first; i <= last; i++) {
		xs[m] = edges[i];
		ys[m++] = 100.0 * (double)h[i] / (double)total;
	}
	xs[m] = edges[last + 1];
	ys[m] = ys[m - 1];
	ik__svg_line(p, m + 1, xs, ys, color, true, name);
	return true;
}

void ik__html_idle_hist(FILE *out, const char *title, const char *ylabel, const uint64_t *hist,
		       int nbuckets,
		       const struct ik_driver *drv, const char *what)
{
	uint64_t total = 0;
	int first = -1, last = -1;
	for (int i = 0; i < nbuckets; i++) {
		total += hist[i];
		if (hist[i]) {
			if (first < 0)
				first = i;
			last = i;
		}
	}
	if (!total) {
		ik__html_note(out, "No idle periods: no idle durations to plot.");
		return;
	}
	/* bucket i is [lower(i), lower(i+1)) us; the last one open, drawn one bucket wide */
	double edges[64], heights[64];
	int n = last - first + 1;
	if (n > 62)
		n = 62;
	for (int i = 0; i <= n; i++) {
		int b = first + i;
		edges[i] = (double)ik__trace_hist_lower_ns(b < nbuckets ? b : nbuckets - 1) / 1000.0;
		if (b >= nbuckets)
			edges[i] = edges[i - 1] * 2;
	}
	double ymax = 0;
	for (int i = 0; i < n; i++) {
		heights[i] = 100.0 * (double)hist[first + i] / (double)total;
		if (heights[i] > ymax)
			ymax = heights[i];
	}
	bool open_first = edges[0] <= 0;
	if (open_first)
		edges[0] = edges[1] / 2; /* [0, 1 us) on a log axis */
	bool logx = edges[n] / edges[0] >= 100.0;
	if (!logx && open_first)
		edges[0] = 0;

	struct ik_svg p;
	struct ik_svg_axis x = {.min = edges[0], .max = edges[n], .log = logx,
				.label = "idle duration (us)"};
	struct ik_svg_axis y = {.min = 0, .max = ymax * 1.1, .label = ylabel ? ylabel : "share of idle periods (%)"};
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, IK_HTML_PLOT_H, title, &x, &y);
	ik__svg_hist(&p, n, edges, heights, ik__svg_color(0));
	int shown = 0, hidden = 0;
	for (int s = 0; drv && s < drv->state_count; s++) {
		double t = (double)drv->states[s].target_residency_ns / 1000.0;
		if (!(t > 0) || t < edges[0] || t > edges[n]) {
			hidden++;
			continue;
		}
		char label[IK_NAME_LEN + 48];
		snprintf(label, sizeof(label), "%.*s target %g us",
			 (int)strnlen(drv->states[s].name, sizeof(drv->states[s].name)),
			 drv->states[s].name, t);
		ik__svg_vmarker(&p, t, label, ik__svg_color(5));
		shown++;
	}
	ik__svg_axes(&p);
	const char *lnames[] = {what};
	const char *lcolors[] = {ik__svg_color(0)};
	ik__svg_legend(&p, 1, lnames, lcolors);
	ik__svg_end(&p);
	ik__html_note(out,
		     "Idle periods in power-of-two buckets of microseconds (the first [0, 1 us)%s, "
		     "the last open-ended)%s. %s Dashed lines: each state's target residency (%d "
		     "shown; %d at 0 or outside the axis).",
		     open_first && logx ? ", drawn from 0.5 us on the log axis" : "",
		     ylabel ? ", each weighted by its length: the share of idle time, where "
			      "the energy and the wake-ups' exit costs are" : ", counted",
		     logx ? "The x axis is logarithmic (two decades or more)." : "The x axis is linear.",
		     shown, hidden);
}

/* ---- timeline of states per CPU ---- */

#define TL_PX 720 /* columns the window is divided into */

void ik__html_timeline(FILE *out, const char *title, const struct ik_timeline *tl, int nstates,
		      const char *const *state_names, const char *what)
{
	if (!tl || tl->ncpus <= 0) {
		ik__html_note(out, "No timeline was captured.");
		return;
	}
	int ns = nstates < 1 ? 1 : nstates > IK_STATE_MAX ? IK_STATE_MAX : nstates;
	int rows = tl->ncpus;
	/* per row and pixel column, the time spent in each state */
	double *acc = calloc((size_t)TL_PX * (size_t)ns, sizeof(double));
	/* a row's stretches of one state (at most one per column) */
	int run_st[TL_PX + 1];
	double run_a[TL_PX + 1], run_b[TL_PX + 1], xa[TL_PX + 1], xb[TL_PX + 1];
	char(*labels)[IK_HTML_LABEL_LEN] = calloc((size_t)rows, IK_HTML_LABEL_LEN);
	const char **lp = labels ? ik__html_label_ptrs(labels, rows) : NULL;
	if (!acc || !lp) {
		free(acc);
		free(labels);
		free(lp);
		ik__html_note(out, "Out of memory: no timeline.");
		return;
	}
	for (int r = 0; r < rows; r++)
		snprintf(labels[r], IK_HTML_LABEL_LEN, "CPU %d", r);
	double col_ns = (double)tl->len_ns / TL_PX;
	double x0_us = (double)(tl->start_ns - tl->origin_ns) / 1000.0;
	double x1_us = x0_us + (double)tl->len_ns / 1000.0;
	int height = 98 + rows * (rows > 32 ? 8 : 20);
	if (height < 180)
		height = 180;

	struct ik_svg p;
	struct ik_svg_axis x = {.min = x0_us, .max = x1_us, .label = what};
	struct ik_svg_axis y = {.label = "CPU", .ncat = rows, .cat_labels = lp,
				.cat_label_every = rows > 32 ? 4 : 1};
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, height, title, &x, &y);
	for (int r = 0; r < rows; r++) {
		memset(acc, 0, sizeof(double) * (size_t)TL_PX * (size_t)ns);
		for (size_t i = 0; i < tl->nsegs; i++) {
			const struct ik_timeline_seg *sg = &tl->segs[i];
			if (sg->cpu != r || sg->state < 0 || sg->state >= ns)
				continue;
			double a = (double)(sg->t0_ns - tl->start_ns) / col_ns;
			double b = (double)(sg->t1_ns - tl->start_ns) / col_ns;
			for (int c = (int)floor(a); c < TL_PX && c <= (int)floor(b); c++) {
				if (c < 0)
					continue;
				double lo = a > c ? a : c, hi = b < c + 1 ? b : c + 1;
				if (hi > lo)
					acc[(size_t)c * (size_t)ns + (size_t)sg->state] += hi - lo;
			}
		}
		/* each column: the state it spent most of its time in, if idle half of it */
		int nrun = 0;
		int run_state = -1, run_from = 0;
		for (int c = 0; c <= TL_PX; c++) {
			int st = -1;
			if (c < TL_PX) {
				double idle = 0, best = 0;
				for (int s = 0; s < ns; s++) {
					double v = acc[(size_t)c * (size_t)ns + (size_t)s];
					idle += v;
					if (v > best) {
						best = v;
						st = s;
					}
				}
				if (idle < 0.5)
					st = -1;
			}
			if (c < TL_PX && st == run_state)
				continue;
			if (run_state >= 0) {
				run_st[nrun] = run_state;
				run_a[nrun] = x0_us + run_from * col_ns / 1000.0;
				run_b[nrun] = x0_us + c * col_ns / 1000.0;
				nrun++;
			}
			run_state = st;
			run_from = c;
		}
		/* one path per state of the row */
		for (int s = 0; s < ns; s++) {
			int k = 0;
			double total = 0;
			for (int i = 0; i < nrun; i++)
				if (run_st[i] == s) {
					xa[k] = run_a[i];
					xb[k] = run_b[i];
					total += run_b[i] - run_a[i];
					k++;
				}
			if (!k)
				continue;
			char tip[IK_NAME_LEN + 96];
			snprintf(tip, sizeof(tip), "CPU %d: %s, %.1f us in %d stretch%s", r,
				 state_names[s], total, k, k == 1 ? "" : "es");
			ik__svg_spans(&p, r, k, xa, xb, ik__svg_color(s), tip);
		}
	}
	ik__svg_axes(&p);
	const char *colors[IK_STATE_MAX];
	for (int s = 0; s < ns; s++)
		colors[s] = ik__svg_color(s);
	ik__svg_legend(&p, ns, state_names, colors);
	ik__svg_end(&p);
	ik__html_note(out,
		     "Each row is a CPU, white where it was not in an idle state (running, or in "
		     "the idle loop between states). The window is split into %d columns of %.2f "
		     "us; a column shows the state the CPU spent most of it in, if it was idle for "
		     "at least half of it, so shorter periods do not show. %s%s",
		     TL_PX, col_ns / 1000.0,
		     tl->total_cpus > tl->ncpus ? "Only the first CPUs are shown. " : "",
		     tl->dropped ? "The capture reached its cap of segments: later idle periods "
				   "are missing." : "");
	if (tl->total_cpus > tl->ncpus)
		ik__html_note(out, "CPUs 0 to %d of %d shown (at most %d).", tl->ncpus - 1,
			     tl->total_cpus, IK_TIMELINE_MAX_CPUS);
	if (tl->dropped)
		ik__html_note(out, "%llu idle periods not kept: the capture holds at most %zu.",
			     (unsigned long long)tl->dropped, tl->max_segs);
	free(acc);
	free(labels);
	free(lp);
}
