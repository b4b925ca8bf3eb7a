/*
 * Statistics across runs, the figures of mmtests' comparison tables: min, max,
 * median, arithmetic and harmonic mean, sample standard deviation and coefficient of
 * variation.  Sums are taken in the order the values are given, so the same values give the
 * same bits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/result.h"

/* Total order on doubles for sorting: NaN after everything, so the order is deterministic. */
static int compare_doubles(const void *pa, const void *pb)
{
	double a = *(const double *)pa;
	double b = *(const double *)pb;
	int a_nan = isnan(a), b_nan = isnan(b);
	if (a_nan || b_nan)
		return a_nan - b_nan;
	return (a > b) - (a < b);
}

/*
 * The k-th smallest value (0-based) without extra memory: the value with fewer than k+1
 * values below it and at least k+1 at or below it.  O(n^2), only used when malloc fails.
 */
static double kth_smallest_in_place(const double *values, int n, int k)
{
	for (int i = 0; i < n; i++) {
		int below = 0, at_or_below = 0;
		for (int j = 0; j < n; j++) {
			int c = compare_doubles(&values[j], &values[i]);
			below += c < 0;
			at_or_below += c <= 0;
		}
		if (below <= k && k < at_or_below)
			return values[i];
	}
	return values[0]; /* not reached: some value always qualifies */
}

/* Median: the middle value, or the mean of the two middle values when n is even. */
static double median_of(const double *values, int n)
{
	int lo = (n - 1) / 2, hi = n / 2;
	double small_copy[64];
	double *sorted = small_copy;
	if ((size_t)n > sizeof(small_copy) / sizeof(small_copy[0])) {
		sorted = malloc((size_t)n * sizeof(*sorted));
		if (!sorted)
			return (kth_smallest_in_place(values, n, lo) +
				kth_smallest_in_place(values, n, hi)) / 2.0;
	}
	memcpy(sorted, values, (size_t)n * sizeof(*sorted));
	qsort(sorted, (size_t)n, sizeof(*sorted), compare_doubles);
	double median = (sorted[lo] + sorted[hi]) / 2.0;
	if (sorted != small_copy)
		free(sorted);
	return median;
}

void ik__summarize(const double *values, int n, struct ik_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!values || n <= 0)
		return;
	s->n = n;

	double sum = 0.0;
	s->min = s->max = values[0];
	for (int i = 0; i < n; i++) {
		double v = values[i];
		if (v < s->min)
			s->min = v;
		if (v > s->max)
			s->max = v;
		sum += v;
	}
	s->amean = sum / n;

	/*
	 * hmean = n / sum(1/v), computed as min * n / sum(min/v): the terms are <= 1, so equal
	 * values give exactly that value back and tiny values do not overflow 1/v.
	 */
	if (s->min > 0.0) {
		double ratio_sum = 0.0;
		for (int i = 0; i < n; i++)
			ratio_sum += s->min / values[i];
		s->hmean = s->min * (n / ratio_sum);
	}
	s->median = median_of(values, n);

	/* Two passes: the textbook one-pass formula loses digits when stddev << mean. */
	if (n > 1) {
		double squares = 0.0;
		for (int i = 0; i < n; i++) {
			double d = values[i] - s->amean;
			squares += d * d;
		}
		s->stddev = sqrt(squares / (n - 1));
	}
	s->cov_pct = s->amean != 0.0 ? 100.0 * s->stddev / s->amean : 0.0;
}
