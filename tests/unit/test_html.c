/*
 * The HTML report (idlekit sim --html, idlekit compare --html) on hand-built results: the page
 * is well formed (tags balanced, every '&' an entity), every <svg> has axes, tick labels,
 * axis labels and data marks, names are escaped, the same call twice gives the same bytes,
 * a 512-CPU result stays small with at most 64 per-CPU bars, the latency axis goes log when
 * the samples span decades, and compare's page has one legend entry per result.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "idlekit/compare.h"
#include "idlekit/html.h"
#include "idlekit/result.h"
#include "report/svg.h"

/* ---- fixtures ---- */

static void set_state(struct ik_state *st, const char *name, uint32_t latency_us,
		      uint32_t residency_us)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	snprintf(st->desc, sizeof(st->desc), "ACPI FFH MWAIT");
	st->exit_latency = latency_us;
	st->target_residency = residency_us;
	st->exit_latency_ns = latency_us * 1000LL;
	st->target_residency_ns = residency_us * 1000LL;
	st->power_usage = -1;
}

static void make_scenario(struct ik_scenario *sc, const char *name, int ncpus)
{
	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	snprintf(sc->platform.name, sizeof(sc->platform.name), "test-platform");
	sc->platform.packages = 1;
	sc->platform.cores_per_package = ncpus;
	sc->platform.threads_per_core = 1;
	sc->hz = 250;
	sc->latency_limit_us = -1;
	snprintf(sc->driver, sizeof(sc->driver), "acpi_idle");
	snprintf(sc->governor, sizeof(sc->governor), "menu");
	sc->workload.kind = IK_WORKLOAD_PINGPONG;
	sc->workload.pairs = 2;
	sc->workload.msg_bytes = 1024;
	sc->duration_ns = 1000000000;
	sc->warmup_ns = 100000000;
	sc->runs = 1;
	sc->seed = 1;
}

/* ncpus CPUs, nstates states sharing 80% of the time; wake latencies lat_lo..lat_hi ns. */
static void make_run(struct ik_run_result *r, uint64_t seed, int ncpus, int nstates,
		     int64_t lat_lo, int64_t lat_hi)
{
	memset(r, 0, sizeof(*r));
	r->seed = seed;
	r->ncpus = ncpus;
	r->nstates = nstates;
	r->measured_ns = 1000000000;
	r->per_cpu = calloc((size_t)ncpus * (size_t)nstates, sizeof(*r->per_cpu));
	assert_non_null(r->per_cpu);
	for (int i = 0; i < nstates; i++) {
		char name[16];
		snprintf(name, sizeof(name), "C%d", i);
		set_state(&r->states[i], name, (uint32_t)i * 10, (uint32_t)i * 20);
		for (int cpu = 0; cpu < ncpus; cpu++) {
			struct ik_state_counters *c = &r->per_cpu[cpu * nstates + i];
			c->usage = 100 + (uint64_t)cpu;
			c->time_ns = (uint64_t)(800000000 / nstates) - (uint64_t)cpu * 1000;
			c->above = 3;
			c->below = 2;
			r->total[i].usage += c->usage;
			r->total[i].time_ns += c->time_ns;
			r->total[i].above += c->above;
			r->total[i].below += c->below;
		}
	}
	r->idle_entries = 1000;
	r->wakeups = 1000;
	ik_hist_init(&r->wake_latency);
	for (int64_t v = lat_lo; v <= lat_hi; v += (lat_hi - lat_lo) / 997 + 1)
		ik_hist_add(&r->wake_latency, v);
	r->messages = 100000 * (seed % 2 ? 1 : 2);
	r->bytes = r->messages * 1024;
	r->energy_j = 10.0;
}

static void free_runs(struct ik_run_result *runs, int n)
{
	for (int i = 0; i < n; i++)
		ik_run_result_free(&runs[i]);
}

static char *html_of(const struct ik_scenario *sc, const struct ik_run_result *runs, int nruns,
		     size_t *lenp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ik_report_html(f, sc, runs, nruns), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	if (lenp)
		*lenp = len;
	return text;
}

/* ---- a small well-formedness checker ---- */

static bool is_void(const char *name, size_t n)
{
	static const char *const voids[] = {"meta", "br", "hr", "img", "link", "input"};
	for (size_t i = 0; i < sizeof(voids) / sizeof(voids[0]); i++)
		if (strlen(voids[i]) == n && strncmp(voids[i], name, n) == 0)
			return true;
	return false;
}

/* Tags balanced and properly nested, attribute values quoted, every '&' an entity. */
static void assert_well_formed(const char *html)
{
	enum { DEPTH = 64 };
	char stack[DEPTH][32];
	int depth = 0;
	const char *p = html;
	assert_true(strncmp(p, "<!DOCTYPE html>", 15) == 0);
	p += 15;
	while (*p) {
		if (*p == '&') {
			const char *q = p + 1;
			if (*q == '#')
				q++;
			while (isalnum((unsigned char)*q))
				q++;
			if (*q != ';' || q == p + 1)
				fail_msg("bare '&' at offset %td", p - html);
			p = q + 1;
			continue;
		}
		if (*p == '>')
			fail_msg("bare '>' at offset %td", p - html);
		if (*p != '<') {
			p++;
			continue;
		}
		bool closing = p[1] == '/';
		const char *name = p + 1 + closing;
		size_t n = 0;
		while (isalnum((unsigned char)name[n]))
			n++;
		if (n == 0 || n >= 32)
			fail_msg("bad tag at offset %td", p - html);
		/* to the end of the tag, skipping quoted attribute values */
		const char *q = name + n;
		while (*q && *q != '>') {
			if (*q == '"') {
				q = strchr(q + 1, '"');
				if (!q)
					fail_msg("unterminated attribute value");
			} else if (*q == '<') {
				fail_msg("'<' inside a tag at offset %td", q - html);
			}
			q++;
		}
		if (*q != '>')
			fail_msg("unterminated tag at offset %td", p - html);
		bool self_closing = q[-1] == '/';
		if (closing) {
			if (depth == 0 || strlen(stack[depth - 1]) != n ||
			    strncmp(stack[depth - 1], name, n) != 0)
				fail_msg("</%.*s> at offset %td closes <%s>", (int)n, name, p - html,
					 depth ? stack[depth - 1] : "(nothing)");
			depth--;
		} else if (!self_closing && !is_void(name, n)) {
			if (depth == DEPTH)
				fail_msg("nesting too deep");
			memcpy(stack[depth], name, n);
			stack[depth][n] = '\0';
			depth++;
		}
		p = q + 1;
	}
	if (depth != 0)
		fail_msg("<%s> never closed", stack[depth - 1]);
}

static int count(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Every <svg> ... </svg> has axes, ticks with labels, axis labels, a title and data. */
static void assert_plots_complete(const char *html, int min_plots)
{
	int n = 0;
	for (const char *p = strstr(html, "<svg"); p; p = strstr(p + 1, "<svg")) {
		const char *end = strstr(p, "</svg>");
		assert_non_null(end);
		size_t len = (size_t)(end - p);
		char *svg = strndup(p, len);
		assert_non_null(svg);
		if (count(svg, "class=\"axis x\"") != 1 || count(svg, "class=\"axis y\"") != 1 ||
		    count(svg, "class=\"tick-label\"") < 2 || count(svg, "class=\"axis-label\"") != 2 ||
		    count(svg, "class=\"title\"") != 1 || count(svg, "class=\"data\"") < 1 ||
		    !strstr(svg, "<title>"))
			fail_msg("incomplete plot:\n%s", svg);
		assert_null(strstr(svg, "nan"));
		assert_null(strstr(svg, "inf\""));
		free(svg);
		n++;
	}
	assert_true(n >= min_plots);
}

/* ---- tests ---- */

static void test_well_formed_one_run(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "one", 4);
	make_run(&r, 7, 4, 3, 1000, 2000);
	char *html = html_of(&sc, &r, 1, NULL);
	assert_well_formed(html);
	/* residency per run and per CPU, latency histogram and CDF, throughput, accuracy */
	assert_plots_complete(html, 6);
	assert_non_null(strstr(html, "<table class=\"settings\">"));
	assert_non_null(strstr(html, "<table class=\"states\">"));
	assert_non_null(strstr(html, ">p99.9 "));
	assert_null(strstr(html, "<script"));
	/* nothing fetched: no src or href attributes */
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "href="));
	free(html);
	free_runs(&r, 1);
}

static void test_well_formed_several_runs(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result runs[5];
	make_scenario(&sc, "five", 8);
	for (int i = 0; i < 5; i++)
		make_run(&runs[i], (uint64_t)i + 1, 8, 4, 1000 * (i + 1), 5000 * (i + 1));
	char *html = html_of(&sc, runs, 5, NULL);
	assert_well_formed(html);
	assert_plots_complete(html, 6);
	assert_non_null(strstr(html, "<table class=\"summary\">"));
	/* throughput: one dot per run */
	const char *tput = strstr(html, "Throughput, one dot per run");
	assert_non_null(tput);
	const char *end = strstr(tput, "</svg>");
	int dots = 0;
	for (const char *p = strstr(tput, "<circle class=\"data\""); p && p < end;
	     p = strstr(p + 1, "<circle class=\"data\""))
		dots++;
	assert_int_equal(dots, 5);
	/* the CDF overlays each run and all of them: a legend entry per run */
	assert_non_null(strstr(html, ">seed 5</text>"));
	free(html);
	free_runs(runs, 5);
}

static void test_name_escaped(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "<script>alert('x&y')</script>", 2);
	snprintf(sc.governor, sizeof(sc.governor), "m\"e<n>u");
	make_run(&r, 1, 2, 2, 100, 200);
	snprintf(r.states[1].name, sizeof(r.states[1].name), "<b>C1");
	char *html = html_of(&sc, &r, 1, NULL);
	assert_well_formed(html);
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<b>"));
	assert_non_null(strstr(html, "&lt;script&gt;alert(&#39;x&amp;y&#39;)&lt;/script&gt;"));
	assert_non_null(strstr(html, "m&quot;e&lt;n&gt;u"));
	assert_non_null(strstr(html, "&lt;b&gt;C1"));
	free(html);
	free_runs(&r, 1);
}

static void test_deterministic(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result runs[3];
	make_scenario(&sc, "same", 16);
	for (int i = 0; i < 3; i++)
		make_run(&runs[i], (uint64_t)i, 16, 3, 500, 900000);
	size_t la, lb;
	char *a = html_of(&sc, runs, 3, &la);
	char *b = html_of(&sc, runs, 3, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
	free_runs(runs, 3);
}

static void test_large_machine(void **state)
{
	(void)state;
	struct ik_scenario sc;
	enum { NRUNS = 20 };
	struct ik_run_result *runs = calloc(NRUNS, sizeof(*runs));
	assert_non_null(runs);
	make_scenario(&sc, "big", 512);
	for (int i = 0; i < NRUNS; i++)
		make_run(&runs[i], (uint64_t)i, 512, 8, 100, 50000000);
	size_t len;
	char *html = html_of(&sc, runs, NRUNS, &len);
	assert_true(len < 3u * 1024 * 1024);
	assert_well_formed(html);
	assert_plots_complete(html, 6);
	/* 512 CPUs in 64 bars of 8, and the page says so */
	assert_non_null(strstr(html, "512 CPUs in 64 bars"));
	assert_non_null(strstr(html, ">504-511</text>"));
	/* 100 ns to 50 ms: a log latency axis */
	assert_non_null(strstr(html, "wake latency (us) (log scale)"));
	free(html);
	free_runs(runs, NRUNS);
	free(runs);
}

static void test_uneven_cpu_groups(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "uneven", 130);
	make_run(&r, 1, 130, 3, 1000, 2000);
	char *html = html_of(&sc, &r, 1, NULL);
	assert_well_formed(html);
	/* groups of 3: 43 full bars and one of CPU 129 alone */
	assert_non_null(strstr(html, "130 CPUs in 44 bars: each bar is the mean over 3 consecutive "
				     "CPUs (the last bar over 1)"));
	assert_non_null(strstr(html, ">126-128</text>"));
	free(html);
	free_runs(&r, 1);
}

static void test_linear_latency_axis(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "narrow", 2);
	make_run(&r, 1, 2, 2, 1000, 3000);
	char *html = html_of(&sc, &r, 1, NULL);
	assert_null(strstr(html, "wake latency (us) (log scale)"));
	assert_non_null(strstr(html, "wake latency (us)"));
	free(html);
	free_runs(&r, 1);
}

static void test_empty(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "empty", 2);
	char *html = html_of(&sc, NULL, 0, NULL);
	assert_well_formed(html);
	free(html);
	/* a run with no wake-ups and no per-CPU counters */
	make_run(&r, 1, 2, 2, 0, 0);
	ik_hist_init(&r.wake_latency);
	free(r.per_cpu);
	r.per_cpu = NULL;
	html = html_of(&sc, &r, 1, NULL);
	assert_well_formed(html);
	assert_non_null(strstr(html, "No wake-ups were measured"));
	free(html);
	free_runs(&r, 1);
}

static void test_compare(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result runs[3];
	char path[2][64];
	struct ik_compare_set *sets[2];
	char err[512];
	make_scenario(&sc, "cmp<&>", 4);
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < 3; i++)
			make_run(&runs[i], (uint64_t)i, 4, 3 + k, 1000, 5000 * (k + 1));
		snprintf(path[k], sizeof(path[k]), "/tmp/test_html_%ld_%d.json", (long)getpid(), k);
		FILE *f = fopen(path[k], "w");
		assert_non_null(f);
		assert_int_equal(ik_report_json(f, &sc, runs, 3), 0);
		assert_int_equal(fclose(f), 0);
		free_runs(runs, 3);
		if (ik_compare_load(path[k], &sets[k], err, sizeof(err)))
			fail_msg("%s", err);
	}
	char *text[2] = {NULL, NULL};
	size_t len[2];
	for (int t = 0; t < 2; t++) {
		FILE *f = open_memstream(&text[t], &len[t]);
		assert_non_null(f);
		assert_int_equal(ik_compare_report_html(f, sets, 2), 0);
		assert_int_equal(fclose(f), 0);
	}
	assert_int_equal(len[0], len[1]);
	assert_memory_equal(text[0], text[1], len[0]);
	assert_well_formed(text[0]);
	assert_plots_complete(text[0], 5);
	/* a legend entry per result, in every plot */
	assert_true(count(text[0], ">1: ") >= 3);
	assert_true(count(text[0], ">2: ") >= 3);
	/* the union of the states: C3 only in the second result */
	assert_non_null(strstr(text[0], ">C3</text>"));
	for (int k = 0; k < 2; k++) {
		ik_compare_free(sets[k]);
		unlink(path[k]);
	}
	free(text[0]);
	free(text[1]);
}

static void test_svg_pieces(void **state)
{
	(void)state;
	double ticks[16];
	int n = ik_svg_nice_ticks(0, 100, 8, ticks);
	assert_true(n >= 5 && n <= 8);
	assert_true(ticks[0] == 0.0);
	assert_true(ticks[n - 1] == 100.0);
	n = ik_svg_nice_ticks(0.3, 0.7, 8, ticks);
	assert_true(n >= 2);
	for (int i = 0; i < n; i++)
		assert_true(ticks[i] >= 0.3 - 1e-9 && ticks[i] <= 0.7 + 1e-9);
	/* Okabe-Ito, cycling */
	assert_string_equal(ik_svg_color(0), "#0072B2");
	assert_string_equal(ik_svg_color(IK_SVG_NCOLORS), "#0072B2");

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	ik_svg_escape(f, "a<b>&\"'\x01");
	assert_int_equal(fclose(f), 0);
	assert_string_equal(text, "a&lt;b&gt;&amp;&quot;&#39;?");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_well_formed_one_run),
		cmocka_unit_test(test_well_formed_several_runs),
		cmocka_unit_test(test_name_escaped),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_large_machine),
		cmocka_unit_test(test_uneven_cpu_groups),
		cmocka_unit_test(test_linear_latency_axis),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_svg_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
