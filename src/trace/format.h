/*
 * idlekit: idle traces (docs/trace-format.md): the format, its reader and writer.
 *
 * A trace is idlekit's own line-oriented text format: a header describing the machine (HZ,
 * the number of CPUs, each driver's idle-state table and its CPUs) then one event per line
 * (idle entry and exit, wake-ups and their cause, timers started, cancelled, expired), with
 * non-decreasing timestamps.  The reader streams: it holds one read buffer and the header,
 * whatever the length of the trace.  The writer produces the same format.  The code is
 * format.c, and generate.c for the synthetic trace.
 *
 * On top of it: trace/analyze.h, trace/replay.h, trace/import.h and trace/learn.h.  No
 * global state; every time is in nanoseconds.
 */
#ifndef IDLEKIT_TRACE_FORMAT_H
#define IDLEKIT_TRACE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/wake_cause.h"
#include "idlekit/cpuidle.h"

#define IK_TRACE_VERSION 1
#define IK_TRACE_MINOR 1 /* 1.1: task_wake, switch, tick_stop (a "1" trace has none of them) */
#define IK_TRACE_MAX_CPUS 8192
#define IK_TRACE_MAX_DRIVERS 8
#define IK_TRACE_MAX_TIMERS 16 /* pending timers per CPU the reader tracks */
#define IK_TRACE_LINE_MAX 4096 /* longest line */
#define IK_TRACE_IRQ_NAME_LEN 32 /* an IRQ's name, NUL included */
#define IK_TRACE_MAX_IRQ_NAMES 4096

enum ik_trace_kind {
	IK_TRACE_IDLE_ENTER,
	IK_TRACE_IDLE_EXIT,
	IK_TRACE_WAKE,
	IK_TRACE_TIMER_START,
	IK_TRACE_TIMER_CANCEL,
	IK_TRACE_TIMER_EXPIRE,
	/* Format 1.1 */
	IK_TRACE_TASK_WAKE, /* a task woken to run on cpu, by src_cpu (sched_waking) */
	IK_TRACE_SWITCH,    /* sched_switch on cpu: arg the previous PID, arg2 the next (0 = idle) */
	IK_TRACE_TICK_STOP, /* timer:tick_stop on cpu: arg 1 if the tick was stopped, 0 if not */
	IK_TRACE_FREQ,      /* power:cpu_frequency of cpu: arg the new frequency in kHz (1.1) */
};

struct ik_trace_event {
	int64_t t_ns;
	int cpu;
	enum ik_trace_kind kind;
	int state;                 /* idle_enter: the state index in the CPU's driver table */
	enum ik_trace_cause cause; /* wake */
	int64_t arg;               /* wake irq: the IRQ number (-1 = none); wake softirq: the
				      vector (-1 = none); timer_start: expires;
				      task_wake: the PID (-1 = none); switch: the previous PID;
				      tick_stop: 1 stopped, 0 not */
	int64_t arg2;              /* switch: the next PID */
	int src_cpu;               /* task_wake: the waking CPU; wake ipi: the sender if ipi_src */
	bool ipi_src;              /* wake ipi: src_cpu is its sender (format 1.1) */
	uint64_t timer_id;         /* timer_*: the optional ID (0 if absent) */
};

struct ik_trace_driver {
	struct ik_driver drv; /* the table, normalised by ik_driver_init */
	int first_cpu, ncpus; /* informational */
};

/* The header. */
#define IK_TRACE_MAX_PARAMS 8
#define IK_TRACE_PARAM_KEY_LEN 40
struct ik_trace_param {
	char key[IK_TRACE_PARAM_KEY_LEN];
	uint64_t value;
};

struct ik_trace_header {
	int version;
	int minor; /* 0: "idlekit-trace 1"; 1: "idlekit-trace 1.1" (task_wake, switch, tick_stop) */
	int hz;
	int cpus;
	/* 1.1, optional: the governor that ran ("" if not said) and its module parameters */
	char governor[IK_NAME_LEN];
	int nparams;
	struct ik_trace_param params[IK_TRACE_MAX_PARAMS];
	int ndrivers;
	struct ik_trace_driver drivers[IK_TRACE_MAX_DRIVERS];
	uint8_t *cpu_driver; /* cpus entries: the driver index of each CPU */
	/* 1.1, optional ('cpu CPU PACKAGE CORE' lines): cpus entries, -1 where not said; NULL
	   when the trace says nothing of its topology */
	struct ik_trace_cpu_topo {
		int32_t package, core;
	} *topo;
	/* 1.1, optional ('irq N NAME' lines): the names of the IRQs the wake events give */
	int nirqs;
	struct ik_trace_irq_name {
		int32_t irq;
		char name[IK_TRACE_IRQ_NAME_LEN];
	} *irqs; /* by increasing irq */
};

/* Whether a text line says nothing: blanks (' ', '\t', '\r') only, or a '#' comment after them. */
static inline bool ik__trace_line_empty(const char *l, size_t len)
{
	size_t i = 0;
	while (i < len && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r'))
		i++;
	return i == len || l[i] == '#';
}

/* The most states any of the header's drivers has. */
int ik__trace_max_states(const struct ik_trace_header *h);
/* The name of IRQ irq from the header's 'irq' lines, or NULL. */
const char *ik__trace_irq_name(const struct ik_trace_header *h, int64_t irq);
/* Add (or rename) IRQ irq's name in h (kept sorted; a byte that is not printable ASCII or
   is a blank becomes '_', at most IK_TRACE_IRQ_NAME_LEN - 1 bytes kept); 0, or -1 (an
   empty name, out of memory, too many). */
int ik__trace_irq_name_set(struct ik_trace_header *h, int64_t irq, const char *name, size_t len);

/* Return codes. */
enum {
	IK_TRACE_OK = 0,
	IK_TRACE_EOF = 1,     /* ik__trace_next: no more events */
	IK_TRACE_EFAIL = -1,  /* out of memory, read/write failed */
	IK_TRACE_EINPUT = -2, /* bad input: "ORIGIN:LINE: expected ..., got ..." */
};

struct ik_trace_reader;

/*
 * Open a reader on a FILE (read in chunks) or on a buffer in memory (not copied; it must
 * outlive the reader).  The header is read at once.  lenient: a bad event line is skipped
 * and counted instead of stopping the read (a bad header is always an error).
 * Returns IK_TRACE_OK with *out set, or an error with a message in err.
 */
int ik__trace_open_file(FILE *in, const char *origin, bool lenient, struct ik_trace_reader **out,
		       char *err, size_t errlen);
int ik__trace_open_mem(const char *data, size_t len, const char *origin, bool lenient,
		      struct ik_trace_reader **out, char *err, size_t errlen);
const struct ik_trace_header *ik__trace_header(const struct ik_trace_reader *r);
/* The next event: IK_TRACE_OK, IK_TRACE_EOF, or an error with a message. */
int ik__trace_next(struct ik_trace_reader *r, struct ik_trace_event *ev, char *err,
		  size_t errlen);
uint64_t ik__trace_events_read(const struct ik_trace_reader *r);
uint64_t ik__trace_skipped(const struct ik_trace_reader *r); /* lenient: bad lines skipped */
/* With lenient, the message of the first bad line skipped ("" if none). */
const char *ik__trace_first_skip(const struct ik_trace_reader *r);
void ik__trace_close(struct ik_trace_reader *r);

/* The writer: a header then events, checked as the reader checks them. */
int ik__trace_write_header(FILE *out, const struct ik_trace_header *h);
int ik__trace_write_event(FILE *out, const struct ik_trace_event *ev);

/* "timer", "tick", "ipi", "irq", "unknown", "remote", "softirq", "none". */
const char *ik__trace_cause_name(enum ik_trace_cause c);

/* A header with one driver for all CPUs (cpu_driver allocated); free with ..._free. */
int ik__trace_header_init(struct ik_trace_header *h, int hz, int cpus, const struct ik_driver *drv);
void ik__trace_header_free(struct ik_trace_header *h);

/*
 * A synthetic trace for tests and benchmarks (src/trace/generate.c): the header, then about
 * `events` events over h's CPUs, deterministic for a seed.  Each CPU in turn either arms a
 * timer and enters a state (chosen at random among its table) or is woken (a timer when its
 * timer is due, else tick, ipi or irq) and exits; the clock advances 1..4000 ns per event.
 */
int ik__trace_generate(FILE *out, const struct ik_trace_header *h, uint64_t events, uint64_t seed);

#endif
