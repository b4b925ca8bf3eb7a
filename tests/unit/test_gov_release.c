/*
 * Which release's API a kernel: file was written against (src/core/gov_release.c), on
 * hand-made snippets: the markers and their bounds, the callbacks' signatures, what is not
 * evidence (comments, strings, a user's own member), files for several releases, files
 * that mix two APIs, and the git blob id of a file (git hash-object's).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/gov_internal.h"

#define V(a, b) (((a) << 16) + ((b) << 8))

static struct ik_gov_api of(const char *src)
{
	struct ik_gov_api api;
	ik__gov_api_recognise(src, strlen(src), &api);
	return api;
}

static const char *words(const struct ik_gov_api *api)
{
	static char buf[512];
	ik__gov_api_describe(api, buf, sizeof(buf));
	return buf;
}

#define GOV(sel, refl) \
	"static struct cpuidle_governor g = { .name = \"g\", .select = " sel \
	", .reflect = " refl " };\n"

static void test_blob_id(void **state)
{
	(void)state;
	/* git hash-object of "hello\n" and of an empty file */
	struct ik_gov_api api = of("hello\n");
	assert_string_equal(api.blob, "ce013625030ba8dba906f756967f9e9ca394464a");
	assert_null(api.exact_file);
	ik__gov_api_recognise("", 0, &api);
	assert_string_equal(api.blob, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
}

static void test_nanoseconds(void **state)
{
	(void)state;
	struct ik_gov_api api = of(
		"static int s(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *st)\n"
		"{ return dev->last_residency_ns > drv->states[1].target_residency_ns; }\n"
		"static void r(struct cpuidle_device *dev, int index) { }\n" GOV("s", "r"));
	assert_int_equal(api.lo, V(5, 5));
	assert_int_equal(api.hi, 0);
	assert_int_equal(api.markers, 3);
	assert_string_equal(words(&api), "written against the cpuidle governor API of v5.5 or later "
		"(it uses dev->last_residency_ns, target_residency_ns, select(drv, dev, stop_tick))");
	assert_true(ik__gov_api_fits(&api, V(5, 5)));
	assert_true(ik__gov_api_fits(&api, V(7, 1)));
	assert_false(ik__gov_api_fits(&api, V(5, 4)));
}

static void test_microseconds(void **state)
{
	(void)state;
	struct ik_gov_api api = of(
		"static int s(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *st)\n"
		"{ if (drv->states[i + 1].disabled) return 0; return dev->last_residency; }\n"
		GOV("s", "r"));
	assert_int_equal(api.lo, V(4, 17));
	assert_int_equal(api.hi, V(5, 4));
	assert_string_equal(words(&api), "written against the cpuidle governor API of v4.17 to v5.4 "
		"(it uses drv->states[i].disabled, dev->last_residency (microseconds), "
		"select(drv, dev, stop_tick))");
	assert_true(ik__gov_api_fits(&api, V(5, 1)));
	assert_false(ik__gov_api_fits(&api, V(6, 19)));
}

static void test_old_callbacks(void **state)
{
	(void)state;
	/* 4.16's: select(drv, dev), the sleep length without delta_next; a reflect without
	   the index is older still */
	struct ik_gov_api api = of(
		"static int s(struct cpuidle_driver *drv, struct cpuidle_device *dev)\n"
		"{ ktime_t t = tick_nohz_get_sleep_length(); return 0; }\n"
		"static void r(struct cpuidle_device *dev) { }\n" GOV("s", "r"));
	assert_int_equal(api.lo, 0);
	assert_int_equal(api.hi, V(4, 16));
	assert_string_equal(words(&api), "written against the cpuidle governor API of v4.16 or "
		"earlier (it uses tick_nohz_get_sleep_length(), select() without stop_tick, "
		"reflect() without the state index)");
	assert_false(ik__gov_api_fits(&api, V(5, 1)));
	/* the parameters of a (void) function are none; nested parentheses are one */
	api = of("static int s(void (*f)(int, int), struct x *dev, bool *t) { return 0; }\n"
		 GOV("s", "r"));
	assert_int_equal(api.lo, V(4, 17));
	api = of("static int s(void) { return 0; }\n" GOV("s", "r"));
	assert_int_equal(api.hi, V(4, 16));
	/* the callback's address taken with & */
	api = of("static int s(int a, int b) { return 0; }\n"
		 "static struct cpuidle_governor g = { .select = &s };\n");
	assert_int_equal(api.hi, V(4, 16));
	/* a declaration is not the definition */
	api = of("static int s(int a);\nstatic int s(int a, int b, int c) { return 0; }\n"
		 GOV("s", "r"));
	assert_int_equal(api.lo, V(4, 17));
}

static void test_not_evidence(void **state)
{
	(void)state;
	/* comments and strings name the fields without using them; a variable called
	   last_residency is not the member; a call of another arity is not the marker */
	struct ik_gov_api api = of(
		"/* dev->last_residency_ns */ // dev->last_residency\n"
		"static const char *m = \"->exit_latency_ns \\\" ->last_residency\";\n"
		"static char c = '\\'';\n"
		"static int last_residency; static int f(void) { return last_residency; }\n"
		"static long x(void) { return tick_nohz_get_sleep_length(1, 2); }\n");
	assert_int_equal(api.markers, 0);
	assert_true(ik__gov_api_fits(&api, V(5, 1)));
	assert_string_equal(words(&api), "written against no release's API in particular (it uses "
		"nothing that a release added or removed)");
	/* a state's member named disabled only when it is states[...].disabled */
	api = of("static int f(struct s *p) { return p->disabled + q.disabled + a[1].disabled; }");
	assert_int_equal(api.markers, 0);
	/* an unterminated comment or string ends the file, nothing more */
	api = of("int a = 1; /* dev->last_residency_ns");
	assert_int_equal(api.markers, 0);
	api = of("\"dev->last_residency_ns");
	assert_int_equal(api.markers, 0);
}

static void test_several_releases(void **state)
{
	(void)state;
	/* a file that tests LINUX_VERSION_CODE is written for more than one release: it fits
	   all, and says so */
	struct ik_gov_api api = of(
		"#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 5, 0)\n#define R dev->last_residency\n"
		"#else\n#define R dev->last_residency_ns\n#endif\n");
	assert_true(api.versioned);
	assert_true(api.lo > api.hi);
	assert_true(ik__gov_api_fits(&api, V(5, 1)));
	assert_true(ik__gov_api_fits(&api, V(6, 19)));
	assert_string_equal(words(&api), "written against no single release's API: it uses "
		"dev->last_residency (microseconds), dev->last_residency_ns, which no release has "
		"all of (it tests LINUX_VERSION_CODE)");
	/* without the test, a file that mixes two APIs fits none */
	api = of("int a(void) { return dev->last_residency + dev->last_residency_ns; }");
	assert_false(api.versioned);
	assert_false(ik__gov_api_fits(&api, V(5, 4)));
	assert_false(ik__gov_api_fits(&api, V(5, 5)));
}

static void test_haltpoll_api(void **state)
{
	(void)state;
	struct ik_gov_api api = of("u64 f(struct cpuidle_driver *drv, struct cpuidle_device *d)"
				   "{ return cpuidle_poll_time(drv, d) + d->poll_limit_ns; }");
	assert_int_equal(api.lo, V(5, 4));
	assert_false(ik__gov_api_fits(&api, V(5, 1)));
	assert_true(ik__gov_api_fits(&api, V(5, 4)));
}

static void test_known_files(void **state)
{
	(void)state;
	struct ik_gov_api api;
	/* ladder.c of 6.12.0 to 6.19.0 (the same blob in every tree between; 6.6.9 has
	   another): runs as 6.12-6.19 fit, 6.6 and before not, 6.7-6.11 are not known */
	memset(&api, 0, sizeof(api));
	snprintf(api.blob, sizeof(api.blob), "6617eb494a110c0642b1899163574d2f47223fa4");
	ik__gov_api_known(api.blob, &api);
	assert_string_equal(api.exact_file, "ladder.c");
	assert_int_equal(api.exact_lo, V(6, 12));
	assert_int_equal(api.exact_hi, V(6, 19));
	assert_int_equal(api.exact_before, V(6, 6));
	assert_int_equal(api.exact_after, 0);
	assert_string_equal(words(&api), "drivers/cpuidle/governors/ladder.c as in the 6.12.0 to "
		"6.19.0 trees, unmodified (git blob 6617eb494a11)");
	assert_true(ik__gov_api_fits(&api, V(6, 15)));
	assert_true(ik__gov_api_fits(&api, V(6, 8)));
	assert_true(ik__gov_api_fits(&api, V(7, 1)));
	assert_false(ik__gov_api_fits(&api, V(6, 6)));
	assert_false(ik__gov_api_fits(&api, V(5, 15)));
	/* menu.c of 6.19.0: 6.18.2's differs, 7.1's too (its patch mails); 7.0 not known */
	snprintf(api.blob, sizeof(api.blob), "64d6f7a1c7766325da05248b5e210a7dab4509d3");
	ik__gov_api_known(api.blob, &api);
	assert_string_equal(words(&api), "v6.19's drivers/cpuidle/governors/menu.c, unmodified "
		"(git blob 64d6f7a1c776, as in the 6.19.0 tree)");
	assert_true(ik__gov_api_fits(&api, V(6, 19)));
	assert_true(ik__gov_api_fits(&api, V(7, 0)));
	assert_false(ik__gov_api_fits(&api, V(7, 1)));
	assert_false(ik__gov_api_fits(&api, V(6, 18)));
	assert_false(ik__gov_api_fits(&api, V(5, 15)));
	/* teo.c of 6.14.0, also 6.15's (docs/kernel-releases.md); 6.16's is 6.18.2's */
	snprintf(api.blob, sizeof(api.blob), "8fe5e1b47ef9082d69584edea1b479023c822009");
	ik__gov_api_known(api.blob, &api);
	assert_int_equal(api.exact_hi, V(6, 15));
	assert_true(ik__gov_api_fits(&api, V(6, 15)));
	assert_false(ik__gov_api_fits(&api, V(6, 16)));
	assert_false(ik__gov_api_fits(&api, V(6, 13)));
	/* teo.c of 5.15.55 and 6.1.0 */
	snprintf(api.blob, sizeof(api.blob), "d9262db79cae53c0b1d277513d014d3e91a0f879");
	ik__gov_api_known(api.blob, &api);
	assert_int_equal(api.exact_lo, V(5, 15));
	assert_int_equal(api.exact_hi, V(6, 1));
	assert_false(ik__gov_api_fits(&api, V(5, 10)));
	assert_false(ik__gov_api_fits(&api, V(6, 6)));
	assert_true(ik__gov_api_fits(&api, V(5, 19)));
	/* a blob nobody read */
	ik__gov_api_known("0123456789012345678901234567890123456789", &api);
	assert_null(api.exact_file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blob_id),
		cmocka_unit_test(test_nanoseconds),
		cmocka_unit_test(test_microseconds),
		cmocka_unit_test(test_old_callbacks),
		cmocka_unit_test(test_not_evidence),
		cmocka_unit_test(test_several_releases),
		cmocka_unit_test(test_haltpoll_api),
		cmocka_unit_test(test_known_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
