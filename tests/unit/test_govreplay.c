/*
 * Unit tests of the decision-stream harness (src/sim/govreplay.c): the per-period step
 * (what the governor is told, the wake-event order and its ties, last_residency_ns,
 * got_tick, poll_time_limit, the 10 s default, the core's counters) and the stream reader
 * (format, comments, errors with line numbers, long lines).
 *
 * The step is tested with a scripted governor defined here: its select returns the state
 * and stop_tick a test asks for and records what the core told it; its reflect records
 * what the governor would learn.  So the harness's own rules are checked apart from any
 * real governor's policy (tests/govreplay/ covers those end to end).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/cpuidle.h"
#include "sim/govreplay.h"
#include "table_fixture.h"

#define US 1000LL
#define MS 1000000LL
#define TICK_250 4000000LL /* TICK_NSEC at HZ 250 */

/* ---- A scripted governor ---------------------------------------------------------------- */

struct script {
	int state;       /* what select returns */
	bool keep_tick;  /* select clears *stop_tick */
	/* what select saw */
	int64_t sleep_length_ns, delta_next_ns, latency_req_ns;
	bool tick_stopped;
	/* what reflect saw */
	int reflect_calls, reflect_index;
	uint64_t reflect_residency_ns;
	bool reflect_got_tick, reflect_poll_time_limit;
};

/* The governor's per-CPU data points at the test's script (set after enable). */
static int scripted_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	(void)dev;
	return 0;
}

static int scripted_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	struct script *s = dev->governor_data;
	(void)drv;
	s->sleep_length_ns = ik_sleep_length(dev, &s->delta_next_ns);
	s->latency_req_ns = ik_latency_req(dev);
	s->tick_stopped = ik_tick_stopped(dev);
	if (s->keep_tick)
		*stop_tick = false;
	return s->state;
}

static void scripted_reflect(struct ik_device *dev, int index)
{
	struct script *s = dev->governor_data;
	s->reflect_calls++;
	s->reflect_index = index;
	s->reflect_residency_ns = dev->last_residency_ns;
	s->reflect_got_tick = ik_got_tick(dev);
	s->reflect_poll_time_limit = dev->poll_time_limit;
}

static const struct ik_governor scripted = {
	.name = "scripted",
	.enable = scripted_enable,
	.select = scripted_select,
	.reflect = scripted_reflect,
};


struct rig {
	struct ik_govreplay g;
	struct script script;
};

static void rig_init(struct rig *r, const struct ik_governor *gov)
{
	struct ik_driver drv;
	char err[256];

	make_table(&drv);
	memset(&r->script, 0, sizeof(r->script));
	assert_int_equal(ik__govreplay_init(&r->g, &drv, gov, 250, NULL, err, sizeof(err)), 0);
	assert_int_equal(ik__govreplay_start(&r->g, err, sizeof(err)), 0);
	if (gov == &scripted)
		r->g.dev.governor_data = &r->script;
}

static struct ik_govreplay_input input(int64_t sleep_ns, int64_t tick_ns, int64_t wake_ns)
{
	return (struct ik_govreplay_input){
		.sleep_ns = sleep_ns,
		.tick_ns = tick_ns,
		.wake_ns = wake_ns,
		.latency_req_ns = IK_LATENCY_REQ_NONE_NS,
		.tick_stopped = false,
	};
}

/* One step with the scripted choice; returns the result. */
static struct ik_govreplay_result step(struct rig *r, int state, bool keep_tick,
				       struct ik_govreplay_input in)
{
	struct ik_govreplay_result res;
	r->script.state = state;
	r->script.keep_tick = keep_tick;
	ik__govreplay_step(&r->g, &in, &res);
	return res;
}

/* ---- What the governor is told ---------------------------------------------------------- */

static void test_inputs_seen_by_select(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	/* Tick running: delta_next = min(timer, tick). */
	struct ik_govreplay_input in = input(3 * MS, 1 * MS, IK_KTIME_MAX);
	in.latency_req_ns = 50 * US;
	step(&r, 1, false, in);
	assert_int_equal(r.script.sleep_length_ns, 3 * MS);
	assert_int_equal(r.script.delta_next_ns, 1 * MS);
	assert_int_equal(r.script.latency_req_ns, 50 * US);
	assert_false(r.script.tick_stopped);

	/* The timer first: delta_next is the timer. */
	step(&r, 1, false, input(500 * US, 1 * MS, IK_KTIME_MAX));
	assert_int_equal(r.script.delta_next_ns, 500 * US);

	/* Tick stopped: delta_next is the timer alone, even past the tick. */
	in = input(3 * MS, 1 * MS, IK_KTIME_MAX);
	in.tick_stopped = true;
	step(&r, 1, false, in);
	assert_int_equal(r.script.delta_next_ns, 3 * MS);
	assert_true(r.script.tick_stopped);

	/* No timer: KTIME_MAX for both when the tick is stopped, the tick otherwise. */
	in = input(IK_KTIME_MAX, 1 * MS, IK_KTIME_MAX);
	in.tick_stopped = true;
	step(&r, 1, false, in);
	assert_int_equal(r.script.sleep_length_ns, IK_KTIME_MAX);
	assert_int_equal(r.script.delta_next_ns, IK_KTIME_MAX);
	step(&r, 1, false, input(IK_KTIME_MAX, 1 * MS, IK_KTIME_MAX));
	assert_int_equal(r.script.delta_next_ns, 1 * MS);
	ik__govreplay_free(&r.g);
}

/* ---- The wake event and its ties --------------------------------------------------------- */

static void test_earliest_event_wins(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	struct ik_govreplay_result res = step(&r, 2, true, input(300 * US, 1 * MS, 200 * US));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_WAKE);
	assert_int_equal(res.wake_at_ns, 200 * US);

	res = step(&r, 2, true, input(300 * US, 1 * MS, 400 * US));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TIMER);
	assert_int_equal(res.wake_at_ns, 300 * US);

	res = step(&r, 2, true, input(3 * MS, 1 * MS, 2 * MS));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TICK);
	assert_int_equal(res.wake_at_ns, 1 * MS);
	ik__govreplay_free(&r.g);
}

static void test_ties_wake_timer_tick_poll(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);
	/* The poll limit of this table at HZ 250: C2's residency, 100 us (< TICK/16 = 250 us). */
	const int64_t poll = 100 * US;

	/* All four at once: the IPI wins. */
	struct ik_govreplay_result res = step(&r, 0, true, input(poll, poll, poll));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_WAKE);
	assert_int_equal(res.wake_at_ns, poll);

	/* Timer, tick and poll limit: the timer. */
	res = step(&r, 0, true, input(poll, poll, IK_KTIME_MAX));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TIMER);

	/* Tick and poll limit: the tick. */
	res = step(&r, 0, true, input(IK_KTIME_MAX, poll, IK_KTIME_MAX));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TICK);
	assert_true(r.script.reflect_got_tick);
	assert_false(r.script.reflect_poll_time_limit);

	/* One ns later for the tick: the poll limit. */
	res = step(&r, 0, true, input(IK_KTIME_MAX, poll + 1, IK_KTIME_MAX));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_POLL_LIMIT);
	assert_int_equal(res.wake_at_ns, poll);
	ik__govreplay_free(&r.g);
}

/* The tick wakes the CPU only if it ran: kept by the governor and not stopped at entry. */
static void test_tick_only_when_kept(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	struct ik_govreplay_result res = step(&r, 2, false, input(3 * MS, 1 * MS, IK_KTIME_MAX));
	assert_true(res.stop_tick);
	assert_false(res.tick_kept);
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TIMER);
	assert_int_equal(res.wake_at_ns, 3 * MS);

	struct ik_govreplay_input in = input(3 * MS, 1 * MS, IK_KTIME_MAX);
	in.tick_stopped = true;
	res = step(&r, 2, true, in); /* the governor keeps it, but it is already stopped */
	assert_false(res.stop_tick);
	assert_false(res.tick_kept);
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TIMER);

	res = step(&r, 2, true, input(3 * MS, 1 * MS, IK_KTIME_MAX));
	assert_true(res.tick_kept);
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TICK);
	ik__govreplay_free(&r.g);
}

/* The poll limit applies in a polling state only. */
static void test_poll_limit_only_when_polling(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	struct ik_govreplay_result res = step(&r, 1, false, input(IK_KTIME_MAX, 1 * MS, 400 * US));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_WAKE);
	assert_int_equal(res.wake_at_ns, 400 * US);
	assert_false(r.script.reflect_poll_time_limit);

	res = step(&r, 0, false, input(IK_KTIME_MAX, 1 * MS, 400 * US));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_POLL_LIMIT);
	assert_int_equal(res.wake_at_ns, 100 * US);
	assert_true(r.script.reflect_poll_time_limit);
	assert_true(r.g.dev.poll_time_limit);

	/* The next polling entry clears the flag (poll_idle); a wakeup then leaves it clear. */
	res = step(&r, 0, false, input(IK_KTIME_MAX, 1 * MS, 40 * US));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_WAKE);
	assert_false(r.script.reflect_poll_time_limit);

	/* A non-polling entry leaves the flag as it was, as the kernel does. */
	step(&r, 0, false, input(IK_KTIME_MAX, 1 * MS, IK_KTIME_MAX));
	assert_true(r.g.dev.poll_time_limit);
	step(&r, 2, false, input(IK_KTIME_MAX, 1 * MS, 40 * US));
	assert_true(r.script.reflect_poll_time_limit);
	ik__govreplay_free(&r.g);
}

/* The poll limit is the device's cached cpuidle_poll_time(), which haltpoll may set. */
static void test_poll_limit_from_device(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	r.g.dev.poll_limit_ns = 30 * US;
	struct ik_govreplay_result res = step(&r, 0, false, input(IK_KTIME_MAX, 1 * MS, IK_KTIME_MAX));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_POLL_LIMIT);
	assert_int_equal(res.wake_at_ns, 30 * US);

	/* With C2 disabled (before any poll), the limit is C3's 600 us capped at TICK/16. */
	struct rig r2;
	rig_init(&r2, &scripted);
	assert_int_equal(ik__govreplay_disable(&r2.g, "C2"), 0);
	res = step(&r2, 0, false, input(IK_KTIME_MAX, TICK_250, IK_KTIME_MAX));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_POLL_LIMIT);
	assert_int_equal(res.wake_at_ns, TICK_250 / 16);
	ik__govreplay_free(&r.g);
	ik__govreplay_free(&r2.g);
}

static void test_no_event_is_ten_seconds(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	struct ik_govreplay_result res = step(&r, 3, false, input(IK_KTIME_MAX, 1 * MS, IK_KTIME_MAX));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_NO_EVENT);
	assert_int_equal(res.wake_at_ns, 10 * IK_NSEC_PER_SEC);
	assert_int_equal(res.last_residency_ns, 10 * IK_NSEC_PER_SEC + 100 * US);

	/* A timer beyond 10 s is still the timer. */
	res = step(&r, 3, false, input(20 * IK_NSEC_PER_SEC, 1 * MS, IK_KTIME_MAX));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TIMER);
	assert_int_equal(res.wake_at_ns, 20 * IK_NSEC_PER_SEC);
	ik__govreplay_free(&r.g);
}

/* ---- What the governor learns ------------------------------------------------------------ */

static void test_last_residency(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	/* A physical state: the event's time plus the advertised exit latency. */
	struct ik_govreplay_result res = step(&r, 2, false, input(IK_KTIME_MAX, 1 * MS, 50 * US));
	assert_int_equal(res.last_residency_ns, 50 * US + 20 * US);
	assert_int_equal(r.script.reflect_residency_ns, 70 * US);
	assert_int_equal(r.script.reflect_index, 2);
	assert_false(r.script.reflect_got_tick);

	/* A polling state: nothing added. */
	res = step(&r, 0, false, input(IK_KTIME_MAX, 1 * MS, 50 * US));
	assert_int_equal(res.last_residency_ns, 50 * US);

	/* A wakeup at 0 ns is an entry of length 0 (plus the exit), not a rejection. */
	res = step(&r, 1, false, input(IK_KTIME_MAX, 1 * MS, 0));
	assert_int_equal(res.last_residency_ns, 2 * US);
	assert_int_equal(r.g.dev.states_usage[1].rejected, 0);

	/* Capped at KTIME_MAX. */
	res = step(&r, 3, false, input(IK_KTIME_MAX - 5, 1 * MS, IK_KTIME_MAX));
	assert_int_equal(res.woken_by, IK_GOVREPLAY_TIMER);
	assert_int_equal(res.last_residency_ns, (uint64_t)IK_KTIME_MAX);
	assert_int_equal(r.script.reflect_calls, 4);
	ik__govreplay_free(&r.g);
}

static void test_got_tick_only_for_the_tick(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	step(&r, 2, true, input(3 * MS, 1 * MS, IK_KTIME_MAX));
	assert_true(r.script.reflect_got_tick);
	step(&r, 2, true, input(3 * MS, 1 * MS, 1 * MS)); /* an IPI at the tick's time */
	assert_false(r.script.reflect_got_tick);
	step(&r, 2, true, input(1 * MS, 1 * MS, IK_KTIME_MAX)); /* a timer at the tick's time */
	assert_false(r.script.reflect_got_tick);
	ik__govreplay_free(&r.g);
}

/* usage, time, above and below as cpuidle_enter_state() counts them; the harness's counts. */
static void test_core_accounting(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);

	step(&r, 3, false, input(IK_KTIME_MAX, 1 * MS, 100 * US)); /* 200 us < 600: above */
	step(&r, 1, true, input(2 * MS, 1 * MS, IK_KTIME_MAX));    /* 1 ms - 2 us >= 100: below */
	step(&r, 2, false, input(150 * US, 1 * MS, IK_KTIME_MAX)); /* 170 us: right */
	const struct ik_state_usage *u = r.g.dev.states_usage;
	assert_int_equal(u[3].usage, 1);
	assert_int_equal(u[3].time_ns, 200 * US);
	assert_int_equal(u[3].above, 1);
	assert_int_equal(u[1].usage, 1);
	assert_int_equal(u[1].time_ns, 1 * MS + 2 * US);
	assert_int_equal(u[1].below, 1);
	assert_int_equal(u[2].usage, 1);
	assert_int_equal(u[2].above + u[2].below, 0);
	assert_int_equal(r.g.lines, 3);
	assert_int_equal(r.g.stop_tick_count, 2);
	ik__govreplay_free(&r.g);
}

static void test_disable_by_name(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);
	assert_int_equal(ik__govreplay_disable(&r.g, "C3"), 0);
	assert_true(ik_state_disabled(&r.g.dev, 3));
	assert_false(ik_state_disabled(&r.g.dev, 2));
	assert_int_equal(ik__govreplay_disable(&r.g, "C9"), -1);
	ik__govreplay_free(&r.g);
}

static void test_init_rejects_bad_setup(void **state)
{
	(void)state;
	struct ik_govreplay g;
	struct ik_driver drv;
	char err[256];

	make_table(&drv);
	assert_int_equal(ik__govreplay_init(&g, &drv, NULL, 250, NULL, err, sizeof(err)),
			 IK_GOVREPLAY_EINPUT);
	assert_non_null(strstr(err, "menu"));
	assert_int_equal(ik__govreplay_init(&g, &drv, &scripted, 0, NULL, err, sizeof(err)),
			 IK_GOVREPLAY_EINPUT);
	drv.state_count = 0;
	assert_int_equal(ik__govreplay_init(&g, &drv, &scripted, 250, NULL, err, sizeof(err)),
			 IK_GOVREPLAY_EINPUT);
}

/* ---- The stream -------------------------------------------------------------------------- */

/* Runs text through ik__govreplay_buffer with the scripted governor choosing `choice`. */
static int run_text(const char *text, int choice, char *out, size_t outlen, char *err,
		    size_t errlen, uint64_t *lines)
{
	struct rig r;
	rig_init(&r, &scripted);
	r.script.state = choice;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	int rc = ik__govreplay_buffer(&r.g, text, strlen(text), "t.csv", f, err, errlen);
	fclose(f);
	snprintf(out, outlen, "%s", buf ? buf : "");
	free(buf);
	if (lines)
		*lines = r.g.lines;
	ik__govreplay_free(&r.g);
	return rc;
}

static void test_stream_format(void **state)
{
	(void)state;
	char out[256], err[512];
	uint64_t lines;

	/* Comments, blank lines, CRLF, spaces around fields, columns in another order. */
	const char *text = "# a comment\n"
			   "\n"
			   "  wake_ns , sleep_ns,tick_ns ,tick_stopped,latency_req_ns\r\n"
			   "# another\r\n"
			   "- , 3000000 , 1000000 , 0 , -\r\n"
			   "   \n"
			   "500,-,4000000,1,0\n"
			   "00000000000000000000000000007,9223372036854775807,1,0,9223372036854775807";
	assert_int_equal(run_text(text, 2, out, sizeof(out), err, sizeof(err), &lines), 0);
	assert_string_equal(out, "2,1\n2,1\n2,1\n");
	assert_int_equal(lines, 3);

	/* A header alone is a valid, empty stream. */
	assert_int_equal(run_text("sleep_ns,tick_ns,wake_ns\n", 1, out, sizeof(out), err,
				  sizeof(err), &lines),
			 0);
	assert_int_equal(lines, 0);
}

/* What the parser hands the step: '-' is none, KTIME_MAX is none, latency '-' the default. */
static void test_stream_values(void **state)
{
	(void)state;
	struct rig r;
	rig_init(&r, &scripted);
	r.script.state = 3;
	char err[256];
	const char *text = "sleep_ns,tick_ns,wake_ns,latency_req_ns\n-,1000000,-,-\n";
	assert_int_equal(ik__govreplay_buffer(&r.g, text, strlen(text), "t", NULL, err, sizeof(err)),
			 0);
	assert_int_equal(r.script.sleep_length_ns, IK_KTIME_MAX);
	assert_int_equal(r.script.latency_req_ns, IK_LATENCY_REQ_NONE_NS);
	assert_int_equal(r.g.dev.states_usage[3].time_ns, 10 * IK_NSEC_PER_SEC + 100 * US);
	ik__govreplay_free(&r.g);
}

struct bad_case {
	const char *text;
	const char *message; /* expected in the error */
	const char *output;  /* decisions written before the error */
};

static void test_stream_errors(void **state)
{
	(void)state;
	static const struct bad_case cases[] = {
		{ "", "t.csv: no header line", "" },
		{ "# only a comment\n\n", "t.csv: no header line", "" },
		{ "1,2,3\n", "t.csv:1: missing header", "" },
		{ "sleep_ns,tick_ns\n", "t.csv:1: header: column 'wake_ns' is missing", "" },
		{ "sleep_ns,tick_ns,wake_ns,foo\n", "t.csv:1: header: unknown column 'foo'", "" },
		{ "sleep_ns,tick_ns,wake_ns,sleep_ns\n", "column 'sleep_ns' appears twice", "" },
		{ "sleep_ns,tick_ns,wake_ns\n1,1,1\n1,1\n", "t.csv:3: expected 3 columns "
							   "(sleep_ns,tick_ns,wake_ns), got 2",
		  "1,1\n" },
		{ "sleep_ns,tick_ns,wake_ns\n1,1,1,1\n", "t.csv:2: expected 3 columns", "" },
		{ "sleep_ns,tick_ns,wake_ns\n1,x,1\n",
		  "t.csv:2: column 'tick_ns': expected an integer 1..4000000 (TICK_NSEC at HZ 250), "
		  "got 'x'",
		  "" },
		{ "sleep_ns,tick_ns,wake_ns\n1,0,1\n", "column 'tick_ns': expected an integer "
						       "1..4000000 (TICK_NSEC at HZ 250), got '0'",
		  "" },
		{ "sleep_ns,tick_ns,wake_ns\n1,4000001,1\n", "got '4000001'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n1,-,1\n", "column 'tick_ns'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n-5,1,1\n",
		  "t.csv:2: column 'sleep_ns': expected an integer 0..9223372036854775807 (ns) or "
		  "'-' (no timer), got '-5' (negative)",
		  "" },
		{ "sleep_ns,tick_ns,wake_ns\n1,1,-1\n", "column 'wake_ns'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n9223372036854775808,1,1\n", "column 'sleep_ns'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n99999999999999999999,1,1\n", "column 'sleep_ns'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n1.5,1,1\n", "got '1.5'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n1e6,1,1\n", "got '1e6'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n+1,1,1\n", "got '+1'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n,1,1\n", "column 'sleep_ns'", "" },
		{ "sleep_ns,tick_ns,wake_ns\n1,1,1 # note\n", "column 'wake_ns'", "" },
		{ "sleep_ns,tick_ns,wake_ns,tick_stopped\n1,1,1,2\n",
		  "column 'tick_stopped': expected 0 or 1, got '2'", "" },
		{ "sleep_ns,tick_ns,wake_ns,latency_req_ns\n1,1,1,-3\n", "column 'latency_req_ns'",
		  "" },
		{ "sleep_ns,tick_ns,wake_ns\n1,1,\x01\xff\n", "got '\\x01\\xff'", "" },
	};
	char out[256], err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = run_text(cases[i].text, 1, out, sizeof(out), err, sizeof(err), NULL);
		if (rc != IK_GOVREPLAY_EINPUT || !strstr(err, cases[i].message) ||
		    strcmp(out, cases[i].output) != 0 || strchr(err, '\n'))
			fail_msg("case %zu: rc %d, err '%s', output '%s'", i, rc, err, out);
	}
}

/* The FILE reader: chunk boundaries, a comment longer than the buffer, a data line too long. */
static void test_stream_file(void **state)
{
	(void)state;
	const size_t big = (1u << 20) + 1000;
	char *text = malloc(8 * big); /* 300000 lines of at most 18 bytes, and the comment */
	assert_non_null(text);

	/* 300000 data lines cross several 1 MiB reads; then a comment longer than a read. */
	size_t o = (size_t)sprintf(text, "sleep_ns,tick_ns,wake_ns\n");
	for (int i = 0; i < 300000; i++)
		o += (size_t)sprintf(text + o, "%d,4000000,-\n", 1000 + i);
	text[o++] = '#';
	memset(text + o, 'x', big);
	o += big;
	o += (size_t)sprintf(text + o, "\n5000,4000000,-\n");

	struct rig r;
	rig_init(&r, &scripted);
	r.script.state = 2;
	char err[512];
	FILE *in = fmemopen(text, o, "r");
	assert_non_null(in);
	int rc = ik__govreplay_stream(&r.g, in, "f.csv", NULL, err, sizeof(err));
	fclose(in);
	if (rc)
		fail_msg("%s", err);
	assert_int_equal(r.g.lines, 300001);
	assert_int_equal(r.script.sleep_length_ns, 5000);
	ik__govreplay_free(&r.g);

	/* A data line that does not fit the read buffer: an error naming its line. */
	o = (size_t)sprintf(text, "sleep_ns,tick_ns,wake_ns\n1,1,1\n");
	memset(text + o, '1', big);
	o += big;
	rig_init(&r, &scripted);
	in = fmemopen(text, o, "r");
	rc = ik__govreplay_stream(&r.g, in, "f.csv", NULL, err, sizeof(err));
	fclose(in);
	assert_int_equal(rc, IK_GOVREPLAY_EINPUT);
	assert_non_null(strstr(err, "f.csv:3: line longer than"));
	ik__govreplay_free(&r.g);
	free(text);
}

/* Every real governor runs through the harness and gives a valid index. */
static void test_real_governors(void **state)
{
	(void)state;
	static const char *const names[] = { "menu", "teo", "ladder", "haltpoll" };
	for (size_t k = 0; k < 4; k++) {
		struct rig r;
		rig_init(&r, ik_governor_find(names[k]));
		for (int i = 0; i < 1000; i++) {
			struct ik_govreplay_result res;
			struct ik_govreplay_input in =
				input(i % 7 ? (int64_t)(i * 7919) % (5 * MS) : IK_KTIME_MAX,
				      1 + (i * 104729) % TICK_250,
				      i % 3 ? (int64_t)(i * 31) % (300 * US) : IK_KTIME_MAX);
			in.tick_stopped = i % 11 == 0;
			in.latency_req_ns = i % 13 == 0 ? 0 : IK_LATENCY_REQ_NONE_NS;
			ik__govreplay_step(&r.g, &in, &res);
			assert_in_range(res.state, 0, 3);
		}
		assert_int_equal(r.g.lines, 1000);
		ik__govreplay_free(&r.g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inputs_seen_by_select),
		cmocka_unit_test(test_earliest_event_wins),
		cmocka_unit_test(test_ties_wake_timer_tick_poll),
		cmocka_unit_test(test_tick_only_when_kept),
		cmocka_unit_test(test_poll_limit_only_when_polling),
		cmocka_unit_test(test_poll_limit_from_device),
		cmocka_unit_test(test_no_event_is_ten_seconds),
		cmocka_unit_test(test_last_residency),
		cmocka_unit_test(test_got_tick_only_for_the_tick),
		cmocka_unit_test(test_core_accounting),
		cmocka_unit_test(test_disable_by_name),
		cmocka_unit_test(test_init_rejects_bad_setup),
		cmocka_unit_test(test_stream_format),
		cmocka_unit_test(test_stream_values),
		cmocka_unit_test(test_stream_errors),
		cmocka_unit_test(test_stream_file),
		cmocka_unit_test(test_real_governors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
