/*
 * idlekit validate: the sysfs cpuidle counters read around one window, and one run's
 * figures from the difference.
 *
 * Both reads take every online CPU that has a cpuidle directory, with the CLOCK_MONOTONIC
 * time in the middle of the read; the window is the time between the two.  A state's time
 * in sysfs is only added when the CPU leaves the state, so an idle period open at a read
 * would count wrongly: whole in the window when open at its start (time before the window
 * in it), not at all when open at its end.  So just before each read this thread visits
 * every CPU it may run on (sched_setaffinity to each in turn), which ends the idle period
 * of each: every idle period the window counts lies inside it, and the residencies of a
 * CPU add up to at most its window.  That is one wake-up per CPU at each edge.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/freep.h"
#include "validate/validate.h"

int ik__val_sample_alloc(struct ik_val_sample *s, int ncpus, int nstates)
{
	memset(s, 0, sizeof(*s));
	size_t n = (size_t)(ncpus > 0 ? ncpus : 1) * (size_t)(nstates > 0 ? nstates : 1);
	s->ncpus = ncpus;
	s->nstates = nstates;
	s->cpu_ids = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(int));
	s->usage = calloc(n, sizeof(double));
	s->time_ns = calloc(n, sizeof(double));
	s->above = calloc(n, sizeof(double));
	s->below = calloc(n, sizeof(double));
	if (!s->cpu_ids || !s->usage || !s->time_ns || !s->above || !s->below) {
		ik__val_sample_free(s);
		return -1;
	}
	return 0;
}

void ik__val_sample_free(struct ik_val_sample *s)
{
	ik__freep(&s->cpu_ids);
	ik__freep(&s->usage);
	ik__freep(&s->time_ns);
	ik__freep(&s->above);
	ik__freep(&s->below);
}

/* Run on each CPU this thread may use, once, then as before: each one's idle period ends. */
static void visit_cpus(void)
{
	cpu_set_t allowed, one;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		/* returns once this thread runs there */
		sched_setaffinity(0, sizeof(one), &one);
	}
	sched_setaffinity(0, sizeof(allowed), &allowed);
}

int ik__val_counters_read(const struct ik_sysfs *fs, struct ik_val_counters *c, char *err,
			 size_t errlen)
{
	memset(c, 0, sizeof(*c));
	visit_cpus();
	int64_t t0 = ik__host_now_ns();
	if (ik__host_idle_read(fs, NULL, &c->idle, err, errlen))
		return -1;
	c->at_ns = t0 + (ik__host_now_ns() - t0) / 2;
	return 0;
}

void ik__val_counters_free(struct ik_val_counters *c)
{
	ik__host_idle_free(&c->idle);
}

/* The CPUs a window counts: online, with states. */
static bool counted(const struct ik_host_cpu *h)
{
	return h->online && h->has_cpuidle && h->nstates > 0;
}

/* A counter's growth; one that went backwards (a CPU that went offline and back) as 0. */
static double grown(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0.0;
}

int ik__val_sample_window(const struct ik_val_counters *before, const struct ik_val_counters *after,
			 struct ik_val_sample *s, char *err, size_t errlen)
{
	const struct ik_host_idle *a = &before->idle, *b = &after->idle;
	int ncpus = 0, nstates = 0;

	if (a->ncpus != b->ncpus)
		return ik__errmsg(err, errlen, "the CPUs changed during the window (%d, then %d)",
				  a->ncpus, b->ncpus);
	for (int i = 0; i < a->ncpus; i++) {
		if (!counted(&a->cpus[i]))
			continue;
		if (!counted(&b->cpus[i]) || b->cpus[i].nstates != a->cpus[i].nstates)
			return ik__errmsg(err, errlen, "CPU %d went offline or changed its idle "
					  "states during the window", a->cpus[i].cpu);
		ncpus++;
		if (a->cpus[i].nstates > nstates)
			nstates = a->cpus[i].nstates;
	}
	if (ncpus == 0)
		return ik__errmsg(err, errlen, "no online CPU has cpuidle states (driver: %s)",
				  a->driver);
	if (ik__val_sample_alloc(s, ncpus, nstates))
		return ik__errmsg(err, errlen, "out of memory");
	s->window_ns = (double)(after->at_ns - before->at_ns);
	s->have_above_below = true;
	int k = 0;
	for (int i = 0; i < a->ncpus; i++) {
		const struct ik_host_cpu *ca = &a->cpus[i], *cb = &b->cpus[i];
		if (!counted(ca))
			continue;
		s->cpu_ids[k] = ca->cpu;
		for (int st = 0; st < ca->nstates; st++) {
			const struct ik_host_state *x = &ca->states[st], *y = &cb->states[st];
			size_t j = (size_t)k * (size_t)nstates + (size_t)st;
			if (k == 0)
				snprintf(s->state_names[st], IK_VAL_NAME_LEN, "%s", x->name);
			s->usage[j] = grown(x->usage, y->usage);
			s->time_ns[j] = grown(x->time_us, y->time_us) * 1000.0;
			s->above[j] = grown(x->above, y->above);
			s->below[j] = grown(x->below, y->below);
			if (!(x->have & IK_HAVE_ABOVE) || !(x->have & IK_HAVE_BELOW))
				s->have_above_below = false;
		}
		k++;
	}
	return 0;
}
