/*
 * idlekit: a workload learned from a trace (`idlekit workload learn`, workload.type =
 * learned).  Per CPU and per wake cause: how many idle periods the recording had, their
 * lengths, and the busy time that followed each (so idle time and busy time are both
 * conditioned on the cause).  Lengths are kept as sorted samples (at most
 * IK_LEARNED_MAX_SAMPLES, evenly spaced order statistics when there were more) and
 * resampled: the model reproduces the recording's distributions, not a fitted shape.
 *
 * File format ("idlekit-learned 1", text, one record per line, '#' comments):
 *
 *   idlekit-learned 1
 *   source NAME                    the trace it was learned from (informational)
 *   cpus N
 *   cause CPU CAUSE PERIODS        CAUSE: timer tick ipi irq unknown remote softirq none
 *   idle CPU CAUSE NS NS ...       idle periods: entry to the wake event, ns (the
 *                                  residency less the state's advertised exit latency),
 *                                  non-decreasing
 *   busy CPU CAUSE NS NS ...       busy time after such a period, ns, non-decreasing
 *   busy_cpu CPU                   a CPU that never idled: always busy
 *   span NS                        the recording's length, ns (optional)
 *   empty CPU CAUSE PERIODS        idle periods of the CPU ended by CAUSE after which no
 *                                  task ran (the tick, a timer or an IPI that woke
 *                                  nobody), from a trace with sched events (optional;
 *                                  with span, their rate)
 *
 * and, from a trace with sched events (format 1.1: switch, task_wake), per task:
 *
 *   task PID CAUSE WAKES           how often the task was woken for CAUSE: timer tick ipi
 *                                  irq unknown remote softirq none (the wake-up of an idle CPU
 *                                  that ran it, or remote: woken from another CPU) or
 *                                  local (woken on its own CPU while that CPU was busy)
 *   task_sleep PID CAUSE NS ...    its sleeps that such a wake-up ended: switch-out to
 *                                  the wake-up, ns, non-decreasing (with the sleep still
 *                                  open at the end of the trace when it is the longest)
 *   task_run PID CAUSE NS ...      the run that followed such a wake-up: switch-in to
 *                                  switch-out, ns, non-decreasing
 *   task_run_cpus PID CAUSE CPU ...
 *                                  the CPU each of those runs ended on, in the same
 *                                  order (optional: without it a run's CPU is drawn
 *                                  from task_cpus, whatever its length)
 *   task_cpus PID CPU:RUNS ...     the CPUs it ran on and how many runs on each
 *
 * A model with tasks is run as its tasks (the per-CPU lines are kept for reading).
 *
 * The model and its reader (learned_model.c), here in src/config below the simulator and
 * the trace code, because the learned workload (src/sim/workloads/learned.c) reads a model
 * and src/sim includes nothing of src/trace.  Learning one from a trace and writing it are
 * trace/learn.h's (src/trace/learn.c).
 */
#ifndef IDLEKIT_LEARNED_H
#define IDLEKIT_LEARNED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlekit/cpuidle.h"

#define IK_LEARNED_CAUSES 8      /* enum ik_trace_cause with NONE (IK_CAUSE_NONE + 1) */
#define IK_LEARNED_TASK_CAUSES 9 /* the same and LOCAL */
#define IK_LEARNED_LOCAL 8       /* a task woken on its own CPU while that CPU ran */
#define IK_LEARNED_MAX_SAMPLES 256
#define IK_LEARNED_MAX_TASKS 256 /* the tasks with the most runs are kept */
#define IK_LEARNED_MAX_NS 3600000000000LL /* a length in the file: at most an hour */

struct ik_learned_samples {
	int n;
	int64_t v[IK_LEARNED_MAX_SAMPLES];
};

struct ik_learned_cpu {
	bool always_busy;
	/* by cause: periods after which no task ran (0: none, or not known) */
	uint64_t empty[IK_LEARNED_CAUSES];
	uint64_t periods[IK_LEARNED_CAUSES];
	struct ik_learned_samples idle[IK_LEARNED_CAUSES];
	struct ik_learned_samples busy[IK_LEARNED_CAUSES];
};

struct ik_learned_task {
	int64_t pid;
	uint64_t wakes[IK_LEARNED_TASK_CAUSES];
	struct ik_learned_samples sleep[IK_LEARNED_TASK_CAUSES];
	struct ik_learned_samples run[IK_LEARNED_TASK_CAUSES];
	/* the CPU of each run sample (run_cpu[k][i] for run[k].v[i]); -1 = not recorded */
	int16_t run_cpu[IK_LEARNED_TASK_CAUSES][IK_LEARNED_MAX_SAMPLES];
	bool has_run_cpu[IK_LEARNED_TASK_CAUSES];
	uint64_t *cpu_runs; /* cpus entries: runs on each CPU */
};

struct ik_learned {
	char source[128];
	int64_t span_ns; /* the recording's length (0: not known) */
	/*
	 * What the recording measured of its machine, for the platform file `workload learn`
	 * writes beside the model (not in the model file): per state of the first driver, the
	 * delay from a timer's expiry to its handler on a CPU idle in that state (the wake-up,
	 * exit included); and from that handler to the task it woke running on that CPU (the
	 * rest of the wake-up path: scheduler and context switch).
	 */
	struct ik_learned_samples exit_ns[IK_STATE_MAX];
	struct ik_learned_samples wake_to_run_ns;
	int cpus;
	struct ik_learned_cpu *cpu; /* cpus entries */
	int ntasks;
	struct ik_learned_task *task; /* ntasks entries */
};

/* Read the file format above: 0, or -1 with "ORIGIN:LINE: expected ..., got ...". */
int ik__learned_parse(const char *origin, const char *text, size_t len, struct ik_learned *out,
		     char *err, size_t errlen);
int ik__learned_load(const char *path, struct ik_learned *out, char *err, size_t errlen);
/* Defined in src/trace/learn.c, with the rest of the model's life (it frees what both the
   learner and the reader fill). */
void ik__learned_free(struct ik_learned *m);

#endif
