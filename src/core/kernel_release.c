/*
 * The catalogue of behaviour switches and the releases built from them.
 *
 * Every row is one behaviour change of the cpuidle system between 4.16 and 7.x that alters
 * a decision: which release it landed in (and, for a revert, which release took it out),
 * the commit where it is confirmed, and how idlekit models it.  A release is not listed
 * anywhere else: it is whatever this table says had landed by then.
 *
 * Divisions: the switch table (one entry per behaviour-changing commit); releases (their
 * names and switch sets, parsing X.Y); a struct ik_kernel (init, set a release, flip a
 * switch); the consistency checks of a flipped set (teo's combinations, groups); the
 * description; the idle loop's own switch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/kernel.h"
#include "util/errmsg.h"

#define R(x, y) ((x) * 100u + (y))

static const struct ik_switch_info switches[IK_SW_COUNT] = {
	[IK_SW_IDLE_TICK_GOVERNOR_DECIDES] = {
		"idle_tick_governor_decides", "2aaf709a518d ed98c3491998 554c8aa8ecad", R(4, 17), 0,
		IK_AREA_IDLE_LOOP, IK_SW_MODELLED, IK_SRC_SOURCE,
		"the idle loop no longer stops the tick on idle entry; the governor's select decides" },
	[IK_SW_SELECT_STOP_TICK] = {
		"select_stop_tick", "45f1ff59e27c", R(4, 17), 0, IK_AREA_IDLE_LOOP,
		IK_SW_MODELLED, IK_SRC_SOURCE,
		"->select() gets the stop_tick hint (ladder leaves it set: its tick is always stopped)" },
	[IK_SW_MENU_RETAIN_TICK] = {
		"menu_retain_tick", "296bb1e51a44", R(4, 17), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"menu keeps the tick for a sub-tick prediction and then picks a state that fits before it" },
	[IK_SW_MENU_STOPPED_TICK_TIMER] = {
		"menu_stopped_tick_timer", "87c9fe6ee495", R(4, 17), 0, IK_AREA_MENU,
		IK_SW_MODELLED, IK_SRC_SOURCE,
		"menu, tick already stopped: a sub-tick prediction is replaced by the time to the next timer" },
	[IK_SW_MENU_TICK_WAKEUP_GUESS] = {
		"menu_tick_wakeup_guess", "45f1ff59e27c 5ef499cd571c", R(4, 17), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"menu: an unexpected tick wakeup counts as 45 ms, step deeper when stopped, polling override, state-0 shortcut (absent in 4.16.13, present by 5.1; 45f1ff59e27c brought the tick-wakeup rule, 5ef499cd571c \"Handle stopped tick more aggressively\" the step deeper; the override's and the shortcut's commits not found)" },
	[IK_SW_POLL_TIME_LIMIT] = {
		"poll_time_limit", "a37b969a61c1", R(4, 18), 0, IK_AREA_CORE, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"the polling state stops after a time limit (the next enabled state's residency, else a tick)" },
	[IK_SW_MENU_POLL_TIMEOUT_TIMER] = {
		"menu_poll_timeout_timer", "5f26bdceb9c0", R(4, 20), 0, IK_AREA_MENU,
		IK_SW_MODELLED, IK_SRC_SOURCE,
		"menu learns a poll that timed out as if the CPU had slept until the next timer" },
	[IK_SW_MENU_NO_LOAD] = {
		"menu_no_load", "a7fe5190c03f", R(5, 0), 0, IK_AREA_MENU, IK_SW_NO_INPUT,
		IK_SRC_INFERRED,
		"menu's performance multiplier no longer uses the runqueue's load (landed by 5.0); that load is 0 whenever the CPU is idle (4.16.13's get_iowait_load()), so the term never counted" },
	[IK_SW_TEO] = {
		"teo", "b26bf6ab716f", R(5, 1), 0, IK_AREA_TEO, IK_SW_MODELLED, IK_SRC_SOURCE,
		"the teo governor is added (rating 19; menu stays the default)" },
	[IK_SW_MENU_STATE0_STOPS_TICK] = {
		"menu_state0_stops_tick", "", R(5, 4), 0, IK_AREA_MENU, IK_SW_MODELLED, IK_SRC_MAIL,
		"menu's state-0 shortcut lets the tick stop unless state 0 polls (before: always kept) (pm-5.4-rc1, \"cpuidle: menu: Allow tick to be stopped if PM QoS is used\"; its id not confirmed)" },
	[IK_SW_MENU_LATENCY_BREAK_KEEPS] = {
		"menu_latency_break_keeps", "", R(5, 4), 0, IK_AREA_MENU, IK_SW_MODELLED, IK_SRC_MAIL,
		"menu: stopping at a too-slow state no longer sets the prediction to the shallower state's residency (pm-5.4-rc1, the same commit as menu_state0_stops_tick; its id not confirmed)" },
	[IK_SW_TEO_2019_FIXES] = {
		"teo_2019_fixes", "cab09f3d2d2a 069ce2ef1a6d e43dcf20215f 159e48560f51", R(5, 4), 0, IK_AREA_TEO, IK_SW_MODELLED, IK_SRC_SOURCE,
		"teo before its rework, 5.2.1 -> 5.4.6: a disabled state the sleep length allows lends its hits, misses and early hits; a too-slow state no longer ends the walk with the idle duration fixed (constraint_idx instead); a wakeup at the sleep length counts as unbounded; recent durations compared with the idle duration, not the candidate's residency (cab09f3d2d2a and \"Get rid of redundant check in teo_update()\", id not found, in pm-5.4-rc1; the three disabled-state fixes in pm-5.5-rc1 and, Cc 5.1+, 5.4.y stable, so 5.4.0 lacked them; 5.1 taken as the 5.2.1 file)" },
	[IK_SW_HALTPOLL] = {
		"haltpoll", "fa86ee90eb11 259231a04561 2cffe9f6b96f", R(5, 4), 0, IK_AREA_HALTPOLL, IK_SW_MODELLED, IK_SRC_SOURCE,
		"the haltpoll governor (and driver) are added; the poll limit is cached in the device" },
	[IK_SW_NS_UNITS] = {
		"ns_units", "", R(5, 5), 0, IK_AREA_GOVERNORS, IK_SW_MODELLED, IK_SRC_MAIL,
		"core and governors work in nanoseconds; before, in microseconds truncated from ns (pm-5.5-rc1: 'Use nanoseconds as the unit of time'; in the 5.7.14, 5.9.1 and 5.10.7 trees)" },
	[IK_SW_TEO_LEGACY_FIXES] = {
		"teo_legacy_fixes", "57388a2ccb6c", R(5, 5), 0, IK_AREA_TEO, IK_SW_MODELLED, IK_SRC_SOURCE,
		"teo before its rework, 5.4.6 -> 5.10.7: the runner-up early-hits state when the candidate has the most, the recent-durations index kept in range (5.4 wrote every ninth duration past the ring), the measured time from the core's residency instead of the select-to-reflect span (pm-5.5-rc1 with ns_units, the index fix in pm-5.5-rc7; 5.7.14's and 5.9.1's teo.c are 5.10.7's byte for byte)" },
	[IK_SW_TEO_BINS] = {
		"teo_bins", "c410a9a142f1 77577558f25d", R(5, 14), 0, IK_AREA_TEO, IK_SW_MODELLED, IK_SRC_INFERRED,
		"teo rework: hits and intercepts per state bin replace early_hits (off: src/governors/teo_legacy.c) (pm-5.14-rc1: \"Change the main idle state selection logic\", \"Rework most recent idle duration values treatment\")" },
	[IK_SW_POLL_LIMIT_MIN_RESIDENCY] = {
		"poll_limit_min_residency", "7a25759eaa", R(5, 15), 0, IK_AREA_CORE, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"poll limit: the first enabled state with >= 10 us residency, at most TICK_NSEC/16 (before: the first enabled state, else a tick)" },
	[IK_SW_TEO_UTIL] = {
		"teo_util", "9ce0f7c4bc64 27f850880192", R(6, 3), R(6, 11), IK_AREA_TEO, IK_SW_MODELLED, IK_SRC_SOURCE,
		"teo: a CPU whose sched_cpu_util() is above its capacity >> 6 gets a shallower non-polling state, with two states state 0 unless it polls (the 6.3.8 tree: 6.1.0's teo.c plus this alone, in the upfront file; in 6.6.9 in the 6.6 form; absent in 6.12.0; reverted by 0a2998fa48f0 in the 6.11 merge window)" },
	[IK_SW_MENU_SKIP_TIMER_QUERY] = {
		"menu_skip_timer_query", "5484e31bbbff", R(6, 6), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"menu computes the pattern first and does not ask for the next timer when it is <= 15 us" },
	[IK_SW_TEO_SKIP_SLEEP_LENGTH] = {
		"teo_skip_sleep_length", "6da8f9ba5a87", R(6, 6), 0, IK_AREA_TEO, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"teo's 6.6 rework: the candidate is the deepest enabled state and the sleep length is asked for afterwards, not for state 0 or a sub-15 us state under a polling state 0 (off: the 5.15/6.1 file, src/governors/teo_upfront.c)" },
	[IK_SW_TEO_TICK_STATS] = {
		"teo_tick_stats", "2662342079f5", R(6, 6), 0, IK_AREA_TEO, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"teo: a hits-only bin for idle periods of a tick or more when the deepest state is shorter, and the tick kept for a sub-tick state when intercepts are > 5/8 of all events (6.6 form only)" },
	[IK_SW_HALTPOLL_SHRINK_RESET] = {
		"haltpoll_shrink_reset", "496d0a648509", R(6, 9), 0, IK_AREA_HALTPOLL, IK_SW_MODELLED, IK_SRC_MAIL,
		"haltpoll: a poll window shrunk below grow_start becomes 0 (polling stops)" },
	[IK_SW_TEO_NO_RECENT] = {
		"teo_no_recent", "449914398083", R(6, 11), 0, IK_AREA_TEO, IK_SW_MODELLED, IK_SRC_MAIL,
		"teo: the recent-intercepts metric (the bins of the last 9 intercepts) is removed, with the utilization revert (in 6.6.9, absent in 6.12.0; \"Remove recent intercepts metric\", in mainline in the 6.11 merge window)" },
	[IK_SW_TEO_INTERCEPTS_SLEEP_LENGTH] = {
		"teo_intercepts_sleep_length", "4b20b07ce72f", R(6, 11), 0, IK_AREA_TEO,
		IK_SW_MODELLED, IK_SRC_MAIL,
		"teo: when intercepts alone lead to state 0 the sleep length is still asked for, so the next wakeup is judged against it (absent in 6.6.9, in 6.12.0; \"Don't count non-existent intercepts\", in mainline in the 6.11 merge window with the series that removed the recent metric)" },
	[IK_SW_MENU_NO_IOWAIT] = {
		"menu_no_iowait", "38f83090f515", R(6, 13), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"menu ignores tasks in iowait: 6 correction buckets instead of 12, no performance multiplier" },
	[IK_SW_TEO_2025_SERIES] = {
		"teo_2025_series", "d619b5cc6780 13ed5c4a6d9c ddcfa7964677 65e18e654475 16c8d7586c19",
		R(6, 14), 0, IK_AREA_TEO, IK_SW_MODELLED, IK_SRC_SOURCE,
		"teo of 6.14 (pm-6.14-rc1-2: these five and five rearrangements, 425b75364576..e24f8a55de50; absent in 6.13.7, whose teo.c differs from 6.12.0's in comments only; in 6.14.0): short idles and a latency limit < 7.5 us skip the sleep length, a safety net's wakeup (poll time-out, unexpected tick) is the only unbounded one (no select-to-reflect span), a decaying grand total, no tick bin: intercepts of a tick or more counted for the tick decision, no extra sleep-length query for intercepts leading to state 0" },
	[IK_SW_MENU_VARIANCE_ONE_PASS] = {
		"menu_variance_one_pass", "13982929fb08", R(6, 15), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"menu's pattern search takes the variance in one pass, mean of squares minus square of the mean (\"Use one loop for average and variance computations\")" },
	[IK_SW_MENU_OUTLIERS_BOTH_ENDS] = {
		"menu_outliers_both_ends", "60256e458e1c 8de7606f0fe2", R(6, 15), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"menu drops outliers at whichever end lies farther from the average (before: only the largest; samples above INT_MAX never counted)" },
	[IK_SW_MENU_TYPICAL_MAX] = {
		"menu_typical_max", "85975daeaa4d", R(6, 15), R(6, 18), IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"menu: when no pattern is found but >= 4 samples remain, their maximum is the prediction (reverted by 10fad4012234)" },
	[IK_SW_MENU_LATENCY_FIRST] = {
		"menu_latency_first", "779b1a1cb13a", R(6, 17), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"menu checks a state's exit latency before its residency and no longer caps the latency limit at the prediction" },
	[IK_SW_MENU_REJECTED_INVALID] = {
		"menu_rejected_invalid", "fa3fa55de0d6", R(6, 17), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"menu records an invalid interval (UINT_MAX) after a rejected entry" },
	[IK_SW_MENU_POLL_OVERRIDE_LATENCY] = {
		"menu_poll_override_latency", "db86f55bf81a", R(6, 18), 0, IK_AREA_MENU,
		IK_SW_MODELLED, IK_SRC_SOURCE,
		"menu takes a physical state instead of polling only if its exit latency is within the prediction" },
	[IK_SW_MENU_POLL_OVERRIDE_SHORT] = {
		"menu_poll_override_short", "07d815701274", R(6, 19), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"menu takes a physical state instead of polling only if its residency is < 15 us (pm-6.19, \"Use residency threshold in polling state override decisions\")" },
	[IK_SW_TEO_DROP_RESIDENCY_CHECK] = {
		"teo_drop_residency_check", "a03b2011808a", R(6, 19), 0, IK_AREA_TEO, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"teo: when the sleep length is shorter than the candidate's residency, the shallower state found is taken even if the tick is stopped and it is shorter than a tick (before: the candidate was kept); pm-6.19-rc1, absent in 6.18.2's teo.c, backported to 6.18.3 (6.18.35's teo.c is 6.18.2's plus this alone) and 6.6.y" },
	[IK_SW_TEO_DECAY_TO_ZERO] = {
		"teo_decay_to_zero", "b54df61c7428", R(6, 19), 0, IK_AREA_TEO, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"teo: a metric below 8 decays to 0 instead of staying, and the grand total is the bins' sum (plus the new event) again instead of a decaying count of its own (pm-6.19-rc1, \"Decay metrics below DECAY_SHIFT threshold\"; absent in 6.18.2's teo.c)" },
	[IK_SW_TEO_TICK_REWORK] = {
		"teo_tick_rework", "083654ded547", R(6, 19), 0, IK_AREA_TEO, IK_SW_MODELLED, IK_SRC_SOURCE,
		"teo: tick wakeups counted in total_tick and, when they are over 2/3 of the total, credited as a hit on the deepest state; a poll time-out is the only unbounded wakeup (an unexpected tick no longer is) (pm-6.19-rc1, \"Rework the handling of tick wakeups\")" },
	[IK_SW_TEO_TICK_INTERCEPTS_WITHIN] = {
		"teo_tick_intercepts_within", "50db438231dc", R(6, 19), 0, IK_AREA_TEO,
		IK_SW_MODELLED, IK_SRC_SOURCE,
		"teo: the intercepts counted for the tick decision are those of at most a tick (6.14-6.18: of a tick or more, a reversed condition) (pm-6.19-rc1, \"Fix tick_intercepts handling in teo_update()\")" },
	[IK_SW_TEO_SIMPLE_INTERCEPTS_LOOKUP] = {
		"teo_simple_intercepts_lookup", "d834e68a0e8b", R(6, 19), 0, IK_AREA_TEO,
		IK_SW_MODELLED, IK_SRC_SOURCE,
		"teo: the intercepts search walks down only to the first state long enough for a stopped tick, taking each enabled state on the way, instead of falling back to the last suitable one (pm-6.19-rc1, \"Simplify intercepts-based state lookup\")" },
	[IK_SW_LATENCY_REQ_WAKEUP_QOS] = {
		"latency_req_wakeup_qos", "2b8d59474239 a4e6512a79d8", R(6, 19), 0, IK_AREA_CORE, IK_SW_NO_INPUT, IK_SRC_MAIL,
		"the governors' latency limit also honours the CPU wakeup-latency QoS limit (pm-6.19: \"cpuidle: Respect the CPU system wakeup QoS limit for cpuidle\" on \"PM: QoS: Introduce a CPU system wakeup QoS limit\")" },
	[IK_SW_MENU_STOPPED_TICK_QUERY] = {
		"menu_stopped_tick_query", "80606f4eb8d7", R(7, 0), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_MAIL, "menu always asks for the next timer when the tick is stopped" },
	/*
	 * pm-6.20-rc1 (= 7.0-rc1; the pull mail of 5 Feb 2026 lists these five after
	 * menu_stopped_tick_query), in the order applied: patches 1-3 of "[PATCH v1 0/5]
	 * cpuidle: governors: teo: Wakeup events classification change and some refinements"
	 * (14 Jan 2026) and both of its v3 (29 Jan 2026).
	 */
	[IK_SW_TEO_ZERO_SIZE_BINS] = {
		"teo_zero_size_bins", "4bd2221f231d", R(7, 0), 0, IK_AREA_TEO, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"teo, tick stopped, intercepts search: when the shallowest state long enough for a stopped tick has the candidate's own target residency, the candidate is kept (its bin is empty) (\"Avoid selecting states with zero-size bins\")" },
	[IK_SW_TEO_TICK_FAKE_INTERCEPTS] = {
		"teo_tick_fake_intercepts", "60836533b4c7", R(7, 0), 0, IK_AREA_TEO, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"teo: a tick wakeup not already credited to the deepest state is a hit on the sleep length's bin unless tick intercepts are at least 2/3 of the bins' sum (\"Avoid fake intercepts produced by tick\")" },
	[IK_SW_TEO_TICK_KEEP_TWO_THIRDS] = {
		"teo_tick_keep_two_thirds", "475ca3470b37", R(7, 0), 0, IK_AREA_TEO,
		IK_SW_MODELLED, IK_SRC_MAIL,
		"teo keeps the tick for a sub-tick state when tick intercepts are >= 2/3 of the total (before: > 1/2 + 1/8 of it) (\"Refine tick_intercepts vs total events check\")" },
	[IK_SW_TEO_HITS_BY_EXIT_LATENCY] = {
		"teo_hits_by_exit_latency", "f36de72673ad", R(7, 0), 0, IK_AREA_TEO, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"teo: a wakeup in the sleep length's bin is a hit only if the sleep length exceeds the adjusted idle duration by less than half the exit latency; else an intercept (\"Adjust the classification of wakeup events\", v3)" },
	[IK_SW_TEO_INTERCEPTS_MAX_LOOKUP] = {
		"teo_intercepts_max_lookup", "a971f984b845", R(7, 0), 0, IK_AREA_TEO, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"teo: the intercepts search does not stop above the bin with the most intercepts (the deepest of equals), and takes the stopped-tick floor at once when it is at or below that bin and enabled (\"Refine intercepts-based idle state lookup\", v3)" },
	/*
	 * The 7.1 merge window: "[PATCH v2 0/2] cpuidle: governor: Modify the handling of
	 * stopped tick" (23 Feb 2026), in linux-pm's linux-next on 6 Mar 2026, in mainline's
	 * 7.1 merge window with pm-7.1-rc1 (a mainline push of 14 Apr 2026 lists both).
	 */
	[IK_SW_MENU_SAFE_TIMER_RANGE] = {
		"menu_safe_timer_range", "e57c2bf2e89d", R(7, 1), 0, IK_AREA_MENU, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"menu, tick stopped: a sub-tick prediction is replaced by the next timer only when that timer is more than SAFE_TIMER_RANGE_NS (2 ticks) away (\"Refine stopped tick handling\")" },
	[IK_SW_TEO_STOPPED_TICK_SAFE_RANGE] = {
		"teo_stopped_tick_safe_range", "106a2662e655", R(7, 1), 0, IK_AREA_TEO,
		IK_SW_MODELLED, IK_SRC_MAIL,
		"teo, tick stopped: the intercepts search and the short-idle shortcut ignore it, the sleep length is always asked for, and only a timer beyond SAFE_TIMER_RANGE_NS (2 ticks) makes a sub-tick choice deeper: the deepest enabled state within the latency limit that fits the sleep length (\"Rearrange stopped tick handling\", v2)" },
	/* Drivers: appended after the governors' switches, in their own landing order. */
	[IK_SW_ACPI_IDLE_DUMMY_WAIT_GUEST] = {
		"acpi_idle_dummy_wait_guest", "fa583f71a99c", R(5, 5), 0, IK_AREA_DRIVER, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"acpi_idle skips the PM-timer dummy read after a SYSTEMIO entry under a hypervisor (absent in 5.4.6, present in 5.7.14, 5.9.1, 5.10.7 and 5.15; the commit is in the pm-5.5-rc1 pull)" },
	[IK_SW_INTEL_IDLE_ACPI_CST] = {
		"intel_idle_acpi_cst", "e6d4f08a67", R(5, 6), 0, IK_AREA_DRIVER, IK_SW_MODELLED,
		IK_SRC_MAIL,
		"intel_idle reads _CST: server tables (use_acpi) start states _CST does not list disabled, a model without a table builds its states from _CST (before: built-in tables only, every state on)" },
	[IK_SW_INTEL_IDLE_CST_NEEDS_CONTROL] = {
		"intel_idle_cst_needs_control", "75af76d0a3", R(5, 10), 0, IK_AREA_DRIVER,
		IK_SW_MODELLED, IK_SRC_INFERRED,
		"intel_idle forgets _CST whenever it cannot use it (a non-FFH entry, or C-state control not taken); before, a _CST rejected as not FFH-only stayed counted and switched the table states it does not list off (cst_fallback = legacy; 5.10.7 read, the 5.9 side from the commit)" },
	[IK_SW_ACPI_IDLE_DUMMY_WAIT_INTEL] = {
		"acpi_idle_dummy_wait_intel", "e400ad8b7e6a", R(6, 0), 0, IK_AREA_DRIVER,
		IK_SW_MODELLED, IK_SRC_SOURCE,
		"acpi_idle does the PM-timer dummy read on Intel CPUs only (present in 6.1.0, absent in 5.15)" },
	[IK_SW_X86_PREFER_MWAIT_CPUID] = {
		"x86_prefer_mwait_cpuid", "aebef63cf7ff", R(6, 0), 0, IK_AREA_DRIVER, IK_SW_MODELLED,
		IK_SRC_SOURCE,
		"the x86 default idle routine is MWAIT whenever CPUID leaf 5 offers an MWAIT C1 sub-state, any vendor (before: Intel only, HLT on AMD; present in 6.1.0, absent in 5.15)" },
	[IK_SW_ACPI_IDLE_DUMMY_WAIT_ZEN] = {
		"acpi_idle_dummy_wait_zen", "", IK_KERNEL_PROPOSAL, 0, IK_AREA_DRIVER, IK_SW_MODELLED, IK_SRC_MAIL,
		"proposal (2022, never merged; 6.0 limited the read to Intel instead): acpi_idle also skips the PM-timer dummy read on Zen CPUs" },
};

/* Every release a behaviour change landed in, and the LTS lines between (and 5.11, once
   dated as acpi_idle_dummy_wait_guest's, kept so that runs named 5.11 still run: as 5.10). */
static const unsigned releases[] = {
	R(4, 16), R(4, 17), R(4, 18), R(4, 20), R(5, 0),  R(5, 1),  R(5, 4),  R(5, 5),
	R(5, 6),  R(5, 7),  R(5, 8),  R(5, 9),  R(5, 10), R(5, 11), R(5, 14), R(5, 15),
	R(6, 0),  R(6, 1),  R(6, 3),  R(6, 6),  R(6, 9),  R(6, 11),
	R(6, 12), R(6, 13), R(6, 14), R(6, 15), R(6, 17), R(6, 18), R(6, 19), R(7, 0),  R(7, 1),
};
#define NRELEASES (sizeof(releases) / sizeof(releases[0]))

static const char *const area_names[] = {
	[IK_AREA_IDLE_LOOP] = "idle loop", [IK_AREA_CORE] = "core",     [IK_AREA_MENU] = "menu",
	[IK_AREA_TEO] = "teo",             [IK_AREA_LADDER] = "ladder", [IK_AREA_HALTPOLL] = "haltpoll",
	[IK_AREA_GOVERNORS] = "governors", [IK_AREA_DRIVER] = "driver",
};

static uint64_t release_set(unsigned release)
{
	uint64_t on = 0;

	for (int s = 0; s < IK_SW_COUNT; s++)
		if (ik_kernel_release_has(release, (enum ik_switch)s))
			on |= 1ull << s;
	return on;
}

const struct ik_kernel ik_kernel_default = {
	.release = IK_KERNEL_DEFAULT_RELEASE,
	.on = IK_KERNEL_DEFAULT_ON,
};

const struct ik_switch_info *ik_switch_info(enum ik_switch s)
{
	return (unsigned)s < IK_SW_COUNT ? &switches[s] : NULL;
}

const char *ik_switch_area_name(enum ik_switch_area a)
{
	return area_names[a];
}

int ik_switch_find(const char *name)
{
	for (int s = 0; s < IK_SW_COUNT; s++)
		if (strcmp(switches[s].name, name) == 0)
			return s;
	return -1;
}

const unsigned *ik_kernel_releases(size_t *n)
{
	*n = NRELEASES;
	return releases;
}

unsigned ik_kernel_release_behaves_as(unsigned release)
{
	unsigned as = releases[0];
	for (size_t i = 0; i < NRELEASES && releases[i] <= release; i++)
		as = releases[i];
	return as;
}

bool ik_kernel_release_is_lts(unsigned release)
{
	/* kernel.org's longterm lines in the releases catalogued (4.19 and 5.4 have reached
	   their end of life since; 6.18 was named in December 2025) */
	static const unsigned lts[] = { 419, 504, 510, 515, 601, 606, 612, 618 };
	for (size_t i = 0; i < sizeof(lts) / sizeof(lts[0]); i++)
		if (lts[i] == release)
			return true;
	return false;
}

const char *ik_kernel_release_name(unsigned release, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u", release / 100, release % 100);
	return buf;
}

bool ik_kernel_release_has(unsigned release, enum ik_switch s)
{
	const struct ik_switch_info *i = &switches[s];

	return i->since <= release && (i->until == 0 || release < i->until);
}

static void list_releases(char *buf, size_t len)
{
	size_t o = 0;
	char name[16];

	buf[0] = '\0';
	for (size_t i = 0; i < NRELEASES && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? " " : "",
				      ik_kernel_release_name(releases[i], name, sizeof(name)));
}

static void list_switches(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int s = 0; s < IK_SW_COUNT && o < len; s++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", s ? " " : "", switches[s].name);
}

/* A decimal number of 1 to 3 digits at *p; advances *p.  -1 if none. */
static int small_number(const char **p)
{
	int v = 0, digits = 0;

	while (**p >= '0' && **p <= '9' && digits < 4) {
		v = v * 10 + (**p - '0');
		(*p)++;
		digits++;
	}
	return digits == 0 || digits > 3 ? -1 : v;
}

int ik_kernel_parse_release(const char *text, unsigned *release, char *err, size_t errlen)
{
	const char *p = text;
	int major = small_number(&p), minor = -1;

	if (major >= 0 && *p == '.') {
		p++;
		minor = small_number(&p);
		if (minor >= 0 && *p == '.') { /* a point release behaves as its .0 */
			p++;
			if (small_number(&p) < 0)
				minor = -1;
		}
	}
	if (major >= 0 && minor >= 0 && minor < 100 && *p == '\0') {
		unsigned r = (unsigned)major * 100u + (unsigned)minor;
		for (size_t i = 0; i < NRELEASES; i++) {
			if (releases[i] == r) {
				*release = r;
				return 0;
			}
		}
		/* Any other release of the lines between the first and the last listed one: the
		   switches of a release are those landed by it (release_set), so one no listed
		   change landed in runs as the listed one before it (4.19 as 4.18, 6.8 as 6.6). */
		static const struct {
			unsigned major, last_minor;
		} lines[] = { { 4, 20 }, { 5, 19 }, { 6, 19 } };
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			if ((unsigned)major == lines[i].major && (unsigned)minor <= lines[i].last_minor &&
			    r >= releases[0] && r <= releases[NRELEASES - 1]) {
				*release = r;
				return 0;
			}
	}
	char known[256];
	list_releases(known, sizeof(known));
	return ik__errmsg(err, errlen, "unknown kernel release '%.40s'; expected 4.16 to 4.20, 5.0 "
			  "to 5.19, 6.0 to 6.19, 7.0 or 7.1 (X.Y, or X.Y.Z as its .0; a release no "
			  "modelled change landed in runs as the one before it that had one); "
			  "known releases: %s", text, known);
}

void ik_kernel_init(struct ik_kernel *k, unsigned release)
{
	memset(k, 0, sizeof(*k));
	ik_kernel_set_release(k, release);
}

void ik_kernel_set_release(struct ik_kernel *k, unsigned release)
{
	k->release = release;
	k->on = (release_set(release) | k->forced_on) & ~k->forced_off;
}

int ik_kernel_flip(struct ik_kernel *k, const char *name, const char *value, char *err,
		   size_t errlen)
{
	int s = ik_switch_find(name);

	if (s < 0) {
		char known[1200];
		list_switches(known, sizeof(known));
		return ik__errmsg(err, errlen, "unknown switch '%.60s'; known switches: %s", name,
				  known);
	}
	uint64_t bit = 1ull << s;
	if (strcmp(value, "on") == 0) {
		k->forced_on |= bit;
		k->forced_off &= ~bit;
	} else if (strcmp(value, "off") == 0) {
		k->forced_off |= bit;
		k->forced_on &= ~bit;
	} else {
		return ik__errmsg(err, errlen, "switch %s: expected 'on' or 'off', got '%.40s'",
				  name, value);
	}
	ik_kernel_set_release(k, k->release);
	return 0;
}

/* The switches a governor's decisions depend on: its own, the units, core and idle loop. */
static bool relevant(enum ik_switch_area a, const char *governor)
{
	switch (a) {
	case IK_AREA_IDLE_LOOP:
	case IK_AREA_CORE:
	case IK_AREA_GOVERNORS:
		return true;
	default:
		return strcmp(area_names[a], governor) == 0;
	}
}

/* Is switch s on in k, for every s in the list (ended by -1)? */
static bool all_on(const struct ik_kernel *k, const int *list)
{
	for (; *list >= 0; list++)
		if (!ik_kernel_has(k, (enum ik_switch)*list))
			return false;
	return true;
}

/* Any teo switch after `after` (in landing order) on? */
static bool teo_later_on(const struct ik_kernel *k, enum ik_switch after)
{
	for (int s = after + 1; s < IK_SW_COUNT; s++)
		if (switches[s].area == IK_AREA_TEO && ik_kernel_has(k, (enum ik_switch)s))
			return true;
	return false;
}

/*
 * teo is four files: before the ~5.14 rework (teo_legacy.c: 5.2.1, 5.4.6 or 5.10.7), from
 * it to 6.5 (teo_upfront.c: 5.15/6.1), and teo.c for 6.6-7.1 (6.14-6.18: the 6.14.0 code;
 * teo_drop_residency_check alone on it is 6.18.3's stable teo.c; 7.0 and 7.1: 6.19's file
 * as the patch mails change it).  Each file's switches are modelled on top of what the
 * file's releases had before them; other combinations have no kernel file to follow.  NULL
 * if k is one of them, else why not.
 */
static const char *teo_combination(const struct ik_kernel *k)
{
	bool ns = ik_kernel_has(k, IK_SW_NS_UNITS);
	bool fixes_2019 = ik_kernel_has(k, IK_SW_TEO_2019_FIXES);
	bool fixes = ik_kernel_has(k, IK_SW_TEO_LEGACY_FIXES);

	if (!ik_kernel_has(k, IK_SW_TEO_BINS)) {
		if (teo_later_on(k, IK_SW_TEO_BINS))
			return "teo before its 5.14 rework has none of the later teo switches";
		if (fixes && (!ns || !fixes_2019))
			return "teo_legacy_fixes is modelled as the 5.10.7 file: ns_units and "
			       "teo_2019_fixes on";
		if (!fixes && ns)
			return "teo in nanoseconds without teo_legacy_fixes is in no release (both "
			       "came with 5.5)";
		return NULL;
	}
	static const int before_rework[] = { IK_SW_NS_UNITS, IK_SW_TEO_2019_FIXES,
					     IK_SW_TEO_LEGACY_FIXES, -1 };
	if (!all_on(k, before_rework))
		return "the 5.14 rework is modelled on top of the 5.10 file: ns_units, "
		       "teo_2019_fixes and teo_legacy_fixes on";
	if (!ik_kernel_has(k, IK_SW_TEO_SKIP_SLEEP_LENGTH)) {
		/* teo_util may be on: its 6.3 form (the 6.3.8 tree) */
		if (teo_later_on(k, IK_SW_TEO_SKIP_SLEEP_LENGTH))
			return "the 5.15/6.1 file (teo_skip_sleep_length off) has none of the later "
			       "teo switches";
		return NULL;
	}
	bool series = ik_kernel_has(k, IK_SW_TEO_2025_SERIES);
	/*
	 * The teo commits of pm-6.19-rc1, pm-6.20-rc1 (7.0) and the 7.1 merge window, in the
	 * order they were applied: each is modelled on top of those before it (the 6.18.35
	 * file has the first alone, 6.19's the first five, 7.0's ten, 7.1's all), and the
	 * later ones on top of 6.14's teo.
	 */
	static const int since_6_19[] = {
		IK_SW_TEO_DROP_RESIDENCY_CHECK, IK_SW_TEO_DECAY_TO_ZERO, IK_SW_TEO_TICK_REWORK,
		IK_SW_TEO_TICK_INTERCEPTS_WITHIN, IK_SW_TEO_SIMPLE_INTERCEPTS_LOOKUP,
		IK_SW_TEO_ZERO_SIZE_BINS, IK_SW_TEO_TICK_FAKE_INTERCEPTS,
		IK_SW_TEO_TICK_KEEP_TWO_THIRDS, IK_SW_TEO_HITS_BY_EXIT_LATENCY,
		IK_SW_TEO_INTERCEPTS_MAX_LOOKUP, IK_SW_TEO_STOPPED_TICK_SAFE_RANGE, -1
	};
	for (int i = 1; since_6_19[i] >= 0; i++) {
		if (!ik_kernel_has(k, (enum ik_switch)since_6_19[i]))
			continue;
		if (!series)
			return "the teo switches of 6.19 on after teo_drop_residency_check are "
			       "modelled on top of 6.14's teo (teo_2025_series on)";
		if (!ik_kernel_has(k, (enum ik_switch)since_6_19[i - 1]))
			return "the teo switches of 6.19 on are modelled in the order they were "
			       "applied, each on top of those before it: teo_drop_residency_check, "
			       "teo_decay_to_zero, teo_tick_rework, teo_tick_intercepts_within, "
			       "teo_simple_intercepts_lookup (6.19), teo_zero_size_bins, "
			       "teo_tick_fake_intercepts, teo_tick_keep_two_thirds, "
			       "teo_hits_by_exit_latency, teo_intercepts_max_lookup (7.0), "
			       "teo_stopped_tick_safe_range (7.1)";
	}
	if (series) {
		static const int as_6_12[] = { IK_SW_TEO_TICK_STATS, IK_SW_TEO_NO_RECENT,
					       IK_SW_TEO_INTERCEPTS_SLEEP_LENGTH, -1 };
		if (!all_on(k, as_6_12) || ik_kernel_has(k, IK_SW_TEO_UTIL))
			return "the 6.14 to 6.19 files are modelled on top of 6.12's teo: "
			       "teo_tick_stats, teo_no_recent and teo_intercepts_sleep_length on, "
			       "teo_util off";
	}
	return NULL;
}

/*
 * Switches modelled only in the combinations the kernel had.  A select without the
 * stop_tick word (select_stop_tick off) needs the 4.16 idle loop, which stopped the tick
 * itself (the 4.16 loop under a later select is fine: the word is then ignored).  menu's
 * 4.17 tick rework is read as the 4.16.13 file (all off, in microseconds) or the 5.1 file
 * (all on).  0 if consistent, else the message.
 */
static int check_groups(const struct ik_kernel *k, const char *governor, const char *rel,
			char *err, size_t errlen)
{
	bool hint = ik_kernel_has(k, IK_SW_SELECT_STOP_TICK);

	if (!hint && ik_kernel_has(k, IK_SW_IDLE_TICK_GOVERNOR_DECIDES)) {
		snprintf(err, errlen,
			 "%s as kernel %s behaves is not implemented (select_stop_tick=off needs "
			 "idle_tick_governor_decides=off: without the stop_tick word the idle loop "
			 "stops the tick)",
			 governor, rel);
		return -1;
	}
	if (strcmp(governor, "teo") == 0) {
		const char *why = teo_combination(k);
		if (why)
			return ik__errmsg(err, errlen, "teo as kernel %s behaves is not "
					  "implemented (%s)", rel, why);
	}
	if (strcmp(governor, "menu") != 0)
		return 0;
	if (ik_kernel_has(k, IK_SW_MENU_RETAIN_TICK) != hint ||
	    ik_kernel_has(k, IK_SW_MENU_STOPPED_TICK_TIMER) != hint ||
	    ik_kernel_has(k, IK_SW_MENU_TICK_WAKEUP_GUESS) != hint ||
	    (!hint && ik_kernel_has(k, IK_SW_NS_UNITS))) {
		snprintf(err, errlen,
			 "menu as kernel %s behaves is not implemented (menu's 4.17 tick rework is "
			 "modelled as a whole: select_stop_tick, menu_retain_tick, "
			 "menu_stopped_tick_timer and menu_tick_wakeup_guess all on, or all off "
			 "with ns_units off, as in 4.16)",
			 rel);
		return -1;
	}
	return 0;
}

int ik_kernel_check(const struct ik_kernel *k, const char *governor, char *err, size_t errlen)
{
	char rel[16];

	ik_kernel_release_name(k->release, rel, sizeof(rel));
	if ((strcmp(governor, "teo") == 0 && !ik_kernel_has(k, IK_SW_TEO)) ||
	    (strcmp(governor, "haltpoll") == 0 && !ik_kernel_has(k, IK_SW_HALTPOLL))) {
		return ik__errmsg(err, errlen, "kernel %s has no %s governor (it came with %s)",
				  rel, governor, strcmp(governor, "teo") == 0 ? "5.1" : "5.4");
	}

	size_t o = 0;
	int missing = 0;
	err[0] = '\0';
	for (int s = 0; s < IK_SW_COUNT; s++) {
		const struct ik_switch_info *i = &switches[s];
		bool differs = ik_kernel_has(k, (enum ik_switch)s) !=
			       ik_kernel_has(&ik_kernel_default, (enum ik_switch)s);

		if (!differs || !relevant(i->area, governor) ||
		    (i->status != IK_SW_CATALOGUED && i->status != IK_SW_PENDING))
			continue;
		if (missing++ == 0)
			o = (size_t)snprintf(err, errlen,
					     "%s as kernel %s behaves is not implemented (switches "
					     "not modelled:",
					     governor, rel);
		if (o < errlen)
			o += (size_t)snprintf(err + o, errlen - o, " %s=%s%s", i->name,
					      ik_kernel_has(k, (enum ik_switch)s) ? "on" : "off",
					      i->status == IK_SW_PENDING ? " (not wired yet)" : "");
	}
	if (missing && o < errlen)
		snprintf(err + o, errlen - o, ")");
	if (missing)
		return -1;
	return check_groups(k, governor, rel, err, errlen);
}

const char *ik_kernel_describe(const struct ik_kernel *k, char *buf, size_t len)
{
	uint64_t base = release_set(k->release);
	size_t o;

	ik_kernel_release_name(k->release, buf, len);
	o = strlen(buf);
	for (int s = 0; s < IK_SW_COUNT && o < len; s++) {
		uint64_t bit = 1ull << s;
		if ((k->on & bit) != (base & bit))
			o += (size_t)snprintf(buf + o, len - o, " %c%s", (k->on & bit) ? '+' : '-',
					      switches[s].name);
	}
	return buf;
}

bool ik_idle_stops_tick_before_select(const struct ik_kernel *k)
{
	return !ik_kernel_has(k, IK_SW_IDLE_TICK_GOVERNOR_DECIDES);
}
