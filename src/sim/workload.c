/*
 * Workloads: who wakes whom, and when.
 *
 * pingpong  pairs of tasks exchanging messages in a closed loop (tbench, context_switch2):
 *           each message is work on the receiving side, then a wake-up of the peer, so a
 *           slower wake-up directly lowers the message rate.
 * periodic  tasks woken by their own timer every period (absolute, no drift); with
 *           burst_ios, each period a burst of I/O waits (workload_iobursts.c).
 * poisson   device interrupts on every CPU with exponential gaps; their handlers run in
 *           the idle loop.
 * idle      nothing at all.
 * stream    senders that never sleep (netperf UDP_STREAM), each waking its receiver, so
 *           the send rate follows the sender's frequency, hence turbo.
 * spin      tasks that never sleep, counting units of work: the throughput of a CPU
 *           next to an idle SMT sibling.
 * ipi       one CPU sends an IPI to another every period, as wake-latency benchmarks do;
 *           each IPI's latency (send to handler) is a sample.
 * server    open-loop requests by device interrupt, worker threads, a queue
 *           (workload_server.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_internal.h"

/* Pinned pingpong placements: the two CPUs of pair k. */
static int pinned_pair(const struct ik_sim *s, int k, int *client, int *server, char *err,
		       size_t errlen)
{
	const struct ik_platform *p = s->plat;
	int cores = p->packages * p->cores_per_package;

	switch (s->sc->workload.placement) {
	case IK_PLACE_SAME_CORE:
		/* SMT siblings: cpu c and cpu c + number of cores. */
		if (p->threads_per_core < 2 || k >= cores)
			goto nofit;
		*client = k;
		*server = k + cores;
		return 0;
	case IK_PLACE_SAME_PACKAGE: {
		/* Two different cores of package 0 (then their SMT threads). */
		int per_pkg = p->cores_per_package * p->threads_per_core;
		if (2 * k + 1 >= per_pkg || p->cores_per_package < 2)
			goto nofit;
		int a = 2 * k, b = 2 * k + 1;
		*client = (a / p->cores_per_package) * cores + a % p->cores_per_package;
		*server = (b / p->cores_per_package) * cores + b % p->cores_per_package;
		return 0;
	}
	case IK_PLACE_CROSS_PACKAGE: {
		int per_pkg = p->cores_per_package * p->threads_per_core;
		if (p->packages < 2 || k >= per_pkg)
			goto nofit;
		int t = k / p->cores_per_package, c = k % p->cores_per_package;
		*client = t * cores + c;
		*server = t * cores + p->cores_per_package + c;
		return 0;
	}
	case IK_PLACE_WAKE_IDLE:
		break;
	}
nofit:
	snprintf(err, errlen, "workload: %d pinned pairs do not fit on platform %s (%d CPUs)",
		 s->sc->workload.pairs, p->name, s->ncpus);
	return -1;
}

void sim_task_init_blocked(struct sim_task *t, int cpu, bool pinned)
{
	t->next = t->peer = -1;
	t->woken_at = -1;
	t->timer_cpu = -1;
	t->state = TASK_BLOCKED;
	t->cpu = cpu;
	t->pinned = pinned;
}

static int alloc_tasks(struct ik_sim *s, int n)
{
	s->ntasks = n;
	s->tasks = calloc((size_t)n, sizeof(*s->tasks));
	if (!s->tasks)
		return -1;
	for (int i = 0; i < n; i++)
		sim_task_init_blocked(&s->tasks[i], 0, false);
	return 0;
}

static int grow_timers(struct sim_cpu *c, int cap)
{
	if (cap <= c->timer_cap)
		return 0;
	int *grown = realloc(c->timer_tasks, (size_t)cap * sizeof(*grown));
	if (!grown)
		return -1;
	c->timer_tasks = grown;
	c->timer_cap = cap;
	return 0;
}

/* Task timers fire on their task's CPU; the CPU keeps a list of them for its sleep length. */
int sim_timer_register(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];
	struct sim_cpu *c = &s->cpus[t->cpu];

	if (c->ntimers == c->timer_cap && grow_timers(c, 2 * c->timer_cap + 4))
		return -1;
	c->timer_tasks[c->ntimers++] = task;
	t->timer_cpu = t->cpu;
	return 0;
}

int sim_timer_reserve(struct ik_sim *s, int cap)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (grow_timers(&s->cpus[cpu], cap))
			return -1;
	return 0;
}

void sim_task_sleep(struct ik_sim *s, int task, int64_t until)
{
	struct sim_task *t = &s->tasks[task];

	if (t->timer_cpu != t->cpu) {
		if (t->timer_cpu >= 0) {
			struct sim_cpu *old = &s->cpus[t->timer_cpu];
			for (int i = 0; i < old->ntimers; i++)
				if (old->timer_tasks[i] == task) {
					old->timer_tasks[i] = old->timer_tasks[--old->ntimers];
					break;
				}
			t->timer_cpu = -1;
		}
		/* sim_timer_reserve() made room: this does not allocate */
		if (sim_timer_register(s, task))
			t->timer_cpu = -1;
	}
	ik_eq_arm(&s->eq, task_timer_id(s, task), until);
}

/* The task's first wake-up: its timer at start_ms plus a random part of start_spread_ns
   (the seed decides the order in which the tasks start).  -1 when out of memory. */
static int start_in_spread(struct ik_sim *s, int task)
{
	const struct ik_workload *w = &s->sc->workload;

	if (sim_timer_register(s, task))
		return -1;
	ik_eq_arm(&s->eq, task_timer_id(s, task),
		  w->start_ns + (int64_t)(ik_rng_unit(&s->rng) * (double)w->start_spread_ns));
	return 0;
}

/*
 * The CPUs unpinned tasks start on: task i on start_cpu[i % ncpus], the identity or, with
 * start_cpus = shuffled, a permutation drawn from the run's seed (Fisher-Yates), so which
 * pairs share a last-level cache or a package changes from run to run.
 */
static int *start_cpu_order(struct ik_sim *s)
{
	int *order = malloc((size_t)s->ncpus * sizeof(*order));

	if (!order)
		return NULL;
	for (int i = 0; i < s->ncpus; i++)
		order[i] = i;
	if (s->sc->workload.start_cpus == IK_START_CPUS_SHUFFLED)
		for (int i = s->ncpus - 1; i > 0; i--) {
			int j = (int)(ik_rng_unit(&s->rng) * (double)(i + 1));
			if (j > i)
				j = i;
			int x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
	return order;
}

static int setup_pingpong(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	int *order = NULL;

	if (alloc_tasks(s, 2 * w->pairs))
		goto oom;
	if (w->placement == IK_PLACE_WAKE_IDLE && !(order = start_cpu_order(s)))
		goto oom;
	for (int k = 0; k < w->pairs; k++) {
		struct sim_task *client = &s->tasks[2 * k], *server = &s->tasks[2 * k + 1];
		int ccpu, scpu;

		if (w->placement == IK_PLACE_WAKE_IDLE) {
			ccpu = order[(2 * k) % s->ncpus];
			scpu = order[(2 * k + 1) % s->ncpus];
		} else {
			if (pinned_pair(s, k, &ccpu, &scpu, err, errlen))
				return -1;
			client->pinned = server->pinned = true;
		}
		client->cpu = ccpu;
		server->cpu = scpu;
		client->peer = 2 * k + 1;
		server->peer = 2 * k;
		client->work_ns = server->work_ns = w->work_ns;
		if (start_in_spread(s, 2 * k))
			goto oom;
	}
	free(order);
	return 0;
oom:
	free(order);
	snprintf(err, errlen, "out of memory setting up the workload");
	return -1;
}

/*
 * The distance part of a message's cost, for the receiver: its cache lines come from the
 * sender's L3 (same last-level cache: nothing extra), another L3 of the package, or the
 * other package.  The receiver wakes in its previous CPU's last-level cache (the
 * scheduler's wake_idle placement scans only that one), so its previous CPU says where.
 */
static int64_t message_distance_ns(const struct ik_sim *s, int from_cpu, int to_cpu)
{
	const struct ik_workload *w = &s->sc->workload;
	const struct ik_cpu_topo *a = &s->cpus[from_cpu].topo, *b = &s->cpus[to_cpu].topo;

	if (a->package != b->package)
		return w->remote_package_ns;
	return a->llc != b->llc ? w->remote_llc_ns : 0;
}

/* Per-message CPU time: a fixed part and a part per KiB of payload. */
static int64_t message_work(int64_t fixed_ns, const struct ik_workload *w)
{
	return fixed_ns + w->msg_bytes * w->work_ns_per_kb / 1024;
}

static int setup_stream(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;

	if (w->placement == IK_PLACE_WAKE_IDLE) {
		snprintf(err, errlen, "workload: stream needs a pinned placement (same_core, "
			 "same_package or cross_package), got wake_idle");
		return -1;
	}
	if (alloc_tasks(s, 2 * w->pairs))
		goto oom;
	for (int k = 0; k < w->pairs; k++) {
		struct sim_task *sender = &s->tasks[2 * k], *receiver = &s->tasks[2 * k + 1];
		int scpu, rcpu;

		if (pinned_pair(s, k, &scpu, &rcpu, err, errlen))
			return -1;
		sender->cpu = scpu;
		receiver->cpu = rcpu;
		sender->pinned = receiver->pinned = true;
		sender->peer = 2 * k + 1;
		receiver->peer = 2 * k;
		sender->busy_loop = true;
		sender->work_ns = message_work(w->work_ns, w);
		receiver->work_ns = message_work(w->recv_work_ns, w);
		/* a copy bound by memory bandwidth takes as long at any core clock */
		if (w->copy_mb_per_s > 0)
			sender->unscaled_ns = receiver->unscaled_ns =
				(int64_t)((double)w->msg_bytes * 1000.0 / w->copy_mb_per_s + 0.5);
		if (start_in_spread(s, 2 * k))
			goto oom;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory setting up the workload");
	return -1;
}

static int setup_spin(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;

	if (alloc_tasks(s, w->tasks))
		goto oom;
	for (int i = 0; i < w->tasks; i++) {
		struct sim_task *t = &s->tasks[i];

		t->cpu = i < w->nspin_cpus ? w->spin_cpus[i] : i % s->ncpus;
		if (t->cpu < 0 || t->cpu >= s->ncpus) {
			snprintf(err, errlen, "workload: spin CPU %d does not exist (platform %s has "
				 "%d CPUs)", t->cpu, s->plat->name, s->ncpus);
			return -1;
		}
		t->pinned = true;
		t->busy_loop = true;
		t->work_ns = w->task_work_ns;
		if (sim_timer_register(s, i))
			goto oom;
		ik_eq_arm(&s->eq, task_timer_id(s, i), w->start_ns);
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory setting up the workload");
	return -1;
}

static int setup_ipi(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	int from = w->nspin_cpus > 0 ? w->spin_cpus[0] : 0;
	int to = w->nspin_cpus > 1 ? w->spin_cpus[1] : 1;

	if (from >= s->ncpus || to >= s->ncpus || from == to) {
		snprintf(err, errlen, "workload: ipi needs two different CPUs of platform %s (%d CPUs), "
			 "got %d and %d", s->plat->name, s->ncpus, from, to);
		return -1;
	}
	if (alloc_tasks(s, 1))
		goto oom;
	/* task 0 is only the sender's timer; its peer field names the target CPU */
	s->tasks[0].cpu = from;
	s->tasks[0].peer = to;
	s->tasks[0].pinned = true;
	if (sim_timer_register(s, 0))
		goto oom;
	ik_eq_arm(&s->eq, task_timer_id(s, 0), w->start_ns + w->period_ns);
	return 0;
oom:
	snprintf(err, errlen, "out of memory setting up the workload");
	return -1;
}

void sim_workload_ipi_tick(struct ik_sim *s, int task)
{
	sim_send_ipi(s, s->tasks[task].peer);
	ik_eq_arm(&s->eq, task_timer_id(s, task), s->now + s->sc->workload.period_ns);
}

static int setup_periodic(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	int64_t period = w->period_ns;

	if (alloc_tasks(s, w->tasks))
		goto oom;
	for (int i = 0; i < w->tasks; i++) {
		struct sim_task *t = &s->tasks[i];

		t->cpu = i % s->ncpus;
		t->pinned = true;
		t->work_ns = w->task_work_ns;
		t->period_start = w->start_ns + (int64_t)(ik_rng_unit(&s->rng) * (double)period);
		if (sim_timer_register(s, i))
			goto oom;
		ik_eq_arm(&s->eq, task_timer_id(s, i), t->period_start + period);
	}
	if (w->burst_ios > 0 && sim_iobursts_setup(s))
		goto oom;
	return 0;
oom:
	snprintf(err, errlen, "out of memory setting up the workload");
	return -1;
}

int64_t sim_irq_gap(struct ik_sim *s)
{
	double mean_ns = 1e9 / s->sc->workload.irq_rate_hz;
	int64_t gap = (int64_t)(ik_rng_exp(&s->rng) * mean_ns);

	return gap > 0 ? gap : 1;
}

/* Busy tasks beside the workload, on the CPUs side_spin_cpus lists. */
static int setup_side_spinners(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	int first = s->ntasks, n = w->nside_spin_cpus;

	if (n == 0)
		return 0;
	struct sim_task *grown = realloc(s->tasks, (size_t)(first + n) * sizeof(*grown));
	if (!grown)
		goto oom;
	s->tasks = grown;
	s->ntasks = first + n;
	for (int i = 0; i < n; i++) {
		struct sim_task *t = &s->tasks[first + i];
		memset(t, 0, sizeof(*t));
		sim_task_init_blocked(t, w->side_spin_cpus[i], false);
		if (t->cpu >= s->ncpus) {
			snprintf(err, errlen, "workload: side_spin_cpus: CPU %d does not exist (platform "
				 "%s has %d CPUs)", t->cpu, s->plat->name, s->ncpus);
			return -1;
		}
		t->pinned = t->busy_loop = t->side = true;
		t->work_ns = w->side_spin_work_ns;
		if (sim_timer_register(s, first + i))
			goto oom;
		ik_eq_arm(&s->eq, task_timer_id(s, first + i), w->start_ns);
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory setting up the workload");
	return -1;
}

static int setup_main(struct ik_sim *s, char *err, size_t errlen)
{
	switch (s->sc->workload.kind) {
	case IK_WORKLOAD_PINGPONG:
		return setup_pingpong(s, err, errlen);
	case IK_WORKLOAD_PERIODIC:
		return setup_periodic(s, err, errlen);
	case IK_WORKLOAD_POISSON:
		if (s->sc->workload.irq_rate_hz > 0)
			for (int cpu = 0; cpu < s->ncpus; cpu++)
				ik_eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_IRQ),
					  s->sc->workload.start_ns + sim_irq_gap(s));
		return alloc_tasks(s, 0);
	case IK_WORKLOAD_IDLE:
		return alloc_tasks(s, 0);
	case IK_WORKLOAD_STREAM:
		return setup_stream(s, err, errlen);
	case IK_WORKLOAD_SPIN:
		return setup_spin(s, err, errlen);
	case IK_WORKLOAD_IPI:
		return setup_ipi(s, err, errlen);
	case IK_WORKLOAD_SERVER:
		return sim_server_setup(s, err, errlen);
	case IK_WORKLOAD_SCHBENCH:
		return sim_schbench_setup(s, err, errlen);
	case IK_WORKLOAD_RTAPP:
		return sim_rtapp_setup(s, err, errlen);
	case IK_WORKLOAD_LEARNED:
		return sim_learned_setup(s, err, errlen);
	}
	return 0;
}

int sim_workload_max_tasks(const struct ik_scenario *sc)
{
	const struct ik_workload *w = &sc->workload;
	int n = 0;

	switch (w->kind) {
	case IK_WORKLOAD_PINGPONG:
	case IK_WORKLOAD_STREAM:
		n = 2 * w->pairs;
		break;
	case IK_WORKLOAD_PERIODIC:
	case IK_WORKLOAD_SPIN:
		n = w->tasks;
		break;
	case IK_WORKLOAD_IPI:
		n = 1;
		break;
	case IK_WORKLOAD_SERVER:
		n = 1 + w->workers;
		break;
	case IK_WORKLOAD_SCHBENCH:
		n = w->message_threads * (1 + w->workers);
		break;
	case IK_WORKLOAD_RTAPP:
		n = w->rtapp_instances;
		break;
	case IK_WORKLOAD_LEARNED:
		n = 2 * (w->learned_cpus + w->learned_tasks);
		break;
	case IK_WORKLOAD_POISSON:
	case IK_WORKLOAD_IDLE:
		break;
	}
	return n + w->nside_spin_cpus;
}

int sim_workload_result(struct ik_sim *s, struct ik_run_result *out)
{
	if (sim_server_result(s, out) || sim_rtapp_result(s, out) || sim_learned_result(s, out))
		return -1;
	return sim_schbench_result(s, out);
}

void sim_workload_free(struct ik_sim *s)
{
	sim_server_free(s);
	sim_schbench_free(s);
	sim_rtapp_free(s);
	sim_learned_free(s);
	sim_iobursts_free(s);
}

int sim_workload_setup(struct ik_sim *s, char *err, size_t errlen)
{
	if (setup_main(s, err, errlen))
		return -1;
	return setup_side_spinners(s, err, errlen);
}

void sim_workload_task_done(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];

	if (t->side) {
		if (s->measuring)
			s->side_units++;
		sim_requeue_task(s, task);
		return;
	}
	switch (s->sc->workload.kind) {
	case IK_WORKLOAD_PINGPONG:
		/* The message is sent: the peer wakes up to handle it. */
		if (s->measuring) {
			s->messages++;
			s->bytes += (uint64_t)s->sc->workload.msg_bytes;
		}
		s->tasks[t->peer].unscaled_ns = message_distance_ns(s, t->cpu, s->tasks[t->peer].cpu);
		sim_wake_task(s, t->peer, t->cpu);
		break;
	case IK_WORKLOAD_PERIODIC: {
		int64_t period = s->sc->workload.period_ns;
		int64_t n = (s->now - t->period_start) / period + 1;
		int64_t stop = s->sc->workload.stop_ns;
		if (stop > 0 && s->now >= stop) {
			/* done: from now on, watch how long this CPU stays in shallow states */
			s->cpus[t->cpu].watch_leave = true;
			s->cpus[t->cpu].last_work_end = s->now;
			s->cpus[t->cpu].lite_entries = 0;
			break;
		}
		if (s->iobursts && sim_iobursts_next(s, task))
			break; /* waits for its I/O */
		ik_eq_arm(&s->eq, task_timer_id(s, task), t->period_start + n * period);
		break;
	}
	case IK_WORKLOAD_STREAM:
		if (t->busy_loop) {
			/* A message is sent; the receiver wakes for it unless already busy. */
			if (s->measuring) {
				s->messages++;
				s->bytes += (uint64_t)s->sc->workload.msg_bytes;
			}
			struct sim_task *r = &s->tasks[t->peer];
			r->pending++;
			if (r->state == TASK_BLOCKED)
				sim_wake_task(s, t->peer, t->cpu);
		} else if (--t->pending > 0) {
			sim_requeue_task(s, task); /* more messages waiting: no sleep */
		}
		break;
	case IK_WORKLOAD_SPIN:
		if (s->measuring)
			s->messages++;
		break;
	case IK_WORKLOAD_IPI:
		break;
	case IK_WORKLOAD_SERVER:
		sim_server_worker_done(s, task);
		break;
	case IK_WORKLOAD_SCHBENCH:
		sim_schbench_task_done(s, task);
		break;
	case IK_WORKLOAD_RTAPP:
		sim_rtapp_task_done(s, task);
		break;
	case IK_WORKLOAD_LEARNED:
		sim_learned_task_done(s, task);
		break;
	case IK_WORKLOAD_POISSON:
	case IK_WORKLOAD_IDLE:
		break;
	}
	if (t->busy_loop)
		sim_requeue_task(s, task);
}
