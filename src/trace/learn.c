/*
 * Learning a workload from a trace (idlekit workload learn): per CPU, every idle period's
 * length and cause (the same definition of cause as analyze: the first wake on the CPU at
 * or after its idle_enter and before its next one, a remote task_wake while idle counting
 * as "remote"), and the busy time from its exit to the CPU's next idle_enter, filed under
 * that cause.  An idle length is kept as the time to the wake event: the residency less
 * the entered state's advertised exit latency (the exit the simulation pays again).  The
 * model (src/config/learned_model.h) keeps the samples themselves.
 *
 * With sched events (switch, task_wake), per task too: a run is a switch-in to the task's
 * next switch-out; a sleep from that switch-out to its next task_wake, and the wake's cause
 * is what the task was woken by: another CPU (remote), the cause of the idle period its
 * CPU was in (the same rule as above), or, when its CPU was busy, local.  A task switched
 * back in with no task_wake in between was preempted, not asleep: that gap counts as a
 * local wake.  Each run is filed under the cause of the wake before it, so a task's run
 * time depends on what woke it, as a CPU's busy time does.  Recordings lose events: an
 * idle_enter ends the run of the task switched in last on that CPU, and a task switched
 * in on one CPU while running on another has migrated (the same run goes on).  Sleeps and
 * runs still open at the end: see close_open_sleeps().
 *
 * Divisions: runs and timers; the task table (hash, grow, free); samples kept and their
 * thinning; an idle period closed; a task's switch and wake; the tasks kept (by runs),
 * their open sleeps closed; learning a trace (ik__learn_trace); writing the model and its
 * platform; freeing it.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/analyze.h"
#include "trace/format.h"
#include "trace/learn.h"
#include "util/errmsg.h"
#include "util/grow.h"

_Static_assert(IK_LEARNED_CAUSES == IK_CAUSE_NONE + 1, "a learned cause per trace cause");

struct growing {
	int64_t *v;
	size_t n, cap;
};

struct cpu_track {
	bool in_idle;       /* between idle_enter and idle_exit */
	bool open;          /* a period entered whose cause may still come */
	int cause;          /* of the open period, -1 = none yet */
	int64_t enter, exit;
	int64_t exit_latency; /* the advertised exit latency of the state entered, ns */
	bool have_exit;
	struct growing idle[IK_LEARNED_CAUSES], busy[IK_LEARNED_CAUSES];
	uint64_t periods[IK_LEARNED_CAUSES];
	uint64_t any_periods;
	int last_cause;     /* cause of the last finished period, for its busy time */
	int64_t current;    /* the task switched in last (0 = idle, -1 = not known) */
	bool ran;           /* a task was switched in since the last idle exit */
	int state;          /* the state of the period entered last */
	/* the timers armed on it lately (id, expiry), for the delay of their handlers */
	struct armed_timer {
		uint64_t id;
		int64_t expires;
	} armed[32];
	unsigned narmed;
	int64_t timer_woke_at; /* a timer's handler woke it from idle then (-1: none since) */
	uint64_t empty[IK_LEARNED_CAUSES]; /* periods after which none was, by cause */
};

enum { TASK_UNSEEN, TASK_RUNS, TASK_SLEEPS };

struct task_track {
	int64_t pid;
	int state;
	int cpu;               /* where it runs or last ran */
	int64_t run_start;
	int run_cause;         /* the wake before the current run, -1 = not known */
	int64_t sleep_since;   /* -1 = not known (first seen asleep) */
	bool woken;
	int64_t wake_t;
	int wake_cause;
	uint64_t runs;
	uint64_t *cpu_runs;
	uint64_t wakes[IK_LEARNED_TASK_CAUSES];
	struct growing sleep[IK_LEARNED_TASK_CAUSES];
	/* its runs, each packed with the CPU it ended on: run_pack() */
	struct growing run[IK_LEARNED_TASK_CAUSES];
};

/* A run and its CPU in one sortable value (length first): a run's CPU is drawn with its
   length, so a long run of a CPU that was always busy is not replayed on another. */
#define RUN_CPU_BITS 13 /* MAX_CPUS of the model file: 8192 */
static int64_t run_pack(int64_t ns, int cpu)
{
	if (ns > IK_LEARNED_MAX_NS)
		ns = IK_LEARNED_MAX_NS;
	return ns * (1 << RUN_CPU_BITS) + cpu;
}

/* The expiry of timer id as armed on c lately, or -1. */
static int64_t armed_expiry(const struct cpu_track *c, uint64_t id)
{
	unsigned n = c->narmed < 32 ? c->narmed : 32;
	for (unsigned k = 1; k <= n; k++) {
		const struct armed_timer *a = &c->armed[(c->narmed - k) % 32];
		if (a->id == id)
			return a->expires;
	}
	return -1;
}

#define MEASURED_MAX_NS 10000000 /* a longer delay is not the wake-up's (a lost event) */

/* The tasks by PID: an array, and an open-addressing index into it. */
struct task_table {
	struct task_track *v;
	size_t n, cap;
	int32_t *slot; /* index + 1, 0 = empty */
	size_t nslots; /* a power of two */
	int cpus;
};

static size_t pid_hash(int64_t pid, size_t nslots)
{
	uint64_t x = (uint64_t)pid * 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 20) & (nslots - 1);
}

static int rehash(struct task_table *tt, size_t nslots)
{
	int32_t *slot = calloc(nslots, sizeof(*slot));
	if (!slot)
		return -1;
	for (size_t i = 0; i < tt->n; i++) {
		size_t h = pid_hash(tt->v[i].pid, nslots);
		while (slot[h])
			h = (h + 1) & (nslots - 1);
		slot[h] = (int32_t)i + 1;
	}
	free(tt->slot);
	tt->slot = slot;
	tt->nslots = nslots;
	return 0;
}

/* The task with this PID, added if new; NULL when out of memory. */
static struct task_track *task_get(struct task_table *tt, int64_t pid)
{
	if (tt->nslots) {
		size_t h = pid_hash(pid, tt->nslots);
		while (tt->slot[h]) {
			struct task_track *t = &tt->v[tt->slot[h] - 1];
			if (t->pid == pid)
				return t;
			h = (h + 1) & (tt->nslots - 1);
		}
	}
	if (tt->n >= (size_t)INT32_MAX - 1)
		return NULL;
	struct task_track *v = ik__grow(tt->v, &tt->cap, tt->n, sizeof(*v), 64);
	if (!v)
		return NULL;
	tt->v = v;
	if (2 * (tt->n + 1) > tt->nslots && rehash(tt, tt->nslots ? 2 * tt->nslots : 128))
		return NULL;
	struct task_track *t = &tt->v[tt->n];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->run_cause = -1;
	t->sleep_since = -1;
	t->cpu_runs = calloc((size_t)tt->cpus, sizeof(*t->cpu_runs));
	if (!t->cpu_runs)
		return NULL;
	size_t h = pid_hash(pid, tt->nslots);
	while (tt->slot[h])
		h = (h + 1) & (tt->nslots - 1);
	tt->slot[h] = (int32_t)tt->n + 1;
	tt->n++;
	return t;
}

static void task_table_free(struct task_table *tt)
{
	for (size_t i = 0; i < tt->n; i++) {
		free(tt->v[i].cpu_runs);
		for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++) {
			free(tt->v[i].sleep[k].v);
			free(tt->v[i].run[k].v);
		}
	}
	free(tt->v);
	free(tt->slot);
}

static int push(struct growing *g, int64_t v)
{
	int64_t *n = ik__grow(g->v, &g->cap, g->n, sizeof(*n), 64);
	if (!n)
		return -1;
	g->v = n;
	g->v[g->n++] = v;
	return 0;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sorted, at most limit each, and thinned to evenly spaced order statistics when there are
   too many. */
static void keep_upto(struct growing *g, struct ik_learned_samples *out, int64_t limit)
{
	out->n = 0;
	if (g->n == 0)
		return;
	for (size_t i = 0; i < g->n; i++) /* what the file can hold (a longer trace's sleeps) */
		if (g->v[i] > limit)
			g->v[i] = limit;
	qsort(g->v, g->n, sizeof(*g->v), cmp64);
	if (g->n <= IK_LEARNED_MAX_SAMPLES) {
		memcpy(out->v, g->v, g->n * sizeof(*g->v));
		out->n = (int)g->n;
		return;
	}
	for (int i = 0; i < IK_LEARNED_MAX_SAMPLES; i++)
		out->v[i] = g->v[(size_t)((double)i * (double)(g->n - 1) /
					  (IK_LEARNED_MAX_SAMPLES - 1) + 0.5)];
	out->n = IK_LEARNED_MAX_SAMPLES;
}

static void keep(struct growing *g, struct ik_learned_samples *out)
{
	keep_upto(g, out, IK_LEARNED_MAX_NS);
}

/* The open period of c has ended (its next idle_enter, or the end): file it. */
static int close_period(struct cpu_track *c)
{
	if (!c->open || !c->have_exit)
		return 0;
	int cause = c->cause >= 0 ? c->cause : IK_CAUSE_NONE;
	c->open = false;
	c->periods[cause]++;
	c->any_periods++;
	c->last_cause = cause;
	/* the wake came this long after the entry: the residency less the state's exit */
	int64_t d = c->exit - c->enter - c->exit_latency;
	return push(&c->idle[cause], d > 0 ? d : 0);
}

/* sched_switch on cpu at t: prev leaves (0 = the idle task), next comes in. */
static int task_switch(struct task_table *tt, int cpu, int64_t t, int64_t prev, int64_t next)
{
	if (prev > 0) {
		struct task_track *p = task_get(tt, prev);
		if (!p)
			return -1;
		if (p->state == TASK_RUNS && p->cpu != cpu)
			goto next_task; /* it runs on another CPU now: not this CPU's to end */
		if (p->state == TASK_RUNS && p->run_cause >= 0 &&
		    push(&p->run[p->run_cause], run_pack(t - p->run_start, cpu)))
			return -1;
		p->state = TASK_SLEEPS;
		p->sleep_since = t;
		p->woken = false;
	}
next_task:
	if (next > 0) {
		struct task_track *n = task_get(tt, next);
		if (!n)
			return -1;
		n->cpu_runs[cpu]++;
		n->runs++;
		if (n->state == TASK_RUNS) {
			/* switched in here while running elsewhere: its switch-out there was not
			   recorded; a migration, the same run goes on */
			n->cpu = cpu;
			return 0;
		}
		n->run_cause = -1;
		if (n->state == TASK_SLEEPS) {
			int cause = n->woken ? n->wake_cause : IK_LEARNED_LOCAL;
			int64_t until = n->woken ? n->wake_t : t;
			if (n->sleep_since >= 0) {
				if (push(&n->sleep[cause], until - n->sleep_since))
					return -1;
				n->wakes[cause]++;
			}
			n->run_cause = cause;
		}
		n->state = TASK_RUNS;
		n->cpu = cpu;
		n->run_start = t;
	}
	return 0;
}

/* task_wake of pid to run on cpu, by src: what woke it. */
static int task_wake(struct task_table *tt, const struct cpu_track *on, int cpu, int src,
		     int64_t t, int64_t pid)
{
	if (pid <= 0)
		return 0;
	struct task_track *k = task_get(tt, pid);
	if (!k)
		return -1;
	if (k->state == TASK_RUNS || (k->state == TASK_SLEEPS && k->woken))
		return 0; /* already awake: a second wake-up changes nothing */
	k->woken = true;
	k->wake_t = t;
	if (src >= 0 && src != cpu)
		k->wake_cause = IK_CAUSE_REMOTE;
	else if (on->in_idle)
		k->wake_cause = on->cause >= 0 ? on->cause : IK_CAUSE_NONE;
	else
		k->wake_cause = IK_LEARNED_LOCAL;
	if (k->state == TASK_UNSEEN)
		k->state = TASK_SLEEPS; /* asleep since before the trace: no sleep length */
	return 0;
}

static int by_runs_then_pid(const void *a, const void *b)
{
	const struct task_track *x = a, *y = b;
	if (x->runs != y->runs)
		return x->runs > y->runs ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int by_pid(const void *a, const void *b)
{
	const struct ik_learned_task *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The longest of a task's samples, over all causes. */
static int64_t longest(const struct growing *g)
{
	int64_t m = -1;
	for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++)
		for (size_t i = 0; i < g[k].n; i++)
			if (g[k].v[i] > m)
				m = g[k].v[i];
	return m;
}

/*
 * A sleep still open at the end of the trace lasted at least its length so far.  When that
 * is longer than every sleep the task finished, it says something the samples do not (the
 * task went quiet): it counts as a sleep of that length, under the task's most frequent
 * cause, so that a task active early in the recording is not modelled as waking like that
 * all the time.  A shorter one agrees with the samples and is left out (it would only add
 * a sleep cut short by the end).  Runs still going on at the end likewise.
 */
static int close_open_sleeps(struct task_table *tt, int64_t end)
{
	for (size_t i = 0; i < tt->n; i++) {
		struct task_track *t = &tt->v[i];
		if (t->state == TASK_RUNS && t->run_cause >= 0) {
			int64_t d = end - t->run_start;
			if (run_pack(d, 0) > longest(t->run) &&
			    push(&t->run[t->run_cause], run_pack(d, t->cpu)))
				return -1;
			continue;
		}
		if (t->state != TASK_SLEEPS || t->woken || t->sleep_since < 0)
			continue;
		int best = -1;
		for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++)
			if (t->wakes[k] && (best < 0 || t->wakes[k] > t->wakes[best]))
				best = k;
		int64_t d = end - t->sleep_since;
		if (best < 0 || d <= longest(t->sleep))
			continue; /* never woken (not a model task anyway), or nothing new */
		if (push(&t->sleep[best], d))
			return -1;
		t->wakes[best]++;
	}
	return 0;
}

/* The tasks that slept at least once (the others cannot be run as a model). */
static int keep_tasks(struct task_table *tt, int cpus, struct ik_learned *out)
{
	size_t n = 0;
	for (size_t i = 0; i < tt->n; i++) {
		uint64_t w = 0;
		for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++)
			w += tt->v[i].wakes[k];
		if (w > 0)
			tt->v[n++] = tt->v[i]; /* moved: the dropped ones' memory is lost below */
		else {
			free(tt->v[i].cpu_runs);
			for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++) {
				free(tt->v[i].sleep[k].v);
				free(tt->v[i].run[k].v);
			}
		}
	}
	tt->n = n;
	if (n == 0)
		return 0;
	qsort(tt->v, n, sizeof(*tt->v), by_runs_then_pid);
	size_t keepn = n < IK_LEARNED_MAX_TASKS ? n : IK_LEARNED_MAX_TASKS;
	out->task = calloc(keepn, sizeof(*out->task));
	if (!out->task)
		return -1;
	for (size_t i = 0; i < keepn; i++) {
		struct task_track *t = &tt->v[i];
		struct ik_learned_task *m = &out->task[i];
		m->pid = t->pid;
		m->cpu_runs = calloc((size_t)cpus, sizeof(*m->cpu_runs));
		if (!m->cpu_runs) {
			out->ntasks = (int)i;
			return -1;
		}
		memcpy(m->cpu_runs, t->cpu_runs, (size_t)cpus * sizeof(*m->cpu_runs));
		for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++) {
			m->wakes[k] = t->wakes[k];
			keep(&t->sleep[k], &m->sleep[k]);
			/* packed runs (each clamped by run_pack): sorted by length, then CPU */
			keep_upto(&t->run[k], &m->run[k], INT64_MAX);
			for (int j = 0; j < m->run[k].n; j++) {
				m->run_cpu[k][j] = (int16_t)(m->run[k].v[j] & ((1 << RUN_CPU_BITS) - 1));
				m->run[k].v[j] >>= RUN_CPU_BITS;
			}
			m->has_run_cpu[k] = m->run[k].n > 0;
		}
	}
	out->ntasks = (int)keepn;
	qsort(out->task, keepn, sizeof(*out->task), by_pid);
	return 0;
}

int ik__learn_trace(struct ik_trace_reader *r, const char *source, struct ik_learned *out,
		   char *err, size_t errlen)
{
	const struct ik_trace_header *h = ik__trace_header(r);
	struct cpu_track *t = calloc((size_t)h->cpus, sizeof(*t));
	struct ik_trace_event ev;
	struct task_table tt = { .cpus = h->cpus };
	int rc = -1, st;

	memset(out, 0, sizeof(*out));
	if (!t)
		return ik__errmsg(err, errlen, "out of memory");
	for (int i = 0; i < h->cpus; i++) {
		t[i].cause = t[i].last_cause = -1;
		t[i].current = -1;
	}
	int64_t first_t = -1, last_t = 0;
	bool has_switch = false;
	struct growing exit_ns[IK_STATE_MAX] = { { 0 } }, wake_to_run = { 0 };
	while ((st = ik__trace_next(r, &ev, err, errlen)) == 0) {
		struct cpu_track *c = &t[ev.cpu];
		if (first_t < 0)
			first_t = ev.t_ns;
		last_t = ev.t_ns;
		switch (ev.kind) {
		case IK_TRACE_IDLE_ENTER:
			/* a CPU that goes idle runs no task: the one switched in last has left,
			   whether or not its switch-out was recorded */
			if (c->current > 0 && task_switch(&tt, ev.cpu, ev.t_ns, c->current, 0))
				goto oom;
			c->current = 0;
			if (c->open && c->have_exit && !c->ran)
				c->empty[c->cause >= 0 ? c->cause : IK_CAUSE_NONE]++;
			c->ran = false;
			if (close_period(c))
				goto oom;
			if (c->have_exit && c->last_cause >= 0 &&
			    push(&c->busy[c->last_cause], ev.t_ns - c->exit))
				goto oom;
			c->in_idle = c->open = true;
			c->have_exit = false;
			c->cause = -1;
			c->enter = ev.t_ns;
			c->state = ev.state;
			c->timer_woke_at = -1;
			c->exit_latency = 0;
			if (ev.state >= 0 && ev.state < h->drivers[h->cpu_driver[ev.cpu]].drv.state_count)
				c->exit_latency =
					h->drivers[h->cpu_driver[ev.cpu]].drv.states[ev.state].exit_latency_ns;
			break;
		case IK_TRACE_IDLE_EXIT:
			c->in_idle = false;
			c->exit = ev.t_ns;
			c->have_exit = true;
			break;
		case IK_TRACE_WAKE:
			if (c->open && c->cause < 0)
				c->cause = (int)ev.cause;
			break;
		case IK_TRACE_TASK_WAKE:
			if (c->open && c->in_idle && c->cause < 0 && ev.src_cpu != ev.cpu)
				c->cause = IK_CAUSE_REMOTE;
			if (task_wake(&tt, c, ev.cpu, ev.src_cpu, ev.t_ns, ev.arg))
				goto oom;
			break;
		case IK_TRACE_TIMER_START:
			if (ev.timer_id) {
				c->armed[c->narmed % 32] = (struct armed_timer){ ev.timer_id, ev.arg };
				c->narmed++;
			}
			break;
		case IK_TRACE_TIMER_EXPIRE: {
			/* a handler on an idle CPU (before the exit: HLT takes the interrupt in
			   the state) or right after its exit, the first of the period */
			int64_t exp = ev.timer_id ? armed_expiry(c, ev.timer_id) : -1;
			bool by_timer = c->cause < 0 || c->cause == IK_CAUSE_TIMER ||
					c->cause == IK_CAUSE_TICK;
			bool woke = c->open && c->timer_woke_at < 0 && by_timer &&
				    (c->in_idle || (c->have_exit && ev.t_ns - c->exit <
							IK_TRACE_WAKE_AFTER_EXIT_NS && !c->ran));
			if (woke && exp >= 0 && ev.t_ns >= exp && ev.t_ns - exp < MEASURED_MAX_NS &&
			    c->state >= 0 && c->state < IK_STATE_MAX &&
			    h->cpu_driver[ev.cpu] == 0 && push(&exit_ns[c->state], ev.t_ns - exp))
				goto oom;
			if (woke)
				c->timer_woke_at = ev.t_ns;
			break;
		}
		case IK_TRACE_SWITCH:
			if (ev.arg2 > 0 && !c->ran && c->timer_woke_at >= 0 &&
			    ev.t_ns - c->timer_woke_at < MEASURED_MAX_NS &&
			    push(&wake_to_run, ev.t_ns - c->timer_woke_at))
				goto oom;
			if (task_switch(&tt, ev.cpu, ev.t_ns, ev.arg, ev.arg2))
				goto oom;
			c->current = ev.arg2;
			c->ran |= ev.arg2 > 0;
			has_switch = true;
			break;
		default:
			break;
		}
	}
	if (st < 0) {
		rc = st; /* the reader's: bad input or a failed read */
		goto done;
	}
	out->cpus = h->cpus;
	out->span_ns = first_t >= 0 && last_t > first_t ? last_t - first_t : 0;
	double scale = 1.0; /* a recording over an hour: its rate kept within the file's span */
	if (out->span_ns > IK_LEARNED_MAX_NS) {
		scale = (double)IK_LEARNED_MAX_NS / (double)out->span_ns;
		out->span_ns = IK_LEARNED_MAX_NS;
	}
	snprintf(out->source, sizeof(out->source), "%s", source ? source : "trace");
	out->cpu = calloc((size_t)h->cpus, sizeof(*out->cpu));
	if (!out->cpu)
		goto oom;
	for (int i = 0; i < h->cpus; i++) {
		struct cpu_track *c = &t[i];
		if (close_period(c))
			goto oom;
		struct ik_learned_cpu *m = &out->cpu[i];
		m->always_busy = c->any_periods == 0;
		for (int k = 0; has_switch && k < IK_LEARNED_CAUSES; k++) /* else not known */
			m->empty[k] = (uint64_t)((double)c->empty[k] * scale);
		for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
			m->periods[k] = c->periods[k];
			keep(&c->idle[k], &m->idle[k]);
			keep(&c->busy[k], &m->busy[k]);
		}
	}
	if (close_open_sleeps(&tt, last_t) || keep_tasks(&tt, h->cpus, out))
		goto oom;
	for (int i = 0; i < IK_STATE_MAX; i++)
		keep(&exit_ns[i], &out->exit_ns[i]);
	keep(&wake_to_run, &out->wake_to_run_ns);
	rc = 0;
	goto done;
oom:
	snprintf(err, errlen, "out of memory");
	rc = IK_TRACE_EFAIL;
done:
	for (int i = 0; i < h->cpus; i++)
		for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
			free(t[i].idle[k].v);
			free(t[i].busy[k].v);
		}
	free(t);
	task_table_free(&tt);
	for (int i = 0; i < IK_STATE_MAX; i++)
		free(exit_ns[i].v);
	free(wake_to_run.v);
	if (rc)
		ik__learned_free(out);
	return rc;
}

const char *ik__learned_task_cause_name(int cause)
{
	if (cause == IK_LEARNED_LOCAL)
		return "local";
	return ik__trace_cause_name((enum ik_trace_cause)cause);
}

static void write_samples(FILE *out, const char *what, long long who, int cause,
			  const struct ik_learned_samples *s)
{
	if (s->n == 0)
		return;
	fprintf(out, "%s %lld %s", what, who, ik__learned_task_cause_name(cause));
	for (int i = 0; i < s->n; i++)
		fprintf(out, " %lld", (long long)s->v[i]);
	fputc('\n', out);
}

int ik__learned_write(FILE *out, const struct ik_learned *m)
{
	fprintf(out, "idlekit-learned 1\n");
	fprintf(out, "# per CPU and wake cause: idle periods, their lengths (ns) and the busy\n"
		     "# time after them (ns), as recorded; docs/workloads.md, workload.type = learned\n");
	char src[128];
	size_t n = 0;
	for (const char *p = m->source; *p && n + 1 < sizeof(src); p++)
		src[n++] = (*p > ' ' && *p < 0x7f) ? *p : '_';
	src[n] = '\0';
	fprintf(out, "source %s\n", n ? src : "trace");
	fprintf(out, "cpus %d\n", m->cpus);
	if (m->span_ns > 0)
		fprintf(out, "span %lld\n", (long long)m->span_ns);
	for (int c = 0; c < m->cpus; c++) {
		const struct ik_learned_cpu *cpu = &m->cpu[c];
		if (cpu->always_busy) {
			fprintf(out, "busy_cpu %d\n", c);
			continue;
		}
		for (int k = 0; k < IK_LEARNED_CAUSES; k++)
			if (cpu->empty[k])
				fprintf(out, "empty %d %s %llu\n", c,
					ik__trace_cause_name((enum ik_trace_cause)k),
					(unsigned long long)cpu->empty[k]);
		for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
			if (cpu->periods[k] == 0)
				continue;
			fprintf(out, "cause %d %s %llu\n", c, ik__trace_cause_name((enum ik_trace_cause)k),
				(unsigned long long)cpu->periods[k]);
			write_samples(out, "idle", c, k, &cpu->idle[k]);
			write_samples(out, "busy", c, k, &cpu->busy[k]);
		}
	}
	if (m->ntasks)
		fprintf(out, "# per task (from sched events): wake-ups by cause, the sleeps they "
			     "ended and the runs after them (ns), the CPUs it ran on\n");
	for (int i = 0; i < m->ntasks; i++) {
		const struct ik_learned_task *t = &m->task[i];
		for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++) {
			if (t->wakes[k] == 0 && t->run[k].n == 0)
				continue;
			fprintf(out, "task %lld %s %llu\n", (long long)t->pid,
				ik__learned_task_cause_name(k), (unsigned long long)t->wakes[k]);
			write_samples(out, "task_sleep", t->pid, k, &t->sleep[k]);
			write_samples(out, "task_run", t->pid, k, &t->run[k]);
			if (t->has_run_cpu[k] && t->run[k].n > 0) {
				fprintf(out, "task_run_cpus %lld %s", (long long)t->pid,
					ik__learned_task_cause_name(k));
				for (int j = 0; j < t->run[k].n; j++)
					fprintf(out, " %d", t->run_cpu[k][j]);
				fputc('\n', out);
			}
		}
		fprintf(out, "task_cpus %lld", (long long)t->pid);
		for (int c = 0; c < m->cpus; c++)
			if (t->cpu_runs[c])
				fprintf(out, " %d:%llu", c, (unsigned long long)t->cpu_runs[c]);
		fputc('\n', out);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* Enough samples to stand for a cost the table does not give. */
#define MEASURED_MIN_SAMPLES 5

/* "percentiles 0:A 10:B ... 100:Z" of sorted samples. */
static void percentiles(FILE *out, const struct ik_learned_samples *v)
{
	static const int pct[] = { 0, 10, 25, 50, 75, 90, 99, 100 };
	fputs("percentiles", out);
	for (size_t k = 0; k < sizeof(pct) / sizeof(pct[0]); k++)
		fprintf(out, " %d:%lld", pct[k],
			(long long)v->v[(size_t)((double)pct[k] / 100.0 * (double)(v->n - 1) + 0.5)]);
}

int ik__learned_platform_ini(FILE *out, const struct ik_trace_reader *r, const struct ik_learned *m,
			    const char *name)
{
	const struct ik_trace_header *h = ik__trace_header(r);
	const struct ik_driver *d = &h->drivers[0].drv;
	const struct ik_learned_samples *run = &m->wake_to_run_ns;
	bool have_run = run->n >= MEASURED_MIN_SAMPLES;

	fprintf(out, "; The machine of trace %s, as far as the trace says: its first driver's\n"
		     "; table (%s), one CPU per core, no IPI cost; a state's exit as measured in the\n"
		     "; trace (a timer's expiry to its handler on a CPU idle in that state) when it\n"
		     "; holds %d such wake-ups or more, else its advertised latency; the context\n"
		     "; switch as the measured time from that handler to the task it woke running.\n",
		name, d->name, MEASURED_MIN_SAMPLES);
	fprintf(out, "[platform]\nname = trace\ndescription = the table of trace %s\n", name);
	fprintf(out, "packages = 1\ncores_per_package = %d\nthreads_per_core = 1\n"
		     "cores_per_llc = %d\nipi_ns = constant 0\npoll_wake_ns = 0\n", h->cpus, h->cpus);
	if (have_run)
		fprintf(out, "context_switch_ns = %lld ; measured: the median of %d timer wake-ups "
			     "that ran a task\n", (long long)run->v[run->n / 2], run->n);
	else
		fputs("context_switch_ns = 0\n", out);
	fputs("active_power_mw = 1000\n", out);
	for (int i = 0; i < d->state_count; i++) {
		const struct ik_state *s = &d->states[i];
		bool poll = s->flags & IK_FLAG_POLLING;
		fprintf(out, "\n[state%d]\nname = %s\n", i, s->name);
		if (s->desc[0])
			fprintf(out, "desc = %s\n", s->desc);
		fprintf(out, "latency_us = %u\nresidency_us = %u\nmethod = %s\n", s->exit_latency,
			s->target_residency, poll ? "poll" : "hlt");
		if (poll)
			continue;
		const struct ik_learned_samples *x = i < IK_STATE_MAX ? &m->exit_ns[i] : NULL;
		if (x && x->n >= MEASURED_MIN_SAMPLES) {
			fputs("exit_ns = ", out);
			percentiles(out, x);
			fprintf(out, " ; measured: %d timer wake-ups from this state\n", x->n);
		} else {
			fprintf(out, "exit_ns = constant %lld\n", (long long)s->exit_latency_ns);
		}
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

void ik__learned_free(struct ik_learned *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->ntasks; i++)
		free(m->task[i].cpu_runs);
	free(m->task);
	free(m->cpu);
	memset(m, 0, sizeof(*m));
}
