/*
 * What a replayed idle entry really costs, from the platform's description of its hardware
 * states (the platform files: entry_ns, exit_ns per wake source, power_mw; active_power_mw;
 * the package's pkg_active_mw and pkg_idle_mw, replay_package.c): the same numbers the
 * simulator charges.  Costs are drawn
 * from their distributions with the replay's generator (one per CPU, seeded from --seed),
 * so a replay is deterministic for a seed.  Without a platform (--platform trace) the exit
 * costs the advertised exit latency and nothing has a power.
 */
#include "trace/replay_internal.h"

enum ik_wake_source ik__trace_cause_source(enum ik_trace_cause c)
{
	switch (c) {
	case IK_CAUSE_TIMER:
	case IK_CAUSE_TICK:
		return IK_WAKE_TIMER;
	case IK_CAUSE_IPI:
	case IK_CAUSE_REMOTE:
		return IK_WAKE_IPI;
	case IK_CAUSE_IRQ:
	case IK_CAUSE_SOFTIRQ:
	case IK_CAUSE_UNKNOWN:
	case IK_CAUSE_NONE:
		break;
	}
	return IK_WAKE_IRQ;
}

static const struct ik_hw_state *hw(const struct ik_trace_cost_model *m, int state)
{
	if (!m || !m->plat || state < 0 || state >= IK_STATE_MAX)
		return NULL;
	int i = m->hw_state[state];
	return i >= 0 && i < m->plat->state_count ? &m->plat->states[i] : NULL;
}

static bool polling(const struct ik_driver *drv, int state)
{
	return (drv->states[state].flags & IK_FLAG_POLLING) != 0;
}

int64_t ik__trace_cost_entry_ns(const struct ik_trace_cost_model *m, const struct ik_driver *drv,
			       int state, struct ik_rng *rng)
{
	const struct ik_hw_state *s = hw(m, state);
	if (!s || polling(drv, state))
		return 0;
	return ik__dist_sample(&s->entry, rng);
}

int64_t ik__trace_cost_exit_ns(const struct ik_trace_cost_model *m, const struct ik_driver *drv,
			      int state, enum ik_wake_source src, struct ik_rng *rng)
{
	if (polling(drv, state))
		return 0;
	const struct ik_hw_state *s = hw(m, state);
	if (!s)
		return drv->states[state].exit_latency_ns;
	return ik__dist_sample(&s->exit[src], rng);
}

int ik__trace_cost_state_mw(const struct ik_trace_cost_model *m, int state)
{
	const struct ik_hw_state *s = hw(m, state);
	return s ? s->power_mw : 0;
}

int ik__trace_cost_active_mw(const struct ik_trace_cost_model *m)
{
	return m && m->plat ? m->plat->active_power_mw : 0;
}

int ik__trace_cost_package_mw(const struct ik_trace_cost_model *m)
{
	return m && m->plat ? m->plat->effects.pkg_active_mw : 0;
}

int ik__trace_cost_package_idle_mw(const struct ik_trace_cost_model *m)
{
	return m && m->plat ? m->plat->effects.pkg_idle_mw : 0;
}
