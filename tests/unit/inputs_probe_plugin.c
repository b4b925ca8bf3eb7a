/*
 * A test governor (plugin) that shows, through the states it picks, what the host put in
 * dev->in at each idle entry: state 9 when nr_iowaiters > 0, else the cpu_util bin
 * (cpu_util + 64) / 128, so state k is utilisation within 64 of 128 k.  The usage counts
 * of a run are then a histogram of the inputs (tests/unit/test_sim_inputs.c).  The driver
 * table needs 10 states.
 */
#include <idlekit/governor_plugin.h>

static int probe_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	(void)stop_tick;
	if (drv->state_count < 10)
		return 0;
	if (dev->in.nr_iowaiters > 0)
		return 9;
	unsigned long bin = (dev->in.cpu_util + 64) / 128;
	return bin > 8 ? 8 : (int)bin;
}

static const struct ik_governor probe = { .name = "inputs_probe", .select = probe_select };
IK_GOVERNOR_PLUGIN(probe)
