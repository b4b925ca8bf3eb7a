/* The polling state's time limit (drivers/cpuidle/cpuidle.c: cpuidle_poll_time). */
#include "idlekit/cpuidle.h"

/*
 * Poll for at most the target residency of the first enabled state that is worth leaving
 * the poll for (residency >= 10 us), never longer than TICK_NSEC/16.  The result is cached
 * in dev->poll_limit_ns, which the haltpoll governor also writes.
 *
 * Before 5.15 (poll_limit_min_residency off) the first enabled state counted whatever its
 * residency and the limit was a whole tick when no state was enabled; before nanoseconds
 * (ns_units off) that residency was the microsecond field times 1000.
 */
uint64_t ik_poll_time(const struct ik_driver *drv, struct ik_device *dev)
{
	if (dev->poll_limit_ns)
		return dev->poll_limit_ns;

	bool min_residency = ik_kernel_has(dev->kernel, IK_SW_POLL_LIMIT_MIN_RESIDENCY);
	uint64_t limit = (uint64_t)(min_residency ? dev->tick_nsec / 16 : dev->tick_nsec);

	for (int i = 1; i < drv->state_count; i++) {
		if (ik_state_disabled(dev, i))
			continue;
		int64_t tr = drv->states[i].target_residency_ns;
		if (!ik_kernel_has(dev->kernel, IK_SW_NS_UNITS))
			tr = (int64_t)drv->states[i].target_residency * IK_NSEC_PER_USEC;
		if (!min_residency) {
			limit = (uint64_t)tr;
			break;
		}
		if (tr < IK_POLL_MIN_NS)
			continue;
		if ((uint64_t)tr < limit)
			limit = (uint64_t)tr;
		break;
	}
	dev->poll_limit_ns = limit;
	return limit;
}
