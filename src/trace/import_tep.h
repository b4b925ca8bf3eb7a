/*
 * The kernel's events as libtraceevent hands them over (a struct tep_record of a struct
 * tep_event) to import's records: the one conversion that `idlekit record` (tracefs's ring
 * buffers, src/host/record_tracefs.c) and `idlekit import trace-dat` (libtracecmd,
 * src/cli/import.c) share, so that the same events give the same records whichever read
 * them; the records then go through import's writer (import_writer.c) in both.  Built with
 * libtracefs (which brings libtraceevent); docs/trace-format.md lists the events and
 * fields.
 */
#ifndef IDLEKIT_TRACE_IMPORT_TEP_H
#define IDLEKIT_TRACE_IMPORT_TEP_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/format.h"
#include "trace/import.h"

struct tep_handle;
struct tep_event;
struct tep_record;

struct ik_tep_conv {
	struct tep_handle *tep;
	int ncpus;        /* an IPI's target at or above this is not one (a CPU of the trace) */
	/*
	 * The tick's hrtimer function: with tick_fn (its address, from /proc/kallsyms) an
	 * expiry is the tick when its function is that address; without it, when the
	 * handle's kallsyms name the address exactly tick_nohz_handler or tick_sched_timer (a
	 * kallsyms without the real function names the symbol below it)
	 */
	uint64_t tick_fn;
	/* the records, in the order the events came: 0, or -1 to stop (a write failed) */
	int (*emit)(void *ctx, const struct ik_trace_import_rec *r);
	void *ctx;
	/* what was read */
	uint64_t used, ignored;
	uint64_t ipi_sends, ipi_masks, ipi_mask_targets; /* ipi_send_cpu, _cpumask and its CPUs */
	uint64_t tick_step; /* the smallest step between one CPU's tick expiry times (HZ) */
	uint64_t *last_tick; /* per CPU (ncpus): the tick's last expiry time armed */
	struct ik_trace_header names; /* IRQ names seen (irq_handler_entry's name) */
	bool names_full;
	int *mask_cpus; /* ncpus entries: a cpumask's CPUs (scratch) */
};

/* ncpus from 1 to IK_TRACE_MAX_CPUS; 0, or -1 out of memory. */
int ik__tep_conv_init(struct ik_tep_conv *c, struct tep_handle *tep, int ncpus, uint64_t tick_fn,
		     int (*emit)(void *ctx, const struct ik_trace_import_rec *r), void *ctx);
void ik__tep_conv_free(struct ik_tep_conv *c);
/*
 * One event traced on cpu: the records it makes emitted (none for an event of another
 * kind or with a field missing, counted in ignored).  0, or -1 when emit said stop.
 */
int ik__tep_conv_event(struct ik_tep_conv *c, struct tep_event *e, struct tep_record *rec, int cpu);

#endif
