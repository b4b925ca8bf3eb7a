/*
 * Unit tests of the teo governor (src/governors/teo.c) against hand-worked cases of the
 * kernel v6.19 algorithm (spec section 3, drivers/cpuidle/governors/teo.c).
 *
 * Each test drives the governor the way the core does: select (stop_tick starting true),
 * then ik_account_entered() for the state entered and its measured time, then reflect.
 * The governor's metrics are private, so each test states the metric values the kernel
 * algorithm produces at each step and checks the decision they lead to.
 *
 * Conventions in the derivations: tr[i] / el[i] = target residency / exit latency in ns,
 * HZ = 1000 so TICK_NSEC = 1 000 000, PULSE = 1024, decay(x) = x - x/8 (0 once x/8 is 0).
 * "I > A" is the intercept test 2*idx_intercept_sum > total - idx_hit_sum, which (since
 * total is the sum of all bins) means: intercepts below the candidate outnumber everything
 * at or above it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/governor.h"
#include "idlekit/kernel.h"

#define US 1000LL
#define MS 1000000LL
#define TICK (1 * MS) /* TICK_NSEC at HZ = 1000 */

struct fixture {
	struct ik_driver drv;
	struct ik_device dev;
};

static void add_state(struct ik_driver *drv, const char *name, unsigned exit_us,
		      unsigned residency_us)
{
	struct ik_state *s = &drv->states[drv->state_count++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->exit_latency = exit_us;
	s->target_residency = residency_us;
}

/* POLL, then the given states (exit latency, target residency in us). */
static struct fixture *make_fixture(int n, const unsigned (*states)[2])
{
	static const char *const names[] = {"S1", "S2", "S3", "S4", "S5", "S6"};
	struct fixture *f = calloc(1, sizeof(*f));
	char err[128];

	assert_non_null(f);
	snprintf(f->drv.name, sizeof(f->drv.name), "test");
	ik_poll_state_init(&f->drv);
	f->drv.state_count = 1;
	for (int i = 0; i < n; i++)
		add_state(&f->drv, names[i], states[i][0], states[i][1]);
	assert_int_equal(ik_driver_init(&f->drv, err, sizeof(err)), 0);
	ik_device_init(&f->dev, &f->drv, 0, 1000);
	assert_int_equal(ik_governor_teo.enable(&f->drv, &f->dev), 0);
	assert_non_null(f->dev.governor_data);
	return f;
}

/* Skylake-X: POLL, C1 2/2, C1E 10/20, C6 133/600 us. tr = 0, 2000, 20000, 600000 ns. */
static int setup_skx(void **state)
{
	static const unsigned skx[][2] = {{2, 2}, {10, 20}, {133, 600}};

	*state = make_fixture(3, skx);
	return 0;
}

/* POLL, C1 2/2, C6 133/600, C10 890/5000 us: a bin boundary beyond the tick (5 ms). */
static int setup_c10(void **state)
{
	static const unsigned c10[][2] = {{2, 2}, {133, 600}, {890, 5000}};

	*state = make_fixture(3, c10);
	return 0;
}

/* POLL, C1 2/2, C6 133/600, C8 200/1500, C10 890/5000 us: C8 is the first state >= tick. */
static int setup_deep5(void **state)
{
	static const unsigned deep5[][2] = {{2, 2}, {133, 600}, {200, 1500}, {890, 5000}};

	*state = make_fixture(4, deep5);
	return 0;
}

/* POLL, C1E 10/20, C6 133/600 us: state 1 is slower than LATENCY_THRESHOLD_NS (7.5 us). */
static int setup_no_c1(void **state)
{
	static const unsigned no_c1[][2] = {{10, 20}, {133, 600}};

	*state = make_fixture(2, no_c1);
	return 0;
}

/* POLL alone. */
static int setup_poll_only(void **state)
{
	*state = make_fixture(0, NULL);
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ik_governor_teo.disable(&f->drv, &f->dev);
	assert_null(f->dev.governor_data);
	free(f);
	return 0;
}

/* One select as the idle loop does it, with the tick code's answers filled in. */
static int pick(struct fixture *f, int64_t sleep_length_ns, int64_t delta_next_ns,
		bool tick_stopped, bool *stop_tick)
{
	f->dev.in.sleep_length_ns = sleep_length_ns;
	f->dev.in.delta_next_ns = delta_next_ns;
	f->dev.in.tick_stopped = tick_stopped;
	*stop_tick = true;
	return ik_governor_teo.select(&f->drv, &f->dev, stop_tick);
}

/* The end of one idle period: what the core records, then reflect. */
static void wake(struct fixture *f, int entered, int64_t measured_ns, bool by_tick,
		 bool poll_timed_out)
{
	f->dev.poll_time_limit = poll_timed_out;
	ik_account_entered(&f->drv, &f->dev, entered, measured_ns);
	f->dev.in.got_tick = by_tick;
	ik_governor_teo.reflect(&f->dev, entered);
}

static void teo_ops_table(void **state)
{
	(void)state;
	assert_string_equal(ik_governor_teo.name, "teo");
	assert_int_equal(ik_governor_teo.rating, 19);
}

/*
 * No history: all bins 0, total 0, so I > A is 0 > 0, false; the candidate stays the
 * deepest state 3.  tr[3] = 600 us >= 15 us, so the sleep length is asked for (10 ms);
 * 600 us <= 10 ms; tick_intercepts 0 is not > 0.  C6 does not poll and 10 ms >= TICK:
 * state 3, tick stopped.
 */
static void teo_no_history_picks_deepest_and_stops_tick(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	assert_true(stop);
	assert_int_equal(f->dev.sleep_length_queries, 1);
	assert_int_equal(f->dev.last_state_idx, -1);
}

/*
 * A hit: sleep length 10 ms (bin 3), C6 entered, woken by that timer after 10 ms.
 * measured = 10 000 000 - 133 000/2 = 9 933 500, also bin 3: hits[3] = 1024, total 1024.
 * Next select: nothing below state 3, I = 0 is not > A = 1024: state 3, tick stopped.
 */
static void teo_hit_keeps_deepest_state(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 10 * MS, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	assert_true(stop);
}

/*
 * An intercept within a tick period: sleep length 10 ms (bin 3), C6 entered, woken by an
 * IRQ after 200 us.  measured = 200 000 - 66 500 = 133 500, in bin 2 (20 000 <= 133 500 <
 * 600 000): intercepts[2] = 1024; 133 500 <= TICK so tick_intercepts = 1024; total 1024.
 * Next select: idx = 3, idx_intercept_sum = 1024, idx_hit_sum = 0; 2048 > 1024 - 0, so walk
 * from state 2: sum 1024, 2048 > 1024, stop at state 2.  tr[2] = 20 us >= 15 us, so the
 * sleep length (10 ms) is asked for.  tr[2] < TICK and tick_intercepts 1024 > 1024/2 +
 * 1024/8 = 640, so duration = TICK/2 = 500 us < TICK: the tick is kept; tr[2] = 20 us <=
 * delta_tick (1 ms) so state 2 stays.
 */
static void teo_intercept_within_tick_goes_shallower_and_keeps_tick(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 200 * US, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 2);
}

/*
 * Same intercept, but the next tick is only 10 us away (delta_next = 10 us).  Everything
 * as above until the tick is kept; then tr[2] = 20 us > 10 us, so the walk goes down from
 * state 1: enabled, tr[1] = 2 us <= 10 us: state 1.
 */
static void teo_kept_tick_limits_state_to_next_tick(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 200 * US, false, false);
	assert_int_equal(pick(f, 10 * MS, 10 * US, false, &stop), 1);
	assert_false(stop);
}

/*
 * An intercept longer than a tick (table POLL, C1, C6 600 us, C10 5 ms): sleep length
 * 20 ms (bin 3), C10 entered, woken after 2 ms.  measured = 2 000 000 - 445 000 =
 * 1 555 000, bin 2 (600 000 <= m < 5 000 000): intercepts[2] = 1024, and m > TICK so
 * tick_intercepts stays 0.  Next select: 2048 > 1024, walk stops at state 2 (sum 1024).
 * Sleep length 20 ms >= tr[2]; tick_intercepts 0 is not > 640, duration stays 20 ms >= TICK
 * and C6 does not poll: state 2 with the tick stopped.
 */
static void teo_intercept_beyond_tick_goes_shallower_and_stops_tick(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 20 * MS, TICK, false, &stop), 3);
	wake(f, 3, 2 * MS, false, false);
	assert_int_equal(pick(f, 20 * MS, TICK, false, &stop), 2);
	assert_true(stop);
}

/*
 * min_idx (table POLL, C1 2 us, C6 600 us, C8 1.5 ms, C10 5 ms).  First select: state 4.
 * C1 entered (as if the driver demoted), woken after 100 us: measured = 100 000 - 1 000 =
 * 99 000, bin 1; the sleep length 20 ms is in bin 4: intercepts[1] = 1024, total 1024,
 * tick_intercepts 1024.  Next select, idx = 4, 2048 > 1024: walk.
 *   Tick already stopped: min_idx starts at idx0 = 0 and passes tr[0] = 0, tr[1] = 2 us,
 *   tr[2] = 600 us (all < TICK), stopping at state 3 (1.5 ms).  The walk visits only state
 *   3 (intercepts 0; 0 is not > 1024): state 3.  tr[3] >= TICK skips the tick_intercepts
 *   rule; the tick is stopped anyway: state 3, stop_tick true.
 */
static void teo_stopped_tick_raises_min_idx(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 20 * MS, TICK, false, &stop), 4);
	wake(f, 1, 100 * US, false, false);
	assert_int_equal(pick(f, 20 * MS, 20 * MS, true, &stop), 3);
	assert_true(stop);
}

/*
 * Same history, tick running: min_idx = 0, the walk goes 3 (sum 0), 2 (sum 0), 1 (sum 1024,
 * 2048 > 1024): state 1.  tr[1] = 2 us < 15 us but short_idles = 0 (99 us was not short)
 * and latency_req is huge, so the sleep length is asked for; tick_intercepts 1024 > 640:
 * duration 500 us < TICK, tick kept; tr[1] <= delta_tick: state 1.
 */
static void teo_running_tick_walks_below_tick_length(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 20 * MS, TICK, false, &stop), 4);
	wake(f, 1, 100 * US, false, false);
	assert_int_equal(pick(f, 20 * MS, TICK, false, &stop), 1);
	assert_false(stop);
}

/*
 * latency_req 50 us: constraint_idx = deepest enabled state with el <= 50 us = 2 (C1E,
 * 10 us; C6 has 133 us).  No history, candidate 3, capped to 2.  tr[2] = 20 us >= 15 us:
 * sleep length 10 ms asked for; 10 ms >= TICK: state 2, tick stopped.
 */
static void teo_latency_limit_caps_state(void **state)
{
	struct fixture *f = *state;
	bool stop;

	f->dev.in.latency_req_ns = 50 * US;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	assert_true(stop);
	assert_int_equal(f->dev.sleep_length_queries, 1);
}

/*
 * latency_req 1 us: no state >= 1 has el <= 1 us, constraint_idx = 0, idx = 0.  idx == 0
 * and 1 000 < LATENCY_THRESHOLD_NS (7 500): return 0 with the tick kept, without asking
 * for the sleep length.
 */
static void teo_tight_latency_returns_without_sleep_length(void **state)
{
	struct fixture *f = *state;
	bool stop;

	f->dev.in.latency_req_ns = 1 * US;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 0);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 0);
}

/*
 * The exit latency correction is half the exit latency, in integers.  C6 (el 133 000)
 * entered with a 10 ms sleep length (bin 3):
 *   666 500 ns measured: 666 500 - 66 500 = 600 000 = tr[3], bin 3: a hit, next select
 *   state 3 with the tick stopped;
 *   666 499 ns measured: 599 999, bin 2: an intercept (within a tick), next select state 2
 *   with the tick kept, as in the intercept test.
 */
static void teo_exit_latency_halved_hit(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 666500, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	assert_true(stop);
}

static void teo_exit_latency_halved_intercept(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 666499, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	assert_false(stop);
}

/*
 * The short-idle threshold (15 us after the correction).  C1 (el 2 000) entered with a
 * 10 ms sleep length, so the wakeup is an intercept in bin 1 either way and the next select
 * walks to state 1 (tr 2 us < 15 us); what differs is short_idles:
 *   15 999 ns: 15 999 - 1 000 = 14 999 < 15 000, short_idles = 1024, 2*1024 >= 1024: state
 *   1 at once, tick kept, no sleep length query;
 *   16 000 ns: 15 000 is not short, 0 >= 1024 fails: the sleep length is asked for, then
 *   tick_intercepts 1024 > 640 keeps the tick: state 1, tick kept, one more query.
 */
static void teo_short_idle_threshold(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 1, 15999, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 1);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 1);
}

static void teo_not_short_idle_asks_sleep_length(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 1, 16000, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 1);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 2);
}

/*
 * LATENCY_THRESHOLD_NS = 7 500 with some history (a 10 ms hit on C6: total 1024,
 * short_idles 0, so the short-idle half of the shortcut fails).
 *   latency_req 7 499: constraint_idx = 1 (C1 el 2 us), tr[1] < 15 us and 7 499 < 7 500:
 *   state 1 at once, tick kept, no query;
 *   latency_req 7 500: no shortcut, sleep length 10 ms asked for, C1 does not poll and
 *   10 ms >= TICK: state 1 with the tick stopped.
 */
static void teo_latency_threshold(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 10 * MS, false, false);
	f->dev.in.latency_req_ns = 7499;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 1);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 1);
	wake(f, 1, 10 * MS, false, false);
	f->dev.in.latency_req_ns = 7500;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 1);
	assert_true(stop);
	assert_int_equal(f->dev.sleep_length_queries, 2);
}

/*
 * Short idles: C6 entered, woken after 5 us < el (133 us): measured = 5 000 / 2 = 2 500 and
 * short_idles = 1024.  2 500 is in bin 1 (2 000 <= 2 500 < 20 000), the sleep length (10 ms)
 * in bin 3: intercepts[1] = 1024, total 1024.  Next select: I = 1024 > 0, walk 2 (sum 0),
 * 1 (sum 1024): state 1.  tr[1] = 2 us < 15 us and 2*1024 >= 1024: return 1, tick kept,
 * sleep length not asked for (still one query, from the first select).
 */
static void teo_short_idles_return_without_sleep_length(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 5 * US, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 1);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 1);
}

/*
 * State 0 chosen after asking for the sleep length (table POLL, C1E 10/20, C6 133/600).
 * A 10 ms hit on state 2 first: hits[2] = 1024, total 1024, short_idles 0.  Then
 * latency_req = 8 us: no state >= 1 has el <= 8 us, constraint_idx = 0, idx = 0.  Not a
 * shortcut: 2*0 >= 1024 is false and 8 000 >= 7 500, so the sleep length is asked for;
 * idx == 0 then returns 0 with the tick kept.
 */
static void teo_state0_after_sleep_length_keeps_tick(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	wake(f, 2, 10 * MS, false, false);
	f->dev.in.latency_req_ns = 8 * US;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 0);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 2);
	/* State 0 keeps the tick even when it is already stopped (a second 10 ms hit: hits[2] =
	 * 896 + 1024 = total = 1920, short_idles 0, so again no shortcut). */
	wake(f, 0, 10 * MS, false, false);
	assert_int_equal(pick(f, 10 * MS, 10 * MS, true, &stop), 0);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 3);
}

/*
 * Sleep length below the candidate's residency: no history, candidate 3; sleep length
 * 100 us < tr[3] = 600 us, so walk down: state 2 is enabled and 20 us <= 100 us: state 2.
 * duration 100 us < TICK: the tick is kept (tr[2] <= delta_tick = 100 us).
 */
static void teo_sleep_length_below_residency_walks_down(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 100 * US, 100 * US, false, &stop), 2);
	assert_false(stop);
}

/* As above with the tick already stopped: state 2, and the tick stays stopped. */
static void teo_sleep_length_below_residency_tick_stopped(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 100 * US, 100 * US, true, &stop), 2);
	assert_true(stop);
}

/*
 * Tick wakeups dominate: the 200 us wakeup of the intercept test, but by the tick.  In the
 * update total = 0 + 1024, total_tick = 0 + 1024, 3*1024 > 2*1024: hits[3] += 1024 and
 * nothing else (no intercept, no tick_intercept).  Next select: I = 0: state 3, tick
 * stopped (compare teo_intercept_within_tick_goes_shallower_and_keeps_tick).
 */
static void teo_dominant_tick_wakeups_count_as_deepest_hit(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 200 * US, true, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	assert_true(stop);
}

/*
 * The tick-dominated hit goes to the deepest bin, not to the sleep length's bin.  Two tick
 * wakeups after 50 us with a 100 us sleep length (bin 2; C1E entered, measured 45 000,
 * bin 2): each time 3*total_tick > 2*total (1024 vs 1024, then 1920 vs 1920), so hits[3]
 * gets 1024, then 896 + 1024 = 1920.  (Each select in between: no intercepts, candidate 3,
 * 600 us > 100 us sleep length walks to state 2; then with a 10 ms sleep length state 3.)
 * Then an intercept without the tick: C1 entered, 18 us, measured 17 000, bin 1 with the
 * sleep length in bin 3: intercepts[1] = 1024, hits[3] = 1680, total 2704.  Next select:
 * I = 1024, A = hits[3] = 1680, 2048 > 2704 fails: no walk, state 3, tick stopped.  (Had
 * the hits gone to bin 2, A would be 0 and the walk would pick state 1.)
 */
static void teo_dominant_tick_hit_goes_to_deepest_bin(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 100 * US, 100 * US, false, &stop), 2);
	wake(f, 2, 50 * US, true, false);
	assert_int_equal(pick(f, 100 * US, 100 * US, false, &stop), 2);
	wake(f, 2, 50 * US, true, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 1, 18 * US, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	assert_true(stop);
}

/*
 * A tick wakeup that does not dominate: first a 10 ms hit (hits[3] = 1024, total 1024,
 * total_tick 0).  Then the 200 us tick wakeup: hits[3] decays to 896, total = 896 + 1024 =
 * 1920; total_tick = 1024 and 3072 > 3840 is false, so it is classified normally: an
 * intercept in bin 2, tick_intercepts = 1024.  Next select: I = 1024, total - idx_hit_sum =
 * 1920, 2048 > 1920: walk stops at state 2 (2048 > 1024).  tick_intercepts 1024 is not >
 * 1920/2 + 1920/8 = 1200, duration stays 10 ms: state 2 with the tick stopped.
 */
static void teo_minority_tick_wakeup_is_classified_normally(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 10 * MS, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 200 * US, true, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	assert_true(stop);
}

/*
 * Poll timeout: latency_req 1 us makes teo return POLL without a sleep length (so the
 * saved sleep length is KTIME_MAX, bin 3).  The poll runs 50 us and times out.  The update
 * clears dev->poll_time_limit and takes measured = S64_MAX: bin 3 too, a hit on state 3.
 * With the limit lifted, the next select sees no intercepts: state 3, tick stopped.
 */
static void teo_poll_timeout_counts_as_long_idle(void **state)
{
	struct fixture *f = *state;
	bool stop;

	f->dev.in.latency_req_ns = 1 * US;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 0);
	wake(f, 0, 50 * US, false, true);
	assert_true(f->dev.poll_time_limit);
	f->dev.in.latency_req_ns = IK_LATENCY_REQ_NONE_NS;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	assert_true(stop);
	assert_false(f->dev.poll_time_limit);
}

/*
 * The same poll woken after 50 us by an IRQ (no timeout): measured = 50 000 - 0/2 = 50 000,
 * bin 2, while the sleep length (KTIME_MAX) is in bin 3: an intercept in bin 2 and a
 * tick_intercept (50 us <= TICK).  Next select: as in the intercept test, state 2 with the
 * tick kept.
 */
static void teo_poll_without_timeout_is_an_intercept(void **state)
{
	struct fixture *f = *state;
	bool stop;

	f->dev.in.latency_req_ns = 1 * US;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 0);
	wake(f, 0, 50 * US, false, false);
	f->dev.in.latency_req_ns = IK_LATENCY_REQ_NONE_NS;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	assert_false(stop);
}

/*
 * 6.19 decay drops small leftovers.  One intercept in bin 1 (C1 entered, woken after 18 us
 * with a 10 ms sleep length: measured 18 000 - 1 000 = 17 000, not short, in bin 1), then
 * only hits in bin 2: sleep length 100 us (bin 2), the chosen state entered, woken after
 * 100 us (measured 99 000 or more, bin 2).  Bin 3 and bin 0 stay empty, so at each select
 * I = intercepts[1] and A = 0: the walk runs while intercepts[1] > 0 and stops at state 1
 * (sum intercepts[1] > intercepts[1]/2); once it is 0 there is no walk, candidate 3 meets
 * the 100 us sleep length and walks down to state 2.  intercepts[1] after k hits:
 *   1024 896 784 686 601 526 461 404 354 310 272 238 209 183 161 141 124 109 96 84 74 65
 *   57 50 44 39 35 31 28 25 22 20 18 16 14 13 12 11 10 9 8 7, then 0 (k = 42),
 * where a kernel before 6.19 would keep 7 (7 >> 3 = 0) and pick state 1 forever.
 */
static void teo_decay_drops_small_leftovers(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 1, 18 * US, false, false);
	for (int k = 0; k <= 45; k++) {
		int idx = pick(f, 100 * US, 100 * US, false, &stop);

		assert_int_equal(idx, k < 42 ? 1 : 2);
		assert_false(stop);
		wake(f, idx, 100 * US, false, false);
	}
}

/*
 * A fresh CPU with only POLL and C1 enabled: candidate 1 (tr 2 us < 15 us), and with no
 * history 2*short_idles >= total is 0 >= 0, true: state 1 at once, tick kept, no query.
 */
static void teo_fresh_shallow_choice_skips_sleep_length(void **state)
{
	struct fixture *f = *state;
	bool stop;

	f->dev.states_disable[2] = IK_DISABLE_USER;
	f->dev.states_disable[3] = IK_DISABLE_USER;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 1);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 0);
}

/* A driver with one state: state 0, tick kept, nothing asked. */
static void teo_single_state_driver(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 0);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 0);
}

/* Every state disabled: state 0 anyway, tick kept. */
static void teo_all_states_disabled(void **state)
{
	struct fixture *f = *state;
	bool stop;

	for (int i = 0; i < f->drv.state_count; i++)
		f->dev.states_disable[i] = IK_DISABLE_USER;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 0);
	assert_false(stop);
}

/*
 * Only C6 enabled: idx0 = idx = 3, duration = tr[3] = 600 us < TICK, so the tick is kept
 * (idx == idx0: no walk to delta_tick).  With the tick already stopped it stays stopped.
 * The sleep length is never asked for.
 */
static void teo_single_enabled_state(void **state)
{
	struct fixture *f = *state;
	bool stop;

	for (int i = 0; i < 3; i++)
		f->dev.states_disable[i] = IK_DISABLE_USER;
	assert_int_equal(pick(f, 10 * MS, 10 * US, false, &stop), 3);
	assert_false(stop);
	assert_int_equal(pick(f, 10 * MS, 10 * MS, true, &stop), 3);
	assert_true(stop);
	assert_int_equal(f->dev.sleep_length_queries, 0);
}

/*
 * Only POLL enabled: idx = idx0 = 0, duration = tr[0] = 0 and POLL polls: tick kept.
 */
static void teo_only_poll_enabled(void **state)
{
	struct fixture *f = *state;
	bool stop;

	for (int i = 1; i < f->drv.state_count; i++)
		f->dev.states_disable[i] = IK_DISABLE_USER;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 0);
	assert_false(stop);
}

/*
 * A rejected entry is not reflected, so the next select does no update: after the intercept
 * of the intercept test, two selects in a row without reflect both give state 2 with the
 * tick kept (an update with last_state_idx = -1 would have been out of bounds).
 */
static void teo_no_update_without_reflect(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 200 * US, false, false);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	ik_account_rejected(&f->dev, 2);
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	assert_false(stop);
}

/* disable + enable forgets the history: the intercept no longer matters. */
static void teo_enable_resets_history(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	wake(f, 3, 200 * US, false, false);
	ik_governor_teo.disable(&f->drv, &f->dev);
	assert_int_equal(ik_governor_teo.enable(&f->drv, &f->dev), 0);
	f->dev.last_state_idx = -1; /* as after device registration */
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	assert_true(stop);
}

/* ---- teo_util (6.3-6.10, in the 6.6 form) --------------------------------------------- */

/*
 * A two- or four-state driver run as 6.6: states given as (exit, residency, polling); the
 * capacity the CPU has when teo is enabled.
 */
static struct fixture *make_fixture_6_6(int n, const unsigned (*states)[3],
					unsigned long capacity, struct ik_kernel *k)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char err[128];

	assert_non_null(f);
	snprintf(f->drv.name, sizeof(f->drv.name), "test");
	for (int i = 0; i < n; i++) {
		add_state(&f->drv, i ? "S" : "S0", states[i][0], states[i][1]);
		if (states[i][2])
			f->drv.states[i].flags |= IK_FLAG_POLLING;
	}
	assert_int_equal(ik_driver_init(&f->drv, err, sizeof(err)), 0);
	ik_device_init(&f->dev, &f->drv, 0, 1000);
	ik_kernel_init(k, 606);
	f->dev.kernel = k;
	f->dev.in.cpu_capacity = capacity;
	assert_int_equal(ik_governor_teo.enable(&f->drv, &f->dev), 0);
	return f;
}

static void free_fixture(struct fixture *f)
{
	ik_governor_teo.disable(&f->drv, &f->dev);
	free(f);
}

/*
 * Two states, a polling state 0 (POLL 0/0, C1E 10/20): a busy CPU (util 100 > 1024 >> 6)
 * needs no metrics and no sleep length: state 0 polls, so state 1 with its residency as the
 * duration, 20 us < a tick: the tick kept.  At 16 (not above 16): the normal path asks the
 * sleep length (10 ms) and stops the tick.
 */
static void teo_util_two_states_polling_state0(void **state)
{
	static const unsigned st[][3] = {{0, 0, 1}, {10, 20, 0}};
	struct ik_kernel k;
	struct fixture *f = make_fixture_6_6(2, st, 1024, &k);
	bool stop;

	(void)state;
	f->dev.in.cpu_util = 100;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 1);
	assert_false(stop);
	assert_int_equal(f->dev.sleep_length_queries, 0);
	f->dev.in.cpu_util = 16;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 1);
	assert_true(stop);
	assert_int_equal(f->dev.sleep_length_queries, 1);
	free_fixture(f);
}

/*
 * Two states without polling (C1 1/1, C2 18/36): a busy CPU takes C1 at once, tick kept;
 * with the tick stopped C1 (1 us < a tick) is not deep enough: C2, the tick left stopped.
 */
static void teo_util_two_states_no_poll(void **state)
{
	static const unsigned st[][3] = {{1, 1, 0}, {18, 36, 0}};
	struct ik_kernel k;
	struct fixture *f = make_fixture_6_6(2, st, 1024, &k);
	bool stop;

	(void)state;
	f->dev.in.cpu_util = 1024;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 0);
	assert_false(stop);
	assert_int_equal(pick(f, 10 * MS, 10 * MS, true, &stop), 1);
	assert_true(stop);
	assert_int_equal(f->dev.sleep_length_queries, 0);
	free_fixture(f);
}

/*
 * The threshold is the capacity at enable >> 6: 512 -> 8, so util 10 is busy on the
 * four-state table (C6 -> C1E, the next shallower non-polling state), and stays so when
 * the capacity changes afterwards (the kernel reads it once, in teo_enable_device()).
 */
static void teo_util_threshold_from_capacity_at_enable(void **state)
{
	static const unsigned st[][3] = {{0, 0, 1}, {2, 2, 0}, {10, 20, 0}, {133, 600, 0}};
	struct ik_kernel k;
	struct fixture *f = make_fixture_6_6(4, st, 512, &k);
	bool stop;

	(void)state;
	f->dev.in.cpu_util = 10;
	f->dev.in.cpu_capacity = 1024;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 2);
	f->dev.in.cpu_util = 8;
	assert_int_equal(pick(f, 10 * MS, TICK, false, &stop), 3);
	free_fixture(f);

	/* the same CPU as 6.12: no utilisation check */
	struct fixture *g = make_fixture_6_6(4, st, 512, &k);
	ik_governor_teo.disable(&g->drv, &g->dev);
	ik_kernel_init(&k, 612);
	assert_int_equal(ik_governor_teo.enable(&g->drv, &g->dev), 0);
	g->dev.in.cpu_util = 1024;
	assert_int_equal(pick(g, 10 * MS, TICK, false, &stop), 3);
	free_fixture(g);
}

#define T(fn, setup) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(teo_ops_table),
		T(teo_no_history_picks_deepest_and_stops_tick, setup_skx),
		T(teo_hit_keeps_deepest_state, setup_skx),
		T(teo_intercept_within_tick_goes_shallower_and_keeps_tick, setup_skx),
		T(teo_kept_tick_limits_state_to_next_tick, setup_skx),
		T(teo_intercept_beyond_tick_goes_shallower_and_stops_tick, setup_c10),
		T(teo_stopped_tick_raises_min_idx, setup_deep5),
		T(teo_running_tick_walks_below_tick_length, setup_deep5),
		T(teo_latency_limit_caps_state, setup_skx),
		T(teo_tight_latency_returns_without_sleep_length, setup_skx),
		T(teo_exit_latency_halved_hit, setup_skx),
		T(teo_exit_latency_halved_intercept, setup_skx),
		T(teo_short_idle_threshold, setup_skx),
		T(teo_not_short_idle_asks_sleep_length, setup_skx),
		T(teo_latency_threshold, setup_skx),
		T(teo_short_idles_return_without_sleep_length, setup_skx),
		T(teo_state0_after_sleep_length_keeps_tick, setup_no_c1),
		T(teo_sleep_length_below_residency_walks_down, setup_skx),
		T(teo_sleep_length_below_residency_tick_stopped, setup_skx),
		T(teo_dominant_tick_wakeups_count_as_deepest_hit, setup_skx),
		T(teo_dominant_tick_hit_goes_to_deepest_bin, setup_skx),
		T(teo_minority_tick_wakeup_is_classified_normally, setup_skx),
		T(teo_poll_timeout_counts_as_long_idle, setup_skx),
		T(teo_poll_without_timeout_is_an_intercept, setup_skx),
		T(teo_decay_drops_small_leftovers, setup_skx),
		T(teo_fresh_shallow_choice_skips_sleep_length, setup_skx),
		T(teo_single_state_driver, setup_poll_only),
		T(teo_all_states_disabled, setup_skx),
		T(teo_single_enabled_state, setup_skx),
		T(teo_only_poll_enabled, setup_skx),
		T(teo_no_update_without_reflect, setup_skx),
		T(teo_enable_resets_history, setup_skx),
		cmocka_unit_test(teo_util_two_states_polling_state0),
		cmocka_unit_test(teo_util_two_states_no_poll),
		cmocka_unit_test(teo_util_threshold_from_capacity_at_enable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
