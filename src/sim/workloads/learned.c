/*
 * The learned workload: a model learned from a trace (src/config/learned_model.h) run on
 * any platform.  CPU c of the model is CPU c of the platform, with one pinned task.  Each
 * time its work ends it draws the cause of its next wake-up (in the recording's
 * proportions), then an idle length for that cause and a busy time for that cause, both
 * resampled from the recording, and arranges for that wake-up after that length:
 *
 *   timer, tick          its own hrtimer (the governor sees it as the sleep length);
 *   ipi, remote          another CPU wakes the task (a remote wake-up: IPI if needed),
 *                        at a time no timer of the CPU tells;
 *   irq, unknown, none   a device interrupt, whose handler runs the busy time.
 *
 * Idle lengths are the time from the recorded entry to its wake event (the residency less
 * the recorded state's advertised exit latency): the model's wake comes that long after
 * the idle entry, and the platform's own exit follows.  The model's
 * figures: its wake-ups by kind (timer, remote, interrupt); the periods woken by anything
 * else (the tick, a poll limit) are the rest of the idle periods.
 *
 * Timers: tasks 0..n-1 are the CPUs' tasks; tasks n..2n-1 the hidden clocks of the remote
 * wake-ups.  A model CPU that never idled runs a busy loop.
 *
 * A model with tasks (learned from sched events) runs as its tasks instead: task i, after
 * each run, draws the cause of its next wake-up in its recorded proportions, a sleep and a
 * run for that cause, and the CPU of that run from the CPUs it ran on (in proportion to its
 * runs there), and sleeps: timer, tick and local as its own hrtimer on that CPU; ipi and
 * remote woken from another CPU; irq, softirq, unknown and none by a device interrupt on
 * that CPU (no handler time: the recording does not separate it from the run).  Idle
 * periods are then whatever the tasks leave, on the CPUs they share.  Tasks 0..T-1 are the
 * model's tasks, T..2T-1 their hidden clocks, 2T + c the busy loop of model CPU c if it
 * never idled.  A wake-up is counted (by kind) when it finds its CPU in an idle state.
 * The CPU's periods after which no task ran in the recording (`empty`: the tick, a timer or
 * an IPI that woke nobody) come at their recorded rates, at exponential gaps, with a
 * handler of housekeeping_work_ns that wakes nobody: those ended by a timer or the tick as
 * a local timer of the CPU (the governor sees it), the others as an interrupt it does not
 * (counted as remote when IPIs were the most of them, else as device interrupts).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/learned_model.h"
#include "config/wake_cause.h"
#include "sim/workload.h"
#include "util/errmsg.h"

enum { KIND_TIMER, KIND_REMOTE, KIND_IRQ };

struct sim_learned {
	const struct ik_learned *m; /* the model, read once for all runs (learned_prepare) */
	int n;
	int ntasks;        /* the model's tasks (0: run per CPU) */
	int *pending_kind; /* per task: the kind of wake-up its hidden clock makes */
	int64_t *irq_work; /* per CPU: the handler's work of the armed interrupt, -1 = none */
	bool *in_irq;      /* per CPU: its model interrupt's handler is running */
	/* per CPU, its empty periods (0: none): mean gap of the timer ones, of the others, and
	   the kind the others count as */
	double *empty_timer_gap_ns, *empty_irq_gap_ns;
	int *empty_irq_kind;
	bool *empty_irq; /* per CPU: the armed interrupt is an empty period's */
	uint64_t wakes[3];
};

static struct sim_learned *learned_of(const struct ik_sim *s)
{
	return s->wl;
}

static int kind_of(int cause)
{
	switch (cause) {
	case IK_CAUSE_TIMER:
	case IK_CAUSE_TICK:
	case IK_LEARNED_LOCAL:
		return KIND_TIMER;
	case IK_CAUSE_IPI:
	case IK_CAUSE_REMOTE:
		return KIND_REMOTE;
	default:
		return KIND_IRQ;
	}
}

/* A sample's index, uniformly; -1 when there is none. */
static int pick_index(struct ik_sim *s, const struct ik_learned_samples *v)
{
	if (v->n == 0)
		return -1;
	int i = (int)(ik__rng_unit(&s->rng) * v->n);
	return i < v->n ? i : v->n - 1;
}

static int64_t pick(struct ik_sim *s, const struct ik_learned_samples *v)
{
	int i = pick_index(s, v);
	return i >= 0 ? v->v[i] : 0;
}

/* The CPU's next idle period and the work after it. */
static void next_cycle(struct ik_sim *s, int cpu)
{
	struct sim_learned *l = learned_of(s);
	const struct ik_learned_cpu *m = &l->m->cpu[cpu];
	uint64_t total = 0;

	for (int k = 0; k < IK_LEARNED_CAUSES; k++)
		total += m->periods[k];
	if (total == 0)
		return; /* never woke in the recording */
	double u = ik__rng_unit(&s->rng) * (double)total;
	int cause = 0;
	for (; cause < IK_LEARNED_CAUSES - 1; cause++) {
		if (u < (double)m->periods[cause])
			break;
		u -= (double)m->periods[cause];
	}
	while (m->periods[cause] == 0) /* rounding at the top end */
		cause--;
	int64_t idle = pick(s, &m->idle[cause]);
	int64_t busy = pick(s, &m->busy[cause]);
	int64_t at = s->now + (idle > 0 ? idle : 1);
	struct sim_task *t = &s->tasks[cpu];

	switch (kind_of(cause)) {
	case KIND_TIMER:
		t->work_ns = busy;
		sim_task_sleep(s, cpu, at);
		break;
	case KIND_REMOTE:
		t->work_ns = busy;
		ik__eq_arm(&s->eq, task_timer_id(s, l->n + cpu), at);
		break;
	case KIND_IRQ:
		l->irq_work[cpu] = busy > 0 ? busy : 1;
		ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_IRQ), at);
		break;
	}
}

/* A draw from counts[0..n-1] in proportion; -1 if all are 0. */
static int draw(struct ik_sim *s, const uint64_t *counts, int n)
{
	uint64_t total = 0;
	int last = -1;
	for (int k = 0; k < n; k++)
		if (counts[k]) {
			total += counts[k];
			last = k;
		}
	if (total == 0)
		return -1;
	double u = ik__rng_unit(&s->rng) * (double)total;
	for (int k = 0; k < n; k++) {
		if (u < (double)counts[k])
			return k;
		u -= (double)counts[k];
	}
	return last; /* rounding at the top end */
}

/* Task i's next sleep, from `from`, and the run after it. */
static void next_task_cycle(struct ik_sim *s, int i, int64_t from)
{
	struct sim_learned *l = learned_of(s);
	const struct ik_learned_task *m = &l->m->task[i];
	struct sim_task *t = &s->tasks[i];
	int cause = draw(s, m->wakes, IK_LEARNED_TASK_CAUSES);
	if (cause < 0)
		return; /* the parser refuses such a task */
	int64_t sleep = pick(s, &m->sleep[cause]);
	int rk = cause;
	for (int k = 0; m->run[rk].n == 0 && k < IK_LEARNED_TASK_CAUSES; k++)
		rk = k; /* no run recorded after this cause: any of its runs */
	const struct ik_learned_samples *runs = &m->run[rk];
	/* the run and the CPU it was recorded on, drawn together (a model without the runs'
	   CPUs: the CPU in proportion to the task's runs there) */
	int j = pick_index(s, runs);
	int cpu = m->has_run_cpu[rk] && j >= 0 ? m->run_cpu[rk][j]
					       : draw(s, m->cpu_runs, l->m->cpus);
	int64_t at = from + (sleep > 0 ? sleep : 1);

	t->cpu = cpu >= 0 ? cpu : t->cpu;
	t->work_ns = j >= 0 ? runs->v[j] : 0;
	int kind = kind_of(cause);
	if (kind == KIND_TIMER) {
		sim_task_sleep(s, i, at);
	} else {
		l->pending_kind[i] = kind;
		ik__eq_arm(&s->eq, task_timer_id(s, l->ntasks + i), at);
	}
}

static struct sim_task *blocked_pinned(struct ik_sim *s, int i, int cpu)
{
	struct sim_task *t = &s->tasks[i];
	sim_task_init_blocked(t, cpu, true);
	return t;
}

static int64_t exp_gap(struct ik_sim *s, double mean)
{
	int64_t gap = (int64_t)(ik__rng_exp(&s->rng) * mean);
	return s->now + (gap > 0 ? gap : 1);
}

/* The CPU's next empty period of each kind it has, at an exponential gap from now. */
static void arm_empty_timer(struct ik_sim *s, int cpu)
{
	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_SOCKET),
		  exp_gap(s, learned_of(s)->empty_timer_gap_ns[cpu]));
}

static void arm_empty_irq(struct ik_sim *s, int cpu)
{
	struct sim_learned *l = learned_of(s);

	l->irq_work[cpu] = s->sc->housekeeping_work_ns > 0 ? s->sc->housekeeping_work_ns : 1;
	l->empty_irq[cpu] = true;
	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_IRQ), exp_gap(s, l->empty_irq_gap_ns[cpu]));
}

/* The timer fired: its callback, and the next one. */
static void learned_empty_timer(struct ik_sim *s, int cpu)
{
	arm_empty_timer(s, cpu);
	sim_interrupt(s, cpu, s->sc->housekeeping_work_ns, WAKE_TIMER);
}

static int setup_empty(struct ik_sim *s)
{
	struct sim_learned *l = learned_of(s);
	const struct ik_learned *m = l->m;
	int64_t now = s->now;

	l->empty_timer_gap_ns = calloc((size_t)l->n, sizeof(double));
	l->empty_irq_gap_ns = calloc((size_t)l->n, sizeof(double));
	l->empty_irq_kind = calloc((size_t)l->n, sizeof(int));
	l->empty_irq = calloc((size_t)l->n, sizeof(bool));
	if (!l->empty_timer_gap_ns || !l->empty_irq_gap_ns || !l->empty_irq_kind || !l->empty_irq)
		return -1;
	s->now = s->sc->workload.start_ns; /* the first ones from the start */
	for (int c = 0; c < l->n && m->span_ns > 0; c++) {
		const uint64_t *e = m->cpu[c].empty;
		uint64_t timer = e[IK_CAUSE_TIMER] + e[IK_CAUSE_TICK];
		uint64_t remote = e[IK_CAUSE_IPI] + e[IK_CAUSE_REMOTE], other = 0;
		for (int k = 0; k < IK_LEARNED_CAUSES; k++)
			other += e[k];
		other -= timer;
		if (m->cpu[c].always_busy)
			continue;
		if (timer) {
			l->empty_timer_gap_ns[c] = (double)m->span_ns / (double)timer;
			s->socket_timers = true; /* next_local_timer() looks at TIMER_SOCKET */
			arm_empty_timer(s, c);
		}
		if (other) {
			l->empty_irq_gap_ns[c] = (double)m->span_ns / (double)other;
			l->empty_irq_kind[c] = 2 * remote >= other ? KIND_REMOTE : KIND_IRQ;
			arm_empty_irq(s, c);
		}
	}
	s->now = now;
	return 0;
}

static int setup_tasks(struct ik_sim *s)
{
	struct sim_learned *l = learned_of(s);
	const struct ik_workload *w = &s->sc->workload;
	int T = l->ntasks;

	l->pending_kind = calloc((size_t)T, sizeof(int));
	s->ntasks = 2 * T + l->n;
	s->tasks = calloc((size_t)s->ntasks, sizeof(*s->tasks));
	if (!l->pending_kind || !s->tasks || sim_timer_reserve(s, T + 1))
		return -1;
	for (int i = 0; i < s->ntasks; i++)
		blocked_pinned(s, i, 0);
	for (int c = 0; c < l->n; c++) {
		if (!l->m->cpu[c].always_busy)
			continue;
		struct sim_task *t = blocked_pinned(s, 2 * T + c, c);
		t->busy_loop = true;
		t->work_ns = 1000000;
		sim_task_sleep(s, 2 * T + c, w->start_ns + 1);
	}
	for (int i = 0; i < T; i++) {
		int c = draw(s, l->m->task[i].cpu_runs, l->m->cpus);
		blocked_pinned(s, i, c >= 0 ? c : 0);
		blocked_pinned(s, T + i, c >= 0 ? c : 0);
		next_task_cycle(s, i, w->start_ns);
	}
	return 0;
}

/* The model, read once for all the runs of the scenario. */
static int learned_prepare(const struct ik_scenario *sc, void *shared, char *err,
			   size_t errlen)
{
	return ik__learned_load(sc->workload.file, shared, err, errlen);
}

static void learned_unprepare(void *shared)
{
	ik__learned_free(shared);
}

static int learned_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	struct sim_learned *l = calloc(1, sizeof(*l));

	if (!l)
		goto oom;
	s->wl = l;
	l->m = s->wl_shared;
	if (l->m->cpus > s->ncpus)
		return ik__errmsg(err, errlen, "%s: the model has %d CPUs, platform %s only %d",
				  w->file, l->m->cpus, s->plat->name, s->ncpus);
	l->n = l->m->cpus;
	l->irq_work = calloc((size_t)l->n, sizeof(int64_t));
	l->in_irq = calloc((size_t)l->n, sizeof(bool));
	if (!l->irq_work || !l->in_irq)
		goto oom;
	for (int c = 0; c < l->n; c++)
		l->irq_work[c] = -1;
	l->ntasks = l->m->ntasks;
	if (l->ntasks > 0) {
		if (setup_tasks(s) || setup_empty(s))
			goto oom;
		return 0;
	}
	s->ntasks = 2 * l->n;
	s->tasks = calloc((size_t)s->ntasks, sizeof(*s->tasks));
	if (!s->tasks || sim_timer_reserve(s, 1))
		goto oom;
	for (int i = 0; i < s->ntasks; i++)
		sim_task_init_blocked(&s->tasks[i], i % l->n, true);
	for (int c = 0; c < l->n; c++) {
		struct sim_task *t = &s->tasks[c];
		if (l->m->cpu[c].always_busy) {
			t->busy_loop = true;
			t->work_ns = 1000000;
		} else {
			t->work_ns = 0;
		}
		/* everything starts with a zero-length piece of work at start_ms */
		sim_task_sleep(s, c, w->start_ns + 1);
	}
	return 0;
oom:
	return ik__errmsg(err, errlen, "out of memory setting up the workload");
}

static void count(struct ik_sim *s, int kind)
{
	if (s->measuring)
		learned_of(s)->wakes[kind]++;
}

static void learned_task_done(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];
	if (t->busy_loop)
		return; /* requeued by the caller */
	if (learned_of(s)->ntasks > 0) {
		if (task < learned_of(s)->ntasks)
			next_task_cycle(s, task, s->now);
		return;
	}
	/* what woke it: a remote wake-up, or its own timer */
	count(s, s->cpus[t->cpu].reason == WAKE_REMOTE ? KIND_REMOTE : KIND_TIMER);
	next_cycle(s, task);
}

/* Per task: a task's own timer (counted, then the caller wakes it), or a hidden clock: the
   task woken from another CPU or by a device interrupt on its CPU. */
static bool task_clock(struct ik_sim *s, int clock)
{
	struct sim_learned *l = learned_of(s);
	int T = l->ntasks;
	if (clock < T) { /* a task's own timer: the caller wakes it */
		const struct sim_task *t = &s->tasks[clock];
		if (t->state == TASK_BLOCKED && s->cpus[t->cpu].mode == CPU_IDLE)
			count(s, KIND_TIMER);
		return false;
	}
	if (clock >= 2 * T)
		return false; /* a busy loop, or a side spinner */
	int task = clock - T, cpu = s->tasks[task].cpu;
	if (s->tasks[task].state != TASK_BLOCKED)
		return true;
	if (s->cpus[cpu].mode == CPU_IDLE)
		count(s, l->pending_kind[task]);
	if (l->pending_kind[task] == KIND_IRQ) {
		sim_interrupt(s, cpu, 0, WAKE_IRQ);
		sim_wake_task(s, task, cpu);
	} else {
		sim_wake_task(s, task, (cpu + 1) % s->ncpus);
	}
	return true;
}

/* A hidden clock fired: another CPU wakes the task. */
static bool learned_clock(struct ik_sim *s, int clock)
{
	struct sim_learned *l = learned_of(s);
	if (l->ntasks > 0)
		return task_clock(s, clock);
	if (clock < l->n || clock >= 2 * l->n)
		return false; /* a CPU's own task, or a side spinner */
	int task = clock - l->n;
	sim_wake_task(s, task, (s->tasks[task].cpu + 1) % s->ncpus);
	return true;
}

static void learned_irq(struct ik_sim *s, int cpu)
{
	struct sim_learned *l = learned_of(s);
	if (cpu >= l->n || l->irq_work[cpu] < 0)
		return;
	int64_t work = l->irq_work[cpu];
	l->irq_work[cpu] = -1;
	l->in_irq[cpu] = true;
	if (l->ntasks > 0 && l->empty_irq[cpu]) { /* an empty period's: count it, the next */
		l->empty_irq[cpu] = false;
		l->in_irq[cpu] = false;
		if (sim_cpu_is_idle(s, cpu)) /* counted as the tasks' are: when it wakes the CPU */
			count(s, l->empty_irq_kind[cpu]);
		arm_empty_irq(s, cpu);
		sim_interrupt(s, cpu, work, WAKE_IRQ);
		return;
	}
	count(s, KIND_IRQ);
	sim_interrupt(s, cpu, work, WAKE_IRQ);
}

static void learned_handler_done(struct ik_sim *s, int cpu)
{
	struct sim_learned *l = learned_of(s);
	if (!l || cpu >= l->n || !l->in_irq[cpu])
		return;
	l->in_irq[cpu] = false;
	next_cycle(s, cpu);
}

static int learned_result(struct ik_sim *s, struct ik_run_result *out)
{
	if (!learned_of(s))
		return 0;
	memcpy(out->learned_wakes, learned_of(s)->wakes, sizeof(out->learned_wakes));
	return 0;
}

static void learned_free(struct ik_sim *s)
{
	struct sim_learned *l = learned_of(s);

	free(l->irq_work);
	free(l->in_irq);
	free(l->empty_timer_gap_ns);
	free(l->empty_irq_gap_ns);
	free(l->empty_irq_kind);
	free(l->empty_irq);
	free(l->pending_kind);
}

/* Each of the model's CPUs or tasks and its hidden clock (counted when the scenario was
   read). */
static int learned_max_tasks(const struct ik_workload *w)
{
	return 2 * (w->learned_cpus + w->learned_tasks);
}

/* The model is read now, so that a bad one fails with the scenario, and its CPUs and tasks
   counted (the task timers to reserve). */
static int learned_check(struct ik_workload *w, struct ik_workload_check *c)
{
	struct ik_learned m;
	char msg[IK_ERR_LEN];

	if (sim_check_file(w, c, "[workload] type learned needs file = a model from 'idlekit "
			   "workload learn'"))
		return -1;
	if (ik__learned_load(w->file, &m, msg, sizeof(msg)))
		return sim_check_fail(c, c->key, "[workload] file: %s", msg);
	w->learned_cpus = m.cpus;
	w->learned_tasks = m.ntasks;
	ik__learned_free(&m);
	if (w->learned_cpus > ik__platform_cpus(c->platform))
		return sim_check_fail(c, c->key, "[workload] file: the model has %d CPUs, platform "
				      "%s only %d", w->learned_cpus, c->platform->name,
				      ik__platform_cpus(c->platform));
	return 0;
}

static void learned_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_text(out, "file", w->file);
	sim_setting_int(out, "cpus", w->learned_cpus);
}

static void learned_describe(const struct ik_workload *w, char *buf, size_t len)
{
	snprintf(buf, len, ": %d CPUs learned from a trace, %s", w->learned_cpus, w->file);
}

/* Its wake-ups by kind; the other idle periods were ended by the tick or a poll limit. */
static bool learned_figures(const struct ik_run_result *r, struct ik_workload_figures *f)
{
	uint64_t ended = 0, ours = r->learned_wakes[0] + r->learned_wakes[1] + r->learned_wakes[2];

	for (int i = 0; i < r->nstates && i < IK_STATE_MAX; i++)
		ended += r->total[i].usage;
	ik__workload_figures_head(f, "learned_wakes", "Wake-ups of the learned workload",
				 "other = tick, poll limit");
	f->brief = true;
	ik__workload_figures_count(f, "timer", "timer", r->learned_wakes[0]);
	ik__workload_figures_count(f, "remote", "remote", r->learned_wakes[1]);
	ik__workload_figures_count(f, "irq", "irq", r->learned_wakes[2]);
	ik__workload_figures_count(f, "other", "other", ended > ours ? ended - ours : 0);
	return true;
}

const struct sim_workload_ops sim_learned_ops = {
	.name = "learned",
	.kind = IK_WORKLOAD_LEARNED,
	.check = learned_check,
	.max_tasks = learned_max_tasks,
	.prepare = learned_prepare,
	.unprepare = learned_unprepare,
	.setup = learned_setup,
	.task_timer = learned_clock,
	.task_done = learned_task_done,
	.irq = learned_irq,
	.socket_timer = learned_empty_timer,
	.handler_done = learned_handler_done,
	.result = learned_result,
	.free = learned_free,
	.settings = learned_settings,
	.figures = learned_figures,
	.describe = learned_describe,
	.shared_size = sizeof(struct ik_learned),
};
