/*
 * Unit tests of the ladder governor (src/governors/ladder.c) against hand-worked cases of
 * the kernel v6.19 algorithm (spec section 4, drivers/cpuidle/governors/ladder.c).
 *
 * The core's part is played by idle(): ik_account_entered() records the measured time as
 * last_residency_ns, then reflect.  Then pick() calls select, which must never clear
 * stop_tick.
 *
 * Table used unless said otherwise (Skylake-X): POLL 0/0, C1 2/2, C1E 10/20, C6 133/600 us,
 * so el = 0, 2 000, 10 000, 133 000 ns.  State 0 polls, so the bottom rung (first_idx) is 1.
 * Thresholds set by enable: promotion_time[i] = el[i] for i = 1, 2 (not the last state),
 * demotion_time[i] = el[i] for i = 2, 3 (not first_idx); 4 promotions, 1 demotion.  The
 * residency compared is last_residency_ns - el[last], compared unsigned.
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

#define US 1000LL
#define MS 1000000LL

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

static struct fixture *finish_fixture(struct fixture *f)
{
	char err[128];

	assert_int_equal(ik_driver_init(&f->drv, err, sizeof(err)), 0);
	ik_device_init(&f->dev, &f->drv, 0, 1000);
	assert_int_equal(ik_governor_ladder.enable(&f->drv, &f->dev), 0);
	assert_non_null(f->dev.governor_data);
	return f;
}

static int setup_skx(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	ik_poll_state_init(&f->drv);
	f->drv.state_count = 1;
	add_state(&f->drv, "C1", 2, 2);
	add_state(&f->drv, "C1E", 10, 20);
	add_state(&f->drv, "C6", 133, 600);
	*state = finish_fixture(f);
	return 0;
}

/* An ACPI-style table without a polling state: C1 1/1, C2 100/200, C3 400/800 us. */
static int setup_acpi(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	add_state(&f->drv, "C1", 1, 1);
	add_state(&f->drv, "C2", 100, 200);
	add_state(&f->drv, "C3", 400, 800);
	*state = finish_fixture(f);
	return 0;
}

static int setup_poll_only(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	ik_poll_state_init(&f->drv);
	f->drv.state_count = 1;
	*state = finish_fixture(f);
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ik_governor_ladder.disable(&f->drv, &f->dev);
	assert_null(f->dev.governor_data);
	free(f);
	return 0;
}

static void idle(struct fixture *f, int entered, int64_t measured_ns)
{
	ik_account_entered(&f->drv, &f->dev, entered, measured_ns);
	ik_governor_ladder.reflect(&f->dev, entered);
}

static int pick(struct fixture *f)
{
	bool stop_tick = true;
	int idx = ik_governor_ladder.select(&f->drv, &f->dev, &stop_tick);

	assert_true(stop_tick);
	return idx;
}

/* Four 10 us idle periods on C1 (8 000 > 2 000 each) take the CPU to C1E. */
static void climb_to_c1e(struct fixture *f)
{
	for (int n = 1; n <= 4; n++) {
		idle(f, 1, 10 * US);
		assert_int_equal(pick(f), n < 4 ? 1 : 2);
	}
}

/* Then four 30 us idle periods on C1E (20 000 > 10 000 each) take it to C6. */
static void climb_to_c6(struct fixture *f)
{
	climb_to_c1e(f);
	for (int n = 1; n <= 4; n++) {
		idle(f, 2, 30 * US);
		assert_int_equal(pick(f), n < 4 ? 2 : 3);
	}
}

static void ladder_ops_table(void **state)
{
	(void)state;
	assert_string_equal(ik_governor_ladder.name, "ladder");
	assert_int_equal(ik_governor_ladder.rating, 10);
}

/* State 0 polls: enable puts the CPU on rung 1. */
static void ladder_enable_starts_on_first_rung(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(f->dev.last_state_idx, 1);
}

/*
 * Promotion after four qualifying idle periods in a row: 10 us on C1 leaves 10 000 - 2 000
 * = 8 000 > promotion_time 2 000, and el[2] = 10 000 <= latency_req: counts 1, 2, 3 stay on
 * 1, count 4 moves to 2.
 */
static void ladder_promotes_after_four(void **state)
{
	struct fixture *f = *state;

	climb_to_c1e(f);
	assert_int_equal(f->dev.last_state_idx, 2);
}

/*
 * Only strictly longer periods count: 4 us leaves 2 000, not > 2 000; 4.001 us leaves 2 001.
 * On the bottom rung nothing demotes, so the count survives the non-qualifying periods:
 * qualifying, qualifying, 4 us, qualifying, 4 us, qualifying -> the 4th qualifying one
 * (6th select) promotes.
 */
static void ladder_promotion_needs_strictly_longer(void **state)
{
	struct fixture *f = *state;
	static const int64_t periods[] = {4001, 4001, 4000, 4001, 4000, 4001};
	static const int expected[] = {1, 1, 1, 1, 1, 2};

	for (int n = 0; n < 6; n++) {
		idle(f, 1, periods[n]);
		assert_int_equal(pick(f), expected[n]);
	}
}

/*
 * Demotion after one short period: on C1E, 15 us leaves 5 000 < demotion_time 10 000
 * (and 5 000 is not > promotion_time 10 000): back to 1.  20 us leaves exactly 10 000:
 * neither, stay.
 */
static void ladder_demotes_after_one(void **state)
{
	struct fixture *f = *state;

	climb_to_c1e(f);
	idle(f, 2, 20 * US);
	assert_int_equal(pick(f), 2);
	idle(f, 2, 15 * US);
	assert_int_equal(pick(f), 1);
	assert_int_equal(f->dev.last_state_idx, 1);
}

/*
 * Leaving a state clears its counts.  On C1E, three 30 us periods bring its promotion
 * count to 3; a 15 us period then demotes to C1 (count cleared).  Back up on C1E (four
 * periods on C1 again, since C1's count was cleared when it was left), a fresh four 30 us
 * periods are needed: the first three stay, the fourth promotes (with a kept count of 3
 * the first would have).
 */
static void ladder_move_resets_counts(void **state)
{
	struct fixture *f = *state;

	climb_to_c1e(f);
	for (int n = 0; n < 3; n++) {
		idle(f, 2, 30 * US);
		assert_int_equal(pick(f), 2);
	}
	idle(f, 2, 15 * US); /* demote: C1E's counts are cleared */
	assert_int_equal(pick(f), 1);
	climb_to_c1e(f); /* C1's counts were cleared when it was left: four again */
	for (int n = 1; n <= 4; n++) {
		idle(f, 2, 30 * US);
		assert_int_equal(pick(f), n < 4 ? 2 : 3);
	}
}

/*
 * The kernel's unsigned comparison: a period shorter than the exit latency gives a
 * negative residency (5 us on C1E: 5 000 - 10 000 = -5 000), which compared with the u64
 * thresholds is 2^64 - 5 000: it counts towards promotion (> 10 000) and never towards
 * demotion.  Four of them promote C1E to C6.
 */
static void ladder_too_short_period_counts_as_long(void **state)
{
	struct fixture *f = *state;

	climb_to_c1e(f);
	for (int n = 1; n <= 4; n++) {
		idle(f, 2, 5 * US);
		assert_int_equal(pick(f), n < 4 ? 2 : 3);
	}
}

/* No promotion into a disabled state: with C1E disabled, C1 stays however long the idle. */
static void ladder_no_promotion_into_disabled_state(void **state)
{
	struct fixture *f = *state;

	f->dev.states_disable[2] = IK_DISABLE_USER;
	for (int n = 0; n < 8; n++) {
		idle(f, 1, 1 * MS);
		assert_int_equal(pick(f), 1);
	}
}

/* No promotion beyond the latency limit: latency_req 5 us < el[2] = 10 us. */
static void ladder_no_promotion_beyond_latency_limit(void **state)
{
	struct fixture *f = *state;

	f->dev.in.latency_req_ns = 5 * US;
	for (int n = 0; n < 8; n++) {
		idle(f, 1, 1 * MS);
		assert_int_equal(pick(f), 1);
	}
}

/*
 * Forced demotion when the current state is disabled: on C6 (the last state, so no
 * promotion), disabling C6 drops to the deepest state below with el <= latency_req:
 * C1E (10 us).  Even a long period does not keep the CPU on C6.
 */
static void ladder_forced_demotion_on_disable(void **state)
{
	struct fixture *f = *state;

	climb_to_c6(f);
	f->dev.states_disable[3] = IK_DISABLE_USER;
	idle(f, 3, 1 * MS);
	assert_int_equal(pick(f), 2);
}

/* The state landed on is not checked for being disabled (kernel behaviour): C1E too. */
static void ladder_forced_demotion_ignores_disabled_target(void **state)
{
	struct fixture *f = *state;

	climb_to_c6(f);
	f->dev.states_disable[2] = IK_DISABLE_USER;
	f->dev.states_disable[3] = IK_DISABLE_USER;
	idle(f, 3, 1 * MS);
	assert_int_equal(pick(f), 2);
}

/*
 * Forced demotion by the latency limit: on C6 (el 133 us), latency_req 50 us: C1E (10 us)
 * qualifies.  With 5 us, the search (i > first_idx) finds nothing above C1 and stops on the
 * bottom rung, 1.
 */
static void ladder_forced_demotion_on_latency(void **state)
{
	struct fixture *f = *state;

	climb_to_c6(f);
	f->dev.in.latency_req_ns = 50 * US;
	idle(f, 3, 1 * MS);
	assert_int_equal(pick(f), 2);

	/* Back on C1E, latency_req 5 us: no promotion (el[3] > 5 us), C1E too slow: rung 1. */
	f->dev.in.latency_req_ns = 5 * US;
	idle(f, 2, 1 * MS);
	assert_int_equal(pick(f), 1);
}

/*
 * The bottom rung is the floor even when it is too slow itself: on C6 with latency_req
 * 1 us, C1E (10 us) fails and the search stops above first_idx, so the answer is C1 (2 us),
 * not POLL.  On C1 the limit changes nothing any more (no forced demotion below the bottom
 * rung): C1 again.
 */
static void ladder_forced_demotion_stops_at_bottom_rung(void **state)
{
	struct fixture *f = *state;

	climb_to_c6(f);
	f->dev.in.latency_req_ns = 1 * US;
	idle(f, 3, 1 * MS);
	assert_int_equal(pick(f), 1);
	idle(f, 1, 1 * MS);
	assert_int_equal(pick(f), 1);
}

/*
 * latency_req 0: state 0, whatever the history, and last_state_idx becomes 0.  Reflect of
 * state 0 changes nothing.  With the limit lifted, the next select starts from state 0,
 * whose thresholds enable never set (it is below first_idx): promotion_time 0 and a
 * promotion count of 0, so one period of 5 us (5 000 > 0) moves straight to 1.
 */
static void ladder_latency_zero_forces_state0(void **state)
{
	struct fixture *f = *state;

	climb_to_c1e(f);
	f->dev.in.latency_req_ns = 0;
	idle(f, 2, 1 * MS);
	assert_int_equal(pick(f), 0);
	assert_int_equal(f->dev.last_state_idx, 0);
	idle(f, 0, 5 * US);
	assert_int_equal(f->dev.last_state_idx, 0);
	f->dev.in.latency_req_ns = IK_LATENCY_REQ_NONE_NS;
	assert_int_equal(pick(f), 1);
}

/* Reflect records the entered state, except state 0. */
static void ladder_reflect_ignores_state0(void **state)
{
	struct fixture *f = *state;

	climb_to_c1e(f);
	ik_governor_ladder.reflect(&f->dev, 0);
	assert_int_equal(f->dev.last_state_idx, 2);
	ik_governor_ladder.reflect(&f->dev, 3);
	assert_int_equal(f->dev.last_state_idx, 3);
}

/*
 * Without a polling state the bottom rung is 0 (C1 1/1, C2 100/200, C3 400/800 us):
 * enable starts on 0; four 10 us periods (9 000 > 1 000) promote to 1; on C2 a 150 us
 * period leaves 50 000 < demotion_time 100 000: back to 0.
 */
static void ladder_non_polling_state0_is_a_rung(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(f->dev.last_state_idx, 0);
	for (int n = 1; n <= 4; n++) {
		idle(f, 0, 10 * US);
		assert_int_equal(pick(f), n < 4 ? 0 : 1);
	}
	idle(f, 1, 150 * US);
	assert_int_equal(pick(f), 0);
}

/* A table of POLL alone: nothing above it, the CPU stays on 0 (the kernel would not). */
static void ladder_poll_only_table(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(f->dev.last_state_idx, 0);
	idle(f, 0, 1 * MS);
	assert_int_equal(pick(f), 0);
}

/* disable + enable puts the CPU back on the bottom rung with fresh counts. */
static void ladder_enable_resets(void **state)
{
	struct fixture *f = *state;

	climb_to_c6(f);
	ik_governor_ladder.disable(&f->drv, &f->dev);
	assert_int_equal(ik_governor_ladder.enable(&f->drv, &f->dev), 0);
	assert_int_equal(f->dev.last_state_idx, 1);
	climb_to_c1e(f);
}

#define T(fn, setup) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ladder_ops_table),
		T(ladder_enable_starts_on_first_rung, setup_skx),
		T(ladder_promotes_after_four, setup_skx),
		T(ladder_promotion_needs_strictly_longer, setup_skx),
		T(ladder_demotes_after_one, setup_skx),
		T(ladder_move_resets_counts, setup_skx),
		T(ladder_too_short_period_counts_as_long, setup_skx),
		T(ladder_no_promotion_into_disabled_state, setup_skx),
		T(ladder_no_promotion_beyond_latency_limit, setup_skx),
		T(ladder_forced_demotion_on_disable, setup_skx),
		T(ladder_forced_demotion_ignores_disabled_target, setup_skx),
		T(ladder_forced_demotion_on_latency, setup_skx),
		T(ladder_forced_demotion_stops_at_bottom_rung, setup_skx),
		T(ladder_latency_zero_forces_state0, setup_skx),
		T(ladder_reflect_ignores_state0, setup_skx),
		T(ladder_non_polling_state0_is_a_rung, setup_acpi),
		T(ladder_poll_only_table, setup_poll_only),
		T(ladder_enable_resets, setup_skx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
