/*
 * Replay of a trace (`idlekit replay`, docs/replay.md): a governor and a state table run
 * through the real core on the trace's wake events.  The code is replay.c (the engine),
 * state_map.c (the recorded states onto the replayed table) and replay_cost.c (the real
 * costs; replay_internal.h is what it shares with replay.c).  Several traces at once:
 * trace/replay_batch.h; the reports: report/trace_replay.h.
 */
#ifndef IDLEKIT_TRACE_REPLAY_H
#define IDLEKIT_TRACE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "config/result.h"
#include "idlekit/cpuidle.h"
#include "idlekit/governor.h"
#include "idlekit/kernel.h"
#include "trace/analyze.h"
#include "trace/format.h"
#include "util/timeline.h"

/* Idle entries per recorded period before the CPU is taken to stay in its last state. */
#define IK_TRACE_REENTRY_CAP 10000
/* Governors replayed in one pass over a trace. */
#define IK_TRACE_REPLAY_MAX_GOVS 16

/*
 * The recorded table's states mapped onto the replayed table (src/trace/state_map.c), per
 * driver of the trace: a state with the same name (case ignored) if there is one, else the
 * one at the same depth (a polling state to a polling state; the k-th of n non-polling
 * states to the one at the same relative position among the platform's).  Agreement with
 * the recording compares the mapped state with the governor's choice.
 */
enum ik_trace_map_how { IK_MAP_NAME, IK_MAP_DEPTH, IK_MAP_NONE };
struct ik_trace_state_map {
	int ndrivers;
	int nstates[IK_TRACE_MAX_DRIVERS];
	int to[IK_TRACE_MAX_DRIVERS][IK_STATE_MAX];   /* replayed table index, -1 = none */
	enum ik_trace_map_how how[IK_TRACE_MAX_DRIVERS][IK_STATE_MAX];
	bool identity; /* every recorded state maps to the same index by name */
};
void ik__trace_state_map_build(const struct ik_trace_header *h, const struct ik_driver *drv,
			      struct ik_trace_state_map *m);
const char *ik__trace_map_how_name(enum ik_trace_map_how how); /* "name", "depth", "none" */

/*
 * The real costs and powers of the replayed table's states (src/trace/replay_cost.c): from
 * a platform (the table driver's states mapped to its hardware states), or only the
 * advertised exit latencies when there is none (--platform trace: no energy).
 */
struct ik_platform;
struct ik_trace_cost_model {
	const struct ik_platform *plat; /* NULL: advertised exit latency, no entry cost, no power */
	int hw_state[IK_STATE_MAX];     /* replayed table index -> plat->states[] */
};

/*
 * Open loop (the default): every recorded event keeps its time; an idle entry is at its
 * recorded time unless the replayed exit of the period before ends later (then at that
 * end); a wake that comes before the replayed entry is pending (the CPU does not idle).
 * Closed loop: what the CPU does after a wake is delayed by the replayed exit cost (or made
 * earlier), and so is what follows from it on that CPU: its next idle entry, the timers it
 * arms and their expiries; IRQs keep their recorded times, a remote task_wake and an IPI
 * whose sender is known ('wake ipi SRC') move with the source CPU's delay, other IPIs keep
 * theirs.  docs/replay.md says when to use which.
 */
struct ik_trace_replay_opts {
	const struct ik_driver *drv; /* the table the governor chooses from */
	const struct ik_governor *gov;
	int hz; /* 0 = the trace's */
	const struct ik_haltpoll_params *haltpoll; /* NULL = defaults */
	struct ik_timeline *timeline; /* optional: the replayed idle entries in its window (made
					 relative to the first event, as ik__trace_analyze_timeline) */
	bool closed_loop;
	const struct ik_trace_cost_model *cost; /* NULL: advertised exit latencies, no energy */
	uint64_t seed; /* the real entry/exit costs are drawn from the platform's distributions */
	const struct ik_kernel *kernel; /* the release each CPU's device runs as; NULL: 6.19 */
};

struct ik_trace_replay_cpu {
	struct ik_state_usage states[IK_STATE_MAX];
	uint64_t entries, extra_entries, wake_pending;
	int64_t delay_ns; /* closed loop: how late the CPU's work is at the end of the trace */
};

struct ik_trace_replay {
	int cpus;
	int nstates;
	bool closed_loop;
	struct ik_trace_replay_cpu *cpu;
	struct ik_state_usage all[IK_STATE_MAX];
	uint64_t periods;       /* recorded idle periods */
	uint64_t entries;       /* replayed idle entries (periods + re-entries) */
	uint64_t extra_entries; /* re-entries after a tick, timer or poll-limit wake-up */
	uint64_t wake_pending;  /* recorded periods whose wake came before the replay's entry */
	uint64_t capped;        /* periods cut at IK_TRACE_REENTRY_CAP entries */
	uint64_t agree;         /* first entry of the period: chosen == the mapped recorded state */
	uint64_t compared;
	/* confusion[recorded][chosen] over compared periods */
	uint64_t confusion[IK_STATE_MAX][IK_STATE_MAX];
	uint64_t hist[IK_TRACE_HIST_BUCKETS]; /* replayed idle entries by residency, all CPUs */
	uint64_t skipped;
	int64_t first_ns, last_ns; /* the first and last event's times */
	/*
	 * The what-if figures, in a run result as the simulator fills it (so its reports'
	 * definitions apply: accuracy, residency_pct, avg_power_w): states and counters (usage,
	 * above, below, rejected as the core counted them; time_ns the real time from entry
	 * to the end of the real exit, here and in `all` and per CPU), per
	 * CPU, measured_ns (the traced time, plus the largest delay at the end in closed loop
	 * or the end of a replayed exit past the last event),
	 * busy and idle time, idle entries, wake_latency (per wake: from the wake to the work
	 * starting: the replayed state's real exit cost, or the wait when the wake was pending),
	 * energy_j (has_energy: the cost model has a platform).
	 */
	struct ik_run_result run;
	struct ik_trace_state_map map; /* the recorded states onto the replayed table */
	bool has_energy;
	int64_t entry_exit_ns;   /* summed over entries: time in the real entry and exit */
	double entry_exit_j;     /* their energy (at the platform's active power) */
	double state_j;          /* energy in the idle states proper */
	/* The packages the trace's CPUs are on (the platform's numbering), their energy (at
	   pkg_idle_mw while deep: every CPU of the package in a core-gating state, the time
	   summed in run.package_deep_ns; at pkg_active_mw otherwise). */
	int packages;
	double package_j;
	/* The package's exits (the simulator's pkg_exit_ns, paid by the first CPU to wake from
	   a deep package), how many and their time drawn; of them, those paid by the work's
	   wake of a period, whose wake_latency samples include them (the rest were paid by a
	   tick or timer wake before it, and are counted only). */
	uint64_t package_exits, package_exits_woken;
	int64_t package_exit_ns, package_exit_woken_ns;
	bool package_deep_state; /* a replayed state gates its core: the package can be deep */
};

/* One governor (o) over the trace. */
int ik__trace_replay_run(struct ik_trace_reader *r, const struct ik_trace_replay_opts *o,
			struct ik_trace_replay *out, char *err, size_t errlen);
/* n governors (o[i] -> out[i]) in one pass over the trace; on error none is left to free. */
int ik__trace_replay_many(struct ik_trace_reader *r, const struct ik_trace_replay_opts *o, int n,
			 struct ik_trace_replay *out, char *err, size_t errlen);
void ik__trace_replay_free(struct ik_trace_replay *rp);

#endif
