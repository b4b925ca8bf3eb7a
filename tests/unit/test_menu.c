/*
 * Unit tests of the menu governor (src/governors/menu.c), v6.19 behaviour.
 *
 * Every expected value is worked out by hand in the comment above its assertion, from the
 * kernel's integer arithmetic: u64 nanoseconds, truncating division, factor 8192 = 1.0,
 * timer_us = (4096000 + next_timer_ns * factor) / 8192000.  HZ is 1000 (TICK_NSEC =
 * 1 000 000 ns) unless a test says otherwise, and latency_req is the PM QoS default (2e12 ns)
 * unless set.
 *
 * The governor's per-CPU history, which_bucket() and the pattern detector are private to
 * menu.c, so this file includes the source itself to reach them.  Build it without linking
 * src/governors/menu.c a second time (the CMake target links the static library, from which
 * menu.o is then not pulled in).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "idlekit/cpuidle.h"
#include "idlekit/governor.h"

#include "governors/menu.c"

#define US 1000LL
#define MS 1000000LL

/* ---- Test rig: a hand-built driver table and one device, as the core would set them up. */

enum table {
	TABLE_SMALL,      /* POLL 0/0, C1 1/2 us, C2 18/36 us */
	TABLE_INTEL,      /* POLL, C1 2/2, C1E 10/20, C6 133/600 (SKX-like) */
	TABLE_DEEP,       /* POLL, C1 2/2, C6 133/600, C10 890/5000 (client-like, C10 > a tick) */
	TABLE_DEEP_1MS,   /* POLL, C1 2/2, C6 133/1000, C10 890/5000 (made up: C6 needs a tick) */
	TABLE_PSERIES,    /* snooze POLL, CEDE 10/120 (PowerVM-like: first real state > 15 us) */
	TABLE_SHORT_C1,   /* POLL, C1 5/14 (first real state just under 15 us) */
	TABLE_CHEAP_C2,   /* POLL, C1 1/2, C2 2/10 */
	TABLE_NO_POLL,    /* C1 1/1 (HLT-like, not polling), C2 18/36 */
	TABLE_POLL_ONLY,  /* POLL */
};

struct rig {
	struct ik_driver drv;
	struct ik_device dev;
};

static void add_state(struct ik_driver *drv, const char *name, uint32_t exit_us,
		      uint32_t residency_us)
{
	struct ik_state *s = &drv->states[drv->state_count++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->exit_latency = exit_us;
	s->target_residency = residency_us;
}

static void rig_init(struct rig *r, enum table table, int hz)
{
	char err[128];

	memset(r, 0, sizeof(*r));
	snprintf(r->drv.name, sizeof(r->drv.name), "test_idle");
	if (table != TABLE_NO_POLL) {
		ik_poll_state_init(&r->drv);
		r->drv.state_count = 1;
	}
	switch (table) {
	case TABLE_SMALL:
		add_state(&r->drv, "C1", 1, 2);
		add_state(&r->drv, "C2", 18, 36);
		break;
	case TABLE_INTEL:
		add_state(&r->drv, "C1", 2, 2);
		add_state(&r->drv, "C1E", 10, 20);
		add_state(&r->drv, "C6", 133, 600);
		break;
	case TABLE_DEEP:
		add_state(&r->drv, "C1", 2, 2);
		add_state(&r->drv, "C6", 133, 600);
		add_state(&r->drv, "C10", 890, 5000);
		break;
	case TABLE_DEEP_1MS:
		add_state(&r->drv, "C1", 2, 2);
		add_state(&r->drv, "C6", 133, 1000);
		add_state(&r->drv, "C10", 890, 5000);
		break;
	case TABLE_PSERIES:
		add_state(&r->drv, "CEDE", 10, 120);
		break;
	case TABLE_SHORT_C1:
		add_state(&r->drv, "C1", 5, 14);
		break;
	case TABLE_CHEAP_C2:
		add_state(&r->drv, "C1", 1, 2);
		add_state(&r->drv, "C2", 2, 10);
		break;
	case TABLE_NO_POLL:
		add_state(&r->drv, "C1", 1, 1);
		add_state(&r->drv, "C2", 18, 36);
		break;
	case TABLE_POLL_ONLY:
		break;
	}
	assert_int_equal(ik_driver_init(&r->drv, err, sizeof(err)), 0);
	ik_device_init(&r->dev, &r->drv, 0, hz);
	assert_int_equal(ik_governor_menu.enable(&r->drv, &r->dev), 0);
	assert_non_null(r->dev.governor_data);
}

static void rig_fini(struct rig *r)
{
	ik_governor_menu.disable(&r->drv, &r->dev);
	assert_null(r->dev.governor_data);
}

static struct menu_cpu *menu_of(struct rig *r)
{
	return r->dev.governor_data;
}

/*
 * Fill the interval ring and pretend the previous entry was a real one (non-zero residency),
 * so the next select neither learns nor records an aborted entry.
 */
static void set_ring(struct rig *r, const uint32_t values[MENU_INTERVALS])
{
	memcpy(menu_of(r)->intervals_us, values, sizeof(menu_of(r)->intervals_us));
	menu_of(r)->interval_ptr = 0;
	r->dev.last_residency_ns = 1;
}

static void set_ring_all(struct rig *r, uint32_t value)
{
	uint32_t v[MENU_INTERVALS];

	for (unsigned i = 0; i < MENU_INTERVALS; i++)
		v[i] = value;
	set_ring(r, v);
}

/* What tick_nohz_get_sleep_length() and the tick state would report at this idle entry. */
static void set_inputs(struct rig *r, int64_t sleep_length_ns, int64_t delta_next_ns,
		       bool tick_stopped)
{
	r->dev.in.sleep_length_ns = sleep_length_ns;
	r->dev.in.delta_next_ns = delta_next_ns;
	r->dev.in.tick_stopped = tick_stopped;
}

static int do_select(struct rig *r, bool *stop_tick)
{
	*stop_tick = true; /* the idle loop's initial value */
	return ik_governor_menu.select(&r->drv, &r->dev, stop_tick);
}

/* What the core does once the driver returns: account the residency, then reflect. */
static void wake_up(struct rig *r, int entered, int64_t measured_ns, bool by_tick)
{
	ik_account_entered(&r->drv, &r->dev, entered, measured_ns);
	r->dev.in.got_tick = by_tick;
	ik_governor_menu.reflect(&r->dev, entered);
}

/* The interval most recently written into the ring. */
static uint32_t last_interval(struct rig *r)
{
	struct menu_cpu *data = menu_of(r);

	return data->intervals_us[(data->interval_ptr + MENU_INTERVALS - 1) % MENU_INTERVALS];
}

/* ---- enable / disable / reflect ---------------------------------------------------------- */

static void test_ops_table(void **state)
{
	(void)state;
	assert_string_equal(ik_governor_menu.name, "menu");
	assert_int_equal(ik_governor_menu.rating, 20);
	assert_non_null(ik_governor_menu.enable);
	assert_non_null(ik_governor_menu.disable);
	assert_non_null(ik_governor_menu.select);
	assert_non_null(ik_governor_menu.reflect);
}

/* enable: every factor 8192 (= 1.0), intervals 0, nothing pending; re-enable resets. */
static void test_enable_resets_history(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	for (unsigned i = 0; i < MENU_BUCKETS; i++)
		assert_int_equal(menu_of(&r)->correction_factor[i], 8192);
	for (unsigned i = 0; i < MENU_INTERVALS; i++)
		assert_int_equal(menu_of(&r)->intervals_us[i], 0);
	assert_int_equal(menu_of(&r)->interval_ptr, 0);
	assert_false(menu_of(&r)->needs_update);
	assert_false(menu_of(&r)->tick_wakeup);

	/* Dirty the history, switch the governor off and on: all fresh again. */
	menu_of(&r)->correction_factor[3] = 17;
	menu_of(&r)->intervals_us[5] = 99;
	menu_of(&r)->interval_ptr = 6;
	menu_of(&r)->needs_update = true;
	rig_fini(&r);
	assert_int_equal(ik_governor_menu.enable(&r.drv, &r.dev), 0);
	assert_int_equal(menu_of(&r)->correction_factor[3], 8192);
	assert_int_equal(menu_of(&r)->intervals_us[5], 0);
	assert_int_equal(menu_of(&r)->interval_ptr, 0);
	assert_false(menu_of(&r)->needs_update);
	rig_fini(&r);
}

/* reflect: records the state, asks for an update, and consumes the (self-clearing) tick flag. */
static void test_reflect_takes_notes(void **state)
{
	struct rig r;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	r.dev.in.got_tick = true;
	ik_governor_menu.reflect(&r.dev, 2);
	assert_int_equal(r.dev.last_state_idx, 2);
	assert_true(menu_of(&r)->needs_update);
	assert_true(menu_of(&r)->tick_wakeup);
	assert_false(r.dev.in.got_tick); /* tick_nohz_idle_got_tick() clears itself */

	ik_governor_menu.reflect(&r.dev, 1);
	assert_int_equal(r.dev.last_state_idx, 1);
	assert_false(menu_of(&r)->tick_wakeup);
	rig_fini(&r);
}

/* ---- which_bucket ------------------------------------------------------------------------ */

/* Decades of the expected sleep: [0,10us) [10us,100us) [100us,1ms) [1ms,10ms) [10ms,100ms) rest. */
static void test_which_bucket_boundaries(void **state)
{
	(void)state;
	assert_int_equal(which_bucket(0), 0);
	assert_int_equal(which_bucket(9999), 0);
	assert_int_equal(which_bucket(10000), 1);
	assert_int_equal(which_bucket(99999), 1);
	assert_int_equal(which_bucket(100000), 2);
	assert_int_equal(which_bucket(999999), 2);
	assert_int_equal(which_bucket(1000000), 3);
	assert_int_equal(which_bucket(9999999), 3);
	assert_int_equal(which_bucket(10000000), 4);
	assert_int_equal(which_bucket(99999999), 4);
	assert_int_equal(which_bucket(100000000), 5);
	assert_int_equal(which_bucket((uint64_t)IK_KTIME_MAX), 5);
	assert_int_equal(which_bucket(UINT64_MAX), 5);
}

/* ---- the pattern detector (get_typical_interval) ------------------------------------------ */

static uint32_t typical_of(const uint32_t values[MENU_INTERVALS])
{
	struct menu_cpu data;

	memset(&data, 0, sizeof(data));
	memcpy(data.intervals_us, values, sizeof(data.intervals_us));
	return typical_interval_us(&data);
}

/* All zeros: max == 0 on the first pass -> UINT_MAX ("no prediction"). */
static void test_typical_all_zero(void **state)
{
	const uint32_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};

	(void)state;
	assert_int_equal(typical_of(v), UINT32_MAX);
}

/* Eight equal samples: avg 100, variance 0 -> 100. */
static void test_typical_constant(void **state)
{
	const uint32_t v[8] = {100, 100, 100, 100, 100, 100, 100, 100};

	(void)state;
	assert_int_equal(typical_of(v), 100);
}

/*
 * The variance <= 400 shortcut: {80,120} x 4: sum 800, avg 100; sum of squares
 * 4*6400 + 4*14400 = 83200, mean 10400; variance 10400 - 10000 = 400 <= 400 -> 100.
 * (The six-sigma test alone would fail: 10000 > 36*400 = 14400 is false.)
 */
static void test_typical_variance_shortcut(void **state)
{
	const uint32_t v[8] = {80, 120, 80, 120, 80, 120, 80, 120};

	(void)state;
	assert_int_equal(typical_of(v), 100);
}

/*
 * Just past the shortcut, {79,121} x 4: avg 100, squares 4*6241 + 4*14641 = 83528, mean
 * 10441, variance 441 > 400 and 10000 > 36*441 = 15876 is false: no pattern yet.  Eight
 * samples > 6, so drop an outlier: avg - min = 21 is not > max - avg = 21, so the top side
 * goes (121 and everything >= it).  Pass 2: {79} x 4, variance 0 <= 400 -> 79 (the shortcut
 * does not need six samples).
 */
static void test_typical_tie_drops_the_top(void **state)
{
	const uint32_t v[8] = {79, 121, 79, 121, 79, 121, 79, 121};

	(void)state;
	assert_int_equal(typical_of(v), 79);
}

/*
 * Six-sigma rule: {1000,1100,900,1000,1000,1100,900,1000}: sum 8000, avg 1000; squares
 * 4*1e6 + 2*1.21e6 + 2*0.81e6 = 8 040 000, mean 1 005 000; variance 5000 > 400, but
 * avg^2 = 1e6 > 36*5000 = 180 000 with 8 >= 6 samples -> 1000.
 */
static void test_typical_six_sigma(void **state)
{
	const uint32_t v[8] = {1000, 1100, 900, 1000, 1000, 1100, 900, 1000};

	(void)state;
	assert_int_equal(typical_of(v), 1000);
}

/*
 * Six samples are still enough for the six-sigma rule (6*4 >= 24):
 * {1000,1100,900,1,1000,1100,900,50000}.
 * Pass 1: sum 56 001, avg 7000; 7000-1 < 50 000-7000: drop 50 000.
 * Pass 2: sum 6001, avg 857; 857-1 = 856 > 1100-857 = 243: drop 1.
 * Pass 3: {1000,1100,900} x 2: avg 1000; squares 2*(1e6 + 1.21e6 + 0.81e6) = 6 040 000, mean
 *   1 006 666; variance 6666 > 400; 1e6 > 36*6666 = 239 976 with 6 samples -> 1000.
 */
static void test_typical_six_samples_enough(void **state)
{
	const uint32_t v[8] = {1000, 1100, 900, 1, 1000, 1100, 900, 50000};

	(void)state;
	assert_int_equal(typical_of(v), 1000);
}

/*
 * The largest value is an outlier: {100 x 7, 1000}.  Pass 1: sum 1700, avg 1700>>3 = 212;
 * squares 70 000 + 1 000 000 = 1 070 000, mean 133 750; variance 133 750 - 44 944 = 88 806:
 * no pattern.  avg - min = 112 < max - avg = 788: drop the top (>= 1000).  Pass 2: {100} x 7,
 * variance 0 -> 100.
 */
static void test_typical_drops_largest(void **state)
{
	const uint32_t v[8] = {100, 100, 100, 1000, 100, 100, 100, 100};

	(void)state;
	assert_int_equal(typical_of(v), 100);
}

/*
 * v6.19 drops outliers on whichever side is farther from the average (kernel commit
 * "cpuidle: menu: Eliminate outliers on both ends of the sample set", 6.15).  {1, 500 x 7}:
 * pass 1: sum 3501, avg 437; squares 1 + 1 750 000, mean 218 750; variance 218 750 - 190 969
 * = 27 781; 190 969 > 36*27 781 = 1 000 116 is false: no pattern.  avg - min = 436 >
 * max - avg = 63: drop the bottom (<= 1).  Pass 2: {500} x 7 -> 500.
 * (Dropping the top instead would have left {1} and returned 1.)
 */
static void test_typical_drops_smallest(void **state)
{
	const uint32_t v[8] = {500, 500, 1, 500, 500, 500, 500, 500};

	(void)state;
	assert_int_equal(typical_of(v), 500);
}

/*
 * Too much spread: {10,1000,20,2000,30,3000,40,4000}.
 * Pass 1 (8): avg 1262, mean square 3 750 375, variance 2 157 731; 1262^2 = 1 592 644 is not
 *   > 36*variance.  1262-10 = 1252 < 4000-1262 = 2738: drop 4000.
 * Pass 2 (7): sum 6100, avg 871, mean square 14 003 000/7 = 2 000 428, variance 1 241 787:
 *   no.  861 < 2129: drop 3000.
 * Pass 3 (6): sum 3100, avg 516, mean square 5 003 000/6 = 833 833, variance 567 577: no;
 *   6*4 <= 24 -> UINT_MAX.
 */
static void test_typical_too_much_spread(void **state)
{
	const uint32_t v[8] = {10, 1000, 20, 2000, 30, 3000, 40, 4000};

	(void)state;
	assert_int_equal(typical_of(v), UINT32_MAX);
}

/*
 * Two drops, then the third pass (six samples) succeeds: {50,60,70,80,90,100,5000,6000}.
 * Pass 1: avg 11450>>3 = 1431; far side is the top (6000-1431 > 1431-50): drop 6000.
 * Pass 2: 5450/7 = 778; 5000-778 > 778-50: drop 5000.
 * Pass 3: {50..100}: sum 450, avg 75; squares 35 500, mean 5916; variance 5916-5625 = 291
 *   <= 400 -> 75.
 */
static void test_typical_third_pass(void **state)
{
	const uint32_t v[8] = {50, 60, 70, 80, 90, 100, 5000, 6000};

	(void)state;
	assert_int_equal(typical_of(v), 75);
}

/*
 * UINT_MAX marks an aborted entry; the first pass already ignores values >= UINT_MAX.
 * {UINT_MAX, 100 x 7}: pass 1 keeps {100} x 7 -> 100.
 */
static void test_typical_ignores_aborted(void **state)
{
	const uint32_t v[8] = {UINT32_MAX, 100, 100, 100, 100, 100, 100, 100};

	(void)state;
	assert_int_equal(typical_of(v), 100);
}

/*
 * The sum of squares is u64 and wraps, as in the kernel: {UINT_MAX-1 x 3, UINT_MAX x 5}.
 * Pass 1 keeps three samples of 4 294 967 294; each square is 18 446 744 056 529 682 436
 * (< 2^64), their sum wraps to 18 446 744 022 169 944 076, mean 6 148 914 674 056 648 025;
 * minus avg^2 (18 446 744 056 529 682 436) wraps to variance 6 148 914 691 236 517 205 >
 * U64_MAX/36: no pattern; 3 samples <= 6 -> UINT_MAX.  (Exact arithmetic would say
 * variance 0 and return 4 294 967 294.  With at most eight samples a wrapped sum always
 * ends like this, so wrapping and saturating cannot be told apart by the result.)
 */
static void test_typical_sum_of_squares_wraps(void **state)
{
	const uint32_t v[8] = {UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX - 1, UINT32_MAX,
			       UINT32_MAX,     UINT32_MAX,     UINT32_MAX,     UINT32_MAX};

	(void)state;
	assert_int_equal(typical_of(v), UINT32_MAX);
}

/* ---- timer_us: next_timer_ns * factor, rounded to the nearest microsecond ---------------- */

static void test_timer_prediction_rounding(void **state)
{
	(void)state;
	/* (4 096 000 + 1499*8192 = 16 375 808) / 8 192 000 = 1 (1.499 us rounds down) */
	assert_int_equal(timer_prediction_us(1499, 8192), 1);
	/* (4 096 000 + 1500*8192 = 16 384 000) / 8 192 000 = 2 (half a microsecond rounds up) */
	assert_int_equal(timer_prediction_us(1500, 8192), 2);
	/* 2500 ns at 1.0: (4 096 000 + 20 480 000) / 8 192 000 = 3 */
	assert_int_equal(timer_prediction_us(2500, 8192), 3);
	/* factor 0.5: 3000 ns -> 1.5 us -> (4 096 000 + 12 288 000) / 8 192 000 = 2 */
	assert_int_equal(timer_prediction_us(3000, 4096), 2);
	/* 2999 ns at 0.5: (4 096 000 + 12 283 904 = 16 379 904) / 8 192 000 = 1 */
	assert_int_equal(timer_prediction_us(2999, 4096), 1);
	/* 0 ns: 4 096 000 / 8 192 000 = 0 */
	assert_int_equal(timer_prediction_us(0, 8192), 0);
}

/*
 * The quotient is stored in 32 bits: 5000 s at 1.0 is 5e9 us, which does not fit;
 * 5 000 000 000 - 2^32 = 705 032 704.
 */
static void test_timer_prediction_truncates_to_u32(void **state)
{
	(void)state;
	assert_int_equal(timer_prediction_us(5000000000000ULL, 8192), 705032704);
}

/*
 * No timer: next_timer_ns = KTIME_MAX = 2^63 - 1, and the u64 product wraps.
 * Even factor f: (2^63 - 1) * f = f*2^63 - f = -f (mod 2^64) because f*2^63 = 0 (mod 2^64);
 *   8192: 2^64 - 8192 + 4 096 000 wraps to 4 087 808, / 8 192 000 = 0 us.
 * Odd factor 7169: f*2^63 = 2^63 (mod 2^64), product = 2^63 - 7169, + 4 096 000 =
 *   2^63 + 4 088 831, / 8 192 000 = 1 125 899 906 843, which mod 2^32 (- 262 * 2^32) is
 *   618 475 291.
 */
static void test_timer_prediction_ktime_max_wraps(void **state)
{
	(void)state;
	assert_int_equal(timer_prediction_us((uint64_t)IK_KTIME_MAX, 8192), 0);
	assert_int_equal(timer_prediction_us((uint64_t)IK_KTIME_MAX, 7168), 0);
	assert_int_equal(timer_prediction_us((uint64_t)IK_KTIME_MAX, 7169), 618475291);
}

/* ---- select: steps 1-3 (history, pattern, sleep length) --------------------------------- */

/*
 * First select after enable: no reflect yet and last_residency_ns is 0 (a fresh device), so
 * UINT_MAX is recorded into slot 0.  Pattern: pass 1 ignores UINT_MAX, the rest are 0 ->
 * max 0 -> UINT_MAX -> predicted 4 294 967 295 000 ns > 15 us, so the sleep length is asked.
 * Sleep 500 us -> bucket 2, timer_us = 500 -> predicted 500 000.  Small table: C2 (36 us)
 * fits; predicted < TICK with the tick running -> stop_tick false; tr 36 us <= delta 500 us.
 */
static void test_first_select_records_invalid_interval(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	set_inputs(&r, 500 * US, 500 * US, false);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_false(stop_tick);
	assert_int_equal(menu_of(&r)->intervals_us[0], UINT32_MAX);
	assert_int_equal(menu_of(&r)->interval_ptr, 1);
	assert_int_equal(r.dev.sleep_length_queries, 1);
	assert_int_equal(menu_of(&r)->next_timer_ns, 500 * US);
	assert_int_equal(menu_of(&r)->bucket, 2);
	rig_fini(&r);
}

/*
 * RESIDENCY_THRESHOLD_NS gating.  Ring all 15 us: predicted 15 000 is not > 15 000, so the
 * sleep length is not asked: next_timer_ns = KTIME_MAX, bucket 5.  Small table: C1 (2 us)
 * fits, C2 (36 us) is too deep and C1 is not polling; 15 us < TICK -> break -> C1, tick kept.
 * Ring all 16 us: 16 000 > 15 000 -> asked once; sleep 1 ms -> timer 1000 us -> predicted
 * min(1 000 000, 16 000) = 16 000 -> C1 again, next_timer 1 ms in bucket 3.
 */
static void test_sleep_length_gated_by_threshold(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	set_inputs(&r, 1 * MS, 1 * MS, false);
	set_ring_all(&r, 15);
	assert_int_equal(do_select(&r, &stop_tick), 1);
	assert_false(stop_tick);
	assert_int_equal(r.dev.sleep_length_queries, 0);
	assert_int_equal(menu_of(&r)->next_timer_ns, (uint64_t)IK_KTIME_MAX);
	assert_int_equal(menu_of(&r)->bucket, 5);

	set_ring_all(&r, 16);
	assert_int_equal(do_select(&r, &stop_tick), 1);
	assert_false(stop_tick);
	assert_int_equal(r.dev.sleep_length_queries, 1);
	assert_int_equal(menu_of(&r)->next_timer_ns, 1 * MS);
	assert_int_equal(menu_of(&r)->bucket, 3);
	rig_fini(&r);
}

/*
 * The pattern beats the timer: ring all 100 us, sleep 10 ms (timer_us 10 000).  Predicted
 * min(10 ms, 100 us) = 100 us.  Intel table: C1E (20 us) fits, C6 (600 us) is too deep and
 * 100 us < TICK -> C1E, tick kept (tr 20 us <= delta_next 1 ms).
 */
static void test_pattern_shorter_than_timer_wins(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, 10 * MS, 1 * MS, false);
	set_ring_all(&r, 100);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_false(stop_tick);
	assert_int_equal(menu_of(&r)->bucket, 4);
	rig_fini(&r);
}

/*
 * A negative sleep length counts as 0: next_timer_ns = 0 (bucket 0), which is below C1's
 * 2 us residency -> early exit to POLL with the tick kept.
 */
static void test_negative_sleep_length(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	set_inputs(&r, -5, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	assert_int_equal(menu_of(&r)->next_timer_ns, 0);
	assert_int_equal(menu_of(&r)->bucket, 0);
	rig_fini(&r);
}

/* ---- select: step 4 (early exit to state 0) ---------------------------------------------- */

/* latency_req == 0: state 0 whatever the prediction; polling state 0 keeps the tick. */
static void test_latency_req_zero(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, 10 * MS, 10 * MS, true);
	r.dev.in.latency_req_ns = 0;
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	rig_fini(&r);

	/* A non-polling state 0 (HLT-like) lets the tick stop: stop_tick = !POLLING = true. */
	rig_init(&r, TABLE_NO_POLL, 1000);
	set_inputs(&r, 10 * MS, 10 * MS, false);
	r.dev.in.latency_req_ns = 0;
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_true(stop_tick);
	rig_fini(&r);
}

/* A single-state driver: state 0, polling, tick kept. */
static void test_single_state(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_POLL_ONLY, 1000);
	set_inputs(&r, 10 * MS, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	rig_fini(&r);
}

/*
 * next_timer_ns < tr[1]: sleep 1.5 us < C1's 2 us -> state 0.  latency_req < el[1]: 999 ns
 * < C1's 1 us -> state 0.  Both only while state 0 is enabled.
 */
static void test_early_exit_timer_and_latency(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	set_inputs(&r, 1500, 1500, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);

	set_inputs(&r, 10 * MS, 1 * MS, false);
	r.dev.in.latency_req_ns = 999;
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	rig_fini(&r);
}

/*
 * Same short timer with POLL disabled: no early exit.  timer_us = (4 096 000 + 1500*8192) /
 * 8 192 000 = 2 -> predicted 2000.  Loop: POLL skipped; C1 is the first enabled state and
 * 2000 <= 2000 -> C1; C2 too deep, C1 not polling, 2000 < TICK -> break.  Step 8: tick kept;
 * tr 2000 > delta_next 1500 -> walk down: POLL is disabled, so C1 stays.
 */
static void test_no_early_exit_when_state0_disabled(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	r.dev.states_disable[0] = IK_DISABLE_USER;
	set_inputs(&r, 1500, 1500, false);
	assert_int_equal(do_select(&r, &stop_tick), 1);
	assert_false(stop_tick);
	rig_fini(&r);
}

/* ---- select: step 6 (main loop) ----------------------------------------------------------- */

/*
 * Exit latency over the limit stops the loop: fresh ring, sleep 10 ms -> predicted 10 ms.
 * latency_req 50 us: C1 (2) and C1E (10) pass, C6 (133 us) > 50 us -> break -> C1E.
 * Predicted 10 ms >= TICK and C1E is not polling -> stop_tick stays true.
 */
static void test_latency_limit_stops_loop(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, 10 * MS, 1 * MS, false);
	r.dev.in.latency_req_ns = 50 * US;
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_true(stop_tick);
	rig_fini(&r);
}

/*
 * The first enabled state itself exceeds the limit: POLL disabled, latency_req 999 ns < C1's
 * 1 us.  No early exit (state 0 disabled); C1 becomes idx as the first enabled state, then
 * el 1000 > 999 -> break: C1 is returned anyway.  Predicted 1 ms (fresh ring, sleep 1 ms)
 * is not < TICK and C1 is not polling -> stop_tick true.
 */
static void test_latency_limit_first_enabled_state(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	r.dev.states_disable[0] = IK_DISABLE_USER;
	set_inputs(&r, 1 * MS, 1 * MS, false);
	r.dev.in.latency_req_ns = 999;
	assert_int_equal(do_select(&r, &stop_tick), 1);
	assert_true(stop_tick);
	rig_fini(&r);
}

/*
 * Disabled states are skipped.  Fresh ring, sleep 100 us -> predicted 100 000.
 * All enabled: C1E (20 us) fits, C6 too deep, 100 us < TICK -> C1E.
 * C1E disabled: C1.  C1 and C1E disabled: POLL, then C6 is too deep and its 600 us residency
 * is not < 15 us, so no polling replacement -> POLL, tick kept.
 */
static void test_disabled_states_skipped(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, 100 * US, 100 * US, false);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_false(stop_tick);

	r.dev.states_disable[2] = IK_DISABLE_USER;
	assert_int_equal(do_select(&r, &stop_tick), 1);
	assert_false(stop_tick);

	r.dev.states_disable[1] = IK_DISABLE_DRIVER;
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	rig_fini(&r);
}

/*
 * Polling replacement taken: small table, ring all 1 us -> predicted 1000 (<= 15 us, so no
 * sleep length: next_timer KTIME_MAX).  POLL fits (0 <= 1000); C1: tr 2000 > 1000, and
 * POLL is polling, 2000 < 15 000, 2000 <= KTIME_MAX, el 1000 <= 1000 -> C1, predicted 2000.
 * Step 8: 2000 < TICK -> tick kept; tr 2000 <= delta_tick (TICK/2) -> C1.
 */
static void test_polling_replacement_taken(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	set_ring_all(&r, 1);
	assert_int_equal(do_select(&r, &stop_tick), 1);
	assert_false(stop_tick);
	assert_int_equal(r.dev.sleep_length_queries, 0);
	rig_fini(&r);
}

/*
 * Polling replacement refused because el > predicted: fresh ring, sleep 5 us (bucket 0) with
 * factor[0] = 800: timer_us = (4 096 000 + 5000*800) / 8 192 000 = 8 096 000 / 8 192 000 = 0
 * -> predicted 0.  No early exit (5 us >= C1's 2 us).  POLL fits (0 <= 0); C1: el 1000 <= 0
 * is false -> no replacement; 0 < TICK -> break -> POLL, tick kept.
 */
static void test_polling_replacement_needs_latency_within_prediction(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	menu_of(&r)->correction_factor[0] = 800;
	set_inputs(&r, 5 * US, 5 * US, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	rig_fini(&r);
}

/*
 * The 6.19 condition: the replacement needs tr < RESIDENCY_THRESHOLD_NS (15 us).
 * PowerVM-like CEDE 10/120 us, ring all 20 us -> predicted 20 000 > 15 000 -> sleep 1 ms ->
 * timer 1000 us -> predicted 20 000.  CEDE: tr 120 000 > 20 000 and 120 000 < 15 000 is
 * false -> no replacement; 20 us < TICK -> POLL, tick kept.
 * C1 5/14 us, ring all 10 us -> predicted 10 000 (no sleep length, next_timer KTIME_MAX):
 * tr 14 000 > 10 000, 14 000 < 15 000, <= KTIME_MAX, el 5000 <= 10 000 -> C1, tick kept.
 */
static void test_polling_replacement_residency_threshold(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_PSERIES, 1000);
	set_ring_all(&r, 20);
	set_inputs(&r, 1 * MS, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	rig_fini(&r);

	rig_init(&r, TABLE_SHORT_C1, 1000);
	set_ring_all(&r, 10);
	assert_int_equal(do_select(&r, &stop_tick), 1);
	assert_false(stop_tick);
	rig_fini(&r);
}

/*
 * The replacement needs tr <= next_timer_ns.  POLL, C1 1/2 (disabled), C2 2/10.
 * Sleep 5 us with the tick stopped (so step 8 cannot walk a wrong choice back down):
 *   timer_us = (4 096 000 + 5000*8192 = 45 056 000) / 8 192 000 = 5 -> 5000; step 5 makes
 *   it next_timer_ns = 5000 anyway.  No early exit (5 us >= tr[1] = 2 us).  C2: 10 000 >
 *   5000; 10 000 <= next_timer 5000 is false -> no replacement; 5000 < TICK -> break ->
 *   POLL, and stop_tick stays true (the tick is already stopped).
 * Sleep 12 us with factor[1] = 4096: (4 096 000 + 12 000*4096 = 53 248 000) / 8 192 000 = 6
 *   -> predicted 6000.  C2: 10 000 > 6000; < 15 000, <= 12 000, el 2000 <= 6000 -> C2,
 *   predicted 10 000 < TICK -> tick kept; tr 10 000 <= delta_next 12 000.
 */
static void test_polling_replacement_needs_timer_beyond_residency(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_CHEAP_C2, 1000);
	r.dev.states_disable[1] = IK_DISABLE_USER;
	set_inputs(&r, 5 * US, 5 * US, true);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_true(stop_tick);

	menu_of(&r)->correction_factor[1] = 4096;
	set_inputs(&r, 12 * US, 12 * US, false);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_false(stop_tick);
	rig_fini(&r);
}

/* ---- select: tick stopped (step 5 and the immediate return in the loop) ------------------ */

/*
 * Step 5.  Intel table, ring all 50 us, sleep 5 ms -> predicted min(5 ms, 50 us) = 50 us.
 * Tick running (delta_next 1 ms): C1E fits, C6 too deep, 50 us < TICK -> C1E, tick kept.
 * Tick stopped (delta_next 5 ms): 50 us < TICK -> predicted = next_timer_ns = 5 ms -> C6
 * (600 us) fits; step 8 does not apply with the tick stopped -> C6, stop_tick true.
 */
static void test_tick_stopped_uses_next_timer(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_ring_all(&r, 50);
	set_inputs(&r, 5 * MS, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_false(stop_tick);

	set_ring_all(&r, 50);
	set_inputs(&r, 5 * MS, 5 * MS, true);
	assert_int_equal(do_select(&r, &stop_tick), 3);
	assert_true(stop_tick);
	rig_fini(&r);
}

/*
 * 6.19 quirk: with the tick stopped and a short pattern (ring all 10 us <= 15 us) the sleep
 * length is not asked, next_timer_ns stays KTIME_MAX, and step 5 makes the prediction
 * KTIME_MAX -> the deepest state, C6.
 */
static void test_tick_stopped_short_pattern_goes_deepest(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_ring_all(&r, 10);
	set_inputs(&r, 50 * US, 50 * US, true);
	assert_int_equal(do_select(&r, &stop_tick), 3);
	assert_true(stop_tick);
	assert_int_equal(r.dev.sleep_length_queries, 0);
	rig_fini(&r);
}

/*
 * Tick stopped, long prediction, too-deep state: return at once.  POLL, C1 2/2, C6 133/600,
 * C10 890/5000; fresh ring, sleep 2 ms -> predicted 2 ms >= TICK.  C6 fits, C10 (5 ms) does
 * not; C6 is not polling; predicted >= TICK; tick stopped ->
 *  delta_next 2 ms: tr[C6] 600 us < TICK but 5 ms <= 2 ms is false -> C6.
 *  delta_next 6 ms (a clock event later than the sleep length): 5 ms <= 6 ms -> C10.
 */
static void test_tick_stopped_immediate_return(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_DEEP, 1000);
	set_inputs(&r, 2 * MS, 2 * MS, true);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_true(stop_tick);

	set_inputs(&r, 2 * MS, 6 * MS, true);
	assert_int_equal(do_select(&r, &stop_tick), 3);
	assert_true(stop_tick);
	rig_fini(&r);
}

/*
 * No promotion when the state so far already needs a tick: C6 residency 1 ms is not < TICK
 * (1 ms), so with the same 2 ms / 6 ms inputs the answer stays C6.
 */
static void test_tick_stopped_no_promotion_past_tick(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_DEEP_1MS, 1000);
	set_inputs(&r, 2 * MS, 6 * MS, true);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_true(stop_tick);
	rig_fini(&r);
}

/*
 * Tick running, long prediction, too-deep state: settle for the shallower state and keep
 * the tick.  Deep table, fresh ring, sleep 3 ms -> predicted 3 ms.  C6 fits, C10 does not,
 * predicted >= TICK, tick running -> predicted = tr[C6] = 600 us, break.  Step 8: 600 us <
 * TICK -> stop_tick false; 600 us <= delta_next 1 ms -> C6.
 */
static void test_tick_running_long_prediction_keeps_tick(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_DEEP, 1000);
	set_inputs(&r, 3 * MS, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_false(stop_tick);
	rig_fini(&r);
}

/*
 * Only POLL enabled, long sleep (10 ms): no early exit (10 ms >= tr[1], latency fine); the
 * loop returns POLL.  Tick running: a polling state keeps the tick (stop_tick false) even
 * though predicted >= TICK.  Tick stopped: stop_tick stays true.
 */
static void test_polling_state_keeps_tick(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	for (int i = 1; i < r.drv.state_count; i++)
		r.dev.states_disable[i] = IK_DISABLE_USER;
	set_inputs(&r, 10 * MS, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);

	set_inputs(&r, 10 * MS, 10 * MS, true);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_true(stop_tick);
	rig_fini(&r);
}

/* ---- select: step 8 walk-down against delta_tick ----------------------------------------- */

/*
 * Intel table, tick running, ring all 700 us, sleep 3 ms, the tick in 300 us (delta_next).
 * Predicted min(3 ms, 700 us) = 700 us: C6 (600 us) fits and is the last state.  Step 8:
 * 700 us < TICK -> tick kept; tr[C6] 600 us > 300 us -> walk down: C1E (20 us <= 300 us).
 * With C1E disabled: skip it, C1 (2 us).  With delta_next 1.5 us: C1E (20 > 1.5), C1
 * (2 > 1.5), POLL (0 <= 1.5) -> POLL.
 */
static void test_walk_down_against_delta_tick(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_ring_all(&r, 700);
	set_inputs(&r, 3 * MS, 300 * US, false);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_false(stop_tick);

	set_ring_all(&r, 700);
	r.dev.states_disable[2] = IK_DISABLE_USER;
	assert_int_equal(do_select(&r, &stop_tick), 1);
	assert_false(stop_tick);

	set_ring_all(&r, 700);
	r.dev.states_disable[2] = 0;
	set_inputs(&r, 3 * MS, 1500, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	rig_fini(&r);
}

/* ---- the KTIME_MAX wraparound in select --------------------------------------------------- */

/*
 * No timer at all: sleep length KTIME_MAX, fresh ring.  predicted = UINT_MAX us, sleep length
 * asked, bucket 5, timer_us = 0 (see test_timer_prediction_ktime_max_wraps) -> predicted 0.
 * Tick running: POLL fits; C1's el 2000 <= 0 fails the replacement; 0 < TICK -> POLL, tick
 * kept.  Tick stopped: 0 < TICK -> predicted = KTIME_MAX -> C6.
 * With factor[5] = 7169 (odd) timer_us = 618 475 291 -> predicted 618 475 291 000 ns: every
 * state fits, C6, and predicted >= TICK -> stop_tick stays true even with the tick running.
 */
static void test_ktime_max_wraparound_select(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, IK_KTIME_MAX, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	assert_false(stop_tick);
	assert_int_equal(menu_of(&r)->next_timer_ns, (uint64_t)IK_KTIME_MAX);
	assert_int_equal(menu_of(&r)->bucket, 5);

	set_inputs(&r, IK_KTIME_MAX, IK_KTIME_MAX, true);
	assert_int_equal(do_select(&r, &stop_tick), 3);
	assert_true(stop_tick);

	menu_of(&r)->correction_factor[5] = 7169;
	set_inputs(&r, IK_KTIME_MAX, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 3);
	assert_true(stop_tick);
	rig_fini(&r);
}

/* ---- update (run by the select after a reflect) ------------------------------------------ */

/*
 * Start every update test the same way: Intel table, fresh ring (the first select records
 * UINT_MAX into slot 0), sleep 500 us (bucket 2) -> C1E.  The update then writes slot 1.
 */
static void start_500us_c1e(struct rig *r, bool *stop_tick)
{
	rig_init(r, TABLE_INTEL, 1000);
	set_inputs(r, 500 * US, 500 * US, false);
	assert_int_equal(do_select(r, stop_tick), 2);
	assert_int_equal(menu_of(r)->bucket, 2);
	assert_int_equal(menu_of(r)->next_timer_ns, 500 * US);
}

/*
 * Residency 300 us in C1E (el 10 us): 300 000 > 2*10 000 -> measured 290 000 (< next timer).
 * factor[2] = 8192 - 8192/8 + 1024*290 000/500 000 = 7168 + 593 (593.92) = 7761.
 * Interval 290 000 / 1000 = 290 into slot 1.
 */
static void test_update_subtracts_exit_latency(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	start_500us_c1e(&r, &stop_tick);
	wake_up(&r, 2, 300 * US, false);
	assert_true(menu_of(&r)->needs_update);
	do_select(&r, &stop_tick);
	assert_false(menu_of(&r)->needs_update);
	assert_int_equal(menu_of(&r)->correction_factor[2], 7761);
	assert_int_equal(menu_of(&r)->intervals_us[1], 290);
	assert_int_equal(menu_of(&r)->interval_ptr, 2);
	rig_fini(&r);
}

/*
 * Residency 15 us in C1E: 15 000 <= 20 000 -> halved, 7500.
 * factor[2] = 7168 + 1024*7500/500 000 = 7168 + 15 (15.36) = 7183; interval 7 (7.5 truncated).
 * Same with factor 8191 to start: 8191 - 8191/8 = 8191 - 1023 = 7168, + 15 = 7183.
 */
static void test_update_halves_short_residency(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	start_500us_c1e(&r, &stop_tick);
	wake_up(&r, 2, 15 * US, false);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[2], 7183);
	assert_int_equal(menu_of(&r)->intervals_us[1], 7);
	rig_fini(&r);

	start_500us_c1e(&r, &stop_tick);
	menu_of(&r)->correction_factor[2] = 8191;
	wake_up(&r, 2, 15 * US, false);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[2], 7183);
	rig_fini(&r);
}

/*
 * Around 2*el the two corrections meet: exactly 20 000 is halved (the test is strictly
 * greater) to 10 000, which equals 20 000 - el, so no input can tell the branches apart
 * there.  factor[2] = 7168 + 1024*10 000/500 000 = 7168 + 20 (20.48) = 7188; interval 10.
 * One more nanosecond subtracts: 20 001 - 10 000 = 10 001 -> the same 7188 and 10.
 */
static void test_update_two_exit_latencies_boundary(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	start_500us_c1e(&r, &stop_tick);
	wake_up(&r, 2, 20 * US, false);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[2], 7188);
	assert_int_equal(menu_of(&r)->intervals_us[1], 10);
	rig_fini(&r);

	start_500us_c1e(&r, &stop_tick);
	wake_up(&r, 2, 20 * US + 1, false);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[2], 7188);
	assert_int_equal(menu_of(&r)->intervals_us[1], 10);
	rig_fini(&r);
}

/*
 * Longer than the timer: 900 us - 10 us = 890 us, clamped to next_timer 500 us.
 * factor[2] = 7168 + 1024*500 000/500 000 = 8192; interval 500.
 */
static void test_update_clamps_to_next_timer(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	start_500us_c1e(&r, &stop_tick);
	menu_of(&r)->correction_factor[2] = 4000;
	/* The select above used 8192; changing it now only affects the update: 4000 - 500. */
	wake_up(&r, 2, 900 * US, false);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[2], 3500 + 1024);
	assert_int_equal(menu_of(&r)->intervals_us[1], 500);
	rig_fini(&r);
}

/*
 * 50 ms and more counts as a perfect prediction.  Intel, tick stopped, sleep 200 ms
 * (bucket 5) -> C6 (el 133 us); factor[5] set to 4000 -> 4000 - 500 = 3500.
 * Residency 100 ms: 100 000 000 - 133 000 = 99 867 000 >= 50 ms -> + 1024 = 4524; interval
 * 99 867.  Residency 40 ms: 39 867 000 < 50 ms -> + 1024*39 867 000/200 000 000 = 204
 * (204.12) -> 3704; interval 39 867.
 */
static void test_update_max_interesting(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	for (int round = 0; round < 2; round++) {
		rig_init(&r, TABLE_INTEL, 1000);
		set_inputs(&r, 200 * MS, 200 * MS, true);
		assert_int_equal(do_select(&r, &stop_tick), 3);
		assert_int_equal(menu_of(&r)->bucket, 5);
		menu_of(&r)->correction_factor[5] = 4000;
		wake_up(&r, 3, round == 0 ? 100 * MS : 40 * MS, false);
		do_select(&r, &stop_tick);
		if (round == 0) {
			assert_int_equal(menu_of(&r)->correction_factor[5], 4524);
			assert_int_equal(menu_of(&r)->intervals_us[1], 99867);
		} else {
			assert_int_equal(menu_of(&r)->correction_factor[5], 3704);
			assert_int_equal(menu_of(&r)->intervals_us[1], 39867);
		}
		rig_fini(&r);
	}
}

/*
 * next_timer_ns == 0 (negative sleep length): POLL by early exit.  Residency 3 us in POLL
 * (el 0): 3000 > 0 -> 3000 - 0, clamped to next_timer 0 -> measured 0; with a zero timer
 * the factor gets + 1024: factor[0] 4000 -> 3500 + 1024 = 4524; interval 0.
 */
static void test_update_zero_next_timer(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, -1, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 0);
	menu_of(&r)->correction_factor[0] = 4000;
	wake_up(&r, 0, 3 * US, false);
	set_inputs(&r, 1 * MS, 1 * MS, false);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[0], 4524);
	assert_int_equal(menu_of(&r)->intervals_us[1], 0);
	rig_fini(&r);
}

/*
 * The tick ended an idle period that nohz expected to last longer than a tick: assume 45 ms.
 * Intel, tick stopped, sleep 200 ms (bucket 5) -> C6.  Woken by the tick after 4 ms:
 * measured = 9*50 ms/10 = 45 000 000 (< next timer 200 ms);
 * factor[5] = 7168 + 1024*45 000 000/200 000 000 = 7168 + 230 (230.4) = 7398; interval 45 000.
 */
static void test_update_tick_wakeup_guess(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, 200 * MS, 200 * MS, true);
	assert_int_equal(do_select(&r, &stop_tick), 3);
	wake_up(&r, 3, 4 * MS, true);
	assert_true(menu_of(&r)->tick_wakeup);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[5], 7398);
	assert_int_equal(menu_of(&r)->intervals_us[1], 45000);
	rig_fini(&r);
}

/*
 * A tick wakeup when the timer was within a tick (next_timer 800 us <= TICK) is an ordinary
 * measurement.  Intel, fresh ring, sleep 800 us, tick running -> predicted 800 us -> C6 (600 us <= 800 us), tick kept (600 us <= delta_next 800 us).
 * Residency 700 us: 700 000 - 133 000 = 567 000; factor[2] = 7168 + 1024*567 000/800 000 =
 * 7168 + 725 (725.76) = 7893; interval 567.
 */
static void test_update_tick_wakeup_within_tick(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, 800 * US, 800 * US, false);
	assert_int_equal(do_select(&r, &stop_tick), 3);
	assert_false(stop_tick);
	wake_up(&r, 3, 700 * US, true);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[2], 7893);
	assert_int_equal(menu_of(&r)->intervals_us[1], 567);
	rig_fini(&r);
}

/*
 * A poll that timed out: assume the CPU would have slept until the timer.  PowerVM-like
 * table, ring all 20 us, sleep 1 ms (bucket 3), factor[3] = 4000: timer_us = (4 096 000 +
 * 4 000 000 000) / 8 192 000 = 488 -> predicted min(488 us, 20 us) = 20 us -> POLL (see the
 * residency-threshold test).  The poll ran 62.5 us and hit the limit:
 *  poll_time_limit set: measured = next timer 1 ms -> factor[3] = 3500 + 1024 = 4524;
 *    interval 1000.
 *  not set: measured = 62 500 - 0 = 62 500 -> 3500 + 1024*62 500/1 000 000 = 3500 + 64 =
 *    3564; interval 62.
 */
static void test_update_poll_time_limit(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	for (int timed_out = 1; timed_out >= 0; timed_out--) {
		rig_init(&r, TABLE_PSERIES, 1000);
		set_ring_all(&r, 20);
		menu_of(&r)->correction_factor[3] = 4000;
		set_inputs(&r, 1 * MS, 1 * MS, false);
		assert_int_equal(do_select(&r, &stop_tick), 0);
		assert_int_equal(menu_of(&r)->bucket, 3);
		r.dev.poll_time_limit = timed_out;
		wake_up(&r, 0, 62500, false);
		do_select(&r, &stop_tick);
		if (timed_out) {
			assert_int_equal(menu_of(&r)->correction_factor[3], 4524);
			assert_int_equal(menu_of(&r)->intervals_us[0], 1000);
		} else {
			assert_int_equal(menu_of(&r)->correction_factor[3], 3564);
			assert_int_equal(menu_of(&r)->intervals_us[0], 62);
		}
		rig_fini(&r);
	}
}

/*
 * Poll timeout with no timer: measured = next_timer_ns = KTIME_MAX (>= 50 ms -> + 1024:
 * factor[5] = 7168 + 1024 = 8192), and ktime_to_us(KTIME_MAX) = 9 223 372 036 854 775 is
 * stored in 32 bits: 9 223 372 036 854 775 mod 2^32 = 2 783 138 807.
 */
static void test_update_ktime_max_interval_truncated(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, IK_KTIME_MAX, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 0); /* as in the wraparound test */
	r.dev.poll_time_limit = true;
	wake_up(&r, 0, 62500, false);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[5], 8192);
	assert_int_equal(menu_of(&r)->intervals_us[1], 2783138807u);
	rig_fini(&r);
}

/*
 * Short pattern, no sleep length: next_timer_ns = KTIME_MAX, bucket 5, and the update uses
 * them.  Small table, ring all 10 us -> C1.  Residency 12 us in C1 (el 1 us): 12 000 > 2000
 * -> 11 000; 1024*11 000/KTIME_MAX = 0 -> factor[5] = 7168 (decays toward 0); interval 11.
 */
static void test_update_without_sleep_length(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	set_ring_all(&r, 10);
	assert_int_equal(do_select(&r, &stop_tick), 1);
	wake_up(&r, 1, 12 * US, false);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->correction_factor[5], 7168);
	assert_int_equal(menu_of(&r)->intervals_us[0], 11);
	assert_int_equal(r.dev.sleep_length_queries, 0);
	rig_fini(&r);
}

/* ---- aborted entries: last_residency_ns == 0 ---------------------------------------------- */

/*
 * Ring all 100 us with a previous real entry: select records nothing.  Then the core rejects
 * the entry (ik_account_rejected: last_residency 0, no reflect): the next select records
 * UINT_MAX at slot 0, and again at slot 1 on a second rejection.  The pattern survives
 * (UINT_MAX is ignored): 6 x 100 -> 100, so the sleep length is asked (100 us > 15 us) and
 * with sleep 1 ms the small table's C2 (36 us) is chosen.
 */
static void test_rejected_entry_records_invalid_interval(void **state)
{
	struct rig r;
	bool stop_tick;
	int idx;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	set_ring_all(&r, 100);
	set_inputs(&r, 1 * MS, 1 * MS, false);
	idx = do_select(&r, &stop_tick);
	assert_int_equal(idx, 2);
	assert_int_equal(menu_of(&r)->interval_ptr, 0);

	ik_account_rejected(&r.dev, idx);
	idx = do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->intervals_us[0], UINT32_MAX);
	assert_int_equal(menu_of(&r)->interval_ptr, 1);

	ik_account_rejected(&r.dev, idx);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	assert_int_equal(menu_of(&r)->intervals_us[1], UINT32_MAX);
	assert_int_equal(menu_of(&r)->interval_ptr, 2);
	assert_int_equal(typical_interval_us(menu_of(&r)), 100);
	rig_fini(&r);
}

/*
 * A zero residency that was reflected is learnt, not marked aborted: the update runs
 * instead (the two are exclusive) and records 0 / 2 = 0.
 */
static void test_reflected_zero_residency_is_learnt(void **state)
{
	struct rig r;
	bool stop_tick;

	(void)state;
	rig_init(&r, TABLE_SMALL, 1000);
	set_ring_all(&r, 100);
	set_inputs(&r, 1 * MS, 1 * MS, false);
	assert_int_equal(do_select(&r, &stop_tick), 2);
	wake_up(&r, 2, 0, false);
	assert_int_equal(r.dev.last_residency_ns, 0);
	do_select(&r, &stop_tick);
	assert_int_equal(menu_of(&r)->intervals_us[0], 0);
	assert_int_equal(menu_of(&r)->interval_ptr, 1);
	rig_fini(&r);
}

/* ---- a few idle periods end to end ------------------------------------------------------ */

/*
 * A device IRQ every 200 us, a 10 ms timer, Intel table, tick running (delta_next 1 ms).
 * Learnt intervals: a wakeup in C6 (el 133 us) is halved (200 <= 2*133) to 100 us; one in
 * C1E (el 10 us) is 200 - 10 = 190 us.  Choices, worked through the detector by hand:
 *  select 0: fresh ring (UINT_MAX recorded), no pattern, timer 10 ms -> C6, tick stopped.
 *  after 1..3: ring {UINT_MAX, 100 x k, 0 x (7-k)}: the 100s lie farther from the average
 *    than the zeros (k=3: avg 42, 42-0 < 100-42) and go, leaving only zeros: max 0 -> no
 *    pattern -> C6.
 *  after 4: {100 x 4, 0 x 3}: avg 57, 57-0 > 100-57 -> the zeros go -> {100 x 4} -> 100 us
 *    -> C1E, tick kept.
 *  after 5 (190 learnt): {100 x 4, 190, 0, 0}: avg 84, drop 190 -> {100 x 4, 0, 0}: avg 66,
 *    variance 6666-4356 = 2310 with 6 samples -> no pattern -> C6.
 *  after 6 (100): {100 x 5, 190, 0}: avg 98, drop 0 -> {100 x 5, 190}: variance 1125,
 *    6 samples -> no pattern -> C6.
 *  after 7 (100): {100 x 6, 190}: avg 112, drop 190 -> {100 x 6} -> C1E.
 *  after 8 (190, overwriting UINT_MAX in slot 0): {100 x 6, 190 x 2}: avg 122, drop the
 *    190s -> {100 x 6} -> C1E.
 * Meanwhile factor[4] only decays (200 us / 10 ms adds 1024*100 000/10 000 000 = 10 or 19),
 * so the timer alone still predicts more than C6's 600 us every time.
 */
static void test_end_to_end_pattern_emerges(void **state)
{
	static const int expected[9] = {3, 3, 3, 3, 2, 3, 3, 2, 2};
	struct rig r;
	bool stop_tick;
	int idx;

	(void)state;
	rig_init(&r, TABLE_INTEL, 1000);
	set_inputs(&r, 10 * MS, 1 * MS, false);
	idx = do_select(&r, &stop_tick);
	assert_int_equal(idx, expected[0]);
	assert_true(stop_tick);
	for (int i = 1; i <= 8; i++) {
		wake_up(&r, idx, 200 * US, false);
		idx = do_select(&r, &stop_tick);
		assert_int_equal(idx, expected[i]);
		/* C6: predicted >= TICK, tick may stop; C1E: predicted 100 us < TICK, kept. */
		assert_int_equal(stop_tick, idx == 3);
	}
	assert_int_equal(last_interval(&r), 190);
	rig_fini(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops_table),
		cmocka_unit_test(test_enable_resets_history),
		cmocka_unit_test(test_reflect_takes_notes),
		cmocka_unit_test(test_which_bucket_boundaries),
		cmocka_unit_test(test_typical_all_zero),
		cmocka_unit_test(test_typical_constant),
		cmocka_unit_test(test_typical_variance_shortcut),
		cmocka_unit_test(test_typical_tie_drops_the_top),
		cmocka_unit_test(test_typical_six_sigma),
		cmocka_unit_test(test_typical_six_samples_enough),
		cmocka_unit_test(test_typical_drops_largest),
		cmocka_unit_test(test_typical_drops_smallest),
		cmocka_unit_test(test_typical_too_much_spread),
		cmocka_unit_test(test_typical_third_pass),
		cmocka_unit_test(test_typical_ignores_aborted),
		cmocka_unit_test(test_typical_sum_of_squares_wraps),
		cmocka_unit_test(test_timer_prediction_rounding),
		cmocka_unit_test(test_timer_prediction_truncates_to_u32),
		cmocka_unit_test(test_timer_prediction_ktime_max_wraps),
		cmocka_unit_test(test_first_select_records_invalid_interval),
		cmocka_unit_test(test_sleep_length_gated_by_threshold),
		cmocka_unit_test(test_pattern_shorter_than_timer_wins),
		cmocka_unit_test(test_negative_sleep_length),
		cmocka_unit_test(test_latency_req_zero),
		cmocka_unit_test(test_single_state),
		cmocka_unit_test(test_early_exit_timer_and_latency),
		cmocka_unit_test(test_no_early_exit_when_state0_disabled),
		cmocka_unit_test(test_latency_limit_stops_loop),
		cmocka_unit_test(test_latency_limit_first_enabled_state),
		cmocka_unit_test(test_disabled_states_skipped),
		cmocka_unit_test(test_polling_replacement_taken),
		cmocka_unit_test(test_polling_replacement_needs_latency_within_prediction),
		cmocka_unit_test(test_polling_replacement_residency_threshold),
		cmocka_unit_test(test_polling_replacement_needs_timer_beyond_residency),
		cmocka_unit_test(test_tick_stopped_uses_next_timer),
		cmocka_unit_test(test_tick_stopped_short_pattern_goes_deepest),
		cmocka_unit_test(test_tick_stopped_immediate_return),
		cmocka_unit_test(test_tick_stopped_no_promotion_past_tick),
		cmocka_unit_test(test_tick_running_long_prediction_keeps_tick),
		cmocka_unit_test(test_polling_state_keeps_tick),
		cmocka_unit_test(test_walk_down_against_delta_tick),
		cmocka_unit_test(test_ktime_max_wraparound_select),
		cmocka_unit_test(test_update_subtracts_exit_latency),
		cmocka_unit_test(test_update_halves_short_residency),
		cmocka_unit_test(test_update_two_exit_latencies_boundary),
		cmocka_unit_test(test_update_clamps_to_next_timer),
		cmocka_unit_test(test_update_max_interesting),
		cmocka_unit_test(test_update_zero_next_timer),
		cmocka_unit_test(test_update_tick_wakeup_guess),
		cmocka_unit_test(test_update_tick_wakeup_within_tick),
		cmocka_unit_test(test_update_poll_time_limit),
		cmocka_unit_test(test_update_ktime_max_interval_truncated),
		cmocka_unit_test(test_update_without_sleep_length),
		cmocka_unit_test(test_rejected_entry_records_invalid_interval),
		cmocka_unit_test(test_reflected_zero_residency_is_learnt),
		cmocka_unit_test(test_end_to_end_pattern_emerges),
	};

	return cmocka_run_group_tests_name("menu governor", tests, NULL, NULL);
}
