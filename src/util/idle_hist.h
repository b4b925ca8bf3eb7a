/*
 * The idle-duration histogram's bucket of a duration, inline: [0,1us) [1,2us) [2,4us) ...
 * [2^20us, inf), IK_IDLE_HIST_BUCKETS of them (the trace API calls the
 * same count IK_TRACE_HIST_BUCKETS).  The one definition: src/trace/analyze.c wraps it as
 * ik__trace_hist_bucket() (trace/analyze.h) and the simulator calls it straight at every idle
 * exit, without a call into another file.  Here, below sim and trace, because both count
 * idle periods into these buckets.
 */
#ifndef IDLEKIT_UTIL_IDLE_HIST_H
#define IDLEKIT_UTIL_IDLE_HIST_H

#include <stdint.h>

/* Idle-duration histograms: [0, 1 us), then powers of two up to [2^20 us, inf). */
#define IK_IDLE_HIST_BUCKETS 22

/* The number of bits of the whole microseconds, the last bucket open-ended (no loop). */
static inline int ik__trace_hist_bucket_inline(uint64_t ns)
{
	uint64_t us = ns / 1000;
	int bits = us ? 64 - __builtin_clzll(us) : 0;
	return bits < IK_IDLE_HIST_BUCKETS - 1 ? bits : IK_IDLE_HIST_BUCKETS - 1;
}

#endif
