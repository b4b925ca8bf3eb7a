/*
 * A platform made from a real machine names what the machine runs ([os]: driver, governor,
 * haltpoll_force, timer_slack_ns, background_hz; [haltpoll]: the haltpoll governor's module parameters):
 * the keys read, write and read back, bad values get one message naming the key, and a
 * scenario that names no driver or governor runs the platform's, recorded with origin
 * platform, while one that names them keeps its own.
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
#include "config/platform_ini.h"
#include "config/platform_keys.h"
#include "config/scenario.h"

static struct ik_platform plat, again; /* large: off the stack */
static struct ik_scenario sc;

#define HEAD                                                                              \
	"[platform]\nname = vm\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n" \
	"active_power_mw = 1000\n"                                                            \
	"[state0]\nname = POLL\nlatency_us = 0\nresidency_us = 0\nmethod = poll\n"          \
	"[state1]\nname = HLT\nlatency_us = 1\nresidency_us = 1\nmethod = hlt\n"            \
	"[cpuid]\nvendor = intel\nhypervisor = kvm\n"

static void parse_ok(const char *text)
{
	char err[IK_ERR_LEN] = "";
	if (ik__platform_parse_string("p.ini", text, &plat, err, sizeof(err)) != 0)
		fail_msg("expected success, got: %s", err);
}

static void parse_fails(const char *text, const char *needle)
{
	char err[IK_ERR_LEN] = "";
	if (ik__platform_parse_string("p.ini", text, &plat, err, sizeof(err)) == 0)
		fail_msg("expected an error for:\n%s", text);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, needle))
		fail_msg("error '%s' lacks '%s'", err, needle);
}

static void keys_read(void **state)
{
	(void)state;
	parse_ok(HEAD);
	assert_false(plat.os.present);
	assert_false(plat.os.has_haltpoll);
	assert_string_equal(plat.os.driver, "");
	assert_int_equal(plat.os.haltpoll_force, -1);
	assert_int_equal(plat.os.timer_slack_ns, 50000);
	assert_int_equal(plat.os.haltpoll.guest_halt_poll_ns, 200000); /* the kernel's default */

	parse_ok(HEAD "[os]\ndriver = haltpoll\ngovernor = haltpoll\nhaltpoll_force = yes\n"
		      "timer_slack_ns = 51234\nbackground_hz = 42.5\n"
		      "[haltpoll]\nguest_halt_poll_ns = 0\nguest_halt_poll_shrink = 3\n"
		      "guest_halt_poll_grow = 4\nguest_halt_poll_grow_start = 60000\n"
		      "guest_halt_poll_allow_shrink = no\n");
	assert_true(plat.os.present);
	assert_true(plat.os.has_haltpoll);
	assert_string_equal(plat.os.driver, "haltpoll");
	assert_string_equal(plat.os.governor, "haltpoll");
	assert_int_equal(plat.os.haltpoll_force, 1);
	assert_int_equal(plat.os.timer_slack_ns, 51234);
	assert_true(plat.os.background_hz == 42.5);
	assert_int_equal(plat.os.haltpoll.guest_halt_poll_ns, 0);
	assert_int_equal(plat.os.haltpoll.guest_halt_poll_shrink, 3);
	assert_int_equal(plat.os.haltpoll.guest_halt_poll_grow, 4);
	assert_int_equal(plat.os.haltpoll.guest_halt_poll_grow_start, 60000);
	assert_false(plat.os.haltpoll.guest_halt_poll_allow_shrink);
	/* the largest value a kernel uint holds is taken */
	parse_ok(HEAD "[haltpoll]\nguest_halt_poll_ns = 4294967295\n");
	assert_int_equal(plat.os.haltpoll.guest_halt_poll_ns, 4294967295ULL);
}

static void bad_values(void **state)
{
	(void)state;
	parse_fails(HEAD "[os]\ndriver = psci_idle\n",
		    "p.ini:21: [os] driver: expected one of: table acpi_idle intel_idle "
		    "powernv_idle haltpoll none, got 'psci_idle'");
	parse_fails(HEAD "[os]\ngovernor = performance\n",
		    "[os] governor: expected one of: menu teo ladder haltpoll, got 'performance'");
	parse_fails(HEAD "[os]\nhaltpoll_force = maybe\n", "[os] haltpoll_force: ");
	parse_fails(HEAD "[os]\ntimer_slack_ns = -1\n", "[os] timer_slack_ns: ");
	parse_fails(HEAD "[os]\nbackground_hz = -1\n", "[os] background_hz: ");
	parse_fails(HEAD "[os]\nbackground_hz = 100001\n", "[os] background_hz: ");
	parse_fails(HEAD "[os]\nnosuch = 1\n", "unknown key 'nosuch' in [os]; known keys: driver "
					       "governor haltpoll_force timer_slack_ns background_hz");
	parse_fails(HEAD "[haltpoll]\nguest_halt_poll_ns = 4294967296\n",
		    "[haltpoll] guest_halt_poll_ns: ");
	parse_fails(HEAD "[haltpoll]\nguest_halt_poll_grow = -2\n", "[haltpoll] guest_halt_poll_grow: ");
	parse_fails(HEAD "[haltpoll]\nguest_halt_poll_allow_shrink = Y\n",
		    "[haltpoll] guest_halt_poll_allow_shrink: ");
	parse_fails(HEAD "[os]\ndriver = haltpoll\n[os]\n", "duplicate section [os]");
	parse_fails(HEAD "[os]\ndriver = haltpoll\ndriver = none\n", "driver");
}

/* Every key of [os] and [haltpoll] written by the platform writer reads back the same. */
static void round_trip(void **state)
{
	(void)state;
	parse_ok(HEAD "[os]\ndriver = none\ngovernor = teo\nhaltpoll_force = no\n"
		      "timer_slack_ns = 1\nbackground_hz = 0.25\n[haltpoll]\nguest_halt_poll_ns = 123\n"
		      "guest_halt_poll_allow_shrink = no\n");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	fputs(HEAD, f);
	struct ik_platform_writer w;
	ik__platform_writer_init(&w, f, &plat);
	const char *const sections[] = { "os", "haltpoll" };
	for (int s = 0; s < 2; s++) {
		int index, kind = platform_section_kind(sections[s], &index);
		assert_true(kind == SEC_OS || kind == SEC_HALTPOLL);
		assert_int_equal(ik__platform_write_section(&w, sections[s]), 0);
		for (int k = 0; k < platform_key_count(kind); k++)
			assert_int_equal(ik__platform_write_key(&w, platform_key_name(kind, k), "c"), 0);
	}
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "governor = teo  ; c\n"));
	assert_non_null(strstr(text, "guest_halt_poll_allow_shrink = no  ; c\n"));
	char err[IK_ERR_LEN] = "";
	if (ik__platform_parse_string("written", text, &again, err, sizeof(err)))
		fail_msg("does not read back: %s\n%s", err, text);
	if (memcmp(&plat, &again, sizeof(plat)) != 0)
		fail_msg("reads back different:\n%s", text);
	free(text);
}

/* A scenario on kvm-guest-haltpoll with [os] and [haltpoll] on top, as the file adds them. */
#define SCENARIO "[scenario]\nname = t\nplatform = kvm-guest-haltpoll\n"

static struct ik_config *load(const char *text, const char *const *ov, int n)
{
	char err[IK_ERR_LEN] = "";
	struct ik_config *cfg = ik__config_new();
	assert_non_null(cfg);
	if (ik__scenario_parse_string_config("s.ini", text, ov, n, &sc, cfg, err, sizeof(err)))
		fail_msg("%s", err);
	return cfg;
}

static void expect_entry(const struct ik_config *cfg, const char *section, const char *key,
			 const char *value, enum ik_config_origin origin)
{
	const struct ik_config_entry *e = ik__config_find(cfg, section, key);
	if (!e)
		fail_msg("%s.%s: not recorded", section, key);
	if (strcmp(e->value, value) != 0 || e->origin != origin)
		fail_msg("%s.%s: '%s' from %s, expected '%s' from %s", section, key, e->value,
			 ik__config_origin_name(e->origin), value, ik__config_origin_name(origin));
}

static void scenario_runs_the_platforms(void **state)
{
	(void)state;
	/* without [os]: as before, the table driver and menu */
	struct ik_config *cfg = load(SCENARIO, NULL, 0);
	assert_string_equal(sc.driver, "table");
	assert_string_equal(sc.governor, "menu");
	assert_null(ik__config_find(cfg, "os", "driver"));
	ik__config_free(cfg);

	/* the platform names the driver and the governor, and the machine's poll window */
	const char *machine = SCENARIO "[os]\ndriver = haltpoll\ngovernor = menu\n"
				       "haltpoll_force = yes\n[haltpoll]\nguest_halt_poll_ns = 0\n";
	cfg = load(machine, NULL, 0);
	assert_string_equal(sc.driver, "haltpoll");
	assert_string_equal(sc.governor, "menu"); /* the platform's, not the driver's own */
	assert_true(sc.opt.haltpoll_force);
	assert_int_equal(sc.ngov_params, 0); /* haltpoll's parameters are not menu's */
	expect_entry(cfg, "cpuidle", "driver", "haltpoll", IK_ORIGIN_PLATFORM);
	expect_entry(cfg, "cpuidle", "governor", "menu", IK_ORIGIN_PLATFORM);
	expect_entry(cfg, "cpuidle", "haltpoll_force", "yes", IK_ORIGIN_PLATFORM);
	ik__config_free(cfg);

	/* the haltpoll governor gets the module parameters, the scenario's own win */
	const char *ov[] = { "os.governor=haltpoll", "governor.guest_halt_poll_grow=4" };
	cfg = load(machine, ov, 2);
	assert_string_equal(sc.governor, "haltpoll");
	assert_int_equal(sc.ngov_params, 5);
	expect_entry(cfg, "governor", "guest_halt_poll_ns", "0", IK_ORIGIN_PLATFORM);
	expect_entry(cfg, "governor", "guest_halt_poll_grow", "4", IK_ORIGIN_SET);
	expect_entry(cfg, "governor", "guest_halt_poll_allow_shrink", "Y", IK_ORIGIN_PLATFORM);
	expect_entry(cfg, "os", "governor", "haltpoll", IK_ORIGIN_SET);
	expect_entry(cfg, "haltpoll", "guest_halt_poll_ns", "0", IK_ORIGIN_SCENARIO);
	ik__config_free(cfg);

	/* a scenario that names them runs its own */
	const char *own[] = { "cpuidle.driver=table", "cpuidle.governor=teo",
			      "cpuidle.haltpoll_force=no" };
	cfg = load(machine, own, 3);
	assert_string_equal(sc.driver, "table");
	assert_string_equal(sc.governor, "teo");
	assert_false(sc.opt.haltpoll_force);
	expect_entry(cfg, "cpuidle", "driver", "table", IK_ORIGIN_SET);
	ik__config_free(cfg);

	/* the machine's background wakes its CPUs: the housekeeping rate, unless given */
	cfg = load(SCENARIO "[os]\nbackground_hz = 55.5\n", NULL, 0);
	assert_true(sc.housekeeping_hz == 55.5);
	expect_entry(cfg, "kernel", "housekeeping_hz", "55.5", IK_ORIGIN_PLATFORM);
	ik__config_free(cfg);
	const char *hk[] = { "kernel.housekeeping_hz=3" };
	cfg = load(SCENARIO "[os]\nbackground_hz = 55.5\n", hk, 1);
	assert_true(sc.housekeeping_hz == 3);
	expect_entry(cfg, "kernel", "housekeeping_hz", "3", IK_ORIGIN_SET);
	ik__config_free(cfg);
	cfg = load(SCENARIO "[kernel]\nhousekeeping_hz = 0\n[os]\nbackground_hz = 55.5\n", NULL, 0);
	assert_true(sc.housekeeping_hz == 0);
	ik__config_free(cfg);
	cfg = load(SCENARIO "[os]\nbackground_hz = 0\n", NULL, 0); /* 0: not known */
	assert_true(sc.housekeeping_hz == 1.25);
	expect_entry(cfg, "kernel", "housekeeping_hz", "1.25", IK_ORIGIN_DEFAULT);
	ik__config_free(cfg);
}

/* A driver the platform names that does not load there is an error that says whose it is. */
static void platform_driver_must_load(void **state)
{
	(void)state;
	char err[IK_ERR_LEN] = "";
	const char *ov[] = { "cpuid.kvm_hint_realtime=no" };
	assert_int_equal(ik__scenario_parse_string("s.ini", SCENARIO "[os]\ndriver = haltpoll\n", ov,
						  1, &sc, err, sizeof(err)), -1);
	if (!strstr(err, "haltpoll (the platform's [os] driver) does not load on platform "
			 "kvm-guest-haltpoll"))
		fail_msg("%s", err);
}

/* calibrate's edits: one key's line replaced or added, the rest (comments too) kept */
static void text_set(void **state)
{
	(void)state;
	char *t = strdup("; head\n[platform]\nname = a ; keep\nipi_ns = constant 1\n\n"
			 "[state0]\n; about state0\nname = POLL\n\n; trailing\n");
	assert_non_null(t);
	assert_int_equal(ik__platform_text_set(&t, "platform", "ipi_ns", "lognormal 5 0.5", "m", false), 1);
	assert_int_equal(ik__platform_text_set(&t, "state0", "exit_ns", "constant 7", NULL, false), 1);
	assert_int_equal(ik__platform_text_set(&t, "state0", "exit_ipi_ns", "constant 7", NULL, true), 0);
	assert_int_equal(ik__platform_text_set(&t, "os", "timer_slack_ns", "5", "m", false), 1);
	assert_string_equal(t, "; head\n[platform]\nname = a ; keep\nipi_ns = lognormal 5 0.5  ; m\n\n"
			       "[state0]\n; about state0\nname = POLL\nexit_ns = constant 7\n\n"
			       "; trailing\n\n[os]\ntimer_slack_ns = 5  ; m\n");
	/* a key that only starts like another is not it; a file without a final newline */
	free(t);
	t = strdup("[platform]\nipi_ns_x = 1\nipi_ns=2");
	assert_int_equal(ik__platform_text_set(&t, "platform", "ipi_ns", "3", NULL, false), 1);
	assert_string_equal(t, "[platform]\nipi_ns_x = 1\nipi_ns = 3\n");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys_read),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(scenario_runs_the_platforms),
		cmocka_unit_test(platform_driver_must_load),
		cmocka_unit_test(text_set),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
