/* What cpuidle_enter_state() records once a driver's enter callback returns. */
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

void ik_account_entered(const struct ik_driver *drv, struct ik_device *dev, int entered,
			int64_t measured_ns)
{
	struct ik_state_usage *u = &dev->states_usage[entered];
	int64_t diff = measured_ns;

	dev->last_residency_ns = (uint64_t)diff;
	u->time_ns += (uint64_t)diff;
	u->usage++;

	if (diff < drv->states[entered].target_residency_ns) {
		/* Too deep, but only if a shallower state could have been chosen. */
		for (int i = entered - 1; i >= 0; i--) {
			if (ik_state_disabled(dev, i))
				continue;
			u->above++;
			u->above_time_ns += (uint64_t)diff;
			break;
		}
	} else if (diff > drv->states[entered].exit_latency_ns) {
		/* Too shallow: only the first enabled deeper state is checked. */
		for (int i = entered + 1; i < drv->state_count; i++) {
			if (ik_state_disabled(dev, i))
				continue;
			if (diff - drv->states[entered].exit_latency_ns >=
			    drv->states[i].target_residency_ns) {
				u->below++;
				u->below_time_ns += (uint64_t)diff;
			}
			break;
		}
	}
}

void ik_account_rejected(struct ik_device *dev, int index)
{
	dev->last_residency_ns = 0;
	dev->states_usage[index].rejected++;
}
