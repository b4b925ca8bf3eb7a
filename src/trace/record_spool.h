/*
 * The trace-format half of `idlekit record` (src/trace/record_spool.c): the kernel's events
 * as a recording collects them, spooled to a temporary file and, at the end, merged by time
 * and converted into idlekit's trace.  The machine's half (tracefs, sysfs) is
 * src/host/record_tracefs.c.  Internal: not part of the public API.
 */
#ifndef IDLEKIT_TRACE_RECORD_SPOOL_H
#define IDLEKIT_TRACE_RECORD_SPOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/import.h"
#include "trace/import_internal.h"

/*
 * One stream per CPU in the import's spill (import_spill.c).  A record is an
 * ik_trace_import_rec of kind IK_IMPORT_IDLE (arg the state, -1 an exit), _IRQ (arg the
 * IRQ), _IPI, _TSTART (arg expires, id the hrtimer), _TCANCEL (id), _TIMER or _TICK (an
 * hrtimer's expiry, id; _TICK when it is the tick's), _WAKING/_WAKEUP (arg the PID, arg2
 * the target CPU), _SWITCH (arg the previous PID, arg2 the next) or _TICK_STOP (arg
 * success).
 */
struct ik_record_spool {
	struct ik_import_spill spill;
	int ncpus;
	bool failed; /* a write failed (err its errno): the recording is lost */
	int err;
};

/*
 * An empty spool for CPUs 0..ncpus-1, its file in `dir` (beside the output, where there is
 * room for it), named PREFIX-XXXXXX and unlinked at once.  0, or -1 with a message.
 */
int ik__record_spool_open(struct ik_record_spool *sp, const char *dir, const char *prefix,
			 int ncpus, char *err, size_t errlen);
/* Add r (r->cpu below ncpus, each CPU's records in time order).  -1 once a write failed. */
int ik__record_spool_add(struct ik_record_spool *sp, const struct ik_trace_import_rec *r);
/* After a batch of adds: what is written reaches the file, so a full disk shows now. */
int ik__record_spool_flush(struct ik_record_spool *sp);
/* The kernel events spooled. */
uint64_t ik__record_spool_events(const struct ik_record_spool *sp);
/*
 * The trace: header h, then the records merged by time and converted (docs/trace-format.md
 * "idlekit record"); *nev = the events written.  have_waking: the recording had sched_waking
 * (without it sched_wakeup stands in).  0, or -1 when reading the spool or writing failed.
 */
int ik__record_spool_write(struct ik_record_spool *sp, FILE *out, const struct ik_trace_header *h,
			  bool have_waking, uint64_t *nev);
void ik__record_spool_close(struct ik_record_spool *sp);

#endif
