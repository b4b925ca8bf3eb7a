/*
 * Scenario files: what to simulate.
 *
 *   [scenario]  name, platform (built-in name or file), duration, runs, seed
 *   [kernel]    HZ, global PM QoS latency limit
 *   [cpuidle]   driver and its kernel command-line options, governor, states disabled
 *               through sysfs
 *   [workload]  what the tasks do
 *
 * Reading one takes four steps: the file; the overrides ("section.key=value", in order, as
 * if they were in the file: scenario sections now, platform and stateN sections once the
 * platform is read); the platform; and the checks that need both (a disabled state must
 * exist; the workload's own checks, ik__workload_check, such as a pinned placement that
 * must fit the machine).
 *
 * The keys' names are in scenario_keys.c ([workload]'s, with their types and ranges, in
 * workload_keys.c); the effective configuration a read records is scenario_effective.c.
 *
 * Divisions: the reader and defaults; one setter per section; the INI callbacks; the
 * overrides; the platform; the checks against platform, driver and kernel; parse and load.
 */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/registry.h"
#include "idlekit/governor.h"
#include "core/governor_registry.h"
#include "config/ini_common.h"
#include "config/platform_ini.h"
#include "config/effective.h"
#include "config/scenario_keys.h"
#include "config/workload_keys.h"
#include "util/errmsg.h"

#define MAX_MS IK_SCENARIO_MAX_MS
#define MAX_WORK_NS IK_SCENARIO_MAX_WORK_NS
#define MAX_LATENCY_LIMIT_US 2000000000LL

/* A platform key in the scenario file itself: applied on top of the platform file. */
struct platform_key {
	char *section, *key, *value; /* one malloc'd block, section first */
	int line;
};

struct scenario_reader {
	char origin[IK_PLATFORM_ORIGIN_LEN];
	char base_dir[IK_PLATFORM_ORIGIN_LEN]; /* where a relative platform path is tried too */
	struct ik_ini_err e;
	struct ik_scenario *sc;
	struct ik_ini_section sec[SEC_COUNT];
	struct ik_config *cfg;            /* the effective configuration, or NULL */
	struct platform_key *pkeys;       /* [platform], [stateN], ... of the file */
	int npkeys, pkeys_cap;
	struct ik_platform_reader *pr;    /* the platform as read, until the end */
	bool governor_derived;            /* the driver chose the governor */
	bool governor_named;              /* the platform named it ([os] governor) */
};

static void scenario_defaults(struct ik_scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->hz = 250;
	ik_kernel_init(&sc->kernel, IK_KERNEL_DEFAULT_RELEASE);
	sc->latency_limit_us = -1;
	snprintf(sc->driver, sizeof(sc->driver), "table");
	snprintf(sc->governor, sizeof(sc->governor), "menu");
	sc->opt.latency_factor = 2;
	sc->opt.max_cstate = -1;
	sc->opt.use_acpi = -1;
	sc->opt.pc6 = -1;
	sc->duration_ns = 1000 * IK_NSEC_PER_MSEC;
	sc->warmup_ns = 0;
	sc->runs = 1;
	sc->seed = 1;
	ik__workload_defaults(&sc->workload); /* from the key table */
	/* A real kernel's own per-CPU timers (docs/model.md, "Housekeeping"): the soft-lockup
	   watchdog's hrtimer every 2 * watchdog_thresh / 5 = 4 s and vmstat_update every
	   sysctl_stat_interval = 1 s on a CPU whose counters moved: 1.25 Hz. */
	sc->housekeeping_hz = 1.25;
	sc->housekeeping_work_ns = 2000;
}

static void reader_init(struct scenario_reader *r, const char *origin, bool from_file,
			struct ik_scenario *sc, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->origin, sizeof(r->origin), "%s", origin ? origin : "<scenario>");
	ik__ini_err_init(&r->e, r->origin, err, errlen);
	r->sc = sc;
	/* A relative platform path is also tried next to the scenario file. */
	const char *slash = from_file ? strrchr(r->origin, '/') : NULL;
	if (slash) {
		size_t n = (size_t)(slash - r->origin);
		if (n == 0)
			n = 1; /* "/x.ini": the root */
		memcpy(r->base_dir, r->origin, n);
		r->base_dir[n] = '\0';
	}
	scenario_defaults(sc);
}

static int section_index(const char *name)
{
	return ik__ini_key_index(name, scenario_section_names, SEC_COUNT);
}

static int bad(struct scenario_reader *r, struct ik_ini_where w, const char *section,
	       const char *key, const char *msg)
{
	return ik__ini_fail(&r->e, w, "[%s] %s: %s", section, key, msg);
}

/* An integer key into *out; message on error. */
static int get_int(struct scenario_reader *r, struct ik_ini_where w, const char *section,
		   const char *key, const char *value, int64_t min, int64_t max, int64_t *out)
{
	char msg[256];
	if (ik__ini_int(value, min, max, false, out, msg, sizeof(msg)) != 0)
		return bad(r, w, section, key, msg);
	return 0;
}

static int get_enum(struct scenario_reader *r, struct ik_ini_where w, const char *section,
		    const char *key, const char *value, const char *const *names, int n, int *out)
{
	char msg[400];
	if (ik__ini_enum(value, names, n, out, msg, sizeof(msg)) != 0)
		return bad(r, w, section, key, msg);
	return 0;
}

static int set_scenario(struct scenario_reader *r, int k, const char *value, struct ik_ini_where w)
{
	struct ik_scenario *sc = r->sc;
	const char *sec = "scenario", *key = scenario_key_names(SEC_SCENARIO)[k];
	char msg[256], description[256];
	int64_t v;

	switch (k) {
	case SC_NAME:
		if (ik__ini_text(value, sizeof(sc->name), true, sc->name, msg, sizeof(msg)))
			return bad(r, w, sec, key, msg);
		return 0;
	case SC_DESCRIPTION: /* for people reading the file; checked, not kept */
		if (ik__ini_text(value, sizeof(description), false, description, msg, sizeof(msg)))
			return bad(r, w, sec, key, msg);
		return 0;
	case SC_PLATFORM:
		if (ik__ini_text(value, sizeof(sc->platform_ref), false, sc->platform_ref, msg, sizeof(msg)))
			return bad(r, w, sec, key, msg);
		if (sc->platform_ref[0] == '\0')
			return bad(r, w, sec, key, "expected a built-in platform name or a path to an "
				   ".ini file, got ''");
		return 0;
	case SC_DURATION_MS:
		if (get_int(r, w, sec, key, value, 1, MAX_MS, &v))
			return -1;
		sc->duration_ns = v * IK_NSEC_PER_MSEC;
		return 0;
	case SC_WARMUP_MS:
		if (get_int(r, w, sec, key, value, 0, MAX_MS, &v))
			return -1;
		sc->warmup_ns = v * IK_NSEC_PER_MSEC;
		return 0;
	case SC_RUNS:
		if (get_int(r, w, sec, key, value, 1, 1000, &v))
			return -1;
		sc->runs = (int)v;
		return 0;
	case SC_SEED:
		if (ik__ini_u64(value, &sc->seed, msg, sizeof(msg)))
			return bad(r, w, sec, key, msg);
		return 0;
	}
	return bad(r, w, sec, key, "internal error");
}

static int set_kernel(struct scenario_reader *r, int k, const char *value, struct ik_ini_where w)
{
	struct ik_scenario *sc = r->sc;
	const char *sec = "kernel", *key = scenario_key_names(SEC_KERNEL)[k];
	char msg[256], shown[80];
	int64_t v;

	switch (k) {
	case KN_HZ:
		if (ik__ini_int(value, 100, 1000, false, &v, msg, sizeof(msg)) != 0 ||
		    (v != 100 && v != 250 && v != 300 && v != 1000)) {
			snprintf(msg, sizeof(msg), "expected one of: 100 250 300 1000, got '%s'",
				 ik__ini_shown(value, shown, sizeof(shown)));
			return bad(r, w, sec, key, msg);
		}
		sc->hz = (int)v;
		return 0;
	case KN_LATENCY_LIMIT_US:
		if (strcmp(value, "none") == 0) {
			sc->latency_limit_us = -1;
			return 0;
		}
		if (ik__ini_int(value, 0, MAX_LATENCY_LIMIT_US, false, &v, msg, sizeof(msg)) != 0) {
			snprintf(msg, sizeof(msg), "expected 'none' or an integer 0..%lld, got '%s'",
				 MAX_LATENCY_LIMIT_US, ik__ini_shown(value, shown, sizeof(shown)));
			return bad(r, w, sec, key, msg);
		}
		sc->latency_limit_us = v;
		return 0;
	case KN_HOUSEKEEPING_HZ:
		if (ik__ini_real(value, 0.0, 100000.0, &sc->housekeeping_hz, msg, sizeof(msg)))
			return bad(r, w, sec, key, msg);
		return 0;
	case KN_HOUSEKEEPING_WORK_NS:
		return get_int(r, w, sec, key, value, 0, MAX_WORK_NS, &sc->housekeeping_work_ns);
	case KN_VERSION: {
		unsigned release;
		if (ik_kernel_parse_release(value, &release, msg, sizeof(msg)))
			return bad(r, w, sec, key, msg);
		ik_kernel_set_release(&sc->kernel, release); /* switches flipped so far stay */
		return 0;
	}
	}
	return bad(r, w, sec, key, "internal error");
}

/*
 * "disable = C2, C3": state names, comma or space separated, a name with a space in double
 * quotes ("haltpoll idle"); checked against the driver's table later.
 */
static int set_disable(struct scenario_reader *r, const char *value, struct ik_ini_where w)
{
	struct ik_scenario *sc = r->sc;
	const char *p = value;
	char msg[256], shown[80];
	int n = 0;

	while (*p) {
		p += strspn(p, ", \t");
		bool quoted = *p == '"'; /* "haltpoll idle": a name with a space */
		if (quoted)
			p++;
		size_t len = quoted ? strcspn(p, "\"") : strcspn(p, ", \t");
		if (quoted && p[len] != '"') {
			snprintf(msg, sizeof(msg), "expected a closing '\"' after '%s'",
				 ik__ini_shown(p - 1, shown, sizeof(shown)));
			return bad(r, w, "cpuidle", "disable", msg);
		}
		if (len == 0 && !quoted)
			break;
		if (len >= IK_NAME_LEN) {
			char tok[80];
			snprintf(tok, sizeof(tok), "%.*s", (int)(len < 79 ? len : 79), p);
			snprintf(msg, sizeof(msg), "expected state names of at most %d characters, got '%s'",
				 IK_NAME_LEN - 1, ik__ini_shown(tok, shown, sizeof(shown)));
			return bad(r, w, "cpuidle", "disable", msg);
		}
		bool repeated = false;
		for (int i = 0; i < n; i++)
			if (strlen(sc->disabled[i]) == len && memcmp(sc->disabled[i], p, len) == 0)
				repeated = true;
		if (!repeated) {
			if (n == IK_MAX_DISABLED) {
				snprintf(msg, sizeof(msg), "expected at most %d state names", IK_MAX_DISABLED);
				return bad(r, w, "cpuidle", "disable", msg);
			}
			memcpy(sc->disabled[n], p, len);
			sc->disabled[n][len] = '\0';
			n++;
		}
		p += len + (quoted ? 1 : 0);
	}
	sc->ndisabled = n;
	return 0;
}

static int get_bool(struct scenario_reader *r, struct ik_ini_where w, const char *key,
		    const char *value, bool *out)
{
	char msg[256];
	if (ik__ini_bool(value, out, msg, sizeof(msg)) != 0)
		return bad(r, w, "cpuidle", key, msg);
	return 0;
}

/* The driver options: the kernel parameters they stand for are in scenario.h. */
static int set_driver_option(struct scenario_reader *r, int k, const char *value,
			     struct ik_ini_where w)
{
	struct ik_driver_options *o = &r->sc->opt;
	const char *sec = "cpuidle", *key = scenario_key_names(SEC_CPUIDLE)[k];
	char msg[256], shown[80];
	int64_t v;
	int idx;

	switch (k) {
	case CI_LATENCY_FACTOR:
		if (get_int(r, w, sec, key, value, 0, 1000, &v))
			return -1;
		o->latency_factor = (int)v;
		return 0;
	case CI_MAX_CSTATE:
		if (strcmp(value, "default") == 0) {
			o->max_cstate = -1;
			return 0;
		}
		if (ik__ini_int(value, 0, 100, false, &v, NULL, 0) != 0) {
			snprintf(msg, sizeof(msg), "expected 'default' or an integer 0..100, got '%s'",
				 ik__ini_shown(value, shown, sizeof(shown)));
			return bad(r, w, sec, key, msg);
		}
		o->max_cstate = (int)v;
		return 0;
	case CI_NOCST:
		return get_bool(r, w, key, value, &o->nocst);
	case CI_BM_CHECK_DISABLE:
		return get_bool(r, w, key, value, &o->bm_check_disable);
	case CI_DUMMY_WAIT:
		if (get_enum(r, w, sec, key, value, scenario_dummy_waits, 4, &idx))
			return -1;
		o->dummy_wait = (enum ik_dummy_wait)idx;
		return 0;
	case CI_USE_ACPI: {
		static const char *const names[] = { "default", "yes", "no" };
		if (get_enum(r, w, sec, key, value, names, 3, &idx))
			return -1;
		o->use_acpi = idx == 0 ? -1 : idx == 1 ? 1 : 0;
		return 0;
	}
	case CI_CST_FALLBACK:
		if (get_enum(r, w, sec, key, value, scenario_cst_fallbacks, 2, &idx))
			return -1;
		o->cst_fallback = (enum ik_cst_fallback)idx;
		return 0;
	case CI_PC6:
		if (get_enum(r, w, sec, key, value, scenario_pc6_values, 3, &idx))
			return -1;
		o->pc6 = idx - 1;
		return 0;
	case CI_STATES_OFF:
		if (ik__ini_int(value, 0, (1 << IK_STATE_MAX) - 1, true, &v, msg, sizeof(msg)) != 0)
			return bad(r, w, sec, key, msg);
		o->states_off = (uint32_t)v;
		return 0;
	case CI_FORCED_WAKEUP: {
		static const char *const names[] = { "off", "on" };
		if (get_enum(r, w, sec, key, value, names, 2, &idx))
			return -1;
		o->forced_wakeup = idx == 1;
		return 0;
	}
	case CI_IDLE:
		if (get_enum(r, w, sec, key, value, scenario_idle_options, 4, &idx))
			return -1;
		o->idle = (enum ik_idle_option)idx;
		return 0;
	case CI_PREFER_MWAIT:
		if (get_enum(r, w, sec, key, value, scenario_prefer_mwaits, 2, &idx))
			return -1;
		o->prefer_mwait = (enum ik_prefer_mwait)idx;
		return 0;
	case CI_HALTPOLL_FORCE:
		return get_bool(r, w, key, value, &o->haltpoll_force);
	}
	return bad(r, w, sec, key, "internal error");
}

static int set_cpuidle(struct scenario_reader *r, int k, const char *value, struct ik_ini_where w)
{
	struct ik_scenario *sc = r->sc;
	const char *sec = "cpuidle", *key = scenario_key_names(SEC_CPUIDLE)[k];
	int idx;

	switch (k) {
	case CI_DRIVER:
		if (get_enum(r, w, sec, key, value, scenario_drivers, SCENARIO_NDRIVERS, &idx))
			return -1;
		snprintf(sc->driver, sizeof(sc->driver), "%s", scenario_drivers[idx]);
		return 0;
	case CI_GOVERNOR: {
		char gerr[300];
		if (strlen(value) >= sizeof(sc->governor))
			return bad(r, w, sec, key, "longer than 4095 characters");
		if (ik__governor_spec_check(value, gerr, sizeof(gerr)) ||
		    ik__governor_spec_sha256(value, sc->governor_sha256, gerr, sizeof(gerr)))
			return bad(r, w, sec, key, gerr);
		snprintf(sc->governor, sizeof(sc->governor), "%s", value);
		ik__governor_spec_api(value, sc->governor_api, sizeof(sc->governor_api));
		return 0;
	}
	case CI_DISABLE:
		return set_disable(r, value, w);
	default:
		return set_driver_option(r, k, value, w);
	}
}

/* "cpus = 0, 64, 3": a list of CPUs, in task order (checked against the platform later). */
static int set_workload(struct scenario_reader *r, int k, const char *value, struct ik_ini_where w)
{
	char msg[400];

	if (ik__workload_key_set(&r->sc->workload, (enum workload_key)k, value, msg, sizeof(msg)) != 0)
		return bad(r, w, "workload", ik__workload_key_names()[k], msg);
	return 0;
}

static int unknown_section(struct scenario_reader *r, struct ik_ini_where w, const char *name,
			   bool with_platform)
{
	char shown[80];
	return ik__ini_fail(&r->e, w, "unknown section [%s]; known sections: scenario kernel "
			   "cpuidle workload governor%s", ik__ini_shown(name, shown, sizeof(shown)),
			   with_platform ? " " IK_PLATFORM_SECTIONS : "");
}

/*
 * [governor] NAME = VALUE: a module parameter of the governor, checked when the governor is
 * loaded (only then are its parameters known); a later setting of a name wins.
 */
static int set_governor_param(struct scenario_reader *r, const char *key, const char *value,
			      struct ik_ini_where w)
{
	struct ik_scenario *sc = r->sc;
	char shown[80];
	int i;

	if (strlen(key) >= sizeof(sc->gov_params[0].name) || !key[0])
		return bad(r, w, "governor", ik__ini_shown(key, shown, sizeof(shown)),
			   "expected a module parameter name of at most 63 characters");
	if (strlen(value) >= sizeof(sc->gov_params[0].value))
		return bad(r, w, "governor", key, "value longer than 127 characters");
	for (i = 0; i < sc->ngov_params; i++)
		if (strcmp(sc->gov_params[i].name, key) == 0)
			break;
	if (i == (int)(sizeof(sc->gov_params) / sizeof(sc->gov_params[0])))
		return bad(r, w, "governor", key, "more than 32 governor parameters");
	if (i == sc->ngov_params)
		sc->ngov_params++;
	snprintf(sc->gov_params[i].name, sizeof(sc->gov_params[i].name), "%s", key);
	snprintf(sc->gov_params[i].value, sizeof(sc->gov_params[i].value), "%s", value);
	return 0;
}

static int set_key(struct scenario_reader *r, const char *section, const char *key,
		   const char *value, struct ik_ini_where w)
{
	char list[512], shown[80];

	if (section[0] == '\0')
		return ik__ini_fail(&r->e, w, "key '%s' is outside any section; scenario files have "
				   "[scenario], [kernel], [cpuidle] and [workload]",
				   ik__ini_shown(key, shown, sizeof(shown)));
	int s = section_index(section);
	if (s < 0)
		return unknown_section(r, w, section, w.override != NULL);
	if (s == SEC_GOVERNOR) {
		if (set_governor_param(r, key, value, w))
			return -1;
		char msg[160];
		if (r->cfg && ik__config_give(r->cfg, section, key, value,
					     w.override ? IK_ORIGIN_SET : IK_ORIGIN_SCENARIO, msg,
					     sizeof(msg)))
			return bad(r, w, section, key, msg);
		return 0;
	}
	if (s == SEC_KERNEL && strncmp(key, KERNEL_SWITCH_PREFIX, strlen(KERNEL_SWITCH_PREFIX)) == 0) {
		char msg[1400];
		if (ik_kernel_flip(&r->sc->kernel, key + strlen(KERNEL_SWITCH_PREFIX), value, msg,
				   sizeof(msg)))
			return bad(r, w, "kernel", key, msg);
		if (r->cfg && ik__config_give(r->cfg, section, key, value,
					     w.override ? IK_ORIGIN_SET : IK_ORIGIN_SCENARIO, msg,
					     sizeof(msg)))
			return bad(r, w, section, key, msg);
		return 0;
	}
	int k = ik__ini_key_index(key, scenario_key_names(s), scenario_key_count(s));
	if (k < 0)
		return ik__ini_fail(&r->e, w, "unknown key '%s' in [%s]; known keys: %s",
				   ik__ini_shown(key, shown, sizeof(shown)), section,
				   ik__ini_join(scenario_key_names(s), scenario_key_count(s), list,
					       sizeof(list)));
	if (!r->sec[s].present) {
		r->sec[s].present = true;
		r->sec[s].where = w;
	}
	if (ik__ini_mark_key(&r->e, &r->sec[s], section, k, key, w) != 0)
		return -1;
	int ret;
	switch (s) {
	case SEC_SCENARIO:
		ret = set_scenario(r, k, value, w);
		break;
	case SEC_KERNEL:
		ret = set_kernel(r, k, value, w);
		break;
	case SEC_CPUIDLE:
		ret = set_cpuidle(r, k, value, w);
		break;
	default:
		ret = set_workload(r, k, value, w);
		break;
	}
	if (ret == 0 && r->cfg) {
		char msg[160];
		if (ik__config_give(r->cfg, section, key, value,
				   w.override ? IK_ORIGIN_SET : IK_ORIGIN_SCENARIO, msg, sizeof(msg)))
			return bad(r, w, section, key, msg);
	}
	return ret;
}

/*
 * "[platform]", "[state2]", ... in a scenario file: keys applied to its platform after the
 * platform file and before any --set (what --print-config writes).  Checked now, kept for
 * then.
 */
static int keep_platform_key(struct scenario_reader *r, const char *section, const char *key,
			     const char *value, int line)
{
	char msg[500];
	struct ik_ini_where w = { line, NULL, NULL };

	if (ik__platform_check_key(section, key, msg, sizeof(msg)) != 0)
		return ik__ini_fail(&r->e, w, "%s", msg);
	for (int i = 0; i < r->npkeys; i++)
		if (strcmp(r->pkeys[i].section, section) == 0 && strcmp(r->pkeys[i].key, key) == 0)
			return ik__ini_fail(&r->e, w, "[%s] %s: duplicate key (first set on line %d)",
					   section, key, r->pkeys[i].line);
	if (r->npkeys == r->pkeys_cap) {
		int cap = r->pkeys_cap ? 2 * r->pkeys_cap : 32;
		struct platform_key *k = realloc(r->pkeys, (size_t)cap * sizeof(*k));
		if (!k)
			return ik__ini_fail(&r->e, w, "out of memory");
		r->pkeys = k;
		r->pkeys_cap = cap;
	}
	size_t ls = strlen(section) + 1, lk = strlen(key) + 1, lv = strlen(value) + 1;
	char *block = malloc(ls + lk + lv);
	if (!block)
		return ik__ini_fail(&r->e, w, "out of memory");
	struct platform_key *k = &r->pkeys[r->npkeys++];
	k->section = memcpy(block, section, ls);
	k->key = memcpy(block + ls, key, lk);
	k->value = memcpy(block + ls + lk, value, lv);
	k->line = line;
	return 0;
}

/*
 * "[origin]" of a printed configuration: "kernel.hz = default #TAG", where each value came
 * from before it was printed (config/config.h).
 */
static int carry_origin(struct scenario_reader *r, const char *name, const char *value, int line)
{
	char section[IK_CONFIG_SECTION_LEN], msg[500], shown[80];
	struct ik_ini_where w = { line, NULL, NULL };
	const char *dot = strchr(name, '.');
	size_t n = dot ? (size_t)(dot - name) : 0;

	if (!dot || n == 0 || n >= sizeof(section))
		return ik__ini_fail(&r->e, w, "[origin] %s: expected SECTION.KEY",
				   ik__ini_shown(name, shown, sizeof(shown)));
	memcpy(section, name, n);
	section[n] = '\0';
	const char *key = dot + 1;
	int s = section_index(section);
	if (s >= 0) {
		/* [governor] has no fixed keys: its module parameters are the governor's own */
		if (s != SEC_GOVERNOR &&
		    !(s == SEC_KERNEL && strncmp(key, KERNEL_SWITCH_PREFIX,
						 strlen(KERNEL_SWITCH_PREFIX)) == 0) &&
		    ik__ini_key_index(key, scenario_key_names(s), scenario_key_count(s)) < 0)
			return ik__ini_fail(&r->e, w, "[origin] %s: no key '%s' in [%s]",
					   ik__ini_shown(name, shown, sizeof(shown)),
					   ik__ini_shown(key, msg, sizeof(msg)), section);
	} else if (!ik__platform_section(section)) {
		return ik__ini_fail(&r->e, w, "[origin] %s: unknown section [%s]",
				   ik__ini_shown(name, shown, sizeof(shown)), section);
	} else if (ik__platform_check_key(section, key, msg, sizeof(msg)) != 0) {
		return ik__ini_fail(&r->e, w, "[origin] %s", msg);
	}
	if (ik__config_carry(r->cfg, section, key, value, msg, sizeof(msg)) != 0)
		return ik__ini_fail(&r->e, w, "[origin] %s: %s", ik__ini_shown(name, shown, sizeof(shown)),
				   msg);
	return 0;
}

static int on_section(void *user, const char *name, int line)
{
	struct scenario_reader *r = user;
	struct ik_ini_where w = { line, NULL, NULL };
	int s = section_index(name);

	if (s < 0 && (ik__platform_section(name) || strcmp(name, "origin") == 0))
		return 0; /* keys checked one by one (keep_platform_key, carry_origin) */
	if (s < 0)
		return unknown_section(r, w, name, true);
	if (r->sec[s].present)
		return ik__ini_fail(&r->e, w, "duplicate section [%s] (first on line %d)", name,
				   r->sec[s].where.line);
	r->sec[s].present = true;
	r->sec[s].where = w;
	return 0;
}

static int on_key(void *user, const char *section, const char *key, const char *value, int line)
{
	struct scenario_reader *r = user;

	if (section_index(section) < 0 && ik__platform_section(section))
		return keep_platform_key(r, section, key, value, line);
	if (strcmp(section, "origin") == 0)
		return carry_origin(r, key, value, line);
	return set_key(r, section, key, value, (struct ik_ini_where){ line, NULL, NULL });
}

/*
 * Overrides, first pass: scenario sections are applied now; platform ones are only checked
 * (section and key exist) so that every "unknown key" is reported in order.
 */
static int apply_scenario_overrides(struct scenario_reader *r, const char *const *ov, int n)
{
	for (int i = 0; i < n; i++) {
		char *storage, *section, *key, *value, msg[400];
		struct ik_ini_where w = { 0, ov[i], NULL };

		if (ik__ini_split_override(ov[i], &storage, &section, &key, &value, r->e.buf,
					  r->e.len) != 0)
			return -1;
		int ret;
		if (section_index(section) >= 0)
			ret = set_key(r, section, key, value, w);
		else if (!ik__platform_section(section))
			ret = unknown_section(r, w, section, true);
		else if (ik__platform_check_key(section, key, msg, sizeof(msg)) != 0)
			ret = ik__ini_fail(&r->e, w, "%s", msg);
		else
			ret = 0;
		free(storage);
		if (ret)
			return -1;
	}
	return 0;
}

static int apply_platform_overrides(struct ik_platform_reader *pr, const char *const *ov, int n)
{
	for (int i = 0; i < n; i++) {
		char *storage, *section, *key, *value;

		if (ik__ini_split_override(ov[i], &storage, &section, &key, &value, pr->e.buf,
					  pr->e.len) != 0)
			return -1;
		int ret = 0;
		if (ik__platform_section(section))
			ret = ik__platform_reader_set(pr, section, key, value,
						     (struct ik_ini_where){ 0, ov[i], NULL });
		free(storage);
		if (ret)
			return -1;
	}
	return 0;
}

static struct ik_ini_where where_of(const struct scenario_reader *r, int s, int k)
{
	const struct ik_ini_section *sec = &r->sec[s];
	return sec->set[k] ? sec->key_where[k] : sec->where;
}

static int load_platform(struct scenario_reader *r, const char *const *ov, int n)
{
	struct ik_scenario *sc = r->sc;
	struct ik_platform_text t;
	char msg[IK_ERR_LEN];

	if (ik__platform_find(sc->platform_ref, r->base_dir[0] ? r->base_dir : NULL, &t, msg,
			     sizeof(msg)) != 0)
		return ik__ini_fail(&r->e, where_of(r, SEC_SCENARIO, SC_PLATFORM),
				   "[scenario] platform: %s", msg);
	/* A path found beside the scenario is recorded as the path that opened it, so that a
	   printed configuration run from the same directory finds it wherever it is saved. */
	const struct ik_config_entry *given = ik__config_given(r->cfg, "scenario", "platform");
	if (t.owned && given && strcmp(t.origin, sc->platform_ref) != 0 &&
	    ik__config_give(r->cfg, "scenario", "platform", t.origin, given->origin, msg,
			   sizeof(msg)) != 0) {
		ik__platform_text_free(&t);
		return ik__ini_fail(&r->e, where_of(r, SEC_SCENARIO, SC_PLATFORM),
				   "[scenario] platform: %s", msg);
	}
	struct ik_platform_reader *pr = malloc(sizeof(*pr));
	if (!pr) {
		ik__platform_text_free(&t);
		return ik__ini_fail(&r->e, (struct ik_ini_where){ 0, NULL, NULL }, "out of memory");
	}
	ik__platform_reader_init(pr, t.origin, &sc->platform, r->e.buf, r->e.len);
	pr->cfg = r->cfg;
	r->pr = pr;
	int ret = ik__platform_reader_parse(pr, t.text);
	/* The scenario's own platform keys, then the overrides. */
	for (int i = 0; i < r->npkeys && ret == 0; i++)
		ret = ik__platform_reader_set(pr, r->pkeys[i].section, r->pkeys[i].key,
					     r->pkeys[i].value,
					     (struct ik_ini_where){ r->pkeys[i].line, NULL, r->origin });
	if (ret == 0)
		ret = apply_platform_overrides(pr, ov, n);
	if (ret == 0)
		ret = ik__platform_reader_finish(pr);
	/* messages about the platform now name the platform file again */
	ik__platform_text_free(&t);
	return ret;
}

/*
 * The driver: "auto" becomes the one the kernel would load; the driver must load on this
 * platform; its governor wins unless the scenario names one; and every state the scenario
 * disables must be in its table.
 */
static int check_driver(struct scenario_reader *r)
{
	struct ik_scenario *sc = r->sc;
	const struct ik_platform *p = &sc->platform;
	struct ik_ini_where w = r->sec[SEC_CPUIDLE].set[CI_DRIVER] ? where_of(r, SEC_CPUIDLE, CI_DRIVER)
		: r->sec[SEC_CPUIDLE].present ? r->sec[SEC_CPUIDLE].where
					      : r->sec[SEC_SCENARIO].where;
	char msg[IK_ERR_LEN];

	/* the driver the kernel would load, for reports that run another one (the table) */
	char given[sizeof(sc->driver)];
	memcpy(given, sc->driver, sizeof(given));
	snprintf(sc->driver, sizeof(sc->driver), "auto");
	ik__idle_driver_resolve(sc);
	memcpy(sc->kernel_driver, sc->driver, sizeof(sc->kernel_driver));
	memcpy(sc->driver, given, sizeof(sc->driver));
	ik__idle_driver_resolve(sc);
	struct ik_driver_binding *b = &sc->driver_probed;
	if (ik__idle_driver_probe(sc, b, msg, sizeof(msg)) != 0) {
		return ik__ini_fail(&r->e, w, "[cpuidle] driver: %s%s does not load on platform %s: %s",
				   sc->driver, r->sec[SEC_CPUIDLE].set[CI_DRIVER] ? ""
				   : p->os.driver[0] ? " (the platform's [os] driver)" : " (the default)",
				   p->name, msg);
	}
	if (b->ops->governor && !r->sec[SEC_CPUIDLE].set[CI_GOVERNOR] && !r->governor_named) {
		snprintf(sc->governor, sizeof(sc->governor), "%s", b->ops->governor);
		r->governor_derived = true;
	}
	const struct ik_driver *drv = &b->table;
	int ret = 0;
	for (int i = 0; i < sc->ndisabled && ret == 0; i++) {
		bool found = false;
		for (int s = 0; s < drv->state_count; s++)
			if (strcmp(drv->states[s].name, sc->disabled[i]) == 0)
				found = true;
		if (!found) {
			char names[IK_STATE_MAX * IK_NAME_LEN + 16];
			size_t len = 0;
			names[0] = '\0';
			for (int s = 0; s < drv->state_count; s++)
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
							s ? " " : "", drv->states[s].name);
			ret = ik__ini_fail(&r->e, where_of(r, SEC_CPUIDLE, CI_DISABLE),
					  "[cpuidle] disable: no state named '%s' in platform %s; "
					  "its states: %s (driver %s)", sc->disabled[i], p->name, names,
					  drv->name);
		}
	}
	return ret;
}

/* Was this [workload] key given (in the file or by an override)? */
static bool workload_key_given(const void *user, const char *key)
{
	const struct scenario_reader *r = user;
	int k = ik__ini_key_index(key, ik__workload_key_names(), WL_COUNT);

	return k >= 0 && r->sec[SEC_WORKLOAD].set[k];
}

/*
 * The workload's settings against the platform: the workload's own checks
 * (ik__workload_check), the message placed at the key it is about.
 */
static int check_workload(struct scenario_reader *r)
{
	struct ik_workload_check c = {
		.platform = &r->sc->platform, .base_dir = r->base_dir,
		.given = workload_key_given, .user = r,
	};

	if (ik__workload_check(&r->sc->workload, &c) == 0) {
		memcpy(r->sc->workload_notes, c.notes, sizeof(r->sc->workload_notes));
		return 0;
	}
	int k = c.key ? ik__ini_key_index(c.key, ik__workload_key_names(), WL_COUNT) : -1;
	return ik__ini_fail(&r->e, where_of(r, SEC_WORKLOAD, k >= 0 ? k : WL_TYPE), "%s", c.msg);
}

/*
 * dummy_wait, prefer_mwait and cst_fallback not given: as kernel.version and its switches
 * say (the options are the driver behaviours those switches name; a given option wins).
 */
static void release_defaults(struct scenario_reader *r)
{
	struct ik_driver_options *o = &r->sc->opt;
	const struct ik_kernel *k = ik_kernel_or_default(&r->sc->kernel);
	const bool *set = r->sec[SEC_CPUIDLE].set;

	if (!set[CI_DUMMY_WAIT])
		o->dummy_wait = ik_kernel_has(k, IK_SW_ACPI_IDLE_DUMMY_WAIT_ZEN)     ? IK_DUMMY_WAIT_SKIP_ON_ZEN
				: ik_kernel_has(k, IK_SW_ACPI_IDLE_DUMMY_WAIT_INTEL) ? IK_DUMMY_WAIT_INTEL_ONLY
				: ik_kernel_has(k, IK_SW_ACPI_IDLE_DUMMY_WAIT_GUEST) ? IK_DUMMY_WAIT_NOT_IN_GUEST
										     : IK_DUMMY_WAIT_ALWAYS;
	if (!set[CI_PREFER_MWAIT])
		o->prefer_mwait = ik_kernel_has(k, IK_SW_X86_PREFER_MWAIT_CPUID) ? IK_PREFER_MWAIT_CPUID
										 : IK_PREFER_MWAIT_VENDOR;
	if (!set[CI_CST_FALLBACK])
		o->cst_fallback = ik_kernel_has(k, IK_SW_INTEL_IDLE_CST_NEEDS_CONTROL)
					  ? IK_CST_FALLBACK_FIXED
					  : IK_CST_FALLBACK_LEGACY;
}

/* The governor must exist in the release, and what it depends on must be modelled. */
static int check_kernel(struct scenario_reader *r)
{
	char msg[IK_ERR_LEN];

	if (ik_kernel_check(&r->sc->kernel, r->sc->governor, msg, sizeof(msg)) == 0)
		return 0;
	struct ik_ini_where w = r->sec[SEC_KERNEL].set[KN_VERSION] ? where_of(r, SEC_KERNEL, KN_VERSION)
				: r->sec[SEC_KERNEL].present ? r->sec[SEC_KERNEL].where
							     : r->sec[SEC_SCENARIO].where;
	return ik__ini_fail(&r->e, w, "[kernel] version: %s", msg);
}

static int finish(struct scenario_reader *r, const char *const *ov, int n)
{
	static const int required[] = { SC_NAME, SC_PLATFORM };

	if (!r->sec[SEC_SCENARIO].present)
		return ik__ini_fail(&r->e, (struct ik_ini_where){ 0, NULL, NULL },
				   "missing section [scenario] (with at least name and platform)");
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!r->sec[SEC_SCENARIO].set[required[i]])
			return ik__ini_fail(&r->e, r->sec[SEC_SCENARIO].where,
					   "[scenario]: missing required key '%s'",
					   scenario_key_names(SEC_SCENARIO)[required[i]]);
	if (load_platform(r, ov, n))
		return -1;
	/* a platform made from a real machine runs its driver and governor unless told */
	const bool *ci = r->sec[SEC_CPUIDLE].set;
	const bool given[4] = { ci[CI_DRIVER], ci[CI_GOVERNOR], ci[CI_HALTPOLL_FORCE],
				r->sec[SEC_KERNEL].set[KN_HOUSEKEEPING_HZ] };
	char msg[IK_ERR_LEN];
	struct ik_ini_where nowhere = { 0, NULL, NULL };
	if (ik__platform_os_defaults(&r->sc->platform, given, r->sc, r->cfg, &r->governor_named, msg,
				    sizeof(msg)))
		return ik__ini_fail(&r->e, nowhere, "%s", msg);
	release_defaults(r);
	if (check_driver(r) || check_workload(r))
		return -1;
	if (ik__platform_os_params(&r->sc->platform, r->sc, r->cfg, msg, sizeof(msg)))
		return ik__ini_fail(&r->e, nowhere, "%s", msg);
	return check_kernel(r);
}

static int parse(const char *origin, bool from_file, const char *text,
		 const char *const *overrides, int noverrides, struct ik_scenario *sc,
		 struct ik_config *cfg, char *err, size_t errlen)
{
	static const struct ik_ini_callbacks cb = { on_section, on_key };

	if (noverrides < 0 || (noverrides > 0 && !overrides))
		noverrides = 0;
	struct scenario_reader *r = malloc(sizeof(*r));
	if (!r)
		return ik__errmsg(err, errlen, "%s: out of memory", origin ? origin : "<scenario>");
	reader_init(r, origin, from_file, sc, err, errlen);
	if (cfg)
		memset(cfg, 0, sizeof(*cfg));
	r->cfg = cfg;
	int ret = ik__ini_parse_text(&r->e, text, &cb, r);
	if (ret == 0)
		ret = apply_scenario_overrides(r, overrides, noverrides);
	if (ret == 0)
		ret = finish(r, overrides, noverrides);
	if (ret == 0 && cfg) {
		ret = scenario_effective_config(r->cfg, r->sc, r->governor_derived);
		if (ret == 0)
			ret = ik__platform_reader_config(r->pr);
		if (ret != 0)
			ik__ini_fail(&r->e, (struct ik_ini_where){ 0, NULL, NULL },
				    "more keys than the configuration holds (%d)", IK_CONFIG_MAX);
		sc->config = cfg;
	}
	for (int i = 0; i < r->npkeys; i++)
		free(r->pkeys[i].section);
	free(r->pkeys);
	free(r->pr);
	free(r);
	return ret;
}

int ik__scenario_parse_string(const char *origin, const char *text, const char *const *overrides,
			     int noverrides, struct ik_scenario *sc, char *err, size_t errlen)
{
	return parse(origin, true, text, overrides, noverrides, sc, NULL, err, errlen);
}

int ik__scenario_parse_string_config(const char *origin, const char *text,
				    const char *const *overrides, int noverrides,
				    struct ik_scenario *sc, struct ik_config *cfg, char *err,
				    size_t errlen)
{
	return parse(origin, true, text, overrides, noverrides, sc, cfg, err, errlen);
}

int ik__scenario_load(const char *ref, const char *const *overrides, int noverrides,
		     struct ik_scenario *sc, char *err, size_t errlen)
{
	return ik__scenario_load_config(ref, overrides, noverrides, sc, NULL, err, errlen);
}

int ik__scenario_load_config(const char *ref, const char *const *overrides, int noverrides,
			    struct ik_scenario *sc, struct ik_config *cfg, char *err,
			    size_t errlen)
{
	char origin[IK_PLATFORM_ORIGIN_LEN];
	size_t n = ref ? strlen(ref) : 0;

	if (!ref || !*ref)
		return ik__errmsg(err, errlen, "expected a built-in scenario name or a path to an "
				  ".ini file, got ''");
	if (strchr(ref, '/') || (n >= 4 && strcmp(ref + n - 4, ".ini") == 0)) {
		char *text;
		if (ik__ini_read_file(ref, &text, err, errlen, NULL) != 0)
			return -1;
		int ret = parse(ref, true, text, overrides, noverrides, sc, cfg, err, errlen);
		free(text);
		return ret;
	}
	for (const struct ik_builtin *b = ik__builtin_scenarios; b->name; b++) {
		if (strcmp(b->name, ref) == 0) {
			snprintf(origin, sizeof(origin), "%s.ini (built-in)", b->name);
			return parse(origin, false, b->text, overrides, noverrides, sc, cfg, err, errlen);
		}
	}
	return ik__ini_unknown_builtin(ik__builtin_scenarios, "scenario", ref, err, errlen);
}
