/*
 * rt-app files: the parser (src/config/rtapp_json.c) and the workload that runs them, on
 * the project's three example files in tests/fixtures/rtapp/.
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
#include "config/rtapp_json.h"
#include "config/scenario.h"
#include "sim/sim.h"

/* Tests run in tests/. */
static void run_file(const char *file, const char *extra, struct ik_run_result *r)
{
	char text[512];
	struct ik_scenario sc;
	char err[IK_ERR_LEN];
	const char *ov[1] = { extra };

	snprintf(text, sizeof(text), "[scenario]\nname = rt\nplatform = amd-zen3\nduration_ms = 1900\n"
		 "warmup_ms = 100\n[workload]\ntype = rtapp\nfile = %s\n", file);
	if (ik__scenario_parse_string("rt.ini", text, ov, extra ? 1 : 0, &sc, err, sizeof(err)) != 0)
		fail_msg("scenario: %s", err);
	if (ik__sim_run(&sc, 1, r, err, sizeof(err)) != 0)
		fail_msg("sim: %s", err);
	assert_non_null(r->requests);
}

static int parse(const char *json, char *err, size_t errlen)
{
	struct ik_rtapp prog;
	int rc = ik__rtapp_parse("t.json", json, strlen(json), &prog, err, errlen);
	if (rc == 0)
		ik__rtapp_free(&prog);
	return rc;
}

/*
 * 4 threads, 1 ms of work every 10 ms on an absolute-per-use timer, for the file's 2 s:
 * the measured window 0.1-2.0 s holds 4 x 190 activations, each 10 ms long with 1 ms of run.
 */
static void test_periodic(void **state)
{
	(void)state;
	struct ik_run_result r;

	run_file("fixtures/rtapp/periodic.json", NULL, &r);
	const struct ik_request_stats *q = r.requests;
	assert_true(q->done >= 756 && q->done <= 764);
	assert_true(ik__hist_percentile(&q->latency, 50) > 9900000 &&
		    ik__hist_percentile(&q->latency, 50) < 10100000);
	assert_true(ik__hist_percentile(&q->service, 50) >= 990000 &&
		    ik__hist_percentile(&q->service, 50) < 1010000);
	/* every timer wake-up passes an idle exit: never free */
	assert_true(q->wake.count >= 756 && q->wake.min > 0);
	ik__run_result_free(&r);
}

/*
 * mp3: a 6 ms tick signals the output thread, which resumes the decoder: the three go
 * round once per tick, 1.9 s / 6 ms = 316 times each.
 */
static void test_mp3(void **state)
{
	(void)state;
	struct ik_run_result r;

	run_file("fixtures/rtapp/mp3.json", NULL, &r);
	const struct ik_request_stats *q = r.requests;
	print_message("mp3: %llu activations\n", (unsigned long long)q->done);
	assert_true(q->done >= 3 * 314 && q->done <= 3 * 318);
	/* the decoder's activation runs 800 us; the output's 150 us; the tick's none */
	assert_true(q->service.max >= 800000 && q->service.max < 850000);
	assert_int_equal(q->service.min, 0);
	ik__run_result_free(&r);
}

/*
 * browser: the main thread's 1.05 s cycle (load 50 ms, scroll 500 ms, idle 500 ms) puts
 * one load phase in the window (1.05-1.10 s): 20 broadcasts to the 3 workers, which meet at
 * their barrier each time (60 activations); the compositor's 114 frames; the main thread's
 * 20 + 30 + 5 + what falls in the window of the next cycle.
 */
static void test_browser(void **state)
{
	(void)state;
	struct ik_run_result a, b;

	run_file("fixtures/rtapp/browser.json", "workload.mem_mb_per_s=1000", &a);
	print_message("browser: %llu activations\n", (unsigned long long)a.requests->done);
	assert_true(a.requests->done >= 60 + 113 + 55 && a.requests->done <= 60 + 115 + 110);
	/* mem at a tenth of the rate: the 256 KiB write takes 2.6 ms instead of 262 us */
	run_file("fixtures/rtapp/browser.json", "workload.mem_mb_per_s=100", &b);
	assert_true(b.busy_ns > a.busy_ns + 30 * 2000000LL);
	ik__run_result_free(&a);
	ik__run_result_free(&b);
}

static void test_errors_name_the_json_path(void **state)
{
	(void)state;
	char err[512];
	struct ik_rtapp prog;

	assert_int_not_equal(ik__rtapp_load("fixtures/rtapp/bad_event.json", &prog, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "fixtures/rtapp/bad_event.json: tasks.thread0.phases.p1.foo:"));
	assert_non_null(strstr(err, "unknown event"));

	assert_int_not_equal(parse("{\"tasks\":{\"t\":{\"memrun\":1,\"run\":1}}}", err,
				   sizeof(err)), 0);
	assert_non_null(strstr(err, "tasks.t.memrun: rt-app's event 'memrun' is not modelled yet"));
	assert_int_not_equal(parse("{\"tasks\":{\"t\":{\"policy\":\"SCHED_NOPE\",\"run\":1}}}",
				   err, sizeof(err)), 0);
	assert_non_null(strstr(err, "tasks.t.policy: expected one of rt-app's policies"));
	assert_int_not_equal(parse("{\"tasks\":{\"t\":{\"exec\":5000,\"period\":5000}}}", err,
				   sizeof(err)), 0);
	assert_non_null(strstr(err, "tasks.t.exec: the pre-2015 rt-app format"));
	assert_int_not_equal(parse("{\"global\":{\"duration\":5}}", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "a fragment of an rt-app file (only \"global\")"));
	assert_int_not_equal(parse("{\"tasks\":{\"t\":{\"fork\":\"nobody\",\"run\":1}}}", err,
				   sizeof(err)), 0);
	assert_non_null(strstr(err, "tasks.t.fork: no thread named 'nobody'"));
	assert_int_not_equal(parse("{\"global\":{\"frequency\":1},\"tasks\":{\"t\":{\"run\":1}}}", err,
				   sizeof(err)), 0);
	assert_non_null(strstr(err, "global.frequency:"));
	assert_int_not_equal(parse("{\"tasks\":{\"t\":{\"phases\":{\"p\":{\"timer\":{\"ref\":\"x\"}}}}}}",
				   err, sizeof(err)), 0);
	assert_non_null(strstr(err, "tasks.t.phases.p.timer: a timer needs"));
	assert_int_not_equal(parse("{\"tasks\":{\"t\":{\"signal\":\"c\"}}}", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "loops forever"));
	assert_int_not_equal(parse("{\"tasks\":{\"t\":{\"run\":1}", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "t.json:1:"));

	/* the scenario fails with it, naming the file's key */
	struct ik_scenario sc;
	char serr[IK_ERR_LEN];
	const char *ov[] = { "workload.file=fixtures/rtapp/bad_event.json" };
	assert_int_not_equal(ik__scenario_parse_string("s.ini", "[scenario]\nname = s\nplatform = "
						      "amd-zen3\n[workload]\ntype = rtapp\n", ov, 1,
						      &sc, serr, sizeof(serr)), 0);
	assert_non_null(strstr(serr, "tasks.thread0.phases.p1.foo"));
}

/* run with an integer calibration is whole loops of it; the rest of the format as read. */
static void test_parse(void **state)
{
	(void)state;
	static const char json[] = "{\"global\":{\"calibration\":300,\"duration\":-1},"
				   "\"tasks\":{\"a\":{\"instance\":2,\"loop\":5,\"cpus\":[1,2],"
				   "\"phases\":{\"x\":{\"loop\":3,\"run0\":1000,\"sleep0\":10,"
				   "\"runtime\":7,\"run1\":1,\"timer\":{\"ref\":\"unique\",\"period\":100,"
				   "\"mode\":\"absolute\"}},\"y\":{\"cpus\":[3],\"barrier\":\"b\","
				   "\"suspend\":\"a\",\"yield\":\"\"}}},\"b\":{\"barrier\":\"b\",\"resume\":\"a\","
				   "\"run\":5}}}";
	struct ik_rtapp p;
	char err[512];

	assert_int_equal(ik__rtapp_parse("t.json", json, strlen(json), &p, err, sizeof(err)), 0);
	assert_int_equal(p.ntasks, 2);
	assert_int_equal(p.duration_ns, -1);
	assert_int_equal(p.tasks[0].instances, 2);
	assert_int_equal(p.tasks[0].loop, 5);
	assert_int_equal(p.tasks[0].ncpus, 2);
	assert_int_equal(p.tasks[0].nphases, 2);
	const struct ik_rtapp_phase *x = &p.phases[p.tasks[0].first_phase];
	assert_int_equal(x->loop, 3);
	assert_int_equal(x->nevents, 5);
	const struct ik_rtapp_event *e = &p.events[x->first_event];
	assert_int_equal(e[0].kind, IK_RTAPP_RUN);
	assert_int_equal(e[0].ns, 999900); /* 3333 loops of 300 ns */
	assert_int_equal(e[1].kind, IK_RTAPP_SLEEP);
	assert_int_equal(e[1].ns, 10000);
	assert_int_equal(e[2].kind, IK_RTAPP_RUNTIME);
	assert_int_equal(e[2].ns, 7000);
	assert_int_equal(e[3].ns, 900); /* 1 us is 3 loops */
	assert_int_equal(e[4].kind, IK_RTAPP_TIMER);
	assert_true(e[4].absolute);
	assert_true(p.res[e[4].res].unique);
	const struct ik_rtapp_phase *y = &p.phases[p.tasks[0].first_phase + 1];
	assert_int_equal(y->ncpus, 1);
	assert_int_equal(y->cpus[0], 3);
	const struct ik_rtapp_event *b = &p.events[y->first_event];
	assert_int_equal(b[0].kind, IK_RTAPP_BARRIER);
	assert_int_equal(p.res[b[0].res].users, 3); /* a's 2 instances and b */
	assert_int_equal(b[1].kind, IK_RTAPP_SUSPEND);
	assert_int_equal(b[2].kind, IK_RTAPP_YIELD);
	const struct ik_rtapp_event *r = &p.events[p.phases[p.tasks[1].first_phase].first_event];
	assert_int_equal(r[1].kind, IK_RTAPP_RESUME);
	assert_int_equal(r[1].res, 0);
	ik__rtapp_free(&p);
}

/* The file as rt-app and its workgen read it: notes say what was read otherwise. */
static struct ik_rtapp parsed(const char *json)
{
	struct ik_rtapp p;
	char err[512];
	if (ik__rtapp_parse("t.json", json, strlen(json), &p, err, sizeof(err)))
		fail_msg("%s", err);
	return p;
}

/*
 * rt-app's dialect: C comments and trailing commas (json-c takes them), repeated keys
 * numbered as workgen numbers them (one counter per object: run, run1, sleep, run2, sleep2),
 * a key with no value read as "", and the keys rt-app reads that are not modelled noted.
 */
static void test_dialect(void **state)
{
	(void)state;
	struct ik_rtapp p = parsed("{ /* a comment, with \"quotes\" and a { */\n"
				   "\"tasks\": { // and a line comment\n"
				   "\"t\": { \"priority\": -5, \"run\": 1, \"run\": 2, \"sleep\": 3,\n"
				   "  \"run\": 4, \"sleep\": 5, \"suspend\", \"run\": 6, },\n"
				   "\"u\": { \"policy\": \"SCHED_FIFO\", \"resume\": \"t\",\n"
				   "  \"resume\": \"nobody\", \"run\": 7, \"signal\": \"c // d\" } },\n"
				   "\"global\": { \"logdir\": \"/tmp\", \"frag\": 1, } }");
	const struct ik_rtapp_phase *t = &p.phases[p.tasks[0].first_phase];
	static const enum ik_rtapp_event_kind kinds[] = { IK_RTAPP_RUN, IK_RTAPP_RUN, IK_RTAPP_SLEEP,
							  IK_RTAPP_RUN, IK_RTAPP_SLEEP, IK_RTAPP_SUSPEND,
							  IK_RTAPP_RUN };
	assert_int_equal(t->nevents, 7);
	for (int i = 0; i < 7; i++)
		assert_int_equal(p.events[t->first_event + i].kind, kinds[i]);
	assert_int_equal(p.events[t->first_event + 3].ns, 4000); /* in file order */
	assert_int_equal(p.events[t->first_event + 6].ns, 6000);
	print_message("%s\n", p.notes);
	assert_non_null(strstr(p.notes, "5 repeated keys numbered in file order"));
	assert_non_null(strstr(p.notes, "1 key with no value"));
	assert_non_null(strstr(p.notes, "\"priority\" (nice, read by rt-app) is not modelled"));
	assert_null(strstr(p.notes, "SCHED_FIFO")); /* modelled: no note */
	assert_int_equal(p.tasks[1].sched.policy, IK_RTAPP_FIFO);
	assert_int_equal(p.tasks[1].sched.prio, 10); /* rt-app's default RT priority */
	assert_non_null(strstr(p.notes, "tasks.u.resume1 \"nobody\": no thread of that name suspends"));
	assert_non_null(strstr(p.notes, "global's logdir, frag"));
	const struct ik_rtapp_event *u = &p.events[p.phases[p.tasks[1].first_phase].first_event];
	assert_int_equal(u[0].kind, IK_RTAPP_RESUME);
	assert_int_equal(u[0].res, 0);
	assert_int_equal(u[1].res, -1); /* wakes none */
	ik__rtapp_free(&p);
}

/* A short run of a JSON text on amd-zen3 from time 0, all of it measured. */
static void run_text(const char *json, int64_t ms, struct ik_run_result *r)
{
	char path[] = "/tmp/ikrtappXXXXXX", text[512], err[IK_ERR_LEN];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
	close(fd);
	snprintf(text, sizeof(text), "[scenario]\nname = rt\nplatform = amd-zen3\nduration_ms = "
		 "%lld\nwarmup_ms = 0\n[kernel]\nhousekeeping_hz = 0\n[workload]\ntype = rtapp\n"
		 "file = %s\n", (long long)ms, path);
	struct ik_scenario sc;
	if (ik__scenario_parse_string("rt.ini", text, NULL, 0, &sc, err, sizeof(err)) != 0)
		fail_msg("scenario: %s", err);
	if (ik__sim_run(&sc, 1, r, err, sizeof(err)) != 0)
		fail_msg("sim: %s", err);
	unlink(path);
	assert_non_null(r->requests);
}

/*
 * A mutex (lock, unlock) held 2 ms by one thread delays the other's phase by as much:
 * a takes m at 0 and runs 2 ms; b starts 0.1 ms later on another CPU, waits for m, gets it
 * at 2 ms and runs 10 us.  Both activations last about 2 ms (b's 1.91 ms); without the
 * mutex b's would last 10 us.
 */
static void test_mutex(void **state)
{
	(void)state;
	struct ik_run_result r;
	run_text("{\"tasks\":{\"a\":{\"loop\":1,\"lock\":\"m\",\"runtime\":2000,\"unlock\":\"m\"},"
		 "\"b\":{\"loop\":1,\"delay\":100,\"lock\":\"m\",\"runtime\":10,\"unlock\":\"m\"}}}",
		 20, &r);
	const struct ik_request_stats *q = r.requests;
	print_message("activations %llu, periods %lld..%lld ns\n", (unsigned long long)q->done,
		      (long long)q->latency.min, (long long)q->latency.max);
	assert_int_equal(q->done, 2);
	assert_true(q->latency.min >= 1850000 && q->latency.min <= 2000000);
	assert_true(q->latency.max >= 2000000 && q->latency.max <= 2100000);
	ik__run_result_free(&r);
}

/*
 * wait with a mutex gives it up while waiting (pthread_cond_wait): a takes m and waits on
 * c; b takes m (free again), runs 1 ms, signals c and unlocks; a then has m back and ends.
 * a's activation lasts b's start (0.1 ms) and run (1 ms); had a kept m, b would never get
 * it and neither would end.  sync signals and waits at once: d's sync wakes e's wait.
 */
static void test_wait_gives_up_its_mutex(void **state)
{
	(void)state;
	struct ik_run_result r;
	run_text("{\"tasks\":{\"a\":{\"loop\":1,\"lock\":\"m\",\"wait\":{\"ref\":\"c\",\"mutex\":\"m\"},"
		 "\"unlock\":\"m\"},\"b\":{\"loop\":1,\"delay\":100,\"lock\":\"m\",\"runtime\":1000,"
		 "\"signal\":\"c\",\"unlock\":\"m\"}}}", 20, &r);
	const struct ik_request_stats *q = r.requests;
	assert_int_equal(q->done, 2);
	assert_true(q->latency.max >= 1100000 && q->latency.max <= 1200000);
	ik__run_result_free(&r);

	run_text("{\"tasks\":{\"e\":{\"loop\":1,\"wait\":{\"ref\":\"c\",\"mutex\":\"m\"}},"
		 "\"d\":{\"loop\":1,\"delay\":500,\"sync\":{\"ref\":\"c\",\"mutex\":\"m\"}},"
		 "\"f\":{\"loop\":1,\"delay\":1000,\"signal\":\"c\"}}}", 20, &r);
	q = r.requests;
	assert_int_equal(q->done, 3); /* e woken by d's sync at 0.5 ms, d by f at 1 ms */
	assert_true(q->latency.max >= 500000 && q->latency.max <= 600000);
	ik__run_result_free(&r);
}

/*
 * fork starts one more instance of a thread: u (instance 0) runs only when t forks it,
 * once per t's loop; t loops twice, so u's phase runs twice and t's twice: 4 activations.
 */
static void test_fork(void **state)
{
	(void)state;
	struct ik_run_result r;
	run_text("{\"tasks\":{\"t\":{\"loop\":2,\"fork\":\"u\",\"runtime\":100,\"sleep\":1000},"
		 "\"u\":{\"instance\":0,\"loop\":1,\"runtime\":50}}}", 20, &r);
	assert_int_equal(r.requests->done, 4);
	ik__run_result_free(&r);
}

static void test_deterministic(void **state)
{
	(void)state;
	struct ik_run_result a, b;

	run_file("fixtures/rtapp/mp3.json", NULL, &a);
	run_file("fixtures/rtapp/mp3.json", NULL, &b);
	assert_int_equal(a.requests->done, b.requests->done);
	assert_true(a.requests->wake.sum == b.requests->wake.sum);
	assert_int_equal(a.idle_entries, b.idle_entries);
	ik__run_result_free(&a);
	ik__run_result_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periodic),
		cmocka_unit_test(test_mp3),
		cmocka_unit_test(test_browser),
		cmocka_unit_test(test_errors_name_the_json_path),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_dialect),
		cmocka_unit_test(test_mutex),
		cmocka_unit_test(test_wait_gives_up_its_mutex),
		cmocka_unit_test(test_fork),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
