/*
 * Log-linear histogram of non-negative nanosecond values, in the style of HdrHistogram.
 *
 * Values below 2^(SUB_BITS+1) = 256 ns each have a bucket of their own.  Above that, every
 * power of two [2^m, 2^(m+1)) is cut into 2^SUB_BITS = 128 equal buckets of width
 * 2^(m-SUB_BITS), so a bucket is never wider than 1/128 of the values it holds.  The bucket
 * index is computed with shifts only, so the same samples always land in the same buckets on
 * every machine, and the structure has a fixed size whatever the number of samples.
 *
 * An all-zero struct ik_hist is a valid empty histogram (what ik__hist_init produces), so a
 * result allocated with calloc needs no further set-up.
 *
 * The functions are declared in util/histogram.h (the results of config/result.h carry
 * histograms); they live in src/util because the simulator, the trace replay and the reports all count into them.
 */
#include <math.h>
#include <string.h>

#include "util/histogram.h" /* ik__hist_add's one definition, and the bucket index */

#define SUB_COUNT (1 << IK_HIST_SUB_BITS)

/*
 * The value a bucket stands for: the middle of the half-open range [lowest, lowest + width)
 * it covers (HdrHistogram's "median equivalent value").  Exact for buckets of width 1.
 */
static int64_t bucket_value(int index)
{
	if (index < 2 * SUB_COUNT)
		return index;
	int shift = (index >> IK_HIST_SUB_BITS) - 1;
	uint64_t sub = (uint64_t)(index & (SUB_COUNT - 1)) + SUB_COUNT;
	uint64_t lowest = sub << shift;
	uint64_t width = (uint64_t)1 << shift;
	return (int64_t)(lowest + width / 2);
}

void ik__hist_init(struct ik_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void ik__hist_add(struct ik_hist *h, int64_t value)
{
	ik__hist_add_inline(h, value);
}

void ik__hist_merge(struct ik_hist *into, const struct ik_hist *from)
{
	if (from->count == 0)
		return;
	if (into->count == 0) {
		into->min = from->min;
		into->max = from->max;
	} else {
		if (from->min < into->min)
			into->min = from->min;
		if (from->max > into->max)
			into->max = from->max;
	}
	into->count += from->count;
	into->sum += from->sum;
	for (int i = 0; i < IK_HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
}

/*
 * Nearest rank: the smallest sample such that at least p% of the samples are <= it, i.e. the
 * sample of rank ceil(p/100 * count) (1-based), reported as its bucket's value.
 */
int64_t ik__hist_percentile(const struct ik_hist *h, double p)
{
	if (h->count == 0)
		return 0;
	if (!(p > 0.0)) /* also NaN */
		return h->min;
	if (p >= 100.0)
		return h->max;

	double exact = p * (double)h->count / 100.0;
	double rank = ceil(exact);
	/* 99.9% of 1000 must be rank 999 even if the product came out as 999.0000000001 */
	if (rank - exact > 1.0 - 1e-9)
		rank -= 1.0;
	if (rank < 1.0)
		rank = 1.0;
	if (rank > (double)h->count)
		rank = (double)h->count;
	uint64_t want = (uint64_t)rank;

	uint64_t seen = 0;
	for (int i = 0; i < IK_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= want) {
			int64_t v = bucket_value(i);
			if (v < h->min)
				return h->min;
			if (v > h->max)
				return h->max;
			return v;
		}
	}
	return h->max; /* buckets and count disagree: the caller edited them by hand */
}
