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
 */
#include <stdint.h>
#include <stdlib.h>

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

/* struct menu_device: the governor's per-CPU history. */
struct menu_cpu {
	bool needs_update;  /* reflect ran: learn from the last idle period first */
	bool tick_wakeup;   /* the last idle period was ended by the tick */
	uint64_t next_timer_ns; /* sleep length seen by the last select (KTIME_MAX if not asked) */
	unsigned bucket;        /* correction-factor bucket of next_timer_ns */
	uint32_t correction_factor[MENU_BUCKETS];
	uint32_t intervals_us[MENU_INTERVALS]; /* ring of recent idle durations */
	unsigned interval_ptr;                 /* next slot to overwrite */
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

static void record_interval(struct menu_cpu *data, uint32_t interval_us)
{
	data->intervals_us[data->interval_ptr++] = interval_us;
	if (data->interval_ptr >= MENU_INTERVALS)
		data->interval_ptr = 0;
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
 */
static uint32_t typical_interval_us(const struct menu_cpu *data)
{
	int64_t low_cut = -1, high_cut = UINT32_MAX;

	for (;;) {
		uint32_t max = 0, min = UINT32_MAX, count = 0;
		uint64_t sum = 0, sum_of_squares = 0;

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

		/* Nothing but zeros (or nothing at all) says nothing. */
		if (max == 0)
			return MENU_NO_INTERVAL;

		uint64_t avg, mean_square;

		if (count == MENU_INTERVALS) {
			avg = sum >> MENU_INTERVAL_SHIFT;
			mean_square = sum_of_squares >> MENU_INTERVAL_SHIFT;
		} else {
			avg = sum / count;
			mean_square = sum_of_squares / count;
		}
		uint64_t avg_squared = avg * avg;
		uint64_t variance = mean_square - avg_squared;

		/* Past 715 s of standard deviation, 36 * variance would overflow: no pattern. */
		if (variance <= UINT64_MAX / 36) {
			if ((avg_squared > variance * 36 && count * 4 >= MENU_INTERVALS * 3) ||
			    variance <= 400)
				return (uint32_t)avg;
		}

		/* Six samples or fewer left: too few to drop any more, no prediction. */
		if (count * 4 <= MENU_INTERVALS * 3)
			return MENU_NO_INTERVAL;

		if (avg - min > max - avg)
			low_cut = min;
		else
			high_cut = max;
	}
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
static void menu_update(const struct ik_driver *drv, struct ik_device *dev)
{
	struct menu_cpu *data = dev->governor_data;
	const struct ik_state *entered = &drv->states[dev->last_state_idx];
	uint64_t measured_ns;

	if (data->tick_wakeup && data->next_timer_ns > (uint64_t)dev->tick_nsec) {
		measured_ns = MENU_TICK_WAKEUP_GUESS_NS;
	} else if ((entered->flags & IK_FLAG_POLLING) && dev->poll_time_limit) {
		measured_ns = data->next_timer_ns;
	} else {
		measured_ns = dev->last_residency_ns;
		if (measured_ns > 2 * (uint64_t)entered->exit_latency_ns)
			measured_ns -= (uint64_t)entered->exit_latency_ns;
		else
			measured_ns /= 2;
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
 * Pick a state.  The steps follow menu_select() one for one; see the comments at each.
 */
static int menu_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	struct menu_cpu *data = dev->governor_data;
	int64_t latency_req = ik_latency_req(dev);
	uint64_t predicted_ns;
	int64_t delta_tick;
	int idx;

	/*
	 * Learn from the previous idle period.  If there was none because the entry was
	 * rejected (the core then reports a zero residency and does not call reflect), record
	 * an "invalid" interval so stale short intervals stop producing a pattern.
	 */
	if (data->needs_update) {
		menu_update(drv, dev);
		data->needs_update = false;
	} else if (dev->last_residency_ns == 0) {
		record_interval(data, MENU_NO_INTERVAL);
	}

	predicted_ns = (uint64_t)typical_interval_us(data) * IK_NSEC_PER_USEC;

	/*
	 * Asking for the sleep length is costly; skip it when the pattern already says the CPU
	 * will be woken within the residency threshold.  Without it, assume no timer at all and
	 * the tick half a period away.
	 */
	if (predicted_ns > (uint64_t)IK_RESIDENCY_THRESHOLD_NS) {
		int64_t sleep_length_ns = ik_sleep_length(dev, &delta_tick);

		if (sleep_length_ns < 0) {
			sleep_length_ns = 0;
			delta_tick = 0;
		}
		data->next_timer_ns = (uint64_t)sleep_length_ns;
		data->bucket = which_bucket(data->next_timer_ns);

		uint64_t timer_ns = (uint64_t)timer_prediction_us(
					    data->next_timer_ns,
					    data->correction_factor[data->bucket]) *
				    IK_NSEC_PER_USEC;
		if (timer_ns < predicted_ns)
			predicted_ns = timer_ns;
	} else {
		data->next_timer_ns = (uint64_t)IK_KTIME_MAX;
		delta_tick = dev->tick_nsec / 2;
		data->bucket = MENU_BUCKETS - 1; /* which_bucket(KTIME_MAX) */
	}

	/*
	 * State 0 is the only sensible choice when there is nothing else, when no latency is
	 * tolerated, or (if state 0 is enabled) when state 1 cannot pay off before the timer or
	 * is too slow to leave.  A polling state 0 keeps the tick running.
	 */
	if (drv->state_count <= 1 || latency_req == 0 ||
	    ((data->next_timer_ns < (uint64_t)drv->states[1].target_residency_ns ||
	      latency_req < drv->states[1].exit_latency_ns) &&
	     !ik_state_disabled(dev, 0))) {
		*stop_tick = !(drv->states[0].flags & IK_FLAG_POLLING);
		return 0;
	}

	/*
	 * With the tick already stopped nothing will correct a too-short guess, and the CPU
	 * could sit in a shallow state until the next timer; so trust the timer instead.
	 */
	if (ik_tick_stopped(dev) && predicted_ns < (uint64_t)dev->tick_nsec)
		predicted_ns = data->next_timer_ns;

	/* The deepest enabled state that fits both the prediction and the latency limit. */
	idx = -1;
	for (int i = 0; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];

		if (ik_state_disabled(dev, i))
			continue;
		if (idx == -1)
			idx = i; /* the first enabled state is the fallback */

		if (s->exit_latency_ns > latency_req)
			break;

		if ((uint64_t)s->target_residency_ns <= predicted_ns) {
			idx = i;
			continue;
		}

		/*
		 * State i is deeper than the prediction.  Rather than busy-poll, take it anyway
		 * if it is a cheap physical state: residency under the threshold, the timer no
		 * sooner than its residency, and an exit latency within the prediction.
		 */
		if ((drv->states[idx].flags & IK_FLAG_POLLING) &&
		    s->target_residency_ns < IK_RESIDENCY_THRESHOLD_NS &&
		    (uint64_t)s->target_residency_ns <= data->next_timer_ns &&
		    (uint64_t)s->exit_latency_ns <= predicted_ns) {
			predicted_ns = (uint64_t)s->target_residency_ns;
			idx = i;
			break;
		}

		if (predicted_ns < (uint64_t)dev->tick_nsec)
			break;

		/*
		 * A long prediction and a running tick: settle for the shallower state and keep
		 * the tick, so the governor gets another chance at the next tick.
		 */
		if (!ik_tick_stopped(dev)) {
			predicted_ns = (uint64_t)drv->states[idx].target_residency_ns;
			break;
		}

		/*
		 * The tick is stopped: if the state so far is shallow and state i still pays off
		 * before the next clock event, go deeper rather than risk being stuck shallow.
		 */
		if (drv->states[idx].target_residency_ns < dev->tick_nsec &&
		    s->target_residency_ns <= delta_tick)
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
	if (((drv->states[idx].flags & IK_FLAG_POLLING) ||
	     predicted_ns < (uint64_t)dev->tick_nsec) &&
	    !ik_tick_stopped(dev)) {
		*stop_tick = false;

		if (idx > 0 && drv->states[idx].target_residency_ns > delta_tick) {
			for (int i = idx - 1; i >= 0; i--) {
				if (ik_state_disabled(dev, i))
					continue;
				idx = i;
				if (drv->states[i].target_residency_ns <= delta_tick)
					break;
			}
		}
	}

	return idx;
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
	struct menu_cpu *data = calloc(1, sizeof(*data));

	(void)drv;
	if (!data)
		return -1;
	for (unsigned i = 0; i < MENU_BUCKETS; i++)
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
};
