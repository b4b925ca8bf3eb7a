/*
 * idle: nothing at all to do (the machine's housekeeping and the side spinners, if any,
 * are the only work): for the forced-wakeup and lite-state experiments, and an idle
 * machine's entries per second.
 */
#include <stdio.h>

#include "sim/workload.h"

static int idle_max_tasks(const struct ik_workload *w)
{
	(void)w;
	return 0;
}

static int idle_setup(struct ik_sim *s, char *err, size_t errlen)
{
	return sim_tasks_alloc(s, 0) ? sim_workload_oom(err, errlen) : 0;
}

static void idle_describe(const struct ik_workload *w, char *buf, size_t len)
{
	(void)w;
	snprintf(buf, len, ": nothing to do");
}

const struct sim_workload_ops sim_idle_ops = {
	.name = "idle",
	.kind = IK_WORKLOAD_IDLE,
	.max_tasks = idle_max_tasks,
	.setup = idle_setup,
	.describe = idle_describe,
};
