/*
 * teo as it was from its introduction (5.1) until the ~5.14 rework (teo_bins off).  Three
 * releases' files are modelled, by two switches on top of the units:
 *   - teo_2019_fixes off (5.1-5.3; read in the 5.2.1 tree): disabled states only lend their
 *     early hits, a too-slow state stops the walk and fixes the idle duration at the
 *     previous state's residency, the recent durations are compared with the candidate's
 *     residency;
 *   - teo_2019_fixes on, teo_legacy_fixes off (5.4-5.6; the 5.4.6 tree): microseconds, the
 *     measured time from select to reflect, and the ring of recent durations indexed 0..8;
 *   - teo_legacy_fixes on (5.10; the 5.10.7 tree): nanoseconds, the core's residency.
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
 * lasted the whole sleep length counts as unbounded.
 *
 * Arithmetic as in the kernel: unsigned 32-bit counts; u64 nanoseconds for durations, or
 * (ns_units off) unsigned 32-bit microseconds, ktime_to_us() truncated to 32 bits.  Below,
 * a "unit" is the release's: ns or us.
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
	int last_state;          /* 5.1-5.3: teo's own copy of the state entered (starts at 0) */
	int interval_idx;
	uint64_t intervals[TEO_INTERVALS]; /* recent measured idle durations, in units */
	bool ns;                 /* ns_units: the unit is ns (else us) */
	bool fixes;              /* teo_legacy_fixes */
	bool fixes_2019;         /* teo_2019_fixes */
};

/* A time in ns as the release sees it: ns, or ktime_to_us() kept in an unsigned int. */
static uint64_t to_units(const struct teo_legacy_cpu *cpu, int64_t ns)
{
	return cpu->ns ? (uint64_t)ns : (uint64_t)(uint32_t)(ns / IK_NSEC_PER_USEC);
}

static uint64_t residency(const struct teo_legacy_cpu *cpu, const struct ik_state *s)
{
	return cpu->ns ? (uint64_t)s->target_residency_ns : (uint64_t)s->target_residency;
}

static uint64_t exit_latency(const struct teo_legacy_cpu *cpu, const struct ik_state *s)
{
	return cpu->ns ? (uint64_t)s->exit_latency_ns : (uint64_t)s->exit_latency;
}

/* "Unbounded": U64_MAX in ns, UINT_MAX in us. */
static uint64_t unbounded(const struct teo_legacy_cpu *cpu)
{
	return cpu->ns ? UINT64_MAX : UINT32_MAX;
}

/* TICK_NSEC or TICK_USEC. */
static uint64_t tick_units(const struct teo_legacy_cpu *cpu, const struct ik_device *dev)
{
	return cpu->ns ? (uint64_t)dev->tick_nsec : (uint64_t)dev->tick_nsec / IK_NSEC_PER_USEC;
}

/* Learn from the idle period that just ended (in the state entered, last). */
static void teo_legacy_update(const struct ik_driver *drv, struct ik_device *dev,
			      struct teo_legacy_cpu *cpu, int last)
{
	uint64_t sleep_length = to_units(cpu, (int64_t)cpu->sleep_length_ns);
	bool timer_wakeup = cpu->time_span_ns >= cpu->sleep_length_ns;
	uint64_t measured;
	int idx_hit = -1, idx_timer = -1;

	if (timer_wakeup) {
		/*
		 * As long as the timer said, or longer.  5.1-5.3 took the sleep length itself
		 * for the hit/miss decision (a hit) and "unbounded" only for the ring below.
		 */
		measured = cpu->fixes_2019 ? unbounded(cpu) : sleep_length;
	} else {
		/* Half the exit latency is taken to be part of the idle time. */
		uint64_t lat = exit_latency(cpu, &drv->states[last]);

		/* 5.10: the core's residency; before, the whole select-to-reflect span */
		measured = cpu->fixes ? (uint64_t)dev->last_residency_ns
				      : to_units(cpu, (int64_t)cpu->time_span_ns);
		if (measured >= lat)
			measured -= lat / 2;
		else
			measured /= 2;
	}

	/*
	 * Every state's early hits decay.  idx_timer: the deepest state the sleep length
	 * allowed; idx_hit: the deepest the measured time allowed among those.
	 */
	for (int i = 0; i < drv->state_count; i++) {
		cpu->states[i].early_hits -= cpu->states[i].early_hits >> TEO_DECAY_SHIFT;
		if (residency(cpu, &drv->states[i]) <= sleep_length) {
			idx_timer = i;
			if (residency(cpu, &drv->states[i]) <= measured)
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

	if (timer_wakeup && !cpu->fixes_2019)
		measured = unbounded(cpu);

	/*
	 * Before 5.10 the index wrapped only after reaching 8: every ninth duration went to a
	 * slot past the ring's end that the mean below never reads (in the kernel, struct
	 * padding or the next CPU's data).  Here that duration is simply dropped.
	 */
	if (cpu->interval_idx < TEO_INTERVALS)
		cpu->intervals[cpu->interval_idx] = measured;
	cpu->interval_idx++;
	if (cpu->fixes ? cpu->interval_idx >= TEO_INTERVALS : cpu->interval_idx > TEO_INTERVALS)
		cpu->interval_idx = 0;
}

/* With the tick stopped nothing shorter than a tick is worth predicting. */
static bool teo_legacy_time_ok(const struct teo_legacy_cpu *cpu, const struct ik_device *dev,
			       uint64_t interval)
{
	return !ik_tick_stopped(dev) || interval >= tick_units(cpu, dev);
}

/* Walk down from state_idx to the first enabled state that fits duration (or state 0's). */
static int teo_legacy_shallower(const struct ik_driver *drv, const struct ik_device *dev,
				const struct teo_legacy_cpu *cpu, int state_idx,
				uint64_t duration)
{
	for (int i = state_idx - 1; i >= 0; i--) {
		if (ik_state_disabled(dev, i))
			continue;
		state_idx = i;
		if (residency(cpu, &drv->states[i]) <= duration)
			break;
	}
	return state_idx;
}

/*
 * 5.1-5.3's walk to the candidate: disabled states only lend their early hits (once an
 * early-hits state is known), and the first state too slow for the latency limit ends the
 * walk with the idle duration fixed at the candidate's residency (no early-hits choice
 * then).  Returns the candidate; *duration as found.
 */
static int teo_2019_walk(const struct ik_driver *drv, const struct ik_device *dev,
			 const struct teo_legacy_cpu *cpu, uint64_t *duration, uint64_t latency_req)
{
	uint32_t count = 0;
	int max_early_idx = -1, idx = -1;

	for (int i = 0; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];

		if (ik_state_disabled(dev, i)) {
			if (max_early_idx >= 0 && count < cpu->states[i].early_hits)
				count = cpu->states[i].early_hits;
			continue;
		}
		if (idx < 0)
			idx = i;
		if (residency(cpu, s) > *duration)
			break;
		if (exit_latency(cpu, s) > latency_req) {
			*duration = residency(cpu, &drv->states[idx]);
			return idx;
		}
		idx = i;
		if (count < cpu->states[i].early_hits &&
		    teo_legacy_time_ok(cpu, dev, residency(cpu, s))) {
			count = cpu->states[i].early_hits;
			max_early_idx = i;
		}
	}
	if (idx >= 0 && cpu->states[idx].hits <= cpu->states[idx].misses && max_early_idx >= 0) {
		idx = max_early_idx;
		*duration = residency(cpu, &drv->states[idx]);
	}
	return idx;
}

int ik__teo_legacy_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	struct teo_legacy_cpu *cpu = dev->governor_data;
	int64_t latency_req_ns = ik_latency_req(dev);
	/* cpuidle_governor_latency_req(): s64 ns, or (before 5.7) int us */
	uint64_t latency_req = cpu->ns ? (uint64_t)latency_req_ns
				       : (uint64_t)(latency_req_ns / IK_NSEC_PER_USEC > INT32_MAX
							    ? INT32_MAX
							    : latency_req_ns / IK_NSEC_PER_USEC);
	int64_t delta_tick_ns;
	uint32_t hits = 0, misses = 0, early_hits = 0;
	int max_early_idx = -1, prev_max_early_idx = -1, constraint_idx = drv->state_count;
	int idx = -1;

	(void)stop_tick; /* the tick is stopped unless a shallow choice keeps it (below) */
	if (!cpu->fixes_2019) {
		/* 5.1-5.3 kept the last state itself, from 0 (so the first select learns too) */
		if (cpu->last_state >= 0) {
			teo_legacy_update(drv, dev, cpu, cpu->last_state);
			cpu->last_state = -1;
		}
	} else if (dev->last_state_idx >= 0) {
		teo_legacy_update(drv, dev, cpu, dev->last_state_idx);
		dev->last_state_idx = -1;
	}

	cpu->time_span_ns = (uint64_t)dev->in.now_ns;
	int64_t sleep_ns = ik_sleep_length(dev, &delta_tick_ns);
	cpu->sleep_length_ns = (uint64_t)sleep_ns;
	uint64_t duration = to_units(cpu, sleep_ns);
	uint64_t delta_tick = to_units(cpu, delta_tick_ns);

	if (!cpu->fixes_2019) {
		idx = teo_2019_walk(drv, dev, cpu, &duration, latency_req);
		goto refine;
	}

	for (int i = 0; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];

		if (ik_state_disabled(dev, i)) {
			/*
			 * A disabled state the sleep length allows still lends its counts: its
			 * hits and misses stand for the candidate's, and its early hits can make
			 * the enabled state before it the early-hit choice.
			 */
			if (residency(cpu, s) > duration)
				continue;
			hits = cpu->states[i].hits;
			misses = cpu->states[i].misses;
			if (early_hits >= cpu->states[i].early_hits || idx < 0)
				continue;
			if (max_early_idx == idx) {
				early_hits = cpu->states[i].early_hits;
				continue;
			}
			if (teo_legacy_time_ok(cpu, dev, residency(cpu, &drv->states[idx]))) {
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
		if (residency(cpu, s) > duration)
			break;
		if (exit_latency(cpu, s) > latency_req && constraint_idx > i)
			constraint_idx = i;

		idx = i;
		hits = cpu->states[i].hits;
		misses = cpu->states[i].misses;
		if (early_hits < cpu->states[i].early_hits &&
		    teo_legacy_time_ok(cpu, dev, residency(cpu, s))) {
			prev_max_early_idx = max_early_idx;
			early_hits = cpu->states[i].early_hits;
			max_early_idx = i;
		}
	}

	/*
	 * Missed at least as often as hit: the state with the most early hits.  From 5.10 not
	 * the candidate itself (then the runner-up); before, that was the candidate again.
	 */
	if (hits <= misses) {
		if (cpu->fixes && idx == max_early_idx)
			max_early_idx = prev_max_early_idx;
		if (max_early_idx >= 0) {
			idx = max_early_idx;
			duration = residency(cpu, &drv->states[idx]);
		}
	}

	if (constraint_idx < idx)
		idx = constraint_idx;

refine:
	if (idx < 0) {
		idx = 0; /* no state is enabled: state 0 it must be */
	} else if (idx > 0) {
		/*
		 * More than half of the recent idle periods shorter than planned (5.1-5.3: than
		 * the candidate's residency): use their mean.
		 */
		uint64_t limit = cpu->fixes_2019 ? duration : residency(cpu, &drv->states[idx]);
		unsigned count = 0;
		uint64_t sum = 0;

		for (int i = 0; i < TEO_INTERVALS; i++) {
			if (cpu->intervals[i] >= limit)
				continue;
			count++;
			sum += cpu->intervals[i];
		}
		if (count > TEO_INTERVALS / 2) {
			uint64_t avg = sum / count;

			if (teo_legacy_time_ok(cpu, dev, avg)) {
				/* (5.1-5.3 went shallower even when the candidate fitted the mean) */
				if (!cpu->fixes_2019 || residency(cpu, &drv->states[idx]) > avg)
					idx = teo_legacy_shallower(drv, dev, cpu, idx, avg);
				duration = avg;
			}
		}
	}

	/* A polling or sub-tick choice keeps the tick: it must then fit before the tick. */
	if (((drv->states[idx].flags & IK_FLAG_POLLING) || duration < tick_units(cpu, dev)) &&
	    !ik_tick_stopped(dev)) {
		*stop_tick = false;
		if (idx > 0 && residency(cpu, &drv->states[idx]) > delta_tick)
			idx = teo_legacy_shallower(drv, dev, cpu, idx, delta_tick);
	}
	return idx;
}

void ik__teo_legacy_reflect(struct ik_device *dev, int index)
{
	struct teo_legacy_cpu *cpu = dev->governor_data;

	if (cpu->fixes_2019)
		dev->last_state_idx = index;
	else
		cpu->last_state = index;
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
int ik__teo_legacy_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	const struct ik_kernel *k = ik_kernel_or_default(dev->kernel);
	struct teo_legacy_cpu *cpu = calloc(1, sizeof(*cpu));

	if (!cpu)
		return -1;
	cpu->ns = ik_kernel_has(k, IK_SW_NS_UNITS);
	cpu->fixes = ik_kernel_has(k, IK_SW_TEO_LEGACY_FIXES);
	cpu->fixes_2019 = ik_kernel_has(k, IK_SW_TEO_2019_FIXES);
	for (int i = 0; i < TEO_INTERVALS; i++)
		cpu->intervals[i] = unbounded(cpu);
	dev->governor_data = cpu;
	return 0;
}

void ik__teo_legacy_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	free(dev->governor_data);
	dev->governor_data = NULL;
}
