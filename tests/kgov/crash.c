// idlekit test governor (written for idlekit, not kernel code): it dereferences NULL at its
// 100th decision, so that idlekit's crash isolation is seen to stop the run there.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

static unsigned int decisions;
static int *volatile nowhere;

static int crash_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	if (++decisions == 100)
		return *nowhere;
	return 1;
}

static struct cpuidle_governor crash_governor = {
	.name =		"crash",
	.rating =	1,
	.select =	crash_select,
};

static int __init init_crash(void)
{
	return cpuidle_register_governor(&crash_governor);
}

postcore_initcall(init_crash);
