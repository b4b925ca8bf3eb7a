/*
 * idlekit validate's arithmetic, on hand-made counters: the window's figures from two
 * reads of sysfs (a counter that went backwards, a CPU left out), the comparison's medians,
 * ranges and errors (a measured 0, a figure only one side has), and the note of a traced
 * run.  The real runs themselves are tests/cli/validate.sh's.
 */
#define _GNU_SOURCE /* fmemopen */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate.h"

#define assert_close(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Two CPUs of two states; cpu 2 offline (left out of every window). */
static void make_idle(struct ik_host_idle *h, uint64_t scale)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->driver, sizeof(h->driver), "haltpoll");
	h->ncpus = 3;
	h->cpus = calloc(3, sizeof(*h->cpus));
	for (int c = 0; c < 3; c++) {
		struct ik_host_cpu *x = &h->cpus[c];
		x->cpu = c;
		x->online = c < 2;
		x->has_dir = x->has_cpuidle = true;
		x->nstates = 2;
		for (int s = 0; s < 2; s++) {
			snprintf(x->states[s].name, sizeof(x->states[s].name), "%s", s ? "C1" : "POLL");
			x->states[s].usage = scale * (uint64_t)(10 + c + s);
			x->states[s].time_us = scale * (uint64_t)(1000 * (s + 1));
			x->states[s].above = scale;
			x->states[s].below = 0;
			x->states[s].have = IK_HAVE_ABOVE | IK_HAVE_BELOW;
		}
	}
}

static void test_window(void **state)
{
	(void)state;
	struct ik_val_counters a, b;
	struct ik_val_sample s;
	char err[256];
	make_idle(&a.idle, 1);
	make_idle(&b.idle, 3);
	a.at_ns = 0;
	b.at_ns = 1000000000; /* 1 s */
	b.idle.cpus[1].states[0].usage = 0; /* went backwards: counted as no growth */
	assert_int_equal(ik__val_sample_window(&a, &b, &s, err, sizeof(err)), 0);
	assert_int_equal(s.ncpus, 2); /* the offline CPU left out */
	assert_int_equal(s.nstates, 2);
	assert_string_equal(s.state_names[1], "C1");
	assert_close(s.window_ns, 1e9, 0);
	assert_close(s.usage[0], 2 * 10, 0);          /* cpu0 POLL: 30 - 10 */
	assert_close(s.usage[2 + 0], 0, 0);           /* cpu1 POLL: backwards */
	assert_close(s.usage[2 + 1], 2 * 12, 0);      /* cpu1 C1 */
	assert_close(s.time_ns[1], 2 * 2000 * 1000.0, 0); /* us as ns */
	assert_true(s.have_above_below);
	ik__val_sample_free(&s);

	/* a CPU that went offline during the window is an error naming it */
	b.idle.cpus[1].online = false;
	assert_int_not_equal(ik__val_sample_window(&a, &b, &s, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "CPU 1"));
	ik__host_idle_free(&a.idle);
	ik__host_idle_free(&b.idle);
}

/* One CPU, one state: entries per second and ns of idle in a 1 s window. */
static void sample(struct ik_val_sample *s, double entries, double idle_ns, bool wake, double p50)
{
	assert_int_equal(ik__val_sample_alloc(s, 1, 1), 0);
	snprintf(s->state_names[0], IK_VAL_NAME_LEN, "C1");
	s->window_ns = 1e9;
	s->usage[0] = entries;
	s->time_ns[0] = idle_ns;
	s->have_above_below = true;
	s->have_wake = wake;
	s->wake_p50_us = p50;
	s->wake_p99_us = 2 * p50;
}

static const struct ik_val_figure *find(const struct ik_val_comparison *c, const char *name)
{
	for (int i = 0; i < c->nfig; i++)
		if (strcmp(c->fig[i].name, name) == 0)
			return &c->fig[i];
	return NULL;
}

static void test_compare(void **state)
{
	(void)state;
	struct ik_val_sample m[3], p[2];
	struct ik_val_comparison c;
	char err[256];
	sample(&m[0], 100, 5e8, true, 90);
	sample(&m[1], 300, 7e8, true, 80);
	sample(&m[2], 200, 6e8, true, 100);
	sample(&p[0], 250, 8e8, false, 0); /* the model gives no wake latency here */
	sample(&p[1], 150, 8e8, false, 0);
	assert_int_equal(ik__val_compare(m, 3, p, 2, &c, err, sizeof(err)), 0);

	const struct ik_val_figure *e = find(&c, "cpu0 C1 entries/s");
	assert_non_null(e);
	assert_int_equal(e->nm, 3);
	assert_int_equal(e->np, 2);
	assert_close(e->ms.median, 200, 1e-9);
	assert_close(e->ms.min, 100, 1e-9);
	assert_close(e->ms.max, 300, 1e-9);
	assert_close(e->ps.median, 200, 1e-9); /* of two: their mean */
	assert_close(e->error_pct, 0, 1e-9);

	const struct ik_val_figure *r = find(&c, "cpu0 C1 residency");
	assert_close(r->ms.median, 60, 1e-9);
	assert_close(r->ps.median, 80, 1e-9);
	assert_close(r->error_pct, 100.0 * (80 - 60) / 60, 1e-9);
	const struct ik_val_figure *b = find(&c, "cpu0 busy");
	assert_close(b->ms.median, 40, 1e-9);
	assert_close(b->ps.median, 20, 1e-9);
	assert_close(b->error_pct, -50, 1e-9);

	/* above/below 0 on both sides: error 0; wake latency only measured: no error */
	const struct ik_val_figure *ab = find(&c, "cpu0 C1 above/s");
	assert_close(ab->error_pct, 0, 0);
	const struct ik_val_figure *w = find(&c, "wake latency p50");
	assert_non_null(w);
	assert_close(w->ms.median, 90, 1e-9);
	assert_int_equal(w->ps.n, 0);
	assert_true(isnan(w->error_pct));
	/* no throughput on either side: the figure is dropped */
	assert_null(find(&c, "throughput"));

	/* the traced run's histogram becomes the machine's, with a note of its entries */
	struct ik_val_sample tr;
	sample(&tr, 210, 6e8, false, 0);
	tr.have_hist = true;
	tr.idle_hist[10] = 7;
	ik__val_traced_note(&c, &tr, NULL);
	assert_true(c.have_measured_hist);
	assert_int_equal(c.measured_hist[10], 7);
	assert_non_null(strstr(c.notes[c.nnotes - 1], "210.0 idle entries/s"));
	assert_non_null(strstr(c.notes[c.nnotes - 1], "the untraced runs 200.0"));
	ik__val_sample_free(&tr);

	ik__val_comparison_free(&c);
	for (int i = 0; i < 3; i++)
		ik__val_sample_free(&m[i]);
	for (int i = 0; i < 2; i++)
		ik__val_sample_free(&p[i]);
}

/* A measured 0 against a predicted non-zero has no error (not a division by 0). */
static void test_measured_zero(void **state)
{
	(void)state;
	struct ik_val_sample m, p;
	struct ik_val_comparison c;
	char err[256];
	sample(&m, 0, 0, false, 0);
	sample(&p, 5, 1e3, false, 0);
	assert_int_equal(ik__val_compare(&m, 1, &p, 1, &c, err, sizeof(err)), 0);
	assert_true(isnan(find(&c, "cpu0 C1 entries/s")->error_pct));
	assert_close(find(&c, "cpu0 busy")->ms.median, 100, 1e-9);
	ik__val_comparison_free(&c);
	ik__val_sample_free(&m);
	ik__val_sample_free(&p);
	/* a side without runs is refused */
	struct ik_val_sample one;
	sample(&one, 1, 1, false, 0);
	assert_int_not_equal(ik__val_compare(&one, 0, &one, 1, &c, err, sizeof(err)), 0);
	ik__val_sample_free(&one);
}

/* The wake structure: idle entries over the throughput, named after its unit. */
static void test_structure_figure(void **state)
{
	(void)state;
	struct ik_val_sample m, p;
	struct ik_val_comparison c;
	char err[256];
	sample(&m, 300, 5e8, false, 0);
	sample(&p, 200, 5e8, false, 0);
	m.have_throughput = p.have_throughput = true;
	m.throughput_name = p.throughput_name = "operations/s";
	m.throughput = 150; /* 2 entries per operation */
	p.throughput = 200; /* 1 */
	assert_int_equal(ik__val_compare(&m, 1, &p, 1, &c, err, sizeof(err)), 0);
	const struct ik_val_figure *f = find(&c, "idle entries per operation");
	assert_non_null(f);
	assert_close(f->ms.median, 2, 1e-12);
	assert_close(f->ps.median, 1, 1e-12);
	assert_close(f->error_pct, -50, 1e-9);
	ik__val_comparison_free(&c);
	/* no throughput on either side: no such figure */
	m.have_throughput = p.have_throughput = false;
	assert_int_equal(ik__val_compare(&m, 1, &p, 1, &c, err, sizeof(err)), 0);
	assert_null(find(&c, "idle entries per operation"));
	ik__val_comparison_free(&c);
	ik__val_sample_free(&m);
	ik__val_sample_free(&p);
}

/* tbench's output (a real one of this machine's, tests/fixtures/tools/): its per-second
   counts, the throughput line, interpolation, and the refusals. */
static void test_tbench_log(void **state)
{
	(void)state;
	struct ik_val_tbench_log *l = malloc(sizeof(*l));
	char err[512];
	assert_non_null(l);
	FILE *f = fopen("../tests/fixtures/tools/tbench-1client.out", "r");
	assert_non_null(f);
	assert_int_equal(ik__val_tbench_log(f, "tbench-1client.out", l, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(l->n, 3);
	assert_close(l->sec[0], 1, 0);
	assert_close(l->ops[0], 20337, 0);
	assert_close(l->ops[2], 50094, 0);
	assert_true(l->have_mb_s);
	assert_close(l->mb_s, 96.2152, 1e-9);
	/* 0.5 s: half of the first second's 20337; 1.5 s: 20337 + half of 16293 */
	assert_close(ik__val_tbench_ops_between(l, 0.5, 1.5), (20337 + 16293 / 2.0) - 20337 / 2.0,
		     1e-9);
	assert_close(ik__val_tbench_ops_between(l, 1, 3), 50094 - 20337, 1e-9);
	assert_true(isnan(ik__val_tbench_ops_between(l, 1, 3.5))); /* past the last count */
	assert_true(isnan(ik__val_tbench_ops_between(l, 2, 1)));

	static const char falling[] = "   1  100  1.00 MB/sec  execute   1 sec  latency 1 ms\n"
				      "   1   50  1.00 MB/sec  execute   2 sec  latency 1 ms\n";
	f = fmemopen((void *)falling, sizeof(falling) - 1, "r");
	assert_int_equal(ik__val_tbench_log(f, "t.out", l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.out:2:"));
	fclose(f);
	static const char none[] = "Running for 1 seconds\nThroughput 1.0 MB/sec  1 clients\n";
	f = fmemopen((void *)none, sizeof(none) - 1, "r");
	assert_int_equal(ik__val_tbench_log(f, "t.out", l, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no per-second count"));
	fclose(f);
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_measured_zero),
		cmocka_unit_test(test_structure_figure),
		cmocka_unit_test(test_tbench_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
