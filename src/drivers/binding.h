/*
 * idlekit: a driver as probed for a scenario (its registered state table, which hardware
 * state each entry uses, its run-time state), apart from the drivers' registry so that a
 * loaded scenario can hold its driver's binding (config/scenario.h): the scenario's check
 * probes the driver once, and every run of it starts from a copy.
 */
#ifndef IDLEKIT_DRIVER_BINDING_H
#define IDLEKIT_DRIVER_BINDING_H

#include <stdbool.h>
#include <stddef.h>

#include "idlekit/cpuidle.h"

/* The largest run-time state a driver keeps (acpi_idle's: its entry methods per state). */
#define IK_DRIVER_CTX_MAX 2048
/* A driver's run-time state type is declared `struct IK_DRIVER_CTX name { ... }`: its
   objects live in the binding's ctx bytes, which it may then read and write. */
#define IK_DRIVER_CTX __attribute__((may_alias))

struct ik_idle_driver;

struct ik_driver_binding {
	const struct ik_idle_driver *ops;
	struct ik_driver table;
	int hw_state[IK_STATE_MAX]; /* table index -> platform->states[] index */
	/*
	 * No cpuidle driver runs (the x86 default idle routine, cpuidle.off): the idle loop
	 * calls the table's only state directly, with no governor, and always stops the tick.
	 */
	bool bypass_governor;
	/*
	 * The driver's run-time state (acpi_idle's entry methods, powernv's lite states), held
	 * in the binding so that a binding is a value: a run's own is a copy of the probed
	 * one, and nothing is freed.  Each driver checks that its state fits.
	 */
	_Alignas(max_align_t) unsigned char ctx[IK_DRIVER_CTX_MAX];
	/*
	 * What the driver did with the firmware description that a user should know: a
	 * fallback the kernel takes (an _CST state dropped, latencies swapped, C1 as HLT),
	 * one sentence each, separated by "; ".  Empty when there is nothing to say.
	 */
	char notes[1024];
};

#endif
