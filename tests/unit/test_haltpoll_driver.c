/*
 * cpuidle-haltpoll: POLL + "haltpoll idle" 1/1 in a KVM guest, its loading conditions,
 * the governor it asks for, and the idle routine its halt state runs.
 */
#include "driver_test.h"

static void guest_table(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("kvm-guest-haltpoll", "haltpoll", NULL);
	assert_string_equal(drv->name, "haltpoll");
	assert_int_equal(drv->state_count, 2);
	dt_state_is(drv, 0, "POLL", "CPUIDLE CORE POLL IDLE", 0, 0);
	dt_state_is(drv, 1, "haltpoll idle", "default architecture idle", 1, 1);
	assert_int_equal(drv->states[1].power_usage, -1);
	assert_int_equal(dt_hw(1)->method, IK_METHOD_HLT); /* no MWAIT in the guest */
	assert_true(dt_hw(1)->needs_ipi);
	assert_int_equal(dt_hw(0)->method, IK_METHOD_POLL);
	assert_string_equal(dt_b.ops->governor, "haltpoll");
}

/* The driver's governor wins unless the scenario names one (cpuidle.governor=). */
static void governor_choice(void **state)
{
	(void)state;
	assert_string_equal(dt_resolved("kvm-guest-haltpoll", NULL), "haltpoll");
	assert_string_equal(dt_sc.governor, "haltpoll");
	dt_table("kvm-guest-haltpoll", "haltpoll", NULL);
	assert_string_equal(dt_sc.governor, "haltpoll");
	dt_table("kvm-guest-haltpoll", "haltpoll", "cpuidle.governor=teo", NULL);
	assert_string_equal(dt_sc.governor, "teo");
	/* another driver leaves the default */
	dt_table("intel-skx", "intel_idle", NULL);
	assert_string_equal(dt_sc.governor, "menu");
}

static void loading_conditions(void **state)
{
	(void)state;
	dt_load_fails("kvm-guest-haltpoll", "haltpoll", "does not hint dedicated vCPUs",
		      "cpuid.kvm_hint_realtime=no", NULL);
	dt_table("kvm-guest-haltpoll", "haltpoll", "cpuid.kvm_hint_realtime=no",
		 "cpuidle.haltpoll_force=yes", NULL);
	dt_load_fails("kvm-guest-haltpoll", "haltpoll", "not loaded with any idle= option",
		      "cpuidle.idle=halt", NULL);
	dt_load_fails("intel-skx", "haltpoll", "needs a KVM guest", NULL);
	/* without the hint the guest has no cpuidle driver: HLT as the default routine */
	assert_string_equal(dt_resolved("kvm-guest-haltpoll", "cpuid.kvm_hint_realtime=no", NULL),
			    "none");
}

/* A guest that sees MWAIT runs "haltpoll idle" as MWAIT C1 (arch_cpu_idle). */
static void halt_state_follows_routine(void **state)
{
	(void)state;
	dt_table("kvm-guest-haltpoll", "haltpoll", "cpuid.mwait=yes", "cpuid.cpuid5_ecx=0x3",
		 "cpuid.cpuid5_edx=0x20", "state2.name=MWAIT", "state2.latency_us=1",
		 "state2.residency_us=1", "state2.method=mwait", "state2.hint=0", "state2.in_table=no",
		 NULL);
	assert_int_equal(dt_hw(1)->method, IK_METHOD_MWAIT);
	assert_false(dt_hw(1)->needs_ipi);
}

/* In the simulator: the haltpoll governor adapts the POLL window of the guest. */
static void runs_in_simulation(void **state)
{
	(void)state;
	struct ik_run_result r;
	char err[IK_ERR_LEN];
	const char *ov[] = { "cpuidle.driver=auto", "workload.type=pingpong", "workload.pairs=2",
			     "scenario.duration_ms=20" };

	if (ik__scenario_parse_string("t.ini", "[scenario]\nname = t\nplatform = kvm-guest-haltpoll\n",
				     ov, 4, &dt_sc, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(dt_sc.driver, "haltpoll");
	assert_string_equal(dt_sc.governor, "haltpoll");
	if (ik__sim_run(&dt_sc, 1, &r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(r.total[0].usage + r.total[1].usage > 0);
	ik__run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(guest_table),
		cmocka_unit_test(governor_choice),
		cmocka_unit_test(loading_conditions),
		cmocka_unit_test(halt_state_follows_routine),
		cmocka_unit_test(runs_in_simulation),
	};
	return cmocka_run_group_tests(tests, NULL, dt_teardown);
}
