/* cpuidle as sysfs shows it: reading tables and counters, optional files, folding. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"

#define P "rw|/sys/devices/system/cpu/"

/* A dump built line by line. */
static char text[1 << 16];

static void add(const char *fmt, ...)
{
	size_t n = strlen(text);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text + n, sizeof(text) - n, fmt, ap);
	va_end(ap);
}

/* A full state: name, desc, latency, residency, power and counters derived from cpu, k. */
static void add_state(int cpu, int k, const char *name, int latency, int residency,
		      int disable)
{
	add(P "cpu%d/cpuidle/state%d/name|%s\n", cpu, k, name);
	add(P "cpu%d/cpuidle/state%d/desc|%s desc\n", cpu, k, name);
	add(P "cpu%d/cpuidle/state%d/latency|%d\n", cpu, k, latency);
	add(P "cpu%d/cpuidle/state%d/residency|%d\n", cpu, k, residency);
	add(P "cpu%d/cpuidle/state%d/power|%s\n", cpu, k, k == 0 ? "4294967295" : "0");
	add(P "cpu%d/cpuidle/state%d/usage|%d\n", cpu, k, 1000 * cpu + k);
	add(P "cpu%d/cpuidle/state%d/time|%d\n", cpu, k, 100000 * cpu + 10 * k);
	add(P "cpu%d/cpuidle/state%d/above|%d\n", cpu, k, cpu + k);
	add(P "cpu%d/cpuidle/state%d/below|%d\n", cpu, k, 2 * (cpu + k));
	add(P "cpu%d/cpuidle/state%d/rejected|0\n", cpu, k);
	add(P "cpu%d/cpuidle/state%d/disable|%d\n", cpu, k, disable);
	add(P "cpu%d/cpuidle/state%d/default_status|enabled\n", cpu, k);
}

static void add_globals(const char *online)
{
	add(P "cpuidle/current_driver|intel_idle\n");
	add(P "cpuidle/current_governor|menu\n");
	add(P "cpuidle/available_governors|ladder menu teo \n");
	if (online)
		add("ro|/sys/devices/system/cpu/online|%s\n", online);
}

static struct ik_sysfs *open_text(void)
{
	struct ik_sysfs *fs;
	char err[IK_HOST_ERR_LEN] = "";
	if (ik__sysfs_parse_dump("t.txt", text, strlen(text), &fs, err, sizeof(err)))
		fail_msg("%s", err);
	return fs;
}

static int read_idle(struct ik_sysfs *fs, const char *cpus, struct ik_host_idle *idle,
		     char *err, size_t errlen)
{
	struct ik_cpuset want;
	if (cpus && ik__cpulist_parse(cpus, IK_HOST_CPU_MAX, false, &want, err, errlen))
		fail_msg("%s", err);
	return ik__host_idle_read(fs, cpus ? &want : NULL, idle, err, errlen);
}

static int setup(void **state)
{
	(void)state;
	text[0] = '\0';
	return 0;
}

static void full_tables(void **state)
{
	(void)state;
	add_globals("0-3");
	for (int cpu = 0; cpu < 4; cpu++) {
		add_state(cpu, 0, "POLL", 0, 0, 0);
		add_state(cpu, 1, "C1", 2, 2, 0);
		add_state(cpu, 2, "C6", 85, 200, cpu == 3); /* CPU 3 has C6 disabled */
	}
	struct ik_sysfs *fs = open_text();
	struct ik_host_idle idle;
	char err[IK_HOST_ERR_LEN] = "";
	if (read_idle(fs, NULL, &idle, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(idle.driver, "intel_idle");
	assert_string_equal(idle.governor, "menu");
	assert_string_equal(idle.available_governors, "ladder menu teo");
	assert_int_equal(idle.ncpus, 4);
	const struct ik_host_state *s = &idle.cpus[2].states[2];
	assert_string_equal(s->name, "C6");
	assert_string_equal(s->desc, "C6 desc");
	assert_int_equal(s->latency_us, 85);
	assert_int_equal(s->residency_us, 200);
	assert_int_equal(s->usage, 2002);
	assert_int_equal(s->time_us, 200020);
	assert_int_equal(s->above, 4);
	assert_int_equal(s->below, 8);
	assert_int_equal(s->power, 0);
	assert_int_equal(idle.cpus[0].states[0].power, IK_HOST_POWER_UNKNOWN);
	assert_true(idle.cpus[3].states[2].disabled);
	assert_int_equal(s->have & (IK_HAVE_ABOVE | IK_HAVE_DEFAULT_STATUS | IK_HAVE_USAGE),
			 IK_HAVE_ABOVE | IK_HAVE_DEFAULT_STATUS | IK_HAVE_USAGE);

	/* Counters differ, tables do not: CPUs 0-2 fold, CPU 3 (C6 disabled) is its own. */
	int group_of[4];
	assert_int_equal(ik__host_fold(&idle, group_of), 2);
	assert_int_equal(group_of[0], 0);
	assert_int_equal(group_of[1], 0);
	assert_int_equal(group_of[2], 0);
	assert_int_equal(group_of[3], 3);
	ik__host_idle_free(&idle);

	/* --cpu: only those CPUs, and one that is not there is an error. */
	if (read_idle(fs, "1,3", &idle, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(idle.ncpus, 2);
	assert_int_equal(idle.cpus[1].cpu, 3);
	ik__host_idle_free(&idle);
	assert_int_equal(read_idle(fs, "2-5", &idle, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "CPU 4-5 not present in t.txt (present: 0-3)"));
	ik__sysfs_close(fs);
}

static void older_kernel(void **state)
{
	(void)state;
	/* No above/below/rejected/default_status/power/desc/disable: only the old five. */
	add_globals(NULL);
	for (int cpu = 0; cpu < 2; cpu++) {
		add(P "cpu%d/cpuidle/state0/name|C1\n" P "cpu%d/cpuidle/state0/latency|3\n"
		    P "cpu%d/cpuidle/state0/residency|6\n" P "cpu%d/cpuidle/state0/usage|5\n"
		    P "cpu%d/cpuidle/state0/time|50\n", cpu, cpu, cpu, cpu, cpu);
	}
	add(P "cpu1/online|0\n"); /* no global 'online': each CPU's own file */
	struct ik_sysfs *fs = open_text();
	struct ik_host_idle idle;
	char err[IK_HOST_ERR_LEN] = "";
	if (read_idle(fs, NULL, &idle, err, sizeof(err)))
		fail_msg("%s", err);
	const struct ik_host_state *s = &idle.cpus[0].states[0];
	assert_int_equal(s->have, IK_HAVE_USAGE | IK_HAVE_TIME);
	assert_int_equal(s->power, IK_HOST_POWER_UNKNOWN);
	assert_true(s->default_enabled);
	assert_true(idle.cpus[0].online);
	assert_false(idle.cpus[1].online);
	int group_of[2];
	assert_int_equal(ik__host_fold(&idle, group_of), 1); /* offline CPUs are left out */
	assert_int_equal(group_of[1], -1);
	ik__host_idle_free(&idle);
	ik__sysfs_close(fs);
}

static void no_driver(void **state)
{
	(void)state;
	add(P "cpuidle/current_driver|none\n" P "cpuidle/current_governor_ro|menu\n");
	add("ro|/sys/devices/system/cpu/online|0-1\n" P "cpu0/topology/core_id|0\n"
	    P "cpu1/topology/core_id|1\n");
	struct ik_sysfs *fs = open_text();
	struct ik_host_idle idle;
	char err[IK_HOST_ERR_LEN] = "", routine[256];
	if (read_idle(fs, NULL, &idle, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(idle.driver, "none");
	assert_string_equal(idle.governor, "menu"); /* from current_governor_ro */
	assert_int_equal(idle.ncpus, 2);
	assert_false(idle.cpus[0].has_cpuidle);
	int group_of[2];
	assert_int_equal(ik__host_fold(&idle, group_of), 0);
	ik__host_default_idle(fs, routine, sizeof(routine));
	assert_non_null(strstr(routine, "unknown"));
	ik__host_idle_free(&idle);
	ik__sysfs_close(fs);

	/* No cpuidle directory at all (CONFIG_CPU_IDLE=n): driver none too. */
	text[0] = '\0';
	add(P "cpu0/topology/core_id|0\n");
	fs = open_text();
	if (read_idle(fs, NULL, &idle, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(idle.driver, "none");
	assert_false(idle.have_cpuidle_dir);
	ik__host_idle_free(&idle);
	ik__sysfs_close(fs);
}

static void expect_read_error(const char *needle)
{
	struct ik_sysfs *fs = open_text();
	struct ik_host_idle idle;
	char err[IK_HOST_ERR_LEN] = "";
	assert_int_equal(read_idle(fs, NULL, &idle, err, sizeof(err)), -1);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, needle))
		fail_msg("error '%s' lacks '%s'", err, needle);
	ik__sysfs_close(fs);
}

static void bad_trees(void **state)
{
	(void)state;
	add_globals("0");
	add(P "cpu0/cpuidle/state0/name|POLL\n" P "cpu0/cpuidle/state0/residency|0\n");
	expect_read_error("t.txt: no line for /sys/devices/system/cpu/cpu0/cpuidle/state0/latency "
			  "(a partial dump?");

	text[0] = '\0';
	add_globals("0");
	add_state(0, 0, "POLL", 0, 0, 0);
	add(P "cpu0/cpuidle/state1/name|C1\n" P "cpu0/cpuidle/state1/latency|-2\n");
	expect_read_error("t.txt:18: /sys/devices/system/cpu/cpu0/cpuidle/state1/latency: expected "
			  "an unsigned integer, got '-2'");

	text[0] = '\0';
	add_globals("0-x");
	add_state(0, 0, "POLL", 0, 0, 0);
	expect_read_error("CPU list '0-x'");

	text[0] = '\0';
	add_globals("0");
	add(P "cpu0/cpuidle/state0/name|POLL\n" P "cpu0/cpuidle/state0/latency|0\n"
	    P "cpu0/cpuidle/state0/residency|0\n" P "cpu0/cpuidle/state0/default_status|maybe\n");
	expect_read_error("expected 'enabled' or 'disabled', got 'maybe'");

	text[0] = '\0';
	add(P "cpuidle/current_driver|none\n");
	expect_read_error("no CPUs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(full_tables, setup),
		cmocka_unit_test_setup(older_kernel, setup),
		cmocka_unit_test_setup(no_driver, setup),
		cmocka_unit_test_setup(bad_trees, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
