/*
 * The menu governor, as drivers/cpuidle/governors/menu.c behaves in Linux v6.19.
 *
 * menu predicts how long the CPU will stay idle and picks the deepest state whose target
 * residency fits that prediction and whose exit latency the PM QoS limit allows.  Two
 * predictors are combined and the shorter prediction wins:
 *
 * - The time till the next timer, scaled by a correction factor.  Interrupts other than
 *   timers end many idle periods early, and how early depends on the order of magnitude of
 *   the sleep, so one factor is learned per magnitude ("bucket") as a decaying average of
 *   measured / expected.  A factor of RESOLUTION * DECAY means 1.0.
 *
 * - A repeating-pattern detector over the last eight measured idle durations: if they are
 *   tightly clustered (after throwing away a few outliers), their average is the prediction.
 *   It runs first, and when it predicts a very short idle period the sleep length is not
 *   even asked for.
 *
 * The tick is kept running whenever the prediction is shorter than a tick period (or a
 * polling state is chosen), so a wrong guess costs at most one tick in a shallow state.
 *
 * Arithmetic follows the kernel's types exactly: u64 nanoseconds for the predictions and the
 * next timer, s64 for latencies and the latency limit, u32 for microsecond intervals and
 * factors, truncating division, and the same wraparound (with no timer the next timer is
 * KTIME_MAX and KTIME_MAX * factor wraps in u64).  Where the kernel mixes signed and
 * unsigned operands, the casts below spell out the conversion C applies there.
 *
 * Older releases: every place a release behaved differently checks that release's switch
 * (dev->kernel, include/idlekit/kernel.h) beside the lines it changes, so reading this file
 * with, say, 6.12's switches in mind reads like 6.12's menu.c.  Modelled from 5.1 on: before
 * the nanosecond units (ns_units off) every time is first cut to whole microseconds, which
 * is exactly the kernel's arithmetic then because each value stays a multiple of 1000 ns.
 *
 * Divisions: buckets and units; the interval history (record, typical_interval_k); the
 * timer prediction; menu_update (reflect's learning); the poll override; selection before
 * 4.17 (menu_select_pre_4_17) and from it (menu_select_as); the ops (select, reflect,
 * enable, disable).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/governor.h"

#define MENU_BUCKETS 6
#define MENU_INTERVAL_SHIFT 3
#define MENU_INTERVALS (1u << MENU_INTERVAL_SHIFT)
#define MENU_RESOLUTION 1024u
#define MENU_DECAY 8u
/* Sleeps at least this long count as perfectly predicted. */
#define MENU_MAX_INTERESTING_NS (50000 * IK_NSEC_PER_USEC)
/* What a tick wakeup is taken to mean when nohz expected a longer sleep: 45 ms. */
#define MENU_TICK_WAKEUP_GUESS_NS (9 * MENU_MAX_INTERESTING_NS / 10)
/* A correction factor of 1.0. */
#define MENU_UNITY_FACTOR (MENU_RESOLUTION * MENU_DECAY)
/* Divisor turning next_timer_ns * factor into microseconds. */
#define MENU_FACTOR_NS_TO_US ((uint64_t)MENU_UNITY_FACTOR * IK_NSEC_PER_USEC)
/* "No pattern found", and also what an aborted idle entry records as its duration. */
#define MENU_NO_INTERVAL UINT32_MAX

/*
 * struct menu_device: the governor's per-CPU history.  (Laid out so that what every select
 * reads, the flags, the sleep length, the intervals and the factors of the four buckets
 * below 10 ms, is one 64-byte cache line: menu_enable() allocates it on a line boundary.
 * With hundreds of CPUs a CPU's history is out of the cache by the time it idles again.)
 */
struct menu_cpu {
	bool needs_update;  /* reflect ran: learn from the last idle period first */
	bool tick_wakeup;   /* the last idle period was ended by the tick */
	uint8_t interval_ptr;  /* next slot of intervals_us to overwrite */
	unsigned bucket;        /* correction-factor bucket of next_timer_ns */
	uint64_t next_timer_ns; /* sleep length seen by the last select (KTIME_MAX if not asked) */
	uint32_t intervals_us[MENU_INTERVALS]; /* ring of recent idle durations */
	/* Until 6.13 a second set of buckets is used while tasks of this CPU wait on I/O. */
	uint32_t correction_factor[2 * MENU_BUCKETS];
};

/* Buckets by decade of the expected sleep: <10 us, <100 us, <1 ms, <10 ms, <100 ms, more. */
static unsigned which_bucket(uint64_t duration_ns)
{
	if (duration_ns < 10ULL * IK_NSEC_PER_USEC)
		return 0;
	if (duration_ns < 100ULL * IK_NSEC_PER_USEC)
		return 1;
	if (duration_ns < 1000ULL * IK_NSEC_PER_USEC)
		return 2;
	if (duration_ns < 10000ULL * IK_NSEC_PER_USEC)
		return 3;
	if (duration_ns < 100000ULL * IK_NSEC_PER_USEC)
		return 4;
	return 5;
}

/* Before 6.13 (menu_no_iowait off): the upper six buckets while any task waits on I/O. */
static unsigned bucket_of(uint64_t duration_ns, unsigned nr_iowaiters)
{
	return which_bucket(duration_ns) + (nr_iowaiters ? MENU_BUCKETS : 0);
}

/* Before 5.7 (ns_units off) menu saw times as whole microseconds: ktime_to_us(). */
static inline uint64_t us_grain(uint64_t ns)
{
	return ns / IK_NSEC_PER_USEC * IK_NSEC_PER_USEC;
}

/* A state's residency and exit latency as the release's menu reads them. */
static inline int64_t residency_of(const struct ik_state *s, bool ns_units)
{
	return ns_units ? s->target_residency_ns : (int64_t)s->target_residency * IK_NSEC_PER_USEC;
}

static inline int64_t exit_latency_of(const struct ik_state *s, bool ns_units)
{
	return ns_units ? s->exit_latency_ns : (int64_t)s->exit_latency * IK_NSEC_PER_USEC;
}

static void record_interval(struct menu_cpu *data, uint32_t interval_us)
{
	data->intervals_us[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= MENU_INTERVALS)
		data->interval_ptr = 0;
}

/* The largest and the smallest of eight samples, in straight-line code. */
static inline void max_min_of_eight(const uint32_t *iv, uint32_t *max, uint32_t *min)
{
	uint32_t a = iv[0] > iv[1] ? iv[0] : iv[1], b = iv[2] > iv[3] ? iv[2] : iv[3];
	uint32_t c = iv[4] > iv[5] ? iv[4] : iv[5], d = iv[6] > iv[7] ? iv[6] : iv[7];
	a = a > b ? a : b;
	c = c > d ? c : d;
	*max = a > c ? a : c;
	a = iv[0] < iv[1] ? iv[0] : iv[1];
	b = iv[2] < iv[3] ? iv[2] : iv[3];
	c = iv[4] < iv[5] ? iv[4] : iv[5];
	d = iv[6] < iv[7] ? iv[6] : iv[7];
	a = a < b ? a : b;
	c = c < d ? c : d;
	*min = a < c ? a : c;
}

/* The same, out of line: for the rare pass that finds no pattern (inline, the compiler
   hoists it out of the search loop, taking it at every select). */
static __attribute__((noinline, cold)) void max_min_of_eight_cold(const uint32_t *iv,
								  uint32_t *max, uint32_t *min)
{
	max_min_of_eight(iv, max, min);
}

/*
 * The repeating-pattern detector.  The recent intervals form a pattern when their standard
 * deviation is at most 20 us (variance <= 400 us^2), or when the average is more than six
 * standard deviations (avg^2 > 36 * variance) and at least six samples are left.  If not,
 * the sample farthest from the average is an outlier: drop it, together with every sample
 * equal to it, on whichever side (largest or smallest) lies farther away, and try again,
 * until too few samples remain.  Samples outside the open range (low_cut, high_cut) are
 * ignored; the first pass already ignores UINT_MAX, the mark of an aborted entry.
 *
 * The variance is computed in one pass as mean(v^2) - mean(v)^2, both means truncated, in
 * u64 (the sum of squares wraps if several samples are close to UINT_MAX, as in the kernel).
 * Returns the average in microseconds, or UINT_MAX for "no pattern".
 *
 * Older releases: before 6.15 the variance took a second pass over (v - avg)^2 and only
 * the largest samples were ever dropped, starting from a cut at INT_MAX; before 6.6 the
 * search was given the timer's prediction and gave up at once when no sample was below it
 * (an all-zero history then still made a pattern of 0).  6.15 to 6.17 returned the largest
 * remaining sample instead of giving up while at least four samples were left.
 */
static inline __attribute__((always_inline)) uint32_t
typical_interval_k(const struct menu_cpu *data, uint64_t sw, uint32_t timer_us)
{
	bool both_ends = ik_switch_on(sw, IK_SW_MENU_OUTLIERS_BOTH_ENDS);
	bool one_pass = ik_switch_on(sw, IK_SW_MENU_VARIANCE_ONE_PASS);
	/* 4.16 (menu_retain_tick off) counted every sample: its first cut was UINT_MAX. */
	int64_t low_cut = -1,
		high_cut = both_ends ? UINT32_MAX
			   : ik_switch_on(sw, IK_SW_MENU_RETAIN_TICK) ? (int64_t)INT32_MAX + 1
								      : (int64_t)UINT32_MAX + 1;

	for (;;) {
		uint32_t max = 0, min = UINT32_MAX, count = 0;
		uint64_t sum = 0, sum_of_squares = 0;
		const uint32_t *iv = data->intervals_us;
		uint32_t all_bits = iv[0] | iv[1] | iv[2] | iv[3] | iv[4] | iv[5] | iv[6] | iv[7];
		bool extremes_later = false; /* max and min of all eight not taken yet */

		_Static_assert(MENU_INTERVALS == 8, "the straight-line pass below reads eight");
		if (low_cut < 0 && (int64_t)all_bits < high_cut) {
			/*
			 * Every sample counts (each is at most the OR of all, which is below the
			 * cut): the same sums in straight-line code, with no test per sample.
			 * (Nearly every select: the cuts move only after a pass without a pattern.)
			 */
			count = MENU_INTERVALS;
			sum = ((uint64_t)iv[0] + iv[1]) + ((uint64_t)iv[2] + iv[3]) +
			      ((uint64_t)iv[4] + iv[5]) + ((uint64_t)iv[6] + iv[7]);
			sum_of_squares = (uint64_t)iv[0] * iv[0] + (uint64_t)iv[1] * iv[1] +
					 (uint64_t)iv[2] * iv[2] + (uint64_t)iv[3] * iv[3] +
					 (uint64_t)iv[4] * iv[4] + (uint64_t)iv[5] * iv[5] +
					 (uint64_t)iv[6] * iv[6] + (uint64_t)iv[7] * iv[7];
			/*
			 * From 6.6 the largest and the smallest are needed only when the pass
			 * finds no pattern (the "nothing but zeros" test below is the OR of all
			 * being 0), and are taken there.  Before 6.6 the smallest is compared
			 * with the timer's prediction first.
			 */
			if (ik_switch_on(sw, IK_SW_MENU_SKIP_TIMER_QUERY))
				extremes_later = true;
			else
				max_min_of_eight(iv, &max, &min);
		} else {
			for (unsigned i = 0; i < MENU_INTERVALS; i++) {
				int64_t value = data->intervals_us[i];

				if (value <= low_cut || value >= high_cut)
					continue;
				count++;
				sum += (uint64_t)value;
				sum_of_squares += (uint64_t)value * (uint64_t)value;
				if (value > max)
					max = (uint32_t)value;
				if (value < min)
					min = (uint32_t)value;
			}
		}

		if (ik_switch_on(sw, IK_SW_MENU_SKIP_TIMER_QUERY)) {
			/* Nothing but zeros (or nothing at all) says nothing. */
			if (extremes_later ? all_bits == 0 : max == 0)
				return MENU_NO_INTERVAL;
		} else if (min >= timer_us) {
			/* Could not beat the timer's prediction anyway (or no samples). */
			return MENU_NO_INTERVAL;
		}

		uint64_t avg, variance;

		if (count == MENU_INTERVALS)
			avg = sum >> MENU_INTERVAL_SHIFT;
		else
			avg = sum / count;
		if (one_pass) {
			uint64_t mean_square = count == MENU_INTERVALS
						       ? sum_of_squares >> MENU_INTERVAL_SHIFT
						       : sum_of_squares / count;
			variance = mean_square - avg * avg;
		} else {
			/*
			 * The kernel's second pass sums (v - avg)^2 over the same samples in u64.
			 * That sum equals sum(v^2) - 2 avg sum(v) + count avg^2 as integers, so
			 * also modulo 2^64, where u64 arithmetic works: the same bits (wraparound
			 * included) from the first pass's sums, without the second pass.
			 */
			variance = sum_of_squares - 2 * avg * sum + (uint64_t)count * avg * avg;
			if (count == MENU_INTERVALS)
				variance >>= MENU_INTERVAL_SHIFT;
			else
				variance /= count;
		}
		uint64_t avg_squared = avg * avg;

		/* Past 715 s of standard deviation, 36 * variance would overflow: no pattern. */
		if (variance <= UINT64_MAX / 36) {
			if ((avg_squared > variance * 36 && count * 4 >= MENU_INTERVALS * 3) ||
			    variance <= 400)
				return (uint32_t)avg;
		}
		if (extremes_later)
			max_min_of_eight_cold(iv, &max, &min);

		/* Six samples or fewer left: too few to drop any more, no prediction. */
		if (count * 4 <= MENU_INTERVALS * 3) {
			/* 6.15-6.17: the largest of at least four samples still bounds the idle. */
			if (ik_switch_on(sw, IK_SW_MENU_TYPICAL_MAX) && count >= MENU_INTERVALS / 2)
				return max;
			return MENU_NO_INTERVAL;
		}

		if (both_ends && avg - min > max - avg)
			low_cut = min;
		else
			high_cut = max;
	}
}

/* The 6.19 search (what the unit tests reach directly). */
static inline __attribute__((unused)) uint32_t typical_interval_us(const struct menu_cpu *data)
{
	return typical_interval_k(data, ik_kernel_default.on, UINT32_MAX);
}

/*
 * Scale the time till the next timer by the bucket's correction factor, rounding to the
 * nearest microsecond.  The product is taken in u64 and wraps for very distant timers (with
 * KTIME_MAX and a factor of 1.0 the result is 0 us), and the quotient is stored in 32 bits,
 * exactly as the kernel does.
 */
static uint32_t timer_prediction_us(uint64_t next_timer_ns, uint32_t factor)
{
	uint64_t scaled = MENU_FACTOR_NS_TO_US / 2 + next_timer_ns * factor;

	return (uint32_t)(scaled / MENU_FACTOR_NS_TO_US);
}

/*
 * Learn from the idle period that just ended: how long was the CPU really idle, compared
 * with the sleep length select saw?  The exit latency is taken out of the measured time
 * (it is part of what the core measures), or the time is halved when it is so short that
 * the state was probably barely reached.  Two kinds of wakeup say little about the real
 * idle time and are replaced by a guess: a tick that nohz did not expect (assume a long,
 * 45 ms, idle period) and a poll that timed out (assume the CPU would have slept until the
 * timer).
 */
static inline __attribute__((always_inline)) void
menu_update(const struct ik_driver *drv, struct ik_device *dev, const uint64_t sw)
{
	struct menu_cpu *data = dev->governor_data;
	const struct ik_state *entered = &drv->states[dev->last_state_idx];
	bool ns_units = ik_switch_on(sw, IK_SW_NS_UNITS);
	/* TICK_USEC before 5.7: the same rounding of 1/HZ, in microseconds. */
	uint64_t tick = ns_units ? (uint64_t)dev->tick_nsec : us_grain((uint64_t)dev->tick_nsec);
	uint64_t exit_latency = (uint64_t)exit_latency_of(entered, ns_units);
	uint64_t measured_ns;

	/*
	 * Before 4.17 (menu_tick_wakeup_guess off) a tick wakeup was learned as measured;
	 * before 4.20 (menu_poll_timeout_timer off) so was a poll that timed out.
	 */
	if (ik_switch_on(sw, IK_SW_MENU_TICK_WAKEUP_GUESS) && data->tick_wakeup &&
	    data->next_timer_ns > tick) {
		measured_ns = MENU_TICK_WAKEUP_GUESS_NS;
	} else if (ik_switch_on(sw, IK_SW_MENU_POLL_TIMEOUT_TIMER) &&
		   (entered->flags & IK_FLAG_POLLING) && dev->poll_time_limit) {
		measured_ns = data->next_timer_ns;
	} else {
		measured_ns = dev->last_residency_ns;
		if (!ns_units) /* dev->last_residency: int microseconds */
			measured_ns = us_grain(measured_ns < (uint64_t)INT32_MAX * IK_NSEC_PER_USEC
						       ? measured_ns
						       : (uint64_t)INT32_MAX * IK_NSEC_PER_USEC);
		if (measured_ns > 2 * exit_latency)
			measured_ns -= exit_latency;
		else
			measured_ns = ns_units ? measured_ns / 2 : us_grain(measured_ns / 2);
	}

	/* The timer bounds the idle period: a factor never learns more than 1.0. */
	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	/* Decaying average: keep 7/8 of the old factor, add 1/8 of measured / expected. */
	uint32_t factor = data->correction_factor[data->bucket];

	factor -= factor / MENU_DECAY;
	if (data->next_timer_ns > 0 && measured_ns < (uint64_t)MENU_MAX_INTERESTING_NS)
		factor += (uint32_t)(MENU_RESOLUTION * measured_ns / data->next_timer_ns);
	else
		factor += MENU_RESOLUTION;
	data->correction_factor[data->bucket] = factor;

	/* ktime_to_us(): s64 division by 1000, then kept in 32 bits. */
	record_interval(data, (uint32_t)((int64_t)measured_ns / IK_NSEC_PER_USEC));
}

/*
 * The polling override: rather than busy-poll, take state s anyway if the timer is no
 * sooner than its residency -- and, from 6.18, if its exit latency is within the
 * prediction, and from 6.19, if its residency is under the threshold.  Until 6.17 (exit
 * latency checked after residency) the override checked the latency limit itself.
 */
static inline bool menu_poll_override(uint64_t sw, int64_t residency,
			       int64_t exit_latency, int64_t latency_req, uint64_t predicted_ns,
			       uint64_t next_timer_ns)
{
	if (ik_switch_on(sw, IK_SW_MENU_POLL_OVERRIDE_SHORT) &&
	    residency >= IK_RESIDENCY_THRESHOLD_NS)
		return false;
	if ((uint64_t)residency > next_timer_ns)
		return false;
	if (ik_switch_on(sw, IK_SW_MENU_POLL_OVERRIDE_LATENCY) &&
	    (uint64_t)exit_latency > predicted_ns)
		return false;
	if (!ik_switch_on(sw, IK_SW_MENU_LATENCY_FIRST) && exit_latency > latency_req)
		return false;
	return true;
}

/*
 * menu as it was before the 4.17 tick rework (menu_retain_tick, menu_stopped_tick_timer,
 * select_stop_tick off: the 4.16 file).  The idle loop has already stopped the tick, so
 * select has no say over it; everything is in microseconds (unsigned int, the kernel's
 * ktime_to_us()).  The timer's prediction, the pattern and the timer itself: the
 * shortest wins; the latency limit is capped at the prediction over the performance
 * multiplier; then the deepest enabled state from first_idx on that fits both.  No
 * stopped-tick correction, no polling override, no walk down to a state that fits
 * before the tick.
 */
static inline __attribute__((always_inline)) int
menu_select_pre_4_17(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick,
		     const uint64_t sw, unsigned nr_iowaiters)
{
	struct menu_cpu *data = dev->governor_data;
	int64_t latency_req_ns = ik_latency_req(dev);
	/* pm_qos_request(): an int of microseconds */
	int64_t latency_req = latency_req_ns / IK_NSEC_PER_USEC;
	if (latency_req > INT32_MAX)
		latency_req = INT32_MAX;
	int64_t delta_tick;

	*stop_tick = true; /* the tick is the idle loop's: stopped before select */

	/* No latency tolerated: state 0, before even asking for the timer. */
	if (latency_req == 0)
		return 0;

	int64_t sleep_length_ns = ik_sleep_length(dev, &delta_tick);
	if (sleep_length_ns < 0)
		sleep_length_ns = 0;
	uint32_t next_timer_us = (uint32_t)((uint64_t)sleep_length_ns / IK_NSEC_PER_USEC);

	data->next_timer_ns = (uint64_t)next_timer_us * IK_NSEC_PER_USEC;
	data->bucket = bucket_of(data->next_timer_ns, nr_iowaiters);

	uint32_t predicted_us = timer_prediction_us(data->next_timer_ns,
						    data->correction_factor[data->bucket]);
	uint32_t expected_us = typical_interval_k(data, sw, UINT32_MAX);

	if (expected_us > next_timer_us)
		expected_us = next_timer_us;

	/*
	 * Skip a polling state 0 when the timer is far enough (beyond both 20 us and state
	 * 1's residency) and state 1 is enabled and quick enough to leave.
	 */
	int first_idx = 0;
	if (drv->state_count > 1 && (drv->states[0].flags & IK_FLAG_POLLING)) {
		const struct ik_state *s1 = &drv->states[1];
		uint32_t polling_threshold = s1->target_residency > 20 ? s1->target_residency : 20;

		if (next_timer_us > polling_threshold && latency_req > (int64_t)s1->exit_latency &&
		    !ik_state_disabled(dev, 1))
			first_idx = 1;
	}

	if (predicted_us > expected_us)
		predicted_us = expected_us;

	/*
	 * The performance multiplier: 1, plus 10 per task waiting on I/O, plus twice the
	 * runqueue's load (until 5.0: menu_no_load), which is 0 whenever the CPU is idle.
	 */
	uint32_t interactivity_req = predicted_us / (1 + 10 * nr_iowaiters);
	if ((uint64_t)latency_req > interactivity_req)
		latency_req = interactivity_req;

	int idx = -1;
	for (int i = first_idx; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];

		if (ik_state_disabled(dev, i))
			continue;
		if (idx == -1)
			idx = i;
		if (s->target_residency > predicted_us)
			break;
		if ((int64_t)s->exit_latency > latency_req)
			break;
		idx = i;
	}
	return idx == -1 ? 0 : idx;
}

/*
 * Pick a state.  The steps follow menu_select() one for one; see the comments at each.
 * sw is the release's switch set (dev->kernel->on).
 */
static inline __attribute__((always_inline)) int
menu_select_as(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick,
	       const uint64_t sw)
{
	struct menu_cpu *data = dev->governor_data;
	bool ns_units = ik_switch_on(sw, IK_SW_NS_UNITS);
	int64_t latency_req = ik_latency_req(dev);
	/* Tasks waiting on I/O count until 6.13. */
	unsigned nr_iowaiters = ik_switch_on(sw, IK_SW_MENU_NO_IOWAIT) ? 0 : dev->in.nr_iowaiters;
	int64_t tick = ns_units ? dev->tick_nsec : (int64_t)us_grain((uint64_t)dev->tick_nsec);
	uint64_t predicted_ns;
	int64_t delta_tick;
	int idx;

	if (!ns_units) /* an int of microseconds */
		latency_req = (int64_t)us_grain((uint64_t)latency_req);

	/* 4.16: learn first, then the select of before the tick rework. */
	if (!ik_switch_on(sw, IK_SW_MENU_RETAIN_TICK)) {
		if (data->needs_update) {
			menu_update(drv, dev, sw);
			data->needs_update = false;
		}
		return menu_select_pre_4_17(drv, dev, stop_tick, sw, nr_iowaiters);
	}

	/*
	 * Learn from the previous idle period.  If there was none because the entry was
	 * rejected (the core then reports a zero residency and does not call reflect), record
	 * an "invalid" interval so stale short intervals stop producing a pattern (6.17 on).
	 */
	if (data->needs_update) {
		menu_update(drv, dev, sw);
		data->needs_update = false;
	} else if (dev->last_residency_ns == 0 && ik_switch_on(sw, IK_SW_MENU_REJECTED_INVALID)) {
		record_interval(data, MENU_NO_INTERVAL);
	}

	if (ik_switch_on(sw, IK_SW_MENU_SKIP_TIMER_QUERY)) {
		predicted_ns = (uint64_t)typical_interval_k(data, sw, UINT32_MAX) * IK_NSEC_PER_USEC;

		/*
		 * Asking for the sleep length is costly; skip it when the pattern already says
		 * the CPU will be woken within the residency threshold (7.0: unless the tick is
		 * stopped).  Without it, assume no timer at all and the tick half a period away.
		 */
		if (predicted_ns > (uint64_t)IK_RESIDENCY_THRESHOLD_NS ||
		    (ik_switch_on(sw, IK_SW_MENU_STOPPED_TICK_QUERY) && ik_tick_stopped(dev))) {
			int64_t sleep_length_ns = ik_sleep_length(dev, &delta_tick);

			if (sleep_length_ns < 0) {
				sleep_length_ns = 0;
				delta_tick = 0;
			}
			data->next_timer_ns = (uint64_t)sleep_length_ns;
			data->bucket = bucket_of(data->next_timer_ns, nr_iowaiters);

			uint64_t timer_ns = (uint64_t)timer_prediction_us(
						    data->next_timer_ns,
						    data->correction_factor[data->bucket]) *
					    IK_NSEC_PER_USEC;
			if (timer_ns < predicted_ns)
				predicted_ns = timer_ns;
		} else {
			data->next_timer_ns = (uint64_t)IK_KTIME_MAX;
			delta_tick = dev->tick_nsec / 2;
			if (!ns_units)
				delta_tick = (int64_t)us_grain((uint64_t)delta_tick);
			data->bucket = bucket_of(data->next_timer_ns, nr_iowaiters);
		}
	} else {
		/* Before 6.6: the timer first, always. */
		int64_t sleep_length_ns = ik_sleep_length(dev, &delta_tick);

		if (sleep_length_ns < 0) {
			sleep_length_ns = 0;
			delta_tick = 0;
		}
		data->next_timer_ns = (uint64_t)sleep_length_ns;
		if (!ns_units) {
			/* next_timer_us was an unsigned int: ktime_to_us() cut to 32 bits. */
			data->next_timer_ns = (uint64_t)(uint32_t)(data->next_timer_ns /
								   IK_NSEC_PER_USEC) *
					      IK_NSEC_PER_USEC;
			delta_tick = (int64_t)us_grain((uint64_t)delta_tick);
		}
		data->bucket = bucket_of(data->next_timer_ns, nr_iowaiters);
		predicted_ns = 0; /* set below, after the state-0 shortcut */
	}

	/*
	 * State 0 is the only sensible choice when there is nothing else, when no latency is
	 * tolerated, or (if state 0 is enabled) when state 1 cannot pay off before the timer or
	 * is too slow to leave.  A polling state 0 keeps the tick running (before 5.4 the tick
	 * was kept whatever state 0 is).
	 */
	if (drv->state_count <= 1 || latency_req == 0 ||
	    ((data->next_timer_ns < (uint64_t)residency_of(&drv->states[1], ns_units) ||
	      latency_req < exit_latency_of(&drv->states[1], ns_units)) &&
	     !ik_state_disabled(dev, 0))) {
		*stop_tick = ik_switch_on(sw, IK_SW_MENU_STATE0_STOPS_TICK) &&
			     !(drv->states[0].flags & IK_FLAG_POLLING);
		return 0;
	}

	if (!ik_switch_on(sw, IK_SW_MENU_SKIP_TIMER_QUERY)) {
		uint32_t timer_us = timer_prediction_us(data->next_timer_ns,
							data->correction_factor[data->bucket]);
		uint32_t typical_us = typical_interval_k(data, sw, timer_us);

		predicted_ns = (uint64_t)(typical_us < timer_us ? typical_us : timer_us) *
			       IK_NSEC_PER_USEC;
	}

	/*
	 * With the tick already stopped nothing will correct a too-short guess, and the CPU
	 * could sit in a shallow state until the next timer; so trust the timer instead.
	 * Until 6.17, with the tick running, the latency limit was also capped at the
	 * prediction divided by the performance multiplier (1 + 10 per I/O waiter until 6.13).
	 */
	if (ik_tick_stopped(dev)) {
		/* 7.1: a timer within two ticks is safety net enough for the guess */
		if (predicted_ns < (uint64_t)tick &&
		    (!ik_switch_on(sw, IK_SW_MENU_SAFE_TIMER_RANGE) ||
		     data->next_timer_ns > (uint64_t)IK_SAFE_TIMER_RANGE_TICKS * (uint64_t)dev->tick_nsec))
			predicted_ns = data->next_timer_ns;
	} else if (!ik_switch_on(sw, IK_SW_MENU_LATENCY_FIRST)) {
		uint64_t interactivity_req = predicted_ns / (1 + 10 * (uint64_t)nr_iowaiters);

		if (!ns_units)
			interactivity_req = us_grain(interactivity_req);
		if ((uint64_t)latency_req > interactivity_req)
			latency_req = (int64_t)interactivity_req;
	}

	/* The deepest enabled state that fits both the prediction and the latency limit. */
	bool latency_first = ik_switch_on(sw, IK_SW_MENU_LATENCY_FIRST);
	idx = -1;
	for (int i = 0; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];
		int64_t residency = residency_of(s, ns_units);
		int64_t exit_latency = exit_latency_of(s, ns_units);

		if (ik_state_disabled(dev, i))
			continue;
		if (idx == -1)
			idx = i; /* the first enabled state is the fallback */

		/*
		 * Too slow to leave: stop here (before 6.17 only once the residency fitted).
		 * Before 5.4 the prediction then became the shallower state's residency, so
		 * that the tick was kept as long as that is short.
		 */
		if (latency_first || (uint64_t)residency <= predicted_ns) {
			if (exit_latency > latency_req) {
				if (!ik_switch_on(sw, IK_SW_MENU_LATENCY_BREAK_KEEPS))
					predicted_ns = (uint64_t)residency_of(&drv->states[idx],
									      ns_units);
				break;
			}
		}

		if ((uint64_t)residency <= predicted_ns) {
			idx = i;
			continue;
		}

		/*
		 * State i is deeper than the prediction.  Rather than busy-poll, take it anyway
		 * if it is a cheap physical state (menu_poll_override()).
		 */
		if ((drv->states[idx].flags & IK_FLAG_POLLING) &&
		    menu_poll_override(sw, residency, exit_latency, latency_req, predicted_ns,
				       data->next_timer_ns)) {
			predicted_ns = (uint64_t)residency;
			idx = i;
			break;
		}

		if (predicted_ns < (uint64_t)tick)
			break;

		/*
		 * A long prediction and a running tick: settle for the shallower state and keep
		 * the tick, so the governor gets another chance at the next tick.
		 */
		if (!ik_tick_stopped(dev)) {
			predicted_ns = (uint64_t)residency_of(&drv->states[idx], ns_units);
			break;
		}

		/*
		 * The tick is stopped: if the state so far is shallow and state i still pays off
		 * before the next clock event, go deeper rather than risk being stuck shallow
		 * (before 6.17 even past the latency limit: it was not checked yet).
		 */
		if (residency_of(&drv->states[idx], ns_units) < tick && residency <= delta_tick)
			idx = i;
		return idx;
	}

	if (idx == -1)
		idx = 0; /* no state is enabled: state 0 it must be */

	/*
	 * Keep the tick for a polling state or a sub-tick prediction.  Then the tick bounds the
	 * sleep, so if the chosen state cannot pay off before the next clock event, walk down
	 * to the first enabled state that can.
	 */
	if (((drv->states[idx].flags & IK_FLAG_POLLING) || predicted_ns < (uint64_t)tick) &&
	    !ik_tick_stopped(dev)) {
		*stop_tick = false;

		if (idx > 0 && residency_of(&drv->states[idx], ns_units) > delta_tick) {
			for (int i = idx - 1; i >= 0; i--) {
				if (ik_state_disabled(dev, i))
					continue;
				idx = i;
				if (residency_of(&drv->states[i], ns_units) <= delta_tick)
					break;
			}
		}
	}

	return idx;
}

/*
 * The same code compiled for the governor switches of the default release and of the LTS
 * lines before it (constants, so every switch test folds away: those releases run as fast
 * as a menu without switches; menu reads no driver switch, so a driver flip keeps the fast
 * path), and once for any other set, tested at run time.  One function per compiled
 * release, each with registers of its own (inlined into one function, the releases shared
 * a register allocation: the hot one spilled to the stack what the others needed).
 */
#define MENU_SELECT_FOR(name, switches)                                                          \
	static __attribute__((noinline)) int name(const struct ik_driver *drv,                 \
						  struct ik_device *dev, bool *stop_tick)      \
	{                                                                                        \
		return menu_select_as(drv, dev, stop_tick, switches);                           \
	}
MENU_SELECT_FOR(menu_select_default, IK_KERNEL_DEFAULT_ON & IK_KERNEL_GOVERNOR_SWITCHES)
MENU_SELECT_FOR(menu_select_6_12, IK_KERNEL_GOV_ON_6_12)
MENU_SELECT_FOR(menu_select_6_6, IK_KERNEL_GOV_ON_6_6)
MENU_SELECT_FOR(menu_select_5_15, IK_KERNEL_GOV_ON_5_15)

static __attribute__((noinline)) int menu_select_any(const struct ik_driver *drv,
						     struct ik_device *dev, bool *stop_tick)
{
	return menu_select_as(drv, dev, stop_tick, dev->kernel->on);
}

static int menu_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	switch (dev->kernel->on & IK_KERNEL_GOVERNOR_SWITCHES) {
	case IK_KERNEL_DEFAULT_ON & IK_KERNEL_GOVERNOR_SWITCHES:
		return menu_select_default(drv, dev, stop_tick);
	case IK_KERNEL_GOV_ON_6_12:
		return menu_select_6_12(drv, dev, stop_tick);
	case IK_KERNEL_GOV_ON_6_6:
		return menu_select_6_6(drv, dev, stop_tick);
	case IK_KERNEL_GOV_ON_5_15:
		return menu_select_5_15(drv, dev, stop_tick);
	}
	return menu_select_any(drv, dev, stop_tick);
}

/*
 * Called right after the wakeup, so it only takes notes: which state was entered, whether
 * the tick ended it, and that the next select must learn from it.
 */
static void menu_reflect(struct ik_device *dev, int index)
{
	struct menu_cpu *data = dev->governor_data;

	dev->last_state_idx = index;
	data->needs_update = true;
	data->tick_wakeup = ik_got_tick(dev);
}

/* A fresh history: every correction factor 1.0, every interval 0. */
static int menu_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	size_t size = (sizeof(struct menu_cpu) + 63) / 64 * 64; /* aligned_alloc: a multiple */
	struct menu_cpu *data = aligned_alloc(64, size);

	(void)drv;
	if (!data)
		return -1;
	memset(data, 0, size);
	for (unsigned i = 0; i < 2 * MENU_BUCKETS; i++)
		data->correction_factor[i] = MENU_UNITY_FACTOR;
	dev->governor_data = data;
	return 0;
}

static void menu_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	free(dev->governor_data);
	dev->governor_data = NULL;
}

const struct ik_governor ik_governor_menu = {
	.name = "menu",
	.rating = 20,
	.enable = menu_enable,
	.disable = menu_disable,
	.select = menu_select,
	.reflect = menu_reflect,
	/* menu reads the timer, the tick and its history, never sched_cpu_util() */
	.reads_cpu_util = ik_governor_never_reads_cpu_util,
};
