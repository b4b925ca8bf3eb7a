/*
 * teo before its ~5.14 rework (teo_bins off): src/governors/teo_legacy.c.  teo.c hands its
 * callbacks here when the device's release lacks the rework.
 */
#ifndef IDLEKIT_GOVERNORS_TEO_LEGACY_H
#define IDLEKIT_GOVERNORS_TEO_LEGACY_H

#include "idlekit/governor.h"

int ik__teo_legacy_enable(const struct ik_driver *drv, struct ik_device *dev);
void ik__teo_legacy_disable(const struct ik_driver *drv, struct ik_device *dev);
int ik__teo_legacy_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick);
void ik__teo_legacy_reflect(struct ik_device *dev, int index);

#endif
