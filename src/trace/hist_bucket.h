/*
 * The idle-duration histogram's bucket of a duration, inline: the one definition that
 * src/trace/analyze.c wraps as ik_trace_hist_bucket() (idlekit/trace.h) and that the
 * simulator calls straight at every idle exit, without a call into another file.
 */
#ifndef IDLEKIT_TRACE_HIST_BUCKET_H
#define IDLEKIT_TRACE_HIST_BUCKET_H

#include <stdint.h>

#include "idlekit/trace.h"

/* [0,1us) [1,2us) [2,4us) ...: the number of bits of the whole microseconds, the last
   bucket open-ended (no loop). */
static inline int ik_trace_hist_bucket_inline(uint64_t ns)
{
	uint64_t us = ns / 1000;
	int bits = us ? 64 - __builtin_clzll(us) : 0;
	return bits < IK_TRACE_HIST_BUCKETS - 1 ? bits : IK_TRACE_HIST_BUCKETS - 1;
}

#endif
