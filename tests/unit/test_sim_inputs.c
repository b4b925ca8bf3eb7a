/*
 * The scheduler's side of what governors read (docs/model.md, "Scheduler signals"): the
 * PELT-like utilisation behind dev->in.cpu_util, and the I/O waiters behind
 * dev->in.nr_iowaiters, first as arithmetic, then as the simulator hands them to a
 * governor at each idle entry (through a probe plugin whose choice of state encodes them),
 * and last as menu of 6.12 and 6.19 reacts to them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/result.h"
#include "idlekit/governor.h"
#include "idlekit/kernel.h"
#include "sim/pelt.h"
#include "sim/sim.h"
#include "sim_fixture.h"

#define UNIT_NS 1024                 /* PELT's time unit */
#define PERIOD_NS (1024 * UNIT_NS)   /* one period: 1.048576 ms */
#define Y 0.97857206208770013        /* 2^(-1/32) */

static double y_pow(int n)
{
	double v = 1.0;
	for (int i = 0; i < n; i++)
		v *= Y;
	return v;
}

/* y^32 is one half: the decay of a value over 32 periods halves it, over 64 quarters it. */
static void test_decay_halves_every_32_periods(void **state)
{
	(void)state;
	struct ik_pelt_consts k;
	ik__pelt_consts_init(&k);
	assert_int_equal(k.load_avg_max, 47742); /* the kernel's LOAD_AVG_MAX */
	/* (y^0 is 2^32 - 1 in 0.32, so whole half-lives lose one unit, as in the kernel) */
	assert_int_equal(ik__pelt_decay(&k, 1u << 20, 32), (1u << 19) - 1);
	assert_int_equal(ik__pelt_decay(&k, 1u << 20, 64), (1u << 18) - 1);
	uint64_t one = ik__pelt_decay(&k, 1000000, 1); /* y = 0.978572... */
	assert_true(one >= 978571 && one <= 978572);
	assert_int_equal(ik__pelt_decay(&k, UINT64_MAX, 63 * 32 + 1), 0);
}

/* From zero, a CPU busy for n whole periods reads 1024 (1 - y^n), to within truncation. */
static void test_busy_cpu_converges(void **state)
{
	(void)state;
	struct ik_pelt_consts k;
	ik__pelt_consts_init(&k);
	const int ns[] = { 1, 8, 32, 64, 200 };
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct ik_pelt p = { 0 };
		/* in steps of 100 us, as a busy task's ticks would update it */
		int64_t end = (int64_t)ns[i] * PERIOD_NS;
		for (int64_t t = 0; t < end; t += 100000)
			ik__pelt_update(&k, &p, t, true);
		ik__pelt_update(&k, &p, end, true);
		double want = 1024.0 * (1.0 - y_pow(ns[i]));
		print_message("busy %d periods: util_avg %u, 1024 (1 - y^n) = %.1f\n", ns[i],
			      p.util_avg, want);
		assert_true(p.util_avg >= want - 3 && p.util_avg <= want + 1);
	}
}

/* A saturated CPU that goes idle: its utilisation halves every 32 periods (33.6 ms). */
static void test_idle_cpu_halves(void **state)
{
	(void)state;
	struct ik_pelt_consts k;
	ik__pelt_consts_init(&k);
	struct ik_pelt p = { 0 };
	int64_t t = 400 * (int64_t)PERIOD_NS;
	ik__pelt_update(&k, &p, t, true);
	assert_true(p.util_avg >= 1022 && p.util_avg <= 1024);
	uint32_t full = p.util_avg;
	ik__pelt_update(&k, &p, t + 32 * (int64_t)PERIOD_NS, false);
	assert_true(p.util_avg >= full / 2 - 2 && p.util_avg <= full / 2 + 1);
	ik__pelt_update(&k, &p, t + 64 * (int64_t)PERIOD_NS, false);
	assert_true(p.util_avg >= full / 4 - 2 && p.util_avg <= full / 4 + 1);
	/* and it changes only when a period boundary passes */
	uint32_t before = p.util_avg;
	ik__pelt_update(&k, &p, t + 64 * (int64_t)PERIOD_NS + 500 * UNIT_NS, false);
	assert_int_equal(p.util_avg, before);
}

/* Half of every period running: the signal sits at 512 with a ripple of a few units. */
static void test_half_duty_sits_near_512(void **state)
{
	(void)state;
	struct ik_pelt_consts k;
	ik__pelt_consts_init(&k);
	struct ik_pelt p = { 0 };
	uint32_t lo = 1024, hi = 0;
	for (int64_t n = 0; n < 400; n++) {
		int64_t t0 = n * (int64_t)PERIOD_NS;
		ik__pelt_update(&k, &p, t0, false);
		if (n >= 300) { /* converged: 9 half-lives */
			lo = p.util_avg < lo ? p.util_avg : lo;
			hi = p.util_avg > hi ? p.util_avg : hi;
		}
		ik__pelt_update(&k, &p, t0 + PERIOD_NS / 2, true);
	}
	print_message("50%% duty: util_avg in [%u, %u]\n", lo, hi);
	assert_true(lo >= 500 && hi <= 524);
}

/* ---- In the simulator: what a governor sees at each idle entry ------------------------- */

/* small_scenario with 10 states for the probe (C3..C9 copies of C2), governed by it. */
static void probe_scenario(struct ik_scenario *sc)
{
	small_scenario(sc, IK_WORKLOAD_PERIODIC);
	for (int i = 3; i < 10; i++) {
		char name[16];
		snprintf(name, sizeof(name), "C%d", i);
		add_state(&sc->platform, name, 18, 36, IK_METHOD_IOPORT, 20000);
	}
	snprintf(sc->governor, sizeof(sc->governor), "plugin:%s", IK_INPUTS_PROBE);
	sc->warmup_ns = 300 * IK_NSEC_PER_MSEC; /* 9 half-lives: the signal has converged */
	sc->duration_ns = 200 * IK_NSEC_PER_MSEC;
}

static void run(const struct ik_scenario *sc, struct ik_run_result *r)
{
	char err[IK_ERR_LEN];
	int rc = ik__sim_run(sc, sc->seed, r, err, sizeof(err));
	if (rc)
		print_message("%s\n", err);
	assert_int_equal(rc, 0);
}

static uint64_t usage(const struct ik_run_result *r, int cpu, int state)
{
	return r->per_cpu[cpu * r->nstates + state].usage;
}

static uint64_t entries(const struct ik_run_result *r, int cpu)
{
	uint64_t n = 0;
	for (int i = 0; i < r->nstates; i++)
		n += usage(r, cpu, i);
	return n;
}

/*
 * Periodic tasks on CPUs 0-5 that run `work` of every `period`: at each idle entry the CPU's
 * utilisation is the duty cycle x 1024 (the probe's bin k holds 128 k +- 64), on CPUs 6 and 7,
 * which run nothing, 0.
 */
static void check_duty(int64_t work_ns, int64_t period_ns, int bin)
{
	struct ik_scenario sc;
	struct ik_run_result r;

	probe_scenario(&sc);
	sc.workload.task_work_ns = work_ns;
	sc.workload.period_ns = period_ns;
	run(&sc, &r);
	for (int cpu = 0; cpu < 6; cpu++) {
		uint64_t n = entries(&r, cpu);
		print_message("duty %.2f, CPU %d: %llu of %llu idle entries in bin %d\n",
			      (double)work_ns / (double)period_ns, cpu,
			      (unsigned long long)usage(&r, cpu, bin), (unsigned long long)n, bin);
		assert_true(n >= (uint64_t)(sc.duration_ns / period_ns) - 1);
		assert_int_equal(usage(&r, cpu, bin), n);
	}
	for (int cpu = 6; cpu < 8; cpu++)
		assert_int_equal(usage(&r, cpu, 0), entries(&r, cpu));
	ik__run_result_free(&r);
}

static void test_sim_util_follows_duty_cycle(void **state)
{
	(void)state;
	check_duty(1000000, 2000000, 4);  /* 50 %: 512 */
	check_duty(900000, 1000000, 7);   /* 90 %: 922 */
	check_duty(250000, 2000000, 1);   /* 12.5 %: 128 */
}

/*
 * I/O waits: every sleep (100 %) of the task of CPUs 0-5 is one, so each idle entry while it
 * sleeps sees one waiter; half of them (50 %) sees it at half the entries, alternating; the
 * idle CPUs 6 and 7 see none.  0 % sees none anywhere.  (A 50 % duty cycle, so that the
 * probe never picks its polling state 0, whose time limit would add entries.)
 */
static void test_sim_iowaiters(void **state)
{
	(void)state;
	const double pct[] = { 0, 50, 100 };
	for (int k = 0; k < 3; k++) {
		struct ik_scenario sc;
		struct ik_run_result r;

		probe_scenario(&sc);
		sc.workload.task_work_ns = 1000000;
		sc.workload.period_ns = 2000000;
		sc.workload.iowait_pct = pct[k];
		run(&sc, &r);
		for (int cpu = 0; cpu < 8; cpu++) {
			uint64_t n = entries(&r, cpu), io = usage(&r, cpu, 9);
			if (cpu == 0)
				print_message("iowait %.0f %%: CPU 0 saw waiters at %llu of %llu "
					      "idle entries\n", pct[k], (unsigned long long)io,
					      (unsigned long long)n);
			if (cpu >= 6 || pct[k] == 0)
				assert_int_equal(io, 0);
			else if (pct[k] == 100)
				assert_int_equal(io, n);
			else
				assert_true(io * 2 >= n - 1 && io * 2 <= n + 1);
		}
		ik__run_result_free(&r);
	}
}

/*
 * Tasks that move (pingpong, wake_idle placement): the waiter counts on the CPU its task
 * last ran on and leaves it when the task is woken, so no CPU's count runs away: with every
 * sleep an I/O wait, some idle entries see waiters and some (those of CPUs whose task has
 * been woken elsewhere) do not.
 */
static void test_sim_iowaiters_moving_tasks(void **state)
{
	(void)state;
	struct ik_scenario sc;
	struct ik_run_result r;

	probe_scenario(&sc);
	sc.workload.kind = IK_WORKLOAD_PINGPONG;
	sc.workload.iowait_pct = 100;
	sc.duration_ns = 50 * IK_NSEC_PER_MSEC;
	sc.warmup_ns = 10 * IK_NSEC_PER_MSEC;
	run(&sc, &r);
	uint64_t n = 0, io = 0;
	for (int cpu = 0; cpu < 8; cpu++) {
		n += entries(&r, cpu);
		io += usage(&r, cpu, 9);
	}
	print_message("pingpong, all sleeps I/O waits: %llu of %llu idle entries saw waiters\n",
		      (unsigned long long)io, (unsigned long long)n);
	assert_true(io > 0 && io < n);
	ik__run_result_free(&r);
}

/*
 * Utilisation moves with its task: an rt-app thread running 900 us of every 1000 us spends
 * 200 iterations pinned to CPU 0, then 200 pinned to CPU 1, and so on.  The CPU it arrives
 * on reads its ~920 at once and the CPU it left about 0, so no idle entry of either CPU sees
 * a value in between (bins 1-6), where a signal of the CPU's own running time alone would
 * ramp up over about 100 ms after each move (and decay as long after it).
 */
static void test_sim_util_moves_with_task(void **state)
{
	(void)state;
	char path[] = "/tmp/idlekit-test-sim-inputs-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("{ \"global\": { \"duration\": -1 }, \"tasks\": { \"mover\": {\n"
	      "  \"loop\": -1, \"phases\": {\n"
	      "    \"p0\": { \"loop\": 200, \"cpus\": [0], \"run\": 900,\n"
	      "            \"timer\": { \"ref\": \"unique\", \"period\": 1000 } },\n"
	      "    \"p1\": { \"loop\": 200, \"cpus\": [1], \"run\": 900,\n"
	      "            \"timer\": { \"ref\": \"unique\", \"period\": 1000 } } } } } }\n",
	      f);
	assert_int_equal(fclose(f), 0);

	struct ik_scenario sc;
	struct ik_run_result r;
	probe_scenario(&sc);
	sc.workload.kind = IK_WORKLOAD_RTAPP;
	snprintf(sc.workload.file, sizeof(sc.workload.file), "%s", path);
	sc.workload.rtapp_instances = 1;
	sc.warmup_ns = 250 * IK_NSEC_PER_MSEC; /* the first ramp from 0 on CPU 0 is over */
	sc.duration_ns = 700 * IK_NSEC_PER_MSEC; /* three moves */
	run(&sc, &r);
	unlink(path);
	for (int cpu = 0; cpu < 2; cpu++) {
		uint64_t between = 0;
		for (int b = 1; b <= 6; b++)
			between += usage(&r, cpu, b);
		print_message("CPU %d: %llu idle entries at 0, %llu between, %llu at ~920\n", cpu,
			      (unsigned long long)usage(&r, cpu, 0), (unsigned long long)between,
			      (unsigned long long)usage(&r, cpu, 7));
		assert_true(usage(&r, cpu, 7) >= 200); /* its own phases */
		assert_true(between <= 2);
	}
	ik__run_result_free(&r);
}

/* ---- menu: the performance multiplier until 6.13 ------------------------------------------ */

/*
 * Periodic tasks of 20 us every 120 us: each idle period is about 80 us (the 120 us less the
 * work, the context switch and C2's 20 us exit).  menu predicts about 80 us and keeps the tick
 * (80 us < TICK_NSEC), so until 6.17 it caps the latency limit at the prediction divided by
 * 1 + 10 x nr_iowaiters: with no waiter 80 us, and C2 (exit latency 18 us, residency 36 us)
 * fits; with the task's sleep an I/O wait, 80 / 11 = 7 us, and only C1 (1 us) fits.  So at
 * 6.12 the busy CPUs go from C2 to C1; at 6.19 (menu_no_iowait, 6.13) nothing changes, byte for
 * byte.
 */
static void menu_run(const char *release, double iowait_pct, struct ik_run_result *r)
{
	struct ik_scenario sc;
	char err[IK_ERR_LEN];

	small_scenario(&sc, IK_WORKLOAD_PERIODIC);
	sc.workload.period_ns = 120000;
	sc.workload.task_work_ns = 20000;
	sc.workload.iowait_pct = iowait_pct;
	sc.warmup_ns = 10 * IK_NSEC_PER_MSEC;
	unsigned rel;
	assert_int_equal(ik_kernel_parse_release(release, &rel, err, sizeof(err)), 0);
	ik_kernel_init(&sc.kernel, rel);
	run(&sc, r);
}

static void test_menu_iowait_until_6_12(void **state)
{
	(void)state;
	struct ik_run_result none, io;

	menu_run("6.12", 0, &none);
	menu_run("6.12", 100, &io);
	uint64_t c1_none = 0, c2_none = 0, c1_io = 0, c2_io = 0;
	for (int cpu = 0; cpu < 6; cpu++) {
		c1_none += usage(&none, cpu, 1), c2_none += usage(&none, cpu, 2);
		c1_io += usage(&io, cpu, 1), c2_io += usage(&io, cpu, 2);
	}
	print_message("menu 6.12, CPUs 0-5: C1 %llu C2 %llu without I/O waits, C1 %llu C2 %llu "
		      "with\n", (unsigned long long)c1_none, (unsigned long long)c2_none,
		      (unsigned long long)c1_io, (unsigned long long)c2_io);
	assert_true(c2_none > 10 * c1_none); /* C2 fits */
	assert_true(c1_io > 10 * c2_io);     /* only C1 fits the divided limit */
	ik__run_result_free(&none);
	ik__run_result_free(&io);
}

static void test_menu_no_iowait_at_6_19(void **state)
{
	(void)state;
	struct ik_run_result none, io;

	menu_run("6.19", 0, &none);
	menu_run("6.19", 100, &io);
	assert_int_equal(none.idle_entries, io.idle_entries);
	assert_memory_equal(none.per_cpu, io.per_cpu,
			    sizeof(*none.per_cpu) * (size_t)(none.ncpus * none.nstates));
	assert_true(none.wakeups == io.wakeups && none.busy_ns == io.busy_ns);
	ik__run_result_free(&none);
	ik__run_result_free(&io);
}

/*
 * Which governors the simulator keeps the utilisation signal for: only teo with teo_util
 * (6.3-6.10) among the built-ins reads sched_cpu_util(); a governor that does not say
 * (plugins, kernel-source governors: the field NULL) is taken to read it.
 */
static void test_which_governors_read_cpu_util(void **state)
{
	(void)state;
	struct ik_kernel k66, k619, k51;
	ik_kernel_init(&k66, 606);
	ik_kernel_init(&k619, 619);
	ik_kernel_init(&k51, 501);
	assert_true(ik_governor_reads_cpu_util(&ik_governor_teo, &k66));
	assert_false(ik_governor_reads_cpu_util(&ik_governor_teo, &k619));
	assert_false(ik_governor_reads_cpu_util(&ik_governor_teo, &k51));
	assert_false(ik_governor_reads_cpu_util(&ik_governor_teo, NULL)); /* 6.19 */
	const struct ik_governor *quiet[] = { &ik_governor_menu, &ik_governor_ladder,
					      &ik_governor_haltpoll };
	for (size_t i = 0; i < 3; i++) {
		assert_false(ik_governor_reads_cpu_util(quiet[i], &k66));
		assert_false(ik_governor_reads_cpu_util(quiet[i], &k51));
	}
	struct ik_governor unsaid = ik_governor_menu;
	unsaid.reads_cpu_util = NULL;
	assert_true(ik_governor_reads_cpu_util(&unsaid, &k619));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_halves_every_32_periods),
		cmocka_unit_test(test_busy_cpu_converges),
		cmocka_unit_test(test_idle_cpu_halves),
		cmocka_unit_test(test_half_duty_sits_near_512),
		cmocka_unit_test(test_sim_util_follows_duty_cycle),
		cmocka_unit_test(test_sim_iowaiters),
		cmocka_unit_test(test_sim_iowaiters_moving_tasks),
		cmocka_unit_test(test_sim_util_moves_with_task),
		cmocka_unit_test(test_menu_iowait_until_6_12),
		cmocka_unit_test(test_menu_no_iowait_at_6_19),
		cmocka_unit_test(test_which_governors_read_cpu_util),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
