/*
 * idlekit: idle drivers.
 *
 * A driver turns a platform's firmware and CPU description into the cpuidle state table,
 * as the kernel's drivers do, and says which hardware state each table entry really uses
 * (the simulator charges that state's real costs).  While the simulation runs, a driver
 * may also act at each entry and exit, as the kernel's ->enter callbacks do: demote the
 * state, spend time after the hardware exit (acpi_idle's dummy wait), or arm a timer of
 * its own (powernv's forced wake-up).  All its run-time state lives in ctx, one per run.
 */
#ifndef IDLEKIT_DRIVER_H
#define IDLEKIT_DRIVER_H

#include "idlekit/cpuidle.h"
#include "idlekit/hw.h"
#include "idlekit/scenario.h"

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
	void *ctx; /* the driver's run-time state, freed by ->release */
};

struct ik_idle_driver {
	const char *name;
	/* Build the table; 0, or -1 with a message saying what in the platform is wrong. */
	int (*probe)(const struct ik_scenario *sc, struct ik_driver_binding *out, char *err,
		     size_t errlen);
	/* Optional. Frees ctx. */
	void (*release)(struct ik_driver_binding *b);
	/*
	 * Optional. At entry (after the governor chose index): the index the driver really
	 * enters, as ->enter may demote (ACPI C3 with bus-master activity).
	 */
	int (*enter)(struct ik_driver_binding *b, struct ik_device *dev, int index, int64_t now,
		     struct ik_rng *rng);
	/*
	 * Optional. Relative time of a wake-up timer the driver arms for this entry (powernv's
	 * forced wake-up from a lite state), or 0 for none.  The timer is cancelled at exit.
	 */
	int64_t (*wakeup_timer_ns)(struct ik_driver_binding *b, const struct ik_device *dev,
				   int entered);
	/*
	 * Optional. Called when the hardware exit ends at `now`: the time the driver spends
	 * before ->enter returns (counted in the measured residency, delaying the return to
	 * work), e.g. acpi_idle's dummy PM-timer read after a SYSTEMIO entry.
	 */
	int64_t (*exit_ns)(struct ik_driver_binding *b, int cpu, int entered, int64_t now,
			   struct ik_rng *rng);
};

extern const struct ik_idle_driver ik_driver_table;

const struct ik_idle_driver *ik_idle_driver_find(const char *name);
/* Names of the drivers, space separated. */
const char *ik_idle_driver_names(void);

#endif
