/*
 * The workloads, one line each (their files are beside this one).  The table is indexed by
 * kind, so the engine finds a scenario's workload without a search; the scenario reader
 * and the reports take the types' names from it (ik_workload_type_name).
 */
#include "sim/workload.h"

static const struct sim_workload_ops *const workloads[IK_WORKLOAD_KINDS] = {
	[IK_WORKLOAD_PINGPONG] = &sim_pingpong_ops,
	[IK_WORKLOAD_PERIODIC] = &sim_periodic_ops,
	[IK_WORKLOAD_POISSON] = &sim_poisson_ops,
	[IK_WORKLOAD_IDLE] = &sim_idle_ops,
	[IK_WORKLOAD_STREAM] = &sim_stream_ops,
	[IK_WORKLOAD_SPIN] = &sim_spin_ops,
	[IK_WORKLOAD_IPI] = &sim_ipi_ops,
	[IK_WORKLOAD_SERVER] = &sim_server_ops,
	[IK_WORKLOAD_SCHBENCH] = &sim_schbench_ops,
	[IK_WORKLOAD_RTAPP] = &sim_rtapp_ops,
	[IK_WORKLOAD_LEARNED] = &sim_learned_ops,
};

const struct sim_workload_ops *sim_workload_ops_of(enum ik_workload_kind kind)
{
	if ((unsigned)kind >= IK_WORKLOAD_KINDS)
		return NULL;
	return workloads[kind];
}

const char *ik_workload_type_name(enum ik_workload_kind kind)
{
	const struct sim_workload_ops *ops = sim_workload_ops_of(kind);

	return ops ? ops->name : "unknown";
}

void ik_workload_type_names(const char *names[IK_WORKLOAD_KINDS])
{
	for (int k = 0; k < IK_WORKLOAD_KINDS; k++)
		names[k] = ik_workload_type_name((enum ik_workload_kind)k);
}
