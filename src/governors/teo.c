/*
 * teo: the "timer events oriented" governor, as in kernel v6.19
 * (drivers/cpuidle/governors/teo.c).
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
 * Before the ~5.14 rework (teo_bins off) teo was a different algorithm (hits, misses and
 * early hits per state): src/governors/teo_legacy.c, to which every callback below hands
 * over for such a release.
 */
#include <stdlib.h>

#include "idlekit/governor.h"
#include "teo_legacy.h"

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

struct teo_bin {
	uint32_t intercepts;
	uint32_t hits;
};

struct teo_cpu {
	int64_t sleep_length_ns; /* sleep length seen by the last select, KTIME_MAX if not asked */
	struct teo_bin bins[IK_STATE_MAX];
	uint32_t total;           /* sum of all bins' hits and intercepts */
	uint32_t total_tick;      /* wakeups by the tick */
	uint32_t tick_intercepts; /* intercepts that ended within one tick period */
	uint32_t short_idles;     /* idle periods shorter than RESIDENCY_THRESHOLD_NS */
	bool tick_wakeup;         /* the last wakeup was the tick */
};

/*
 * Remove 1/8 of a metric.  Once it is too small for 1/8 to be a whole unit it is dropped to
 * zero, so stale history really disappears (the 6.19 behaviour; earlier kernels left a
 * remainder of up to 7 forever).
 */
static void teo_decay(uint32_t *metric)
{
	uint32_t delta = *metric >> TEO_DECAY_SHIFT;

	*metric = delta ? *metric - delta : 0;
}

/*
 * Account for the idle period that just ended: decide whether it was a hit or an intercept
 * and fold it into the decaying metrics.
 */
static void teo_update(const struct ik_driver *drv, struct ik_device *dev, struct teo_cpu *cpu)
{
	int idx_timer = 0;    /* bin of the sleep length */
	int idx_duration = 0; /* bin of the measured idle duration */
	int64_t measured_ns;
	uint32_t total = 0;

	teo_decay(&cpu->short_idles);

	if (dev->poll_time_limit) {
		/*
		 * The polling state gave up on its own, so nothing is known about how long the
		 * CPU would have stayed idle: treat it as possibly very long.  Clearing the flag is
		 * this governor's job.
		 */
		dev->poll_time_limit = false;
		measured_ns = INT64_MAX;
	} else {
		int64_t exit_latency_ns = drv->states[dev->last_state_idx].exit_latency_ns;

		/*
		 * The measured time includes the exit latency, which is rarely the worst case:
		 * half of it is taken as the typical share.  An idle period shorter than the exit
		 * latency is simply halved.  Either way, short periods are counted.
		 */
		measured_ns = (int64_t)dev->last_residency_ns;
		if (measured_ns >= exit_latency_ns) {
			measured_ns -= exit_latency_ns / 2;
			if (measured_ns < IK_RESIDENCY_THRESHOLD_NS)
				cpu->short_idles += TEO_PULSE;
		} else {
			measured_ns /= 2;
			cpu->short_idles += TEO_PULSE;
		}
	}

	/* Age every bin, re-add the grand total, and find the two bins of this wakeup. */
	for (int i = 0; i < drv->state_count; i++) {
		struct teo_bin *bin = &cpu->bins[i];
		int64_t residency_ns = drv->states[i].target_residency_ns;

		teo_decay(&bin->hits);
		total += bin->hits;
		teo_decay(&bin->intercepts);
		total += bin->intercepts;

		if (residency_ns <= cpu->sleep_length_ns) {
			idx_timer = i;
			if (residency_ns <= measured_ns)
				idx_duration = i;
		}
	}
	cpu->total = total + TEO_PULSE;

	teo_decay(&cpu->tick_intercepts);
	teo_decay(&cpu->total_tick);

	if (cpu->tick_wakeup) {
		cpu->total_tick += TEO_PULSE;
		/*
		 * When most recent wakeups come from the tick, this one is credited as a hit on
		 * the deepest state, which makes stopping the tick more likely next time.
		 */
		if (3 * cpu->total_tick > 2 * cpu->total) {
			cpu->bins[drv->state_count - 1].hits += TEO_PULSE;
			return;
		}
	}

	if (idx_timer == idx_duration) {
		cpu->bins[idx_timer].hits += TEO_PULSE;
	} else {
		cpu->bins[idx_duration].intercepts += TEO_PULSE;
		if (measured_ns <= dev->tick_nsec)
			cpu->tick_intercepts += TEO_PULSE;
	}
}

/*
 * Starting below state_idx, go to shallower enabled states until one fits in duration_ns;
 * if none does, the shallowest enabled one below state_idx is returned (state_idx itself if
 * there is none).
 */
static int teo_find_shallower_state(const struct ik_driver *drv, const struct ik_device *dev,
				    int state_idx, int64_t duration_ns)
{
	for (int i = state_idx - 1; i >= 0; i--) {
		if (ik_state_disabled(dev, i))
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
 * nothing may wake the CPU for a long time.
 */
static int teo_intercepts_state(const struct ik_driver *drv, const struct ik_device *dev,
				const struct teo_cpu *cpu, int idx, int idx0,
				uint32_t idx_intercept_sum)
{
	int min_idx = idx0;
	uint32_t intercept_sum = 0;

	if (ik_tick_stopped(dev)) {
		while (min_idx < idx && drv->states[min_idx].target_residency_ns < dev->tick_nsec)
			min_idx++;
	}

	for (int i = idx - 1; i >= min_idx; i--) {
		intercept_sum += cpu->bins[i].intercepts;
		if (ik_state_disabled(dev, i))
			continue;
		idx = i;
		if (2 * intercept_sum > idx_intercept_sum)
			break;
	}
	return idx;
}

/* The release's teo file: the 5.14 rework and later (this file) or the one before. */
static inline bool teo_legacy(const struct ik_device *dev)
{
	return !ik_kernel_has(ik_kernel_or_default(dev->kernel), IK_SW_TEO_BINS);
}

static int teo_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	if (teo_legacy(dev))
		return ik_teo_legacy_select(drv, dev, stop_tick);
	struct teo_cpu *cpu = dev->governor_data;
	int64_t latency_req = ik_latency_req(dev);
	int64_t delta_tick = dev->tick_nsec / 2; /* used if the sleep length is not asked for */
	uint32_t idx_intercept_sum = 0, intercept_sum = 0;
	uint32_t idx_hit_sum = 0, hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	int64_t duration_ns;

	if (dev->last_state_idx >= 0) {
		teo_update(drv, dev, cpu);
		dev->last_state_idx = -1;
	}

	/*
	 * Unless the sleep length is asked for below, the next wakeup is judged against an
	 * infinite sleep length, i.e. it will count as an intercept.
	 */
	cpu->sleep_length_ns = IK_KTIME_MAX;

	if (drv->state_count < 2) {
		idx = 0;
		goto keep_tick;
	}

	/*
	 * The candidate is the deepest enabled state.  On the way there, sum the metrics of all
	 * bins below each enabled state, remember the first enabled state (idx0) and the
	 * deepest one the latency limit allows (constraint_idx).
	 */
	if (!ik_state_disabled(dev, 0))
		idx = 0;

	for (int i = 1; i < drv->state_count; i++) {
		intercept_sum += cpu->bins[i - 1].intercepts;
		hit_sum += cpu->bins[i - 1].hits;

		if (ik_state_disabled(dev, i))
			continue;
		if (idx < 0)
			idx0 = i;
		idx = i;
		if (drv->states[i].exit_latency_ns <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
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

	/* Intercepts below the candidate weigh more than everything at or above it? */
	if (2 * idx_intercept_sum > cpu->total - idx_hit_sum)
		idx = teo_intercepts_state(drv, dev, cpu, idx, idx0, idx_intercept_sum);

	if (idx > constraint_idx)
		idx = constraint_idx;

	/*
	 * A shallow choice is final without knowing the sleep length when most recent idle
	 * periods were short (non-timer wakeups dominate) or the latency limit is tight: the
	 * sleep length is costly to get and could not make the choice deeper in a useful way.
	 */
	if ((idx == 0 || drv->states[idx].target_residency_ns < IK_RESIDENCY_THRESHOLD_NS) &&
	    (2 * cpu->short_idles >= cpu->total || latency_req < TEO_LATENCY_THRESHOLD_NS))
		goto keep_tick;

	duration_ns = ik_sleep_length(dev, &delta_tick);
	cpu->sleep_length_ns = duration_ns;

	if (idx == 0)
		goto keep_tick;

	/* The next timer comes before the candidate would pay off: go shallower. */
	if (drv->states[idx].target_residency_ns > duration_ns)
		idx = teo_find_shallower_state(drv, dev, idx, duration_ns);

	/*
	 * A state shorter than the tick, with intercepts within a tick period making up most
	 * wakeups: the CPU will most likely be woken before the tick anyway, so keep it.
	 */
	if (drv->states[idx].target_residency_ns < dev->tick_nsec &&
	    cpu->tick_intercepts > cpu->total / 2 + cpu->total / 8)
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
		idx = teo_find_shallower_state(drv, dev, idx, delta_tick);

keep_tick:
	*stop_tick = false;
	return idx;
}

static void teo_reflect(struct ik_device *dev, int index)
{
	if (teo_legacy(dev)) {
		ik_teo_legacy_reflect(dev, index);
		return;
	}
	struct teo_cpu *cpu = dev->governor_data;

	cpu->tick_wakeup = ik_got_tick(dev);
	dev->last_state_idx = index;
}

/* Fresh, zeroed metrics for this CPU. */
static int teo_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	if (teo_legacy(dev))
		return ik_teo_legacy_enable(drv, dev);
	struct teo_cpu *cpu = calloc(1, sizeof(*cpu));

	if (!cpu)
		return -1;
	dev->governor_data = cpu;
	return 0;
}

static void teo_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	if (teo_legacy(dev)) {
		ik_teo_legacy_disable(drv, dev);
		return;
	}
	free(dev->governor_data);
	dev->governor_data = NULL;
}

const struct ik_governor ik_governor_teo = {
	.name = "teo",
	.rating = 19,
	.enable = teo_enable,
	.disable = teo_disable,
	.select = teo_select,
	.reflect = teo_reflect,
};
