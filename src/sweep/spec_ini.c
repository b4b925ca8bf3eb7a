/*
 * Sweep specs (src/sweep/sweep.h, docs/sweep.md): an INI file with a [sweep] section
 * (base, runs, seed, vary.KEY, template.KEY, zip, bad_below) and any scenario or platform
 * section, whose keys override the base as --set does.
 *
 * Messages follow the INI readers' style (ini_common.h): "FILE:LINE: [sweep] key: expected
 * ..., got '...'".  Checking that keys and values mean something to a scenario is left to
 * ik__sweep_spec_check (check.c), which loads the base the way every point will.
 *
 * The bottom of src/sweep: it uses only the figure names (figures.c) and the INI helpers
 * of src/config; the grid, the check, the rows and the rest build on it.
 *
 * Divisions: the spec's life (init, free); values and axes (numbers, lists, ranges,
 * add_axis, bad_below); the INI reader's callbacks ([sweep] keys, other sections, zips,
 * finish, parse, load); messages (ik__sweep_msg, for the whole subsystem); the canonical
 * text and its hash.
 */
#include <math.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ini_common.h"
#include "sweep/spec_internal.h"
#include "sweep/sweep_internal.h"
#include "util/errmsg.h"
#include "util/freep.h"

#define MAX_ZIPS IK_SWEEP_MAX_AXES

struct spec_reader {
	struct ik_sweep_spec *s;
	struct ik_ini_err e;
	char section[64];
	bool in_sweep;
	bool seen_sweep;
	int seed_line;
	int nzips;
	char zips[MAX_ZIPS][256];
	int zip_line[MAX_ZIPS];
	int ntemplates;
	char template_key[IK_SWEEP_MAX_AXES][IK_SWEEP_KEY_LEN];
	char template_text[IK_SWEEP_MAX_AXES][IK_SWEEP_VALUE_LEN];
	int template_line[IK_SWEEP_MAX_AXES];
};

static int fail_at(struct spec_reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at(struct spec_reader *r, int line, const char *fmt, ...)
{
	char msg[IK_ERR_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ik__ini_fail(&r->e, (struct ik_ini_where){ line, NULL, NULL }, "%s", msg);
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

void ik__sweep_spec_init(struct ik_sweep_spec *s, const char *origin, const char *base)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->origin, sizeof(s->origin), "%s", origin ? origin : "<sweep>");
	snprintf(s->base, sizeof(s->base), "%s", base ? base : "");
	snprintf(s->base_ref, sizeof(s->base_ref), "%s", s->base);
	s->npoints = 1;
}

void ik__sweep_spec_free(struct ik_sweep_spec *s)
{
	for (int i = 0; i < s->naxes; i++) {
		free(s->axes[i].values);
		free(s->axes[i].num);
		s->axes[i].values = NULL;
		s->axes[i].num = NULL;
	}
	s->naxes = 0;
}

/* A key "section.key": 1+ name characters either side of the first dot. */
static bool good_key(const char *k)
{
	const char *dot = strchr(k, '.');
	if (!dot || dot == k || !dot[1] || strlen(k) >= IK_SWEEP_KEY_LEN)
		return false;
	for (const char *p = k; *p; p++) {
		char c = *p;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return false;
	}
	return true;
}

static bool parse_number(const char *t, double *out)
{
	char *end;
	if (!*t)
		return false;
	double v = strtod(t, &end);
	if (*end || !isfinite(v))
		return false;
	*out = v;
	return true;
}

/* A number as JSON writes one: -?digits[.digits][(e|E)[+-]digits]. */
static bool json_number(const char *t)
{
	const char *p = t;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	if (*p == '0' && p[1] >= '0' && p[1] <= '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

static int add_value(struct ik_sweep_axis *a, const char *v, char *msg, size_t msglen)
{
	if (a->nvalues >= IK_SWEEP_MAX_VALUES) {
		snprintf(msg, msglen, "expected at most %d values", IK_SWEEP_MAX_VALUES);
		return -1;
	}
	if (strlen(v) >= IK_SWEEP_VALUE_LEN) {
		snprintf(msg, msglen, "expected values of at most %d characters", IK_SWEEP_VALUE_LEN - 1);
		return -1;
	}
	snprintf(a->values[a->nvalues++], IK_SWEEP_VALUE_LEN, "%s", v);
	return 0;
}

/* lin:START:STOP:COUNT or log:START:STOP:COUNT. */
static int parse_range(struct ik_sweep_axis *a, const char *list, char *msg, size_t msglen)
{
	char buf[256], shown[80];
	bool is_log = strncmp(list, "log:", 4) == 0;
	snprintf(buf, sizeof(buf), "%s", list + 4);
	char *f[4] = { NULL, NULL, NULL, NULL };
	int nf = 0;
	for (char *p = buf; nf < 4;) {
		f[nf++] = p;
		char *colon = strchr(p, ':');
		if (!colon)
			break;
		*colon = '\0';
		p = colon + 1;
	}
	double start, stop, count_d;
	if (nf != 3 || strchr(f[2], ':')) {
		snprintf(msg, msglen, "expected '%s:START:STOP:COUNT', got '%s'", is_log ? "log" : "lin",
			 ik__ini_shown(list, shown, sizeof(shown)));
		return -1;
	}
	char *fs = trim(f[0]), *fe = trim(f[1]), *fc = trim(f[2]);
	if (!parse_number(fs, &start) || !parse_number(fe, &stop)) {
		snprintf(msg, msglen, "expected numbers for START and STOP in '%s'",
			 ik__ini_shown(list, shown, sizeof(shown)));
		return -1;
	}
	int64_t count;
	char nmsg[200];
	if (ik__ini_int(fc, 2, IK_SWEEP_MAX_VALUES, false, &count, nmsg, sizeof(nmsg)) != 0 ||
	    !parse_number(fc, &count_d)) {
		snprintf(msg, msglen, "COUNT: %s", nmsg);
		return -1;
	}
	if (is_log && (start <= 0 || stop <= 0)) {
		snprintf(msg, msglen, "expected START and STOP > 0 for a log range, got '%s'",
			 ik__ini_shown(list, shown, sizeof(shown)));
		return -1;
	}
	bool integers = start == floor(start) && stop == floor(stop);
	a->values = calloc((size_t)count, sizeof(*a->values));
	if (!a->values) {
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	for (int64_t i = 0; i < count; i++) {
		double t = (double)i / (double)(count - 1), v;
		if (i == count - 1)
			v = stop;
		else if (is_log)
			v = exp(log(start) + (log(stop) - log(start)) * t);
		else
			v = start + (stop - start) * t;
		char text[IK_SWEEP_VALUE_LEN];
		/* a log range between integers stays in integers (most keys want them) */
		if (is_log && integers)
			snprintf(text, sizeof(text), "%.0f", round(v));
		else
			snprintf(text, sizeof(text), "%.12g", v);
		if (add_value(a, text, msg, msglen))
			return -1;
	}
	return 0;
}

static int parse_list(struct ik_sweep_axis *a, const char *list, char *msg, size_t msglen)
{
	char shown[80];
	if (strncmp(list, "lin:", 4) == 0 || strncmp(list, "log:", 4) == 0)
		return parse_range(a, list, msg, msglen);
	if (!*list) {
		snprintf(msg, msglen, "expected a list V1,V2,... or a range lin:START:STOP:COUNT or "
			 "log:START:STOP:COUNT, got an empty axis");
		return -1;
	}
	int n = 1;
	for (const char *p = list; *p; p++)
		n += *p == ',';
	a->values = calloc((size_t)n, sizeof(*a->values));
	char *copy = strdup(list);
	if (!a->values || !copy) {
		free(copy);
		snprintf(msg, msglen, "out of memory");
		return -1;
	}
	int ret = 0;
	for (char *item = copy; item && ret == 0;) {
		char *comma = strchr(item, ',');
		if (comma)
			*comma = '\0';
		char *v = trim(item);
		if (!*v) {
			snprintf(msg, msglen, "expected a value between every two commas, got '%s'",
				 ik__ini_shown(list, shown, sizeof(shown)));
			ret = -1;
			break;
		}
		for (int i = 0; i < a->nvalues && ret == 0; i++) {
			if (strcmp(a->values[i], v) == 0) {
				snprintf(msg, msglen, "expected each value once, got '%s' twice",
					 ik__ini_shown(v, shown, sizeof(shown)));
				ret = -1;
			}
		}
		if (ret == 0)
			ret = add_value(a, v, msg, msglen);
		item = comma ? comma + 1 : NULL;
	}
	free(copy);
	return ret;
}

int ik__sweep_spec_add_axis(struct ik_sweep_spec *s, const char *key, const char *list, int line,
			   char *err, size_t errlen)
{
	char msg[400], shown[80];
	struct ik_ini_err e = { line ? s->origin : NULL, err, errlen };
	struct ik_ini_where w = { line, NULL, NULL };

	if (!good_key(key))
		return ik__ini_fail(&e, w, "vary.%s: expected a key SECTION.KEY, e.g. "
				   "vary.workload.pairs", ik__ini_shown(key, shown, sizeof(shown)));
	for (int i = 0; i < s->naxes; i++)
		if (strcmp(s->axes[i].key, key) == 0)
			return ik__ini_fail(&e, w, "vary.%s: varied twice", key);
	if (s->naxes >= IK_SWEEP_MAX_AXES)
		return ik__ini_fail(&e, w, "vary.%s: at most %d axes", key, IK_SWEEP_MAX_AXES);
	struct ik_sweep_axis *a = &s->axes[s->naxes];
	memset(a, 0, sizeof(*a));
	snprintf(a->key, sizeof(a->key), "%s", key);
	a->line = line;
	if (parse_list(a, list, msg, sizeof(msg)) != 0) {
		ik__freep(&a->values);
		return ik__ini_fail(&e, w, "vary.%s: %s", key, msg);
	}
	a->num = calloc((size_t)a->nvalues, sizeof(*a->num));
	if (!a->num) {
		ik__freep(&a->values);
		return ik__ini_fail(&e, w, "out of memory");
	}
	a->numeric = true;
	for (int i = 0; i < a->nvalues; i++)
		a->numeric &= json_number(a->values[i]) && parse_number(a->values[i], &a->num[i]);
	a->group = s->ngroups;
	s->group_len[s->ngroups++] = a->nvalues;
	s->naxes++;
	s->npoints *= a->nvalues;
	if (s->npoints > IK_SWEEP_MAX_POINTS)
		return ik__ini_fail(&e, w, "vary.%s: expected at most %d points, the axes make more",
				   key, IK_SWEEP_MAX_POINTS);
	return 0;
}

int ik__sweep_parse_bad(const char *text, struct ik_sweep_bad *bad, char *err, size_t errlen)
{
	char buf[128], shown[80], names[512];
	size_t len = 0;
	snprintf(buf, sizeof(buf), "%s", text ? text : "");
	char *colon = strrchr(buf, ':');
	double v;
	int fig = -1;
	if (colon) {
		*colon = '\0';
		fig = ik__sweep_figure_find(trim(buf));
	}
	names[0] = '\0';
	for (int i = 0; i < ik__sweep_figure_count() && len < sizeof(names); i++) {
		int k = snprintf(names + len, sizeof(names) - len, "%s%s", i ? " " : "",
				 ik__sweep_figure_key(i));
		if (k > 0)
			len += (size_t)k;
	}
	if (!colon || fig < 0 || !parse_number(trim(colon + 1), &v))
		return ik__errmsg(err, errlen, "expected FIGURE:VALUE with FIGURE one of %s, got "
				  "'%s'", names,
				  ik__ini_shown(text ? text : "", shown, sizeof(shown)));
	bad->on = true;
	bad->figure = fig;
	bad->below = v;
	return 0;
}

static int sweep_key(struct spec_reader *r, const char *key, const char *value, int line)
{
	struct ik_sweep_spec *s = r->s;
	char msg[IK_ERR_LEN], shown[80];

	if (strncmp(key, "vary.", 5) == 0)
		return ik__sweep_spec_add_axis(s, key + 5, value, line, r->e.buf, r->e.len);
	if (strncmp(key, "template.", 9) == 0) {
		const char *at = strstr(value, "{}");
		if (!at || strstr(at + 2, "{}") || strlen(value) >= IK_SWEEP_VALUE_LEN)
			return fail_at(r, line, "[sweep] %s: expected a text with '{}' once where the "
				       "value goes (at most %d characters), e.g. 'lognormal {} 0.1', "
				       "got '%s'", key, IK_SWEEP_VALUE_LEN - 1,
				       ik__ini_shown(value, shown, sizeof(shown)));
		for (int i = 0; i < r->ntemplates; i++)
			if (strcmp(r->template_key[i], key + 9) == 0)
				return fail_at(r, line, "[sweep] %s: duplicate key", key);
		if (r->ntemplates >= IK_SWEEP_MAX_AXES || strlen(key + 9) >= IK_SWEEP_KEY_LEN)
			return fail_at(r, line, "[sweep] %s: at most %d templates of keys up to %d "
				       "characters", key, IK_SWEEP_MAX_AXES, IK_SWEEP_KEY_LEN - 1);
		snprintf(r->template_key[r->ntemplates], IK_SWEEP_KEY_LEN, "%s", key + 9);
		snprintf(r->template_text[r->ntemplates], IK_SWEEP_VALUE_LEN, "%s", value);
		r->template_line[r->ntemplates++] = line;
		return 0;
	}
	if (strcmp(key, "base") == 0) {
		if (s->base_line)
			return fail_at(r, line, "[sweep] base: duplicate key (first on line %d)",
				       s->base_line);
		if (!*value || strlen(value) >= sizeof(s->base))
			return fail_at(r, line, "[sweep] base: expected a built-in scenario name or an "
				       ".ini file, got '%s'", ik__ini_shown(value, shown, sizeof(shown)));
		snprintf(s->base, sizeof(s->base), "%s", value);
		s->base_line = line;
		return 0;
	}
	if (strcmp(key, "runs") == 0) {
		int64_t v;
		if (s->runs_line)
			return fail_at(r, line, "[sweep] runs: duplicate key");
		if (ik__ini_int(value, 1, IK_SWEEP_MAX_RUNS, false, &v, msg, sizeof(msg)))
			return fail_at(r, line, "[sweep] runs: %s", msg);
		s->runs = (int)v;
		s->runs_line = line;
		return 0;
	}
	if (strcmp(key, "seed") == 0) {
		if (s->have_seed)
			return fail_at(r, line, "[sweep] seed: duplicate key");
		if (ik__ini_u64(value, &s->seed, msg, sizeof(msg)))
			return fail_at(r, line, "[sweep] seed: %s", msg);
		if (s->seed > UINT64_MAX - IK_SWEEP_MAX_RUNS) /* seed + run must not wrap */
			return fail_at(r, line, "[sweep] seed: expected at most %" PRIu64 ", got '%s'",
				       (uint64_t)(UINT64_MAX - IK_SWEEP_MAX_RUNS),
				       ik__ini_shown(value, shown, sizeof(shown)));
		s->have_seed = true;
		return 0;
	}
	if (strcmp(key, "zip") == 0) {
		if (r->nzips >= MAX_ZIPS || strlen(value) >= sizeof(r->zips[0]))
			return fail_at(r, line, "[sweep] zip: at most %d zip lines of 255 characters",
				       MAX_ZIPS);
		snprintf(r->zips[r->nzips], sizeof(r->zips[0]), "%s", value);
		r->zip_line[r->nzips++] = line;
		return 0;
	}
	if (strcmp(key, "bad_below") == 0) {
		if (s->bad_line)
			return fail_at(r, line, "[sweep] bad_below: duplicate key");
		if (ik__sweep_parse_bad(value, &s->bad, msg, sizeof(msg)))
			return fail_at(r, line, "[sweep] bad_below: %s", msg);
		s->bad_line = line;
		return 0;
	}
	return fail_at(r, line, "[sweep] unknown key '%s'; known keys: base runs seed vary.KEY "
		       "template.KEY zip bad_below", ik__ini_shown(key, shown, sizeof(shown)));
}

static int on_section(void *user, const char *name, int line)
{
	struct spec_reader *r = user;
	char shown[80];
	if (!*name || strlen(name) >= sizeof(r->section) || strchr(name, '.') ||
	    strchr(name, '='))
		return fail_at(r, line, "expected a section name, got '[%s]'",
			       ik__ini_shown(name, shown, sizeof(shown)));
	r->in_sweep = strcmp(name, "sweep") == 0;
	if (r->in_sweep && r->seen_sweep)
		return fail_at(r, line, "[sweep]: the section appears twice");
	r->seen_sweep |= r->in_sweep;
	snprintf(r->section, sizeof(r->section), "%s", name);
	return 0;
}

static int on_key(void *user, const char *section, const char *key, const char *value, int line)
{
	struct spec_reader *r = user;
	struct ik_sweep_spec *s = r->s;
	char shown[80];

	if (!*section)
		return fail_at(r, line, "expected a [section] before '%s'",
			       ik__ini_shown(key, shown, sizeof(shown)));
	if (strcmp(section, "sweep") == 0)
		return sweep_key(r, key, value, line);
	/* any other section overrides the base scenario, as --set does */
	char ov[IK_SWEEP_OVERRIDE_LEN];
	int n = snprintf(ov, sizeof(ov), "%s.%s=%s", section, key, value);
	if (n < 0 || (size_t)n >= sizeof(ov))
		return fail_at(r, line, "[%s] %s: at most %d characters", section, key,
			       IK_SWEEP_OVERRIDE_LEN - 1);
	if (s->noverrides >= IK_SWEEP_MAX_OVERRIDES)
		return fail_at(r, line, "[%s] %s: at most %d keys outside [sweep]", section, key,
			       IK_SWEEP_MAX_OVERRIDES);
	size_t prefix = strlen(section) + strlen(key) + 2;
	for (int i = 0; i < s->noverrides; i++)
		if (strncmp(s->overrides[i], ov, prefix) == 0)
			return fail_at(r, line, "[%s] %s: duplicate key (first on line %d)", section,
				       key, s->override_line[i]);
	snprintf(s->overrides[s->noverrides], IK_SWEEP_OVERRIDE_LEN, "%s", ov);
	s->override_line[s->noverrides++] = line;
	return 0;
}

static int axis_of(const struct ik_sweep_spec *s, const char *key)
{
	for (int i = 0; i < s->naxes; i++)
		if (strcmp(s->axes[i].key, key) == 0)
			return i;
	return -1;
}

/* zip lines: the named axes join the group of the first; groups renumbered in axis order. */
static int resolve_zips(struct spec_reader *r)
{
	struct ik_sweep_spec *s = r->s;
	int group[IK_SWEEP_MAX_AXES];
	bool zipped[IK_SWEEP_MAX_AXES] = { false };
	char shown[80];

	for (int i = 0; i < s->naxes; i++)
		group[i] = i;
	for (int z = 0; z < r->nzips; z++) {
		char *copy = strdup(r->zips[z]);
		if (!copy)
			return fail_at(r, r->zip_line[z], "out of memory");
		int members[IK_SWEEP_MAX_AXES], nm = 0, ret = 0;
		for (char *item = copy; item && ret == 0;) {
			char *comma = strchr(item, ',');
			if (comma)
				*comma = '\0';
			char *k = trim(item);
			int a = axis_of(s, k);
			if (a < 0)
				ret = fail_at(r, r->zip_line[z], "[sweep] zip: expected keys with a "
					      "vary.KEY line, got '%s'", ik__ini_shown(k, shown, sizeof(shown)));
			else if (zipped[a])
				ret = fail_at(r, r->zip_line[z], "[sweep] zip: '%s' is zipped twice", k);
			else if (nm > 0 && s->axes[a].nvalues != s->axes[members[0]].nvalues)
				ret = fail_at(r, r->zip_line[z], "[sweep] zip: expected axes with as many "
					      "values, got %d for %s and %d for %s",
					      s->axes[members[0]].nvalues, s->axes[members[0]].key,
					      s->axes[a].nvalues, s->axes[a].key);
			else {
				zipped[a] = true;
				members[nm++] = a;
			}
			item = comma ? comma + 1 : NULL;
		}
		free(copy);
		if (ret)
			return -1;
		if (nm < 2)
			return fail_at(r, r->zip_line[z], "[sweep] zip: expected two keys or more, "
				       "KEY1,KEY2,..., got '%s'",
				       ik__ini_shown(r->zips[z], shown, sizeof(shown)));
		for (int i = 1; i < nm; i++)
			group[members[i]] = group[members[0]];
	}
	/* renumber */
	int map[IK_SWEEP_MAX_AXES];
	for (int i = 0; i < IK_SWEEP_MAX_AXES; i++)
		map[i] = -1;
	s->ngroups = 0;
	for (int i = 0; i < s->naxes; i++) {
		if (map[group[i]] < 0) {
			map[group[i]] = s->ngroups;
			s->group_len[s->ngroups++] = s->axes[i].nvalues;
		}
		s->axes[i].group = map[group[i]];
	}
	return 0;
}

static int finish(struct spec_reader *r)
{
	struct ik_sweep_spec *s = r->s;
	if (!r->seen_sweep)
		return fail_at(r, 0, "expected a [sweep] section with base = SCENARIO");
	if (!s->base_line)
		return fail_at(r, 0, "[sweep]: missing required key 'base' (a built-in scenario "
			       "name or an .ini file)");
	for (int t = 0; t < r->ntemplates; t++) {
		int a = axis_of(s, r->template_key[t]);
		if (a < 0)
			return fail_at(r, r->template_line[t], "[sweep] template.%s: expected a key "
				       "with a vary.KEY line", r->template_key[t]);
		snprintf(s->axes[a].template_, IK_SWEEP_VALUE_LEN, "%s", r->template_text[t]);
		s->axes[a].template_line = r->template_line[t];
	}
	for (int i = 0; i < s->noverrides; i++) {
		for (int a = 0; a < s->naxes; a++) {
			size_t n = strlen(s->axes[a].key);
			if (strncmp(s->overrides[i], s->axes[a].key, n) == 0 &&
			    s->overrides[i][n] == '=')
				return fail_at(r, s->override_line[i], "%s: set here and varied on line "
					       "%d: expected one or the other", s->axes[a].key,
					       s->axes[a].line);
		}
	}
	if (resolve_zips(r))
		return -1;
	s->npoints = 1;
	for (int g = 0; g < s->ngroups; g++) {
		s->npoints *= s->group_len[g];
		if (s->npoints > IK_SWEEP_MAX_POINTS)
			return fail_at(r, 0, "[sweep]: expected at most %d points, the axes make more",
				       IK_SWEEP_MAX_POINTS);
	}
	/* a base file is relative to the spec's folder */
	size_t n = strlen(s->base);
	bool is_file = strchr(s->base, '/') || (n >= 4 && strcmp(s->base + n - 4, ".ini") == 0);
	const char *slash = strrchr(s->origin, '/');
	if (is_file && s->base[0] != '/' && slash)
		snprintf(s->base_ref, sizeof(s->base_ref), "%.*s/%s", (int)(slash - s->origin),
			 s->origin, s->base);
	else
		snprintf(s->base_ref, sizeof(s->base_ref), "%s", s->base);
	return 0;
}

int ik__sweep_spec_parse_string(const char *origin, const char *text, struct ik_sweep_spec *s,
			       char *err, size_t errlen)
{
	static const struct ik_ini_callbacks cb = { on_section, on_key };
	ik__sweep_spec_init(s, origin, "");
	struct spec_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return ik__errmsg(err, errlen, "%s: out of memory", s->origin);
	r->s = s;
	r->e = (struct ik_ini_err){ s->origin, err, errlen };
	int ret = ik__ini_parse_text(&r->e, text, &cb, r);
	if (ret == 0)
		ret = finish(r);
	free(r);
	if (ret)
		ik__sweep_spec_free(s);
	return ret;
}

int ik__sweep_spec_load(const char *path, struct ik_sweep_spec *s, char *err, size_t errlen)
{
	char *text;
	ik__sweep_spec_init(s, path, "");
	if (ik__ini_read_file(path, &text, err, errlen, NULL) != 0)
		return -1;
	int ret = ik__sweep_spec_parse_string(path, text, s, err, errlen);
	free(text);
	return ret;
}

/* ---- messages --------------------------------------------------------------------- */

void ik__sweep_msg(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	if (!buf || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* ---- canonical text and hash -------------------------------------------------------- */

int ik__sweep_spec_write(FILE *out, const struct ik_sweep_spec *s)
{
	fputs("; idlekit sweep spec, canonical form (docs/sweep.md)\n[sweep]\n", out);
	fprintf(out, "base = %s\n", s->base);
	if (s->runs)
		fprintf(out, "runs = %d\n", s->runs);
	if (s->have_seed)
		fprintf(out, "seed = %llu\n", (unsigned long long)s->seed);
	if (s->bad.on)
		fprintf(out, "bad_below = %s:%.15g\n", ik__sweep_figure_key(s->bad.figure), s->bad.below);
	for (int a = 0; a < s->naxes; a++) {
		fprintf(out, "vary.%s =%s", s->axes[a].key,
			s->axes[a].nvalues && s->axes[a].values[0][0] == ';' ? "" : " ");
		for (int v = 0; v < s->axes[a].nvalues; v++)
			fprintf(out, "%s%s", v ? "," : "", s->axes[a].values[v]);
		fputc('\n', out);
		if (s->axes[a].template_[0])
			fprintf(out, "template.%s =%s%s\n", s->axes[a].key,
				s->axes[a].template_[0] == ';' ? "" : " ", s->axes[a].template_);
	}
	for (int g = 0; g < s->ngroups; g++) {
		int n = 0;
		for (int a = 0; a < s->naxes; a++)
			n += s->axes[a].group == g;
		if (n < 2)
			continue;
		fputs("zip = ", out);
		n = 0;
		for (int a = 0; a < s->naxes; a++)
			if (s->axes[a].group == g)
				fprintf(out, "%s%s", n++ ? "," : "", s->axes[a].key);
		fputc('\n', out);
	}
	char section[IK_SWEEP_OVERRIDE_LEN] = "";
	for (int i = 0; i < s->noverrides; i++) {
		const char *ov = s->overrides[i];
		const char *dot = strchr(ov, '.');
		const char *eq = strchr(ov, '=');
		if (!dot || !eq || eq < dot)
			continue;
		int sn = (int)(dot - ov);
		if ((int)strlen(section) != sn || strncmp(section, ov, (size_t)sn) != 0) {
			snprintf(section, sizeof(section), "%.*s", sn, ov);
			fprintf(out, "[%s]\n", section);
		}
		/* " ;" would start a comment: a value beginning with ';' follows '=' directly */
		fprintf(out, "%.*s =%s%s\n", (int)(eq - dot - 1), dot + 1, eq[1] == ';' ? "" : " ",
			eq + 1);
	}
	return ferror(out) ? -1 : 0;
}

uint64_t ik__sweep_spec_hash(const struct ik_sweep_spec *s)
{
	char *buf = NULL;
	size_t len = 0;
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return 0;
	/* what a bad run is changes the reports, not the results: not part of the hash */
	struct ik_sweep_spec *copy = malloc(sizeof(*copy));
	if (!copy) {
		fclose(m);
		free(buf);
		return 0;
	}
	memcpy(copy, s, sizeof(*copy));
	copy->bad.on = false;
	ik__sweep_spec_write(m, copy);
	free(copy);
	fclose(m);
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)buf[i];
		h *= 0x100000001b3ull;
	}
	free(buf);
	return h;
}
