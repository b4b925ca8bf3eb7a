/*
 * schbench (Chris Mason's scheduler benchmark, github.com/masoncl/schbench), as its source
 * behaves:
 *
 *   - message_threads message threads, each with `workers` worker threads; none pinned
 *     (the model's wake-up placement decides where they run).
 *   - A request is a sleep of sleep_ns (schbench's usleep, "simulated networking": the
 *     worker blocks on an hrtimer) and then work_ns of work (its matrix math).  The request
 *     latency runs from the start of the sleep to the end of the work.
 *   - Default mode (rps = 0): a worker that finished a request puts itself on its message
 *     thread's list and wakes it (a futex post, only if the thread waits), then waits.  The
 *     message thread, woken, takes the whole list and wakes every worker on it, newest
 *     first, stamping each with one time taken at the start of the list; then it waits
 *     again.  A worker's wake-up latency runs from that stamp to when it runs.
 *   - rps mode (-R): rps / message_threads requests per message thread per second, posted
 *     in one burst at the start of every second, round robin over its workers; a worker
 *     with more than 128 requests pending makes the message thread sleep 100 us and that
 *     request is skipped.  A posted worker is woken if it waits; it takes all its pending
 *     requests and runs them in order; its wake-up latency runs from the last post to it.
 *
 * Posting, splicing lists and futex calls cost no modelled CPU time: what a wake-up costs
 * is the model's (IPI, idle exit, context switch).
 *
 * Task ids follow schbench's layout: message thread k is task k * (workers + 1), its
 * workers the next `workers` tasks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/workload.h"
#include "util/errmsg.h"
#include "util/number_format.h"

#define RPS_BATCH 128                 /* schbench's limit of pending requests per worker */
#define RPS_BACKOFF_NS 100000         /* and the usleep(100) when a worker is over it */

enum worker_phase {
	W_WAITING,  /* blocked until its message thread wakes it */
	W_WOKEN,    /* woken: runs to start a request (or to take its pending ones) */
	W_SLEEPING, /* in the request's sleep */
	W_WORKING,  /* the request's work */
};

struct sb_worker {
	enum worker_phase phase;
	int64_t wake_time;  /* the message thread's stamp */
	int64_t work_start; /* the request's start */
	int pending;        /* rps: posted since it last took them */
	int spliced;        /* rps: taken, still to run */
	int next_waiter;    /* default mode: link in the message thread's list, -1 = end */
};

struct sb_msg {
	int waiters;        /* default mode: list head (newest first), -1 = empty */
	bool waiting;       /* blocked on its futex */
	/* rps mode */
	int64_t second_start;
	int64_t posted;     /* this second */
	int64_t cur_tid;
};

struct sim_schbench {
	int m, t;
	struct sb_msg *msg;
	struct sb_worker *w; /* by task id (message threads' entries unused) */
	int64_t rps_per_msg;
	struct ik_request_stats st;
};

static struct sim_schbench *schbench_of(const struct ik_sim *s)
{
	return s->wl;
}

static bool is_msg(const struct sim_schbench *sb, int task)
{
	return task % (sb->t + 1) == 0;
}
static int msg_of(const struct sim_schbench *sb, int task)
{
	return task / (sb->t + 1);
}

static int schbench_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	struct sim_schbench *sb = calloc(1, sizeof(*sb));
	int n = w->message_threads * (w->workers + 1);

	if (!sb)
		goto oom;
	s->wl = sb;
	s->requests = &sb->st;
	sb->m = w->message_threads;
	sb->t = w->workers;
	sb->rps_per_msg = w->rps / w->message_threads;
	sb->st.workers = sb->m * sb->t;
	ik__hist_init(&sb->st.latency);
	ik__hist_init(&sb->st.wake);
	ik__hist_init(&sb->st.queue);
	ik__hist_init(&sb->st.service);
	sb->msg = calloc((size_t)sb->m, sizeof(*sb->msg));
	sb->w = calloc((size_t)n, sizeof(*sb->w));
	s->ntasks = n;
	s->tasks = calloc((size_t)n, sizeof(*s->tasks));
	if (!sb->msg || !sb->w || !s->tasks || sim_timer_reserve(s, n))
		goto oom;
	for (int i = 0; i < n; i++) {
		struct sim_task *t = &s->tasks[i];
		sim_task_init_blocked(t, i % s->ncpus, false); /* where it was created */
		sb->w[i].next_waiter = -1;
	}
	for (int k = 0; k < sb->m; k++) {
		sb->msg[k].waiters = -1;
		sb->msg[k].waiting = true;
		if (sb->rps_per_msg > 0) {
			/* the message thread starts its first second */
			sim_task_sleep(s, k * (sb->t + 1), w->start_ns + 1);
			sb->msg[k].waiting = false;
		}
	}
	/* Every worker starts where a finished request ends: asking for the next one. */
	for (int i = 0; i < n; i++) {
		if (is_msg(sb, i))
			continue;
		sb->w[i].phase = W_WORKING;
		s->tasks[i].work_ns = 0;
		sim_task_sleep(s, i, w->start_ns + 1 +
			       (int64_t)(ik__rng_unit(&s->rng) * (double)w->start_spread_ns));
	}
	return 0;
oom:
	return ik__errmsg(err, errlen, "out of memory setting up the workload");
}

/* A worker starts a request: sleep first (its work follows when the timer fires). */
static void start_request(struct ik_sim *s, int task)
{
	struct sim_schbench *sb = schbench_of(s);
	const struct ik_workload *w = &s->sc->workload;
	struct sb_worker *wk = &sb->w[task];

	wk->work_start = s->now;
	s->tasks[task].work_ns = w->work_ns;
	if (w->sleep_ns > 0) {
		wk->phase = W_SLEEPING;
		sim_task_sleep(s, task, s->now + w->sleep_ns);
	} else {
		wk->phase = W_WORKING;
		sim_requeue_task(s, task);
	}
}

/* Wake a worker for its message thread (futex post), stamped now. */
static void post_worker(struct ik_sim *s, int task, int waker)
{
	struct sb_worker *wk = &schbench_of(s)->w[task];

	wk->wake_time = s->now;
	if (wk->phase == W_WAITING && s->tasks[task].state == TASK_BLOCKED) {
		wk->phase = W_WOKEN;
		s->tasks[task].work_ns = 0;
		sim_wake_task(s, task, s->tasks[waker].cpu);
	}
}

/* rps mode: post this second's requests from where the message thread left off. */
static void rps_post(struct ik_sim *s, int mtask)
{
	struct sim_schbench *sb = schbench_of(s);
	struct sb_msg *m = &sb->msg[msg_of(sb, mtask)];
	int first = mtask + 1;

	while (m->posted < sb->rps_per_msg) {
		int task = first + (int)(m->cur_tid++ % sb->t);
		struct sb_worker *wk = &sb->w[task];
		m->posted++;
		if (s->measuring)
			sb->st.arrived++;
		if (wk->pending > RPS_BATCH) {
			if (s->measuring)
				sb->st.dropped++;
			sim_task_sleep(s, mtask, s->now + RPS_BACKOFF_NS);
			return;
		}
		wk->pending++;
		post_worker(s, task, mtask);
	}
	sim_task_sleep(s, mtask, m->second_start + IK_NSEC_PER_SEC);
}

static void msg_done(struct ik_sim *s, int mtask)
{
	struct sim_schbench *sb = schbench_of(s);
	struct sb_msg *m = &sb->msg[msg_of(sb, mtask)];

	if (sb->rps_per_msg > 0) {
		if (m->posted >= sb->rps_per_msg || m->second_start == 0) {
			m->second_start = s->now;
			m->posted = 0;
		}
		rps_post(s, mtask);
		return;
	}
	/* Wake everyone on the list, newest first, then wait. */
	int list = m->waiters;
	m->waiters = -1;
	while (list >= 0) {
		int next = sb->w[list].next_waiter;
		sb->w[list].next_waiter = -1;
		post_worker(s, list, mtask);
		list = next;
	}
	m->waiting = true;
}

/* A worker is done with a request (or starts): ask for the next one. */
static void ask_for_work(struct ik_sim *s, int task)
{
	struct sim_schbench *sb = schbench_of(s);
	struct sb_worker *wk = &sb->w[task];
	int mtask = msg_of(sb, task) * (sb->t + 1);
	struct sb_msg *m = &sb->msg[msg_of(sb, task)];

	wk->phase = W_WAITING;
	wk->wake_time = s->now;
	if (sb->rps_per_msg > 0) {
		/* take what was posted since the last time; wait only if nothing was */
		wk->spliced = wk->pending;
		wk->pending = 0;
		if (wk->spliced > 0)
			start_request(s, task);
		return;
	}
	wk->next_waiter = m->waiters;
	m->waiters = task;
	if (m->waiting) {
		m->waiting = false;
		s->tasks[mtask].work_ns = 0;
		sim_wake_task(s, mtask, s->tasks[task].cpu);
	}
}

static void schbench_task_done(struct ik_sim *s, int task)
{
	struct sim_schbench *sb = schbench_of(s);
	struct sb_worker *wk = &sb->w[task];
	struct sim_task *t = &s->tasks[task];

	if (is_msg(sb, task)) {
		msg_done(s, task);
		return;
	}
	switch (wk->phase) {
	case W_WOKEN:
		if (s->measuring)
			ik__hist_add(&sb->st.wake, t->started_at - wk->wake_time);
		if (sb->rps_per_msg > 0) {
			ask_for_work(s, task); /* takes the posted requests */
			return;
		}
		start_request(s, task);
		return;
	case W_SLEEPING: /* its timer fired and the work after the sleep ran */
	case W_WORKING:
		if (wk->work_start > 0 && s->measuring) {
			sb->st.done++;
			sb->st.service_ns += t->work_ns > 0 ? s->now - t->started_at : 0;
			ik__hist_add(&sb->st.latency, s->now - wk->work_start);
		}
		wk->work_start = 0;
		if (sb->rps_per_msg > 0 && --wk->spliced > 0) {
			start_request(s, task); /* the next of the requests it took */
			return;
		}
		wk->spliced = 0;
		ask_for_work(s, task);
		return;
	case W_WAITING:
		return;
	}
}

static void schbench_free(struct ik_sim *s)
{
	struct sim_schbench *sb = schbench_of(s);

	free(sb->msg);
	free(sb->w);
}

static int schbench_max_tasks(const struct ik_workload *w)
{
	return w->message_threads * (1 + w->workers);
}

static int schbench_check(struct ik_workload *w, struct ik_workload_check *c)
{
	/* schbench's default: as many workers in all as CPUs (rounded up) */
	if (!c->given(c->user, "workers"))
		w->workers = (ik__platform_cpus(c->platform) + w->message_threads - 1) /
			     w->message_threads;
	if (w->rps > 0 && w->rps < w->message_threads)
		return sim_check_fail(c, "rps", "[workload] rps: %" PRId64 " requests/s split over "
				      "%d message threads is none each; expected 0 or at least %d",
				      w->rps, w->message_threads, w->message_threads);
	if ((int64_t)w->message_threads * (w->workers + 1) > 65536)
		return sim_check_fail(c, "workers", "[workload] schbench: %d message threads x %d "
				      "workers is more than 65536 threads", w->message_threads,
				      w->workers);
	return 0;
}

static void schbench_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_int(out, "message_threads", w->message_threads);
	sim_setting_int(out, "workers", w->workers);
	sim_setting_us(out, "sleep_us", w->sleep_ns);
	sim_setting_int(out, "work_ns", w->work_ns);
	sim_setting_int(out, "rps", w->rps);
}

static void schbench_describe(const struct ik_workload *w, char *buf, size_t len)
{
	char a[IK_FMT_NUM_LEN], b[IK_FMT_NUM_LEN];

	ik__fmt_exact(a, sizeof(a), w->sleep_ns, 3);
	ik__fmt_exact(b, sizeof(b), w->work_ns, 3);
	if (w->rps > 0)
		snprintf(buf, len, ": %d message threads x %d workers, each request %s us of sleep "
			 "then %s us of work, %lld requests/s", w->message_threads, w->workers, a, b,
			 (long long)w->rps);
	else
		snprintf(buf, len, ": %d message threads x %d workers, each request %s us of sleep "
			 "then %s us of work, as fast as the workers go", w->message_threads,
			 w->workers, a, b);
}

/* schbench's own figures, as it prints them: its two latencies and requests per second. */
static bool schbench_figures(const struct ik_run_result *r, struct ik_workload_figures *f)
{
	const struct ik_request_stats *q = r->requests;

	if (!q)
		return false;
	ik__workload_figures_head(f, "schbench", "schbench",
				 "wakeup: from a request's post to its worker running; request: from the "
				 "start of the request's sleep to the end of its work (skipped: a worker "
				 "had over 128 pending).");
	ik__workload_figures_count(f, "requests", "requests", q->done);
	ik__workload_figures_count(f, "skipped", "skipped", q->dropped);
	ik__workload_figures_value(f, "requests_per_s", "requests/s", ik__run_per_s(r, q->done));
	ik__workload_figures_dist(f, "wakeup_latency_ns", "wakeup", &q->wake);
	ik__workload_figures_dist(f, "request_latency_ns", "request", &q->latency);
	return true;
}

const struct sim_workload_ops sim_schbench_ops = {
	.name = "schbench",
	.kind = IK_WORKLOAD_SCHBENCH,
	.check = schbench_check,
	.max_tasks = schbench_max_tasks,
	.setup = schbench_setup,
	.task_done = schbench_task_done,
	.free = schbench_free,
	.settings = schbench_settings,
	.figures = schbench_figures,
	.describe = schbench_describe,
};
