/*
 * `idlekit record`'s spool and conversion (src/trace/record_spool.c), without tracefs: the
 * kernel's events as the recording hands them over, per CPU in time order, come out merged
 * by time (ties by CPU number, then in their CPU's order) and converted: the first
 * interrupt of an idle period is its wake, a timer's expiry in one is a wake (tick or
 * timer) before the expiry, an exit before any entry and an entry into a state outside the
 * table are dropped.  Enough records to go through the spool's file; the file in the folder
 * given; a spool refused for a folder that takes no file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/record_spool.h"

static void header(struct ik_trace_header *h, int cpus)
{
	struct ik_driver drv;
	char err[256];
	memset(&drv, 0, sizeof(drv));
	snprintf(drv.name, sizeof(drv.name), "test");
	drv.state_count = 3;
	for (int s = 0; s < 3; s++) {
		snprintf(drv.states[s].name, sizeof(drv.states[s].name), "C%d", s);
		drv.states[s].exit_latency = (uint32_t)(10 * s);
		drv.states[s].target_residency = (uint32_t)(30 * s);
	}
	drv.states[0].flags = IK_FLAG_POLLING;
	assert_int_equal(ik_driver_init(&drv, err, sizeof(err)), 0);
	assert_int_equal(ik_trace_header_init(h, 250, cpus, &drv), 0);
	h->minor = 1;
}

static void add(struct ik_record_spool *sp, int64_t t, int cpu, int kind, int64_t arg,
		int64_t arg2, uint64_t id)
{
	struct ik_trace_import_rec r = { .t_ns = t, .cpu = cpu, .kind = kind, .arg = arg,
					 .arg2 = arg2, .id = id };
	assert_int_equal(ik_record_spool_add(sp, &r), 0);
}

static char *text_of(void (*fn)(FILE *, void *), void *arg, size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);
	assert_non_null(m);
	fn(m, arg);
	assert_int_equal(fclose(m), 0);
	return buf;
}

struct expect {
	const struct ik_trace_header *h;
	const struct ik_trace_event *ev;
	int n;
};

static void write_expected(FILE *out, void *arg)
{
	const struct expect *e = arg;
	assert_int_equal(ik_trace_write_header(out, e->h), 0);
	for (int i = 0; i < e->n; i++)
		assert_int_equal(ik_trace_write_event(out, &e->ev[i]), 0);
}

struct written {
	struct ik_record_spool *sp;
	const struct ik_trace_header *h;
	uint64_t nev;
};

static void write_spool(FILE *out, void *arg)
{
	struct written *w = arg;
	assert_int_equal(ik_record_spool_write(w->sp, out, w->h, true, &w->nev), 0);
}

static void test_convert(void **state)
{
	(void)state;
	struct ik_trace_header h;
	struct ik_record_spool sp;
	char err[512];
	header(&h, 2);
	assert_int_equal(ik_record_spool_open(&sp, "/tmp", ".idlekit-test-spool", 2, err,
					      sizeof(err)), 0);
	/* CPU 1's records first, then CPU 0's: the merge puts them in order */
	add(&sp, 90, 1, IK_IMPORT_IDLE, -1, -1, 0);      /* exit before any entry: dropped */
	add(&sp, 100, 1, IK_IMPORT_IDLE, 2, -1, 0);
	add(&sp, 200, 1, IK_IMPORT_TICK, -1, -1, 0x77);  /* wake tick, then the expiry */
	add(&sp, 210, 1, IK_IMPORT_IDLE, -1, -1, 0);
	add(&sp, 220, 1, IK_IMPORT_IDLE, -1, -1, 0);     /* a second exit: dropped */
	add(&sp, 100, 0, IK_IMPORT_IDLE, 1, -1, 0);      /* at CPU 1's time: before it */
	add(&sp, 150, 0, IK_IMPORT_IRQ, 5, -1, 0);       /* wake irq 5 */
	add(&sp, 160, 0, IK_IMPORT_IPI, -1, -1, 0);      /* not the first: dropped */
	add(&sp, 170, 0, IK_IMPORT_IDLE, -1, -1, 0);
	add(&sp, 180, 0, IK_IMPORT_TSTART, -5, -1, 0x42); /* expires < 0 is written as 0 */
	add(&sp, 190, 0, IK_IMPORT_IDLE, 7, -1, 0);      /* not in the table: dropped */
	add(&sp, 200, 0, IK_IMPORT_TCANCEL, -1, -1, 0x42);
	add(&sp, 200, 0, IK_IMPORT_WAKING, 1234, 1, 0);  /* task_wake on CPU 1 from CPU 0 */
	assert_int_equal(ik_record_spool_flush(&sp), 0);
	assert_int_equal(ik_record_spool_events(&sp), 13);

	struct ik_trace_event want[9] = {
		{ .t_ns = 100, .cpu = 0, .kind = IK_TRACE_IDLE_ENTER, .state = 1, .arg = -1 },
		{ .t_ns = 100, .cpu = 1, .kind = IK_TRACE_IDLE_ENTER, .state = 2, .arg = -1 },
		{ .t_ns = 150, .cpu = 0, .kind = IK_TRACE_WAKE, .cause = IK_CAUSE_IRQ, .arg = 5 },
		{ .t_ns = 170, .cpu = 0, .kind = IK_TRACE_IDLE_EXIT, .arg = -1 },
		{ .t_ns = 180, .cpu = 0, .kind = IK_TRACE_TIMER_START, .arg = 0, .timer_id = 0x42 },
		{ .t_ns = 200, .cpu = 0, .kind = IK_TRACE_TIMER_CANCEL, .arg = -1, .timer_id = 0x42 },
		{ 0 }, /* the task_wake, as ik_trace_sched_event makes it */
		{ .t_ns = 200, .cpu = 1, .kind = IK_TRACE_WAKE, .cause = IK_CAUSE_TICK, .arg = -1 },
		{ .t_ns = 200, .cpu = 1, .kind = IK_TRACE_TIMER_EXPIRE, .arg = -1, .timer_id = 0x77 },
	};
	want[6] = (struct ik_trace_event){ .t_ns = 200, .cpu = 0, .arg = -1 };
	assert_true(ik_trace_sched_event(IK_IMPORT_WAKING, 0, 1234, 1, true, 2, &want[6]));
	/* the idle exit at 210 closes the list */
	struct ik_trace_event all[10];
	memcpy(all, want, sizeof(want));
	all[9] = (struct ik_trace_event){ .t_ns = 210, .cpu = 1, .kind = IK_TRACE_IDLE_EXIT,
					  .arg = -1 };
	struct expect e = { &h, all, 10 };
	struct written w = { &sp, &h, 0 };
	size_t elen, glen;
	char *expected = text_of(write_expected, &e, &elen);
	char *got = text_of(write_spool, &w, &glen);
	assert_string_equal(got, expected);
	assert_int_equal(w.nev, 10);
	free(expected);
	free(got);
	ik_record_spool_close(&sp);
	ik_trace_header_free(&h);
}

/* Many records per CPU (through the spool's file): every one out, in time order. */
static void test_many(void **state)
{
	(void)state;
	enum { CPUS = 3, PER_CPU = 5000 };
	struct ik_trace_header h;
	struct ik_record_spool sp;
	char err[512];
	header(&h, CPUS);
	assert_int_equal(ik_record_spool_open(&sp, ".", ".idlekit-test-spool", CPUS, err,
					      sizeof(err)), 0);
	for (int i = 0; i < PER_CPU; i++)
		for (int c = CPUS - 1; c >= 0; c--) /* timer starts: each one is written */
			add(&sp, (int64_t)i * (c + 1), c, IK_IMPORT_TSTART, i, -1, (uint64_t)c + 1);
	assert_non_null(sp.spill.f); /* made at open, in the folder given */
	struct written w = { &sp, &h, 0 };
	size_t len;
	char *got = text_of(write_spool, &w, &len);
	assert_int_equal(w.nev, CPUS * PER_CPU);
	struct ik_trace_reader *r;
	assert_int_equal(ik_trace_open_mem(got, len, "spool", false, &r, err, sizeof(err)), IK_TRACE_OK);
	struct ik_trace_event ev;
	int64_t last = -1;
	int n = 0, rc;
	while ((rc = ik_trace_next(r, &ev, err, sizeof(err))) == IK_TRACE_OK) {
		assert_true(ev.t_ns >= last);
		last = ev.t_ns;
		n++;
	}
	assert_int_equal(rc, IK_TRACE_EOF);
	assert_int_equal(n, CPUS * PER_CPU);
	ik_trace_close(r);
	free(got);
	ik_record_spool_close(&sp);
	ik_trace_header_free(&h);
}

static void test_no_folder(void **state)
{
	(void)state;
	struct ik_record_spool sp;
	char err[512];
	assert_int_equal(ik_record_spool_open(&sp, "/nonexistent-idlekit-folder", ".x", 2, err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent-idlekit-folder: cannot create a temporary file"));
	assert_int_equal(ik_record_spool_open(&sp, "/tmp", ".x", 0, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_no_folder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
