/*
 * periodic: tasks woken by their own timer every period (absolute, no drift), one per CPU
 * in CPU order (task i on CPU i mod ncpus), each at a random phase.  With burst_ios, each
 * period's wake-up starts a burst of I/O waits (periodic_iobursts.c).  With stop_ms the
 * tasks stop, and from then on each CPU's time to leave polling and lite states is
 * measured (seed 003's experiment).
 */
#include <stdio.h>
#include <string.h>

#include "sim/workload.h"
#include "util/number_format.h"
#include "sim/workloads/periodic_iobursts.h"

static int periodic_max_tasks(const struct ik_workload *w)
{
	return w->tasks;
}

static int periodic_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	int64_t period = w->period_ns;

	if (sim_tasks_alloc(s, w->tasks))
		return sim_workload_oom(err, errlen);
	for (int i = 0; i < w->tasks; i++) {
		struct sim_task *t = &s->tasks[i];

		t->cpu = i % s->ncpus;
		t->pinned = true;
		t->work_ns = w->task_work_ns;
		t->period_start = w->start_ns + (int64_t)(ik__rng_unit(&s->rng) * (double)period);
		if (sim_timer_register(s, i))
			return sim_workload_oom(err, errlen);
		ik__eq_arm(&s->eq, task_timer_id(s, i), t->period_start + period + sim_timer_slack(s));
	}
	if (w->burst_ios > 0 && sim_iobursts_setup(s))
		return sim_workload_oom(err, errlen);
	return 0;
}

static void periodic_task_done(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];
	int64_t period = s->sc->workload.period_ns;
	int64_t n = (s->now - t->period_start) / period + 1;
	int64_t stop = s->sc->workload.stop_ns;

	if (stop > 0 && s->now >= stop) {
		/* done: from now on, watch how long this CPU stays in shallow states */
		s->cpus[t->cpu].watch_leave = true;
		s->cpus[t->cpu].last_work_end = s->now;
		s->cpus[t->cpu].lite_entries = 0;
		return;
	}
	if (s->wl && sim_iobursts_next(s, task))
		return; /* waits for its I/O */
	/* its hrtimer fires the task's timer slack after the period's start */
	ik__eq_arm(&s->eq, task_timer_id(s, task), t->period_start + n * period + sim_timer_slack(s));
}

/* Each CPU waits for one task's I/O at a time (periodic_iobursts.c). */
static int periodic_check(struct ik_workload *w, struct ik_workload_check *c)
{
	const struct ik_platform *p = c->platform;

	if (w->burst_ios > 0 && w->tasks > ik__platform_cpus(p))
		return sim_check_fail(c, "burst_ios", "[workload] burst_ios: each CPU waits for one "
				      "task's I/O, so expected tasks <= %d (the CPUs of platform %s), "
				      "not %d", ik__platform_cpus(p), p->name, w->tasks);
	return 0;
}

static void periodic_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_int(out, "tasks", w->tasks);
	sim_setting_int(out, "period_ns", w->period_ns);
	sim_setting_int(out, "task_work_ns", w->task_work_ns);
	if (w->burst_ios > 0) {
		sim_setting_int(out, "burst_ios", w->burst_ios);
		sim_setting_dist(out, "io_ns", &w->io);
		sim_setting_int(out, "irq_work_ns", w->irq_work_ns);
		if (w->ack_timer_ns > 0)
			sim_setting_int(out, "ack_timer_ns", w->ack_timer_ns);
	}
}

static void periodic_describe_brief(const struct ik_workload *w, char *buf, size_t len)
{
	char a[IK_FMT_NUM_LEN], b[IK_FMT_NUM_LEN];

	ik__fmt_exact(a, sizeof(a), w->period_ns, 3);
	ik__fmt_exact(b, sizeof(b), w->task_work_ns, 3);
	snprintf(buf, len, ": %d tasks, period %s us, %s us of work per period", w->tasks, a, b);
}

static void periodic_describe(const struct ik_workload *w, char *buf, size_t len)
{
	char dist[256];

	periodic_describe_brief(w, buf, len);
	size_t n = strlen(buf);
	if (w->burst_ios <= 0 || n + 1 >= len)
		return;
	ik__dist_format(&w->io, dist, sizeof(dist));
	int more = snprintf(buf + n, len - n, " and after each of %d I/O waits (%s ns to the "
			    "completion interrupt)", w->burst_ios, dist);
	if (more > 0)
		n += (size_t)more;
	if (w->ack_timer_ns > 0 && n < len)
		snprintf(buf + n, len - n, ", each completion re-arming a %lld ms "
			 "delayed-ACK timer", (long long)(w->ack_timer_ns / IK_NSEC_PER_MSEC));
}

const struct sim_workload_ops sim_periodic_ops = {
	.name = "periodic",
	.kind = IK_WORKLOAD_PERIODIC,
	.check = periodic_check,
	.max_tasks = periodic_max_tasks,
	.setup = periodic_setup,
	.task_done = periodic_task_done,
	/* only armed with burst_ios (the I/O completion) and ack_timer_ms (the delayed ACK) */
	.irq = sim_iobursts_irq,
	.socket_timer = sim_iobursts_socket_timer,
	.free = sim_iobursts_free,
	.settings = periodic_settings,
	.describe = periodic_describe,
	.describe_brief = periodic_describe_brief,
};
