/*
 * `sim --runs N -j J`: the seeds of one scenario on J CPUs.  Each run writes only its own
 * result, so the results (and every report made from them) are the same for any J.
 *
 * In rounds of J the last round leaves CPUs idle when J does not divide N (3 runs on 2
 * CPUs: a third run alone).  So the last J + N % J runs go on at once, on as many threads,
 * and share the J CPUs; the runs before them go J at a time.  With runs of equal length
 * that is 1.5 run lengths for 3 on 2 CPUs instead of 2, the least any schedule can do;
 * with unequal ones (a run that does less work has fewer events) every CPU stays busy until
 * only the longest is left.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "idlekit/sim.h"
#include "idlekit/sweep.h"

struct many {
	pthread_mutex_t mu;
	const struct ik_scenario *first, *rest;
	uint64_t seed;
	int n, next, finished;
	int slots;   /* runs that go on at once before the tail: J */
	int tail;    /* from this run on, every thread may start one */
	int running;
	pthread_cond_t freed; /* a run ended (or failed): a slot may be free */
	struct ik_run_result *out;
	bool *ok;
	const struct ik_sweep_progress *progress;
	int fail; /* lowest failed run, or n */
	char err[IK_ERR_LEN];
};

static void *many_worker(void *arg)
{
	struct many *m = arg;
	char err[IK_ERR_LEN];
	pthread_mutex_lock(&m->mu);
	while (m->next < m->n && m->fail == m->n) {
		if (m->next < m->tail && m->running >= m->slots) {
			pthread_cond_wait(&m->freed, &m->mu);
			continue;
		}
		int i = m->next++;
		m->running++;
		pthread_mutex_unlock(&m->mu);
		int ret = ik_sim_run(i == 0 ? m->first : m->rest, m->seed + (uint64_t)i, &m->out[i],
				     err, sizeof(err));
		pthread_mutex_lock(&m->mu);
		m->running--;
		pthread_cond_broadcast(&m->freed);
		if (ret == 0) {
			m->ok[i] = true;
			m->finished++;
			if (m->progress && m->progress->step)
				m->progress->step(m->progress->user, m->finished, m->n);
		} else if (i < m->fail) {
			m->fail = i;
			snprintf(m->err, sizeof(m->err), "%s", err);
		}
	}
	pthread_mutex_unlock(&m->mu);
	return NULL;
}

int ik_sim_run_many(const struct ik_scenario *first, const struct ik_scenario *rest,
		    uint64_t seed, int n, int threads, struct ik_run_result *out,
		    const struct ik_sweep_progress *progress, char *err, size_t errlen)
{
	struct many m = { .first = first, .rest = rest, .seed = seed, .n = n, .out = out,
			  .progress = progress, .fail = n };
	if (threads > n)
		threads = n;
	if (threads < 1)
		threads = 1;
	/* the tail: the last threads + n % threads runs, all at once (above) */
	int extra = n % threads;
	m.slots = threads;
	m.tail = n - threads - extra;
	threads += extra;
	pthread_t *tid = calloc((size_t)threads, sizeof(*tid));
	m.ok = calloc((size_t)(n > 0 ? n : 1), sizeof(*m.ok));
	if (!tid || !m.ok) {
		free(tid);
		free(m.ok);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pthread_mutex_init(&m.mu, NULL);
	pthread_cond_init(&m.freed, NULL);
	int started = 0;
	for (int i = 1; i < threads; i++) {
		if (pthread_create(&tid[i], NULL, many_worker, &m) != 0)
			break;
		started++;
	}
	many_worker(&m);
	for (int i = 1; i <= started; i++)
		pthread_join(tid[i], NULL);
	pthread_cond_destroy(&m.freed);
	pthread_mutex_destroy(&m.mu);
	int ret = 0;
	if (m.fail < n) {
		for (int i = 0; i < n; i++)
			if (m.ok[i])
				ik_run_result_free(&out[i]);
		snprintf(err, errlen, "%s", m.err);
		ret = -1;
	}
	free(m.ok);
	free(tid);
	return ret;
}
