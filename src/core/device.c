/* Per-CPU device: registration and the services a governor may call. */
#include <string.h>

#include "idlekit/cpuidle.h"

void ik_device_init(struct ik_device *dev, const struct ik_driver *drv, int cpu, int hz)
{
	memset(dev, 0, sizeof(*dev));
	dev->cpu = cpu;
	dev->last_state_idx = -1;
	dev->tick_nsec = ik_tick_nsec(hz);
	dev->kernel = &ik_kernel_default;
	dev->in.latency_req_ns = IK_LATENCY_REQ_NONE_NS;
	dev->in.sleep_length_ns = IK_KTIME_MAX;
	dev->in.delta_next_ns = dev->tick_nsec;
	dev->in.cpu_capacity = 1024; /* SCHED_CAPACITY_SCALE */
	for (int i = 0; i < drv->state_count; i++) {
		if (drv->states[i].flags & IK_FLAG_UNUSABLE)
			dev->states_disable[i] |= IK_DISABLE_DRIVER;
		if (drv->states[i].flags & IK_FLAG_OFF)
			dev->states_disable[i] |= IK_DISABLE_USER;
	}
}

/* The external definitions of the inline services (idlekit/cpuidle.h). */
extern inline int64_t ik_sleep_length(struct ik_device *dev, int64_t *delta_next);
extern inline bool ik_tick_stopped(const struct ik_device *dev);
extern inline bool ik_got_tick(struct ik_device *dev);
extern inline int64_t ik_latency_req(const struct ik_device *dev);
