/*
 * The registry: the workloads of config/workload_list.h (one line each there; their files
 * are beside this one), indexed by kind, so the engine finds a scenario's workload without
 * a search; the scenario reader and the reports take the types' names from it
 * (ik__workload_type_name).
 */
#include "sim/workload.h"

#define REGISTRY_ENTRY(KIND, name) [IK_WORKLOAD_##KIND] = &sim_##name##_ops,
static const struct sim_workload_ops *const workloads[IK_WORKLOAD_KINDS] = {
	IK_WORKLOAD_LIST(REGISTRY_ENTRY)
};
#undef REGISTRY_ENTRY

const struct sim_workload_ops *sim_workload_ops_of(enum ik_workload_kind kind)
{
	if ((unsigned)kind >= IK_WORKLOAD_KINDS)
		return NULL;
	return workloads[kind];
}

const char *ik__workload_type_name(enum ik_workload_kind kind)
{
	const struct sim_workload_ops *ops = sim_workload_ops_of(kind);

	return ops ? ops->name : "unknown";
}

void ik__workload_type_names(const char *names[IK_WORKLOAD_KINDS])
{
	for (int k = 0; k < IK_WORKLOAD_KINDS; k++)
		names[k] = ik__workload_type_name((enum ik_workload_kind)k);
}
