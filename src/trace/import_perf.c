/*
 * Import of `perf script` text into idlekit's trace format (docs/trace-format.md, "Import").
 *
 * perf script prints one event per line in its default layout
 *
 *     COMM  PID [CPU] SECONDS.FRACTION:  SYS:EVENT: FIELDS
 *
 * (FRACTION has 6 digits, 9 with --ns; COMM may contain blanks, so the line is anchored on
 * the first "[CPU]" followed by a timestamp).  The events used:
 *
 *   power:cpu_idle state=N                 idle_enter N (4294967295 or -1: idle_exit)
 *   irq:irq_handler_entry irq=N            wake irq N  } the first of an idle period
 *   irq_vectors:reschedule_entry, call_function_entry, call_function_single_entry,
 *   ipi:ipi_entry                          wake ipi    }
 *   timer:hrtimer_expire_entry function=F  wake tick (F tick_nohz_handler, tick_sched_timer;
 *                                          with trace-cmd's "/0xSIZE" or "+0x0" after it)
 *                                          or wake timer
 *
 *   sched:sched_waking pid=P target_cpu=C  task_wake SRC P on CPU C (SRC: the CPU it was
 *                                          traced on); sched_wakeup the same, only if the
 *                                          input has no sched_waking (format 1.1)
 *   sched:sched_switch prev_pid= next_pid= switch PREV NEXT (1.1)
 *   (trace-cmd report's sched plugin: "COMM:PID [PRIO] CPU:C" and "PREV:PID [PRIO] S ==>
 *   NEXT:PID [PRIO]", the same)
 *   timer:tick_stop success=S              tick_stop S (1.1)
 *   timer:hrtimer_start/_cancel, and the expiry's hrtimer=
 *                                          timer_start/_cancel/_expire, only with
 *                                          clock_mono (perf record -k mono)
 *
 * perf's default clock is not the hrtimers' CLOCK_MONOTONIC, so an expiry time cannot be
 * placed on the trace's time line unless perf recorded with -k mono: then clock_mono says
 * so, and it is checked (ik__trace_clock_mono: every tick expiry's now= within a tolerance
 * derived from the offsets' spread).  Without it hrtimer_start/cancel are ignored and
 * counted, and the same check tells the caller whether the input looks like -k mono.  perf script has
 * no state table: the caller gives one, or a generic one is made.  The whole input is read,
 * sorted by time (stable) and then written, so a bad input writes nothing.
 *
 * This file: reading the input (lines, the reorder window, the spill), and the whole
 * import; one line's grammar is import_text_line.c, records to events import_writer.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analyze.h"
#include "trace/import.h"
#include "trace/import_internal.h"
#include "util/cpuset.h"

#define LINE_LIMIT (1u << 16)

struct plist {
	struct ik_trace_import_rec *v;
	size_t n, cap;
};

static int by_time(const void *a, const void *b)
{
	const struct ik_trace_import_rec *x = a, *y = b;
	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The stream a text record spills to: the CPU that traced it (import_spill.c). */
static int stream_of(const struct ik_trace_import_rec *r)
{
	return r->kind == IK_IMPORT_FREQ ? (int)r->arg2 : r->cpu;
}

static int write_events(FILE *out, const struct plist *pl, int cpus, bool timers,
			bool have_waking, struct ik_trace_import_stats *st)
{
	struct ik_import_writer w;
	int rc = ik__import_writer_init(&w, out, cpus, timers, have_waking, st);
	for (size_t i = 0; i < pl->n && rc == IK_TRACE_OK; i++)
		rc = ik__import_writer_record(&w, &pl->v[i]);
	if (rc == IK_TRACE_OK)
		ik__import_writer_end(&w);
	ik__import_writer_free(&w);
	return rc;
}

/* ---- Streaming: lines in, records through the reorder window, events to a spool -------- */

#define READ_CHUNK (1u << 20)

struct line_reader {
	FILE *in;
	char *buf;
	size_t len, pos; /* valid bytes, next unread */
	bool eof;
};

/* The next line without its '\n' (NULL at the end); *toolong when over LINE_LIMIT. */
static const char *read_line(struct line_reader *lr, size_t *len, bool *toolong, int *rc)
{
	*toolong = false;
	*rc = 0;
	for (;;) {
		const char *start = lr->buf + lr->pos;
		size_t avail = lr->len - lr->pos;
		const char *nl = memchr(start, '\n', avail);
		if (nl) {
			*len = (size_t)(nl - start);
			lr->pos += *len + 1;
			*toolong = *len >= LINE_LIMIT;
			return start;
		}
		if (lr->eof) {
			if (avail == 0)
				return NULL;
			*len = avail;
			lr->pos = lr->len;
			*toolong = *len >= LINE_LIMIT;
			return start;
		}
		if (avail >= LINE_LIMIT) { /* no end within the limit: skip to the next '\n' */
			*toolong = true;
			*len = 0;
			for (;;) {
				size_t got = fread(lr->buf, 1, READ_CHUNK, lr->in);
				lr->pos = 0;
				lr->len = got;
				if (got == 0) {
					lr->eof = true;
					if (ferror(lr->in))
						*rc = -1;
					return lr->buf;
				}
				const char *e = memchr(lr->buf, '\n', got);
				if (e) {
					lr->pos = (size_t)(e - lr->buf) + 1;
					return lr->buf;
				}
			}
		}
		memmove(lr->buf, start, avail);
		lr->len = avail;
		lr->pos = 0;
		size_t got = fread(lr->buf + avail, 1, READ_CHUNK, lr->in);
		lr->len += got;
		if (got == 0) {
			lr->eof = true;
			if (ferror(lr->in)) {
				*rc = -1;
				return NULL;
			}
		}
	}
}

/* trace_pipe's "CPU:N [LOST M EVENTS]" */
static bool has_lost(const char *l, size_t len)
{
	for (size_t i = 0; i + 6 <= len; i++)
		if (l[i] == '[' && memcmp(l + i, "[LOST ", 6) == 0)
			return true;
	return false;
}

/* The spool (events as written) after the header, sched_wakeup lines kept or dropped. */
static int copy_spool(FILE *spool, FILE *out, bool drop_marked, uint64_t marked,
		      struct ik_trace_import_stats *st)
{
	char buf[1 << 16];
	size_t n;
	if (fflush(spool) || fseek(spool, 0, SEEK_SET))
		return IK_TRACE_EFAIL;
	if (!marked) {
		while ((n = fread(buf, 1, sizeof(buf), spool)) > 0)
			if (fwrite(buf, 1, n, out) != n)
				return IK_TRACE_EFAIL;
		return ferror(spool) ? IK_TRACE_EFAIL : IK_TRACE_OK;
	}
	char line[IK_TRACE_LINE_MAX];
	while (fgets(line, sizeof(line), spool)) {
		if (line[0] == '~') {
			if (drop_marked) {
				st->written--;
				continue;
			}
			fputs(line + 1, out);
		} else {
			fputs(line, out);
		}
	}
	return ferror(spool) || ferror(out) ? IK_TRACE_EFAIL : IK_TRACE_OK;
}

/*
 * The header's state table: the given one, or (none given) the generic state0..stateN-1
 * with N = the deepest state seen + 1 (st->generic set); names made one word (blanks '_')
 * as the format wants.  st->nstates set.  -1 (message in err) if the table is refused.
 */
static int header_table(const struct ik_driver *given, int maxstate, struct ik_driver *tab,
			struct ik_trace_import_stats *st, char *err, size_t errlen)
{
	if (given) {
		*tab = *given;
	} else {
		memset(tab, 0, sizeof(*tab));
		snprintf(tab->name, sizeof(tab->name), "generic");
		tab->state_count = maxstate + 1 > 0 ? maxstate + 1 : 1;
		for (int s = 0; s < tab->state_count; s++) {
			/* s < IK_STATE_MAX: the modulo only tells the compiler so */
			snprintf(tab->states[s].name, sizeof(tab->states[s].name), "state%d",
				 s % IK_STATE_MAX);
			tab->states[s].power_usage = -1;
		}
		if (ik_driver_init(tab, err, errlen))
			return -1;
		st->generic = true;
	}
	for (int s = 0; s < tab->state_count; s++)
		for (char *c = tab->states[s].name; *c; c++)
			if (*c == ' ' || *c == '\t')
				*c = '_';
	st->nstates = tab->state_count;
	return 0;
}

/* How to record what the importer needs, per format. */
static const char *const text_how[] = {
	[IK_TEXT_PERF_SCRIPT] = "perf record -e power:cpu_idle -a",
	[IK_TEXT_FTRACE] = "echo 1 > /sys/kernel/tracing/events/power/cpu_idle/enable",
	[IK_TEXT_TRACE_CMD_REPORT] = "trace-cmd record -e power:cpu_idle",
};

int ik__trace_import_perf(FILE *in, const char *origin, FILE *out,
			 const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st,
			 char *err, size_t errlen)
{
	return ik__trace_import_text(in, origin, IK_TEXT_PERF_SCRIPT, out, o, st, err, errlen);
}

int ik__trace_import_text(FILE *in, const char *origin, enum ik_trace_text_format fmt, FILE *out,
			 const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st,
			 char *err, size_t errlen)
{
	int rc = IK_TRACE_EINPUT;
	int limit = o->drv ? o->drv->state_count - 1 : IK_STATE_MAX - 1;
	int maxcpu = -1, maxstate = -1;
	bool any_idle = false, v11 = false, have_waking = false, in_header = fmt != IK_TEXT_PERF_SCRIPT;
	char why[200];
	struct ik_import_window win = { 0 };
	struct ik_import_spill sp = { 0 };
	bool spilling = false;
	struct ik_import_writer w = { 0 };
	struct line_reader lr = { .in = in };
	FILE *spool = NULL;

	memset(st, 0, sizeof(*st));
	if ((unsigned)fmt > IK_TEXT_TRACE_CMD_REPORT) {
		snprintf(err, errlen, "%s: unknown text format %d", origin, (int)fmt);
		return IK_TRACE_EFAIL;
	}
	if (o->drv && (o->drv->state_count < 1 || o->drv->state_count > IK_STATE_MAX)) {
		snprintf(err, errlen, "%s: the state table has %d states, expected 1..%d", origin,
			 o->drv->state_count, IK_STATE_MAX);
		return IK_TRACE_EFAIL;
	}
	struct ik_import_text_ctx *px = calloc(1, sizeof(*px));
	lr.buf = malloc(READ_CHUNK + LINE_LIMIT + 1);
	spool = tmpfile();
	if (!px || !lr.buf || !spool || ik__import_window_init(&win, IK_IMPORT_WINDOW) ||
	    ik__import_writer_init(&w, spool, IK_TRACE_MAX_CPUS, o->clock_mono, false, st)) {
		snprintf(err, errlen, spool ? "out of memory" : "cannot create a temporary file");
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	px->bare_names = fmt != IK_TEXT_PERF_SCRIPT;
	win.any_order = true; /* the spill checks each CPU's order */
	w.mark_wakeups = true;
	const char *l;
	size_t len;
	bool toolong;
	int rrc;
	while ((l = read_line(&lr, &len, &toolong, &rrc)) != NULL) {
		st->lines++;
		if (len && l[len - 1] == '\r')
			len--;
		if (ik__trace_line_empty(l, len))
			continue;
		struct ik_trace_import_rec r = { 0 };
		int prc;
		if (toolong) {
			snprintf(why, sizeof(why), "expected a line shorter than %u bytes, got one longer",
				 LINE_LIMIT);
			prc = -1;
		} else {
			prc = ik__import_text_line(px, l, len, limit, &r, why, sizeof(why));
		}
		/* (only a line that is no event line: one refused for a field is refused) */
		if (prc == IK_IMPORT_NOT_EVENT && fmt != IK_TEXT_PERF_SCRIPT && len > 6 && has_lost(l, len)) {
			st->lost++; /* trace_pipe: "CPU:N [LOST M EVENTS]" */
			continue;
		}
		if (prc == IK_IMPORT_NOT_EVENT && in_header) {
			/* trace-cmd report's "cpus=N", "version = 6".  Only a line with no event
			   stamp: an event line refused for a field (a state deeper than the table's)
			   is as bad before the first good one as after it. */
			st->header_lines++;
			continue;
		}
		if (prc < 0) {
			if (!o->lenient) {
				snprintf(err, errlen, "%s:%" PRIu64 ": %s", origin, st->lines, why);
				goto out;
			}
			if (st->skipped++ == 0)
				snprintf(st->first_skip, sizeof(st->first_skip), "%s:%" PRIu64 ": %s",
					 origin, st->lines, why);
			continue;
		}
		in_header = false;
		if (prc > 0) {
			st->ignored++;
			continue;
		}
		if (r.kind == IK_IMPORT_TICK && r.arg2 >= 0)
			/* The tick's hrtimer is on CLOCK_MONOTONIC: its now= is the event's time on
			   that clock; checked at the end (ik__trace_clock_mono). */
			ik__trace_clock_add(&st->clock, r.t_ns, r.arg2, st->lines, r.cpu);
		if ((r.kind == IK_IMPORT_TSTART || r.kind == IK_IMPORT_TCANCEL) && !o->clock_mono) {
			st->ignored++;
			st->timers_ignored++;
			continue;
		}
		st->used++;
		bool wake = r.kind == IK_IMPORT_WAKING || r.kind == IK_IMPORT_WAKEUP;
		if (r.cpu > maxcpu)
			maxcpu = r.cpu;
		if (wake && r.arg2 > maxcpu)
			maxcpu = (int)r.arg2;
		if (r.kind == IK_IMPORT_IDLE) {
			any_idle = true;
			if (r.arg > maxstate)
				maxstate = (int)r.arg;
		}
		if ((r.kind >= IK_IMPORT_WAKING && r.kind <= IK_IMPORT_TICK_STOP) ||
		    r.kind == IK_IMPORT_SOFTIRQ || r.kind == IK_IMPORT_IPI_SEND || r.kind == IK_IMPORT_FREQ)
			v11 = true;
		int c = -1;
		bool mask = r.kind == IK_IMPORT_IPI_SEND && r.arg == -2;
		if (r.kind == IK_IMPORT_IPI_SEND && !mask)
			st->ipi_sends++;
		if (mask) {
			st->ipi_masks++;
			for (int k = ik__cpuset_next(&px->mask, -1); k >= 0; k = ik__cpuset_next(&px->mask, k))
				st->ipi_mask_targets++;
		}
		if (mask && (c = ik__cpuset_next(&px->mask, -1)) < 0)
			continue;
		int64_t last;
		if (spilling && ik__import_spill_late(&sp, stream_of(&r), r.t_ns, &last)) {
			snprintf(err, errlen, "%s:%" PRIu64 ": expected each CPU's events in time order within %d events of each other, got one traced on CPU %d at %" PRId64 " ns, before its %" PRId64 " ns already written (sort the input by time)",
				 origin, st->lines, IK_IMPORT_WINDOW, stream_of(&r), r.t_ns, last);
			goto out;
		}
		do {
			if (mask)
				r.arg = c;
			struct ik_trace_import_rec let;
			/* the window full: its earliest record to the spill (its CPU's stream) */
			if (ik__import_window_push(&win, &r, &let) > 0) {
				if (!spilling && ik__import_spill_init(&sp)) {
					snprintf(err, errlen, "out of memory");
					rc = IK_TRACE_EFAIL;
					goto out;
				}
				spilling = true;
				if (ik__import_spill_add(&sp, stream_of(&let), &let)) {
					snprintf(err, errlen, "%s: the spill of the records (a temporary file) failed: %s",
						 origin, strerror(errno));
					rc = IK_TRACE_EFAIL;
					goto out;
				}
			}
		} while (mask && (c = ik__cpuset_next(&px->mask, c)) >= 0);
		if (r.kind == IK_IMPORT_WAKING)
			have_waking = true;
	}
	if (rrc) {
		snprintf(err, errlen, "%s: read failed: %s", origin, strerror(errno));
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	/* Every record in time order: the window's (all of them, if it never filled), or the
	   window's added to the spill and the spill's streams merged. */
	struct ik_trace_import_rec let;
	int nrc = 1;
	while (ik__import_window_pop(&win, &let)) {
		if (spilling) {
			if (ik__import_spill_add(&sp, stream_of(&let), &let))
				nrc = -1;
			continue;
		}
		if (let.kind == IK_IMPORT_WAKING)
			w.have_waking = true;
		if ((rc = ik__import_writer_record(&w, &let)) != IK_TRACE_OK)
			goto write_failed;
	}
	if (spilling && (nrc < 0 || ik__import_spill_merge(&sp)))
		nrc = -1;
	while (spilling && nrc > 0 && (nrc = ik__import_spill_next(&sp, &let)) > 0) {
		if (let.kind == IK_IMPORT_WAKING)
			w.have_waking = true;
		if ((rc = ik__import_writer_record(&w, &let)) != IK_TRACE_OK)
			goto write_failed;
	}
	if (nrc < 0) {
		snprintf(err, errlen, "%s: the spill of the records (a temporary file) failed: %s", origin,
			 strerror(errno));
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	rc = IK_TRACE_EINPUT;
	int64_t tol;
	if (o->clock_mono && !ik__trace_clock_mono(&st->clock, o->hz, &tol)) {
		if (st->clock.n)
			snprintf(err, errlen, "%s:%" PRIu64 ": expected perf's clock to be CLOCK_MONOTONIC (perf record -k mono) with --clock mono, got a tick hrtimer expiring at now=%" PRId64 " ns, %" PRId64 " us from the event's time (tolerance %" PRId64 " us: twice the offsets' spread of %" PRId64 " us, at least %d us, at most a tenth of the tick)",
				 origin, st->clock.far_line, st->clock.far_t_ns + st->clock.far_ns,
				 st->clock.far_ns / 1000, tol / 1000,
				 (st->clock.max_ns - st->clock.min_ns) / 1000, IK_TRACE_CLOCK_MIN_TOL_NS / 1000);
		else
			snprintf(err, errlen, "%s:%" PRIu64 ": expected perf's clock to be CLOCK_MONOTONIC with --clock mono, and tick hrtimer_expire_entry events with now= to check it, got none",
				 origin, st->lines);
		goto out;
	}
	if (!any_idle) {
		if (st->lines)
			snprintf(err, errlen, "%s:%" PRIu64 ": expected power:cpu_idle events (%s), got none",
				 origin, st->lines, text_how[fmt]);
		else
			snprintf(err, errlen, "%s: expected power:cpu_idle events, got none", origin);
		goto out;
	}
	ik__import_writer_end(&w);

	/* The header, now that the CPUs, the states and the IRQ names are known; then the spool. */
	struct ik_driver tab;
	if (header_table(o->drv, maxstate, &tab, st, err, errlen)) {
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	st->cpus = maxcpu + 1;
	struct ik_trace_header h;
	if (ik__trace_header_init(&h, o->hz > 0 ? o->hz : 250, st->cpus, &tab)) {
		snprintf(err, errlen, "out of memory");
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	h.nirqs = px->names.nirqs; /* borrowed, given back below */
	h.irqs = px->names.irqs;
	h.minor = v11 || h.nirqs || w.marked ? 1 : 0;
	rc = ik__trace_write_header(out, &h);
	h.nirqs = 0;
	h.irqs = NULL;
	ik__trace_header_free(&h);
	if (rc == IK_TRACE_OK)
		rc = copy_spool(spool, out, have_waking, w.marked, st);
	if (rc == IK_TRACE_OK && ferror(out))
		rc = IK_TRACE_EFAIL;
write_failed:
	if (rc != IK_TRACE_OK)
		snprintf(err, errlen, "writing the trace failed");
out:
	if (spool)
		fclose(spool);
	ik__import_writer_free(&w);
	ik__import_window_free(&win);
	if (spilling)
		ik__import_spill_free(&sp);
	free(lr.buf);
	if (px)
		ik__trace_header_free(&px->names);
	free(px);
	return rc;
}

bool ik__trace_sched_event(int kind, int cpu, int64_t arg, int64_t arg2, bool have_waking,
			  int cpus, struct ik_trace_event *ev)
{
	switch (kind) {
	case IK_IMPORT_WAKING:
	case IK_IMPORT_WAKEUP:
		if ((kind == IK_IMPORT_WAKEUP) == have_waking || arg2 < 0 || arg2 >= cpus)
			return false;
		ev->kind = IK_TRACE_TASK_WAKE;
		ev->cpu = (int)arg2;
		ev->src_cpu = cpu;
		ev->arg = arg < 0 ? 0 : arg;
		return true;
	case IK_IMPORT_SWITCH:
		ev->kind = IK_TRACE_SWITCH;
		ev->cpu = cpu;
		ev->arg = arg < 0 ? 0 : arg;
		ev->arg2 = arg2 < 0 ? 0 : arg2;
		return true;
	case IK_IMPORT_TICK_STOP:
		ev->kind = IK_TRACE_TICK_STOP;
		ev->cpu = cpu;
		ev->arg = arg;
		return true;
	}
	return false;
}

int ik__trace_import_records(struct ik_trace_import_rec *v, size_t n, const char *origin,
			    FILE *out, const struct ik_trace_import_opts *o,
			    struct ik_trace_import_stats *st, char *err, size_t errlen)
{
	int rc = IK_TRACE_EINPUT, maxcpu = -1, maxstate = -1;
	bool have_waking = false, sched = false;
	int limit = o->drv ? o->drv->state_count - 1 : IK_STATE_MAX - 1;
	struct plist pl = { .v = v };

	if (o->drv && (o->drv->state_count < 1 || o->drv->state_count > IK_STATE_MAX)) {
		snprintf(err, errlen, "%s: the state table has %d states, expected 1..%d", origin,
			 o->drv->state_count, IK_STATE_MAX);
		return IK_TRACE_EFAIL;
	}
	for (size_t i = 0; i < n; i++) {
		struct ik_trace_import_rec r = v[i];
		r.seq = i;
		bool wake = r.kind == IK_IMPORT_WAKING || r.kind == IK_IMPORT_WAKEUP;
		if (r.cpu < 0 || r.cpu >= IK_TRACE_MAX_CPUS || r.t_ns < 0 ||
		    (r.kind == IK_IMPORT_IDLE && r.arg > limit) || r.kind < IK_IMPORT_IDLE || r.kind >= IK_IMPORT_KINDS ||
		    (wake && (r.arg2 < 0 || r.arg2 >= IK_TRACE_MAX_CPUS)) ||
		    (r.kind == IK_IMPORT_IPI_SEND && (r.arg < 0 || r.arg >= IK_TRACE_MAX_CPUS))) {
			char why[200];
			snprintf(why, sizeof(why), "%s: expected CPUs 0..%d, times >= 0 and states 0..%d, got state %" PRId64 " on CPU %d at %" PRId64 " ns",
				 origin, IK_TRACE_MAX_CPUS - 1, limit, r.kind == IK_IMPORT_IDLE ? r.arg : 0, r.cpu, r.t_ns);
			if (!o->lenient) {
				snprintf(err, errlen, "%s", why);
				return IK_TRACE_EINPUT;
			}
			if (st->skipped++ == 0)
				snprintf(st->first_skip, sizeof(st->first_skip), "%s", why);
			continue;
		}
		if (r.cpu > maxcpu)
			maxcpu = r.cpu;
		if (wake && r.arg2 > maxcpu)
			maxcpu = (int)r.arg2;
		if (r.kind == IK_IMPORT_WAKING)
			have_waking = true;
		if ((r.kind >= IK_IMPORT_WAKING && r.kind <= IK_IMPORT_TICK_STOP) ||
		    r.kind == IK_IMPORT_SOFTIRQ || r.kind == IK_IMPORT_IPI_SEND || r.kind == IK_IMPORT_FREQ)
			sched = true; /* format 1.1 */
		if (r.kind == IK_IMPORT_IDLE && r.arg > maxstate)
			maxstate = (int)r.arg;
		v[pl.n++] = r;
	}
	bool any_idle = false;
	for (size_t i = 0; i < pl.n && !any_idle; i++)
		any_idle = pl.v[i].kind == IK_IMPORT_IDLE;
	if (!any_idle) {
		if (st->lines)
			snprintf(err, errlen, "%s:%" PRIu64 ": expected power:cpu_idle events (perf record -e power:cpu_idle -a), got none",
				 origin, st->lines);
		else
			snprintf(err, errlen, "%s: expected power:cpu_idle events, got none", origin);
		return rc;
	}
	qsort(pl.v, pl.n, sizeof(*pl.v), by_time);

	struct ik_driver tab;
	if (header_table(o->drv, maxstate, &tab, st, err, errlen))
		return IK_TRACE_EFAIL;
	const struct ik_driver *drv = &tab;
	struct ik_trace_header h;
	st->cpus = maxcpu + 1;
	if (ik__trace_header_init(&h, o->hz > 0 ? o->hz : 250, st->cpus, drv)) {
		snprintf(err, errlen, "out of memory");
		rc = IK_TRACE_EFAIL;
		return rc;
	}
	const struct ik_trace_header *nm = o->irq_names;
	for (int i = 0; nm && i < nm->nirqs; i++)
		if (ik__trace_irq_name_set(&h, nm->irqs[i].irq, nm->irqs[i].name, strlen(nm->irqs[i].name))) {
			ik__trace_header_free(&h);
			snprintf(err, errlen, "out of memory");
			return IK_TRACE_EFAIL;
		}
	/* task_wake, switch, tick_stop, wake ipi SRC, wake softirq, irq names: format 1.1 */
	h.minor = sched || h.nirqs ? 1 : 0;
	rc = ik__trace_write_header(out, &h);
	if (rc == IK_TRACE_OK)
		rc = write_events(out, &pl, st->cpus, o->clock_mono, have_waking, st);
	ik__trace_header_free(&h);
	if (rc == IK_TRACE_OK && ferror(out))
		rc = IK_TRACE_EFAIL;
	if (rc)
		snprintf(err, errlen, "writing the trace failed");
	return rc;
}
