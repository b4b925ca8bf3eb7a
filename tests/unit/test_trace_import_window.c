/*
 * The text importers' reorder window (src/trace/import_window.c): records out in time
 * order, equal times in input order, stragglers put back, a record older than one already
 * let out refused, and never more than its capacity held; the per-CPU spill
 * (src/trace/import_spill.c) merging its streams by time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "trace/import_internal.h"

static void test_order(void **state)
{
	(void)state;
	struct ik_import_window w;
	assert_int_equal(ik__import_window_init(&w, 5), 0);
	assert_int_equal(w.cap, 8); /* a power of two */
	/* times, with a tie (arg tells them apart) and stragglers */
	static const int64_t t[] = { 10, 20, 15, 20, 30, 5, 40, 35, 50, 60, 45, 70 };
	int64_t outt[16];
	int64_t outa[16];
	int nout = 0;
	for (int i = 0; i < 12; i++) {
		struct ik_trace_import_rec r = { .t_ns = t[i], .arg = i }, o;
		int rc = ik__import_window_push(&w, &r, &o);
		assert_true(rc >= 0);
		assert_true(w.n + ik__heap_count(&w.heap) <= w.cap);
		if (rc == 1) {
			outt[nout] = o.t_ns;
			outa[nout++] = o.arg;
		}
	}
	struct ik_trace_import_rec o;
	while (ik__import_window_pop(&w, &o)) {
		outt[nout] = o.t_ns;
		outa[nout++] = o.arg;
	}
	assert_int_equal(nout, 12);
	for (int i = 1; i < nout; i++)
		assert_true(outt[i - 1] <= outt[i]);
	assert_int_equal(outt[0], 5);
	/* the two records at 20: the first read (arg 1) first */
	for (int i = 0; i + 1 < nout; i++)
		if (outt[i] == 20) {
			assert_int_equal(outa[i], 1);
			assert_int_equal(outa[i + 1], 3);
			break;
		}
	ik__import_window_free(&w);
}

static void test_late(void **state)
{
	(void)state;
	struct ik_import_window w;
	assert_int_equal(ik__import_window_init(&w, 2), 0);
	struct ik_trace_import_rec r = { 0 }, o;
	r.t_ns = 100;
	assert_int_equal(ik__import_window_push(&w, &r, &o), 0);
	r.t_ns = 200;
	assert_int_equal(ik__import_window_push(&w, &r, &o), 0);
	r.t_ns = 300;
	assert_int_equal(ik__import_window_push(&w, &r, &o), 1); /* full: 100 let out */
	assert_int_equal(o.t_ns, 100);
	r.t_ns = 150; /* still after what was let out: held */
	assert_int_equal(ik__import_window_push(&w, &r, &o), 1);
	assert_int_equal(o.t_ns, 150);
	r.t_ns = 120; /* before 150, already out: refused */
	assert_int_equal(ik__import_window_push(&w, &r, &o), -1);
	ik__import_window_free(&w);
}

/*
 * The spill: three streams (keys 0, 5 and 8191) added interleaved, each in time order but
 * far apart, with ties across streams told apart by seq: merged, every record once, by
 * (time, seq), over many chunks and the last one (in memory) of each; a record before its
 * stream's latest is 'late', one before another stream's is not.
 */
static void test_spill(void **state)
{
	(void)state;
	struct ik_import_spill sp;
	assert_int_equal(ik__import_spill_init(&sp), 0);
	static const int keys[] = { 0, 5, 8191 };
	uint64_t seq = 0;
	int64_t last;
	for (int i = 0; i < 1000; i++)
		for (int k = 0; k < 3; k++) {
			/* stream k at 3000 k + 7 i: stream 0 runs 2 ms behind stream 2 */
			struct ik_trace_import_rec r = { .t_ns = 3000 * (2 - k) + 7 * i, .seq = seq++,
							 .cpu = keys[k], .arg = i };
			if (i == 500 && k == 1) {
				assert_true(ik__import_spill_late(&sp, keys[k], r.t_ns - 8, &last));
				assert_int_equal(last, r.t_ns - 7);
				assert_false(ik__import_spill_late(&sp, keys[k], r.t_ns - 7, &last));
				assert_false(ik__import_spill_late(&sp, 1, 0, &last));
			}
			assert_int_equal(ik__import_spill_add(&sp, keys[k], &r), 0);
		}
	assert_non_null(sp.f); /* chunks went to the file */
	assert_int_equal(ik__import_spill_merge(&sp), 0);
	struct ik_trace_import_rec o, prev = { .t_ns = -1 };
	int n = 0, rc;
	while ((rc = ik__import_spill_next(&sp, &o)) == 1) {
		assert_true(o.t_ns > prev.t_ns || (o.t_ns == prev.t_ns && o.seq > prev.seq));
		prev = o;
		n++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(n, 3000);
	ik__import_spill_free(&sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_spill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
