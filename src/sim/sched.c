/*
 * The scheduler's part: waking tasks, placing them, run queues, and what a CPU does when
 * the work it runs ends.  Only what shapes idle periods is modelled: FIFO run queues, no
 * preemption among SCHED_OTHER tasks, a fixed context-switch cost.  Tasks of other
 * policies (SCHED_FIFO, SCHED_RR, SCHED_DEADLINE: sched_rt.c) order the run queues by rank
 * and preempt; without them (s->policies false) nothing here changes.
 */
#include "hw/sample.h" /* the draws inline (and no floating-point contraction) */
#include "util/histogram.h" /* the wake-latency histogram's add, inline */
#include "sim/workload.h"

/* A CPU is idle for placement when it runs the idle loop and nothing is queued for it. */
bool sim_cpu_is_idle(const struct ik_sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	return c->nr_queued == 0 && (c->mode != CPU_RUNNING || c->in_idle_loop);
}

/* select_cpu's scan, the previous CPU being busy: out of line, so that sim_wake_task's
   usual path (a pinned task, or an idle previous CPU) needs fewer registers. */
static __attribute__((noinline)) int select_cpu_in_llc(const struct ik_sim *s, int prev)
{
	int g = s->cpus[prev].topo.llc;
	int first = s->llc_first[g], n = s->llc_first[g + 1] - first;
	int at = s->llc_pos[prev] - first;
	for (int k = 1, i = at + 1; k < n; k++, i++) { /* i = (at + k) mod n, no division */
		if (i == n)
			i = 0;
		int cpu = s->llc_cpus[first + i];
		if (sim_cpu_is_idle(s, cpu))
			return cpu;
	}
	return prev;
}

/*
 * A task allowed on several CPUs (its affinity, t->aff), its previous CPU (one of them)
 * busy: the first idle one of them after it in the list, else for an RT or deadline task
 * the first that runs a task of lower rank, else the previous CPU.
 */
static __attribute__((noinline)) int select_cpu_in_aff(const struct ik_sim *s,
							const struct sim_task *t, int prev)
{
	int at = 0, lower = -1;
	while (at < t->naff && t->aff[at] != prev)
		at++;
	for (int k = 1; k < t->naff; k++) {
		int cpu = t->aff[(at + k) % t->naff];
		if (cpu >= s->ncpus)
			continue;
		if (sim_cpu_is_idle(s, cpu))
			return cpu;
		const struct sim_cpu *c = &s->cpus[cpu];
		if (lower < 0 && t->prio > 0 && c->nr_queued == 0 && c->current >= 0 &&
		    sim_rt_before(t, &s->tasks[c->current]))
			lower = cpu;
	}
	return lower >= 0 ? lower : prev;
}

/*
 * Wake-up placement for tasks that are not pinned, after select_idle_sibling(): the
 * previous CPU if it is idle, else the first idle CPU of its last-level cache scanning
 * onwards from it, else the previous CPU anyway.
 */
static int select_cpu(const struct ik_sim *s, const struct sim_task *t)
{
	int prev = t->cpu;

	if (t->pinned || sim_cpu_is_idle(s, prev))
		return prev;
	if (t->prio > 0) {
		const struct sim_cpu *c = &s->cpus[prev];
		if (c->nr_queued == 0 && c->current >= 0 && sim_rt_before(t, &s->tasks[c->current]))
			return prev; /* it preempts what runs there (select_task_rq_rt) */
		if (t->naff == 0)
			return sim_rt_select_cpu(s, t, prev);
	}
	if (t->naff > 0)
		return select_cpu_in_aff(s, t, prev);
	return select_cpu_in_llc(s, prev);
}

static void enqueue(struct ik_sim *s, int cpu, int task)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (s->policies) {
		sim_rt_enqueue(s, cpu, task, false);
		return;
	}

	s->tasks[task].next = -1;
	if (c->rq_tail >= 0)
		s->tasks[c->rq_tail].next = task;
	else
		c->rq_head = task;
	c->rq_tail = task;
	c->nr_queued++;
}

static int dequeue(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int task = c->rq_head;

	c->rq_head = s->tasks[task].next;
	if (c->rq_head < 0)
		c->rq_tail = -1;
	c->nr_queued--;
	return task;
}

/*
 * rq->nr_iowait: a task whose sleep is an I/O wait counts on the CPU it last ran on until it
 * is woken (ttwu takes it off that CPU's count before choosing where it runs).
 */
static void end_iowait(struct ik_sim *s, struct sim_task *t)
{
	if (t->in_iowait) {
		t->in_iowait = false;
		s->cpus[t->iowait_cpu].nr_iowait--;
	}
}

/*
 * A task of this CPU has just gone to sleep: workload.iowait_pct of all sleeps are I/O
 * waits, spread evenly over each task's sleeps (an error-diffusion counter, no random draw,
 * so the other random streams are the same with and without I/O waits).
 */
static void start_sleep(struct ik_sim *s, int cpu, struct sim_task *t)
{
	t->iowait_acc += s->iowait_ppm;
	if (t->iowait_acc >= 1000000u) {
		t->iowait_acc -= 1000000u;
		t->in_iowait = true;
		t->iowait_cpu = cpu;
		s->cpus[cpu].nr_iowait++;
	}
}

/* Does a task of this CPU run now (the time since the CPU's last PELT update is running)? */
static bool runs_task(const struct sim_cpu *c)
{
	return c->mode == CPU_RUNNING && c->current >= 0;
}

/*
 * A task that runs on another CPU than before takes its utilisation along
 * (migrate_task_rq_fair(): removed from the old run queue's signal, attached to the new
 * one's at the new queue's position in the period), so the CPU it left stops looking busy
 * on its account.  The kernel moves it when the task is queued on the new CPU; here it
 * moves when the new CPU switches to it (sim_run_next), which also covers tasks whose
 * affinity changed (rt-app), a wake latency later.
 */
static void migrate_util(struct ik_sim *s, struct sim_task *t, int from_cpu, int to_cpu)
{
	const struct ik_pelt_consts *k = &s->pelt_k;
	struct sim_cpu *from = &s->cpus[from_cpu], *to = &s->cpus[to_cpu];
	struct ik_pelt *tp = &t->pelt, *fp = &from->pelt, *np = &to->pelt;
	uint64_t min_divider = k->load_avg_max - 1024;

	ik__pelt_update(k, tp, s->now, false);
	ik__pelt_update(k, fp, s->now, runs_task(from));
	uint64_t r = tp->util_avg, rsum = r * (min_divider + fp->period_contrib);
	fp->util_avg = fp->util_avg > r ? fp->util_avg - (uint32_t)r : 0;
	fp->util_sum = fp->util_sum > rsum ? fp->util_sum - rsum : 0;
	if (fp->util_sum < (uint64_t)fp->util_avg * min_divider)
		fp->util_sum = (uint64_t)fp->util_avg * min_divider;

	ik__pelt_update(k, np, s->now, runs_task(to));
	tp->last_update_ns = np->last_update_ns;
	tp->period_contrib = np->period_contrib;
	tp->util_sum = r * (min_divider + np->period_contrib);
	np->util_avg += tp->util_avg;
	np->util_sum += tp->util_sum;
}

/*
 * try_to_wake_up(): queue the task where it will run and, if that CPU sits in an idle
 * state, make it leave: a CPU polling or monitoring need_resched (POLL, MWAIT) sees the
 * flag by itself; any other state needs an IPI.
 */
void sim_wake_task(struct ik_sim *s, int task, int waker_cpu)
{
	struct sim_task *t = &s->tasks[task];
	int cpu = select_cpu(s, t);
	struct sim_cpu *c = &s->cpus[cpu];

	(void)waker_cpu;
	end_iowait(s, t);
	t->state = TASK_RUNNABLE;
	t->cpu = cpu;
	t->woken_at = s->now;
	if (s->policies)
		sim_rt_wakeup(s, t);
	enqueue(s, cpu, task);
	if (c->mode != CPU_IDLE) {
		if (s->policies)
			sim_rt_check_preempt(s, cpu, task);
		return;
	}

	const struct ik_hw_state *hw = &s->plat->states[s->bind.hw_state[c->entered]];
	int64_t arrival;
	if (hw->needs_ipi) {
		arrival = s->now + ik__dist_sample_inline(&s->plat->ipi_ns, &s->rng);
		if (s->measuring)
			s->ipis++;
	} else {
		arrival = s->now + s->plat->poll_wake_ns;
	}
	int id = cpu_timer_id(cpu, TIMER_WAKE);
	if (!ik__eq_armed(&s->eq, id) || ik__eq_expires(&s->eq, id) > arrival)
		ik__eq_arm(&s->eq, id, arrival);
}

/* A task that does not sleep goes back on its run queue, behind any task waiting there. */
void sim_requeue_task(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];

	t->state = TASK_RUNNABLE;
	t->woken_at = -1;
	enqueue(s, t->cpu, task);
}

/*
 * With policies: the task's item (or its rest, resumed after a preemption, slice or
 * throttling) runs from start, cut at its RR slice or DL runtime left (sched_rt.c).
 */
static void run_stretch(struct ik_sim *s, int cpu, struct sim_task *t, int64_t start)
{
	if (!t->resumed) {
		t->started_at = start;
		t->item_end = start + t->work_ns;
	} else if (t->fixed_time) {
		t->work_ns = t->item_end > start ? t->item_end - start : 0; /* rt-app's clock */
	}
	t->resumed = false;
	t->seg_start = start;
	t->seg_wall = (t->fixed_time ? t->work_ns : sim_effects_work(s, cpu, t->work_ns)) +
		      t->unscaled_ns;
	int64_t limit = sim_rt_limit(s, t);
	t->cut = t->seg_wall > limit;
	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_WORK_DONE),
		  start + (t->cut ? limit : t->seg_wall));
}

/* Switch to the first queued task (no switch if it is the one that just ran) and run it. */
void sim_run_next(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int task = dequeue(s, cpu);
	struct sim_task *t = &s->tasks[task];
	int64_t start = s->now + (task == c->last_task ? 0 : s->plat->context_switch_ns);

	if (s->track_util) {
		if (t->util_cpu != cpu) {
			migrate_util(s, t, t->util_cpu, cpu);
			t->util_cpu = cpu;
		}
		/* the time before: the CPU ran no task, the task did not run */
		ik__pelt_update(&s->pelt_k, &c->pelt, s->now, false);
		ik__pelt_update(&s->pelt_k, &t->pelt, s->now, false);
	}
	c->mode = CPU_RUNNING;
	c->current = task;
	c->last_task = task;
	t->state = TASK_RUNNING;
	if (t->woken_at >= 0 && s->measuring) {
		ik__hist_add_inline(&s->wake_latency, start - t->woken_at);
		s->wakeups++;
	}
	t->woken_at = -1;
	if (s->policies) {
		run_stretch(s, cpu, t, start);
		return;
	}
	t->started_at = start;
	int64_t length = sim_effects_work(s, cpu, t->work_ns);
	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_WORK_DONE),
		  start + (t->fixed_time ? t->work_ns : length) + t->unscaled_ns);
}

void sim_work_done(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int task = c->current;

	c->busy_ns += s->now - c->span_start;
	c->busy_energy += (double)(s->now - c->span_start) * c->run_power_mw;
	c->span_start = s->now;
	if (task >= 0) {
		struct sim_task *t = &s->tasks[task];
		/* the CPU and the task ran since sim_run_next */
		if (s->track_util)
			ik__pelt_update_running2(&s->pelt_k, &c->pelt, &t->pelt, s->now);
		c->current = -1;
		if (s->policies && t->cut) {
			sim_rt_cut(s, cpu, task); /* its slice or runtime ended, not its work */
			goto next;
		}
		if (s->policies)
			sim_rt_charge(s, t);
		t->state = TASK_BLOCKED;
		sim_workload_task_done(s, task);
		if (s->iowait_ppm && t->state == TASK_BLOCKED)
			start_sleep(s, cpu, t);
	} else if (s->wl_ops->handler_done) {
		s->wl_ops->handler_done(s, cpu); /* a handler in the idle loop ended */
	}
next:
	if (c->pending_irq_work > 0) {
		int64_t work = sim_effects_work(s, cpu, c->pending_irq_work);
		c->pending_irq_work = 0;
		ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_WORK_DONE), s->now + work);
		return;
	}
	if (c->nr_queued > 0) {
		/* A handler ran in the idle loop and work arrived: leave the loop. */
		if (c->in_idle_loop)
			sim_leave_idle_loop(s, cpu);
		sim_run_next(s, cpu);
		return;
	}
	sim_cpu_idle_enter(s, cpu);
}

/* See sim_internal.h. */
void sim_interrupt(struct ik_sim *s, int cpu, int64_t work, enum wake_reason why)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (c->mode == CPU_RUNNING && ik__eq_armed(&s->eq, cpu_timer_id(cpu, TIMER_WORK_DONE))) {
		int id = cpu_timer_id(cpu, TIMER_WORK_DONE);
		ik__eq_arm(&s->eq, id, ik__eq_expires(&s->eq, id) + work);
		return;
	}
	c->pending_irq_work += work;
	if (c->mode == CPU_IDLE)
		sim_cpu_wake(s, cpu, why);
}

/* A device interrupt: the workload armed it (TIMER_IRQ), the workload handles it. */
void sim_device_irq(struct ik_sim *s, int cpu)
{
	if (s->wl_ops->irq)
		s->wl_ops->irq(s, cpu);
}

/* The kernel's periodic housekeeping timer: a local timer interrupt with some work. */
void sim_housekeeping(struct ik_sim *s, int cpu)
{
	int64_t period = (int64_t)(1e9 / s->sc->housekeeping_hz);

	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_HOUSEKEEPING), s->now + (period > 0 ? period : 1));
	sim_interrupt(s, cpu, s->sc->housekeeping_work_ns, WAKE_TIMER);
}

/*
 * An IPI sent for its own sake (smp_call_function_single), as wake-latency benchmarks do:
 * it is delivered even to a polling CPU, and its handler runs as soon as the CPU is out of
 * its idle state.
 */
void sim_send_ipi(struct ik_sim *s, int cpu)
{
	s->cpus[cpu].ipi_sent_at = s->now;
	if (s->measuring)
		s->ipis++;
	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_IPI), s->now + ik__dist_sample(&s->plat->ipi_ns, &s->rng));
}

void sim_ipi_handled(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (c->ipi_sent_at < 0)
		return;
	if (s->measuring) {
		ik__hist_add_inline(&s->wake_latency, s->now - c->ipi_sent_at);
		s->wakeups++;
	}
	c->ipi_sent_at = -1;
}

void sim_ipi_arrives(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	if (c->mode == CPU_RUNNING)
		sim_ipi_handled(s, cpu); /* interrupts the work at once */
	sim_interrupt(s, cpu, s->ipi_handler_ns, WAKE_REMOTE);
}

/* A task's own timer fired on its CPU: the timer interrupt wakes that CPU itself. */
void sim_task_timer(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];
	int cpu = t->cpu;
	struct sim_cpu *c = &s->cpus[cpu];

	if (t->state == TASK_THROTTLED) {
		sim_rt_replenish(s, task); /* a deadline task's next period */
		return;
	}
	if (s->wl_ops->task_timer && s->wl_ops->task_timer(s, task))
		return; /* one of the workload's own clocks */
	if (t->state != TASK_BLOCKED)
		return;
	if ((t->naff > 0 || (s->policies && !t->pinned)) && !sim_cpu_is_idle(s, cpu)) {
		/* an affinity of several CPUs, or an RT run: try_to_wake_up's choice of CPU
		   (the timer's CPU is busy) */
		sim_wake_task(s, task, cpu);
		return;
	}
	end_iowait(s, t);
	t->state = TASK_RUNNABLE;
	t->woken_at = s->now;
	if (s->policies)
		sim_rt_wakeup(s, t);
	enqueue(s, cpu, task);
	if (c->mode == CPU_IDLE)
		sim_cpu_wake(s, cpu, WAKE_TIMER);
	else if (s->policies)
		sim_rt_check_preempt(s, cpu, task);
}
