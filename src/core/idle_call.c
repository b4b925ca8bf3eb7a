/* One idle call: the sequence every world runs (idlekit/idle_call.h). */
#include "idlekit/idle_call.h"
#include "idlekit/kernel.h"

int ik_governor_enable(const struct ik_governor *gov, const struct ik_driver *drv,
		       struct ik_device *dev)
{
	dev->governor = gov;
	return gov->enable ? gov->enable(drv, dev) : 0;
}

void ik_governor_disable(const struct ik_governor *gov, const struct ik_driver *drv,
			 struct ik_device *dev)
{
	if (gov->disable)
		gov->disable(drv, dev);
}

int ik_idle_call_enter(const struct ik_governor *gov, const struct ik_driver *drv,
		       struct ik_device *dev, const struct ik_idle_world *w, bool *stop_tick)
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

void ik_idle_call_exit(const struct ik_governor *gov, const struct ik_driver *drv,
		       struct ik_device *dev, int entered, int64_t measured_ns, bool woken_by_tick,
		       bool poll_limit_hit)
{
	ik_account_entered(drv, dev, entered, measured_ns);
	dev->in.got_tick = woken_by_tick;
	if (poll_limit_hit)
		dev->poll_time_limit = true;
	if (gov && gov->reflect)
		gov->reflect(dev, entered);
}
