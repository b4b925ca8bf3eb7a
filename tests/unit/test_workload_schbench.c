/*
 * The schbench workload: message threads waking their workers, requests of a sleep then
 * work, in its default (saturating) mode and its -R (requests per second) mode.
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

static void run_schbench(const char *const *extra, int nextra, struct ik_run_result *r)
{
	static const char text[] = "[scenario]\nname = sb\nplatform = amd-zen3\n"
				   "duration_ms = 1000\nwarmup_ms = 50\n"
				   "[workload]\ntype = schbench\nmessage_threads = 2\nworkers = 8\n"
				   "sleep_us = 100\nwork_ns = 20000\n";
	struct ik_scenario sc;
	char err[IK_ERR_LEN];

	if (ik__scenario_parse_string("sb.ini", text, extra, nextra, &sc, err, sizeof(err)) != 0)
		fail_msg("scenario: %s", err);
	if (ik__sim_run(&sc, 1, r, err, sizeof(err)) != 0)
		fail_msg("sim: %s", err);
	assert_non_null(r->requests);
}

/*
 * Default mode: 16 workers each loop on "sleep 100 us, work 20 us, ask for more": a request
 * takes at least 120 us, so at most 16 / 120 us = 133 333 requests/s; the wake-ups and idle
 * exits on the way make it fewer, and a request's latency is never below 120 us.
 */
static void test_saturating_mode(void **state)
{
	(void)state;
	struct ik_run_result r;

	run_schbench(NULL, 0, &r);
	const struct ik_request_stats *q = r.requests;
	print_message("%llu requests, request p50 %lld ns, wakeup p50 %lld ns\n",
		      (unsigned long long)q->done, (long long)ik__hist_percentile(&q->latency, 50),
		      (long long)ik__hist_percentile(&q->wake, 50));
	assert_true(q->done > 60000 && q->done < 133334);
	assert_true(q->latency.min >= 120000);
	assert_true(q->wake.count > 60000);
	assert_int_equal(q->dropped, 0);
	ik__run_result_free(&r);
}

/* Every wake-up passes through an idle exit: holding the CPUs shallow makes them faster,
   and the requests with them. */
static void test_wakeup_latency_follows_idle_states(void **state)
{
	(void)state;
	static const char *const shallow[] = { "kernel.latency_limit_us=5" };
	struct ik_run_result deep, flat;

	run_schbench(NULL, 0, &deep);
	run_schbench(shallow, 1, &flat);
	assert_true(ik__hist_percentile(&flat.requests->wake, 50) <
		    ik__hist_percentile(&deep.requests->wake, 50) / 2);
	assert_true(flat.requests->done > deep.requests->done);
	ik__run_result_free(&deep);
	ik__run_result_free(&flat);
}

/*
 * -R 4000: 2000 requests per message thread posted at the start of each second, 250 per
 * worker, so a worker goes past 128 pending and the message thread skips requests; every
 * posted request is either done or skipped by the end (1 s measured = one burst).
 */
static void test_rps_mode(void **state)
{
	(void)state;
	static const char *const low[] = { "workload.rps=1000" };
	static const char *const high[] = { "workload.rps=4000" };
	struct ik_run_result a, b;

	run_schbench(low, 1, &a);
	assert_int_equal(a.requests->dropped, 0);
	assert_int_equal(a.requests->arrived, 1000);
	assert_int_equal(a.requests->done, 1000);
	run_schbench(high, 1, &b);
	assert_true(b.requests->dropped > 0);
	assert_int_equal(b.requests->arrived, 4000);
	assert_int_equal(b.requests->done + b.requests->dropped, 4000);
	/* schbench times a request from its own start, not from its post: waiting behind the
	   others of the burst is not in it */
	assert_true(a.requests->latency.min >= 120000 && b.requests->latency.min >= 120000);
	assert_true(ik__hist_percentile(&b.requests->latency, 50) <
		    ik__hist_percentile(&a.requests->latency, 50) + 10000);
	/* a worker with requests pending takes them without waiting: fewer wake-ups than
	   requests, and far fewer at 4000 rps */
	assert_true(b.requests->wake.count < b.requests->done / 10);
	ik__run_result_free(&a);
	ik__run_result_free(&b);
}

static void test_defaults_and_errors(void **state)
{
	(void)state;
	struct ik_scenario sc;
	char err[IK_ERR_LEN];
	static const char base[] = "[scenario]\nname = s\nplatform = amd-zen3\n[workload]\n"
				   "type = schbench\nmessage_threads = 3\n";

	assert_int_equal(ik__scenario_parse_string("s.ini", base, NULL, 0, &sc, err, sizeof(err)), 0);
	assert_int_equal(sc.workload.workers, 43); /* schbench: CPUs / message threads, rounded up */
	const char *ov[] = { "workload.rps=2" };
	assert_int_not_equal(ik__scenario_parse_string("s.ini", base, ov, 1, &sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "rps"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturating_mode),
		cmocka_unit_test(test_wakeup_latency_follows_idle_states),
		cmocka_unit_test(test_rps_mode),
		cmocka_unit_test(test_defaults_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
