/*
 * spin: tasks that never sleep, counting units of work (workload.task_work_ns each), on
 * the CPUs workload.spin_cpus lists (default 0, 1, ...): the throughput of a CPU next to
 * an idle SMT sibling.
 */
#include <stdio.h>

#include "sim/workload.h"
#include "util/errmsg.h"
#include "util/number_format.h"

static int spin_max_tasks(const struct ik_workload *w)
{
	return w->tasks;
}

static int spin_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;

	if (sim_tasks_alloc(s, w->tasks))
		return sim_workload_oom(err, errlen);
	for (int i = 0; i < w->tasks; i++) {
		struct sim_task *t = &s->tasks[i];

		t->cpu = i < w->nspin_cpus ? w->spin_cpus[i] : i % s->ncpus;
		if (t->cpu < 0 || t->cpu >= s->ncpus)
			return ik__errmsg(err, errlen, "workload: spin CPU %d does not exist "
					  "(platform %s has %d CPUs)", t->cpu, s->plat->name,
					  s->ncpus);
		t->pinned = true;
		t->busy_loop = true;
		t->work_ns = w->task_work_ns;
		if (sim_timer_register(s, i))
			return sim_workload_oom(err, errlen);
		ik__eq_arm(&s->eq, task_timer_id(s, i), w->start_ns);
	}
	return 0;
}

/* A unit done (the engine queues the task again: it never sleeps). */
static void spin_task_done(struct ik_sim *s, int task)
{
	(void)task;
	if (s->measuring)
		s->messages++;
}

static void spin_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_int(out, "tasks", w->tasks);
	sim_setting_int(out, "task_work_ns", w->task_work_ns);
}

static void spin_describe_brief(const struct ik_workload *w, char *buf, size_t len)
{
	snprintf(buf, len, ": %d busy tasks", w->tasks);
}

static void spin_describe(const struct ik_workload *w, char *buf, size_t len)
{
	char a[IK_FMT_NUM_LEN];

	ik__fmt_exact(a, sizeof(a), w->task_work_ns, 3);
	snprintf(buf, len, ": %d busy tasks, work units of %s us (counted as messages)", w->tasks,
		 a);
}

const struct sim_workload_ops sim_spin_ops = {
	.name = "spin",
	.kind = IK_WORKLOAD_SPIN,
	.throughput = true,
	.check = sim_check_spin_cpus,
	.max_tasks = spin_max_tasks,
	.setup = spin_setup,
	.task_done = spin_task_done,
	.settings = spin_settings,
	.describe = spin_describe,
	.describe_brief = spin_describe_brief,
};
