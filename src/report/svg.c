/*
 * A small SVG plotting module for the HTML report (see svg.h).
 *
 * Coordinates are printed with one decimal, tick labels with %g; the caller has the "C"
 * numeric locale in force, so the output depends only on the input.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/svg.h"

static const char *const okabe_ito[IK_SVG_NCOLORS] = {
	"#0072B2", /* blue */
	"#E69F00", /* orange */
	"#009E73", /* bluish green */
	"#CC79A7", /* reddish purple */
	"#56B4E9", /* sky blue */
	"#D55E00", /* vermillion */
	"#F0E442", /* yellow */
	"#000000", /* black */
};

const char *ik__svg_color(int i)
{
	if (i < 0)
		i = -i;
	return okabe_ito[i % IK_SVG_NCOLORS];
}

void ik__svg_escape_n(FILE *out, const char *s, size_t n)
{
	if (!s)
		return;
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			fputc(c < 0x20 || c == 0x7f ? '?' : (int)c, out);
		}
	}
}

void ik__svg_escape(FILE *out, const char *s)
{
	ik__svg_escape_n(out, s, (size_t)-1);
}

/* A finite coordinate (NaN and infinities would make the SVG invalid). */
static double fin(double v)
{
	return isfinite(v) ? v : 0.0;
}

/* Text metrics of the 12 px sans-serif labels, on the wide side: 7 px per character; the
   legend (in the 180 px right margin, after its swatch) holds 20 characters a line. */
#define CHAR_W 7.0
#define LEGEND_CHARS 20
static double area_x0(const struct ik_svg *p) { return p->left; }
static double area_x1(const struct ik_svg *p) { return p->width - p->right; }
static double area_y0(const struct ik_svg *p) { return p->height - p->bottom; } /* bottom */
static double area_y1(const struct ik_svg *p) { return p->top; }               /* top */

/* Position of v in [0, 1] along an axis. */
static double frac(const struct ik_svg_axis *a, double v)
{
	double lo = a->min, hi = a->max;
	if (a->log) {
		if (!(v > 0))
			return 0.0;
		lo = log10(lo > 0 ? lo : 1e-300);
		hi = log10(hi > 0 ? hi : 1e-300);
		v = log10(v);
	}
	if (!(hi > lo))
		return 0.0;
	double f = (v - lo) / (hi - lo);
	return f < 0 ? 0 : f > 1 ? 1 : fin(f);
}

double ik__svg_px(const struct ik_svg *p, double x)
{
	return area_x0(p) + frac(&p->x, x) * (area_x1(p) - area_x0(p));
}

double ik__svg_py(const struct ik_svg *p, double y)
{
	return area_y0(p) - frac(&p->y, y) * (area_y0(p) - area_y1(p));
}

double ik__svg_cat_width(const struct ik_svg *p)
{
	int n = p->x.ncat > 0 ? p->x.ncat : 1;
	return (area_x1(p) - area_x0(p)) / n;
}

double ik__svg_cat_px(const struct ik_svg *p, int i)
{
	return area_x0(p) + (i + 0.5) * ik__svg_cat_width(p);
}

double ik__svg_cat_height(const struct ik_svg *p)
{
	int n = p->y.ncat > 0 ? p->y.ncat : 1;
	return (area_y0(p) - area_y1(p)) / n;
}

double ik__svg_cat_py(const struct ik_svg *p, int i)
{
	return area_y1(p) + (i + 0.5) * ik__svg_cat_height(p);
}

void ik__svg_begin(struct ik_svg *p, FILE *out, int width, int height, const char *title,
		  const struct ik_svg_axis *x, const struct ik_svg_axis *y)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->width = width;
	p->height = height;
	p->left = 72;
	p->right = 180;
	p->top = 34;
	p->bottom = 64;
	p->x = *x;
	p->y = *y;
	if (x->ncat > 0 && x->ncat / (x->cat_label_every > 1 ? x->cat_label_every : 1) > 16)
		p->bottom = 96; /* room for rotated category labels */
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n",
		width, height, width, height);
	fputs("<title>", out);
	ik__svg_escape(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<text class=\"title\" x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">",
		p->left);
	ik__svg_escape(out, title);
	fputs("</text>\n", out);
}

int ik__svg_nice_ticks(double min, double max, int max_ticks, double *ticks)
{
	if (!isfinite(min) || !isfinite(max) || max_ticks < 2)
		return 0;
	if (!(max > min)) {
		ticks[0] = min;
		return 1;
	}
	double raw = (max - min) / (max_ticks - 1);
	double mag = pow(10.0, floor(log10(raw)));
	double step = mag;
	static const double mults[] = {1.0, 2.0, 5.0, 10.0};
	for (size_t i = 0; i < sizeof(mults) / sizeof(mults[0]); i++) {
		step = mults[i] * mag;
		if ((max - min) / step <= max_ticks - 1)
			break;
	}
	int n = 0;
	for (double t = ceil(min / step - 1e-9) * step; t <= max + step * 1e-9 && n < max_ticks;
	     t += step) {
		ticks[n++] = fabs(t) < step * 1e-9 ? 0.0 : t;
	}
	return n;
}

static void tick_text(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%g", v);
}

static int axis_ticks(const struct ik_svg_axis *a, double *ticks, int max)
{
	if (!a->log)
		return ik__svg_nice_ticks(a->min, a->max, max > 8 ? 8 : max, ticks);
	int n = 0;
	if (!(a->min > 0) || !(a->max > a->min))
		return 0;
	int lo = (int)ceil(log10(a->min) - 1e-9), hi = (int)floor(log10(a->max) + 1e-9);
	int every = (hi - lo) / 8 + 1;
	for (int e = lo; e <= hi && n < max; e += every)
		ticks[n++] = pow(10.0, e);
	return n;
}

/* A tick mark, from (xa, ya) to (xb, yb). */
static void tick(FILE *out, double xa, double ya, double xb, double yb)
{
	fprintf(out, "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		     "stroke=\"#000\"/>",
		xa, ya, xb, yb);
}

/* A y tick at y, left of the axis at x0, and its label's opening. */
static void y_tick(FILE *out, double x0, double y)
{
	tick(out, x0 - 5, y, x0, y);
	fprintf(out, "<text class=\"tick-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
		x0 - 8, y + 4);
}

/* An x tick's label's opening, centred under x (the axis at y0). */
static void x_label(FILE *out, double x, double y0)
{
	fprintf(out, "<text class=\"tick-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x,
		y0 + 18);
}

/* Category i's label, its text or else its number, and the label's end. */
static void cat_label(FILE *out, const struct ik_svg_axis *a, int i)
{
	if (a->cat_labels && a->cat_labels[i])
		ik__svg_escape(out, a->cat_labels[i]);
	else
		fprintf(out, "%d", i);
	fputs("</text>\n", out);
}

void ik__svg_axes(struct ik_svg *p)
{
	FILE *out = p->out;
	double x0 = area_x0(p), x1 = area_x1(p), y0 = area_y0(p), y1 = area_y1(p);
	double ticks[64];

	fprintf(out, "<g class=\"axes\" stroke=\"#000\" fill=\"none\">\n");
	fprintf(out, "<line class=\"axis x\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
		y0, x1, y0);
	fprintf(out, "<line class=\"axis y\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x0,
		y0, x0, y1);
	fputs("</g>\n<g class=\"ticks\" font-size=\"11\">\n", out);

	/* y: categories (rows, from the top), or ticks with light grid lines */
	int n = p->y.ncat > 0 ? 0 : axis_ticks(&p->y, ticks, 64);
	int yevery = p->y.cat_label_every > 1 ? p->y.cat_label_every : 1;
	for (int i = 0; i < p->y.ncat; i += yevery) {
		y_tick(out, x0, ik__svg_cat_py(p, i));
		cat_label(out, &p->y, i);
	}
	for (int i = 0; i < n; i++) {
		char t[64];
		double y = ik__svg_py(p, ticks[i]);
		tick_text(t, sizeof(t), ticks[i]);
		fprintf(out,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#e5e5e5\"/>",
			x0, y, x1, y);
		y_tick(out, x0, y);
		ik__svg_escape(out, t);
		fputs("</text>\n", out);
	}

	/* x ticks: categories or values */
	if (p->x.ncat > 0) {
		int every = p->x.cat_label_every > 1 ? p->x.cat_label_every : 1;
		bool rotate = p->x.ncat / every > 16;
		/* never closer than the labels are wide (rotated: as they are high) */
		size_t longest = 1;
		for (int i = 0; p->x.cat_labels && i < p->x.ncat; i++)
			if (p->x.cat_labels[i] && strlen(p->x.cat_labels[i]) > longest)
				longest = strlen(p->x.cat_labels[i]);
		double need = rotate ? 16.0 : CHAR_W * (double)longest + 8.0;
		while (every < p->x.ncat && ik__svg_cat_width(p) * every < need)
			every++;
		for (int i = 0; i < p->x.ncat; i += every) {
			double x = ik__svg_cat_px(p, i);
			tick(out, x, y0, x, y0 + 5);
			if (rotate)
				fprintf(out,
					"<text class=\"tick-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
					"transform=\"rotate(-60 %.1f %.1f)\">",
					x, y0 + 12, x, y0 + 12);
			else
				x_label(out, x, y0);
			cat_label(out, &p->x, i);
		}
	} else {
		n = axis_ticks(&p->x, ticks, 64);
		for (int i = 0; i < n; i++) {
			char t[64];
			double x = ik__svg_px(p, ticks[i]);
			tick_text(t, sizeof(t), ticks[i]);
			tick(out, x, y0, x, y0 + 5);
			x_label(out, x, y0);
			ik__svg_escape(out, t);
			fputs("</text>\n", out);
		}
	}
	fputs("</g>\n", out);

	/* axis labels */
	fprintf(out, "<text class=\"axis-label\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
		(x0 + x1) / 2, p->height - 8);
	ik__svg_escape(out, p->x.label ? p->x.label : "");
	if (p->x.log)
		fputs(" (log scale)", out);
	fputs("</text>\n", out);
	double ym = (y0 + y1) / 2;
	fprintf(out,
		"<text class=\"axis-label\" x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %.1f)\">",
		ym, ym);
	ik__svg_escape(out, p->y.label ? p->y.label : "");
	if (p->y.log)
		fputs(" (log scale)", out);
	fputs("</text>\n", out);
}

void ik__svg_end(struct ik_svg *p)
{
	fputs("</svg>\n", p->out);
}

void ik__svg_stacked_bars(struct ik_svg *p, int ncat, int nseries, const double *values,
			 const char *const *series_names, const char *const *colors)
{
	double w = ik__svg_cat_width(p);
	double bw = w * 0.8;
	if (bw < 1)
		bw = w;
	fputs("<g class=\"bars\">\n", p->out);
	for (int c = 0; c < ncat; c++) {
		double base = 0.0;
		double x = ik__svg_cat_px(p, c) - bw / 2;
		for (int s = 0; s < nseries; s++) {
			double v = fin(values[(size_t)c * (size_t)nseries + (size_t)s]);
			if (v <= 0)
				continue;
			double ya = ik__svg_py(p, base), yb = ik__svg_py(p, base + v);
			fprintf(p->out,
				"<rect class=\"data\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>",
				x, yb, bw, ya - yb, colors ? colors[s] : ik__svg_color(s));
			if (p->x.cat_labels && p->x.cat_labels[c])
				ik__svg_escape(p->out, p->x.cat_labels[c]);
			fputs(": ", p->out);
			if (series_names)
				ik__svg_escape(p->out, series_names[s]);
			fprintf(p->out, " %.2f</title></rect>\n", v);
			base += v;
			p->nmarks++;
		}
	}
	fputs("</g>\n", p->out);
}

void ik__svg_hist(struct ik_svg *p, int nbins, const double *edges, const double *heights,
		 const char *color)
{
	fputs("<g class=\"hist\">\n", p->out);
	for (int i = 0; i < nbins; i++) {
		if (!(heights[i] > 0))
			continue;
		double xa = ik__svg_px(p, edges[i]), xb = ik__svg_px(p, edges[i + 1]);
		double ya = ik__svg_py(p, p->y.log ? p->y.min : 0.0), yb = ik__svg_py(p, heights[i]);
		fprintf(p->out,
			"<rect class=\"data\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.5\"><title>%g to %g: %g</title></rect>\n",
			xa, yb, xb - xa, ya - yb, color, edges[i], edges[i + 1], heights[i]);
		p->nmarks++;
	}
	fputs("</g>\n", p->out);
}

/* A mark's tooltip: text as its <title>, nothing when text is NULL. */
static void mark_title(struct ik_svg *p, const char *text)
{
	if (!text)
		return;
	fputs("<title>", p->out);
	ik__svg_escape(p->out, text);
	fputs("</title>", p->out);
}

void ik__svg_line(struct ik_svg *p, int n, const double *xs, const double *ys, const char *color,
		 bool step, const char *name)
{
	if (n <= 0)
		return;
	fprintf(p->out, "<polyline class=\"data\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
			"points=\"",
		color);
	double prev_y = 0;
	for (int i = 0; i < n; i++) {
		double x = ik__svg_px(p, xs[i]), y = ik__svg_py(p, ys[i]);
		if (step && i > 0)
			fprintf(p->out, " %.1f,%.1f", x, prev_y);
		fprintf(p->out, "%s%.1f,%.1f", i ? " " : "", x, y);
		prev_y = y;
	}
	fputs("\">", p->out);
	mark_title(p, name);
	fputs("</polyline>\n", p->out);
	p->nmarks++;
}

void ik__svg_dot(struct ik_svg *p, double px, double y, const char *color, const char *tooltip)
{
	fprintf(p->out,
		"<circle class=\"data\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" "
		"fill-opacity=\"0.75\" stroke=\"#000\" stroke-width=\"0.4\">",
		fin(px), ik__svg_py(p, y), color);
	mark_title(p, tooltip);
	fputs("</circle>\n", p->out);
	p->nmarks++;
}

void ik__svg_vmarker(struct ik_svg *p, double x, const char *label, const char *color)
{
	double px = ik__svg_px(p, x);
	/* labels at staggered heights, so that markers close together stay readable */
	double ty = area_y1(p) + 12 + 14 * (p->nmarkers % 4);
	bool left = px > area_x1(p) - 90;
	fprintf(p->out,
		"<g class=\"marker\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-dasharray=\"4 3\"/>",
		px, area_y0(p), px, area_y1(p), color);
	fprintf(p->out,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"%s\" fill=\"%s\" "
		"stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
		left ? px - 3 : px + 3, ty, left ? "end" : "start", color);
	ik__svg_escape(p->out, label);
	fputs("</text></g>\n", p->out);
	p->nmarkers++;
}

void ik__svg_legend(struct ik_svg *p, int n, const char *const *names, const char *const *colors)
{
	double x = area_x1(p) + 14, y = area_y1(p) + 4;
	fputs("<g class=\"legend\">\n", p->out);
	for (int i = 0; i < n; i++, y += 18) {
		if (y > p->height - 10)
			break;
		fprintf(p->out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\" "
			"stroke=\"#000\" stroke-width=\"0.4\"/>",
			x, y, colors ? colors[i] : ik__svg_color(i));
		fprintf(p->out, "<text x=\"%.1f\" y=\"%.1f\">", x + 18, y + 10);
		/* a name wider than the margin wraps at spaces, one <tspan> per line; a word that
		   alone is too wide (a file path) keeps its tail */
		const char *s = names[i] ? names[i] : "";
		int lines = 0;
		if (strlen(s) <= LEGEND_CHARS) { /* one line: no <tspan> */
			ik__svg_escape(p->out, s);
			s += strlen(s);
		}
		while (*s) {
			while (*s == ' ')
				s++;
			size_t len = strlen(s), cut = len;
			if (len > LEGEND_CHARS) {
				cut = 0;
				for (size_t k = 1; k <= LEGEND_CHARS; k++)
					if (s[k] == ' ')
						cut = k;
			}
			fprintf(p->out, "<tspan x=\"%.1f\" dy=\"%d\">", x + 18, lines ? 14 : 0);
			if (cut == 0) { /* one long word: its tail */
				size_t word = strcspn(s, " ");
				fputs("...", p->out);
				ik__svg_escape_n(p->out, s + word - (LEGEND_CHARS - 3), LEGEND_CHARS - 3);
				s += word;
			} else {
				ik__svg_escape_n(p->out, s, cut);
				s += cut;
			}
			fputs("</tspan>", p->out);
			lines++;
		}
		fputs("</text>\n", p->out);
		y += 14.0 * (lines > 1 ? lines - 1 : 0);
	}
	fputs("</g>\n", p->out);
}

void ik__svg_note(struct ik_svg *p, const char *text)
{
	fprintf(p->out, "<text class=\"note\" x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#444\">",
		p->left, p->height - 26);
	ik__svg_escape(p->out, text);
	fputs("</text>\n", p->out);
}

void ik__svg_spans(struct ik_svg *p, int row, int n, const double *x0, const double *x1,
		  const char *color, const char *tooltip)
{
	if (n <= 0)
		return;
	double h = ik__svg_cat_height(p);
	double bh = h >= 5 ? h * 0.8 : h;
	double y = ik__svg_cat_py(p, row) - bh / 2;
	fputs("<path class=\"data\" d=\"", p->out);
	for (int i = 0; i < n; i++) {
		double xa = ik__svg_px(p, x0[i]), xb = ik__svg_px(p, x1[i]);
		fprintf(p->out, "%sM%.1f %.1fh%.1fv%.1fh%.1fz", i ? " " : "", xa, y, xb - xa, bh,
			xa - xb);
	}
	fprintf(p->out, "\" fill=\"%s\">", color);
	mark_title(p, tooltip);
	fputs("</path>\n", p->out);
	p->nmarks++;
}

void ik__svg_cell(struct ik_svg *p, int col, int row, const char *fill, const char *text,
		 const char *tooltip)
{
	double w = ik__svg_cat_width(p), h = ik__svg_cat_height(p);
	double cx = ik__svg_cat_px(p, col), cy = ik__svg_cat_py(p, row);
	fprintf(p->out,
		"<g><rect class=\"data\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"%s\" stroke=\"#fff\">",
		cx - w / 2, cy - h / 2, w, h, fill);
	mark_title(p, tooltip);
	fprintf(p->out,
		"</rect><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" "
		"stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">",
		cx, cy + 4);
	ik__svg_escape(p->out, text ? text : "");
	fputs("</text></g>\n", p->out);
	p->nmarks++;
}
