/*
 * Replay, internal: the real costs and powers of the replayed states (replay_cost.c), used
 * by the replay engine (replay.c).  Not part of the public API.
 */
#ifndef IDLEKIT_TRACE_REPLAY_INTERNAL_H
#define IDLEKIT_TRACE_REPLAY_INTERNAL_H

#include "idlekit/hw.h"
#include "idlekit/trace.h"

/* The hardware wake source whose exit cost a wake of this cause pays. */
enum ik_wake_source ik_trace_cause_source(enum ik_trace_cause c);

/* Real entry cost of table state `state` (0 for a polling state or without a platform). */
int64_t ik_trace_cost_entry_ns(const struct ik_trace_cost_model *m, const struct ik_driver *drv,
			       int state, struct ik_rng *rng);
/* Real exit cost (the advertised exit latency without a platform; 0 for a polling state). */
int64_t ik_trace_cost_exit_ns(const struct ik_trace_cost_model *m, const struct ik_driver *drv,
			      int state, enum ik_wake_source src, struct ik_rng *rng);
/* Power in mW of table state `state`, and of a busy CPU (0 without a platform). */
int ik_trace_cost_state_mw(const struct ik_trace_cost_model *m, int state);
int ik_trace_cost_active_mw(const struct ik_trace_cost_model *m);
/* Package (uncore) power while not in its deep state, and the packages of `cpus` CPUs. */
int ik_trace_cost_package_mw(const struct ik_trace_cost_model *m);
int ik_trace_cost_packages(const struct ik_trace_cost_model *m, int cpus);

#endif
