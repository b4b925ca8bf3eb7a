// idlekit test governor that calls a kernel service the shim does not provide
// (tick_nohz_get_idle_calls_cpu(), which the kernel has in include/linux/tick.h).

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/tick.h>

static int missing_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			  bool *stop_tick)
{
	return tick_nohz_get_idle_calls_cpu(dev->cpu) & 1;
}

static struct cpuidle_governor missing_governor = {
	.name =		"missing",
	.select =	missing_select,
};

static int __init init_missing(void)
{
	return cpuidle_register_governor(&missing_governor);
}

postcore_initcall(init_missing);
