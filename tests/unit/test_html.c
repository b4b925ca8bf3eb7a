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

#include "config/result.h"
#include "report/compare.h"
#include "report/html.h"
#include "report/svg.h"
#include "sim/sim.h"
#include "trace/replay.h"
#include "util/timeline.h"

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
	ik__hist_init(&r->wake_latency);
	for (int64_t v = lat_lo; v <= lat_hi; v += (lat_hi - lat_lo) / 997 + 1)
		ik__hist_add(&r->wake_latency, v);
	r->messages = 100000 * (seed % 2 ? 1 : 2);
	r->bytes = r->messages * 1024;
	r->energy_j = 10.0;
}

static void free_runs(struct ik_run_result *runs, int n)
{
	for (int i = 0; i < n; i++)
		ik__run_result_free(&runs[i]);
}

static char *html_of(const struct ik_scenario *sc, const struct ik_run_result *runs, int nruns,
		     size_t *lenp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ik__report_html(f, sc, runs, nruns), 0);
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
	ik__hist_init(&r.wake_latency);
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
		assert_int_equal(ik__report_json(f, &sc, runs, 3), 0);
		assert_int_equal(fclose(f), 0);
		free_runs(runs, 3);
		if (ik__compare_load(path[k], &sets[k], err, sizeof(err)))
			fail_msg("%s", err);
	}
	char *text[2] = {NULL, NULL};
	size_t len[2];
	for (int t = 0; t < 2; t++) {
		FILE *f = open_memstream(&text[t], &len[t]);
		assert_non_null(f);
		assert_int_equal(ik__compare_report_html(f, sets, 2), 0);
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
		ik__compare_free(sets[k]);
		unlink(path[k]);
	}
	free(text[0]);
	free(text[1]);
}

static void test_svg_pieces(void **state)
{
	(void)state;
	double ticks[16];
	int n = ik__svg_nice_ticks(0, 100, 8, ticks);
	assert_true(n >= 5 && n <= 8);
	assert_true(ticks[0] == 0.0);
	assert_true(ticks[n - 1] == 100.0);
	n = ik__svg_nice_ticks(0.3, 0.7, 8, ticks);
	assert_true(n >= 2);
	for (int i = 0; i < n; i++)
		assert_true(ticks[i] >= 0.3 - 1e-9 && ticks[i] <= 0.7 + 1e-9);
	/* Okabe-Ito, cycling */
	assert_string_equal(ik__svg_color(0), "#0072B2");
	assert_string_equal(ik__svg_color(IK_SVG_NCOLORS), "#0072B2");

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	ik__svg_escape(f, "a<b>&\"'\x01");
	assert_int_equal(fclose(f), 0);
	assert_string_equal(text, "a&lt;b&gt;&amp;&quot;&#39;?");
	free(text);
}

/* ---- trace pages, wakelat, timelines ---- */

#define TWO_CPUS "fixtures/traces/two-cpus.trace"

static struct ik_trace_reader *open_fixture(FILE **fp)
{
	char err[512];
	struct ik_trace_reader *r = NULL;
	*fp = fopen(TWO_CPUS, "r");
	assert_non_null(*fp);
	assert_int_equal(ik__trace_open_file(*fp, TWO_CPUS, false, &r, err, sizeof(err)), 0);
	return r;
}

static char *analyze_page(const char *origin, size_t *lenp)
{
	FILE *fp;
	struct ik_trace_reader *r = open_fixture(&fp);
	struct ik_trace_analysis a;
	char err[512];
	struct ik_timeline *tl = ik__timeline_new(0, 0, IK_TIMELINE_DEFAULT_LEN_NS, 2);
	assert_non_null(tl);
	assert_int_equal(ik__trace_analyze_timeline(r, &a, tl, err, sizeof(err)), 0);
	assert_true(tl->nsegs > 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ik__report_html_analyze(f, origin, ik__trace_header(r), &a, tl), 0);
	assert_int_equal(fclose(f), 0);
	ik__timeline_free(tl);
	ik__trace_analysis_free(&a);
	ik__trace_close(r);
	fclose(fp);
	if (lenp)
		*lenp = len;
	return text;
}

static void test_analyze_page(void **state)
{
	(void)state;
	size_t len[2];
	char *html = analyze_page("a<b>&c.trace", &len[0]);
	assert_well_formed(html);
	/* residency per CPU, idle durations, wake causes, timeline */
	assert_plots_complete(html, 4);
	assert_int_equal(count(html, "<svg"), 4);
	assert_non_null(strstr(html, "a&lt;b&gt;&amp;c.trace"));
	assert_null(strstr(html, "a<b>"));
	/* the fixture's table: C1 target 4 us, C6 400 us, both marked */
	assert_non_null(strstr(html, ">C1 target 4 us</text>"));
	assert_non_null(strstr(html, ">C6 target 400 us</text>"));
	/* its irq wake-up ended a too-deep period (docs/trace-format.md's worked example) */
	assert_non_null(strstr(html, "<td>irq</td><td class=\"num\">1</td><td class=\"num\">1</td>"));
	/* the timeline: both CPUs, C6 on CPU 1 (800.1 us from 100 us) */
	assert_non_null(strstr(html, "<title>CPU 1: C6, "));
	assert_non_null(strstr(html, "<title>CPU 0: C1, "));
	char *again = analyze_page("a<b>&c.trace", &len[1]);
	assert_int_equal(len[0], len[1]);
	assert_memory_equal(html, again, len[0]);
	free(again);
	free(html);
}

static void test_replay_page(void **state)
{
	(void)state;
	FILE *fp;
	struct ik_trace_reader *r = open_fixture(&fp);
	const struct ik_trace_header *h = ik__trace_header(r);
	struct ik_trace_replay rp;
	char err[512];
	struct ik_timeline *tl = ik__timeline_new(0, 0, IK_TIMELINE_DEFAULT_LEN_NS, h->cpus);
	assert_non_null(tl);
	struct ik_trace_replay_opts o = { .drv = &h->drivers[0].drv,
					  .gov = ik_governor_find("menu"), .timeline = tl };
	assert_non_null(o.gov);
	assert_int_equal(ik__trace_replay_run(r, &o, &rp, err, sizeof(err)), 0);
	uint64_t hsum = 0;
	for (int i = 0; i < IK_TRACE_HIST_BUCKETS; i++)
		hsum += rp.hist[i];
	assert_int_equal(hsum, rp.entries);
	struct ik_html_replay hr = { .origin = TWO_CPUS, .governor = "menu", .platform = "trace",
				     .hz = h->hz, .compare = true, .drv = o.drv, .h = h,
				     .rp = &rp, .tl = tl };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ik__report_html_replay(f, &hr), 0);
	assert_int_equal(fclose(f), 0);
	assert_well_formed(text);
	/* residency, replayed durations, confusion, timeline */
	assert_plots_complete(text, 4);
	assert_non_null(strstr(text, "Governor&#39;s choice against the recorded state"));
	/* one cell per (recorded, chosen) pair: 3 x 3 */
	const char *conf = strstr(text, "Governor&#39;s choice");
	assert_non_null(conf);
	char *svg = strndup(conf, (size_t)(strstr(conf, "</svg>") - conf));
	assert_int_equal(count(svg, "<rect class=\"data\""), 9);
	free(svg);
	free(text);
	ik__trace_replay_free(&rp);
	ik__timeline_free(tl);
	ik__trace_close(r);
	fclose(fp);
}

static void test_wakelat_page(void **state)
{
	(void)state;
	/* 1000 samples from 2 us to 2 ms: a log axis; exact percentiles marked */
	int64_t samples[1000];
	for (int i = 0; i < 1000; i++)
		samples[i] = 2000 + (int64_t)i * i * 2;
	struct ik_wakelat_result r = { .samples_ns = samples, .count = 1000, .min_ns = samples[0],
				       .max_ns = samples[999], .mean_ns = 1000.0,
				       .elapsed_ns = 100000000 };
	const char *names[] = {"POLL", "C1<&>"};
	uint64_t usage[] = {3, 900}, time_us[] = {10, 50000};
	struct ik_html_wakelat w = { .method = "futex", .waker_cpu = 0, .wakee_cpu = 3,
				     .warmup = 10, .gap_ns = 100000, .latency_limit_ns = -1,
				     .r = &r, .nstates = 2, .state_names = names, .usage = usage,
				     .time_us = time_us };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ik__report_html_wakelat(f, &w), 0);
	assert_int_equal(fclose(f), 0);
	assert_well_formed(text);
	assert_plots_complete(text, 3);
	assert_non_null(strstr(text, "wake latency (us) (log scale)"));
	char want[64];
	snprintf(want, sizeof(want), ">p99 %.2f us</text>",
		 (double)ik__wakelat_percentile(&r, 99) / 1000.0);
	assert_int_equal(count(text, want), 2); /* histogram and CDF */
	assert_non_null(strstr(text, "C1&lt;&amp;&gt;"));
	/* the wakee CPU's bar is labelled with its number */
	assert_non_null(strstr(text, "<title>3: C1&lt;&amp;&gt; 50.00</title>"));
	free(text);
	w.nstates = 0;
	text = NULL;
	f = open_memstream(&text, &len);
	assert_int_equal(ik__report_html_wakelat(f, &w), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "no cpuidle counters"));
	free(text);
}

static void test_timeline_bounds(void **state)
{
	(void)state;
	struct ik_timeline *tl = ik__timeline_new(0, 1000, 1000, 100);
	assert_non_null(tl);
	assert_int_equal(tl->ncpus, IK_TIMELINE_MAX_CPUS);
	ik__timeline_add(tl, 0, 1, 500, 1500);    /* clipped to [1000, 1500) */
	ik__timeline_add(tl, 1, 1, 1900, 2500);   /* clipped to [1900, 2000) */
	ik__timeline_add(tl, 2, 1, 100, 900);     /* before the window */
	ik__timeline_add(tl, 3, 1, 2000, 2100);   /* after it */
	ik__timeline_add(tl, 64, 1, 1000, 1100);  /* a CPU not shown */
	assert_int_equal(tl->nsegs, 2);
	assert_int_equal(tl->segs[0].t0_ns, 1000);
	assert_int_equal(tl->segs[0].t1_ns, 1500);
	assert_int_equal(tl->segs[1].t0_ns, 1900);
	assert_int_equal(tl->segs[1].t1_ns, 2000);
	tl->max_segs = 3;
	for (int i = 0; i < 5; i++)
		ik__timeline_add(tl, 5, 0, 1000 + i * 10, 1005 + i * 10);
	assert_int_equal(tl->nsegs, 3);
	assert_int_equal(tl->dropped, 4);
	ik__timeline_free(tl);

	int64_t start, len;
	char err[256];
	assert_int_equal(ik__timeline_parse_window("10ms:500us", &start, &len, err, sizeof(err)), 0);
	assert_int_equal(start, 10000000);
	assert_int_equal(len, 500000);
	assert_int_equal(ik__timeline_parse_window("3", &start, &len, err, sizeof(err)), 0);
	assert_int_equal(start, 0);
	assert_int_equal(len, 3000000);
	assert_int_equal(ik__timeline_parse_window("1:0", &start, &len, err, sizeof(err)), -1);
	assert_int_equal(ik__timeline_parse_window("1:2parsecs", &start, &len, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "got '1:2parsecs'"));
	assert_int_equal(ik__timeline_parse_window("-1:2", &start, &len, err, sizeof(err)), -1);
}

/* The sim's capture only watches: the same counters with and without it. */
static void test_sim_timeline(void **state)
{
	(void)state;
	static const char *const sets[] = {"scenario.duration_ms=5", "scenario.warmup_ms=1"};
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	char err[IK_ERR_LEN];
	assert_non_null(sc);
	assert_int_equal(ik__scenario_load("default", sets, 2, sc, err, sizeof(err)), 0);
	struct ik_run_result plain, with;
	assert_int_equal(ik__sim_run(sc, 7, &plain, err, sizeof(err)), 0);
	assert_null(plain.timeline);
	sc->timeline_start_ns = 500000;
	sc->timeline_len_ns = 1000000;
	assert_int_equal(ik__sim_run(sc, 7, &with, err, sizeof(err)), 0);
	const struct ik_timeline *tl = with.timeline;
	assert_non_null(tl);
	assert_int_equal(tl->start_ns, 1500000);
	assert_int_equal(tl->origin_ns, 1000000);
	assert_true(tl->nsegs > 0);
	assert_int_equal(tl->dropped, 0);
	/* within the window; per CPU in time order, not overlapping */
	int64_t last_end[IK_TIMELINE_MAX_CPUS];
	for (int c = 0; c < IK_TIMELINE_MAX_CPUS; c++)
		last_end[c] = 0;
	for (size_t i = 0; i < tl->nsegs; i++) {
		const struct ik_timeline_seg *g = &tl->segs[i];
		assert_true(g->t0_ns >= 1500000 && g->t1_ns <= 2500000 && g->t0_ns < g->t1_ns);
		assert_true(g->cpu >= 0 && g->cpu < tl->ncpus);
		assert_true(g->t0_ns >= last_end[g->cpu]);
		last_end[g->cpu] = g->t1_ns;
	}
	assert_int_equal(with.nstates, plain.nstates);
	assert_memory_equal(with.total, plain.total, sizeof(plain.total));
	assert_memory_equal(with.per_cpu, plain.per_cpu,
			    sizeof(*plain.per_cpu) * (size_t)plain.ncpus * (size_t)plain.nstates);
	assert_int_equal(with.wake_latency.count, plain.wake_latency.count);
	assert_int_equal(with.messages, plain.messages);
	assert_true(with.energy_j == plain.energy_j);
	/* and the sim page shows it */
	char *html = html_of(sc, &with, 1, NULL);
	assert_well_formed(html);
	assert_plots_complete(html, 6);
	assert_non_null(strstr(html, "Idle states per CPU over time (seed 7)"));
	free(html);
	ik__run_result_free(&plain);
	ik__run_result_free(&with);
	assert_null(with.timeline);
	free(sc);
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
		cmocka_unit_test(test_analyze_page),
		cmocka_unit_test(test_replay_page),
		cmocka_unit_test(test_wakelat_page),
		cmocka_unit_test(test_timeline_bounds),
		cmocka_unit_test(test_sim_timeline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
