/*
 * Several traces replayed on a pool of threads (src/trace/replay_batch.c) with their
 * reports (src/report/replay_batch_out.c): the same bytes for any number of threads, each
 * trace's report as it is alone, and the first bad trace (with every trace before it
 * replayed, none after it reported) the same for any number of threads.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/replay_batch_out.h"
#include "trace/format.h"
#include "trace/replay_batch.h"

/* One CPU, three idle periods; the second trace the same 1 ms later and 3 periods more. */
static const char good_a[] =
	"idlekit-trace 1\nhz 250\ncpus 1\ndriver rec 0\nstate C1 2 2 0x0\nstate C6 100 400 0x0\nevents\n"
	"0 0 idle_enter 1\n1000000 0 wake irq 9\n1100000 0 idle_exit\n"
	"1150000 0 idle_enter 0\n1200000 0 wake irq 9\n1202000 0 idle_exit\n"
	"1250000 0 idle_enter 1\n2000000 0 wake irq 9\n2100000 0 idle_exit\n";
static const char good_b[] =
	"idlekit-trace 1\nhz 250\ncpus 1\ndriver rec 0\nstate C1 2 2 0x0\nstate C6 100 400 0x0\nevents\n"
	"1000000 0 idle_enter 1\n1500000 0 wake irq 9\n1600000 0 idle_exit\n"
	"1700000 0 idle_enter 1\n3000000 0 wake irq 9\n3100000 0 idle_exit\n"
	"3150000 0 idle_enter 0\n3160000 0 wake irq 9\n3170000 0 idle_exit\n"
	"4000000 0 idle_enter 1\n9000000 0 wake irq 9\n9100000 0 idle_exit\n";
/* its header is fine; its events are not (an exit without an entry) */
static const char bad[] =
	"idlekit-trace 1\nhz 250\ncpus 1\ndriver rec 0\nstate C1 2 2 0x0\nevents\n"
	"5 0 idle_exit\n";

struct run {
	int fail;
	int rc[4];
	char *bytes;   /* every report, as the command writes them */
	size_t len;
	char *reports[4]; /* each trace's own */
};

/* Replay texts[0..n-1] (named names[i]) under menu and teo on intel-skx, JSON reports, on
   `threads`. */
static void replay_set(const char *const *texts, const char *const *names, int n, int threads,
		       struct run *out)
{
	static struct ik_kernel kernel;
	ik_kernel_init(&kernel, IK_KERNEL_DEFAULT_RELEASE);
	struct ik_replay_batch_out o = { .json = true };
	struct ik_replay_batch b = { .seed = 1, .kernel = &kernel,
				     .report = ik__report_replay_batch_one, .user = &o };
	char err[IK_REPLAY_BATCH_ERR_LEN];
	ik_haltpoll_params_default(&b.haltpoll);
	assert_int_equal(ik__replay_batch_governors(&b, "menu,teo", err, sizeof(err)), 0);
	assert_int_equal(b.ngov, 2);
	assert_int_equal(ik__replay_batch_open(&b, "intel-skx", err, sizeof(err)), 0);
	struct ik_replay_batch_trace t[4];
	o.v = calloc((size_t)n, sizeof(*o.v));
	assert_non_null(o.v);
	memset(t, 0, sizeof(t));
	for (int i = 0; i < n; i++) {
		t[i].origin = names[i];
		assert_int_equal(ik__trace_open_mem(texts[i], strlen(texts[i]), t[i].origin, false,
						   &t[i].r, err, sizeof(err)), 0);
	}
	memset(out, 0, sizeof(*out));
	out->fail = ik__replay_batch_run(&b, t, n, threads);
	for (int i = 0; i < n; i++) {
		out->rc[i] = t[i].rc;
		if (o.v[i].out)
			out->reports[i] = strndup(o.v[i].out, o.v[i].outlen);
		ik__trace_close(t[i].r);
	}
	if (out->fail == n) {
		FILE *f = open_memstream(&out->bytes, &out->len);
		assert_non_null(f);
		assert_int_equal(ik__report_replay_batch_write(f, &o, n), 0);
		fclose(f);
	}
	ik__report_replay_batch_free(&o, n);
	ik__replay_batch_close(&b);
}

static void run_free(struct run *r)
{
	free(r->bytes);
	for (int i = 0; i < 4; i++)
		free(r->reports[i]);
}

static void test_same_for_any_threads(void **state)
{
	(void)state;
	const char *const set[] = { good_a, good_b, good_a };
	const char *const names[] = { "a", "b", "a2" };
	struct run one, two, alone;
	replay_set(set, names, 3, 1, &one);
	assert_int_equal(one.fail, 3);
	assert_non_null(strstr(one.bytes, "\"schema\": \"idlekit.replays/1\""));
	for (int threads = 2; threads <= 4; threads++) {
		replay_set(set, names, 3, threads, &two);
		assert_int_equal(two.fail, 3);
		assert_int_equal(two.len, one.len);
		assert_memory_equal(two.bytes, one.bytes, one.len);
		run_free(&two);
	}
	/* trace b's report is what b replayed alone gives */
	replay_set(&set[1], &names[1], 1, 1, &alone);
	assert_string_equal(alone.reports[0], one.reports[1]);
	/* one trace: its report alone, not wrapped */
	assert_int_equal(alone.len, strlen(alone.reports[0]));
	run_free(&alone);
	run_free(&one);
}

static void test_first_failure(void **state)
{
	(void)state;
	/* the bad trace second: the first replayed and reported, the bad one failed, nothing
	   written (the third may have been replayed beside them, but is not shown) */
	const char *const set[] = { good_a, bad, good_b };
	const char *const names[] = { "a", "bad", "b" };
	for (int threads = 1; threads <= 3; threads++) {
		struct run r;
		replay_set(set, names, 3, threads, &r);
		assert_int_equal(r.fail, 1);
		assert_int_equal(r.rc[0], 0);
		assert_non_null(r.reports[0]);
		assert_int_equal(r.rc[1], IK_TRACE_EINPUT);
		assert_null(r.reports[1]);
		assert_null(r.bytes);
		run_free(&r);
	}
}

static void test_governor_list(void **state)
{
	(void)state;
	struct ik_replay_batch b;
	char err[IK_REPLAY_BATCH_ERR_LEN];
	memset(&b, 0, sizeof(b));
	assert_int_equal(ik__replay_batch_governors(&b, "menu,teo,ladder", err, sizeof(err)), 0);
	assert_int_equal(b.ngov, 3);
	assert_string_equal(b.specs[2], "ladder");
	assert_int_equal(ik__replay_batch_governors(&b, "menu,menu", err, sizeof(err)), -1);
	assert_string_equal(err, "'menu' given twice");
	assert_int_equal(ik__replay_batch_governors(&b, "menu,,teo", err, sizeof(err)), -1);
	assert_string_equal(err, "expected NAME[,NAME...], got 'menu,,teo'");
	assert_int_equal(ik__replay_batch_governors(&b, "nosuch", err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_for_any_threads),
		cmocka_unit_test(test_first_failure),
		cmocka_unit_test(test_governor_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
