/*
 * teo: the "timer events oriented" governor, as in kernel v6.6 to v6.19
 * (drivers/cpuidle/governors/teo.c; read in the 6.6.9, 6.12.0, 6.13.7, 6.14.0, 6.18.2,
 * 6.18.35 and 6.19 trees; 6.15-6.18.2 run 6.14.0's code: their teo.c differs in comments).
 *
 * The idea: on most machines timers cause far more wakeups than anything else, and the time
 * to the next timer (the sleep length) is known when a state is chosen.  So the deepest
 * enabled state is the starting candidate, and recent history decides whether the CPU is
 * likely to be woken early by something else, in which case a shallower state is taken.
 *
 * History is kept in one bin per state: bin i covers idle durations from the target
 * residency of state i up to (not including) that of state i+1; bin 0 starts at 0 and the
 * last bin has no end.  After every wakeup the measured idle duration is compared with the
 * sleep length seen at selection time:
 *   - both in the same bin: a "hit" for that bin (the timer woke the CPU, or nearly);
 *   - measured in a shallower bin: an "intercept" for the measured bin.
 * Every metric decays by 1/8 per wakeup and a new event adds PULSE, so the metrics are
 * exponentially weighted counts of recent events.
 *
 * Arithmetic follows the kernel: the metrics are 32-bit unsigned (sums and products wrap
 * the same way), times are s64 nanoseconds.
 *
 * The releases differ by switches, each checked beside the lines it changes:
 *   - teo_util (6.3-6.10): a CPU whose utilisation is above its capacity / 64 gets a
 *     shallower, non-polling state;
 *   - teo_tick_stats (6.6): a hits-only bin for idle periods of a tick or more, and the tick
 *     kept when intercepts within a tick dominate;
 *   - teo_no_recent (6.11): before it, the bins of the last 9 intercepts also vote;
 *   - teo_intercepts_sleep_length (6.11): when intercepts alone lead to state 0, the sleep
 *     length is still asked for, so that the next wakeup is judged against it;
 *   - teo_2025_series (6.14; 6.13's teo is 6.12's): short idles and a tight latency limit
 *     skip the sleep length, a safety net's wakeup marked at reflect instead of the
 *     select-to-reflect span, a decaying grand total, no tick bin but intercepts of a tick
 *     or more counted at update for the tick decision;
 *   - pm-6.19-rc1, in the order applied (each on top of those before it):
 *     teo_drop_residency_check (also 6.18.3 stable): a sleep length below the candidate's
 *     residency always leads to the shallower state found; teo_decay_to_zero: metrics
 *     decay to zero, the total is the bins' sum again; teo_tick_rework: tick wakeups
 *     counted by themselves (total_tick), a poll time-out the only "unbounded" wakeup;
 *     teo_tick_intercepts_within: the intercepts within a tick counted for the tick
 *     decision (6.14-6.18 counted those of a tick or more); teo_simple_intercepts_lookup:
 *     the intercepts search down to the first state long enough for a stopped tick;
 *   - pm-6.20-rc1 (7.0), in the order applied, on top of those: teo_zero_size_bins: with
 *     the tick stopped, no state of the candidate's own residency is taken instead of it;
 *     teo_tick_fake_intercepts: a tick wakeup is a hit unless tick intercepts dominate;
 *     teo_tick_keep_two_thirds: the tick kept at 2/3 tick intercepts (was 5/8);
 *     teo_hits_by_exit_latency: a hit needs the wakeup within half the exit latency of the
 *     timer; teo_intercepts_max_lookup: the search goes down to the bin with the most
 *     intercepts;
 *   - 7.1: teo_stopped_tick_safe_range: a stopped tick no longer shapes the intercepts
 *     search or the short-idle shortcut; the sleep length is always asked for and only a
 *     timer more than two ticks away makes a sub-tick choice deeper.
 *
 * Two earlier files are separate algorithms, to which every callback below hands over:
 * before the ~5.14 rework (teo_bins off) hits, misses and early hits per state
 * (src/governors/teo_legacy.c), and from the rework to 6.5 (teo_skip_sleep_length off) the
 * bins with the sleep length asked first (src/governors/teo_upfront.c).
 *
 * Divisions: helpers (switch checks, decay); teo_update (the reflect step's learning, per
 * release); finding a shallower state and the intercepts state (per release); teo_select_as
 * (the selection, with each release's differences beside the lines they change); the ops
 * (select, reflect, enable, disable, reads_cpu_util).
 */
#include <stdlib.h>

#include "idlekit/governor.h"
#include "teo_legacy.h"
#include "teo_upfront.h"

/* The metrics below wrap exactly as the kernel's "unsigned int" ones do. */
_Static_assert(sizeof(unsigned int) == sizeof(uint32_t), "unsigned int must be 32 bits");

/* What one event adds to a metric, and the decay per wakeup (1/8). */
#define TEO_PULSE 1024u
#define TEO_DECAY_SHIFT 3

/*
 * With a latency limit below this, only very shallow states can be used anyway, so there is
 * no point in asking for the sleep length.
 */
#define TEO_LATENCY_THRESHOLD_NS (IK_RESIDENCY_THRESHOLD_NS / 2)

/* teo_util: "utilised" means above the capacity >> this (1/64). */
#define TEO_UTIL_THRESHOLD_SHIFT 6

/* teo_no_recent off: how many intercepts are remembered one by one. */
#define TEO_NR_RECENT 9

struct teo_bin {
	uint32_t intercepts;
	uint32_t hits;
	uint32_t recent; /* teo_no_recent off: of the last TEO_NR_RECENT intercepts, here */
};

struct teo_cpu {
	uint64_t on;             /* the release's switches, read once at enable */
	bool tick_rework;        /* teo_tick_rework: reflect notes the tick, not a safety net */
	bool artificial_wakeup;  /* 6.14-6.18 (teo_2025_series, not teo_tick_rework): a safety
				    net woke it */
	int64_t sleep_length_ns; /* sleep length seen by the last select, KTIME_MAX if not asked */
	struct teo_bin bins[IK_STATE_MAX];
	uint32_t total;           /* all bins' hits and intercepts (6.14-6.18: decaying count) */
	/* 6.19 (teo_tick_rework) */
	uint32_t total_tick;      /* wakeups by the tick */
	/* 6.14 on (teo_2025_series) */
	uint32_t tick_intercepts; /* intercepts within a tick (6.14-6.18: of a tick or more) */
	uint32_t short_idles;     /* idle periods shorter than RESIDENCY_THRESHOLD_NS */
	bool tick_wakeup;         /* the last wakeup was the tick */
	/* 6.6-6.12 (teo_tick_rework off) */
	int64_t time_span_ns;     /* at select: the clock; at reflect: the span measured */
	uint32_t tick_hits;       /* teo_tick_stats: the hits-only bin past the deepest state */
	unsigned long util_threshold; /* teo_util: capacity >> TEO_UTIL_THRESHOLD_SHIFT */
	int next_recent_idx;      /* teo_no_recent off: the ring of recent events */
	int recent_idx[TEO_NR_RECENT];
};

static inline bool teo_has(const struct teo_cpu *cpu, enum ik_switch s)
{
	return ik_switch_on(cpu->on, s);
}

/*
 * Remove 1/8 of a metric.  Once it is too small for 1/8 to be a whole unit it is dropped to
 * zero, so stale history really disappears (the 6.19 behaviour; earlier kernels left a
 * remainder of up to 7 forever).
 */
static inline void teo_decay(bool to_zero, uint32_t *metric)
{
	uint32_t delta = *metric >> TEO_DECAY_SHIFT;

	if (to_zero) /* teo_decay_to_zero */
		*metric = delta ? *metric - delta : 0;
	else
		*metric -= delta; /* before: a remainder of up to 7 stays */
}

/*
 * Account for the idle period that just ended: decide whether it was a hit or an intercept
 * and fold it into the decaying metrics.
 */
static inline __attribute__((always_inline)) void
teo_update(const struct ik_driver *drv, struct ik_device *dev, struct teo_cpu *cpu, uint64_t on)
{
	bool series = ik_switch_on(on, IK_SW_TEO_2025_SERIES); /* 6.14 on */
	bool to_zero = ik_switch_on(on, IK_SW_TEO_DECAY_TO_ZERO);
	bool tick_rework = ik_switch_on(on, IK_SW_TEO_TICK_REWORK);
	int idx_timer = 0;    /* bin of the sleep length */
	int idx_duration = 0; /* bin of the measured idle duration */
	int64_t measured_ns;
	int64_t residency_ns = 0;
	uint32_t total = 0;

	if (series)
		teo_decay(to_zero, &cpu->short_idles);

	if (tick_rework ? dev->poll_time_limit
			: series ? cpu->artificial_wakeup : cpu->time_span_ns >= cpu->sleep_length_ns) {
		/*
		 * teo_tick_rework: the polling state gave up on its own, so nothing is known
		 * about how long the CPU would have stayed idle: treat it as possibly very long.
		 * Clearing the flag is this governor's job.  6.14-6.18: a safety net (that poll
		 * time-out, or a tick nohz did not expect) woke the CPU, as reflect noted.
		 * Before: the span from select to reflect reached the sleep length (the timer,
		 * or a safety net).
		 */
		if (tick_rework)
			dev->poll_time_limit = false;
		measured_ns = INT64_MAX;
	} else {
		int64_t exit_latency_ns = drv->states[dev->last_state_idx].exit_latency_ns;

		/*
		 * The measured time includes the exit latency, which is rarely the worst case:
		 * half of it is taken as the typical share.  An idle period shorter than the exit
		 * latency is simply halved.  6.14 on also count the short periods.
		 */
		measured_ns = (int64_t)dev->last_residency_ns;
		if (measured_ns >= exit_latency_ns) {
			measured_ns -= exit_latency_ns / 2;
			if (series && measured_ns < IK_RESIDENCY_THRESHOLD_NS)
				cpu->short_idles += TEO_PULSE;
		} else {
			measured_ns /= 2;
			if (series)
				cpu->short_idles += TEO_PULSE;
		}
	}

	/* Age every bin, re-add the grand total, and find the two bins of this wakeup. */
	for (int i = 0; i < drv->state_count; i++) {
		struct teo_bin *bin = &cpu->bins[i];

		residency_ns = drv->states[i].target_residency_ns;
		teo_decay(to_zero, &bin->hits);
		total += bin->hits;
		teo_decay(to_zero, &bin->intercepts);
		total += bin->intercepts;

		if (residency_ns <= cpu->sleep_length_ns) {
			idx_timer = i;
			if (residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	if (series) {
		/*
		 * 6.14 on: no tick bin; the intercepts for the tick decision counted here.  The
		 * grand total: the bins' sum plus this event (teo_decay_to_zero), or, 6.14-6.18, a
		 * decaying count of its own (nothing reads it before the end, where 6.14 updates
		 * it).
		 */
		if (to_zero) {
			cpu->total = total + TEO_PULSE;
		} else {
			cpu->total -= cpu->total >> TEO_DECAY_SHIFT;
			cpu->total += TEO_PULSE;
		}
		teo_decay(to_zero, &cpu->tick_intercepts);

		if (tick_rework) {
			teo_decay(to_zero, &cpu->total_tick);
			if (cpu->tick_wakeup) {
				cpu->total_tick += TEO_PULSE;
				/*
				 * When most recent wakeups come from the tick, this one is credited
				 * as a hit on the deepest state, which makes stopping the tick more
				 * likely next time.
				 */
				if (3 * cpu->total_tick > 2 * cpu->total) {
					cpu->bins[drv->state_count - 1].hits += TEO_PULSE;
					return;
				}
				/*
				 * teo_tick_fake_intercepts: unless intercepts within a tick are
				 * at least 2/3 of the bins' sum, the tick most likely woke the
				 * CPU because an expected intercept did not come: a hit, not an
				 * intercept that would pull later choices shallower.
				 */
				if (ik_switch_on(on, IK_SW_TEO_TICK_FAKE_INTERCEPTS) &&
				    3 * cpu->tick_intercepts < 2 * total) {
					cpu->bins[idx_timer].hits += TEO_PULSE;
					return;
				}
			}
		}

		/*
		 * Same bin: a hit.  teo_hits_by_exit_latency: and only if the wakeup came no
		 * earlier than half the exit latency before the timer (measured in s64 that
		 * wraps, as the kernel builds), since a wide bin may hold a much earlier one.
		 */
		if (idx_timer == idx_duration &&
		    (!ik_switch_on(on, IK_SW_TEO_HITS_BY_EXIT_LATENCY) ||
		     (int64_t)((uint64_t)cpu->sleep_length_ns - (uint64_t)measured_ns) <
			     drv->states[dev->last_state_idx].exit_latency_ns / 2)) {
			cpu->bins[idx_timer].hits += TEO_PULSE;
		} else {
			cpu->bins[idx_duration].intercepts += TEO_PULSE;
			/* (6.14-6.18: of a tick or more -- a reversed condition) */
			if (ik_switch_on(on, IK_SW_TEO_TICK_INTERCEPTS_WITHIN)
				    ? measured_ns <= dev->tick_nsec
				    : dev->tick_nsec <= measured_ns)
				cpu->tick_intercepts += TEO_PULSE;
		}
		return;
	}

	/* 6.6-6.12 */
	cpu->total = total;
	int slot = -1;
	if (!ik_switch_on(on, IK_SW_TEO_NO_RECENT)) {
		/* the oldest recent event leaves the window */
		slot = cpu->next_recent_idx++;
		if (cpu->next_recent_idx >= TEO_NR_RECENT)
			cpu->next_recent_idx = 0;
		if (cpu->recent_idx[slot] >= 0)
			cpu->bins[cpu->recent_idx[slot]].recent--;
	}

	/*
	 * teo_tick_stats: when even the deepest state is shorter than a tick, idle periods of
	 * a tick or more get a hits-only bin of their own beyond the last state's.  (A hit
	 * there leaves the recent slot as it was: 6.6 decrements its bin again next time.)
	 */
	if (ik_switch_on(on, IK_SW_TEO_TICK_STATS) && residency_ns < dev->tick_nsec) {
		cpu->tick_hits -= cpu->tick_hits >> TEO_DECAY_SHIFT;
		cpu->total += cpu->tick_hits;
		if (dev->tick_nsec <= cpu->sleep_length_ns) {
			idx_timer = drv->state_count;
			if (dev->tick_nsec <= measured_ns) {
				cpu->tick_hits += TEO_PULSE;
				goto end;
			}
		}
	}

	if (idx_timer == idx_duration) {
		cpu->bins[idx_timer].hits += TEO_PULSE;
		if (slot >= 0)
			cpu->recent_idx[slot] = -1;
	} else {
		cpu->bins[idx_duration].intercepts += TEO_PULSE;
		if (slot >= 0) {
			cpu->bins[idx_duration].recent++;
			cpu->recent_idx[slot] = idx_duration;
		}
	}
end:
	cpu->total += TEO_PULSE;
}

/* 6.6-6.12: with the tick stopped, a state shorter than a tick is not good enough. */
static bool teo_state_ok(const struct ik_driver *drv, const struct ik_device *dev, int i)
{
	return !ik_tick_stopped(dev) || drv->states[i].target_residency_ns >= dev->tick_nsec;
}

/*
 * Starting below state_idx, go to shallower enabled states (no_poll: and not polling ones)
 * until one fits in duration_ns; if none does, the shallowest such state below state_idx
 * is returned (state_idx itself if there is none).
 */
static int teo_find_shallower_state(const struct ik_driver *drv, const struct ik_device *dev,
				    int state_idx, int64_t duration_ns, bool no_poll)
{
	for (int i = state_idx - 1; i >= 0; i--) {
		if (ik_state_disabled(dev, i) ||
		    (no_poll && (drv->states[i].flags & IK_FLAG_POLLING)))
			continue;
		state_idx = i;
		if (drv->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

/*
 * The intercepts below the candidate outnumber everything at or above it: pick the deepest
 * shallower state that more than half of those intercepts would still have fitted in.  With
 * the tick already stopped, states shorter than a tick period are not considered, because
 * nothing may wake the CPU for a long time (6.19-7.0; teo_stopped_tick_safe_range: they are,
 * the sleep length decides later).  max_idx (teo_intercepts_max_lookup, else -1): the bin
 * with the most intercepts, which the search does not stop above.
 */
static inline __attribute__((always_inline)) int
teo_intercepts_state(const struct ik_driver *drv, const struct ik_device *dev,
		     const struct teo_cpu *cpu, uint64_t on, int idx, int idx0,
		     uint32_t idx_intercept_sum, int max_idx)
{
	int min_idx = idx0;
	uint32_t intercept_sum = 0;

	if (!ik_switch_on(on, IK_SW_TEO_STOPPED_TICK_SAFE_RANGE)) {
		if (ik_tick_stopped(dev)) {
			while (min_idx < idx &&
			       drv->states[min_idx].target_residency_ns < dev->tick_nsec)
				min_idx++;
			/*
			 * teo_zero_size_bins: a floor with the candidate's own residency has an
			 * empty bin; keep the candidate rather than take it.
			 */
			if (ik_switch_on(on, IK_SW_TEO_ZERO_SIZE_BINS) &&
			    drv->states[min_idx].target_residency_ns ==
				    drv->states[idx].target_residency_ns)
				return idx;
		}
		/* The floor is at or below the busiest bin: nothing deeper can win. */
		if (max_idx >= 0 && min_idx >= max_idx && !ik_state_disabled(dev, min_idx))
			return min_idx;
	}

	for (int i = idx - 1; i >= min_idx; i--) {
		intercept_sum += cpu->bins[i].intercepts;
		if (ik_state_disabled(dev, i))
			continue;
		idx = i;
		if (2 * intercept_sum > idx_intercept_sum && (max_idx < 0 || i <= max_idx))
			break;
	}
	return idx;
}

/*
 * The same search in 6.6-6.12: walking down, the first state where more than half of the
 * intercepts (and, with alt_recent, of the recent ones) would have fitted is taken if it is
 * enabled and long enough for a stopped tick; otherwise the last enabled, long enough state
 * passed on the way (the candidate itself if none).  A state too short for a stopped tick
 * before any such state was passed ends the search at the candidate.
 */
static int teo_intercepts_state_6_6(const struct ik_driver *drv, const struct ik_device *dev,
				    const struct teo_cpu *cpu, int idx, bool alt_intercepts,
				    uint32_t idx_intercept_sum, bool alt_recent,
				    uint32_t idx_recent_sum)
{
	int first_suitable_idx = idx;
	uint32_t intercept_sum = 0, recent_sum = 0;

	for (int i = idx - 1; i >= 0; i--) {
		intercept_sum += cpu->bins[i].intercepts;
		recent_sum += cpu->bins[i].recent;

		if ((!alt_recent || 2 * recent_sum > idx_recent_sum) &&
		    (!alt_intercepts || 2 * intercept_sum > idx_intercept_sum)) {
			if (teo_state_ok(drv, dev, i) && !ik_state_disabled(dev, i))
				return i;
			return first_suitable_idx;
		}
		if (ik_state_disabled(dev, i))
			continue;
		if (!teo_state_ok(drv, dev, i)) {
			/* too shallow; an alternative found already may still be used */
			if (first_suitable_idx != idx)
				continue;
			break;
		}
		first_suitable_idx = i;
	}
	return idx;
}

/* The release's teo file: before the 5.14 rework, from it to 6.5, or this one. */
static inline bool teo_legacy(const struct ik_device *dev)
{
	return !ik_kernel_has(ik_kernel_or_default(dev->kernel), IK_SW_TEO_BINS);
}

static inline bool teo_upfront(const struct ik_device *dev)
{
	return !ik_kernel_has(ik_kernel_or_default(dev->kernel), IK_SW_TEO_SKIP_SLEEP_LENGTH);
}

/*
 * select for the switch set `on`.  Inlined twice (teo_select): once with 6.19's set as a
 * constant, so that the default release runs without testing switches, once for any other.
 */
static inline __attribute__((always_inline)) int
teo_select_as(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick, uint64_t on)
{
	struct teo_cpu *cpu = dev->governor_data;
	bool series = ik_switch_on(on, IK_SW_TEO_2025_SERIES); /* 6.14 on */
	int64_t latency_req = ik_latency_req(dev);
	int64_t delta_tick = dev->tick_nsec / 2; /* used if the sleep length is not asked for */
	uint32_t idx_intercept_sum = 0, intercept_sum = 0;
	uint32_t idx_hit_sum = 0, hit_sum = 0;
	uint32_t idx_recent_sum = 0, recent_sum = 0;
	uint32_t tick_intercept_sum = 0;
	uint32_t intercept_max = 0;
	int intercept_max_idx = -1; /* teo_intercepts_max_lookup: the bin with the most */
	bool max_lookup = ik_switch_on(on, IK_SW_TEO_INTERCEPTS_MAX_LOOKUP);
	bool safe_range = ik_switch_on(on, IK_SW_TEO_STOPPED_TICK_SAFE_RANGE);
	bool cpu_utilized = false;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	int64_t duration_ns;

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev, cpu, on);
		dev->last_state_idx = -1;
	}

	if (!series)
		cpu->time_span_ns = dev->in.now_ns;
	/*
	 * Unless the sleep length is asked for below, the next wakeup is judged against an
	 * infinite sleep length, i.e. it will count as an intercept.
	 */
	cpu->sleep_length_ns = IK_KTIME_MAX;

	if (drv->state_count < 2) {
		idx = 0;
		goto keep_tick;
	}

	if (!ik_state_disabled(dev, 0))
		idx = 0;

	if (ik_switch_on(on, IK_SW_TEO_UTIL)) {
		cpu_utilized = dev->in.cpu_util > cpu->util_threshold;
		/*
		 * A busy CPU with two states: no metrics needed.  State 0 if it is enabled, not
		 * polling and (tick stopped) long enough, or if state 1 is disabled; else state 1.
		 */
		if (drv->state_count < 3 && cpu_utilized) {
			if ((idx == 0 && !(drv->states[0].flags & IK_FLAG_POLLING) &&
			     teo_state_ok(drv, dev, 0)) ||
			    ik_state_disabled(dev, 1)) {
				idx = 0;
				goto keep_tick;
			}
			idx = 1;
			duration_ns = drv->states[1].target_residency_ns;
			goto decide_tick;
		}
	}

	/*
	 * The candidate is the deepest enabled state.  On the way there, sum the metrics of all
	 * bins below each enabled state, remember the first enabled state (idx0) and the
	 * deepest one the latency limit allows (constraint_idx).
	 */
	for (int i = 1; i < drv->state_count; i++) {
		intercept_sum += cpu->bins[i - 1].intercepts;
		hit_sum += cpu->bins[i - 1].hits;
		recent_sum += cpu->bins[i - 1].recent;
		/* every bin but the last, enabled or not; the deepest of equals */
		if (max_lookup && cpu->bins[i - 1].intercepts >= intercept_max) {
			intercept_max = cpu->bins[i - 1].intercepts;
			intercept_max_idx = i - 1;
		}

		if (ik_state_disabled(dev, i))
			continue;
		if (idx < 0)
			idx0 = i;
		idx = i;
		if (drv->states[i].exit_latency_ns <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
		idx_recent_sum = recent_sum;
	}

	if (idx < 0) {
		idx = 0; /* everything is disabled: state 0 it is */
		goto keep_tick;
	}

	if (idx == idx0) {
		/* A single enabled state: no choice, but keep the tick if it is a short one. */
		duration_ns = drv->states[idx].target_residency_ns;
		goto decide_tick;
	}

	if (ik_switch_on(on, IK_SW_TEO_SIMPLE_INTERCEPTS_LOOKUP)) {
		/* Intercepts below the candidate weigh more than everything at or above it? */
		if (2 * idx_intercept_sum > cpu->total - idx_hit_sum)
			idx = teo_intercepts_state(drv, dev, cpu, on, idx, idx0, idx_intercept_sum,
						   intercept_max_idx);
	} else {
		/* teo_tick_stats: the intercepts of every bin, for the tick decision below */
		tick_intercept_sum = intercept_sum + cpu->bins[drv->state_count - 1].intercepts;

		/*
		 * The intercepts below the candidate outweigh everything at or above it, or
		 * (teo_no_recent off) more than half of the recent events were intercepts below.
		 */
		bool alt_intercepts = 2 * idx_intercept_sum > cpu->total - idx_hit_sum;
		bool alt_recent = !ik_switch_on(on, IK_SW_TEO_NO_RECENT) &&
				  idx_recent_sum > TEO_NR_RECENT / 2;
		int prev_intercept_idx = idx;

		if (alt_recent || alt_intercepts)
			idx = teo_intercepts_state_6_6(drv, dev, cpu, idx, alt_intercepts,
						       idx_intercept_sum, alt_recent,
						       idx_recent_sum);
		/*
		 * teo_intercepts_sleep_length: intercepts led to state 0, but without the sleep
		 * length the next wakeup could not tell whether that guess was right: ask.
		 */
		if (!series && ik_switch_on(on, IK_SW_TEO_INTERCEPTS_SLEEP_LENGTH) && idx == 0 &&
		    prev_intercept_idx != 0) {
			duration_ns = ik_sleep_length(dev, &delta_tick);
			cpu->sleep_length_ns = duration_ns;
			goto keep_tick;
		}
	}

	if (idx > constraint_idx)
		idx = constraint_idx;

	/*
	 * teo_util: a busy CPU takes the next shallower non-polling state for its latency,
	 * unless the tick is stopped and that state is shorter than a tick.
	 */
	if (cpu_utilized) {
		int i = teo_find_shallower_state(drv, dev, idx, IK_KTIME_MAX, true);
		if (teo_state_ok(drv, dev, i))
			idx = i;
	}

	if (series) {
		/*
		 * A shallow choice is final without knowing the sleep length when most recent
		 * idle periods were short (non-timer wakeups dominate) or the latency limit is
		 * tight: the sleep length is costly to get and could not make the choice deeper
		 * in a useful way.
		 */
		if (!(safe_range && ik_tick_stopped(dev)) &&
		    (idx == 0 || drv->states[idx].target_residency_ns < IK_RESIDENCY_THRESHOLD_NS) &&
		    (2 * cpu->short_idles >= cpu->total || latency_req < TEO_LATENCY_THRESHOLD_NS))
			goto keep_tick;
	} else {
		/*
		 * State 0 expects an immediate non-timer wakeup; and with a polling state 0, a
		 * candidate shorter than RESIDENCY_THRESHOLD_NS is final too.
		 */
		if (idx == 0)
			goto keep_tick;
		if ((drv->states[0].flags & IK_FLAG_POLLING) &&
		    drv->states[idx].target_residency_ns < IK_RESIDENCY_THRESHOLD_NS)
			goto keep_tick;
	}

	duration_ns = ik_sleep_length(dev, &delta_tick);
	cpu->sleep_length_ns = duration_ns;

	/*
	 * teo_stopped_tick_safe_range: with the tick stopped, a sub-tick choice is fine when
	 * a timer comes within two ticks (it ends the idle period); beyond that, go as deep as
	 * the latency limit and the sleep length allow, so as not to sit in a shallow state
	 * for long.  The choice is final: the tick is stopped already.
	 */
	if (safe_range && ik_tick_stopped(dev) &&
	    duration_ns > IK_SAFE_TIMER_RANGE_TICKS * dev->tick_nsec &&
	    drv->states[idx].target_residency_ns < dev->tick_nsec) {
		for (int i = constraint_idx; i > idx; i--) {
			if (ik_state_disabled(dev, i))
				continue;
			if (drv->states[i].target_residency_ns <= duration_ns) {
				idx = i;
				break;
			}
		}
		return idx;
	}

	if (idx == 0)
		goto keep_tick;

	/*
	 * The next timer comes before the candidate would pay off: go shallower.  (Before
	 * teo_drop_residency_check, 6.6-6.18: not to a state too short for a stopped tick, the
	 * candidate was kept instead, though the timer wakes the CPU anyway.)
	 */
	if (drv->states[idx].target_residency_ns > duration_ns) {
		int i = teo_find_shallower_state(drv, dev, idx, duration_ns, false);
		if (ik_switch_on(on, IK_SW_TEO_DROP_RESIDENCY_CHECK) || teo_state_ok(drv, dev, i))
			idx = i;
	}

	/*
	 * A state shorter than the tick, with intercepts within a tick period making up most
	 * wakeups: the CPU will most likely be woken before the tick anyway, so keep it.
	 * (6.6-6.12, teo_tick_stats: the intercepts of all bins, summed at select.)
	 */
	if (drv->states[idx].target_residency_ns < dev->tick_nsec &&
	    (!series ? ik_switch_on(on, IK_SW_TEO_TICK_STATS) &&
			       tick_intercept_sum > cpu->total / 2 + cpu->total / 8
	     : ik_switch_on(on, IK_SW_TEO_TICK_KEEP_TWO_THIRDS) /* at least 2/3 */
		     ? 3 * cpu->tick_intercepts >= 2 * cpu->total
		     : cpu->tick_intercepts > cpu->total / 2 + cpu->total / 8))
		duration_ns = dev->tick_nsec / 2;

decide_tick:
	/*
	 * Stop the tick unless the state polls or the expected idle period is shorter than a
	 * tick period; once the tick is stopped it stays stopped.
	 */
	if ((!(drv->states[idx].flags & IK_FLAG_POLLING) && duration_ns >= dev->tick_nsec) ||
	    ik_tick_stopped(dev))
		return idx;

	/* The tick will wake the CPU: do not pick a state that only pays off after it. */
	if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick)
		idx = teo_find_shallower_state(drv, dev, idx, delta_tick, false);

keep_tick:
	*stop_tick = false;
	return idx;
}

static int teo_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	if (teo_legacy(dev))
		return ik__teo_legacy_select(drv, dev, stop_tick);
	if (teo_upfront(dev))
		return ik__teo_upfront_select(drv, dev, stop_tick);
	const struct teo_cpu *cpu = dev->governor_data;
	if (cpu->on == IK_KERNEL_DEFAULT_ON)
		return teo_select_as(drv, dev, stop_tick, IK_KERNEL_DEFAULT_ON);
	return teo_select_as(drv, dev, stop_tick, cpu->on);
}

static void teo_reflect(struct ik_device *dev, int index)
{
	if (teo_legacy(dev)) {
		ik__teo_legacy_reflect(dev, index);
		return;
	}
	if (teo_upfront(dev)) {
		ik__teo_upfront_reflect(dev, index);
		return;
	}
	struct teo_cpu *cpu = dev->governor_data;

	if (cpu->tick_rework) {
		cpu->tick_wakeup = ik_got_tick(dev);
		dev->last_state_idx = index;
		return;
	}
	dev->last_state_idx = index;
	/*
	 * 6.6-6.18: a poll time-out, or a tick nohz did not expect, counts as if the CPU had
	 * been idle for the whole sleep length (6.14-6.18: marked as a safety net's wakeup).
	 */
	bool series = teo_has(cpu, IK_SW_TEO_2025_SERIES);
	if (dev->poll_time_limit || (ik_got_tick(dev) && cpu->sleep_length_ns > dev->tick_nsec)) {
		dev->poll_time_limit = false;
		cpu->time_span_ns = cpu->sleep_length_ns;
		cpu->artificial_wakeup = series;
	} else if (series) {
		cpu->artificial_wakeup = false;
	} else {
		cpu->time_span_ns = dev->in.now_ns - cpu->time_span_ns;
	}
}

/* Fresh, zeroed metrics for this CPU. */
static int teo_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	if (teo_legacy(dev))
		return ik__teo_legacy_enable(drv, dev);
	if (teo_upfront(dev))
		return ik__teo_upfront_enable(drv, dev);
	struct teo_cpu *cpu = calloc(1, sizeof(*cpu));

	if (!cpu)
		return -1;
	cpu->on = ik_kernel_or_default(dev->kernel)->on;
	cpu->tick_rework = teo_has(cpu, IK_SW_TEO_TICK_REWORK);
	/* teo_util: arch_scale_cpu_capacity() read once, when the CPU is enabled */
	cpu->util_threshold = dev->in.cpu_capacity >> TEO_UTIL_THRESHOLD_SHIFT;
	for (int i = 0; i < TEO_NR_RECENT; i++)
		cpu->recent_idx[i] = -1;
	dev->governor_data = cpu;
	return 0;
}

static void teo_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	if (teo_legacy(dev)) {
		ik__teo_legacy_disable(drv, dev);
		return;
	}
	if (teo_upfront(dev)) {
		ik__teo_upfront_disable(drv, dev);
		return;
	}
	free(dev->governor_data);
	dev->governor_data = NULL;
}

/* Only the utilisation-aware teo of 6.3-6.10 compares sched_cpu_util() with the capacity. */
static bool teo_reads_cpu_util(const struct ik_kernel *kernel)
{
	return ik_kernel_has(kernel, IK_SW_TEO_UTIL);
}

const struct ik_governor ik_governor_teo = {
	.name = "teo",
	.rating = 19,
	.enable = teo_enable,
	.disable = teo_disable,
	.select = teo_select,
	.reflect = teo_reflect,
	.reads_cpu_util = teo_reads_cpu_util,
};
