/*
 * Import, internal: the bounded reorder window the text importers stream their records
 * through (src/trace/import_window.c).  Not part of the public API.
 */
#ifndef IDLEKIT_TRACE_IMPORT_INTERNAL_H
#define IDLEKIT_TRACE_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/cause_rule.h"
#include "trace/import.h"
#include "util/cpuset.h"
#include "util/heap.h"

/* Records held to put a text trace back in time order: enough for perf's and ftrace's
   per-CPU buffers flushed in rounds, a few MB whatever the input's length. */
#define IK_IMPORT_WINDOW 65536

/* At most cap records: a run in arrival order (a ring) and a min-heap of stragglers. */
struct ik_import_window {
	struct ik_trace_import_rec *v; /* the run: n records from head */
	struct ik_heap heap;           /* the stragglers, struct ik_trace_import_rec */
	size_t n, head, cap;
	uint64_t seq;
	int64_t last_out_ns; /* the latest record let out */
	bool any_out;
	bool any_order; /* no -1: records let out go to the spill, which checks per CPU */
};

/* cap is rounded up to a power of two. */
int ik__import_window_init(struct ik_import_window *w, size_t cap);
/*
 * Add r (its seq set here).  When the window is full, the earliest record is let out into
 * *out: returns 1; else 0.  -1 when r is earlier than a record already let out (the input
 * is out of order by more than the window).
 */
int ik__import_window_push(struct ik_import_window *w, const struct ik_trace_import_rec *r,
			  struct ik_trace_import_rec *out);
/* The earliest record held, removed: false when empty. */
bool ik__import_window_pop(struct ik_import_window *w, struct ik_trace_import_rec *out);
void ik__import_window_free(struct ik_import_window *w);

/*
 * The per-CPU spill (import_spill.c): records let out of the window, one time-ordered
 * stream per key (the CPU that traced them), merged by time (then seq) at the end.
 */
struct spill_cpu;
struct ik_import_spill {
	struct spill_cpu *cpu; /* IK_TRACE_MAX_CPUS of them */
	FILE *f;               /* the chunks, a temporary file (made at the first chunk) */
	long end;
	uint64_t records;
	struct ik_heap heap; /* merging: the keys (int) with records left, by their next one */
	bool read_failed;
};
int ik__import_spill_init(struct ik_import_spill *s);
void ik__import_spill_free(struct ik_import_spill *s);
/* Would a record of key at t_ns be before one already added for it?  (*last_ns: that one) */
bool ik__import_spill_late(const struct ik_import_spill *s, int key, int64_t t_ns,
			  int64_t *last_ns);
/* Add r to key's stream (never late: see above).  -1 on a write failure or out of memory. */
int ik__import_spill_add(struct ik_import_spill *s, int key, const struct ik_trace_import_rec *r);
/* Start the merge (no more adds); -1 on failure. */
int ik__import_spill_merge(struct ik_import_spill *s);
/* The next record by time: 1, 0 at the end, -1 if a read failed. */
int ik__import_spill_next(struct ik_import_spill *s, struct ik_trace_import_rec *out);
/*
 * ik__import_spill_init with the chunks' file made now in `dir` (PREFIX-XXXXXX, unlinked at
 * once) rather than tmpfile() at the first chunk (import_spill_file.c).  0, or -1 with a
 * message (nothing to free).
 */
int ik__import_spill_init_in(struct ik_import_spill *s, const char *dir, const char *prefix,
			    char *err, size_t errlen);

/*
 * import_writer.c: records in time order to trace events, with each idle period's wake
 * cause (docs/trace-format.md, "Import"): the one rule that the text, binary and record
 * paths of import share.
 */
/*
 * Records in time order to trace events (src/trace/import_perf.c's rules, docs/trace-
 * format.md "Import"): per CPU, whether it is idle, whether its period still wants a cause,
 * when it exited and whether it did anything since, and the IPIs sent to it.
 */
struct ik_import_wcpu {
	struct ik_cause_period p; /* the period and the rule (trace/cause_rule.h) */
	bool seen;          /* a cpu_idle has been */
	bool seen_exit;     /* the period's exit was seen (it is a whole period) */
	bool remote;        /* a task was woken onto it from another CPU while idle: analyze's
			       cause 'remote' when nothing came first */
	int ipi_from;       /* the sender of the last IPI sent to it, not yet received (-1) */
	int in_ipi_from;    /* in an IPI handler: its sender (-1 unknown); -2 not in one */
	int64_t in_ipi_ns;  /* when that handler started */
	int cause_sender;   /* the period's cause was an IPI from this CPU (-1: not one) */
	/* A period with no cause yet at whose wake the CPU woke a task onto itself, nothing
	   before it (the wake-up an IPI from another CPU carries): import's note counts it */
	bool self_wakeup;
};

struct ik_import_writer {
	FILE *out;
	int cpus;
	bool timers, have_waking;
	bool mark_wakeups;  /* streaming: sched_wakeup lines marked '~' (kept or dropped at the
			       end, once it is known whether the input has sched_waking) */
	uint64_t marked;
	struct ik_trace_import_stats *st;
	struct ik_import_wcpu *c;
};
int ik__import_writer_init(struct ik_import_writer *w, FILE *out, int cpus, bool timers,
			  bool have_waking, struct ik_trace_import_stats *st);
/* At the end: the periods still open (st->edge_end) and the last ones with no cause. */
void ik__import_writer_end(struct ik_import_writer *w);
void ik__import_writer_free(struct ik_import_writer *w);
/* One record: the events it makes written to w->out.  IK_TRACE_OK or an error code. */
int ik__import_writer_record(struct ik_import_writer *w, const struct ik_trace_import_rec *r);

/* import_text_line.c: what the text parser keeps from line to line. */
struct ik_import_text_ctx {
	bool bare_names;              /* events may be "NAME:" (ftrace, trace-cmd report) */
	struct ik_cpuset mask;        /* ipi_send_cpumask: the targets (r->arg = -2) */
	struct ik_trace_header names; /* IRQ names seen (nirqs, irqs) */
	bool names_full;
};
/*
 * One line: 0 with *r filled, 1 for an event of another kind, -1 if an event line is bad
 * (its event or a field: message in why), IK_IMPORT_NOT_EVENT if the line has no
 * "[CPU] TIME:" stamp at all (message in why too: in a text's header that is a header
 * line, elsewhere an error).  maxstate: the largest state index accepted.
 */
#define IK_IMPORT_NOT_EVENT (-2)
int ik__import_text_line(struct ik_import_text_ctx *px, const char *l, size_t len, int maxstate,
			struct ik_trace_import_rec *r, char *why, size_t whylen);

#endif
