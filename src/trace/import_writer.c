/*
 * Import's writer: records in time order (from perf script, ftrace or trace-cmd text, a
 * trace.dat, or a recording) to idlekit trace events, one CPU's idle periods at a time,
 * each given its wake cause: the first interrupt-like record inside the period, or right
 * after its exit (IK_TRACE_WAKE_AFTER_EXIT_NS, nothing done since).  An IPI sent to the
 * CPU (ipi_send_cpu, or ipi_send_cpumask per target) counts as one such record of the
 * target at the time it was sent, with its sender: most recordings have the sending side
 * only (perf's and trace-cmd's usual events), and the handler's entry, when recorded too,
 * confirms the same sender.  A wake-up traced on the wakee while the period's cause is a
 * known sender's IPI is that sender's (docs/trace-format.md, "Import").  The one rule for
 * every format and for `record` (src/trace/record_spool.c writes through this writer).
 */
#include <stdlib.h>

#include "trace/import.h"
#include "trace/import_internal.h"
#include "util/freep.h"

static int emit(FILE *out, struct ik_trace_import_stats *st, const struct ik_trace_event *ev)
{
	st->written++;
	return ik__trace_write_event(out, ev);
}

int ik__import_writer_init(struct ik_import_writer *w, FILE *out, int cpus, bool timers,
			  bool have_waking, struct ik_trace_import_stats *st)
{
	*w = (struct ik_import_writer){ .out = out, .cpus = cpus, .timers = timers, .have_waking = have_waking,
			      .st = st };
	w->c = malloc((size_t)cpus * sizeof(*w->c));
	if (!w->c)
		return IK_TRACE_EFAIL;
	for (int i = 0; i < cpus; i++)
		w->c[i] = (struct ik_import_wcpu){ .ipi_from = -1, .in_ipi_from = -2,
						   .cause_sender = -1 };
	return IK_TRACE_OK;
}

/* A whole period closed: counted if it has no cause, with what it shows of its wake. */
static void closed(struct ik_trace_import_stats *st, const struct ik_import_wcpu *c)
{
	if (!c->p.want || c->remote || !c->seen_exit)
		return;
	st->no_cause++;
	st->no_cause_wakeup += c->self_wakeup;
}

void ik__import_writer_end(struct ik_import_writer *w)
{
	for (int i = 0; i < w->cpus; i++) {
		const struct ik_import_wcpu *c = &w->c[i];
		w->st->edge_end += c->p.idle; /* still idle at the end: a partial period */
		if (!c->p.idle)
			closed(w->st, c);
	}
}

void ik__import_writer_free(struct ik_import_writer *w)
{
	ik__freep(&w->c);
}

int ik__import_writer_record(struct ik_import_writer *w, const struct ik_trace_import_rec *r)
{
	struct ik_trace_event ev = { .t_ns = r->t_ns, .cpu = r->cpu, .arg = -1 };
	struct ik_import_wcpu *c = &w->c[r->cpu];
	struct ik_trace_import_stats *st = w->st;
	int rc;
	if (r->kind >= 0 && r->kind < (int)(sizeof(st->kinds) / sizeof(st->kinds[0])))
		st->kinds[r->kind]++;
	/* an IPI handler seen without its exit ends after the window */
	if (c->in_ipi_from != -2 && r->t_ns - c->in_ipi_ns > IK_TRACE_WAKE_AFTER_EXIT_NS)
		c->in_ipi_from = -2;
	switch (r->kind) {
	case IK_IMPORT_IDLE:
		if (r->arg < 0 ? !c->p.idle : c->p.idle) {
			/* an exit before any entry: the CPU was idle when the recording began */
			if (r->arg < 0 && !c->seen)
				st->edge_start++;
			else
				st->dropped++; /* an entry or exit lost */
			c->seen = true;
			return IK_TRACE_OK;
		}
		c->seen = true;
		if (r->arg < 0) {
			ev.kind = IK_TRACE_IDLE_EXIT;
			ik__cause_exit(&c->p, r->t_ns);
			c->seen_exit = true;
		} else {
			ev.kind = IK_TRACE_IDLE_ENTER;
			ev.state = (int)r->arg;
			closed(st, c); /* the last period, if it had no cause */
			c->seen_exit = c->remote = c->self_wakeup = false;
			ik__cause_enter(&c->p);
			c->in_ipi_from = -2;
			c->cause_sender = -1;
		}
		return emit(w->out, st, &ev);
	case IK_IMPORT_IPI_SEND:
		ik__cause_did(&c->p);
		if (r->arg >= 0 && r->arg < w->cpus && r->arg != r->cpu) {
			struct ik_import_wcpu *t = &w->c[r->arg];
			t->ipi_from = r->cpu;
			if (ik__cause_takes(&t->p, r->t_ns)) {
				/* sent while the target idled, nothing seen there first: its cause */
				t->p.want = false;
				t->cause_sender = r->cpu;
				ev.cpu = (int)r->arg;
				ev.kind = IK_TRACE_WAKE;
				ev.cause = IK_CAUSE_IPI;
				ev.src_cpu = r->cpu;
				ev.ipi_src = true;
				st->ipi_senders++;
				st->ipi_send_causes++;
				return emit(w->out, st, &ev);
			}
		}
		return IK_TRACE_OK;
	case IK_IMPORT_IPI_EXIT:
		c->in_ipi_from = -2;
		return IK_TRACE_OK;
	case IK_IMPORT_FREQ:
		ev.kind = IK_TRACE_FREQ;
		ev.arg = r->arg;
		return emit(w->out, st, &ev);
	case IK_IMPORT_WAKING:
	case IK_IMPORT_WAKEUP: {
		int src = r->cpu;
		/* traced on the wakee inside the IPI handler of a known sender, or in the period
		   (or the window after it) whose cause is that sender's IPI: the sender's */
		if (r->arg2 == r->cpu && c->in_ipi_from >= 0)
			src = c->in_ipi_from;
		else if (r->arg2 == r->cpu && c->cause_sender >= 0 &&
			 (c->p.idle || (!c->p.busy && r->t_ns - c->p.exit_ns <= IK_TRACE_WAKE_AFTER_EXIT_NS)))
			src = c->cause_sender;
		if (!ik__trace_sched_event(r->kind, src, r->arg, r->arg2, w->have_waking, w->cpus, &ev))
			return IK_TRACE_OK;
		/* the CPU woke a task onto itself at its wake, with no cause seen: the note's */
		if (src == r->cpu && r->arg2 == r->cpu && ik__cause_takes(&c->p, r->t_ns))
			c->self_wakeup = true;
		if (src == r->cpu)
			ik__cause_did(&c->p);
		/* woken from another CPU while idle with no cause yet: analyze's 'remote' */
		if (ev.src_cpu != ev.cpu && ik__cause_takes_remote(&w->c[ev.cpu].p))
			w->c[ev.cpu].remote = true;
		if (w->mark_wakeups && r->kind == IK_IMPORT_WAKEUP) {
			w->marked++;
			if (fputc('~', w->out) == EOF)
				return IK_TRACE_EFAIL;
		}
		return emit(w->out, st, &ev);
	}
	case IK_IMPORT_SWITCH:
	case IK_IMPORT_TICK_STOP:
		if (!ik__trace_sched_event(r->kind, r->cpu, r->arg, r->arg2, w->have_waking, w->cpus, &ev))
			return IK_TRACE_OK;
		ik__cause_did(&c->p);
		return emit(w->out, st, &ev);
	case IK_IMPORT_TSTART:
	case IK_IMPORT_TCANCEL:
		ik__cause_did(&c->p);
		if (!w->timers)
			return IK_TRACE_OK;
		ev.kind = r->kind == IK_IMPORT_TSTART ? IK_TRACE_TIMER_START : IK_TRACE_TIMER_CANCEL;
		ev.arg = r->kind == IK_IMPORT_TSTART ? r->arg : -1;
		ev.timer_id = r->id;
		return emit(w->out, st, &ev);
	default:
		break;
	}
	/* An interrupt: IRQ, IPI, softirq, timer or tick expiry. */
	if (r->kind == IK_IMPORT_IPI) {
		c->in_ipi_from = c->ipi_from;
		c->in_ipi_ns = r->t_ns;
		c->ipi_from = -1;
	}
	if (ik__cause_takes(&c->p, r->t_ns)) {
		c->p.want = false;
		ev.kind = IK_TRACE_WAKE;
		ev.cause = r->kind == IK_IMPORT_IRQ ? IK_CAUSE_IRQ : r->kind == IK_IMPORT_IPI ? IK_CAUSE_IPI :
			   r->kind == IK_IMPORT_SOFTIRQ ? IK_CAUSE_SOFTIRQ :
			   r->kind == IK_IMPORT_TICK ? IK_CAUSE_TICK : IK_CAUSE_TIMER;
		ev.arg = r->kind == IK_IMPORT_IRQ || r->kind == IK_IMPORT_SOFTIRQ ? r->arg : -1;
		if (r->kind == IK_IMPORT_IPI && c->in_ipi_from >= 0) {
			ev.src_cpu = c->in_ipi_from;
			ev.ipi_src = true;
			st->ipi_senders++;
		}
		if ((rc = emit(w->out, st, &ev)) != IK_TRACE_OK)
			return rc;
	} else if (c->p.want && !c->p.idle && (r->kind == IK_IMPORT_TICK || r->kind == IK_IMPORT_TIMER)) {
		st->late_ticks++; /* fired after the exit while the CPU was busy: not the cause */
	}
	/* With timers on the trace's clock, an expiry removes the timer. */
	if (!w->timers || (r->kind != IK_IMPORT_TICK && r->kind != IK_IMPORT_TIMER))
		return IK_TRACE_OK;
	ev = (struct ik_trace_event){ .t_ns = r->t_ns, .cpu = r->cpu, .arg = -1,
				      .kind = IK_TRACE_TIMER_EXPIRE, .timer_id = r->id };
	return emit(w->out, st, &ev);
}

/* The sorted records as trace events. */
