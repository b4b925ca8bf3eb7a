/*
 * The log-linear histogram (struct ik_hist; the results of config/result.h carry them) and
 * its inline part: the bucket index and adding a value.  Here, below sim, trace and
 * report, because all three count into histograms; histogram.c wraps the add as
 * ik__hist_add() and holds the rest (merge, percentiles).  The simulator calls
 * ik__hist_add_inline() straight, once per wake-up (the wake-latency histogram), without a
 * call into another file.  The buckets are described in histogram.c.
 */
#ifndef IDLEKIT_UTIL_HISTOGRAM_H
#define IDLEKIT_UTIL_HISTOGRAM_H

#include <stdint.h>

/*
 * Log-linear histogram of non-negative ns values (HDR style): exact below 2^IK_HIST_SUB_BITS,
 * then 2^IK_HIST_SUB_BITS buckets per power of two (relative error < 1/128).  Fixed size,
 * so memory does not grow with the number of samples.
 */
#define IK_HIST_SUB_BITS 7
#define IK_HIST_MAGNITUDES 40 /* up to 2^47 ns, about 39 hours */
#define IK_HIST_BUCKETS ((IK_HIST_MAGNITUDES + 1) << IK_HIST_SUB_BITS)
struct ik_hist {
	uint64_t count;
	int64_t min;
	int64_t max;
	double sum;
	uint64_t buckets[IK_HIST_BUCKETS];
};
void ik__hist_init(struct ik_hist *h);
void ik__hist_add(struct ik_hist *h, int64_t value);
void ik__hist_merge(struct ik_hist *into, const struct ik_hist *from);
/* Value at percentile p (0..100): the bucket's representative value, min/max clamped. 0 if empty. */
int64_t ik__hist_percentile(const struct ik_hist *h, double p);


/* Index of the bucket holding v (clamped to the last bucket beyond 2^47 ns). */
static inline int ik__hist_bucket_of(uint64_t v)
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

/* ik__hist_add(): a negative value counts as 0. */
static inline void ik__hist_add_inline(struct ik_hist *h, int64_t value)
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
	h->buckets[ik__hist_bucket_of((uint64_t)value)]++;
}

#endif
