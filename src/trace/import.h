/*
 * Import of other tools' traces (`idlekit import`): perf script, ftrace and trace-cmd report
 * text (import_perf.c through the reorder window of import_internal.h, which is the
 * importers' own), records from trace.dat (import_perf.c's ik__trace_import_records, with
 * bitmask.c for the IPI masks), and the clock check (clock_check.c).  `idlekit record`
 * writes through the same sched-event rule (ik__trace_sched_event).
 */
#ifndef IDLEKIT_TRACE_IMPORT_H
#define IDLEKIT_TRACE_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlekit/cpuidle.h"
#include "trace/format.h"

/*
 * A kernel bitmask from a trace.dat record (ipi_send_cpumask's cpumask): len bytes of
 * unsigned longs of long_size bytes (4 or 8) in the recording machine's byte order, bit c of
 * the whole = CPU c.  Its CPUs below IK_TRACE_MAX_CPUS, ascending, into cpus (at most max):
 * how many, or -1 if long_size is not 4 or 8.
 */
int ik__trace_bitmask_cpus(const void *raw, size_t len, int long_size, bool big_endian,
			  int *cpus, int max);

struct ik_trace_import_opts {
	const struct ik_driver *drv; /* the state table; NULL: a generic one, state0..stateN-1
					(0 us latency and residency), N = the deepest state seen + 1 */
	int hz;                      /* the header's HZ; 0 = 250 */
	bool lenient;                /* skip bad lines (counted) instead of stopping */
	/* perf script: perf recorded on CLOCK_MONOTONIC (perf record -k mono), so hrtimer
	   expiry times are on the events' time line: hrtimer_start/cancel/expire_entry become
	   timer_start/cancel/expire (checked: a tick expiry's now= must match its time). */
	bool clock_mono;
	/* IRQ names for the header's 'irq' lines (only nirqs and irqs are read); NULL: none */
	const struct ik_trace_header *irq_names;
};

/*
 * Is a trace on CLOCK_MONOTONIC (src/trace/clock_check.c)?  A tick's hrtimer_expire_entry
 * says now=, the CLOCK_MONOTONIC time its interrupt read; on that clock the event's own
 * time is a few us later (the handlers run between).  The offsets now= - time are kept
 * (count, min, max, the farthest); the tolerance comes from them: twice their spread, at
 * least IK_TRACE_CLOCK_MIN_TOL_NS, at most a tenth of the tick period.  The clock is taken
 * as CLOCK_MONOTONIC when every offset is within the tolerance: a constant offset (another
 * clock) is outside it however small its spread, a drifting one spreads beyond it.
 */
#define IK_TRACE_CLOCK_MIN_TOL_NS 20000
struct ik_trace_clock {
	uint64_t n;
	int64_t min_ns, max_ns;   /* of the offsets now= - event time */
	int64_t far_ns;           /* the offset farthest from 0, */
	int64_t far_t_ns;         /* its event's time, */
	uint64_t far_line;        /* its line (0: not known) */
	int far_cpu;              /* and CPU */
};
void ik__trace_clock_add(struct ik_trace_clock *c, int64_t t_ns, int64_t now_ns, uint64_t line,
			int cpu);
/* The tolerance for HZ hz; true when the offsets say CLOCK_MONOTONIC (false with none). */
bool ik__trace_clock_mono(const struct ik_trace_clock *c, int hz, int64_t *tol_ns);

struct ik_trace_import_stats {
	uint64_t lines;    /* lines read */
	uint64_t used;     /* input events converted (power:cpu_idle, IRQs, IPIs, hrtimer expiry) */
	uint64_t ignored;  /* input events of other kinds (hrtimer_start without clock_mono, ...) */
	uint64_t timers_ignored; /* hrtimer_start/cancel not used (no clock_mono) */
	struct ik_trace_clock clock; /* the tick expiries' now= against their times */
	uint64_t dropped;  /* cpu_idle out of order: an entry while idle, an exit while not
			      (other than the edges below) */
	uint64_t edge_start; /* partial periods at the start: a CPU's first cpu_idle is an exit
				(it was idle when the recording began); not written */
	uint64_t edge_end;   /* partial periods at the end: CPUs still idle (written open) */
	uint64_t ipi_senders; /* IPI wakes whose sender is known (ipi_send_cpu/_cpumask) */
	uint64_t ipi_send_causes; /* of those, named by the send itself (no handler event first) */
	uint64_t ipi_sends;   /* ipi_send_cpu events read */
	uint64_t ipi_masks;   /* ipi_send_cpumask events read */
	uint64_t ipi_mask_targets; /* the CPUs their masks name, summed */
	uint64_t lost;        /* ftrace text: "[LOST N EVENTS]" lines */
	uint64_t header_lines; /* ftrace / trace-cmd report text: lines before the first event */
	uint64_t late_ticks;  /* ticks and timers after the exit, the CPU busy: not causes */
	uint64_t no_cause;    /* idle periods closed with no cause (written without a wake) */
	uint64_t no_cause_wakeup; /* of those, periods at whose wake the CPU woke a task onto
				     itself with nothing before it: an IPI's wake-up, or a timer's */
	uint64_t kinds[16];   /* records by enum ik_trace_import_kind, as the writer took them */
	uint64_t skipped;  /* lenient: bad lines skipped */
	uint64_t written;  /* trace events written */
	int cpus;
	int nstates;       /* states in the table written */
	bool generic;      /* the generic table was used */
	char first_skip[256];
};

/* The text formats of other tools' traces. */
enum ik_trace_text_format {
	IK_TEXT_PERF_SCRIPT,      /* perf script: COMM PID [CPU] SECONDS.FRACTION: SYS:EVENT: ... */
	IK_TEXT_FTRACE,           /* tracefs trace / trace_pipe: COMM-PID [CPU] FLAGS SECONDS: EVENT: ... */
	IK_TEXT_TRACE_CMD_REPORT, /* trace-cmd report: COMM-PID [CPU] [FLAGS] SECONDS: EVENT: ... */
};

/*
 * A text trace to an idlekit trace on out, streaming: lines are read in chunks, parsed,
 * put back in time order through a reorder window of IK_IMPORT_WINDOW records (stable on
 * equal times), converted and written to a temporary spool; at the end the header (CPUs,
 * table, IRQ names now known) and the spool go to out.  Memory does not grow with the
 * input.  IK_TRACE_OK, or IK_TRACE_EINPUT with "ORIGIN:LINE: expected ..., got ..."
 * (nothing written to out), or IK_TRACE_EFAIL.
 */
int ik__trace_import_text(FILE *in, const char *origin, enum ik_trace_text_format fmt, FILE *out,
			 const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st,
			 char *err, size_t errlen);
/* ik__trace_import_text for perf script (default fields, 6 or 9 decimals). */
int ik__trace_import_perf(FILE *in, const char *origin, FILE *out,
			 const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st,
			 char *err, size_t errlen);

/* One event of another tool's trace (what a reader of its format extracts). */
enum ik_trace_import_kind {
	IK_IMPORT_IDLE, IK_IMPORT_IRQ, IK_IMPORT_IPI, IK_IMPORT_TIMER, IK_IMPORT_TICK,
	IK_IMPORT_WAKING,    /* sched_waking: arg the PID, arg2 the target CPU */
	IK_IMPORT_WAKEUP,    /* sched_wakeup: the same; used only if there is no sched_waking */
	IK_IMPORT_SWITCH,    /* sched_switch: arg the previous PID, arg2 the next */
	IK_IMPORT_TICK_STOP, /* timer:tick_stop: arg success */
	IK_IMPORT_TSTART,    /* hrtimer_start: arg expires, id (written only with clock_mono) */
	IK_IMPORT_TCANCEL,   /* hrtimer_cancel: id (likewise) */
	IK_IMPORT_IPI_SEND,  /* ipi_send_cpu / one CPU of ipi_send_cpumask: arg the target CPU */
	IK_IMPORT_IPI_EXIT,  /* the end of an IPI handler (ipi_exit, irq_vectors:*_exit) */
	IK_IMPORT_SOFTIRQ,   /* softirq_entry: arg the vector */
	IK_IMPORT_FREQ,      /* cpu_frequency: cpu the one changed (cpu_id=), arg kHz, arg2
				the CPU that traced it (text import) */
	IK_IMPORT_KINDS
};
struct ik_trace_import_rec {
	int64_t t_ns;
	uint64_t seq; /* set by ik__trace_import_records: the input order */
	int64_t arg;  /* IDLE: the state index, -1 = exit; IRQ: the IRQ number; see the kinds */
	int64_t arg2;
	uint64_t id;  /* TIMER, TICK, TSTART, TCANCEL: the hrtimer's address (0 unknown) */
	int cpu;      /* 0 .. IK_TRACE_MAX_CPUS-1 */
	int kind;     /* enum ik_trace_import_kind */
};

/*
 * Records in any order (v is reordered) to a trace on out, as ik__trace_import_perf does
 * after parsing: a state outside the table is IK_TRACE_EINPUT ("ORIGIN: expected ...")
 * or, lenient, skipped (st->skipped); then sorted by time (stable) and written.  Sets
 * st's cpus, nstates, generic, dropped and written; the rest of st is the caller's.
 */
/*
 * A sched or tick_stop record (kind IK_IMPORT_WAKING, _WAKEUP, _SWITCH or _TICK_STOP, seen
 * on `cpu`) as the trace event it becomes, for import and record alike: a wake-up is a
 * task_wake on the woken task's CPU from the CPU that woke it, and sched_wakeup counts only
 * when the input has no sched_waking (its CPU is not always the waker's); a PID below 0 is
 * written as 0.  Fills ev's kind, cpu, src_cpu, arg, arg2; false when nothing is written.
 */
bool ik__trace_sched_event(int kind, int cpu, int64_t arg, int64_t arg2, bool have_waking,
			  int cpus, struct ik_trace_event *ev);

int ik__trace_import_records(struct ik_trace_import_rec *v, size_t n, const char *origin,
			    FILE *out, const struct ik_trace_import_opts *o,
			    struct ik_trace_import_stats *st, char *err, size_t errlen);

#endif
