/*
 * The periodic workload's I/O bursts (burst_ios, io_ns): each period's timer work is
 * followed by burst_ios waits for a completion interrupt, each ending in the handler and
 * another piece of work.  Constant costs, so the counts and times follow by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config/result.h"
#include "config/scenario.h"
#include "sim/sim.h"

/* One task on CPU 0 of a POWER9, 1 ms period, 16 us of work, 100 ms measured, no
   housekeeping timer: every idle period of CPU 0 is the workload's or the tick's. */
static void run_bursts(const char *const *extra, int nextra, struct ik_run_result *r)
{
	static const char text[] = "[scenario]\nname = io\nplatform = ibm-power9\n"
				   "duration_ms = 100\nwarmup_ms = 10\n"
				   "[kernel]\nhousekeeping_hz = 0\n"
				   "[cpuidle]\ndriver = powernv_idle\ngovernor = menu\n"
				   "[workload]\ntype = periodic\ntasks = 1\nperiod_us = 1000\n"
				   "task_work_ns = 16000\nio_ns = constant 20000\nirq_work_ns = 2000\n";
	struct ik_scenario sc;
	char err[IK_ERR_LEN];

	if (ik__scenario_parse_string("io.ini", text, extra, nextra, &sc, err, sizeof(err)) != 0)
		fail_msg("scenario: %s", err);
	if (ik__sim_run(&sc, 1, r, err, sizeof(err)) != 0)
		fail_msg("sim: %s", err);
}

/*
 * burst_ios = 3: per period one timer wake-up and three I/O completions, each waking the
 * task (4 wake-ups, 4 x 16 us of work and 3 x 2 us of handler); without bursts one wake-up
 * and 16 us.  100 periods are measured.
 */
static void test_burst_wakeups_and_work(void **state)
{
	(void)state;
	static const char *const bursts[] = { "workload.burst_ios=3" };
	struct ik_run_result plain, io;

	run_bursts(NULL, 0, &plain);
	run_bursts(bursts, 1, &io);
	print_message("wake-ups %llu plain, %llu with bursts; busy %lld / %lld ns\n",
		      (unsigned long long)plain.wakeups, (unsigned long long)io.wakeups,
		      (long long)plain.busy_ns, (long long)io.busy_ns);
	assert_true(plain.wakeups >= 99 && plain.wakeups <= 101);
	assert_true(io.wakeups >= 4 * 99 && io.wakeups <= 4 * 101);
	/* busy: the work, the handlers and the context switches, a little more each time */
	assert_true(plain.busy_ns >= 100 * 16000LL && plain.busy_ns < 101 * 20000LL);
	assert_true(io.busy_ns >= 100 * (4 * 16000LL + 3 * 2000) && io.busy_ns < 101 * 85000LL);
	/* the I/O waits are idle periods of their own: about four idle entries per period */
	assert_true(io.idle_entries >= plain.idle_entries + 3 * 99);
	ik__run_result_free(&plain);
	ik__run_result_free(&io);
}

/* A CPU waits for one task's I/O at a time: more tasks than CPUs is refused. */
static void test_more_tasks_than_cpus_refused(void **state)
{
	(void)state;
	static const char text[] = "[scenario]\nname = io\nplatform = ibm-power9\n"
				   "[workload]\ntype = periodic\ntasks = 177\nburst_ios = 2\n";
	struct ik_scenario sc;
	char err[IK_ERR_LEN];

	assert_int_not_equal(ik__scenario_parse_string("io.ini", text, NULL, 0, &sc, err,
						      sizeof(err)), 0);
	assert_non_null(strstr(err, "io.ini:7"));
	assert_non_null(strstr(err, "burst_ios"));
	assert_non_null(strstr(err, "tasks <= 176"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_wakeups_and_work),
		cmocka_unit_test(test_more_tasks_than_cpus_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
