/*
 * The scenario file's key names and value names (scenario_keys.h).
 */
#include "config/scenario_keys.h"

const char *const scenario_section_names[SEC_COUNT] = { "scenario", "kernel", "cpuidle", "workload",
					       "governor" };

static const char *const scenario_keys[SC_COUNT] = { "name", "description", "platform",
						     "duration_ms", "warmup_ms", "runs", "seed" };
static const char *const kernel_keys[KN_COUNT] = { "hz", "latency_limit_us", "housekeeping_hz",
						   "housekeeping_work_ns", "version" };
static const char *const cpuidle_keys[CI_COUNT] = {
	"driver", "governor", "disable", "latency_factor", "max_cstate", "nocst",
	"bm_check_disable", "dummy_wait", "use_acpi", "cst_fallback", "pc6", "states_off",
	"forced_wakeup", "idle", "prefer_mwait", "haltpoll_force",
};
_Static_assert(CI_COUNT <= IK_INI_MAX_KEYS, "cpuidle keys");

static const struct {
	const char *const *names;
	int count;
} section_keys[SEC_COUNT] = {
	[SEC_SCENARIO] = { scenario_keys, SC_COUNT },
	[SEC_KERNEL] = { kernel_keys, KN_COUNT },
	[SEC_CPUIDLE] = { cpuidle_keys, CI_COUNT },
	[SEC_WORKLOAD] = { NULL, WL_COUNT }, /* config/workload_keys.c: ik__workload_key_names() */
	[SEC_GOVERNOR] = { NULL, 0 }, /* the governor's own module parameters: any name */
};

const char *const *scenario_key_names(int s)
{
	return s == SEC_WORKLOAD ? ik__workload_key_names() : section_keys[s].names;
}

int scenario_key_count(int s)
{
	return section_keys[s].count;
}

const char *const scenario_drivers[SCENARIO_NDRIVERS] = { "table", "acpi_idle", "intel_idle", "powernv_idle",
					"haltpoll", "none", "auto" };
const char *const scenario_dummy_waits[4] = { "intel_only", "always", "not_in_guest", "skip_on_zen" };
const char *const scenario_idle_options[4] = { "default", "poll", "halt", "nomwait" };
const char *const scenario_prefer_mwaits[2] = { "cpuid", "vendor" };
const char *const scenario_cst_fallbacks[2] = { "fixed", "legacy" };
const char *const scenario_pc6_values[3] = { "platform", "disabled", "enabled" };
