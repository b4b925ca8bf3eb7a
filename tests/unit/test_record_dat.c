/*
 * One rule for record and import, on real recordings: the events of committed trace.dat
 * files (tests/fixtures/traces/, README) read by libtracecmd and converted once
 * (src/trace/import_tep.c, what `idlekit record` does with tracefs's events), then written
 * both through record's spool (per-CPU streams merged by time, src/trace/record_spool.c)
 * and through import's records entry point (what `idlekit import trace-dat` does): the two
 * traces' events must be the same, byte for byte, and carry wake causes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/import.h"
#include "trace/import_tep.h"
#include "trace/record_spool.h"

#ifdef IDLEKIT_HAVE_TRACECMD
#include <trace-cmd.h>

struct both {
	struct ik_record_spool sp;
	struct ik_trace_import_rec *v;
	size_t n, cap;
	struct ik_tep_conv conv;
	int maxcpu, maxstate;
	bool waking;
};

static int to_both(void *ctx, const struct ik_trace_import_rec *r)
{
	struct both *b = ctx;
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 4096;
		b->v = realloc(b->v, b->cap * sizeof(*b->v));
		assert_non_null(b->v);
	}
	b->v[b->n++] = *r;
	if (r->cpu > b->maxcpu)
		b->maxcpu = r->cpu;
	if (r->kind == IK_IMPORT_IDLE && r->arg > b->maxstate)
		b->maxstate = (int)r->arg;
	b->waking |= r->kind == IK_IMPORT_WAKING;
	return 0;
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *ctx)
{
	struct both *b = ctx;
	struct tep_handle *tep = tracecmd_get_tep(handle);
	b->conv.tep = tep;
	return ik__tep_conv_event(&b->conv, tep_find_event_by_record(tep, rec), rec, cpu);
}

static void table(struct ik_trace_header *h, int cpus, int states)
{
	struct ik_driver drv;
	char err[256];
	memset(&drv, 0, sizeof(drv));
	snprintf(drv.name, sizeof(drv.name), "test");
	drv.state_count = states;
	for (int s = 0; s < states; s++) {
		snprintf(drv.states[s].name, sizeof(drv.states[s].name), "S%d", s);
		drv.states[s].exit_latency = (uint32_t)(10 * s);
		drv.states[s].target_residency = (uint32_t)(30 * s);
	}
	drv.states[0].flags = IK_FLAG_POLLING;
	assert_int_equal(ik_driver_init(&drv, err, sizeof(err)), 0);
	assert_int_equal(ik__trace_header_init(h, 250, cpus, &drv), 0);
	h->minor = 1;
}

static const char *events_of(const char *trace)
{
	const char *at = strstr(trace, "\nevents\n");
	assert_non_null(at);
	return at + 8;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void same_through_both(const char *path, size_t min_wakes)
{
	struct both b = { .maxcpu = 0, .maxstate = 1 };
	char err[512];
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		fail_msg("%s: libtracecmd cannot open it", path);
	assert_int_equal(ik__tep_conv_init(&b.conv, NULL, IK_TRACE_MAX_CPUS, 0, to_both, &b), 0);
	assert_true(tracecmd_iterate_events(h, NULL, 0, on_record, &b) >= 0);
	for (int i = 0; i < tracecmd_buffer_instances(h); i++) {
		struct tracecmd_input *ib = tracecmd_buffer_instance_handle(h, i);
		if (!ib)
			continue;
		assert_true(tracecmd_iterate_events(ib, NULL, 0, on_record, &b) >= 0);
		tracecmd_close(ib);
	}
	tracecmd_close(h);
	assert_true(b.n > 100);

	struct ik_trace_header hd;
	table(&hd, b.maxcpu + 1, b.maxstate + 1);
	/* record's path: the spool, its streams per CPU, merged and written */
	assert_int_equal(ik__record_spool_open(&b.sp, "/tmp", ".idlekit-test-dat", hd.cpus, err,
					      sizeof(err)), 0);
	for (size_t i = 0; i < b.n; i++)
		assert_int_equal(ik__record_spool_add(&b.sp, &b.v[i]), 0);
	char *recorded = NULL, *imported = NULL;
	size_t rlen, ilen;
	uint64_t nev = 0;
	FILE *rout = open_memstream(&recorded, &rlen);
	assert_int_equal(ik__record_spool_write(&b.sp, rout, &hd, b.waking, &nev), 0);
	assert_int_equal(fclose(rout), 0);
	/* import's path: the records sorted and written */
	FILE *iout = open_memstream(&imported, &ilen);
	struct ik_trace_import_opts o = { .drv = &hd.drivers[0].drv, .hz = 250, .clock_mono = true };
	struct ik_trace_import_stats st = { 0 };
	assert_int_equal(ik__trace_import_records(b.v, b.n, path, iout, &o, &st, err, sizeof(err)),
			 IK_TRACE_OK);
	assert_int_equal(fclose(iout), 0);
	const char *re = events_of(recorded), *ie = events_of(imported);
	if (strcmp(re, ie) != 0) {
		size_t k = 0;
		while (re[k] == ie[k])
			k++;
		fail_msg("%s: record's and import's traces differ at byte %zu: '%.60s' / '%.60s'",
			 path, k, re + k, ie + k);
	}
	size_t wakes = count(re, " wake ");
	print_message("%s: %zu records, %" PRIu64 " events, %zu wakes\n", path, b.n, nev, wakes);
	assert_true(wakes >= min_wakes);
	free(recorded);
	free(imported);
	free(b.v);
	ik__record_spool_close(&b.sp);
	ik__tep_conv_free(&b.conv);
	ik__trace_header_free(&hd);
}

static void test_fixtures(void **state)
{
	(void)state;
	same_through_both("fixtures/traces/trace-cmd-mono.dat", 8);
	same_through_both("fixtures/traces/trace-cmd-ipimask.dat", 100);
	same_through_both("fixtures/traces/causes/timer-tcmd-send.dat", 400);
	same_through_both("fixtures/traces/causes/timer-tcmd-both.dat", 400);
	same_through_both("fixtures/traces/causes/pipe-tcmd-send.dat", 600);
	same_through_both("fixtures/traces/causes/tbench-tcmd-both.dat", 600);
	same_through_both("fixtures/traces/causes/same-tcmd.dat", 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else

static void test_none(void **state)
{
	(void)state;
	skip(); /* built without libtracecmd */
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_none) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
