// idlekit test governor that does not compile: a missing semicolon on line 11.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

static int broken_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 bool *stop_tick)
{
	int idx = 0
	return idx;
}

static struct cpuidle_governor broken_governor = {
	.name =		"broken",
	.select =	broken_select,
};

static int __init init_broken(void)
{
	return cpuidle_register_governor(&broken_governor);
}

postcore_initcall(init_broken);
