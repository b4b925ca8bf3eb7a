/*
 * idlekit: one idle call, as kernel/sched/idle.c (cpuidle_idle_call) and
 * drivers/cpuidle/cpuidle.c run it, for every world that drives a governor: the simulator
 * (src/sim/idle_loop.c), the decision-stream harness (src/sim/govreplay.c) and trace replay
 * (src/trace/replay.c, through the harness).  The sequence is
 *
 *   select -> stop or keep the tick -> enter -> (the world runs until a wake event) ->
 *   account -> reflect
 *
 * and is the same for built-in, kernel-source and plugin governors.  What differs between
 * worlds is passed in: how the tick is stopped, what the driver's ->enter does, how the
 * polling state's time limit is armed; and, at the end, the measured residency and what
 * woke the CPU.  The world fills dev->in (sleep length, tick state, latency limit, clock)
 * before ik__idle_call_enter.
 */
#ifndef IDLEKIT_IDLE_CALL_H
#define IDLEKIT_IDLE_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include "idlekit/governor.h"
#include "idlekit/kernel.h"

/*
 * (The two steps of the sequence are inline functions: a world that runs millions of idle
 * calls, the simulator, compiles them into its own loop.)
 */

struct ik_idle_world {
	void *ctx;
	/* The tick is to be stopped (the governor said so, or it is stopped already). */
	void (*stop_tick)(void *ctx, struct ik_device *dev);
	/* The driver's ->enter for the chosen state: returns the state entered.  NULL = as chosen. */
	int (*enter)(void *ctx, struct ik_device *dev, int index);
	/* A polling state was entered: its time limit (cpuidle_poll_time) is limit_ns. */
	void (*arm_poll_limit)(void *ctx, struct ik_device *dev, uint64_t limit_ns);
};

/* Enable a governor on a device (dev->governor is set first); 0 or -1. */
int ik_governor_enable(const struct ik_governor *gov, const struct ik_driver *drv,
		       struct ik_device *dev);
void ik__governor_disable(const struct ik_governor *gov, const struct ik_driver *drv,
			 struct ik_device *dev);

/*
 * Select (gov NULL: no cpuidle governor, state 0 with the tick stopped, as the default idle
 * routine runs), stop or keep the tick, enter, arm the polling limit.  Returns the state
 * entered; *stop_tick is the governor's word.
 */
static inline int ik__idle_call_enter(const struct ik_governor *gov,
				     const struct ik_driver *drv, struct ik_device *dev,
				     const struct ik_idle_world *w, bool *stop_tick)
{
	bool stop = true;
	int idx = 0;

	/*
	 * Before 4.17 (kernel.switch.idle_tick_governor_decides off) the idle loop stopped the
	 * tick on entry, before the governor ran (tick_nohz_idle_enter): the governor sees a
	 * stopped tick, no tick among the coming events, and its word on the tick is ignored.
	 */
	/* (ik_idle_stops_tick_before_select(), read here without the call: every entry) */
	if (!ik_kernel_has(ik_kernel_or_default(dev->kernel), IK_SW_IDLE_TICK_GOVERNOR_DECIDES)) {
		if (!dev->in.tick_stopped)
			w->stop_tick(w->ctx, dev);
		dev->in.tick_stopped = true;
		dev->in.delta_next_ns = dev->in.sleep_length_ns;
	}
	if (gov) {
		idx = gov->select(drv, dev, &stop);
		if (idx < 0 || idx >= drv->state_count)
			idx = 0;
	}
	/* cpuidle_idle_call(): stop the tick if asked to or if it is stopped already. */
	if (stop || dev->in.tick_stopped)
		w->stop_tick(w->ctx, dev);
	if (w->enter)
		idx = w->enter(w->ctx, dev, idx);
	/*
	 * poll_idle(): the flag is cleared and the time limit armed as the state starts
	 * (before 4.18, poll_time_limit off, it polled until something else woke the CPU).
	 */
	if ((drv->states[idx].flags & IK_FLAG_POLLING) &&
	    ik_kernel_has(ik_kernel_or_default(dev->kernel), IK_SW_POLL_TIME_LIMIT)) {
		dev->poll_time_limit = false;
		w->arm_poll_limit(w->ctx, dev, ik_poll_time(drv, dev));
	}
	*stop_tick = stop;
	return idx;
}

/*
 * The entry ended after measured_ns (entry to exit, as the core measures): account it,
 * note a tick wakeup and a polling time-out, and reflect.
 */
static inline void ik__idle_call_exit(const struct ik_governor *gov,
				     const struct ik_driver *drv, struct ik_device *dev,
				     int entered, int64_t measured_ns, bool woken_by_tick,
				     bool poll_limit_hit)
{
	ik_account_entered(drv, dev, entered, measured_ns);
	dev->in.got_tick = woken_by_tick;
	if (poll_limit_hit)
		dev->poll_time_limit = true;
	if (gov && gov->reflect)
		gov->reflect(dev, entered);
}

#endif
