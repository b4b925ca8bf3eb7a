/*
 * `sim --runs N -j J`: the seeds of one scenario on J CPUs (util/thread_pool.h).  Each run
 * writes only its own result, so the results (and every report made from them) are the
 * same for any J.
 *
 * In rounds of J the last round leaves CPUs idle when J does not divide N (3 runs on 2
 * CPUs: a third run alone).  So the last J + N % J runs (the tail) start at once, on as
 * many threads, and share the J CPUs; the runs before them go J at a time.  Left to the
 * operating system, the tail's runs would share the CPUs evenly, so the longest would get
 * only J / (J + N % J) of a CPU until a shorter one ends.  Instead, every 1/200 of its
 * simulated length each tail run estimates the CPU time it still needs (from its pace so
 * far, once it is 1/50 of the way), and only the J with the most left go on, the others
 * waiting at that look (longest_first.h).  Runs of unequal length (a run that does less
 * work has fewer events) then end as soon as the longest alone allows, when the estimates
 * hold.  Where a run waits changes nothing in it: a watch only pauses the run.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim/sim.h"
#include "sweep/longest_first.h"
#include "sweep/sweep.h"
#include "util/errmsg.h"
#include "util/thread_pool.h"

#define LOOKS_PER_RUN 200  /* a tail run's looks at its pace over its simulated length */
#define ESTIMATE_FROM 50   /* ... estimated from 1/50 of the way */
#define KEEP 1.05          /* a running run's estimate counts 5% more (longest_first.h) */

struct many {
	pthread_mutex_t mu;
	const struct ik_scenario *first, *rest;
	struct ik_sim_set *set_first, *set_rest; /* their run sets, opened once */
	uint64_t seed;
	int n, finished;
	int slots;   /* runs that go on at once before the tail: J */
	int tail;    /* from this run on, every thread may start one */
	int running;
	int started; /* of the runs before the tail */
	pthread_cond_t freed; /* a run started before the tail, or ended (or failed) */
	struct ik_lf_run *lf; /* the tail's runs, by index, when it has more runs than slots */
	pthread_cond_t turn;  /* an estimate changed, or a run stopped going on or ended */
	struct ik_run_result *out;
	bool *ok;
	const struct ik_sweep_progress *progress;
	int64_t *at_ms;  /* per run: simulated ms done, for the progress */
	int64_t done_ms, total_ms; /* their sum; all runs' lengths */
	int fail; /* lowest failed run, or n */
	char err[IK_ERR_LEN];
};

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct look {
	struct many *m;
	int run;
	bool turns;    /* a tail run that takes turns */
	double cpu0_s; /* its thread's CPU time when the run started */
};

static const struct ik_scenario *run_scenario(const struct many *m, int i)
{
	return i == 0 ? m->first : m->rest;
}

static const struct ik_sim_set *run_set(const struct many *m, int i)
{
	return i == 0 ? m->set_first : m->set_rest;
}

static int64_t run_length_ms(const struct many *m, int i)
{
	const struct ik_scenario *sc = run_scenario(m, i);
	return (sc->warmup_ns + sc->duration_ns) / 1000000;
}

/* Under the lock: run i is at at_ms simulated ms; tell the progress. */
static void progress_at(struct many *m, int i, int64_t at_ms)
{
	m->done_ms += at_ms - m->at_ms[i];
	m->at_ms[i] = at_ms;
	m->progress->step(m->progress->user, m->done_ms, m->total_ms);
}

/* A run's look (an ik_sim_watch): the progress, then for a tail run its estimate, and it
   goes on or waits for its turn. */
static void run_look(void *user, int64_t now_ns, int64_t end_ns)
{
	struct look *l = user;
	struct many *m = l->m;
	double cpu = l->turns ? thread_cpu_s() - l->cpu0_s : 0;
	pthread_mutex_lock(&m->mu);
	if (m->at_ms)
		progress_at(m, l->run, now_ns / 1000000);
	struct ik_lf_run *r = l->turns ? &m->lf[l->run] : NULL;
	if (r && now_ns > 0 && now_ns >= end_ns / ESTIMATE_FROM) {
		r->left_s = cpu * (double)(end_ns - now_ns) / (double)now_ns;
		pthread_cond_broadcast(&m->turn);
	}
	while (r && !ik__lf_goes_on(m->lf, m->n, m->slots, l->run, KEEP)) {
		if (r->running) {
			r->running = false; /* without its keep, another may now go on */
			pthread_cond_broadcast(&m->turn);
		}
		pthread_cond_wait(&m->turn, &m->mu);
	}
	if (r)
		r->running = true;
	pthread_mutex_unlock(&m->mu);
}

/* Run i (under no lock), with its looks when there is a progress to tell or the tail
   takes turns. */
static int many_run(struct many *m, int i, char *err, size_t errlen)
{
	const struct ik_scenario *sc = run_scenario(m, i);
	uint64_t seed = m->seed + (uint64_t)i;
	struct look look = { m, i, m->lf && i >= m->tail, thread_cpu_s() };
	if (!look.turns && !m->at_ms)
		return ik__sim_set_run(run_set(m, i), seed, NULL, &m->out[i], err, errlen);
	int64_t end = sc->warmup_ns + sc->duration_ns;
	struct ik_sim_watch w = { run_look, &look, end / LOOKS_PER_RUN };
	int ret = ik__sim_set_run(run_set(m, i), seed, w.every_ns > 0 ? &w : NULL, &m->out[i], err,
				 errlen);
	if (look.turns) {
		pthread_mutex_lock(&m->mu);
		m->lf[i].live = false;
		m->lf[i].running = false;
		pthread_cond_broadcast(&m->turn);
		pthread_mutex_unlock(&m->mu);
	}
	return ret;
}

/* Run i (a job of the pool).  The runs before the tail go `slots` at a time; the tail's
   start once every run before them has (its extra threads wait here until then).  No run
   starts after an earlier one failed. */
static int many_job(void *arg, int64_t idx)
{
	struct many *m = arg;
	int i = (int)idx;
	char err[IK_ERR_LEN];
	pthread_mutex_lock(&m->mu);
	while (m->fail > i && (i < m->tail ? m->running >= m->slots : m->started < m->tail))
		pthread_cond_wait(&m->freed, &m->mu);
	if (m->fail < i) {
		pthread_mutex_unlock(&m->mu);
		return 1;
	}
	m->running++;
	if (i < m->tail) {
		m->started++;
		pthread_cond_broadcast(&m->freed); /* the tail may be waiting for this start */
	}
	if (m->lf && i >= m->tail) {
		m->lf[i].live = true;
		m->lf[i].running = true;
	}
	pthread_mutex_unlock(&m->mu);
	int ret = many_run(m, i, err, sizeof(err));
	pthread_mutex_lock(&m->mu);
	m->running--;
	pthread_cond_broadcast(&m->freed);
	if (ret == 0) {
		m->ok[i] = true;
		m->finished++;
		if (m->at_ms)
			progress_at(m, i, run_length_ms(m, i));
	} else if (i < m->fail) {
		m->fail = i;
		snprintf(m->err, sizeof(m->err), "%s", err);
	}
	pthread_mutex_unlock(&m->mu);
	return ret != 0;
}

int ik__sim_run_many(const struct ik_scenario *first, const struct ik_scenario *rest,
		    uint64_t seed, int n, int threads, struct ik_run_result *out,
		    const struct ik_sweep_progress *progress, char *err, size_t errlen)
{
	struct many m = { .first = first, .rest = rest, .seed = seed, .n = n, .out = out,
			  .progress = progress, .fail = n };
	if (threads > n)
		threads = n;
	if (threads < 1)
		threads = 1;
	/* the tail: the last threads + n % threads runs start at once, and take turns when
	   they are more than the threads (above) */
	int extra = n % threads;
	m.slots = threads;
	m.tail = n - threads - extra;
	threads += extra;
	m.ok = calloc((size_t)(n > 0 ? n : 1), sizeof(*m.ok));
	if (extra > 0)
		m.lf = calloc((size_t)n, sizeof(*m.lf));
	bool told = progress && progress->step;
	if (told)
		m.at_ms = calloc((size_t)(n > 0 ? n : 1), sizeof(*m.at_ms));
	if (!m.ok || (extra > 0 && !m.lf) || (told && !m.at_ms)) {
		free(m.ok);
		free(m.lf);
		free(m.at_ms);
		return ik__errmsg(err, errlen, "out of memory");
	}
	/* the driver probed and the workload's file read once for all the runs (a failure
	   is the first run's, as it would be if each run made its own) */
	if (n > 0 && (ik__sim_set_open(first, &m.set_first, err, errlen) ||
		      (n > 1 && rest != first &&
		       ik__sim_set_open(rest, &m.set_rest, err, errlen)))) {
		ik__sim_set_close(m.set_first);
		free(m.ok);
		free(m.lf);
		free(m.at_ms);
		return -1;
	}
	if (!m.set_rest)
		m.set_rest = m.set_first;
	for (int i = 0; m.lf && i < n; i++)
		m.lf[i].left_s = INFINITY;
	for (int i = 0; m.at_ms && i < n; i++)
		m.total_ms += run_length_ms(&m, i);
	pthread_mutex_init(&m.mu, NULL);
	pthread_cond_init(&m.freed, NULL);
	pthread_cond_init(&m.turn, NULL);
	ik__thread_pool_run(n, threads, many_job, &m);
	pthread_cond_destroy(&m.turn);
	pthread_cond_destroy(&m.freed);
	pthread_mutex_destroy(&m.mu);
	int ret = 0;
	if (m.fail < n) {
		for (int i = 0; i < n; i++)
			if (m.ok[i])
				ik__run_result_free(&out[i]);
		snprintf(err, errlen, "%s", m.err);
		ret = -1;
	}
	if (m.set_rest != m.set_first)
		ik__sim_set_close(m.set_rest);
	ik__sim_set_close(m.set_first);
	free(m.at_ms);
	free(m.lf);
	free(m.ok);
	return ret;
}
