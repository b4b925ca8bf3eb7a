/*
 * The [workload] section's keys: one table (workload_keys.c) that names each key once,
 * with its field, type, unit, range, default and meaning, from which the scenario reader
 * sets the defaults and a value, the printed configuration formats it again, and
 * `idlekit workload keys` writes the key table of docs/workloads.md.
 */
#ifndef IDLEKIT_CONFIG_WORKLOAD_KEYS_H
#define IDLEKIT_CONFIG_WORKLOAD_KEYS_H

#include <stddef.h>

#include "config/scenario.h"

#define IK_SCENARIO_MAX_MS 3600000           /* the longest time a key in ms takes */
#define IK_SCENARIO_MAX_WORK_NS 10000000000LL /* and the longest piece of work, ns */

/* In the order the keys are printed (--print-config, the result's configuration). */
enum workload_key {
	WL_TYPE,
	WL_PAIRS,
	WL_WORK_NS,
	WL_MSG_BYTES,
	WL_PLACEMENT,
	WL_TASKS,
	WL_PERIOD_US,
	WL_TASK_WORK_NS,
	WL_IRQ_RATE_HZ,
	WL_IRQ_WORK_NS,
	WL_START_MS,
	WL_WORK_NS_PER_KB,
	WL_RECV_WORK_NS,
	WL_CPUS,
	WL_START_SPREAD_US,
	WL_STOP_MS,
	WL_SIDE_SPIN_CPUS,
	WL_SIDE_SPIN_WORK_NS,
	WL_ARRIVAL,
	WL_LOAD_PCT,
	WL_SERVICE_NS,
	WL_WORKERS,
	WL_IRQ_CPU,
	WL_QUEUE_LIMIT,
	WL_BURST_ON_US,
	WL_BURST_OFF_US,
	WL_MESSAGE_THREADS,
	WL_SLEEP_US,
	WL_RPS,
	WL_FILE,
	WL_MEM_MB_PER_S,
	WL_COPY_MB_PER_S,
	WL_IOWAIT_PCT,
	WL_START_CPUS,
	WL_REMOTE_LLC_NS,
	WL_REMOTE_PACKAGE_NS,
	WL_IRQ_AFFINITY,
	WL_BURST_IOS,
	WL_IO_NS,
	WL_ACK_TIMER_MS,
	WL_COUNT
};

/* The keys' names, indexed by enum workload_key. */
const char *const *ik__workload_key_names(void);

/* Set key k of wl from its text: 0, or -1 with what was expected in msg. */
int ik__workload_key_set(struct ik_workload *wl, enum workload_key k, const char *value,
			char *msg, size_t msglen);

/* Every key with a default set to it (the others 0), as a scenario without a [workload]
   section runs. */
void ik__workload_defaults(struct ik_workload *wl);

/* What the docs say of key k, from the same table: its unit, its default as a file writes
   it ("" = none), the values it takes and its meaning. */
struct ik_workload_key_info {
	const char *name, *unit, *def, *doc;
	char range[256];
};
void ik__workload_key_info(enum workload_key k, struct ik_workload_key_info *out);

/* Key k as the run uses it, in the key's unit ("" for file: its path is recorded as is). */
void ik__workload_key_format(const struct ik_workload *wl, enum workload_key k, char *buf,
			    size_t len);

#endif
