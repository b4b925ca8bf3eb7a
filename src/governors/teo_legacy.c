/*
 * teo as it was from its introduction (5.1) until the ~5.14 rework (teo_bins off), in the
 * form of the 5.10 release (nanoseconds, teo_legacy_fixes on).
 *
 * Per state three decaying counts (each event adds PULSE, each wakeup takes away 1/8):
 *   - hits: the sleep length pointed at this state and the CPU did sleep long enough for it;
 *   - misses: the sleep length pointed at this state but the CPU woke earlier;
 *   - early_hits: the CPU woke early, and this shallower state is where the idle time fell.
 * Selection starts from the deepest enabled state that the sleep length allows.  If it was
 * missed at least as often as hit, the state with the most early hits (above it none, a
 * shallower one; only states of at least a tick when the tick is stopped) is taken instead,
 * and the idle duration becomes its residency.  Then the recent measured idle durations
 * shorter than that: if more than half of the last eight are, their mean is a better guess
 * and a state that fits it is looked for.  With the tick running and a sub-tick (or polling)
 * choice, the state must also fit before the next tick.
 *
 * What was measured: the time from select to reflect (the harness's clock), unless the
 * wakeup was a poll time-out or a tick that nohz did not expect -- then the sleep length
 * itself, which teo counts as "slept as long as the timer said".  An idle period that
 * lasted the whole sleep length counts as unbounded (U64_MAX).
 *
 * Arithmetic as in the kernel: unsigned 32-bit counts, u64 nanoseconds for durations
 * (a negative sleep length would be a huge u64; the harnesses never produce one).
 */
#include <stdlib.h>

#include "teo_legacy.h"

#define TEO_PULSE 1024u
#define TEO_DECAY_SHIFT 3
#define TEO_INTERVALS 8

struct teo_legacy_state {
	uint32_t early_hits;
	uint32_t hits;
	uint32_t misses;
};

struct teo_legacy_cpu {
	uint64_t time_span_ns;   /* at select: the clock; at reflect: the idle time measured */
	uint64_t sleep_length_ns; /* what the last select was told */
	struct teo_legacy_state states[IK_STATE_MAX];
	int interval_idx;
	uint64_t intervals[TEO_INTERVALS]; /* recent measured idle durations, ns */
};

/* Learn from the idle period that just ended. */
static void teo_legacy_update(const struct ik_driver *drv, struct ik_device *dev,
			      struct teo_legacy_cpu *cpu)
{
	uint64_t measured_ns;
	int idx_hit = -1, idx_timer = -1;

	if (cpu->time_span_ns >= cpu->sleep_length_ns) {
		measured_ns = UINT64_MAX; /* as long as the timer said, or longer */
	} else {
		/* Half the exit latency is taken to be part of the idle time. */
		uint64_t lat_ns = (uint64_t)drv->states[dev->last_state_idx].exit_latency_ns;

		measured_ns = (uint64_t)dev->last_residency_ns;
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	/*
	 * Every state's early hits decay.  idx_timer: the deepest state the sleep length
	 * allowed; idx_hit: the deepest the measured time allowed among those.
	 */
	for (int i = 0; i < drv->state_count; i++) {
		cpu->states[i].early_hits -= cpu->states[i].early_hits >> TEO_DECAY_SHIFT;
		if ((uint64_t)drv->states[i].target_residency_ns <= cpu->sleep_length_ns) {
			idx_timer = i;
			if ((uint64_t)drv->states[i].target_residency_ns <= measured_ns)
				idx_hit = i;
		}
	}

	/* Only the state the timer pointed at has its hits and misses updated (and decayed). */
	if (idx_timer >= 0) {
		struct teo_legacy_state *t = &cpu->states[idx_timer];
		uint32_t hits = t->hits - (t->hits >> TEO_DECAY_SHIFT);
		uint32_t misses = t->misses - (t->misses >> TEO_DECAY_SHIFT);

		if (idx_timer > idx_hit) {
			misses += TEO_PULSE;
			if (idx_hit >= 0)
				cpu->states[idx_hit].early_hits += TEO_PULSE;
		} else {
			hits += TEO_PULSE;
		}
		t->misses = misses;
		t->hits = hits;
	}

	cpu->intervals[cpu->interval_idx++] = measured_ns;
	if (cpu->interval_idx >= TEO_INTERVALS)
		cpu->interval_idx = 0;
}

/* With the tick stopped nothing shorter than a tick is worth predicting. */
static bool teo_legacy_time_ok(const struct ik_device *dev, uint64_t interval_ns)
{
	return !ik_tick_stopped(dev) || interval_ns >= (uint64_t)dev->tick_nsec;
}

/* Walk down from state_idx to the first enabled state that fits duration_ns (or state 0's). */
static int teo_legacy_shallower(const struct ik_driver *drv, const struct ik_device *dev,
				int state_idx, uint64_t duration_ns)
{
	for (int i = state_idx - 1; i >= 0; i--) {
		if (ik_state_disabled(dev, i))
			continue;
		state_idx = i;
		if ((uint64_t)drv->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

int ik_teo_legacy_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	struct teo_legacy_cpu *cpu = dev->governor_data;
	int64_t latency_req = ik_latency_req(dev);
	int64_t delta_tick;
	uint32_t hits = 0, misses = 0, early_hits = 0;
	int max_early_idx = -1, prev_max_early_idx = -1, constraint_idx = drv->state_count;
	int idx = -1;

	(void)stop_tick; /* the tick is stopped unless a shallow choice keeps it (below) */
	if (dev->last_state_idx >= 0) {
		teo_legacy_update(drv, dev, cpu);
		dev->last_state_idx = -1;
	}

	cpu->time_span_ns = (uint64_t)dev->in.now_ns;
	uint64_t duration_ns = (uint64_t)ik_sleep_length(dev, &delta_tick);
	cpu->sleep_length_ns = duration_ns;

	for (int i = 0; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];

		if (ik_state_disabled(dev, i)) {
			/*
			 * A disabled state the sleep length allows still lends its counts: its
			 * hits and misses stand for the candidate's, and its early hits can make
			 * the enabled state before it the early-hit choice.
			 */
			if ((uint64_t)s->target_residency_ns > duration_ns)
				continue;
			hits = cpu->states[i].hits;
			misses = cpu->states[i].misses;
			if (early_hits >= cpu->states[i].early_hits || idx < 0)
				continue;
			if (max_early_idx == idx) {
				early_hits = cpu->states[i].early_hits;
				continue;
			}
			if (teo_legacy_time_ok(dev, (uint64_t)drv->states[idx].target_residency_ns)) {
				prev_max_early_idx = max_early_idx;
				early_hits = cpu->states[i].early_hits;
				max_early_idx = idx;
			}
			continue;
		}

		if (idx < 0) {
			idx = i; /* the first enabled state */
			hits = cpu->states[i].hits;
			misses = cpu->states[i].misses;
		}
		if ((uint64_t)s->target_residency_ns > duration_ns)
			break;
		if (s->exit_latency_ns > latency_req && constraint_idx > i)
			constraint_idx = i;

		idx = i;
		hits = cpu->states[i].hits;
		misses = cpu->states[i].misses;
		if (early_hits < cpu->states[i].early_hits &&
		    teo_legacy_time_ok(dev, (uint64_t)s->target_residency_ns)) {
			prev_max_early_idx = max_early_idx;
			early_hits = cpu->states[i].early_hits;
			max_early_idx = i;
		}
	}

	/*
	 * Missed at least as often as hit: the state with the most early hits, but not the
	 * candidate itself (then the runner-up).
	 */
	if (hits <= misses) {
		if (idx == max_early_idx)
			max_early_idx = prev_max_early_idx;
		if (max_early_idx >= 0) {
			idx = max_early_idx;
			duration_ns = (uint64_t)drv->states[idx].target_residency_ns;
		}
	}

	if (constraint_idx < idx)
		idx = constraint_idx;

	if (idx < 0) {
		idx = 0; /* no state is enabled: state 0 it must be */
	} else if (idx > 0) {
		/* More than half of the recent idle periods shorter than planned: use their mean. */
		unsigned count = 0;
		uint64_t sum = 0;

		for (int i = 0; i < TEO_INTERVALS; i++) {
			if (cpu->intervals[i] >= duration_ns)
				continue;
			count++;
			sum += cpu->intervals[i];
		}
		if (count > TEO_INTERVALS / 2) {
			uint64_t avg_ns = sum / count;

			if (teo_legacy_time_ok(dev, avg_ns)) {
				duration_ns = avg_ns;
				if ((uint64_t)drv->states[idx].target_residency_ns > avg_ns)
					idx = teo_legacy_shallower(drv, dev, idx, avg_ns);
			}
		}
	}

	/* A polling or sub-tick choice keeps the tick: it must then fit before the tick. */
	if (((drv->states[idx].flags & IK_FLAG_POLLING) ||
	     duration_ns < (uint64_t)dev->tick_nsec) &&
	    !ik_tick_stopped(dev)) {
		*stop_tick = false;
		if (idx > 0 && drv->states[idx].target_residency_ns > delta_tick)
			idx = teo_legacy_shallower(drv, dev, idx, (uint64_t)delta_tick);
	}
	return idx;
}

void ik_teo_legacy_reflect(struct ik_device *dev, int index)
{
	struct teo_legacy_cpu *cpu = dev->governor_data;

	dev->last_state_idx = index;
	/* A poll time-out, or a tick nohz did not expect: count it as the full sleep length. */
	if (dev->poll_time_limit ||
	    (ik_got_tick(dev) && cpu->sleep_length_ns > (uint64_t)dev->tick_nsec)) {
		dev->poll_time_limit = false;
		cpu->time_span_ns = cpu->sleep_length_ns;
	} else {
		cpu->time_span_ns = (uint64_t)dev->in.now_ns - cpu->time_span_ns;
	}
}

/* Zeroed counts; the recent durations "unbounded". */
int ik_teo_legacy_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	struct teo_legacy_cpu *cpu = calloc(1, sizeof(*cpu));

	if (!cpu)
		return -1;
	for (int i = 0; i < TEO_INTERVALS; i++)
		cpu->intervals[i] = UINT64_MAX;
	dev->governor_data = cpu;
	return 0;
}

void ik_teo_legacy_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	free(dev->governor_data);
	dev->governor_data = NULL;
}
