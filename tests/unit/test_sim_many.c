/*
 * Runs of one scenario on several threads (ik__sim_run_many) and the watch that lets the
 * tail's runs take turns (longest remaining first): which runs go on, and that neither the
 * number of threads nor a watch that pauses a run changes a byte of the results.
 */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "config/result.h"
#include "config/scenario.h"
#include "drivers/registry.h"
#include "report_fixture.h"
#include "sim/sim.h"
#include "sim_fixture.h"
#include "sweep/longest_first.h"
#include "sweep/sweep.h"

static void test_longest_first_ranks(void **state)
{
	(void)state;
	/* runs 0..3: 10 s, 30 s, 20 s left, and one not estimated yet; 2 slots */
	struct ik_lf_run r[4] = {
		{ 10.0, true, true }, { 30.0, true, true }, { 20.0, true, false },
		{ INFINITY, true, false },
	};
	assert_true(ik__lf_goes_on(r, 4, 2, 3, 1.0));  /* unknown first */
	assert_true(ik__lf_goes_on(r, 4, 2, 1, 1.0));  /* then the most left */
	assert_false(ik__lf_goes_on(r, 4, 2, 2, 1.0));
	assert_false(ik__lf_goes_on(r, 4, 2, 0, 1.0));
	r[3].live = false; /* an ended run counts for nothing */
	assert_true(ik__lf_goes_on(r, 4, 2, 2, 1.0));
	assert_false(ik__lf_goes_on(r, 4, 2, 0, 1.0));
	/* the keep: run 0 running with 10 s goes on against a waiting 10.4 s at 5%, not at 1% */
	r[2].left_s = 10.4;
	r[1].live = false;
	assert_true(ik__lf_goes_on(r, 4, 1, 0, 1.05));
	assert_false(ik__lf_goes_on(r, 4, 1, 2, 1.05));
	assert_false(ik__lf_goes_on(r, 4, 1, 0, 1.01));
	assert_true(ik__lf_goes_on(r, 4, 1, 2, 1.01));
	/* equal ranks: the lower index goes on */
	struct ik_lf_run eq[2] = { { 5.0, true, false }, { 5.0, true, false } };
	assert_true(ik__lf_goes_on(eq, 2, 1, 0, 1.05));
	assert_false(ik__lf_goes_on(eq, 2, 1, 1, 1.05));
}

/* The runs' JSON report, in memory (the caller frees it). */
static char *report(const struct ik_scenario *sc, const struct ik_run_result *runs, int n)
{
	return report_to_string(ik__report_json, sc, runs, n);
}

static void scenario(struct ik_scenario *sc, int runs)
{
	small_scenario(sc, IK_WORKLOAD_PINGPONG);
	sc->platform.ipi_ns = (struct ik_dist){ .kind = IK_DIST_LOGNORMAL, .a_ns = 2000, .sigma = 0.3 };
	sc->workload.work_ns = 4000;
	sc->duration_ns = 20 * IK_NSEC_PER_MSEC;
	sc->runs = runs;
}

struct pauses {
	int looks;
	int64_t last_ns;
};

/* A watch that sleeps a little at every look (and checks what it is told). */
static void pause_at(void *user, int64_t now_ns, int64_t end_ns)
{
	struct pauses *p = user;
	assert_true(now_ns > p->last_ns && now_ns < end_ns);
	p->last_ns = now_ns;
	p->looks++;
	struct timespec ts = { 0, 200000 };
	nanosleep(&ts, NULL);
}

static void test_watch_changes_nothing(void **state)
{
	(void)state;
	static struct ik_scenario sc;
	char err[IK_ERR_LEN];
	struct ik_run_result plain, watched;
	scenario(&sc, 1);
	assert_int_equal(ik__sim_run(&sc, 3, &plain, err, sizeof(err)), 0);
	struct pauses p = { 0, 0 };
	struct ik_sim_watch w = { pause_at, &p, sc.duration_ns / 40 };
	assert_int_equal(ik__sim_run_watched(&sc, 3, &w, &watched, err, sizeof(err)), 0);
	assert_int_equal(p.looks, 39); /* at 1/40 .. 39/40 of the run: none at its end */
	char *a = report(&sc, &plain, 1), *b = report(&sc, &watched, 1);
	assert_string_equal(a, b);
	free(a);
	free(b);
	ik__run_result_free(&plain);
	ik__run_result_free(&watched);
}

/* 3 and 5 runs on 1, 2 and 3 threads (tails of 3 runs on 2 slots, where turns are taken):
   the same report. */
static void test_many_same_for_any_threads(void **state)
{
	(void)state;
	static struct ik_scenario sc;
	char err[IK_ERR_LEN];
	const int counts[] = { 3, 5 };
	for (int c = 0; c < 2; c++) {
		int n = counts[c];
		scenario(&sc, n);
		char *first = NULL;
		for (int threads = 1; threads <= 3; threads++) {
			struct ik_run_result out[5];
			assert_int_equal(ik__sim_run_many(&sc, &sc, sc.seed, n, threads, out, NULL, err,
							 sizeof(err)),
					 0);
			char *rep = report(&sc, out, n);
			if (first)
				assert_string_equal(first, rep);
			else
				first = rep;
			if (rep != first)
				free(rep);
			for (int i = 0; i < n; i++)
				ik__run_result_free(&out[i]);
		}
		free(first);
	}
}

/* A loaded scenario's driver is probed once, by the load's check: the runs start from that
   binding (a name changed in it shows in the run's table), not from a probe of their own. */
static void test_driver_probed_once(void **state)
{
	(void)state;
	static struct ik_scenario sc;
	char err[IK_ERR_LEN];
	const char *ov[] = { "scenario.duration_ms=5", "scenario.warmup_ms=0", "scenario.runs=1" };
	assert_int_equal(ik__scenario_load("default", ov, 3, &sc, err, sizeof(err)), 0);
	const struct ik_driver_binding *b = &sc.driver_probed;
	assert_non_null(b->ops);
	assert_string_equal(b->ops->name, sc.driver);
	assert_true(b->table.state_count >= 2);
	snprintf(sc.driver_probed.table.states[1].name, IK_NAME_LEN, "by-the-load");
	struct ik_run_result r;
	assert_int_equal(ik__sim_run(&sc, 1, &r, err, sizeof(err)), 0);
	assert_string_equal(r.states[1].name, "by-the-load");
	ik__run_result_free(&r);
	/* a scenario built by hand has no probed driver: the run set probes it */
	static struct ik_scenario hand;
	scenario(&hand, 1);
	assert_null(hand.driver_probed.ops);
	assert_int_equal(ik__sim_run(&hand, 1, &r, err, sizeof(err)), 0);
	assert_true(r.nstates >= 2);
	ik__run_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_longest_first_ranks),
		cmocka_unit_test(test_watch_changes_nothing),
		cmocka_unit_test(test_many_same_for_any_threads),
		cmocka_unit_test(test_driver_probed_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
