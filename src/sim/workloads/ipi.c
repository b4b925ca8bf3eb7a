/*
 * ipi: one CPU sends an IPI to another every period, as wake-latency benchmarks do; each
 * IPI's latency (send to handler) is a sample.  spin_cpus[0] sends to spin_cpus[1]
 * (default 0 and 1) every period_ns, and the handler runs task_work_ns.  Task 0 is only
 * the sender's timer; its peer field names the target CPU.
 */
#include <stdio.h>

#include "sim/workload.h"
#include "util/errmsg.h"
#include "util/number_format.h"

static int ipi_max_tasks(const struct ik_workload *w)
{
	(void)w;
	return 1;
}

static int ipi_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	int from = w->nspin_cpus > 0 ? w->spin_cpus[0] : 0;
	int to = w->nspin_cpus > 1 ? w->spin_cpus[1] : 1;

	if (from >= s->ncpus || to >= s->ncpus || from == to)
		return ik__errmsg(err, errlen, "workload: ipi needs two different CPUs of platform "
				  "%s (%d CPUs), got %d and %d", s->plat->name, s->ncpus, from, to);
	s->ipi_handler_ns = w->task_work_ns > 0 ? w->task_work_ns : 1;
	if (sim_tasks_alloc(s, 1))
		return sim_workload_oom(err, errlen);
	s->tasks[0].cpu = from;
	s->tasks[0].peer = to;
	s->tasks[0].pinned = true;
	if (sim_timer_register(s, 0))
		return sim_workload_oom(err, errlen);
	ik__eq_arm(&s->eq, task_timer_id(s, 0), w->start_ns + w->period_ns);
	return 0;
}

/* The sender's period: an IPI to the target, and the next period armed. */
static bool ipi_task_timer(struct ik_sim *s, int task)
{
	if (s->tasks[task].side)
		return false;
	sim_send_ipi(s, s->tasks[task].peer);
	ik__eq_arm(&s->eq, task_timer_id(s, task), s->now + s->sc->workload.period_ns);
	return true;
}

static void ipi_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_int(out, "period_ns", w->period_ns);
	sim_setting_int(out, "handler_ns", w->task_work_ns);
}

static void ipi_describe(const struct ik_workload *w, char *buf, size_t len)
{
	char a[IK_FMT_NUM_LEN];

	ik__fmt_exact(a, sizeof(a), w->period_ns, 3);
	snprintf(buf, len, ": CPU %d sends an IPI to CPU %d every %s us",
		 w->nspin_cpus > 0 ? w->spin_cpus[0] : 0, w->nspin_cpus > 1 ? w->spin_cpus[1] : 1, a);
}

const struct sim_workload_ops sim_ipi_ops = {
	.name = "ipi",
	.kind = IK_WORKLOAD_IPI,
	.check = sim_check_spin_cpus,
	.max_tasks = ipi_max_tasks,
	.setup = ipi_setup,
	.task_timer = ipi_task_timer,
	.settings = ipi_settings,
	.describe = ipi_describe,
};
