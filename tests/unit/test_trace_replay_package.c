/*
 * Replay's package deep state (src/trace/replay_package.c) on hand-checked traces: a
 * platform whose one state C6 power-gates the core, costs nothing to enter or leave (so
 * the replayed time lines are the recorded ones), draws 100 mW per CPU; a busy CPU
 * 1000 mW, the package 5000 mW, 1000 mW while deep.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/hw.h"
#include "trace/replay.h"

/*
 * Two CPUs:
 *   CPU 0 idle 0..1000 us
 *   CPU 1 idle 200..600 us and 700..1500 us
 * On one package it is deep while both are: 200..600 and 700..1000, 700 us of the 1500 us
 * traced.  Energy (mW x ns x 1e-12 = J): the states 2200 us x 100 mW = 0.22 mJ; busy
 * (2 x 1500 - 2200) us x 1000 mW = 0.8 mJ; the package 700 us x 1000 mW + 800 us x 5000
 * mW = 4.7 mJ; 5.72 mJ in all.
 */
static const char two[] =
	"idlekit-trace 1\nhz 250\ncpus 2\ndriver rec 0-1\nstate C6 0 0 0x0\nevents\n"
	"0 0 idle_enter 0\n"
	"200000 1 idle_enter 0\n"
	"600000 1 wake irq 9\n600000 1 idle_exit\n"
	"700000 1 idle_enter 0\n"
	"1000000 0 wake irq 9\n1000000 0 idle_exit\n"
	"1500000 1 wake irq 9\n1500000 1 idle_exit\n";

static void c6_only(struct ik_driver *drv)
{
	char err[128];
	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "c6");
	drv->state_count = 1;
	snprintf(drv->states[0].name, IK_NAME_LEN, "C6");
	drv->states[0].exit_latency = 1;
	drv->states[0].target_residency = 1;
	assert_int_equal(ik_driver_init(drv, err, sizeof(err)), 0);
}

/* packages x cores x threads; C6 gates its core or not.  Every cost a constant 0. */
static void platform(struct ik_platform *p, int packages, int cores, int threads, bool gates)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "test");
	p->packages = packages;
	p->cores_per_package = cores;
	p->threads_per_core = threads;
	p->active_power_mw = 1000;
	p->state_count = 1;
	snprintf(p->states[0].name, IK_NAME_LEN, "C6");
	p->states[0].power_mw = 100;
	p->effects.state_core_off[0] = gates;
	p->effects.pkg_active_mw = 5000;
	p->effects.pkg_idle_mw = 1000;
}

static void replay(const char *text, size_t len, const struct ik_platform *plat, bool closed,
		   struct ik_trace_replay *rp)
{
	struct ik_driver drv;
	c6_only(&drv);
	struct ik_trace_cost_model cost = { .plat = plat }; /* table state 0 -> platform's 0 */
	struct ik_trace_reader *r;
	char err[256];
	assert_int_equal(ik__trace_open_mem(text, len, "pkg", false, &r, err, sizeof(err)), 0);
	struct ik_trace_replay_opts o = { .drv = &drv, .gov = ik_governor_find("menu"),
					  .closed_loop = closed, .cost = &cost };
	if (ik__trace_replay_run(r, &o, rp, err, sizeof(err)))
		fail_msg("%s", err);
	ik__trace_close(r);
}

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-12)
		fail_msg("got %.15g, expected %.15g", got, want);
}

static void test_one_package(void **state)
{
	(void)state;
	struct ik_platform p;
	struct ik_trace_replay rp;
	for (int closed = 0; closed < 2; closed++) {
		platform(&p, 1, 2, 1, true);
		replay(two, strlen(two), &p, closed, &rp);
		assert_int_equal(rp.run.measured_ns, 1500000);
		assert_int_equal(rp.packages, 1);
		assert_int_equal(rp.run.package_deep_ns, 700000);
		near(rp.state_j, 2.2e-4);
		near(rp.package_j, 4.7e-3);
		near(rp.run.energy_j, 5.72e-3);
		ik__trace_replay_free(&rp);
	}
	/* SMT siblings of one core: the same */
	platform(&p, 1, 1, 2, true);
	replay(two, strlen(two), &p, false, &rp);
	assert_int_equal(rp.run.package_deep_ns, 700000);
	ik__trace_replay_free(&rp);
}

static void test_layouts(void **state)
{
	(void)state;
	struct ik_platform p;
	struct ik_trace_replay rp;
	/* one CPU per package: each deep while its CPU idles, 1000 + 1200 us; the packages
	   2200 us x 1000 mW + (2 x 1500 - 2200) us x 5000 mW = 6.2 mJ */
	platform(&p, 2, 1, 1, true);
	replay(two, strlen(two), &p, false, &rp);
	assert_int_equal(rp.packages, 2);
	assert_int_equal(rp.run.package_deep_ns, 2200000);
	near(rp.package_j, 6.2e-3);
	ik__trace_replay_free(&rp);
	/* a state that does not gate the core: never deep, 1500 us x 5000 mW */
	platform(&p, 1, 2, 1, false);
	replay(two, strlen(two), &p, false, &rp);
	assert_int_equal(rp.run.package_deep_ns, 0);
	near(rp.package_j, 7.5e-3);
	ik__trace_replay_free(&rp);
	/* a platform CPU the trace does not have (4 CPUs, 2 traced) keeps nothing awake */
	platform(&p, 1, 4, 1, true);
	replay(two, strlen(two), &p, false, &rp);
	assert_int_equal(rp.packages, 1);
	assert_int_equal(rp.run.package_deep_ns, 700000);
	ik__trace_replay_free(&rp);
	/* more traced CPUs than the platform's 1 x 1 x 1: laid out on as many packages */
	platform(&p, 1, 1, 1, true);
	replay(two, strlen(two), &p, false, &rp);
	assert_int_equal(rp.packages, 2);
	assert_int_equal(rp.run.package_deep_ns, 2200000);
	ik__trace_replay_free(&rp);
	/* 2 x 2 x 1: CPUs 0 and 1 both on package 0, package 1 has no traced CPU */
	platform(&p, 2, 2, 1, true);
	replay(two, strlen(two), &p, false, &rp);
	assert_int_equal(rp.packages, 1);
	assert_int_equal(rp.run.package_deep_ns, 700000);
	ik__trace_replay_free(&rp);
}

/*
 * The CPUs known to different times: CPU 0 idle 0..50 ms and 50.1..100 ms (its periods end
 * late in the trace), CPU 1 idle k..k + 0.5 ms for k = 0..99 ms, its spans waiting for
 * CPU 0's.  Deep: 99 x 0.5 ms + 50.1..50.5 ms = 49.9 ms.  With the tick kept the CPU 0
 * periods are several entries each (no cost between them: one span).
 */
static void test_known_late(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	fputs("idlekit-trace 1\nhz 250\ncpus 2\ndriver rec 0-1\nstate C6 0 0 0x0\nevents\n"
	      "0 0 idle_enter 0\n", f);
	for (int k = 0; k < 100; k++) {
		int64_t t = (int64_t)k * 1000000;
		if (k == 50)
			fputs("50000000 0 wake irq 9\n50000000 0 idle_exit\n", f);
		fprintf(f, "%" PRId64 " 1 idle_enter 0\n", t);
		if (k == 50)
			fputs("50100000 0 idle_enter 0\n", f);
		fprintf(f, "%" PRId64 " 1 wake irq 9\n%" PRId64 " 1 idle_exit\n", t + 500000, t + 500000);
	}
	fputs("100000000 0 wake irq 9\n100000000 0 idle_exit\n", f);
	fclose(f);
	struct ik_platform p;
	platform(&p, 1, 2, 1, true);
	for (int closed = 0; closed < 2; closed++) {
		struct ik_trace_replay rp;
		replay(text, len, &p, closed, &rp);
		assert_int_equal(rp.run.measured_ns, 100000000);
		assert_int_equal(rp.run.package_deep_ns, 49900000);
		ik__trace_replay_free(&rp);
	}
	/*
	 * The package's exit, 25 us: each of the 100 deep stretches ends at a CPU 1 wake (CPU 0
	 * wakes at 50 and 100 ms, while CPU 1 is awake), so CPU 1 pays 100 exits, all known only
	 * at CPU 0's exits; 102 wakes in all, 100 x 25 us more latency.  Open loop: CPU 1's
	 * work starts 25 us late, its next entries (0.5 ms later) do not move.  Closed loop:
	 * they do, by its delay, 25 us (the IRQ wakes keep their times, so it does not add up):
	 * CPU 1 idle k + 0.025..k + 0.5 ms for k >= 1, deep 0.5 + 98 x 0.475 + (50.1..50.5)
	 * = 47.45 ms, and the run lasts 25 us longer (CPU 1's last delay).
	 */
	p.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 25000 };
	for (int closed = 0; closed < 2; closed++) {
		struct ik_trace_replay rp;
		replay(text, len, &p, closed, &rp);
		assert_int_equal(rp.run.package_deep_ns, closed ? 47450000 : 49900000);
		assert_int_equal(rp.run.measured_ns, closed ? 100025000 : 100000000);
		assert_int_equal(rp.cpu[1].delay_ns, 25000);
		assert_int_equal(rp.package_exits, 100);
		assert_int_equal(rp.package_exits_woken, 100);
		assert_int_equal(rp.package_exit_ns, 2500000);
		assert_int_equal(rp.run.wake_latency.count, 102);
		assert_int_equal(rp.run.wakeups, 102);
		near(rp.run.wake_latency.sum, 2500000.0);
		assert_int_equal(rp.run.wake_latency.max, 25000);
		assert_int_equal(rp.run.wake_latency.min, 0);
		ik__trace_replay_free(&rp);
	}
	free(text);
}

/*
 * The package's exit (pkg_exit_ns 40 us, constant) on `two`: the deep stretch 200..600 us
 * ends at CPU 1's wake at 600 us and 700..1000 us at CPU 0's at 1000 us: 2 exits, both the
 * work's wakes, so the 3 wake latency samples (the states cost nothing to leave) are 40,
 * 40 and 0 us (CPU 1's wake at 1500 us finds CPU 0 awake since 1000 us).  Open loop: the
 * work after the two wakes starts 40 us late (600 -> 640 us, 1000 -> 1040 us), CPU 1's next
 * entry (700 us) is after it, and the package's deep time and energy do not change.  Closed
 * loop: CPU 1's next entry moves by its delay, 40 us, to 740 us: deep 200..600 and
 * 740..1000 us, 660 us; the run ends 40 us late (CPU 0's delay), 1540 us; the package
 * 660 us x 1000 mW + 880 us x 5000 mW = 5.06 mJ.  One CPU per package: every one of the 3
 * wakes ends its package's deep stretch.
 */
static void test_package_exit(void **state)
{
	(void)state;
	struct ik_platform p;
	struct ik_trace_replay rp;
	for (int closed = 0; closed < 2; closed++) {
		platform(&p, 1, 2, 1, true);
		p.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 40000 };
		replay(two, strlen(two), &p, closed, &rp);
		assert_true(rp.package_deep_state);
		assert_int_equal(rp.run.package_deep_ns, closed ? 660000 : 700000);
		assert_int_equal(rp.run.measured_ns, closed ? 1540000 : 1500000);
		near(rp.package_j, closed ? 5.06e-3 : 4.7e-3);
		assert_int_equal(rp.cpu[0].delay_ns, 40000);
		assert_int_equal(rp.cpu[1].delay_ns, 0);
		assert_int_equal(rp.package_exits, 2);
		assert_int_equal(rp.package_exits_woken, 2);
		assert_int_equal(rp.package_exit_ns, 80000);
		assert_int_equal(rp.package_exit_woken_ns, 80000);
		assert_int_equal(rp.run.wake_latency.count, 3);
		near(rp.run.wake_latency.sum, 80000.0);
		assert_int_equal(rp.run.wake_latency.min, 0);
		assert_int_equal(rp.run.wake_latency.max, 40000);
		ik__trace_replay_free(&rp);
	}
	platform(&p, 2, 1, 1, true);
	p.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 40000 };
	replay(two, strlen(two), &p, false, &rp);
	assert_int_equal(rp.package_exits, 3);
	assert_int_equal(rp.package_exit_ns, 120000);
	assert_int_equal(rp.run.wake_latency.count, 3);
	near(rp.run.wake_latency.sum, 120000.0);
	ik__trace_replay_free(&rp);
	/* no state gates the core: no deep state, no exit, the latencies as before (0) */
	platform(&p, 1, 2, 1, false);
	p.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 40000 };
	replay(two, strlen(two), &p, false, &rp);
	assert_false(rp.package_deep_state);
	assert_int_equal(rp.package_exits, 0);
	assert_int_equal(rp.run.wake_latency.count, 3);
	near(rp.run.wake_latency.sum, 0.0);
	ik__trace_replay_free(&rp);
	/* a distribution: the draws are the package's own, the same on every run */
	platform(&p, 1, 2, 1, true);
	p.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_UNIFORM, .a_ns = 10000,
						   .b_ns = 90000 };
	replay(two, strlen(two), &p, false, &rp);
	struct ik_trace_replay again;
	replay(two, strlen(two), &p, false, &again);
	assert_int_equal(rp.package_exits, 2);
	assert_int_equal(rp.package_exit_ns, again.package_exit_ns);
	assert_true(rp.package_exit_ns >= 20000 && rp.package_exit_ns <= 180000);
	near(rp.run.wake_latency.sum, (double)rp.package_exit_ns);
	ik__trace_replay_free(&rp);
	ik__trace_replay_free(&again);
}

/*
 * A wake that is not the work's pays too: one CPU, hz 100 (no tick before 10 ms), idle
 * 0..5 ms woken by an IRQ at 5 ms, a timer at 1 ms: entries 0..1 ms (ended by the timer:
 * the package exits, 40 us, counted only) and 1..5 ms (ended by the IRQ: 40 us in the wake's
 * latency).  The timer's wake does not move the re-entry (docs/replay.md).
 */
static void test_package_exit_timer(void **state)
{
	(void)state;
	static const char one[] =
		"idlekit-trace 1\nhz 100\ncpus 1\ndriver rec 0\nstate C6 0 0 0x0\nevents\n"
		"0 0 timer_start 1000000 1\n"
		"0 0 idle_enter 0\n"
		"1000000 0 timer_expire 1\n"
		"5000000 0 wake irq 9\n5000000 0 idle_exit\n";
	struct ik_platform p;
	struct ik_trace_replay rp;
	platform(&p, 1, 1, 1, true);
	p.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 40000 };
	replay(one, strlen(one), &p, false, &rp);
	assert_int_equal(rp.entries, 2);
	assert_int_equal(rp.extra_entries, 1);
	assert_int_equal(rp.run.package_deep_ns, 5000000);
	assert_int_equal(rp.package_exits, 2);
	assert_int_equal(rp.package_exit_ns, 80000);
	assert_int_equal(rp.package_exits_woken, 1);
	assert_int_equal(rp.package_exit_woken_ns, 40000);
	assert_int_equal(rp.run.wake_latency.count, 1);
	assert_int_equal(rp.run.wake_latency.max, 40000);
	ik__trace_replay_free(&rp);
}

/*
 * The package's exit moves the work.  Two CPUs on one package, C6 gating the core, its real
 * exit 10 us (entry 0), pkg_exit_ns 40 us; no timer, and the tick (hz 250: 4 ms) never
 * comes.  Recorded (us):
 *   CPU 0 idle 0..900, woken at 900 by a task CPU 1 wakes;
 *   CPU 1 idle 200..600 (IRQ), 620..800 (IRQ), 950..1500 (IRQ).
 *
 * Open loop (the wakes at their recorded times):
 *   CPU 1 wakes at 600 from a deep package (CPU 0 gated since 0): its exit 10 + the
 *     package's 40, work at 650 (latency 50).  Its entry at 620 is inside: pushed to 650.
 *   CPU 1 idle 650..800, deep (CPU 0 still gated): wakes at 800, pays 40, work at 850 (50).
 *   CPU 0 wakes at 900, CPU 1 busy: no package exit, work at 910 (10).
 *   CPU 1 idle 950..1500 (950 is after 850: no push), CPU 0 awake: work at 1510 (10).
 *   Deep 200..600 + 650..800 = 550 us; 2 exits, 80 us, both in the work's latencies
 *   (50 + 50 + 10 + 10 = 120 us); measured to the last work start, 1510 us; delays (work
 *   start - recorded exit) 10 and 10 us.
 *   Without the push CPU 1's second period would be 620..800: deep 580 us.
 */
static const char moved[] =
	"idlekit-trace 1.1\nhz 250\ncpus 2\ndriver rec 0-1\nstate C6 0 0 0x0\nevents\n"
	"0 0 idle_enter 0\n"
	"200000 1 idle_enter 0\n"
	"600000 1 wake irq 9\n600000 1 idle_exit\n"
	"620000 1 idle_enter 0\n"
	"800000 1 wake irq 9\n800000 1 idle_exit\n"
	"900000 0 task_wake 1\n900000 0 idle_exit\n"
	"950000 1 idle_enter 0\n"
	"1500000 1 wake irq 9\n1500000 1 idle_exit\n";

static void moved_platform(struct ik_platform *p)
{
	platform(p, 1, 2, 1, true);
	for (int src = 0; src < IK_WAKE_SOURCES; src++)
		p->states[0].exit[src] = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 10000 };
	p->effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 40000 };
}

/*
 * Closed loop on the same trace, each CPU's later events moved by its delay D = replayed
 * work start - recorded exit:
 *   CPU 1 wakes at 600 (IRQ: its time) from a deep package: work at 600 + 10 + 40 = 650,
 *     D = 50 (its exit and the package's); its next entry 620 + 50 = 670.
 *   CPU 1 idle 670..800, deep: wakes at 800 (IRQ), pays 40, work at 850, D = 50.
 *   CPU 0's wake, the task CPU 1 wakes at 900, moves by CPU 1's D: 950; CPU 1 busy: no
 *     package exit, work at 960 (latency 10), D = 60.
 *   CPU 1's entry 950 + 50 = 1000, idle to 1500, CPU 0 awake: work at 1510, D = 10.
 *   Deep 200..600 + 670..800 = 530 us; 2 exits, 80 us; latencies 50 + 50 + 10 + 10 = 120
 *   us; the run lasts to the last event + the largest delay at the end: 1500 + 60 = 1560
 *   us.  Real time in C6: CPU 1 410 + 140 + 510, CPU 0 960 us.
 *   Without the package's exit moving the work (pkg_exit_ns 0 here), D stays 10: entries at
 *   630 and 960, CPU 0 woken at 910: deep 400 + 170 = 570 us, 1500 + 20 us.
 */
static void test_package_exit_moves_work_closed(void **state)
{
	(void)state;
	struct ik_platform p;
	struct ik_trace_replay rp;
	moved_platform(&p);
	replay(moved, strlen(moved), &p, true, &rp);
	assert_int_equal(rp.periods, 4);
	assert_int_equal(rp.wake_pending, 0);
	assert_int_equal(rp.run.package_deep_ns, 530000);
	assert_int_equal(rp.package_exits, 2);
	assert_int_equal(rp.package_exit_ns, 80000);
	assert_int_equal(rp.package_exits_woken, 2);
	assert_int_equal(rp.run.wake_latency.count, 4);
	near(rp.run.wake_latency.sum, 120000.0);
	assert_int_equal(rp.run.measured_ns, 1560000);
	assert_int_equal(rp.cpu[0].delay_ns, 60000);
	assert_int_equal(rp.cpu[1].delay_ns, 10000);
	assert_int_equal(rp.run.total[0].time_ns, (410 + 140 + 510 + 960) * 1000);
	ik__trace_replay_free(&rp);
	p.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 0 };
	replay(moved, strlen(moved), &p, true, &rp);
	assert_int_equal(rp.run.package_deep_ns, 570000);
	assert_int_equal(rp.run.measured_ns, 1520000);
	assert_int_equal(rp.cpu[0].delay_ns, 20000);
	ik__trace_replay_free(&rp);
}

static void test_package_exit_moves_work_open(void **state)
{
	(void)state;
	struct ik_platform p;
	struct ik_trace_replay rp;
	moved_platform(&p);
	replay(moved, strlen(moved), &p, false, &rp);
	assert_int_equal(rp.periods, 4);
	assert_int_equal(rp.wake_pending, 0);
	assert_int_equal(rp.run.package_deep_ns, 550000);
	assert_int_equal(rp.package_exits, 2);
	assert_int_equal(rp.package_exit_ns, 80000);
	assert_int_equal(rp.package_exits_woken, 2);
	assert_int_equal(rp.run.wake_latency.count, 4);
	near(rp.run.wake_latency.sum, 120000.0);
	assert_int_equal(rp.run.wake_latency.max, 50000);
	assert_int_equal(rp.run.measured_ns, 1510000);
	assert_int_equal(rp.cpu[0].delay_ns, 10000);
	assert_int_equal(rp.cpu[1].delay_ns, 10000);
	/* CPU 1 in C6 400 + 150 + 550 us, CPU 0 900 us, each entry's 10 us exit apart:
	   the real time per state is entry to the end of the exit */
	assert_int_equal(rp.run.total[0].time_ns, (410 + 160 + 560 + 910) * 1000);
	ik__trace_replay_free(&rp);
	/* the same with pkg_exit_ns 0: no push, deep 200..600 + 620..800 */
	p.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_CONSTANT, .a_ns = 0 };
	replay(moved, strlen(moved), &p, false, &rp);
	assert_int_equal(rp.run.package_deep_ns, 580000);
	assert_int_equal(rp.package_exits, 2);
	near(rp.run.wake_latency.sum, 40000.0);
	assert_int_equal(rp.run.total[0].time_ns, (410 + 190 + 560 + 910) * 1000);
	ik__trace_replay_free(&rp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_package),
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_known_late),
		cmocka_unit_test(test_package_exit),
		cmocka_unit_test(test_package_exit_timer),
		cmocka_unit_test(test_package_exit_moves_work_open),
		cmocka_unit_test(test_package_exit_moves_work_closed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
