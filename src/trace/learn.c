/*
 * Learning a workload from a trace (idlekit workload learn): per CPU, every idle period's
 * length and cause (the same definition of cause as analyze: the first wake on the CPU at
 * or after its idle_enter and before its next one, a remote task_wake while idle counting
 * as "remote"), and the busy time from its exit to the CPU's next idle_enter, filed under
 * that cause.  An idle length is kept as the time to the wake event: the residency less
 * the entered state's advertised exit latency (the exit the simulation pays again).  The model (include/idlekit/learned.h) keeps the samples themselves.
 */
#include <stdlib.h>
#include <string.h>

#include "idlekit/learned.h"
#include "idlekit/trace.h"

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
};

static int push(struct growing *g, int64_t v)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		int64_t *n = realloc(g->v, cap * sizeof(*n));
		if (!n)
			return -1;
		g->v = n;
		g->cap = cap;
	}
	g->v[g->n++] = v;
	return 0;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sorted, and thinned to evenly spaced order statistics when there are too many. */
static void keep(struct growing *g, struct ik_learned_samples *out)
{
	out->n = 0;
	if (g->n == 0)
		return;
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

int ik_learn_trace(struct ik_trace_reader *r, const char *source, struct ik_learned *out,
		   char *err, size_t errlen)
{
	const struct ik_trace_header *h = ik_trace_header(r);
	struct cpu_track *t = calloc((size_t)h->cpus, sizeof(*t));
	struct ik_trace_event ev;
	int rc = -1, st;

	memset(out, 0, sizeof(*out));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < h->cpus; i++)
		t[i].cause = t[i].last_cause = -1;
	while ((st = ik_trace_next(r, &ev, err, errlen)) == 0) {
		struct cpu_track *c = &t[ev.cpu];
		switch (ev.kind) {
		case IK_TRACE_IDLE_ENTER:
			if (close_period(c))
				goto oom;
			if (c->have_exit && c->last_cause >= 0 &&
			    push(&c->busy[c->last_cause], ev.t_ns - c->exit))
				goto oom;
			c->in_idle = c->open = true;
			c->have_exit = false;
			c->cause = -1;
			c->enter = ev.t_ns;
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
		for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
			m->periods[k] = c->periods[k];
			keep(&c->idle[k], &m->idle[k]);
			keep(&c->busy[k], &m->busy[k]);
		}
	}
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
	if (rc)
		ik_learned_free(out);
	return rc;
}

static void write_samples(FILE *out, const char *what, int cpu, int cause,
			  const struct ik_learned_samples *s)
{
	if (s->n == 0)
		return;
	fprintf(out, "%s %d %s", what, cpu, ik_trace_cause_name((enum ik_trace_cause)cause));
	for (int i = 0; i < s->n; i++)
		fprintf(out, " %lld", (long long)s->v[i]);
	fputc('\n', out);
}

int ik_learned_write(FILE *out, const struct ik_learned *m)
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
	for (int c = 0; c < m->cpus; c++) {
		const struct ik_learned_cpu *cpu = &m->cpu[c];
		if (cpu->always_busy) {
			fprintf(out, "busy_cpu %d\n", c);
			continue;
		}
		for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
			if (cpu->periods[k] == 0)
				continue;
			fprintf(out, "cause %d %s %llu\n", c, ik_trace_cause_name((enum ik_trace_cause)k),
				(unsigned long long)cpu->periods[k]);
			write_samples(out, "idle", c, k, &cpu->idle[k]);
			write_samples(out, "busy", c, k, &cpu->busy[k]);
		}
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

int ik_learned_platform_ini(FILE *out, const struct ik_trace_reader *r, const char *name)
{
	const struct ik_trace_header *h = ik_trace_header(r);
	const struct ik_driver *d = &h->drivers[0].drv;

	fprintf(out, "; The machine of trace %s, as far as its header says: its first driver's\n"
		     "; table (%s), each state's exit at its advertised latency, no IPI or context\n"
		     "; switch cost and one CPU per core (the recording says neither).\n",
		name, d->name);
	fprintf(out, "[platform]\nname = trace\ndescription = the table of trace %s\n", name);
	fprintf(out, "packages = 1\ncores_per_package = %d\nthreads_per_core = 1\n"
		     "cores_per_llc = %d\nipi_ns = constant 0\npoll_wake_ns = 0\n"
		     "context_switch_ns = 0\nactive_power_mw = 1000\n", h->cpus, h->cpus);
	for (int i = 0; i < d->state_count; i++) {
		const struct ik_state *s = &d->states[i];
		bool poll = s->flags & IK_FLAG_POLLING;
		fprintf(out, "\n[state%d]\nname = %s\n", i, s->name);
		if (s->desc[0])
			fprintf(out, "desc = %s\n", s->desc);
		fprintf(out, "latency_us = %u\nresidency_us = %u\nmethod = %s\n", s->exit_latency,
			s->target_residency, poll ? "poll" : "hlt");
		if (!poll)
			fprintf(out, "exit_ns = constant %lld\n", (long long)s->exit_latency_ns);
	}
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

void ik_learned_free(struct ik_learned *m)
{
	if (!m)
		return;
	free(m->cpu);
	memset(m, 0, sizeof(*m));
}
