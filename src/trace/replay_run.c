/*
 * One governor's replay of a trace (struct ik_replay_run, replay_internal.h): its one-CPU
 * harnesses and timers set up for the trace's CPUs, and its result once the pass over the
 * trace (replay.c) is done: per-state counters, real time per state, wake latency, energy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/govreplay.h"
#include "trace/replay_internal.h"
#include "util/freep.h"

int ik__replay_run_setup(struct ik_replay_run *run, const struct ik_trace_header *h, char *err,
			size_t errlen)
{
	const struct ik_trace_replay_opts *o = run->o;
	struct ik_trace_replay *rp = run->rp;
	int hz = o->hz ? o->hz : h->hz;
	rp->cpus = h->cpus;
	rp->nstates = o->drv->state_count;
	rp->closed_loop = o->closed_loop;
	ik__trace_state_map_build(h, o->drv, &rp->map);
	ik__hist_init(&rp->run.wake_latency);
	rp->cpu = calloc((size_t)h->cpus, sizeof(*rp->cpu));
	run->cpu = calloc((size_t)h->cpus, sizeof(*run->cpu));
	run->work = malloc((size_t)h->cpus * sizeof(*run->work));
	if (!rp->cpu || !run->cpu || !run->work) {
		snprintf(err, errlen, "out of memory");
		return IK_TRACE_EFAIL;
	}
	for (; run->ready < h->cpus; run->ready++) {
		struct gov_cpu *c = &run->cpu[run->ready];
		c->hq.size = sizeof(struct held);
		c->tickets.size = sizeof(struct ticket);
		c->waiters.size = sizeof(struct waiter);
		c->pos_told = INT64_MIN;
		int grc = ik__govreplay_init(&c->g, o->drv, o->gov, hz, o->haltpoll, err, errlen);
		if (grc == IK_GOVREPLAY_OK) {
			c->g.dev.cpu = run->ready;
			if (o->kernel)
				c->g.dev.kernel = o->kernel;
			grc = ik__govreplay_start(&c->g, err, errlen);
		}
		if (grc != IK_GOVREPLAY_OK) {
			ik__govreplay_free(&c->g);
			return grc == IK_GOVREPLAY_EINPUT ? IK_TRACE_EINPUT : IK_TRACE_EFAIL;
		}
		ik__rng_seed(&c->rng, o->seed * 0x9E3779B97F4A7C15ull + (uint64_t)run->ready);
	}
	if (ik__replay_pkg_init(&run->pkg, o->cost, o->drv, h->cpus, INT64_MIN, o->seed,
			       &rp->run.wake_latency)) {
		snprintf(err, errlen, "out of memory");
		return IK_TRACE_EFAIL;
	}
	run->hold = run->pkg.tracked;
	return IK_TRACE_OK;
}

/* The run result: counters, time, energy. */
int ik__replay_run_finish(struct ik_replay_run *run)
{
	const struct ik_trace_replay_opts *o = run->o;
	struct ik_trace_replay *rp = run->rp;
	struct ik_run_result *r = &rp->run;
	int n = rp->nstates;
	int64_t span = rp->last_ns - rp->first_ns, late = 0;
	int64_t idle = 0, entry_exit = 0;
	double state_mw_ns = 0;

	r->ncpus = rp->cpus;
	r->nstates = n;
	memcpy(r->states, o->drv->states, sizeof(r->states));
	r->per_cpu = calloc((size_t)rp->cpus * (size_t)(n ? n : 1), sizeof(*r->per_cpu));
	if (!r->per_cpu)
		return IK_TRACE_EFAIL;
	for (int cpu = 0; cpu < rp->cpus; cpu++) {
		const struct gov_cpu *c = &run->cpu[cpu];
		struct ik_trace_replay_cpu *pc = &rp->cpu[cpu];
		for (int i = 0; i < n; i++) {
			/* the counters as the core kept them, with the real time in the state */
			struct ik_state_usage uu = c->g.dev.states_usage[i];
			uu.time_ns = c->state_ns[i];
			const struct ik_state_usage *u = &uu;
			pc->states[i] = *u;
			rp->all[i].usage += u->usage;
			rp->all[i].time_ns += u->time_ns;
			rp->all[i].above += u->above;
			rp->all[i].below += u->below;
			rp->all[i].rejected += u->rejected;
			struct ik_state_counters *k = &r->per_cpu[(size_t)cpu * (size_t)n + (size_t)i];
			*k = (struct ik_state_counters){ u->usage, u->time_ns, u->above, u->below,
							  u->rejected, u->above_time_ns,
							  u->below_time_ns };
			ik__state_counters_add(&r->total[i], k);
		}
		pc->entries = c->g.lines;
		pc->delay_ns = c->delay_ns;
		if (o->closed_loop && c->delay_ns > late)
			late = c->delay_ns;
		if (c->work_start_ns - rp->last_ns > late) /* a replayed exit past the last event */
			late = c->work_start_ns - rp->last_ns;
		idle += c->idle_ns;
		entry_exit += c->entry_exit_ns;
		state_mw_ns += c->state_mw_ns;
	}
	/* saturating: a trace's times may be anywhere in int64 (found by fuzz_trace) */
	if (__builtin_add_overflow(span, late, &r->measured_ns))
		r->measured_ns = INT64_MAX;
	r->idle_ns = idle;
	int64_t all_ns;
	if (__builtin_mul_overflow((int64_t)rp->cpus, r->measured_ns, &all_ns))
		all_ns = INT64_MAX;
	r->busy_ns = all_ns > idle ? all_ns - idle : 0;
	r->idle_entries = rp->entries;
	memcpy(r->idle_hist, rp->hist, sizeof(r->idle_hist));
	rp->entry_exit_ns = entry_exit;
	int64_t end;
	if (__builtin_add_overflow(rp->first_ns, r->measured_ns, &end))
		end = INT64_MAX;
	ik__replay_pkg_close(&run->pkg, end);
	if (run->pkg.oom)
		return IK_TRACE_EFAIL;
	r->wakeups = r->wake_latency.count; /* every deferred sample is in now */
	r->package_deep_ns = run->pkg.deep_ns;
	rp->packages = run->pkg.npkg;
	rp->package_deep_state = run->pkg.tracked;
	rp->package_exits = run->pkg.exits;
	rp->package_exit_ns = run->pkg.exit_ns;
	rp->package_exits_woken = run->pkg.exits_woken;
	rp->package_exit_woken_ns = run->pkg.exit_woken_ns;
	rp->has_energy = o->cost && o->cost->plat;
	if (rp->has_energy) {
		double active = ik__trace_cost_active_mw(o->cost);
		/* the package at pkg_idle_mw while deep, at pkg_active_mw the rest of the time */
		double deep = (double)r->package_deep_ns;
		double pkg = (double)ik__trace_cost_package_idle_mw(o->cost) * deep +
			     (double)ik__trace_cost_package_mw(o->cost) *
				     ((double)run->pkg.npkg * (double)r->measured_ns - deep);
		rp->package_j = pkg * 1e-12;
		rp->state_j = state_mw_ns * 1e-12;
		rp->entry_exit_j = (double)entry_exit * active * 1e-12;
		r->energy_j = rp->state_j + rp->entry_exit_j +
			      ((double)r->busy_ns * active + pkg) * 1e-12;
	}
	return IK_TRACE_OK;
}

void ik__replay_run_free(struct ik_replay_run *run)
{
	for (int cpu = 0; cpu < run->ready; cpu++) {
		ik__govreplay_free(&run->cpu[cpu].g);
		free(run->cpu[cpu].hq.v);
		free(run->cpu[cpu].tickets.v);
		free(run->cpu[cpu].waiters.v);
	}
	free(run->cpu);
	ik__freep(&run->work);
	run->cpu = NULL;
	run->ready = 0;
	ik__replay_pkg_free(&run->pkg);
}
