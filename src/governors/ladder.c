/*
 * ladder: the residency ladder governor, as in kernel v6.19
 * (drivers/cpuidle/governors/ladder.c).
 *
 * The idea: climb one state deeper after several idle periods in a row that were long
 * enough to have paid for the next state, and step one state back after an idle period
 * that did not even pay for the current one.  The governor never looks at timers or the
 * tick, which is why it suits kernels with a periodic tick (it is the default there).
 *
 * Integer detail kept from the kernel: the residency left after the exit latency is a
 * signed value, but the thresholds it is compared with are unsigned 64-bit, so the
 * comparisons are unsigned.  An idle period shorter than the exit latency therefore looks
 * enormous: it counts towards promotion and never causes a demotion.
 *
 * Before 5.7 (ns_units off) the same comparisons were made in 32-bit unsigned microseconds:
 * the residency cut to whole microseconds (an int, at most INT_MAX) minus the exit latency
 * in microseconds.  That changes decisions whenever the sub-microsecond part mattered.
 */
#include <stdlib.h>

#include "idlekit/governor.h"

#define LADDER_PROMOTION_COUNT 4
#define LADDER_DEMOTION_COUNT 1

struct ladder_state_data {
	/* How many qualifying idle periods in a row move the CPU, and what qualifies. */
	uint32_t promotion_count_threshold;
	uint32_t demotion_count_threshold;
	uint64_t promotion_time_ns; /* residency must exceed this to count towards promotion */
	uint64_t demotion_time_ns;  /* residency below this counts towards demotion */
	uint32_t promotion_time_us; /* the same in microseconds (before 5.7) */
	uint32_t demotion_time_us;
	/* Qualifying idle periods seen so far in this state. */
	int promotion_count;
	int demotion_count;
};

struct ladder_cpu {
	struct ladder_state_data states[IK_STATE_MAX];
};

/*
 * The bottom rung: a polling state 0 is only used when the latency limit is 0, so the
 * ladder starts at state 1 then.  A table made of nothing but the polling state has no
 * state 1; the kernel would index past the table there, idlekit stays on state 0.
 */
static int ladder_first_idx(const struct ik_driver *drv)
{
	int first_idx = (drv->states[0].flags & IK_FLAG_POLLING) ? 1 : 0;

	return first_idx < drv->state_count ? first_idx : 0;
}

/* Leave old_idx for new_idx: the old state's counts start over next time. */
static void ladder_move(struct ik_device *dev, struct ladder_cpu *ladder, int old_idx, int new_idx)
{
	ladder->states[old_idx].promotion_count = 0;
	ladder->states[old_idx].demotion_count = 0;
	dev->last_state_idx = new_idx;
}

/*
 * Before 5.7: the same ladder in microseconds.  dev->last_residency was an int of whole
 * microseconds and the thresholds u32 exit latencies, so "residency - exit latency" is a
 * 32-bit unsigned difference (a residency below the exit latency wraps to a huge value, as
 * in nanoseconds).  The latency limit was an int of microseconds.
 */
static int ladder_select_us(const struct ik_driver *drv, struct ik_device *dev,
			    struct ladder_cpu *ladder, int first_idx, int last_idx,
			    int64_t latency_req_ns)
{
	struct ladder_state_data *last = &ladder->states[last_idx];
	int64_t latency_req = latency_req_ns / IK_NSEC_PER_USEC;
	uint64_t residency_us = dev->last_residency_ns / IK_NSEC_PER_USEC;
	int32_t last_us = residency_us > INT32_MAX ? INT32_MAX : (int32_t)residency_us;
	uint32_t last_residency = (uint32_t)last_us - drv->states[last_idx].exit_latency;

	if (latency_req == 0) {
		ladder_move(dev, ladder, last_idx, 0);
		return 0;
	}

	if (last_idx < drv->state_count - 1 && !ik_state_disabled(dev, last_idx + 1) &&
	    last_residency > last->promotion_time_us &&
	    (int64_t)drv->states[last_idx + 1].exit_latency <= latency_req) {
		last->promotion_count++;
		last->demotion_count = 0;
		if ((uint32_t)last->promotion_count >= last->promotion_count_threshold) {
			ladder_move(dev, ladder, last_idx, last_idx + 1);
			return last_idx + 1;
		}
	}

	if (last_idx > first_idx &&
	    (ik_state_disabled(dev, last_idx) ||
	     (int64_t)drv->states[last_idx].exit_latency > latency_req)) {
		int i;

		for (i = last_idx - 1; i > first_idx; i--) {
			if ((int64_t)drv->states[i].exit_latency <= latency_req)
				break;
		}
		ladder_move(dev, ladder, last_idx, i);
		return i;
	}

	if (last_idx > first_idx && last_residency < last->demotion_time_us) {
		last->demotion_count++;
		last->promotion_count = 0;
		if ((uint32_t)last->demotion_count >= last->demotion_count_threshold) {
			ladder_move(dev, ladder, last_idx, last_idx - 1);
			return last_idx - 1;
		}
	}

	return last_idx;
}

static int ladder_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	(void)stop_tick; /* the ladder never keeps the tick on its own */
	struct ladder_cpu *ladder = dev->governor_data;
	int first_idx = ladder_first_idx(drv);
	int last_idx = dev->last_state_idx;
	int64_t latency_req = ik_latency_req(dev);

	/* The kernel never sees anything else; idlekit guards against a foreign index. */
	if (last_idx < 0 || last_idx >= drv->state_count)
		last_idx = first_idx;

	if (!ik_kernel_has(dev->kernel, IK_SW_NS_UNITS))
		return ladder_select_us(drv, dev, ladder, first_idx, last_idx, latency_req);

	/* A latency limit of zero allows nothing but state 0. */
	if (latency_req == 0) {
		ladder_move(dev, ladder, last_idx, 0);
		return 0;
	}

	struct ladder_state_data *last = &ladder->states[last_idx];
	/* u64 subtraction stored as s64, then compared unsigned, as in the kernel. */
	int64_t last_residency =
		(int64_t)(dev->last_residency_ns - (uint64_t)drv->states[last_idx].exit_latency_ns);

	/* One step up, once enough long idle periods in a row have been seen. */
	if (last_idx < drv->state_count - 1 && !ik_state_disabled(dev, last_idx + 1) &&
	    (uint64_t)last_residency > last->promotion_time_ns &&
	    drv->states[last_idx + 1].exit_latency_ns <= latency_req) {
		last->promotion_count++;
		last->demotion_count = 0;
		if ((uint32_t)last->promotion_count >= last->promotion_count_threshold) {
			ladder_move(dev, ladder, last_idx, last_idx + 1);
			return last_idx + 1;
		}
	}

	/*
	 * The current state became unusable (disabled or too slow for the latency limit):
	 * drop straight to the deepest state below it that meets the limit, or to the bottom
	 * rung.  Like the kernel, whether that state is disabled is not checked.
	 */
	if (last_idx > first_idx &&
	    (ik_state_disabled(dev, last_idx) ||
	     drv->states[last_idx].exit_latency_ns > latency_req)) {
		int i;

		for (i = last_idx - 1; i > first_idx; i--) {
			if (drv->states[i].exit_latency_ns <= latency_req)
				break;
		}
		ladder_move(dev, ladder, last_idx, i);
		return i;
	}

	/* One step down after a too-short idle period. */
	if (last_idx > first_idx && (uint64_t)last_residency < last->demotion_time_ns) {
		last->demotion_count++;
		last->promotion_count = 0;
		if ((uint32_t)last->demotion_count >= last->demotion_count_threshold) {
			ladder_move(dev, ladder, last_idx, last_idx - 1);
			return last_idx - 1;
		}
	}

	return last_idx;
}

/* The state actually entered becomes the current rung, except state 0. */
static void ladder_reflect(struct ik_device *dev, int index)
{
	if (index > 0)
		dev->last_state_idx = index;
}

/*
 * Start on the bottom rung.  Every rung from there up gets the standard counts; a state's
 * own exit latency is both what an idle period must exceed to count towards leaving it
 * upwards and what it must reach not to count towards leaving it downwards.
 */
static int ladder_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	struct ladder_cpu *ladder = calloc(1, sizeof(*ladder));
	int first_idx = ladder_first_idx(drv);

	if (!ladder)
		return -1;

	for (int i = first_idx; i < drv->state_count; i++) {
		struct ladder_state_data *s = &ladder->states[i];
		uint64_t exit_latency_ns = (uint64_t)drv->states[i].exit_latency_ns;

		s->promotion_count_threshold = LADDER_PROMOTION_COUNT;
		s->demotion_count_threshold = LADDER_DEMOTION_COUNT;
		if (i < drv->state_count - 1) {
			s->promotion_time_ns = exit_latency_ns;
			s->promotion_time_us = drv->states[i].exit_latency;
		}
		if (i > first_idx) {
			s->demotion_time_ns = exit_latency_ns;
			s->demotion_time_us = drv->states[i].exit_latency;
		}
	}
	dev->last_state_idx = first_idx;
	dev->governor_data = ladder;
	return 0;
}

static void ladder_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	free(dev->governor_data);
	dev->governor_data = NULL;
}

const struct ik_governor ik_governor_ladder = {
	.name = "ladder",
	.rating = 10,
	.enable = ladder_enable,
	.disable = ladder_disable,
	.select = ladder_select,
	.reflect = ladder_reflect,
	/* ladder reads only the last residency */
	.reads_cpu_util = ik_governor_never_reads_cpu_util,
};
