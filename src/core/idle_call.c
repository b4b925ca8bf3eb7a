/* Enabling a governor on a device; the idle call itself, the sequence every world runs, is
   inline in core/idle_call.h. */
#include "core/idle_call.h"
#include "idlekit/kernel.h"

int ik_governor_enable(const struct ik_governor *gov, const struct ik_driver *drv,
		       struct ik_device *dev)
{
	dev->governor = gov;
	return gov->enable ? gov->enable(drv, dev) : 0;
}

void ik__governor_disable(const struct ik_governor *gov, const struct ik_driver *drv,
			 struct ik_device *dev)
{
	if (gov->disable)
		gov->disable(drv, dev);
}
