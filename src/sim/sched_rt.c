/*
 * Scheduling policies beside SCHED_OTHER: SCHED_FIFO and SCHED_RR with their priorities,
 * and SCHED_DEADLINE as a constant-bandwidth reservation.  Written from the documented
 * behaviour (sched(7), Documentation/scheduler/sched-deadline.rst and sched-rt-group.rst),
 * only as far as it shapes when tasks run and CPUs idle:
 *
 * - rank: a deadline task above every RT task, an RT task above SCHED_OTHER, a higher RT
 *   priority above a lower; among deadline tasks the earlier absolute deadline (EDF).
 *   A run queue is kept in rank order, FIFO among equals.
 * - a task queued where one of lower rank runs preempts it at once (the context switch
 *   later); the preempted task keeps its place at the front of its equals and resumes its
 *   item where it stopped.  A `runtime` item (fixed_time) ends at its wall time whatever
 *   the preemption, as rt-app's runtime loop reads the clock.
 * - SCHED_RR: a time slice of 100 ms (sched_rr_timeslice_ms); at its end the task goes
 *   behind its equals on its CPU, with a new slice.
 * - SCHED_DEADLINE: runtime Q, relative deadline D, period P.  A task that becomes
 *   runnable after blocking gets a new deadline now + D and a full Q unless the runtime it
 *   has left fits in its old deadline at its reserved rate (left/(deadline-now) <= Q/D);
 *   (a constrained deadline, D < P: the revised rule keeps the old deadline with the
 *   runtime Q/D allows before it, and a task woken between its deadline and its next
 *   period waits for that period); while it runs its runtime is spent; when none is left
 *   it is throttled off the run
 *   queue until its next period (old deadline - D + P), when it gets Q more and a
 *   deadline P later.  So it never runs more than Q in a period.  Admission (the sum of
 *   Q/P at most 95 % of the CPUs) is checked where the policy is read (the rt-app file).
 *
 * Not modelled: RT throttling (sched_rt_runtime_us: RT tasks may take 95 % of a CPU; here
 * they take all of it), RT and DL push/pull balancing between CPUs after the wake-up,
 * priority inheritance, GRUB reclaiming, SCHED_OTHER's own preemption by vruntime.
 */
#include <limits.h>

#include "sim/workload.h"

#define RR_SLICE_NS 100000000LL /* sched_rr_timeslice_ms = 100 */

static void replenish(struct ik_sim *s, struct sim_task *t);

void sim_task_set_policy(struct ik_sim *s, int task, enum sim_policy policy, int prio,
			 int64_t runtime, int64_t deadline, int64_t period)
{
	struct sim_task *t = &s->tasks[task];

	t->policy = policy;
	t->prio = policy == SIM_SCHED_DEADLINE ? SIM_PRIO_DL :
		  policy == SIM_SCHED_OTHER ? 0 : prio;
	t->rr_left = RR_SLICE_NS;
	t->dl_runtime = runtime;
	t->dl_deadline = deadline;
	t->dl_period = period;
	if (policy == SIM_SCHED_DEADLINE) {
		t->dl_budget = 0;
		t->dl_abs = INT64_MIN; /* the first wake-up sets its deadline */
	}
	if (policy != SIM_SCHED_OTHER)
		s->policies = true;
}

bool sim_rt_before(const struct sim_task *a, const struct sim_task *b)
{
	if (a->prio != b->prio)
		return a->prio > b->prio;
	return a->prio == SIM_PRIO_DL && a->dl_abs < b->dl_abs;
}

void sim_rt_enqueue(struct ik_sim *s, int cpu, int task, bool head)
{
	struct sim_cpu *c = &s->cpus[cpu];
	struct sim_task *t = &s->tasks[task];
	int prev = -1, x = c->rq_head;

	/* skip the tasks that run before it: of higher rank, and (not head) its equals */
	while (x >= 0) {
		const struct sim_task *o = &s->tasks[x];
		if (head ? !sim_rt_before(o, t) : sim_rt_before(t, o))
			break;
		prev = x;
		x = o->next;
	}
	t->next = x;
	if (prev >= 0)
		s->tasks[prev].next = task;
	else
		c->rq_head = task;
	if (x < 0)
		c->rq_tail = task;
	c->nr_queued++;
}

/* What is left of the running task's item when it stops at now, its work-done timer at
   expires: the part of its work not done (in proportion of the time left), or for a
   fixed-time item the wall time to its end.  A cut stretch's item ends after its timer. */
static void keep_rest(struct ik_sim *s, struct sim_task *t, int64_t expires)
{
	if (t->cut)
		expires = t->seg_start + t->seg_wall;
	if (t->fixed_time) {
		int64_t left = t->item_end - s->now;
		t->work_ns = left > 0 ? left : 0;
	} else if (s->now > t->seg_start && expires > t->seg_start) {
		int64_t left = expires - s->now, all = expires - t->seg_start;
		int64_t rest = (int64_t)((double)t->work_ns * (double)(left > 0 ? left : 0) /
					 (double)all);
		t->work_ns = rest > 0 ? rest : (t->work_ns > 0 ? 1 : 0);
	}
	t->resumed = true;
	t->cut = false;
}

void sim_rt_charge(struct ik_sim *s, struct sim_task *t)
{
	int64_t ran = s->now - t->seg_start;

	if (ran <= 0)
		return;
	if (t->policy == SIM_SCHED_RR)
		t->rr_left -= ran;
	else if (t->policy == SIM_SCHED_DEADLINE)
		t->dl_budget -= ran;
}

int64_t sim_rt_limit(struct ik_sim *s, struct sim_task *t)
{
	if (t->policy == SIM_SCHED_DEADLINE && t->dl_abs == INT64_MIN)
		replenish(s, t); /* it became a deadline task while runnable */
	if (t->policy == SIM_SCHED_RR)
		return t->rr_left > 0 ? t->rr_left : 0;
	if (t->policy == SIM_SCHED_DEADLINE)
		return t->dl_budget > 0 ? t->dl_budget : 0;
	return INT64_MAX;
}

/* dl_entity_overflow: does the runtime left, used by the old deadline, exceed the reserved
   rate (left / (deadline - now) > Q / D)? */
static bool dl_overflow(const struct sim_task *t, int64_t now)
{
	return (__int128)t->dl_budget * t->dl_deadline >
	       (__int128)(t->dl_abs - now) * t->dl_runtime;
}

void sim_rt_wakeup(struct ik_sim *s, struct sim_task *t)
{
	if (t->policy != SIM_SCHED_DEADLINE)
		return;
	bool constrained = t->dl_deadline < t->dl_period;
	if (constrained && t->dl_abs != INT64_MIN && t->dl_abs <= s->now &&
	    s->now < t->dl_abs - t->dl_deadline + t->dl_period) {
		/* dl_check_constrained_dl: woken after its deadline but before its next period,
		   it waits for that period (no runtime: its first stretch is cut at once) */
		t->dl_budget = 0;
		return;
	}
	if (t->dl_abs <= s->now || dl_overflow(t, s->now)) {
		if (constrained && t->dl_abs > s->now) {
			/* update_dl_revised_wakeup: the old deadline kept, the runtime its density
			   Q/D allows in what is left of it */
			t->dl_budget = (int64_t)((__int128)t->dl_runtime * (t->dl_abs - s->now) /
						 t->dl_deadline);
			return;
		}
		t->dl_abs = s->now + t->dl_deadline;
		t->dl_budget = t->dl_runtime;
	}
}

/* The CPU's running task stops for one of higher rank (queued on it already). */
static void preempt(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	int task = c->current, id = cpu_timer_id(cpu, TIMER_WORK_DONE);
	struct sim_task *t = &s->tasks[task];
	int64_t expires = ik__eq_armed(&s->eq, id) ? ik__eq_expires(&s->eq, id) : s->now;

	if (s->track_util)
		ik__pelt_update_running2(&s->pelt_k, &c->pelt, &t->pelt, s->now);
	sim_rt_charge(s, t);
	keep_rest(s, t, expires);
	ik__eq_cancel(&s->eq, id);
	t->state = TASK_RUNNABLE;
	t->woken_at = -1;
	c->current = -1;
	sim_rt_enqueue(s, cpu, task, true);
	sim_run_next(s, cpu);
}

void sim_rt_check_preempt(struct ik_sim *s, int cpu, int task)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (c->mode != CPU_RUNNING || c->current < 0 || c->in_idle_loop)
		return;
	if (sim_rt_before(&s->tasks[task], &s->tasks[c->current]))
		preempt(s, cpu);
}

/* A deadline task's next period: Q more runtime and a deadline P later, as often as it
   takes to have some; one whose deadline is still past after that starts afresh now. */
static void replenish(struct ik_sim *s, struct sim_task *t)
{
	if (t->dl_abs == INT64_MIN) { /* (no period yet) */
		t->dl_abs = s->now + t->dl_deadline;
		t->dl_budget = t->dl_runtime;
		return;
	}
	while (t->dl_budget <= 0) {
		t->dl_abs += t->dl_period;
		t->dl_budget += t->dl_runtime;
	}
	if (t->dl_abs < s->now) {
		t->dl_abs = s->now + t->dl_deadline;
		t->dl_budget = t->dl_runtime;
	}
}

void sim_rt_cut(struct ik_sim *s, int cpu, int task)
{
	struct sim_task *t = &s->tasks[task];

	(void)cpu;
	sim_rt_charge(s, t);
	keep_rest(s, t, s->now); /* (t->cut: the item's end is seg_start + seg_wall) */
	if (t->policy == SIM_SCHED_RR) {
		t->rr_left = RR_SLICE_NS;
		t->state = TASK_RUNNABLE;
		t->woken_at = -1;
		sim_rt_enqueue(s, t->cpu, task, false);
		return;
	}
	/* throttled until the start of its next period (dl_next_period: deadline - D + P) */
	int64_t next = t->dl_abs - t->dl_deadline + t->dl_period;
	if (next <= s->now) {
		replenish(s, t);
		t->state = TASK_RUNNABLE;
		t->woken_at = -1;
		sim_rt_enqueue(s, t->cpu, task, false);
		return;
	}
	t->state = TASK_THROTTLED;
	sim_task_sleep(s, task, next);
}

void sim_rt_yield(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];

	if (t->policy == SIM_SCHED_DEADLINE)
		t->dl_budget = 0;
}

void sim_rt_replenish(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];
	int cpu = t->cpu;
	struct sim_cpu *c = &s->cpus[cpu];

	replenish(s, t);
	t->state = TASK_RUNNABLE;
	t->woken_at = -1;
	sim_rt_enqueue(s, cpu, task, false);
	if (c->mode == CPU_IDLE)
		sim_cpu_wake(s, cpu, WAKE_TIMER);
	else
		sim_rt_check_preempt(s, cpu, task);
}

int sim_rt_select_cpu(const struct ik_sim *s, const struct sim_task *t, int prev)
{
	int g = s->cpus[prev].topo.llc;
	int first = s->llc_first[g], n = s->llc_first[g + 1] - first;
	int at = s->llc_pos[prev] - first, lower = -1;

	for (int k = 1, i = at + 1; k < n; k++, i++) {
		if (i == n)
			i = 0;
		int cpu = s->llc_cpus[first + i];
		if (sim_cpu_is_idle(s, cpu))
			return cpu;
		const struct sim_cpu *c = &s->cpus[cpu];
		if (lower < 0 && c->nr_queued == 0 && c->current >= 0 &&
		    sim_rt_before(t, &s->tasks[c->current]))
			lower = cpu;
	}
	return lower >= 0 ? lower : prev;
}
