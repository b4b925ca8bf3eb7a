/* Hardware-model helpers: random numbers, cost distributions, methods, topology. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/detmath.h"
#include "hw/hw.h"

/* ---- rng ----------------------------------------------------------------------------- */

static void rng_same_seed_same_sequence(void **state)
{
	(void)state;
	struct ik_rng a, b;
	ik__rng_seed(&a, 12345);
	ik__rng_seed(&b, 12345);
	for (int i = 0; i < 10000; i++)
		assert_int_equal(ik__rng_next(&a), ik__rng_next(&b));
	for (int i = 0; i < 1000; i++) {
		double x = ik__rng_normal(&a), y = ik__rng_normal(&b);
		assert_memory_equal(&x, &y, sizeof(x));
	}
}

static void rng_different_seeds_differ(void **state)
{
	(void)state;
	struct ik_rng a, b;
	ik__rng_seed(&a, 1);
	ik__rng_seed(&b, 2);
	int same = 0;
	for (int i = 0; i < 100; i++)
		same += ik__rng_next(&a) == ik__rng_next(&b);
	assert_int_equal(same, 0);
}

/* Reference values (xoshiro256** seeded by splitmix64, checked against an independent
 * implementation): the same on every machine and compiler. */
static void rng_known_values(void **state)
{
	(void)state;
	struct ik_rng r;
	ik__rng_seed(&r, 1);
	assert_true(ik__rng_next(&r) == 0xb3f2af6d0fc710c5ULL);
	assert_true(ik__rng_next(&r) == 0x853b559647364ceaULL);
	assert_true(ik__rng_next(&r) == 0x92f89756082a4514ULL);
	ik__rng_seed(&r, 42);
	assert_true(ik__rng_normal(&r) == -0.72621913824478568);
	/* the polar method's pairs: the second normal is the first one's partner v * scale */
	assert_true(ik__rng_normal(&r) == -0.21119691823195985);

	struct ik_dist d;
	assert_int_equal(ik__dist_parse("lognormal 20400 0.13", &d, NULL, 0), 0);
	ik__rng_seed(&r, 7);
	const int64_t expect[] = { 23125, 17765, 19610, 17684, 21225 };
	for (int i = 0; i < 5; i++)
		assert_int_equal(ik__dist_sample(&d, &r), expect[i]);
}

static void rng_unit_normal_exp_moments(void **state)
{
	(void)state;
	struct ik_rng r;
	ik__rng_seed(&r, 99);
	double sum = 0, sum2 = 0, esum = 0;
	const int n = 200000;
	for (int i = 0; i < n; i++) {
		double u = ik__rng_unit(&r);
		assert_true(u >= 0.0 && u < 1.0);
		double z = ik__rng_normal(&r);
		sum += z;
		sum2 += z * z;
		double e = ik__rng_exp(&r);
		assert_true(e >= 0.0 && isfinite(e));
		esum += e;
	}
	assert_true(fabs(sum / n) < 0.01);
	assert_true(fabs(sum2 / n - 1.0) < 0.02);
	assert_true(fabs(esum / n - 1.0) < 0.02);
}

static void detmath_matches_libm(void **state)
{
	(void)state;
	for (double x = -700; x < 700; x += 0.731) {
		double a = ik__det_exp(x), b = exp(x);
		assert_true(fabs(a - b) <= 4e-16 * b);
	}
	for (double x = 1e-300; x < 1e300; x *= 3.7) {
		double a = ik__det_log(x), b = log(x);
		assert_true(fabs(a - b) <= 4e-16 * fabs(b) + 1e-300);
	}
	assert_true(ik__det_log(1.0) == 0.0);
	assert_true(ik__det_exp(0.0) == 1.0);
	assert_true(isinf(ik__det_log(0.0)) && ik__det_log(0.0) < 0);
	assert_true(isnan(ik__det_log(-1.0)));
}

/* ik__det_scale2 (ik__det_exp's scaling by 2^k without the library call) is ldexp to the
   bit: every k, in and beyond the range where it multiplies, for mantissas across
   [0.5, 2), including the ends. */
static void det_scale2_is_ldexp(void **state)
{
	(void)state;
	const double ps[] = { 0.5, 0.70710678118654752, 0.9999999999999999, 1.0,
			      1.0000000000000002, 1.2345678901234567, 1.4142135623730951,
			      1.9999999999999998 };
	for (int k = -1080; k <= 1030; k++) {
		for (size_t j = 0; j < sizeof(ps) / sizeof(ps[0]); j++) {
			double a = ik__det_scale2(ps[j], k), b = ldexp(ps[j], k);
			assert_memory_equal(&a, &b, sizeof(a));
		}
	}
}

/* ik__det_frexp and ik__det_floor (the bit-level replacements inside ik__det_log and
   ik__det_exp) agree with the library exactly: normal, subnormal and boundary inputs. */
static void det_frexp_floor_are_exact(void **state)
{
	(void)state;
	const double xs[] = { 1.0, 0.5, 0.75, 1.5, 2.0, 3.0, 1e-300, 4.9e-324, 2.2250738585072014e-308,
			      2.225073858507201e-308, 1e300, 1.7976931348623157e308, 0.1, 123456.789 };
	for (size_t j = 0; j < sizeof(xs) / sizeof(xs[0]); j++) {
		int e1, e2;
		double a = ik__det_frexp(xs[j], &e1), b = frexp(xs[j], &e2);
		assert_memory_equal(&a, &b, sizeof(a));
		assert_int_equal(e1, e2);
	}
	for (double x = 1e-310; x < 1e308; x *= 1.37) {
		int e1, e2;
		double a = ik__det_frexp(x, &e1), b = frexp(x, &e2);
		assert_true(a == b && e1 == e2);
	}
	const double ys[] = { 0.0, 0.3, -0.3, 1.0, -1.0, 1.5, -1.5, 1073.9, -1074.2, 0.9999999999999999,
			      -0.9999999999999999, 4503599627370495.5, -4503599627370495.5, 1e300, -1e300 };
	for (size_t j = 0; j < sizeof(ys) / sizeof(ys[0]); j++)
		assert_true(ik__det_floor(ys[j]) == floor(ys[j]));
	for (double y = -1100.0; y < 1100.0; y += 0.0137)
		assert_true(ik__det_floor(y) == floor(y));
}

/* ik__det_exp and ik__det_log take their one-test path for the usual inputs; it must give the
   bits of the path with every range test (ik__det_exp_any, ik__det_log_any): across the
   whole range, at the edges of the one-test path and beyond them. */
static void det_fast_paths_are_exact(void **state)
{
	(void)state;
	const double xs[] = { 0.0, -0.0, 706.0, -706.0, 705.9999999999999, -705.9999999999999,
			      706.0000000000001, -706.0000000000001, 709.7, -745.1, 710.0, -746.0,
			      0.34657359027997264, -0.34657359027997264, 1e-300, -1e-300,
			      INFINITY, -INFINITY, NAN };
	for (size_t j = 0; j < sizeof(xs) / sizeof(xs[0]); j++) {
		double a = ik__det_exp(xs[j]), b = ik__det_exp_any(xs[j]);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	for (double x = -750.0; x < 750.0; x += 0.00731) {
		double a = ik__det_exp(x), b = ik__det_exp_any(x);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	const double ys[] = { 1.0, 0.5, 0.7071067811865475, 0.7071067811865476, 2.0,
			      2.2250738585072014e-308, 2.225073858507201e-308, 4.9e-324,
			      1.7976931348623157e308, 0.0, -0.0, -1.0, INFINITY, -INFINITY, NAN };
	for (size_t j = 0; j < sizeof(ys) / sizeof(ys[0]); j++) {
		double a = ik__det_log(ys[j]), b = ik__det_log_any(ys[j]);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	for (double y = 1e-320; y < 1e308; y *= 1.0137) {
		double a = ik__det_log(y), b = ik__det_log_any(y);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	struct ik_rng rng;
	ik__rng_seed(&rng, 7);
	for (int i = 0; i < 200000; i++) { /* the draws' own inputs: (0, 1) and a few sigmas */
		double u = ik__rng_unit(&rng), a = ik__det_log(u), b = ik__det_log_any(u);
		assert_memory_equal(&a, &b, sizeof(a));
		double x = (u - 0.5) * 12.0;
		a = ik__det_exp(x);
		b = ik__det_exp_any(x);
		assert_memory_equal(&a, &b, sizeof(a));
	}
}

/* ---- dist parse / format -------------------------------------------------------------- */

static void dist_parse_each_kind(void **state)
{
	(void)state;
	struct ik_dist d;
	char err[256];

	assert_int_equal(ik__dist_parse("constant 1500", &d, err, sizeof(err)), 0);
	assert_int_equal(d.kind, IK_DIST_CONSTANT);
	assert_int_equal(d.a_ns, 1500);

	assert_int_equal(ik__dist_parse("  uniform\t1000   2000 ", &d, err, sizeof(err)), 0);
	assert_int_equal(d.kind, IK_DIST_UNIFORM);
	assert_int_equal(d.a_ns, 1000);
	assert_int_equal(d.b_ns, 2000);

	assert_int_equal(ik__dist_parse("lognormal 1500 0.25", &d, err, sizeof(err)), 0);
	assert_int_equal(d.kind, IK_DIST_LOGNORMAL);
	assert_int_equal(d.a_ns, 1500);
	assert_true(d.sigma == 0.25);

	assert_int_equal(ik__dist_parse("percentiles 0:1700 25:1900 50:2000 99:2800 100:5900", &d,
				       err, sizeof(err)), 0);
	assert_int_equal(d.kind, IK_DIST_PERCENTILES);
	assert_int_equal(d.npoints, 5);
	assert_true(d.pct[3] == 99.0);
	assert_int_equal(d.val_ns[4], 5900);
}

static void roundtrip(const char *text)
{
	struct ik_dist a, b;
	char buf[512], err[256];
	assert_int_equal(ik__dist_parse(text, &a, err, sizeof(err)), 0);
	ik__dist_format(&a, buf, sizeof(buf));
	assert_string_equal(buf, text); /* the canonical spelling prints as written */
	assert_int_equal(ik__dist_parse(buf, &b, err, sizeof(err)), 0);
	assert_int_equal(a.kind, b.kind);
	assert_int_equal(a.a_ns, b.a_ns);
	assert_int_equal(a.b_ns, b.b_ns);
	assert_true(a.sigma == b.sigma);
	assert_int_equal(a.npoints, b.npoints);
	for (int i = 0; i < a.npoints; i++) {
		assert_true(a.pct[i] == b.pct[i]);
		assert_int_equal(a.val_ns[i], b.val_ns[i]);
	}
}

static void dist_format_roundtrip(void **state)
{
	(void)state;
	roundtrip("constant 0");
	roundtrip("constant 3600000000000");
	roundtrip("uniform 1000 2000");
	roundtrip("lognormal 1500 0.25");
	roundtrip("lognormal 20400 0.13");
	roundtrip("lognormal 7 0.1");
	roundtrip("percentiles 0:1200 25:1400 50:1500 99:2300 99.9:3200 99.99:4500 100:4600");
	roundtrip("percentiles 0.5:10 33.333333333333336:20");
	/* 16 points, the maximum */
	roundtrip("percentiles 0:1 5:2 10:3 15:4 20:5 25:6 30:7 35:8 40:9 45:10 50:11 55:12 60:13 "
		  "65:14 70:15 100:16");
}

static void expect_parse_error(const char *text, const char *needle)
{
	struct ik_dist d;
	char err[256] = "";
	if (ik__dist_parse(text, &d, err, sizeof(err)) == 0)
		fail_msg("'%s' parsed, expected an error containing '%s'", text, needle);
	if (!strstr(err, needle))
		fail_msg("'%s': error '%s' lacks '%s'", text, err, needle);
	assert_null(strchr(err, '\n'));
}

static void dist_parse_errors(void **state)
{
	(void)state;
	expect_parse_error("", "expected 'constant NS'");
	expect_parse_error("gaussian 3", "got 'gaussian'");
	expect_parse_error("constant", "got ''");
	expect_parse_error("constant abc", "got 'abc'");
	expect_parse_error("constant -5", "got '-5'");
	expect_parse_error("constant 1.5", "got '1.5'");
	expect_parse_error("constant 3600000000001", "0..3600000000000");
	expect_parse_error("constant 99999999999999999999999", "got '99999999999999999999999'");
	expect_parse_error("constant 5 6", "expected nothing after");
	expect_parse_error("uniform 5", "MAX_NS");
	expect_parse_error("uniform 2000 1000", "MIN_NS <= MAX_NS");
	expect_parse_error("lognormal 1500", "SIGMA");
	expect_parse_error("lognormal 1500 -0.1", "got '-0.1'");
	expect_parse_error("lognormal 1500 nan", "got 'nan'");
	expect_parse_error("lognormal 1500 11", "0..10");
	expect_parse_error("lognormal 1500 0.2 x", "expected nothing after");
	expect_parse_error("percentiles", "at least one point");
	expect_parse_error("percentiles 50", "without ':'");
	expect_parse_error("percentiles 50:", "after ':'");
	expect_parse_error("percentiles 101:5", "percentile 0..100");
	expect_parse_error("percentiles -1:5", "percentile 0..100");
	expect_parse_error("percentiles 50:10 50:20", "increasing percentiles");
	expect_parse_error("percentiles 60:10 50:20", "increasing percentiles");
	expect_parse_error("percentiles 10:20 50:10", "non-decreasing values");
	expect_parse_error("percentiles 0:1 5:2 10:3 15:4 20:5 25:6 30:7 35:8 40:9 45:10 50:11 "
			   "55:12 60:13 65:14 70:15 75:16 80:17", "at most 16");
	/* NULL err is allowed */
	struct ik_dist d;
	assert_int_equal(ik__dist_parse("nonsense", &d, NULL, 0), -1);
}

/* ---- sampling ------------------------------------------------------------------------ */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int64_t *sample_sorted(const char *text, int n, uint64_t seed)
{
	struct ik_dist d;
	struct ik_rng r;
	assert_int_equal(ik__dist_parse(text, &d, NULL, 0), 0);
	ik__rng_seed(&r, seed);
	int64_t *v = malloc(sizeof(*v) * (size_t)n);
	assert_non_null(v);
	for (int i = 0; i < n; i++)
		v[i] = ik__dist_sample(&d, &r);
	qsort(v, (size_t)n, sizeof(*v), cmp_i64);
	return v;
}

static void sample_constant_and_uniform(void **state)
{
	(void)state;
	int64_t *v = sample_sorted("constant 777", 1000, 1);
	assert_int_equal(v[0], 777);
	assert_int_equal(v[999], 777);
	free(v);

	v = sample_sorted("uniform 10 13", 10000, 2);
	assert_int_equal(v[0], 10);   /* both ends reached... */
	assert_int_equal(v[9999], 13); /* ...and never passed */
	int64_t median = v[5000];
	assert_true(median == 11 || median == 12);
	free(v);
}

static void sample_lognormal_median(void **state)
{
	(void)state;
	const int n = 10000;
	int64_t *v = sample_sorted("lognormal 20400 0.13", n, 3);
	double median = (double)v[n / 2];
	assert_true(fabs(median - 20400) < 0.01 * 20400);
	assert_true(v[0] > 0);
	/* sigma 0.13: about 84% of samples below median * e^0.13 */
	int below = 0;
	for (int i = 0; i < n; i++)
		below += v[i] < 20400 * exp(0.13);
	assert_true(below > 0.82 * n && below < 0.86 * n);
	free(v);

	v = sample_sorted("lognormal 1000 0", 100, 3);
	assert_int_equal(v[0], 1000);
	assert_int_equal(v[99], 1000);
	free(v);
}

static void sample_percentiles_bounds_and_median(void **state)
{
	(void)state;
	const int n = 10000;
	/* Karny's Zen 3 MWAIT IPI wake-up table */
	int64_t *v = sample_sorted("percentiles 0:1200 25:1400 50:1500 75:1700 90:1800 95:1900 "
				   "99:2300 99.9:3200 100:4600", n, 4);
	assert_true(v[0] >= 1200);
	assert_true(v[n - 1] <= 4600);
	assert_true(llabs(v[n / 2] - 1500) <= 15);
	assert_true(llabs(v[n / 4] - 1400) <= 15);
	assert_true(llabs(v[n * 9 / 10] - 1800) <= 15);
	free(v);

	/* first point's value below it, last point's value above it */
	v = sample_sorted("percentiles 20:1000 80:2000", n, 5);
	int at_low = 0, at_high = 0;
	for (int i = 0; i < n; i++) {
		assert_true(v[i] >= 1000 && v[i] <= 2000);
		at_low += v[i] == 1000;
		at_high += v[i] == 2000;
	}
	assert_true(at_low > 0.18 * n && at_low < 0.22 * n);
	assert_true(at_high > 0.18 * n && at_high < 0.22 * n);
	assert_true(llabs(v[n / 2] - 1500) <= 20);
	free(v);

	/* a single point is a constant */
	v = sample_sorted("percentiles 50:42", 100, 6);
	assert_int_equal(v[0], 42);
	assert_int_equal(v[99], 42);
	free(v);
}

static void sample_never_negative(void **state)
{
	(void)state;
	struct ik_dist d;
	struct ik_rng r;
	ik__rng_seed(&r, 8);
	/* hand-made (unparsed) nonsense must not give negative costs */
	memset(&d, 0, sizeof(d));
	d.kind = IK_DIST_CONSTANT;
	d.a_ns = -5;
	assert_int_equal(ik__dist_sample(&d, &r), 0);
	d.kind = IK_DIST_UNIFORM;
	d.a_ns = -10;
	d.b_ns = -1;
	assert_int_equal(ik__dist_sample(&d, &r), 0);
	d.kind = IK_DIST_LOGNORMAL;
	d.a_ns = 1000;
	d.sigma = 10;
	for (int i = 0; i < 10000; i++)
		assert_true(ik__dist_sample(&d, &r) >= 0);
}

/* ---- methods and topology ------------------------------------------------------------ */

static void method_names(void **state)
{
	(void)state;
	const char *names[] = { "poll", "mwait", "hlt", "ioport", "stop", "wfi", "other" };
	for (int i = 0; i < 7; i++) {
		enum ik_method m;
		assert_int_equal(ik__method_parse(names[i], &m), 0);
		assert_int_equal(m, i);
		assert_string_equal(ik__method_name(m), names[i]);
	}
	enum ik_method m = IK_METHOD_HLT;
	assert_int_equal(ik__method_parse("MWAIT", &m), -1);
	assert_int_equal(ik__method_parse("", &m), -1);
	assert_int_equal(m, IK_METHOD_HLT);
	assert_string_equal(ik__method_name((enum ik_method)99), "?");
}

static void topology_numbering(void **state)
{
	(void)state;
	struct ik_platform p;
	struct ik_cpu_topo t;
	memset(&p, 0, sizeof(p));
	p.packages = 2;
	p.cores_per_package = 20;
	p.threads_per_core = 2;
	p.cores_per_llc = 20;

	ik__platform_topology(&p, 0, &t);
	assert_int_equal(t.package, 0);
	assert_int_equal(t.core, 0);
	assert_int_equal(t.thread, 0);
	assert_int_equal(t.llc, 0);
	ik__platform_topology(&p, 25, &t); /* package 1, core 5 of it */
	assert_int_equal(t.package, 1);
	assert_int_equal(t.core, 25);
	assert_int_equal(t.thread, 0);
	assert_int_equal(t.llc, 1);
	ik__platform_topology(&p, 40, &t); /* SMT sibling of CPU 0 */
	assert_int_equal(t.package, 0);
	assert_int_equal(t.core, 0);
	assert_int_equal(t.thread, 1);
	ik__platform_topology(&p, 79, &t);
	assert_int_equal(t.package, 1);
	assert_int_equal(t.core, 39);
	assert_int_equal(t.thread, 1);
	ik__platform_topology(&p, 80, &t);
	assert_int_equal(t.package, -1);
	assert_int_equal(t.core, -1);
	ik__platform_topology(&p, -1, &t);
	assert_int_equal(t.thread, -1);

	/* Zen 3: 8-core CCX */
	p.packages = 1;
	p.cores_per_package = 64;
	p.cores_per_llc = 8;
	ik__platform_topology(&p, 9, &t);
	assert_int_equal(t.llc, 1);
	ik__platform_topology(&p, 64 + 17, &t);
	assert_int_equal(t.core, 17);
	assert_int_equal(t.thread, 1);
	assert_int_equal(t.llc, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rng_same_seed_same_sequence),
		cmocka_unit_test(rng_different_seeds_differ),
		cmocka_unit_test(rng_known_values),
		cmocka_unit_test(rng_unit_normal_exp_moments),
		cmocka_unit_test(detmath_matches_libm),
		cmocka_unit_test(det_scale2_is_ldexp),
		cmocka_unit_test(det_frexp_floor_are_exact),
		cmocka_unit_test(det_fast_paths_are_exact),
		cmocka_unit_test(dist_parse_each_kind),
		cmocka_unit_test(dist_format_roundtrip),
		cmocka_unit_test(dist_parse_errors),
		cmocka_unit_test(sample_constant_and_uniform),
		cmocka_unit_test(sample_lognormal_median),
		cmocka_unit_test(sample_percentiles_bounds_and_median),
		cmocka_unit_test(sample_never_negative),
		cmocka_unit_test(method_names),
		cmocka_unit_test(topology_numbering),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
