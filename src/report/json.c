/*
 * `idlekit sim --json`: the results of a set of runs as one JSON document, schema
 * "idlekit.sim/1", described field by field in docs/json-schema.md.
 *
 * Stable and deterministic: keys always in the same order, integers as integers, times that
 * are integer nanoseconds printed as exact decimals in the unit their key names (time_us,
 * measured_ms), other doubles as the shortest text that reads back as the same double, NaN
 * and infinities as null.  Strings are escaped so the document is valid UTF-8 JSON and can
 * be pasted inside an HTML <script> element.
 *
 * Layout: two-space indentation, one line per leaf object (a state, a CPU, a summary), no
 * trailing spaces, a newline at the end.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "report/report_internal.h"
#include "report/textout.h"

#define IK_JSON_SCHEMA "idlekit.sim/1"
#define JW_MAX_DEPTH 16

/* A small streaming writer: it only knows where commas, newlines and indents go. */
struct json_writer {
	FILE *out;
	int depth;
	int count[JW_MAX_DEPTH];      /* values written so far in each open container */
	bool one_line[JW_MAX_DEPTH];  /* container printed on a single line */
};

static void jw_indent(struct json_writer *w, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", w->out);
}

static void jw_write_string(struct json_writer *w, const char *s, size_t maxlen)
{
	ik__json_string(w->out, s, maxlen);
}

/* Before a value: separator, line break and indent as the container wants, then the key. */
static void jw_prefix(struct json_writer *w, const char *key)
{
	if (w->depth > 0) {
		int top = w->depth - 1;
		if (w->count[top] > 0)
			fputc(',', w->out);
		if (w->one_line[top]) {
			if (w->count[top] > 0)
				fputc(' ', w->out);
		} else {
			fputc('\n', w->out);
			jw_indent(w, w->depth);
		}
		w->count[top]++;
	}
	if (key) {
		jw_write_string(w, key, strlen(key));
		fputs(": ", w->out);
	}
}

static void jw_open(struct json_writer *w, const char *key, char bracket, bool one_line)
{
	jw_prefix(w, key);
	fputc(bracket, w->out);
	if (w->depth >= JW_MAX_DEPTH) /* never happens with this file's documents */
		return;
	bool parent_one_line = w->depth > 0 && w->one_line[w->depth - 1];
	w->one_line[w->depth] = one_line || parent_one_line;
	w->count[w->depth] = 0;
	w->depth++;
}

static void jw_close(struct json_writer *w, char bracket)
{
	if (w->depth > 0) {
		w->depth--;
		if (!w->one_line[w->depth] && w->count[w->depth] > 0) {
			fputc('\n', w->out);
			jw_indent(w, w->depth);
		}
	}
	fputc(bracket, w->out);
}

static void jw_object(struct json_writer *w, const char *key, bool one_line)
{
	jw_open(w, key, '{', one_line);
}
static void jw_end_object(struct json_writer *w)
{
	jw_close(w, '}');
}
static void jw_array(struct json_writer *w, const char *key, bool one_line)
{
	jw_open(w, key, '[', one_line);
}
static void jw_end_array(struct json_writer *w)
{
	jw_close(w, ']');
}

static void jw_string(struct json_writer *w, const char *key, const char *s, size_t maxlen)
{
	jw_prefix(w, key);
	jw_write_string(w, s, maxlen);
}

static void jw_uint(struct json_writer *w, const char *key, uint64_t v)
{
	jw_prefix(w, key);
	fprintf(w->out, "%llu", (unsigned long long)v);
}

static void jw_int(struct json_writer *w, const char *key, int64_t v)
{
	jw_prefix(w, key);
	fprintf(w->out, "%lld", (long long)v);
}

static void jw_null(struct json_writer *w, const char *key)
{
	jw_prefix(w, key);
	fputs("null", w->out);
}

static void jw_double(struct json_writer *w, const char *key, double v)
{
	char buf[IK_FMT_NUM_LEN];
	ik__fmt_double(buf, sizeof(buf), v); /* "null" when not finite */
	jw_prefix(w, key);
	fputs(buf, w->out);
}

/* An integer count of 10^-scale_digits units, printed exactly: (1234567 ns, 3) -> 1234.567 us. */
static void jw_scaled(struct json_writer *w, const char *key, int64_t value, int scale_digits)
{
	char buf[IK_FMT_NUM_LEN];
	ik__fmt_exact(buf, sizeof(buf), value, scale_digits);
	jw_prefix(w, key);
	fputs(buf, w->out);
}

/* uint64 ns counters (sysfs time) as exact us; beyond INT64_MAX they saturate. */
static void jw_time_us(struct json_writer *w, const char *key, uint64_t ns)
{
	jw_scaled(w, key, ns > INT64_MAX ? INT64_MAX : (int64_t)ns, 3);
}

/* The workload's type and the settings its own code lists (ik__workload_settings). */
static void write_workload(struct json_writer *w, const struct ik_workload *wl)
{
	struct ik_workload_settings set;

	jw_object(w, "workload", true);
	jw_string(w, "type", ik__workload_type_name(wl->kind), 32);
	ik__workload_settings(wl, &set);
	for (int i = 0; i < set.n; i++) {
		const struct ik_workload_setting *v = &set.v[i];
		switch (v->type) {
		case IK_SETTING_INT:
			jw_int(w, v->key, v->i);
			break;
		case IK_SETTING_REAL:
			jw_double(w, v->key, v->x);
			break;
		case IK_SETTING_TEXT:
			jw_string(w, v->key, v->text, sizeof(v->text));
			break;
		case IK_SETTING_NS_AS_US:
			jw_scaled(w, v->key, v->i, 3);
			break;
		}
	}
	jw_end_object(w);
}

/* The release, and each switch the user set differently from it. */
static void write_kernel(struct json_writer *w, const struct ik_kernel *k)
{
	char version[16];

	jw_object(w, "kernel", true);
	jw_string(w, "version", ik_kernel_release_name(k->release, version, sizeof(version)),
		  sizeof(version));
	jw_object(w, "switches", true);
	for (int s = 0; s < IK_SW_COUNT; s++)
		if (ik_kernel_has(k, (enum ik_switch)s) !=
		    ik_kernel_release_has(k->release, (enum ik_switch)s))
			jw_string(w, ik_switch_info((enum ik_switch)s)->name,
				  ik_kernel_has(k, (enum ik_switch)s) ? "on" : "off", 4);
	jw_end_object(w);
	jw_end_object(w);
}

static void write_scenario(struct json_writer *w, const struct ik_scenario *sc)
{
	const struct ik_platform *p = &sc->platform;
	jw_object(w, "scenario", false);
	jw_string(w, "name", sc->name, sizeof(sc->name));
	jw_string(w, "platform", p->name, sizeof(p->name));
	jw_int(w, "packages", p->packages);
	jw_int(w, "cores_per_package", p->cores_per_package);
	jw_int(w, "threads_per_core", p->threads_per_core);
	jw_int(w, "cpus", ik__platform_cpus(p));
	jw_string(w, "driver", sc->driver, sizeof(sc->driver));
	if (sc->kernel_driver[0])
		jw_string(w, "kernel_driver", sc->kernel_driver, sizeof(sc->kernel_driver));
	jw_string(w, "governor", sc->governor, sizeof(sc->governor));
	if (sc->governor_sha256[0])
		jw_string(w, "governor_sha256", sc->governor_sha256, sizeof(sc->governor_sha256));
	if (sc->governor_api[0])
		jw_string(w, "governor_api", sc->governor_api, sizeof(sc->governor_api));
	if (sc->ngov_params > 0) {
		jw_object(w, "governor_params", true);
		for (int i = 0; i < sc->ngov_params; i++)
			jw_string(w, sc->gov_params[i].name, sc->gov_params[i].value,
				  sizeof(sc->gov_params[i].value));
		jw_end_object(w);
	}
	jw_int(w, "hz", sc->hz);
	write_kernel(w, ik_kernel_or_default(&sc->kernel));
	if (sc->latency_limit_us < 0)
		jw_null(w, "latency_limit_us");
	else
		jw_int(w, "latency_limit_us", sc->latency_limit_us);
	jw_array(w, "disabled_states", true);
	int ndisabled = sc->ndisabled < 0 ? 0
			: sc->ndisabled > IK_MAX_DISABLED ? IK_MAX_DISABLED : sc->ndisabled;
	for (int i = 0; i < ndisabled; i++)
		jw_string(w, NULL, sc->disabled[i], sizeof(sc->disabled[i]));
	jw_end_array(w);
	write_workload(w, &sc->workload);
	jw_scaled(w, "duration_ms", sc->duration_ns, 6);
	jw_scaled(w, "warmup_ms", sc->warmup_ns, 6);
	jw_int(w, "runs", sc->runs);
	jw_uint(w, "seed", sc->seed);
	jw_end_object(w);
}

/* The effective configuration (config/config.h): version and every key with its origin. */
static void write_config(struct json_writer *w, const struct ik_config *cfg)
{
	jw_object(w, "config", false);
	jw_string(w, "idlekit_version", ik__version(), 256);
	jw_array(w, "keys", false);
	for (int i = 0; cfg && i < cfg->n; i++) {
		const struct ik_config_entry *e = &cfg->entry[i];
		jw_object(w, NULL, true);
		jw_string(w, "section", e->section, sizeof(e->section));
		jw_string(w, "key", e->key, sizeof(e->key));
		if (e->has_value)
			jw_string(w, "value", e->value, sizeof(e->value));
		else
			jw_null(w, "value");
		jw_string(w, "origin", ik__config_origin_name(e->origin), 16);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
}

/* A state's counters, of all CPUs ("states") or of one ("per_cpu"). */
static void write_counters(struct json_writer *w, const struct ik_state_counters *c)
{
	jw_uint(w, "usage", c->usage);
	jw_time_us(w, "time_us", c->time_ns);
	jw_uint(w, "above", c->above);
	jw_uint(w, "below", c->below);
	jw_uint(w, "rejected", c->rejected);
}

static void write_states(struct json_writer *w, const struct ik_run_result *r)
{
	int nstates = ik__rep_nstates(r);
	jw_array(w, "states", false);
	for (int i = 0; i < nstates; i++) {
		const struct ik_state *st = &r->states[i];
		const struct ik_state_counters *c = &r->total[i];
		jw_object(w, NULL, true);
		jw_int(w, "index", i);
		jw_string(w, "name", st->name, sizeof(st->name));
		jw_string(w, "desc", st->desc, sizeof(st->desc));
		jw_uint(w, "latency_us", st->exit_latency);
		jw_uint(w, "residency_us", st->target_residency);
		write_counters(w, c);
		jw_double(w, "residency_pct", ik__run_residency_pct(r, i));
		jw_end_object(w);
	}
	jw_end_array(w);
}

static void write_per_cpu(struct json_writer *w, const struct ik_run_result *r)
{
	int nstates = ik__rep_nstates(r);
	jw_array(w, "per_cpu", false);
	for (int cpu = 0; r->per_cpu && cpu < r->ncpus; cpu++) {
		jw_object(w, NULL, true);
		jw_int(w, "cpu", cpu);
		jw_array(w, "states", true);
		for (int i = 0; i < nstates; i++) {
			jw_object(w, NULL, true);
			write_counters(w, ik__rep_per_cpu(r, cpu, i));
			jw_end_object(w);
		}
		jw_end_array(w);
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* A latency histogram's percentiles (their keys), then its max and mean. */
struct percentile {
	const char *key;
	double pct;
};

static void write_percentiles(struct json_writer *w, const struct ik_hist *h,
			      const struct percentile *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		jw_int(w, p[i].key, ik__hist_percentile(h, p[i].pct));
	jw_int(w, "max", h->count ? h->max : 0);
	jw_double(w, "mean", h->count ? h->sum / (double)h->count : 0.0);
}

static void write_latency_part(struct json_writer *w, const char *key, const struct ik_hist *h)
{
	static const struct percentile part[] = {
		{ "p50", 50.0 }, { "p90", 90.0 }, { "p99", 99.0 }, { "p99_9", 99.9 },
	};
	jw_object(w, key, true);
	write_percentiles(w, h, part, sizeof(part) / sizeof(part[0]));
	jw_end_object(w);
}

/* The workload's own figures (ik__workload_figures): its counts, then its distributions. */
static void write_workload_figures(struct json_writer *w, const struct ik_workload *wl,
				   const struct ik_run_result *r)
{
	struct ik_workload_figures f;
	if (!ik__workload_figures(wl, r, &f))
		return;
	jw_string(w, "workload_figures", f.key, 64); /* which object is the workload's own */
	jw_object(w, f.key, f.brief);
	for (int i = 0; i < f.ncounts; i++) {
		if (f.count[i].integer)
			jw_uint(w, f.count[i].key, f.count[i].count);
		else
			jw_double(w, f.count[i].key, f.count[i].value);
	}
	for (int i = 0; i < f.ndists; i++)
		write_latency_part(w, f.dist[i].key, f.dist[i].h);
	if (f.warning[0])
		jw_string(w, "warning", f.warning, sizeof(f.warning));
	jw_end_object(w);
}

/* A distribution in brief, {count, min, p50, p99, max}: 0s when it has no samples. */
static void write_hist_brief(struct json_writer *w, const char *name, const struct ik_hist *h)
{
	jw_object(w, name, true);
	jw_uint(w, "count", h->count);
	jw_int(w, "min", h->count ? h->min : 0);
	jw_int(w, "p50", ik__hist_percentile(h, 50.0));
	jw_int(w, "p99", ik__hist_percentile(h, 99.0));
	jw_int(w, "max", h->count ? h->max : 0);
	jw_end_object(w);
}

static void write_run(struct json_writer *w, const struct ik_run_result *r,
		      const struct ik_workload *wl)
{
	const struct ik_hist *lat = &r->wake_latency;
	struct ik_rep_accuracy accuracy;
	ik__rep_accuracy(r, &accuracy);

	jw_object(w, NULL, false);
	jw_uint(w, "seed", r->seed);
	jw_int(w, "cpus", r->ncpus);
	jw_scaled(w, "measured_ms", r->measured_ns, 6);
	write_states(w, r);
	write_per_cpu(w, r);

	jw_object(w, "wake_latency_ns", true);
	jw_uint(w, "count", lat->count);
	jw_int(w, "min", lat->count ? lat->min : 0);
	static const struct percentile wake[] = {
		{ "p25", 25.0 },  { "p50", 50.0 },    { "p75", 75.0 },     { "p90", 90.0 },
		{ "p95", 95.0 },  { "p99", 99.0 },    { "p99_5", 99.5 },   { "p99_9", 99.9 },
		{ "p99_95", 99.95 }, { "p99_99", 99.99 },
	};
	write_percentiles(w, lat, wake, sizeof(wake) / sizeof(wake[0]));
	jw_end_object(w);
	jw_uint(w, "side_units", r->side_units);
	jw_double(w, "side_units_per_s", ik__run_per_s(r, r->side_units));
	write_hist_brief(w, "leave_lite_ns", &r->leave_lite);
	write_hist_brief(w, "leave_lite_entries", &r->leave_lite_entries);
	jw_uint(w, "wakeups", r->wakeups);

	/* only a workload that passes messages has throughput: the others' would be zeros
	   that read as a measured 0 */
	if (ik__workload_has_throughput(wl)) {
		jw_object(w, "throughput", true);
		jw_uint(w, "messages", r->messages);
		jw_uint(w, "bytes", r->bytes);
		jw_double(w, "messages_per_s", ik__run_messages_per_s(r));
		jw_double(w, "mb_per_s", ik__run_mb_per_s(r));
		jw_end_object(w);
	}

	jw_uint(w, "idle_entries", r->idle_entries);
	jw_double(w, "idle_entries_per_cpu_per_s", ik__rep_idle_entries_per_cpu_per_s(r));
	jw_uint(w, "idle_in_progress", r->idle_in_progress);
	jw_uint(w, "ipis", r->ipis);
	jw_scaled(w, "busy_ms", r->busy_ns, 6);
	jw_scaled(w, "idle_ms", r->idle_ns, 6);
	jw_scaled(w, "open_idle_ms", r->open_idle_ns, 6);

	jw_object(w, "accuracy", true);
	jw_uint(w, "entries", accuracy.entries);
	jw_uint(w, "too_deep", accuracy.too_deep);
	jw_uint(w, "too_shallow", accuracy.too_shallow);
	jw_uint(w, "right", accuracy.right);
	jw_double(w, "too_deep_pct", accuracy.too_deep_pct);
	jw_double(w, "too_shallow_pct", accuracy.too_shallow_pct);
	jw_double(w, "right_pct", accuracy.right_pct);
	jw_double(w, "too_deep_time_pct", accuracy.too_deep_time_pct);
	jw_double(w, "too_shallow_time_pct", accuracy.too_shallow_time_pct);
	jw_double(w, "right_time_pct", accuracy.right_time_pct);
	jw_end_object(w);

	jw_array(w, "idle_duration_hist", true);
	for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
		jw_uint(w, NULL, r->idle_hist[i]);
	jw_end_array(w);
	jw_array(w, "idle_duration_time_hist_us", true);
	for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
		jw_time_us(w, NULL, r->idle_time_hist_ns[i]);
	jw_end_array(w);

	write_workload_figures(w, wl, r);
	jw_double(w, "energy_j", r->energy_j);
	jw_double(w, "avg_power_w", ik__run_avg_power_w(r));
	jw_end_object(w);
}

static void write_summary_object(struct json_writer *w, const char *key, const struct ik_summary *s)
{
	jw_object(w, key, true);
	jw_int(w, "n", s->n);
	jw_double(w, "min", s->min);
	jw_double(w, "max", s->max);
	jw_double(w, "median", s->median);
	jw_double(w, "amean", s->amean);
	jw_double(w, "hmean", s->hmean);
	jw_double(w, "stddev", s->stddev);
	jw_double(w, "cov_pct", s->cov_pct);
	jw_end_object(w);
}

/* Figures summarized across runs, in the order they appear in "summary". */
static const enum ik_rep_figure summary_figures[] = {
	IK_FIG_MESSAGES_PER_S, IK_FIG_MB_PER_S,	       IK_FIG_WAKE_P50_NS,
	IK_FIG_WAKE_P90_NS,    IK_FIG_WAKE_P99_NS,     IK_FIG_WAKE_P99_9_NS,
	IK_FIG_WAKE_MAX_NS,    IK_FIG_ENERGY_J,	       IK_FIG_AVG_POWER_W,
	IK_FIG_IDLE_ENTRIES_PER_CPU_PER_S, IK_FIG_TOO_DEEP_PCT, IK_FIG_TOO_SHALLOW_PCT,
};

static int write_summary(struct json_writer *w, const struct ik_run_result *runs, int nruns,
			 const struct ik_workload *wl)
{
	struct ik_summary s;
	int rc = 0;
	jw_object(w, "summary", false);
	jw_int(w, "runs", nruns);
	for (size_t i = 0; i < sizeof(summary_figures) / sizeof(summary_figures[0]); i++) {
		rc |= ik__rep_summarize_figure(runs, nruns, summary_figures[i], 0, &s);
		write_summary_object(w, ik__rep_figure_key(summary_figures[i]), &s);
	}
	/* and the workload's own columns of the runs table */
	struct ik_workload_figures f;
	if (nruns > 0 && ik__workload_figures(wl, &runs[0], &f))
		for (int i = 0; i < f.ncolumns; i++) {
			enum ik_rep_figure fig;
			if (ik__rep_figure_find(f.column[i].figure, &fig))
				continue;
			rc |= ik__rep_summarize_figure(runs, nruns, fig, 0, &s);
			write_summary_object(w, f.column[i].figure, &s);
		}
	jw_array(w, "states", false);
	int nstates = nruns > 0 ? ik__rep_nstates(&runs[0]) : 0;
	for (int i = 0; i < nstates; i++) {
		jw_object(w, NULL, true);
		jw_int(w, "index", i);
		jw_string(w, "name", runs[0].states[i].name, sizeof(runs[0].states[i].name));
		rc |= ik__rep_summarize_figure(runs, nruns, IK_FIG_RESIDENCY_PCT, i, &s);
		write_summary_object(w, "residency_pct", &s);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
	return rc;
}

static int json_report(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		       int nruns, const void *arg)
{
	(void)arg;
	struct json_writer w = {.out = out};
	jw_object(&w, NULL, false);
	jw_string(&w, "schema", IK_JSON_SCHEMA, sizeof(IK_JSON_SCHEMA));
	write_scenario(&w, sc);
	write_config(&w, sc->config);
	jw_array(&w, "runs", false);
	for (int i = 0; i < nruns; i++)
		write_run(&w, &runs[i], &sc->workload);
	jw_end_array(&w);
	int rc = write_summary(&w, runs, nruns, &sc->workload);
	jw_end_object(&w);
	fputc('\n', out);
	return rc;
}

int ik__report_json(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		   int nruns)
{
	return ik__rep_runs_report(out, sc, runs, nruns, json_report, NULL);
}
