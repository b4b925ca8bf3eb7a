/*
 * haltpoll: the guest halt-polling governor, as in kernel v6.19
 * (drivers/cpuidle/governors/haltpoll.c), made for the cpuidle-haltpoll driver in KVM
 * guests: state 0 polls, state 1 halts (a VM exit, expensive to leave).
 *
 * The idea: poll for a while before halting, because a wakeup that arrives during the poll
 * avoids the cost of a halt.  The poll window (dev->poll_limit_ns, which the polling state
 * uses as its time limit) adapts to how long the CPU actually stayed halted:
 *   - a halt that ended within the largest allowed window means a longer poll would have
 *     caught the wakeup: grow the window (from grow_start at least, up to the maximum);
 *   - a halt longer than the largest window means polling is wasted: shrink the window,
 *     and once it falls below grow_start, stop polling altogether.
 *
 * The kernel's module parameters and the window arithmetic are 32-bit unsigned; the same
 * truncation is kept here (a parameter wider than 32 bits is cut as the kernel's "uint"
 * parameter would never hold it).  This governor keeps no data of its own.
 */
#include "idlekit/governor.h"

void ik_haltpoll_params_default(struct ik_haltpoll_params *p)
{
	p->guest_halt_poll_ns = 200000;
	p->guest_halt_poll_shrink = 2;
	p->guest_halt_poll_grow = 2;
	p->guest_halt_poll_grow_start = 50000;
	p->guest_halt_poll_allow_shrink = true;
}

/* The module parameters in the kernel's own widths. */
struct haltpoll_limits {
	uint32_t max_poll_ns;
	uint32_t shrink;
	uint32_t grow;
	uint32_t grow_start;
	bool allow_shrink;
};

static struct haltpoll_limits haltpoll_limits(const struct ik_device *dev)
{
	struct ik_haltpoll_params defaults;
	const struct ik_haltpoll_params *p = dev->haltpoll;

	if (!p) {
		ik_haltpoll_params_default(&defaults);
		p = &defaults;
	}
	return (struct haltpoll_limits){
		.max_poll_ns = (uint32_t)p->guest_halt_poll_ns,
		.shrink = (uint32_t)p->guest_halt_poll_shrink,
		.grow = (uint32_t)p->guest_halt_poll_grow,
		.grow_start = (uint32_t)p->guest_halt_poll_grow_start,
		.allow_shrink = p->guest_halt_poll_allow_shrink,
	};
}

static int haltpoll_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	int64_t latency_req = ik_latency_req(dev);

	if (!ik_kernel_has(dev->kernel, IK_SW_NS_UNITS))
		latency_req /= IK_NSEC_PER_USEC; /* an int of microseconds before 5.7 */

	/* No choice, or no latency allowed: poll, with the tick kept. */
	if (drv->state_count == 0 || latency_req == 0) {
		*stop_tick = false;
		return 0;
	}

	/*
	 * No poll window (yet): halt.  The kernel assumes the haltpoll driver's two states; a
	 * one-state table has nothing to halt in, so idlekit polls instead of returning an
	 * index past the table.
	 */
	if (dev->poll_limit_ns == 0) {
		if (drv->state_count < 2) {
			*stop_tick = false;
			return 0;
		}
		return 1;
	}

	/* After a poll that ran out its window without a wakeup: halt. */
	if (dev->last_state_idx == 0 && dev->poll_time_limit)
		return 1;

	/* Otherwise (a poll that caught its wakeup, or a halt): poll first. */
	*stop_tick = false;
	return 0;
}

/* Adapt the poll window to a halt that lasted block_ns. */
static void haltpoll_adjust_poll_limit(struct ik_device *dev, uint64_t block_ns)
{
	struct haltpoll_limits lim = haltpoll_limits(dev);
	uint32_t window;

	if (block_ns > dev->poll_limit_ns && block_ns <= lim.max_poll_ns) {
		/* The product is 64-bit but lands in a 32-bit variable, as in the kernel. */
		window = (uint32_t)(dev->poll_limit_ns * lim.grow);
		if (window < lim.grow_start)
			window = lim.grow_start;
		if (window > lim.max_poll_ns)
			window = lim.max_poll_ns;
		dev->poll_limit_ns = window;
	} else if (block_ns > lim.max_poll_ns && lim.allow_shrink) {
		window = (uint32_t)dev->poll_limit_ns;
		if (lim.shrink == 0) {
			window = 0;
		} else {
			window /= lim.shrink;
			/* A window below grow_start is not worth keeping (kernel 6.9 and later). */
			if (ik_kernel_has(dev->kernel, IK_SW_HALTPOLL_SHRINK_RESET) &&
			    window < lim.grow_start)
				window = 0;
		}
		dev->poll_limit_ns = window;
	}
}

static void haltpoll_reflect(struct ik_device *dev, int index)
{
	dev->last_state_idx = index;
	if (index != 0) {
		uint64_t block_ns = dev->last_residency_ns;

		/* Before 5.7 the halt time came as whole microseconds (an int) times 1000. */
		if (!ik_kernel_has(dev->kernel, IK_SW_NS_UNITS)) {
			uint64_t us = block_ns / IK_NSEC_PER_USEC;
			block_ns = (us > INT32_MAX ? INT32_MAX : us) * IK_NSEC_PER_USEC;
		}
		haltpoll_adjust_poll_limit(dev, block_ns);
	}
}

/* Every CPU starts without a poll window, i.e. halting. */
static int haltpoll_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	dev->poll_limit_ns = 0;
	return 0;
}

static void haltpoll_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	(void)dev;
}

const struct ik_governor ik_governor_haltpoll = {
	.name = "haltpoll",
	.rating = 9,
	.enable = haltpoll_enable,
	.disable = haltpoll_disable,
	.select = haltpoll_select,
	.reflect = haltpoll_reflect,
	/* haltpoll reads only the last residency and the poll flag */
	.reads_cpu_util = ik_governor_never_reads_cpu_util,
};
