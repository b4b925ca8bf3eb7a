/*
 * compare: result documents side by side, the first as the baseline (docs/compare.md).
 *
 * A result document is read generically, by figure names: every "run object" in it (the
 * runs of `sim --json`, the per-governor runs of `replay --json` schema 2, or the whole
 * document of `replay` schema 1 and `analyze`) gives one value per figure, and a figure a
 * document does not have is missing, not zero.  A replay document with several governors
 * is one result per governor.  "FILE@N" takes run N only (from 1); "FILE@NAME" the run of
 * governor NAME.
 *
 * Each figure is summarised over a result's runs.  Means change by a relative amount and
 * get Welch's t-test: the two-sided p-value and the 95% confidence interval of the
 * difference of means; '*' marks p < 0.05.  No test (and no mark) when either side has
 * fewer than two runs or neither has any spread.  Spreads (Stddev, CoefVar) change by an
 * absolute amount.  States are matched by name across results; one a result lacks is shown
 * as missing.  Results whose configurations differ are flagged, key by key.
 *
 * Divisions: loading results (runs, configuration, sets); the statistics; what to compare
 * (the rows); configuration differences; text; JSON and CSV; regression gates; HTML.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/textout.h"
#include "report/compare.h"
#include "config/config.h"
#include "report/html_internal.h"

#define MAX_RUNS 1000
#define MAX_NAMES 24
#define MAX_METHODS 5 /* what method_of() returns */
#define MAX_CONFIG 1024

/* A figure of every run of one result (NaN: the run does not have it). */
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
	FIG_ENERGY,
	FIG_TOO_DEEP,
	FIG_TOO_SHALLOW,
	FIG_ENTRIES,
	NFIGS,
};

/* better: +1 higher is better, -1 lower is better, 0 neither (no --fail-if) */
static const struct {
	const char *key, *label, *unit;
	int better;
} figs[NFIGS] = {
	[FIG_MB_S] = { "mb_per_s", "throughput", "MB/s", +1 },
	[FIG_MSG_S] = { "messages_per_s", "messages", "msg/s", +1 },
	[FIG_WAKE_P50] = { "wake_p50_us", "wake p50", "us", -1 },
	[FIG_WAKE_P99] = { "wake_p99_us", "wake p99", "us", -1 },
	[FIG_POWER] = { "avg_power_w", "avg power", "W", -1 },
	[FIG_ENERGY] = { "energy_j", "energy", "J", -1 },
	[FIG_TOO_DEEP] = { "too_deep_pct", "too deep", "% of entries", -1 },
	[FIG_TOO_SHALLOW] = { "too_shallow_pct", "too shallow", "% of entries", -1 },
	[FIG_ENTRIES] = { "idle_entries_per_cpu_per_s", "idle entries", "/CPU/s", 0 },
};

/* Per state (matched by name across results) and per entry method. */
struct named {
	char name[40];
	struct series residency_pct;
	struct series usage;
	struct series time_us;
};

struct config_kv {
	char key[IK_CONFIG_SECTION_LEN + IK_CONFIG_KEY_LEN + 1];
	char value[IK_CONFIG_VALUE_LEN];
};

struct ik_compare_set {
	char label[320];
	char schema[40];
	int nruns;
	struct series fig[NFIGS];
	int nstates;
	struct named states[MAX_NAMES];
	int nmethods;
	struct named methods[MAX_METHODS];
	/* the configuration: sim's config keys, else the document's identity (governor, ...) */
	bool has_config;
	int nconfig;
	struct config_kv config[MAX_CONFIG];
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

/* The first of two names the document has (sim's name, then analyze's). */
static double num2(json_t *obj, const char *key, const char *alt)
{
	double v = num(obj, key);
	return isnan(v) && alt ? num(obj, alt) : v;
}

static struct named *find_named(struct named *list, int *n, int max, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcmp(list[i].name, name) == 0)
			return &list[i];
	if (*n == max)
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

/* Pads a state's series to the run count (a state this run lacks: missing). */
static void pad_named(struct named *list, int n, int runs)
{
	for (int i = 0; i < n; i++) {
		while (list[i].residency_pct.n < runs)
			push(&list[i].residency_pct, NAN);
		while (list[i].usage.n < runs)
			push(&list[i].usage, NAN);
		while (list[i].time_us.n < runs)
			push(&list[i].time_us, NAN);
	}
}

/*
 * One run object: its figures by name.  States: sim and replay name them usage, time_us,
 * above, below (residency_pct in sim); analyze names them entries, total_us, too_deep,
 * too_shallow.  Accuracy: the run's "accuracy" object, else the share of entries counted
 * above (too deep) and below (too shallow), idlekit's one definition.
 */
static int load_run(struct ik_compare_set *set, json_t *run, const char *path, char *err,
		    size_t errlen)
{
	json_t *states = json_object_get(run, "states");
	if (!json_is_array(states)) {
		json_t *all = json_object_get(run, "all");
		states = json_is_object(all) ? json_object_get(all, "states") : NULL;
	}
	if (!json_is_array(states))
		return fail(err, errlen, path, "a result lacks 'states': expected the output of "
				  "idlekit sim, replay or analyze --json");
	json_t *tp = json_object_get(run, "throughput");
	json_t *wl = json_object_get(run, "wake_latency_ns");
	json_t *acc = json_object_get(run, "accuracy");
	int runs = set->nruns + 1;

	push(&set->fig[FIG_MB_S], json_is_object(tp) ? num(tp, "mb_per_s") : NAN);
	push(&set->fig[FIG_MSG_S], json_is_object(tp) ? num(tp, "messages_per_s") : NAN);
	push(&set->fig[FIG_WAKE_P50], json_is_object(wl) ? num(wl, "p50") / 1000.0 : NAN);
	push(&set->fig[FIG_WAKE_P99], json_is_object(wl) ? num(wl, "p99") / 1000.0 : NAN);
	push(&set->fig[FIG_POWER], num(run, "avg_power_w"));
	push(&set->fig[FIG_ENERGY], num(run, "energy_j"));
	push(&set->fig[FIG_ENTRIES], num(run, "idle_entries_per_cpu_per_s"));

	if (json_is_object(wl)) {
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
	double method_usage[MAX_NAMES] = { 0 };
	double entries = 0, above = 0, below = 0;
	bool counted = true;
	json_array_foreach(states, i, st) {
		const char *name = json_string_value(json_object_get(st, "name"));
		const char *desc = json_string_value(json_object_get(st, "desc"));
		if (!name)
			return fail(err, errlen, path, "a state has no 'name'");
		struct named *x = find_named(set->states, &set->nstates, MAX_NAMES, name);
		if (!x)
			return fail(err, errlen, path, "too many distinct state names");
		pad_named(x, 1, runs - 1);
		double usage = num2(st, "usage", "entries");
		double a = num2(st, "above", "too_deep"), b = num2(st, "below", "too_shallow");
		push(&x->residency_pct, num(st, "residency_pct"));
		push(&x->usage, usage);
		push(&x->time_us, num2(st, "time_us", "total_us"));
		if (isfinite(usage) && isfinite(a) && isfinite(b)) {
			entries += usage;
			above += a;
			below += b;
		} else {
			counted = false;
		}
		struct named *m = find_named(set->methods, &set->nmethods, MAX_METHODS,
					     method_of(name, desc ? desc : ""));
		if (!m)
			return fail(err, errlen, path, "too many entry methods");
		method_usage[m - set->methods] += isfinite(usage) ? usage : 0;
	}
	pad_named(set->states, set->nstates, runs);
	for (int k = 0; k < set->nmethods; k++) {
		while (set->methods[k].usage.n < runs - 1)
			push(&set->methods[k].usage, NAN);
		push(&set->methods[k].usage, method_usage[k]);
	}
	pad_named(set->methods, set->nmethods, runs);
	if (json_is_object(acc)) {
		push(&set->fig[FIG_TOO_DEEP], num(acc, "too_deep_pct"));
		push(&set->fig[FIG_TOO_SHALLOW], num(acc, "too_shallow_pct"));
	} else {
		push(&set->fig[FIG_TOO_DEEP], counted && entries > 0 ? 100.0 * above / entries : NAN);
		push(&set->fig[FIG_TOO_SHALLOW], counted && entries > 0 ? 100.0 * below / entries : NAN);
	}
	set->nruns = runs;
	return 0;
}

static void add_config(struct ik_compare_set *set, const char *key, const char *value)
{
	if (set->nconfig >= MAX_CONFIG)
		return;
	struct config_kv *kv = &set->config[set->nconfig++];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	snprintf(kv->value, sizeof(kv->value), "%s", value);
}

/* sim's "config" keys; else what a document says about itself (schema, governor, ...). */
static void load_config(struct ik_compare_set *set, json_t *root, json_t *run)
{
	json_t *cfg = json_object_get(root, "config");
	json_t *keys = json_is_object(cfg) ? json_object_get(cfg, "keys") : NULL;
	set->has_config = json_is_array(keys);
	if (set->has_config) {
		size_t i;
		json_t *k;
		json_array_foreach(keys, i, k) {
			const char *s = json_string_value(json_object_get(k, "section"));
			const char *key = json_string_value(json_object_get(k, "key"));
			const char *v = json_string_value(json_object_get(k, "value"));
			char name[sizeof(set->config[0].key)];
			if (!s || !key)
				continue;
			snprintf(name, sizeof(name), "%s.%s", s, key);
			add_config(set, name, v ? v : "(reader's default)");
		}
		return;
	}
	static const char *const identity[] = { "governor", "platform", "driver", "hz", "cpus" };
	for (size_t i = 0; i < sizeof(identity) / sizeof(identity[0]); i++) {
		json_t *v = json_object_get(run, identity[i]);
		if (!v)
			v = json_object_get(root, identity[i]);
		char buf[64];
		if (json_is_string(v))
			add_config(set, identity[i], json_string_value(v));
		else if (json_is_integer(v)) {
			snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
			add_config(set, identity[i], buf);
		}
	}
}

static struct ik_compare_set *new_set(const char *label, const char *schema)
{
	struct ik_compare_set *set = calloc(1, sizeof(*set));
	if (set) {
		snprintf(set->label, sizeof(set->label), "%.*s", (int)sizeof(set->label) - 1, label);
		snprintf(set->schema, sizeof(set->schema), "%s", schema);
	}
	return set;
}

int ik_compare_load_text(const char *spec, const char *text, size_t len,
			 struct ik_compare_set **out, int max, int *nout, char *err, size_t errlen)
{
	char path[4096], pick_name[64] = "";
	long pick = 0;
	int n = 0, rc = -1;

	*nout = 0;
	snprintf(path, sizeof(path), "%s", spec);
	char *at = strrchr(path, '@');
	if (at && at[1] && !strchr(at, '/')) {
		char *end;
		errno = 0;
		pick = strtol(at + 1, &end, 10);
		if (end == at + 1 && strlen(at + 1) < sizeof(pick_name)) {
			snprintf(pick_name, sizeof(pick_name), "%s", at + 1);
			pick = 0;
		} else if (errno || *end || pick < 1) {
			return fail(err, errlen, spec, "expected FILE, FILE@N with N a run number from 1, "
					  "or FILE@GOVERNOR");
		}
		*at = '\0';
	}
	json_error_t jerr;
	json_t *root = text ? json_loadb(text, len, 0, &jerr) : json_load_file(path, 0, &jerr);
	if (!root) {
		if (jerr.line > 0)
			snprintf(err, errlen, "%s:%d:%d: not valid JSON: %s", path, jerr.line, jerr.column,
				 jerr.text);
		else
			snprintf(err, errlen, "%s: %s", path, jerr.text);
		for (char *c = err; errlen && *c; c++) /* jansson quotes the input's bytes: one line */
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
		return -1;
	}
	const char *schema = json_string_value(json_object_get(root, "schema"));
	json_t *runs = json_object_get(root, "runs");
	bool per_governor = schema && strcmp(schema, "idlekit.replay/2") == 0;
	bool one_run = schema && (strcmp(schema, "idlekit.replay/1") == 0 ||
				  strcmp(schema, "idlekit.analyze/1") == 0);
	if (!schema || (!one_run && !json_is_array(runs)) ||
	    (!one_run && !per_governor && strcmp(schema, "idlekit.sim/1") != 0)) {
		fail(err, errlen, path, "expected the output of idlekit sim, replay or analyze --json "
		     "(schema idlekit.sim/1, idlekit.replay/1 or /2, idlekit.analyze/1)");
		goto done;
	}
	if (one_run) {
		if (pick > 1 || pick_name[0]) {
			snprintf(err, errlen, "%s: one result in a %s document, no @%s", path, schema,
				 at + 1);
			goto done;
		}
		out[0] = new_set(spec, schema);
		if (!out[0]) {
			fail(err, errlen, path, "out of memory");
			goto done;
		}
		n = 1;
		if (load_run(out[0], root, path, err, errlen))
			goto done;
		load_config(out[0], root, root);
		rc = 0;
		goto done;
	}
	if (pick > (long)json_array_size(runs)) {
		snprintf(err, errlen, "%s: run %ld asked for, the file has %zu", path, pick,
			 json_array_size(runs));
		goto done;
	}
	if (pick_name[0] && !per_governor) {
		snprintf(err, errlen, "%s: @%s: expected @N, a run number from 1 (runs are picked by "
			 "governor in replay documents only)", path, pick_name);
		goto done;
	}
	size_t i;
	json_t *run;
	json_array_foreach(runs, i, run) {
		if (pick && (long)i + 1 != pick)
			continue;
		const char *gov = json_string_value(json_object_get(run, "governor"));
		if (pick_name[0] && (!gov || strcmp(gov, pick_name) != 0))
			continue;
		if (per_governor || n == 0) {
			if (n == max) {
				fail(err, errlen, path, "too many results");
				goto done;
			}
			char label[256 + 64];
			if (per_governor && !pick && !pick_name[0])
				snprintf(label, sizeof(label), "%s@%s", spec, gov ? gov : "?");
			else
				snprintf(label, sizeof(label), "%s", spec);
			out[n] = new_set(label, schema);
			if (!out[n]) {
				fail(err, errlen, path, "out of memory");
				goto done;
			}
			load_config(out[n], root, run);
			n++;
		}
		if (load_run(out[n - 1], run, path, err, errlen))
			goto done;
	}
	if (n == 0) {
		if (pick_name[0])
			snprintf(err, errlen, "%s: no run of governor '%s'", path, pick_name);
		else
			fail(err, errlen, path, "no runs");
		goto done;
	}
	rc = 0;
done:
	if (rc != 0) {
		for (int k = 0; k < n; k++)
			free(out[k]);
		n = 0;
	}
	*nout = n;
	json_decref(root);
	return rc;
}

int ik_compare_load_many(const char *spec, struct ik_compare_set **out, int max, int *n,
			 char *err, size_t errlen)
{
	return ik_compare_load_text(spec, NULL, 0, out, max, n, err, errlen);
}

int ik_compare_load(const char *spec, struct ik_compare_set **out, char *err, size_t errlen)
{
	struct ik_compare_set *sets[64];
	int n;
	if (ik_compare_load_many(spec, sets, 64, &n, err, errlen))
		return -1;
	for (int k = 1; k < n; k++)
		free(sets[k]);
	*out = sets[0];
	return 0;
}

void ik_compare_free(struct ik_compare_set *set)
{
	free(set);
}

/* ---- the statistics ------------------------------------------------------------------ */

static void summarize(const struct series *s, struct ik_summary *sum)
{
	double clean[MAX_RUNS];
	int n = 0;
	for (int i = 0; i < s->n; i++)
		if (!isnan(s->v[i]))
			clean[n++] = s->v[i];
	ik_summarize(clean, n, sum);
}

enum stat { ST_MIN, ST_MAX, ST_MEDIAN, ST_AMEAN, ST_HMEAN, ST_STDDEV, ST_COV };

static double pick_stat(const struct ik_summary *s, enum stat st)
{
	if (s->n == 0)
		return NAN;
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

/* One result's figure against the baseline. */
struct change {
	double value, base;
	double abs;        /* value - base */
	double pct;        /* 100 * abs / |base|; NaN when base is 0 or missing */
	struct ik_welch w; /* on AMean only */
	bool significant;  /* tested and p < 0.05 */
	bool missing;      /* the result lacks the figure (or the state) */
};

static void change_of(const struct series *b, const struct series *c, enum stat st,
		      struct change *ch)
{
	struct ik_summary sb, sc;
	summarize(b, &sb);
	summarize(c, &sc);
	memset(ch, 0, sizeof(*ch));
	ch->value = pick_stat(&sc, st);
	ch->base = pick_stat(&sb, st);
	ch->missing = sc.n == 0;
	ch->abs = ch->value - ch->base;
	ch->pct = isfinite(ch->abs) && ch->base != 0.0 ? 100.0 * ch->abs / fabs(ch->base) : NAN;
	if (isfinite(ch->abs) && ch->abs == 0.0)
		ch->pct = 0.0;
	ch->w.p = ch->w.ci_low = ch->w.ci_high = NAN;
	if (st == ST_AMEAN && sb.n > 0 && sc.n > 0) {
		ik_welch_test(&sb, &sc, 0.95, &ch->w);
		ch->significant = ch->w.tested && ch->w.p < 0.05 && ch->abs != 0.0;
	}
}

/* ---- what to compare: the rows --------------------------------------------------------- */

enum row_kind { RK_FIGURE, RK_RESIDENCY, RK_USAGE, RK_TIME, RK_METHOD };

/* The series of row (kind, index) in a set, or NULL when the set does not have it. */
static const struct series *series_of(const struct ik_compare_set *set, enum row_kind kind,
				      int fig, const char *name)
{
	switch (kind) {
	case RK_FIGURE:
		return &set->fig[fig];
	case RK_METHOD:
		for (int j = 0; j < set->nmethods; j++)
			if (strcmp(set->methods[j].name, name) == 0)
				return &set->methods[j].usage;
		return NULL;
	default:
		for (int j = 0; j < set->nstates; j++)
			if (strcmp(set->states[j].name, name) == 0)
				return kind == RK_RESIDENCY ? &set->states[j].residency_pct
				     : kind == RK_USAGE	    ? &set->states[j].usage
							    : &set->states[j].time_us;
		return NULL;
	}
}

static bool series_has(const struct series *s)
{
	for (int i = 0; s && i < s->n; i++)
		if (!isnan(s->v[i]))
			return true;
	return false;
}

static bool any_has(struct ik_compare_set *const *sets, int n, enum row_kind kind, int fig,
		    const char *name)
{
	for (int k = 0; k < n; k++)
		if (series_has(series_of(sets[k], kind, fig, name)))
			return true;
	return false;
}

/* The union of the state (or method) names, the baseline's order first. */
static int name_union(struct ik_compare_set *const *sets, int n, bool methods,
		      const char *names[], int max)
{
	int count = 0;
	for (int k = 0; k < n; k++) {
		int m = methods ? sets[k]->nmethods : sets[k]->nstates;
		for (int s = 0; s < m; s++) {
			const char *name = methods ? sets[k]->methods[s].name : sets[k]->states[s].name;
			int j = 0;
			while (j < count && strcmp(names[j], name) != 0)
				j++;
			if (j == count && count < max)
				names[count++] = name;
		}
	}
	return count;
}

static const struct series empty_series;

static void row_change(struct ik_compare_set *const *sets, int k, enum row_kind kind, int fig,
		       const char *name, enum stat st, struct change *ch)
{
	const struct series *b = series_of(sets[0], kind, fig, name);
	const struct series *c = series_of(sets[k], kind, fig, name);
	change_of(b ? b : &empty_series, c ? c : &empty_series, st, ch);
}

/* ---- configuration differences -------------------------------------------------------- */

static const char *config_value(const struct ik_compare_set *s, const char *key)
{
	for (int i = 0; i < s->nconfig; i++)
		if (strcmp(s->config[i].key, key) == 0)
			return s->config[i].value;
	return NULL;
}

typedef void (*diff_fn)(void *user, int k, const char *key, const char *base, const char *value);

/* Every key whose value differs between the baseline and result k (either may lack it). */
static int config_diffs(struct ik_compare_set *const *sets, int k, diff_fn fn, void *user)
{
	const struct ik_compare_set *a = sets[0], *b = sets[k];
	int count = 0;
	for (int i = 0; i < a->nconfig; i++) {
		const char *v = config_value(b, a->config[i].key);
		if (!v || strcmp(v, a->config[i].value) != 0) {
			if (fn)
				fn(user, k, a->config[i].key, a->config[i].value, v);
			count++;
		}
	}
	for (int i = 0; i < b->nconfig; i++)
		if (!config_value(a, b->config[i].key)) {
			if (fn)
				fn(user, k, b->config[i].key, NULL, b->config[i].value);
			count++;
		}
	return count;
}

#define MAX_DIFFS_SHOWN 12
struct text_diff {
	FILE *out;
	int shown;
};

static void text_diff(void *user, int k, const char *key, const char *base, const char *value)
{
	struct text_diff *t = user;
	(void)k;
	if (t->shown++ < MAX_DIFFS_SHOWN)
		fprintf(t->out, "%s%s (%.40s -> %.40s)", t->shown > 1 ? ", " : "", key,
			base ? base : "absent", value ? value : "absent");
}

/* Warnings on `out`, each line starting "warning: ". */
static void warn_config(FILE *out, struct ik_compare_set *const *sets, int n)
{
	for (int k = 1; k < n; k++) {
		if (strcmp(sets[k]->schema, sets[0]->schema) != 0)
			fprintf(out, "warning: %s is a %s result, the baseline a %s one: only the "
				     "figures both have are compared\n", sets[k]->label, sets[k]->schema,
				sets[0]->schema);
		if (!sets[k]->has_config || !sets[0]->has_config) {
			if (sets[k]->has_config != sets[0]->has_config)
				fprintf(out, "warning: %s records no configuration: whether its "
					     "scenario differs cannot be checked\n",
					sets[k]->has_config ? sets[0]->label : sets[k]->label);
		}
		int d = config_diffs(sets, k, NULL, NULL);
		if (d == 0)
			continue;
		struct text_diff t = { out, 0 };
		fprintf(out, "warning: %s differs from the baseline in %d configuration key%s: ",
			sets[k]->label, d, d == 1 ? "" : "s");
		config_diffs(sets, k, text_diff, &t);
		if (d > MAX_DIFFS_SHOWN)
			fprintf(out, ", and %d more (--json lists them all)", d - MAX_DIFFS_SHOWN);
		fputc('\n', out);
	}
}

/* ---- text ------------------------------------------------------------------------------ */

#define COL_W 44

static void header(FILE *out, const char *title, struct ik_compare_set *const *sets, int n)
{
	fprintf(out, "\n%-30s", title);
	for (int k = 0; k < n; k++) {
		const char *l = sets[k]->label;
		size_t len = strlen(l);
		int w = k == 0 ? 16 : COL_W;
		fprintf(out, " %*s", w, (int)len > w ? l + len - w : l);
	}
	fputc('\n', out);
}

/* The fewer runs with the row's figure of the baseline and result k. */
static int series_runs(struct ik_compare_set *const *sets, int k, enum row_kind kind, int fig,
		       const char *name)
{
	int m[2] = { 0, 0 };
	const struct series *s[2] = { series_of(sets[0], kind, fig, name),
				      series_of(sets[k], kind, fig, name) };
	for (int j = 0; j < 2; j++)
		for (int i = 0; s[j] && i < s[j]->n; i++)
			m[j] += !isnan(s[j]->v[i]);
	return m[0] < m[1] ? m[0] : m[1];
}

/* One row: the baseline's value, then each result's value, change and mark. */
static void text_row(FILE *out, const char *label, struct ik_compare_set *const *sets, int n,
		     enum row_kind kind, int fig, const char *name, enum stat st)
{
	bool spread = st == ST_STDDEV || st == ST_COV;
	char cellbuf[128], chg[48];
	struct change ch;

	fprintf(out, "%-30s", label);
	for (int k = 0; k < n; k++) {
		row_change(sets, k, kind, fig, name, st, &ch);
		if (k == 0) {
			if (ch.missing)
				fprintf(out, " %16s", kind == RK_FIGURE ? "(missing)" : "(no such state)");
			else
				fprintf(out, " %16.2f", ch.value);
			continue;
		}
		if (ch.missing) {
			fprintf(out, " %*s", COL_W, kind == RK_FIGURE ? "(missing)" : "(no such state)");
			continue;
		}
		if (!isfinite(ch.base))
			snprintf(chg, sizeof(chg), "(no baseline)");
		else if (spread)
			snprintf(chg, sizeof(chg), "(%+.2f)", ch.abs);
		else if (isfinite(ch.pct))
			snprintf(chg, sizeof(chg), "(%+.2f%%)", ch.pct);
		else
			snprintf(chg, sizeof(chg), "(%+.2f)", ch.abs);
		snprintf(cellbuf, sizeof(cellbuf), "%.2f %s %c", ch.value, chg,
			 ch.significant ? '*' : ' ');
		fprintf(out, " %*s", COL_W, cellbuf);
	}
	fputc('\n', out);
	bool testable = false;
	for (int k = 1; k < n; k++)
		testable |= series_runs(sets, k, kind, fig, name) >= 2;
	if (st != ST_AMEAN || !testable)
		return;
	/* the test under each mean: p and the 95% interval of the difference */
	fprintf(out, "%-30s %16s", "  Welch p, 95% CI of diff", "");
	for (int k = 1; k < n; k++) {
		row_change(sets, k, kind, fig, name, st, &ch);
		if (ch.missing || !isfinite(ch.base))
			snprintf(cellbuf, sizeof(cellbuf), "-");
		else if (!ch.w.tested)
			snprintf(cellbuf, sizeof(cellbuf), "%s", ch.w.p == ch.w.p ? "" :
				 series_runs(sets, k, kind, fig, name) < 2 ? "no test (1 run)"
				 : ch.abs == 0.0 ? "no test (equal, no spread)" : "no test (no spread)");
		else if (ch.w.p < 0.0001)
			snprintf(cellbuf, sizeof(cellbuf), "p<0.0001 [%+.4g, %+.4g]", ch.w.ci_low,
				 ch.w.ci_high);
		else
			snprintf(cellbuf, sizeof(cellbuf), "p=%.4f [%+.4g, %+.4g]", ch.w.p, ch.w.ci_low,
				 ch.w.ci_high);
		fprintf(out, " %*s", COL_W, cellbuf);
	}
	fputc('\n', out);
}

int ik_compare_report(FILE *out, struct ik_compare_set *const *sets, int n)
{
	char label[96];
	static const struct {
		const char *name;
		enum stat st;
	} rows[] = { { "Min", ST_MIN },	      { "Max", ST_MAX },       { "Median", ST_MEDIAN },
		     { "AMean", ST_AMEAN },   { "HMean", ST_HMEAN },   { "Stddev", ST_STDDEV },
		     { "CoefVar (%)", ST_COV } };

	if (n < 1 || n > 64)
		return -1;
	fprintf(out, "compare: %d result(s), baseline %s\n"
		     "  change from the baseline: relative for means and order statistics, absolute "
		     "for Stddev and CoefVar\n"
		     "  '*': Welch's t-test on the means, two-sided p < 0.05 (needs 2+ runs on each "
		     "side and some spread)\n", n, sets[0]->label);
	warn_config(out, sets, n);
	header(out, "runs", sets, n);
	fprintf(out, "%-30s", "");
	for (int k = 0; k < n; k++)
		fprintf(out, " %*d", k == 0 ? 16 : COL_W, sets[k]->nruns);
	fputc('\n', out);

	/* Throughput in mmtests' layout: every statistic. */
	for (int f = FIG_MB_S; f <= FIG_MSG_S; f++) {
		if (!any_has(sets, n, RK_FIGURE, f, NULL))
			continue;
		snprintf(label, sizeof(label), "%s (%s)", figs[f].label, figs[f].unit);
		header(out, label, sets, n);
		for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
			text_row(out, rows[r].name, sets, n, RK_FIGURE, f, NULL, rows[r].st);
	}

	header(out, "other figures (AMean)", sets, n);
	for (int f = FIG_WAKE_P50; f < NFIGS; f++) {
		if (!any_has(sets, n, RK_FIGURE, f, NULL))
			continue;
		snprintf(label, sizeof(label), "%s (%s)", figs[f].label, figs[f].unit);
		text_row(out, label, sets, n, RK_FIGURE, f, NULL, ST_AMEAN);
	}

	/* Per state, by name, every state of every result. */
	const char *names[MAX_NAMES * 4];
	int ns = name_union(sets, n, false, names, MAX_NAMES * 4);
	static const struct {
		enum row_kind kind;
		const char *title;
	} state_rows[] = { { RK_RESIDENCY, "residency per state (%)" },
			   { RK_TIME, "time per state (us per run)" },
			   { RK_USAGE, "entries per state (per run)" } };
	for (size_t r = 0; r < sizeof(state_rows) / sizeof(state_rows[0]); r++) {
		bool any = false;
		for (int s = 0; s < ns; s++)
			any |= any_has(sets, n, state_rows[r].kind, 0, names[s]);
		if (!any)
			continue;
		header(out, state_rows[r].title, sets, n);
		for (int s = 0; s < ns; s++)
			text_row(out, names[s], sets, n, state_rows[r].kind, 0, names[s], ST_AMEAN);
	}
	int nm = name_union(sets, n, true, names, MAX_NAMES * 4);
	header(out, "entries per method (per run)", sets, n);
	for (int s = 0; s < nm; s++)
		text_row(out, names[s], sets, n, RK_METHOD, 0, names[s], ST_AMEAN);
	return ferror(out) ? -1 : 0;
}

/* ---- JSON and CSV ---------------------------------------------------------------------- */

/* A finite number, else null. */
static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *json_row(struct ik_compare_set *const *sets, int n, const char *figure,
			const char *unit, int better, enum row_kind kind, int fig, const char *name)
{
	json_t *row = json_object();
	json_object_set_new(row, "figure", json_string(figure));
	json_object_set_new(row, "unit", json_string(unit));
	json_object_set_new(row, "better", json_string(better > 0 ? "higher" : better < 0 ? "lower"
											   : "neither"));
	json_t *res = json_array();
	for (int k = 0; k < n; k++) {
		const struct series *s = series_of(sets[k], kind, fig, name);
		struct ik_summary sum;
		struct change ch;
		summarize(s ? s : &empty_series, &sum);
		row_change(sets, k, kind, fig, name, ST_AMEAN, &ch);
		json_t *o = json_object();
		json_object_set_new(o, "result", json_string(sets[k]->label));
		json_object_set_new(o, "n", json_integer(sum.n));
		json_object_set_new(o, "missing", json_boolean(sum.n == 0));
		json_object_set_new(o, "amean", jnum(pick_stat(&sum, ST_AMEAN)));
		json_object_set_new(o, "stddev", jnum(pick_stat(&sum, ST_STDDEV)));
		json_object_set_new(o, "min", jnum(pick_stat(&sum, ST_MIN)));
		json_object_set_new(o, "max", jnum(pick_stat(&sum, ST_MAX)));
		json_object_set_new(o, "median", jnum(pick_stat(&sum, ST_MEDIAN)));
		if (k > 0) {
			struct change sd;
			row_change(sets, k, kind, fig, name, ST_STDDEV, &sd);
			json_object_set_new(o, "change", jnum(ch.abs));
			json_object_set_new(o, "change_pct", jnum(ch.pct));
			json_object_set_new(o, "stddev_change", jnum(sd.abs));
			json_object_set_new(o, "p_value", jnum(ch.w.p));
			json_object_set_new(o, "ci95_low", jnum(ch.w.ci_low));
			json_object_set_new(o, "ci95_high", jnum(ch.w.ci_high));
			json_object_set_new(o, "significant", json_boolean(ch.significant));
		}
		json_array_append_new(res, o);
	}
	json_object_set_new(row, "results", res);
	return row;
}

struct json_diff {
	json_t *list;
	struct ik_compare_set *const *sets;
};

static void json_diff(void *user, int k, const char *key, const char *base, const char *value)
{
	struct json_diff *d = user;
	json_t *o = json_object();
	json_object_set_new(o, "result", json_string(d->sets[k]->label));
	json_object_set_new(o, "key", json_string(key));
	json_object_set_new(o, "baseline", base ? json_string(base) : json_null());
	json_object_set_new(o, "value", value ? json_string(value) : json_null());
	json_array_append_new(d->list, o);
}

/* Every row as one list: the figures, then per state residency, time and entries. */
static json_t *all_rows(struct ik_compare_set *const *sets, int n)
{
	json_t *rows = json_array();
	char figure[80];
	for (int f = 0; f < NFIGS; f++)
		if (any_has(sets, n, RK_FIGURE, f, NULL))
			json_array_append_new(rows, json_row(sets, n, figs[f].key, figs[f].unit,
							     figs[f].better, RK_FIGURE, f, NULL));
	const char *names[MAX_NAMES * 4];
	int ns = name_union(sets, n, false, names, MAX_NAMES * 4);
	static const struct {
		enum row_kind kind;
		const char *suffix, *unit;
	} kinds[] = { { RK_RESIDENCY, "residency_pct", "%" },
		      { RK_TIME, "time_us", "us" },
		      { RK_USAGE, "usage", "entries" } };
	for (size_t r = 0; r < sizeof(kinds) / sizeof(kinds[0]); r++)
		for (int s = 0; s < ns; s++) {
			if (!any_has(sets, n, kinds[r].kind, 0, names[s]))
				continue;
			snprintf(figure, sizeof(figure), "%s.%s", names[s], kinds[r].suffix);
			json_array_append_new(rows, json_row(sets, n, figure, kinds[r].unit, 0,
							     kinds[r].kind, 0, names[s]));
		}
	return rows;
}

int ik_compare_report_json(FILE *out, struct ik_compare_set *const *sets, int n)
{
	if (n < 1 || n > 64)
		return -1;
	json_t *root = json_object();
	json_object_set_new(root, "schema", json_string("idlekit.compare/1"));
	json_object_set_new(root, "baseline", json_string(sets[0]->label));
	json_t *results = json_array();
	for (int k = 0; k < n; k++) {
		json_t *o = json_object();
		json_object_set_new(o, "result", json_string(sets[k]->label));
		json_object_set_new(o, "schema", json_string(sets[k]->schema));
		json_object_set_new(o, "runs", json_integer(sets[k]->nruns));
		json_object_set_new(o, "has_config", json_boolean(sets[k]->has_config));
		json_array_append_new(results, o);
	}
	json_object_set_new(root, "results", results);
	struct json_diff d = { json_array(), sets };
	for (int k = 1; k < n; k++)
		config_diffs(sets, k, json_diff, &d);
	json_object_set_new(root, "config_differences", d.list);
	json_object_set_new(root, "figures", all_rows(sets, n));
	int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', out);
	json_decref(root);
	return rc == 0 && !ferror(out) ? 0 : -1;
}

static void csv_num(FILE *out, json_t *v, int decimals)
{
	fputc(',', out);
	if (json_is_number(v))
		fprintf(out, "%.*f", decimals, json_number_value(v));
}

int ik_compare_report_csv(FILE *out, struct ik_compare_set *const *sets, int n)
{
	if (n < 1 || n > 64)
		return -1;
	json_t *rows = all_rows(sets, n);
	size_t i;
	json_t *row;
	fputs("figure,unit,better,result,n,amean,stddev,min,max,median,change,change_pct,"
	      "stddev_change,p_value,ci95_low,ci95_high,significant\n", out);
	json_array_foreach(rows, i, row) {
		size_t k;
		json_t *r;
		json_array_foreach(json_object_get(row, "results"), k, r) {
			ik_csv_text(out, json_string_value(json_object_get(row, "figure")), SIZE_MAX);
			fputc(',', out);
			ik_csv_text(out, json_string_value(json_object_get(row, "unit")), SIZE_MAX);
			fputc(',', out);
			ik_csv_text(out, json_string_value(json_object_get(row, "better")), SIZE_MAX);
			fputc(',', out);
			ik_csv_text(out, json_string_value(json_object_get(r, "result")), SIZE_MAX);
			fprintf(out, ",%lld", (long long)json_integer_value(json_object_get(r, "n")));
			static const char *const keys[] = { "amean", "stddev", "min", "max", "median",
							    "change", "change_pct", "stddev_change" };
			for (size_t j = 0; j < sizeof(keys) / sizeof(keys[0]); j++)
				csv_num(out, json_object_get(r, keys[j]), 4);
			csv_num(out, json_object_get(r, "p_value"), 6);
			csv_num(out, json_object_get(r, "ci95_low"), 4);
			csv_num(out, json_object_get(r, "ci95_high"), 4);
			json_t *sig = json_object_get(r, "significant");
			fprintf(out, ",%s\n", !sig ? "" : json_is_true(sig) ? "yes" : "no");
		}
	}
	json_decref(rows);
	return ferror(out) ? -1 : 0;
}

/* ---- regression gates ------------------------------------------------------------------ */

int ik_compare_parse_gate(const char *text, struct ik_compare_gate *g, char *err, size_t errlen)
{
	const char *colon = strchr(text, ':');
	static const char mid[] = ":worse-than:";
	memset(g, 0, sizeof(*g));
	g->figure = -1;
	if (colon) {
		for (int f = 0; f < NFIGS; f++)
			if (strlen(figs[f].key) == (size_t)(colon - text) &&
			    strncmp(text, figs[f].key, (size_t)(colon - text)) == 0)
				g->figure = f;
	}
	if (g->figure < 0 || figs[g->figure].better == 0) {
		snprintf(err, errlen, "--fail-if %s: expected FIGURE:worse-than:PCT with FIGURE one of "
			 "mb_per_s messages_per_s (higher is better) wake_p50_us wake_p99_us "
			 "avg_power_w energy_j too_deep_pct too_shallow_pct (lower is better)", text);
		return -1;
	}
	if (strncmp(colon, mid, strlen(mid)) != 0) {
		snprintf(err, errlen, "--fail-if %s: expected FIGURE:worse-than:PCT, e.g. "
			 "mb_per_s:worse-than:5", text);
		return -1;
	}
	const char *p = colon + strlen(mid);
	char *end;
	errno = 0;
	g->pct = strtod(p, &end);
	if (end == p || *end || errno || !isfinite(g->pct) || g->pct < 0 || g->pct > 1e6) {
		snprintf(err, errlen, "--fail-if %s: expected a percentage 0..1000000 after "
			 "'worse-than:', got '%s'", text, p);
		return -1;
	}
	return 0;
}

int ik_compare_check_gates(FILE *msg, struct ik_compare_set *const *sets, int n,
			   const struct ik_compare_gate *gates, int ngates)
{
	int failed = 0;
	for (int g = 0; g < ngates; g++) {
		int f = gates[g].figure;
		for (int k = 1; k < n; k++) {
			struct change ch;
			row_change(sets, k, RK_FIGURE, f, NULL, ST_AMEAN, &ch);
			if (ch.missing || !isfinite(ch.base)) {
				fprintf(msg, "idlekit compare: --fail-if %s: %s has no %s to check\n",
					figs[f].key, ch.missing ? sets[k]->label : sets[0]->label,
					figs[f].key);
				failed = 1;
				continue;
			}
			double worse = figs[f].better > 0 ? -ch.abs : ch.abs; /* > 0: worse */
			double worse_pct = ch.base != 0.0 ? 100.0 * worse / fabs(ch.base)
					 : worse > 0 ? INFINITY : 0.0;
			if (worse_pct > gates[g].pct) {
				fprintf(msg, "idlekit compare: --fail-if %s:worse-than:%g: %s is %.2f%% "
					     "worse than the baseline (%s %.4g -> %.4g, %s is better)\n",
					figs[f].key, gates[g].pct, sets[k]->label, worse_pct, figs[f].key,
					ch.base, ch.value, figs[f].better > 0 ? "higher" : "lower");
				failed = 1;
			}
		}
	}
	return failed;
}

/* ---- HTML ------------------------------------------------------------------------------ */

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
		r[k].nruns = s->nruns;
		r[k].mb_s = s->fig[FIG_MB_S].v;
		r[k].msg_s = s->fig[FIG_MSG_S].v;
		r[k].wake_p50_us = s->fig[FIG_WAKE_P50].v;
		r[k].wake_p99_us = s->fig[FIG_WAKE_P99].v;
		r[k].too_deep_pct = s->fig[FIG_TOO_DEEP].v;
		r[k].too_shallow_pct = s->fig[FIG_TOO_SHALLOW].v;
		r[k].avg_power_w = s->fig[FIG_POWER].v;
		r[k].energy_j = s->fig[FIG_ENERGY].v;
		for (int f = 0; f < IK_HTML_CMP_FIGURES && k > 0; f++) {
			static const enum fig order[IK_HTML_CMP_FIGURES] = {
				FIG_MB_S, FIG_MSG_S, FIG_WAKE_P50, FIG_WAKE_P99,
				FIG_TOO_DEEP, FIG_TOO_SHALLOW, FIG_POWER, FIG_ENERGY,
			};
			struct change ch;
			row_change(sets, k, RK_FIGURE, order[f], NULL, ST_AMEAN, &ch);
			r[k].significant[f] = ch.significant;
			r[k].p_value[f] = ch.w.p;
		}
		for (int q = 0; q < IK_HTML_CMP_QUANTILES; q++)
			r[k].wake_q_us[q] = s->lat_q_runs ? s->lat_q_sum[q] / s->lat_q_runs / 1000.0 : NAN;
		r[k].idle_hist = s->has_idle_hist ? s->idle_hist : NULL;
		for (int j = 0; j < s->nstates && j < IK_HTML_CMP_STATES; j++) {
			struct ik_summary sum;
			summarize(&s->states[j].residency_pct, &sum);
			if (sum.n == 0) /* a document without residency_pct (replay, analyze) */
				continue;
			r[k].state_names[r[k].nstates] = s->states[j].name;
			r[k].residency_mean_pct[r[k].nstates] = sum.amean;
			r[k].nstates++;
		}
	}
	int rc = ik_html_compare(out, r, n);
	free(r);
	return rc;
}
