/*
 * `idlekit record`'s spool and the trace it becomes (record_spool.h).
 *
 * The spool is the import's per-CPU spill (import_spill.c), one stream per CPU: what one
 * idea needs once, a stream per CPU in a temporary file and a k-way merge of the streams by
 * time at the end, whether the records come from a text trace or from tracefs.  A recording
 * needs no reorder window in front of it, as the text importers do: each CPU's ring buffer
 * gives its events in time order already, and tracefs hands them over per CPU.  The spill
 * breaks ties by seq; a record's seq here is its CPU, so events at one time come out by CPU
 * number, then in their CPU's order, as they did from the per-CPU files record had before.
 *
 * The conversion is import's writer (import_writer.c), so that a recording and an import of
 * the same events give the same trace: cpu_idle(state) -> idle_enter, cpu_idle(-1) ->
 * idle_exit, the period's cause (the first interrupt inside it or right after its exit, or
 * an IPI sent to it while it idled, with its sender) -> wake, hrtimer_start/cancel/
 * expire_entry -> timer_start/cancel/expire with the hrtimer's address as ID, sched_waking
 * -> task_wake on the target CPU from the waking one, sched_switch -> switch, tick_stop ->
 * tick_stop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/import_internal.h"
#include "trace/record_spool.h"
#include "util/errmsg.h"

int ik__record_spool_open(struct ik_record_spool *sp, const char *dir, const char *prefix,
			 int ncpus, char *err, size_t errlen)
{
	memset(sp, 0, sizeof(*sp));
	if (ncpus < 1 || ncpus > IK_TRACE_MAX_CPUS)
		return ik__errmsg(err, errlen, "%d CPUs: expected 1 to %d", ncpus,
				  IK_TRACE_MAX_CPUS);
	sp->ncpus = ncpus;
	return ik__import_spill_init_in(&sp->spill, dir, prefix, err, errlen);
}

int ik__record_spool_add(struct ik_record_spool *sp, const struct ik_trace_import_rec *r)
{
	if (sp->failed)
		return -1;
	struct ik_trace_import_rec x = *r;
	x.seq = (uint64_t)r->cpu; /* ties across CPUs by CPU number */
	errno = 0;
	if (ik__import_spill_add(&sp->spill, r->cpu, &x) != 0) {
		sp->failed = true;
		sp->err = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int ik__record_spool_flush(struct ik_record_spool *sp)
{
	if (!sp->failed && sp->spill.f && (fflush(sp->spill.f) != 0 || ferror(sp->spill.f))) {
		sp->failed = true;
		sp->err = errno ? errno : EIO;
	}
	return sp->failed ? -1 : 0;
}

uint64_t ik__record_spool_events(const struct ik_record_spool *sp)
{
	return sp->spill.records;
}

void ik__record_spool_close(struct ik_record_spool *sp)
{
	ik__import_spill_free(&sp->spill);
	sp->ncpus = 0;
}

int ik__record_spool_write(struct ik_record_spool *sp, FILE *out, const struct ik_trace_header *h,
			  bool have_waking, uint64_t *nev)
{
	struct ik_trace_import_stats st = { 0 };
	struct ik_import_writer w;
	int rc = -1, got;
	if (ik__import_writer_init(&w, out, h->cpus, true, have_waking, &st) != IK_TRACE_OK)
		return -1;
	if (ik__import_spill_merge(&sp->spill) != 0 || ik__trace_write_header(out, h))
		goto out;
	struct ik_trace_import_rec r;
	while ((got = ik__import_spill_next(&sp->spill, &r)) == 1) {
		const struct ik_driver *drv = &h->drivers[h->cpu_driver[r.cpu]].drv;
		if (r.kind == IK_IMPORT_IDLE && r.arg >= drv->state_count)
			continue; /* a state outside the CPU's table: an event lost in between */
		if (r.kind == IK_IMPORT_TSTART && r.arg < 0)
			r.arg = 0;
		if (ik__import_writer_record(&w, &r) != IK_TRACE_OK)
			goto out;
	}
	*nev += st.written;
	rc = ferror(out) || got < 0 ? -1 : 0;
out:
	ik__import_writer_free(&w);
	return rc;
}
