/*
 * A sweep spec checked against its scenario (ik__sweep_spec_check): the base with the
 * overrides, then every value of every axis, loaded as the points will be, so that a bad
 * key or value is reported at the spec's line that set it before anything runs.  Above
 * the spec reader (spec_ini.c) and the grid (grid.c), whose point loading it uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ini_common.h"
#include "sweep/spec_internal.h"
#include "sweep/sweep_internal.h"
#include "util/errmsg.h"

/*
 * A scenario message about override `ov` starts "--set OV: "; in a spec it is better put
 * as "SPEC:LINE: ".
 */
static void relocate(const struct ik_sweep_spec *s, const char *ov, int line, const char *msg,
		     char *err, size_t errlen)
{
	char shown[128], prefix[200];
	snprintf(prefix, sizeof(prefix), "--set %s: ", ik__ini_shown(ov, shown, sizeof(shown)));
	size_t n = strlen(prefix);
	if (strncmp(msg, prefix, n) == 0 && line > 0)
		snprintf(err, errlen, "%s:%d: %s", s->origin, line, msg + n);
	else if (line > 0)
		snprintf(err, errlen, "%s:%d: %s", s->origin, line, msg);
	else
		snprintf(err, errlen, "%s", msg);
}

#define CHECK_TRIES 16
#define CHECK_ALL_POINTS 100000

/* The message of a point that failed, at the line of the override it names (an axis's
   value, or a key of the spec), else at axis a's line. */
static void blame(const struct ik_sweep_spec *s, int a, int64_t point, const char *msg,
		  char *err, size_t errlen)
{
	int idx[IK_SWEEP_MAX_AXES];
	char one[IK_SWEEP_OVERRIDE_LEN], shown[128], prefix[200];
	ik__sweep_point_index(s, point, idx);
	for (int i = 0; i < s->noverrides; i++) {
		snprintf(prefix, sizeof(prefix), "--set %s: ",
			 ik__ini_shown(s->overrides[i], shown, sizeof(shown)));
		if (strncmp(msg, prefix, strlen(prefix)) == 0) {
			relocate(s, s->overrides[i], s->override_line[i], msg, err, errlen);
			return;
		}
	}
	const char *rest = msg;
	for (int b = 0; b < s->naxes; b++) {
		ik__sweep_axis_override(&s->axes[b], idx[b], one, sizeof(one));
		snprintf(prefix, sizeof(prefix), "--set %s: ", ik__ini_shown(one, shown, sizeof(shown)));
		if (strncmp(msg, prefix, strlen(prefix)) == 0) {
			a = b;
			rest = msg + strlen(prefix);
			break;
		}
	}
	const struct ik_sweep_axis *ax = &s->axes[a];
	if (ax->line > 0)
		snprintf(err, errlen, "%s:%d: [sweep] vary.%s: value '%s': %s", s->origin, ax->line,
			 ax->key, ax->values[idx[a]], rest);
	else
		snprintf(err, errlen, "--vary %s: value '%s': %s", ax->key, ax->values[idx[a]], rest);
}

int ik__sweep_spec_check(struct ik_sweep_spec *s, char *err, size_t errlen)
{
	const char *ov[IK_SWEEP_MAX_OVERRIDES + 1];
	char msg[IK_ERR_LEN];
	struct ik_scenario *sc = malloc(sizeof(*sc));
	int ret = -1;

	if (!sc)
		return ik__errmsg(err, errlen, "%s: out of memory", s->origin);
	for (int i = 0; i < s->noverrides; i++)
		ov[i] = s->overrides[i];
	if (ik__scenario_load(s->base_ref, ov, s->noverrides, sc, msg, sizeof(msg)) != 0) {
		int line = s->base_line;
		const char *bad = NULL;
		for (int i = 0; i < s->noverrides; i++) {
			char shown[128], prefix[200];
			snprintf(prefix, sizeof(prefix), "--set %s: ",
				 ik__ini_shown(s->overrides[i], shown, sizeof(shown)));
			if (strncmp(msg, prefix, strlen(prefix)) == 0) {
				line = s->override_line[i];
				bad = s->overrides[i];
			}
		}
		if (bad)
			relocate(s, bad, line, msg, err, errlen);
		else
			snprintf(err, errlen, "%s:%d: [sweep] base: %s", s->origin, line, msg);
		goto out;
	}
	if (!s->runs)
		s->runs = sc->runs < 1 ? 1 : sc->runs > IK_SWEEP_MAX_RUNS ? IK_SWEEP_MAX_RUNS : sc->runs;
	if (!s->have_seed) {
		s->seed = sc->seed > UINT64_MAX - IK_SWEEP_MAX_RUNS ? 0 : sc->seed;
		s->have_seed = true;
	}
	/*
	 * Every value of every axis in a point that loads: the first point holding it (the
	 * other axes at their first values), or, when a value only works with some values of
	 * the others (a driver with its platform), one of the next few.  A value that loads in
	 * none is reported at the line that set what failed.
	 */
	for (int a = 0; a < s->naxes; a++) {
		int ga = s->axes[a].group;
		int64_t others = 1;
		for (int g = 0; g < s->ngroups; g++)
			if (g != ga && others < CHECK_TRIES)
				others *= s->group_len[g];
		int64_t tries = others < CHECK_TRIES ? others : CHECK_TRIES;
		for (int v = 0; v < s->axes[a].nvalues; v++) {
			char first_msg[IK_ERR_LEN];
			int64_t first_point = -1;
			bool ok = false;
			for (int64_t t = 0; t < tries && !ok; t++) {
				int gi[IK_SWEEP_MAX_AXES];
				int64_t rest = t;
				for (int g = s->ngroups - 1; g >= 0; g--) {
					if (g == ga) {
						gi[g] = v;
						continue;
					}
					gi[g] = (int)(rest % s->group_len[g]);
					rest /= s->group_len[g];
				}
				int64_t p = 0;
				for (int g = 0; g < s->ngroups; g++)
					p = p * s->group_len[g] + gi[g];
				if (ik__sweep_point_scenario(s, p, sc, msg, sizeof(msg)) == 0)
					ok = true;
				else if (first_point < 0) {
					first_point = p;
					snprintf(first_msg, sizeof(first_msg), "%s", msg);
				}
			}
			if (!ok) {
				blame(s, a, first_point, first_msg, err, errlen);
				goto out;
			}
		}
	}
	/* a grid of a size that loads in seconds is checked whole: a combination that does
	   not load (a driver on another vendor's platform) stops the sweep before it starts */
	if (s->npoints <= CHECK_ALL_POINTS) {
		for (int64_t p = 0; p < s->npoints; p++) {
			if (ik__sweep_point_scenario(s, p, sc, msg, sizeof(msg)) != 0) {
				char full[IK_ERR_LEN], where[256];
				blame(s, 0, p, msg, full, sizeof(full));
				ik__sweep_point_label(s, p, where, sizeof(where));
				snprintf(err, errlen, "%s (at point %lld: %s)", full, (long long)p, where);
				goto out;
			}
		}
	}
	ret = 0;
out:
	free(sc);
	return ret;
}

