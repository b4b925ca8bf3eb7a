/*
 * The text importers' reorder window (src/trace/import_window.c): records out in time
 * order, equal times in input order, stragglers put back, a record older than one already
 * let out refused, and never more than its capacity held.
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
	assert_int_equal(ik_import_window_init(&w, 5), 0);
	assert_int_equal(w.cap, 8); /* a power of two */
	/* times, with a tie (arg tells them apart) and stragglers */
	static const int64_t t[] = { 10, 20, 15, 20, 30, 5, 40, 35, 50, 60, 45, 70 };
	int64_t outt[16];
	int64_t outa[16];
	int nout = 0;
	for (int i = 0; i < 12; i++) {
		struct ik_trace_import_rec r = { .t_ns = t[i], .arg = i }, o;
		int rc = ik_import_window_push(&w, &r, &o);
		assert_true(rc >= 0);
		assert_true(w.n + w.nheap <= w.cap);
		if (rc == 1) {
			outt[nout] = o.t_ns;
			outa[nout++] = o.arg;
		}
	}
	struct ik_trace_import_rec o;
	while (ik_import_window_pop(&w, &o)) {
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
	ik_import_window_free(&w);
}

static void test_late(void **state)
{
	(void)state;
	struct ik_import_window w;
	assert_int_equal(ik_import_window_init(&w, 2), 0);
	struct ik_trace_import_rec r = { 0 }, o;
	r.t_ns = 100;
	assert_int_equal(ik_import_window_push(&w, &r, &o), 0);
	r.t_ns = 200;
	assert_int_equal(ik_import_window_push(&w, &r, &o), 0);
	r.t_ns = 300;
	assert_int_equal(ik_import_window_push(&w, &r, &o), 1); /* full: 100 let out */
	assert_int_equal(o.t_ns, 100);
	r.t_ns = 150; /* still after what was let out: held */
	assert_int_equal(ik_import_window_push(&w, &r, &o), 1);
	assert_int_equal(o.t_ns, 150);
	r.t_ns = 120; /* before 150, already out: refused */
	assert_int_equal(ik_import_window_push(&w, &r, &o), -1);
	ik_import_window_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_late),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
