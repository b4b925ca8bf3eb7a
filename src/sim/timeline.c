/*
 * The simulator's timeline capture: when the caller asks for it (scenario timeline_len_ns),
 * the idle periods that overlap a window after the warm-up are kept per CPU (the first
 * IK_TIMELINE_MAX_CPUS CPUs, at most IK_TIMELINE_MAX_SEGS periods) for the HTML report.
 * It only reads the simulation's state: no event, random number or counter changes.
 */
#include "sim/sim_internal.h"

void sim_timeline_idle(struct ik_sim *s, int cpu, int state, int64_t t0)
{
	const struct ik_scenario *sc = s->sc;
	int64_t start = sc->warmup_ns + sc->timeline_start_ns;
	if (s->now <= start || t0 >= start + sc->timeline_len_ns)
		return;
	if (!s->timeline) {
		s->timeline = ik__timeline_new(sc->warmup_ns, start, sc->timeline_len_ns, s->ncpus);
		if (!s->timeline)
			return; /* out of memory: the report says there is no timeline */
	}
	ik__timeline_add(s->timeline, cpu, state, t0, s->now);
}

void sim_timeline_take(struct ik_sim *s, struct ik_run_result *out)
{
	if (s->sc->timeline_len_ns <= 0)
		return;
	/* periods still in progress at the end of the run count up to it */
	for (int cpu = 0; cpu < s->ncpus && cpu < IK_TIMELINE_MAX_CPUS; cpu++) {
		const struct sim_cpu *c = &s->cpus[cpu];
		if ((c->mode == CPU_IDLE || c->mode == CPU_EXITING) && c->idle_t0 < s->now)
			sim_timeline_idle(s, cpu, c->entered, c->idle_t0);
	}
	out->timeline = s->timeline;
	s->timeline = NULL;
}
