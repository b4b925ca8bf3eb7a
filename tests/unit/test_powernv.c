/*
 * cpuidle-powernv: snooze and the device-tree stop states, the kernel's filters (latency
 * threshold, PSSCR checks, timebase stop), the snooze timeout, lite states and the forced
 * wake-up timer of the 2019 proposal.
 */
#include "driver_test.h"

static void power9_table(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("ibm-power9", "powernv_idle", NULL);
	assert_string_equal(drv->name, "powernv_idle");
	assert_int_equal(drv->state_count, 7);
	dt_state_is(drv, 0, "snooze", "snooze", 0, 0);
	assert_true(drv->states[0].flags & IK_FLAG_POLLING);
	dt_state_is(drv, 1, "stop0_lite", "stop0_lite", 1, 10);
	dt_state_is(drv, 2, "stop0", "stop0", 2, 20);
	dt_state_is(drv, 3, "stop1", "stop1", 5, 50);
	dt_state_is(drv, 4, "stop2", "stop2", 10, 100);
	dt_state_is(drv, 5, "stop4", "stop4", 100, 10000);
	dt_state_is(drv, 6, "stop5", "stop5", 200, 20000);
	for (int i = 1; i < 7; i++) {
		assert_int_equal(drv->states[i].flags, 0);
		assert_int_equal(dt_hw(i)->method, IK_METHOD_STOP);
		assert_string_equal(dt_hw(i)->name, drv->states[i].name);
	}
	assert_string_equal(dt_resolved("ibm-power9", NULL), "powernv_idle");
}

static void power10_table(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("ibm-power10", "powernv_idle", NULL);
	assert_int_equal(drv->state_count, 5);
	dt_state_is(drv, 1, "stop0_lite", "stop0_lite", 1, 10);
	dt_state_is(drv, 2, "stop0", "stop0", 10, 100);
	dt_state_is(drv, 3, "stop2", "stop2", 20, 200);
	dt_state_is(drv, 4, "stop3", "stop3", 45, 450);
}

/* The kernel's filters on device-tree states. */
static void dt_filters(void **state)
{
	(void)state;
	/* stop11 (10 ms): over the 200 us threshold */
	const struct ik_driver *drv =
		dt_table("ibm-power9", "powernv_idle", "dt_state6.name=stop11",
			 "dt_state6.flags=stop_deep lose_user_context lose_hyp_context lose_full_context timebase_stop",
			 "dt_state6.latency_ns=10000000", "dt_state6.residency_ns=100000000",
			 "dt_state6.psscr=0x30033b", NULL);
	assert_int_equal(drv->state_count, 7);
	assert_non_null(strstr(dt_b.notes, "stop11 latency 10000000 ns > 200 us: skipped"));
	/* latency rounds up to us; a timebase-stopping state gets TIMER_STOP */
	drv = dt_table("ibm-power9", "powernv_idle", "dt_state5.latency_ns=150001",
		       "dt_state5.flags=stop_deep lose_user_context lose_full_context timebase_stop",
		       NULL);
	dt_state_is(drv, 6, "stop5", "stop5", 151, 20000);
	assert_true(drv->states[6].flags & IK_FLAG_TIMER_STOP);
	/* PSSCR: ESL without EC, or a deep state without ESL: skipped */
	drv = dt_table("ibm-power9", "powernv_idle", "dt_state2.psscr=0x200331",
		       "dt_state4.psscr=0x334", NULL);
	assert_int_equal(drv->state_count, 5);
	assert_non_null(strstr(dt_b.notes, "stop1: PSSCR ESL and EC bits differ"));
	assert_non_null(strstr(dt_b.notes, "stop4: a state losing full context without PSSCR ESL"));
	/* latency above residency: v6.19 refuses the driver */
	dt_load_fails("ibm-power9", "powernv_idle", "exit latency 20 us > target residency 10 us",
		      "dt_state1.residency_ns=10000", "dt_state1.latency_ns=20000", NULL);
	dt_load_fails("intel-skx", "powernv_idle", "needs an IBM POWER platform", NULL);
	/* no device-tree states: snooze alone */
	drv = dt_table("kvm-guest-haltpoll", "powernv_idle", "cpuid.vendor=ibm",
		       "cpuid.hypervisor=none", "cpuid.kvm_hint_realtime=no", NULL);
	assert_int_equal(drv->state_count, 1);
	assert_non_null(strstr(dt_b.notes, "only snooze is available"));
}

/* snooze gives up after the next enabled state's residency, or a tick without one. */
static void snooze_timeout(void **state)
{
	(void)state;
	struct ik_device dev;
	struct ik_rng rng;
	const struct ik_driver *drv = dt_table("ibm-power9", "powernv_idle", NULL);

	ik__rng_seed(&rng, 1);
	ik_device_init(&dev, drv, 0, 250);
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 0, 0, &rng), 0);
	assert_int_equal(dev.poll_limit_ns, 10000);            /* stop0_lite's residency */
	assert_int_equal(ik_poll_time(drv, &dev), 10000);
	dev.states_disable[1] = IK_DISABLE_USER;
	dt_b.ops->enter(&dt_b, &dev, 0, 0, &rng);
	assert_int_equal(dev.poll_limit_ns, 20000);            /* stop0's */
	for (int i = 1; i < drv->state_count; i++)
		dev.states_disable[i] = IK_DISABLE_USER;
	dt_b.ops->enter(&dt_b, &dev, 0, 0, &rng);
	assert_int_equal(dev.poll_limit_ns, 4000000);          /* TICK_USEC at HZ=250 */
}

/* Lite states and the forced wake-up: residency + 2 x exit latency of the next state. */
static void forced_wakeup(void **state)
{
	(void)state;
	struct ik_device dev;
	const struct ik_driver *drv = dt_table("ibm-power9", "powernv_idle", NULL);

	ik_device_init(&dev, drv, 0, 250);
	assert_false(dt_sc.opt.forced_wakeup); /* never merged: off by default */
	assert_int_equal(dt_b.ops->wakeup_timer_ns(&dt_b, &dev, 1), 0);
	drv = dt_table("ibm-power9", "powernv_idle", "cpuidle.forced_wakeup=on", NULL);
	assert_int_equal(dt_b.ops->wakeup_timer_ns(&dt_b, &dev, 1), (20 + 2 * 2) * 1000); /* stop0 */
	assert_int_equal(dt_b.ops->wakeup_timer_ns(&dt_b, &dev, 2), 0); /* stop0 is not lite */
	assert_int_equal(dt_b.ops->wakeup_timer_ns(&dt_b, &dev, 0), 0); /* snooze has its timeout */
	dev.states_disable[2] = IK_DISABLE_USER;
	dev.states_disable[3] = IK_DISABLE_USER;
	assert_int_equal(dt_b.ops->wakeup_timer_ns(&dt_b, &dev, 1), (100 + 2 * 10) * 1000); /* stop2 */
	for (int i = 2; i < drv->state_count; i++)
		dev.states_disable[i] = IK_DISABLE_USER;
	assert_int_equal(dt_b.ops->wakeup_timer_ns(&dt_b, &dev, 1), 0);
}

/*
 * In the simulator: ladder walks up from snooze one state at a time; on an idle POWER9 it
 * parks the CPUs in stop0_lite, and with the tick stopped nothing gets them out (seed
 * experiment case 1).  The forced wake-up kicks them out after 20 + 2 x 2 us, so ladder
 * sees long enough idle periods to promote.
 */
static void forced_wakeup_in_simulation(void **state)
{
	(void)state;
	struct ik_run_result r;
	char err[IK_ERR_LEN];
	uint64_t lite_usage[2], lite_time[2];

	for (int k = 0; k < 2; k++) {
		const char *ov[] = { "cpuidle.driver=powernv_idle", "cpuidle.governor=ladder",
				     k ? "cpuidle.forced_wakeup=on" : "cpuidle.forced_wakeup=off",
				     "workload.type=idle", "scenario.duration_ms=50",
				     "platform.packages=1", "platform.cores_per_package=2" };
		if (ik__scenario_parse_string("t.ini", "[scenario]\nname = t\nplatform = ibm-power9\n",
					     ov, 7, &dt_sc, err, sizeof(err)))
			fail_msg("%s", err);
		if (ik__sim_run(&dt_sc, 1, &r, err, sizeof(err)))
			fail_msg("%s", err);
		lite_usage[k] = r.total[1].usage;
		lite_time[k] = r.total[1].time_ns;
		ik__run_result_free(&r);
	}
	assert_int_equal(lite_usage[0], 0); /* stuck: no stop0_lite period ever ended */
	assert_true(lite_usage[1] > 0);
	/* each ended at the timer: 24 us plus the exit */
	assert_true(lite_time[1] / lite_usage[1] >= 24000 && lite_time[1] / lite_usage[1] < 30000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(power9_table),
		cmocka_unit_test(power10_table),
		cmocka_unit_test(dt_filters),
		cmocka_unit_test(snooze_timeout),
		cmocka_unit_test(forced_wakeup),
		cmocka_unit_test(forced_wakeup_in_simulation),
	};
	return cmocka_run_group_tests(tests, NULL, dt_teardown);
}
