/*
 * The wake-latency histogram: exact below 256 ns, within 1/128 above, nearest-rank
 * percentiles, merge, clamping, and the empty case.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/result.h"

/* The sample of nearest rank ceil(p/100 * n) in sorted[0..n), the definition being imitated. */
static int64_t nearest_rank(const int64_t *sorted, size_t n, double p)
{
	if (p <= 0)
		return sorted[0];
	size_t rank = (size_t)ceil(p / 100.0 * (double)n - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

static struct ik_hist *new_hist(void)
{
	struct ik_hist *h = malloc(sizeof(*h));
	assert_non_null(h);
	ik__hist_init(h);
	return h;
}

static void test_empty(void **state)
{
	(void)state;
	struct ik_hist *h = new_hist();
	assert_int_equal(h->count, 0);
	assert_int_equal(ik__hist_percentile(h, 0), 0);
	assert_int_equal(ik__hist_percentile(h, 50), 0);
	assert_int_equal(ik__hist_percentile(h, 100), 0);

	/* an all-zero struct is the same empty histogram */
	struct ik_hist *z = calloc(1, sizeof(*z));
	assert_non_null(z);
	assert_memory_equal(h, z, sizeof(*h));
	ik__hist_add(z, 7);
	assert_int_equal(z->min, 7);
	assert_int_equal(z->max, 7);
	assert_int_equal(ik__hist_percentile(z, 50), 7);
	free(z);
	free(h);
}

static void test_exact_small_values(void **state)
{
	(void)state;
	struct ik_hist *h = new_hist();
	for (int64_t v = 1; v <= 100; v++)
		ik__hist_add(h, v);
	assert_int_equal(h->count, 100);
	assert_int_equal(h->min, 1);
	assert_int_equal(h->max, 100);
	assert_true(h->sum == 5050.0);
	assert_int_equal(ik__hist_percentile(h, 0), 1);
	assert_int_equal(ik__hist_percentile(h, 1), 1);
	assert_int_equal(ik__hist_percentile(h, 1.5), 2);
	assert_int_equal(ik__hist_percentile(h, 50), 50);
	assert_int_equal(ik__hist_percentile(h, 90), 90);
	assert_int_equal(ik__hist_percentile(h, 99), 99);
	assert_int_equal(ik__hist_percentile(h, 99.9), 100);
	assert_int_equal(ik__hist_percentile(h, 100), 100);
	/* every value below 256 has a bucket of its own */
	ik__hist_init(h);
	for (int64_t v = 0; v < 256; v++)
		ik__hist_add(h, v);
	for (int64_t v = 0; v < 256; v++)
		assert_int_equal(ik__hist_percentile(h, (double)(v + 1) * 100.0 / 256.0), v);
	free(h);
}

static void test_one_to_thousand(void **state)
{
	(void)state;
	struct ik_hist *h = new_hist();
	int64_t sorted[1000];
	for (int64_t v = 1; v <= 1000; v++) {
		ik__hist_add(h, v);
		sorted[v - 1] = v;
	}
	/*
	 * Nearest rank gives 500, 900, 990, 999; the histogram reports the middle of the bucket
	 * holding them: [500, 502) -> 501, [900, 904) -> 902, [988, 992) -> 990, [996, 1000) -> 998.
	 */
	assert_int_equal(ik__hist_percentile(h, 50), 501);
	assert_int_equal(ik__hist_percentile(h, 90), 902);
	assert_int_equal(ik__hist_percentile(h, 99), 990);
	assert_int_equal(ik__hist_percentile(h, 99.9), 998);
	assert_int_equal(ik__hist_percentile(h, 100), 1000);
	assert_int_equal(ik__hist_percentile(h, 0), 1);
	for (double p = 0.0; p <= 100.0; p += 0.1) {
		int64_t want = nearest_rank(sorted, 1000, p);
		int64_t got = ik__hist_percentile(h, p);
		assert_true(llabs(got - want) * 128 <= want);
	}
	free(h);
}

/* 1 us .. 10 ms, log-spaced: every percentile within 1/128 of the exact nearest rank. */
static void test_relative_error(void **state)
{
	(void)state;
	enum { N = 20000 };
	int64_t *sorted = malloc(N * sizeof(*sorted));
	assert_non_null(sorted);
	struct ik_hist *h = new_hist();
	for (int i = 0; i < N; i++) {
		sorted[i] = (int64_t)llround(1000.0 * pow(10.0, 4.0 * i / (N - 1)));
		ik__hist_add(h, sorted[i]);
	}
	assert_int_equal(h->min, 1000);
	assert_int_equal(h->max, 10000000);
	int64_t previous = 0;
	for (int k = 0; k <= 1000; k++) {
		double p = k / 10.0;
		int64_t want = nearest_rank(sorted, N, p);
		int64_t got = ik__hist_percentile(h, p);
		assert_true(llabs(got - want) * 128 <= want);
		assert_true(got >= previous); /* monotonic in p */
		previous = got;
	}
	free(h);
	free(sorted);
}

static void test_clamping(void **state)
{
	(void)state;
	struct ik_hist *h = new_hist();
	ik__hist_add(h, -5);
	assert_int_equal(h->min, 0);
	assert_int_equal(h->max, 0);
	assert_int_equal(ik__hist_percentile(h, 50), 0);
	assert_true(h->sum == 0.0);

	/* beyond 2^47 ns: the last bucket, but min and max stay exact */
	ik__hist_init(h);
	ik__hist_add(h, INT64_MAX);
	ik__hist_add(h, (int64_t)1 << 50);
	assert_int_equal(h->buckets[IK_HIST_BUCKETS - 1], 2);
	assert_int_equal(ik__hist_percentile(h, 100), INT64_MAX);
	assert_int_equal(ik__hist_percentile(h, 0), (int64_t)1 << 50);
	int64_t p50 = ik__hist_percentile(h, 50);
	assert_true(p50 >= h->min && p50 <= h->max);

	/* a single value: every percentile is that value, even inside a wide bucket */
	ik__hist_init(h);
	ik__hist_add(h, 1234567);
	assert_int_equal(ik__hist_percentile(h, 0), 1234567);
	assert_int_equal(ik__hist_percentile(h, 50), 1234567);
	assert_int_equal(ik__hist_percentile(h, 99.9), 1234567);
	/* p outside 0..100 or NaN */
	assert_int_equal(ik__hist_percentile(h, -1), 1234567);
	assert_int_equal(ik__hist_percentile(h, 250), 1234567);
	assert_int_equal(ik__hist_percentile(h, NAN), 1234567);
	free(h);
}

static void test_merge(void **state)
{
	(void)state;
	struct ik_hist *all = new_hist(), *odd = new_hist(), *even = new_hist();
	for (int64_t v = 1; v <= 5000; v++) {
		int64_t x = v * 997 % 100003;
		ik__hist_add(all, x);
		ik__hist_add(v % 2 ? odd : even, x);
	}
	ik__hist_merge(odd, even);
	assert_int_equal(odd->count, all->count);
	assert_int_equal(odd->min, all->min);
	assert_int_equal(odd->max, all->max);
	assert_memory_equal(odd->buckets, all->buckets, sizeof(all->buckets));
	assert_true(fabs(odd->sum - all->sum) <= 1e-9 * all->sum);
	assert_int_equal(ik__hist_percentile(odd, 99), ik__hist_percentile(all, 99));

	/* merging an empty histogram changes nothing; merging into one copies */
	struct ik_hist *empty = new_hist();
	ik__hist_merge(all, empty);
	assert_int_equal(all->count, 5000);
	ik__hist_merge(empty, all);
	assert_int_equal(empty->count, all->count);
	assert_int_equal(empty->min, all->min);
	assert_int_equal(empty->max, all->max);
	assert_memory_equal(empty->buckets, all->buckets, sizeof(all->buckets));
	free(empty);
	free(all);
	free(odd);
	free(even);
}

/* Same samples in another order: the same histogram, bit for bit, except the float sum. */
static void test_deterministic(void **state)
{
	(void)state;
	struct ik_hist *a = new_hist(), *b = new_hist();
	for (int64_t v = 0; v < 3000; v++) {
		ik__hist_add(a, v * v);
		ik__hist_add(b, (2999 - v) * (2999 - v));
	}
	assert_memory_equal(a->buckets, b->buckets, sizeof(a->buckets));
	for (double p = 0; p <= 100; p += 0.5)
		assert_int_equal(ik__hist_percentile(a, p), ik__hist_percentile(b, p));
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),	      cmocka_unit_test(test_exact_small_values),
		cmocka_unit_test(test_one_to_thousand), cmocka_unit_test(test_relative_error),
		cmocka_unit_test(test_clamping),      cmocka_unit_test(test_merge),
		cmocka_unit_test(test_deterministic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
