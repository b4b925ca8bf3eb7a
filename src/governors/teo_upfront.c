/*
 * teo from its ~5.14 rework until 6.6 (teo_bins on, teo_skip_sleep_length off), as read in
 * the 5.15.55 and 6.1.0 trees (the two files are the same).
 *
 * The rework's bins (one per state: idle durations from its target residency up to the
 * next state's) count "hits" (the measured idle duration fell in the same bin as the sleep
 * length) and "intercepts" (it fell in a shallower bin); both decay by 1/8 per wakeup and an
 * event adds PULSE.  Besides, the bins of the last nine intercepts are remembered ("recent").
 *
 * Unlike later releases, this one asks for the sleep length first, on every select, and
 * the candidate is the deepest enabled state that fits in it.  If the intercepts below the
 * candidate outweigh everything at or above it, or most of the recent intercepts were
 * below it, a shallower state that more than half of them would have fitted is looked for,
 * and the idle duration becomes the middle of that state's bin.  The tick is kept for a
 * polling state or a sub-tick duration; then the state must fit before the tick.
 *
 * What was measured: the core's residency minus half the exit latency, unless the wakeup
 * came at or after the sleep length (a poll time-out or an unexpected tick count as such:
 * reflect) -- then the idle period counts as unbounded.
 *
 * teo_util (6.3 to 6.5; the 6.3.8 tree, whose teo.c is 6.1.0's plus this): a CPU whose
 * utilisation is above its capacity >> 6 is "utilised".  With two states it takes the first
 * enabled non-polling one straight away (the sleep length already asked for); otherwise,
 * after the latency limit, it takes the next shallower enabled non-polling state.  In this
 * form the stopped tick does not matter to either step (the 6.6 form differs there).
 *
 * Arithmetic as in the kernel: unsigned 32-bit metrics, s64 nanoseconds, the measured
 * duration u64.
 */
#include <stdlib.h>

#include "teo_upfront.h"

#define TEO_PULSE 1024u
#define TEO_DECAY_SHIFT 3
#define TEO_NR_RECENT 9 /* intercepts remembered one by one */
#define TEO_UTIL_THRESHOLD_SHIFT 6 /* teo_util: "utilised" above capacity / 64 */

struct teo_upfront_bin {
	uint32_t intercepts;
	uint32_t hits;
	uint32_t recent; /* how many of the last TEO_NR_RECENT intercepts fell here */
};

struct teo_upfront_cpu {
	int64_t time_span_ns;   /* at select: the clock; at reflect: the idle time measured */
	int64_t sleep_length_ns;
	struct teo_upfront_bin bins[IK_STATE_MAX];
	uint32_t total;         /* all bins' hits and intercepts */
	int next_recent_idx;
	int recent_idx[TEO_NR_RECENT]; /* the bin of each recent intercept, -1 for a hit */
	bool util_aware;               /* teo_util */
	unsigned long util_threshold;  /* teo_util: capacity >> TEO_UTIL_THRESHOLD_SHIFT */
};

static void teo_upfront_update(const struct ik_driver *drv, struct ik_device *dev,
			       struct teo_upfront_cpu *cpu)
{
	int idx_timer = 0, idx_duration = 0;
	uint64_t measured_ns;

	if (cpu->time_span_ns >= cpu->sleep_length_ns) {
		measured_ns = UINT64_MAX; /* woken by the timer, or a safety net: unbounded */
	} else {
		uint64_t lat_ns = (uint64_t)drv->states[dev->last_state_idx].exit_latency_ns;

		/* Half the exit latency is taken to be part of the idle time. */
		measured_ns = dev->last_residency_ns;
		if (measured_ns >= lat_ns)
			measured_ns -= lat_ns / 2;
		else
			measured_ns /= 2;
	}

	/* Age the bins, re-add the total, find the bins of the sleep length and the measure. */
	cpu->total = 0;
	for (int i = 0; i < drv->state_count; i++) {
		struct teo_upfront_bin *bin = &cpu->bins[i];
		int64_t residency_ns = drv->states[i].target_residency_ns;

		bin->hits -= bin->hits >> TEO_DECAY_SHIFT;
		bin->intercepts -= bin->intercepts >> TEO_DECAY_SHIFT;
		cpu->total += bin->hits + bin->intercepts;

		if (residency_ns <= cpu->sleep_length_ns) {
			idx_timer = i;
			if ((uint64_t)residency_ns <= measured_ns)
				idx_duration = i;
		}
	}

	/* The oldest recent event leaves the window. */
	int slot = cpu->next_recent_idx++;
	if (cpu->next_recent_idx >= TEO_NR_RECENT)
		cpu->next_recent_idx = 0;
	if (cpu->recent_idx[slot] >= 0)
		cpu->bins[cpu->recent_idx[slot]].recent--;

	if (idx_timer == idx_duration) {
		cpu->bins[idx_timer].hits += TEO_PULSE;
		cpu->recent_idx[slot] = -1;
	} else {
		cpu->bins[idx_duration].intercepts += TEO_PULSE;
		cpu->bins[idx_duration].recent++;
		cpu->recent_idx[slot] = idx_duration;
	}
	cpu->total += TEO_PULSE;
}

/* With the tick stopped, nothing shorter than a tick is worth aiming at. */
static bool teo_upfront_time_ok(const struct ik_device *dev, uint64_t interval_ns)
{
	return !ik_tick_stopped(dev) || interval_ns >= (uint64_t)dev->tick_nsec;
}

/* The middle of bin idx: halfway between its state's residency and the next state's. */
static int64_t teo_middle_of_bin(const struct ik_driver *drv, int idx)
{
	return (drv->states[idx].target_residency_ns + drv->states[idx + 1].target_residency_ns) /
	       2;
}

/* The next shallower enabled state (no polling one if no_poll) fitting duration_ns, or
   the shallowest enabled one below state_idx if none fits. */
static int teo_upfront_shallower(const struct ik_driver *drv, const struct ik_device *dev,
				 int state_idx, int64_t duration_ns, bool no_poll)
{
	for (int i = state_idx - 1; i >= 0; i--) {
		if (ik_state_disabled(dev, i) || (no_poll && (drv->states[i].flags & IK_FLAG_POLLING)))
			continue;
		state_idx = i;
		if (drv->states[i].target_residency_ns <= duration_ns)
			break;
	}
	return state_idx;
}

int ik__teo_upfront_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	struct teo_upfront_cpu *cpu = dev->governor_data;
	int64_t latency_req = ik_latency_req(dev);
	uint32_t idx_intercept_sum = 0, intercept_sum = 0;
	uint32_t idx_recent_sum = 0, recent_sum = 0;
	uint32_t idx_hit_sum = 0, hit_sum = 0;
	int constraint_idx = 0;
	int idx0 = 0, idx = -1;
	int64_t delta_tick;
	int64_t duration_ns;
	bool utilized = false;

	if (dev->last_state_idx >= 0) {
		teo_upfront_update(drv, dev, cpu);
		dev->last_state_idx = -1;
	}

	cpu->time_span_ns = dev->in.now_ns;
	duration_ns = ik_sleep_length(dev, &delta_tick);
	cpu->sleep_length_ns = duration_ns;

	if (drv->state_count < 2) {
		idx = 0;
		goto end;
	}
	if (!ik_state_disabled(dev, 0)) {
		idx = 0;
		/* state 1 does not fit before the timer: no choice worth making */
		if (drv->states[1].target_residency_ns > duration_ns)
			goto end;
	}

	utilized = cpu->util_aware && dev->in.cpu_util > cpu->util_threshold;
	/* teo_util, two states: a busy CPU takes the first enabled non-polling one. */
	if (drv->state_count < 3 && utilized) {
		for (int i = 0; i < drv->state_count; i++) {
			if (!ik_state_disabled(dev, i) && !(drv->states[i].flags & IK_FLAG_POLLING)) {
				idx = i;
				goto end;
			}
		}
	}

	/*
	 * The candidate: the deepest enabled state that fits the sleep length (and the deepest
	 * the latency limit allows), with the metrics of every bin below it summed.
	 */
	for (int i = 1; i < drv->state_count; i++) {
		const struct teo_upfront_bin *prev = &cpu->bins[i - 1];
		const struct ik_state *s = &drv->states[i];

		intercept_sum += prev->intercepts;
		hit_sum += prev->hits;
		recent_sum += prev->recent;

		if (ik_state_disabled(dev, i))
			continue;
		if (idx < 0) {
			idx = i; /* the first enabled state */
			idx0 = i;
		}
		if (s->target_residency_ns > duration_ns)
			break;
		idx = i;
		if (s->exit_latency_ns <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
		idx_recent_sum = recent_sum;
	}

	if (idx < 0) {
		idx = 0; /* nothing enabled: state 0 it must be */
		goto end;
	} else if (idx == idx0) {
		goto end;
	}

	/*
	 * Early wakeups likely: the intercepts below the candidate outweigh everything at or
	 * above it, or more than half of the recent events were intercepts below it.
	 */
	bool alt_intercepts = 2 * idx_intercept_sum > cpu->total - idx_hit_sum;
	bool alt_recent = idx_recent_sum > TEO_NR_RECENT / 2;
	if (alt_recent || alt_intercepts) {
		int64_t first_suitable_span_ns = duration_ns;
		int first_suitable_idx = idx;

		/*
		 * The deepest state that more than half of the (recent) intercepts would have
		 * fitted; with the tick stopped, only bins whose middle is at least a tick.
		 */
		intercept_sum = 0;
		recent_sum = 0;
		for (int i = idx - 1; i >= 0; i--) {
			const struct teo_upfront_bin *bin = &cpu->bins[i];
			int64_t span_ns = teo_middle_of_bin(drv, i);

			intercept_sum += bin->intercepts;
			recent_sum += bin->recent;

			if ((!alt_recent || 2 * recent_sum > idx_recent_sum) &&
			    (!alt_intercepts || 2 * intercept_sum > idx_intercept_sum)) {
				if (teo_upfront_time_ok(dev, (uint64_t)span_ns) &&
				    !ik_state_disabled(dev, i)) {
					idx = i;
					duration_ns = span_ns;
				} else {
					/* too shallow or disabled: the last deeper one that fitted */
					idx = first_suitable_idx;
					duration_ns = first_suitable_span_ns;
				}
				break;
			}
			if (ik_state_disabled(dev, i))
				continue;
			if (!teo_upfront_time_ok(dev, (uint64_t)span_ns)) {
				/* too shallow; an alternative found already may still be used */
				if (first_suitable_idx != idx)
					continue;
				break;
			}
			first_suitable_span_ns = span_ns;
			first_suitable_idx = i;
		}
	}

	if (idx > constraint_idx)
		idx = constraint_idx;

	/* teo_util: a busy CPU takes a shallower non-polling state for its latency. */
	if (utilized)
		idx = teo_upfront_shallower(drv, dev, idx, duration_ns, true);

end:
	/* A polling state or a sub-tick duration keeps the tick; then fit before the tick. */
	if (((drv->states[idx].flags & IK_FLAG_POLLING) || duration_ns < dev->tick_nsec) &&
	    !ik_tick_stopped(dev)) {
		*stop_tick = false;
		if (idx > idx0 && drv->states[idx].target_residency_ns > delta_tick)
			idx = teo_upfront_shallower(drv, dev, idx, delta_tick, false);
	}
	return idx;
}

void ik__teo_upfront_reflect(struct ik_device *dev, int index)
{
	struct teo_upfront_cpu *cpu = dev->governor_data;

	dev->last_state_idx = index;
	/* A poll time-out, or a tick nohz did not expect: as if it slept the whole length. */
	if (dev->poll_time_limit || (ik_got_tick(dev) && cpu->sleep_length_ns > dev->tick_nsec)) {
		dev->poll_time_limit = false;
		cpu->time_span_ns = cpu->sleep_length_ns;
	} else {
		cpu->time_span_ns = dev->in.now_ns - cpu->time_span_ns;
	}
}

int ik__teo_upfront_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	struct teo_upfront_cpu *cpu = calloc(1, sizeof(*cpu));

	if (!cpu)
		return -1;
	for (int i = 0; i < TEO_NR_RECENT; i++)
		cpu->recent_idx[i] = -1;
	cpu->util_aware = ik_kernel_has(ik_kernel_or_default(dev->kernel), IK_SW_TEO_UTIL);
	/* teo_util: arch_scale_cpu_capacity() read once, when the CPU is enabled */
	cpu->util_threshold = dev->in.cpu_capacity >> TEO_UTIL_THRESHOLD_SHIFT;
	dev->governor_data = cpu;
	return 0;
}

void ik__teo_upfront_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	free(dev->governor_data);
	dev->governor_data = NULL;
}
