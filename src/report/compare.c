/*
 * compare: result documents side by side, the first as the baseline (docs/compare.md).
 * (Reading them: compare_load.c.)
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
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare_internal.h"
#include "report/textout.h"
#include "util/errmsg.h"

/* ---- the statistics ------------------------------------------------------------------ */

static void summarize(const struct series *s, struct ik_summary *sum)
{
	double clean[MAX_RUNS];
	int n = 0;
	for (int i = 0; i < s->n; i++)
		if (!isnan(s->v[i]))
			clean[n++] = s->v[i];
	ik__summarize(clean, n, sum);
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
		ik__welch_test(&sb, &sc, 0.95, &ch->w);
		ch->significant = ch->w.tested && ch->w.p < 0.05 && ch->abs != 0.0;
	}
}

/* ---- what to compare: the rows --------------------------------------------------------- */

enum row_kind { RK_FIGURE, RK_RESIDENCY, RK_USAGE, RK_TIME, RK_METHOD, RK_WORKLOAD };

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
	case RK_WORKLOAD:
		for (int j = 0; j < set->nwfigs; j++)
			if (strcmp(set->wfigs[j].name, name) == 0)
				return &set->wfigs[j].s;
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

/* The workload figures of all results, in the order first seen (each result's own order). */
static int wfig_union(struct ik_compare_set *const *sets, int n, const struct wfig *figs[],
		      int max)
{
	int count = 0;
	for (int k = 0; k < n; k++)
		for (int s = 0; s < sets[k]->nwfigs; s++) {
			int j = 0;
			while (j < count && strcmp(figs[j]->name, sets[k]->wfigs[s].name) != 0)
				j++;
			if (j == count && count < max)
				figs[count++] = &sets[k]->wfigs[s];
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

/* A configuration value in a warning: whole up to 100 bytes, else its tail (a path's tail
   names the file). */
static void print_value(FILE *out, const char *v)
{
	if (!v) {
		fputs("absent", out);
		return;
	}
	size_t len = strlen(v);
	if (len > 100)
		fprintf(out, "...%s", v + len - 97);
	else
		fputs(v, out);
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
	if (t->shown++ < MAX_DIFFS_SHOWN) {
		fprintf(t->out, "%s%s (", t->shown > 1 ? ", " : "", key);
		print_value(t->out, base);
		fputs(" -> ", t->out);
		print_value(t->out, value);
		fputc(')', t->out);
	}
}

/* Warnings that say what a configuration difference means for the comparison: another
   kernel release (its governors decide as that release's code), or the same governor file
   path with other contents. */
static void warn_meaning(FILE *out, struct ik_compare_set *const *sets, int k)
{
	const char *rb = config_value(sets[0], "kernel.version");
	const char *rk = config_value(sets[k], "kernel.version");
	if (rb && rk && strcmp(rb, rk) != 0)
		fprintf(out, "warning: %s ran kernel release %s, the baseline %s: the governors and "
			     "the core decide as each release's code, so a difference may be the "
			     "release's, not the change's (idlekit kernel show %s; --set "
			     "kernel.version=%s gives the same release)\n", sets[k]->label, rk, rb,
			rk, rb);
	const char *gb = config_value(sets[0], "cpuidle.governor");
	const char *gk = config_value(sets[k], "cpuidle.governor");
	const char *hb = config_value(sets[0], "governor_sha256");
	const char *hk = config_value(sets[k], "governor_sha256");
	if (gb && gk && strcmp(gb, gk) == 0 && hb && hk && strcmp(hb, hk) != 0)
		fprintf(out, "warning: %s and the baseline name the same governor %s, but its file "
			     "differed (sha256 %.12s... here, %.12s... in the baseline): they ran "
			     "different code\n", sets[k]->label, gk, hk, hb);
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
		warn_meaning(out, sets, k);
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

/* What a result lacking the row's figure shows: a state it does not have, or the figure. */
static const char *missing_text(enum row_kind kind)
{
	return kind == RK_RESIDENCY || kind == RK_USAGE || kind == RK_TIME ? "(no such state)"
									     : "(missing)";
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
				fprintf(out, " %16s", missing_text(kind));
			else
				fprintf(out, " %16.2f", ch.value);
			continue;
		}
		if (ch.missing) {
			fprintf(out, " %*s", COL_W, missing_text(kind));
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

int ik__compare_report(FILE *out, struct ik_compare_set *const *sets, int n)
{
	char label[128];
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
		snprintf(label, sizeof(label), "%s (%s)", ik__cmp_figs[f].label, ik__cmp_figs[f].unit);
		header(out, label, sets, n);
		for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
			text_row(out, rows[r].name, sets, n, RK_FIGURE, f, NULL, rows[r].st);
	}

	bool other = false;
	for (int f = FIG_WAKE_P50; f < NFIGS; f++)
		other |= any_has(sets, n, RK_FIGURE, f, NULL);
	if (other)
		header(out, "other figures (AMean)", sets, n);
	for (int f = FIG_WAKE_P50; f < NFIGS; f++) {
		if (!any_has(sets, n, RK_FIGURE, f, NULL))
			continue;
		snprintf(label, sizeof(label), "%s (%s)", ik__cmp_figs[f].label, ik__cmp_figs[f].unit);
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
	/* The workload's own figures, named as in its JSON object (distributions in us). */
	const struct wfig *wf[MAX_WFIGS * 4];
	int nw = wfig_union(sets, n, wf, MAX_WFIGS * 4);
	if (nw > 0) {
		header(out, "the workload's figures (AMean)", sets, n);
		for (int f = 0; f < nw; f++) {
			snprintf(label, sizeof(label), "%s (%s)", wf[f]->name, wf[f]->unit);
			text_row(out, label, sets, n, RK_WORKLOAD, 0, wf[f]->name, ST_AMEAN);
		}
	}
	int nm = name_union(sets, n, true, names, MAX_NAMES * 4);
	if (nm > 0)
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
			json_array_append_new(rows, json_row(sets, n, ik__cmp_figs[f].key, ik__cmp_figs[f].unit,
							     ik__cmp_figs[f].better, RK_FIGURE, f, NULL));
	const struct wfig *wf[MAX_WFIGS * 4];
	int nw = wfig_union(sets, n, wf, MAX_WFIGS * 4);
	for (int f = 0; f < nw; f++)
		json_array_append_new(rows, json_row(sets, n, wf[f]->name, wf[f]->unit, wf[f]->better,
						     RK_WORKLOAD, 0, wf[f]->name));
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

int ik__compare_report_json(FILE *out, struct ik_compare_set *const *sets, int n)
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

int ik__compare_report_csv(FILE *out, struct ik_compare_set *const *sets, int n)
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
			ik__csv_text(out, json_string_value(json_object_get(row, "figure")), SIZE_MAX);
			fputc(',', out);
			ik__csv_text(out, json_string_value(json_object_get(row, "unit")), SIZE_MAX);
			fputc(',', out);
			ik__csv_text(out, json_string_value(json_object_get(row, "better")), SIZE_MAX);
			fputc(',', out);
			ik__csv_text(out, json_string_value(json_object_get(r, "result")), SIZE_MAX);
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

int ik__compare_parse_gate(const char *text, struct ik_compare_gate *g, char *err, size_t errlen)
{
	const char *colon = strchr(text, ':');
	static const char mid[] = ":worse-than:";
	memset(g, 0, sizeof(*g));
	g->figure = -1;
	if (colon) {
		for (int f = 0; f < NFIGS; f++)
			if (strlen(ik__cmp_figs[f].key) == (size_t)(colon - text) &&
			    strncmp(text, ik__cmp_figs[f].key, (size_t)(colon - text)) == 0)
				g->figure = f;
		/* a workload's figure: OBJECT.KEY as compare lists it, or a looser spelling
		   of it (ik__compare_resolve_gates, once the results are read) */
		size_t len = (size_t)(colon - text);
		bool word = len > 0 && len < sizeof(g->name);
		bool dotted = memchr(text, '.', len) != NULL; /* OBJECT.KEY: any key's text */
		for (size_t i = 0; word && !dotted && i < len; i++)
			word = isalnum((unsigned char)text[i]) || text[i] == '_';
		if (g->figure < 0 && word) {
			snprintf(g->name, sizeof(g->name), "%.*s", (int)len, text);
			g->better = ik__cmp_wfig_better(g->name);
		}
	}
	bool fixed_ok = g->figure >= 0 && ik__cmp_figs[g->figure].better != 0;
	if (!fixed_ok && !g->name[0])
		return ik__errmsg(err, errlen, "--fail-if %s: expected FIGURE:worse-than:PCT with "
				  "FIGURE one of mb_per_s messages_per_s (higher is better) "
				  "wake_p50_us wake_p99_us avg_power_w energy_j too_deep_pct "
				  "too_shallow_pct (lower is better), or a workload's figure as "
				  "compare lists it with a better side, e.g. "
				  "requests.latency_p99_us or requests.requests_per_s", text);
	if (fixed_ok)
		g->better = ik__cmp_figs[g->figure].better;
	if (strncmp(colon, mid, strlen(mid)) != 0)
		return ik__errmsg(err, errlen, "--fail-if %s: expected FIGURE:worse-than:PCT, e.g. "
				  "mb_per_s:worse-than:5", text);
	const char *p = colon + strlen(mid);
	char *end;
	errno = 0;
	g->pct = strtod(p, &end);
	if (end == p || *end || errno || !isfinite(g->pct) || g->pct < 0 || g->pct > 1e6)
		return ik__errmsg(err, errlen, "--fail-if %s: expected a percentage 0..1000000 "
				  "after 'worse-than:', got '%s'", text, p);
	return 0;
}

/* The words of a figure's name, for a loose match: lower case, split at '.' and '_',
   units (us, ns, ms, pct) left out and a plural's 's' dropped (requests.latency_p99_us
   and request_latency_p99 are the same words).  from_dot: only the words after the
   object's name.  The words joined by ' ' into buf. */
static void name_words(const char *name, bool from_dot, char *buf, size_t len)
{
	const char *dot = strchr(name, '.');
	const char *p = from_dot && dot ? dot + 1 : name;
	size_t n = 0;
	buf[0] = '\0';
	while (*p) {
		size_t w = strcspn(p, "._");
		char word[80];
		snprintf(word, sizeof(word), "%.*s", (int)(w < sizeof(word) - 1 ? w : sizeof(word) - 1), p);
		for (char *c = word; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		size_t wl = strlen(word);
		if (wl > 3 && word[wl - 1] == 's' && word[wl - 2] != 's')
			word[wl - 1] = '\0';
		bool unit = !strcmp(word, "us") || !strcmp(word, "ns") || !strcmp(word, "ms") ||
			    !strcmp(word, "pct");
		if (wl && !unit && n + strlen(word) + 2 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", word);
		p += w;
		if (*p)
			p++;
	}
}

int ik__compare_resolve_gates(FILE *msg, struct ik_compare_set *const *sets, int n,
			     struct ik_compare_gate *gates, int ngates, char *err, size_t errlen)
{
	for (int g = 0; g < ngates; g++) {
		struct ik_compare_gate *x = &gates[g];
		if (x->figure >= 0)
			continue;
		const struct wfig *exact = NULL, *loose = NULL;
		int nloose = 0;
		char want[160], have[160], also[160], list[600] = "";
		name_words(x->name, false, want, sizeof(want));
		for (int k = 0; k < n && !exact; k++)
			for (int i = 0; i < sets[k]->nwfigs && !exact; i++)
				if (!strcmp(sets[k]->wfigs[i].name, x->name))
					exact = &sets[k]->wfigs[i];
		/* the baseline's figures only: a gate compares the others with it */
		for (int i = 0; !exact && i < sets[0]->nwfigs; i++) {
			const struct wfig *w = &sets[0]->wfigs[i];
			name_words(w->name, false, have, sizeof(have));
			name_words(w->name, true, also, sizeof(also));
			if (w->better && (!strcmp(want, have) || !strcmp(want, also))) {
				nloose++;
				if (nloose > 1)
					strncat(list, ", ", sizeof(list) - strlen(list) - 1);
				strncat(list, w->name, sizeof(list) - strlen(list) - 1);
				loose = w;
			}
		}
		if (!exact && nloose == 1) {
			fprintf(msg, "idlekit compare: --fail-if %s: taken as %s (%s)\n", x->name,
				loose->name, loose->unit);
			snprintf(x->name, sizeof(x->name), "%s", loose->name);
			exact = loose;
		}
		if (!exact) {
			if (nloose > 1)
				snprintf(err, errlen, "--fail-if %s: more than one figure goes by that "
					 "name (%s): give one in full", x->name, list);
			else
				snprintf(err, errlen, "--fail-if %s: no such figure in %s (its figures "
					 "are listed by idlekit compare %s; compare's own: mb_per_s "
					 "messages_per_s wake_p50_us wake_p99_us avg_power_w energy_j "
					 "too_deep_pct too_shallow_pct)", x->name, sets[0]->label,
					 sets[0]->label);
			return -1;
		}
		x->better = exact->better;
		if (x->better == 0)
			return ik__errmsg(err, errlen, "--fail-if %s: the figure has no better "
					  "side (neither higher nor lower is better), so it cannot "
					  "be worse", x->name);
	}
	return 0;
}

int ik__compare_check_gates(FILE *msg, struct ik_compare_set *const *sets, int n,
			   const struct ik_compare_gate *gates, int ngates)
{
	int failed = 0;
	for (int g = 0; g < ngates; g++) {
		int f = gates[g].figure;
		bool wl = f < 0;
		const char *key = wl ? gates[g].name : ik__cmp_figs[f].key;
		for (int k = 1; k < n; k++) {
			struct change ch;
			row_change(sets, k, wl ? RK_WORKLOAD : RK_FIGURE, wl ? 0 : f, key, ST_AMEAN, &ch);
			if (ch.missing || !isfinite(ch.base)) {
				fprintf(msg, "idlekit compare: --fail-if %s: %s has no %s to check\n", key,
					ch.missing ? sets[k]->label : sets[0]->label, key);
				failed = 1;
				continue;
			}
			double worse = gates[g].better > 0 ? -ch.abs : ch.abs; /* > 0: worse */
			double worse_pct = ch.base != 0.0 ? 100.0 * worse / fabs(ch.base)
					 : worse > 0 ? INFINITY : 0.0;
			if (worse_pct > gates[g].pct) {
				fprintf(msg, "idlekit compare: --fail-if %s:worse-than:%g: %s is %.2f%% "
					     "worse than the baseline (%s %.4g -> %.4g, %s is better)\n",
					key, gates[g].pct, sets[k]->label, worse_pct, key, ch.base, ch.value,
					gates[g].better > 0 ? "higher" : "lower");
				failed = 1;
			}
		}
	}
	return failed;
}

/* ---- HTML ------------------------------------------------------------------------------ */

/* The HTML page (src/report/html.c draws it from these figures). */
int ik__compare_report_html(FILE *out, struct ik_compare_set *const *sets, int n)
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
	const struct wfig *wf[MAX_WFIGS * 4];
	int nw = wfig_union(sets, n, wf, MAX_WFIGS * 4);
	struct ik_html_cmp_named *named = nw ? calloc((size_t)nw, sizeof(*named)) : NULL;
	if (nw && !named) {
		free(r);
		return -1;
	}
	for (int f = 0; f < nw; f++) {
		named[f].name = wf[f]->name;
		named[f].unit = wf[f]->unit;
		for (int k = 0; k < n; k++) {
			struct change ch;
			row_change(sets, k, RK_WORKLOAD, 0, wf[f]->name, ST_AMEAN, &ch);
			named[f].mean[k] = ch.missing ? NAN : ch.value;
			named[f].change_pct[k] = ch.pct;
			named[f].p_value[k] = ch.w.p;
			named[f].significant[k] = ch.significant;
		}
	}
	int rc = ik__html_compare(out, r, n, named, nw);
	free(named);
	free(r);
	return rc;
}
