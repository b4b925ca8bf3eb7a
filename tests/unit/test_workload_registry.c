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

#include "config/config.h"
#include "sim/sim.h"
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
		assert_string_equal(ik__workload_type_name((enum ik_workload_kind)k), ops->name);
		for (int j = 0; j < k; j++)
			assert_string_not_equal(ops->name,
						sim_workload_ops_of((enum ik_workload_kind)j)->name);
	}
	assert_null(sim_workload_ops_of((enum ik_workload_kind)IK_WORKLOAD_KINDS));
	assert_string_equal(ik__workload_type_name((enum ik_workload_kind)IK_WORKLOAD_KINDS),
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
	int rc = ik__scenario_parse_string("registry.ini", ini, NULL, 0, sc, err, sizeof(err));
	if (rc != 0)
		print_error("%s: %s\n", name, err);
	assert_int_equal(rc, 0);
	assert_int_equal(sc->workload.kind, kind);
	/* its settings fit the list with room to spare (none dropped) */
	struct ik_workload_settings set;
	ik__workload_settings(&sc->workload, &set);
	assert_true(set.n < IK_WORKLOAD_SETTINGS);
	for (int i = 0; i < set.n; i++)
		assert_non_null(set.v[i].key);
	struct ik_run_result r;
	rc = ik__sim_run(sc, 1, &r, err, sizeof(err));
	if (rc != 0)
		print_error("%s: %s\n", name, err);
	assert_int_equal(rc, 0);
	*entries = r.idle_entries;
	*woke = r.wakeups + r.messages;
	ik__run_result_free(&r);
	free(sc);
}

/* The reader takes workload.type's names from the registry: each name reads back as its
   kind, and runs through its own ops: every workload but idle changes what the machine
   does (its wake-ups or messages, or at least its idle entries). */
static void test_reader_uses_the_registry_names(void **state)
{
	(void)state;
	const char *names[IK_WORKLOAD_KINDS];
	ik__workload_type_names(names);
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

/*
 * A workload the registry does not know, run through the engine by its ops alone: task 0
 * is a clock that wakes the `tasks` workers (task i on CPU i - 1) every period, a
 * broadcast; each worker's work done is counted.  What a new workload needs from the
 * engine is only its ops table (and, to be chosen by name, one line in the registry).
 */
struct toy {
	int works_done;
	int clock_ticks;
};
static int toy_frees; /* the engine must call free once per run */

static int toy_max_tasks(const struct ik_workload *w)
{
	return 1 + w->tasks;
}

static int toy_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	struct toy *t = calloc(1, sizeof(*t));

	if (!t || sim_tasks_alloc(s, 1 + w->tasks)) {
		free(t);
		return sim_workload_oom(err, errlen);
	}
	s->wl = t;
	for (int i = 1; i <= w->tasks; i++) {
		s->tasks[i].cpu = (i - 1) % s->ncpus;
		s->tasks[i].pinned = true;
		s->tasks[i].work_ns = w->task_work_ns;
	}
	ik__eq_arm(&s->eq, task_timer_id(s, 0), w->start_ns + w->period_ns);
	return 0;
}

static bool toy_task_timer(struct ik_sim *s, int task)
{
	struct toy *t = s->wl;

	if (task != 0)
		return false;
	if (s->measuring)
		t->clock_ticks++;
	for (int i = 1; i < s->ntasks; i++)
		if (s->tasks[i].state == TASK_BLOCKED)
			sim_wake_task(s, i, 0);
	ik__eq_arm(&s->eq, task_timer_id(s, 0), s->now + s->sc->workload.period_ns);
	return true;
}

static void toy_task_done(struct ik_sim *s, int task)
{
	struct toy *t = s->wl;

	(void)task;
	if (s->measuring)
		t->works_done++;
}

static int toy_result(struct ik_sim *s, struct ik_run_result *out)
{
	const struct toy *t = s->wl;

	out->messages = (uint64_t)t->works_done; /* its figure, where reports look for one */
	out->side_units = (uint64_t)t->clock_ticks;
	return 0;
}

/* Called only when set-up made its state: the toy's holds nothing (the engine frees
   s->wl itself). */
static void toy_free(struct ik_sim *s)
{
	(void)s;
	toy_frees++;
}

static const struct sim_workload_ops toy_ops = {
	.name = "toy",
	.kind = IK_WORKLOAD_IDLE, /* (unused: the test passes the ops itself) */
	.max_tasks = toy_max_tasks,
	.setup = toy_setup,
	.task_timer = toy_task_timer,
	.task_done = toy_task_done,
	.result = toy_result,
	.free = toy_free,
};

static void test_a_toy_workload_needs_only_its_ops(void **state)
{
	(void)state;
	static const char ini[] = "[scenario]\nname = toy\nplatform = intel-skx\n"
				  "duration_ms = 100\nwarmup_ms = 0\n[workload]\ntype = idle\n"
				  "tasks = 4\nperiod_us = 1000\ntask_work_ns = 20000\n";
	char err[512];
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	assert_non_null(sc);
	assert_int_equal(ik__scenario_parse_string("toy.ini", ini, NULL, 0, sc, err, sizeof(err)), 0);
	toy_frees = 0;

	struct ik_run_result r;
	int rc = sim_run(sc, &toy_ops, 1, NULL, &r, err, sizeof(err));
	if (rc != 0)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	assert_int_equal(toy_frees, 1);
	/* a tick every 1 ms over 100 ms (the last may fall on the end), each waking 4 workers
	   that each finish their 20 us of work before the next */
	assert_true(r.side_units >= 99 && r.side_units <= 100);
	assert_true(r.messages >= 4 * (r.side_units - 1) && r.messages <= 4 * r.side_units);
	/* the engine counted the wake-ups it made, and the CPUs idled between ticks */
	assert_true(r.wakeups >= 4 * (r.side_units - 1) && r.wakeups <= 4 * r.side_units);
	assert_true(r.idle_entries >= r.messages);
	ik__run_result_free(&r);
	free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_has_its_ops),
		cmocka_unit_test(test_reader_uses_the_registry_names),
		cmocka_unit_test(test_a_toy_workload_needs_only_its_ops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
