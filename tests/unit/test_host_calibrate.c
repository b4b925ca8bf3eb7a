/*
 * The calibration's pieces that need no root: the distribution fitted to samples, and the
 * module parameters read from a tree that stands for '/' (ROOT/sys/module/...).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/calibrate.h"

static void dist_of_samples(void **state)
{
	(void)state;
	int64_t v[100];
	for (int i = 0; i < 100; i++)
		v[i] = 100 - i; /* unsorted on purpose */
	struct ik_calib_dist d;
	ik__calib_dist_of(v, 100, &d);
	assert_int_equal(d.n, 100);
	assert_int_equal(d.min, 1);
	assert_int_equal(d.max, 100);
	assert_int_equal(d.p25, 25);
	assert_int_equal(d.p50, 50);
	assert_int_equal(d.p75, 75);
	assert_int_equal(d.p99, 99);
	/* a lognormal with these quartiles: sigma = ln(75/25) / (2 * 0.6745) */
	assert_true(d.sigma > 0.8143 && d.sigma < 0.8146);
	ik__calib_dist_of(v, 0, &d);
	assert_int_equal(d.n, 0);
	int64_t same[3] = { 7, 7, 7 };
	ik__calib_dist_of(same, 3, &d);
	assert_int_equal(d.p50, 7);
	assert_true(d.sigma == 0.0);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void module_parameters(void **state)
{
	(void)state;
	char root[] = "/tmp/idlekit-calib-XXXXXX", err[IK_HOST_ERR_LEN] = "";
	assert_non_null(mkdtemp(root));
	struct ik_host_machine m;

	/* nothing there: nothing read, no error */
	assert_int_equal(ik__host_machine_read(root, &m, err, sizeof(err)), 0);
	assert_false(m.have_haltpoll);
	assert_false(m.have_cpuid); /* a tree has no CPU to ask */
	assert_int_equal(m.haltpoll_force, -1);

	put(root, "sys/module/cpuidle_haltpoll/parameters/force", "Y\n");
	put(root, "sys/module/haltpoll/parameters/guest_halt_poll_ns", "0\n");
	put(root, "sys/module/haltpoll/parameters/guest_halt_poll_shrink", "2\n");
	put(root, "sys/module/haltpoll/parameters/guest_halt_poll_grow", "3\n");
	put(root, "sys/module/haltpoll/parameters/guest_halt_poll_grow_start", "50000\n");
	put(root, "sys/module/haltpoll/parameters/guest_halt_poll_allow_shrink", "N\n");
	assert_int_equal(ik__host_machine_read(root, &m, err, sizeof(err)), 0);
	assert_true(m.have_haltpoll);
	assert_int_equal(m.haltpoll_force, 1);
	assert_int_equal(m.guest_halt_poll_ns, 0);
	assert_int_equal(m.guest_halt_poll_grow, 3);
	assert_int_equal(m.guest_halt_poll_grow_start, 50000);
	assert_false(m.guest_halt_poll_allow_shrink);

	put(root, "sys/module/haltpoll/parameters/guest_halt_poll_grow", "two\n");
	assert_int_equal(ik__host_machine_read(root, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "guest_halt_poll_grow: expected an unsigned integer, got 'two'"));
	put(root, "sys/module/haltpoll/parameters/guest_halt_poll_grow", "2\n");
	put(root, "sys/module/cpuidle_haltpoll/parameters/force", "maybe\n");
	assert_int_equal(ik__host_machine_read(root, &m, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "force: expected Y or N, got 'maybe'"));

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* Bad settings are refused before anything is measured or changed. */
static void bad_config(void **state)
{
	(void)state;
	struct ik_calib_config c = { .waker_cpu = 0, .wakee_cpu = 0, .samples = 100,
				     .gap_ns = 1000, .ctxsw_ns = 1000000 };
	struct ik_calib_result *r = malloc(sizeof(*r));
	char err[IK_HOST_ERR_LEN] = "";
	assert_non_null(r);
	assert_int_equal(ik__calibrate_run(&c, r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "two different CPUs"));
	c.wakee_cpu = 1;
	c.samples = 5;
	assert_int_equal(ik__calibrate_run(&c, r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "at least 10 samples"));
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dist_of_samples),
		cmocka_unit_test(module_parameters),
		cmocka_unit_test(bad_config),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
