/*
 * What the idle drivers share: finding the platform's hardware state a table entry uses,
 * notes about fallbacks, the registration checks, and the x86 idle routine choice (used by
 * "none" and by haltpoll, whose halt state runs the same routine).  Only src/drivers/
 * includes this.
 */
#ifndef IDLEKIT_DRIVERS_INTERNAL_H
#define IDLEKIT_DRIVERS_INTERNAL_H

#include <stdarg.h>

#include "drivers/registry.h"

/* The start of every ->probe: an empty binding to ops, its table named after the driver. */
void drv_probe_begin(struct ik_driver_binding *out, const struct ik_idle_driver *ops);

/* Drivers the kernel does not load with any idle= on its command line (intel_idle,
   haltpoll): -1 with why when sc has one. */
int drv_refuse_idle_option(const struct ik_scenario *sc, const char *name, char *err,
			   size_t errlen);

/* The first platform state entered by method m (with that hint when by_hint), or -1. */
int drv_hw_find(const struct ik_platform *p, enum ik_method m, bool by_hint, uint32_t hint);
/* What such a state is, as a [stateN] says it ("method = mwait, hint = 0x20"), for the
   message that says the platform lacks one. */
void drv_hw_want(char *want, size_t len, enum ik_method m, bool by_hint, uint32_t hint);

/*
 * Bind table entry `index` to the platform state of method m/hint; -1 with a message that
 * says which [stateN] the platform lacks when there is none.
 */
int drv_bind(struct ik_driver_binding *b, const struct ik_platform *p, int index,
	     enum ik_method m, bool by_hint, uint32_t hint, char *err, size_t errlen);

/* Append one sentence to b->notes ("; " between sentences). */
void drv_note(struct ik_driver_binding *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Registration: the core's unit normalisation (ik_driver_init), then v6.19's check that no
 * state's exit latency exceeds its target residency (__cpuidle_driver_init refuses the
 * whole driver with -EINVAL).  0 or -1 with the reason.
 */
int drv_register(struct ik_driver_binding *b, char *err, size_t errlen);

/* Fill a table entry from microsecond values. */
void drv_set_state(struct ik_state *s, const char *name, const char *desc, uint32_t exit_us,
		   uint32_t residency_us, unsigned flags);

/* The x86 default idle routine (arch/x86/kernel/process.c) or its equivalent elsewhere. */
struct drv_idle_routine {
	char name[IK_NAME_LEN]; /* HLT, MWAIT C1, POLL, AMD E400, WFI, or a stop state's */
	char desc[IK_DESC_LEN];
	int hw;                 /* platform state it runs in */
	unsigned flags;         /* TIMER_STOP for AMD E400 with the APIC C1E bug */
};
int drv_idle_routine(const struct ik_scenario *sc, struct drv_idle_routine *r, char *err,
		     size_t errlen);

/* prefer_mwait_c1_over_halt() under the scenario's policy (vendor = before v6.0). */
bool drv_prefer_mwait_c1(const struct ik_scenario *sc);

/* MWAIT sub-states CPUID leaf 5 EDX reports for the C-state of `hint` (0 = unsupported). */
unsigned drv_mwait_substates(const struct ik_cpuid *c, uint32_t hint);

/* One ACPI power state as the kernel holds it after reading _CST (struct acpi_processor_cx). */
#define DRV_ACPI_MAX_POWER 8 /* ACPI_PROCESSOR_MAX_POWER: slots 0..7, slot 0 unused */
struct drv_cx {
	bool valid;
	int type;                  /* 1..3 */
	enum ik_cst_method method; /* after probing: FFH, SYSTEMIO or HALT */
	uint32_t address;
	uint32_t latency_us;
	bool bm_sts_skip;
	char desc[IK_DESC_LEN];
};

/*
 * acpi_processor_evaluate_cst(): fills cx[1..count] from the platform's _CST (a slot left
 * for C1 when the first entry is not C1; FFH entries probed against CPUID leaf 5: C1 falls
 * back to HLT, deeper ones are dropped) and returns count, 0 when nothing usable was left,
 * or -1 when the platform has no _CST.  `who` prefixes the notes.
 */
int drv_evaluate_cst(const struct ik_scenario *sc, struct drv_cx cx[DRV_ACPI_MAX_POWER],
		     struct ik_driver_binding *b, const char *who);

#endif
