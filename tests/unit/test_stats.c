/*
 * Statistics across runs, checked against hand-computed sets, first of all seed 000's table
 * (tbench on Zen3, three runs per kernel): its Min, Max, Median, AMean, Stddev and CoefVar
 * come back to the printed digits from the three runs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "config/result.h"

#define assert_close(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Seed 000's three columns; each was printed from three runs (min, median, max). */
static void test_seed000_columns(void **state)
{
	(void)state;
	static const struct {
		double runs[3];
		double min, max, median, amean, stddev, cov_pct;
	} columns[] = {
		/* baseline */
		{{32191.80, 2215.06, 32938.80}, 2215.06, 32938.80, 32191.80, 22448.55, 17526.70, 78.07},
		/* baseline + C2 disabled */
		{{33476.60, 34399.10, 33072.10}, 33072.10, 34399.10, 33476.60, 33649.27, 680.14, 2.02},
		/* baseline + patch */
		{{34774.50, 33016.10, 33805.70}, 33016.10, 34774.50, 33805.70, 33865.43, 880.72, 2.60},
	};
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++) {
		struct ik_summary s;
		ik__summarize(columns[i].runs, 3, &s);
		assert_int_equal(s.n, 3);
		assert_true(s.min == columns[i].min);
		assert_true(s.max == columns[i].max);
		assert_true(s.median == columns[i].median);
		assert_close(s.amean, columns[i].amean, 0.005);
		assert_close(s.stddev, columns[i].stddev, 0.005);
		assert_close(s.cov_pct, columns[i].cov_pct, 0.005);
	}
}

static void test_hand_computed(void **state)
{
	(void)state;
	/* 1, 2, 4: amean 7/3, hmean 3/(1+1/2+1/4) = 12/7, sample variance 7/3 */
	const double v[] = {4, 1, 2};
	struct ik_summary s;
	ik__summarize(v, 3, &s);
	assert_true(s.min == 1 && s.max == 4 && s.median == 2);
	assert_close(s.amean, 7.0 / 3.0, 1e-12);
	assert_close(s.hmean, 12.0 / 7.0, 1e-12);
	assert_close(s.stddev, sqrt(7.0 / 3.0), 1e-12);
	assert_close(s.cov_pct, 100.0 * sqrt(7.0 / 3.0) / (7.0 / 3.0), 1e-9);

	/* even n: the median is the mean of the two middle values */
	const double w[] = {10, 1, 7, 3};
	ik__summarize(w, 4, &s);
	assert_true(s.median == 5.0);
	assert_true(s.amean == 5.25);
}

static void test_hmean_not_positive(void **state)
{
	(void)state;
	struct ik_summary s;
	const double with_zero[] = {3, 0, 5};
	ik__summarize(with_zero, 3, &s);
	assert_true(s.hmean == 0.0);
	assert_true(s.min == 0.0);
	assert_close(s.amean, 8.0 / 3.0, 1e-12);

	const double negative[] = {3, -1, 5};
	ik__summarize(negative, 3, &s);
	assert_true(s.hmean == 0.0);

	/* equal values: hmean is that value exactly; tiny values do not overflow 1/v */
	const double equal[] = {100000, 100000};
	ik__summarize(equal, 2, &s);
	assert_true(s.hmean == 100000.0);
	const double tiny[] = {1e-310, 2e-310};
	ik__summarize(tiny, 2, &s);
	assert_true(fabs(s.hmean / (4.0 / 3.0 * 1e-310) - 1.0) < 1e-9);
}

static void test_degenerate(void **state)
{
	(void)state;
	struct ik_summary s;
	/* one value: no spread */
	const double one[] = {42.5};
	ik__summarize(one, 1, &s);
	assert_int_equal(s.n, 1);
	assert_true(s.min == 42.5 && s.max == 42.5 && s.median == 42.5);
	assert_true(s.amean == 42.5 && s.hmean == 42.5);
	assert_true(s.stddev == 0.0 && s.cov_pct == 0.0);

	/* nothing at all: every field 0 */
	ik__summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(s.min == 0 && s.max == 0 && s.median == 0 && s.amean == 0);
	assert_true(s.hmean == 0 && s.stddev == 0 && s.cov_pct == 0);
	ik__summarize(one, -3, &s);
	assert_int_equal(s.n, 0);

	/* a mean of 0: no coefficient of variation rather than a division by zero */
	const double zero_mean[] = {-1, 1};
	ik__summarize(zero_mean, 2, &s);
	assert_true(s.amean == 0.0);
	assert_close(s.stddev, sqrt(2.0), 1e-12);
	assert_true(s.cov_pct == 0.0);

	/* identical values: no spurious spread (the one-pass formula would give noise here) */
	const double same[] = {0.1, 0.1, 0.1, 0.1, 0.1};
	ik__summarize(same, 5, &s);
	assert_true(s.stddev <= 1e-15);
	assert_true(s.median == 0.1);
}

/* More values than the on-stack copy holds: the median comes from a heap copy. */
static void test_many_values(void **state)
{
	(void)state;
	enum { N = 1001 };
	double *v = malloc(N * sizeof(*v));
	assert_non_null(v);
	for (int i = 0; i < N; i++)
		v[i] = (double)((i * 7919) % N); /* a permutation of 0..1000 */
	struct ik_summary s;
	ik__summarize(v, N, &s);
	assert_true(s.min == 0 && s.max == 1000 && s.median == 500);
	assert_true(s.amean == 500);
	assert_true(s.hmean == 0); /* contains 0 */
	ik__summarize(v, N - 1, &s); /* drops the last value, 1000 * 7919 % 1001 */
	double dropped = (double)((1000 * 7919) % N);
	assert_true(s.median == (dropped < 500 ? 500.5 : dropped > 500 ? 499.5 : 500));
	/* the input is not modified */
	for (int i = 0; i < N; i++)
		assert_true(v[i] == (double)((i * 7919) % N));
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed000_columns), cmocka_unit_test(test_hand_computed),
		cmocka_unit_test(test_hmean_not_positive), cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_many_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
