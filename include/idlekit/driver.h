/*
 * idlekit: idle drivers.
 *
 * A driver turns a platform's firmware and CPU description into the cpuidle state table,
 * as the kernel's drivers do, and says which hardware state each table entry really uses
 * (the simulator charges that state's real costs).
 */
#ifndef IDLEKIT_DRIVER_H
#define IDLEKIT_DRIVER_H

#include "idlekit/cpuidle.h"
#include "idlekit/scenario.h"

struct ik_driver_binding {
	struct ik_driver table;
	int hw_state[IK_STATE_MAX]; /* table index -> platform->states[] index */
};

struct ik_idle_driver {
	const char *name;
	/* Build the table; 0, or -1 with a message saying what in the platform is wrong. */
	int (*probe)(const struct ik_scenario *sc, struct ik_driver_binding *out, char *err,
		     size_t errlen);
};

extern const struct ik_idle_driver ik_driver_table;

const struct ik_idle_driver *ik_idle_driver_find(const char *name);

#endif
