/* The simulator's timer heap against a plain array doing the same operations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/event_queue.h"

#define N 64

/* Earliest armed timer of the reference, ties by id. */
static int ref_min(const int64_t *t, const int *armed)
{
	int best = -1;
	for (int i = 0; i < N; i++)
		if (armed[i] && (best < 0 || t[i] < t[best]))
			best = i;
	return best;
}

static void test_matches_reference(void **state)
{
	(void)state;
	struct ik_event_queue q;
	int64_t t[N] = { 0 };
	int armed[N] = { 0 };
	uint64_t x = 88172645463325252ULL;

	assert_int_equal(ik_eq_init(&q, N), 0);
	for (int step = 0; step < 200000; step++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int id = (int)(x % N);
		int op = (int)((x >> 20) % 4);
		if (op <= 1) {
			int64_t when = (int64_t)((x >> 32) % 1000); /* many ties on purpose */
			ik_eq_arm(&q, id, when);
			t[id] = when;
			armed[id] = 1;
		} else if (op == 2) {
			ik_eq_cancel(&q, id);
			armed[id] = 0;
		} else if ((x >> 40) & 1) { /* pop only up to a time (the simulator's loop) */
			int64_t when, until = (int64_t)((x >> 44) % 1000);
			int want = ref_min(t, armed);
			if (want >= 0 && t[want] > until)
				want = -1;
			assert_int_equal(ik_eq_pop_until(&q, until, &when), want);
			if (want >= 0) {
				assert_int_equal(when, t[want]);
				armed[want] = 0;
			}
		} else {
			int64_t when;
			int want = ref_min(t, armed);
			assert_int_equal(ik_eq_pop(&q, &when), want);
			if (want >= 0) {
				assert_int_equal(when, t[want]);
				armed[want] = 0;
			}
		}
		int count = 0;
		for (int i = 0; i < N; i++)
			count += armed[i];
		assert_int_equal(q.size, count);
	}
	ik_eq_free(&q);
}

static void test_tie_broken_by_id(void **state)
{
	(void)state;
	struct ik_event_queue q;
	int64_t when;

	assert_int_equal(ik_eq_init(&q, 4), 0);
	ik_eq_arm(&q, 3, 10);
	ik_eq_arm(&q, 1, 10);
	ik_eq_arm(&q, 2, 5);
	ik_eq_arm(&q, 2, 10); /* moved later: now ties with 1 and 3 */
	assert_int_equal(ik_eq_peek_time(&q), 10);
	assert_int_equal(ik_eq_pop(&q, &when), 1);
	assert_int_equal(ik_eq_pop(&q, &when), 2);
	assert_int_equal(ik_eq_pop(&q, &when), 3);
	assert_int_equal(ik_eq_pop(&q, &when), -1);
	assert_true(ik_eq_peek_time(&q) == INT64_MAX);
	ik_eq_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_reference),
		cmocka_unit_test(test_tie_broken_by_id),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
