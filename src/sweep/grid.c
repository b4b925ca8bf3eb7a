/*
 * The grid of a sweep: point numbers to value indices (groups crossed, the last group
 * fastest; axes of a group zipped), and the scenario of a point (the one loader of it: the
 * runner's, the spec check's and the governors check's).
 */
#include <stdio.h>
#include <string.h>

#include "sweep/spec_internal.h"
#include "sweep/sweep_internal.h"

void ik__sweep_point_index(const struct ik_sweep_spec *s, int64_t point, int *idx)
{
	int gidx[IK_SWEEP_MAX_AXES];
	for (int g = s->ngroups - 1; g >= 0; g--) {
		gidx[g] = (int)(point % s->group_len[g]);
		point /= s->group_len[g];
	}
	for (int a = 0; a < s->naxes; a++)
		idx[a] = gidx[s->axes[a].group];
}

void ik__sweep_point_label(const struct ik_sweep_spec *s, int64_t point, char *buf, size_t len)
{
	int idx[IK_SWEEP_MAX_AXES];
	size_t used = 0;

	ik__sweep_point_index(s, point, idx);
	buf[0] = '\0';
	for (int a = 0; a < s->naxes && used < len; a++) {
		int k = snprintf(buf + used, len - used, "%s%s=%s", a ? ", " : "", s->axes[a].key,
				 s->axes[a].values[idx[a]]);
		if (k > 0)
			used += (size_t)k;
	}
}

void ik__sweep_axis_override(const struct ik_sweep_axis *a, int i, char *buf, size_t len)
{
	const char *v = a->values[i];
	const char *at = a->template_[0] ? strstr(a->template_, "{}") : NULL;
	if (at)
		snprintf(buf, len, "%s=%.*s%s%s", a->key, (int)(at - a->template_), a->template_, v,
			 at + 2);
	else
		snprintf(buf, len, "%s=%s", a->key, v);
}

int ik__sweep_point_scenario(const struct ik_sweep_spec *s, int64_t point, struct ik_scenario *sc,
			    char *msg, size_t msglen)
{
	const char *ov[IK_SWEEP_MAX_OVERRIDES + IK_SWEEP_MAX_AXES];
	char axis_ov[IK_SWEEP_MAX_AXES][IK_SWEEP_OVERRIDE_LEN];
	int idx[IK_SWEEP_MAX_AXES], n = 0;

	ik__sweep_point_index(s, point, idx);
	for (int i = 0; i < s->noverrides; i++)
		ov[n++] = s->overrides[i];
	for (int a = 0; a < s->naxes; a++) {
		ik__sweep_axis_override(&s->axes[a], idx[a], axis_ov[a], sizeof(axis_ov[a]));
		ov[n++] = axis_ov[a];
	}
	return ik__scenario_load(s->base_ref, ov, n, sc, msg, msglen);
}

int ik__sweep_point_load(const struct ik_sweep_spec *s, int64_t point, struct ik_scenario *sc,
			char *err, size_t errlen)
{
	char msg[IK_ERR_LEN];
	if (ik__sweep_point_scenario(s, point, sc, msg, sizeof(msg)) != 0) {
		char where[256];
		ik__sweep_point_label(s, point, where, sizeof(where));
		ik__sweep_msg(err, errlen, "%s: point %lld (%s): %s", s->origin, (long long)point,
			     where, msg);
		return -1;
	}
	return 0;
}
