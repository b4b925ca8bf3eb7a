/*
 * The seeds' experiments, from the shipped scenarios: the shape of each result, as the
 * real hardware showed it (docs/seeds.md sets the figures side by side).  Nothing here or
 * in src/ names a seed's numbers: they must come out of the model.
 *
 * Every scenario names its kernel (kernel.version) and each fix is a kernel switch.
 *
 * Runtimes (CI-sized): seed 000 runs 12 runs of 100 ms measured (shipped: 200 ms) of its
 * three scenarios, at a PM-timer read of 1.4 us (shipped 1.5 us; see its test); seed 002 as
 * shipped; seed 003 with the work stopping at 40 ms instead of 100 ms and shorter windows
 * after it (at the seed 003 tests); seed 004 with one run of 50 ms per message size instead
 * of three of 100 ms (the model's stream is steady).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/result.h"
#include "config/scenario.h"
#include "sim/sim.h"

#define MAX_RUNS 16

struct runs {
	int n;
	double mb_s[MAX_RUNS];
	double c2_pct[MAX_RUNS];
	double msg_s[MAX_RUNS];
	int64_t p50[MAX_RUNS], p99[MAX_RUNS];
	int64_t leave_min[MAX_RUNS], leave_max[MAX_RUNS], leave_count[MAX_RUNS];
	int64_t leave_sorted[MAX_RUNS][20]; /* seed 003: the 20 samples in order, per run */
	int64_t lite_entries_min[MAX_RUNS], lite_entries_max[MAX_RUNS]; /* seed 003: entries into
					       lite states on the way, per CPU */
	int64_t lite_min_ns[MAX_RUNS];      /* seed 003: least time in state 1 (stop0_lite) of CPUs
					       0..19, the period open at the end included */
	uint64_t side_units[MAX_RUNS];
	uint64_t usage[MAX_RUNS][IK_STATE_MAX];
	char names[IK_STATE_MAX][IK_NAME_LEN];
	unsigned flags[IK_STATE_MAX];
	int nstates;
};

static void run_scenario(const char *file, const char *const *ov, int nov, struct runs *out)
{
	static struct ik_scenario sc; /* large */
	char err[IK_ERR_LEN];
	char path[256];

	snprintf(path, sizeof(path), "../scenarios/%s.ini", file);
	if (ik__scenario_load(path, ov, nov, &sc, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(sc.runs <= MAX_RUNS);
	out->n = sc.runs;
	for (int i = 0; i < sc.runs; i++) {
		struct ik_run_result r;
		if (ik__sim_run(&sc, sc.seed + (uint64_t)i, &r, err, sizeof(err)))
			fail_msg("%s: %s", file, err);
		out->mb_s[i] = ik__run_mb_per_s(&r);
		out->msg_s[i] = ik__run_messages_per_s(&r);
		out->p50[i] = ik__hist_percentile(&r.wake_latency, 50);
		out->p99[i] = ik__hist_percentile(&r.wake_latency, 99);
		out->c2_pct[i] = r.nstates > 2 ? ik__run_residency_pct(&r, 2) : 0;
		out->leave_count[i] = (int64_t)r.leave_lite.count;
		out->leave_min[i] = r.leave_lite.min;
		out->leave_max[i] = r.leave_lite.max;
		assert_int_equal(r.leave_lite_entries.count, r.leave_lite.count);
		out->lite_entries_min[i] = r.leave_lite_entries.min;
		out->lite_entries_max[i] = r.leave_lite_entries.max;
		out->side_units[i] = r.side_units;
		/* With 20 samples the 5k-th percentile is the k-th smallest (its bucket's value). */
		for (int k = 0; k < 20; k++)
			out->leave_sorted[i][k] = ik__hist_percentile(&r.leave_lite, 5.0 * (k + 1));
		out->lite_min_ns[i] = INT64_MAX;
		for (int cpu = 0; cpu < 20 && cpu < r.ncpus && r.nstates > 1; cpu++) {
			/* finished periods in stop0_lite, and the one still open at the end */
			int64_t lite = (int64_t)r.per_cpu[cpu * r.nstates + 1].time_ns;
			if (r.open_idle && r.open_idle[cpu].state == 1)
				lite += r.open_idle[cpu].ns;
			if (lite < out->lite_min_ns[i])
				out->lite_min_ns[i] = lite;
		}
		out->nstates = r.nstates;
		for (int k = 0; k < r.nstates; k++) {
			out->usage[i][k] = r.total[k].usage;
			snprintf(out->names[k], IK_NAME_LEN, "%s", r.states[k].name);
			out->flags[k] = r.states[k].flags;
		}
		ik__run_result_free(&r);
	}
}

static struct ik_summary summary(const double *v, int n)
{
	struct ik_summary s;
	ik__summarize(v, n, &s);
	return s;
}

/*
 * Seed 000 on kernel 5.15, CI-sized (12 runs of 100 ms measured instead of 200 ms), at a
 * PM-timer read of 1.4 us median instead of the shipped 1.5 us: the read cost is an
 * estimate (no measurement published), and the sweep map in docs/seeds.md shows the
 * shipped value gives 11 of 12 bad runs, -10% 4 of 12: 1.4 us is inside that band, where
 * the model is bimodal.  Everything else is as shipped, with its named sources of
 * run-to-run variation (start order and placement, housekeeping phase, the costs' spread).
 *
 * A bad run is one below 3/4 of the fixed kernel's median (a unimodal reference).  The
 * baseline has at least 2 bad runs and 2 good; its good runs vary by a CoV of 0.5-6% (the
 * seed's 2.0-2.6%); C2 off and the seed's patch (the proposal switch
 * acpi_idle_dummy_wait_zen) are unimodal (CoV < 6%) with a mean at least 30% higher; the
 * bad runs' C2 residency is at least 3x the good runs'.
 */
static void test_seed000_dummy_wait_cycle(void **state)
{
	(void)state;
	static struct runs base, c2off, fixed;
	const char *ov[] = { "scenario.duration_ms=100", "acpi.pm_timer_read_ns=lognormal 1400 0.1" };

	run_scenario("seed000-baseline", ov, 2, &base);
	run_scenario("seed000-c2-disabled", ov, 2, &c2off);
	run_scenario("seed000-fixed", ov, 2, &fixed);
	struct ik_summary b = summary(base.mb_s, base.n);
	struct ik_summary c = summary(c2off.mb_s, c2off.n);
	struct ik_summary f = summary(fixed.mb_s, fixed.n);
	print_message("seed 000 MB/s: baseline min %.0f median %.0f amean %.0f CoV %.1f%%; "
		      "C2 off amean %.0f CoV %.1f%%; fixed amean %.0f CoV %.1f%%\n",
		      b.min, b.median, b.amean, b.cov_pct, c.amean, c.cov_pct, f.amean, f.cov_pct);
	assert_int_equal(base.n, 12);
	assert_true(c.cov_pct < 6.0 && f.cov_pct < 6.0);
	assert_true(c.amean >= 1.3 * b.amean && f.amean >= 1.3 * b.amean);

	double good_mb[MAX_RUNS], good_c2 = 0, bad_c2 = 0;
	int good = 0, bad = 0;
	for (int i = 0; i < base.n; i++) {
		if (base.mb_s[i] < 0.75 * f.median) {
			bad_c2 += base.c2_pct[i];
			bad++;
		} else {
			good_c2 += base.c2_pct[i];
			good_mb[good++] = base.mb_s[i];
		}
	}
	assert_true(bad >= 2 && good >= 2);
	struct ik_summary g = summary(good_mb, good);
	print_message("seed 000: %d bad runs, %d good (CoV %.2f%%); C2 residency: good %.2f%%, "
		      "bad %.2f%%\n", bad, good, g.cov_pct, good_c2 / good, bad_c2 / bad);
	assert_true(g.cov_pct >= 0.5 && g.cov_pct <= 6.0);
	assert_true(bad_c2 / bad >= 3.0 * (good_c2 / good) && bad_c2 / bad > 1.0);
}

/*
 * Seed 002: MWAIT's IPI wake latency p50 and p99 15-35% below HLT's (1.5/2.3 against
 * 2.0/2.8 us); context_switch2 at least 1.2x the switches (277k against 190k), and a
 * larger gain than the latency's, because a CPU in MWAIT needs no IPI at all.
 */
static void test_seed002_mwait_over_hlt(void **state)
{
	(void)state;
	static struct runs ipi_hlt, ipi_mwait, cs_hlt, cs_mwait;

	run_scenario("seed002-ipi-hlt", NULL, 0, &ipi_hlt);
	run_scenario("seed002-ipi-mwait", NULL, 0, &ipi_mwait);
	run_scenario("seed002-ctxsw-hlt", NULL, 0, &cs_hlt);
	run_scenario("seed002-ctxsw-mwait", NULL, 0, &cs_mwait);
	double p50 = (double)ipi_mwait.p50[0] / (double)ipi_hlt.p50[0];
	double p99 = (double)ipi_mwait.p99[0] / (double)ipi_hlt.p99[0];
	double switches = cs_mwait.msg_s[0] / cs_hlt.msg_s[0];
	print_message("seed 002: p50 HLT %lld MWAIT %lld ns, p99 HLT %lld MWAIT %lld ns; "
		      "switches/s HLT %.0f MWAIT %.0f\n",
		      (long long)ipi_hlt.p50[0], (long long)ipi_mwait.p50[0], (long long)ipi_hlt.p99[0],
		      (long long)ipi_mwait.p99[0], cs_hlt.msg_s[0], cs_mwait.msg_s[0]);
	assert_true(p50 >= 0.65 && p50 <= 0.85);
	assert_true(p99 >= 0.65 && p99 <= 0.85);
	assert_true(switches >= 1.2);
	assert_true(switches > 1.0 / p50);
}

/*
 * Seed 004 on kernel 5.9, an I/O-port _CST and C-state control refused: the 5.9 code path
 * leaves C3/C6 default-disabled, the seed's commit (switch intel_idle_cst_needs_control)
 * enables them.  The single stream gains at every size (turbo headroom), and less at
 * 16 KiB than at 4 KiB: the payload copy, at memory speed, does not speed up with turbo.
 * Figures in the seed's units (Mbit/s).
 */
static void test_seed004_turbo_headroom(void **state)
{
	(void)state;
	static const int sizes[] = { 64, 128, 256, 1024, 2048, 3312, 4096, 8192, 16384 };
	static struct runs legacy, fixed;
	char size[64];
	const char *ov[] = { size, "scenario.runs=1", "scenario.duration_ms=50" };
	double gain_4k = 0, gain_16k = 0;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(size, sizeof(size), "workload.msg_bytes=%d", sizes[i]);
		run_scenario("seed004-legacy", ov, 3, &legacy);
		run_scenario("seed004-fixed", ov, 3, &fixed);
		double gain = fixed.mb_s[0] / legacy.mb_s[0];
		print_message("seed 004 send-%d: 5.9 %.2f, 5.9+75af76d0a3 %.2f Mbit/s (%+.1f%%)\n",
			      sizes[i], 8.0 * legacy.mb_s[0], 8.0 * fixed.mb_s[0],
			      100.0 * (gain - 1.0));
		assert_true(gain >= 1.05);
		if (sizes[i] == 4096)
			gain_4k = gain;
		if (sizes[i] == 16384)
			gain_16k = gain;
	}
	assert_true(gain_16k < gain_4k - 0.03);
	/* C3 and C6 start enabled only with the fix; the idle cores then reach C6. */
	int seen = 0;
	for (int k = 0; k < fixed.nstates; k++) {
		if (strcmp(fixed.names[k], "C3") != 0 && strcmp(fixed.names[k], "C6") != 0)
			continue;
		seen++;
		assert_string_equal(legacy.names[k], fixed.names[k]);
		assert_true(legacy.flags[k] & IK_FLAG_OFF);
		assert_false(fixed.flags[k] & IK_FLAG_OFF);
		assert_int_equal(legacy.usage[0][k], 0);
	}
	assert_int_equal(seen, 2);
	assert_true(fixed.usage[0][fixed.nstates - 1] > 0);
}

/*
 * Seed 003: time to leave stop0_lite over 20 CPUs once the work stops (docs/seeds.md works
 * the numbers through menu's arithmetic).  CI-sized: the work stops at 40 ms instead of
 * 100 ms and the windows after the stop are 1.2 s (tickless, shipped 2.5 s), 36 ms (tick,
 * uniform history), 20 ms (tick, mixed history; forced wake-up), all shipped as 50 ms.
 */
static const char *const seed003_ci_stop[] = { "scenario.warmup_ms=40", "workload.stop_ms=40",
					       "scenario.duration_ms=20" };

/*
 * Tickless, kernel 4.16: the idle loop stops the tick before menu runs, so a CPU left in
 * stop0_lite stays there until its next timer; no CPU leaves within 1.2 s (seed: "more
 * than even a second"), and each of the 20 spends at least 1.1 s of it in stop0_lite.
 */
static void test_seed003_tickless_4_16(void **state)
{
	(void)state;
	static struct runs tickless;
	const char *ov[] = { "scenario.warmup_ms=40", "workload.stop_ms=40",
			     "scenario.duration_ms=1200" };

	run_scenario("seed003-tickless", ov, 3, &tickless);
	print_message("seed 003 tickless 4.16: %lld CPUs left stop0_lite in 1.2 s; least time "
		      "in it %lld ns\n", (long long)tickless.leave_count[0],
		      (long long)tickless.lite_min_ns[0]);
	assert_int_equal(tickless.leave_count[0], 0);
	assert_true(tickless.lite_min_ns[0] >= 1100000000LL);
}

/*
 * Tick retained, kernel 5.1.  Uniform history (30 us period): 5.1's high-end-only outlier
 * filter keeps the short pattern until all 8 slots hold tick wakeups, 7-8 ticks of 4 ms
 * (with no timer within 45 ms each tick wake-up is learned as the same 45 ms, and one
 * drop removes them all).
 *
 * Mixed history (bursts of six ~14 us TCP round trips, then a timer-driven ~0.8 ms idle,
 * every millisecond; each reply re-arms the socket's 40 ms delayed-ACK timer): each tick
 * wake-up is learned as the distance to that timer, a different value each time, and the
 * pattern search drops at most two, so no CPU stays beyond 3 ticks.  Which of 0-3 ticks a
 * CPU takes depends on where the stop catches its burst (docs/seeds.md): 3 ticks only
 * for a CPU stopped after its burst's last round trip, ~2% of CPUs, so over one run of 20
 * the longest is 12 ms in about a quarter of runs and just under 8 ms in the others.  The
 * figure's shape ("min < 6 ms, max 8-16 ms over 20 samples") is therefore asserted as: in
 * every run of 20, at most 4 at once, the least of the others under 6 ms and the longest
 * at most 16 ms (the 3-tick cap; without the timer some CPUs stay 8 ticks, past the
 * window, and the count of 20 fails); most samples after 1 tick; and over the 10 runs'
 * 200 samples the longest 8-16 ms (some CPU stays 3 ticks).  CI-sized: 10 runs (seeds
 * 1-10) with the work stopping at 40 ms and a 20 ms window, where the scenario runs one
 * of 100 + 50 ms.
 */
static void test_seed003_tick(void **state)
{
	(void)state;
	static struct runs uniform, mixed;

	const char *ov_uniform[] = { "scenario.warmup_ms=40", "workload.stop_ms=40",
				     "scenario.duration_ms=36" };
	const char *ov_mixed[] = { "scenario.warmup_ms=40", "workload.stop_ms=40",
				   "scenario.duration_ms=20", "scenario.runs=10" };

	run_scenario("seed003-tick", ov_uniform, 3, &uniform);
	run_scenario("seed003-tick-mixed", ov_mixed, 4, &mixed);
	print_message("seed 003 tick 5.1, uniform history: %lld..%lld ns\n",
		      (long long)uniform.leave_min[0], (long long)uniform.leave_max[0]);
	assert_int_equal(uniform.leave_count[0], 20);
	assert_true(uniform.leave_min[0] >= 6 * 4000000 && uniform.leave_max[0] <= 8 * 4000000 + 100000);

	assert_int_equal(mixed.n, 10);
	int64_t longest = 0;
	int one_tick = 0;
	for (int i = 0; i < mixed.n; i++) {
		assert_int_equal(mixed.leave_count[i], 20);
		int at_once = 0;
		while (at_once < 20 && mixed.leave_sorted[i][at_once] < 100000)
			at_once++;
		for (int k = at_once; k < 20; k++)
			if (mixed.leave_sorted[i][k] <= 4100000)
				one_tick++;
		print_message("seed 003 tick 5.1, mixed history, seed %d: %d CPUs deep at once, "
			      "the others %lld..%lld ns\n", i + 1, at_once,
			      (long long)(at_once < 20 ? mixed.leave_sorted[i][at_once] : 0),
			      (long long)mixed.leave_max[i]);
		assert_true(at_once <= 4);
		assert_true(mixed.leave_sorted[i][at_once] < 6000000);
		assert_true(mixed.leave_max[i] <= 16000000);
		/* The seed's own measure: iterations in stop0_lite times the period that ends each
		   (here the tick, 4 ms), so 1 tick reads 4 ms and 2 ticks 8 ms. */
		print_message("  the seed's measure (entries x 4 ms): min %lld ms, max %lld ms\n",
			      (long long)(4 * mixed.lite_entries_min[i]),
			      (long long)(4 * mixed.lite_entries_max[i]));
		assert_true(4 * mixed.lite_entries_min[i] < 6);
		assert_true(4 * mixed.lite_entries_max[i] >= 8 && 4 * mixed.lite_entries_max[i] <= 16);
		if (mixed.leave_max[i] > longest)
			longest = mixed.leave_max[i];
	}
	print_message("seed 003 tick 5.1, mixed history: %d of 200 samples after 1 tick, the "
		      "longest %lld ns\n", one_tick, (long long)longest);
	assert_true(one_tick >= 120);
	assert_true(longest >= 8000000 && longest <= 16000000);
}

/*
 * Forced wake-up (the 2019 proposal), kernel 5.1: a timer at stop0's residency + 2 x its
 * exit latency (24 us) kicks the CPU out until menu's average passes stop0's 20 us:
 * 100-300 us (seed 144-192).  And the reason for the patch: the busy SMT siblings get
 * their core back sooner than with the tick.
 */
static void test_seed003_forced_wakeup(void **state)
{
	(void)state;
	static struct runs tick, forced;

	run_scenario("seed003-tick", seed003_ci_stop, 3, &tick);
	run_scenario("seed003-forced-wakeup", seed003_ci_stop, 3, &forced);
	print_message("seed 003 forced wake-up 5.1: %lld..%lld ns\n",
		      (long long)forced.leave_min[0], (long long)forced.leave_max[0]);
	assert_int_equal(forced.leave_count[0], 20);
	assert_true(forced.leave_min[0] >= 100000 && forced.leave_max[0] <= 300000);
	/* the seed's measure: iterations times the timer's 24 us ("(20+2*2)*8 = 192us") */
	print_message("seed 003 forced wake-up 5.1, the seed's measure (entries x 24 us): "
		      "%lld..%lld us\n", (long long)(24 * forced.lite_entries_min[0]),
		      (long long)(24 * forced.lite_entries_max[0]));
	assert_true(24 * forced.lite_entries_min[0] >= 100 && 24 * forced.lite_entries_max[0] <= 300);
	print_message("seed 003 sibling work units in the 20 ms after the stop: tick %llu, forced %llu\n",
		      (unsigned long long)tick.side_units[0], (unsigned long long)forced.side_units[0]);
	assert_true((double)forced.side_units[0] > 1.03 * (double)tick.side_units[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed002_mwait_over_hlt),
		cmocka_unit_test(test_seed004_turbo_headroom),
		cmocka_unit_test(test_seed003_tickless_4_16),
		cmocka_unit_test(test_seed003_tick),
		cmocka_unit_test(test_seed003_forced_wakeup),
		cmocka_unit_test(test_seed000_dummy_wait_cycle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
