/*
 * compare: results of `idlekit sim --json` side by side, the first as the baseline.
 *
 * Each figure is summarised over a result's runs; every other result shows its change
 * from the baseline and, when both have at least two runs and Welch's t-test gives a
 * two-sided p below 0.05, a '*' (mmtests' convention).  A result can also be one run of a
 * file ("FILE@N", N counting from 1), which is how a bimodal set's good and bad runs are
 * set side by side.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/compare.h"
#include "report/html_internal.h"

#define MAX_RUNS 1000

/* A figure of every run of one result. */
struct series {
	double v[MAX_RUNS];
	int n;
};

enum fig {
	FIG_MB_S,
	FIG_MSG_S,
	FIG_WAKE_P50,
	FIG_WAKE_P99,
	FIG_POWER,
	FIG_TOO_DEEP,
	FIG_TOO_SHALLOW,
	FIG_ENTRIES,
	NFIGS,
};

static const struct {
	const char *name;
	const char *unit;
	bool higher_is_better;
} figs[NFIGS] = {
	[FIG_MB_S] = { "throughput", "MB/s", true },
	[FIG_MSG_S] = { "messages", "msg/s", true },
	[FIG_WAKE_P50] = { "wake p50", "us", false },
	[FIG_WAKE_P99] = { "wake p99", "us", false },
	[FIG_POWER] = { "avg power", "W", false },
	[FIG_TOO_DEEP] = { "too deep", "%", false },
	[FIG_TOO_SHALLOW] = { "too shallow", "%", false },
	[FIG_ENTRIES] = { "idle entries", "/CPU/s", false },
};

/* Per state (matched by name across results) and per entry method. */
#define MAX_NAMES 24
struct named {
	char name[40];
	struct series residency_pct;
	struct series usage;
};

struct ik_compare_set {
	char label[256];
	struct series fig[NFIGS];
	int nstates;
	struct named states[MAX_NAMES];
	int nmethods;
	struct named methods[MAX_NAMES];
	/* for the HTML overlays: wake-latency percentiles summed over the runs that have them,
	   and the idle-duration histograms summed over runs (absent in older results) */
	double lat_q_sum[IK_HTML_CMP_QUANTILES];
	int lat_q_runs;
	uint64_t idle_hist[IK_IDLE_HIST_BUCKETS];
	bool has_idle_hist;
};

static int fail(char *err, size_t errlen, const char *path, const char *what)
{
	snprintf(err, errlen, "%s: %s", path, what);
	return -1;
}

static double num(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static struct named *find_named(struct named *list, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(list[i].name, name) == 0)
			return &list[i];
	if (*n == MAX_NAMES)
		return NULL;
	struct named *x = &list[(*n)++];
	memset(x, 0, sizeof(*x));
	snprintf(x->name, sizeof(x->name), "%s", name);
	return x;
}

/* The entry method a state's desc names, as acpi_idle and intel_idle write them. */
static const char *method_of(const char *name, const char *desc)
{
	if (strstr(desc, "IOPORT"))
		return "SYSTEMIO";
	if (strstr(desc, "FFH") || strstr(desc, "MWAIT"))
		return "FFH (MWAIT)";
	if (strstr(desc, "HLT") || strstr(desc, "halt"))
		return "HALT";
	if (strcmp(name, "POLL") == 0 || strstr(desc, "POLL"))
		return "POLL";
	return "other";
}

static void push(struct series *s, double v)
{
	if (s->n < MAX_RUNS)
		s->v[s->n++] = v;
}

static int load_run(struct ik_compare_set *set, json_t *run, const char *path, char *err,
		    size_t errlen)
{
	json_t *tp = json_object_get(run, "throughput");
	json_t *wl = json_object_get(run, "wake_latency_ns");
	json_t *acc = json_object_get(run, "accuracy");
	json_t *states = json_object_get(run, "states");
	if (!json_is_object(tp) || !json_is_object(wl) || !json_is_array(states))
		return fail(err, errlen, path, "a run lacks 'throughput', 'wake_latency_ns' or "
				  "'states': expected the output of idlekit sim --json");
	push(&set->fig[FIG_MB_S], num(tp, "mb_per_s"));
	push(&set->fig[FIG_MSG_S], num(tp, "messages_per_s"));
	push(&set->fig[FIG_WAKE_P50], num(wl, "p50") / 1000.0);
	push(&set->fig[FIG_WAKE_P99], num(wl, "p99") / 1000.0);
	push(&set->fig[FIG_POWER], num(run, "avg_power_w"));
	push(&set->fig[FIG_TOO_DEEP], json_is_object(acc) ? num(acc, "too_deep_pct") : NAN);
	push(&set->fig[FIG_TOO_SHALLOW], json_is_object(acc) ? num(acc, "too_shallow_pct") : NAN);
	push(&set->fig[FIG_ENTRIES], num(run, "idle_entries_per_cpu_per_s"));

	double q[IK_HTML_CMP_QUANTILES];
	bool all_q = true;
	for (int k = 0; k < IK_HTML_CMP_QUANTILES; k++) {
		q[k] = num(wl, ik_html_cmp_quantile_keys[k]);
		all_q = all_q && isfinite(q[k]);
	}
	if (all_q && num(wl, "count") > 0) {
		for (int k = 0; k < IK_HTML_CMP_QUANTILES; k++)
			set->lat_q_sum[k] += q[k];
		set->lat_q_runs++;
	}
	json_t *ih = json_object_get(run, "idle_duration_hist");
	if (json_is_array(ih) && json_array_size(ih) == IK_IDLE_HIST_BUCKETS) {
		for (int k = 0; k < IK_IDLE_HIST_BUCKETS; k++) {
			json_t *c = json_array_get(ih, (size_t)k);
			if (!json_is_integer(c) || json_integer_value(c) < 0)
				return fail(err, errlen, path, "'idle_duration_hist' holds something other "
						  "than counts: expected non-negative integers");
			set->idle_hist[k] += (uint64_t)json_integer_value(c);
		}
		set->has_idle_hist = true;
	}

	size_t i;
	json_t *st;
	int first_method = set->nmethods;
	double method_usage[MAX_NAMES] = { 0 };
	json_array_foreach(states, i, st) {
		const char *name = json_string_value(json_object_get(st, "name"));
		const char *desc = json_string_value(json_object_get(st, "desc"));
		if (!name)
			return fail(err, errlen, path, "a state has no 'name'");
		struct named *x = find_named(set->states, &set->nstates, name);
		if (!x)
			return fail(err, errlen, path, "too many distinct state names");
		push(&x->residency_pct, num(st, "residency_pct"));
		push(&x->usage, num(st, "usage"));
		struct named *m = find_named(set->methods, &set->nmethods, method_of(name, desc ? desc : ""));
		if (!m)
			return fail(err, errlen, path, "too many entry methods");
		method_usage[m - set->methods] += num(st, "usage");
	}
	(void)first_method;
	for (int k = 0; k < set->nmethods; k++)
		push(&set->methods[k].usage, method_usage[k]);
	return 0;
}

int ik_compare_load(const char *spec, struct ik_compare_set **out, char *err, size_t errlen)
{
	char path[4096];
	long pick = 0;

	snprintf(path, sizeof(path), "%s", spec);
	char *at = strrchr(path, '@');
	if (at && at[1]) {
		char *end;
		errno = 0;
		pick = strtol(at + 1, &end, 10);
		if (errno || *end || pick < 1)
			return fail(err, errlen, spec, "expected FILE or FILE@N with N a run number from 1");
		*at = '\0';
	}
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root) {
		if (jerr.line > 0)
			snprintf(err, errlen, "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column,
				 jerr.text);
		else
			snprintf(err, errlen, "%s: %s", path, jerr.text);
		return -1;
	}
	struct ik_compare_set *set = calloc(1, sizeof(*set));
	int rc = -1;
	if (!set) {
		fail(err, errlen, path, "out of memory");
		goto done;
	}
	const char *schema = json_string_value(json_object_get(root, "schema"));
	json_t *runs = json_object_get(root, "runs");
	if (!schema || strcmp(schema, "idlekit.sim/1") != 0 || !json_is_array(runs)) {
		fail(err, errlen, path, "expected the output of idlekit sim --json (schema idlekit.sim/1)");
		goto done;
	}
	if (pick > (long)json_array_size(runs)) {
		snprintf(err, errlen, "%s: run %ld asked for, the file has %zu", path, pick,
			 json_array_size(runs));
		goto done;
	}
	snprintf(set->label, sizeof(set->label), "%s", spec);
	size_t i;
	json_t *run;
	json_array_foreach(runs, i, run) {
		if (pick && (long)i + 1 != pick)
			continue;
		if (load_run(set, run, path, err, errlen))
			goto done;
	}
	if (set->fig[FIG_MB_S].n == 0) {
		fail(err, errlen, path, "no runs");
		goto done;
	}
	*out = set;
	set = NULL;
	rc = 0;
done:
	free(set);
	json_decref(root);
	return rc;
}

void ik_compare_free(struct ik_compare_set *set)
{
	free(set);
}

static void summarize(const struct series *s, struct ik_summary *sum)
{
	double clean[MAX_RUNS];
	int n = 0;
	for (int i = 0; i < s->n; i++)
		if (!isnan(s->v[i]))
			clean[n++] = s->v[i];
	ik_summarize(clean, n, sum);
}

/* "  value (+12.34%) *" for one column; the baseline shows its value and (0.00%). */
static void cell(FILE *out, double value, double base, const struct ik_summary *a,
		 const struct ik_summary *b, bool is_base, bool test)
{
	char pct[32] = "";
	if (is_base)
		snprintf(pct, sizeof(pct), "(  0.00%%)");
	else if (base != 0.0 && isfinite(value) && isfinite(base))
		snprintf(pct, sizeof(pct), "(%+7.2f%%)", 100.0 * (value - base) / fabs(base));
	else
		snprintf(pct, sizeof(pct), "(    n/a)");
	double p = is_base || !test ? NAN : ik_welch_p(a, b);
	fprintf(out, " %14.2f %-10s %c", value, pct, !isnan(p) && p < 0.05 ? '*' : ' ');
}

static void header(FILE *out, const char *title, struct ik_compare_set *const *sets, int n)
{
	fprintf(out, "\n%-28s", title);
	for (int k = 0; k < n; k++) {
		const char *l = sets[k]->label;
		size_t len = strlen(l);
		fprintf(out, " %27s", len > 27 ? l + len - 27 : l);
	}
	fputc('\n', out);
}

enum stat { ST_MIN, ST_MAX, ST_MEDIAN, ST_AMEAN, ST_HMEAN, ST_STDDEV, ST_COV };

static double pick_stat(const struct ik_summary *s, enum stat st)
{
	switch (st) {
	case ST_MIN: return s->min;
	case ST_MAX: return s->max;
	case ST_MEDIAN: return s->median;
	case ST_AMEAN: return s->amean;
	case ST_HMEAN: return s->hmean;
	case ST_STDDEV: return s->stddev;
	case ST_COV: return s->cov_pct;
	}
	return NAN;
}

static void row(FILE *out, const char *label, const struct series *const *per_set, int n,
		enum stat st)
{
	struct ik_summary base, cur;
	fprintf(out, "%-28s", label);
	summarize(per_set[0], &base);
	for (int k = 0; k < n; k++) {
		summarize(per_set[k], &cur);
		/* Only a mean's change can be tested for significance. */
		cell(out, pick_stat(&cur, st), pick_stat(&base, st), &base, &cur, k == 0,
		     st == ST_AMEAN || st == ST_HMEAN);
	}
	fputc('\n', out);
}

int ik_compare_report(FILE *out, struct ik_compare_set *const *sets, int n)
{
	const struct series *col[64];
	char label[64];

	if (n < 1 || n > 64)
		return -1;
	fprintf(out, "compare: %d result(s), baseline %s; %% change from the baseline, '*' = "
		     "significant (Welch's t-test, two-sided p < 0.05, needs 2+ runs each)\n",
		n, sets[0]->label);
	header(out, "runs", sets, n);
	fprintf(out, "%-28s", "");
	for (int k = 0; k < n; k++)
		fprintf(out, " %27d", sets[k]->fig[FIG_MB_S].n);
	fputc('\n', out);

	/* Throughput in seed 000's layout: every statistic. */
	static const struct {
		const char *name;
		enum stat st;
	} rows[] = { { "Min", ST_MIN },       { "Max", ST_MAX },       { "Median", ST_MEDIAN },
		     { "AMean", ST_AMEAN },   { "HMean", ST_HMEAN },   { "AMean Stddev", ST_STDDEV },
		     { "AMean CoefVar (%)", ST_COV } };
	for (int f = FIG_MB_S; f <= FIG_MSG_S; f++) {
		snprintf(label, sizeof(label), "%s (%s)", figs[f].name, figs[f].unit);
		header(out, label, sets, n);
		for (int k = 0; k < n; k++)
			col[k] = &sets[k]->fig[f];
		for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
			row(out, rows[r].name, col, n, rows[r].st);
	}

	header(out, "other figures (AMean)", sets, n);
	for (int f = FIG_WAKE_P50; f < NFIGS; f++) {
		for (int k = 0; k < n; k++)
			col[k] = &sets[k]->fig[f];
		snprintf(label, sizeof(label), "%s (%s)", figs[f].name, figs[f].unit);
		row(out, label, col, n, ST_AMEAN);
	}

	/* Per state, by name; a state missing from a result counts as empty. */
	static const struct series empty;
	header(out, "residency per state (%)", sets, n);
	for (int s = 0; s < sets[0]->nstates; s++) {
		for (int k = 0; k < n; k++) {
			col[k] = &empty;
			for (int j = 0; j < sets[k]->nstates; j++)
				if (strcmp(sets[k]->states[j].name, sets[0]->states[s].name) == 0)
					col[k] = &sets[k]->states[j].residency_pct;
		}
		row(out, sets[0]->states[s].name, col, n, ST_AMEAN);
	}
	header(out, "entries per state (per run)", sets, n);
	for (int s = 0; s < sets[0]->nstates; s++) {
		for (int k = 0; k < n; k++) {
			col[k] = &empty;
			for (int j = 0; j < sets[k]->nstates; j++)
				if (strcmp(sets[k]->states[j].name, sets[0]->states[s].name) == 0)
					col[k] = &sets[k]->states[j].usage;
		}
		row(out, sets[0]->states[s].name, col, n, ST_AMEAN);
	}
	header(out, "entries per method (per run)", sets, n);
	for (int s = 0; s < sets[0]->nmethods; s++) {
		for (int k = 0; k < n; k++) {
			col[k] = &empty;
			for (int j = 0; j < sets[k]->nmethods; j++)
				if (strcmp(sets[k]->methods[j].name, sets[0]->methods[s].name) == 0)
					col[k] = &sets[k]->methods[j].usage;
		}
		row(out, sets[0]->methods[s].name, col, n, ST_AMEAN);
	}
	return ferror(out) ? -1 : 0;
}

/* The HTML page (src/report/html.c draws it from these figures). */
int ik_compare_report_html(FILE *out, struct ik_compare_set *const *sets, int n)
{
	if (n < 1 || n > 64)
		return -1;
	struct ik_html_cmp_result *r = calloc((size_t)n, sizeof(*r));
	if (!r)
		return -1;
	for (int k = 0; k < n; k++) {
		const struct ik_compare_set *s = sets[k];
		r[k].label = s->label;
		r[k].nruns = s->fig[FIG_MB_S].n;
		r[k].mb_s = s->fig[FIG_MB_S].v;
		r[k].msg_s = s->fig[FIG_MSG_S].v;
		r[k].wake_p50_us = s->fig[FIG_WAKE_P50].v;
		r[k].wake_p99_us = s->fig[FIG_WAKE_P99].v;
		r[k].too_deep_pct = s->fig[FIG_TOO_DEEP].v;
		r[k].too_shallow_pct = s->fig[FIG_TOO_SHALLOW].v;
		for (int q = 0; q < IK_HTML_CMP_QUANTILES; q++)
			r[k].wake_q_us[q] = s->lat_q_runs ? s->lat_q_sum[q] / s->lat_q_runs / 1000.0 : NAN;
		r[k].idle_hist = s->has_idle_hist ? s->idle_hist : NULL;
		for (int j = 0; j < s->nstates && j < IK_HTML_CMP_STATES; j++) {
			struct ik_summary sum;
			summarize(&s->states[j].residency_pct, &sum);
			r[k].state_names[j] = s->states[j].name;
			r[k].residency_mean_pct[j] = sum.n > 0 ? sum.amean : 0.0;
			r[k].nstates = j + 1;
		}
	}
	int rc = ik_html_compare(out, r, n);
	free(r);
	return rc;
}
