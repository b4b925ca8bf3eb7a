/*
 * A workload learned from a trace (src/trace/learn.c, src/sim/workloads/learned.c): the
 * model file round trip, and the loop: learned from a committed trace, re-simulated on the
 * trace's own table, its idle-duration histogram and wake-cause shares against the
 * trace's analyze, as total-variation distances (TVD = half the sum of the absolute
 * differences of the shares, 0 = equal, 1 = disjoint).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>
#include <cmocka.h>

#include "config/result.h"
#include "config/scenario.h"
#include "sim/sim.h"
#include "trace/analyze.h"
#include "trace/learn.h"
#include "validate/learn_check.h"

static double tvd(const uint64_t *p, const uint64_t *q, int n)
{
	double sp = 0, sq = 0, d = 0;
	for (int i = 0; i < n; i++) {
		sp += (double)p[i];
		sq += (double)q[i];
	}
	for (int i = 0; i < n; i++)
		d += fabs((sp > 0 ? (double)p[i] / sp : 0) - (sq > 0 ? (double)q[i] / sq : 0));
	return d / 2;
}

struct loop {
	double hist_tvd, cause_tvd;
	uint64_t periods; /* recorded */
	int off;          /* figures of the learned-model check beyond its bounds */
};

/* Learn from TRACE, simulate 4 s on its own table, compare with its analysis. */
static void round_trip(const char *trace, struct loop *out)
{
	char dir[] = "/tmp/iklearnXXXXXX", model[256], plat[256], err[IK_ERR_LEN];
	assert_non_null(mkdtemp(dir));
	snprintf(model, sizeof(model), "%s/w.learned", dir);
	snprintf(plat, sizeof(plat), "%s/w.platform.ini", dir);

	FILE *in = fopen(trace, "r");
	assert_non_null(in);
	struct ik_trace_reader *r;
	struct ik_learned m;
	assert_int_equal(ik__trace_open_file(in, trace, false, &r, err, sizeof(err)), 0);
	assert_int_equal(ik__learn_trace(r, "t", &m, err, sizeof(err)), 0);
	FILE *f = fopen(model, "w");
	assert_int_equal(ik__learned_write(f, &m), 0);
	fclose(f);
	f = fopen(plat, "w");
	assert_int_equal(ik__learned_platform_ini(f, r, &m, "t"), 0);
	fclose(f);
	const struct ik_trace_header *h = ik__trace_header(r);
	int hz = h->hz;
	/* the scenario `workload learn` writes: the recording's governor and its parameters */
	char own[2048];
	int used = snprintf(own, sizeof(own), "[scenario]\nname = own\nplatform = %s\n"
			    "duration_ms = 2000\nwarmup_ms = 100\n[kernel]\nhz = %d\n[cpuidle]\n"
			    "governor = %s\n[workload]\ntype = learned\nfile = %s\n", plat, hz,
			    h->governor[0] ? h->governor : "menu", model);
	if (h->governor[0] && h->nparams > 0)
		used += snprintf(own + used, sizeof(own) - (size_t)used, "[governor]\n");
	for (int i = 0; h->governor[0] && i < h->nparams; i++)
		used += snprintf(own + used, sizeof(own) - (size_t)used, "%s = %llu\n",
				 h->params[i].key, (unsigned long long)h->params[i].value);
	ik__trace_close(r);
	fclose(in);

	/* the recording's analysis */
	in = fopen(trace, "r");
	struct ik_trace_analysis a;
	assert_int_equal(ik__trace_open_file(in, trace, false, &r, err, sizeof(err)), 0);
	assert_int_equal(ik__trace_analyze(r, &a, err, sizeof(err)), 0);
	ik__trace_close(r);
	fclose(in);

	/* the model reads back as written */
	struct ik_learned back;
	assert_int_equal(ik__learned_load(model, &back, err, sizeof(err)), 0);
	assert_int_equal(back.cpus, m.cpus);
	for (int c = 0; c < m.cpus; c++)
		for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
			assert_int_equal(back.cpu[c].periods[k], m.cpu[c].periods[k]);
			assert_int_equal(back.cpu[c].idle[k].n, m.cpu[c].idle[k].n);
			if (m.cpu[c].idle[k].n)
				assert_int_equal(back.cpu[c].idle[k].v[0], m.cpu[c].idle[k].v[0]);
		}
	ik__learned_free(&back);
	ik__learned_free(&m);

	char text[2048];
	snprintf(text, sizeof(text), "%s", own);
	char *d = strstr(text, "duration_ms = 2000");
	assert_non_null(d);
	memcpy(d, "duration_ms = 4000", 18);
	struct ik_scenario sc;
	struct ik_run_result res;
	if (ik__scenario_parse_string("l.ini", text, NULL, 0, &sc, err, sizeof(err)))
		fail_msg("%s", err);
	if (ik__sim_run(&sc, 1, &res, err, sizeof(err)))
		fail_msg("%s", err);

	/* causes: timer and tick | ipi and remote | device interrupts and the rest; the
	   simulated periods no model wake-up ended (the tick, a poll limit) count as ticks */
	uint64_t ended = 0;
	for (int i = 0; i < res.nstates; i++)
		ended += res.total[i].usage;
	uint64_t ours = res.learned_wakes[0] + res.learned_wakes[1] + res.learned_wakes[2];
	uint64_t sim_c[3] = { res.learned_wakes[0] + (ended > ours ? ended - ours : 0),
			      res.learned_wakes[1], res.learned_wakes[2] };
	const uint64_t *w = a.all.wakes;
	uint64_t trace_c[3] = { w[IK_CAUSE_TIMER] + w[IK_CAUSE_TICK],
				w[IK_CAUSE_IPI] + w[IK_CAUSE_REMOTE],
				w[IK_CAUSE_IRQ] + w[IK_CAUSE_UNKNOWN] + w[IK_CAUSE_SOFTIRQ] +
					w[IK_CAUSE_NONE] };
	out->hist_tvd = tvd(a.hist, res.idle_hist, IK_IDLE_HIST_BUCKETS);
	out->cause_tvd = tvd(trace_c, sim_c, 3);
	print_message("%s: %llu recorded periods, %llu simulated; histogram TVD %.3f, wake-cause "
		      "TVD %.3f\n", trace, (unsigned long long)a.periods, (unsigned long long)ended,
		      out->hist_tvd, out->cause_tvd);
	assert_true(ended > 5 * a.periods || ended > 1000);
	out->periods = a.periods;
	ik__trace_analysis_free(&a);
	ik__run_result_free(&res);

	/* the check `workload learn` prints: per CPU idle share and entries/s, the mix */
	struct ik_learn_check c;
	if (ik__scenario_parse_string("own.ini", own, NULL, 0, &sc, err, sizeof(err)))
		fail_msg("%s", err);
	if (ik__learn_check(trace, &sc, &c, err, sizeof(err)))
		fail_msg("%s", err);
	char *table = NULL;
	size_t tlen = 0;
	FILE *t = open_memstream(&table, &tlen);
	assert_int_equal(ik__learn_check_print(&c, t, t, "check"), 0);
	fclose(t);
	print_message("%s", table);
	free(table);
	out->off = c.off;
	ik__learn_check_free(&c);
	unlink(model);
	unlink(plat);
	rmdir(dir);
}

/*
 * Two measures per trace (docs/workloads.md, "How close"):
 *
 * - the learned-model check `workload learn` prints, on the recording's own governor: per
 *   CPU idle share and idle entries/s within 10 % (and 1 point, 1/s), each wake-cause
 *   group's share within 10 points.  Asserted for the recordings of real machines:
 *   sleeper-1ms.trace (2.1 s, 1868 periods), perf-sched-mono.trace and
 *   recorded-sched.trace (0.2 s, 19 and 14 periods).  two-cpus.trace (hand-written, 1 ms,
 *   4 periods, no sched events) is one the model cannot represent: CPU 1's one recorded
 *   cycle gives a rate from a single gap (its check is printed, not asserted).
 * - histogram TVD <= 0.35 and wake-cause TVD <= 0.10 of a 4 s run under the recording's
 *   own governor and its parameters (haltpoll with guest_halt_poll_ns = 0 here).  The
 *   histogram bound is not asserted for recorded-sched.trace: its 14 periods are too few
 *   (a model exactly right would show a median TVD of 0.33 and a 90th percentile of 0.42
 *   from sampling alone), and since a task's run is replayed on the CPU it ran on (a 159 ms
 *   run of the always busy CPU 1 is no longer put on CPU 0, which had taken CPU 0's idle
 *   share from the recorded 98.9 % to 46 %), its simulated periods spread over 1-65 ms
 *   where 5 of the 14 recorded ones cluster at the 4 ms tick: 0.44.
 */
static void test_round_trip(void **state)
{
	(void)state;
	static const struct {
		const char *trace;
		bool check, hist;
	} traces[] = {
		{ "fixtures/traces/two-cpus.trace", false, true },
		{ "fixtures/traces/perf-sched-mono.trace", true, true },
		{ "fixtures/traces/recorded-sched.trace", true, false },
		{ "fixtures/traces/sleeper-1ms.trace", true, true },
	};
	for (size_t i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		struct loop l;
		round_trip(traces[i].trace, &l);
		if (traces[i].hist)
			assert_true(l.hist_tvd <= 0.35);
		assert_true(l.cause_tvd <= 0.10);
		if (traces[i].check && l.off != 0)
			fail_msg("%s: %d figures of the learned model's check beyond its bounds",
				 traces[i].trace, l.off);
	}
}

/*
 * Per task, by hand: task 100 runs on CPU 0 from 1 to 11 us; CPU 0 idles from 11.5 us; CPU 1
 * wakes task 100 at 111 us (remote: slept 100 us); it runs 113..133 us (filed under
 * remote); it is switched back in at 150 us with no wake-up (preempted: a local wake after
 * 17 us) and runs to 160 us; then sleeps to the end at 300 us (open: 140 us, longer than
 * any sleep it finished, so kept, under its most frequent cause: remote, on a tie with
 * local broken by the lower cause).  Task 200 is only ever running: not a model task.
 */
static void test_learn_tasks(void **state)
{
	(void)state;
	static const char trace[] =
		"idlekit-trace 1.1\nhz 250\ncpus 2\ndriver d 0-1\nstate POLL 0 0 0x1 POLL\n"
		"state C1 2 4 0x0 C1\nevents\n"
		"1000 0 switch 0 100\n"
		"1500 1 switch 0 200\n"
		"11000 0 switch 100 0\n"
		"11500 0 idle_enter 1\n"
		"111000 0 task_wake 1 100\n"
		"111100 0 wake ipi\n"
		"112000 0 idle_exit\n"
		"113000 0 switch 0 100\n"
		"133000 0 switch 100 0\n"
		"150000 0 switch 0 100\n"
		"160000 0 switch 100 0\n"
		"300000 0 idle_enter 1\n";
	char err[IK_ERR_LEN];
	struct ik_trace_reader *r;
	struct ik_learned m;
	assert_int_equal(ik__trace_open_mem(trace, sizeof(trace) - 1, "t", false, &r, err, sizeof(err)), 0);
	if (ik__learn_trace(r, "t", &m, err, sizeof(err)))
		fail_msg("%s", err);
	ik__trace_close(r);
	assert_int_equal(m.ntasks, 1);
	const struct ik_learned_task *t = &m.task[0];
	assert_int_equal(t->pid, 100);
	assert_int_equal(t->cpu_runs[0], 3);
	assert_int_equal(t->cpu_runs[1], 0);
	assert_int_equal(t->wakes[IK_CAUSE_REMOTE], 2); /* the wake-up and the open sleep */
	assert_int_equal(t->sleep[IK_CAUSE_REMOTE].n, 2);
	assert_int_equal(t->sleep[IK_CAUSE_REMOTE].v[0], 100000);
	assert_int_equal(t->sleep[IK_CAUSE_REMOTE].v[1], 140000);
	assert_int_equal(t->run[IK_CAUSE_REMOTE].n, 1);
	assert_int_equal(t->run[IK_CAUSE_REMOTE].v[0], 20000);
	assert_true(t->has_run_cpu[IK_CAUSE_REMOTE]);
	assert_int_equal(t->run_cpu[IK_CAUSE_REMOTE][0], 0); /* ended on CPU 0 */
	assert_int_equal(m.span_ns, 299000);
	for (int k = 0; k < IK_LEARNED_CAUSES; k++) /* the one period had a task after it */
		assert_int_equal(m.cpu[0].empty[k], 0);
	assert_int_equal(t->wakes[IK_LEARNED_LOCAL], 1);
	assert_int_equal(t->sleep[IK_LEARNED_LOCAL].v[0], 17000);
	assert_int_equal(t->run[IK_LEARNED_LOCAL].v[0], 10000);

	/* written and read back the same */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(ik__learned_write(f, &m), 0);
	fclose(f);
	struct ik_learned back;
	if (ik__learned_parse("m", text, len, &back, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(back.ntasks, 1);
	assert_int_equal(back.task[0].pid, 100);
	assert_int_equal(back.task[0].cpu_runs[0], 3);
	for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++) {
		assert_int_equal(back.task[0].wakes[k], t->wakes[k]);
		assert_int_equal(back.task[0].sleep[k].n, t->sleep[k].n);
		assert_int_equal(back.task[0].run[k].n, t->run[k].n);
		assert_int_equal(back.task[0].has_run_cpu[k], t->has_run_cpu[k]);
		for (int j = 0; j < t->run[k].n; j++)
			assert_int_equal(back.task[0].run_cpu[k][j], t->run_cpu[k][j]);
	}
	assert_int_equal(back.span_ns, m.span_ns);
	free(text);
	ik__learned_free(&back);
	ik__learned_free(&m);
}

/* A task model runs on its CPUs: a task woken remotely every 100 us on CPU 1 of 4. */
static void test_task_model_runs(void **state)
{
	(void)state;
	char err[IK_ERR_LEN];
	static const char model[] = "idlekit-learned 1\ncpus 4\n"
				    "task 7 remote 5\ntask_sleep 7 remote 100000\n"
				    "task_run 7 remote 10000\ntask_cpus 7 1:5\n";
	char path[] = "/tmp/iklearnXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, model, sizeof(model) - 1), (ssize_t)(sizeof(model) - 1));
	close(fd);
	char text[512];
	snprintf(text, sizeof(text), "[scenario]\nname = l\nplatform = amd-zen3\nduration_ms = 1000\n"
		 "[kernel]\nhousekeeping_hz = 0\n[workload]\ntype = learned\nfile = %s\n", path);
	struct ik_scenario sc;
	struct ik_run_result r;
	if (ik__scenario_parse_string("l.ini", text, NULL, 0, &sc, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(ik__sim_run(&sc, 1, &r, err, sizeof(err)), 0);
	/* the 0.9 s after the warm-up / (100 us + 10 us + a context switch + the IPI and the
	   exit): fewer than 8200 remote wake-ups, all of an idle CPU 1 */
	assert_true(r.learned_wakes[1] > 7000 && r.learned_wakes[1] < 8200);
	assert_int_equal(r.learned_wakes[0], 0);
	assert_true(r.busy_ns > 70000000 && r.busy_ns < 100000000);
	uint64_t on[4] = { 0 };
	for (int c = 0; c < 4; c++)
		for (int i = 0; i < r.nstates; i++)
			on[c] += r.per_cpu[c * r.nstates + i].usage;
	assert_true(on[1] >= r.learned_wakes[1]);
	assert_true(10 * (on[0] + on[2] + on[3]) < on[1]); /* the others: the tick before it stops */
	ik__run_result_free(&r);
	unlink(path);
}

/* A model learned from a 2-CPU trace runs on any platform with at least 2 CPUs. */
static void test_other_platform(void **state)
{
	(void)state;
	char err[IK_ERR_LEN];
	static const char model[] = "idlekit-learned 1\ncpus 2\ncause 0 timer 3\n"
				    "idle 0 timer 100000 200000 400000\nbusy 0 timer 10000\n"
				    "cause 1 ipi 1\nidle 1 ipi 50000\n";
	char path[] = "/tmp/iklearnXXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, model, sizeof(model) - 1), (ssize_t)(sizeof(model) - 1));
	close(fd);
	char text[512];
	snprintf(text, sizeof(text), "[scenario]\nname = l\nplatform = intel-spr\nduration_ms = 1000\n"
		 "[cpuidle]\ndriver = intel_idle\n[workload]\ntype = learned\nfile = %s\n", path);
	struct ik_scenario sc;
	struct ik_run_result r;
	if (ik__scenario_parse_string("l.ini", text, NULL, 0, &sc, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(ik__sim_run(&sc, 1, &r, err, sizeof(err)), 0);
	/* CPU 0: about 1 s / (233 us + 10 us); CPU 1 woken remotely every 50 us */
	assert_true(r.learned_wakes[0] > 3000 && r.learned_wakes[0] < 4500);
	assert_true(r.learned_wakes[1] > 15000);
	ik__run_result_free(&r);
	unlink(path);
}

static void test_bad_model(void **state)
{
	(void)state;
	struct ik_learned m;
	char err[256];
	static const char *const bad[] = {
		"idlekit-learned 2\n",
		"idlekit-learned 1\ncause 0 timer 1\n",
		"idlekit-learned 1\ncpus 1\ncause 1 timer 1\n",
		"idlekit-learned 1\ncpus 1\ncause 0 sometimes 1\n",
		"idlekit-learned 1\ncpus 1\ncause 0 timer 1\n",
		"idlekit-learned 1\ncpus 1\nidle 0 timer 5 3\n",
		"idlekit-learned 1\ncpus 1\nidle 0 timer -5\n",
		"idlekit-learned 1\ncpus 1\nfrobnicate\n",
		"idlekit-learned 1\ncpus 1\ntask 5 remote 1\ntask_cpus 5 0:1\n",
		"idlekit-learned 1\ncpus 1\ntask 5 remote 1\ntask_sleep 5 remote 10\n",
		"idlekit-learned 1\ncpus 1\ntask_cpus 5 1:1\n",
		"idlekit-learned 1\ncpus 1\ntask 5 sometimes 1\n",
	};
	static const char *const expect[] = { "m:1:", "m:2: expected 'cpus N'", "m:3: expected a CPU",
					      "m:3: expected a cause", "expected its 'idle' line",
					      "non-decreasing", "m:3: expected a length",
					      "m:3: expected source", "expected its 'task_sleep' line",
					      "task 5: expected wake-ups ('task') and CPUs ('task_cpus'), got no CPUs",
					      "m:3: expected a CPU number (0..0)", "m:3: expected a cause" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_not_equal(ik__learned_parse("m", bad[i], strlen(bad[i]), &m, err, sizeof(err)), 0);
		if (!strstr(err, expect[i]))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, expect[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_learn_tasks),
		cmocka_unit_test(test_task_model_runs),
		cmocka_unit_test(test_other_platform),
		cmocka_unit_test(test_bad_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
