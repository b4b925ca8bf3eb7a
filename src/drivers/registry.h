/*
 * idlekit: idle drivers.
 *
 * A driver turns a platform's firmware and CPU description into the cpuidle state table,
 * as the kernel's drivers do, and says which hardware state each table entry really uses
 * (the simulator charges that state's real costs).  While the simulation runs, a driver
 * may also act at each entry and exit, as the kernel's ->enter callbacks do: demote the
 * state, spend time after the hardware exit (acpi_idle's dummy wait), or arm a timer of
 * its own (powernv's forced wake-up).  All its run-time state lives in the binding's ctx,
 * one per run (drivers/binding.h).
 *
 * The drivers' interface to the rest of idlekit, named after registry.c, which holds the
 * list and the probe; the intel_idle table names come from intel_idle_tables.c.
 * drivers_internal.h beside it is what the drivers share among themselves only.
 */
#ifndef IDLEKIT_DRIVER_H
#define IDLEKIT_DRIVER_H

#include "config/scenario.h"
#include "drivers/binding.h"
#include "hw/hw.h"
#include "idlekit/cpuidle.h"


/* Driver-private state flags (intel_idle), the kernel's bits; the MWAIT hint in 31..24. */
#define IK_FLAG_IRQ_ENABLE (1u << 14)
#define IK_FLAG_ALWAYS_ENABLE (1u << 15)
#define IK_FLAG_IBRS (1u << 16)
#define IK_FLAG_INIT_XSTATE (1u << 17)
#define IK_FLAG_PARTIAL_HINT_MATCH (1u << 18)
#define IK_FLAG_MWAIT_HINT(flags) (((flags) >> 24) & 0xffu)

struct ik_idle_driver {
	const char *name;
	/*
	 * The governor the driver asks for (drv->governor in the kernel), used unless the
	 * scenario names one (cpuidle.governor=); NULL = none.
	 */
	const char *governor;
	/* Build the table; 0, or -1 with a message saying what in the platform is wrong. */
	int (*probe)(const struct ik_scenario *sc, struct ik_driver_binding *out, char *err,
		     size_t errlen);
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

extern const struct ik_idle_driver ik__driver_table;
extern const struct ik_idle_driver ik__driver_acpi_idle;
extern const struct ik_idle_driver ik__driver_intel_idle;
extern const struct ik_idle_driver ik__driver_powernv;
extern const struct ik_idle_driver ik__driver_haltpoll;
extern const struct ik_idle_driver ik__driver_default_idle; /* "none" */

const struct ik_idle_driver *ik__idle_driver_find(const char *name);
/* Names of the drivers, space separated. */
const char *ik__idle_driver_names(void);

/*
 * driver = auto: the driver the kernel would end up with on this platform and command
 * line (the first of powernv_idle, haltpoll, intel_idle, acpi_idle that loads; "table"
 * for a platform with no CPU description; else "none", the default idle routine).
 * Writes the name into sc->driver.  Other names are left as they are.
 */
void ik__idle_driver_resolve(struct ik_scenario *sc);

/*
 * Find `sc->driver` and probe it into b: 0, or -1 with why it does not load (b is then
 * empty).  A binding holds no memory of its own: a run's is a copy (`*mine = *probed`),
 * and nothing is released.
 */
int ik__idle_driver_probe(const struct ik_scenario *sc, struct ik_driver_binding *b, char *err,
			 size_t errlen);

/*
 * The states of sc->platform as the table driver registers them, for the commands that
 * take a platform's table without simulating it (replay, govreplay, import):
 * ik__driver_table_scenario() names in sc the platform REF, the table driver, GOVERNOR and
 * HZ, with no latency limit; ik__driver_table_bind() does that and probes the table into b:
 * 0, or -1 with "platform REF: why" in err (IK_ERR_LEN more than REF keeps why whole).
 */
void ik__driver_table_scenario(struct ik_scenario *sc, const char *ref, const char *governor,
			      int hz);
int ik__driver_table_bind(struct ik_scenario *sc, const char *ref, const char *governor, int hz,
			 struct ik_driver_binding *b, char *err, size_t errlen);

/* intel_idle's built-in tables: whether `name` is one, and all names space separated. */
bool ik__intel_idle_table_exists(const char *name);
const char *ik__intel_idle_table_names(void);

#endif
