/*
 * The server workload: open-loop requests arriving by a device interrupt, worker threads,
 * a queue.  Runs on amd-zen3 (no turbo table, so a request's service takes its nominal
 * time and the achieved load can be held to the target).
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

/* A server scenario with extra "workload.key=value" overrides, run with seed 1. */
static void run_server(const char *const *extra, int nextra, struct ik_run_result *r)
{
	static const char text[] = "[scenario]\nname = srv\nplatform = amd-zen3\n"
				   "duration_ms = 4000\nwarmup_ms = 50\n"
				   "[workload]\ntype = server\nworkers = 4\n"
				   "service_ns = lognormal 20000 0.5\n";
	struct ik_scenario sc;
	char err[IK_ERR_LEN];

	if (ik__scenario_parse_string("srv.ini", text, extra, nextra, &sc, err, sizeof(err)) != 0)
		fail_msg("scenario: %s", err);
	if (ik__sim_run(&sc, 1, r, err, sizeof(err)) != 0)
		fail_msg("sim: %s", err);
	assert_non_null(r->requests);
}

static double achieved(const struct ik_run_result *r)
{
	return ik__request_achieved_load_pct(r->requests, r->measured_ns);
}

/*
 * 4 s measured at 10%, 50% and 90% of 4 workers (Poisson arrivals, lognormal service with
 * a 22.7 us mean: 70 000 to 635 000 requests): the achieved load is within 2% (relative)
 * of the target, and, with every CPU kept in POLL and C1 (PM QoS 5 us), the p99 request
 * latency grows with the load, as queueing says.
 */
static void test_load_levels(void **state)
{
	(void)state;
	static const char *const loads[3] = { "workload.load_pct=10", "workload.load_pct=50",
					      "workload.load_pct=90" };
	static const double target[3] = { 10, 50, 90 };
	int64_t p99[3];

	for (int i = 0; i < 3; i++) {
		struct ik_run_result r;
		const char *ov[2] = { loads[i], "kernel.latency_limit_us=5" };
		run_server(ov, 2, &r);
		double a = achieved(&r);
		print_message("load %.0f%%: achieved %.3f%%, %llu requests, p99 %lld ns\n", target[i],
			      a, (unsigned long long)r.requests->done,
			      (long long)ik__hist_percentile(&r.requests->latency, 99.0));
		assert_true(a > target[i] * 0.98 && a < target[i] * 1.02);
		assert_int_equal(r.requests->dropped, 0);
		p99[i] = ik__hist_percentile(&r.requests->latency, 99.0);
		ik__run_result_free(&r);
	}
	assert_true(p99[0] < p99[1]);
	assert_true(p99[1] < p99[2]);
}

/*
 * With C2 allowed, the idle states turn that round: at 10% load the IRQ CPU and the
 * workers sleep in C2 between requests and each request pays two C2 exits, so its wake
 * part is far longer than at 90%, where they rarely get that deep (there it is mostly
 * the IRQ CPU's handlers: one request's handler waits for the one running).
 */
static void test_deep_states_cost_low_load(void **state)
{
	(void)state;
	static const char *const low[] = { "workload.load_pct=10" };
	static const char *const high[] = { "workload.load_pct=90" };
	struct ik_run_result a, b;

	run_server(low, 1, &a);
	run_server(high, 1, &b);
	print_message("wake p50: %lld ns at 10%%, %lld ns at 90%%\n",
		      (long long)ik__hist_percentile(&a.requests->wake, 50.0),
		      (long long)ik__hist_percentile(&b.requests->wake, 50.0));
	assert_true(ik__hist_percentile(&a.requests->wake, 50.0) >
		    2 * ik__hist_percentile(&b.requests->wake, 50.0));
	ik__run_result_free(&a);
	ik__run_result_free(&b);
}

/* The parts of each request's latency add up to it, so their sums do too (exactly). */
static void test_parts_add_up(void **state)
{
	(void)state;
	static const char *const ov[] = { "workload.load_pct=80" };
	struct ik_run_result r;

	run_server(ov, 1, &r);
	const struct ik_request_stats *q = r.requests;
	assert_true(q->done > 1000);
	assert_int_equal(q->latency.count, q->done);
	assert_true(q->latency.sum == q->wake.sum + q->queue.sum + q->service.sum);
	assert_true(q->queue.max > 0); /* Poisson at 80%: some requests wait */
	assert_true(q->wake.min > 0);  /* every request crosses the interrupt path */
	ik__run_result_free(&r);
}

/*
 * Periodic arrivals every 10 us for 4 workers whose service is a constant 20 us: each worker
 * gets every 4th request, 40 us apart, and is free long before it; nothing ever queues.
 * The kernel's housekeeping timers are off here: their handlers take a worker's CPU for a
 * while, which is a real cause of queueing, but not the queue's logic under test.
 */
static void test_no_queueing_when_workers_keep_up(void **state)
{
	(void)state;
	static const char *const ov[] = { "workload.arrival=periodic", "workload.load_pct=50",
					  "workload.service_ns=constant 20000",
					  "kernel.housekeeping_hz=0" };
	struct ik_run_result r;

	run_server(ov, 4, &r);
	const struct ik_request_stats *q = r.requests;
	assert_true(q->done > 300000);
	assert_int_equal(q->queue.count, q->done);
	assert_int_equal(q->queue.max, 0);
	assert_int_equal(q->dropped, 0);
	assert_int_equal(ik__hist_percentile(&q->service, 100.0), 20000);
	ik__run_result_free(&r);
}

/* With no room to wait, requests that find every worker busy are dropped. */
static void test_queue_limit_drops(void **state)
{
	(void)state;
	static const char *const ov[] = { "workload.load_pct=90", "workload.queue_limit=0" };
	struct ik_run_result r;

	run_server(ov, 2, &r);
	const struct ik_request_stats *q = r.requests;
	assert_true(q->dropped > q->arrived / 20);
	assert_int_equal(q->queue.max, 0);
	/* everything that arrived was either served or dropped (give or take the edges) */
	int64_t diff = (int64_t)q->arrived - (int64_t)(q->done + q->dropped);
	assert_true(diff >= -8 && diff <= 8);
	assert_true(achieved(&r) < 90.0 * 0.95);
	ik__run_result_free(&r);
}

/*
 * Bursty arrivals (1 ms on, 4 ms off) at the same mean load: the same achieved load, but
 * the bursts run at 5 times the rate, so requests queue far more; and in a burst the CPUs
 * stay shallow, so the wake part is shorter.
 */
static void test_bursty(void **state)
{
	(void)state;
	static const char *const poisson[] = { "workload.load_pct=15" };
	static const char *const bursty[] = { "workload.load_pct=15", "workload.arrival=bursty" };
	struct ik_run_result a, b;

	run_server(poisson, 1, &a);
	run_server(bursty, 2, &b);
	assert_true(achieved(&b) > 15 * 0.97 && achieved(&b) < 15 * 1.03);
	assert_true(ik__hist_percentile(&b.requests->queue, 99.0) >
		    3 * ik__hist_percentile(&a.requests->queue, 99.0));
	assert_true(ik__hist_percentile(&b.requests->wake, 50.0) <
		    ik__hist_percentile(&a.requests->wake, 50.0));
	ik__run_result_free(&a);
	ik__run_result_free(&b);
}

/* The IRQ CPU's wake-up is part of a request's path: keeping it out of deep states (here,
   every CPU limited to POLL and C1 by a PM QoS limit) lowers the wake part. */
static void test_irq_path_costs(void **state)
{
	(void)state;
	static const char *const deep[] = { "workload.load_pct=5" };
	static const char *const shallow[] = { "workload.load_pct=5", "kernel.latency_limit_us=5" };
	struct ik_run_result a, b;

	run_server(deep, 1, &a);
	run_server(shallow, 2, &b);
	assert_true(ik__hist_percentile(&b.requests->wake, 99.0) <
		    ik__hist_percentile(&a.requests->wake, 99.0));
	ik__run_result_free(&a);
	ik__run_result_free(&b);
}

/*
 * One IRQ CPU saturates: 12 workers at 60% of lognormal 20 us service is 317 000 requests/s;
 * with 4 us of handler each, all on one CPU, that CPU would need 1.27 CPUs.  Its handler
 * runs back to back, each run handling what came during the one before (longer each time),
 * so requests wait in it for milliseconds and come out in bursts the queue cannot hold.
 * The same interrupts spread over the workers' CPUs (RSS) cost each 11% and nothing piles
 * up; one IRQ CPU with 1 us handlers (0.32 of a CPU) does not saturate either.
 */
static void test_single_irq_cpu_saturates(void **state)
{
	(void)state;
	const char *ov[6] = { "scenario.duration_ms=1000", "workload.workers=12",
			      "workload.load_pct=60", "workload.irq_work_ns=4000",
			      "workload.irq_affinity=one" };
	struct ik_run_result one, spread, light;

	run_server(ov, 5, &one);
	ov[4] = "workload.irq_affinity=spread";
	run_server(ov, 5, &spread);
	ov[3] = "workload.irq_work_ns=1000";
	ov[4] = "workload.irq_affinity=one";
	run_server(ov, 5, &light);
	const struct ik_request_stats *a = one.requests, *b = spread.requests, *c = light.requests;
	const struct ik_request_stats *all[3] = { a, b, c };
	for (int i = 0; i < 3; i++)
		print_message("%s: %llu arrived, %llu done, %llu dropped, p50 %lld ns, p99 %lld ns\n",
			      i == 0 ? "one, 4 us" : i == 1 ? "spread, 4 us" : "one, 1 us",
			      (unsigned long long)all[i]->arrived, (unsigned long long)all[i]->done,
			      (unsigned long long)all[i]->dropped,
			      (long long)ik__hist_percentile(&all[i]->latency, 50.0),
			      (long long)ik__hist_percentile(&all[i]->latency, 99.0));
	assert_true(a->arrived > 300000);
	assert_true(a->done < a->arrived / 2);
	assert_true(a->dropped > 0);
	assert_true(ik__hist_percentile(&a->latency, 50.0) > 1000000);
	assert_int_equal(b->dropped, 0);
	assert_true(b->done > b->arrived - b->arrived / 100);
	assert_true(ik__hist_percentile(&b->latency, 99.0) < 200000);
	assert_int_equal(c->dropped, 0);
	assert_true(c->done > c->arrived - c->arrived / 100);
	assert_true(ik__hist_percentile(&c->latency, 99.0) < 200000);
	ik__run_result_free(&one);
	ik__run_result_free(&spread);
	ik__run_result_free(&light);
}

static void test_bad_keys(void **state)
{
	(void)state;
	struct ik_scenario sc;
	char err[IK_ERR_LEN];
	static const char base[] = "[scenario]\nname = s\nplatform = amd-zen3\n[workload]\n"
				   "type = server\n";
	const char *ov1[] = { "workload.arrival=sometimes" };
	assert_int_not_equal(ik__scenario_parse_string("s.ini", base, ov1, 1, &sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "arrival"));
	assert_non_null(strstr(err, "poisson"));
	const char *ov2[] = { "workload.irq_cpu=128" };
	assert_int_not_equal(ik__scenario_parse_string("s.ini", base, ov2, 1, &sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "irq_cpu"));
	const char *ov3[] = { "workload.service_ns=gamma 3" };
	assert_int_not_equal(ik__scenario_parse_string("s.ini", base, ov3, 1, &sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "service_ns"));
	const char *ov4[] = { "workload.cpus=1,2,999" };
	assert_int_not_equal(ik__scenario_parse_string("s.ini", base, ov4, 1, &sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "999"));
	const char *ov5[] = { "workload.irq_affinity=all" };
	assert_int_not_equal(ik__scenario_parse_string("s.ini", base, ov5, 1, &sc, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "irq_affinity"));
	assert_non_null(strstr(err, "spread"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_levels),
		cmocka_unit_test(test_deep_states_cost_low_load),
		cmocka_unit_test(test_parts_add_up),
		cmocka_unit_test(test_no_queueing_when_workers_keep_up),
		cmocka_unit_test(test_queue_limit_drops),
		cmocka_unit_test(test_bursty),
		cmocka_unit_test(test_irq_path_costs),
		cmocka_unit_test(test_single_irq_cpu_saturates),
		cmocka_unit_test(test_bad_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
