/*
 * The machine's half of `idlekit record` (src/host/record_tracefs.c): a tracefs instance of
 * its own with the idle, interrupt, timer and sched events, drained by a thread into the
 * spool (src/trace/record_spool.h), and the trace's header from this machine's sysfs.  The
 * command (src/cli/record.c) chooses the output, runs or waits, and says what happened.
 * Internal: not part of the public API.
 *
 * A recording goes: ik__recording_open (header, instance, events), ik__recording_start
 * (spool, tracing on, the drain thread), the command's wait, ik__recording_stop (tracing
 * off, the thread joined), ik__recording_drain (what is left), ik__recording_write, and
 * ik__recording_close in every case after open (the instance is removed).
 */
#ifndef IDLEKIT_HOST_RECORD_TRACEFS_H
#define IDLEKIT_HOST_RECORD_TRACEFS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "trace/format.h"
#include "trace/import_tep.h"
#include "trace/record_spool.h"

struct ik_drainer;
struct ik_recording {
	struct ik_trace_header h; /* this machine's, from sysfs (hz filled by ik__recording_write) */
	char name[64];            /* the instance: idlekit-record-PID */
	bool have_waking, have_wakeup, have_switch, have_tick_stop; /* events the kernel has */
	uint64_t drains;          /* the drain thread's rounds, and the last one */
	bool read_failed;         /* reading the ring buffers failed */
	struct ik_record_spool spool; /* .failed, .err: writing the spool failed */
	struct timespec t0, t1;   /* tracing on, tracing off (CLOCK_MONOTONIC) */
	/* the machinery */
	void *inst, *tep;         /* struct tracefs_instance, struct tep_handle */
	uint64_t tick_fn;         /* the tick's hrtimer function (/proc/kallsyms), 0 unknown */
	struct ik_tep_conv conv;  /* the events to records, as import trace-dat reads them; its
				     tick_step (HZ) and IRQ names (the header's irq lines) */
	bool spool_open, conv_open;
	struct ik_drainer *drainer;
};

/* false when this idlekit was built without libtracefs: nothing below works then. */
bool ik__recording_supported(void);
/*
 * Where tracefs is: `override` ($IDLEKIT_TRACEFS, for testing) when given, else where
 * libtracefs finds it (NULL if nowhere).  *bad: the override is not a usable tracefs.
 */
const char *ik__recording_tracing_dir(char *override, bool *bad);
/*
 * The header from this machine's sysfs (sysfs_root: the tree's root, NULL for "/"; `hz` 0:
 * measured from the tick's hrtimer during the recording, else 250), and the instance with
 * its clock, buffer size and events.  A machine with no cpuidle driver gets the table of
 * the idle loop's own routines (POLL 0, default_idle 1: the kernel's numbers for them).
 * 0, or -1 with a message (then ik__recording_close; h is already freed when the header
 * failed).
 */
int ik__recording_open(struct ik_recording *rec, const char *sysfs_root, int hz,
		      uint64_t buffer_kb, char *err, size_t errlen);
/* The spool (its file in spool_dir), tracing on, the drain thread.  0, or -1 with a message. */
int ik__recording_start(struct ik_recording *rec, const char *spool_dir, char *err, size_t errlen);
/*
 * Tracing off, the drain thread stopped.  The thread sends this process SIGTERM when a
 * drain fails (a full disk), which ends the command's wait as a Ctrl-C would.
 */
void ik__recording_stop(struct ik_recording *rec);
/* What the buffers still hold, into the spool: 0, or -1 (spool.failed or read_failed). */
int ik__recording_drain(struct ik_recording *rec);
/* The trace on out; *nev = the events written.  0, or -1 (errno). */
int ik__recording_write(struct ik_recording *rec, FILE *out, uint64_t *nev);
/* Events lost on CPU cpu: overwritten in a full buffer, and not recorded at all. */
void ik__recording_lost(const struct ik_recording *rec, int cpu, uint64_t *overrun,
		       uint64_t *dropped);
/* The instance removed, everything freed.  After a failed open too. */
void ik__recording_close(struct ik_recording *rec);

#endif
