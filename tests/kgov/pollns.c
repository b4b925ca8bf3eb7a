// idlekit test governor (written for idlekit, not kernel code): it reads and writes
// dev->poll_limit_ns, which came with the haltpoll governor in v5.4, so idlekit recognises a
// file written against v5.4 or later and warns when it runs as an earlier release (the
// shim serves 5.1-5.3 with v5.4's layout, so the file compiles there).  It polls (state 0)
// while the last residency was below the limit, and doubles the limit each time it was not.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

static int pollns_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 bool *stop_tick)
{
	if (!dev->poll_limit_ns)
		dev->poll_limit_ns = 10000;
	return drv->state_count > 1 && dev->poll_limit_ns > 20000 ? 1 : 0;
}

static void pollns_reflect(struct cpuidle_device *dev, int index)
{
	if (index == 0 && dev->poll_limit_ns < 1000000)
		dev->poll_limit_ns *= 2;
}

static struct cpuidle_governor pollns_governor = {
	.name =		"pollns",
	.rating =	1,
	.select =	pollns_select,
	.reflect =	pollns_reflect,
};

static int __init init_pollns(void)
{
	return cpuidle_register_governor(&pollns_governor);
}

postcore_initcall(init_pollns);
