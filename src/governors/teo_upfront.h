/*
 * teo from its ~5.14 rework until the 6.6 rework (teo_bins on, teo_skip_sleep_length off):
 * src/governors/teo_upfront.c.  teo.c hands its callbacks here for such a release.
 */
#ifndef IDLEKIT_GOVERNORS_TEO_UPFRONT_H
#define IDLEKIT_GOVERNORS_TEO_UPFRONT_H

#include "idlekit/governor.h"

int ik__teo_upfront_enable(const struct ik_driver *drv, struct ik_device *dev);
void ik__teo_upfront_disable(const struct ik_driver *drv, struct ik_device *dev);
int ik__teo_upfront_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick);
void ik__teo_upfront_reflect(struct ik_device *dev, int index);

#endif
