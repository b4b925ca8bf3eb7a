/*
 * idlekit report subsystem, internal: the table model.  A report table is built once, as
 * columns (a kind and a header carrying its unit) and rows of cells holding formatted text,
 * and then drawn by one of two renderers: aligned text for the terminal (`idlekit sim`'s
 * tables) or an HTML <table> (the --html pages).  Building a table once is what keeps the
 * text report and the HTML page showing the same columns, with the same figures in the same
 * format; a renderer only decides how a cell looks, never what it says.
 *
 * Cells are stored as text because the figures are formatted exactly once, by the
 * ik_rep_fmt_* rules (report_internal.h), whatever draws them.  Memory that runs out while
 * building marks the table failed: the renderers then print nothing and return -1, so a
 * report never shows half a table.
 */
#ifndef IDLEKIT_REPORT_TABLE_MODEL_H
#define IDLEKIT_REPORT_TABLE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/result.h"

/* More columns than any report has (the widest, sim's runs table, has 1 + 18). */
#define IK_TAB_MAX_COLS 32

/* What a column holds, which decides how both renderers draw its cells. */
enum ik_tab_kind {
	IK_TAB_NUM,   /* numbers: right-aligned text; <td class="num"> */
	IK_TAB_TEXT,  /* names: left-aligned text; <td> */
	IK_TAB_LABEL, /* each row's label: left-aligned text; <th> */
};

struct ik_tab {
	int ncols;
	int nrows;
	bool headed; /* a column has a header: a header row is drawn */
	bool failed; /* memory ran out while building */
	enum ik_tab_kind kind[IK_TAB_MAX_COLS];
	size_t head[IK_TAB_MAX_COLS]; /* offsets into pool; 0 is the empty string */
	size_t *cell;                 /* nrows * ncols offsets into pool */
	int row_capacity;
	char *pool; /* every string of the table, NUL-terminated, one after another */
	size_t pool_len;
	size_t pool_capacity;
};

/* An empty table of ncols (at most IK_TAB_MAX_COLS) numeric columns without headers. */
void ik__tab_init(struct ik_tab *t, int ncols);
void ik__tab_free(struct ik_tab *t);
/* Column col's kind and header: head, then '_' and the unit when unit is not NULL
   ("p50", "us" -> "p50_us"). */
void ik__tab_col(struct ik_tab *t, int col, enum ik_tab_kind kind, const char *head,
		const char *unit);
/* Appends a row of empty cells; its index, or -1 when memory ran out. */
int ik__tab_row(struct ik_tab *t);

/* Cell setters: out-of-range cells (and a failed table) are ignored. */
void ik__tab_set(struct ik_tab *t, int row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* At most maxlen bytes of s (a name that may fill its array without a NUL). */
void ik__tab_text(struct ik_tab *t, int row, int col, const char *s, size_t maxlen);
void ik__tab_u64(struct ik_tab *t, int row, int col, uint64_t v);
/* A double with fixed decimals (ik__fmt_fixed: "n/a" when not finite). */
void ik__tab_fixed(struct ik_tab *t, int row, int col, double v, int decimals);
/* ns as us with 2 decimals, exact (ik__fmt_scaled). */
void ik__tab_us(struct ik_tab *t, int row, int col, int64_t ns);

/* The statistics of a distribution a table shows, one column each. */
enum ik_tab_stat {
	IK_TAB_COUNT, /* samples */
	IK_TAB_MIN,
	IK_TAB_P50,
	IK_TAB_P90,
	IK_TAB_P99,
	IK_TAB_P99_9,
	IK_TAB_MAX,
	IK_TAB_MEAN,
};
/*
 * Columns col, col + 1, ... : n statistics of a distribution.  With us the values are ns
 * shown as us (2 decimals), else plain integers (a mean keeps 2 decimals); the count is
 * always an integer.  min, max and the percentiles of an empty distribution are 0.
 * ik__tab_hist_cols sets the columns' kinds and headers: prefix, the statistic's name
 * ("p99.9"), "_us" with us; the count's header is count_name.
 */
void ik__tab_hist_cols(struct ik_tab *t, int col, const enum ik_tab_stat *stats, int n,
		      const char *count_name, const char *prefix, bool us);
void ik__tab_hist(struct ik_tab *t, int row, int col, const struct ik_hist *h,
		 const enum ik_tab_stat *stats, int n, bool us);

/*
 * The text renderer: each line indented by two spaces, columns two spaces apart and as wide
 * as their widest cell (in UTF-8 characters), numbers right-aligned, names and labels
 * left-aligned, the header row first; a line stops after its last non-empty cell, so no
 * line ends in spaces.  Control characters print as '?' (a name from a platform file must
 * not drive the terminal).  0, or -1 (nothing printed) for a failed table.
 */
int ik__tab_print_text(FILE *out, const struct ik_tab *t);
/*
 * The HTML renderer: <table class="cls">, a row of <th> headers when the table has
 * headers, then one <tr> per row, every cell escaped.  The caller holds the "C" locale.
 * 0, or -1 (nothing printed) for a failed table.
 */
int ik__tab_print_html(FILE *out, const struct ik_tab *t, const char *cls);

/* The text of a cell ("" for an empty or out-of-range one): for tests and renderers. */
const char *ik__tab_cell(const struct ik_tab *t, int row, int col);
const char *ik__tab_head(const struct ik_tab *t, int col);

#endif
