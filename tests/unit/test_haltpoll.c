/*
 * Unit tests of the haltpoll governor (src/governors/haltpoll.c) against hand-worked cases
 * of the kernel v6.19 algorithm (spec section 5, drivers/cpuidle/governors/haltpoll.c).
 *
 * Table: the cpuidle-haltpoll driver's, POLL and "haltpoll idle" (1 us / 1 us).  Default
 * parameters unless said otherwise: guest_halt_poll_ns 200 000, shrink 2, grow 2,
 * grow_start 50 000, allow_shrink true.  The window is dev->poll_limit_ns.
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

struct fixture {
	struct ik_driver drv;
	struct ik_device dev;
	struct ik_haltpoll_params params;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct ik_state *halt;
	char err[128];

	assert_non_null(f);
	snprintf(f->drv.name, sizeof(f->drv.name), "haltpoll");
	ik_poll_state_init(&f->drv);
	halt = &f->drv.states[1];
	snprintf(halt->name, sizeof(halt->name), "haltpoll idle");
	snprintf(halt->desc, sizeof(halt->desc), "default architecture idle");
	halt->exit_latency = 1;
	halt->target_residency = 1;
	halt->power_usage = -1;
	f->drv.state_count = 2;
	assert_int_equal(ik_driver_init(&f->drv, err, sizeof(err)), 0);
	ik_device_init(&f->dev, &f->drv, 0, 1000);
	f->dev.poll_limit_ns = 12345; /* whatever was there: enable must clear it */
	assert_int_equal(ik_governor_haltpoll.enable(&f->drv, &f->dev), 0);
	ik_haltpoll_params_default(&f->params);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ik_governor_haltpoll.disable(&f->drv, &f->dev);
	free(f);
	return 0;
}

static int pick(struct fixture *f, bool *stop_tick)
{
	*stop_tick = true;
	return ik_governor_haltpoll.select(&f->drv, &f->dev, stop_tick);
}

/* An idle period in state `entered` that lasted measured_ns, as the core reports it. */
static void idle(struct fixture *f, int entered, int64_t measured_ns, bool poll_timed_out)
{
	f->dev.poll_time_limit = poll_timed_out;
	ik_account_entered(&f->drv, &f->dev, entered, measured_ns);
	ik_governor_haltpoll.reflect(&f->dev, entered);
}

static void haltpoll_ops_table(void **state)
{
	(void)state;
	assert_string_equal(ik_governor_haltpoll.name, "haltpoll");
	assert_int_equal(ik_governor_haltpoll.rating, 9);
}

static void haltpoll_default_params(void **state)
{
	struct ik_haltpoll_params p;

	(void)state;
	memset(&p, 0xff, sizeof(p));
	ik_haltpoll_params_default(&p);
	assert_int_equal(p.guest_halt_poll_ns, 200000);
	assert_int_equal(p.guest_halt_poll_shrink, 2);
	assert_int_equal(p.guest_halt_poll_grow, 2);
	assert_int_equal(p.guest_halt_poll_grow_start, 50000);
	assert_true(p.guest_halt_poll_allow_shrink);
}

/* Enable clears the window; with no window the CPU halts (state 1) and may stop the tick. */
static void haltpoll_no_window_halts(void **state)
{
	struct fixture *f = *state;
	bool stop;

	assert_int_equal(f->dev.poll_limit_ns, 0);
	assert_int_equal(pick(f, &stop), 1);
	assert_true(stop);
}

/* latency_req 0: poll, tick kept, even with no window. */
static void haltpoll_latency_zero_polls(void **state)
{
	struct fixture *f = *state;
	bool stop;

	f->dev.in.latency_req_ns = 0;
	assert_int_equal(pick(f, &stop), 0);
	assert_false(stop);
}

/* A driver without states: state 0, tick kept. */
static void haltpoll_no_states(void **state)
{
	struct fixture *f = *state;
	bool stop;

	f->drv.state_count = 0;
	assert_int_equal(pick(f, &stop), 0);
	assert_false(stop);
	f->drv.state_count = 2;
}

/* A one-state table with no window: idlekit polls rather than name a state 1 (see .c). */
static void haltpoll_one_state_no_window(void **state)
{
	struct fixture *f = *state;
	bool stop;

	f->drv.state_count = 1;
	assert_int_equal(pick(f, &stop), 0);
	assert_false(stop);
	f->drv.state_count = 2;
}

/* With a window, after a halt: poll first, tick kept. */
static void haltpoll_after_halt_polls(void **state)
{
	struct fixture *f = *state;
	bool stop;

	idle(f, 1, 30 * US, false); /* grows the window to 50 000, see below */
	assert_int_equal(f->dev.poll_limit_ns, 50000);
	assert_int_equal(pick(f, &stop), 0);
	assert_false(stop);
}

/* After a poll that caught its wakeup: poll again, tick kept. */
static void haltpoll_after_successful_poll_polls(void **state)
{
	struct fixture *f = *state;
	bool stop;

	idle(f, 1, 30 * US, false);
	idle(f, 0, 10 * US, false);
	assert_int_equal(pick(f, &stop), 0);
	assert_false(stop);
}

/*
 * After a poll that ran out its window: halt, tick may stop.  The governor leaves
 * dev->poll_time_limit alone (poll_idle resets it on the next poll), so it is still set
 * after the halt, where it must not matter.
 */
static void haltpoll_after_poll_timeout_halts(void **state)
{
	struct fixture *f = *state;
	bool stop;

	idle(f, 1, 30 * US, false);
	idle(f, 0, 50 * US, true);
	assert_int_equal(pick(f, &stop), 1);
	assert_true(stop);
	assert_true(f->dev.poll_time_limit);

	/* The flag is stale after the halt that follows; only a poll's flag counts: poll. */
	idle(f, 1, 30 * US, true);
	assert_int_equal(pick(f, &stop), 0);
	assert_false(stop);
}

/* Reflect records the entered state; a poll does not change the window. */
static void haltpoll_reflect_poll_keeps_window(void **state)
{
	struct fixture *f = *state;

	idle(f, 1, 30 * US, false);
	idle(f, 0, 150 * US, false);
	assert_int_equal(f->dev.last_state_idx, 0);
	assert_int_equal(f->dev.poll_limit_ns, 50000);
}

/*
 * Growing: window 0, a 30 us halt (0 < 30 000 <= 200 000): 0*2 = 0, raised to grow_start
 * 50 000.  An 80 us halt: 100 000.  A 150 us halt: 200 000.  The window never goes past
 * guest_halt_poll_ns: from 150 000 a 180 us halt gives 300 000, capped at 200 000.
 */
static void haltpoll_grow(void **state)
{
	struct fixture *f = *state;

	idle(f, 1, 30 * US, false);
	assert_int_equal(f->dev.last_state_idx, 1);
	assert_int_equal(f->dev.poll_limit_ns, 50000);
	idle(f, 1, 80 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 100000);
	idle(f, 1, 150 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 200000);

	f->dev.poll_limit_ns = 150000;
	idle(f, 1, 180 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 200000);
}

/*
 * Growing needs a halt strictly longer than the window: with a window of 100 000, halts of
 * 100 000 and 50 000 leave it alone.  The upper bound is inclusive: a halt of exactly
 * guest_halt_poll_ns (200 000) still grows the window, to 200 000.
 */
static void haltpoll_grow_bounds(void **state)
{
	struct fixture *f = *state;

	f->dev.poll_limit_ns = 100000;
	idle(f, 1, 100000, false);
	assert_int_equal(f->dev.poll_limit_ns, 100000);
	idle(f, 1, 50000, false);
	assert_int_equal(f->dev.poll_limit_ns, 100000);
	idle(f, 1, 200000, false);
	assert_int_equal(f->dev.poll_limit_ns, 200000);
}

/*
 * Shrinking: a halt longer than guest_halt_poll_ns (300 us > 200 000) divides the window by
 * 2: 200 000 -> 100 000 -> 50 000 (not below grow_start, kept) -> 25 000 < 50 000, which
 * the kernel (6.9+) drops to 0.  From 0 it stays 0.
 */
static void haltpoll_shrink(void **state)
{
	struct fixture *f = *state;

	f->dev.poll_limit_ns = 200000;
	idle(f, 1, 300 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 100000);
	idle(f, 1, 300 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 50000);
	idle(f, 1, 300 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 0);
	idle(f, 1, 300 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 0);
}

/* allow_shrink false: long halts leave the window alone (parameters from dev->haltpoll). */
static void haltpoll_no_shrink_when_not_allowed(void **state)
{
	struct fixture *f = *state;

	f->params.guest_halt_poll_allow_shrink = false;
	f->dev.haltpoll = &f->params;
	f->dev.poll_limit_ns = 200000;
	idle(f, 1, 300 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 200000);
}

/* shrink 0: a long halt drops the window to 0 at once. */
static void haltpoll_shrink_zero_clears_window(void **state)
{
	struct fixture *f = *state;

	f->params.guest_halt_poll_shrink = 0;
	f->dev.haltpoll = &f->params;
	f->dev.poll_limit_ns = 200000;
	idle(f, 1, 300 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 0);
}

/*
 * Other parameters: max 1 000 000, grow 3, grow_start 10 000, shrink 4.  From 0 a 5 us
 * halt gives max(0*3, 10 000) = 10 000; a 20 us halt 30 000; a 2 ms halt shrinks to
 * 30 000/4 = 7 500 < 10 000, so 0.
 */
static void haltpoll_custom_params(void **state)
{
	struct fixture *f = *state;

	f->params.guest_halt_poll_ns = 1000000;
	f->params.guest_halt_poll_grow = 3;
	f->params.guest_halt_poll_grow_start = 10000;
	f->params.guest_halt_poll_shrink = 4;
	f->dev.haltpoll = &f->params;
	idle(f, 1, 5 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 10000);
	idle(f, 1, 20 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 30000);
	idle(f, 1, 2000 * US, false);
	assert_int_equal(f->dev.poll_limit_ns, 0);
}

/*
 * The kernel keeps the new window in a 32-bit unsigned int: with max 4 000 000 000 and a
 * window of 3 000 000 000, a 3.5 s halt grows it to 6 000 000 000 mod 2^32 = 1 705 032 704
 * (above grow_start, below the max).
 */
static void haltpoll_grow_wraps_like_kernel(void **state)
{
	struct fixture *f = *state;

	f->params.guest_halt_poll_ns = 4000000000u;
	f->dev.haltpoll = &f->params;
	f->dev.poll_limit_ns = 3000000000u;
	idle(f, 1, 3500000000LL, false);
	assert_int_equal(f->dev.poll_limit_ns, 1705032704u);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(haltpoll_ops_table),
		cmocka_unit_test(haltpoll_default_params),
		T(haltpoll_no_window_halts),
		T(haltpoll_latency_zero_polls),
		T(haltpoll_no_states),
		T(haltpoll_one_state_no_window),
		T(haltpoll_after_halt_polls),
		T(haltpoll_after_successful_poll_polls),
		T(haltpoll_after_poll_timeout_halts),
		T(haltpoll_reflect_poll_keeps_window),
		T(haltpoll_grow),
		T(haltpoll_grow_bounds),
		T(haltpoll_shrink),
		T(haltpoll_no_shrink_when_not_allowed),
		T(haltpoll_shrink_zero_clears_window),
		T(haltpoll_custom_params),
		T(haltpoll_grow_wraps_like_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
