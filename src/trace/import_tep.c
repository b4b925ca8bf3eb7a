/*
 * libtraceevent's events to import's records (import_tep.h): one reading of the kernel's
 * fields for `idlekit record` and `idlekit import trace-dat`.
 *
 *   power:cpu_idle state                 IDLE (4294967295: the exit, -1)
 *   irq:irq_handler_entry irq, name      IRQ (the name kept for the header's irq lines)
 *   irq:softirq_entry vec                SOFTIRQ
 *   irq_vectors:reschedule_entry, call_function_entry, call_function_single_entry,
 *   ipi:ipi_entry                        IPI (the handler's entry); their _exit: IPI_EXIT
 *   ipi:ipi_send_cpu cpu                 IPI_SEND to cpu
 *   ipi:ipi_send_cpumask cpumask         IPI_SEND to each CPU of the mask
 *   timer:hrtimer_expire_entry           TICK (the tick's function) or TIMER; id the
 *                                        hrtimer, arg2 now= (the clock check)
 *   timer:hrtimer_start, hrtimer_cancel  TSTART (expires) / TCANCEL, id the hrtimer
 *   sched:sched_waking, sched_wakeup     WAKING / WAKEUP: pid, target_cpu
 *   sched:sched_switch                   SWITCH: prev_pid, next_pid
 *   timer:tick_stop success              TICK_STOP
 *   power:cpu_frequency state, cpu_id    FREQ on cpu_id
 */
#ifdef IDLEKIT_HAVE_TRACEFS

#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace/import_tep.h"
#include "util/freep.h"

int ik__tep_conv_init(struct ik_tep_conv *c, struct tep_handle *tep, int ncpus, uint64_t tick_fn,
		     int (*emit)(void *ctx, const struct ik_trace_import_rec *r), void *ctx)
{
	memset(c, 0, sizeof(*c));
	if (ncpus < 1 || ncpus > IK_TRACE_MAX_CPUS)
		return -1;
	c->tep = tep;
	c->ncpus = ncpus;
	c->tick_fn = tick_fn;
	c->emit = emit;
	c->ctx = ctx;
	c->mask_cpus = calloc((size_t)ncpus, sizeof(*c->mask_cpus));
	c->last_tick = calloc((size_t)ncpus, sizeof(*c->last_tick));
	if (!c->mask_cpus || !c->last_tick) {
		ik__tep_conv_free(c);
		return -1;
	}
	return 0;
}

void ik__tep_conv_free(struct ik_tep_conv *c)
{
	ik__freep(&c->mask_cpus);
	ik__freep(&c->last_tick);
	ik__trace_header_free(&c->names);
}

/* A dynamic field (__data_loc) lies inside its record: a corrupt one points elsewhere. */
static bool in_record(const struct tep_record *rec, const void *p, int len)
{
	const char *b = rec->data, *q = p;
	return p && len > 0 && rec->size >= 0 && q >= b &&
	       (size_t)(q - b) + (size_t)len <= (size_t)rec->size;
}

/* irq_handler_entry's name (a __string: up to its NUL) as the IRQ's name, if new. */
static void irq_name(struct ik_tep_conv *c, struct tep_event *e, struct tep_record *rec,
		     int64_t irq)
{
	int len = 0;
	const char *nm = tep_get_field_raw(NULL, e, "name", rec, &len, 0);
	if (c->names_full || !in_record(rec, nm, len))
		return;
	size_t n = strnlen(nm, (size_t)len);
	const char *old = ik__trace_irq_name(&c->names, irq);
	size_t kept = n < IK_TRACE_IRQ_NAME_LEN ? n : IK_TRACE_IRQ_NAME_LEN - 1;
	if (n == 0 || (old && strlen(old) == kept && memcmp(old, nm, kept) == 0))
		return;
	c->names_full = ik__trace_irq_name_set(&c->names, irq, nm, n) != 0;
}

/* Is the hrtimer function at fn the tick's? */
static bool is_tick(const struct ik_tep_conv *c, unsigned long long fn)
{
	if (c->tick_fn)
		return fn == c->tick_fn;
	/* the function the pointer starts, not one it falls inside */
	if (tep_find_function_address(c->tep, fn) != fn)
		return false;
	const char *name = tep_find_function(c->tep, fn);
	return name && (strcmp(name, "tick_nohz_handler") == 0 || strcmp(name, "tick_sched_timer") == 0);
}

static bool named(const struct tep_event *e, const char *sys, const char *name)
{
	return strcmp(e->system, sys) == 0 && strcmp(e->name, name) == 0;
}

static int emit(struct ik_tep_conv *c, const struct ik_trace_import_rec *r)
{
	return c->emit(c->ctx, r) ? -1 : 0;
}

int ik__tep_conv_event(struct ik_tep_conv *c, struct tep_event *e, struct tep_record *rec, int cpu)
{
	struct ik_trace_import_rec r = { .t_ns = (int64_t)rec->ts, .cpu = cpu, .arg = -1, .arg2 = -1 };
	unsigned long long v = 0, w = 0;
	if (!e || cpu < 0 || cpu >= c->ncpus) {
		c->ignored++;
		return 0;
	}
	if (named(e, "power", "cpu_idle") && !tep_get_field_val(NULL, e, "state", rec, &v, 0)) {
		r.kind = IK_IMPORT_IDLE;
		r.arg = (uint32_t)v == UINT32_MAX ? -1 : (int64_t)(uint32_t)v;
	} else if (named(e, "irq", "irq_handler_entry") && !tep_get_field_val(NULL, e, "irq", rec, &v, 0)) {
		r.kind = IK_IMPORT_IRQ;
		r.arg = (int64_t)(int32_t)v;
		if (r.arg >= 0)
			irq_name(c, e, rec, r.arg);
	} else if (named(e, "ipi", "ipi_send_cpumask")) {
		int len = 0;
		const void *raw = tep_get_field_raw(NULL, e, "cpumask", rec, &len, 0);
		int n = in_record(rec, raw, len) ?
			ik__trace_bitmask_cpus(raw, (size_t)len, tep_get_long_size(c->tep),
					      tep_is_file_bigendian(c->tep), c->mask_cpus, c->ncpus) : -1;
		if (n < 0) {
			c->ignored++; /* a corrupt or missing mask */
			return 0;
		}
		c->ipi_masks++;
		c->ipi_mask_targets += (uint64_t)n;
		c->used++;
		r.kind = IK_IMPORT_IPI_SEND;
		for (int i = 0; i < n; i++) {
			r.arg = c->mask_cpus[i];
			if (emit(c, &r))
				return -1;
		}
		return 0;
	} else if (named(e, "irq_vectors", "reschedule_entry") ||
		   named(e, "irq_vectors", "call_function_entry") ||
		   named(e, "irq_vectors", "call_function_single_entry") || named(e, "ipi", "ipi_entry")) {
		r.kind = IK_IMPORT_IPI;
	} else if (named(e, "ipi", "ipi_send_cpu") && !tep_get_field_val(NULL, e, "cpu", rec, &v, 0) &&
		   v < (unsigned long long)c->ncpus) {
		r.kind = IK_IMPORT_IPI_SEND;
		r.arg = (int64_t)v;
		c->ipi_sends++;
	} else if (named(e, "ipi", "ipi_exit") || named(e, "irq_vectors", "reschedule_exit") ||
		   named(e, "irq_vectors", "call_function_exit") ||
		   named(e, "irq_vectors", "call_function_single_exit")) {
		r.kind = IK_IMPORT_IPI_EXIT;
	} else if (named(e, "irq", "softirq_entry") && !tep_get_field_val(NULL, e, "vec", rec, &v, 0)) {
		r.kind = IK_IMPORT_SOFTIRQ;
		r.arg = (int64_t)(uint32_t)v;
	} else if (named(e, "power", "cpu_frequency") && !tep_get_field_val(NULL, e, "state", rec, &v, 0) &&
		   !tep_get_field_val(NULL, e, "cpu_id", rec, &w, 0) && w < (unsigned long long)c->ncpus &&
		   (uint32_t)v != 0) {
		r.kind = IK_IMPORT_FREQ;
		r.cpu = (int)w; /* the CPU changed */
		r.arg = (int64_t)(uint32_t)v;
	} else if (strcmp(e->system, "sched") == 0 &&
		   (strcmp(e->name, "sched_waking") == 0 || strcmp(e->name, "sched_wakeup") == 0) &&
		   !tep_get_field_val(NULL, e, "pid", rec, &v, 0) &&
		   !tep_get_field_val(NULL, e, "target_cpu", rec, &w, 0)) {
		r.kind = e->name[11] == 'g' ? IK_IMPORT_WAKING : IK_IMPORT_WAKEUP;
		r.arg = (int64_t)(int32_t)v;
		r.arg2 = (int64_t)(int32_t)w;
	} else if (named(e, "sched", "sched_switch") && !tep_get_field_val(NULL, e, "prev_pid", rec, &v, 0) &&
		   !tep_get_field_val(NULL, e, "next_pid", rec, &w, 0)) {
		r.kind = IK_IMPORT_SWITCH;
		r.arg = (int64_t)(int32_t)v;
		r.arg2 = (int64_t)(int32_t)w;
	} else if (named(e, "timer", "tick_stop") && !tep_get_field_val(NULL, e, "success", rec, &v, 0)) {
		r.kind = IK_IMPORT_TICK_STOP;
		r.arg = v != 0;
	} else if (named(e, "timer", "hrtimer_expire_entry")) {
		r.kind = !tep_get_field_val(NULL, e, "function", rec, &v, 0) && is_tick(c, v)
				 ? IK_IMPORT_TICK : IK_IMPORT_TIMER;
		if (!tep_get_field_val(NULL, e, "hrtimer", rec, &w, 0))
			r.id = w;
		/* the hrtimer base's CLOCK_MONOTONIC time at expiry: the clock check */
		if (!tep_get_field_val(NULL, e, "now", rec, &v, 0) && (int64_t)v >= 0)
			r.arg2 = (int64_t)v;
	} else if ((named(e, "timer", "hrtimer_start") || named(e, "timer", "hrtimer_cancel")) &&
		   !tep_get_field_val(NULL, e, "hrtimer", rec, &w, 0)) {
		bool start = e->name[8] == 's';
		if (start && (tep_get_field_val(NULL, e, "expires", rec, &v, 0) || (int64_t)v < 0)) {
			c->ignored++;
			return 0;
		}
		r.kind = start ? IK_IMPORT_TSTART : IK_IMPORT_TCANCEL;
		r.arg = start ? (int64_t)v : -1;
		r.id = w;
		unsigned long long fn = 0;
		if (start && !tep_get_field_val(NULL, e, "function", rec, &fn, 0) && is_tick(c, fn)) {
			/* HZ: the smallest step between the tick's expiry times on one CPU */
			uint64_t prev = c->last_tick[cpu];
			if (prev && v > prev && (!c->tick_step || v - prev < c->tick_step))
				c->tick_step = v - prev;
			c->last_tick[cpu] = v;
		}
	} else {
		c->ignored++;
		return 0;
	}
	c->used++;
	return emit(c, &r);
}

#endif
