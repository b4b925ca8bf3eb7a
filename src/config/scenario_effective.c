/*
 * A scenario's effective configuration: every key of [scenario], [kernel], [cpuidle],
 * [workload] and [governor], in table order, with the value the run uses and where it came
 * from (given, a default, or derived from kernel.version or the driver).  It is what
 * --print-config prints and what every result records (config/effective.c holds the
 * records; the reader, scenario_ini.c, marks which keys were given).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config/effective.h"
#include "config/scenario_keys.h"

/* Every [scenario] key as the run uses it; *value = NULL for one with no text. */
static void format_scenario(const struct ik_scenario *sc, enum scenario_key k, char *buf,
			    size_t len, const char **value)
{
	*value = buf;
	switch (k) {
	case SC_NAME:
		snprintf(buf, len, "%s", sc->name);
		return;
	case SC_DESCRIPTION:
		*value = NULL; /* not kept: only a file has one */
		return;
	case SC_PLATFORM:
		snprintf(buf, len, "%s", sc->platform_ref);
		return;
	case SC_DURATION_MS:
		snprintf(buf, len, "%" PRId64, (int64_t)(sc->duration_ns / IK_NSEC_PER_MSEC));
		return;
	case SC_WARMUP_MS:
		snprintf(buf, len, "%" PRId64, (int64_t)(sc->warmup_ns / IK_NSEC_PER_MSEC));
		return;
	case SC_RUNS:
		snprintf(buf, len, "%d", sc->runs);
		return;
	case SC_SEED:
		snprintf(buf, len, "%" PRIu64, sc->seed);
		return;
	case SC_COUNT:
		break;
	}
	*value = NULL;
}

static void format_kernel(const struct ik_scenario *sc, enum kernel_key k, char *buf, size_t len)
{
	switch (k) {
	case KN_HZ:
		snprintf(buf, len, "%d", sc->hz);
		return;
	case KN_LATENCY_LIMIT_US:
		if (sc->latency_limit_us < 0)
			snprintf(buf, len, "none");
		else
			snprintf(buf, len, "%" PRId64, sc->latency_limit_us);
		return;
	case KN_HOUSEKEEPING_HZ:
		ik__ini_format_real(sc->housekeeping_hz, buf, len);
		return;
	case KN_HOUSEKEEPING_WORK_NS:
		snprintf(buf, len, "%" PRId64, sc->housekeeping_work_ns);
		return;
	case KN_VERSION:
		ik_kernel_release_name(ik_kernel_or_default(&sc->kernel)->release, buf, len);
		return;
	case KN_COUNT:
		break;
	}
	buf[0] = '\0';
}

static void format_cpuidle(const struct ik_scenario *sc, enum cpuidle_key k, char *buf, size_t len)
{
	const struct ik_driver_options *o = &sc->opt;
	size_t used = 0;

	buf[0] = '\0';
	switch (k) {
	case CI_DRIVER:
		snprintf(buf, len, "%s", sc->driver);
		return;
	case CI_GOVERNOR: /* recorded from sc->governor itself (a kernel: path is long) */
		return;
	case CI_DISABLE:
		for (int i = 0; i < sc->ndisabled && used < len; i++) {
			bool quote = strpbrk(sc->disabled[i], " \t,") != NULL;
			used += (size_t)snprintf(buf + used, len - used, "%s%s%s%s", i ? ", " : "",
						 quote ? "\"" : "", sc->disabled[i], quote ? "\"" : "");
		}
		return;
	case CI_LATENCY_FACTOR:
		snprintf(buf, len, "%d", o->latency_factor);
		return;
	case CI_MAX_CSTATE:
		if (o->max_cstate < 0)
			snprintf(buf, len, "default");
		else
			snprintf(buf, len, "%d", o->max_cstate);
		return;
	case CI_NOCST:
		snprintf(buf, len, "%s", o->nocst ? "yes" : "no");
		return;
	case CI_BM_CHECK_DISABLE:
		snprintf(buf, len, "%s", o->bm_check_disable ? "yes" : "no");
		return;
	case CI_DUMMY_WAIT:
		snprintf(buf, len, "%s", scenario_dummy_waits[o->dummy_wait]);
		return;
	case CI_USE_ACPI:
		snprintf(buf, len, "%s", o->use_acpi < 0 ? "default" : o->use_acpi ? "yes" : "no");
		return;
	case CI_CST_FALLBACK:
		snprintf(buf, len, "%s", scenario_cst_fallbacks[o->cst_fallback]);
		return;
	case CI_PC6:
		snprintf(buf, len, "%s", scenario_pc6_values[o->pc6 + 1]);
		return;
	case CI_STATES_OFF:
		snprintf(buf, len, "0x%" PRIx32, o->states_off);
		return;
	case CI_FORCED_WAKEUP:
		snprintf(buf, len, "%s", o->forced_wakeup ? "on" : "off");
		return;
	case CI_IDLE:
		snprintf(buf, len, "%s", scenario_idle_options[o->idle]);
		return;
	case CI_PREFER_MWAIT:
		snprintf(buf, len, "%s", scenario_prefer_mwaits[o->prefer_mwait]);
		return;
	case CI_HALTPOLL_FORCE:
		snprintf(buf, len, "%s", o->haltpoll_force ? "yes" : "no");
		return;
	case CI_COUNT:
		break;
	}
}

/* kernel.switch.NAME: the switches flipped on top of the release, in [kernel] */
static int emit_switches(struct ik_config *cfg, const struct ik_scenario *sc)
{
	const struct ik_kernel *kn = ik_kernel_or_default(&sc->kernel);
	for (int i = 0; i < IK_SW_COUNT; i++) {
		if (!((kn->forced_on | kn->forced_off) >> i & 1u))
			continue;
		char key[IK_CONFIG_KEY_LEN];
		snprintf(key, sizeof(key), KERNEL_SWITCH_PREFIX "%s",
			 ik_switch_info((enum ik_switch)i)->name);
		if (ik__config_emit(cfg, scenario_section_names[SEC_KERNEL], key,
				   (kn->forced_on >> i & 1u) ? "on" : "off", IK_ORIGIN_SCENARIO))
			return -1;
	}
	return 0;
}

/*
 * Every key of the four scenario tables, in table order: the value given, else the value
 * the run uses (the switches above have a case per key: the compiler names a new key
 * without one).
 */
int scenario_effective_config(struct ik_config *cfg, const struct ik_scenario *sc,
			      bool governor_derived)
{
	char buf[IK_CONFIG_VALUE_LEN];

	for (int s = 0; s < SEC_COUNT; s++) {
		for (int k = 0; k < scenario_key_count(s); k++) {
			const char *value = buf;
			enum ik_config_origin origin = IK_ORIGIN_DEFAULT;
			switch ((enum section)s) {
			case SEC_SCENARIO:
				format_scenario(sc, (enum scenario_key)k, buf, sizeof(buf), &value);
				break;
			case SEC_KERNEL:
				format_kernel(sc, (enum kernel_key)k, buf, sizeof(buf));
				break;
			case SEC_CPUIDLE:
				format_cpuidle(sc, (enum cpuidle_key)k, buf, sizeof(buf));
				if (k == CI_DUMMY_WAIT || k == CI_PREFER_MWAIT || k == CI_CST_FALLBACK)
					origin = IK_ORIGIN_DERIVED; /* from kernel.version, unless given */
				if (k == CI_GOVERNOR) {
					value = sc->governor;
					if (governor_derived)
						origin = IK_ORIGIN_DERIVED;
				}
				break;
			case SEC_WORKLOAD:
				ik__workload_key_format(&sc->workload, (enum workload_key)k, buf, sizeof(buf));
				if (k == WL_FILE) /* none: nothing to record */
					value = sc->workload.file[0] ? sc->workload.file : NULL;
				break;
			case SEC_GOVERNOR: /* no fixed keys: its parameters follow */
			case SEC_COUNT:
				break;
			}
			if (ik__config_emit(cfg, scenario_section_names[s], scenario_key_names(s)[k],
					   value, origin))
				return -1;
		}
		if (s == SEC_KERNEL && emit_switches(cfg, sc))
			return -1;
	}
	/* [governor]: the module parameters given, in the order given */
	for (int i = 0; i < sc->ngov_params; i++)
		if (ik__config_emit(cfg, scenario_section_names[SEC_GOVERNOR],
				   sc->gov_params[i].name, sc->gov_params[i].value, IK_ORIGIN_SCENARIO))
			return -1;
	return 0;
}

