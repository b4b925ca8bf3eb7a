/* The workloads' registry: one ops table per kind, each naming its own kind, the names the
   scenario reader accepts and the reports print, and every workload runnable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "idlekit/config.h"
#include "idlekit/sim.h"
#include "sim/workload.h"

static void test_every_kind_has_its_ops(void **state)
{
	(void)state;
	for (int k = 0; k < IK_WORKLOAD_KINDS; k++) {
		const struct sim_workload_ops *ops = sim_workload_ops_of((enum ik_workload_kind)k);
		assert_non_null(ops);
		assert_int_equal(ops->kind, k);
		assert_non_null(ops->name);
		assert_true(ops->name[0] != '\0');
		assert_non_null(ops->setup);
		assert_non_null(ops->max_tasks);
		assert_string_equal(ik_workload_type_name((enum ik_workload_kind)k), ops->name);
		for (int j = 0; j < k; j++)
			assert_string_not_equal(ops->name,
						sim_workload_ops_of((enum ik_workload_kind)j)->name);
	}
	assert_null(sim_workload_ops_of((enum ik_workload_kind)IK_WORKLOAD_KINDS));
	assert_string_equal(ik_workload_type_name((enum ik_workload_kind)IK_WORKLOAD_KINDS),
			    "unknown");
}

/* One short run of workload.type = name on intel-skx: its idle entries and its wake-ups
   plus messages. */
static void run_type(const char *name, int kind, uint64_t *entries, uint64_t *woke)
{
	char ini[256], err[512];
	snprintf(ini, sizeof(ini), "[scenario]\nname = registry\nplatform = intel-skx\nduration_ms = 5\n"
		 "[workload]\ntype = %s\n%s", name,
		 kind == IK_WORKLOAD_STREAM ? "placement = same_package\n" : "");
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	assert_non_null(sc);
	int rc = ik_scenario_parse_string("registry.ini", ini, NULL, 0, sc, err, sizeof(err));
	if (rc != 0)
		print_error("%s: %s\n", name, err);
	assert_int_equal(rc, 0);
	assert_int_equal(sc->workload.kind, kind);
	/* its settings fit the list with room to spare (none dropped) */
	struct ik_workload_settings set;
	ik_workload_settings(&sc->workload, &set);
	assert_true(set.n < IK_WORKLOAD_SETTINGS);
	for (int i = 0; i < set.n; i++)
		assert_non_null(set.v[i].key);
	struct ik_run_result r;
	rc = ik_sim_run(sc, 1, &r, err, sizeof(err));
	if (rc != 0)
		print_error("%s: %s\n", name, err);
	assert_int_equal(rc, 0);
	*entries = r.idle_entries;
	*woke = r.wakeups + r.messages;
	ik_run_result_free(&r);
	free(sc);
}

/* The reader takes workload.type's names from the registry: each name reads back as its
   kind, and runs through its own ops: every workload but idle changes what the machine
   does (its wake-ups or messages, or at least its idle entries). */
static void test_reader_uses_the_registry_names(void **state)
{
	(void)state;
	const char *names[IK_WORKLOAD_KINDS];
	ik_workload_type_names(names);
	uint64_t idle_entries, idle_woke;
	run_type(names[IK_WORKLOAD_IDLE], IK_WORKLOAD_IDLE, &idle_entries, &idle_woke);
	assert_int_equal(idle_woke, 0);
	for (int k = 0; k < IK_WORKLOAD_KINDS; k++) {
		if (k == IK_WORKLOAD_RTAPP || k == IK_WORKLOAD_LEARNED)
			continue; /* these need a file */
		uint64_t entries, woke;
		run_type(names[k], k, &entries, &woke);
		if (k != IK_WORKLOAD_IDLE)
			assert_true(woke > 0 || entries != idle_entries);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_has_its_ops),
		cmocka_unit_test(test_reader_uses_the_registry_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
