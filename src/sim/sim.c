/*
 * One simulation run: build the machine (devices, driver table, governor), let the
 * workload start, then pop timers in time order until the end of the run.  Counters of the
 * warm-up are set aside so the result covers only the measured window.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/idle_call.h"
#include "sim/sim.h"
#include "sim/workload.h"
#include "util/errmsg.h"

/* What the runs of one scenario share (sim.h). */
struct ik_sim_set {
	const struct ik_scenario *sc;
	const struct sim_workload_ops *ops;
	struct ik_driver_binding bind; /* the driver as probed; a run takes a copy */
	void *wl_shared;               /* the workload's prepare */
};

/* Global timers after the CPUs' and the tasks'. */
enum { GLOBAL_WARMUP_END, GLOBAL_WATCH, GLOBAL_TIMERS };

static void sim_free(struct ik_sim *s)
{
	if (s->cpus) {
		for (int i = 0; i < s->ncpus; i++) {
			if (s->gov && s->cpus[i].dev.governor)
				ik__governor_disable(s->gov, s->drv, &s->cpus[i].dev);
			free(s->cpus[i].timer_tasks);
		}
	}
	free(s->cpus);
	free(s->tasks);
	free(s->llc_cpus);
	free(s->llc_first);
	free(s->llc_pos);
	free(s->core_off_threads);
	free(s->packages);
	ik__eq_free(&s->eq);
	ik__timeline_free(s->timeline);
	ik__governor_close(s->gov_inst);
	s->gov_inst = NULL;
	sim_workload_free(s);
}

/* Group CPUs by last-level cache, in CPU order within each group. */
static int build_llc_groups(struct ik_sim *s)
{
	int groups = 0;

	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->cpus[cpu].topo.llc + 1 > groups)
			groups = s->cpus[cpu].topo.llc + 1;
	s->llc_cpus = malloc((size_t)s->ncpus * sizeof(int));
	s->llc_first = calloc((size_t)groups + 1, sizeof(int));
	s->llc_pos = malloc((size_t)s->ncpus * sizeof(int));
	if (!s->llc_cpus || !s->llc_first || !s->llc_pos)
		return -1;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		s->llc_first[s->cpus[cpu].topo.llc + 1]++;
	for (int g = 0; g < groups; g++)
		s->llc_first[g + 1] += s->llc_first[g];
	int *fill = calloc((size_t)groups, sizeof(int));
	if (!fill)
		return -1;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		int g = s->cpus[cpu].topo.llc;
		int at = s->llc_first[g] + fill[g]++;
		s->llc_cpus[at] = cpu;
		s->llc_pos[cpu] = at;
	}
	free(fill);
	return 0;
}

static int find_state(const struct ik_driver *drv, const char *name)
{
	for (int i = 0; i < drv->state_count; i++)
		if (strcmp(drv->states[i].name, name) == 0)
			return i;
	return -1;
}

static int sim_setup(struct ik_sim *s, const struct ik_sim_set *set, uint64_t seed, char *err,
		     size_t errlen)
{
	const struct ik_scenario *sc = set->sc;

	memset(s, 0, sizeof(*s));
	s->sc = sc;
	s->wl_ops = set->ops;
	s->wl_shared = set->wl_shared;
	s->plat = &sc->platform;
	s->ncpus = ik__platform_cpus(s->plat);
	ik__rng_seed(&s->rng, seed);
	ik__pelt_consts_init(&s->pelt_k);
	s->iowait_ppm = (uint32_t)(sc->workload.iowait_pct * 10000.0 + 0.5);
	ik__hist_init(&s->wake_latency);
	ik__hist_init(&s->leave_lite);
	ik__hist_init(&s->leave_lite_entries);

	s->bind = set->bind;
	s->drv = &s->bind.table;
	if (!s->bind.bypass_governor) {
		/* Each run its own instance: a kernel governor's static state is per machine. */
		const char *names[32], *values[32];
		for (int i = 0; i < sc->ngov_params; i++) {
			names[i] = sc->gov_params[i].name;
			values[i] = sc->gov_params[i].value;
		}
		char release[16];
		struct ik_governor_open_args ga = {
			.spec = sc->governor, .drv = s->drv, .hz = sc->hz,
			.nparams = sc->ngov_params, .param_names = names, .param_values = values,
			/* a kernel file compiles against the governor API of kernel.version */
			.kernel_version = ik_kernel_release_name(
				ik_kernel_or_default(&sc->kernel)->release, release, sizeof(release)),
			.ncpus = s->ncpus,
		};
		if (ik__governor_open(&ga, &s->gov_inst, err, errlen))
			return -1;
		s->gov = ik__governor_inst_ops(s->gov_inst);
	} else if (sc->ngov_params > 0) {
		return ik__errmsg(err, errlen, "governor.%s: this driver bypasses the cpuidle "
				  "governor", sc->gov_params[0].name);
	}

	struct ik_pm_qos qos;
	ik_pm_qos_init(&qos);
	if (sc->latency_limit_us >= 0)
		qos.global_us = sc->latency_limit_us;
	s->latency_req_ns = ik_pm_qos_latency_req_ns(&qos);

	/* line-aligned (struct sim_cpu is), zeroed */
	s->cpus = aligned_alloc(_Alignof(struct sim_cpu), (size_t)s->ncpus * sizeof(*s->cpus));
	if (!s->cpus)
		goto oom;
	memset(s->cpus, 0, (size_t)s->ncpus * sizeof(*s->cpus));
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];

		ik_device_init(&c->dev, s->drv, cpu, sc->hz);
		c->dev.kernel = ik_kernel_or_default(&sc->kernel); /* kernel.version's switches */
		ik__platform_topology(s->plat, cpu, &c->topo);
		c->rq_head = c->rq_tail = c->current = c->last_task = -1;
		c->ipi_sent_at = -1;
		c->mode = CPU_RUNNING;
		for (int k = 0; k < sc->ndisabled; k++) {
			int idx = find_state(s->drv, sc->disabled[k]);
			if (idx < 0)
				return ik__errmsg(err, errlen, "cpuidle.disable: no state named "
						  "'%s'", sc->disabled[k]);
			c->dev.states_disable[idx] |= IK_DISABLE_USER;
		}
	}
	if (s->bind.bypass_governor)
		s->gov = NULL;
	s->track_util = s->gov && ik_governor_reads_cpu_util(s->gov, &sc->kernel);
	const struct ik_haltpoll_params *hp = s->gov_inst ? ik__governor_inst_haltpoll(s->gov_inst) : NULL;
	for (int cpu = 0; cpu < s->ncpus && s->gov; cpu++) {
		s->cpus[cpu].dev.haltpoll = hp;
		if (ik_governor_enable(s->gov, s->drv, &s->cpus[cpu].dev))
			goto oom;
	}
	if (build_llc_groups(s) || sim_effects_setup(s))
		goto oom;

	/* Timer ids: CPUs', then one per task (known only after the workload), then global. */
	int max_tasks = sim_workload_max_tasks(set->ops, &sc->workload);
	if (ik__eq_init(&s->eq, s->ncpus * CPU_TIMER_STRIDE + max_tasks + GLOBAL_TIMERS))
		goto oom;
	return 0;
oom:
	return ik__errmsg(err, errlen, "out of memory for %d CPUs", s->ncpus);
}

/* The counters as they stand, to subtract the warm-up from the end figures. */
struct snapshot {
	struct ik_state_counters *per_cpu;
	int64_t *busy, *idle;
	double *busy_energy;
	int64_t package_deep_ns;
};

static void take_snapshot(const struct ik_sim *s, struct snapshot *snap)
{
	int n = s->drv->state_count;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		const struct ik_device *dev = &s->cpus[cpu].dev;
		for (int i = 0; i < n; i++) {
			struct ik_state_counters *k = &snap->per_cpu[cpu * n + i];
			k->usage = dev->states_usage[i].usage;
			k->time_ns = dev->states_usage[i].time_ns;
			k->above = dev->states_usage[i].above;
			k->below = dev->states_usage[i].below;
			k->rejected = dev->states_usage[i].rejected;
			k->above_time_ns = dev->states_usage[i].above_time_ns;
			k->below_time_ns = dev->states_usage[i].below_time_ns;
		}
		snap->busy[cpu] = s->cpus[cpu].busy_ns;
		snap->idle[cpu] = s->cpus[cpu].idle_ns;
		snap->busy_energy[cpu] = s->cpus[cpu].busy_energy;
	}
	snap->package_deep_ns = 0;
	for (int i = 0; i < s->plat->packages; i++)
		snap->package_deep_ns += s->packages[i].deep_ns;
}

static void dispatch(struct ik_sim *s, int id)
{
	int cpu_timers = s->ncpus * CPU_TIMER_STRIDE;

	if (id < cpu_timers) {
		int cpu = id >> CPU_TIMER_SHIFT;
		switch ((enum cpu_timer)(id & (CPU_TIMER_STRIDE - 1))) {
		case TIMER_TICK:
			sim_cpu_tick(s, cpu);
			break;
		case TIMER_WAKE:
			sim_cpu_wake(s, cpu, WAKE_REMOTE);
			break;
		case TIMER_POLL:
			sim_cpu_poll_limit(s, cpu);
			break;
		case TIMER_EXIT_DONE:
			sim_cpu_exit_done(s, cpu);
			break;
		case TIMER_WORK_DONE:
			sim_work_done(s, cpu);
			break;
		case TIMER_IRQ:
			sim_device_irq(s, cpu);
			break;
		case TIMER_DRIVER:
			sim_cpu_wake(s, cpu, WAKE_TIMER);
			break;
		case TIMER_HOUSEKEEPING:
			sim_housekeeping(s, cpu);
			break;
		case TIMER_IPI:
			sim_ipi_arrives(s, cpu);
			break;
		case TIMER_SOCKET:
			if (s->wl_ops->socket_timer)
				s->wl_ops->socket_timer(s, cpu);
			break;
		default: /* CPU_TIMERS and above: no such timer */
			break;
		}
	} else if (id < cpu_timers + s->ntasks) {
		sim_task_timer(s, id - cpu_timers);
	}
}

/* At the end, close the spans still open so busy and idle time cover the whole run. */
static void close_spans(struct ik_sim *s, int64_t end)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];
		bool busy = c->mode == CPU_RUNNING && ik__eq_armed(&s->eq, cpu_timer_id(cpu, TIMER_WORK_DONE));
		if (busy) {
			c->busy_ns += end - c->span_start;
			c->busy_energy += (double)(end - c->span_start) * c->run_power_mw;
		} else {
			c->idle_ns += end - c->span_start;
		}
		c->span_start = end;
	}
}

static int fill_result(struct ik_sim *s, const struct snapshot *snap, int64_t measured,
		       uint64_t seed, struct ik_run_result *r)
{
	int n = s->drv->state_count;

	memset(r, 0, sizeof(*r));
	r->seed = seed;
	r->ncpus = s->ncpus;
	r->nstates = n;
	memcpy(r->states, s->drv->states, sizeof(r->states));
	r->per_cpu = calloc((size_t)s->ncpus * (size_t)n, sizeof(*r->per_cpu));
	r->open_idle = calloc((size_t)s->ncpus, sizeof(*r->open_idle));
	r->cpu_busy_ns = calloc((size_t)s->ncpus, sizeof(*r->cpu_busy_ns));
	if (!r->per_cpu || !r->open_idle || !r->cpu_busy_ns)
		return -1;
	r->measured_ns = measured;
	double energy_mw_ns = 0;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		const struct ik_device *dev = &s->cpus[cpu].dev;
		int64_t in_states = 0;
		for (int i = 0; i < n; i++) {
			const struct ik_state_counters *b = &snap->per_cpu[cpu * n + i];
			struct ik_state_counters *k = &r->per_cpu[cpu * n + i];
			k->usage = dev->states_usage[i].usage - b->usage;
			k->time_ns = dev->states_usage[i].time_ns - b->time_ns;
			k->above = dev->states_usage[i].above - b->above;
			k->below = dev->states_usage[i].below - b->below;
			k->rejected = dev->states_usage[i].rejected - b->rejected;
			k->above_time_ns = dev->states_usage[i].above_time_ns - b->above_time_ns;
			k->below_time_ns = dev->states_usage[i].below_time_ns - b->below_time_ns;
			r->total[i].usage += k->usage;
			r->total[i].time_ns += k->time_ns;
			r->total[i].above += k->above;
			r->total[i].below += k->below;
			r->total[i].rejected += k->rejected;
			r->total[i].above_time_ns += k->above_time_ns;
			r->total[i].below_time_ns += k->below_time_ns;
			in_states += (int64_t)k->time_ns;
			energy_mw_ns += (double)k->time_ns *
					s->plat->states[s->bind.hw_state[i]].power_mw;
		}
		int64_t busy = s->cpus[cpu].busy_ns - snap->busy[cpu];
		r->busy_ns += busy;
		r->cpu_busy_ns[cpu] = busy;
		r->idle_ns += s->cpus[cpu].idle_ns - snap->idle[cpu];
		/* Work runs at the power of its frequency; the idle loop's own code at base power. */
		energy_mw_ns += s->cpus[cpu].busy_energy - snap->busy_energy[cpu];
		/* An idle period still open at the end is not in the counters yet (sysfs adds it
		   at exit), but the CPU is in its state: it draws that state's power, not the
		   idle loop's. */
		const struct sim_cpu *c = &s->cpus[cpu];
		int64_t open_idle = 0;
		if (c->mode == CPU_IDLE && c->entered >= 0 && c->entered < n) {
			int64_t from = c->idle_t0 > s->now - measured ? c->idle_t0 : s->now - measured;
			open_idle = s->now > from ? s->now - from : 0;
			energy_mw_ns += (double)open_idle *
					s->plat->states[s->bind.hw_state[c->entered]].power_mw;
		}
		r->open_idle_ns += open_idle;
		r->open_idle[cpu].state = open_idle > 0 ? c->entered : -1;
		r->open_idle[cpu].ns = open_idle;
		int64_t loop = measured - in_states - open_idle - busy;
		if (loop > 0)
			energy_mw_ns += (double)loop * s->plat->active_power_mw;
	}
	const struct ik_hw_effects *fx = &s->plat->effects;
	for (int i = 0; i < s->plat->packages; i++)
		r->package_deep_ns += s->packages[i].deep_ns;
	r->package_deep_ns -= snap->package_deep_ns;
	energy_mw_ns += (double)r->package_deep_ns * fx->pkg_idle_mw +
			((double)measured * s->plat->packages - (double)r->package_deep_ns) *
				fx->pkg_active_mw;
	r->energy_j = energy_mw_ns * 1e-12;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->cpus[cpu].mode != CPU_RUNNING)
			r->idle_in_progress++;
	r->idle_entries = s->idle_entries;
	r->wakeups = s->wakeups;
	r->ipis = s->ipis;
	r->messages = s->messages;
	r->bytes = s->bytes;
	r->side_units = s->side_units;
	r->wake_latency = s->wake_latency;
	r->leave_lite = s->leave_lite;
	r->leave_lite_entries = s->leave_lite_entries;
	memcpy(r->idle_hist, s->idle_hist, sizeof(r->idle_hist));
	memcpy(r->idle_time_hist_ns, s->idle_time_hist, sizeof(r->idle_time_hist_ns));
	return sim_workload_result(s, r);
}

static int set_open(const struct ik_scenario *sc, const struct sim_workload_ops *ops,
		    struct ik_sim_set **out, char *err, size_t errlen)
{
	struct ik_sim_set *set = calloc(1, sizeof(*set));

	*out = NULL;
	if (!set)
		return ik__errmsg(err, errlen, "out of memory");
	set->sc = sc;
	set->ops = ops;
	/* a loaded scenario's driver was probed by its check; one built by hand is here */
	const struct ik_driver_binding *probed = &sc->driver_probed;
	if (probed->ops && strcmp(probed->ops->name, sc->driver) == 0) {
		set->bind = *probed;
	} else if (ik__idle_driver_probe(sc, &set->bind, err, errlen)) {
		free(set);
		return -1;
	}
	if (ops->prepare) {
		void *shared = calloc(1, ops->shared_size ? ops->shared_size : 1);
		if (!shared || ops->prepare(sc, shared, err, errlen)) {
			if (!shared)
				snprintf(err, errlen, "out of memory preparing the %s workload", ops->name);
			free(shared);
			ik__sim_set_close(set);
			return -1;
		}
		set->wl_shared = shared;
	}
	*out = set;
	return 0;
}

int ik__sim_set_open(const struct ik_scenario *sc, struct ik_sim_set **out, char *err,
		    size_t errlen)
{
	const struct sim_workload_ops *ops = sim_workload_ops_of(sc->workload.kind);

	if (!ops) {
		*out = NULL;
		return ik__errmsg(err, errlen, "workload: type %d has no implementation",
				  (int)sc->workload.kind);
	}
	return set_open(sc, ops, out, err, errlen);
}

void ik__sim_set_close(struct ik_sim_set *set)
{
	if (!set)
		return;
	if (set->ops->unprepare && set->wl_shared)
		set->ops->unprepare(set->wl_shared);
	free(set->wl_shared);
	free(set);
}

int ik__sim_run(const struct ik_scenario *sc, uint64_t seed, struct ik_run_result *out,
	       char *err, size_t errlen)
{
	return ik__sim_run_watched(sc, seed, NULL, out, err, errlen);
}

int ik__sim_run_watched(const struct ik_scenario *sc, uint64_t seed,
		       const struct ik_sim_watch *watch, struct ik_run_result *out, char *err,
		       size_t errlen)
{
	struct ik_sim_set *set;

	if (ik__sim_set_open(sc, &set, err, errlen))
		return -1;
	int rc = ik__sim_set_run(set, seed, watch, out, err, errlen);
	ik__sim_set_close(set);
	return rc;
}

int sim_run(const struct ik_scenario *sc, const struct sim_workload_ops *ops, uint64_t seed,
	    const struct ik_sim_watch *watch, struct ik_run_result *out, char *err, size_t errlen)
{
	struct ik_sim_set *set;

	if (set_open(sc, ops, &set, err, errlen))
		return -1;
	int rc = ik__sim_set_run(set, seed, watch, out, err, errlen);
	ik__sim_set_close(set);
	return rc;
}

int ik__sim_set_run(const struct ik_sim_set *set, uint64_t seed, const struct ik_sim_watch *watch,
		   struct ik_run_result *out, char *err, size_t errlen)
{
	const struct ik_scenario *sc = set->sc;
	struct ik_sim *s = calloc(1, sizeof(*s));
	struct snapshot snap = { 0 };
	int rc = -1;

	if (!s)
		return ik__errmsg(err, errlen, "out of memory");
	if (sim_setup(s, set, seed, err, errlen) || sim_workload_setup(s, err, errlen))
		goto done;
	int n = s->drv->state_count;
	snap.per_cpu = calloc((size_t)s->ncpus * (size_t)n, sizeof(*snap.per_cpu));
	snap.busy = calloc((size_t)s->ncpus, sizeof(int64_t));
	snap.idle = calloc((size_t)s->ncpus, sizeof(int64_t));
	snap.busy_energy = calloc((size_t)s->ncpus, sizeof(double));
	if (!snap.per_cpu || !snap.busy || !snap.idle || !snap.busy_energy) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}

	int64_t warmup = sc->warmup_ns, end = sc->warmup_ns + sc->duration_ns;
	int warmup_id = s->ncpus * CPU_TIMER_STRIDE + s->ntasks + GLOBAL_WARMUP_END;
	s->measuring = warmup == 0;
	if (warmup > 0)
		ik__eq_arm(&s->eq, warmup_id, warmup);
	/* The watch is a timer of its own: it changes no state, and ties between timers are
	   broken by id, so the other timers fire in the same order with it or without. */
	int watch_id = s->ncpus * CPU_TIMER_STRIDE + s->ntasks + GLOBAL_WATCH;
	if (watch && watch->every_ns > 0 && watch->every_ns < end)
		ik__eq_arm(&s->eq, watch_id, watch->every_ns);

	/* Every CPU starts in the idle loop with its tick running. */
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct sim_cpu *c = &s->cpus[cpu];
		ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_TICK), c->dev.tick_nsec);
		if (sc->housekeeping_hz > 0) /* each CPU's at its own phase */
			ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_HOUSEKEEPING),
				  1 + (int64_t)(ik__rng_unit(&s->rng) * 1e9 / sc->housekeeping_hz));
		sim_cpu_idle_enter(s, cpu);
	}

	for (;;) {
		int64_t t;
		int id = ik__eq_pop_until(&s->eq, end, &t);
		if (id < 0)
			break;
		if (id == watch_id) {
			watch->at(watch->user, t, end);
			if (t + watch->every_ns < end) /* (none at the end itself) */
				ik__eq_arm(&s->eq, watch_id, t + watch->every_ns);
			continue;
		}
		s->now = t;
		if (id == warmup_id) {
			/*
			 * Spans and idle periods in progress are counted whole in the window,
			 * so time in states never exceeds idle time.
			 */
			sim_effects_close(s, t);
			take_snapshot(s, &snap);
			s->measuring = true;
			continue;
		}
		dispatch(s, id);
	}
	s->now = end;
	close_spans(s, end);
	sim_effects_close(s, end);
	if (fill_result(s, &snap, sc->duration_ns, seed, out)) {
		snprintf(err, errlen, "out of memory");
		goto done;
	}
	sim_timeline_take(s, out);
	rc = 0;
done:
	free(snap.per_cpu);
	free(snap.busy);
	free(snap.idle);
	free(snap.busy_energy);
	sim_free(s);
	free(s);
	return rc;
}
