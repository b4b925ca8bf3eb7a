/* The [workload] key table: every default parses and prints back as written, the defaults
   are the values a scenario without a [workload] section runs, and every key is
   documented (unit, values, meaning). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "config/workload_keys.h"

static void test_defaults_read_back(void **state)
{
	(void)state;
	struct ik_workload wl, again;
	char msg[IK_ERR_LEN], text[512];
	ik__workload_defaults(&wl);
	for (int k = 0; k < WL_COUNT; k++) {
		struct ik_workload_key_info info;
		ik__workload_key_info((enum workload_key)k, &info);
		if (!info.def[0])
			continue;
		memset(&again, 0, sizeof(again));
		if (ik__workload_key_set(&again, (enum workload_key)k, info.def, msg, sizeof(msg)))
			fail_msg("default of %s ('%s') does not parse: %s", info.name, info.def, msg);
		ik__workload_key_format(&wl, (enum workload_key)k, text, sizeof(text));
		if (strcmp(info.name, "file") != 0 && strcmp(text, info.def) != 0)
			fail_msg("%s: default '%s' prints back as '%s'", info.name, info.def, text);
	}
}

/* The values the scenario reader set by hand before the table held the defaults. */
static void test_defaults_are_the_readers(void **state)
{
	(void)state;
	struct ik_workload wl;
	ik__workload_defaults(&wl);
	assert_int_equal(wl.kind, IK_WORKLOAD_IDLE);
	assert_int_equal(wl.pairs, 1);
	assert_int_equal(wl.work_ns, 5000);
	assert_int_equal(wl.msg_bytes, 1024);
	assert_int_equal(wl.placement, IK_PLACE_WAKE_IDLE);
	assert_int_equal(wl.period_ns, 1000000);
	assert_int_equal(wl.start_spread_ns, 100000);
	assert_true(wl.irq_rate_hz == 1000.0);
	assert_true(wl.load_pct == 50.0);
	assert_int_equal(wl.service.kind, IK_DIST_LOGNORMAL);
	assert_int_equal(wl.service.a_ns, 20000);
	assert_true(wl.service.sigma == 0.5);
	assert_int_equal(wl.io.kind, IK_DIST_CONSTANT);
	assert_int_equal(wl.io.a_ns, 10000);
	assert_int_equal(wl.burst_off_ns, 4000000);
	assert_int_equal(wl.sleep_ns, 100000);
	assert_int_equal(wl.queue_limit, 1024);
	assert_int_equal(wl.nspin_cpus, 0);
	assert_int_equal(wl.file[0], '\0');
}

static void test_every_key_documented(void **state)
{
	(void)state;
	const char *const *names = ik__workload_key_names();
	for (int k = 0; k < WL_COUNT; k++) {
		struct ik_workload_key_info info;
		ik__workload_key_info((enum workload_key)k, &info);
		assert_string_equal(info.name, names[k]);
		if (strlen(info.doc) < 10)
			fail_msg("%s has no meaning in the key table", info.name);
		if (!info.range[0])
			fail_msg("%s has no values in the key table", info.name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_read_back),
		cmocka_unit_test(test_defaults_are_the_readers),
		cmocka_unit_test(test_every_key_documented),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
