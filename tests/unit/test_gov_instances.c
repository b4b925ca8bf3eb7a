/*
 * Kernel-source governor instances (src/core/gov_kernel.c): two instances of one file in
 * one process keep separate file-scope state (DEFINE_PER_CPU data, module parameters), and
 * the built-in governors open through the same call.  Uses tests/kgov/probe.c (written for
 * idlekit in the kernel's dialect): probe=9 returns a per-CPU count of selects modulo the
 * state count; probe=4 the deepest state within the latency limit; probe=11 the release
 * compiled for (LINUX_VERSION_CODE).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/governor_registry.h"
#include "sim/govreplay.h"

static struct ik_driver four_states(void)
{
	struct ik_driver d;
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "test");
	d.state_count = 4;
	static const int64_t lat[] = { 0, 2000, 10000, 133000 }, res[] = { 0, 2000, 20000, 600000 };
	for (int i = 0; i < 4; i++) {
		snprintf(d.states[i].name, sizeof(d.states[i].name), "S%d", i);
		d.states[i].exit_latency_ns = lat[i];
		d.states[i].target_residency_ns = res[i];
	}
	d.states[0].flags = IK_FLAG_POLLING;
	char err[200];
	assert_int_equal(ik_driver_init(&d, err, sizeof(err)), 0);
	return d;
}

static char cache[64];

static int setup(void **state)
{
	(void)state;
	snprintf(cache, sizeof(cache), "/tmp/idlekit-test-cache-XXXXXX");
	if (!mkdtemp(cache))
		return -1;
	setenv("IDLEKIT_CACHE_DIR", cache, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", cache);
	return system(cmd) == 0 ? 0 : -1;
}

static struct ik_governor_inst *open_probe_for(const struct ik_driver *d, const char *mode,
					       const char *release)
{
	const char *names[] = { "probe" }, *values[] = { mode };
	struct ik_governor_open_args a = { .spec = "kernel:kgov/probe.c", .drv = d, .hz = 250,
					   .nparams = 1, .param_names = names,
					   .param_values = values, .kernel_version = release };
	struct ik_governor_inst *inst = NULL;
	char err[1024] = "";
	int rc = ik__governor_open(&a, &inst, err, sizeof(err));
	if (rc)
		fail_msg("open: %s", err);
	return inst;
}

static struct ik_governor_inst *open_probe(const struct ik_driver *d, const char *mode)
{
	return open_probe_for(d, mode, NULL);
}

static int step(struct ik_govreplay *g, int64_t latency_req_ns)
{
	struct ik_govreplay_input in = { .sleep_ns = IK_KTIME_MAX, .tick_ns = 4000000,
					 .wake_ns = 1000, .latency_req_ns = latency_req_ns };
	struct ik_govreplay_result r;
	ik__govreplay_step(g, &in, &r);
	return r.state;
}

static void two_instances_do_not_share_state(void **state)
{
	(void)state;
	struct ik_driver d = four_states();
	struct ik_governor_inst *a = open_probe(&d, "9"), *b = open_probe(&d, "9");
	struct ik_govreplay *ga = calloc(1, sizeof(*ga)), *gb = calloc(1, sizeof(*gb));
	char err[256];

	assert_non_null(ga);
	assert_non_null(gb);
	assert_int_equal(ik__govreplay_init(ga, &d, ik__governor_inst_ops(a), 250, NULL, err, sizeof(err)), 0);
	assert_int_equal(ik__govreplay_init(gb, &d, ik__governor_inst_ops(b), 250, NULL, err, sizeof(err)), 0);
	assert_int_equal(ik__govreplay_start(ga, err, sizeof(err)), 0);
	assert_int_equal(ik__govreplay_start(gb, err, sizeof(err)), 0);
	/* The same CPU number (0) in both: one shared per-CPU array would count 1, 2, 3, 4. */
	assert_int_equal(step(ga, IK_LATENCY_REQ_NONE_NS), 1);
	assert_int_equal(step(ga, IK_LATENCY_REQ_NONE_NS), 2);
	assert_int_equal(step(gb, IK_LATENCY_REQ_NONE_NS), 1);
	assert_int_equal(step(ga, IK_LATENCY_REQ_NONE_NS), 3);
	assert_int_equal(step(gb, IK_LATENCY_REQ_NONE_NS), 2);
	ik__govreplay_free(ga);
	ik__govreplay_free(gb);
	ik__governor_close(a);
	ik__governor_close(b);
	free(ga);
	free(gb);
}

static void module_parameters_are_per_instance(void **state)
{
	(void)state;
	struct ik_driver d = four_states();
	struct ik_governor_inst *a = open_probe(&d, "9"), *b = open_probe(&d, "4");
	struct ik_govreplay *ga = calloc(1, sizeof(*ga)), *gb = calloc(1, sizeof(*gb));
	char err[256];

	assert_int_equal(ik__govreplay_init(ga, &d, ik__governor_inst_ops(a), 250, NULL, err, sizeof(err)), 0);
	assert_int_equal(ik__govreplay_init(gb, &d, ik__governor_inst_ops(b), 250, NULL, err, sizeof(err)), 0);
	assert_int_equal(ik__govreplay_start(ga, err, sizeof(err)), 0);
	assert_int_equal(ik__govreplay_start(gb, err, sizeof(err)), 0);
	/* b encodes the latency limit (probe 4), a goes on counting (probe 9). */
	assert_int_equal(step(gb, 5000), 1);
	assert_int_equal(step(ga, 5000), 1);
	assert_int_equal(step(gb, 0), 0);
	assert_int_equal(step(ga, 0), 2);
	const struct ik_governor_identity *ia = ik__governor_inst_identity(a);
	const struct ik_governor_identity *ib = ik__governor_inst_identity(b);
	assert_int_equal(ia->kind, IK_GOVERNOR_KERNEL);
	assert_string_equal(ia->name, "probe");
	assert_string_equal(ia->sha256, ib->sha256);
	assert_int_equal(strlen(ia->sha256), 64);
	assert_int_equal(ia->nparams, 1);
	assert_string_equal(ia->params[0].name, "probe");
	assert_string_equal(ia->params[0].value, "9");
	assert_string_equal(ib->params[0].value, "4");
	ik__govreplay_free(ga);
	ik__govreplay_free(gb);
	ik__governor_close(a);
	ik__governor_close(b);
	free(ga);
	free(gb);
}

/* The release the shim compiles for reaches the file as LINUX_VERSION_CODE (probe mode 11). */
static void release_selection(void **state)
{
	(void)state;
	struct ik_driver d = four_states();
	const char *releases[] = { NULL, "6.19", "6.1", "5.10" };
	const int expect[] = { 3, 3, 2, 1 };
	char err[512];

	for (int i = 0; i < 4; i++) {
		struct ik_governor_inst *inst = open_probe_for(&d, "11", releases[i]);
		struct ik_govreplay *g = calloc(1, sizeof(*g));
		assert_non_null(g);
		assert_int_equal(ik__govreplay_init(g, &d, ik__governor_inst_ops(inst), 250, NULL, err,
						   sizeof(err)), 0);
		assert_int_equal(ik__govreplay_start(g, err, sizeof(err)), 0);
		assert_int_equal(step(g, IK_LATENCY_REQ_NONE_NS), expect[i]);
		ik__govreplay_free(g);
		ik__governor_close(inst);
		free(g);
	}
	/* Releases the shim does not serve (before 5.1), and nonsense, are refused by name. */
	const char *names[] = { "probe" }, *values[] = { "11" };
	struct ik_governor_open_args a = { .spec = "kernel:kgov/probe.c", .drv = &d, .hz = 250,
					   .nparams = 1, .param_names = names,
					   .param_values = values, .kernel_version = "5.0" };
	struct ik_governor_inst *inst = NULL;
	assert_int_equal(ik__governor_open(&a, &inst, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "kernel version 5.0: the kernel shim serves the governor API of v5.5 to v7.1 (v7.0 and v7.1 as v6.19), and of v5.1 to v5.4"));
	a.kernel_version = "six";
	assert_int_equal(ik__governor_open(&a, &inst, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "expected X.Y"));
}

/* A file in the v5.4 API (microseconds) compiles for 5.4, and not for 6.19. */
static void microsecond_api_of_5_4(void **state)
{
	(void)state;
	struct ik_driver d = four_states();
	struct ik_governor_open_args a = { .spec = "kernel:kgov/us_api.c", .drv = &d, .hz = 250,
					   .kernel_version = "5.4" };
	struct ik_governor_inst *inst = NULL;
	char err[1024];
	if (ik__governor_open(&a, &inst, err, sizeof(err)))
		fail_msg("open for 5.4: %s", err);
	struct ik_govreplay *g = calloc(1, sizeof(*g));
	assert_non_null(g);
	assert_int_equal(ik__govreplay_init(g, &d, ik__governor_inst_ops(inst), 250, NULL, err,
					   sizeof(err)), 0);
	assert_int_equal(ik__govreplay_start(g, err, sizeof(err)), 0);
	struct ik_govreplay_input in = { .sleep_ns = IK_KTIME_MAX, .tick_ns = 4000000,
					 .wake_ns = 50000, .latency_req_ns = IK_LATENCY_REQ_NONE_NS };
	struct ik_govreplay_result r;
	/* POLL until its 20 us limit (S2's residency) -> 20 us -> S2 (20 us) -> 60 us -> S2. */
	ik__govreplay_step(g, &in, &r);
	assert_int_equal(r.state, 0);
	ik__govreplay_step(g, &in, &r);
	assert_int_equal(r.state, 2);
	ik__govreplay_step(g, &in, &r);
	assert_int_equal(r.state, 2);
	in.latency_req_ns = 5000; /* 5 us: S1 (2 us) fits, S2 (10 us) does not */
	ik__govreplay_step(g, &in, &r);
	assert_int_equal(r.state, 1);
	ik__govreplay_free(g);
	ik__governor_close(inst);
	free(g);

	a.kernel_version = NULL;
	assert_int_equal(ik__governor_open(&a, &inst, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "no member named"));
}

static void builtin_through_the_same_call(void **state)
{
	(void)state;
	struct ik_driver d = four_states();
	const char *names[] = { "guest_halt_poll_ns" }, *values[] = { "100000" };
	struct ik_governor_open_args a = { .spec = "haltpoll", .drv = &d, .hz = 250, .nparams = 1,
					   .param_names = names, .param_values = values };
	struct ik_governor_inst *inst = NULL;
	char err[512];
	assert_int_equal(ik__governor_open(&a, &inst, err, sizeof(err)), 0);
	assert_ptr_equal(ik__governor_inst_ops(inst)->select, ik_governor_haltpoll.select);
	assert_int_equal(ik__governor_inst_haltpoll(inst)->guest_halt_poll_ns, 100000);
	ik__governor_close(inst);

	a.spec = "menu";
	assert_int_equal(ik__governor_open(&a, &inst, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "governor.guest_halt_poll_ns: governor menu has no parameter"));
	a.nparams = 0;
	a.spec = "nosuch";
	assert_int_equal(ik__governor_open(&a, &inst, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "unknown governor 'nosuch'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_instances_do_not_share_state),
		cmocka_unit_test(module_parameters_are_per_instance),
		cmocka_unit_test(release_selection),
		cmocka_unit_test(microsecond_api_of_5_4),
		cmocka_unit_test(builtin_through_the_same_call),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
