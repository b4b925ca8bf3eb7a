/* Scenario files and --set overrides: values, defaults, cross checks, every error path. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/scenario.h"

static struct ik_scenario sc; /* large: keep it off the stack */

#define HEAD "[scenario]\nname = t\nplatform = amd-zen3\n"

static int parse_ov(const char *text, const char *const *ov, int n, char *err, size_t errlen)
{
	return ik__scenario_parse_string("s.ini", text, ov, n, &sc, err, errlen);
}

static void expect_ok_ov(const char *text, const char *const *ov, int n)
{
	char err[IK_ERR_LEN] = "";
	if (parse_ov(text, ov, n, err, sizeof(err)) != 0)
		fail_msg("expected success, got: %s", err);
}

static void expect_ok(const char *text)
{
	expect_ok_ov(text, NULL, 0);
}

static void vexpect(const char *text, const char *const *ov, int n, va_list ap)
{
	char err[IK_ERR_LEN] = "";
	if (parse_ov(text, ov, n, err, sizeof(err)) == 0)
		fail_msg("expected an error, parsing succeeded");
	assert_null(strchr(err, '\n'));
	for (const char *needle = va_arg(ap, const char *); needle; needle = va_arg(ap, const char *))
		if (!strstr(err, needle))
			fail_msg("error '%s' lacks '%s'", err, needle);
}

/* The message must contain every needle (NULL-terminated). */
static void expect_error(const char *text, ...)
{
	va_list ap;
	va_start(ap, text);
	vexpect(text, NULL, 0, ap);
	va_end(ap);
}

/* One override on top of text. */
static void expect_set_error(const char *text, const char *ov, ...)
{
	va_list ap;
	va_start(ap, ov);
	vexpect(text, &ov, 1, ap);
	va_end(ap);
}

/* ---- values -------------------------------------------------------------------------- */

static void builtin_default(void **state)
{
	(void)state;
	char err[IK_ERR_LEN] = "";
	if (ik__scenario_load("default", NULL, 0, &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_string_equal(sc.name, "default");
	assert_string_equal(sc.platform_ref, "amd-zen3");
	assert_string_equal(sc.platform.name, "amd-zen3");
	assert_int_equal(sc.hz, 250);
	assert_int_equal(sc.latency_limit_us, -1);
	assert_string_equal(sc.driver, "table");
	assert_string_equal(sc.governor, "menu");
	assert_int_equal(sc.ndisabled, 0);
	assert_int_equal(sc.workload.kind, IK_WORKLOAD_PINGPONG);
	assert_int_equal(sc.workload.pairs, 8);
	assert_int_equal(sc.workload.work_ns, 4000);
	assert_int_equal(sc.workload.msg_bytes, 1024);
	assert_int_equal(sc.workload.placement, IK_PLACE_WAKE_IDLE);
	assert_int_equal(sc.duration_ns, 200 * IK_NSEC_PER_MSEC);
	assert_int_equal(sc.warmup_ns, 0);
	assert_int_equal(sc.runs, 1);
	assert_int_equal(sc.seed, 1);

	/* the same file by path gives the same scenario */
	static struct ik_scenario file;
	if (ik__scenario_load("../scenarios/default.ini", NULL, 0, &file, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_memory_equal(&file, &sc, sizeof(sc));
}

static void defaults_without_sections(void **state)
{
	(void)state;
	expect_ok(HEAD);
	assert_int_equal(sc.hz, 250);
	assert_int_equal(sc.latency_limit_us, -1);
	assert_string_equal(sc.governor, "menu");
	assert_int_equal(sc.duration_ns, 1000 * IK_NSEC_PER_MSEC);
	assert_int_equal(sc.runs, 1);
	assert_int_equal(sc.seed, 1);
	assert_int_equal(sc.workload.kind, IK_WORKLOAD_IDLE);
	assert_int_equal(sc.workload.pairs, 1);
	assert_int_equal(sc.workload.work_ns, 5000);
	assert_int_equal(sc.workload.msg_bytes, 1024);
	assert_int_equal(sc.workload.placement, IK_PLACE_WAKE_IDLE);
	assert_int_equal(sc.workload.tasks, 1);
	assert_int_equal(sc.workload.period_ns, 1000000);
	assert_int_equal(sc.workload.task_work_ns, 10000);
	assert_true(sc.workload.irq_rate_hz == 1000.0);
	assert_int_equal(sc.workload.irq_work_ns, 2000);
}

static void every_key(void **state)
{
	(void)state;
	expect_ok("[scenario]\n"
		  "name = all.keys_1\n"
		  "description = every key set\n"
		  "platform = intel-skx\n"
		  "duration_ms = 3600000\n"
		  "warmup_ms = 0\n"
		  "runs = 1000\n"
		  "seed = 18446744073709551615\n"
		  "[kernel]\n"
		  "hz = 1000\n"
		  "latency_limit_us = 0\n"
		  "[cpuidle]\n"
		  "driver = table\n"
		  "governor = menu\n"
		  "disable = C6, C1E C6\n"
		  "[workload]\n"
		  "type = poisson\n"
		  "pairs = 20\n"
		  "work_ns = 10000000000\n"
		  "msg_bytes = 1073741824\n"
		  "placement = cross_package\n"
		  "tasks = 65536\n"
		  "period_us = 10000000\n"
		  "task_work_ns = 0\n"
		  "irq_rate_hz = 2.5e3\n"
		  "irq_work_ns = 0\n");
	assert_string_equal(sc.name, "all.keys_1");
	assert_string_equal(sc.platform.name, "intel-skx");
	assert_int_equal(sc.duration_ns, 3600000 * IK_NSEC_PER_MSEC);
	assert_int_equal(sc.runs, 1000);
	assert_true(sc.seed == UINT64_MAX);
	assert_int_equal(sc.hz, 1000);
	assert_int_equal(sc.latency_limit_us, 0);
	assert_int_equal(sc.ndisabled, 2); /* a repeated name counts once */
	assert_string_equal(sc.disabled[0], "C6");
	assert_string_equal(sc.disabled[1], "C1E");
	assert_int_equal(sc.workload.kind, IK_WORKLOAD_POISSON);
	assert_int_equal(sc.workload.pairs, 20);
	assert_int_equal(sc.workload.work_ns, 10000000000LL);
	assert_int_equal(sc.workload.msg_bytes, 1 << 30);
	assert_int_equal(sc.workload.placement, IK_PLACE_CROSS_PACKAGE);
	assert_int_equal(sc.workload.tasks, 65536);
	assert_int_equal(sc.workload.period_ns, 10000000 * IK_NSEC_PER_USEC);
	assert_int_equal(sc.workload.task_work_ns, 0);
	assert_true(sc.workload.irq_rate_hz == 2500.0);
	assert_int_equal(sc.workload.irq_work_ns, 0);
}

static void overrides_take_effect(void **state)
{
	(void)state;
	const char *ov[] = {
		"workload.pairs=3",
		" kernel.hz = 1000 ",
		"scenario.seed=0x10",
		"workload.pairs=4", /* later wins */
		"cpuidle.disable=C2",
		"platform.active_power_mw=500",
		"state1.exit_ns=constant 700",
		"state2.latency_us=30", /* C2 keeps its own exit_ns */
		"state1.desc=",
		"state0.power_mw=11",
	};
	expect_ok_ov(HEAD "[workload]\ntype = pingpong\npairs = 8\n[kernel]\nhz = 100\n", ov, 10);
	assert_int_equal(sc.workload.pairs, 4);
	assert_int_equal(sc.hz, 1000);
	assert_int_equal(sc.seed, 16);
	assert_int_equal(sc.ndisabled, 1);
	assert_string_equal(sc.disabled[0], "C2");
	assert_int_equal(sc.platform.active_power_mw, 500);
	assert_int_equal(sc.platform.states[1].exit[IK_WAKE_IPI].kind, IK_DIST_CONSTANT);
	assert_int_equal(sc.platform.states[1].exit[IK_WAKE_TIMER].a_ns, 700);
	assert_int_equal(sc.platform.states[2].latency_us, 30);
	assert_int_equal(sc.platform.states[2].exit[IK_WAKE_IPI].a_ns, 20400);
	assert_string_equal(sc.platform.states[1].desc, "");
	assert_int_equal(sc.platform.states[0].power_mw, 11);

	/* an override also moves defaults that depend on it, and can pick the platform */
	const char *ov2[] = { "scenario.platform=intel-skx", "state2.latency_us=15",
			      "cpuidle.disable=" };
	expect_ok_ov(HEAD "[cpuidle]\ndisable = C1\n", ov2, 3);
	assert_string_equal(sc.platform.name, "intel-skx");
	assert_int_equal(sc.platform.states[2].exit[IK_WAKE_TIMER].a_ns, 15000);
	assert_int_equal(sc.ndisabled, 0);

	/* a required key may come from an override alone */
	const char *ov3[] = { "scenario.platform=amd-zen3" };
	expect_ok_ov("[scenario]\nname = t\n", ov3, 1);
	assert_string_equal(sc.platform.name, "amd-zen3");
}

static void latency_limit_and_hz(void **state)
{
	(void)state;
	expect_ok(HEAD "[kernel]\nlatency_limit_us = none\nhz = 300\n");
	assert_int_equal(sc.latency_limit_us, -1);
	assert_int_equal(sc.hz, 300);
	expect_ok(HEAD "[kernel]\nlatency_limit_us = 2000000000\n");
	assert_int_equal(sc.latency_limit_us, 2000000000);
	expect_error(HEAD "[kernel]\nlatency_limit_us = -1\n", "s.ini:5: [kernel] latency_limit_us: "
		     "expected 'none' or an integer 0..2000000000, got '-1'", NULL);
	expect_error(HEAD "[kernel]\nhz = 123\n", "s.ini:5: [kernel] hz: expected one of: 100 250 "
		     "300 1000, got '123'", NULL);
	expect_error(HEAD "[kernel]\nhz = 0x64\n", "got '0x64'", NULL);
}

/* A relative platform path is tried as given, then next to the scenario file. */
static void platform_path_relative_to_scenario(void **state)
{
	(void)state;
	char dir[] = "/tmp/ik-scenario-test-XXXXXX";
	char path[256], sub[256], err[IK_ERR_LEN] = "";
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0700), 0);

	/* the platform: a copy of amd-zen3 with an error we can place */
	snprintf(path, sizeof(path), "%s/sub/p.ini", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("[platform]\nname = p\npackages = 1\ncores_per_package = 2\nthreads_per_core = 1\n"
	      "active_power_mw = 1\n[state0]\nname = C1\nlatency_us = 1\nresidency_us = 1\n"
	      "method = hlt\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/sub/s.ini", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[scenario]\nname = rel\nplatform = p.ini\n", f);
	fclose(f);

	if (ik__scenario_load(path, NULL, 0, &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_string_equal(sc.platform_ref, "p.ini");
	assert_string_equal(sc.platform.name, "p");
	assert_true(sc.platform.states[0].needs_ipi);

	/* an error in the platform carries the platform file's name and line */
	const char *bad[] = { "state0.latency_us=x" };
	assert_int_equal(ik__scenario_load(path, bad, 1, &sc, err, sizeof(err)), -1);
	assert_string_equal(err, "--set state0.latency_us=x: [state0] latency_us: expected an "
			    "integer 0..100000000, got 'x'");
	const char *bad2[] = { "scenario.platform=q.ini" };
	assert_int_equal(ik__scenario_load(path, bad2, 1, &sc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--set scenario.platform=q.ini: [scenario] platform: q.ini: "
				    "cannot open: No such file or directory (also tried "));
	assert_non_null(strstr(err, "/sub/q.ini)"));

	snprintf(path, sizeof(path), "%s/sub/p.ini", dir);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("power_mw = lots\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/sub/s.ini", dir);
	assert_int_equal(ik__scenario_load(path, NULL, 0, &sc, err, sizeof(err)), -1);
	char expect[512];
	snprintf(expect, sizeof(expect), "%s/sub/p.ini:12: [state0] power_mw: expected an integer "
		 "0..1000000, got 'lots'", dir);
	assert_string_equal(err, expect);

	/* from parse_string, the origin's directory plays the same role */
	char origin[256];
	snprintf(origin, sizeof(origin), "%s/sub/other.ini", dir);
	assert_int_equal(ik__scenario_parse_string(origin, "[scenario]\nname = x\nplatform = p.ini\n",
						  NULL, 0, &sc, err, sizeof(err)), -1);
	assert_string_equal(err, expect);

	snprintf(path, sizeof(path), "%s/sub/p.ini", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sub/s.ini", dir);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}

/* ---- errors -------------------------------------------------------------------------- */

static void error_file_level(void **state)
{
	(void)state;
	char err[IK_ERR_LEN] = "";
	assert_int_equal(ik__scenario_load("missing.ini", NULL, 0, &sc, err, sizeof(err)), -1);
	assert_string_equal(err, "missing.ini: cannot open: No such file or directory");
	assert_int_equal(ik__scenario_load("nope", NULL, 0, &sc, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown scenario 'nope'; built-in scenarios: default"));

	expect_error("[scenario]\nname = x\nplatform amd-zen3\n", "s.ini:3: expected 'key = value'",
		     NULL);
	expect_error("[scenario\n", "s.ini:1: expected ']'", NULL);
	expect_error(HEAD "[plat]\nname = x\n", "s.ini:4: unknown section [plat]; known "
		     "sections: scenario kernel cpuidle workload governor platform state0..state9", NULL);
	/* a scenario's own platform keys (what --print-config writes) are checked like the
	   platform file's, and their messages name the scenario */
	expect_error(HEAD "[platform]\nnosuch = 1\n", "s.ini:5: unknown key 'nosuch' in [platform]",
		     NULL);
	expect_error(HEAD "[state1]\nlatency_us = 1\nlatency_us = 2\n",
		     "s.ini:6: [state1] latency_us: duplicate key (first set on line 5)", NULL);
	expect_error(HEAD "[state1]\nlatency_us = soon\n", "s.ini:5: [state1] latency_us: expected",
		     NULL);
	expect_error(HEAD "[origin]\nkernel.hz = sometimes #00000000\n",
		     "s.ini:5: [origin] kernel.hz: expected an origin", NULL);
	expect_error(HEAD "[origin]\nkernel.hz = default 250\n",
		     "s.ini:5: [origin] kernel.hz: expected an origin", NULL);
	expect_error(HEAD "[origin]\nkernel.nosuch = default #00000000\n",
		     "s.ini:5: [origin] kernel.nosuch: no key 'nosuch' in [kernel]", NULL);
	expect_error(HEAD "[origin]\nhz = default #00000000\n", "s.ini:5: [origin] hz: expected "
		     "SECTION.KEY", NULL);
	expect_error(HEAD "[kernel]\n[kernel]\n", "s.ini:5: duplicate section [kernel] (first on "
		     "line 4)", NULL);
	expect_error(HEAD "name = again\n", "s.ini:4: [scenario] name: duplicate key (first set on "
		     "line 2)", NULL);
	expect_error(HEAD "[workload]\npair = 3\n", "s.ini:5: unknown key 'pair' in [workload]; "
		     "known keys: type pairs work_ns", NULL);
	expect_error("[kernel]\nhz = 250\n", "s.ini: missing section [scenario]", NULL);
	expect_error("[scenario]\nname = x\n", "s.ini:1: [scenario]: missing required key 'platform'",
		     NULL);
	expect_error("\n\n[scenario]\nplatform = amd-zen3\n", "s.ini:3: [scenario]: missing required "
		     "key 'name'", NULL);
	expect_error("hz = 250\n", "s.ini:1: key 'hz' is outside any section", NULL);
	expect_error("", "s.ini: missing section [scenario]", NULL);
}

static void error_values(void **state)
{
	(void)state;
	expect_error(HEAD "[workload]\npairs = abc\n", "s.ini:5: [workload] pairs: expected an "
		     "integer 1..65536, got 'abc'", NULL);
	expect_error(HEAD "[workload]\npairs = 65537\n", "got '65537'", NULL);
	expect_error(HEAD "[workload]\npairs = -2\n", "got '-2'", NULL);
	expect_error(HEAD "[workload]\npairs = 2 3\n", "got '2 3'", NULL);
	expect_error(HEAD "[workload]\nwork_ns = 10000000001\n", "[workload] work_ns: expected an "
		     "integer 0..10000000000", NULL);
	expect_error(HEAD "[workload]\nmsg_bytes = 1073741825\n", "0..1073741824", NULL);
	expect_error(HEAD "[workload]\nperiod_us = 0\n", "[workload] period_us: expected an integer "
		     "1..10000000, got '0'", NULL);
	expect_error(HEAD "[workload]\nirq_rate_hz = fast\n", "s.ini:5: [workload] irq_rate_hz: "
		     "expected a number 0..10000000, got 'fast'", NULL);
	expect_error(HEAD "[workload]\nirq_rate_hz = nan\n", "got 'nan'", NULL);
	expect_error(HEAD "[workload]\nirq_rate_hz = 1e8\n", "got '1e8'", NULL);
	expect_error(HEAD "[workload]\ntype = tbench\n", "[workload] type: expected one of: "
		     "pingpong periodic poisson idle stream spin ipi server schbench rtapp learned, got 'tbench'", NULL);
	expect_error(HEAD "[workload]\nplacement = anywhere\n", "expected one of: same_core "
		     "same_package cross_package wake_idle", NULL);
	expect_error(HEAD "[workload]\nstart_cpus = random\n", "[workload] start_cpus: expected "
		     "one of: in_order shuffled, got 'random'", NULL);
	expect_error(HEAD "[workload]\nremote_llc_ns = -1\n", "[workload] remote_llc_ns", NULL);
	expect_error("[scenario]\nname = t\nplatform = amd-zen3\nduration_ms = 0\n",
		     "s.ini:4: [scenario] duration_ms: expected an integer 1..3600000, got '0'", NULL);
	expect_error(HEAD "warmup_ms = 3600001\n", "[scenario] warmup_ms", NULL);
	expect_error(HEAD "runs = 1001\n", "[scenario] runs: expected an integer 1..1000", NULL);
	expect_error(HEAD "seed = 18446744073709551616\n", "[scenario] seed: expected an integer "
		     "0..18446744073709551615 (decimal or 0x hex), got '18446744073709551616'", NULL);
	expect_error(HEAD "seed = -1\n", "got '-1'", NULL);
	expect_error("[scenario]\nname = has space\nplatform = amd-zen3\n", "s.ini:2: [scenario] "
		     "name: expected a name", NULL);
	expect_error(HEAD "[cpuidle]\ndriver = acpi\n", "s.ini:5: [cpuidle] driver: expected one of: "
		     "table acpi_idle intel_idle powernv_idle haltpoll none auto, got 'acpi'",
		     NULL);
	expect_error(HEAD "[cpuidle]\ngovernor = foo\n", "s.ini:5: [cpuidle] governor: unknown "
		     "governor 'foo'; available: ", "menu", NULL);
	expect_error(HEAD "[cpuidle]\ngovernor = averyveryverylonggovernorname\n",
		     "unknown governor", NULL);
	expect_error(HEAD "[cpuidle]\ndisable = C2 C7\n", "s.ini:5: [cpuidle] disable: no state "
		     "named 'C7' in platform amd-zen3; its states: POLL C1 C2", NULL);
	expect_error(HEAD "[cpuidle]\ndisable = A B C D E F G H I J K L M N O P Q\n",
		     "expected at most 16 state names", NULL);
	expect_error(HEAD "[cpuidle]\ndisable = C1-with-a-long-name\n",
		     "expected state names of at most 15 characters", NULL);
}

static void error_platform_reference(void **state)
{
	(void)state;
	expect_error("[scenario]\nname = t\nplatform = amd-zen9\n", "s.ini:3: [scenario] platform: "
		     "unknown platform 'amd-zen9'; built-in platforms: amd-zen2-rome amd-zen3-milan "
		     "amd-zen3 arm-juno", NULL);
	expect_error("[scenario]\nname = t\nplatform = /nonexistent/p.ini\n", "s.ini:3: [scenario] "
		     "platform: /nonexistent/p.ini: cannot open: No such file or directory", NULL);
	expect_error("[scenario]\nname = t\nplatform =\n", "s.ini:3: [scenario] platform: expected "
		     "a built-in platform name", NULL);
}

static void error_placement(void **state)
{
	(void)state;
	/* amd-zen3: 1 package x 64 cores x 2 threads */
	expect_error(HEAD "[workload]\ntype = pingpong\nplacement = cross_package\n",
		     "s.ini:6: [workload] placement cross_package", "needs packages >= 2, platform "
		     "amd-zen3 has 1", NULL);
	expect_error(HEAD "[workload]\ntype = pingpong\npairs = 65\nplacement = same_package\n",
		     "s.ini:7:", "65 pairs pin 130 tasks, one per CPU, but platform amd-zen3 has 128 "
		     "CPUs", NULL);
	expect_set_error(HEAD "[workload]\ntype = pingpong\npairs = 2\nplacement = same_core\n",
			 "platform.threads_per_core=1", "s.ini:7:", "same_core puts a pair on SMT "
			 "siblings: needs threads_per_core >= 2, platform amd-zen3 has 1", NULL);
	/* 4 cores x 4 threads: 5 pairs fit in the 16 CPUs but not on 4 cores */
	const char *ov[] = { "platform.cores_per_package=4", "platform.cores_per_llc=4",
			     "platform.threads_per_core=4", "workload.pairs=5" };
	char err[IK_ERR_LEN] = "";
	assert_int_equal(parse_ov(HEAD "[workload]\ntype = pingpong\nplacement = same_core\n", ov, 4,
				  err, sizeof(err)), -1);
	assert_non_null(strstr(err, "needs a core per pair: 5 pairs, platform amd-zen3 has 4 cores"));
	ov[3] = "workload.pairs=4";
	expect_ok_ov(HEAD "[workload]\ntype = pingpong\nplacement = same_core\n", ov, 4);
	const char *four_packages[] = { "scenario.platform=intel-skx", "platform.packages=4" };
	assert_int_equal(parse_ov(HEAD "[workload]\ntype = pingpong\npairs = 41\n"
				  "placement = cross_package\n", four_packages, 2, err, sizeof(err)), -1);
	assert_string_equal(err, "s.ini:7: [workload] placement cross_package needs a CPU per pair "
			    "in each package: 41 pairs, platform intel-skx has 40 CPUs per package");
	expect_ok_ov(HEAD "[workload]\ntype = pingpong\npairs = 40\nplacement = cross_package\n",
		     four_packages, 2);
	/* idle and unpinned workloads are not checked */
	expect_ok(HEAD "[workload]\ntype = idle\npairs = 65536\nplacement = same_core\n");
	expect_ok(HEAD "[workload]\ntype = pingpong\npairs = 65536\nplacement = wake_idle\n");
	expect_ok(HEAD "[workload]\ntype = pingpong\npairs = 20\nplacement = same_core\n");
}


/* ---- idle drivers and their kernel command-line options -------------------------------- */

static void driver_option_defaults(void **state)
{
	(void)state;
	expect_ok(HEAD);
	assert_string_equal(sc.driver, "table"); /* the default stays the table driver */
	assert_int_equal(sc.opt.latency_factor, 2);
	assert_int_equal(sc.opt.max_cstate, -1);
	assert_false(sc.opt.nocst || sc.opt.bm_check_disable || sc.opt.forced_wakeup ||
		     sc.opt.haltpoll_force);
	assert_int_equal(sc.opt.dummy_wait, IK_DUMMY_WAIT_INTEL_ONLY);
	assert_int_equal(sc.opt.use_acpi, -1);
	assert_int_equal(sc.opt.cst_fallback, IK_CST_FALLBACK_FIXED);
	assert_int_equal(sc.opt.pc6, -1);
	assert_int_equal(sc.opt.states_off, 0);
	assert_int_equal(sc.opt.idle, IK_IDLE_DEFAULT);
	assert_int_equal(sc.opt.prefer_mwait, IK_PREFER_MWAIT_CPUID);
}

static void driver_options(void **state)
{
	(void)state;
	expect_ok(HEAD "[cpuidle]\ndriver = acpi_idle\nlatency_factor = 3\nmax_cstate = 2\nnocst = no\n"
		  "bm_check_disable = yes\ndummy_wait = skip_on_zen\nuse_acpi = yes\n"
		  "cst_fallback = legacy\npc6 = disabled\nstates_off = 0x6\nforced_wakeup = on\n"
		  "idle = nomwait\nprefer_mwait = vendor\nhaltpoll_force = yes\n");
	assert_string_equal(sc.driver, "acpi_idle");
	assert_int_equal(sc.opt.latency_factor, 3);
	assert_int_equal(sc.opt.max_cstate, 2);
	assert_true(sc.opt.bm_check_disable && sc.opt.forced_wakeup && sc.opt.haltpoll_force);
	assert_int_equal(sc.opt.dummy_wait, IK_DUMMY_WAIT_SKIP_ON_ZEN);
	assert_int_equal(sc.opt.use_acpi, 1);
	assert_int_equal(sc.opt.cst_fallback, IK_CST_FALLBACK_LEGACY);
	assert_int_equal(sc.opt.pc6, 0);
	assert_int_equal(sc.opt.states_off, 6);
	assert_int_equal(sc.opt.idle, IK_IDLE_NOMWAIT);
	assert_int_equal(sc.opt.prefer_mwait, IK_PREFER_MWAIT_VENDOR);
	const char *ov[] = { "cpuidle.dummy_wait=always", "cpuidle.dummy_wait=not_in_guest",
			     "cpuidle.use_acpi=no", "cpuidle.pc6=enabled", "cpuidle.max_cstate=default",
			     "cpuidle.idle=halt", "cpuidle.driver=none" };
	expect_ok_ov(HEAD, ov, 7);
	assert_int_equal(sc.opt.dummy_wait, IK_DUMMY_WAIT_NOT_IN_GUEST);
	assert_int_equal(sc.opt.use_acpi, 0);
	assert_int_equal(sc.opt.pc6, 1);
	assert_int_equal(sc.opt.max_cstate, -1);
	assert_int_equal(sc.opt.idle, IK_IDLE_HALT);
	assert_string_equal(sc.driver, "none");
}

/* driver = auto becomes the driver the kernel would load; the driver's governor wins. */
static void driver_auto(void **state)
{
	(void)state;
	const char *ov[] = { "cpuidle.driver=auto" };
	expect_ok_ov(HEAD, ov, 1);
	assert_string_equal(sc.driver, "acpi_idle");
	assert_string_equal(sc.governor, "menu");
	const char *skx[] = { "cpuidle.driver=auto", "scenario.platform=intel-skx" };
	expect_ok_ov(HEAD, skx, 2);
	assert_string_equal(sc.driver, "intel_idle");
	const char *p9[] = { "cpuidle.driver=auto", "scenario.platform=ibm-power9" };
	expect_ok_ov(HEAD, p9, 2);
	assert_string_equal(sc.driver, "powernv_idle");
	const char *juno[] = { "cpuidle.driver=auto", "scenario.platform=arm-juno" };
	expect_ok_ov(HEAD, juno, 2);
	assert_string_equal(sc.driver, "table");
	const char *kvm[] = { "cpuidle.driver=auto", "scenario.platform=kvm-guest-haltpoll" };
	expect_ok_ov(HEAD, kvm, 2);
	assert_string_equal(sc.driver, "haltpoll");
	assert_string_equal(sc.governor, "haltpoll");
	const char *kvm_teo[] = { "cpuidle.driver=auto", "scenario.platform=kvm-guest-haltpoll",
				  "cpuidle.governor=teo" };
	expect_ok_ov(HEAD, kvm_teo, 3);
	assert_string_equal(sc.governor, "teo");
	const char *poll[] = { "cpuidle.driver=auto", "cpuidle.idle=poll" };
	expect_ok_ov(HEAD, poll, 2);
	assert_string_equal(sc.driver, "none");
	/* disable names the driver's states, not the hardware's */
	expect_ok(HEAD "[cpuidle]\ndriver = none\ndisable = \"MWAIT C1\"\n");
	assert_int_equal(sc.ndisabled, 1);
	assert_string_equal(sc.disabled[0], "MWAIT C1");
	const char *hp[] = { "scenario.platform=kvm-guest-haltpoll", "cpuidle.driver=haltpoll",
			     "cpuidle.disable=POLL, \"haltpoll idle\"" };
	expect_ok_ov(HEAD, hp, 3);
	assert_int_equal(sc.ndisabled, 2);
	assert_string_equal(sc.disabled[1], "haltpoll idle");
	expect_error(HEAD "[cpuidle]\ndisable = \"C1\n", "s.ini:5: [cpuidle] disable: expected a "
		     "closing '\"' after '\"C1'", NULL);
}

static void driver_errors(void **state)
{
	(void)state;
	expect_error(HEAD "[cpuidle]\ndriver = intel_idle\n", "s.ini:5: [cpuidle] driver: intel_idle "
		     "does not load on platform amd-zen3: intel_idle: needs an Intel family-6 CPU", NULL);
	expect_error(HEAD "[cpuidle]\ndriver = acpi_idle\ndisable = C6\n", "s.ini:6: [cpuidle] "
		     "disable: no state named 'C6' in platform amd-zen3; its states: POLL C1 C2 "
		     "(driver acpi_idle)", NULL);
	expect_error(HEAD "[cpuidle]\nlatency_factor = -1\n", "s.ini:5: [cpuidle] latency_factor: "
		     "expected an integer 0..1000, got '-1'", NULL);
	expect_error(HEAD "[cpuidle]\nmax_cstate = x\n", "s.ini:5: [cpuidle] max_cstate: expected "
		     "'default' or an integer 0..100, got 'x'", NULL);
	expect_error(HEAD "[cpuidle]\ndummy_wait = never\n", "s.ini:5: [cpuidle] dummy_wait: expected "
		     "one of: intel_only always not_in_guest skip_on_zen, got 'never'", NULL);
	expect_error(HEAD "[cpuidle]\nidle = mwait\n", "[cpuidle] idle: expected one of: default poll "
		     "halt nomwait, got 'mwait'", NULL);
	expect_error(HEAD "[cpuidle]\nprefer_mwait = amd\n", "expected one of: cpuid vendor", NULL);
	expect_error(HEAD "[cpuidle]\ncst_fallback = old\n", "expected one of: fixed legacy", NULL);
	expect_error(HEAD "[cpuidle]\npc6 = yes\n", "expected one of: platform disabled enabled", NULL);
	expect_error(HEAD "[cpuidle]\nforced_wakeup = yes\n", "expected one of: off on", NULL);
	expect_error(HEAD "[cpuidle]\nuse_acpi = 1\n", "expected one of: default yes no", NULL);
	expect_error(HEAD "[cpuidle]\nstates_off = 0x400\n", "[cpuidle] states_off: expected", NULL);
	expect_error(HEAD "[cpuidle]\nnocst = maybe\n", "[cpuidle] nocst: expected yes, no", NULL);
	expect_set_error(HEAD, "cpuidle.driver=haltpoll", "--set cpuidle.driver=haltpoll: [cpuidle] "
			 "driver: haltpoll does not load on platform amd-zen3: haltpoll: needs a KVM "
			 "guest", NULL);
	expect_set_error(HEAD, "cst2.method=mwait", "--set cst2.method=mwait: [cst2] method: expected "
			 "one of: ffh", NULL);
	/* v6.19 refuses a driver with a state whose exit latency exceeds its residency */
	expect_set_error(HEAD, "state2.residency_us=10", "s.ini:1: [cpuidle] driver: table (the "
			 "default) does not load on platform amd-zen3: table: state2 C2 has exit latency "
			 "18 us > target residency 10 us; the kernel (v6.19) refuses", NULL);
	expect_set_error(HEAD, "cpuid.bogus=1", "--set cpuid.bogus=1: unknown key 'bogus' in [cpuid]",
			 NULL);
}

static void error_overrides(void **state)
{
	(void)state;
	expect_set_error(HEAD, "workload.pair=3", "--set workload.pair=3: unknown key 'pair' in "
			 "[workload]; known keys: type pairs work_ns msg_bytes placement tasks "
			 "period_us task_work_ns irq_rate_hz irq_work_ns", NULL);
	expect_set_error(HEAD, "workload.pairs", "--set workload.pairs: expected section.key=value, "
			 "found no '='", NULL);
	expect_set_error(HEAD, "pairs=3", "--set pairs=3: expected section.key=value, found no '.'",
			 NULL);
	expect_set_error(HEAD, ".pairs=3", "--set .pairs=3: expected section.key=value, got an "
			 "empty section", NULL);
	expect_set_error(HEAD, "foo.bar=1", "--set foo.bar=1: unknown section [foo]; known sections: "
			 "scenario kernel cpuidle workload governor platform state0..state9 cpuid acpi "
			 "cst1..cst8 intel_idle dt_state0..dt_state15", NULL);
	expect_set_error(HEAD, "workload.pairs=abc", "--set workload.pairs=abc: [workload] pairs: "
			 "expected an integer 1..65536, got 'abc'", NULL);
	expect_set_error(HEAD, "state1.latency=3", "--set state1.latency=3: unknown key 'latency' in "
			 "[state1]; known keys: name desc latency_us", NULL);
	expect_set_error(HEAD, "platform.cores=3", "--set platform.cores=3: unknown key 'cores' in "
			 "[platform]", NULL);
	expect_set_error(HEAD, "state10.name=x", "unknown section [state10]", NULL);
	expect_set_error(HEAD, "state1.latency_us=abc", "--set state1.latency_us=abc: [state1] "
			 "latency_us: expected an integer 0..100000000, got 'abc'", NULL);
	expect_set_error(HEAD, "state1.latency_us=19", "--set state1.latency_us=19: states out of "
			 "order: state2 latency_us 18 < state1 latency_us 19", NULL);
	expect_set_error(HEAD, "cpuidle.governor=nope", "--set cpuidle.governor=nope: [cpuidle] "
			 "governor: unknown governor 'nope'", NULL);
	expect_set_error(HEAD, "cpuidle.disable=C9", "--set cpuidle.disable=C9: [cpuidle] disable: "
			 "no state named 'C9'", NULL);
	/* a state the platform lacks, created by an override, must be complete */
	expect_set_error(HEAD, "state4.name=C3", "--set state4.name=C3: [state4]: missing required "
			 "key 'latency_us'", NULL);
	expect_set_error(HEAD, "state6.name=C5", "--set state6.name=C5: [state6] without [state4]",
			 NULL);
	/* errors come in order: the first bad override is the one reported */
	const char *ov[] = { "workload.pairs=2", "kernel.hz=7", "workload.bogus=1" };
	char err[IK_ERR_LEN] = "";
	assert_int_equal(parse_ov(HEAD, ov, 3, err, sizeof(err)), -1);
	assert_string_equal(err, "--set kernel.hz=7: [kernel] hz: expected one of: 100 250 300 1000, "
			    "got '7'");
	/* a file error comes before any override error */
	assert_int_equal(parse_ov(HEAD "bogus = 1\n", ov, 3, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "s.ini:4: unknown key 'bogus' in [scenario]"));
	/* NULL overrides with a count are ignored rather than crash */
	const char *nulls[] = { NULL };
	assert_int_equal(parse_ov(HEAD, nulls, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "found no '='"));
}

/* The keys of the stream and spin workloads, the start delay and housekeeping. */
static void workload_and_kernel_extras(void **state)
{
	(void)state;
	expect_ok("[scenario]\nname = s\nplatform = amd-zen3\n[kernel]\nhousekeeping_hz = 100\n"
		  "housekeeping_work_ns = 3000\n[workload]\ntype = stream\nplacement = same_package\n"
		  "work_ns = 4000\nrecv_work_ns = 2500\nwork_ns_per_kb = 800\nstart_ms = 20\n"
		  "stop_ms = 30\n");
	assert_int_equal(sc.workload.stop_ns, 30 * IK_NSEC_PER_MSEC);
	assert_int_equal(sc.workload.kind, IK_WORKLOAD_STREAM);
	assert_true(sc.housekeeping_hz == 100.0);
	assert_int_equal(sc.housekeeping_work_ns, 3000);
	assert_int_equal(sc.workload.recv_work_ns, 2500);
	assert_int_equal(sc.workload.work_ns_per_kb, 800);
	assert_int_equal(sc.workload.start_ns, 20 * IK_NSEC_PER_MSEC);
	expect_ok("[scenario]\nname = s\nplatform = amd-zen3\n[workload]\ntype = spin\ntasks = 2\n"
		  "cpus = 3, 64\n");
	assert_int_equal(sc.workload.nspin_cpus, 2);
	assert_int_equal(sc.workload.spin_cpus[0], 3);
	assert_int_equal(sc.workload.spin_cpus[1], 64);
	expect_error("[scenario]\nname = s\nplatform = amd-zen3\n[workload]\ntype = spin\n"
		     "cpus = 3, 640\n", "s.ini:6", "cpus", "CPU 640 does not exist", NULL);
	expect_error("[scenario]\nname = s\nplatform = amd-zen3\n[workload]\ntype = spin\n"
		     "cpus = 3,x\n", "s.ini:6", "cpus", "expected CPU numbers", NULL);
	expect_ok("[scenario]\nname = s\nplatform = amd-zen3\n[workload]\ntype = idle\n"
		  "side_spin_cpus = 64, 65\nside_spin_work_ns = 5000\n");
	assert_int_equal(sc.workload.nside_spin_cpus, 2);
	assert_int_equal(sc.workload.side_spin_cpus[1], 65);
	assert_int_equal(sc.workload.side_spin_work_ns, 5000);
	expect_error("[scenario]\nname = s\nplatform = amd-zen3\n[workload]\nside_spin_cpus = 128\n",
		     "s.ini:5", "side_spin_cpus", "CPU 128 does not exist", NULL);
	expect_error("[scenario]\nname = s\nplatform = amd-zen3\n[workload]\ntype = stream\n",
		     "s.ini:5", "type stream", "pinned", NULL);
	expect_error("[scenario]\nname = s\nplatform = amd-zen3\n[kernel]\nhousekeeping_hz = -1\n",
		     "s.ini:5", "housekeeping_hz", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builtin_default),
		cmocka_unit_test(defaults_without_sections),
		cmocka_unit_test(every_key),
		cmocka_unit_test(overrides_take_effect),
		cmocka_unit_test(latency_limit_and_hz),
		cmocka_unit_test(platform_path_relative_to_scenario),
		cmocka_unit_test(error_file_level),
		cmocka_unit_test(error_values),
		cmocka_unit_test(error_platform_reference),
		cmocka_unit_test(error_placement),
		cmocka_unit_test(error_overrides),
		cmocka_unit_test(driver_option_defaults),
		cmocka_unit_test(driver_options),
		cmocka_unit_test(driver_auto),
		cmocka_unit_test(driver_errors),
		cmocka_unit_test(workload_and_kernel_extras),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
