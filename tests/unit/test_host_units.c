/* Durations with units (src/host/units.c): every form and every error. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "host/host.h"

static void durations(void **state)
{
	(void)state;
	int64_t ns;
	char err[IK_HOST_ERR_LEN];
	struct {
		const char *text, *unit;
		int64_t ns;
	} ok[] = {
		{ "100us", "us", 100000 }, { "1.5ms", "us", 1500000 }, { "250ns", "us", 250 },
		{ "2s", "us", 2000000000 }, { "20", "us", 20000 },     { "0.5", "s", 500000000 },
		{ "0", "us", 0 },          { "0.000000001s", "us", 1 }, { "1.", "ms", 1000000 },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (ik__parse_duration_ns(ok[i].text, ok[i].unit, INT64_MAX / 2, &ns, err, sizeof(err)))
			fail_msg("'%s': %s", ok[i].text, err);
		assert_int_equal(ns, ok[i].ns);
	}
	const char *bad[] = { "", "us", "10 us", "10usec", "-5us", "1.5ns", "0.0000000001s", "x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (ik__parse_duration_ns(bad[i], "us", INT64_MAX / 2, &ns, err, sizeof(err)) == 0)
			fail_msg("'%s' parsed", bad[i]);
		assert_true(err[0] != '\0');
	}
	assert_int_not_equal(ik__parse_duration_ns("3s", "us", 2000000000, &ns, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "out of range"));
	assert_int_not_equal(ik__parse_duration_ns("99999999999999999999s", "us", INT64_MAX, &ns, err,
						  sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(durations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
