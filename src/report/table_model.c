/*
 * The table model (table_model.h): building a table of formatted cells, and its two
 * renderers, aligned text and HTML.  Every table of `idlekit sim`'s text report and of the
 * HTML pages is drawn here, so there is one place that decides how a table looks.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_internal.h"
#include "report/report_internal.h"
#include "report/svg.h"
#include "report/table_model.h"

#define COLUMN_GAP "  "
#define INDENT "  "

void ik__tab_init(struct ik_tab *t, int ncols)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols < 0 ? 0 : ncols > IK_TAB_MAX_COLS ? IK_TAB_MAX_COLS : ncols;
}

void ik__tab_free(struct ik_tab *t)
{
	free(t->cell);
	free(t->pool);
	t->cell = NULL;
	t->pool = NULL;
	t->nrows = t->row_capacity = 0;
	t->pool_len = t->pool_capacity = 0;
}

/* Copies n bytes of s into the pool as a string; its offset, or 0 ("") when memory ran out. */
static size_t pool_add(struct ik_tab *t, const char *s, size_t n)
{
	if (t->failed)
		return 0;
	if (n == 0)
		return 0;
	if (t->pool_len == 0)
		t->pool_len = 1; /* offset 0 is the empty string */
	if (t->pool_len + n + 1 > t->pool_capacity) {
		size_t capacity = t->pool_capacity ? t->pool_capacity : 1024;
		while (capacity < t->pool_len + n + 1)
			capacity *= 2;
		char *pool = realloc(t->pool, capacity);
		if (!pool) {
			t->failed = true;
			return 0;
		}
		pool[0] = '\0';
		t->pool = pool;
		t->pool_capacity = capacity;
	}
	size_t at = t->pool_len;
	memcpy(t->pool + at, s, n);
	t->pool[at + n] = '\0';
	t->pool_len += n + 1;
	return at;
}

void ik__tab_col(struct ik_tab *t, int col, enum ik_tab_kind kind, const char *head,
		const char *unit)
{
	if (col < 0 || col >= t->ncols)
		return;
	t->kind[col] = kind;
	if (!head)
		return;
	char buf[256];
	int n = unit ? snprintf(buf, sizeof(buf), "%s_%s", head, unit)
		     : snprintf(buf, sizeof(buf), "%s", head);
	t->head[col] = pool_add(t, buf, n < 0 ? 0 : (size_t)n < sizeof(buf) ? (size_t)n
									 : sizeof(buf) - 1);
	t->headed = true;
}

int ik__tab_row(struct ik_tab *t)
{
	if (t->failed)
		return -1;
	if (t->nrows == t->row_capacity) {
		int capacity = t->row_capacity ? t->row_capacity * 2 : 16;
		size_t *cell = realloc(t->cell, (size_t)capacity * (size_t)(t->ncols ? t->ncols : 1) *
						       sizeof(*cell));
		if (!cell) {
			t->failed = true;
			return -1;
		}
		t->cell = cell;
		t->row_capacity = capacity;
	}
	memset(t->cell + (size_t)t->nrows * (size_t)t->ncols, 0, (size_t)t->ncols * sizeof(*t->cell));
	return t->nrows++;
}

static size_t *cell_at(struct ik_tab *t, int row, int col)
{
	if (t->failed || row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return NULL;
	return &t->cell[(size_t)row * (size_t)t->ncols + (size_t)col];
}

void ik__tab_text(struct ik_tab *t, int row, int col, const char *s, size_t maxlen)
{
	size_t *c = cell_at(t, row, col);
	if (c)
		*c = s ? pool_add(t, s, strnlen(s, maxlen)) : 0;
}

void ik__tab_set(struct ik_tab *t, int row, int col, const char *fmt, ...)
{
	if (!cell_at(t, row, col))
		return;
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ik__tab_text(t, row, col, buf, sizeof(buf));
}

void ik__tab_u64(struct ik_tab *t, int row, int col, uint64_t v)
{
	ik__tab_set(t, row, col, "%llu", (unsigned long long)v);
}

void ik__tab_fixed(struct ik_tab *t, int row, int col, double v, int decimals)
{
	char num[IK_FMT_NUM_LEN];
	ik__fmt_fixed(num, sizeof(num), v, decimals);
	ik__tab_text(t, row, col, num, sizeof(num));
}

void ik__tab_us(struct ik_tab *t, int row, int col, int64_t ns)
{
	char num[IK_FMT_NUM_LEN];
	ik__fmt_scaled(num, sizeof(num), ns, 3, 2);
	ik__tab_text(t, row, col, num, sizeof(num));
}

/* ---- distributions ---- */

static const char *stat_name(enum ik_tab_stat s)
{
	switch (s) {
	case IK_TAB_COUNT: return "count";
	case IK_TAB_MIN: return "min";
	case IK_TAB_P50: return "p50";
	case IK_TAB_P90: return "p90";
	case IK_TAB_P99: return "p99";
	case IK_TAB_P99_9: return "p99.9";
	case IK_TAB_MAX: return "max";
	case IK_TAB_MEAN: return "mean";
	}
	return "";
}

void ik__tab_hist_cols(struct ik_tab *t, int col, const enum ik_tab_stat *stats, int n,
		      const char *count_name, const char *prefix, bool us)
{
	for (int i = 0; i < n; i++) {
		char head[128];
		if (stats[i] == IK_TAB_COUNT)
			snprintf(head, sizeof(head), "%s", count_name ? count_name : "count");
		else
			snprintf(head, sizeof(head), "%s%s", prefix ? prefix : "", stat_name(stats[i]));
		ik__tab_col(t, col + i, IK_TAB_NUM, head, us && stats[i] != IK_TAB_COUNT ? "us" : NULL);
	}
}

void ik__tab_hist(struct ik_tab *t, int row, int col, const struct ik_hist *h,
		 const enum ik_tab_stat *stats, int n, bool us)
{
	for (int i = 0; i < n; i++) {
		int64_t v = 0;
		switch (stats[i]) {
		case IK_TAB_COUNT:
			ik__tab_u64(t, row, col + i, h->count);
			continue;
		case IK_TAB_MEAN: {
			double mean = h->count ? h->sum / (double)h->count : 0.0;
			ik__tab_fixed(t, row, col + i, us ? mean / 1000.0 : mean, 2);
			continue;
		}
		case IK_TAB_MIN: v = h->count ? h->min : 0; break;
		case IK_TAB_P50: v = ik__hist_percentile(h, 50.0); break;
		case IK_TAB_P90: v = ik__hist_percentile(h, 90.0); break;
		case IK_TAB_P99: v = ik__hist_percentile(h, 99.0); break;
		case IK_TAB_P99_9: v = ik__hist_percentile(h, 99.9); break;
		case IK_TAB_MAX: v = h->count ? h->max : 0; break;
		}
		if (us)
			ik__tab_us(t, row, col + i, v);
		else
			ik__tab_set(t, row, col + i, "%lld", (long long)v);
	}
}

const char *ik__tab_cell(const struct ik_tab *t, int row, int col)
{
	if (t->failed || !t->pool || row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
		return "";
	return t->pool + t->cell[(size_t)row * (size_t)t->ncols + (size_t)col];
}

const char *ik__tab_head(const struct ik_tab *t, int col)
{
	if (t->failed || !t->pool || col < 0 || col >= t->ncols)
		return "";
	return t->pool + t->head[col];
}

/* ---- text ---- */

/* Display width: UTF-8 code points (continuation bytes take no column). */
static int text_width(const char *s)
{
	int width = 0;
	for (; *s; s++)
		width += ((unsigned char)*s & 0xc0) != 0x80;
	return width;
}

static void pad(FILE *out, int n)
{
	while (n-- > 0)
		fputc(' ', out);
}

static void put_safe(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

/* Row r of the text grid: the header row is row -1 when there is one. */
static const char *text_cell(const struct ik_tab *t, int r, int c)
{
	return r < 0 ? ik__tab_head(t, c) : ik__tab_cell(t, r, c);
}

int ik__tab_print_text(FILE *out, const struct ik_tab *t)
{
	if (t->failed)
		return -1;
	int first = t->headed ? -1 : 0;
	int width[IK_TAB_MAX_COLS] = {0};
	for (int r = first; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			int w = text_width(text_cell(t, r, c));
			if (w > width[c])
				width[c] = w;
		}
	for (int r = first; r < t->nrows; r++) {
		/* the last non-empty cell: nothing, not even padding, is printed after it */
		int last = t->ncols - 1;
		while (last > 0 && text_cell(t, r, last)[0] == '\0')
			last--;
		fputs(INDENT, out);
		for (int c = 0; c <= last; c++) {
			const char *s = text_cell(t, r, c);
			bool left = t->kind[c] != IK_TAB_NUM;
			int fill = width[c] - text_width(s);
			if (c > 0)
				fputs(COLUMN_GAP, out);
			if (!left)
				pad(out, fill);
			put_safe(out, s);
			if (left && c < last)
				pad(out, fill);
		}
		fputc('\n', out);
	}
	return 0;
}

/* ---- HTML ---- */

int ik__tab_print_html(FILE *out, const struct ik_tab *t, const char *cls)
{
	if (t->failed)
		return -1;
	fputs("<table class=\"", out);
	ik__svg_escape(out, cls);
	fputs("\">\n", out);
	if (t->headed) {
		fputs("<tr>", out);
		for (int c = 0; c < t->ncols; c++)
			ik__html_th(out, ik__tab_head(t, c));
		fputs("</tr>\n", out);
	}
	for (int r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		for (int c = 0; c < t->ncols; c++) {
			const char *s = ik__tab_cell(t, r, c);
			switch (t->kind[c]) {
			case IK_TAB_NUM:
				ik__html_td_num(out, s);
				break;
			case IK_TAB_TEXT:
				ik__html_td_text(out, s, strlen(s));
				break;
			case IK_TAB_LABEL:
				ik__html_th(out, s);
				break;
			}
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	return 0;
}
