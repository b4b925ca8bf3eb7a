/*
 * The recorded states of a trace mapped onto another state table (the platform a replay
 * runs on), so that "the governor chose what the kernel chose" means the same state and not
 * the same index: arm-juno's WFI/cpu-sleep/cluster-sleep against a recorded POLL/C1/C6 table
 * share no index meaning.
 *
 * Per recorded state: the platform state of the same name (case ignored) if there is one;
 * else by depth: a polling state to the platform's first polling state; the k-th of n
 * non-polling recorded states to the non-polling platform state at the same relative depth,
 * round(k * (m - 1) / (n - 1)) of m, halves rounded up (the shallowest to the shallowest, the deepest to the
 * deepest; a table's only non-polling state to the shallowest).  A state with nothing to map to (a polling state on a table without one, or a
 * table of polling states only) maps to none and never agrees.
 */
#include <strings.h>

#include "trace/replay.h"
#include "util/names.h"

const char *ik__trace_map_how_name(enum ik_trace_map_how how)
{
	static const char *const names[] = { [IK_MAP_NAME] = "name", [IK_MAP_DEPTH] = "depth",
					     [IK_MAP_NONE] = "none" };
	return ik__name_of(names, 3, (int)how, "none");
}

static bool polling(const struct ik_state *s)
{
	return (s->flags & IK_FLAG_POLLING) != 0;
}

/* The platform's non-polling states in table order. */
static int non_polling(const struct ik_driver *d, int *idx)
{
	int n = 0;
	for (int i = 0; i < d->state_count && i < IK_STATE_MAX; i++)
		if (!polling(&d->states[i]))
			idx[n++] = i;
	return n;
}

static void map_driver(const struct ik_driver *rec, const struct ik_driver *drv, int *to,
		       enum ik_trace_map_how *how)
{
	int rec_np[IK_STATE_MAX], drv_np[IK_STATE_MAX];
	int nr = non_polling(rec, rec_np), nd = non_polling(drv, drv_np);
	int first_poll = -1;
	for (int j = 0; j < drv->state_count && j < IK_STATE_MAX; j++)
		if (polling(&drv->states[j])) {
			first_poll = j;
			break;
		}
	for (int i = 0; i < rec->state_count && i < IK_STATE_MAX; i++) {
		to[i] = -1;
		how[i] = IK_MAP_NONE;
		for (int j = 0; j < drv->state_count && j < IK_STATE_MAX; j++)
			if (strcasecmp(rec->states[i].name, drv->states[j].name) == 0) {
				to[i] = j;
				how[i] = IK_MAP_NAME;
				break;
			}
		if (to[i] >= 0)
			continue;
		if (polling(&rec->states[i])) {
			to[i] = first_poll;
		} else if (nd > 0) {
			int k = 0;
			while (rec_np[k] != i)
				k++;
			int j = nr > 1 ? (int)((2 * (long)k * (nd - 1) + (nr - 1)) / (2 * (long)(nr - 1)))
				       : 0;
			to[i] = drv_np[j];
		}
		if (to[i] >= 0)
			how[i] = IK_MAP_DEPTH;
	}
}

void ik__trace_state_map_build(const struct ik_trace_header *h, const struct ik_driver *drv,
			      struct ik_trace_state_map *m)
{
	*m = (struct ik_trace_state_map){ .ndrivers = h->ndrivers, .identity = true };
	for (int d = 0; d < h->ndrivers && d < IK_TRACE_MAX_DRIVERS; d++) {
		const struct ik_driver *rec = &h->drivers[d].drv;
		m->nstates[d] = rec->state_count;
		map_driver(rec, drv, m->to[d], m->how[d]);
		for (int i = 0; i < rec->state_count && i < IK_STATE_MAX; i++)
			if (m->to[d][i] != i || m->how[d][i] != IK_MAP_NAME)
				m->identity = false;
	}
}
