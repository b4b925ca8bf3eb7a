/*
 * Unit tests of idle traces (src/trace/): the reader (header, events, every error with its
 * line, --lenient), the writer (a generated trace read back and written again is the same
 * text), the FILE and memory readers agreeing, analyze on the hand-checked fixture
 * (tests/fixtures/traces/two-cpus.trace) and replay's bookkeeping.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/replay.h"

#define HEAD                                                                              \
	"idlekit-trace 1\nhz 250\ncpus 2\ndriver t 0-1\nstate POLL 0 0 0x1 CPUIDLE CORE POLL IDLE\n" \
	"state C1 2 4 0\nstate C6 100 400 0x0 deep\nevents\n"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Analyse a text; the reader's return code, err filled on failure. */
static int analyze_text(const char *text, bool lenient, struct ik_trace_analysis *a, char *err,
			size_t errlen)
{
	struct ik_trace_reader *r;
	int rc = ik__trace_open_mem(text, strlen(text), "t.trace", lenient, &r, err, errlen);
	if (rc)
		return rc;
	rc = ik__trace_analyze(r, a, err, errlen);
	ik__trace_close(r);
	return rc;
}

static void expect_error(const char *text, const char *msg)
{
	struct ik_trace_analysis a;
	char err[512] = "";
	int rc = analyze_text(text, false, &a, err, sizeof(err));
	assert_int_equal(rc, IK_TRACE_EINPUT);
	if (!strstr(err, msg))
		fail_msg("expected '%s' in '%s'", msg, err);
}

static void test_fixture(void **state)
{
	(void)state;
	size_t len;
	char *text = slurp("fixtures/traces/two-cpus.trace", &len);
	struct ik_trace_reader *r;
	struct ik_trace_analysis a;
	char err[512];

	assert_int_equal(ik__trace_open_mem(text, len, "two-cpus", false, &r, err, sizeof(err)), 0);
	const struct ik_trace_header *h = ik__trace_header(r);
	assert_int_equal(h->hz, 250);
	assert_int_equal(h->cpus, 2);
	assert_int_equal(h->drivers[0].drv.state_count, 3);
	assert_string_equal(h->drivers[0].drv.states[0].desc, "CPUIDLE CORE POLL IDLE");
	assert_int_equal(h->drivers[0].drv.states[2].target_residency_ns, 400000);
	assert_int_equal(ik__trace_analyze(r, &a, err, sizeof(err)), 0);
	ik__trace_close(r);

	assert_int_equal(a.events, 15);
	assert_int_equal(a.periods, 4);
	assert_int_equal(a.open_at_end, 1);
	/* CPU 0: C6 for 300 us < 400 us (too deep); C1 500.5 us, minus 2 >= 400 (too shallow);
	 * POLL 5 us, >= C1's 4 us (too shallow). */
	const struct ik_trace_state_stats *s = a.cpu[0].states;
	assert_int_equal(s[2].entries, 1);
	assert_int_equal(s[2].total_ns, 300000);
	assert_int_equal(s[2].too_deep, 1);
	assert_int_equal(s[1].total_ns, 500500);
	assert_int_equal(s[1].too_shallow, 1);
	assert_int_equal(s[0].total_ns, 5000);
	assert_int_equal(s[0].too_shallow, 1);
	/* CPU 1: C6 for 800.1 us, no deeper state: right. */
	s = a.cpu[1].states;
	assert_int_equal(s[2].entries, 1);
	assert_int_equal(s[2].min_ns, 800100);
	assert_int_equal(s[2].too_deep + s[2].too_shallow, 0);
	/* Overall C6: min 300, max 800.1 us. */
	assert_int_equal(a.all.states[2].min_ns, 300000);
	assert_int_equal(a.all.states[2].max_ns, 800100);
	/* Causes: the IRQ after the exit ended the too-deep period. */
	assert_int_equal(a.all.wakes[IK_CAUSE_IRQ], 1);
	assert_int_equal(a.all.too_deep_by_cause[IK_CAUSE_IRQ], 1);
	assert_int_equal(a.all.wakes[IK_CAUSE_IPI], 1);
	assert_int_equal(a.all.wakes[IK_CAUSE_TIMER], 1);
	assert_int_equal(a.all.wakes[IK_CAUSE_TICK], 1);
	assert_int_equal(a.all.wakes[IK_CAUSE_NONE], 0);
	/* Histogram: 5 us in [4, 8), 300 and 500.5 in [256, 512), 800.1 in [512, 1024). */
	assert_int_equal(a.hist[3], 1);
	assert_int_equal(a.hist[9], 2);
	assert_int_equal(a.hist[10], 1);
	ik__trace_analysis_free(&a);
	free(text);
}

static void test_disabled_state_flags(void **state)
{
	(void)state;
	/* C1 is OFF: C6 for 300 us is still too deep (POLL is shallower and enabled); with
	 * POLL UNUSABLE too, nothing shallower is enabled: not too deep. */
	struct ik_trace_analysis a;
	char err[256];
	assert_int_equal(analyze_text("idlekit-trace 1\nhz 250\ncpus 1\ndriver t 0\n"
				      "state POLL 0 0 0x9\nstate C1 2 4 0x10\nstate C6 100 400 0\n"
				      "events\n0 0 idle_enter 2\n300000 0 idle_exit\n",
				      false, &a, err, sizeof(err)),
			 0);
	assert_int_equal(a.cpu[0].states[2].too_deep, 0);
	ik__trace_analysis_free(&a);
	assert_int_equal(analyze_text("idlekit-trace 1\nhz 250\ncpus 1\ndriver t 0\n"
				      "state POLL 0 0 0x1\nstate C1 2 4 0x10\nstate C6 100 400 0\n"
				      "events\n0 0 idle_enter 2\n300000 0 idle_exit\n",
				      false, &a, err, sizeof(err)),
			 0);
	assert_int_equal(a.cpu[0].states[2].too_deep, 1);
	assert_int_equal(a.all.wakes[IK_CAUSE_NONE], 1);
	ik__trace_analysis_free(&a);
}

static void test_header_errors(void **state)
{
	(void)state;
	expect_error("", "t.trace:1: expected 'idlekit-trace 1', got the end of the file");
	expect_error("idlekit-trace 2\n", "t.trace:1: expected format version 1 or 1.1, got '2'");
	expect_error("idlekit-trace 1.2\n", "t.trace:1: expected format version 1 or 1.1, got '1.2'");
	expect_error("# c\nidlekit-trace 1\nhz x\n", "t.trace:3: expected 'hz N'");
	expect_error("idlekit-trace 1\nhz 250\ncpus 0\n", "t.trace:3: expected 'cpus N'");
	expect_error("idlekit-trace 1\nhz 250\ncpus 2\ndriver t 0\nstate C1 1 2 0\nevents\n",
		     "t.trace:6: expected a driver for every CPU");
	expect_error("idlekit-trace 1\nhz 250\ncpus 2\ndriver t 0-2\n", "t.trace:4: expected a CPU list");
	expect_error("idlekit-trace 1\nhz 250\ncpus 1\ndriver t 0\nstate C1 x 2 0\n",
		     "t.trace:5: expected 'state NAME LATENCY_US RESIDENCY_US FLAGS [DESC]', got 'state C1 x 2 0'");
	expect_error("idlekit-trace 1\nhz 250\ncpus 1\ndriver t 0\nevents\n", "t.trace:5: expected");
}

static void test_event_errors(void **state)
{
	(void)state;
	expect_error(HEAD "10 0 idle_enter 1\n5 1 idle_enter 1\n",
		     "t.trace:10: expected a time >= 10 ns (non-decreasing), got 5");
	expect_error(HEAD "10 2 idle_enter 1\n", "t.trace:9: expected a CPU 0..1, got '2'");
	expect_error(HEAD "10 0 idle_enter 3\n", "t.trace:9: expected 'idle_enter STATE' with STATE 0..2 (driver t), got '3'");
	expect_error(HEAD "10 0 idle_enter 1\n11 0 idle_enter 1\n",
		     "t.trace:10: expected idle_exit on CPU 0 before idle_enter");
	expect_error(HEAD "10 0 idle_exit\n", "t.trace:9: expected idle_enter on CPU 0 before idle_exit");
	expect_error(HEAD "10 0 wake nmi\n", "t.trace:9: expected 'wake timer|tick|ipi|unknown' or 'wake irq [N]', got 'nmi'");
	expect_error(HEAD "10 0 wake timer 3\n", "t.trace:9: expected 'wake");
	expect_error(HEAD "10 0 timer_start\n", "t.trace:9: expected 'timer_start EXPIRES_NS [ID]'");
	expect_error(HEAD "x 0 idle_exit\n", "t.trace:9: expected 'T_NS CPU EVENT ...'");
	expect_error(HEAD "10 0 sleep\n", "t.trace:9: expected an event");
	expect_error(HEAD "99999999999999999999 0 idle_exit\n", "t.trace:9: expected 'T_NS");
}

static void test_lenient(void **state)
{
	(void)state;
	struct ik_trace_reader *r;
	struct ik_trace_analysis a;
	char err[256];
	const char *text = HEAD "10 0 idle_enter 1\nbad line\n20 0 idle_enter 1\n5 0 idle_exit\n"
			   "30 0 idle_exit\n\n# comment\n40 0 wake irq\n";
	assert_int_equal(ik__trace_open_mem(text, strlen(text), "t", true, &r, err, sizeof(err)), 0);
	assert_int_equal(ik__trace_analyze(r, &a, err, sizeof(err)), 0);
	assert_int_equal(a.skipped, 3);
	assert_int_equal(a.events, 3);
	assert_int_equal(a.periods, 1);
	assert_int_equal(a.cpu[0].states[1].total_ns, 20);
	assert_non_null(strstr(ik__trace_first_skip(r), "t:10: expected 'T_NS CPU EVENT ...'"));
	ik__trace_close(r);
	ik__trace_analysis_free(&a);
}

static char *generate(int cpus, uint64_t events, size_t *len)
{
	struct ik_driver drv;
	char err[128];
	memset(&drv, 0, sizeof(drv));
	snprintf(drv.name, sizeof(drv.name), "gen");
	ik_poll_state_init(&drv);
	drv.state_count = 3;
	snprintf(drv.states[1].name, IK_NAME_LEN, "C1");
	drv.states[1].exit_latency = 2;
	drv.states[1].target_residency = 4;
	snprintf(drv.states[2].name, IK_NAME_LEN, "C6");
	drv.states[2].exit_latency = 100;
	drv.states[2].target_residency = 400;
	assert_int_equal(ik_driver_init(&drv, err, sizeof(err)), 0);
	struct ik_trace_header h;
	assert_int_equal(ik__trace_header_init(&h, 1000, cpus, &drv), 0);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	assert_int_equal(ik__trace_generate(f, &h, events, 7), 0);
	fclose(f);
	ik__trace_header_free(&h);
	return buf;
}

static void test_round_trip(void **state)
{
	(void)state;
	size_t len, len2;
	char *text = generate(3, 200000, &len);
	struct ik_trace_reader *r;
	struct ik_trace_event ev;
	char err[256], *copy = NULL;
	assert_int_equal(ik__trace_open_mem(text, len, "gen", false, &r, err, sizeof(err)), 0);
	FILE *f = open_memstream(&copy, &len2);
	assert_int_equal(ik__trace_write_header(f, ik__trace_header(r)), 0);
	int rc;
	while ((rc = ik__trace_next(r, &ev, err, sizeof(err))) == IK_TRACE_OK)
		assert_int_equal(ik__trace_write_event(f, &ev), 0);
	assert_int_equal(rc, IK_TRACE_EOF);
	assert_true(ik__trace_events_read(r) >= 200000);
	fclose(f);
	ik__trace_close(r);
	assert_int_equal(len, len2);
	assert_memory_equal(text, copy, len);
	free(copy);

	/* The FILE reader (64 KiB chunks, lines split across them) and the memory reader agree. */
	struct ik_trace_analysis a, b;
	assert_int_equal(ik__trace_open_mem(text, len, "gen", false, &r, err, sizeof(err)), 0);
	assert_int_equal(ik__trace_analyze(r, &a, err, sizeof(err)), 0);
	ik__trace_close(r);
	FILE *in = fmemopen(text, len, "r");
	assert_int_equal(ik__trace_open_file(in, "gen", false, &r, err, sizeof(err)), 0);
	assert_int_equal(ik__trace_analyze(r, &b, err, sizeof(err)), 0);
	ik__trace_close(r);
	fclose(in);
	assert_int_equal(a.events, b.events);
	assert_int_equal(a.periods, b.periods);
	assert_memory_equal(&a.all, &b.all, sizeof(a.all));
	assert_memory_equal(a.hist, b.hist, sizeof(a.hist));
	for (int c = 0; c < 3; c++)
		assert_memory_equal(&a.cpu[c], &b.cpu[c], sizeof(a.cpu[c]));
	assert_true(a.all.wakes[IK_CAUSE_TIMER] > 0);
	ik__trace_analysis_free(&a);
	ik__trace_analysis_free(&b);
	free(text);
}

static void test_replay(void **state)
{
	(void)state;
	size_t len;
	char *text = generate(2, 50000, &len);
	const char *govs[] = { "menu", "teo", "ladder", "haltpoll" };
	for (int g = 0; g < 4; g++) {
		struct ik_trace_reader *r;
		char err[256];
		assert_int_equal(ik__trace_open_mem(text, len, "gen", false, &r, err, sizeof(err)), 0);
		struct ik_trace_replay_opts o = { .drv = &ik__trace_header(r)->drivers[0].drv,
						  .gov = ik_governor_find(govs[g]) };
		assert_non_null(o.gov);
		struct ik_trace_analysis dummy;
		(void)dummy;
		struct ik_trace_replay rp;
		struct ik_driver copy = *o.drv;
		o.drv = &copy;
		assert_int_equal(ik__trace_replay_run(r, &o, &rp, err, sizeof(err)), 0);
		ik__trace_close(r);
		/* Every recorded period is either pending at entry or compared once. */
		assert_int_equal(rp.compared + rp.wake_pending, rp.periods);
		assert_int_equal(rp.entries, rp.compared + rp.extra_entries);
		uint64_t usage = 0, conf = 0;
		for (int i = 0; i < rp.nstates; i++)
			usage += rp.all[i].usage;
		for (int i = 0; i < IK_STATE_MAX; i++)
			for (int j = 0; j < IK_STATE_MAX; j++)
				conf += rp.confusion[i][j];
		assert_int_equal(usage, rp.entries);
		assert_int_equal(conf, rp.compared);
		assert_true(rp.periods > 10000);
		ik__trace_replay_free(&rp);
	}
	free(text);
}

/* One state, one choice: the governor agrees with a trace that only used it. */
static void test_replay_single_state(void **state)
{
	(void)state;
	const char *text = "idlekit-trace 1\nhz 250\ncpus 1\ndriver t 0\nstate C1 2 4 0\nevents\n"
			   "0 0 timer_start 50000\n1000 0 idle_enter 0\n50000 0 wake timer\n"
			   "50000 0 timer_expire\n52000 0 idle_exit\n60000 0 idle_enter 0\n"
			   "70000 0 idle_exit\n";
	struct ik_trace_reader *r;
	char err[256];
	assert_int_equal(ik__trace_open_mem(text, strlen(text), "t", false, &r, err, sizeof(err)), 0);
	struct ik_driver drv = ik__trace_header(r)->drivers[0].drv;
	struct ik_trace_replay_opts o = { .drv = &drv, .gov = ik_governor_find("menu") };
	struct ik_trace_replay rp;
	assert_int_equal(ik__trace_replay_run(r, &o, &rp, err, sizeof(err)), 0);
	ik__trace_close(r);
	assert_int_equal(rp.periods, 2);
	assert_int_equal(rp.agree, rp.compared);
	/* Period 1: entry 1000, timer wake at 50000, work from 52000 (exit 2 us).  Period 2:
	 * entered 8 us later at 60000, woken at 70000 - 2 us = 68000, measured 68000 - 60000 +
	 * 2000 = 10 us.  Total: 51 + 10 us. */
	assert_int_equal(rp.all[0].usage, 2);
	assert_int_equal(rp.all[0].time_ns, 51000 + 10000);
	ik__trace_replay_free(&rp);
}

/* A POLL-only table: the polling limit wakes the CPU every so often; 100 s of quiet hit the
 * re-entry cap, and the CPU is then taken to stay polling until the wake. */
static void test_replay_cap(void **state)
{
	(void)state;
	const char *text = "idlekit-trace 1\nhz 250\ncpus 1\ndriver t 0\nstate POLL 0 0 0x1\nevents\n"
			   "0 0 idle_enter 0\n100000000000 0 idle_exit\n";
	struct ik_trace_reader *r;
	char err[256];
	assert_int_equal(ik__trace_open_mem(text, strlen(text), "t", false, &r, err, sizeof(err)), 0);
	struct ik_driver drv = ik__trace_header(r)->drivers[0].drv;
	struct ik_trace_replay_opts o = { .drv = &drv, .gov = ik_governor_find("menu") };
	struct ik_trace_replay rp;
	assert_int_equal(ik__trace_replay_run(r, &o, &rp, err, sizeof(err)), 0);
	ik__trace_close(r);
	assert_int_equal(rp.periods, 1);
	assert_int_equal(rp.capped, 1);
	assert_int_equal(rp.extra_entries, IK_TRACE_REENTRY_CAP - 1);
	assert_int_equal(rp.entries, rp.compared + rp.extra_entries);
	ik__trace_replay_free(&rp);
}

#define HEAD11                                                                            \
	"idlekit-trace 1.1\nhz 250\ncpus 2\ndriver t 0-1\nstate POLL 0 0 0x1\n"                \
	"state C1 2 4 0\nstate C6 100 400 0x0 deep\nevents\n"

/* Format 1.1: task_wake, switch, tick_stop; refused in a version 1 trace. */
static void test_format_11(void **state)
{
	(void)state;
	expect_error(HEAD "10 0 task_wake 1 42\n",
		     "t.trace:9: expected an event of format 1 (the header says 'idlekit-trace 1'; 'task_wake' needs 'idlekit-trace 1.1'), got 'task_wake'");
	expect_error(HEAD "10 0 switch 0 42\n", "t.trace:9: expected an event of format 1");
	expect_error(HEAD "10 0 tick_stop 1\n", "t.trace:9: expected an event of format 1");
	expect_error(HEAD11 "10 0 task_wake 2 42\n",
		     "t.trace:9: expected 'task_wake SRC_CPU [PID]' with SRC_CPU 0..1, got '2 42'");
	expect_error(HEAD11 "10 0 task_wake\n", "t.trace:9: expected 'task_wake SRC_CPU [PID]'");
	expect_error(HEAD11 "10 0 switch 5\n", "t.trace:9: expected 'switch PREV_PID NEXT_PID', got '5'");
	expect_error(HEAD11 "10 0 tick_stop 2\n", "t.trace:9: expected 'tick_stop 0|1', got '2'");
	expect_error(HEAD11 "10 0 wake remote\n", "t.trace:9: expected 'wake timer|tick|ipi|unknown'");

	/*
	 * CPU 0: period 1 woken by CPU 1 (task_wake while idle, then the IPI): remote from 1,
	 * a task ran after it; period 2 woken by the tick, nothing ran (switch only later, after
	 * the next entry... none); period 3 a local task_wake (src = 0) does not count, the IRQ
	 * does.  CPU 1: a remote wake after the exit is not the cause (none).
	 */
	struct ik_trace_analysis a;
	char err[256];
	const char *t = HEAD11 "100 0 idle_enter 2\n"
			       "150 1 idle_enter 1\n"
			       "200 0 task_wake 1 42\n"
			       "210 0 wake ipi\n"
			       "220 0 idle_exit\n"
			       "230 0 switch 0 42\n"
			       "300 0 switch 42 0\n"
			       "300 0 tick_stop 1\n"
			       "310 0 idle_enter 1\n"
			       "400 0 wake tick\n"
			       "410 0 idle_exit\n"
			       "420 0 idle_enter 1\n"
			       "430 1 idle_exit\n"
			       "440 1 task_wake 0 7\n"
			       "500 0 wake irq 9\n"
			       "505 0 task_wake 0 8\n"
			       "510 0 idle_exit\n"
			       "520 0 switch 0 8\n"
			       "530 1 switch 0 7\n";
	assert_int_equal(analyze_text(t, false, &a, err, sizeof(err)), 0);
	assert_int_equal(a.cpu[0].wakes[IK_CAUSE_REMOTE], 1);
	assert_int_equal(a.cpu[0].wakes[IK_CAUSE_TICK], 1);
	assert_int_equal(a.cpu[0].wakes[IK_CAUSE_IRQ], 1);
	assert_int_equal(a.cpu[1].wakes[IK_CAUSE_NONE], 1);
	assert_int_equal(a.cpu[1].wakes[IK_CAUSE_REMOTE], 0);
	assert_int_equal(a.remote[0].n, 1);
	assert_int_equal(a.remote[0].v[0].src, 1);
	assert_int_equal(a.remote[0].v[0].periods, 1);
	assert_int_equal(a.remote[1].n, 0);
	assert_true(a.has_switch);
	assert_int_equal(a.task_periods, 3);  /* CPU 0 periods 1 and 3, CPU 1 */
	assert_int_equal(a.empty_periods, 1); /* CPU 0 period 2 */
	assert_int_equal(a.events, 19);
	ik__trace_analysis_free(&a);

	/* Written back: the same text. */
	struct ik_trace_reader *r;
	assert_int_equal(ik__trace_open_mem(t, strlen(t), "t", false, &r, err, sizeof(err)), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(ik__trace_write_header(out, ik__trace_header(r)), 0);
	struct ik_trace_event ev;
	while (ik__trace_next(r, &ev, err, sizeof(err)) == IK_TRACE_OK)
		assert_int_equal(ik__trace_write_event(out, &ev), 0);
	fclose(out);
	ik__trace_close(r);
	assert_non_null(strstr(buf, "idlekit-trace 1.1\n"));
	assert_non_null(strstr(buf, "\n200 0 task_wake 1 42\n210 0 wake ipi\n"));
	assert_non_null(strstr(buf, "\n300 0 switch 42 0\n300 0 tick_stop 1\n"));
	free(buf);

	/* Replay: the task_wake is the wake of the period (not the later IPI). */
	struct ik_trace_replay rp;
	assert_int_equal(ik__trace_open_mem(t, strlen(t), "t", false, &r, err, sizeof(err)), 0);
	struct ik_trace_replay_opts o = { .drv = &ik__trace_header(r)->drivers[0].drv,
					  .gov = ik_governor_find("menu") };
	assert_int_equal(ik__trace_replay_run(r, &o, &rp, err, sizeof(err)), 0);
	assert_int_equal(rp.periods, 4);
	ik__trace_replay_free(&rp);
	ik__trace_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_disabled_state_flags),
		cmocka_unit_test(test_header_errors),
		cmocka_unit_test(test_event_errors),
		cmocka_unit_test(test_lenient),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_replay_single_state),
		cmocka_unit_test(test_replay_cap),
		cmocka_unit_test(test_format_11),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
