/*
 * The harness in two halves (src/sim/govreplay.c: ik__govreplay_enter, ik__govreplay_earliest,
 * ik__govreplay_exit), which replay needs to enter a CPU before it knows the wake: the halves
 * give exactly what the one-call ik__govreplay_step gives, and the entry does not depend on
 * the wake.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "idlekit/cpuidle.h"
#include "sim/govreplay.h"
#include "table_fixture.h"

#define US 1000LL
#define MS 1000000LL
#define TICK_250 4000000LL /* TICK_NSEC at HZ 250 */


static void harness(struct ik_govreplay *g, const char *gov)
{
	struct ik_driver drv;
	char err[256];
	make_table(&drv);
	assert_int_equal(ik__govreplay_init(g, &drv, ik_governor_find(gov), 250, NULL, err,
					   sizeof(err)), 0);
	assert_int_equal(ik__govreplay_start(g, err, sizeof(err)), 0);
}

/* A varied period i: timers, ticks, wakes, none of them, a stopped tick, a latency limit. */
static struct ik_govreplay_input period(int i)
{
	struct ik_govreplay_input in = {
		.sleep_ns = i % 7 ? (int64_t)(i * 7919) % (5 * MS) : IK_KTIME_MAX,
		.tick_ns = 1 + (i * 104729) % TICK_250,
		.wake_ns = i % 3 ? (int64_t)(i * 31) % (900 * US) : IK_KTIME_MAX,
		.latency_req_ns = i % 13 == 0 ? 20 * US : IK_LATENCY_REQ_NONE_NS,
		.tick_stopped = i % 11 == 0,
	};
	if (i % 17 == 0) { /* nothing at all, the tick stopped: the 10 s default */
		in.sleep_ns = in.wake_ns = IK_KTIME_MAX;
		in.tick_stopped = true;
	}
	return in;
}

/* Every real governor: the halves and the step, side by side on the same periods, agree on
   every result and every counter the core keeps. */
static void test_halves_are_the_step(void **state)
{
	(void)state;
	static const char *const names[] = { "menu", "teo", "ladder", "haltpoll" };
	int wakes[5] = { 0 };
	for (size_t k = 0; k < 4; k++) {
		struct ik_govreplay a, b;
		harness(&a, names[k]);
		harness(&b, names[k]);
		for (int i = 0; i < 3000; i++) {
			struct ik_govreplay_input in = period(i);
			struct ik_govreplay_result ra, rb;
			ik__govreplay_step(&a, &in, &ra);

			struct ik_govreplay_entered e;
			int64_t at;
			ik__govreplay_enter(&b, &in, &e);
			enum ik_govreplay_event ev = ik__govreplay_earliest(&in, &e, &at);
			ik__govreplay_exit(&b, &e, ev, at, &rb);

			assert_int_equal(ra.state, rb.state);
			assert_int_equal(ra.state, e.state);
			assert_int_equal(ra.stop_tick, rb.stop_tick);
			assert_int_equal(ra.tick_kept, rb.tick_kept);
			assert_int_equal(ra.woken_by, rb.woken_by);
			assert_int_equal(ra.wake_at_ns, rb.wake_at_ns);
			assert_int_equal(ra.last_residency_ns, rb.last_residency_ns);
			assert_int_equal(a.clock_ns, b.clock_ns);
			wakes[ra.woken_by]++;
		}
		assert_int_equal(a.lines, b.lines);
		assert_int_equal(a.stop_tick_count, b.stop_tick_count);
		for (int s = 0; s < a.drv.state_count; s++) {
			assert_int_equal(a.dev.states_usage[s].usage, b.dev.states_usage[s].usage);
			assert_int_equal(a.dev.states_usage[s].time_ns, b.dev.states_usage[s].time_ns);
			assert_int_equal(a.dev.states_usage[s].above, b.dev.states_usage[s].above);
			assert_int_equal(a.dev.states_usage[s].below, b.dev.states_usage[s].below);
		}
		ik__govreplay_free(&a);
		ik__govreplay_free(&b);
	}
	/* the periods did end by every kind of event: a wake, a timer, the tick (menu and teo
	   keep it), the poll limit (haltpoll polls) and the 10 s default */
	for (int ev = 0; ev < 5; ev++)
		assert_true(wakes[ev] > 0);
}

/* The entry is decided without the wake: the same history and the same timer and tick give
   the same state whatever wake_ns says. */
static void test_entry_ignores_the_wake(void **state)
{
	(void)state;
	static const char *const names[] = { "menu", "teo", "ladder", "haltpoll" };
	for (size_t k = 0; k < 4; k++) {
		struct ik_govreplay a, b;
		harness(&a, names[k]);
		harness(&b, names[k]);
		for (int i = 0; i < 500; i++) {
			struct ik_govreplay_input in = period(i);
			struct ik_govreplay_input other = in;
			other.wake_ns = in.wake_ns == IK_KTIME_MAX ? 3 * US : IK_KTIME_MAX;
			struct ik_govreplay_entered ea, eb;
			ik__govreplay_enter(&a, &in, &ea);
			ik__govreplay_enter(&b, &other, &eb);
			assert_int_equal(ea.state, eb.state);
			assert_int_equal(ea.stop_tick, eb.stop_tick);
			assert_int_equal(ea.tick_kept, eb.tick_kept);
			/* both woken by the first input's event: the histories stay the same */
			int64_t at;
			enum ik_govreplay_event ev = ik__govreplay_earliest(&in, &ea, &at);
			struct ik_govreplay_result ra, rb;
			ik__govreplay_exit(&a, &ea, ev, at, &ra);
			ik__govreplay_exit(&b, &eb, ev, at, &rb);
			assert_int_equal(ra.last_residency_ns, rb.last_residency_ns);
		}
		ik__govreplay_free(&a);
		ik__govreplay_free(&b);
	}
}

/* The caller may wake the CPU by an event it learnt of after the entry: exit accounts what
   it is told.  menu, with nothing learnt yet, a 5 ms timer and the tick at 4 ms, enters its
   deepest state C3 (exit 100 us, target 600 us); woken at 300 us by a wake the input did
   not have: measured 300 + 100 = 400 us, one usage of C3, too deep. */
static void test_exit_as_told(void **state)
{
	(void)state;
	struct ik_govreplay g;
	harness(&g, "menu");
	struct ik_govreplay_input in = {
		.sleep_ns = 5 * MS, .tick_ns = TICK_250, .wake_ns = IK_KTIME_MAX,
		.latency_req_ns = IK_LATENCY_REQ_NONE_NS, .tick_stopped = false,
	};
	struct ik_govreplay_entered e;
	ik__govreplay_enter(&g, &in, &e);
	assert_int_equal(e.state, 3); /* nothing known yet: the timer's 5 ms, past C3's 600 us */
	struct ik_govreplay_result r;
	ik__govreplay_exit(&g, &e, IK_GOVREPLAY_WAKE, 300 * US, &r);
	assert_int_equal(r.state, 3);
	assert_int_equal(r.woken_by, IK_GOVREPLAY_WAKE);
	assert_int_equal(r.wake_at_ns, 300 * US);
	assert_int_equal(r.last_residency_ns, 400 * US);
	assert_int_equal(g.clock_ns, 400 * US);
	assert_int_equal(g.dev.states_usage[3].usage, 1);
	assert_int_equal(g.dev.states_usage[3].above, 1); /* 400 us < C3's 600 us target */
	assert_int_equal(g.lines, 1);
	ik__govreplay_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_halves_are_the_step),
		cmocka_unit_test(test_entry_ignores_the_wake),
		cmocka_unit_test(test_exit_as_told),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
