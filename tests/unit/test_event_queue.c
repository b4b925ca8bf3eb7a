/* The simulator's timer queue (wheel and heap) against a plain array doing the same
   operations. */
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

	assert_int_equal(ik__eq_init(&q, N), 0);
	for (int step = 0; step < 200000; step++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int id = (int)(x % N);
		int op = (int)((x >> 20) % 4);
		if (op <= 1) {
			int64_t when = (int64_t)((x >> 32) % 1000); /* many ties on purpose */
			ik__eq_arm(&q, id, when);
			t[id] = when;
			armed[id] = 1;
		} else if (op == 2) {
			ik__eq_cancel(&q, id);
			armed[id] = 0;
		} else if ((x >> 40) & 1) { /* pop only up to a time (the simulator's loop) */
			int64_t when, until = (int64_t)((x >> 44) % 1000);
			int want = ref_min(t, armed);
			if (want >= 0 && t[want] > until)
				want = -1;
			assert_int_equal(ik__eq_pop_until(&q, until, &when), want);
			if (want >= 0) {
				assert_int_equal(when, t[want]);
				armed[want] = 0;
			}
		} else {
			int64_t when;
			int want = ref_min(t, armed);
			assert_int_equal(ik__eq_pop(&q, &when), want);
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
	ik__eq_free(&q);
}

/*
 * As the simulator uses it: time moves on, and timers are armed from the last popped time
 * onwards at distances from nothing to far beyond the wheel's span (so timers move
 * between the wheel and the heap, the wheel wraps round many times, and a timer lands
 * exactly on a slot's edge), with some armed in the past.
 */
static void test_moving_clock(void **state)
{
	(void)state;
	struct ik_event_queue q;
	int64_t t[N] = { 0 }, now = 0;
	int armed[N] = { 0 };
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	const int64_t span = (int64_t)IK_EQ_SLOTS << IK_EQ_SHIFT;

	assert_int_equal(ik__eq_init(&q, N), 0);
	for (int step = 0; step < 300000; step++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int id = (int)(x % N);
		int op = (int)((x >> 20) % 5);
		if (op <= 2) {
			int64_t d;
			switch ((x >> 32) % 6) {
			case 0: d = (int64_t)((x >> 40) % 200); break;          /* same slot or next */
			case 1: d = (int64_t)((x >> 40) % (uint64_t)span); break; /* in the span */
			case 2: d = span - 1 + (int64_t)((x >> 40) % 3); break;   /* its edge */
			case 3: d = (int64_t)((x >> 40) % (uint64_t)(8 * span)); break; /* far */
			case 4: d = -(int64_t)((x >> 40) % 500); break;            /* in the past */
			default: d = ((int64_t)((x >> 40) % 64)) << IK_EQ_SHIFT; break; /* slot edges */
			}
			int64_t when = now + d;
			ik__eq_arm(&q, id, when);
			t[id] = when;
			armed[id] = 1;
		} else if (op == 3) {
			ik__eq_cancel(&q, id);
			armed[id] = 0;
		} else {
			int64_t when, until = now + (int64_t)((x >> 44) % (uint64_t)(2 * span));
			int want = ref_min(t, armed);
			if (want >= 0 && t[want] > until)
				want = -1;
			assert_int_equal(ik__eq_pop_until(&q, until, &when), want);
			if (want >= 0) {
				assert_int_equal(when, t[want]);
				assert_true(ik__eq_peek_time(&q) >= when);
				armed[want] = 0;
				if (when > now)
					now = when;
			}
		}
		for (int i = 0; i < N; i++) {
			assert_int_equal(ik__eq_armed(&q, i), armed[i]);
			if (armed[i])
				assert_int_equal(ik__eq_expires(&q, i), t[i]);
		}
	}
	ik__eq_free(&q);
}

static void test_tie_broken_by_id(void **state)
{
	(void)state;
	struct ik_event_queue q;
	int64_t when;

	assert_int_equal(ik__eq_init(&q, 4), 0);
	ik__eq_arm(&q, 3, 10);
	ik__eq_arm(&q, 1, 10);
	ik__eq_arm(&q, 2, 5);
	ik__eq_arm(&q, 2, 10); /* moved later: now ties with 1 and 3 */
	assert_int_equal(ik__eq_peek_time(&q), 10);
	assert_int_equal(ik__eq_pop(&q, &when), 1);
	assert_int_equal(ik__eq_pop(&q, &when), 2);
	assert_int_equal(ik__eq_pop(&q, &when), 3);
	assert_int_equal(ik__eq_pop(&q, &when), -1);
	assert_true(ik__eq_peek_time(&q) == INT64_MAX);
	ik__eq_free(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_reference),
		cmocka_unit_test(test_moving_clock),
		cmocka_unit_test(test_tie_broken_by_id),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
