/*
 * compare: reading result documents (docs/compare.md), by figure names.  Every "run object"
 * of a document (the runs of `sim --json`, the per-governor runs of `replay --json` schema
 * 2, or the whole document of `replay` schema 1 and `analyze`) gives one value per figure;
 * a figure a document does not have is missing, not zero.  "FILE@N" takes run N only (from
 * 1); "FILE@NAME" the run of governor NAME.
 *
 * Divisions: numbers and named figures; a run's figures (sim results, and a workload's own
 * figures by the descriptor list); the configuration a result records; the sets of results;
 * validate results (the measured side and the predicted side); loading one document
 * (ik__compare_load_text), several, and freeing them.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/compare_internal.h"
#include "util/errmsg.h"

const struct ik_cmp_fig ik__cmp_figs[NFIGS] = {
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

/* The largest result file compare reads: IDLEKIT_COMPARE_MAX_MB, else 512 MiB (a 1.2 GB
   file took 15 GB of memory to read). */
uint64_t ik__compare_max_bytes(void)
{
	const char *e = getenv("IDLEKIT_COMPARE_MAX_MB");
	char *end;
	unsigned long long mb = e ? strtoull(e, &end, 10) : 0;
	if (!e || end == e || *end || mb == 0 || mb > (1ull << 30))
		mb = 512;
	return (uint64_t)mb << 20;
}

static int fail(char *err, size_t errlen, const char *path, const char *what)
{
	return ik__errmsg(err, errlen, "%s: %s", path, what);
}

/* A figure present but not a number (a string, an object): the first one met in the run
   being read, for its message (a run must not drop out of the statistics unsaid). */
static _Thread_local const char *not_a_number;

static double num(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (v && !json_is_number(v) && !json_is_null(v) && !not_a_number)
		not_a_number = key;
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
static int load_run_figures(struct ik_compare_set *set, json_t *run, const char *path,
			    char *err, size_t errlen);

static int load_run(struct ik_compare_set *set, json_t *run, const char *path, char *err,
		    size_t errlen)
{
	not_a_number = NULL;
	int rc = load_run_figures(set, run, path, err, errlen);
	if (rc == 0 && not_a_number) {
		snprintf(err, errlen, "%s: a result's \"%s\": expected a number, got another JSON "
			 "type (the run would drop out of every statistic unsaid)", path, not_a_number);
		rc = -1;
	}
	return rc;
}

/*
 * A workload figure's direction from its name: rates of work done up, losses down, the
 * distributions (times) down; the rest (arrivals, the target) neither.
 */
int ik__cmp_wfig_better(const char *name)
{
	const char *k = strrchr(name, '.');
	k = k ? k + 1 : name;
	if (strstr(k, "_us") && (strstr(k, "_p50") || strstr(k, "_p90") || strstr(k, "_p99") ||
				 strstr(k, "_mean")))
		return -1;
	if (strncmp(name, "abs_error_pct.", 14) == 0) /* a validate result's error */
		return -1;
	if (strstr(k, "dropped") || strstr(k, "skipped") || strstr(k, "in_flight") ||
	    strstr(k, "missed") || strstr(k, "late"))
		return -1;
	if (strstr(k, "_per_s") || strcmp(k, "done") == 0 || strstr(k, "achieved"))
		return +1;
	return 0;
}

/* One value of run `runs` (from 1) of the workload figure name, made when new. */
static int add_wfig(struct ik_compare_set *set, int runs, const char *name, const char *unit,
		    double v)
{
	int i = 0;
	while (i < set->nwfigs && strcmp(set->wfigs[i].name, name) != 0)
		i++;
	if (i == set->nwfigs) {
		if (i == MAX_WFIGS)
			return -1;
		struct wfig *x = &set->wfigs[set->nwfigs++];
		snprintf(x->name, sizeof(x->name), "%s", name);
		snprintf(x->unit, sizeof(x->unit), "%s", unit);
		x->better = ik__cmp_wfig_better(name);
		x->s.n = 0;
	}
	struct series *s = &set->wfigs[i].s;
	while (s->n < runs - 1)
		push(s, NAN);
	if (s->n < runs)
		push(s, v);
	return 0;
}

/* The run's workload object (named by "workload_figures"): its numbers, and p50, p99 and
   p99.9 of each distribution (ns in the file, us here). */
static int load_workload_figures(struct ik_compare_set *set, json_t *run, int runs,
				 const char *path, char *err, size_t errlen)
{
	const char *wname = json_string_value(json_object_get(run, "workload_figures"));
	json_t *obj = wname ? json_object_get(run, wname) : NULL;
	const char *key;
	json_t *v;
	char name[80];
	if (!json_is_object(obj))
		return 0;
	json_object_foreach(obj, key, v) {
		if (json_is_number(v)) {
			size_t n = strlen(key);
			const char *unit = n > 4 && strcmp(key + n - 4, "_pct") == 0 ? "%" :
					   n > 6 && strcmp(key + n - 6, "_per_s") == 0 ? "1/s" : "count";
			snprintf(name, sizeof(name), "%.30s.%.40s", wname, key);
			if (add_wfig(set, runs, name, unit, json_number_value(v)))
				return fail(err, errlen, path, "too many workload figures");
		} else if (json_is_object(v) && json_is_number(json_object_get(v, "p50"))) {
			static const char *const qs[] = { "p50", "p99", "p99_9" };
			size_t n = strlen(key);
			int stem = n > 3 && strcmp(key + n - 3, "_ns") == 0 ? (int)n - 3 : (int)n;
			for (int q = 0; q < 3; q++) {
				snprintf(name, sizeof(name), "%.30s.%.*s_%s_us", wname, stem < 30 ? stem : 30,
					 key, qs[q]);
				if (add_wfig(set, runs, name, "us", num(v, qs[q]) / 1000.0))
					return fail(err, errlen, path, "too many workload figures");
			}
		}
	}
	return 0;
}

static int load_run_figures(struct ik_compare_set *set, json_t *run, const char *path,
			    char *err, size_t errlen)
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
			q[k] = num(wl, ik__html_cmp_quantile_keys[k]);
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
	if (load_workload_figures(set, run, runs, path, err, errlen))
		return -1;
	for (int k = 0; k < set->nwfigs; k++)
		while (set->wfigs[k].s.n < runs)
			push(&set->wfigs[k].s, NAN);
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
		/* a kernel: or plugin: governor's file contents, so that two results of the same
		   path with different files are told apart */
		const char *sha = json_string_value(json_object_get(json_object_get(root, "scenario"),
								    "governor_sha256"));
		if (sha)
			add_config(set, "governor_sha256", sha);
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

/* ---- validate results: the measured side and the predicted side ------------------------ */

/* A string of obj (or "" when absent), for the identity of a validate side. */
static const char *str_of(json_t *obj, const char *key)
{
	const char *v = json_string_value(json_object_get(obj, key));
	return v ? v : "";
}

/* The value of section.key among a sim document's config keys, or "". */
static const char *sim_config_value(json_t *sim, const char *section, const char *key)
{
	json_t *keys = json_object_get(json_object_get(sim, "config"), "keys");
	size_t i;
	json_t *k;
	json_array_foreach(keys, i, k)
		if (strcmp(str_of(k, "section"), section) == 0 && strcmp(str_of(k, "key"), key) == 0)
			return str_of(k, "value");
	return "";
}

/* One side's idle-duration histogram (summed over its runs in the file), when it has one. */
static int validate_hist(struct ik_compare_set *set, json_t *h, const char *path, char *err,
			 size_t errlen)
{
	if (json_is_null(h) || !h)
		return 0;
	if (!json_is_array(h) || json_array_size(h) != IK_IDLE_HIST_BUCKETS)
		return fail(err, errlen, path, "'idle_hist' of a side: expected null or an array of "
			    "the histogram's counts");
	for (int k = 0; k < IK_IDLE_HIST_BUCKETS; k++) {
		json_t *c = json_array_get(h, (size_t)k);
		if (!json_is_integer(c) || json_integer_value(c) < 0)
			return fail(err, errlen, path, "'idle_hist' holds something other than counts: "
				    "expected non-negative integers");
		set->idle_hist[k] = (uint64_t)json_integer_value(c);
	}
	set->has_idle_hist = true;
	return 0;
}

/*
 * An idlekit.validate/1 document as two results, FILE@measured and FILE@predicted (or the
 * one picked): each figure of its table a workload figure "validate.NAME" over that side's
 * runs, and on the predicted side the document's own error of each figure, as
 * "abs_error_pct.NAME" (|predicted - measured| / measured of the medians: lower is better),
 * so that two validate results (an imported and a calibrated platform) compare by error.
 */
static int load_validate(json_t *root, const char *path, const char *pick,
			 struct ik_compare_set **out, int max, int *nout, char *err,
			 size_t errlen)
{
	static const char *const side_name[2] = { "measured", "predicted" };
	json_t *figs = json_object_get(root, "figures");
	json_t *hist = json_object_get(root, "idle_hist");
	json_t *machine = json_object_get(root, "machine");
	json_t *workload = json_object_get(root, "workload");
	json_t *pred = json_object_get(root, "prediction");
	if (!json_is_array(figs) || !json_is_object(machine) || !json_is_object(workload))
		return fail(err, errlen, path, "an idlekit.validate/1 document without 'figures', "
			    "'machine' or 'workload': expected the output of idlekit validate --json");
	if (pick[0] && strcmp(pick, "measured") != 0 && strcmp(pick, "predicted") != 0)
		return ik__errmsg(err, errlen, "%s: @%s: a validate result has two sides, "
				  "@measured and @predicted", path, pick);
	int n = 0;
	for (int side = 0; side < 2; side++) {
		if (pick[0] && strcmp(pick, side_name[side]) != 0)
			continue;
		if (n == max)
			return fail(err, errlen, path, "too many results");
		char label[sizeof(out[0]->label)];
		snprintf(label, sizeof(label), "%.*s@%s", (int)sizeof(label) - 12, path,
			 side_name[side]);
		struct ik_compare_set *set = new_set(label, "idlekit.validate/1");
		if (!set)
			return fail(err, errlen, path, "out of memory");
		out[n++] = set;
		*nout = n;
		size_t i;
		json_t *f;
		json_array_foreach(figs, i, f) {
			const char *name = json_string_value(json_object_get(f, "name"));
			const char *unit = json_string_value(json_object_get(f, "unit"));
			json_t *runs = json_object_get(json_object_get(f, side_name[side]), "runs");
			if (!name || !unit || !json_is_array(runs))
				return fail(err, errlen, path, "a figure without 'name', 'unit' or "
					    "measured/predicted 'runs': expected idlekit validate's figures");
			char wname[80];
			snprintf(wname, sizeof(wname), "validate.%.60s", name);
			size_t r;
			json_t *v;
			json_array_foreach(runs, r, v) {
				if (!json_is_number(v) && !json_is_null(v))
					return fail(err, errlen, path, "a figure's run is not a number");
				if ((int)r + 1 > set->nruns)
					set->nruns = (int)r + 1;
				if (add_wfig(set, (int)r + 1, wname, unit,
					     json_is_number(v) ? json_number_value(v) : NAN))
					return fail(err, errlen, path, "too many figures");
			}
			if (side == 1) {
				double e = num(f, "error_pct");
				snprintf(wname, sizeof(wname), "abs_error_pct.%.60s", name);
				if (add_wfig(set, 1, wname, "%", isnan(e) ? NAN : fabs(e)))
					return fail(err, errlen, path, "too many figures");
			}
		}
		for (int k = 0; k < set->nwfigs; k++)
			while (set->wfigs[k].s.n < set->nruns)
				push(&set->wfigs[k].s, NAN);
		if (validate_hist(set, json_object_get(hist, side_name[side]), path, err, errlen))
			return -1;
		/* who ran it: the machine's kernel, driver and governor, or the model's */
		add_config(set, "workload", str_of(workload, "real"));
		add_config(set, "kernel", side ? sim_config_value(pred, "kernel", "version")
					       : str_of(machine, "kernel"));
		add_config(set, "driver", side ? sim_config_value(pred, "cpuidle", "driver")
					       : str_of(machine, "driver"));
		add_config(set, "governor", side ? sim_config_value(pred, "cpuidle", "governor")
						 : str_of(machine, "governor"));
	}
	return 0;
}

int ik__compare_load_text(const char *spec, const char *text, size_t len,
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
	struct stat st;
	uint64_t limit = ik__compare_max_bytes();
	if (!text && stat(path, &st) == 0 && (uint64_t)st.st_size > limit)
		return ik__errmsg(err, errlen, "%s: %.1f MB: larger than compare reads (%llu MB; "
				  "IDLEKIT_COMPARE_MAX_MB raises it: reading takes about 12 times "
				  "the file's size in memory)", path, (double)st.st_size / 1e6,
				  (unsigned long long)(limit >> 20));
	json_t *root = text ? json_loadb(text, len, 0, &jerr) : json_load_file(path, 0, &jerr);
	if (!root) {
		/* jansson quotes the input's bytes: ik__errmsg keeps the message one line */
		if (!jerr.text[0]) /* jansson says nothing when memory runs out */
			ik__errmsg(err, errlen, "%s: cannot read it: out of memory", path);
		else if (jerr.line > 0)
			ik__errmsg(err, errlen, "%s:%d:%d: not valid JSON: %s", path, jerr.line,
				   jerr.column, jerr.text);
		else
			ik__errmsg(err, errlen, "%s: %s", path, jerr.text);
		return -1;
	}
	const char *schema = json_string_value(json_object_get(root, "schema"));
	json_t *runs = json_object_get(root, "runs");
	if (schema && strcmp(schema, "idlekit.validate/1") == 0) {
		if (pick) {
			snprintf(err, errlen, "%s: a validate result has two sides, @measured and "
				 "@predicted, no @%ld", path, pick);
			goto done;
		}
		rc = load_validate(root, path, pick_name, out, max, &n, err, errlen);
		goto done;
	}
	bool per_governor = schema && strcmp(schema, "idlekit.replay/2") == 0;
	bool one_run = schema && (strcmp(schema, "idlekit.replay/1") == 0 ||
				  strcmp(schema, "idlekit.analyze/1") == 0);
	if (!schema || (!one_run && !json_is_array(runs)) ||
	    (!one_run && !per_governor && strcmp(schema, "idlekit.sim/1") != 0)) {
		fail(err, errlen, path, "expected the output of idlekit sim, replay, analyze or "
		     "validate --json (schema idlekit.sim/1, idlekit.replay/1 or /2, "
		     "idlekit.analyze/1, idlekit.validate/1)");
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

int ik__compare_load_many(const char *spec, struct ik_compare_set **out, int max, int *n,
			 char *err, size_t errlen)
{
	return ik__compare_load_text(spec, NULL, 0, out, max, n, err, errlen);
}

int ik__compare_load(const char *spec, struct ik_compare_set **out, char *err, size_t errlen)
{
	struct ik_compare_set *sets[64];
	int n;
	if (ik__compare_load_many(spec, sets, 64, &n, err, errlen))
		return -1;
	for (int k = 1; k < n; k++)
		free(sets[k]);
	*out = sets[0];
	return 0;
}

void ik__compare_free(struct ik_compare_set *set)
{
	free(set);
}
