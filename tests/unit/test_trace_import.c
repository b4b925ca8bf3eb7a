/*
 * Unit tests of the perf script import (src/trace/import_perf.c): events checked by hand
 * against the real sample tests/fixtures/traces/perf-script-sample.txt (see its README),
 * nanosecond timestamps, commands with blanks, ignored events, sorting, the wake cause
 * after the exit, dropped out-of-order idle events, the state table (given or generic),
 * and every error with its line, strict and lenient.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analyze.h"
#include "trace/import.h"

struct imported {
	int rc;
	char *text;
	size_t len;
	struct ik_trace_import_stats st;
	char err[512];
};

static void import_file(FILE *in, const struct ik_trace_import_opts *o, struct imported *im)
{
	FILE *out = open_memstream(&im->text, &im->len);
	assert_non_null(out);
	im->err[0] = '\0';
	im->rc = ik__trace_import_perf(in, "in.txt", out, o, &im->st, im->err, sizeof(im->err));
	fclose(out);
}

static void import_text(const char *text, const struct ik_trace_import_opts *o, struct imported *im)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(in);
	import_file(in, o, im);
	fclose(in);
}

/* Read an imported trace back (strictly: the output is always a valid trace). */
static struct ik_trace_reader *reopen(const struct imported *im)
{
	struct ik_trace_reader *r;
	char err[512];
	if (ik__trace_open_mem(im->text, im->len, "out.trace", false, &r, err, sizeof(err)))
		fail_msg("%s", err);
	return r;
}

static void next(struct ik_trace_reader *r, int64_t t, int cpu, enum ik_trace_kind kind, int arg)
{
	struct ik_trace_event ev;
	char err[512];
	int rc = ik__trace_next(r, &ev, err, sizeof(err));
	if (rc)
		fail_msg("ik__trace_next: %d %s", rc, err);
	assert_int_equal(ev.t_ns, t);
	assert_int_equal(ev.cpu, cpu);
	assert_int_equal(ev.kind, kind);
	if (kind == IK_TRACE_IDLE_ENTER)
		assert_int_equal(ev.state, arg);
	if (kind == IK_TRACE_WAKE) {
		assert_int_equal(ev.cause, arg & 0xff);
		if (ev.cause == IK_CAUSE_IRQ)
			assert_int_equal(ev.arg, arg >> 8);
	}
}

static void expect_eof(struct ik_trace_reader *r)
{
	struct ik_trace_event ev;
	char err[512];
	assert_int_equal(ik__trace_next(r, &ev, err, sizeof(err)), IK_TRACE_EOF);
}

static void test_sample(void **state)
{
	(void)state;
	FILE *in = fopen("fixtures/traces/perf-script-sample.txt", "r");
	assert_non_null(in);
	struct ik_trace_import_opts o = { 0 };
	struct imported im;
	import_file(in, &o, &im);
	fclose(in);
	assert_int_equal(im.rc, IK_TRACE_OK);
	assert_int_equal(im.st.lines, 501);
	assert_int_equal(im.st.used, 501);
	assert_int_equal(im.st.ignored, 0);
	assert_int_equal(im.st.dropped, 0);
	assert_int_equal(im.st.cpus, 2);
	assert_true(im.st.generic);
	assert_int_equal(im.st.nstates, 2);

	struct ik_trace_reader *r = reopen(&im);
	const struct ik_trace_header *h = ik__trace_header(r);
	assert_int_equal(h->hz, 250);
	assert_int_equal(h->cpus, 2);
	assert_string_equal(h->drivers[0].drv.states[1].name, "state1");
	/* Lines 1-6 of the sample. */
	next(r, 6042914213000, 0, IK_TRACE_IDLE_ENTER, 1);
	next(r, 6042914273000, 0, IK_TRACE_WAKE, IK_CAUSE_IPI); /* call_function_single_entry */
	next(r, 6042914275000, 0, IK_TRACE_IDLE_EXIT, 0);
	next(r, 6042916014000, 0, IK_TRACE_IDLE_ENTER, 1);
	next(r, 6042917460000, 0, IK_TRACE_WAKE, IK_CAUSE_TICK); /* tick_nohz_handler */
	next(r, 6042917484000, 0, IK_TRACE_IDLE_EXIT, 0);
	ik__trace_close(r);
	/* Line 148: irq=41 while CPU 0 idles since line 147. */
	assert_non_null(strstr(im.text, "\n6043384187000 0 idle_enter 1\n6043387487000 0 wake irq 41\n"
					"6043387496000 0 idle_exit\n"));
	/* Line 145: hrtimer_wakeup is a timer. */
	assert_non_null(strstr(im.text, "\n6043384128000 0 wake timer\n"));

	r = reopen(&im);
	struct ik_trace_analysis a;
	char err[512];
	assert_int_equal(ik__trace_analyze(r, &a, err, sizeof(err)), IK_TRACE_OK);
	assert_int_equal(a.periods, 152);
	assert_int_equal(a.cpu[0].states[1].entries, 152);
	assert_int_equal(a.cpu[1].states[1].entries, 0);
	assert_int_equal(a.all.wakes[IK_CAUSE_TIMER], 46);
	assert_int_equal(a.all.wakes[IK_CAUSE_TICK], 83);
	assert_int_equal(a.all.wakes[IK_CAUSE_IPI], 21);
	assert_int_equal(a.all.wakes[IK_CAUSE_IRQ], 2);
	assert_int_equal(a.all.wakes[IK_CAUSE_NONE], 0);
	assert_int_equal(a.first_ns, 6042914213000);
	assert_int_equal(a.last_ns, 6044910152000);
	ik__trace_analysis_free(&a);
	ik__trace_close(r);
	free(im.text);
}

/* Nanoseconds, a command with blanks and brackets, ignored events, -1 exits, sorting. */
static void test_layouts(void **state)
{
	(void)state;
	const char *text =
		"# perf script header comment\n"
		"\n"
		"  Web Content [x] 1234 [003] 100.000000100: power:cpu_idle: state=2 cpu_id=3\r\n"
		"     swapper     0 [001] 100.000000050:   power:cpu_idle: state=0 cpu_id=1\n"
		"     swapper     0 [003] 100.000000200: sched:sched_waking: comm=a pid=1 prio=120 target_cpu=003\n"
		"     swapper     0 [003] 100.000000300: timer:hrtimer_start: hrtimer=0x1 function=f expires=5 softexpires=5\n"
		"     swapper     0 [003] 100.000001000: irq:irq_handler_entry: irq=24 name=eth0 rx\n"
		"     swapper     0 [003] 100.000001000: irq:irq_handler_entry: irq=25 name=second\n"
		"     swapper     0 [003] 100.000002000: power:cpu_idle: state=-1 cpu_id=3\n"
		"     swapper     0 [001] 100.000003: power:cpu_idle: state=4294967295 cpu_id=1\n"
		"     swapper     0 [001] 100.000004: ipi:ipi_entry: (Rescheduling interrupts)\n";
	struct ik_trace_import_opts o = { .hz = 1000 };
	struct imported im;
	import_text(text, &o, &im);
	if (im.rc)
		fail_msg("%s", im.err);
	assert_int_equal(im.st.cpus, 4);
	assert_int_equal(im.st.nstates, 3);
	assert_int_equal(im.st.ignored, 1); /* hrtimer_start: no clock_mono */
	assert_int_equal(im.st.timers_ignored, 1);
	assert_int_equal(im.st.used, 8);    /* with the sched_waking */
	assert_non_null(strstr(im.text, "idlekit-trace 1.1\n"));
	assert_non_null(strstr(im.text, "\n100000000200 3 task_wake 3 1\n"));
	struct ik_trace_reader *r = reopen(&im);
	assert_int_equal(ik__trace_header(r)->hz, 1000);
	next(r, 100000000050, 1, IK_TRACE_IDLE_ENTER, 0); /* sorted before line 3 */
	next(r, 100000000100, 3, IK_TRACE_IDLE_ENTER, 2);
	next(r, 100000000200, 3, IK_TRACE_TASK_WAKE, 0); /* local: CPU 3 woke a task onto itself */
	next(r, 100000001000, 3, IK_TRACE_WAKE, IK_CAUSE_IRQ | 24 << 8); /* only the first */
	next(r, 100000002000, 3, IK_TRACE_IDLE_EXIT, 0);
	next(r, 100000003000, 1, IK_TRACE_IDLE_EXIT, 0);
	next(r, 100000004000, 1, IK_TRACE_WAKE, IK_CAUSE_IPI); /* after the exit: still its cause */
	expect_eof(r);
	ik__trace_close(r);
	free(im.text);
}

/* Entries while idle are dropped and counted; an exit before the CPU's first entry is the
   partial period at the start (the CPU was idle when the recording began). */
static void test_dropped(void **state)
{
	(void)state;
	const char *text =
		"a 1 [000] 1.000001: power:cpu_idle: state=4294967295 cpu_id=0\n"
		"a 1 [000] 1.000002: power:cpu_idle: state=1 cpu_id=0\n"
		"a 1 [000] 1.000003: power:cpu_idle: state=0 cpu_id=0\n"
		"a 1 [000] 1.000004: irq_vectors:reschedule_entry: vector=253\n"
		"a 1 [000] 1.000005: irq_vectors:call_function_entry: vector=252\n"
		"a 1 [000] 1.000006: power:cpu_idle: state=4294967295 cpu_id=0\n";
	struct ik_trace_import_opts o = { 0 };
	struct imported im;
	import_text(text, &o, &im);
	assert_int_equal(im.rc, IK_TRACE_OK);
	assert_int_equal(im.st.dropped, 1);
	assert_int_equal(im.st.edge_start, 1);
	assert_int_equal(im.st.edge_end, 0);
	assert_int_equal(im.st.written, 3);
	struct ik_trace_reader *r = reopen(&im);
	next(r, 1000002000, 0, IK_TRACE_IDLE_ENTER, 1);
	next(r, 1000004000, 0, IK_TRACE_WAKE, IK_CAUSE_IPI);
	next(r, 1000006000, 0, IK_TRACE_IDLE_EXIT, 0);
	expect_eof(r);
	ik__trace_close(r);
	free(im.text);
}

/* A given table: its names (blanks made '_') and its bound on state=N. */
static void test_table(void **state)
{
	(void)state;
	struct ik_driver d;
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "kvm");
	d.state_count = 2;
	snprintf(d.states[0].name, sizeof(d.states[0].name), "POLL");
	d.states[0].flags = 0x1;
	snprintf(d.states[1].name, sizeof(d.states[1].name), "haltpoll idle");
	d.states[1].exit_latency = 1;
	d.states[1].target_residency = 1;
	char err[256];
	assert_int_equal(ik_driver_init(&d, err, sizeof(err)), 0);
	struct ik_trace_import_opts o = { .drv = &d };
	struct imported im;
	import_text("a 1 [000] 1.000001: power:cpu_idle: state=1 cpu_id=0\n", &o, &im);
	assert_int_equal(im.rc, IK_TRACE_OK);
	assert_false(im.st.generic);
	assert_non_null(strstr(im.text, "driver kvm 0\nstate POLL 0 0 0x1\nstate haltpoll_idle 1 1 0x0\n"));
	free(im.text);
	import_text("a 1 [000] 1.000001: power:cpu_idle: state=1 cpu_id=0\n"
		    "a 1 [000] 1.000002: power:cpu_idle: state=4294967295 cpu_id=0\n"
		    "a 1 [000] 1.000003: power:cpu_idle: state=2 cpu_id=0\n", &o, &im);
	assert_int_equal(im.rc, IK_TRACE_EINPUT);
	assert_string_equal(im.err, "in.txt:3: expected a state 0..1 (the table's), got state=2");
	free(im.text);
}

static void expect_error(const char *text, const char *msg)
{
	struct ik_trace_import_opts o = { 0 };
	struct imported im;
	import_text(text, &o, &im);
	assert_int_equal(im.rc, IK_TRACE_EINPUT);
	if (!strstr(im.err, msg))
		fail_msg("expected '%s' in '%s'", msg, im.err);
	assert_int_equal(im.len, 0); /* nothing written */
	free(im.text);
}

#define OK1 "a 1 [000] 1.000001: power:cpu_idle: state=1 cpu_id=0\n"

static void test_errors(void **state)
{
	(void)state;
	expect_error(OK1 "garbage\n", "in.txt:2: expected perf script's 'COMM PID [CPU] SECONDS.FRACTION: SYS:EVENT: FIELDS', got 'garbage'");
	expect_error(OK1 "a 1 [000] 1.5 power:cpu_idle: state=1\n", "in.txt:2: expected perf script's");
	expect_error(OK1 "a 1 [000] 1.0000000001: power:cpu_idle: state=1\n", "in.txt:2: expected perf script's");
	expect_error(OK1 "a 1 [9999] 1.000002: power:cpu_idle: state=1\n", "in.txt:2: expected perf script's");
	expect_error(OK1 "a 1 [000] 99999999999.000002: power:cpu_idle: state=1\n", "in.txt:2: expected perf script's");
	expect_error(OK1 "a 1 [000] 1.000002: cpu_idle state=1\n", "in.txt:2: expected an event 'SYS:NAME:' after the time, got 'cpu_idle'");
	expect_error(OK1 "a 1 [000] 1.000002: power:cpu_idle: cpu_id=0\n", "in.txt:2: expected 'state=N' in power:cpu_idle, got 'cpu_id=0'");
	expect_error(OK1 "a 1 [000] 1.000002: power:cpu_idle: state=x1\n", "in.txt:2: expected 'state=N' in power:cpu_idle, got 'x1'");
	expect_error(OK1 "a 1 [000] 1.000002: power:cpu_idle: state=10\n", "in.txt:2: expected a state 0..9 (the table's), got state=10");
	expect_error(OK1 "a 1 [000] 1.000002: irq:irq_handler_entry: name=eth0\n", "in.txt:2: expected 'irq=N' in irq:irq_handler_entry");
	expect_error(OK1 "a 1 [001] 1.000002: sched:sched_waking: comm=a pid=1 prio=1 target_cpu=x\n",
		     "in.txt:2: expected 'pid=N ... target_cpu=C' (C < 8192) in sched:sched_waking");
	expect_error(OK1 "a 1 [001] 1.000002: sched:sched_switch: prev_comm=a prev_pid=1\n",
		     "in.txt:2: expected 'prev_pid=N ... next_pid=M' in sched:sched_switch");
	expect_error(OK1 "a 1 [001] 1.000002: timer:hrtimer_start: hrtimer=0x1 function=f\n",
		     "in.txt:2: expected 'hrtimer=0xADDR ... expires=N' in timer:hrtimer_start");
	expect_error(OK1 "a 1 [001] 1.000002: timer:tick_stop: dependency=NONE\n",
		     "in.txt:2: expected 'success=N' in timer:tick_stop");
	expect_error("# only\na 1 [000] 1.000002: sched:sched_migrate_task: comm=a pid=1\n",
		     "in.txt:2: expected power:cpu_idle events (perf record -e power:cpu_idle -a), got none");
	expect_error("", "in.txt: expected power:cpu_idle events, got none");
}

static void test_lenient(void **state)
{
	(void)state;
	struct ik_trace_import_opts o = { .lenient = true };
	struct imported im;
	import_text(OK1 "garbage\n"
		    "a 1 [000] 1.000002: power:cpu_idle: state=77\n"
		    "a 1 [000] 1.000003: power:cpu_idle: state=4294967295 cpu_id=0\n", &o, &im);
	assert_int_equal(im.rc, IK_TRACE_OK);
	assert_int_equal(im.st.skipped, 2);
	assert_int_equal(im.st.written, 2);
	assert_non_null(strstr(im.st.first_skip, "in.txt:2: expected perf script's"));
	free(im.text);
}

static int import_len(const char *text, size_t n, enum ik_trace_text_format fmt,
		      const struct ik_trace_import_opts *o, struct imported *im)
{
	FILE *in = fmemopen((void *)text, n, "r");
	FILE *out = open_memstream(&im->text, &im->len);
	assert_non_null(in);
	assert_non_null(out);
	im->err[0] = '\0';
	im->rc = ik__trace_import_text(in, "in.txt", fmt, out, o, &im->st, im->err, sizeof(im->err));
	fclose(in);
	fclose(out);
	return im->rc;
}

static int import_fmt(const char *text, enum ik_trace_text_format fmt,
		      const struct ik_trace_import_opts *o, struct imported *im)
{
	return import_len(text, strlen(text), fmt, o, im);
}

/*
 * An IRQ's name= is whatever runs to the next blank: bytes that are not printable ASCII
 * become '_' in the header's 'irq N NAME' line, which reads back (a NUL made the line
 * 'irq 24 ', which does not: found by fuzz_ftrace_text, its input in the corpus as
 * irq-name-nul.txt).
 */
static void test_irq_name_bytes(void **state)
{
	(void)state;
	static const char text[] = "  a-1 [001] d..1. 1.000001: cpu_idle: state=1 cpu_id=1\n"
				   "  a-1 [001] d.h1. 1.000002: irq_handler_entry: irq=24 name=\0eth0\x01rx\n"
				   "  a-1 [001] d.h1. 1.000003: irq_handler_entry: irq=25 name=\xc3\xa9\n";
	struct ik_trace_import_opts o = { 0 };
	struct imported im;
	assert_int_equal(import_len(text, sizeof(text) - 1, IK_TEXT_FTRACE, &o, &im), IK_TRACE_OK);
	struct ik_trace_reader *r = reopen(&im);
	const struct ik_trace_header *h = ik__trace_header(r);
	assert_string_equal(ik__trace_irq_name(h, 24), "_eth0_rx");
	assert_string_equal(ik__trace_irq_name(h, 25), "__");
	ik__trace_close(r);
	free(im.text);
}

/*
 * ftrace's and trace-cmd report's header: the lines before the first event that are not
 * event lines are skipped, but an event line refused for a field (here a state deeper
 * than the table's) is an error there too, as after the first good event: a table-driven
 * import never accepts what the generic one refuses (fuzz_ftrace_text's finding, whose
 * input is in its corpus as header-state-deeper.txt).
 */
static void test_header(void **state)
{
	(void)state;
	struct ik_driver d;
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "two");
	d.state_count = 2;
	snprintf(d.states[0].name, sizeof(d.states[0].name), "POLL");
	d.states[0].flags = 0x1;
	snprintf(d.states[1].name, sizeof(d.states[1].name), "C1");
	d.states[1].exit_latency = 2;
	d.states[1].target_residency = 4;
	char err[256];
	assert_int_equal(ik_driver_init(&d, err, sizeof(err)), 0);
	const char *text = "cpus=1\n"
			   "version = 6\n"
			   "  a-1 [000] d..1. 1.000001: cpu_idle: state=2 cpu_id=0\n"
			   "  a-1 [000] d..1. 1.000002: cpu_idle: state=4294967295 cpu_id=0\n"
			   "garbage after the first event\n";
	struct imported im;
	struct ik_trace_import_opts o = { .drv = &d };
	/* before: the deep state's line was taken for a header line, the garbage refused only
	   by the generic import (which accepted line 3) */
	assert_int_equal(import_fmt(text, IK_TEXT_TRACE_CMD_REPORT, &o, &im), IK_TRACE_EINPUT);
	assert_string_equal(im.err, "in.txt:3: expected a state 0..1 (the table's), got state=2");
	assert_int_equal(im.len, 0);
	free(im.text);
	o.drv = NULL;
	assert_int_equal(import_fmt(text, IK_TEXT_TRACE_CMD_REPORT, &o, &im), IK_TRACE_EINPUT);
	assert_non_null(strstr(im.err, "in.txt:5: expected perf script's"));
	free(im.text);
	/* the same on the generic table's bound, ftrace */
	assert_int_equal(import_fmt("# tracer: nop\n"
				    "  a-1 [000] d..1. 1.000001: cpu_idle: state=10 cpu_id=0\n"
				    "  a-1 [000] d..1. 1.000002: cpu_idle: state=1 cpu_id=0\n",
				    IK_TEXT_FTRACE, &o, &im), IK_TRACE_EINPUT);
	assert_string_equal(im.err, "in.txt:2: expected a state 0..9 (the table's), got state=10");
	free(im.text);
	/* lenient: the refused event line is skipped and counted, not a header line */
	o.lenient = true;
	o.drv = &d;
	assert_int_equal(import_fmt(text, IK_TEXT_TRACE_CMD_REPORT, &o, &im), IK_TRACE_OK);
	assert_int_equal(im.st.header_lines, 2);
	assert_int_equal(im.st.skipped, 2);
	assert_non_null(strstr(im.st.first_skip, "in.txt:3: expected a state 0..1"));
	free(im.text);
	/* nor is an event line refused for a field a '[LOST N EVENTS]' line when it has that
	   text (fuzz_trace_cmd_report's input lost-in-event.txt) */
	o.lenient = false;
	assert_int_equal(import_fmt("cpus=1\n"
				    "[LOST  <idle>-0 [000] 1.000001: cpu_idle: state=2 cpu_id=0\n"
				    "garbage\n"
				    "  a-1 [000] d..1. 1.000002: cpu_idle: state=1 cpu_id=0\n",
				    IK_TEXT_TRACE_CMD_REPORT, &o, &im), IK_TRACE_EINPUT);
	assert_string_equal(im.err, "in.txt:2: expected a state 0..1 (the table's), got state=2");
	free(im.text);
	/* a good header is still skipped */
	o.lenient = false;
	assert_int_equal(import_fmt("cpus=1\nversion = 6\n"
				    "  a-1 [000] d..1. 1.000001: cpu_idle: state=1 cpu_id=0\n",
				    IK_TEXT_TRACE_CMD_REPORT, &o, &im), IK_TRACE_OK);
	assert_int_equal(im.st.header_lines, 2);
	assert_int_equal(im.st.written, 1);
	free(im.text);
}

/*
 * trace-cmd report's sched plugin prints sched_wakeup and sched_switch in its own form,
 * and a function pointer with "/0xSIZE" after the symbol: lines as trace-cmd 3.1.6 wrote
 * them for tests/fixtures/traces/trace-cmd-ipimask.dat (a COMM with a ':' and a blank
 * here, which the PID is read after).  Before, the plugin's wakeup stopped the import and
 * the tick was taken for a timer.
 */
static void test_report_plugin(void **state)
{
	(void)state;
	static const char text[] =
		"cpus=2\n"
		"ipimask:           <idle>-0     [001]     3.000000100: cpu_idle:             state=1 cpu_id=1\n"
		"ipimask:           <idle>-0     [001]     3.000000200: hrtimer_expire_entry: hrtimer=0xff1 now=2000 function=tick_nohz_handler/0x0\n"
		"ipimask:           <idle>-0     [001]     3.000000300: cpu_idle:             state=4294967295 cpu_id=1\n"
		"ipimask:           <idle>-0     [001]     3.000000400: cpu_idle:             state=1 cpu_id=1\n"
		"ipimask:             a-7        [000]     3.000000500: sched_wakeup:         my: task:42 [120] CPU:001\n"
		"ipimask:           <idle>-0     [001]     3.000000600: hrtimer_expire_entry: hrtimer=0xff2 now=2000 function=tick_nohz_handler+0x10/0x0\n"
		"ipimask:           <idle>-0     [001]     3.000000700: cpu_idle:             state=4294967295 cpu_id=1\n"
		"ipimask:           <idle>-0     [001]     3.000000800: sched_switch:         swapper/1:0 [120] R ==> my: task:42 [120]\n";
	struct ik_trace_import_opts o = { 0 };
	struct imported im;
	assert_int_equal(import_fmt(text, IK_TEXT_TRACE_CMD_REPORT, &o, &im), IK_TRACE_OK);
	assert_non_null(strstr(im.text, "\n3000000200 1 wake tick\n"));
	assert_non_null(strstr(im.text, "\n3000000500 1 task_wake 0 42\n"));
	assert_non_null(strstr(im.text, "\n3000000800 1 switch 0 42\n"));
	/* tick_nohz_handler+0x10: another function, one the file's kallsyms does not name */
	assert_non_null(strstr(im.text, "\n3000000600 1 wake timer\n"));
	free(im.text);
	/* the plugin's form without a PID before the bracket, or no CPU: the usual message */
	expect_error(OK1 "a 1 [001] 1.000002: sched:sched_wakeup: task [120] CPU:001\n",
		     "in.txt:2: expected 'pid=N ... target_cpu=C' or trace-cmd's 'COMM:N [PRIO] CPU:C'");
	expect_error(OK1 "a 1 [001] 1.000002: sched:sched_switch: a:1 [120] R ==> b [120]\n",
		     "in.txt:2: expected 'prev_pid=N ... next_pid=M' or trace-cmd's");
}

/*
 * trace.dat's ipi_send_cpumask (src/cli/import.c): the bitmask's CPUs in both long sizes
 * and byte orders, then one IK_IMPORT_IPI_SEND per target, which names the sender of the
 * IPI that wakes each target (wake ipi SRC) as the text importers' cpumask does.
 */
static void test_bitmask(void **state)
{
	(void)state;
	int cpus[8];
	/* 8-byte little-endian longs: 0x5 (CPUs 0, 2), then bit 1 of the second (CPU 65) */
	static const unsigned char le8[16] = { 0x05, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0 };
	assert_int_equal(ik__trace_bitmask_cpus(le8, sizeof(le8), 8, false, cpus, 8), 3);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 2);
	assert_int_equal(cpus[2], 65);
	/* the same bytes as big-endian longs: the 0x05 byte is the most significant (CPUs 56,
	   58), the 0x02 byte of the second long (CPU 121) */
	assert_int_equal(ik__trace_bitmask_cpus(le8, sizeof(le8), 8, true, cpus, 8), 3);
	assert_int_equal(cpus[0], 56);
	assert_int_equal(cpus[1], 58);
	assert_int_equal(cpus[2], 121);
	/* 4-byte big-endian: 0x80000001 = CPUs 0 and 31; then CPU 32 + 8 */
	static const unsigned char be4[8] = { 0x80, 0, 0, 0x01, 0, 0, 0x01, 0 };
	assert_int_equal(ik__trace_bitmask_cpus(be4, sizeof(be4), 4, true, cpus, 8), 3);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 31);
	assert_int_equal(cpus[2], 40);
	/* at most max; a partial long ignored; a bad long size */
	assert_int_equal(ik__trace_bitmask_cpus(le8, sizeof(le8), 8, false, cpus, 2), 2);
	assert_int_equal(ik__trace_bitmask_cpus(le8, 7, 8, false, cpus, 8), 0);
	assert_int_equal(ik__trace_bitmask_cpus(le8, sizeof(le8), 2, false, cpus, 8), -1);
	/* CPUs from IK_TRACE_MAX_CPUS on are not CPUs of a trace */
	static unsigned char big[IK_TRACE_MAX_CPUS / 8 + 8];
	memset(big, 0, sizeof(big));
	big[IK_TRACE_MAX_CPUS / 8 - 1] = 0x80; /* CPU 8191 */
	big[IK_TRACE_MAX_CPUS / 8] = 0x01;     /* CPU 8192 */
	assert_int_equal(ik__trace_bitmask_cpus(big, sizeof(big), 8, false, cpus, 8), 1);
	assert_int_equal(cpus[0], IK_TRACE_MAX_CPUS - 1);

	/* CPU 0 sends to 1 and 2 (the cpumask's records) while they idle: each period's cause,
	   at the send, the handlers after it confirming the sender */
	struct ik_trace_import_rec v[] = {
		{ .t_ns = 100, .cpu = 1, .kind = IK_IMPORT_IDLE, .arg = 1 },
		{ .t_ns = 110, .cpu = 2, .kind = IK_IMPORT_IDLE, .arg = 1 },
		{ .t_ns = 200, .cpu = 0, .kind = IK_IMPORT_IPI_SEND, .arg = 1 },
		{ .t_ns = 200, .cpu = 0, .kind = IK_IMPORT_IPI_SEND, .arg = 2 },
		{ .t_ns = 300, .cpu = 1, .kind = IK_IMPORT_IPI, .arg = -1 },
		{ .t_ns = 301, .cpu = 2, .kind = IK_IMPORT_IPI, .arg = -1 },
		{ .t_ns = 400, .cpu = 1, .kind = IK_IMPORT_IDLE, .arg = -1 },
		{ .t_ns = 401, .cpu = 2, .kind = IK_IMPORT_IDLE, .arg = -1 },
	};
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct ik_trace_import_opts o = { 0 };
	struct ik_trace_import_stats st = { 0 };
	assert_int_equal(ik__trace_import_records(v, sizeof(v) / sizeof(v[0]), "dat", out, &o, &st,
						 err, sizeof(err)), IK_TRACE_OK);
	fclose(out);
	assert_non_null(strstr(buf, "\n200 1 wake ipi 0\n200 2 wake ipi 0\n"));
	assert_int_equal(st.ipi_senders, 2);
	assert_int_equal(st.ipi_send_causes, 2);
	free(buf);
}

/* The records entry point (what the trace.dat reader uses): order, states, lenient. */
static void test_records(void **state)
{
	(void)state;
	struct ik_trace_import_rec v[] = {
		{ .t_ns = 300, .cpu = 1, .kind = IK_IMPORT_IDLE, .arg = -1 },
		{ .t_ns = 100, .cpu = 1, .kind = IK_IMPORT_IDLE, .arg = 3 },
		{ .t_ns = 200, .cpu = 1, .kind = IK_IMPORT_TICK, .arg = -1 },
		{ .t_ns = 250, .cpu = 1, .kind = IK_IMPORT_IRQ, .arg = 9 },
	};
	struct ik_trace_import_opts o = { 0 };
	struct ik_trace_import_stats st;
	char *buf = NULL, err[256];
	size_t len = 0;
	memset(&st, 0, sizeof(st));
	FILE *out = open_memstream(&buf, &len);
	assert_int_equal(ik__trace_import_records(v, 4, "r.dat", out, &o, &st, err, sizeof(err)), IK_TRACE_OK);
	fclose(out);
	assert_int_equal(st.cpus, 2);
	assert_int_equal(st.nstates, 4);
	assert_non_null(strstr(buf, "events\n100 1 idle_enter 3\n200 1 wake tick\n300 1 idle_exit\n"));
	free(buf);

	struct ik_driver d;
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "two");
	d.state_count = 2;
	snprintf(d.states[0].name, sizeof(d.states[0].name), "POLL");
	snprintf(d.states[1].name, sizeof(d.states[1].name), "C1");
	assert_int_equal(ik_driver_init(&d, err, sizeof(err)), 0);
	o.drv = &d;
	struct ik_trace_import_rec w[] = {
		{ .t_ns = 100, .cpu = 0, .kind = IK_IMPORT_IDLE, .arg = 3 },
		{ .t_ns = 200, .cpu = 0, .kind = IK_IMPORT_IDLE, .arg = 1 },
	};
	memset(&st, 0, sizeof(st));
	out = open_memstream(&buf, &len);
	assert_int_equal(ik__trace_import_records(w, 2, "r.dat", out, &o, &st, err, sizeof(err)), IK_TRACE_EINPUT);
	fclose(out);
	assert_int_equal(len, 0);
	assert_non_null(strstr(err, "r.dat: expected CPUs 0..8191, times >= 0 and states 0..1, got state 3 on CPU 0 at 100 ns"));
	free(buf);
	o.lenient = true;
	memset(&st, 0, sizeof(st));
	out = open_memstream(&buf, &len);
	assert_int_equal(ik__trace_import_records(w, 2, "r.dat", out, &o, &st, err, sizeof(err)), IK_TRACE_OK);
	fclose(out);
	assert_int_equal(st.skipped, 1);
	assert_non_null(strstr(buf, "events\n200 0 idle_enter 1\n"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample),	cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_dropped), cmocka_unit_test(test_table),
		cmocka_unit_test(test_errors),	cmocka_unit_test(test_lenient),
		cmocka_unit_test(test_records), cmocka_unit_test(test_header),
		cmocka_unit_test(test_irq_name_bytes), cmocka_unit_test(test_report_plugin), cmocka_unit_test(test_bitmask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
