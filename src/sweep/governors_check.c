/*
 * Before a sweep runs: the governors that are built or loaded at run time (a kernel: file,
 * compiled against the governor API of the release its point runs as; a plugin: object)
 * are opened once for each combination of governor and release the sweep holds, by a run
 * of one simulated microsecond.  A file that does not compile for one of the sweep's
 * releases then stops the sweep before it starts, as a bad key does, instead of in its
 * middle with a folder half made.  The compiled object is cached (src/core/gov_kernel.c),
 * so the real runs do not compile it again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/kernel.h"
#include "sim/sim.h"
#include "sweep/sweep_internal.h"

#define CHECK_POINTS 100000 /* as many as the spec's check loads (src/sweep/check.c) */
#define MAX_COMBOS 64       /* governor-and-release combinations opened at most */

static bool loaded_at_run_time(const char *governor)
{
	return strncmp(governor, "kernel:", 7) == 0 || strncmp(governor, "plugin:", 7) == 0;
}

/* Can a point run such a governor: the base's (with the overrides) is one, or an axis sets
   one?  Otherwise nothing is opened, and the points are not loaded a second time. */
static bool any_loaded_at_run_time(const struct ik_sweep_spec *s, const struct ik_scenario *first)
{
	if (loaded_at_run_time(first->governor))
		return true;
	for (int a = 0; a < s->naxes; a++) {
		if (strcmp(s->axes[a].key, "cpuidle.governor") != 0)
			continue;
		for (int v = 0; v < s->axes[a].nvalues; v++) {
			char ov[IK_SWEEP_OVERRIDE_LEN]; /* the value as the point sets it (a template) */
			ik__sweep_axis_override(&s->axes[a], v, ov, sizeof(ov));
			if (loaded_at_run_time(ov + strlen("cpuidle.governor=")))
				return true;
		}
	}
	return false;
}

int ik__sweep_governors_check(const struct ik_sweep_spec *s, char *err, size_t errlen)
{
	struct ik_scenario *sc = malloc(sizeof(*sc));
	/* a combination: the governor's spec and the release, as one string each */
	char (*seen)[sizeof(sc->governor) + 16] = calloc(MAX_COMBOS, sizeof(*seen));
	int nseen = 0, ret = 0;

	if (!sc || !seen) {
		snprintf(err, errlen, "%s: out of memory", s->origin);
		free(sc);
		free(seen);
		return -1;
	}
	int64_t n = s->npoints < CHECK_POINTS ? s->npoints : CHECK_POINTS;
	if (ik__sweep_point_load(s, 0, sc, err, errlen) != 0)
		n = 0, ret = -1;
	else if (!any_loaded_at_run_time(s, sc))
		n = 0;
	for (int64_t p = 0; p < n && nseen < MAX_COMBOS && ret == 0; p++) {
		if (ik__sweep_point_load(s, p, sc, err, errlen) != 0) {
			ret = -1;
			break;
		}
		if (!loaded_at_run_time(sc->governor))
			continue;
		char release[16], combo[sizeof(*seen)];
		ik_kernel_release_name(ik_kernel_or_default(&sc->kernel)->release, release,
				       sizeof(release));
		snprintf(combo, sizeof(combo), "%s@%s", sc->governor, release);
		bool known = false;
		for (int i = 0; i < nseen && !known; i++)
			known = strcmp(seen[i], combo) == 0;
		if (known)
			continue;
		memcpy(seen[nseen++], combo, sizeof(combo));

		struct ik_run_result r;
		char msg[IK_ERR_LEN], where[256];
		sc->duration_ns = 1000;
		sc->warmup_ns = 0;
		if (ik__sim_run(sc, s->seed, &r, msg, sizeof(msg)) == 0) {
			ik__run_result_free(&r);
			continue;
		}
		ik__sweep_point_label(s, p, where, sizeof(where));
		/* a spec from a file is named; sim --vary's (axes of no line) is the command's */
		bool from_file = s->naxes > 0 && s->axes[0].line > 0;
		ik__sweep_msg(err, errlen, "%s%spoint %lld (%s): %s", from_file ? s->origin : "",
			     from_file ? ": " : "", (long long)p, where, msg);
		ret = -1;
	}
	free(sc);
	free(seen);
	return ret;
}
