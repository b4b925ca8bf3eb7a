/*
 * Analysis of a trace (`idlekit analyze`, src/trace/analyze.c): per-state residency and
 * mis-predictions with ik_account_entered's definition, wake causes, remote wake-ups, IRQs,
 * P-states, idlestat's overlap and an idle-duration histogram.  Its reports are
 * report/analyze_out.h's and report/html.h's.
 */
#ifndef IDLEKIT_TRACE_ANALYZE_H
#define IDLEKIT_TRACE_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlekit/cpuidle.h"
#include "trace/format.h"
#include "util/idle_hist.h"
#include "util/timeline.h"

#define IK_TRACE_HIST_BUCKETS IK_IDLE_HIST_BUCKETS /* [0,1us) [1,2us) [2,4us) ... [2^20us, inf) */

struct ik_trace_state_stats {
	uint64_t entries;
	uint64_t min_ns, max_ns, total_ns;
	uint64_t too_deep, too_shallow;
};

struct ik_trace_cpu_stats {
	struct ik_trace_state_stats states[IK_STATE_MAX];
	uint64_t wakes[IK_CAUSE_COUNT + 1];          /* idle periods by cause (+ none) */
	uint64_t too_deep_by_cause[IK_CAUSE_COUNT + 1]; /* too-deep periods by cause ("early") */
	uint64_t too_shallow_by_cause[IK_CAUSE_COUNT + 1]; /* too-shallow periods ("late") */
};

/*
 * A wake event traced after the idle exit is the period's cause only if it comes within
 * this long of the exit and before the CPU did anything else (a switch, a task_wake it
 * sent, a timer it armed or cancelled, tick_stop): the interrupt that woke the CPU, which
 * the kernel handles once the idle state has returned.  A later one (a tick while the CPU
 * is busy) is not.
 */
#define IK_TRACE_WAKE_AFTER_EXIT_NS 50000

/* Periods ended by one IRQ (wake irq N), over all CPUs. */
struct ik_trace_irq_count {
	int64_t irq;
	uint64_t periods, too_deep, too_shallow;
};

/* Remote wake-ups of one CPU by one source CPU. */
struct ik_trace_remote {
	int src;
	uint64_t periods; /* idle periods of the CPU whose cause was a task_wake from src */
};

struct ik_trace_remote_list {
	struct ik_trace_remote *v; /* by increasing src */
	size_t n, cap;
};

struct ik_trace_analysis {
	int cpus;
	struct ik_trace_cpu_stats *cpu; /* cpus entries */
	struct ik_trace_remote_list *remote; /* cpus entries: periods woken from another CPU (a
						remote task_wake, or an IPI whose sender is known), by
						source CPU */
	struct ik_trace_irq_count *irqs; /* by increasing irq */
	size_t nirqs, irqs_cap;
	uint64_t *idle_ns; /* cpus entries: time in counted idle periods */
	/*
	 * idlestat's overlap, from the header's 'cpu' lines (topo; ngroups 0 without them):
	 * per package ("cluster") and per core, the time all of its CPUs were idle at once
	 * (in counted periods), as groups of CPUs
	 */
	/*
	 * P-state residency (format 1.1 'freq' events): per CPU, the time at each frequency
	 * from its first freq event to the last event of the trace, by increasing kHz
	 */
	struct ik_trace_pstates {
		struct ik_trace_pstate {
			uint32_t khz;
			uint64_t ns;
		} *v;
		size_t n, cap;
		uint32_t cur_khz; /* running: 0 before the first freq event */
		int64_t since_ns;
	} *pstates; /* cpus entries */
	bool has_freq;
	int npackages, ncores;
	struct ik_trace_group {
		int32_t package, core; /* core -1: the package's group */
		int cpus;              /* its CPUs */
		int idle;              /* running: how many are idle now */
		int64_t since_ns;      /* running: when the last one went idle */
		uint64_t all_idle_ns;  /* time all were idle at once */
	} *groups; /* npackages packages, then ncores cores */
	/* Format 1.1 with switch events: periods followed by a switch to a task (PID != 0)
	   before the next idle entry, and periods after which none ran (woken for nothing). */
	bool has_switch;
	uint64_t task_periods, empty_periods;
	struct ik_trace_cpu_stats all;  /* summed; states by index (drivers may differ) */
	uint64_t hist[IK_TRACE_HIST_BUCKETS]; /* idle durations, all CPUs */
	uint64_t events, skipped, periods;
	uint64_t open_at_end; /* idle periods still open at the end (not counted) */
	int64_t first_ns, last_ns;
};

/* Read the whole trace and analyse it; free with ik__trace_analysis_free. */
int ik__trace_analyze(struct ik_trace_reader *r, struct ik_trace_analysis *a, char *err,
		     size_t errlen);
/*
 * The same, and the idle periods that overlap tl's window kept in tl (NULL: none).  A trace's
 * window is relative to its first event: tl's origin_ns is set to that event's time and its
 * start_ns moved by as much.
 */
int ik__trace_analyze_timeline(struct ik_trace_reader *r, struct ik_trace_analysis *a,
			      struct ik_timeline *tl, char *err, size_t errlen);
void ik__trace_analysis_free(struct ik_trace_analysis *a);
/* The lower bound of histogram bucket i in ns. */
uint64_t ik__trace_hist_lower_ns(int i);
/* The histogram bucket of an idle duration in ns. */
int ik__trace_hist_bucket(uint64_t ns);
/* Bucket i's range in us for tables: "[2, 4)", "[1048576, inf)". */
void ik__trace_hist_label(int i, char *buf, size_t len);

#endif
