/*
 * The three reports of `idlekit sim` on hand-built results: the JSON is valid and carries the
 * figures computed by hand, strings are escaped, CSV fields are quoted, the table has its
 * sections and seed 000's summary figures, the same call twice gives the same bytes, and a
 * failed write is reported.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/result.h"
#include "report/report_internal.h"
#include "report_fixture.h"

/* ---- fixtures ---- */

static void set_state(struct ik_state *st, const char *name, const char *desc, uint32_t latency_us,
		      uint32_t residency_us)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	snprintf(st->desc, sizeof(st->desc), "%s", desc);
	st->exit_latency = latency_us;
	st->target_residency = residency_us;
	st->exit_latency_ns = latency_us * 1000LL;
	st->target_residency_ns = residency_us * 1000LL;
	st->power_usage = -1;
}

static void make_scenario(struct ik_scenario *sc, const char *name)
{
	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	snprintf(sc->platform_ref, sizeof(sc->platform_ref), "zen3-2s");
	snprintf(sc->platform.name, sizeof(sc->platform.name), "zen3-2s");
	sc->platform.packages = 2;
	sc->platform.cores_per_package = 2;
	sc->platform.threads_per_core = 1;
	sc->hz = 250;
	sc->latency_limit_us = -1;
	snprintf(sc->driver, sizeof(sc->driver), "acpi_idle");
	snprintf(sc->governor, sizeof(sc->governor), "menu");
	sc->ndisabled = 1;
	snprintf(sc->disabled[0], sizeof(sc->disabled[0]), "C2");
	sc->workload.kind = IK_WORKLOAD_PINGPONG;
	sc->workload.pairs = 2;
	sc->workload.work_ns = 5000;
	sc->workload.msg_bytes = 1024;
	sc->workload.placement = IK_PLACE_WAKE_IDLE;
	sc->duration_ns = 1000000000;
	sc->warmup_ns = 100000000;
	sc->runs = 1;
	sc->seed = 42;
}

/*
 * 4 CPUs, 1 s measured, three states.  Summed over CPUs: POLL 1 ms, C1 1000 ms (25% of the
 * 4 CPU-seconds), C2 2000 ms (50%).  100000 messages of 1024 B: 100000 messages/s, 102.4 MB/s.
 * 12.5 J: 12.5 W.  Wake latencies 1000..1999 ns.
 */
static void make_run(struct ik_run_result *r, uint64_t seed)
{
	memset(r, 0, sizeof(*r));
	r->seed = seed;
	r->ncpus = 4;
	r->nstates = 3;
	set_state(&r->states[0], "POLL", "CPUIDLE CORE POLL IDLE", 0, 0);
	set_state(&r->states[1], "C1", "ACPI FFH MWAIT 0x0", 1, 2);
	set_state(&r->states[2], "C2", "ACPI IOPORT 0x414", 400, 800);
	static const struct ik_state_counters total[3] = {
		{.usage = 100, .time_ns = 1000000, .above = 0, .below = 5, .rejected = 0},
		{.usage = 2000, .time_ns = 1000000000, .above = 10, .below = 20, .rejected = 0},
		{.usage = 500, .time_ns = 2000000000, .above = 50, .below = 0, .rejected = 3},
	};
	memcpy(r->total, total, sizeof(total));
	r->per_cpu = calloc((size_t)r->ncpus * (size_t)r->nstates, sizeof(*r->per_cpu));
	assert_non_null(r->per_cpu);
	for (int cpu = 0; cpu < r->ncpus; cpu++)
		for (int i = 0; i < r->nstates; i++) {
			struct ik_state_counters *c = &r->per_cpu[cpu * r->nstates + i];
			c->usage = total[i].usage / 4;
			c->time_ns = total[i].time_ns / 4 + (uint64_t)cpu; /* tell the CPUs apart */
			c->above = total[i].above / 4;
		}
	r->measured_ns = 1000000000;
	r->busy_ns = 1000000000;
	r->idle_ns = 3001000000;
	r->idle_entries = 2603;
	r->idle_in_progress = 2;
	r->wakeups = 1000;
	r->ipis = 600;
	ik__hist_init(&r->wake_latency);
	for (int64_t v = 1000; v < 2000; v++)
		ik__hist_add(&r->wake_latency, v);
	r->messages = 100000;
	r->bytes = 100000 * 1024;
	r->energy_j = 12.5;
}

static void assert_contains(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("expected to find [%s] in:\n%s", needle, text);
}

static void assert_not_contains(const char *text, const char *needle)
{
	if (strstr(text, needle))
		fail_msg("did not expect [%s] in:\n%s", needle, text);
}

/* No line ends in a space or a tab, and the text ends in a newline. */
static void assert_clean_lines(const char *text)
{
	size_t len = strlen(text);
	assert_true(len > 0 && text[len - 1] == '\n');
	for (const char *p = text; *p; p++)
		if (*p == '\n' && p > text && (p[-1] == ' ' || p[-1] == '\t'))
			fail_msg("trailing space before offset %zu", (size_t)(p - text));
}

/* ---- a minimal JSON syntax checker (RFC 8259), enough to know the document parses ---- */

struct json_parser {
	const char *p;
	int depth;
};

static void js_ws(struct json_parser *j)
{
	while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
		j->p++;
}

static int js_value(struct json_parser *j);

static int js_string(struct json_parser *j)
{
	if (*j->p != '"')
		return -1;
	for (j->p++; *j->p != '"'; j->p++) {
		unsigned char c = (unsigned char)*j->p;
		if (c < 0x20)
			return -1; /* raw control characters are not allowed */
		if (c == '\\') {
			j->p++;
			if (*j->p == 'u') {
				for (int k = 1; k <= 4; k++)
					if (!isxdigit((unsigned char)j->p[k]))
						return -1;
				j->p += 4;
			} else if (!strchr("\"\\/bfnrt", *j->p) || !*j->p) {
				return -1;
			}
		}
	}
	j->p++;
	return 0;
}

static int js_number(struct json_parser *j)
{
	const char *start = j->p;
	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (isdigit((unsigned char)*j->p))
		while (isdigit((unsigned char)*j->p))
			j->p++;
	else
		return -1;
	if (*j->p == '.') {
		j->p++;
		if (!isdigit((unsigned char)*j->p))
			return -1;
		while (isdigit((unsigned char)*j->p))
			j->p++;
	}
	if (*j->p == 'e' || *j->p == 'E') {
		j->p++;
		if (*j->p == '+' || *j->p == '-')
			j->p++;
		if (!isdigit((unsigned char)*j->p))
			return -1;
		while (isdigit((unsigned char)*j->p))
			j->p++;
	}
	return j->p > start ? 0 : -1;
}

static int js_container(struct json_parser *j, char close, int is_object)
{
	if (++j->depth > 64)
		return -1;
	j->p++;
	js_ws(j);
	if (*j->p == close) {
		j->p++;
		j->depth--;
		return 0;
	}
	for (;;) {
		js_ws(j);
		if (is_object) {
			if (js_string(j) != 0)
				return -1;
			js_ws(j);
			if (*j->p++ != ':')
				return -1;
			js_ws(j);
		}
		if (js_value(j) != 0)
			return -1;
		js_ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p++ != close)
			return -1;
		j->depth--;
		return 0;
	}
}

static int js_value(struct json_parser *j)
{
	switch (*j->p) {
	case '{':
		return js_container(j, '}', 1);
	case '[':
		return js_container(j, ']', 0);
	case '"':
		return js_string(j);
	case 't':
		return strncmp(j->p, "true", 4) == 0 ? (j->p += 4, 0) : -1;
	case 'f':
		return strncmp(j->p, "false", 5) == 0 ? (j->p += 5, 0) : -1;
	case 'n':
		return strncmp(j->p, "null", 4) == 0 ? (j->p += 4, 0) : -1;
	default:
		return js_number(j);
	}
}

static void assert_valid_json(const char *text)
{
	struct json_parser j = {text, 0};
	js_ws(&j);
	if (js_value(&j) != 0)
		fail_msg("invalid JSON at offset %zu: [%.40s]", (size_t)(j.p - text), j.p);
	js_ws(&j);
	assert_int_equal(*j.p, '\0');
}

/* ---- derived figures ---- */

static void test_derived_figures(void **state)
{
	(void)state;
	struct ik_run_result r;
	make_run(&r, 42);
	assert_true(ik__run_messages_per_s(&r) == 100000.0);
	assert_true(fabs(ik__run_mb_per_s(&r) - 102.4) < 1e-12);
	assert_true(ik__run_avg_power_w(&r) == 12.5);
	assert_true(fabs(ik__run_residency_pct(&r, 0) - 0.025) < 1e-12);
	assert_true(ik__run_residency_pct(&r, 1) == 25.0);
	assert_true(ik__run_residency_pct(&r, 2) == 50.0);
	assert_true(ik__run_residency_pct(&r, 3) == 0.0);  /* no such state */
	assert_true(ik__run_residency_pct(&r, -1) == 0.0);

	/* 2 s measured halves every rate */
	r.measured_ns = 2000000000;
	assert_true(ik__run_messages_per_s(&r) == 50000.0);
	assert_true(ik__run_avg_power_w(&r) == 6.25);
	assert_true(ik__run_residency_pct(&r, 1) == 12.5);

	/* nothing measured: rates are 0, not infinite */
	r.measured_ns = 0;
	assert_true(ik__run_messages_per_s(&r) == 0.0);
	assert_true(ik__run_mb_per_s(&r) == 0.0);
	assert_true(ik__run_avg_power_w(&r) == 0.0);
	assert_true(ik__run_residency_pct(&r, 1) == 0.0);

	struct ik_rep_accuracy a;
	ik__rep_accuracy(&r, &a);
	assert_int_equal(a.entries, 2600);
	assert_int_equal(a.too_deep, 60);
	assert_int_equal(a.too_shallow, 25);
	assert_int_equal(a.right, 2515);
	assert_true(fabs(a.too_deep_pct + a.too_shallow_pct + a.right_pct - 100.0) < 1e-9);

	ik__run_result_free(&r);
	assert_null(r.per_cpu);
	ik__run_result_free(&r); /* twice is harmless */
	ik__run_result_free(NULL);
}

/* ---- number formatting ---- */

static void test_number_formats(void **state)
{
	(void)state;
	char buf[IK_FMT_NUM_LEN];
	ik__fmt_scaled(buf, sizeof(buf), 1234567, 3, 2);
	assert_string_equal(buf, "1234.57");
	ik__fmt_scaled(buf, sizeof(buf), 1234565, 3, 2); /* half away from zero */
	assert_string_equal(buf, "1234.57");
	ik__fmt_scaled(buf, sizeof(buf), -1234565, 3, 2);
	assert_string_equal(buf, "-1234.57");
	ik__fmt_scaled(buf, sizeof(buf), -4, 3, 2); /* no "-0.00" */
	assert_string_equal(buf, "0.00");
	ik__fmt_scaled(buf, sizeof(buf), 1500, 3, 0);
	assert_string_equal(buf, "2");
	ik__fmt_scaled(buf, sizeof(buf), 7, 0, 2);
	assert_string_equal(buf, "7.00");
	ik__fmt_scaled(buf, sizeof(buf), INT64_MIN, 3, 3);
	assert_string_equal(buf, "-9223372036854775.808");
	ik__fmt_exact(buf, sizeof(buf), 80000000000, 6);
	assert_string_equal(buf, "80000");
	ik__fmt_exact(buf, sizeof(buf), 1500, 3);
	assert_string_equal(buf, "1.5");
	ik__fmt_exact(buf, sizeof(buf), 1, 6);
	assert_string_equal(buf, "0.000001");

	/* doubles: shortest text that reads back as the same double */
	const double samples[] = {0.1, 102.4, 1.0 / 3.0, 22448.553333333333, 1e300, 5e-324,
				  -2.5, 123456789012345678.0};
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		assert_true(ik__fmt_double(buf, sizeof(buf), samples[i]));
		assert_true(strtod(buf, NULL) == samples[i]);
	}
	ik__fmt_double(buf, sizeof(buf), 0.1);
	assert_string_equal(buf, "0.1");
	ik__fmt_double(buf, sizeof(buf), 100000.0);
	assert_string_equal(buf, "100000");
	ik__fmt_double(buf, sizeof(buf), -0.0);
	assert_string_equal(buf, "0");
	assert_false(ik__fmt_double(buf, sizeof(buf), NAN));
	assert_string_equal(buf, "null");
	assert_false(ik__fmt_double(buf, sizeof(buf), -INFINITY));
	assert_string_equal(buf, "null");
	ik__fmt_fixed(buf, sizeof(buf), -0.001, 2);
	assert_string_equal(buf, "0.00");
	ik__fmt_fixed(buf, sizeof(buf), INFINITY, 2);
	assert_string_equal(buf, "n/a");
}

/* ---- JSON ---- */

static void test_json_fields(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "tbench-zen3");
	make_run(&r, 42);
	char *json = report_to_string(ik__report_json, &sc, &r, 1);
	assert_valid_json(json);
	assert_clean_lines(json);

	assert_true(strncmp(json, "{\n  \"schema\": \"idlekit.sim/1\",\n", 31) == 0);
	/* scenario */
	assert_contains(json, "\"name\": \"tbench-zen3\"");
	assert_contains(json, "\"platform\": \"zen3-2s\"");
	assert_contains(json, "\"cpus\": 4");
	assert_contains(json, "\"driver\": \"acpi_idle\"");
	assert_contains(json, "\"governor\": \"menu\"");
	assert_contains(json, "\"hz\": 250");
	assert_contains(json, "\"latency_limit_us\": null");
	assert_contains(json, "\"disabled_states\": [\"C2\"]");
	assert_contains(json, "\"workload\": {\"type\": \"pingpong\", \"pairs\": 2, \"work_ns\": 5000, "
			      "\"msg_bytes\": 1024, \"placement\": \"wake_idle\"}");
	assert_contains(json, "\"duration_ms\": 1000,");
	assert_contains(json, "\"warmup_ms\": 100,");
	assert_contains(json, "\"seed\": 42");
	/* the run */
	assert_contains(json, "\"measured_ms\": 1000,");
	assert_contains(json, "{\"index\": 1, \"name\": \"C1\", \"desc\": \"ACPI FFH MWAIT 0x0\", "
			      "\"latency_us\": 1, \"residency_us\": 2, \"usage\": 2000, "
			      "\"time_us\": 1000000, \"above\": 10, \"below\": 20, \"rejected\": 0, "
			      "\"residency_pct\": 25}");
	assert_contains(json, "\"time_us\": 1000, \"above\": 0, \"below\": 5, \"rejected\": 0, "
			      "\"residency_pct\": 0.025}");
	assert_contains(json, "\"rejected\": 3, \"residency_pct\": 50}");
	/* per CPU: CPU 3's C1 time is 250 ms + 3 ns */
	assert_contains(json, "{\"cpu\": 3, \"states\": [{\"usage\": 25, \"time_us\": 250.003, ");
	assert_contains(json, "{\"usage\": 500, \"time_us\": 250000.003, \"above\": 2, \"below\": 0, "
			      "\"rejected\": 0}");
	/* 1000..1999: nearest rank, then the middle of its 8 ns bucket (1024..2047 / 128) */
	assert_contains(json, "\"wake_latency_ns\": {\"count\": 1000, \"min\": 1000, \"p25\": 1252, "
			      "\"p50\": 1500, \"p75\": 1748, \"p90\": 1900, \"p95\": 1948, "
			      "\"p99\": 1988, \"p99_5\": 1996, \"p99_9\": 1996, \"p99_95\": 1996, "
			      "\"p99_99\": 1996, \"max\": 1999, \"mean\": 1499.5}");
	assert_contains(json, "\"throughput\": {\"messages\": 100000, \"bytes\": 102400000, "
			      "\"messages_per_s\": 100000, \"mb_per_s\": 102.4}");
	assert_contains(json, "\"idle_entries\": 2603,");
	assert_contains(json, "\"idle_entries_per_cpu_per_s\": 650.75,\n"
			      "      \"idle_in_progress\": 2,\n");
	assert_contains(json, "\"ipis\": 600,");
	assert_contains(json, "\"busy_ms\": 1000,");
	assert_contains(json, "\"idle_ms\": 3001,");
	assert_contains(json, "\"accuracy\": {\"entries\": 2600, \"too_deep\": 60, "
			      "\"too_shallow\": 25, \"right\": 2515, ");
	assert_contains(json, "\"energy_j\": 12.5,");
	assert_contains(json, "\"avg_power_w\": 12.5\n");
	/* summary of one run */
	assert_contains(json, "\"summary\": {\n    \"runs\": 1,");
	assert_contains(json, "\"mb_per_s\": {\"n\": 1, \"min\": 102.4, \"max\": 102.4, "
			      "\"median\": 102.4, \"amean\": 102.4, \"hmean\": 102.4, \"stddev\": 0, "
			      "\"cov_pct\": 0}");
	assert_contains(json, "{\"index\": 2, \"name\": \"C2\", \"residency_pct\": {\"n\": 1, "
			      "\"min\": 50,");
	assert_not_contains(json, "nan");
	assert_not_contains(json, "inf");
	free(json);
	ik__run_result_free(&r);
}

static void test_json_escaping(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "say \"hi\" <script>alert(1)</script> \\ \t\x01");
	snprintf(sc.platform.name, sizeof(sc.platform.name), "caf\xc3\xa9 \xff\xe2\x80\xa8!");
	make_run(&r, 7);
	snprintf(r.states[1].name, sizeof(r.states[1].name), "C1,\"E\"");
	/* a name that fills its array with no NUL: printed up to the array's end, no further */
	memset(r.states[2].name, 'X', sizeof(r.states[2].name));

	char *json = report_to_string(ik__report_json, &sc, &r, 1);
	assert_valid_json(json);
	assert_contains(json, "\"name\": \"say \\\"hi\\\" \\u003cscript\\u003ealert(1)\\u003c/script"
			      "\\u003e \\\\ \\t\\u0001\"");
	assert_not_contains(json, "<script>");
	assert_not_contains(json, "</script");
	/* valid UTF-8 kept, a stray byte replaced, U+2028 escaped */
	assert_contains(json, "\"platform\": \"caf\xc3\xa9 \\ufffd\\u2028!\"");
	assert_contains(json, "\"name\": \"C1,\\\"E\\\"\"");
	assert_contains(json, "\"name\": \"XXXXXXXXXXXXXXXX\", \"desc\"");
	free(json);
	ik__run_result_free(&r);
}

/* Not-finite values become null; other workload kinds have their own fields. */
static void test_json_edge_cases(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "odd");
	sc.latency_limit_us = 100;
	sc.ndisabled = 0;
	sc.workload.kind = IK_WORKLOAD_POISSON;
	sc.workload.irq_rate_hz = 2500.5;
	sc.workload.irq_work_ns = 20000;
	make_run(&r, 1);
	r.energy_j = NAN;
	free(r.per_cpu);
	r.per_cpu = NULL;
	ik__hist_init(&r.wake_latency);

	char *json = report_to_string(ik__report_json, &sc, &r, 1);
	assert_valid_json(json);
	assert_contains(json, "\"latency_limit_us\": 100,");
	assert_contains(json, "\"disabled_states\": [],");
	assert_contains(json, "\"workload\": {\"type\": \"poisson\", \"irq_rate_hz\": 2500.5, "
			      "\"irq_work_ns\": 20000}");
	assert_contains(json, "\"energy_j\": null,");
	assert_contains(json, "\"avg_power_w\": null\n");
	assert_contains(json, "\"per_cpu\": [],");
	assert_contains(json, "\"wake_latency_ns\": {\"count\": 0, \"min\": 0, \"p25\": 0, "
			      "\"p50\": 0, \"p75\": 0, \"p90\": 0, \"p95\": 0, \"p99\": 0, "
			      "\"p99_5\": 0, \"p99_9\": 0, \"p99_95\": 0, \"p99_99\": 0, \"max\": 0, "
			      "\"mean\": 0}");
	free(json);

	/* no runs at all */
	json = report_to_string(ik__report_json, &sc, NULL, 0);
	assert_valid_json(json);
	assert_contains(json, "\"runs\": [],");
	assert_contains(json, "\"states\": []");
	free(json);
	ik__run_result_free(&r);
}

/* ---- several runs: seed 000's baseline column from three runs ---- */

static void make_seed000_runs(struct ik_run_result runs[3])
{
	static const double mb_per_s[3] = {32191.80, 2215.06, 32938.80};
	for (int i = 0; i < 3; i++) {
		make_run(&runs[i], 100 + (uint64_t)i);
		runs[i].bytes = (uint64_t)llround(mb_per_s[i] * 1e6); /* over 1 s */
		runs[i].messages = runs[i].bytes / 1024;
	}
}

static void test_json_summary(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result runs[3];
	make_scenario(&sc, "tbench");
	sc.runs = 3;
	make_seed000_runs(runs);
	char *json = report_to_string(ik__report_json, &sc, runs, 3);
	assert_valid_json(json);
	assert_contains(json, "\"runs\": 3,\n    \"messages_per_s\": {\"n\": 3,");
	assert_contains(json, "\"mb_per_s\": {\"n\": 3, \"min\": 2215.06, \"max\": 32938.8, "
			      "\"median\": 32191.8, \"amean\": 22448.55333333333");
	assert_contains(json, "\"cov_pct\": 78.0749615909");
	assert_contains(json, "\"seed\": 100,");
	assert_contains(json, "\"seed\": 102,");
	free(json);
	for (int i = 0; i < 3; i++)
		ik__run_result_free(&runs[i]);
}

/* ---- CSV ---- */

static int csv_states(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		      int nruns)
{
	return ik__report_csv_table(out, sc, runs, nruns, "states");
}

static int csv_summary(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		       int nruns)
{
	return ik__report_csv_table(out, sc, runs, nruns, "summary");
}

/* No field of the CSV has more than `max` decimals (no float noise). */
static void assert_fixed_decimals(const char *csv, int max)
{
	int run = -1; /* digits after a '.' in the current field, -1 = none */
	for (const char *p = csv; *p; p++) {
		if (*p == ',' || *p == '\n')
			run = -1;
		else if (*p == '.')
			run = 0;
		else if (run >= 0 && *p >= '0' && *p <= '9' && ++run > max)
			fail_msg("more than %d decimals at '%.30s'", max, p - run);
	}
}

static void test_csv(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result runs[2];
	make_scenario(&sc, "csv");
	make_run(&runs[0], 42);
	make_run(&runs[1], 43);
	snprintf(runs[0].states[1].name, sizeof(runs[0].states[1].name), "C1,\"E\"");
	snprintf(runs[1].states[1].name, sizeof(runs[1].states[1].name), "C1\nx");
	runs[1].energy_j = INFINITY;

	/* one table per output: the states, with the scenario columns first */
	char *csv = report_to_string(csv_states, &sc, runs, 2);
	assert_clean_lines(csv);
	assert_fixed_decimals(csv, 4);
	static const char head[] =
		"scenario,platform,driver,governor,governor_sha256,governor_params,seed,state,name,latency_us,residency_us,usage,"
		"time_us,above,below,rejected,residency_pct\n"
		"csv,zen3-2s,acpi_idle,menu,,,42,0,POLL,0,0,100,1000.000,0,5,0,0.0250\n"
		"csv,zen3-2s,acpi_idle,menu,,,42,1,\"C1,\"\"E\"\"\",1,2,2000,1000000.000,10,20,0,25.0000\n"
		"csv,zen3-2s,acpi_idle,menu,,,42,2,C2,400,800,500,2000000.000,50,0,3,50.0000\n"
		"csv,zen3-2s,acpi_idle,menu,,,43,0,POLL,";
	assert_true(strncmp(csv, head, strlen(head)) == 0);
	assert_contains(csv, "csv,zen3-2s,acpi_idle,menu,,,43,1,\"C1\nx\",1,2,");
	assert_null(strstr(csv, "\n\n")); /* one table */
	free(csv);

	/* the default table: one row per run, fixed decimals, an empty field for infinity */
	csv = report_to_string(ik__report_csv, &sc, runs, 2);
	assert_clean_lines(csv);
	assert_fixed_decimals(csv, 6);
	assert_true(strncmp(csv, "scenario,platform,driver,governor,governor_sha256,governor_params,seed,measured_ms,busy_ms,idle_ms,"
				 "messages_per_s,mb_per_s,wake_p50_ns,wake_p90_ns,wake_p99_ns,"
				 "wake_p99_9_ns,wake_max_ns,energy_j,avg_power_w,", 160) == 0);
	assert_contains(csv, "\ncsv,zen3-2s,acpi_idle,menu,,,42,");
	assert_contains(csv, ",100000.0,102.400,1500,1900,1988,1996,1999,12.500000,12.500,");
	assert_contains(csv, ",100000.0,102.400,1500,1900,1988,1996,1999,,,");
	assert_null(strstr(csv, "\n\n"));
	free(csv);

	csv = report_to_string(csv_summary, &sc, runs, 2);
	assert_fixed_decimals(csv, 6);
	assert_true(strncmp(csv, "scenario,platform,driver,governor,governor_sha256,governor_params,figure,n,min,max,median,amean,"
				 "hmean,stddev,cov_pct\n", 80) == 0);
	assert_contains(csv, "\ncsv,zen3-2s,acpi_idle,menu,,,wake_p50_ns,2,1500.0,1500.0,1500.0,");
	assert_contains(csv, "\ncsv,zen3-2s,acpi_idle,menu,,,POLL.residency_pct,2,0.0250,");
	free(csv);

	FILE *null = fopen("/dev/null", "w");
	assert_non_null(null);
	assert_int_equal(ik__report_csv_table(null, &sc, runs, 2, "nosuch"), -1);
	fclose(null);
	ik__run_result_free(&runs[0]);
	ik__run_result_free(&runs[1]);
}

/* ---- human table ---- */

/* The line of `text` that starts with `prefix` (after leading spaces), copied into buf. */
static const char *find_line(const char *text, const char *prefix, char *buf, size_t len)
{
	for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
		const char *p = line;
		while (*p == ' ')
			p++;
		size_t n = strcspn(line, "\n");
		if (strncmp(p, prefix, strlen(prefix)) == 0) {
			snprintf(buf, len, "%.*s", (int)n, line);
			return buf;
		}
		if (!line[n])
			break;
	}
	fail_msg("no line starting with [%s] in:\n%s", prefix, text);
	return NULL;
}

static void test_table_one_run(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	char line[512];
	make_scenario(&sc, "tbench-zen3");
	make_run(&r, 42);
	char *table = report_to_string(ik__report_table, &sc, &r, 1);
	assert_clean_lines(table);

	assert_contains(table, "scenario   tbench-zen3\n");
	assert_contains(table, "platform   zen3-2s: 2 packages x 2 cores x 1 threads = 4 CPUs\n");
	assert_contains(table, "driver     acpi_idle\n");
	assert_contains(table, "governor   menu\n");
	assert_contains(table, "HZ         250\n");
	assert_contains(table, "disabled   C2 (on every CPU)\n");
	assert_contains(table, "workload   pingpong: 2 pairs, 1024 B per message, 5 us of work per "
			       "message on each side, placement wake_idle\n");
	assert_contains(table, "duration   1000 ms measured after 100 ms of warm-up\n");
	assert_contains(table, "seeds      1 run: 42\n");

	/* the per-state table: header and rows aligned on the right edge of each column */
	const char *head = find_line(table, "state", line, sizeof(line));
	assert_string_equal(head, "  state  name  latency_us  residency_us  usage  time_us  above  "
				  "below  rejected  residency_%");
	find_line(table, "0  POLL", line, sizeof(line));
	assert_string_equal(line, "      0  POLL           0             0    100     1000      0  "
				  "    5         0         0.03");
	find_line(table, "1  C1", line, sizeof(line));
	assert_string_equal(line, "      1  C1             1             2   2000  1000000     10  "
				  "   20         0        25.00");
	find_line(table, "2  C2", line, sizeof(line));
	assert_string_equal(line, "      2  C2           400           800    500  2000000     50  "
				  "    0         3        50.00");

	assert_contains(table, "count  p50_us  p90_us  p99_us  p99.9_us  max_us  mean_us\n"
			       "   1000    1.50    1.90    1.99      2.00    2.00     1.50\n");
	assert_contains(table, "Throughput\n"
			       "  messages  messages/s    MB/s\n"
			       "    100000   100000.00  102.40\n");
	assert_contains(table, "entries  entries/CPU  entries/CPU/s  wakeups  IPIs   busy_ms   "
			       "idle_ms\n"
			       "     2603       650.75         650.75     1000   600  1000.000  "
			       "3001.000\n");
	assert_contains(table, "entered  too_deep  too_deep_%  too_shallow  too_shallow_%  right  "
			       "right_%\n"
			       "     2600        60        2.31           25           0.96   2515    "
			       "96.73\n");
	assert_contains(table, "energy_J  avg_power_W\n"
			       "    12.500       12.500\n");
	free(table);
	ik__run_result_free(&r);
}

static void test_table_summary(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result runs[3];
	char line[512];
	make_scenario(&sc, "tbench");
	sc.runs = 3;
	make_seed000_runs(runs);
	char *table = report_to_string(ik__report_table, &sc, runs, 3);
	assert_clean_lines(table);
	assert_contains(table, "seeds      3 runs: 100 101 102\n");

	find_line(table, "seed ", line, sizeof(line));
	assert_string_equal(line, "  seed      MB/s   messages/s  wake_p50_us  wake_p99_us  power_W  "
				  "POLL_%   C1_%   C2_%");
	find_line(table, "101", line, sizeof(line));
	assert_string_equal(line, "   101   2215.06   2163144.00         1.50         1.99   12.500  "
				  "  0.03  25.00  50.00");

	/* seed 000's baseline column, figure for figure */
	find_line(table, "Min", line, sizeof(line));
	assert_true(strncmp(line, "  Min        2215.06  ", 21) == 0);
	find_line(table, "Max", line, sizeof(line));
	assert_contains(line, " 32938.80 ");
	find_line(table, "Median", line, sizeof(line));
	assert_contains(line, " 32191.80 ");
	find_line(table, "AMean", line, sizeof(line));
	assert_contains(line, " 22448.55 ");
	find_line(table, "HMean", line, sizeof(line));
	assert_contains(line, " 5849.34 ");
	find_line(table, "Stddev", line, sizeof(line));
	assert_contains(line, " 17526.70 ");
	find_line(table, "CoefVar%", line, sizeof(line));
	assert_contains(line, " 78.07 ");
	/* the header of the summary names every figure with its unit */
	assert_contains(table, "                MB/s   messages/s  wake_p50_us  wake_p99_us  power_W"
			       "  POLL_%   C1_%   C2_%\n  Min  ");
	free(table);
	for (int i = 0; i < 3; i++)
		ik__run_result_free(&runs[i]);
}

/* Many runs: the header lists the first seeds and the last, every run gets its line. */
static void test_table_many_runs(void **state)
{
	(void)state;
	enum { N = 12 };
	struct ik_scenario sc;
	struct ik_run_result runs[N];
	char line[512];
	make_scenario(&sc, "many");
	sc.workload.kind = IK_WORKLOAD_IDLE; /* no throughput columns */
	for (int i = 0; i < N; i++)
		make_run(&runs[i], 1000 + (uint64_t)i);
	char *table = report_to_string(ik__report_table, &sc, runs, N);
	assert_clean_lines(table);
	assert_contains(table, "seeds      12 runs: 1000 1001 1002 ... 1011\n");
	find_line(table, "seed ", line, sizeof(line));
	assert_string_equal(line, "  seed  wake_p50_us  wake_p99_us  power_W  POLL_%   C1_%   C2_%");
	find_line(table, "1011", line, sizeof(line));
	assert_string_equal(line, "  1011         1.50         1.99   12.500    0.03  25.00  50.00");
	find_line(table, "CoefVar%", line, sizeof(line));
	assert_string_equal(line, "  CoefVar%         0.00         0.00     0.00    0.00   0.00   0.00");
	free(table);
	for (int i = 0; i < N; i++)
		ik__run_result_free(&runs[i]);
}

/* A name with control characters cannot reach the terminal raw. */
static void test_table_control_characters(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "evil\x1b[2J");
	make_run(&r, 1);
	snprintf(r.states[1].name, sizeof(r.states[1].name), "C1\x1b]0;x\x07");
	char *table = report_to_string(ik__report_table, &sc, &r, 1);
	assert_null(strchr(table, '\x1b'));
	assert_null(strchr(table, '\x07'));
	assert_contains(table, "scenario   evil?[2J\n");
	free(table);
	/* periodic and idle workloads, no runs */
	sc.workload.kind = IK_WORKLOAD_PERIODIC;
	sc.workload.tasks = 3;
	sc.workload.period_ns = 1000000;
	sc.workload.task_work_ns = 50500;
	table = report_to_string(ik__report_table, &sc, NULL, 0);
	assert_contains(table, "workload   periodic: 3 tasks, period 1000 us, 50.5 us of work per "
			       "period\n");
	assert_contains(table, "seeds      0 runs\n");
	free(table);
	sc.workload.kind = IK_WORKLOAD_IDLE;
	table = report_to_string(ik__report_table, &sc, &r, 1);
	assert_contains(table, "workload   idle: nothing to do\n");
	assert_not_contains(table, "Throughput");
	free(table);
	ik__run_result_free(&r);
}

/* ---- determinism and failures ---- */

static void test_byte_identical(void **state)
{
	(void)state;
	static const report_fn reports[] = {ik__report_table, ik__report_json, ik__report_csv};
	struct ik_scenario sc;
	struct ik_run_result runs[3];
	make_scenario(&sc, "twice");
	make_seed000_runs(runs);
	for (size_t k = 0; k < 3; k++) {
		for (int nruns = 1; nruns <= 3; nruns += 2) {
			char *a = report_to_string(reports[k], &sc, runs, nruns);
			char *b = report_to_string(reports[k], &sc, runs, nruns);
			assert_string_equal(a, b);
			free(a);
			free(b);
		}
	}
	for (int i = 0; i < 3; i++)
		ik__run_result_free(&runs[i]);
}

/* Reports written from several threads at once: no shared state, same bytes. */
struct thread_job {
	const struct ik_scenario *sc;
	const struct ik_run_result *runs;
	char *text;
	size_t len;
	int rc;
};

static void *write_json_job(void *arg)
{
	struct thread_job *job = arg;
	FILE *f = open_memstream(&job->text, &job->len);
	job->rc = -1;
	if (!f)
		return NULL;
	int rc = 0;
	for (int k = 0; k < 20; k++) { /* keep the threads overlapping: only the last is kept */
		rewind(f);
		rc |= ik__report_json(f, job->sc, job->runs, 3);
		rc |= ik__report_table(f, job->sc, job->runs, 3);
	}
	job->rc = fclose(f) == 0 ? rc : -1;
	return NULL;
}

static void test_threads(void **state)
{
	(void)state;
	enum { NTHREADS = 4 };
	struct ik_scenario sc;
	struct ik_run_result runs[3];
	make_scenario(&sc, "threads");
	make_seed000_runs(runs);
	struct thread_job reference = {&sc, runs, NULL, 0, -1};
	write_json_job(&reference);
	assert_int_equal(reference.rc, 0);

	pthread_t threads[NTHREADS];
	struct thread_job jobs[NTHREADS];
	for (int i = 0; i < NTHREADS; i++) {
		jobs[i] = (struct thread_job){&sc, runs, NULL, 0, -1};
		assert_int_equal(pthread_create(&threads[i], NULL, write_json_job, &jobs[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++) {
		assert_int_equal(pthread_join(threads[i], NULL), 0);
		assert_int_equal(jobs[i].rc, 0);
		assert_string_equal(jobs[i].text, reference.text);
		free(jobs[i].text);
	}
	free(reference.text);
	for (int i = 0; i < 3; i++)
		ik__run_result_free(&runs[i]);
}

/* The program's locale must not turn "102.4" into "102,4". */
static void test_locale_independent(void **state)
{
	(void)state;
	static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
	const char *found = NULL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !found; i++)
		if (setlocale(LC_NUMERIC, names[i]))
			found = names[i];
	if (!found)
		skip(); /* no locale with a decimal comma installed */
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "locale");
	make_run(&r, 1);
	char *json = report_to_string(ik__report_json, &sc, &r, 1);
	setlocale(LC_NUMERIC, "C");
	assert_contains(json, "\"mb_per_s\": 102.4}");
	assert_valid_json(json);
	free(json);
	ik__run_result_free(&r);
}

static void test_write_failure(void **state)
{
	(void)state;
	static const report_fn reports[] = {ik__report_table, ik__report_json, ik__report_csv};
	struct ik_scenario sc;
	struct ik_run_result r;
	make_scenario(&sc, "fail");
	make_run(&r, 1);
	for (size_t k = 0; k < 3; k++) {
		/* a stream opened for reading: every write fails */
		FILE *ro = fopen("/dev/null", "r");
		assert_non_null(ro);
		assert_int_equal(reports[k](ro, &sc, &r, 1), -1);
		fclose(ro);
		/* a full disk: the writes fail when the buffer is flushed */
		FILE *full = fopen("/dev/full", "w");
		if (full) {
			assert_int_equal(reports[k](full, &sc, &r, 1), -1);
			fclose(full);
		}
		/* bad arguments */
		assert_int_equal(reports[k](NULL, &sc, &r, 1), -1);
		assert_int_equal(reports[k](stdout, NULL, &r, 1), -1);
		assert_int_equal(reports[k](stdout, &sc, NULL, 1), -1);
		assert_int_equal(reports[k](stdout, &sc, &r, -1), -1);
	}
	ik__run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived_figures),
		cmocka_unit_test(test_number_formats),
		cmocka_unit_test(test_json_fields),
		cmocka_unit_test(test_json_escaping),
		cmocka_unit_test(test_json_edge_cases),
		cmocka_unit_test(test_json_summary),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_table_one_run),
		cmocka_unit_test(test_table_summary),
		cmocka_unit_test(test_table_many_runs),
		cmocka_unit_test(test_table_control_characters),
		cmocka_unit_test(test_byte_identical),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_locale_independent),
		cmocka_unit_test(test_write_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
