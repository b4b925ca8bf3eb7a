/*
 * The log-linear histogram (struct ik_hist, declared with the results in idlekit/result.h),
 * the part that is inline: the bucket index and adding a value.  Here, below sim, trace and
 * report, because all three count into histograms; histogram.c wraps the add as
 * ik_hist_add() and holds the rest (merge, percentiles).  The simulator calls
 * ik_hist_add_inline() straight, once per wake-up (the wake-latency histogram), without a
 * call into another file.  The buckets are described in histogram.c.
 */
#ifndef IDLEKIT_UTIL_HISTOGRAM_H
#define IDLEKIT_UTIL_HISTOGRAM_H

#include <stdint.h>

#include "idlekit/result.h"

/* Index of the bucket holding v (clamped to the last bucket beyond 2^47 ns). */
static inline int ik_hist_bucket_of(uint64_t v)
{
	if (v < (uint64_t)2 << IK_HIST_SUB_BITS)
		return (int)v;
	int msb = 63 - __builtin_clzll(v);
	int shift = msb - IK_HIST_SUB_BITS;
	/* v >> shift is in [2^SUB_BITS, 2^(SUB_BITS+1)): one of the buckets of this magnitude */
	uint64_t index = ((uint64_t)shift << IK_HIST_SUB_BITS) + (v >> shift);
	if (index >= IK_HIST_BUCKETS)
		return IK_HIST_BUCKETS - 1;
	return (int)index;
}

/* ik_hist_add(): a negative value counts as 0. */
static inline void ik_hist_add_inline(struct ik_hist *h, int64_t value)
{
	if (value < 0)
		value = 0;
	if (h->count == 0) {
		h->min = value;
		h->max = value;
	} else {
		if (value < h->min)
			h->min = value;
		if (value > h->max)
			h->max = value;
	}
	h->count++;
	h->sum += (double)value;
	h->buckets[ik_hist_bucket_of((uint64_t)value)]++;
}

#endif
