// idlekit test governor (written for idlekit, not kernel code): at its 100th decision it
// dereferences NULL (how=0, the default), divides by zero (how=1) or calls BUG() (how=2),
// so that idlekit's crash isolation is seen to stop the run there.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

static unsigned int decisions;
static int *volatile nowhere;
static volatile int zero;

static unsigned int how;
module_param(how, uint, 0444);

static int crash_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	if (++decisions == 100) {
		if (how == 1)
			return drv->state_count / zero;
		if (how == 2)
			BUG();
		return *nowhere;
	}
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
