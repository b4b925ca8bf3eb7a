// idlekit test governor (written for idlekit, not kernel code) in the v5.4 API: times in
// microseconds (dev->last_residency, states' exit_latency and target_residency, an int
// latency limit) and the driver-wide `disabled` flag.  It picks the deepest state whose
// target residency is within the last residency and whose exit latency fits the limit.
// It compiles only when idlekit compiles for v5.4.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

static int us_select(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick)
{
	int latency_req = cpuidle_governor_latency_req(dev->cpu);
	int i, idx = 0;

	for (i = 1; i < drv->state_count; i++) {
		struct cpuidle_state *s = &drv->states[i];

		if (s->disabled || dev->states_usage[i].disable)
			continue;
		if (s->exit_latency > latency_req)
			break;
		if (s->target_residency <= dev->last_residency)
			idx = i;
	}
	return idx;
}

static struct cpuidle_governor us_governor = {
	.name =		"us_api",
	.select =	us_select,
};

static int __init init_us(void)
{
	return cpuidle_register_governor(&us_governor);
}

postcore_initcall(init_us);
