/*
 * The scenario file's sections and keys (other than [workload]'s, in workload_keys.h), and
 * the names of the values its enumerated keys take: shared by the reader (scenario_ini.c)
 * and the effective configuration it records (scenario_effective.c).
 */
#ifndef IDLEKIT_CONFIG_SCENARIO_KEYS_H
#define IDLEKIT_CONFIG_SCENARIO_KEYS_H

#include "config/ini_common.h"
#include "config/workload_keys.h"

enum section { SEC_SCENARIO, SEC_KERNEL, SEC_CPUIDLE, SEC_WORKLOAD, SEC_GOVERNOR, SEC_COUNT };
extern const char *const scenario_section_names[SEC_COUNT];

enum scenario_key { SC_NAME, SC_DESCRIPTION, SC_PLATFORM, SC_DURATION_MS, SC_WARMUP_MS, SC_RUNS, SC_SEED, SC_COUNT };
enum kernel_key { KN_HZ, KN_LATENCY_LIMIT_US, KN_HOUSEKEEPING_HZ, KN_HOUSEKEEPING_WORK_NS, KN_VERSION,
		  KN_COUNT };
/* kernel.switch.NAME = on|off: one behaviour switch flipped on top of kernel.version. */
#define KERNEL_SWITCH_PREFIX "switch."
enum cpuidle_key {
	CI_DRIVER,
	CI_GOVERNOR,
	CI_DISABLE,
	CI_LATENCY_FACTOR,
	CI_MAX_CSTATE,
	CI_NOCST,
	CI_BM_CHECK_DISABLE,
	CI_DUMMY_WAIT,
	CI_USE_ACPI,
	CI_CST_FALLBACK,
	CI_PC6,
	CI_STATES_OFF,
	CI_FORCED_WAKEUP,
	CI_IDLE,
	CI_PREFER_MWAIT,
	CI_HALTPOLL_FORCE,
	CI_COUNT
};

/* A section's key names, indexed by its key enum, and how many ([governor]: none fixed). */
const char *const *scenario_key_names(int s);
int scenario_key_count(int s);

/* The names of the values of [cpuidle]'s enumerated keys, in the order of their enums
   (config/scenario.h); scenario_pc6_values from -1. */
extern const char *const scenario_drivers[7];
extern const char *const scenario_dummy_waits[4];
extern const char *const scenario_idle_options[4];
extern const char *const scenario_prefer_mwaits[2];
extern const char *const scenario_cst_fallbacks[2];
extern const char *const scenario_pc6_values[3];
#define SCENARIO_NDRIVERS 7

/* scenario_effective.c: the scenario's every key into cfg, as the run uses it (the
   governor's origin is "derived" when the driver chose it).  0, or -1 when cfg is full. */
struct ik_config;
int scenario_effective_config(struct ik_config *cfg, const struct ik_scenario *sc,
			      bool governor_derived);

#endif
