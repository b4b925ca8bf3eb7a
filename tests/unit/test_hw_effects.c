/*
 * Turbo, SMT and package states: the effects that make a CPU's speed and the wake-up
 * cost depend on the idle states of the others.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sim/sim.h"
#include "sim_fixture.h"

static void test_turbo_table_lookup(void **state)
{
	(void)state;
	struct ik_hw_effects fx = { .base_mhz = 2000, .nturbo = 3,
				    .turbo_cores = { 1, 2, 4 }, .turbo_mhz = { 4000, 3000, 2500 } };
	assert_int_equal(ik__effects_mhz(&fx, 0), 4000);
	assert_int_equal(ik__effects_mhz(&fx, 1), 4000);
	assert_int_equal(ik__effects_mhz(&fx, 2), 3000);
	assert_int_equal(ik__effects_mhz(&fx, 3), 2500);
	assert_int_equal(ik__effects_mhz(&fx, 9), 2500); /* beyond the table: its last row */
	struct ik_hw_effects none = { .base_mhz = 0 };
	assert_int_equal(ik__effects_mhz(&none, 5), 0);
}

static void test_duration_scaling(void **state)
{
	(void)state;
	struct ik_hw_effects fx = { .base_mhz = 2000 };
	assert_int_equal(ik__effects_duration(&fx, 1000, 4000, 1.0), 500);  /* twice as fast */
	assert_int_equal(ik__effects_duration(&fx, 1000, 2000, 0.5), 2000); /* half an SMT core */
	assert_int_equal(ik__effects_duration(&fx, 1000, 0, 1.0), 1000);    /* unknown MHz */
	assert_int_equal(ik__effects_duration(&fx, 0, 4000, 1.0), 0);
	assert_int_equal(ik__effects_duration(&fx, 1, 8000, 1.0), 1);       /* never 0 for work */
}

/*
 * One pinned pair on two cores of four.  With a power-gating C6 enabled, the two unused
 * cores gate and the pair runs at the 2-active-core turbo (3000 MHz); with C6 disabled
 * they stay in C1 and all four count as active (2000 MHz).  The work is most of the round
 * trip, so throughput rises by nearly 3000/2000.
 */
static void test_deep_states_give_turbo_headroom(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result with_c6, without_c6;
	char err[256];

	small_scenario(&sc, IK_WORKLOAD_PINGPONG);
	sc.platform.threads_per_core = 1;
	sc.platform.state_count = 2;
	add_state(&sc.platform, "C6", 100, 5000, IK_METHOD_MWAIT, 60000);
	struct ik_hw_effects *fx = &sc.platform.effects;
	fx->base_mhz = 2000;
	fx->nturbo = 3;
	fx->turbo_cores[0] = 1, fx->turbo_mhz[0] = 3500;
	fx->turbo_cores[1] = 2, fx->turbo_mhz[1] = 3000;
	fx->turbo_cores[2] = 4, fx->turbo_mhz[2] = 2000;
	fx->state_core_off[2] = true;
	sc.workload.pairs = 1;
	sc.workload.placement = IK_PLACE_SAME_PACKAGE;
	sc.workload.work_ns = 50000;
	assert_int_equal(ik__sim_run(&sc, 1, &with_c6, err, sizeof(err)), 0);
	sc.ndisabled = 1;
	snprintf(sc.disabled[0], IK_NAME_LEN, "C6");
	assert_int_equal(ik__sim_run(&sc, 1, &without_c6, err, sizeof(err)), 0);

	double gain = (double)with_c6.messages / (double)without_c6.messages;
	assert_true(gain > 1.3 && gain < 1.5);
	ik__run_result_free(&with_c6);
	ik__run_result_free(&without_c6);
}

/*
 * A pinned pair on the two threads of one core, only POLL enabled: each thread works
 * while its sibling polls.  When polling holds the core (lite factor 0.5), work takes twice
 * as long and the message rate nearly halves.
 */
static void test_polling_sibling_slows_the_busy_thread(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result free_core, shared_core;
	char err[256];

	small_scenario(&sc, IK_WORKLOAD_PINGPONG);
	sc.workload.pairs = 1;
	sc.workload.placement = IK_PLACE_SAME_CORE;
	sc.workload.work_ns = 20000;
	sc.ndisabled = 2;
	snprintf(sc.disabled[0], IK_NAME_LEN, "C1");
	snprintf(sc.disabled[1], IK_NAME_LEN, "C2");
	sc.platform.effects.smt_sibling_lite = 0.5;
	assert_int_equal(ik__sim_run(&sc, 1, &free_core, err, sizeof(err)), 0);
	sc.platform.effects.state_lite[0] = true;
	assert_int_equal(ik__sim_run(&sc, 1, &shared_core, err, sizeof(err)), 0);

	double ratio = (double)shared_core.messages / (double)free_core.messages;
	assert_true(ratio > 0.48 && ratio < 0.56);
	ik__run_result_free(&free_core);
	ik__run_result_free(&shared_core);
}

/*
 * Two single-thread cores; CPU 1 never has work and gates for good; CPU 0 sleeps in C2
 * (power-gating) between its 10 ms timer wake-ups, so the package is deep every time and
 * each wake-up pays the package's 50 us on top of C2's 20 us exit and the 0.5 us switch.
 */
static void test_package_state_adds_its_exit_cost(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;
	char err[256];

	small_scenario(&sc, IK_WORKLOAD_PERIODIC);
	sc.platform.cores_per_package = 2;
	sc.platform.cores_per_llc = 2;
	sc.platform.threads_per_core = 1;
	sc.platform.effects.state_core_off[2] = true;
	sc.platform.effects.pkg_exit_ns = constant(50000);
	sc.platform.effects.pkg_idle_mw = 1000;
	sc.platform.effects.pkg_active_mw = 9000;
	sc.workload.tasks = 1;
	sc.workload.period_ns = 10 * IK_NSEC_PER_MSEC;
	sc.workload.task_work_ns = 10000;
	sc.duration_ns = 500 * IK_NSEC_PER_MSEC;
	sc.warmup_ns = 100 * IK_NSEC_PER_MSEC;
	assert_int_equal(ik__sim_run(&sc, 1, &r, err, sizeof(err)), 0);

	assert_true(r.wakeups >= 49);
	int64_t p50 = ik__hist_percentile(&r.wake_latency, 50);
	assert_true(p50 >= 70500 - 70500 / 128 && p50 <= 70500 + 70500 / 128);
	/* deep except while CPU 0 exits and runs: about 80.5 us in every 10 ms */
	double deep_pct = 100.0 * (double)r.package_deep_ns / (double)sc.duration_ns;
	assert_true(deep_pct > 98.5 && deep_pct < 99.5);
	ik__run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_turbo_table_lookup),
		cmocka_unit_test(test_duration_scaling),
		cmocka_unit_test(test_deep_states_give_turbo_headroom),
		cmocka_unit_test(test_polling_sibling_slows_the_busy_thread),
		cmocka_unit_test(test_package_state_adds_its_exit_cost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
