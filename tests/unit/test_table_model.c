/*
 * The table model (src/report/table_model.h) and the sim tables built in it: the text
 * renderer aligns, trims and makes names terminal-safe; the HTML renderer escapes and draws
 * each column's kind; a distribution's statistics are the ones the reports define; and a
 * table built once shows the same cells in text and in HTML.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/result.h"
#include "report/sim_tables.h"
#include "report/table_model.h"

typedef int (*render_fn)(FILE *, const struct ik_tab *, const char *);

static int text_render(FILE *out, const struct ik_tab *t, const char *cls)
{
	(void)cls;
	return ik__tab_print_text(out, t);
}

/* What a renderer printed, NUL-terminated (the caller frees it); its return code in *rc. */
static char *render(render_fn fn, const struct ik_tab *t, const char *cls, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	*rc = fn(f, t, cls);
	assert_int_equal(fclose(f), 0);
	assert_non_null(text);
	return text;
}

static void assert_text(const struct ik_tab *t, const char *want)
{
	int rc;
	char *got = render(text_render, t, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, want);
	free(got);
}

static void assert_html(const struct ik_tab *t, const char *cls, const char *want)
{
	int rc;
	char *got = render(ik__tab_print_html, t, cls, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(got, want);
	free(got);
}

/* name | count | label: one column of each kind, with units in the headers. */
static void make_kinds(struct ik_tab *t)
{
	ik__tab_init(t, 3);
	ik__tab_col(t, 0, IK_TAB_TEXT, "name", NULL);
	ik__tab_col(t, 1, IK_TAB_NUM, "time", "us");
	ik__tab_col(t, 2, IK_TAB_LABEL, "note", NULL);
	int r = ik__tab_row(t);
	ik__tab_text(t, r, 0, "C1", 16);
	ik__tab_us(t, r, 1, 1234567);
	ik__tab_text(t, r, 2, "deep", 16);
	r = ik__tab_row(t);
	ik__tab_text(t, r, 0, "POLLING", 16);
	ik__tab_u64(t, r, 1, 5);
	/* no label: the line stops after the number, with no padding */
}

static void test_text_alignment(void **state)
{
	(void)state;
	struct ik_tab t;
	make_kinds(&t);
	assert_string_equal(ik__tab_head(&t, 1), "time_us");
	assert_text(&t, "  name     time_us  note\n"
			"  C1       1234.57  deep\n"
			"  POLLING        5\n");
	ik__tab_free(&t);
}

static void test_text_names_and_width(void **state)
{
	(void)state;
	struct ik_tab t;
	ik__tab_init(&t, 2);
	ik__tab_col(&t, 0, IK_TAB_TEXT, NULL, NULL);
	ik__tab_col(&t, 1, IK_TAB_NUM, NULL, NULL);
	assert_false(t.headed);
	int r = ik__tab_row(&t);
	ik__tab_text(&t, r, 0, "a\033[2Jb\x7f", 16); /* a terminal escape: printed harmless */
	ik__tab_set(&t, r, 1, "%d", 7);
	r = ik__tab_row(&t);
	ik__tab_text(&t, r, 0, "\xc3\xa9t\xc3\xa9", 16); /* "été": 3 columns wide, not 5 */
	ik__tab_set(&t, r, 1, "%d", 12);
	r = ik__tab_row(&t);
	/* a name filling its array without a NUL: only maxlen bytes are read */
	static const char unterminated[4] = {'C', '1', '2', '3'};
	ik__tab_text(&t, r, 0, unterminated, 2);
	assert_text(&t, "  a?[2Jb?   7\n"
			"  \xc3\xa9t\xc3\xa9      12\n"
			"  C1\n");
	ik__tab_free(&t);
}

static void test_html(void **state)
{
	(void)state;
	struct ik_tab t;
	make_kinds(&t);
	ik__tab_text(&t, 1, 2, "<b>&\"'", 16);
	assert_html(&t, "states",
		    "<table class=\"states\">\n"
		    "<tr><th>name</th><th>time_us</th><th>note</th></tr>\n"
		    "<tr><td>C1</td><td class=\"num\">1234.57</td><th>deep</th></tr>\n"
		    "<tr><td>POLLING</td><td class=\"num\">5</td><th>&lt;b&gt;&amp;&quot;&#39;</th>"
		    "</tr>\n</table>\n");
	ik__tab_free(&t);

	/* without headers: no header row */
	ik__tab_init(&t, 1);
	ik__tab_u64(&t, ik__tab_row(&t), 0, 3);
	assert_html(&t, "x", "<table class=\"x\">\n<tr><td class=\"num\">3</td></tr>\n</table>\n");
	ik__tab_free(&t);
}

static void test_failed_prints_nothing(void **state)
{
	(void)state;
	struct ik_tab t;
	make_kinds(&t);
	t.failed = true; /* as if memory had run out while building */
	assert_int_equal(ik__tab_row(&t), -1);
	assert_string_equal(ik__tab_cell(&t, 0, 0), "");
	int rc;
	char *text = render(text_render, &t, NULL, &rc);
	assert_int_equal(rc, -1);
	assert_string_equal(text, "");
	free(text);
	text = render(ik__tab_print_html, &t, "states", &rc);
	assert_int_equal(rc, -1);
	assert_string_equal(text, "");
	free(text);
	ik__tab_free(&t);
}

static void test_out_of_range_ignored(void **state)
{
	(void)state;
	struct ik_tab t;
	ik__tab_init(&t, IK_TAB_MAX_COLS + 5);
	assert_int_equal(t.ncols, IK_TAB_MAX_COLS);
	int r = ik__tab_row(&t);
	ik__tab_set(&t, r, IK_TAB_MAX_COLS, "x");
	ik__tab_set(&t, r + 1, 0, "x");
	ik__tab_set(&t, r, -1, "x");
	ik__tab_col(&t, IK_TAB_MAX_COLS, IK_TAB_TEXT, "x", NULL);
	assert_false(t.headed);
	assert_string_equal(ik__tab_cell(&t, r, 0), "");
	/* many rows and long cells: the storage grows */
	for (int i = 0; i < 1000; i++)
		ik__tab_set(&t, ik__tab_row(&t), i % IK_TAB_MAX_COLS, "%0200d", i);
	assert_int_equal(t.nrows, 1001);
	assert_false(t.failed);
	assert_int_equal(strlen(ik__tab_cell(&t, 1000, 999 % IK_TAB_MAX_COLS)), 200);
	ik__tab_free(&t);
}

static void test_hist_stats(void **state)
{
	(void)state;
	static const enum ik_tab_stat all[] = {IK_TAB_COUNT, IK_TAB_MIN,   IK_TAB_P50, IK_TAB_P90,
					       IK_TAB_P99,   IK_TAB_P99_9, IK_TAB_MAX, IK_TAB_MEAN};
	enum { N = sizeof(all) / sizeof(all[0]) };
	struct ik_hist *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	for (int64_t v = 1; v <= 100; v++)
		ik__hist_add(h, v * 1000); /* 1 .. 100 us */

	struct ik_tab t;
	ik__tab_init(&t, 2 * N);
	ik__tab_hist_cols(&t, 0, all, N, "samples", NULL, true);
	ik__tab_hist_cols(&t, N, all, N, NULL, "n_", false);
	static const char *const heads[2 * N] = {
		"samples", "min_us", "p50_us", "p90_us", "p99_us", "p99.9_us", "max_us", "mean_us",
		"count",   "n_min",  "n_p50",  "n_p90",  "n_p99",  "n_p99.9",  "n_max",  "n_mean"};
	for (int c = 0; c < 2 * N; c++)
		assert_string_equal(ik__tab_head(&t, c), heads[c]);

	int r = ik__tab_row(&t);
	ik__tab_hist(&t, r, 0, h, all, N, true);
	ik__tab_hist(&t, r, N, h, all, N, false);
	char want[32];
	snprintf(want, sizeof(want), "%lld", (long long)ik__hist_percentile(h, 90.0));
	assert_string_equal(ik__tab_cell(&t, r, 0), "100");
	assert_string_equal(ik__tab_cell(&t, r, 1), "1.00");
	assert_string_equal(ik__tab_cell(&t, r, 6), "100.00");
	assert_string_equal(ik__tab_cell(&t, r, 7), "50.50");
	assert_string_equal(ik__tab_cell(&t, r, N), "100");
	assert_string_equal(ik__tab_cell(&t, r, N + 1), "1000");
	assert_string_equal(ik__tab_cell(&t, r, N + 3), want);
	assert_string_equal(ik__tab_cell(&t, r, N + 6), "100000");
	assert_string_equal(ik__tab_cell(&t, r, N + 7), "50500.00");

	/* an empty distribution: zeros everywhere */
	struct ik_hist *empty = calloc(1, sizeof(*empty));
	assert_non_null(empty);
	r = ik__tab_row(&t);
	ik__tab_hist(&t, r, 0, empty, all, N, true);
	ik__tab_hist(&t, r, N, empty, all, N, false);
	for (int c = 0; c < 2 * N; c++) {
		const char *cell = ik__tab_cell(&t, r, c);
		bool zero = strcmp(cell, "0") == 0 || strcmp(cell, "0.00") == 0;
		if (!zero)
			fail_msg("column %s of an empty distribution is %s", heads[c], cell);
	}
	ik__tab_free(&t);
	free(h);
	free(empty);
}

/* Two runs of two states, for the sim tables. */
static void make_runs(struct ik_run_result *runs)
{
	memset(runs, 0, 2 * sizeof(*runs));
	for (int k = 0; k < 2; k++) {
		struct ik_run_result *r = &runs[k];
		r->seed = 40 + (uint64_t)k;
		r->ncpus = 2;
		r->nstates = 2;
		r->measured_ns = 1000000000;
		snprintf(r->states[0].name, sizeof(r->states[0].name), "POLL");
		snprintf(r->states[1].name, sizeof(r->states[1].name), "C1<x>");
		r->states[1].exit_latency = 2;
		r->states[1].target_residency = 4;
		r->total[0] = (struct ik_state_counters){.usage = 10, .time_ns = 1500};
		r->total[1] = (struct ik_state_counters){.usage = 1000 + (uint64_t)k, .time_ns =
							 500000000, .above = 3, .below = 4, .rejected = 5};
		ik__hist_init(&r->wake_latency);
		for (int64_t v = 1000; v < 3000; v += 10)
			ik__hist_add(&r->wake_latency, v + k);
	}
}

/* Every cell of a table, escaped as HTML writes it, is in the HTML; in text, as is. */
static void assert_same_cells(const struct ik_tab *t, const char *cls)
{
	int rc;
	char *text = render(text_render, t, NULL, &rc);
	assert_int_equal(rc, 0);
	char *html = render(ik__tab_print_html, t, cls, &rc);
	assert_int_equal(rc, 0);
	for (int r = -1; r < t->nrows; r++)
		for (int c = 0; c < t->ncols; c++) {
			const char *s = r < 0 ? ik__tab_head(t, c) : ik__tab_cell(t, r, c);
			char cell[256];
			if (strstr(text, s) == NULL)
				fail_msg("[%s] not in the text:\n%s", s, text);
			if (strcmp(s, "C1<x>") == 0)
				s = "C1&lt;x&gt;"; /* the one name that needs escaping */
			snprintf(cell, sizeof(cell), ">%s</t", s);
			if (strstr(html, cell) == NULL)
				fail_msg("[%s] not in the HTML:\n%s", cell, html);
		}
	free(text);
	free(html);
}

static void test_sim_tables(void **state)
{
	(void)state;
	struct ik_run_result runs[2];
	make_runs(runs);
	struct ik_tab t;

	ik__rep_tab_states(&t, &runs[0]);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(ik__tab_head(&t, 9), "residency_%");
	assert_string_equal(ik__tab_cell(&t, 1, 1), "C1<x>");
	assert_string_equal(ik__tab_cell(&t, 1, 5), "500000");
	assert_string_equal(ik__tab_cell(&t, 0, 5), "2"); /* 1.5 us, rounded half away from 0 */
	assert_string_equal(ik__tab_cell(&t, 1, 9), "25.00");
	assert_same_cells(&t, "states");
	ik__tab_free(&t);

	/* the text report's one run has no seed column; the page's table has one per run */
	ik__rep_tab_wake_latency(&t, runs, 1, false);
	assert_int_equal(t.ncols, 7);
	assert_string_equal(ik__tab_head(&t, 0), "count");
	assert_string_equal(ik__tab_cell(&t, 0, 0), "200");
	ik__tab_free(&t);
	ik__rep_tab_wake_latency(&t, runs, 2, true);
	assert_int_equal(t.ncols, 8);
	assert_string_equal(ik__tab_cell(&t, 1, 0), "41");
	assert_string_equal(ik__tab_head(&t, 4), "p99_us");
	assert_same_cells(&t, "latency");
	ik__tab_free(&t);

	const struct ik_rep_column cols[] = {
		{IK_FIG_WAKE_P50_NS, 0, 1e-3, 2, "wake_p50_us"},
		{IK_FIG_RESIDENCY_PCT, 1, 1.0, 2, "C1_%"},
	};
	ik__rep_tab_runs(&t, runs, 2, cols, 2);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(ik__tab_head(&t, 0), "seed");
	assert_string_equal(ik__tab_cell(&t, 0, 2), "25.00");
	assert_same_cells(&t, "runs");
	ik__tab_free(&t);
	assert_int_equal(ik__rep_tab_summary(&t, runs, 2, cols, 2), 0);
	assert_int_equal(t.nrows, 7);
	assert_int_equal(t.kind[0], IK_TAB_LABEL);
	assert_string_equal(ik__tab_cell(&t, 6, 0), "CoefVar%");
	assert_string_equal(ik__tab_cell(&t, 0, 2), "25.00");
	assert_same_cells(&t, "summary");
	ik__tab_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_alignment),
		cmocka_unit_test(test_text_names_and_width),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_failed_prints_nothing),
		cmocka_unit_test(test_out_of_range_ignored),
		cmocka_unit_test(test_hist_stats),
		cmocka_unit_test(test_sim_tables),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
