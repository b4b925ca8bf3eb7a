/*
 * Kernel releases and behaviour switches (src/core/kernel_release.c), and the switches of
 * menu's pattern search and history, checked on hand-worked cases.
 *
 * menu's pattern search is private to menu.c, so this file includes the source to reach
 * it (the static library's menu.o is then not pulled in, as for test_menu).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "idlekit/cpuidle.h"
#include "idlekit/governor.h"
#include "idlekit/kernel.h"

#include "governors/menu.c"

/* ---- The catalogue ------------------------------------------------------------------------ */

/* The LTS lines' governor sets written as constants (menu's specialised paths) equal what
   the table says each release they stand for contains; no other release has them. */
static void test_lts_governor_sets(void **state)
{
	(void)state;
	static const struct {
		uint64_t set;
		unsigned first, last;
	} lines[] = {
		{ IK_KERNEL_GOV_ON_5_15, 515, 602 },
		{ IK_KERNEL_GOV_ON_6_6, 606, 608 },
		{ IK_KERNEL_GOV_ON_6_12, 611, 612 },
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		for (unsigned rel = 416; rel <= 701; rel++) {
			if (rel % 100 > 20)
				continue;
			struct ik_kernel k;
			ik_kernel_init(&k, rel);
			bool same = (k.on & IK_KERNEL_GOVERNOR_SWITCHES) == lines[i].set;
			bool inside = rel >= lines[i].first && rel <= lines[i].last;
			if (same != inside)
				fail_msg("release %u.%u: governor set %s line %zu's constant", rel / 100,
					 rel % 100, same ? "equals" : "differs from", i);
		}
	}
}

/* The default set written as a constant equals what the table says 6.19 contains. */
static void test_default_is_6_19(void **state)
{
	(void)state;
	struct ik_kernel k;

	ik_kernel_init(&k, 619);
	assert_int_equal(ik_kernel_default.release, 619);
	assert_true(k.on == ik_kernel_default.on);
	/* Spot checks: reverted in 6.18, reverted in 6.11, not yet landed (7.0). */
	assert_false(ik_kernel_has(&k, IK_SW_MENU_TYPICAL_MAX));
	assert_false(ik_kernel_has(&k, IK_SW_TEO_UTIL));
	assert_false(ik_kernel_has(&k, IK_SW_MENU_STOPPED_TICK_QUERY));
	assert_true(ik_kernel_has(&k, IK_SW_MENU_POLL_OVERRIDE_SHORT));
}

/* Names unique and non-empty; every landing and revert is a known release; landing order. */
static void test_table_consistent(void **state)
{
	(void)state;
	size_t n;
	const unsigned *rel = ik_kernel_releases(&n);
	unsigned last_since = 0;

	for (size_t i = 1; i < n; i++)
		assert_true(rel[i - 1] < rel[i]);
	for (int s = 0; s < IK_SW_COUNT; s++) {
		const struct ik_switch_info *a = ik_switch_info((enum ik_switch)s);
		bool since_known = false, until_known = a->until == 0;

		assert_non_null(a->name);
		assert_true(a->name[0] != '\0' && a->what[0] != '\0');
		assert_int_equal(ik_switch_find(a->name), s);
		for (size_t i = 0; i < n; i++) {
			since_known |= rel[i] == a->since;
			until_known |= rel[i] == a->until;
		}
		if (ik_switch_is_proposal(a)) { /* never merged: in no release */
			assert_int_equal(a->until, 0);
			for (size_t i = 0; i < n; i++)
				assert_false(ik_kernel_release_has(rel[i], (enum ik_switch)s));
			continue;
		}
		assert_true(since_known);
		assert_true(until_known);
		assert_true(a->until == 0 || a->until > a->since);
		/* landing order within the governors' part and within the drivers' part */
		if (s == IK_SW_FIRST_DRIVER)
			last_since = 0;
		assert_true(a->since >= last_since);
		last_since = a->since;
	}
	assert_int_equal(ik_switch_find("no_such_switch"), -1);
}

/* A release contains exactly what landed by it and was not reverted. */
static void test_release_membership(void **state)
{
	(void)state;
	assert_false(ik_kernel_release_has(416, IK_SW_IDLE_TICK_GOVERNOR_DECIDES));
	assert_true(ik_kernel_release_has(417, IK_SW_IDLE_TICK_GOVERNOR_DECIDES));
	assert_false(ik_kernel_release_has(615 - 1, IK_SW_MENU_TYPICAL_MAX));
	assert_true(ik_kernel_release_has(615, IK_SW_MENU_TYPICAL_MAX));
	assert_true(ik_kernel_release_has(617, IK_SW_MENU_TYPICAL_MAX));
	assert_false(ik_kernel_release_has(618, IK_SW_MENU_TYPICAL_MAX));
	assert_true(ik_kernel_release_has(606, IK_SW_TEO_UTIL));
	assert_false(ik_kernel_release_has(611, IK_SW_TEO_UTIL));
	assert_false(ik_kernel_release_has(612, IK_SW_MENU_NO_IOWAIT));
	assert_true(ik_kernel_release_has(613, IK_SW_MENU_NO_IOWAIT));
	assert_false(ik_kernel_release_has(510, IK_SW_POLL_LIMIT_MIN_RESIDENCY));
	assert_true(ik_kernel_release_has(515, IK_SW_POLL_LIMIT_MIN_RESIDENCY));
}

static void test_parse_release(void **state)
{
	(void)state;
	unsigned r = 0;
	char err[512];

	assert_int_equal(ik_kernel_parse_release("6.6", &r, err, sizeof(err)), 0);
	assert_int_equal(r, 606);
	assert_int_equal(ik_kernel_parse_release("5.10.7", &r, err, sizeof(err)), 0);
	assert_int_equal(r, 510);
	assert_int_equal(ik_kernel_parse_release("7.0", &r, err, sizeof(err)), 0);
	assert_int_equal(r, 700);
	/* a release no modelled change landed in is its own number: its switches are the ones
	   landed by then (those of the listed release before it) */
	assert_int_equal(ik_kernel_parse_release("6.8", &r, err, sizeof(err)), 0);
	assert_int_equal(r, 608);
	assert_int_equal(ik_kernel_parse_release("4.19.325", &r, err, sizeof(err)), 0);
	assert_int_equal(r, 419);
	struct ik_kernel a, b;
	ik_kernel_init(&a, 608);
	ik_kernel_init(&b, 606);
	assert_true(a.on == b.on);
	const char *bad[] = { "4.15", "5.20", "6.20", "7.2", "8.0", "6", "6.", ".6", "6.6.", "6.6x",
			      "-6.6", "", "1234.1", "6.100" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(ik_kernel_parse_release(bad[i], &r, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "known releases: 4.16 4.17"));
		assert_non_null(strstr(err, " 6.19 7.0 7.1"));
	}
}

/* Flips survive a change of release and are what describe() and has() report. */
static void test_flip_and_describe(void **state)
{
	(void)state;
	struct ik_kernel k;
	char err[1400], buf[256];

	ik_kernel_init(&k, 612);
	assert_string_equal(ik_kernel_describe(&k, buf, sizeof(buf)), "6.12");
	assert_int_equal(ik_kernel_flip(&k, "menu_no_iowait", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_flip(&k, "menu_skip_timer_query", "off", err, sizeof(err)), 0);
	assert_true(ik_kernel_has(&k, IK_SW_MENU_NO_IOWAIT));
	assert_false(ik_kernel_has(&k, IK_SW_MENU_SKIP_TIMER_QUERY));
	assert_string_equal(ik_kernel_describe(&k, buf, sizeof(buf)),
			    "6.12 -menu_skip_timer_query +menu_no_iowait");
	/* A later release already has menu_no_iowait: that flip no longer differs. */
	ik_kernel_set_release(&k, 619);
	assert_string_equal(ik_kernel_describe(&k, buf, sizeof(buf)), "6.19 -menu_skip_timer_query");
	assert_int_equal(ik_kernel_flip(&k, "menu_bogus", "on", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown switch 'menu_bogus'; known switches: "
				    "idle_tick_governor_decides "));
	assert_non_null(strstr(err, " teo_stopped_tick_safe_range"));
	assert_int_equal(ik_kernel_flip(&k, "menu_no_iowait", "yes", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "expected 'on' or 'off'"));
}

/* Which governor can run as which release. */
static void test_check(void **state)
{
	(void)state;
	struct ik_kernel k;
	char err[1024];
	const char *govs[] = { "menu", "teo", "ladder", "haltpoll" };

	ik_kernel_init(&k, 619);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(ik_kernel_check(&k, govs[i], err, sizeof(err)), 0);

	ik_kernel_init(&k, 500);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	assert_string_equal(err, "kernel 5.0 has no teo governor (it came with 5.1)");
	assert_int_equal(ik_kernel_check(&k, "menu", err, sizeof(err)), 0);

	ik_kernel_init(&k, 501);
	assert_int_equal(ik_kernel_check(&k, "haltpoll", err, sizeof(err)), -1);
	assert_int_equal(ik_kernel_check(&k, "ladder", err, sizeof(err)), 0);

	/* teo runs as every release whose teo.c a tree here shows (or that equals one). */
	static const unsigned teo_runs[] = { 501, 504, 505, 506, 507, 508, 509, 510, 511, 514,
					     515, 600, 601, 603, 606, 609, 611, 612, 613, 614,
					     619, 700 };
	for (size_t i = 0; i < sizeof(teo_runs) / sizeof(teo_runs[0]); i++) {
		ik_kernel_init(&k, teo_runs[i]);
		assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
	}
	/* ... and not as those no tree establishes, each with its reason. */
	ik_kernel_init(&k, 507); /* nanoseconds and 5.5's fixes came together */
	assert_int_equal(ik_kernel_flip(&k, "teo_legacy_fixes", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "in no release (both came with 5.5)"));
	assert_true(ik_kernel_release_has(505, IK_SW_NS_UNITS));
	assert_false(ik_kernel_release_has(504, IK_SW_TEO_LEGACY_FIXES));
	ik_kernel_init(&k, 510); /* teo_util only with the rework's bins */
	assert_int_equal(ik_kernel_flip(&k, "teo_util", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	/*
	 * 6.15-6.18 run 6.14.0's teo (6.18.2's teo.c differs from it in two comments; every
	 * teo change after 6.14 came with pm-6.19-rc1): the same teo switches as 6.14.
	 */
	static const unsigned teo_as_6_14[] = { 615, 617, 618 };
	for (size_t i = 0; i < 3; i++) {
		ik_kernel_init(&k, teo_as_6_14[i]);
		assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
		for (int s = 0; s < IK_SW_COUNT; s++)
			if (ik_switch_info((enum ik_switch)s)->area == IK_AREA_TEO)
				assert_int_equal(ik_kernel_release_has(teo_as_6_14[i], (enum ik_switch)s),
						 ik_kernel_release_has(614, (enum ik_switch)s));
	}
	assert_false(ik_kernel_release_has(618, IK_SW_TEO_DROP_RESIDENCY_CHECK));
	assert_true(ik_kernel_release_has(619, IK_SW_TEO_DROP_RESIDENCY_CHECK));
	/* 6.18.3's stable teo.c: 6.18's with the dropped residency check alone. */
	ik_kernel_init(&k, 618);
	assert_int_equal(ik_kernel_flip(&k, "teo_drop_residency_check", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
	/* ... but 6.19's later teo commits do not come without it. */
	ik_kernel_init(&k, 619);
	assert_int_equal(ik_kernel_flip(&k, "teo_drop_residency_check", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "in the order they were applied"));
	/* 7.0 and 7.1 run teo and menu (the patch mails' files). */
	ik_kernel_init(&k, 700);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "menu", err, sizeof(err)), 0);
	assert_false(ik_kernel_has(&k, IK_SW_MENU_SAFE_TIMER_RANGE));
	ik_kernel_init(&k, 701);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "menu", err, sizeof(err)), 0);
	assert_true(ik_kernel_has(&k, IK_SW_MENU_SAFE_TIMER_RANGE));
	assert_true(ik_kernel_release_has(700, IK_SW_TEO_INTERCEPTS_MAX_LOOKUP));
	assert_false(ik_kernel_release_has(700, IK_SW_TEO_STOPPED_TICK_SAFE_RANGE));
	assert_true(ik_kernel_release_has(701, IK_SW_TEO_STOPPED_TICK_SAFE_RANGE));
	assert_false(ik_kernel_release_has(619, IK_SW_TEO_ZERO_SIZE_BINS));

	/* 4.16 runs menu and ladder; every release from 4.17 to 5.0 too. */
	size_t nrel;
	const unsigned *rels = ik_kernel_releases(&nrel);
	for (size_t i = 0; i < nrel && rels[i] <= 500; i++) {
		ik_kernel_init(&k, rels[i]);
		assert_int_equal(ik_kernel_check(&k, "ladder", err, sizeof(err)), 0);
		assert_int_equal(ik_kernel_check(&k, "menu", err, sizeof(err)), 0);
	}

	/* teo before its rework: one of three files, none of the later teo switches. */
	ik_kernel_init(&k, 510);
	assert_int_equal(ik_kernel_flip(&k, "teo_tick_rework", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "none of the later teo switches"));
	ik_kernel_init(&k, 510);
	assert_int_equal(ik_kernel_flip(&k, "ns_units", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "modelled as the 5.10.7 file"));
	ik_kernel_init(&k, 504);
	assert_int_equal(ik_kernel_flip(&k, "teo_2019_fixes", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0); /* the 5.2.1 file */
	/* The 5.15/6.1 file has none of 6.6's switches; teo.c's switches flip freely. */
	ik_kernel_init(&k, 601);
	assert_int_equal(ik_kernel_flip(&k, "teo_tick_stats", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "5.15/6.1 file"));
	ik_kernel_init(&k, 612);
	assert_int_equal(ik_kernel_flip(&k, "teo_util", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_flip(&k, "teo_no_recent", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
	/*
	 * The teo switches of pm-6.19-rc1, 7.0 and 7.1: every prefix of their landing order is
	 * a file (6.18, 6.18.3 stable, the commits in between, 6.19, 7.0, 7.1); a gap in it is
	 * refused.
	 */
	static const char *const since_6_19[] = {
		"teo_drop_residency_check", "teo_decay_to_zero", "teo_tick_rework",
		"teo_tick_intercepts_within", "teo_simple_intercepts_lookup", "teo_zero_size_bins",
		"teo_tick_fake_intercepts", "teo_tick_keep_two_thirds",
		"teo_hits_by_exit_latency", "teo_intercepts_max_lookup", "teo_stopped_tick_safe_range"
	};
	const int nsince = (int)(sizeof(since_6_19) / sizeof(since_6_19[0]));
	for (int n = 0; n <= nsince; n++) {
		ik_kernel_init(&k, 618);
		for (int i = 0; i < n; i++)
			assert_int_equal(ik_kernel_flip(&k, since_6_19[i], "on", err, sizeof(err)), 0);
		assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
		unsigned same = n == 5 ? 619 : n == 10 ? 700 : n == nsince ? 701 : 0;
		if (same) /* 6.19's, 7.0's or 7.1's teo switches */
			for (int s = 0; s < IK_SW_COUNT; s++)
				if (ik_switch_info((enum ik_switch)s)->area == IK_AREA_TEO)
					assert_int_equal(ik_kernel_has(&k, (enum ik_switch)s),
							 ik_kernel_release_has(same, (enum ik_switch)s));
	}
	for (int gap = 1; gap < nsince - 1; gap++) { /* one of them off, a later one on */
		ik_kernel_init(&k, 701);
		assert_int_equal(ik_kernel_flip(&k, since_6_19[gap], "off", err, sizeof(err)), 0);
		assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
		assert_non_null(strstr(err, "in the order they were applied"));
	}
	ik_kernel_init(&k, 701); /* 7.1's commit alone off: 7.0 */
	assert_int_equal(ik_kernel_flip(&k, "teo_stopped_tick_safe_range", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
	ik_kernel_init(&k, 619); /* the last alone off: the commit before it */
	assert_int_equal(ik_kernel_flip(&k, "teo_simple_intercepts_lookup", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
	/* The dropped check alone also on 6.12's code (as 6.6.y stable backported it). */
	ik_kernel_init(&k, 612);
	assert_int_equal(ik_kernel_flip(&k, "teo_drop_residency_check", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
	ik_kernel_init(&k, 614); /* the later ones need 6.14's series */
	assert_int_equal(ik_kernel_flip(&k, "teo_2025_series", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_flip(&k, "teo_drop_residency_check", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_flip(&k, "teo_decay_to_zero", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "on top of 6.14's teo"));
	ik_kernel_init(&k, 619);
	assert_int_equal(ik_kernel_flip(&k, "teo_no_recent", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "on top of 6.12's teo"));

	/* menu's 4.17 tick rework only as a whole, and only in microseconds when off. */
	ik_kernel_init(&k, 417);
	assert_int_equal(ik_kernel_flip(&k, "menu_retain_tick", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "menu", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "modelled as a whole"));
	ik_kernel_init(&k, 416);
	assert_int_equal(ik_kernel_flip(&k, "ns_units", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "menu", err, sizeof(err)), -1);
	assert_int_equal(ik_kernel_check(&k, "ladder", err, sizeof(err)), 0);
	/* A select without the stop_tick word needs the idle loop that stops the tick. */
	ik_kernel_init(&k, 619);
	assert_int_equal(ik_kernel_flip(&k, "select_stop_tick", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "ladder", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "select_stop_tick=off needs idle_tick_governor_decides=off"));
	/* The 4.16 loop under a later select is allowed: the word is then ignored. */
	ik_kernel_init(&k, 619);
	assert_int_equal(ik_kernel_flip(&k, "idle_tick_governor_decides", "off", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "menu", err, sizeof(err)), 0);

	/* A 7.1 switch flipped onto 6.19 concerns its own governor only. */
	ik_kernel_init(&k, 619);
	assert_int_equal(ik_kernel_flip(&k, "menu_safe_timer_range", "on", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "menu", err, sizeof(err)), 0);
	assert_int_equal(ik_kernel_check(&k, "teo", err, sizeof(err)), 0);
}

/* 4.16 stops the tick on idle entry, before select; 4.17 on leave it to the governor. */
static void test_idle_loop_release(void **state)
{
	(void)state;
	struct ik_kernel k;

	ik_kernel_init(&k, 416);
	assert_true(ik_idle_stops_tick_before_select(&k));
	ik_kernel_init(&k, 417);
	assert_false(ik_idle_stops_tick_before_select(&k));
	assert_false(ik_idle_stops_tick_before_select(&ik_kernel_default));
	char err[256];
	ik_kernel_init(&k, 619);
	assert_int_equal(ik_kernel_flip(&k, "idle_tick_governor_decides", "off", err, sizeof(err)), 0);
	assert_true(ik_idle_stops_tick_before_select(&k));
}

/* ---- menu's pattern search as releases changed it ---------------------------------------- */

static uint32_t typical_as(const uint32_t v[MENU_INTERVALS], unsigned release,
			   const char *flip, const char *value)
{
	struct menu_cpu data;
	struct ik_kernel k;
	char err[1400];

	memset(&data, 0, sizeof(data));
	memcpy(data.intervals_us, v, sizeof(data.intervals_us));
	ik_kernel_init(&k, release);
	if (flip)
		assert_int_equal(ik_kernel_flip(&k, flip, value, err, sizeof(err)), 0);
	return typical_interval_k(&data, k.on, UINT32_MAX);
}

/*
 * 0, 30, 30, 30, 50, 50, 60, 60: sum 310, avg 38.
 * One pass (6.15 on): sum of squares 14900 / 8 = 1862, variance 1862 - 38^2 = 418 > 400,
 * 38^2 = 1444 < 36 x 418: no pattern; 8 samples: 38 - 0 = 38 > 60 - 38 = 22: drop the 0.
 * Seven left: sum 310, avg 44, squares 14900 / 7 = 2128, variance 2128 - 1936 = 192: 44.
 * Two passes (before 6.15): (38^2 + 3 x 8^2 + 2 x 12^2 + 2 x 22^2) / 8 = 2892 / 8 = 361
 * <= 400: a pattern at the first pass, 38.
 */
static void test_variance_one_pass(void **state)
{
	(void)state;
	const uint32_t v[8] = { 0, 30, 30, 30, 50, 50, 60, 60 };

	assert_int_equal(typical_as(v, 619, NULL, NULL), 44);
	assert_int_equal(typical_as(v, 619, "menu_variance_one_pass", "off"), 38);
}

/*
 * Six 100s, a 0 and a 5000.  Pass 1: avg 700, far from a pattern; 700 - 0 < 5000 - 700:
 * drop the 5000.  Pass 2: six 100s and the 0, avg 85, variance 60000 / 7 - 85^2 = 8571 -
 * 7225 = 1346: none; 7 samples.  Both ends (6.15 on): 85 - 0 > 100 - 85: drop the 0, six 100s
 * are a pattern: 100.  High end only (before): drop the 100s, a lone 0 says nothing: UINT_MAX.
 */
static void test_outliers_both_ends(void **state)
{
	(void)state;
	const uint32_t v[8] = { 100, 100, 0, 100, 5000, 100, 100, 100 };

	assert_int_equal(typical_as(v, 619, NULL, NULL), 100);
	assert_int_equal(typical_as(v, 619, "menu_outliers_both_ends", "off"), UINT32_MAX);
	/* 6.12 (both switches off) agrees with the high-end-only search. */
	assert_int_equal(typical_as(v, 612, NULL, NULL), UINT32_MAX);
}

/*
 * 10, 20, 20, 40, 80, 160, 160, 2560.  Pass 1: avg 3050 / 8 = 381; 381 - 10 < 2560 - 381:
 * drop 2560.  Pass 2: avg 490 / 7 = 70, variance 60100 / 7 - 4900 = 3685: none; 70 - 10 <
 * 160 - 70: drop the 160s.  Pass 3: 10, 20, 20, 40, 80: avg 34, variance 8900 / 5 - 1156 = 624
 * > 400, and five samples are too few: give up.  6.15-6.17 return the largest of the five
 * (at least four are left): 80.  Before and after: UINT_MAX.
 */
static void test_typical_max(void **state)
{
	(void)state;
	const uint32_t v[8] = { 160, 10, 2560, 20, 80, 20, 40, 160 };

	assert_int_equal(typical_as(v, 619, NULL, NULL), UINT32_MAX);
	assert_int_equal(typical_as(v, 615, NULL, NULL), 80);
	assert_int_equal(typical_as(v, 617, NULL, NULL), 80);
	assert_int_equal(typical_as(v, 618, NULL, NULL), UINT32_MAX);
	assert_int_equal(typical_as(v, 619, "menu_typical_max", "on"), 80);
}

/*
 * Before 6.6 the search gets the timer's prediction and gives up at once when no sample is
 * below it; an all-zero history is then a pattern of 0 (6.6 on: "nothing but 0s" is none).
 */
static void test_search_against_timer(void **state)
{
	(void)state;
	struct menu_cpu data;
	struct ik_kernel k;
	const uint32_t v[8] = { 500, 600, 700, 800, 500, 600, 700, 800 };

	memset(&data, 0, sizeof(data));
	ik_kernel_init(&k, 601);
	assert_int_equal(typical_interval_k(&data, k.on, 1000), 0);
	assert_int_equal(typical_interval_k(&data, k.on, 0), UINT32_MAX); /* 0 >= 0 */
	memcpy(data.intervals_us, v, sizeof(v));
	/* min 500 >= 400: no search.  Below 1000: avg 650, variance (two passes) 100000 / 8 =
	   12500 > 400 and 650^2 = 422500 < 36 x 12500: none; drop the 800s (high end only):
	   500, 600, 700 twice: avg 600, variance 40000 / 6 = 6666, 600^2 > 36 x 6666 with six
	   samples: a pattern, 600. */
	assert_int_equal(typical_interval_k(&data, k.on, 400), UINT32_MAX);
	assert_int_equal(typical_interval_k(&data, k.on, 1000), 600);
	ik_kernel_init(&k, 606);
	memset(&data, 0, sizeof(data));
	assert_int_equal(typical_interval_k(&data, k.on, 1000), UINT32_MAX);
}

/* ---- menu's history after a rejected entry (6.17) ------------------------------------------ */

static void small_table(struct ik_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "test");
	ik_poll_state_init(drv);
	drv->states[1] = (struct ik_state){ .name = "C1", .exit_latency = 2, .target_residency = 2 };
	drv->state_count = 2;
	char err[128];
	assert_int_equal(ik_driver_init(drv, err, sizeof(err)), 0);
}

/* The first select sees last_residency_ns 0, as after a rejected entry. */
static void test_rejected_invalid(void **state)
{
	(void)state;
	struct ik_driver drv;
	struct ik_device dev;
	struct ik_kernel k;
	bool stop_tick = true;

	small_table(&drv);
	for (unsigned release = 616 + 1; release <= 617; release++) {
		ik_kernel_init(&k, release);
		ik_device_init(&dev, &drv, 0, 250);
		dev.kernel = &k;
		assert_int_equal(ik_governor_menu.enable(&drv, &dev), 0);
		ik_governor_menu.select(&drv, &dev, &stop_tick);
		assert_int_equal(((struct menu_cpu *)dev.governor_data)->intervals_us[0], UINT32_MAX);
		ik_governor_menu.disable(&drv, &dev);
	}
	ik_kernel_init(&k, 612);
	ik_device_init(&dev, &drv, 0, 250);
	dev.kernel = &k;
	assert_int_equal(ik_governor_menu.enable(&drv, &dev), 0);
	ik_governor_menu.select(&drv, &dev, &stop_tick);
	assert_int_equal(((struct menu_cpu *)dev.governor_data)->intervals_us[0], 0);
	ik_governor_menu.disable(&drv, &dev);
}

/* ---- the poll limit as releases computed it ------------------------------------------------ */

static void test_poll_time(void **state)
{
	(void)state;
	struct ik_driver drv;
	struct ik_device dev;
	struct ik_kernel k;

	small_table(&drv); /* POLL, C1 2/2: C1's 2 us is under the 10 us minimum */
	ik_device_init(&dev, &drv, 0, 250);
	assert_int_equal(ik_poll_time(&drv, &dev), 4000000 / 16); /* 6.19: no state >= 10 us */
	ik_kernel_init(&k, 510);
	ik_device_init(&dev, &drv, 0, 250);
	dev.kernel = &k;
	assert_int_equal(ik_poll_time(&drv, &dev), 2000); /* 5.10: the first enabled state */
	ik_device_init(&dev, &drv, 0, 250);
	dev.kernel = &k;
	dev.states_disable[1] = IK_DISABLE_USER;
	assert_int_equal(ik_poll_time(&drv, &dev), 4000000); /* 5.10, none enabled: a tick */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_is_6_19), cmocka_unit_test(test_lts_governor_sets),
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_release_membership),
		cmocka_unit_test(test_parse_release),
		cmocka_unit_test(test_flip_and_describe),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_idle_loop_release),
		cmocka_unit_test(test_variance_one_pass),
		cmocka_unit_test(test_outliers_both_ends),
		cmocka_unit_test(test_typical_max),
		cmocka_unit_test(test_search_against_timer),
		cmocka_unit_test(test_rejected_invalid),
		cmocka_unit_test(test_poll_time),
	};

	return cmocka_run_group_tests_name("kernel releases", tests, NULL, NULL);
}
