/* Driver registration: unit normalisation and sanity checks (drivers/cpuidle/driver.c). */
#include <stdio.h>
#include <string.h>

#include "idlekit/cpuidle.h"
#include "util/errmsg.h"

int64_t ik_tick_nsec(int hz)
{
	return (IK_NSEC_PER_SEC + hz / 2) / hz;
}

/*
 * The microsecond value wins when it is non-zero (drivers that fill only the us fields);
 * otherwise the ns value is kept, clamped at 0, and the us mirror derived from it.
 */
static void normalise(int64_t *ns, uint32_t *us)
{
	if (*us > 0)
		*ns = (int64_t)*us * IK_NSEC_PER_USEC;
	else if (*ns < 0)
		*ns = 0;
	else
		*us = (uint32_t)(*ns / IK_NSEC_PER_USEC);
}

int ik_driver_init(struct ik_driver *drv, char *err, size_t errlen)
{
	if (drv->state_count < 1 || drv->state_count > IK_STATE_MAX)
		return ik__errmsg(err, errlen, "driver %s: %d states, expected 1 to %d", drv->name,
				  drv->state_count, IK_STATE_MAX);
	drv->bctimer = false;
	for (int i = 0; i < drv->state_count; i++) {
		struct ik_state *s = &drv->states[i];

		normalise(&s->target_residency_ns, &s->target_residency);
		normalise(&s->exit_latency_ns, &s->exit_latency);
		if (s->flags & IK_FLAG_TIMER_STOP)
			drv->bctimer = true;
	}
	return 0;
}

void ik_poll_state_init(struct ik_driver *drv)
{
	struct ik_state *s = &drv->states[0];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "POLL");
	snprintf(s->desc, sizeof(s->desc), "CPUIDLE CORE POLL IDLE");
	s->power_usage = -1;
	s->flags = IK_FLAG_POLLING;
}
