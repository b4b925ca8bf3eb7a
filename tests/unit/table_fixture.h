/*
 * The small state table the harness tests share: POLL, C1 2/2 us, C2 20/100 us, C3
 * 100/600 us (exit latency / target residency), registered as a driver would.
 */
#ifndef IDLEKIT_TEST_TABLE_FIXTURE_H
#define IDLEKIT_TEST_TABLE_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "idlekit/cpuidle.h"

static inline void make_table(struct ik_driver *drv)
{
	static const struct {
		const char *name;
		uint32_t exit_us, residency_us;
	} states[] = { { "C1", 2, 2 }, { "C2", 20, 100 }, { "C3", 100, 600 } };

	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "test");
	ik_poll_state_init(drv);
	drv->state_count = 1;
	for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		struct ik_state *s = &drv->states[drv->state_count++];
		snprintf(s->name, sizeof(s->name), "%s", states[i].name);
		s->exit_latency = states[i].exit_us;
		s->target_residency = states[i].residency_us;
	}
	char err[128];
	assert_int_equal(ik_driver_init(drv, err, sizeof(err)), 0);
}

#endif
