/*
 * idlekit report subsystem, internal: a small SVG plotting module for the HTML report.
 *
 * A plot is a fixed-size SVG with a plotting area inside margins, an x and a y axis (linear
 * or log10, or categorical on x for bar charts), and marks drawn in data coordinates.  Every
 * text written is XML-escaped; numbers are printed with fixed formats in the "C" locale (the
 * caller enters it, see ik__rep_locale_enter), so the same input always gives the same bytes.
 *
 * Elements carry classes the tests look for: "axis" (axis lines), "tick", "tick-label",
 * "axis-label", "title", "legend", "data" (every mark standing for data), "marker"
 * (percentile lines).
 */
#ifndef IDLEKIT_REPORT_SVG_H
#define IDLEKIT_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The Okabe-Ito palette (distinguishable with the common colour-vision deficiencies). */
#define IK_SVG_NCOLORS 8
const char *ik__svg_color(int i);
/* Grey for "the rest" (busy time, not in any state). */
#define IK_SVG_GREY "#bbbbbb"

/* Writes s with &, <, >, " and ' escaped; control characters become '?'. */
void ik__svg_escape(FILE *out, const char *s);
/* As ik__svg_escape, at most n bytes of s. */
void ik__svg_escape_n(FILE *out, const char *s, size_t n);

struct ik_svg_axis {
	double min, max;
	bool log;          /* log10 scale; min and max must be > 0 */
	const char *label; /* with its unit */
	/* categorical: ncat slots (on y: rows from the top), each labelled (labels may be NULL:
	   numbered from 0) */
	int ncat;
	const char *const *cat_labels;
	int cat_label_every; /* label every k-th category (0 or 1: all) */
};

struct ik_svg {
	FILE *out;
	int width, height;
	int left, right, top, bottom; /* margins, px */
	struct ik_svg_axis x, y;
	int nmarks;  /* data marks drawn so far */
	int nmarkers; /* percentile markers drawn so far */
};

/* Starts a plot: <svg> with a <title>, margins set for axes and a legend on the right. */
void ik__svg_begin(struct ik_svg *p, FILE *out, int width, int height, const char *title,
		  const struct ik_svg_axis *x, const struct ik_svg_axis *y);
/* Draws the axes, their ticks, tick labels and labels (call after the data, on top of it). */
void ik__svg_axes(struct ik_svg *p);
void ik__svg_end(struct ik_svg *p);

/* Pixel coordinates of a data value (clamped to the plotting area). */
double ik__svg_px(const struct ik_svg *p, double x);
double ik__svg_py(const struct ik_svg *p, double y);
/* Centre of category i on a categorical x axis, and the width of one slot. */
double ik__svg_cat_px(const struct ik_svg *p, int i);
double ik__svg_cat_width(const struct ik_svg *p);
/* Categorical y (rows from the top): centre of row i, and the height of one row. */
double ik__svg_cat_py(const struct ik_svg *p, int i);
double ik__svg_cat_height(const struct ik_svg *p);

/*
 * Stacked bars: for every category c, nseries segments values[c * nseries + s] stacked from
 * 0 upward, series s in colour colors[s] (NULL: the palette).  Titles give tooltips.
 */
void ik__svg_stacked_bars(struct ik_svg *p, int ncat, int nseries, const double *values,
			 const char *const *series_names, const char *const *colors);
/* Histogram bars: bin i spans [edges[i], edges[i+1]) with height counts[i]. */
void ik__svg_hist(struct ik_svg *p, int nbins, const double *edges, const double *heights,
		 const char *color);
/* A polyline through n points; step: a step function (for a CDF). */
void ik__svg_line(struct ik_svg *p, int n, const double *xs, const double *ys, const char *color,
		 bool step, const char *name);
/* Dots at (x, y) pixel-offset dx on x (for a strip plot on a categorical axis). */
void ik__svg_dot(struct ik_svg *p, double px, double y, const char *color, const char *tooltip);
/* A vertical marker line at data x with a label at the top. */
void ik__svg_vmarker(struct ik_svg *p, double x, const char *label, const char *color);
/* Bars from data x0[i] to x1[i] in row `row` of a categorical y axis (a timeline), as one
   path with one tooltip. */
void ik__svg_spans(struct ik_svg *p, int row, int n, const double *x0, const double *x1,
		  const char *color, const char *tooltip);
/* A cell (col, row) of a grid of categories (a heat map) with its text. */
void ik__svg_cell(struct ik_svg *p, int col, int row, const char *fill, const char *text,
		 const char *tooltip);
/* A legend at the right of the plotting area. */
void ik__svg_legend(struct ik_svg *p, int n, const char *const *names, const char *const *colors);
/* A line of text under the plot (a note). */
void ik__svg_note(struct ik_svg *p, const char *text);

/* "Nice" linear ticks (1, 2, 5 x 10^k) covering [min, max]: at most max_ticks written. */
int ik__svg_nice_ticks(double min, double max, int max_ticks, double *ticks);

#endif
