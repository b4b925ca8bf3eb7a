/*
 * The simulator's side of the hardware effects (src/hw/effects.c): which cores are
 * power-gated, which packages are in their deep state, and how fast work runs given
 * turbo and the SMT sibling.
 */
#include <stdlib.h>

#include "sim/sim_internal.h"

int sim_effects_setup(struct ik_sim *s)
{
	const struct ik_platform *p = s->plat;
	int cores = p->packages * p->cores_per_package;

	s->core_off_threads = calloc((size_t)cores, sizeof(int));
	s->packages = calloc((size_t)p->packages, sizeof(*s->packages));
	if (!s->core_off_threads || !s->packages)
		return -1;
	for (int i = 0; i < p->packages; i++) {
		s->packages[i].active_cores = p->cores_per_package;
		s->packages[i].deep_since = -1;
	}
	const struct ik_hw_effects *fx = &p->effects;
	bool smt_free = (fx->smt_sibling_busy <= 0.0 || fx->smt_sibling_busy >= 1.0) &&
			(fx->smt_sibling_lite <= 0.0 || fx->smt_sibling_lite >= 1.0);
	s->effects_trivial = fx->nturbo == 0 && smt_free;
	return 0;
}

/* sim_effects_idle() (sim_internal.h) of a CPU whose state power-gates its core. */
void sim_effects_idle_gated(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	c->core_off = true;
	if (++s->core_off_threads[c->topo.core] < s->plat->threads_per_core)
		return;
	struct sim_package *pkg = &s->packages[c->topo.package];
	if (--pkg->active_cores == 0)
		pkg->deep_since = s->now;
}

/* sim_effects_wake() (sim_internal.h) of a CPU counted in its core's gated threads. */
int64_t sim_effects_wake_gated(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	c->core_off = false;
	if (s->core_off_threads[c->topo.core]-- < s->plat->threads_per_core)
		return 0;
	struct sim_package *pkg = &s->packages[c->topo.package];
	int64_t extra = 0;
	if (pkg->active_cores++ == 0) {
		pkg->deep_ns += s->now - pkg->deep_since;
		pkg->deep_since = -1;
		extra = ik__dist_sample(&s->plat->effects.pkg_exit_ns, &s->rng);
	}
	return extra;
}

/* The slowest factor any SMT sibling imposes: running work, or idling in a lite state. */
static double smt_factor(const struct ik_sim *s, int cpu)
{
	const struct ik_platform *p = s->plat;
	const struct ik_hw_effects *fx = &p->effects;
	int cores = p->packages * p->cores_per_package;
	int core = s->cpus[cpu].topo.core;
	double factor = 1.0;

	for (int t = 0; t < p->threads_per_core; t++) {
		int sib = t * cores + core;
		if (sib == cpu)
			continue;
		const struct sim_cpu *c = &s->cpus[sib];
		double f = 1.0;
		if (c->mode == CPU_RUNNING && ik__eq_armed(&s->eq, cpu_timer_id(sib, TIMER_WORK_DONE)))
			f = fx->smt_sibling_busy;
		else if (c->mode == CPU_IDLE && fx->state_lite[s->bind.hw_state[c->entered]])
			f = fx->smt_sibling_lite;
		if (f > 0.0 && f < factor)
			factor = f;
	}
	return factor;
}

/* sim_effects_work() (sim_internal.h) with a turbo table or an SMT effect. */
int64_t sim_effects_work_scaled(struct ik_sim *s, int cpu, int64_t work_ns)
{
	const struct ik_hw_effects *fx = &s->plat->effects;
	struct sim_cpu *c = &s->cpus[cpu];
	int mhz = ik__effects_mhz(fx, s->packages[c->topo.package].active_cores);
	double ratio = fx->base_mhz > 0 && mhz > 0 ? (double)mhz / fx->base_mhz : 1.0;

	/* Dynamic power grows with frequency and voltage: taken as the square of the ratio. */
	c->run_power_mw = s->plat->active_power_mw * ratio * ratio;
	return ik__effects_duration(fx, work_ns, mhz, smt_factor(s, cpu));
}

void sim_effects_close(struct ik_sim *s, int64_t end)
{
	for (int i = 0; i < s->plat->packages; i++) {
		struct sim_package *pkg = &s->packages[i];
		if (pkg->deep_since >= 0) {
			pkg->deep_ns += end - pkg->deep_since;
			pkg->deep_since = end;
		}
	}
}
