// idlekit test governor (written for idlekit, not kernel code): its third decision never
// returns, so that idlekit's time limit on a governor call is seen to stop the run.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

static unsigned int decisions;
static volatile unsigned long spins;

static int hang_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick)
{
	if (++decisions == 3)
		for (;;)
			spins++;
	return 1;
}

static struct cpuidle_governor hang_governor = {
	.name =		"hang",
	.rating =	1,
	.select =	hang_select,
};

static int __init init_hang(void)
{
	return cpuidle_register_governor(&hang_governor);
}

postcore_initcall(init_hang);
