/*
 * rt-app's semantics and policies, each feature with a timeline derived by hand from
 * rt-app's documented behaviour (doc/tutorial.txt, src/rt-app.c) and the kernel's
 * (sched(7), sched-deadline.rst): the file runs on amd-zen3 from time 0, all of it
 * measured, no housekeeping timer, and the figures are rt-app's per activation (period:
 * start to end of a phase iteration; run: its run events; wakeup: a sleep's or timer's
 * expiry to running).  The context switch costs 1 us on this platform.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/result.h"
#include "config/scenario.h"
#include "sim/sim.h"
#include "util/histogram.h"

#define US 1000LL
#define MS 1000000LL

static char *write_temp(const char *json)
{
	static char path[32];
	snprintf(path, sizeof(path), "/tmp/ikrtsemXXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	return path;
}

/* Read a scenario running json for ms; 0, or -1 with the message in err. */
static int load(const char *json, int64_t ms, struct ik_scenario *sc, char *err, size_t errlen)
{
	char text[512];
	char *path = write_temp(json);
	snprintf(text, sizeof(text), "[scenario]\nname = rt\nplatform = amd-zen3\nduration_ms = "
		 "%lld\nwarmup_ms = 0\n[kernel]\nhousekeeping_hz = 0\n[workload]\ntype = rtapp\n"
		 "file = %s\n", (long long)ms, path);
	int rc = ik__scenario_parse_string("rt.ini", text, NULL, 0, sc, err, errlen);
	if (rc != 0)
		unlink(path);
	return rc;
}

static void run_text(const char *json, int64_t ms, struct ik_run_result *r)
{
	struct ik_scenario sc;
	char err[IK_ERR_LEN];
	if (load(json, ms, &sc, err, sizeof(err)) != 0)
		fail_msg("scenario: %s", err);
	if (ik__sim_run(&sc, 1, r, err, sizeof(err)) != 0)
		fail_msg("sim: %s", err);
	unlink(sc.workload.file);
	assert_non_null(r->requests);
}

/* The message a file is refused with ("" if it is not). */
static void refused(const char *json, char *err, size_t errlen)
{
	struct ik_scenario sc;
	err[0] = '\0';
	if (load(json, 10, &sc, err, errlen) == 0) {
		unlink(sc.workload.file);
		err[0] = '\0';
	}
}

static void show(const char *what, const struct ik_run_result *r)
{
	const struct ik_request_stats *q = r->requests;
	print_message("%s: %llu activations, period %lld..%lld ns, run %lld..%lld ns, wakeup "
		      "%lld..%lld ns (%llu)\n", what, (unsigned long long)q->done,
		      (long long)q->latency.min, (long long)q->latency.max,
		      (long long)q->service.min, (long long)q->service.max,
		      (long long)q->wake.min, (long long)q->wake.max,
		      (unsigned long long)q->wake.count);
}

/* A thread of one activation on CPU 0: policy, then its events. */
#define THREAD(name, sched, events) \
	"\"" name "\":{\"loop\":1,\"cpus\":[0]" sched "," events "}"

/*
 * SCHED_FIFO preempts a running SCHED_OTHER task at once: o runs 5 ms of work (run) from
 * time 0; f sleeps 1 ms, then runs 1 ms (runtime).  f's wake-up latency is the context
 * switch (1 us), not the 4 ms o has left; o's activation is stretched by f's 1 ms and
 * the two switches.  With f in SCHED_OTHER (no priorities) f waits until o ends.
 */
static void test_fifo_preempts_other(void **state)
{
	(void)state;
	struct ik_run_result alone, rt, other;
	run_text("{\"tasks\":{" THREAD("o", "", "\"run\":5000") "}}", 20, &alone);
	run_text("{\"tasks\":{" THREAD("o", "", "\"run\":5000") ","
		 THREAD("f", ",\"policy\":\"SCHED_FIFO\",\"priority\":10",
			"\"sleep\":1000,\"runtime\":1000") "}}", 20, &rt);
	run_text("{\"tasks\":{" THREAD("o", "", "\"run\":5000") ","
		 THREAD("f", "", "\"sleep\":1000,\"runtime\":1000") "}}", 20, &other);
	show("o alone", &alone);
	show("o + FIFO f", &rt);
	show("o + OTHER f", &other);
	int64_t w = alone.requests->latency.max; /* o's own activation */
	assert_int_equal(rt.requests->done, 2);
	assert_int_equal(rt.requests->wake.count, 1); /* f's sleep */
	assert_true(rt.requests->wake.max <= 2 * US);  /* at once: one context switch */
	/* o's activation: its own, f's 1 ms and two switches */
	assert_true(rt.requests->latency.max >= w + 1 * MS &&
		    rt.requests->latency.max <= w + 1 * MS + 3 * US);
	/* f's: the 1 ms sleep, the switch, the 1 ms runtime */
	assert_true(rt.requests->latency.min >= 2 * MS && rt.requests->latency.min <= 2 * MS + 3 * US);
	/* without the policy f waits for o's end, w - 1 ms later, and its own activation
	   lasts its sleep, that wait and its run; o's is w */
	assert_true(other.requests->wake.max >= w - 1 * MS && other.requests->wake.max <= w - 1 * MS + 3 * US);
	assert_true(other.requests->latency.max >= w + 1 * MS &&
		    other.requests->latency.max <= w + 1 * MS + 3 * US);
	assert_true(other.requests->latency.min >= w && other.requests->latency.min <= w + 3 * US);
	ik__run_result_free(&alone);
	ik__run_result_free(&rt);
	ik__run_result_free(&other);
}

/*
 * Priorities between RT tasks: b sleeps 1 ms from 0 then runs 1 ms; a starts 0.5 ms late
 * (delay) and runs 3 ms of runtime.  With a (FIFO 20) above b (FIFO 10) b does not preempt
 * a: it runs when a ends at 3.5 ms (wake-up 2.5 ms, activation 1 + 2.5 + 1 ms).  With
 * the priorities the other way round b preempts a at once (wake-up 1 us).
 */
static void test_fifo_priorities(void **state)
{
	(void)state;
	struct ik_run_result hi, lo;
	run_text("{\"tasks\":{" THREAD("a", ",\"delay\":500,\"policy\":\"SCHED_FIFO\",\"priority\":20", "\"runtime\":3000")
		 "," THREAD("b", ",\"policy\":\"SCHED_FIFO\",\"priority\":10",
			    "\"sleep\":1000,\"runtime\":1000") "}}", 20, &hi);
	run_text("{\"tasks\":{" THREAD("a", ",\"delay\":500,\"policy\":\"SCHED_FIFO\",\"priority\":10", "\"runtime\":3000")
		 "," THREAD("b", ",\"policy\":\"SCHED_FIFO\",\"priority\":20",
			    "\"sleep\":1000,\"runtime\":1000") "}}", 20, &lo);
	show("a above b", &hi);
	show("b above a", &lo);
	/* (a starts on an idle CPU 0: its exit, 25 us here, later) */
	assert_true(hi.requests->wake.max >= 2500 * US && hi.requests->wake.max <= 2500 * US + 30 * US);
	assert_true(hi.requests->latency.max >= 4500 * US && hi.requests->latency.max <= 4500 * US + 30 * US);
	assert_true(lo.requests->wake.max <= 2 * US);
	/* a's runtime reads the clock: it ends 3 ms after it started, preempted or not
	   (rt-app's runtime loop), though b took 1 ms of it */
	assert_true(lo.requests->latency.max >= 3 * MS && lo.requests->latency.max <= 3 * MS + 3 * US);
	assert_true(lo.requests->latency.min >= 2 * MS && lo.requests->latency.min <= 2 * MS + 3 * US);
	ik__run_result_free(&hi);
	ik__run_result_free(&lo);
}

/*
 * SCHED_RR shares a CPU between equals in slices of 100 ms: a and b (RR 10) each have
 * 250 ms of work on CPU 0.  a runs 0-100, b 100-200, a 200-300, b 300-400, a 400-450
 * (done), b 450-500: a's activation ends at 450 ms, b's at 500.  In SCHED_FIFO a runs to
 * its end (250 ms) first.  (Work at this platform's frequency: the ratio is the check.)
 */
static void test_rr_slices(void **state)
{
	(void)state;
	struct ik_run_result rr, fifo;
	run_text("{\"tasks\":{" THREAD("a", ",\"policy\":\"SCHED_RR\"", "\"run\":250000") ","
		 THREAD("b", ",\"policy\":\"SCHED_RR\"", "\"run\":250000") "}}", 700, &rr);
	run_text("{\"tasks\":{" THREAD("a", ",\"policy\":\"SCHED_FIFO\"", "\"run\":250000") ","
		 THREAD("b", ",\"policy\":\"SCHED_FIFO\"", "\"run\":250000") "}}", 700, &fifo);
	show("RR", &rr);
	show("FIFO", &fifo);
	double w = (double)fifo.requests->latency.min; /* a's 250 ms of work alone */
	assert_int_equal(rr.requests->done, 2);
	/* a: 250 ms of its own and 200 of b's (two 100 ms slices) */
	assert_true(rr.requests->latency.min >= 200 * MS + w &&
		    rr.requests->latency.min <= 200 * MS + w + 10 * US);
	assert_true(rr.requests->latency.max >= 2 * w && rr.requests->latency.max <= 2 * w + 10 * US);
	assert_true(fifo.requests->latency.max >= 2 * w - 10 * US &&
		    fifo.requests->latency.max <= 2 * w + 10 * US);
	ik__run_result_free(&rr);
	ik__run_result_free(&fifo);
}

/*
 * SCHED_DEADLINE: runtime 2 ms every 10 ms.  One activation of 5 ms of work runs 0-2 ms,
 * is throttled until 10, runs 10-12, throttled until 20, ends 1 ms later: 21 ms (the
 * work at this platform's frequency: w, 2 ms per period).  A thread that never stops
 * (loop forever, 100 ms of work each) gets 2 ms of every 10 ms: 20 % of a CPU, never more.
 */
static void test_deadline_runtime_per_period(void **state)
{
	(void)state;
	struct ik_run_result one, alone, hog;
	run_text("{\"tasks\":{\"d\":{\"loop\":1" "," "\"run\":5000}}}", 40, &alone);
	run_text("{\"tasks\":{\"d\":{\"loop\":1,\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":2000,"
		 "\"dl-period\":10000,\"run\":5000}}}", 40, &one);
	run_text("{\"tasks\":{\"d\":{\"loop\":-1,\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":2000,"
		 "\"dl-period\":10000,\"run\":100000}}}", 1000, &hog);
	show("alone", &alone);
	show("DL one", &one);
	show("DL hog", &hog);
	int64_t w = alone.requests->latency.max;
	assert_true(w > 4 * MS && w <= 5 * MS);
	assert_int_equal(one.requests->done, 1);
	/* (+ the CPU's two exits from idle, throttled: at most 30 us each here) */
	int64_t want = 20 * MS + (w - 4 * MS);
	assert_true(one.requests->latency.max >= want && one.requests->latency.max <= want + 60 * US);
	/* the hog's first 100 ms of work take 50 runtimes: 49 periods and 2 ms (492 ms); the
	   second starts at its period's end and takes 50 more (500 ms) */
	assert_int_equal(hog.requests->done, 2);
	assert_true(hog.requests->latency.min >= 492 * MS && hog.requests->latency.min <= 492 * MS + 50 * US);
	assert_true(hog.requests->latency.max >= 500 * MS - 50 * US &&
		    hog.requests->latency.max <= 500 * MS + 50 * US);
	/* CPU 0's busy share: 2 ms a period, and the 1 us switch from the idle task to it
	   (100 periods in the second) */
	double share = (double)hog.busy_ns / (double)hog.measured_ns;
	print_message("DL hog: busy %.5f of one CPU\n", share);
	assert_true(share <= 0.2 + 0.0001 + 1e-9);
	assert_true(share >= 0.199);
	ik__run_result_free(&one);
	ik__run_result_free(&alone);
	ik__run_result_free(&hog);
}

/*
 * A deadline task preempts an RT one (it ranks above every RT priority), and between
 * deadline tasks the earlier deadline runs first (EDF): f (FIFO 99) runs 5 ms of runtime
 * from 0 on CPU 0; d (deadline 1 ms / 10 ms, unpinned: it starts on CPU 0, busy with f,
 * and so is placed on an idle CPU) ...  pinned is refused for deadline, so the check is
 * the CBS rule instead: d sleeps 5 ms between 1 ms runs and always gets a full runtime.
 */
static void test_deadline_cbs_wakeup(void **state)
{
	(void)state;
	struct ik_run_result r;
	/* 1 ms of runtime, 3 ms sleep: each activation gets its whole 1.5 ms budget anew
	   (the old deadline has passed, or the budget left would overrun it) */
	run_text("{\"tasks\":{\"d\":{\"loop\":5,\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":1500,"
		 "\"dl-period\":4000,\"runtime\":1000,\"sleep\":3000}}}", 40, &r);
	show("DL CBS", &r);
	assert_int_equal(r.requests->done, 5);
	/* never throttled: each activation is its 1 ms run and 3 ms sleep (and the wake-up) */
	assert_true(r.requests->latency.max <= 4 * MS + 150 * US);
	assert_true(r.requests->latency.min >= 4 * MS);
	ik__run_result_free(&r);
}

/* What the kernel refuses (and so rt-app exits on) is refused with its key. */
static void test_policy_refusals(void **state)
{
	(void)state;
	char err[IK_ERR_LEN];
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_FIFO\",\"priority\":0,\"run\":10,"
		"\"sleep\":10}}}", err, sizeof(err));
	print_message("%s\n", err);
	assert_non_null(strstr(err, "tasks.t.priority: expected an RT priority 1..99 for SCHED_FIFO"));
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_OTHER\",\"priority\":25,\"run\":10,"
		"\"sleep\":10}}}", err, sizeof(err));
	assert_non_null(strstr(err, "tasks.t.priority: expected a nice value -20..19"));
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":3000,"
		"\"dl-period\":2000,\"run\":10,\"sleep\":10}}}", err, sizeof(err));
	assert_non_null(strstr(err, "tasks.t.dl-runtime: SCHED_DEADLINE needs dl-runtime <= "
			       "dl-deadline <= dl-period"));
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":10,"
		"\"dl-period\":50,\"run\":10,\"sleep\":10}}}", err, sizeof(err));
	assert_non_null(strstr(err, "dl-period of 100..4194304 us"));
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":1000,"
		"\"dl-period\":2000,\"cpus\":[0],\"run\":10,\"sleep\":10}}}", err, sizeof(err));
	print_message("%s\n", err);
	assert_non_null(strstr(err, "tasks.t: SCHED_DEADLINE with cpus narrower than the "
			       "machine's 128 CPUs"));
	/* admission: at most 95 % of 128 CPUs = 121.6 CPUs of runtime / period */
	refused("{\"tasks\":{\"t\":{\"instance\":122,\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":"
		"10000,\"run\":10,\"sleep\":10}}}", err, sizeof(err));
	print_message("%s\n", err);
	assert_non_null(strstr(err, "reserve 122.000 CPUs (runtime / period), more than 95% of "
			       "platform amd-zen3's 128 CPUs"));
	refused("{\"tasks\":{\"t\":{\"instance\":121,\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":"
		"10000,\"run\":10,\"sleep\":10}}}", err, sizeof(err));
	assert_string_equal(err, "");
	refused("{\"tasks\":{\"t\":{\"policy\":\"SCHED_FIFO\",\"taskgroup\":\"/a\",\"run\":10,"
		"\"sleep\":10}}}", err, sizeof(err));
	assert_non_null(strstr(err, "tasks.t.taskgroup: a task group with policy SCHED_FIFO: "
			       "rt-app refuses it"));
	refused("{\"tasks\":{\"t\":{\"taskgroup\":\"a\",\"run\":10,\"sleep\":10}}}", err, sizeof(err));
	assert_non_null(strstr(err, "tasks.t.taskgroup: expected a task group path starting with /"));
}

/* taskgroup for SCHED_OTHER: a note that it is not modelled, never silence. */
static void test_taskgroup_noted(void **state)
{
	(void)state;
	struct ik_scenario sc;
	char err[IK_ERR_LEN];
	if (load("{\"tasks\":{\"t\":{\"taskgroup\":\"/tg1\",\"run\":10,\"sleep\":10}}}", 10, &sc,
		 err, sizeof(err)) != 0)
		fail_msg("%s", err);
	unlink(sc.workload.file);
	print_message("%s\n", sc.workload_notes);
	assert_non_null(strstr(sc.workload_notes, "\"taskgroup\" (a cgroup's CPU share, read by "
				"rt-app) is not modelled: ignored"));
	/* uclamp and NUMA binding likewise; a clamp rt-app refuses is refused */
	if (load("{\"tasks\":{\"t\":{\"util_min\":100,\"phases\":{\"p\":{\"nodes_membind\":[0],"
		 "\"run\":10,\"sleep\":10}}}}}", 10, &sc, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	unlink(sc.workload.file);
	assert_non_null(strstr(sc.workload_notes, "\"util_min\" (utilisation clamping, read by "
				"rt-app) is not modelled: ignored"));
	assert_non_null(strstr(sc.workload_notes, "\"nodes_membind\" (NUMA memory binding"));
	refused("{\"tasks\":{\"t\":{\"util_max\":2000,\"run\":10,\"sleep\":10}}}", err, sizeof(err));
	assert_non_null(strstr(err, "tasks.t.util_max: expected an integer -1..1024, got 2000"));
}

/* Between a and b's bounds (inclusive), printing it first. */
static void within(const char *what, int64_t v, int64_t lo, int64_t hi)
{
	print_message("%s: %lld ns (expected %lld..%lld)\n", what, (long long)v, (long long)lo,
		      (long long)hi);
	assert_true(v >= lo && v <= hi);
}

/*
 * barrier: a (CPU 0) runs 1 ms, c (CPU 1) 3 ms, then both reach barrier b: a waits there
 * until c comes, so both activations last 3 ms (a's and the wake-up of its idle CPU).
 */
static void test_barrier(void **state)
{
	(void)state;
	struct ik_run_result r;
	run_text("{\"tasks\":{\"a\":{\"loop\":1,\"cpus\":[0],\"runtime\":1000,\"barrier\":\"b\"},"
		 "\"c\":{\"loop\":1,\"cpus\":[1],\"runtime\":3000,\"barrier\":\"b\"}}}", 20, &r);
	assert_int_equal(r.requests->done, 2);
	within("barrier: a's activation", r.requests->latency.min, 3 * MS, 3 * MS + 50 * US);
	ik__run_result_free(&r);
}

/*
 * signal wakes the first waiter, broad every one: w1 and w2 wait on c; s signals (or
 * broadcasts) it 1 ms after the start.  With broad both end at about 1 ms (3 activations);
 * with signal one does, the other waits to the end (2).
 */
static void test_signal_and_broad(void **state)
{
	(void)state;
	struct ik_run_result b, sg;
	const char *w = "\"w1\":{\"loop\":1,\"cpus\":[0],\"wait\":{\"ref\":\"c\"}},"
			"\"w2\":{\"loop\":1,\"cpus\":[1],\"wait\":{\"ref\":\"c\"}},";
	char json[512];
	snprintf(json, sizeof(json), "{\"tasks\":{%s\"s\":{\"loop\":1,\"cpus\":[2],\"delay\":1000,"
		 "\"broad\":\"c\"}}}", w);
	run_text(json, 20, &b);
	snprintf(json, sizeof(json), "{\"tasks\":{%s\"s\":{\"loop\":1,\"cpus\":[2],\"delay\":1000,"
		 "\"signal\":\"c\"}}}", w);
	run_text(json, 20, &sg);
	assert_int_equal(b.requests->done, 3);
	within("broad: the waiters' activations", b.requests->latency.max, 1 * MS, 1 * MS + 80 * US);
	assert_int_equal(sg.requests->done, 2);
	ik__run_result_free(&b);
	ik__run_result_free(&sg);
}

/*
 * suspend and resume: t suspends at once; r, 2 ms later (delay), resumes t, so t's
 * activation lasts 2 ms; and delay itself: nothing of r runs before it.
 */
static void test_suspend_resume_delay(void **state)
{
	(void)state;
	struct ik_run_result r;
	run_text("{\"tasks\":{\"t\":{\"loop\":1,\"cpus\":[0],\"suspend\":\"t\"},"
		 "\"r\":{\"loop\":1,\"cpus\":[1],\"delay\":2000,\"resume\":\"t\"}}}", 20, &r);
	assert_int_equal(r.requests->done, 2);
	within("suspend: t's activation", r.requests->latency.max, 2 * MS, 2 * MS + 80 * US);
	ik__run_result_free(&r);
}

/*
 * timer modes after an overrun (a 10 ms timer t, first used at 0: its next expiry 10 ms):
 * phase p0 waits until 10; p1 runs 15 ms (10-25), and its timer's 20 ms is past, so it does
 * not wait; p2 (3 times) runs 1 ms and waits.  absolute: the reference stays at 20, so p2
 * waits until 30, 40, 50 (its first activation 5 ms, the next two 10); relative: the
 * reference moves to 25 when missed, so p2 waits until 35, 45, 55 (all 10 ms).  (Each
 * wait ends with the idle CPU's wake-up, 17-27 us here, which moves the activations'
 * starts and ends by as much.)
 */
static void test_timer_modes(void **state)
{
	(void)state;
	struct ik_run_result abs, rel;
	const char *fmt = "{\"tasks\":{\"t\":{\"loop\":1,\"cpus\":[0],\"phases\":{"
		"\"p0\":{\"timer\":{\"ref\":\"t\",\"period\":10000,\"mode\":\"%s\"}},"
		"\"p1\":{\"runtime\":15000,\"timer\":{\"ref\":\"t\",\"period\":10000,\"mode\":\"%s\"}},"
		"\"p2\":{\"loop\":3,\"runtime\":1000,\"timer\":{\"ref\":\"t\",\"period\":10000,"
		"\"mode\":\"%s\"}}}}}}";
	char json[512];
	snprintf(json, sizeof(json), fmt, "absolute", "absolute", "absolute");
	run_text(json, 80, &abs);
	snprintf(json, sizeof(json), fmt, "relative", "relative", "relative");
	run_text(json, 80, &rel);
	show("absolute", &abs);
	show("relative", &rel);
	assert_int_equal(abs.requests->done, 5);
	assert_int_equal(rel.requests->done, 5);
	within("absolute: shortest activation", abs.requests->latency.min, 5 * MS - 50 * US,
	       5 * MS + 50 * US);
	within("relative: shortest activation", rel.requests->latency.min, 10 * MS - 50 * US,
	       10 * MS + 50 * US);
	/* both: p1's 15 ms run, no wait */
	within("absolute: longest", abs.requests->latency.max, 15 * MS, 15 * MS + 50 * US);
	within("relative: longest", rel.requests->latency.max, 15 * MS, 15 * MS + 50 * US);
	ik__run_result_free(&abs);
	ik__run_result_free(&rel);
}

/*
 * yield: a and b share CPU 0 (1 us a switch); a runs 2 ms, yields, runs 2 ms; b starts
 * 0.1 ms late and runs 1 ms.  The model's SCHED_OTHER queues a task that goes on behind
 * those waiting at each of its events: b's start (no work) runs when a's first 2 ms end,
 * and its 1 ms goes behind a's next event.  With the yield that event is the yield, so b's
 * 1 ms runs before a's second 2 ms: a's activation 2 + 1 + 2 ms and four switches; b's
 * 1 ms.  Without, a's second 2 ms run first: a's 4 ms (two switches), b's 3 ms.
 */
static void test_yield(void **state)
{
	(void)state;
	struct ik_run_result y, n;
	run_text("{\"tasks\":{\"a\":{\"loop\":1,\"cpus\":[0],\"runtime\":2000,\"yield\":\"\","
		 "\"runtime1\":2000},\"b\":{\"loop\":1,\"cpus\":[0],\"delay\":100,\"runtime\":1000}}}",
		 20, &y);
	run_text("{\"tasks\":{\"a\":{\"loop\":1,\"cpus\":[0],\"runtime\":2000,\"runtime1\":2000},"
		 "\"b\":{\"loop\":1,\"cpus\":[0],\"delay\":100,\"runtime\":1000}}}", 20, &n);
	show("yield", &y);
	show("no yield", &n);
	assert_int_equal(y.requests->latency.max, 5 * MS + 4 * US);
	assert_int_equal(y.requests->latency.min, 1 * MS + 2 * US);
	assert_int_equal(n.requests->latency.max, 4 * MS + 2 * US);
	assert_int_equal(n.requests->latency.min, 3 * MS + 2 * US);
	ik__run_result_free(&y);
	ik__run_result_free(&n);
}

/*
 * instance, loop and phases with their own loops: 3 instances, the thread looped twice,
 * phase p1 twice (100 us runtime) and p2 three times (200 us): 3 x 2 x (2 + 3) = 30
 * activations and 3 x 2 x (2 x 100 + 3 x 200) us = 4.8 ms of run.  cpus per phase: p1 on
 * CPU 5, p2 on CPU 6: their busy time is the phases' runs (1.2 and 3.6 ms, and a context
 * switch or two).
 */
static void test_instances_loops_phases_cpus(void **state)
{
	(void)state;
	struct ik_run_result r;
	run_text("{\"tasks\":{\"t\":{\"instance\":3,\"loop\":2,\"phases\":{"
		 "\"p1\":{\"loop\":2,\"cpus\":[5],\"runtime\":100,\"sleep\":50},"
		 "\"p2\":{\"loop\":3,\"cpus\":[6],\"runtime\":200,\"sleep\":50}}}}}", 50, &r);
	assert_int_equal(r.requests->done, 30);
	assert_int_equal(r.requests->service_ns, 4800 * US);
	within("CPU 5 busy", r.cpu_busy_ns[5], 1200 * US, 1200 * US + 60 * US);
	within("CPU 6 busy", r.cpu_busy_ns[6], 3600 * US, 3600 * US + 60 * US);
	int64_t others = 0;
	for (int c = 0; c < r.ncpus; c++)
		if (c != 5 && c != 6)
			others += r.cpu_busy_ns[c];
	within("other CPUs busy (the threads' start-up)", others, 0, 60 * US);
	ik__run_result_free(&r);
}

/*
 * mem and iorun: bytes at workload.mem_mb_per_s (10000 MB/s here): 10 MB of mem is 1 ms of
 * the activation's run, 1 MB of iorun 0.1 ms.
 */
static void test_mem_iorun(void **state)
{
	(void)state;
	struct ik_run_result r;
	run_text("{\"tasks\":{\"t\":{\"loop\":1,\"mem\":10000000,\"iorun\":1000000}}}", 20, &r);
	assert_int_equal(r.requests->done, 1);
	within("mem + iorun run", r.requests->service.max, 1100 * US - 1 * US, 1100 * US + 1 * US);
	ik__run_result_free(&r);
}

/*
 * cpus is an affinity, as rt-app's pthread_setaffinity_np sets it: h holds CPU 3 for
 * 10 ms from 0; w (cpus [3, 4], starting on 3) sleeps 0.1 ms, then runs 1 ms: it wakes on
 * CPU 4, idle, and does not wait for h (its activation 1.1 ms and a wake-up, not 10 ms).
 * A phase without cpus takes the thread's (rt-app's order: phase, thread, any), as
 * upstream tutorial/example8.json says: phases on CPU 0, 1, then the thread's 2.
 */
static void test_cpus_affinity(void **state)
{
	(void)state;
	struct ik_run_result r, e8;
	run_text("{\"tasks\":{\"h\":{\"loop\":1,\"cpus\":[3],\"runtime\":10000},"
		 "\"w\":{\"loop\":1,\"cpus\":[3,4],\"sleep\":100,\"runtime\":1000}}}", 30, &r);
	show("affinity", &r);
	within("w's activation", r.requests->latency.min, 1100 * US, 1100 * US + 50 * US);
	within("CPU 4 busy (w)", r.cpu_busy_ns[4], 1000 * US, 1000 * US + 10 * US);
	run_text("{\"tasks\":{\"t\":{\"loop\":1,\"cpus\":[2],\"phases\":{\"p1\":{\"cpus\":[0],"
		 "\"runtime\":1500},\"p2\":{\"cpus\":[1],\"runtime\":1500},\"p3\":{\"runtime\":1500}}}}}",
		 20, &e8);
	for (int c = 0; c < 3; c++)
		within("example8: the phase's CPU busy", e8.cpu_busy_ns[c], 1500 * US, 1500 * US + 10 * US);
	ik__run_result_free(&r);
	ik__run_result_free(&e8);
}

/*
 * Timer slack: on a platform whose [os] timer_slack_ns is 50 us (amd-zen3's table with that
 * line), a SCHED_OTHER task's 1 ms timer fires 50 us late (its wake-up latency, counted
 * from the intended time as rt-app's wu_lat, is the slack and the CPU's exit); a SCHED_FIFO
 * task's fires on time (the kernel gives RT tasks no slack): 50 us less.
 */
static void test_rt_timers_have_no_slack(void **state)
{
	(void)state;
	char plat[] = "/tmp/ikrtplatXXXXXX", text[8192], err[IK_ERR_LEN];
	FILE *in = fopen("../platforms/amd-zen3.ini", "r");
	assert_non_null(in);
	size_t n = fread(text, 1, sizeof(text) - 64, in);
	fclose(in);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "\n[os]\ntimer_slack_ns = 50000\n");
	int fd = mkstemp(plat);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	int64_t wake[2];
	for (int rt = 0; rt < 2; rt++) {
		char json[256];
		snprintf(json, sizeof(json), "{\"tasks\":{\"t\":{\"loop\":20,\"cpus\":[0]%s,"
			 "\"runtime\":100,\"timer\":{\"ref\":\"t\",\"period\":1000}}}}",
			 rt ? ",\"policy\":\"SCHED_FIFO\"" : "");
		char *path = write_temp(json);
		snprintf(text, sizeof(text), "[scenario]\nname = rt\nplatform = %s\nduration_ms = 30\n"
			 "warmup_ms = 0\n[kernel]\nhousekeeping_hz = 0\n[workload]\ntype = rtapp\n"
			 "file = %s\n", plat, path);
		struct ik_scenario sc;
		struct ik_run_result r;
		if (ik__scenario_parse_string("rt.ini", text, NULL, 0, &sc, err, sizeof(err)) != 0)
			fail_msg("scenario: %s", err);
		if (ik__sim_run(&sc, 1, &r, err, sizeof(err)) != 0)
			fail_msg("sim: %s", err);
		unlink(path);
		wake[rt] = ik__hist_percentile(&r.requests->wake, 50);
		ik__run_result_free(&r);
	}
	unlink(plat);
	print_message("wake-up p50: OTHER %lld ns, FIFO %lld ns\n", (long long)wake[0],
		      (long long)wake[1]);
	assert_true(wake[1] < 50 * US);
	within("OTHER less FIFO: the slack", wake[0] - wake[1], 45 * US, 55 * US);
}

/*
 * Wake-up placement of an RT task that may run anywhere: f (FIFO 10) runs first on CPU 0
 * (phase p0), then may run on any CPU (p1) and sleeps 1 ms while o starts 5 ms of work on
 * CPU 0.  As select_task_rq_rt, f wakes where it ran when what runs there ranks lower:
 * o in SCHED_OTHER is preempted (its activation 5 + 1 ms) though other CPUs are idle.
 * When o is FIFO 50, f goes to the first idle CPU of the cache instead (find_lowest_rq):
 * o keeps its 5 ms and f's wake-up is that CPU's exit and a switch (1.1 us here: it was
 * polling), not o's 4 ms left.
 */
static void test_rt_wakeup_placement(void **state)
{
	(void)state;
	struct ik_run_result lower, higher;
	const char *fmt = "{\"tasks\":{\"f\":{\"loop\":1,\"policy\":\"SCHED_FIFO\",\"phases\":{"
		"\"p0\":{\"cpus\":[0],\"runtime\":10},\"p1\":{\"sleep\":1000,\"runtime\":1000}}},"
		"\"o\":{\"loop\":1,\"cpus\":[0],\"delay\":100%s,\"run\":5000}}}";
	char json[512];
	snprintf(json, sizeof(json), fmt, "");
	run_text(json, 20, &lower);
	snprintf(json, sizeof(json), fmt, ",\"policy\":\"SCHED_FIFO\",\"priority\":50");
	run_text(json, 20, &higher);
	show("o OTHER", &lower);
	show("o FIFO 50", &higher);
	within("o OTHER: o's activation", lower.requests->latency.max, 6 * MS, 6 * MS + 10 * US);
	assert_true(lower.requests->wake.max <= 2 * US);
	within("o FIFO 50: o's activation", higher.requests->latency.max, 5 * MS, 5 * MS + 10 * US);
	within("o FIFO 50: f's wake-up on another CPU", higher.requests->wake.max, 1 * US, 100 * US);
	ik__run_result_free(&lower);
	ik__run_result_free(&higher);
}

/*
 * A constrained deadline (Q 2 ms, D 5 ms, P 10 ms): runs 1 ms (0-1: 1 ms of runtime left),
 * sleeps 3 ms, runs 2 ms.  Woken at 4 its 1 ms left overruns the rate Q/D before its
 * deadline 5 (1/1 > 2/5), so the revised rule gives it 2/5 of the 1 ms left to 5 (0.4 ms,
 * deadline kept): it runs 4-4.4, is throttled until 10, runs 10-11.6: 11.6 ms.  With D = P
 * = 10 it keeps its 1 ms (1/6 <= 2/10): 4-5, then 10-11: 11 ms.  A plain replenishment
 * would give it 2 ms at 4 and end at 6.
 */
static void test_deadline_constrained(void **state)
{
	(void)state;
	struct ik_run_result c, i;
	const char *fmt = "{\"tasks\":{\"d\":{\"loop\":1,\"policy\":\"SCHED_DEADLINE\","
		"\"dl-runtime\":2000,\"dl-deadline\":%d,\"dl-period\":10000,\"run\":1000,"
		"\"sleep\":3000,\"run1\":2000}}}";
	char json[256];
	snprintf(json, sizeof(json), fmt, 5000);
	run_text(json, 40, &c);
	snprintf(json, sizeof(json), fmt, 10000);
	run_text(json, 40, &i);
	/* (+ the idle CPU's exits: after the sleep and the throttling, 30 us each at most) */
	within("constrained", c.requests->latency.max, 11600 * US, 11600 * US + 60 * US);
	within("implicit", i.requests->latency.max, 11 * MS, 11 * MS + 60 * US);
	ik__run_result_free(&c);
	ik__run_result_free(&i);
	/* D 3 ms: woken at 4, past its deadline and before its next period (10), it waits for
	   that period and runs 10-11 (its 1 ms): 11 ms, where D = P would run 4-5 (5 ms) */
	const char *late = "{\"tasks\":{\"d\":{\"loop\":1,\"policy\":\"SCHED_DEADLINE\","
		"\"dl-runtime\":2000,\"dl-deadline\":%d,\"dl-period\":10000,\"run\":1000,"
		"\"sleep\":3000,\"run1\":1000}}}";
	snprintf(json, sizeof(json), late, 3000);
	run_text(json, 40, &c);
	snprintf(json, sizeof(json), late, 10000);
	run_text(json, 40, &i);
	within("woken after its deadline", c.requests->latency.max, 11 * MS, 11 * MS + 60 * US);
	within("implicit", i.requests->latency.max, 5 * MS, 5 * MS + 60 * US);
	ik__run_result_free(&c);
	ik__run_result_free(&i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_preempts_other),
		cmocka_unit_test(test_fifo_priorities),
		cmocka_unit_test(test_rr_slices),
		cmocka_unit_test(test_deadline_runtime_per_period),
		cmocka_unit_test(test_deadline_cbs_wakeup),
		cmocka_unit_test(test_policy_refusals),
		cmocka_unit_test(test_taskgroup_noted),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_signal_and_broad),
		cmocka_unit_test(test_suspend_resume_delay),
		cmocka_unit_test(test_timer_modes),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_instances_loops_phases_cpus),
		cmocka_unit_test(test_mem_iorun),
		cmocka_unit_test(test_cpus_affinity),
		cmocka_unit_test(test_rt_timers_have_no_slack),
		cmocka_unit_test(test_rt_wakeup_placement),
		cmocka_unit_test(test_deadline_constrained),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
