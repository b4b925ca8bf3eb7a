/*
 * Replay's what-if (src/trace/replay.c, replay_cost.c, state_map.c): the two loop models
 * worked out by hand on a three-period trace, several governors in one pass giving what
 * each gives alone, and the mapping of states across tables.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/replay.h"

/*
 * One CPU recorded in C6 (exit 100 us):
 *   period 1: entry 0, wake (irq) 1000 us, exit 1100 us
 *   period 2: entry 1150 us, wake 1200 us, exit 1202 us
 *   period 3: entry 1250 us, wake 2000 us, exit 2100 us
 * Replayed on a table whose only state is C6 with a 300 us exit (no platform: the exit
 * costs the advertised latency):
 *   open loop:   p1 ends at 1300; p2 enters at max(1150, 1300) = 1300 >= its wake 1200:
 *                pending, waits 100 us; p3 enters at max(1250, 1300), wakes at 2000, ends
 *                at 2300.  Latencies 300, 100, 300 us; the replay ends at 2300.
 *   closed loop: D = 1300 - 1100 = 200; p2 enters at 1350 > 1200: pending, waits 150 us,
 *                D = 1350 - 1202 = 148; p3 enters at 1398, ends at 2300: D = 200.
 */
static const char three[] =
	"idlekit-trace 1\nhz 250\ncpus 1\ndriver rec 0\nstate C6 100 400 0x0\nevents\n"
	"0 0 idle_enter 0\n1000000 0 wake irq 9\n1100000 0 idle_exit\n"
	"1150000 0 idle_enter 0\n1200000 0 wake irq 9\n1202000 0 idle_exit\n"
	"1250000 0 idle_enter 0\n2000000 0 wake irq 9\n2100000 0 idle_exit\n";

static void slow_c6(struct ik_driver *drv)
{
	char err[128];
	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "slow");
	drv->state_count = 1;
	snprintf(drv->states[0].name, IK_NAME_LEN, "C6");
	drv->states[0].exit_latency = 300;
	drv->states[0].target_residency = 400;
	assert_int_equal(ik_driver_init(drv, err, sizeof(err)), 0);
}

static void replay_three(bool closed, struct ik_trace_replay *rp)
{
	struct ik_driver drv;
	slow_c6(&drv);
	struct ik_trace_reader *r;
	char err[256];
	assert_int_equal(ik__trace_open_mem(three, strlen(three), "three", false, &r, err, sizeof(err)), 0);
	struct ik_trace_replay_opts o = { .drv = &drv, .gov = ik_governor_find("menu"),
					  .closed_loop = closed };
	assert_int_equal(ik__trace_replay_run(r, &o, rp, err, sizeof(err)), 0);
	ik__trace_close(r);
}

static void test_open_loop(void **state)
{
	(void)state;
	struct ik_trace_replay rp;
	replay_three(false, &rp);
	assert_int_equal(rp.periods, 3);
	assert_int_equal(rp.wake_pending, 1);
	assert_int_equal(rp.entries, 2);
	const struct ik_hist *l = &rp.run.wake_latency;
	assert_int_equal(l->count, 3);
	assert_int_equal(l->min, 100000);
	assert_int_equal(l->max, 300000);
	assert_true(l->sum == 700000.0);
	assert_int_equal(rp.run.measured_ns, 2300000);
	/* in the state: 0..1300 and 1300..2300 us */
	assert_int_equal(rp.all[0].time_ns, 2300000);
	assert_false(rp.has_energy);
	ik__trace_replay_free(&rp);
}

static void test_closed_loop(void **state)
{
	(void)state;
	struct ik_trace_replay rp;
	replay_three(true, &rp);
	assert_int_equal(rp.wake_pending, 1);
	const struct ik_hist *l = &rp.run.wake_latency;
	assert_int_equal(l->count, 3);
	assert_int_equal(l->min, 150000);
	assert_true(l->sum == 750000.0);
	assert_int_equal(rp.cpu[0].delay_ns, 200000);
	assert_int_equal(rp.run.measured_ns, 2300000);
	/* in the state: 0..1300 and 1398..2300 us */
	assert_int_equal(rp.all[0].time_ns, 1300000 + 902000);
	ik__trace_replay_free(&rp);
}

/* menu, teo and ladder in one pass give what each gives alone. */
static void test_many_equals_one(void **state)
{
	(void)state;
	struct ik_driver drv;
	char err[256];
	memset(&drv, 0, sizeof(drv));
	snprintf(drv.name, sizeof(drv.name), "gen");
	ik_poll_state_init(&drv);
	drv.state_count = 3;
	snprintf(drv.states[1].name, IK_NAME_LEN, "C1");
	drv.states[1].exit_latency = 2;
	drv.states[1].target_residency = 4;
	snprintf(drv.states[2].name, IK_NAME_LEN, "C6");
	drv.states[2].exit_latency = 100;
	drv.states[2].target_residency = 400;
	assert_int_equal(ik_driver_init(&drv, err, sizeof(err)), 0);
	struct ik_trace_header h;
	assert_int_equal(ik__trace_header_init(&h, 250, 3, &drv), 0);
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(ik__trace_generate(f, &h, 30000, 3), 0);
	fclose(f);
	ik__trace_header_free(&h);

	static const char *const names[] = { "menu", "teo", "ladder" };
	for (int closed = 0; closed < 2; closed++) {
		struct ik_trace_replay_opts o[3];
		for (int g = 0; g < 3; g++)
			o[g] = (struct ik_trace_replay_opts){ .drv = &drv, .gov = ik_governor_find(names[g]),
							      .closed_loop = closed };
		struct ik_trace_reader *r;
		struct ik_trace_replay many[3], one;
		assert_int_equal(ik__trace_open_mem(text, len, "gen", false, &r, err, sizeof(err)), 0);
		assert_int_equal(ik__trace_replay_many(r, o, 3, many, err, sizeof(err)), 0);
		ik__trace_close(r);
		for (int g = 0; g < 3; g++) {
			assert_int_equal(ik__trace_open_mem(text, len, "gen", false, &r, err, sizeof(err)), 0);
			assert_int_equal(ik__trace_replay_run(r, &o[g], &one, err, sizeof(err)), 0);
			ik__trace_close(r);
			assert_memory_equal(one.all, many[g].all, sizeof(one.all));
			assert_memory_equal(one.confusion, many[g].confusion, sizeof(one.confusion));
			assert_int_equal(one.wake_pending, many[g].wake_pending);
			assert_int_equal(one.run.measured_ns, many[g].run.measured_ns);
			assert_memory_equal(&one.run.wake_latency, &many[g].run.wake_latency,
					    sizeof(one.run.wake_latency));
			assert_true(one.periods > 5000);
			ik__trace_replay_free(&one);
			ik__trace_replay_free(&many[g]);
		}
	}
	free(text);
}

static void table(struct ik_driver *d, const char *name, int n, const char *const *names,
		  bool poll0)
{
	char err[128];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	int first = 0;
	if (poll0) {
		ik_poll_state_init(d);
		first = 1;
	}
	d->state_count = n;
	for (int i = first; i < n; i++) {
		snprintf(d->states[i].name, IK_NAME_LEN, "%s", names[i]);
		d->states[i].exit_latency = (uint32_t)(10 * i);
		d->states[i].target_residency = (uint32_t)(40 * i);
	}
	assert_int_equal(ik_driver_init(d, err, sizeof(err)), 0);
}

static void test_state_map(void **state)
{
	(void)state;
	static const char *const rec_names[] = { "POLL", "c1", "C1E", "C6" };
	static const char *const juno[] = { "WFI", "cpu-sleep", "cluster-sleep" };
	struct ik_trace_header h;
	struct ik_driver rec, plat;
	table(&rec, "rec", 4, rec_names, true);
	assert_int_equal(ik__trace_header_init(&h, 250, 1, &rec), 0);

	/* no name in common, no polling state: by depth, POLL to none */
	table(&plat, "juno", 3, juno, false);
	struct ik_trace_state_map m;
	ik__trace_state_map_build(&h, &plat, &m);
	assert_false(m.identity);
	assert_int_equal(m.to[0][0], -1);
	assert_int_equal(m.how[0][0], IK_MAP_NONE);
	assert_int_equal(m.to[0][1], 0); /* 1st of 3 -> 1st of 3 */
	assert_int_equal(m.to[0][2], 1); /* 2nd -> 2nd */
	assert_int_equal(m.to[0][3], 2); /* deepest -> deepest */
	assert_int_equal(m.how[0][3], IK_MAP_DEPTH);

	/* names first (case ignored), the rest by depth */
	static const char *const skx[] = { "POLL", "C1", "C6" };
	table(&plat, "skx", 3, skx, true);
	ik__trace_state_map_build(&h, &plat, &m);
	assert_int_equal(m.to[0][0], 0);
	assert_int_equal(m.how[0][0], IK_MAP_NAME);
	assert_int_equal(m.to[0][1], 1);
	assert_int_equal(m.how[0][1], IK_MAP_NAME);
	assert_int_equal(m.to[0][2], 2); /* C1E: 2nd of 3 non-polling -> round(1 * 1 / 2) = 1 (halves up): C6 */
	assert_int_equal(m.how[0][2], IK_MAP_DEPTH);
	assert_int_equal(m.to[0][3], 2);

	/* the same table: identity */
	ik__trace_state_map_build(&h, &rec, &m);
	assert_true(m.identity);
	ik__trace_header_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_loop),
		cmocka_unit_test(test_closed_loop),
		cmocka_unit_test(test_many_equals_one),
		cmocka_unit_test(test_state_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
