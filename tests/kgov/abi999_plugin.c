/* idlekit test plugin built for another plugin ABI version: idlekit must refuse it. */
#include "idlekit/governor_plugin.h"

static int never_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	(void)drv;
	(void)dev;
	(void)stop_tick;
	return 0;
}

static const struct ik_governor never = { .name = "never", .select = never_select };

__attribute__((visibility("default"))) const struct ik_governor_plugin *ik_governor_plugin(void);
const struct ik_governor_plugin *ik_governor_plugin(void)
{
	static const struct ik_governor_plugin p = { 999, &never };
	return &p;
}
