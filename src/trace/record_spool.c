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
 * The conversion: cpu_idle(state) -> idle_enter, cpu_idle(-1) -> idle_exit, the first
 * interrupt of an idle period -> wake (irq N, ipi, tick or timer), hrtimer_start/cancel/
 * expire_entry -> timer_start/cancel/expire with the hrtimer's address as ID, sched_waking
 * -> task_wake on the target CPU from the waking one, sched_switch -> switch, tick_stop ->
 * tick_stop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/record_spool.h"

int ik_record_spool_open(struct ik_record_spool *sp, const char *dir, const char *prefix,
			 int ncpus, char *err, size_t errlen)
{
	memset(sp, 0, sizeof(*sp));
	if (ncpus < 1 || ncpus > IK_TRACE_MAX_CPUS) {
		snprintf(err, errlen, "%d CPUs: expected 1 to %d", ncpus, IK_TRACE_MAX_CPUS);
		return -1;
	}
	sp->ncpus = ncpus;
	return ik_import_spill_init_in(&sp->spill, dir, prefix, err, errlen);
}

int ik_record_spool_add(struct ik_record_spool *sp, const struct ik_trace_import_rec *r)
{
	if (sp->failed)
		return -1;
	struct ik_trace_import_rec x = *r;
	x.seq = (uint64_t)r->cpu; /* ties across CPUs by CPU number */
	errno = 0;
	if (ik_import_spill_add(&sp->spill, r->cpu, &x) != 0) {
		sp->failed = true;
		sp->err = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

int ik_record_spool_flush(struct ik_record_spool *sp)
{
	if (!sp->failed && sp->spill.f && (fflush(sp->spill.f) != 0 || ferror(sp->spill.f))) {
		sp->failed = true;
		sp->err = errno ? errno : EIO;
	}
	return sp->failed ? -1 : 0;
}

uint64_t ik_record_spool_events(const struct ik_record_spool *sp)
{
	return sp->spill.records;
}

void ik_record_spool_close(struct ik_record_spool *sp)
{
	ik_import_spill_free(&sp->spill);
	sp->ncpus = 0;
}

int ik_record_spool_write(struct ik_record_spool *sp, FILE *out, const struct ik_trace_header *h,
			  bool have_waking, uint64_t *nev)
{
	uint8_t *idle = calloc((size_t)h->cpus, 1), *woke = calloc((size_t)h->cpus, 1);
	int rc = -1, got;
	if (!idle || !woke || ik_import_spill_merge(&sp->spill) != 0)
		goto out;
	if (ik_trace_write_header(out, h))
		goto out;
	struct ik_trace_import_rec rr;
	const struct ik_trace_import_rec *r = &rr;
	while ((got = ik_import_spill_next(&sp->spill, &rr)) == 1) {
		struct ik_trace_event ev = { .t_ns = r->t_ns, .cpu = r->cpu, .arg = -1 };
		const struct ik_driver *drv = &h->drivers[h->cpu_driver[r->cpu]].drv;
		switch (r->kind) {
		case IK_IMPORT_IDLE:
			if (r->arg < 0) {
				if (!idle[r->cpu])
					continue; /* an exit whose entry was before the recording */
				ev.kind = IK_TRACE_IDLE_EXIT;
				idle[r->cpu] = 0;
			} else {
				if (idle[r->cpu] || r->arg >= drv->state_count)
					continue; /* an event lost in between */
				ev.kind = IK_TRACE_IDLE_ENTER;
				ev.state = (int)r->arg;
				idle[r->cpu] = 1;
				woke[r->cpu] = 0;
			}
			break;
		case IK_IMPORT_IRQ:
		case IK_IMPORT_IPI:
			if (!idle[r->cpu] || woke[r->cpu])
				continue;
			ev.kind = IK_TRACE_WAKE;
			ev.cause = r->kind == IK_IMPORT_IPI ? IK_CAUSE_IPI : IK_CAUSE_IRQ;
			ev.arg = r->kind == IK_IMPORT_IRQ ? r->arg : -1;
			woke[r->cpu] = 1;
			break;
		case IK_IMPORT_TSTART:
			ev.kind = IK_TRACE_TIMER_START;
			ev.arg = r->arg < 0 ? 0 : r->arg;
			ev.timer_id = r->id;
			break;
		case IK_IMPORT_TCANCEL:
			ev.kind = IK_TRACE_TIMER_CANCEL;
			ev.timer_id = r->id;
			break;
		case IK_IMPORT_TIMER:
		case IK_IMPORT_TICK:
			if (idle[r->cpu] && !woke[r->cpu]) {
				struct ik_trace_event w = ev;
				w.kind = IK_TRACE_WAKE;
				w.cause = r->kind == IK_IMPORT_TICK ? IK_CAUSE_TICK : IK_CAUSE_TIMER;
				woke[r->cpu] = 1;
				if (ik_trace_write_event(out, &w))
					goto out;
				(*nev)++;
			}
			ev.kind = IK_TRACE_TIMER_EXPIRE;
			ev.timer_id = r->id;
			break;
		case IK_IMPORT_WAKING:
		case IK_IMPORT_WAKEUP:
		case IK_IMPORT_SWITCH:
		case IK_IMPORT_TICK_STOP:
			if (!ik_trace_sched_event(r->kind, r->cpu, r->arg, r->arg2, have_waking, h->cpus,
						  &ev))
				continue;
			break;
		default:
			continue;
		}
		if (ik_trace_write_event(out, &ev))
			goto out;
		(*nev)++;
	}
	rc = ferror(out) || got < 0 ? -1 : 0;
out:
	free(idle);
	free(woke);
	return rc;
}
