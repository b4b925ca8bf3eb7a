/*
 * A sweep's HTML page (index.html): each figure's median against the first axis with the
 * interquartile range as a band, one series per value of the second axis, one plot per
 * combination of the other axes' values (small multiples on shared scales, in views of
 * MAX_PANELS with a selector); with two axes or more, heat maps over the first two; with a bad
 * run defined (bad_below / --bad-below), the fraction of bad runs the same ways.  Built on
 * the report's SVG and HTML pieces, so it looks like the other pages and is as
 * deterministic: the same summary gives the same bytes.
 *
 * Divisions: the grid's dimensions and points; coordinates and numbers; a series' vertices;
 * panels and value ranges; line plots; the heat map and its colour ramp; the settings and
 * points tables; the panels' plots and the selector of views; the page
 * (ik__sweep_write_html).
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
#include "sweep/sweep_internal.h"

#define MAX_SERIES 12
#define MAX_TABLE_ROWS 300
#define MAX_HEAT_CELLS 2500
/* An axis of more values than this is drawn without a marker per point, and its lines
   thinned to the pixel (a 10,000-point axis made a 29 MB page of 120,000 markers). */
#define MAX_DOTS 300
/* Small multiples: with more than two axes, one plot per combination of the other axes'
   values.  Up to MAX_PANELS per figure are one view; a larger grid is cut into views of
   MAX_PANELS, each a section of the page, and a selector shows one at a time (without
   scripts every view shows).  Past MAX_PANELS_ALL combinations no more are drawn (each
   is a plot per figure: 120 panels of ten figures is some 10 MB); the points table and
   summary.csv have every point. */
#define MAX_PANELS 12
#define MAX_PANELS_ALL 120
#define TO_TEXT_(x) #x
#define TO_TEXT(x) TO_TEXT_(x)

/* A plotting dimension: a group, shown by its first axis. */
struct dim {
	const struct ik_sweep_axis *a;
	int n;
	bool numeric, log;
	double min, max;
};

static void dim_of(const struct ik_sweep_spec *s, int g, struct dim *d)
{
	memset(d, 0, sizeof(*d));
	for (int a = 0; a < s->naxes && !d->a; a++)
		if (s->axes[a].group == g)
			d->a = &s->axes[a];
	d->n = s->group_len[g];
	d->numeric = d->a->numeric && d->n > 1;
	if (!d->numeric)
		return;
	d->min = d->max = d->a->num[0];
	for (int i = 1; i < d->n; i++) {
		d->min = fmin(d->min, d->a->num[i]);
		d->max = fmax(d->max, d->a->num[i]);
	}
	d->log = d->min > 0 && d->max / d->min >= 50;
	if (!(d->max > d->min))
		d->numeric = false;
}

/* The point at group indices gi[] (groups not named: index 0). */
static int64_t point_at(const struct ik_sweep_spec *s, const int *gi)
{
	int64_t p = 0;
	for (int g = 0; g < s->ngroups; g++)
		p = p * s->group_len[g] + gi[g];
	return p;
}

static double px_of(const struct ik_svg *p, const struct dim *d, int i)
{
	return d->numeric ? ik__svg_px(p, d->a->num[i]) : ik__svg_cat_px(p, i);
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.4g", v);
}

/*
 * A line's vertices as SVG path or polyline text.  Thinned (an axis of more than MAX_DOTS
 * values), the vertices falling in one pixel column are reduced to the first, the lowest,
 * the highest and the last of them, in their order: the line drawn is the same to the
 * pixel, with at most four vertices per column instead of thousands.
 */
struct vertices {
	FILE *out;
	const char *first, *sep; /* before the first vertex, between vertices */
	int written;
	bool thin;
	/* the open column (thin only) */
	long col;
	int n, lo_i, hi_i;
	double x[4], y[4]; /* first, lowest, highest, last */
};

static void vertex_put(struct vertices *v, double x, double y)
{
	fprintf(v->out, "%s%.1f,%.1f", v->written++ ? v->sep : v->first, x, y);
}

static void vertices_flush(struct vertices *v)
{
	if (v->n == 0)
		return;
	vertex_put(v, v->x[0], v->y[0]);
	/* the extremes that are neither the first nor the last, in the order they came */
	int a = v->lo_i < v->hi_i ? 1 : 2, b = 3 - a;
	int ia = a == 1 ? v->lo_i : v->hi_i, ib = b == 1 ? v->lo_i : v->hi_i;
	if (ia > 0 && ia < v->n - 1)
		vertex_put(v, v->x[a], v->y[a]);
	if (ib > 0 && ib < v->n - 1 && ib != ia)
		vertex_put(v, v->x[b], v->y[b]);
	if (v->n > 1)
		vertex_put(v, v->x[3], v->y[3]);
	v->n = 0;
}

static void vertices_add(struct vertices *v, double x, double y)
{
	if (!v->thin) {
		vertex_put(v, x, y);
		return;
	}
	long col = (long)floor(x);
	if (v->n && col != v->col)
		vertices_flush(v);
	if (v->n == 0) {
		v->col = col;
		v->x[0] = v->x[1] = v->x[2] = x;
		v->y[0] = v->y[1] = v->y[2] = y;
		v->lo_i = v->hi_i = 0;
	} else {
		/* on screen y grows downwards: the lowest value is the largest y */
		if (y > v->y[1]) {
			v->x[1] = x, v->y[1] = y, v->lo_i = v->n;
		}
		if (y < v->y[2]) {
			v->x[2] = x, v->y[2] = y, v->hi_i = v->n;
		}
	}
	v->x[3] = x;
	v->y[3] = y;
	v->n++;
}

/* A figure in ns is plotted in us (summary.csv keeps ns): its scale from ns. */
static bool in_us(int f)
{
	if (f < 0)
		return false;
	const char *k = ik__sweep_figure_key(f);
	size_t n = strlen(k);
	return n > 3 && strcmp(k + n - 3, "_ns") == 0;
}

/* figure f of a point: the median, the quartiles (f < 0: the bad fraction, no spread) */
static void value_of(const struct ik_sweep_summary *sum, int64_t pt, int f, double *med,
		     double *lo, double *hi)
{
	if (f < 0) {
		*med = *lo = *hi = sum->bad_fraction[pt];
		return;
	}
	const struct ik_sweep_stat *st = &sum->stat[pt * sum->nfigures + f];
	double k = in_us(f) ? 1e-3 : 1.0;
	*med = st->median * k;
	*lo = st->q1 * k;
	*hi = st->q3 * k;
}

/* The vertices of one line of the series in gi[1] over the x points, from the first (back:
   from the last), of the medians (which 0), the q1s (1) or the q3s (2) that are finite. */
static void series_vertices(struct vertices *v, const struct ik_svg *p, const struct dim *x,
			    const struct ik_sweep_spec *s, const struct ik_sweep_summary *sum, int f,
			    int *gi, int which, bool back)
{
	for (int j = 0; j < x->n; j++) {
		int i = back ? x->n - 1 - j : j;
		double val[3];
		gi[0] = i;
		value_of(sum, point_at(s, gi), f, &val[0], &val[1], &val[2]);
		if (isfinite(val[which]))
			vertices_add(v, px_of(p, x, i), ik__svg_py(p, val[which]));
	}
	vertices_flush(v);
}

/*
 * The range of figure f over the first two axes' nx by ny points: from the least of the
 * finite values [lo_of] to the greatest of the finite values [hi_of] (0 the median, 1 q1,
 * 2 q3); the bad fraction's is 0..1.  False when no value is finite.
 */
/* The panels: every combination of the values of the groups after the first two. */
static int64_t panel_count(const struct ik_sweep_spec *s)
{
	int64_t n = 1;
	for (int g = 2; g < s->ngroups; g++)
		n *= s->group_len[g];
	return n;
}

/* Panel k's indices of the groups after the first two into gi[2..]. */
static void panel_indices(const struct ik_sweep_spec *s, int64_t k, int *gi)
{
	for (int g = s->ngroups - 1; g >= 2; g--) {
		gi[g] = (int)(k % s->group_len[g]);
		k /= s->group_len[g];
	}
}

static bool value_range(const struct ik_sweep_spec *s, const struct ik_sweep_summary *sum, int f,
			int nx, int ny, int lo_of, int hi_of, double *min, double *max)
{
	int gi[IK_SWEEP_MAX_AXES] = { 0 };
	*min = INFINITY;
	*max = -INFINITY;
	/* over every panel drawn: the panels share their scales */
	int64_t np = panel_count(s) < MAX_PANELS_ALL ? panel_count(s) : MAX_PANELS_ALL;
	for (int64_t k = 0; k < np; k++) {
		panel_indices(s, k, gi);
		for (int i = 0; i < nx; i++)
			for (int j = 0; j < ny; j++) {
				double val[3];
				gi[0] = i;
				gi[1] = j;
				value_of(sum, point_at(s, gi), f, &val[0], &val[1], &val[2]);
				if (isfinite(val[lo_of]))
					*min = fmin(*min, val[lo_of]);
				if (isfinite(val[hi_of]))
					*max = fmax(*max, val[hi_of]);
			}
	}
	if (!isfinite(*min))
		return false;
	if (f < 0) {
		*min = 0;
		*max = 1;
	}
	return true;
}

static void fig_label(const struct ik_sweep_spec *s, int f, char *buf, size_t len)
{
	if (f < 0)
		snprintf(buf, len, "bad runs (%s < %.10g), fraction", ik__sweep_figure_key(s->bad.figure),
			 s->bad.below);
	else
		snprintf(buf, len, "%s%s", ik__sweep_figure_key(f), in_us(f) ? ", us" : "");
}

/* " (key=value, ...)" of panel gi's groups after the first two ("" with two or fewer). */
static void panel_name(const struct ik_sweep_spec *s, const int *gi, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int g = 2; g < s->ngroups && n + 1 < len; g++) {
		struct dim d;
		dim_of(s, g, &d);
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", g == 2 ? " (" : ", ", d.a->key,
				      d.a->values[gi[g]]);
	}
	if (n && n + 1 < len)
		snprintf(buf + n, len - n, ")");
}

static void line_plot(FILE *out, const struct ik_sweep_spec *s, const struct ik_sweep_summary *sum,
		      int f, int64_t panel)
{
	struct dim x, ser = { 0 };
	int gi[IK_SWEEP_MAX_AXES] = { 0 };
	char pname[256];
	panel_indices(s, panel, gi);
	panel_name(s, gi, pname, sizeof(pname));
	char label[160], title[512], tip[512], a[32], b[32], c[32];

	dim_of(s, 0, &x);
	bool thin = x.n > MAX_DOTS;
	int nser = 1;
	if (s->ngroups >= 2) {
		dim_of(s, 1, &ser);
		nser = ser.n < MAX_SERIES ? ser.n : MAX_SERIES;
	}
	double ymin, ymax;
	if (!value_range(s, sum, f, x.n, nser, 1, 2, &ymin, &ymax))
		return;
	if (ymin > 0 && ymin < 0.5 * ymax)
		ymin = 0;
	if (!(ymax > ymin)) {
		ymax = ymin + (ymin != 0 ? fabs(ymin) * 0.1 : 1);
		ymin -= ymin != 0 ? fabs(ymin) * 0.1 : 0;
	}
	if (f >= 0)
		ymax += 0.05 * (ymax - ymin); /* the top line clear of the frame */
	fig_label(s, f, label, sizeof(label));
	struct ik_svg_axis xa = { 0 }, ya = { .min = ymin, .max = ymax, .label = label };
	xa.label = x.a->key;
	char (*cats)[IK_HTML_LABEL_LEN] = NULL;
	const char **catp = NULL;
	if (x.numeric) {
		xa.min = x.min;
		xa.max = x.max;
		xa.log = x.log;
	} else {
		cats = calloc((size_t)x.n, sizeof(*cats));
		if (!cats)
			return;
		for (int i = 0; i < x.n; i++)
			snprintf(cats[i], IK_HTML_LABEL_LEN, "%s", x.a->values[i]);
		catp = ik__html_label_ptrs(cats, x.n);
		xa.ncat = x.n;
		xa.cat_labels = catp;
		xa.cat_label_every = ik__html_label_every(x.n);
	}
	snprintf(title, sizeof(title), "%s%s%s%s", label, s->ngroups >= 2 ? ", a line per " : "",
		 s->ngroups >= 2 ? ser.a->key : "", pname);
	struct ik_svg p;
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, IK_HTML_PLOT_H, title, &xa, &ya);
	const char *names[MAX_SERIES], *colors[MAX_SERIES];
	for (int k = 0; k < nser; k++) {
		const char *color = ik__svg_color(k % IK_SVG_NCOLORS);
		if (s->ngroups > 1)
			gi[1] = k;
		/* the band: q1 along, q3 back */
		if (f >= 0) {
			fprintf(out, "<path class=\"data band\" fill=\"%s\" fill-opacity=\"0.18\" "
				     "stroke=\"none\" d=\"", color);
			struct vertices v = { .out = out, .first = "M", .sep = " L", .thin = thin };
			series_vertices(&v, &p, &x, s, sum, f, gi, 1, false);
			series_vertices(&v, &p, &x, s, sum, f, gi, 2, true);
			fputs(" Z\"><title>interquartile range</title></path>\n", out);
		}
		fprintf(out, "<polyline class=\"data\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			     "points=\"", color);
		struct vertices v = { .out = out, .first = "", .sep = " ", .thin = thin };
		series_vertices(&v, &p, &x, s, sum, f, gi, 0, false);
		fputs("\"></polyline>\n", out);
		for (int i = 0; i < x.n && !thin; i++) {
			gi[0] = i;
			double m, lo, hi;
			value_of(sum, point_at(s, gi), f, &m, &lo, &hi);
			if (!isfinite(m))
				continue;
			fmt_num(a, sizeof(a), m);
			fmt_num(b, sizeof(b), lo);
			fmt_num(c, sizeof(c), hi);
			if (f >= 0)
				snprintf(tip, sizeof(tip), "%s=%s: median %s, IQR %s..%s", x.a->key,
					 x.a->values[i], a, b, c);
			else
				snprintf(tip, sizeof(tip), "%s=%s: %s of runs bad", x.a->key,
					 x.a->values[i], a);
			if (s->ngroups > 1) {
				char more[160];
				snprintf(more, sizeof(more), " (%s=%s)", ser.a->key, ser.a->values[k]);
				strncat(tip, more, sizeof(tip) - strlen(tip) - 1);
				strncat(tip, pname, sizeof(tip) - strlen(tip) - 1);
			}
			ik__svg_dot(&p, px_of(&p, &x, i), m, color, tip);
		}
		names[k] = s->ngroups > 1 ? ser.a->values[k] : "median";
		colors[k] = color;
	}
	ik__svg_axes(&p);
	ik__svg_legend(&p, nser, names, colors);
	char note[200];
	snprintf(note, sizeof(note), "%s%s", f >= 0 ? "line: median over runs; band: interquartile range" : "",
		 thin ? (f >= 0 ? "; no marker per point (more than " TO_TEXT(MAX_DOTS) " values: summary.csv has each)"
				: "no marker per point (more than " TO_TEXT(MAX_DOTS) " values: summary.csv has each)")
		      : "");
	if (note[0])
		ik__svg_note(&p, note);
	ik__svg_end(&p);
	free(catp);
	free(cats);
}

/* viridis-like ramp from dark blue to yellow, t in [0, 1] */
static void ramp(double t, char *buf, size_t len)
{
	static const double stops[5][3] = {
		{ 68, 1, 84 }, { 59, 82, 139 }, { 33, 145, 140 }, { 94, 201, 98 }, { 253, 231, 37 },
	};
	if (!isfinite(t)) {
		snprintf(buf, len, "#dddddd");
		return;
	}
	t = t < 0 ? 0 : t > 1 ? 1 : t;
	double u = t * 4;
	int i = (int)floor(u);
	if (i >= 4)
		i = 3;
	double w = u - i;
	int rgb[3];
	for (int k = 0; k < 3; k++)
		rgb[k] = (int)lround(stops[i][k] + w * (stops[i + 1][k] - stops[i][k]));
	snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static void heat_map(FILE *out, const struct ik_sweep_spec *s, const struct ik_sweep_summary *sum,
		     int f, int64_t panel)
{
	struct dim x, y;
	int gi[IK_SWEEP_MAX_AXES] = { 0 };
	char label[160], title[512], tip[768], fill[16], text[32], pname[256];
	panel_indices(s, panel, gi);
	panel_name(s, gi, pname, sizeof(pname));

	dim_of(s, 0, &x);
	dim_of(s, 1, &y);
	if ((int64_t)x.n * y.n > MAX_HEAT_CELLS) {
		ik__html_note(out, "No heat map of %s: the first two axes make %lld cells, more than "
			     "the %d a map is drawn for (summary.csv has every point).",
			     f < 0 ? "the bad fraction" : ik__sweep_figure_key(f),
			     (long long)x.n * y.n, MAX_HEAT_CELLS);
		return;
	}
	double vmin, vmax;
	if (!value_range(s, sum, f, x.n, y.n, 0, 0, &vmin, &vmax))
		return;
	char (*xl)[IK_HTML_LABEL_LEN] = calloc((size_t)x.n, sizeof(*xl));
	char (*yl)[IK_HTML_LABEL_LEN] = calloc((size_t)y.n, sizeof(*yl));
	if (!xl || !yl) {
		free(xl);
		free(yl);
		return;
	}
	for (int i = 0; i < x.n; i++)
		snprintf(xl[i], IK_HTML_LABEL_LEN, "%s", x.a->values[i]);
	/* rows from the top: the largest value of y first */
	for (int j = 0; j < y.n; j++)
		snprintf(yl[j], IK_HTML_LABEL_LEN, "%s", y.a->values[y.n - 1 - j]);
	const char **xp = ik__html_label_ptrs(xl, x.n), **yp = ik__html_label_ptrs(yl, y.n);
	fig_label(s, f, label, sizeof(label));
	snprintf(title, sizeof(title), "%s%s%s", label, f >= 0 ? ", median over runs" : "", pname);
	struct ik_svg_axis xa = { .label = x.a->key, .ncat = x.n, .cat_labels = xp,
				  .cat_label_every = ik__html_label_every(x.n) };
	struct ik_svg_axis ya = { .label = y.a->key, .ncat = y.n, .cat_labels = yp,
				  .cat_label_every = ik__html_label_every(y.n) };
	struct ik_svg p;
	int h = 120 + 26 * y.n;
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, h < IK_HTML_PLOT_H ? IK_HTML_PLOT_H : h, title, &xa, &ya);
	for (int i = 0; i < x.n; i++)
		for (int j = 0; j < y.n; j++) {
			gi[0] = i;
			gi[1] = y.n - 1 - j;
			double m, lo, hi;
			value_of(sum, point_at(s, gi), f, &m, &lo, &hi);
			ramp(vmax > vmin ? (m - vmin) / (vmax - vmin) : 0.5, fill, sizeof(fill));
			fmt_num(text, sizeof(text), m);
			snprintf(tip, sizeof(tip), "%s=%s, %s=%s%s: %s", x.a->key, x.a->values[i],
				 y.a->key, y.a->values[gi[1]], pname, text);
			ik__svg_cell(&p, i, j, fill, x.n <= 16 ? text : "", tip);
		}
	ik__svg_axes(&p);
	/* the scale in five steps, least to greatest */
	char tick_t[5][32], tick_c[5][16];
	const char *names[5], *colors[5];
	for (int t = 0; t < 5; t++) {
		fmt_num(tick_t[t], sizeof(tick_t[t]), vmin + (vmax - vmin) * t / 4.0);
		ramp(t / 4.0, tick_c[t], sizeof(tick_c[t]));
		names[t] = tick_t[t];
		colors[t] = tick_c[t];
	}
	ik__svg_legend(&p, 5, names, colors);
	ik__svg_end(&p);
	free(xp);
	free(yp);
	free(xl);
	free(yl);
}

/* A figure worth plotting: some finite value that is not 0 everywhere. */
static bool figure_shown(const struct ik_sweep_summary *sum, int f)
{
	for (int64_t p = 0; p < sum->npoints; p++) {
		double m = sum->stat[p * sum->nfigures + f].median;
		if (isfinite(m) && m != 0)
			return true;
	}
	return false;
}

static void settings_table(FILE *out, const struct ik_sweep_spec *s,
			   const struct ik_sweep_summary *sum)
{
	char buf[512];
	fputs("<h2>Sweep</h2>\n<table>\n", out);
	ik__html_setting(out, "base scenario", s->base, sizeof(s->base));
	snprintf(buf, sizeof(buf), "%lld", (long long)s->npoints);
	ik__html_setting(out, "points", buf, sizeof(buf));
	snprintf(buf, sizeof(buf), "%d (seeds %llu..%llu)", s->runs, (unsigned long long)s->seed,
		 (unsigned long long)(s->seed + (uint64_t)s->runs - 1));
	ik__html_setting(out, "runs per point", buf, sizeof(buf));
	for (int a = 0; a < s->naxes; a++) {
		const struct ik_sweep_axis *ax = &s->axes[a];
		size_t len = 0;
		for (int v = 0; v < ax->nvalues && len + 8 < sizeof(buf); v++) {
			int k = snprintf(buf + len, sizeof(buf) - len, "%s%s", v ? ", " : "", ax->values[v]);
			if (k > 0)
				len += (size_t)k;
		}
		if (len >= sizeof(buf) - 8)
			snprintf(buf + sizeof(buf) - 8, 8, " ...");
		char key[sizeof(ax->key) + sizeof(ax->template_) + 40];
		snprintf(key, sizeof(key), "vary %s%s%s (axis group %d)", ax->key,
			 ax->template_[0] ? " as " : "", ax->template_, ax->group + 1);
		ik__html_setting(out, key, buf, sizeof(buf));
	}
	for (int i = 0; i < s->noverrides; i++)
		ik__html_setting(out, "set", s->overrides[i], sizeof(s->overrides[i]));
	if (sum->npoints > 0) {
		const char *names[IK_SWEEP_KEPT_SETTINGS] = { "scenario", "platform", "driver",
							      "governor" };
		for (int k = 0; k < IK_SWEEP_KEPT_SETTINGS; k++)
			ik__html_setting(out, names[k], sum->settings[0][k], IK_SWEEP_SETTING_LEN);
	}
	if (s->bad.on) {
		snprintf(buf, sizeof(buf), "%s < %.10g", ik__sweep_figure_key(s->bad.figure), s->bad.below);
		ik__html_setting(out, "bad run", buf, sizeof(buf));
	}
	fputs("</table>\n", out);
}

static void points_table(FILE *out, const struct ik_sweep_spec *s,
			 const struct ik_sweep_summary *sum, const bool *shown)
{
	int idx[IK_SWEEP_MAX_AXES];
	char buf[160], a[32], b[32], c[32];
	fputs("<h2>Points</h2>\n<table>\n<tr>", out);
	ik__html_th(out, "point");
	for (int k = 0; k < s->naxes; k++)
		ik__html_th(out, s->axes[k].key);
	if (s->bad.on)
		ik__html_th(out, "bad runs");
	for (int f = 0; f < sum->nfigures; f++)
		if (shown[f]) {
			snprintf(buf, sizeof(buf), "%s median [IQR]", ik__sweep_figure_key(f));
			ik__html_th(out, buf);
		}
	fputs("</tr>\n", out);
	for (int64_t p = 0; p < sum->npoints && p < MAX_TABLE_ROWS; p++) {
		ik__sweep_point_index(s, p, idx);
		fputs("<tr>", out);
		snprintf(buf, sizeof(buf), "%lld", (long long)p);
		ik__html_td_num(out, buf);
		for (int k = 0; k < s->naxes; k++)
			ik__html_td_text(out, s->axes[k].values[idx[k]], IK_SWEEP_VALUE_LEN);
		if (s->bad.on)
			ik__html_td_fixed(out, sum->bad_fraction[p], 2);
		for (int f = 0; f < sum->nfigures; f++) {
			if (!shown[f])
				continue;
			const struct ik_sweep_stat *st = &sum->stat[p * sum->nfigures + f];
			fmt_num(a, sizeof(a), st->median);
			fmt_num(b, sizeof(b), st->q1);
			fmt_num(c, sizeof(c), st->q3);
			snprintf(buf, sizeof(buf), "%s [%s, %s]", a, b, c);
			ik__html_td_num(out, buf);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	if (sum->npoints > MAX_TABLE_ROWS)
		ik__html_note(out, "The first %d of %lld points; summary.csv has them all.",
			     MAX_TABLE_ROWS, (long long)sum->npoints);
}

/* The plots of panels [k0, k1): the bad fraction's, the heat maps, each figure's. */
static void panel_plots(FILE *out, const struct ik_sweep_spec *s,
			const struct ik_sweep_summary *sum, const bool *shown, int64_t k0, int64_t k1)
{
	for (int64_t k = k0; s->bad.on && k < k1; k++) {
		line_plot(out, s, sum, -1, k);
		if (s->ngroups >= 2)
			heat_map(out, s, sum, -1, k);
	}
	if (s->ngroups >= 2) {
		int hf = s->bad.on ? s->bad.figure : -1;
		for (int f = 0; hf < 0 && f < sum->nfigures; f++)
			if (shown[f])
				hf = f;
		for (int64_t k = k0; hf >= 0 && k < k1; k++)
			heat_map(out, s, sum, hf, k);
	}
	for (int f = 0; f < sum->nfigures; f++)
		for (int64_t k = k0; shown[f] && k < k1; k++)
			line_plot(out, s, sum, f, k);
}

/* A grid of more than MAX_PANELS combinations: the selector of its views, each option
   named by its first and last combination.  The view shown is the URL's fragment
   (#panels-N) when it names one, so that a view can be linked to. */
static void view_selector(FILE *out, const struct ik_sweep_spec *s, int64_t drawn)
{
	int gi[IK_SWEEP_MAX_AXES] = { 0 };
	char first[256], last[256];
	fputs("<p class=\"views\"><label for=\"panel-view\">Plots shown:</label> "
	      "<select id=\"panel-view\">\n", out);
	for (int64_t k0 = 0, v = 1; k0 < drawn; k0 += MAX_PANELS, v++) {
		int64_t k1 = k0 + MAX_PANELS < drawn ? k0 + MAX_PANELS : drawn;
		panel_indices(s, k0, gi);
		panel_name(s, gi, first, sizeof(first));
		panel_indices(s, k1 - 1, gi);
		panel_name(s, gi, last, sizeof(last));
		fprintf(out, "<option value=\"panels-%lld\">%lld-%lld of %lld:", (long long)v,
			(long long)k0 + 1, (long long)k1, (long long)drawn);
		ik__svg_escape(out, first);
		fputs(" to", out);
		ik__svg_escape(out, last);
		fputs("</option>\n", out);
	}
	fputs("</select></p>\n"
	      "<script>\n"
	      "(function () {\n"
	      "  var pick = document.getElementById('panel-view');\n"
	      "  var want = decodeURIComponent(location.hash.slice(1));\n"
	      "  for (var i = 0; i < pick.options.length; i++)\n"
	      "    if (pick.options[i].value === want) pick.value = want;\n"
	      "  function show() {\n"
	      "    var views = document.querySelectorAll('section.panel-view');\n"
	      "    for (var j = 0; j < views.length; j++) views[j].hidden = views[j].id !== pick.value;\n"
	      "  }\n"
	      "  pick.addEventListener('change', function () {\n"
	      "    history.replaceState(null, '', '#' + pick.value);\n"
	      "    show();\n"
	      "  });\n"
	      "  document.addEventListener('DOMContentLoaded', show);\n"
	      "})();\n"
	      "</script>\n", out);
}

int ik__sweep_write_html(FILE *out, const struct ik_sweep_spec *s,
			const struct ik_sweep_summary *sum)
{
	char title[320];
	bool shown[64] = { false };
	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);

	snprintf(title, sizeof(title), "idlekit sweep: %s", s->base);
	ik__html_begin(out, title);
	settings_table(out, s, sum);
	for (int f = 0; f < sum->nfigures && f < 64; f++)
		shown[f] = figure_shown(sum, f);
	if (s->ngroups > 0) {
		fputs("<h2>Figures against the axes</h2>\n", out);
		int64_t np = panel_count(s), drawn = np < MAX_PANELS_ALL ? np : MAX_PANELS_ALL;
		if (np > 1)
			ik__html_note(out, "One plot per combination of the axes after the first two "
				     "(%lld), sharing their scales%s%s.", (long long)np,
				     np > MAX_PANELS ? "; the selector shows " TO_TEXT(MAX_PANELS)
				     " combinations at a time" : "",
				     np > MAX_PANELS_ALL ? "; the first " TO_TEXT(MAX_PANELS_ALL)
				     " are drawn, the table below and summary.csv have every point" : "");
		if (drawn <= MAX_PANELS) {
			panel_plots(out, s, sum, shown, 0, drawn);
		} else {
			view_selector(out, s, drawn);
			for (int64_t k0 = 0, v = 1; k0 < drawn; k0 += MAX_PANELS, v++) {
				fprintf(out, "<section class=\"panel-view\" id=\"panels-%lld\">\n",
					(long long)v);
				panel_plots(out, s, sum, shown, k0,
					    k0 + MAX_PANELS < drawn ? k0 + MAX_PANELS : drawn);
				fputs("</section>\n", out);
			}
		}
	}
	points_table(out, s, sum, shown);
	ik__html_note(out, "Medians and quartiles over each point's runs (linear interpolation "
		     "between order statistics); summary.csv adds the mean with its 95%% "
		     "confidence interval (Student's t), results.csv every run.");
	ik__html_end(out);
	ik__rep_locale_leave(&locale);
	return ik__rep_finish(out);
}
