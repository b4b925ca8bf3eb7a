/*
 * The x86 default idle routine ("none": no cpuidle driver): which routine the kernel picks
 * from CPUID and idle=, before and after v6.0's prefer_mwait_c1_over_halt change, and the
 * real costs following the routine (IPI need, exit).
 */
#include "driver_test.h"

/* The routine the "none" driver picks on a platform with overrides. */
#define ROUTINE(platform, ...) (dt_table(platform, "none", __VA_ARGS__)->states[0].name)

static void zen3_mwait_by_cpuid(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("amd-zen3", "none", NULL);
	assert_string_equal(drv->name, "none");
	assert_int_equal(drv->state_count, 1);
	dt_state_is(drv, 0, "MWAIT C1", "mwait_idle: MWAIT 0x00", 0, 0);
	assert_true(dt_b.bypass_governor);
	assert_int_equal(dt_hw(0)->method, IK_METHOD_MWAIT);
	assert_false(dt_hw(0)->needs_ipi); /* the waker writes need_resched: no IPI */
	assert_int_equal(dt_sc.opt.prefer_mwait, IK_PREFER_MWAIT_CPUID);
}

/* Before v6.0 only Intel preferred MWAIT: Zen 3 halted. */
static void zen3_hlt_by_vendor(void **state)
{
	(void)state;
	assert_string_equal(ROUTINE("amd-zen3", "cpuidle.prefer_mwait=vendor", NULL), "HLT");
	assert_string_equal(dt_b.table.states[0].desc, "default_idle: STI; HLT");
	assert_int_equal(dt_hw(0)->method, IK_METHOD_HLT);
	assert_true(dt_hw(0)->needs_ipi);
	assert_int_equal(dt_hw(0)->exit[IK_WAKE_IPI].a_ns, 1000); /* HLT's exit, not C1's */
	assert_string_equal(ROUTINE("intel-skx", "cpuidle.prefer_mwait=vendor", NULL), "MWAIT C1");
}

/* The v6.0 rule, branch by branch. */
static void cpuid_rule(void **state)
{
	(void)state;
	assert_string_equal(ROUTINE("amd-zen3", "cpuidle.idle=nomwait", NULL), "HLT");
	assert_string_equal(ROUTINE("amd-zen3", "cpuid.mwait=no", NULL), "HLT");
	assert_string_equal(ROUTINE("amd-zen3", "cpuid.monitor_bug=yes", NULL), "HLT");
	/* extensions reported but no C1 sub-state: HLT */
	assert_string_equal(ROUTINE("amd-zen3", "cpuid.cpuid5_edx=0x1", NULL), "HLT");
	/* no extensions reported: MWAIT hint 0 is safe */
	assert_string_equal(ROUTINE("amd-zen3", "cpuid.cpuid5_ecx=0", "cpuid.cpuid5_edx=0", NULL),
			    "MWAIT C1");
	/* vendor rule: nomwait and the MONITOR bug count there too */
	assert_string_equal(ROUTINE("intel-skx", "cpuidle.prefer_mwait=vendor",
				    "cpuid.monitor_bug=yes", NULL), "HLT");
	assert_string_equal(ROUTINE("intel-skx", "cpuidle.prefer_mwait=vendor",
				    "cpuidle.idle=nomwait", NULL), "HLT");
}

static void idle_options(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("amd-zen3", "none", "cpuidle.idle=poll", NULL);
	dt_state_is(drv, 0, "POLL", "cpu_idle_poll (idle=poll)", 0, 0);
	assert_false(drv->states[0].flags & IK_FLAG_POLLING); /* no poll time limit */
	assert_int_equal(dt_hw(0)->method, IK_METHOD_POLL);
	assert_string_equal(ROUTINE("intel-skx", "cpuidle.idle=halt", NULL), "HLT");
	/* with idle=poll no cpuidle driver loads at all */
	assert_string_equal(dt_resolved("intel-skx", "cpuidle.idle=poll", NULL), "none");
	assert_string_equal(dt_resolved("amd-zen3", "cpuidle.idle=halt", NULL), "none");
}

/* AMD erratum 400 comes first; with the APIC C1E bug the timer stops. */
static void amd_e400(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("amd-zen3", "none", "cpuid.amd_e400=yes", NULL);
	dt_state_is(drv, 0, "AMD E400", "amd_e400_idle: HLT", 0, 0);
	assert_false(drv->states[0].flags & IK_FLAG_TIMER_STOP);
	assert_int_equal(dt_hw(0)->method, IK_METHOD_HLT);
	drv = dt_table("amd-zen3", "none", "cpuid.amd_e400=yes", "cpuid.amd_apic_c1e=yes", NULL);
	assert_true(drv->states[0].flags & IK_FLAG_TIMER_STOP);
	assert_string_equal(ROUTINE("amd-zen3", "cpuid.amd_e400=yes", "cpuidle.idle=poll", NULL), "POLL");
}

static void other_architectures(void **state)
{
	(void)state;
	assert_string_equal(ROUTINE("arm-juno", NULL), "WFI");
	assert_int_equal(dt_hw(0)->method, IK_METHOD_WFI);
	assert_string_equal(ROUTINE("ibm-power9", NULL), "stop0_lite");
	/* a platform without the routine's state: said clearly */
	dt_load_fails("kvm-guest-haltpoll", "none", "add a [stateN] with method = mwait, hint = 0x0",
		      "cpuid.mwait=yes", "cpuid.cpuid5_ecx=0", NULL);
}

/* In the simulator: waking an MWAIT CPU needs no IPI, waking a halted one does. */
static void ipis_follow_routine(void **state)
{
	(void)state;
	struct ik_run_result r;
	char err[IK_ERR_LEN];
	uint64_t ipis[2], messages[2];

	for (int k = 0; k < 2; k++) {
		const char *ov[] = { "cpuidle.driver=none",
				     k ? "cpuidle.prefer_mwait=vendor" : "cpuidle.prefer_mwait=cpuid",
				     "workload.type=pingpong", "workload.pairs=1",
				     "workload.placement=same_package", "scenario.duration_ms=20" };
		if (ik__scenario_parse_string("t.ini", "[scenario]\nname = t\nplatform = amd-zen3\n", ov,
					     6, &dt_sc, err, sizeof(err)))
			fail_msg("%s", err);
		if (ik__sim_run(&dt_sc, 1, &r, err, sizeof(err)))
			fail_msg("%s", err);
		ipis[k] = r.ipis;
		messages[k] = r.messages;
		ik__run_result_free(&r);
	}
	assert_int_equal(ipis[0], 0);
	assert_true(ipis[1] > 100);
	assert_true(messages[0] > messages[1]); /* MWAIT: faster round trips (seed 002's direction) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zen3_mwait_by_cpuid),
		cmocka_unit_test(zen3_hlt_by_vendor),
		cmocka_unit_test(cpuid_rule),
		cmocka_unit_test(idle_options),
		cmocka_unit_test(amd_e400),
		cmocka_unit_test(other_architectures),
		cmocka_unit_test(ipis_follow_routine),
	};
	return cmocka_run_group_tests(tests, NULL, dt_teardown);
}
