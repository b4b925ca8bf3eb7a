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

#include "trace/import.h"
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
	assert_int_equal(ik__trace_header_init(h, 250, cpus, &drv), 0);
	h->minor = 1;
}

static void add(struct ik_record_spool *sp, int64_t t, int cpu, int kind, int64_t arg,
		int64_t arg2, uint64_t id)
{
	struct ik_trace_import_rec r = { .t_ns = t, .cpu = cpu, .kind = kind, .arg = arg,
					 .arg2 = arg2, .id = id };
	assert_int_equal(ik__record_spool_add(sp, &r), 0);
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
	assert_int_equal(ik__trace_write_header(out, e->h), 0);
	for (int i = 0; i < e->n; i++)
		assert_int_equal(ik__trace_write_event(out, &e->ev[i]), 0);
}

struct written {
	struct ik_record_spool *sp;
	const struct ik_trace_header *h;
	uint64_t nev;
};

static void write_spool(FILE *out, void *arg)
{
	struct written *w = arg;
	assert_int_equal(ik__record_spool_write(w->sp, out, w->h, true, &w->nev), 0);
}

static void test_convert(void **state)
{
	(void)state;
	struct ik_trace_header h;
	struct ik_record_spool sp;
	char err[512];
	header(&h, 2);
	assert_int_equal(ik__record_spool_open(&sp, "/tmp", ".idlekit-test-spool", 2, err,
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
	assert_int_equal(ik__record_spool_flush(&sp), 0);
	assert_int_equal(ik__record_spool_events(&sp), 13);

	struct ik_trace_event want[9] = {
		{ .t_ns = 100, .cpu = 0, .kind = IK_TRACE_IDLE_ENTER, .state = 1, .arg = -1 },
		{ .t_ns = 100, .cpu = 1, .kind = IK_TRACE_IDLE_ENTER, .state = 2, .arg = -1 },
		{ .t_ns = 150, .cpu = 0, .kind = IK_TRACE_WAKE, .cause = IK_CAUSE_IRQ, .arg = 5 },
		{ .t_ns = 170, .cpu = 0, .kind = IK_TRACE_IDLE_EXIT, .arg = -1 },
		{ .t_ns = 180, .cpu = 0, .kind = IK_TRACE_TIMER_START, .arg = 0, .timer_id = 0x42 },
		{ .t_ns = 200, .cpu = 0, .kind = IK_TRACE_TIMER_CANCEL, .arg = -1, .timer_id = 0x42 },
		{ 0 }, /* the task_wake, as ik__trace_sched_event makes it */
		{ .t_ns = 200, .cpu = 1, .kind = IK_TRACE_WAKE, .cause = IK_CAUSE_TICK, .arg = -1 },
		{ .t_ns = 200, .cpu = 1, .kind = IK_TRACE_TIMER_EXPIRE, .arg = -1, .timer_id = 0x77 },
	};
	want[6] = (struct ik_trace_event){ .t_ns = 200, .cpu = 0, .arg = -1 };
	assert_true(ik__trace_sched_event(IK_IMPORT_WAKING, 0, 1234, 1, true, 2, &want[6]));
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
	ik__record_spool_close(&sp);
	ik__trace_header_free(&h);
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
	assert_int_equal(ik__record_spool_open(&sp, ".", ".idlekit-test-spool", CPUS, err,
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
	assert_int_equal(ik__trace_open_mem(got, len, "spool", false, &r, err, sizeof(err)), IK_TRACE_OK);
	struct ik_trace_event ev;
	int64_t last = -1;
	int n = 0, rc;
	while ((rc = ik__trace_next(r, &ev, err, sizeof(err))) == IK_TRACE_OK) {
		assert_true(ev.t_ns >= last);
		last = ev.t_ns;
		n++;
	}
	assert_int_equal(rc, IK_TRACE_EOF);
	assert_int_equal(n, CPUS * PER_CPU);
	ik__trace_close(r);
	free(got);
	ik__record_spool_close(&sp);
	ik__trace_header_free(&h);
}

/* Where the text after the header's "events" line starts. */
static size_t events_at(const char *trace)
{
	const char *at = strstr(trace, "\nevents\n");
	assert_non_null(at);
	return (size_t)(at - trace) + 8;
}

/*
 * One rule for record and import: the same kernel events through record's spool and
 * through import's records entry point (what trace.dat and the text formats feed) give the
 * same events.  Among them: an IPI sent by CPU 1 to idle CPU 0 with no handler event (the
 * period's cause, its sender named), a sched_wakeup traced on the wakee in that period
 * (the sender's), a tick right after an exit (the cause, inside the window), a tick while
 * busy (not), a cpumask send to two idle CPUs, a timer's expiry.
 */
static void test_same_as_import(void **state)
{
	(void)state;
	static const struct ik_trace_import_rec v[] = {
		{ .t_ns = 1000, .cpu = 0, .kind = IK_IMPORT_IDLE, .arg = 1, .arg2 = -1 },
		{ .t_ns = 1100, .cpu = 2, .kind = IK_IMPORT_IDLE, .arg = 2, .arg2 = -1 },
		{ .t_ns = 1200, .cpu = 3, .kind = IK_IMPORT_IDLE, .arg = 2, .arg2 = -1 },
		{ .t_ns = 2000, .cpu = 1, .kind = IK_IMPORT_IPI_SEND, .arg = 0, .arg2 = -1 },
		{ .t_ns = 2003, .cpu = 0, .kind = IK_IMPORT_IDLE, .arg = -1, .arg2 = -1 },
		{ .t_ns = 2005, .cpu = 0, .kind = IK_IMPORT_WAKEUP, .arg = 300, .arg2 = 0 },
		{ .t_ns = 2006, .cpu = 0, .kind = IK_IMPORT_SWITCH, .arg = 0, .arg2 = 300 },
		{ .t_ns = 3000, .cpu = 1, .kind = IK_IMPORT_IPI_SEND, .arg = 2, .arg2 = -1 },
		{ .t_ns = 3000, .cpu = 1, .kind = IK_IMPORT_IPI_SEND, .arg = 3, .arg2 = -1 },
		{ .t_ns = 3004, .cpu = 2, .kind = IK_IMPORT_IDLE, .arg = -1, .arg2 = -1 },
		{ .t_ns = 3005, .cpu = 2, .kind = IK_IMPORT_IPI, .arg = -1, .arg2 = -1 },
		{ .t_ns = 3006, .cpu = 3, .kind = IK_IMPORT_IDLE, .arg = -1, .arg2 = -1 },
		{ .t_ns = 4000, .cpu = 0, .kind = IK_IMPORT_SWITCH, .arg = 300, .arg2 = 0 },
		{ .t_ns = 4010, .cpu = 0, .kind = IK_IMPORT_IDLE, .arg = 1, .arg2 = -1 },
		{ .t_ns = 5000, .cpu = 0, .kind = IK_IMPORT_IDLE, .arg = -1, .arg2 = -1 },
		{ .t_ns = 5010, .cpu = 0, .kind = IK_IMPORT_TICK, .arg = -1, .arg2 = -1, .id = 9 },
		{ .t_ns = 6000, .cpu = 0, .kind = IK_IMPORT_SWITCH, .arg = 0, .arg2 = 301 },
		{ .t_ns = 6100, .cpu = 0, .kind = IK_IMPORT_TICK, .arg = -1, .arg2 = -1, .id = 9 },
		{ .t_ns = 7000, .cpu = 0, .kind = IK_IMPORT_TSTART, .arg = 9000, .arg2 = -1, .id = 5 },
		{ .t_ns = 7100, .cpu = 0, .kind = IK_IMPORT_IDLE, .arg = 2, .arg2 = -1 },
		{ .t_ns = 9000, .cpu = 0, .kind = IK_IMPORT_TIMER, .arg = -1, .arg2 = -1, .id = 5 },
		{ .t_ns = 9002, .cpu = 0, .kind = IK_IMPORT_IDLE, .arg = -1, .arg2 = -1 },
	};
	enum { N = sizeof(v) / sizeof(v[0]) };
	struct ik_trace_header h;
	struct ik_record_spool sp;
	char err[512];
	header(&h, 4);
	assert_int_equal(ik__record_spool_open(&sp, "/tmp", ".idlekit-test-spool", 4, err,
					      sizeof(err)), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(ik__record_spool_add(&sp, &v[i]), 0);
	size_t rlen, ilen;
	char *recorded = NULL;
	FILE *rout = open_memstream(&recorded, &rlen);
	uint64_t nev = 0;
	assert_non_null(rout);
	assert_int_equal(ik__record_spool_write(&sp, rout, &h, false, &nev), 0);
	assert_int_equal(fclose(rout), 0);

	struct ik_trace_import_rec copy[N];
	memcpy(copy, v, sizeof(copy));
	char *imported = NULL;
	FILE *out = open_memstream(&imported, &ilen);
	struct ik_trace_import_opts o = { .drv = &h.drivers[0].drv, .hz = 250, .clock_mono = true };
	struct ik_trace_import_stats st = { 0 };
	assert_int_equal(ik__trace_import_records(copy, N, "records", out, &o, &st, err,
						 sizeof(err)), IK_TRACE_OK);
	assert_int_equal(fclose(out), 0);
	print_message("%s", recorded + events_at(recorded));
	assert_string_equal(recorded + events_at(recorded), imported + events_at(imported));
	/* and the causes are the rule's */
	assert_non_null(strstr(recorded, "\n2000 0 wake ipi 1\n"));
	assert_non_null(strstr(recorded, "\n2005 0 task_wake 1 300\n"));
	assert_non_null(strstr(recorded, "\n3000 2 wake ipi 1\n3000 3 wake ipi 1\n"));
	assert_non_null(strstr(recorded, "\n5010 0 wake tick\n"));
	assert_null(strstr(recorded, "\n6100 0 wake"));
	assert_non_null(strstr(recorded, "\n9000 0 wake timer\n"));
	assert_int_equal(st.ipi_send_causes, 3);
	free(recorded);
	free(imported);
	ik__record_spool_close(&sp);
	ik__trace_header_free(&h);
}

static void test_no_folder(void **state)
{
	(void)state;
	struct ik_record_spool sp;
	char err[512];
	assert_int_equal(ik__record_spool_open(&sp, "/nonexistent-idlekit-folder", ".x", 2, err,
					      sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent-idlekit-folder: cannot create a temporary file"));
	assert_int_equal(ik__record_spool_open(&sp, "/tmp", ".x", 0, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_convert),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_no_folder),
		cmocka_unit_test(test_same_as_import),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
