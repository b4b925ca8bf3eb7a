/* CPU lists and sets (src/util/cpuset.c): every form and every error. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "util/cpuset.h"

#define ERR_LEN 512

static struct ik_cpuset set; /* 1 KiB: keep it off the stack */

static void expect_list(const char *text, int limit, const char *printed)
{
	char err[ERR_LEN] = "", buf[256];
	if (ik__cpulist_parse(text, limit, true, &set, err, sizeof(err)) != 0)
		fail_msg("'%s': %s", text, err);
	ik__cpuset_format(&set, buf, sizeof(buf));
	assert_string_equal(buf, printed);
}

static void expect_bad(const char *text, int limit, const char *needle)
{
	char err[ERR_LEN] = "";
	if (ik__cpulist_parse(text, limit, false, &set, err, sizeof(err)) == 0)
		fail_msg("'%s' parsed", text);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, needle))
		fail_msg("error '%s' lacks '%s'", err, needle);
}

static void lists(void **state)
{
	(void)state;
	expect_list("0-3,8,10-11", 64, "0-3,8,10-11");
	expect_list("0-3,8,10-11\n", 64, "0-3,8,10-11"); /* as sysfs ends it */
	expect_list(" 3 , 1, 2 ", 64, "1-3");
	expect_list("5,5,4-6", 64, "4-6");
	expect_list("", 64, "");
	expect_list("\n", 64, "");
	expect_list("0-8191", IK_CPUSET_MAX, "0-8191");
	expect_list("63,64,127-128", 1000, "63-64,127-128");
	assert_int_equal(ik__cpuset_count(&set), 4);
}

static void errors(void **state)
{
	(void)state;
	expect_bad("", 64, "got nothing");
	expect_bad("x", 64, "expected a CPU number at 'x'");
	expect_bad("1,,2", 64, "expected a CPU number at ',2'");
	expect_bad("3-1", 64, "range 3-1 goes backwards");
	expect_bad("0-", 64, "expected the CPU number ending the range");
	expect_bad("0-3 4", 64, "expected ',' or the end of the list at '4'");
	expect_bad("64", 64, "CPU 64 is out of range (expected 0..63)");
	expect_bad("0-600", 512, "CPU 600 is out of range (expected 0..511)");
	/* a number past any limit is shown as written, not as the value it saturated to */
	expect_bad("0-999999", 8192, "CPU 999999 is out of range (expected 0..8191)");
	expect_bad("99999999999999999999999", 64, "out of range");
	expect_bad("-1", 64, "expected a CPU number");
	expect_bad("1\n2", 64, "expected one line");
}

static void sets(void **state)
{
	(void)state;
	struct ik_cpuset a, b;
	char buf[8];
	ik__cpuset_clear(&a);
	ik__cpuset_add(&a, 0);
	ik__cpuset_add(&a, 63);
	ik__cpuset_add(&a, 64);
	ik__cpuset_add(&a, IK_CPUSET_MAX); /* ignored */
	ik__cpuset_add(&a, -1);              /* ignored */
	assert_int_equal(ik__cpuset_count(&a), 3);
	assert_int_equal(ik__cpuset_next(&a, -1), 0);
	assert_int_equal(ik__cpuset_next(&a, 0), 63);
	assert_int_equal(ik__cpuset_next(&a, 63), 64);
	assert_int_equal(ik__cpuset_next(&a, 64), -1);
	b = a;
	assert_true(ik__cpuset_equal(&a, &b));
	ik__cpuset_remove(&b, 63);
	assert_false(ik__cpuset_has(&b, 63));
	ik__cpuset_andnot(&a, &b);
	assert_int_equal(ik__cpuset_count(&a), 1);
	assert_true(ik__cpuset_has(&a, 63));
	ik__cpuset_add(&a, 0);
	ik__cpuset_and(&a, &b);
	assert_int_equal(ik__cpuset_count(&a), 1);
	/* Truncated output still says how long the whole list is. */
	ik__cpuset_clear(&a);
	for (int i = 0; i < 10; i += 2)
		ik__cpuset_add(&a, i);
	assert_int_equal(ik__cpuset_format(&a, buf, sizeof(buf)), strlen("0,2,4,6,8"));
	assert_string_equal(buf, "0,2,4,6"); /* what fits in 8 bytes: whole items only */
	char small[6];
	assert_int_equal(ik__cpuset_format(&a, small, sizeof(small)), 9);
	assert_string_equal(small, "0,2,4");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists),
		cmocka_unit_test(errors),
		cmocka_unit_test(sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
