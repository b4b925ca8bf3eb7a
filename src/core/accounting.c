/* What cpuidle_enter_state() records once a driver's enter callback returns (the entered
   state's accounting, ik_account_entered, is inline in idlekit/cpuidle.h: every idle exit). */
#include "idlekit/cpuidle.h"

int ik_find_deepest_state(const struct ik_driver *drv, const struct ik_device *dev,
			  uint64_t max_latency_ns, unsigned forbidden_flags)
{
	uint64_t latency_req = 0; /* exit latency of the state kept so far */
	int ret = 0;

	for (int i = 1; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];

		if (ik_state_disabled(dev, i) || (uint64_t)s->exit_latency_ns <= latency_req ||
		    (uint64_t)s->exit_latency_ns > max_latency_ns || (s->flags & forbidden_flags))
			continue;
		latency_req = (uint64_t)s->exit_latency_ns;
		ret = i;
	}
	return ret;
}

void ik_account_rejected(struct ik_device *dev, int index)
{
	dev->last_residency_ns = 0;
	dev->states_usage[index].rejected++;
}
