// idlekit test governor (written for idlekit, not kernel code): its select takes no
// stop_tick, as ->select() did before v4.17, so idlekit recognises a file written against
// an older release's API than it serves (kgov.sh: the compile error or the warning names
// it).  It always returns state 1.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

static int oldsel_select(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	return drv->state_count > 1 ? 1 : 0;
}

static struct cpuidle_governor oldsel_governor = {
	.name =		"oldsel",
	.rating =	1,
	.select =	oldsel_select,
};

static int __init init_oldsel(void)
{
	return cpuidle_register_governor(&oldsel_governor);
}

postcore_initcall(init_oldsel);
