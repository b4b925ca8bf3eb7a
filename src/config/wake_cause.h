/*
 * Why an idle period ended: the wake causes of a trace's wake events (docs/trace-format.md),
 * by which the learned model (config/learned_model.h) files its idle periods.  Here in
 * src/config, below src/trace and src/sim, because the trace code and the simulator's
 * learned workload both use it and src/sim includes nothing of src/trace.  The names
 * (ik__trace_cause_name) are the trace format's: trace/format.h.
 */
#ifndef IDLEKIT_CONFIG_WAKE_CAUSE_H
#define IDLEKIT_CONFIG_WAKE_CAUSE_H

enum ik_trace_cause {
	IK_CAUSE_TIMER,
	IK_CAUSE_TICK,
	IK_CAUSE_IPI,
	IK_CAUSE_IRQ,
	IK_CAUSE_UNKNOWN,
	IK_CAUSE_REMOTE, /* a task_wake from another CPU while idle (format 1.1) */
	IK_CAUSE_SOFTIRQ, /* a softirq with no interrupt traced before it (format 1.1) */
	IK_CAUSE_COUNT,
	IK_CAUSE_NONE = IK_CAUSE_COUNT, /* an idle period with no wake event recorded */
};

#endif
