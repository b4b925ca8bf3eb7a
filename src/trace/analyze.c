/*
 * idlekit analyze: what a trace's idle periods were, per CPU and state.
 *
 * The residency of an idle period is idle_exit - idle_enter, as cpuidle_enter_state()
 * measures it (exit latency included).  Too deep / too shallow are decided by the core's
 * own ik_account_entered() on a device per CPU whose disabled states come from the state
 * flags (UNUSABLE, OFF), so analyze, sim and govreplay count mis-predictions the same way.
 *
 * The wake cause of a period is the first wake event on its CPU at or after its idle_enter,
 * either before the idle exit or after it within IK_TRACE_WAKE_AFTER_EXIT_NS and before the
 * CPU did anything else (the kernel handles the waking interrupt before or after tracing
 * the exit, depending on the idle state's method; a later tick fired while the CPU was
 * busy); a period with none has cause "none".  A task_wake from another CPU while the
 * CPU is idle (before its idle_exit) counts as a wake with cause "remote", its source CPU
 * kept (format 1.1); so does the sender of a 'wake ipi SRC'.  Each cause, and each IRQ,
 * counts the too-deep ("early": woken before the state paid off) and too-shallow ("late")
 * periods it ended, as idlestat attributes them.  With switch events, a period is followed by a task if a switch to a
 * PID other than 0 comes after its exit and before the next idle_enter, else it was empty.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analyze.h"
#include "trace/cause_rule.h"
#include "util/freep.h"
#include "util/idle_hist.h" /* ik__trace_hist_bucket's one definition */

struct cpu_run {
	struct ik_device dev;
	bool idle, open; /* in idle; a period started and not finished */
	bool exited, too_deep, too_shallow, has_cause, ran_task;
	struct ik_cause_period p; /* the wake-cause rule's view (trace/cause_rule.h) */
	int state, src;
	int64_t enter_ns, irq;
	enum ik_trace_cause cause;
};

uint64_t ik__trace_hist_lower_ns(int i)
{
	return i == 0 ? 0 : (uint64_t)1000 << (i - 1);
}

void ik__trace_hist_label(int i, char *buf, size_t len)
{
	uint64_t lo = ik__trace_hist_lower_ns(i) / 1000;
	if (i + 1 < IK_TRACE_HIST_BUCKETS)
		snprintf(buf, len, "[%" PRIu64 ", %" PRIu64 ")", lo, ik__trace_hist_lower_ns(i + 1) / 1000);
	else
		snprintf(buf, len, "[%" PRIu64 ", inf)", lo);
}

int ik__trace_hist_bucket(uint64_t ns)
{
	return ik__trace_hist_bucket_inline(ns);
}

/*
 * The counts below are arrays kept sorted by their key; a new key opens a place at index i.
 * ARRAY holds n elements of size sz in room for *cap (grown twice over, from first): the
 * array with the elements from i on moved up one, or NULL out of memory (ARRAY as it was).
 */
static void *open_at(void *array, size_t n, size_t *cap, size_t sz, size_t first, size_t i)
{
	if (n == *cap) {
		size_t more = *cap ? *cap * 2 : first;
		void *nv = realloc(array, more * sz);
		if (!nv)
			return NULL;
		array = nv;
		*cap = more;
	}
	char *at = (char *)array + i * sz;
	memmove(at + sz, at, (n - i) * sz);
	return array;
}

/* One more remote wake of cpu by src; -1 out of memory. */
static int remote_add(struct ik_trace_remote_list *l, int src)
{
	size_t i = 0;
	while (i < l->n && l->v[i].src < src)
		i++;
	if (i < l->n && l->v[i].src == src) {
		l->v[i].periods++;
		return 0;
	}
	struct ik_trace_remote *nv = open_at(l->v, l->n, &l->cap, sizeof(*nv), 4, i);
	if (!nv)
		return -1;
	l->v = nv;
	l->v[i] = (struct ik_trace_remote){ src, 1 };
	l->n++;
	return 0;
}

/* One more period ended by IRQ irq; -1 out of memory. */
static int irq_add(struct ik_trace_analysis *a, int64_t irq, bool deep, bool shallow)
{
	size_t i = 0;
	while (i < a->nirqs && a->irqs[i].irq < irq)
		i++;
	if (i == a->nirqs || a->irqs[i].irq != irq) {
		struct ik_trace_irq_count *nv = open_at(a->irqs, a->nirqs, &a->irqs_cap, sizeof(*nv),
							16, i);
		if (!nv)
			return -1;
		a->irqs = nv;
		a->irqs[i] = (struct ik_trace_irq_count){ .irq = irq };
		a->nirqs++;
	}
	a->irqs[i].periods++;
	a->irqs[i].too_deep += deep;
	a->irqs[i].too_shallow += shallow;
	return 0;
}

static int finish(struct ik_trace_analysis *a, int cpu, struct cpu_run *c)
{
	if (!c->open || !c->exited)
		return 0;
	enum ik_trace_cause k = c->has_cause ? c->cause : IK_CAUSE_NONE;
	a->task_periods += c->ran_task; /* zeroed at the end if the trace has no switch */
	a->empty_periods += !c->ran_task;
	a->cpu[cpu].wakes[k]++;
	a->all.wakes[k]++;
	if (c->too_deep) {
		a->cpu[cpu].too_deep_by_cause[k]++;
		a->all.too_deep_by_cause[k]++;
	}
	if (c->too_shallow) {
		a->cpu[cpu].too_shallow_by_cause[k]++;
		a->all.too_shallow_by_cause[k]++;
	}
	c->open = false;
	if (k == IK_CAUSE_IRQ && c->irq >= 0 && irq_add(a, c->irq, c->too_deep, c->too_shallow))
		return -1;
	return (k == IK_CAUSE_REMOTE || (k == IK_CAUSE_IPI && c->src >= 0))
		       ? remote_add(&a->remote[cpu], c->src) : 0;
}

/* The package and core groups of the CPUs the header's 'cpu' lines place; -1 on OOM. */
static int groups_build(const struct ik_trace_header *h, struct ik_trace_analysis *a,
			int *pkg_of, int *core_of)
{
	for (int c = 0; c < h->cpus; c++)
		pkg_of[c] = core_of[c] = -1;
	if (!h->topo)
		return 0;
	a->groups = calloc((size_t)h->cpus * 2, sizeof(*a->groups));
	if (!a->groups)
		return -1;
	/* packages first, then cores, each in the order of their first CPU */
	for (int pass = 0; pass < 2; pass++)
		for (int c = 0; c < h->cpus; c++) {
			const struct ik_trace_cpu_topo *t = &h->topo[c];
			if (t->package < 0)
				continue;
			int32_t core = pass ? t->core : -1;
			int first = pass ? a->npackages : 0, n = pass ? a->ncores : a->npackages;
			int g = first;
			while (g < first + n && !(a->groups[g].package == t->package && a->groups[g].core == core))
				g++;
			if (g == first + n) {
				a->groups[g] = (struct ik_trace_group){ .package = t->package, .core = core };
				if (pass)
					a->ncores++;
				else
					a->npackages++;
			}
			a->groups[g].cpus++;
			(pass ? core_of : pkg_of)[c] = g;
		}
	return 0;
}

static void group_idle(struct ik_trace_analysis *a, int g, bool idle, int64_t t)
{
	if (g < 0)
		return;
	struct ik_trace_group *gr = &a->groups[g];
	if (idle) {
		if (++gr->idle == gr->cpus)
			gr->since_ns = t;
	} else if (gr->idle > 0) {
		if (gr->idle-- == gr->cpus)
			gr->all_idle_ns += (uint64_t)(t - gr->since_ns);
	}
}

/* The time since the CPU's last freq event, at that frequency; -1 out of memory. */
static int pstate_close(struct ik_trace_pstates *ps, int64_t t)
{
	if (!ps->cur_khz || t <= ps->since_ns)
		return 0;
	size_t i = 0;
	while (i < ps->n && ps->v[i].khz < ps->cur_khz)
		i++;
	if (i == ps->n || ps->v[i].khz != ps->cur_khz) {
		struct ik_trace_pstate *nv = open_at(ps->v, ps->n, &ps->cap, sizeof(*nv), 8, i);
		if (!nv)
			return -1;
		ps->v = nv;
		ps->v[i] = (struct ik_trace_pstate){ ps->cur_khz, 0 };
		ps->n++;
	}
	ps->v[i].ns += (uint64_t)(t - ps->since_ns);
	ps->since_ns = t;
	return 0;
}

static void add_period(struct ik_trace_state_stats *s, uint64_t ns, bool deep, bool shallow)
{
	if (s->entries == 0 || ns < s->min_ns)
		s->min_ns = ns;
	if (ns > s->max_ns)
		s->max_ns = ns;
	s->entries++;
	s->total_ns += ns;
	s->too_deep += deep;
	s->too_shallow += shallow;
}

int ik__trace_analyze(struct ik_trace_reader *r, struct ik_trace_analysis *a, char *err,
		     size_t errlen)
{
	return ik__trace_analyze_timeline(r, a, NULL, err, errlen);
}

int ik__trace_analyze_timeline(struct ik_trace_reader *r, struct ik_trace_analysis *a,
			      struct ik_timeline *tl, char *err, size_t errlen)
{
	const struct ik_trace_header *h = ik__trace_header(r);
	struct ik_trace_event ev;
	int rc;

	memset(a, 0, sizeof(*a));
	a->cpus = h->cpus;
	a->cpu = calloc((size_t)h->cpus, sizeof(*a->cpu));
	a->remote = calloc((size_t)h->cpus, sizeof(*a->remote));
	a->idle_ns = calloc((size_t)h->cpus, sizeof(*a->idle_ns));
	a->pstates = calloc((size_t)h->cpus, sizeof(*a->pstates));
	struct cpu_run *run = calloc((size_t)h->cpus, sizeof(*run));
	int *pkg_of = calloc((size_t)h->cpus * 2, sizeof(int));
	if (!a->cpu || !a->remote || !a->idle_ns || !a->pstates || !run || !pkg_of ||
	    groups_build(h, a, pkg_of, pkg_of + h->cpus)) {
		free(run);
		free(pkg_of);
		ik__trace_analysis_free(a);
		snprintf(err, errlen, "out of memory");
		return IK_TRACE_EFAIL;
	}
	for (int c = 0; c < h->cpus; c++)
		ik_device_init(&run[c].dev, &h->drivers[h->cpu_driver[c]].drv, c, h->hz);
	a->first_ns = -1;

	while ((rc = ik__trace_next(r, &ev, err, errlen)) == IK_TRACE_OK) {
		struct cpu_run *c = &run[ev.cpu];
		if (a->first_ns < 0) {
			a->first_ns = ev.t_ns;
			if (tl) {
				tl->origin_ns = ev.t_ns;
				tl->start_ns += ev.t_ns;
			}
		}
		a->last_ns = ev.t_ns;
		switch (ev.kind) {
		case IK_TRACE_IDLE_ENTER:
			if (finish(a, ev.cpu, c))
				goto oom;
			c->idle = c->open = true;
			c->exited = c->too_deep = c->too_shallow = c->has_cause = c->ran_task = false;
			ik__cause_enter(&c->p);
			c->src = -1;
			c->irq = -1;
			group_idle(a, pkg_of[ev.cpu], true, ev.t_ns);
			group_idle(a, pkg_of[h->cpus + ev.cpu], true, ev.t_ns);
			c->state = ev.state;
			c->enter_ns = ev.t_ns;
			break;
		case IK_TRACE_IDLE_EXIT: {
			const struct ik_driver *drv = &h->drivers[h->cpu_driver[ev.cpu]].drv;
			struct ik_state_usage *u = &c->dev.states_usage[c->state];
			uint64_t above = u->above, below = u->below;
			uint64_t ns = (uint64_t)(ev.t_ns - c->enter_ns);
			ik_account_entered(drv, &c->dev, c->state, (int64_t)ns);
			bool deep = u->above != above, shallow = u->below != below;
			add_period(&a->cpu[ev.cpu].states[c->state], ns, deep, shallow);
			add_period(&a->all.states[c->state], ns, deep, shallow);
			a->hist[ik__trace_hist_bucket(ns)]++;
			ik__timeline_add(tl, ev.cpu, c->state, c->enter_ns, ev.t_ns);
			a->periods++;
			a->idle_ns[ev.cpu] += ns;
			group_idle(a, pkg_of[ev.cpu], false, ev.t_ns);
			group_idle(a, pkg_of[h->cpus + ev.cpu], false, ev.t_ns);
			c->idle = false;
			c->exited = true;
			ik__cause_exit(&c->p, ev.t_ns);
			c->too_deep = deep;
			c->too_shallow = shallow;
			break;
		}
		case IK_TRACE_WAKE:
			if (ik__cause_takes(&c->p, ev.t_ns)) {
				c->has_cause = true;
				c->p.want = false;
				c->cause = ev.cause;
				c->src = ev.cause == IK_CAUSE_IPI && ev.ipi_src ? ev.src_cpu : -1;
				c->irq = ev.cause == IK_CAUSE_IRQ ? ev.arg : -1;
			}
			break;
		case IK_TRACE_TASK_WAKE:
			/* Woken by another CPU while idle: the wake-up the IPI (if any) carries. */
			if (ev.src_cpu != ev.cpu && ik__cause_takes_remote(&c->p)) {
				c->has_cause = true;
				c->p.want = false;
				c->cause = IK_CAUSE_REMOTE;
				c->src = ev.src_cpu;
			}
			/* the waker did something (this event is on the wakee's time line) */
			if (ev.src_cpu >= 0 && ev.src_cpu < h->cpus)
				ik__cause_did(&run[ev.src_cpu].p);
			break;
		case IK_TRACE_SWITCH:
			a->has_switch = true;
			if (c->open && c->exited && ev.arg2 != 0)
				c->ran_task = true;
			ik__cause_did(&c->p);
			break;
		case IK_TRACE_TIMER_START:
		case IK_TRACE_TIMER_CANCEL:
		case IK_TRACE_TICK_STOP:
			ik__cause_did(&c->p);
			break;
		case IK_TRACE_FREQ: {
			struct ik_trace_pstates *ps = &a->pstates[ev.cpu];
			if (pstate_close(ps, ev.t_ns))
				goto oom;
			a->has_freq = true;
			ps->cur_khz = (uint32_t)ev.arg;
			ps->since_ns = ev.t_ns;
			break;
		}
		default:
			break;
		}
	}
	if (rc == IK_TRACE_EOF) {
		for (int cpu = 0; cpu < h->cpus; cpu++) {
			if (finish(a, cpu, &run[cpu]))
				goto oom;
			a->open_at_end += run[cpu].idle;
			if (pstate_close(&a->pstates[cpu], a->last_ns))
				goto oom;
			if (run[cpu].idle) /* drawn up to the last event, not counted */
				ik__timeline_add(tl, cpu, run[cpu].state, run[cpu].enter_ns, a->last_ns);
		}
		rc = IK_TRACE_OK;
	}
	if (0) {
oom:
		snprintf(err, errlen, "out of memory");
		rc = IK_TRACE_EFAIL;
	}
	if (!a->has_switch)
		a->task_periods = a->empty_periods = 0;
	free(pkg_of);
	a->events = ik__trace_events_read(r);
	a->skipped = ik__trace_skipped(r);
	if (a->first_ns < 0)
		a->first_ns = 0;
	free(run);
	if (rc)
		ik__trace_analysis_free(a);
	return rc;
}

void ik__trace_analysis_free(struct ik_trace_analysis *a)
{
	if (a->remote)
		for (int c = 0; c < a->cpus; c++)
			free(a->remote[c].v);
	free(a->remote);
	free(a->cpu);
	free(a->irqs);
	free(a->idle_ns);
	if (a->pstates)
		for (int c = 0; c < a->cpus; c++)
			free(a->pstates[c].v);
	ik__freep(&a->pstates);
	ik__freep(&a->groups);
	a->npackages = a->ncores = 0;
	a->cpu = NULL;
	a->remote = NULL;
	a->irqs = NULL;
	a->idle_ns = NULL;
	a->nirqs = a->irqs_cap = 0;
}
