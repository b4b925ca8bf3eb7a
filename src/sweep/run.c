/*
 * Running a sweep's tasks on a pool of threads (util/thread_pool.h).  A task is one run of
 * one point; tasks are handed out in order, each loads its point's scenario and runs it on
 * its own (the simulator has no shared state), and a finished task's row waits in a window
 * until every earlier task's row is written, so the rows file comes out in task order
 * whatever the number of threads.  The window bounds memory: a task waits rather than run
 * more than `window` tasks ahead of the oldest unwritten one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "sweep/sweep_internal.h"
#include "util/errmsg.h"
#include "util/thread_pool.h"

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const struct ik_sweep_spec *s;
	const struct ik_sweep_shard *sh;
	int64_t first, end; /* tasks [first, end), the pool's jobs 0.. */
	int64_t total;    /* tasks of the shard (for progress) */
	int64_t written;  /* next task to write */
	int64_t finished; /* tasks finished (for progress) */
	int window;
	char **slots;     /* row of task t at slots[t % window] */
	FILE *rows;
	const struct ik_sweep_progress *progress;
	int status;       /* 0, 2 (bad input) or -1 (write failed) */
	int64_t fail_task;
	char err[IK_ERR_LEN];
};

static int run_task(struct pool *p, int64_t t, char **row, char *err, size_t errlen)
{
	const struct ik_sweep_spec *s = p->s;
	int64_t point = ik__sweep_shard_point(p->sh, t / s->runs);
	int run = (int)(t % s->runs);
	struct ik_scenario *sc = malloc(sizeof(*sc));
	struct ik_run_result r;
	int ret = 2;

	*row = NULL;
	if (!sc)
		return ik__errmsg(err, errlen, "out of memory");
	if (ik__sweep_point_load(s, point, sc, err, errlen) == 0) {
		char msg[IK_ERR_LEN];
		if (ik__sim_run(sc, s->seed + (uint64_t)run, &r, msg, sizeof(msg)) == 0) {
			*row = ik__sweep_row_format(s, point, run, sc, &r);
			ik__run_result_free(&r);
			ret = *row ? 0 : -1;
			if (!*row)
				snprintf(err, errlen, "out of memory");
		} else {
			ik__sweep_msg(err, errlen, "%s: point %lld run %d: %s", s->origin,
				     (long long)point, run, msg);
		}
	}
	free(sc);
	return ret;
}

/* Under the lock: write every row that is next in order. */
static void write_ready(struct pool *p)
{
	while (p->written < p->end && p->slots[p->written % p->window]) {
		char **slot = &p->slots[p->written % p->window];
		if (p->status == 0 && fputs(*slot, p->rows) < 0) {
			p->status = -1;
			p->fail_task = p->written;
			snprintf(p->err, sizeof(p->err), "writing the rows failed");
		}
		free(*slot);
		*slot = NULL;
		p->written++;
		if (p->status == 0 && p->written % p->s->runs == 0 && fflush(p->rows) != 0) {
			p->status = -1;
			p->fail_task = p->written;
			snprintf(p->err, sizeof(p->err), "writing the rows failed");
		}
	}
}

/* Task `first + i` (a job of the pool): it waits while it is `window` or more ahead of the
   oldest unwritten row, and does not run once an earlier task has failed. */
static int task_job(void *arg, int64_t i)
{
	struct pool *p = arg;
	char err[IK_ERR_LEN];
	int64_t t = p->first + i;

	pthread_mutex_lock(&p->mu);
	while (p->status == 0 && t >= p->written + p->window)
		pthread_cond_wait(&p->cv, &p->mu);
	/* every task before one that failed was handed out before it: it still runs, so
	   the lowest failure is the same for any number of threads */
	if (p->status != 0 && t > p->fail_task) {
		pthread_mutex_unlock(&p->mu);
		return 1;
	}
	pthread_mutex_unlock(&p->mu);

	char *row;
	int ret = run_task(p, t, &row, err, sizeof(err));

	pthread_mutex_lock(&p->mu);
	if (ret != 0) {
		if (p->status == 0 || t < p->fail_task) {
			p->status = ret;
			p->fail_task = t;
			ik__sweep_msg(p->err, sizeof(p->err), "%s", err);
		}
	} else {
		p->slots[t % p->window] = row;
		p->finished++;
		if (p->progress && p->progress->step)
			p->progress->step(p->progress->user, p->finished, p->total);
		write_ready(p);
	}
	pthread_cond_broadcast(&p->cv);
	int stop = p->status != 0;
	pthread_mutex_unlock(&p->mu);
	return stop;
}

int ik__sweep_run(const struct ik_sweep_spec *s, const struct ik_sweep_shard *sh, int64_t first,
		 int threads, FILE *rows, const struct ik_sweep_progress *progress, char *err,
		 size_t errlen)
{
	struct pool p = { .s = s, .sh = sh, .rows = rows, .progress = progress };
	int64_t npoints = ik__sweep_shard_points(s, sh);

	p.total = npoints * s->runs;
	p.end = p.total;
	p.first = p.written = first * s->runs;
	p.finished = p.first;
	if (threads < 1)
		threads = 1;
	if (p.end - p.first < threads)
		threads = (int)(p.end - p.first > 0 ? p.end - p.first : 1);
	p.window = 4 * threads + 4;
	p.slots = calloc((size_t)p.window, sizeof(*p.slots));
	if (!p.slots)
		return ik__errmsg(err, errlen, "out of memory");
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	ik__thread_pool_run(p.end - p.first, threads, task_job, &p);
	for (int i = 0; i < p.window; i++)
		free(p.slots[i]);
	free(p.slots);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	if (p.status == 0 && fflush(rows) != 0) {
		p.status = -1;
		snprintf(p.err, sizeof(p.err), "writing the rows failed");
	}
	if (p.status != 0)
		snprintf(err, errlen, "%s", p.err);
	return p.status;
}
