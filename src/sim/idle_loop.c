/*
 * The idle loop of one CPU, as kernel/sched/idle.c and drivers/cpuidle/cpuidle.c run it:
 * ask the governor, stop or keep the tick, enter the state, stay until a wake event, pay
 * the hardware's real exit cost, account what the kernel would measure, reflect, and either
 * run the task that woke us or go round again.
 */
#include "core/idle_call.h"
#include "hw/sample.h" /* the draws inline (and no floating-point contraction) */
#include "sim/sim_internal.h"
#include "util/idle_hist.h" /* the idle histogram's bucket, inline */

static int64_t next_local_timer(const struct ik_sim *s, const struct sim_cpu *c)
{
	int hk = cpu_timer_id(c->dev.cpu, TIMER_HOUSEKEEPING);
	int64_t next = ik__eq_armed(&s->eq, hk) ? ik__eq_expires(&s->eq, hk) : INT64_MAX;

	if (s->socket_timers) { /* only a workload with sockets arms them: no look otherwise */
		int sock = cpu_timer_id(c->dev.cpu, TIMER_SOCKET);
		if (ik__eq_armed(&s->eq, sock) && ik__eq_expires(&s->eq, sock) < next)
			next = ik__eq_expires(&s->eq, sock);
	}

	for (int i = 0; i < c->ntimers; i++) {
		int id = task_timer_id(s, c->timer_tasks[i]);
		if (ik__eq_armed(&s->eq, id) && ik__eq_expires(&s->eq, id) < next)
			next = ik__eq_expires(&s->eq, id);
	}
	return next;
}

/*
 * What tick_nohz_get_sleep_length() would say: the time to the next timer ignoring the
 * tick, and (delta_next) the time to the next clock event, the tick included while it runs.
 * The model's timers are hrtimers, which do not wait for a tick boundary.
 */
static void fill_tick_inputs(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int64_t now = s->now;
	int64_t timer = next_local_timer(s, c);
	int tick_id = cpu_timer_id(cpu, TIMER_TICK);
	int64_t tick = ik__eq_armed(&s->eq, tick_id) ? ik__eq_expires(&s->eq, tick_id) : INT64_MAX;
	int64_t next_event = timer < tick ? timer : tick;

	c->dev.in.sleep_length_ns = timer == INT64_MAX ? IK_KTIME_MAX : timer - now;
	c->dev.in.delta_next_ns = next_event == INT64_MAX ? IK_KTIME_MAX : next_event - now;
	c->dev.in.tick_stopped = c->tick_stopped;
	c->dev.in.latency_req_ns = s->latency_req_ns;
	c->dev.in.now_ns = now;
	/* the scheduler's side: sched_cpu_util() and nr_iowait_cpu() */
	c->dev.in.cpu_util = sim_cpu_util(s, cpu);
	c->dev.in.nr_iowaiters = c->nr_iowait;
}

static void stop_tick(struct ik_sim *s, int cpu)
{
	s->cpus[cpu].tick_stopped = true;
	ik__eq_cancel(&s->eq, cpu_timer_id(cpu, TIMER_TICK));
}

/*
 * Work is queued: leave the idle loop (tick_nohz_idle_exit(): a stopped tick restarts on
 * the next tick boundary).
 */
void sim_leave_idle_loop(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int64_t tick = c->dev.tick_nsec;

	c->in_idle_loop = false;
	c->idle_ns += s->now - c->span_start;
	c->span_start = s->now;
	if (c->tick_stopped) {
		c->tick_stopped = false;
		ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_TICK), (s->now / tick + 1) * tick);
	}
}

/* The world's side of the idle call (core/idle_call.h). */
static void world_stop_tick(void *ctx, struct ik_device *dev)
{
	stop_tick(ctx, dev->cpu);
}

/* The driver's ->enter, and the hardware starting to enter the state. */
static int world_enter(void *ctx, struct ik_device *dev, int idx)
{
	struct ik_sim *s = ctx;
	int cpu = dev->cpu;
	struct sim_cpu *c = &s->cpus[cpu];
	const struct ik_driver *drv = s->drv;
	const struct ik_driver_binding *bind = &s->bind;

	if (bind->ops->enter)
		idx = bind->ops->enter(&s->bind, &c->dev, idx, s->now, &s->rng);
	const struct ik_hw_state *hw = &s->plat->states[bind->hw_state[idx]];
	c->entered = idx;
	c->driver_exit_done = false;
	/* the idle path's own CPU time first: busy, not the state's residency */
	c->idle_t0 = s->now + hw->entry_busy_ns;
	c->entry_done = c->idle_t0 + ik__dist_sample_inline(&hw->entry, &s->rng);
	c->mode = CPU_IDLE;
	sim_effects_idle(s, cpu);
	if (c->watch_leave && !(drv->states[idx].flags & IK_FLAG_POLLING)) {
		if (!s->plat->effects.state_lite[bind->hw_state[idx]]) {
			c->watch_leave = false;
			ik__hist_add(&s->leave_lite, s->now - c->last_work_end);
			ik__hist_add(&s->leave_lite_entries, c->lite_entries);
		} else {
			c->lite_entries++; /* a stay in a lite state (a poll ends by its own limit) */
		}
	}
	return idx;
}

static void world_arm_poll_limit(void *ctx, struct ik_device *dev, uint64_t limit_ns)
{
	struct ik_sim *s = ctx;
	ik__eq_arm(&s->eq, cpu_timer_id(dev->cpu, TIMER_POLL), s->now + (int64_t)limit_ns);
}

void sim_cpu_idle_enter(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	/* (A constant world: the idle call is inline, so its calls of these become direct.) */
	const struct ik_idle_world world = { s, world_stop_tick, world_enter, world_arm_poll_limit };

	if (!c->in_idle_loop) {
		c->in_idle_loop = true;
		c->span_start = s->now;
		c->last_task = -1; /* whatever runs next is switched to from the idle task */
	}
	fill_tick_inputs(s, cpu);
	if (s->measuring)
		s->idle_entries++;

	/* With no cpuidle driver the default idle routine runs and the tick always stops. */
	bool stop;
	int idx = ik__idle_call_enter(s->gov, s->drv, &c->dev, &world, &stop);

	const struct ik_driver_binding *bind = &s->bind;
	if (bind->ops->wakeup_timer_ns) {
		int64_t after = bind->ops->wakeup_timer_ns(&s->bind, &c->dev, idx);
		if (after > 0)
			ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_DRIVER), s->now + after);
	}
}

/* A wake event reached a CPU in an idle state: start its exit. */
void sim_cpu_wake(struct ik_sim *s, int cpu, enum wake_reason why)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (c->mode != CPU_IDLE)
		return;
	ik__eq_cancel(&s->eq, cpu_timer_id(cpu, TIMER_WAKE));
	ik__eq_cancel(&s->eq, cpu_timer_id(cpu, TIMER_POLL));
	ik__eq_cancel(&s->eq, cpu_timer_id(cpu, TIMER_DRIVER));

	const struct ik_hw_state *hw = &s->plat->states[s->bind.hw_state[c->entered]];
	int64_t start = s->now > c->entry_done ? s->now : c->entry_done;
	const struct ik_dist *exit_cost = NULL;
	const struct ik_exit_curve *after = NULL; /* what a long idle adds */
	int64_t cost = 0;

	switch (why) {
	case WAKE_TICK:
	case WAKE_TIMER:
		exit_cost = &hw->exit[IK_WAKE_TIMER];
		after = &hw->timer_after_idle;
		break;
	case WAKE_REMOTE:
		exit_cost = &hw->exit[IK_WAKE_IPI];
		after = &hw->after_idle;
		break;
	case WAKE_IRQ:
		exit_cost = &hw->exit[IK_WAKE_IRQ];
		after = &hw->after_idle;
		break;
	case WAKE_POLL_LIMIT:
		c->dev.poll_time_limit = true;
		break;
	}
	if (exit_cost)
		cost = ik__dist_sample_inline(exit_cost, &s->rng);
	if (after && after->n > 0)
		cost += ik__exit_curve_extra(after, start - c->idle_t0);
	cost += sim_effects_wake(s, cpu); /* the package's own exit, if it was deep */
	c->reason = why;
	c->mode = CPU_EXITING;
	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_EXIT_DONE), start + cost);
}

void sim_cpu_poll_limit(struct ik_sim *s, int cpu)
{
	sim_cpu_wake(s, cpu, WAKE_POLL_LIMIT);
}

void sim_cpu_tick(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_TICK), s->now + c->dev.tick_nsec);
	if (c->mode == CPU_IDLE)
		sim_cpu_wake(s, cpu, WAKE_TICK);
}

/* The driver's ->enter returned: account, reflect, then run work or idle again. */
void sim_cpu_exit_done(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	/* The hardware is out of the state; the driver may still have work before returning. */
	if (!c->driver_exit_done) {
		c->driver_exit_done = true;
		int64_t extra = 0;
		if (s->bind.ops->exit_ns)
			extra = s->bind.ops->exit_ns(&s->bind, cpu, c->entered, s->now, &s->rng);
		if (extra > 0) {
			ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_EXIT_DONE), s->now + extra);
			return;
		}
	}
	c->dev.in.now_ns = s->now;
	ik__idle_call_exit(s->gov, s->drv, &c->dev, c->entered, s->now - c->idle_t0,
			  c->reason == WAKE_TICK, c->reason == WAKE_POLL_LIMIT);
	if (s->measuring) {
		int bucket = ik__trace_hist_bucket_inline((uint64_t)(s->now - c->idle_t0));
		s->idle_hist[bucket]++;
		s->idle_time_hist[bucket] += (uint64_t)(s->now - c->idle_t0);
	}
	if (s->sc->timeline_len_ns > 0)
		sim_timeline_idle(s, cpu, c->entered, c->idle_t0);
	c->mode = CPU_RUNNING;
	c->current = -1;

	if (c->pending_irq_work > 0) {
		/* The interrupt handler runs inside the idle loop. */
		sim_ipi_handled(s, cpu);
		int64_t work = sim_effects_work(s, cpu, c->pending_irq_work);
		c->pending_irq_work = 0;
		ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_WORK_DONE), s->now + work);
		c->idle_ns += s->now - c->span_start;
		c->span_start = s->now;
		return;
	}
	if (c->nr_queued > 0) {
		sim_leave_idle_loop(s, cpu);
		sim_run_next(s, cpu);
		return;
	}
	sim_cpu_idle_enter(s, cpu);
}
