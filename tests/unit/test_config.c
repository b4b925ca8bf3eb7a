/*
 * The effective configuration (config/config.h): every key a reader accepts is recorded,
 * with the right origin; an override of any section changes the record; the printed
 * configuration reads back to the same scenario and the same record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "config/scenario.h"

static struct ik_scenario sc, sc2; /* large: off the stack */

#define HEAD "[scenario]\nname = t\nplatform = amd-zen3\n"

static struct ik_config *load(const char *text, const char *const *ov, int n)
{
	char err[IK_ERR_LEN] = "";
	struct ik_config *cfg = ik__config_new();
	assert_non_null(cfg);
	if (ik__scenario_parse_string_config("s.ini", text, ov, n, &sc, cfg, err, sizeof(err)))
		fail_msg("%s", err);
	assert_ptr_equal(sc.config, cfg);
	return cfg;
}

/* The keys the reader itself lists for `section` (from its "unknown key" message). */
static void known_keys(const char *section, char *list, size_t len)
{
	char err[IK_ERR_LEN] = "", ov[64];
	snprintf(ov, sizeof(ov), "%s.no_such_key=1", section);
	const char *ovs[] = { ov };
	assert_int_equal(ik__scenario_parse_string("s.ini", HEAD, ovs, 1, &sc, err, sizeof(err)), -1);
	const char *p = strstr(err, "known keys: ");
	if (!p)
		fail_msg("no key list in '%s'", err);
	snprintf(list, len, "%s", p + strlen("known keys: "));
}

static void every_key_is_recorded(void **state)
{
	(void)state;
	static const char *const sections[] = { "scenario", "kernel", "cpuidle", "workload",
						"platform", "state0", "cpuid", "acpi",
						"intel_idle", "effects" };
	struct ik_config *cfg = load(HEAD, NULL, 0);
	for (size_t s = 0; s < sizeof(sections) / sizeof(sections[0]); s++) {
		char list[600];
		known_keys(sections[s], list, sizeof(list));
		int n = 0;
		for (char *key = strtok(list, " "); key; key = strtok(NULL, " "), n++)
			if (!ik__config_find(cfg, sections[s], key))
				fail_msg("[%s] %s: not in the configuration", sections[s], key);
		assert_true(n >= 2);
	}
	ik__config_free(cfg);
}

static void origins(void **state)
{
	(void)state;
	const char *ov[] = { "kernel.hz=1000", "state1.latency_us=2" };
	struct ik_config *cfg = load(HEAD "[workload]\ntype = idle\n[state2]\npower_mw = 5\n", ov, 2);
	const struct ik_config_entry *e;

	e = ik__config_find(cfg, "scenario", "name");
	assert_string_equal(e->value, "t");
	assert_int_equal(e->origin, IK_ORIGIN_SCENARIO);
	e = ik__config_find(cfg, "kernel", "hz");
	assert_string_equal(e->value, "1000");
	assert_int_equal(e->origin, IK_ORIGIN_SET);
	e = ik__config_find(cfg, "kernel", "latency_limit_us");
	assert_string_equal(e->value, "none");
	assert_int_equal(e->origin, IK_ORIGIN_DEFAULT);
	e = ik__config_find(cfg, "platform", "name");
	assert_string_equal(e->value, "amd-zen3");
	assert_int_equal(e->origin, IK_ORIGIN_PLATFORM);
	e = ik__config_find(cfg, "state1", "latency_us");
	assert_string_equal(e->value, "2");
	assert_int_equal(e->origin, IK_ORIGIN_SET);
	assert_int_equal(sc.platform.states[1].latency_us, 2);
	e = ik__config_find(cfg, "state2", "power_mw");
	assert_string_equal(e->value, "5");
	assert_int_equal(e->origin, IK_ORIGIN_SCENARIO);
	ik__config_free(cfg);

	/* a driver that brings its governor: derived */
	cfg = load("[scenario]\nname = t\nplatform = kvm-guest-haltpoll\n[cpuidle]\ndriver = haltpoll\n",
		   NULL, 0);
	e = ik__config_find(cfg, "cpuidle", "governor");
	assert_string_equal(e->value, "haltpoll");
	assert_int_equal(e->origin, IK_ORIGIN_DERIVED);
	ik__config_free(cfg);
}

/* --set of a sample of keys of every section: the record shows the new value, from "set". */
static void overrides_change_the_record(void **state)
{
	(void)state;
	static const char *const ovs[] = {
		"scenario.duration_ms=77", "scenario.seed=9",
		"kernel.housekeeping_hz=12.5", "kernel.latency_limit_us=20",
		"cpuidle.governor=teo", "cpuidle.disable=C2", "cpuidle.latency_factor=3",
		"workload.type=periodic", "workload.period_us=250",
		"platform.ipi_ns=constant 900", "platform.active_power_mw=200",
		"state1.residency_us=4", "state2.exit_ns=constant 40000",
		"cpuid.arat=no", "acpi.wbinvd=no", "cst2.latency_us=20", "intel_idle.pc6=no",
		"effects.pkg_idle_mw=10",
	};
	struct ik_config *base = load(HEAD, NULL, 0);
	for (size_t i = 0; i < sizeof(ovs) / sizeof(ovs[0]); i++) {
		char section[32], key[32];
		const char *dot = strchr(ovs[i], '.'), *eq = strchr(ovs[i], '=');
		snprintf(section, sizeof(section), "%.*s", (int)(dot - ovs[i]), ovs[i]);
		snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
		struct ik_config *cfg = load(HEAD, &ovs[i], 1);
		const struct ik_config_entry *e = ik__config_find(cfg, section, key);
		const struct ik_config_entry *b = ik__config_find(base, section, key);
		if (!e || !b)
			fail_msg("%s: not recorded", ovs[i]);
		assert_string_equal(e->value, eq + 1);
		assert_int_equal(e->origin, IK_ORIGIN_SET);
		if (b->has_value && strcmp(b->value, e->value) == 0)
			fail_msg("%s: the value was already '%s'", ovs[i], b->value);
		ik__config_free(cfg);
	}
	ik__config_free(base);
}

/* Printed, read back: the same scenario, the same record (values and origins). */
static void printed_config_reads_back(void **state)
{
	(void)state;
	const char *ov[] = { "kernel.hz=1000", "state2.exit_ns=constant 40000",
			     "cpuidle.disable=C2", "workload.type=spin", "workload.cpus=0, 3" };
	struct ik_config *cfg = load(HEAD, ov, 5);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ik__config_print_ini(f, cfg, "test"), 0);
	fclose(f);

	char err[IK_ERR_LEN] = "";
	struct ik_config *again = ik__config_new();
	if (ik__scenario_parse_string_config("printed.ini", text, NULL, 0, &sc2, again, err,
					    sizeof(err)))
		fail_msg("%s\n%s", err, text);
	sc2.config = sc.config;
	assert_memory_equal(&sc, &sc2, sizeof(sc));
	assert_int_equal(again->n, cfg->n);
	for (int i = 0; i < cfg->n; i++) {
		const struct ik_config_entry *a = &cfg->entry[i], *b = &again->entry[i];
		assert_string_equal(a->section, b->section);
		assert_string_equal(a->key, b->key);
		assert_int_equal(a->has_value, b->has_value);
		assert_string_equal(a->value, b->value);
		if (a->origin != b->origin)
			fail_msg("[%s] %s: origin %s, read back as %s", a->section, a->key,
				 ik__config_origin_name(a->origin), ik__config_origin_name(b->origin));
	}

	/* an edited value keeps no stale origin: it is the file's now */
	char *hz = strstr(text, "\nhz = 1000\n");
	assert_non_null(hz);
	memcpy(hz, "\nhz = 300 \n", 11);
	if (ik__scenario_parse_string_config("printed.ini", text, NULL, 0, &sc2, again, err,
					    sizeof(err)))
		fail_msg("%s", err);
	const struct ik_config_entry *e = ik__config_find(again, "kernel", "hz");
	assert_string_equal(e->value, "300");
	assert_int_equal(e->origin, IK_ORIGIN_SCENARIO);
	free(text);
	ik__config_free(again);
	ik__config_free(cfg);
}

static void version_is_recorded(void **state)
{
	(void)state;
	assert_true(strncmp(ik__version(), "0.", 2) == 0 || strncmp(ik__version(), "1.", 2) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_key_is_recorded),
		cmocka_unit_test(origins),
		cmocka_unit_test(overrides_change_the_record),
		cmocka_unit_test(printed_config_reads_back),
		cmocka_unit_test(version_is_recorded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
