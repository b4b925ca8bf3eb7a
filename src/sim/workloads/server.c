/*
 * The server workload: a request/response server under open-loop load.
 *
 * Requests arrive on their own schedule (Poisson, periodic, or bursty on/off), whatever the
 * server is doing, as packets do.  Each arrives by a device interrupt on the IRQ CPU (the
 * NIC's queue): the interrupt wakes that CPU if it is idle (its exit cost for an
 * interrupt), the handler runs irq_work_ns, and at its end wakes an idle worker thread --
 * a remote wake-up, so an IPI if the worker's CPU sleeps in a state that does not watch
 * need_resched.  When every worker is busy the request waits in a FIFO queue of at most
 * queue_limit requests (beyond that it is dropped), and a worker that finishes takes the
 * next one without sleeping.  Idle workers wait in FIFO order (the one asleep longest is
 * woken first, as a futex or condition variable's wait queue does).
 *
 * The arrival rate follows from the target load: rate = load_pct / 100 x workers / mean
 * service time, the mean taken from the service distribution itself.  Service times are
 * work at the base frequency, so on a platform with turbo they take less wall time and
 * the achieved load (time the workers really spend serving) is below the target.
 *
 * Timers: task 0 is the arrival clock (no CPU's timer list holds it: a device interrupt
 * is not a timer the governor can see); tasks 1..workers are the workers.
 *
 * Where the interrupts go (irq_affinity): `one` sends them all to irq_cpu, as a single NIC
 * queue (or every queue's IRQ affined to one CPU) does: that CPU's handler time grows with
 * the rate, and once rate x irq_work_ns nears 1 the CPU saturates -- its handler runs back
 * to back and requests wait in it, whatever the workers could do.  `spread` sends each to
 * one of the workers' CPUs chosen at random, as RSS hashing many flows over one queue per
 * CPU does; the handler there wakes the next idle worker as before.
 *
 * Simplification: an interrupt that hits its CPU while a task runs there adds its handler
 * time to that task and wakes the worker at once (rather than irq_work_ns later).  With
 * `one` and the IRQ CPU outside the workers' CPUs (the default) this never happens; with
 * `spread` it does whenever the chosen CPU's worker is busy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/detmath.h"
#include "sim/workload.h"
#include "util/errmsg.h"
#include "util/number_format.h"

struct server_req {
	int64_t arrive; /* the device interrupt */
	int64_t ready;  /* the handler is done: a worker is woken, or it queues */
	int64_t batch;  /* the run of the handler that takes it (see sim_server_arrival) */
};

/* A FIFO of requests with a fixed capacity. */
struct req_ring {
	struct server_req *v;
	int cap, head, len;
};

struct server_worker {
	struct server_req req; /* the request it serves or was woken for */
	int64_t taken;         /* when it took the request (= ready for a woken worker) */
};

struct sim_server {
	double gap_ns;        /* mean gap between arrivals (in "on" time for bursty) */
	double clock_ns;      /* arrivals so far, in the arrival process's own time */
	struct req_ring *rx;   /* per CPU: in that CPU's handler */
	int64_t *rx_batch;     /* per CPU: the handler run now running or next to run */
	struct req_ring queue; /* waiting for a worker */
	int *idle;             /* FIFO of idle worker task ids */
	int idle_head, idle_len;
	struct server_worker *w; /* indexed by task - 1 */
	struct ik_request_stats st;
};

static struct sim_server *server_of(const struct ik_sim *s)
{
	return s->wl;
}

static double dist_mean_ns(const struct ik_dist *d)
{
	switch (d->kind) {
	case IK_DIST_CONSTANT:
		return (double)d->a_ns;
	case IK_DIST_UNIFORM:
		return ((double)d->a_ns + (double)d->b_ns) / 2.0;
	case IK_DIST_LOGNORMAL:
		return (double)d->a_ns * ik__det_exp(d->sigma * d->sigma / 2.0);
	case IK_DIST_PERCENTILES: {
		/* the sampler's inverse CDF: flat below the first point and above the last */
		int n = d->npoints;
		if (n <= 0)
			return 0.0;
		double m = d->pct[0] / 100.0 * (double)d->val_ns[0];
		for (int i = 0; i + 1 < n; i++)
			m += (d->pct[i + 1] - d->pct[i]) / 100.0 *
			     ((double)d->val_ns[i] + (double)d->val_ns[i + 1]) / 2.0;
		return m + (100.0 - d->pct[n - 1]) / 100.0 * (double)d->val_ns[n - 1];
	}
	}
	return 0.0;
}

static int ring_init(struct req_ring *r, int cap)
{
	r->cap = cap > 0 ? cap : 1;
	r->head = r->len = 0;
	r->v = calloc((size_t)r->cap, sizeof(*r->v));
	return r->v ? 0 : -1;
}

/* Grows when full (the handler's backlog is not limited). */
static int ring_push(struct req_ring *r, struct server_req q)
{
	if (r->len == r->cap) {
		struct server_req *v = malloc((size_t)r->cap * 2 * sizeof(*v));
		if (!v)
			return -1;
		for (int i = 0; i < r->len; i++)
			v[i] = r->v[(r->head + i) % r->cap];
		free(r->v);
		r->v = v;
		r->head = 0;
		r->cap *= 2;
	}
	r->v[(r->head + r->len) % r->cap] = q;
	r->len++;
	return 0;
}

static struct server_req ring_pop(struct req_ring *r)
{
	struct server_req q = r->v[r->head];
	r->head = (r->head + 1) % r->cap;
	r->len--;
	return q;
}

/* When the next request arrives, after `after` (the previous one, or the start). */
static int64_t next_arrival(struct ik_sim *s)
{
	const struct ik_workload *w = &s->sc->workload;
	struct sim_server *sv = server_of(s);

	switch (w->arrival) {
	case IK_ARRIVAL_PERIODIC:
		sv->clock_ns += sv->gap_ns;
		return w->start_ns + (int64_t)sv->clock_ns;
	case IK_ARRIVAL_POISSON:
		sv->clock_ns += ik__rng_exp(&s->rng) * sv->gap_ns;
		return w->start_ns + (int64_t)sv->clock_ns;
	case IK_ARRIVAL_BURSTY: {
		/* Poisson in "on" time; on time maps to real time cycle by cycle. */
		sv->clock_ns += ik__rng_exp(&s->rng) * sv->gap_ns;
		double on = (double)w->burst_on_ns, cycle = (double)(w->burst_on_ns + w->burst_off_ns);
		double k = floor(sv->clock_ns / on);
		return w->start_ns + (int64_t)(k * cycle + (sv->clock_ns - k * on));
	}
	}
	return INT64_MAX;
}

static int server_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	struct sim_server *sv = calloc(1, sizeof(*sv));
	double mean = dist_mean_ns(&w->service);

	if (!sv)
		goto oom;
	s->wl = sv;
	s->requests = &sv->st;
	if (w->irq_cpu >= s->ncpus)
		return ik__errmsg(err, errlen, "workload: irq_cpu %d does not exist (platform %s "
				  "has %d CPUs)", w->irq_cpu, s->plat->name, s->ncpus);
	if (!(mean >= 1.0))
		return ik__errmsg(err, errlen, "workload: the service time's mean is %.3g ns; a "
				  "server needs at least 1 ns per request", mean);
	sv->st.workers = w->workers;
	sv->st.target_load_pct = w->load_pct;
	ik__hist_init(&sv->st.latency);
	ik__hist_init(&sv->st.wake);
	ik__hist_init(&sv->st.queue);
	ik__hist_init(&sv->st.service);
	sv->rx = calloc((size_t)s->ncpus, sizeof(*sv->rx));
	sv->rx_batch = calloc((size_t)s->ncpus, sizeof(*sv->rx_batch));
	if (!sv->rx || !sv->rx_batch || ring_init(&sv->queue, w->queue_limit))
		goto oom;
	for (int c = 0; c < s->ncpus; c++)
		if (ring_init(&sv->rx[c], c == w->irq_cpu ? 64 : 4))
			goto oom;
	sv->idle = calloc((size_t)w->workers, sizeof(int));
	sv->w = calloc((size_t)w->workers, sizeof(*sv->w));
	s->ntasks = 1 + w->workers;
	s->tasks = calloc((size_t)s->ntasks, sizeof(*s->tasks));
	if (!sv->idle || !sv->w || !s->tasks)
		goto oom;
	for (int i = 0; i < s->ntasks; i++) {
		struct sim_task *t = &s->tasks[i];
		int k = i - 1;
		sim_task_init_blocked(t, i == 0 ? w->irq_cpu : k < w->nspin_cpus ? w->spin_cpus[k] :
				      (w->irq_cpu + 1 + k) % s->ncpus, true);
		if (i == 0)
			continue;
		if (t->cpu >= s->ncpus)
			return ik__errmsg(err, errlen, "workload: worker CPU %d does not exist "
					  "(platform %s has %d CPUs)", t->cpu, s->plat->name,
					  s->ncpus);
		sv->idle[sv->idle_len++] = i;
	}
	sv->gap_ns = 0.0;
	if (w->load_pct > 0) {
		double rate_per_ns = w->load_pct / 100.0 * (double)w->workers / mean;
		sv->gap_ns = 1.0 / rate_per_ns;
		if (w->arrival == IK_ARRIVAL_BURSTY)
			sv->gap_ns *= (double)w->burst_on_ns /
				      (double)(w->burst_on_ns + w->burst_off_ns);
		ik__eq_arm(&s->eq, task_timer_id(s, 0), next_arrival(s));
	}
	return 0;
oom:
	return ik__errmsg(err, errlen, "out of memory setting up the workload");
}

/* The request is ready for a worker: wake an idle one, or queue it, or drop it.  The
   handler that readied it ran on irq_cpu. */
static void dispatch(struct ik_sim *s, struct server_req q, int irq_cpu)
{
	struct sim_server *sv = server_of(s);
	int workers = s->sc->workload.workers;

	q.ready = s->now;
	if (sv->idle_len > 0) {
		int task = sv->idle[sv->idle_head];
		sv->idle_head = (sv->idle_head + 1) % workers;
		sv->idle_len--;
		sv->w[task - 1].req = q;
		sv->w[task - 1].taken = s->now;
		s->tasks[task].work_ns = ik__dist_sample(&s->sc->workload.service, &s->rng);
		sim_wake_task(s, task, irq_cpu);
		return;
	}
	if (sv->queue.len < s->sc->workload.queue_limit) {
		if (ring_push(&sv->queue, q) == 0)
			return;
	}
	if (s->measuring)
		sv->st.dropped++;
}

/* The CPU this request's interrupt goes to. */
static int irq_target(struct ik_sim *s)
{
	const struct ik_workload *w = &s->sc->workload;
	if (w->irq_affinity == IK_IRQ_ONE || w->workers < 1)
		return w->irq_cpu;
	int k = (int)(ik__rng_unit(&s->rng) * w->workers);
	return s->tasks[1 + (k < w->workers ? k : w->workers - 1)].cpu;
}

static void server_arrival(struct ik_sim *s)
{
	struct sim_server *sv = server_of(s);
	int cpu = irq_target(s);
	const struct sim_cpu *c = &s->cpus[cpu];
	struct server_req q = { s->now, s->now, 0 };

	ik__eq_arm(&s->eq, task_timer_id(s, 0), next_arrival(s));
	if (s->measuring)
		sv->st.arrived++;
	if (c->mode == CPU_RUNNING && c->current >= 0) {
		sim_interrupt(s, cpu, s->sc->workload.irq_work_ns, WAKE_IRQ);
		dispatch(s, q, cpu); /* see the simplification above */
		return;
	}
	/*
	 * The handler runs in the idle loop and wakes the worker when it ends.  If a handler
	 * is running now, this interrupt's runs after it (rather than lengthening it, which
	 * under a steady stream of interrupts would never end): it belongs to the next run.
	 */
	q.batch = sv->rx_batch[cpu];
	if (c->mode == CPU_RUNNING && c->current < 0 &&
	    ik__eq_armed(&s->eq, cpu_timer_id(cpu, TIMER_WORK_DONE))) {
		s->cpus[cpu].pending_irq_work += s->sc->workload.irq_work_ns;
		q.batch = sv->rx_batch[cpu] + 1;
	} else {
		sim_interrupt(s, cpu, s->sc->workload.irq_work_ns, WAKE_IRQ);
	}
	if (ring_push(&sv->rx[cpu], q) != 0 && s->measuring)
		sv->st.dropped++;
}

static void server_handler_done(struct ik_sim *s, int cpu)
{
	struct sim_server *sv = server_of(s);

	if (!sv)
		return;
	struct req_ring *rx = &sv->rx[cpu];
	if (rx->len == 0)
		return; /* another interrupt's handler (housekeeping) */
	while (rx->len > 0 && rx->v[rx->head].batch <= sv->rx_batch[cpu])
		dispatch(s, ring_pop(rx), cpu);
	sv->rx_batch[cpu]++;
}

static void server_worker_done(struct ik_sim *s, int task)
{
	struct sim_server *sv = server_of(s);
	struct sim_task *t = &s->tasks[task];
	struct server_worker *w = &sv->w[task - 1];
	int workers = s->sc->workload.workers;

	if (s->measuring) {
		int64_t queued = w->taken - w->req.ready;
		int64_t service = s->now - t->started_at;
		int64_t wake = t->started_at - w->req.arrive - queued;
		sv->st.done++;
		sv->st.service_ns += service;
		ik__hist_add(&sv->st.latency, s->now - w->req.arrive);
		ik__hist_add(&sv->st.wake, wake > 0 ? wake : 0);
		ik__hist_add(&sv->st.queue, queued);
		ik__hist_add(&sv->st.service, service);
	}
	if (sv->queue.len > 0) {
		/* Take the next request without sleeping. */
		w->req = ring_pop(&sv->queue);
		w->taken = s->now;
		t->work_ns = ik__dist_sample(&s->sc->workload.service, &s->rng);
		sim_requeue_task(s, task);
		return;
	}
	sv->idle[(sv->idle_head + sv->idle_len) % workers] = task;
	sv->idle_len++;
}

static void server_free(struct ik_sim *s)
{
	struct sim_server *sv = server_of(s);

	if (sv->rx)
		for (int c = 0; c < s->ncpus; c++)
			free(sv->rx[c].v);
	free(sv->rx);
	free(sv->rx_batch);
	free(sv->queue.v);
	free(sv->idle);
	free(sv->w);
}

static int server_max_tasks(const struct ik_workload *w)
{
	return 1 + w->workers;
}

/* Task 0 is the arrival clock: its timer is the next request's device interrupt. */
static bool server_task_timer(struct ik_sim *s, int task)
{
	if (task != 0)
		return false;
	server_arrival(s);
	return true;
}

static int server_check(struct ik_workload *w, struct ik_workload_check *c)
{
	const struct ik_platform *p = c->platform;

	if (w->irq_cpu >= ik__platform_cpus(p))
		return sim_check_fail(c, "irq_cpu", "[workload] irq_cpu: CPU %d does not exist, "
				      "platform %s has %d CPUs", w->irq_cpu, p->name,
				      ik__platform_cpus(p));
	return sim_check_spin_cpus(w, c);
}

static void server_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_text(out, "arrival", ik__workload_arrival_name(w->arrival));
	sim_setting_real(out, "load_pct", w->load_pct);
	sim_setting_dist(out, "service_ns", &w->service);
	sim_setting_int(out, "workers", w->workers);
	sim_setting_int(out, "irq_cpu", w->irq_cpu);
	sim_setting_text(out, "irq_affinity", ik__workload_irq_affinity_name(w->irq_affinity));
	sim_setting_int(out, "irq_work_ns", w->irq_work_ns);
	sim_setting_int(out, "queue_limit", w->queue_limit);
	if (w->arrival == IK_ARRIVAL_BURSTY) {
		sim_setting_us(out, "burst_on_us", w->burst_on_ns);
		sim_setting_us(out, "burst_off_us", w->burst_off_ns);
	}
}

static void server_describe_brief(const struct ik_workload *w, char *buf, size_t len)
{
	snprintf(buf, len, ": %s arrivals, %.2f%% target load of %d workers, IRQ on CPU %d",
		 ik__workload_arrival_name(w->arrival), w->load_pct, w->workers, w->irq_cpu);
}

static void server_describe(const struct ik_workload *w, char *buf, size_t len)
{
	char a[IK_FMT_NUM_LEN], b[IK_FMT_NUM_LEN], dist[256];

	ik__dist_format(&w->service, dist, sizeof(dist));
	ik__fmt_fixed(a, sizeof(a), w->load_pct, 2);
	ik__fmt_exact(b, sizeof(b), w->irq_work_ns, 3);
	snprintf(buf, len, ": %s arrivals for %s%% load of %d workers, service %s ns, IRQ on CPU %d "
		 "(%s us handler), queue limit %d", ik__workload_arrival_name(w->arrival), a,
		 w->workers, dist, w->irq_cpu, b, w->queue_limit);
}

/* The requests: counts, the latency and its three parts, and the runs table's columns. */
static bool server_figures(const struct ik_run_result *r, struct ik_workload_figures *f)
{
	const struct ik_request_stats *q = r->requests;

	if (!q)
		return false;
	ik__workload_figures_head(f, "requests", "Requests",
				 "Request latency: from the request's device interrupt to the end of its "
				 "service (= wake + queue + service).");
	ik__workload_figures_count(f, "arrived", "arrived", q->arrived);
	ik__workload_figures_count(f, "done", "done", q->done);
	ik__workload_figures_count(f, "dropped", "dropped", q->dropped);
	/* queued or in service when the run ended: many means the requests came faster than
	   the IRQ CPU or the workers took them, and the latencies are the lucky ones' */
	uint64_t in_flight = q->arrived > q->done + q->dropped ? q->arrived - q->done - q->dropped : 0;
	ik__workload_figures_count(f, "in_flight", "in_flight", in_flight);
	uint64_t undone = in_flight + q->dropped;
	if (undone > 0 && undone * 10 >= q->arrived)
		snprintf(f->warning, sizeof(f->warning), "%llu of %llu requests (%.1f%%) were "
			 "dropped (queue full) or still queued at the end: the IRQ CPU or the "
			 "workers are saturated, and the latencies are only those of the requests "
			 "done", (unsigned long long)undone, (unsigned long long)q->arrived,
			 100.0 * (double)undone / (double)q->arrived);
	ik__workload_figures_value(f, "requests_per_s", "requests/s", ik__run_per_s(r, q->done));
	ik__workload_figures_value(f, "target_load_pct", "target_load_%", q->target_load_pct);
	ik__workload_figures_value(f, "achieved_load_pct", "achieved_load_%",
				  ik__request_achieved_load_pct(q, r->measured_ns));
	ik__workload_figures_dist(f, "latency_ns", "latency", &q->latency);
	ik__workload_figures_dist(f, "wake_ns", "wake", &q->wake);
	ik__workload_figures_dist(f, "queue_ns", "queue", &q->queue);
	ik__workload_figures_dist(f, "service_ns", "service", &q->service);
	ik__workload_figures_column(f, "request_p50_ns", "req_p50_us", 1e-3, 2);
	ik__workload_figures_column(f, "request_p99_ns", "req_p99_us", 1e-3, 2);
	ik__workload_figures_column(f, "achieved_load_pct", "load_%", 1.0, 2);
	return true;
}

const struct sim_workload_ops sim_server_ops = {
	.name = "server",
	.kind = IK_WORKLOAD_SERVER,
	.check = server_check,
	.max_tasks = server_max_tasks,
	.setup = server_setup,
	.task_timer = server_task_timer,
	.task_done = server_worker_done,
	.handler_done = server_handler_done,
	.free = server_free,
	.settings = server_settings,
	.figures = server_figures,
	.describe = server_describe,
	.describe_brief = server_describe_brief,
};
