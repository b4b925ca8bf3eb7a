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

#include "trace/import.h"
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
int ik_import_window_init(struct ik_import_window *w, size_t cap);
/*
 * Add r (its seq set here).  When the window is full, the earliest record is let out into
 * *out: returns 1; else 0.  -1 when r is earlier than a record already let out (the input
 * is out of order by more than the window).
 */
int ik_import_window_push(struct ik_import_window *w, const struct ik_trace_import_rec *r,
			  struct ik_trace_import_rec *out);
/* The earliest record held, removed: false when empty. */
bool ik_import_window_pop(struct ik_import_window *w, struct ik_trace_import_rec *out);
void ik_import_window_free(struct ik_import_window *w);

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
int ik_import_spill_init(struct ik_import_spill *s);
void ik_import_spill_free(struct ik_import_spill *s);
/* Would a record of key at t_ns be before one already added for it?  (*last_ns: that one) */
bool ik_import_spill_late(const struct ik_import_spill *s, int key, int64_t t_ns,
			  int64_t *last_ns);
/* Add r to key's stream (never late: see above).  -1 on a write failure or out of memory. */
int ik_import_spill_add(struct ik_import_spill *s, int key, const struct ik_trace_import_rec *r);
/* Start the merge (no more adds); -1 on failure. */
int ik_import_spill_merge(struct ik_import_spill *s);
/* The next record by time: 1, 0 at the end, -1 if a read failed. */
int ik_import_spill_next(struct ik_import_spill *s, struct ik_trace_import_rec *out);
/*
 * ik_import_spill_init with the chunks' file made now in `dir` (PREFIX-XXXXXX, unlinked at
 * once) rather than tmpfile() at the first chunk (import_spill_file.c).  0, or -1 with a
 * message (nothing to free).
 */
int ik_import_spill_init_in(struct ik_import_spill *s, const char *dir, const char *prefix,
			    char *err, size_t errlen);

#endif
