/*
 * Replay's package deep state: the simulator's model (src/sim/hw_effects.c) on the replayed
 * time lines.  A CPU holds its package awake except from the start of an entry into a
 * state that power-gates the core (the platform's core_off) to the wake that ends it; a
 * package is in its deep state while every traced CPU in it is (a platform CPU the trace
 * does not have is taken as offline, in its deepest state), and draws pkg_idle_mw then,
 * pkg_active_mw otherwise.
 *
 * The replay computes each CPU's time line period by period in the trace's order, so the
 * CPUs of a package are known up to different times: each CPU's core-off intervals wait in
 * a queue until every CPU of its package is known past them, and the package's time is
 * swept up to the earliest of those times (exact; the memory is the intervals of a
 * package's CPUs within its CPUs' longest recorded idle period).
 *
 * The package's exit: as in the simulator, the first CPU to wake from a deep package pays
 * pkg_exit_ns on top of its state's exit (the lowest-numbered CPU when several wake at the
 * same time), drawn from the package's own generator (seeded from the run's seed, so the
 * CPUs' entry and exit draws are the same as without it, for every governor).  The sweep
 * is where a deep stretch's end is known, so the wake latency sample of a span's wake waits
 * in the span (lat_ns) and is added, with the exit if paid, when the span leaves the queue.
 * The exit also moves the work: the waking CPU's next events wait until its span is
 * final (ik__replay_pkg_hold), then go on with the exit added (replay.c).  A CPU whose wake
 * waits for another CPU's work (closed loop) is gated from its open entry on
 * (ik__replay_pkg_open) as far as it is known, so the sweep can go on past it.
 *
 * CPUs sit on packages as the platform numbers them (src/hw/topology.c); a trace with more
 * CPUs than the platform is laid out as on that platform with as many packages as needed.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/replay_internal.h"

static bool core_off(const struct ik_trace_cost_model *m, int state)
{
	if (!m || !m->plat || state < 0 || state >= IK_STATE_MAX)
		return false;
	int i = m->hw_state[state];
	return i >= 0 && i < m->plat->state_count && m->plat->effects.state_core_off[i];
}

int ik__replay_pkg_init(struct ik_replay_pkg *p, const struct ik_trace_cost_model *m,
		       const struct ik_driver *drv, int cpus, int64_t start_ns, uint64_t seed,
		       struct ik_hist *lat)
{
	memset(p, 0, sizeof(*p));
	p->lat = lat;
	if (!m || !m->plat || cpus < 1)
		return 0;
	struct ik_platform lay = *m->plat;
	int per = lay.cores_per_package * lay.threads_per_core;
	if (per < 1)
		return 0;
	if (cpus > ik__platform_cpus(&lay))
		lay.packages = (cpus + per - 1) / per;
	p->pkg_of = malloc((size_t)cpus * sizeof(*p->pkg_of));
	int *slot = calloc((size_t)lay.packages, sizeof(*slot)); /* platform package -> ours + 1 */
	if (!p->pkg_of || !slot) {
		free(slot);
		return -1;
	}
	for (int c = 0; c < cpus; c++) {
		struct ik_cpu_topo t;
		ik__platform_topology(&lay, c, &t);
		if (!slot[t.package])
			slot[t.package] = ++p->npkg;
		p->pkg_of[c] = slot[t.package] - 1;
	}
	free(slot);
	p->cpus = cpus;
	for (int s = 0; s < drv->state_count; s++)
		if (core_off(m, s))
			p->tracked = true;
	if (!p->tracked)
		return 0; /* no state gates a core: the package is never deep */
	p->q = calloc((size_t)cpus, sizeof(*p->q));
	p->swept_ns = malloc((size_t)p->npkg * sizeof(*p->swept_ns));
	p->first = malloc((size_t)p->npkg * sizeof(*p->first));
	p->next = malloc((size_t)cpus * sizeof(*p->next));
	p->rng = malloc((size_t)p->npkg * sizeof(*p->rng));
	p->released = malloc((size_t)cpus * sizeof(*p->released));
	p->released_ns = calloc((size_t)cpus, sizeof(*p->released_ns));
	p->open_from = malloc((size_t)cpus * sizeof(*p->open_from));
	if (!p->q || !p->swept_ns || !p->first || !p->next || !p->rng || !p->released ||
	    !p->released_ns || !p->open_from)
		return -1;
	for (int c = 0; c < cpus; c++) {
		p->open_from[c] = INT64_MAX;
		p->q[c].size = sizeof(struct ik_replay_span);
	}
	for (int k = 0; k < p->npkg; k++) {
		p->swept_ns[k] = start_ns;
		p->first[k] = -1;
		/* a stream of its own: not one the CPUs' generators (replay.c) also make */
		ik__rng_seed(&p->rng[k], (seed ^ 0x706B675F65786974ull) * 0xD1B54A32D192ED03ull +
						(uint64_t)k);
	}
	for (int c = cpus - 1; c >= 0; c--) { /* each package's CPUs in increasing order */
		p->next[c] = p->first[p->pkg_of[c]];
		p->first[p->pkg_of[c]] = c;
	}
	p->model = m;
	return 0;
}

void ik__replay_pkg_free(struct ik_replay_pkg *p)
{
	for (int c = 0; p->q && c < p->cpus; c++)
		free(p->q[c].v);
	free(p->q);
	free(p->pkg_of);
	free(p->swept_ns);
	free(p->first);
	free(p->next);
	free(p->rng);
	free(p->released);
	free(p->released_ns);
	free(p->open_from);
	memset(p, 0, sizeof(*p));
}

static struct ik_replay_span *at(const struct ik_replay_ring *q, size_t i)
{
	return ik__replay_ring_at(q, i);
}

bool ik__replay_pkg_idle(struct ik_replay_pkg *p, int cpu, int state, int64_t from, int64_t to)
{
	if (!p->tracked || to <= from || !core_off(p->model, state))
		return false;
	struct ik_replay_ring *q = &p->q[cpu];
	/*
	 * One span per entry, even touching the last one (a re-entry after a wake that cost
	 * nothing to leave): the wake between them ends the package's deep stretch as well.
	 */
	struct ik_replay_span *sp = ik__replay_ring_push(q);
	if (!sp) {
		p->oom = true;
		return false;
	}
	*sp = (struct ik_replay_span){ from, to, -1, 0, false };
	return true;
}

void ik__replay_pkg_wake_latency(struct ik_replay_pkg *p, int cpu, int64_t lat_ns)
{
	struct ik_replay_ring *q = &p->q[cpu];
	if (q->n)
		at(q, q->n - 1)->lat_ns = lat_ns;
}

void ik__replay_pkg_hold(struct ik_replay_pkg *p, int cpu)
{
	struct ik_replay_ring *q = &p->q[cpu];
	if (q->n)
		at(q, q->n - 1)->hold = true;
}

void ik__replay_pkg_open(struct ik_replay_pkg *p, int cpu, int state, int64_t from)
{
	if (p->tracked)
		p->open_from[cpu] = state >= 0 && core_off(p->model, state) ? from : INT64_MAX;
}

int ik__replay_pkg_released(struct ik_replay_pkg *p, int64_t *pkg_ns)
{
	if (!p->nreleased)
		return -1;
	int cpu = p->released[--p->nreleased];
	*pkg_ns = p->released_ns[cpu];
	return cpu;
}

/* The oldest span of a queue leaves it: its wake's latency sample is final, and a held
   CPU's work can start. */
static void pop(struct ik_replay_pkg *p, struct ik_replay_ring *q)
{
	const struct ik_replay_span *s = at(q, 0);
	if (s->lat_ns >= 0)
		ik__hist_add(p->lat, s->lat_ns + s->pkg_ns);
	if (s->hold) {
		int cpu = (int)(q - p->q);
		p->released_ns[cpu] = s->pkg_ns;
		p->released[p->nreleased++] = cpu; /* one held span per CPU at a time */
	}
	ik__replay_ring_pop(q);
}

void ik__replay_pkg_sweep(struct ik_replay_pkg *p, int pkg, int64_t until_ns)
{
	int64_t t = p->swept_ns[pkg];
	while (t < until_ns) {
		bool all = true, unknown = false;
		int64_t deep_to = INT64_MAX, next = t;
		int payer = -1; /* the first CPU whose span ends the deep stretch */
		for (int c = p->first[pkg]; c >= 0; c = p->next[c]) {
			struct ik_replay_ring *q = &p->q[c];
			while (q->n && at(q, 0)->to <= t)
				pop(p, q);
			if (!q->n) {
				int64_t of = p->open_from[c];
				if (of == INT64_MAX) { /* awake from t to at least until_ns */
					all = false;
					unknown = true;
					break;
				}
				if (of > t) { /* awake until its open entry */
					all = false;
					if (of > next)
						next = of;
				}
				continue; /* gated past what is known of it: not the stretch's end */
			}
			const struct ik_replay_span *s = at(q, 0);
			if (s->from > t) {
				all = false;
				if (s->from > next)
					next = s->from;
			} else if (s->to < deep_to) {
				deep_to = s->to;
				payer = c;
			}
		}
		if (all && deep_to > until_ns) { /* deep past what is known: its end is not yet */
			p->deep_ns += until_ns - t;
			t = until_ns;
		} else if (all) {
			/*
			 * Every span in the queues is final and every CPU's spans up to until_ns are
			 * there, so the stretch ends at deep_to, by the payer's wake.
			 */
			p->deep_ns += deep_to - t;
			struct ik_replay_span *s = at(&p->q[payer], 0);
			s->pkg_ns = ik__dist_sample(&p->model->plat->effects.pkg_exit_ns, &p->rng[pkg]);
			p->exits++;
			p->exit_ns += s->pkg_ns;
			if (s->lat_ns >= 0) {
				p->exits_woken++;
				p->exit_woken_ns += s->pkg_ns;
			}
			t = deep_to;
		} else {
			t = unknown || next > until_ns ? until_ns : next;
		}
	}
	p->swept_ns[pkg] = t;
	/* the spans that end by t are final (no later sweep can make them pay): out now, so
	   that a CPU holding its work on one goes on at once */
	for (int c = p->first[pkg]; c >= 0; c = p->next[c])
		while (p->q[c].n && at(&p->q[c], 0)->to <= t)
			pop(p, &p->q[c]);
}

void ik__replay_pkg_close(struct ik_replay_pkg *p, int64_t end_ns)
{
	for (int k = 0; p->tracked && k < p->npkg; k++)
		ik__replay_pkg_sweep(p, k, end_ns);
	/* what is left: spans past end_ns (none: the end is past every replayed exit) or
	   behind a CPU whose queue the sweep did not reach */
	for (int c = 0; p->tracked && c < p->cpus; c++)
		while (p->q[c].n)
			pop(p, &p->q[c]);
}
