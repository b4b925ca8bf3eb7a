// idlekit test governor (written for idlekit, not kernel code): module parameters of each
// type the kernel's governors use.  It always returns fixed_state + offset (clamped to the
// table) and keeps the tick when keep_tick is set; scale only shows up in the identity.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>

static unsigned int fixed_state __read_mostly = 1;
module_param(fixed_state, uint, 0644);

static int offset __read_mostly;
module_param(offset, int, 0644);

static bool keep_tick __read_mostly;
module_param(keep_tick, bool, 0644);

static unsigned long scale = 1000;
module_param_named(scale_ns, scale, ulong, 0444);

static int params_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 bool *stop_tick)
{
	int idx = clamp_t(int, (int)fixed_state + offset, 0, drv->state_count - 1);

	if (keep_tick)
		*stop_tick = false;
	return idx;
}

static struct cpuidle_governor params_governor = {
	.name =		"params",
	.rating =	1,
	.select =	params_select,
};

static int __init init_params(void)
{
	return cpuidle_register_governor(&params_governor);
}

postcore_initcall(init_params);
