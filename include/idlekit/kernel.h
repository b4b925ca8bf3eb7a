/*
 * idlekit: kernel releases and behaviour switches.
 *
 * The cpuidle system changed its decisions many times between Linux 4.16 and 7.x.  Each
 * behaviour-changing commit is a named switch (on = the commit is applied); a release is the
 * set of switches that had landed by it (and not been reverted).  A struct ik_kernel is one
 * such set, possibly with switches flipped by the user, and the core hands it to governors
 * through struct ik_device (dev->kernel), so that governor code checks a switch right beside
 * the lines that commit changed.
 *
 * Releases are written X.Y and stored as X * 100 + Y (6.19 -> 619).  The default is 6.19,
 * the release the governors were first written against.
 */
#ifndef IDLEKIT_KERNEL_H
#define IDLEKIT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The switches, in the order they landed. */
enum ik_switch {
	IK_SW_IDLE_TICK_GOVERNOR_DECIDES, /* 4.17: the idle loop leaves the tick to select */
	IK_SW_SELECT_STOP_TICK,           /* 4.17: ->select() gets the stop_tick hint */
	IK_SW_MENU_RETAIN_TICK,           /* 4.17: menu keeps the tick for sub-tick idle */
	IK_SW_MENU_STOPPED_TICK_TIMER,    /* 4.17: stopped tick -> trust the next timer */
	IK_SW_MENU_TICK_WAKEUP_GUESS,     /* 4.17-5.0: tick wakeups, stepping deeper, ... */
	IK_SW_POLL_TIME_LIMIT,            /* 4.18: the polling state gets a time limit */
	IK_SW_MENU_POLL_TIMEOUT_TIMER,    /* 4.20: a poll timeout is learned as the timer */
	IK_SW_MENU_NO_LOAD,               /* 5.0: load average out of the multiplier */
	IK_SW_TEO,                        /* 5.1: the teo governor exists */
	IK_SW_MENU_STATE0_STOPS_TICK,     /* 5.4: the state-0 shortcut may stop the tick */
	IK_SW_MENU_LATENCY_BREAK_KEEPS,   /* 5.4: a latency break keeps the prediction */
	IK_SW_TEO_2019_FIXES,             /* 5.4: teo's disabled-state and latency fixes */
	IK_SW_HALTPOLL,                   /* 5.4: the haltpoll governor exists */
	IK_SW_NS_UNITS,                   /* 5.7: nanoseconds instead of microseconds */
	IK_SW_TEO_LEGACY_FIXES,           /* 5.10: pre-rework teo as in 5.10 (from 5.4.6) */
	IK_SW_TEO_BINS,                   /* 5.14: teo rework, hits and intercepts per bin */
	IK_SW_POLL_LIMIT_MIN_RESIDENCY,   /* 5.15: poll limit >= 10 us states, <= TICK/16 */
	IK_SW_TEO_UTIL,                   /* 6.3-6.10: teo is utilization aware */
	IK_SW_MENU_SKIP_TIMER_QUERY,      /* 6.6: no timer query for very short patterns */
	IK_SW_TEO_SKIP_SLEEP_LENGTH,      /* 6.6: teo may skip the sleep-length query */
	IK_SW_TEO_TICK_STATS,             /* 6.6: teo keeps tick statistics */
	IK_SW_HALTPOLL_SHRINK_RESET,      /* 6.9: a window shrunk below grow_start is 0 */
	IK_SW_TEO_NO_RECENT,              /* 6.11: teo's recent-intercepts metric removed */
	IK_SW_TEO_INTERCEPTS_SLEEP_LENGTH, /* 6.11: teo asks for the sleep length on intercepts */
	IK_SW_MENU_NO_IOWAIT,             /* 6.13: iowait no longer matters to menu */
	IK_SW_TEO_2025_SERIES,            /* 6.14: short idles, artificial wakeups, tick_intercepts */
	IK_SW_MENU_VARIANCE_ONE_PASS,     /* 6.15: variance as mean(v^2) - mean(v)^2 */
	IK_SW_MENU_OUTLIERS_BOTH_ENDS,    /* 6.15: outliers dropped at either end */
	IK_SW_MENU_TYPICAL_MAX,           /* 6.15-6.17: the max when >= 4 samples remain */
	IK_SW_MENU_LATENCY_FIRST,         /* 6.17: exit latency checked before residency */
	IK_SW_MENU_REJECTED_INVALID,      /* 6.17: a rejected entry pushes UINT_MAX */
	IK_SW_MENU_POLL_OVERRIDE_LATENCY, /* 6.18: poll override needs exit latency <= pred. */
	IK_SW_MENU_POLL_OVERRIDE_SHORT,   /* 6.19: poll override needs residency < 15 us */
	IK_SW_TEO_DROP_RESIDENCY_CHECK,   /* 6.19: no stopped-tick check after the sleep length */
	IK_SW_TEO_DECAY_TO_ZERO,          /* 6.19: metrics decay to 0, total = the bins' sum */
	IK_SW_TEO_TICK_REWORK,            /* 6.19: teo's tick wakeups (total_tick) */
	IK_SW_TEO_TICK_INTERCEPTS_WITHIN, /* 6.19: tick intercepts are those within a tick */
	IK_SW_TEO_SIMPLE_INTERCEPTS_LOOKUP, /* 6.19: intercepts search down to a floor */
	IK_SW_LATENCY_REQ_WAKEUP_QOS,     /* 6.19: latency limit includes wakeup QoS */
	IK_SW_MENU_STOPPED_TICK_QUERY,    /* 7.0: stopped tick -> always ask for timers */
	IK_SW_TEO_ZERO_SIZE_BINS,         /* 7.0: stopped tick, no state of the candidate's residency */
	IK_SW_TEO_TICK_FAKE_INTERCEPTS,   /* 7.0: a tick wakeup is a hit unless tick intercepts dominate */
	IK_SW_TEO_TICK_KEEP_TWO_THIRDS, /* 7.0: the tick is kept at 2/3 tick intercepts, not 5/8 */
	IK_SW_TEO_HITS_BY_EXIT_LATENCY,   /* 7.0: a hit needs the wakeup within exit_latency/2 of the timer */
	IK_SW_TEO_INTERCEPTS_MAX_LOOKUP,  /* 7.0: the intercepts search reaches the bin with the most */
	IK_SW_MENU_SAFE_TIMER_RANGE,      /* 7.1: stopped tick, a timer within 2 ticks is safety enough */
	IK_SW_TEO_STOPPED_TICK_SAFE_RANGE, /* 7.1: teo's stopped-tick handling by SAFE_TIMER_RANGE_NS */
	/* Drivers and the x86 default idle routine (appended after the governors', in their
	   own landing order). */
	IK_SW_ACPI_IDLE_DUMMY_WAIT_GUEST, /* 5.5: no PM-timer dummy read in a guest */
	IK_SW_INTEL_IDLE_ACPI_CST,        /* 5.6: intel_idle reads _CST (server tables, no table) */
	IK_SW_INTEL_IDLE_CST_NEEDS_CONTROL, /* 5.10: _CST ignored unless usable with control */
	IK_SW_ACPI_IDLE_DUMMY_WAIT_INTEL, /* 6.0: the dummy read on Intel only */
	IK_SW_X86_PREFER_MWAIT_CPUID,     /* 6.0: default idle MWAIT from CPUID leaf 5, any vendor */
	IK_SW_ACPI_IDLE_DUMMY_WAIT_ZEN,   /* proposal (2022): no dummy read on Zen either */
	IK_SW_COUNT
};
/* The first of the drivers' switches. */
#define IK_SW_FIRST_DRIVER IK_SW_ACPI_IDLE_DUMMY_WAIT_GUEST
_Static_assert(IK_SW_COUNT <= 64, "switches fit one 64-bit set");

/* Where the switched code lives. */
enum ik_switch_area {
	IK_AREA_IDLE_LOOP,
	IK_AREA_CORE,
	IK_AREA_MENU,
	IK_AREA_TEO,
	IK_AREA_LADDER,   /* (ladder has no switch of its own; it follows IK_SW_NS_UNITS) */
	IK_AREA_HALTPOLL,
	IK_AREA_GOVERNORS, /* more than one governor (units) */
	IK_AREA_DRIVER,    /* idle drivers (acpi_idle, intel_idle) and the x86 default idle */
};

/* How well idlekit knows and models a switch. */
enum ik_switch_status {
	IK_SW_MODELLED,    /* the code checks it; flipping it changes decisions */
	IK_SW_NO_INPUT,    /* modelled as "no effect": idlekit has no such input (wakeup QoS) */
	IK_SW_PENDING,     /* a core function exists, the idle loop does not call it yet */
	IK_SW_CATALOGUED,  /* described only: a release that differs here is not implemented */
};

/* Where the behaviour was learned: the "source" column of docs/kernel-releases.md. */
enum ik_switch_source { IK_SRC_SOURCE, IK_SRC_MAIL, IK_SRC_INFERRED };

struct ik_switch_info {
	const char *name;    /* kernel.switch.NAME */
	const char *commit;  /* "" if not confirmed */
	unsigned since;      /* the release it landed in (X*100+Y) */
	unsigned until;      /* the release that reverted it, 0 = still in */
	enum ik_switch_area area;
	enum ik_switch_status status;
	enum ik_switch_source source;
	const char *what;    /* one line: what the commit changes */
};
/* since of a patch that was posted and never merged: in no release. */
#define IK_KERNEL_PROPOSAL 9999u

/* The active set: a release, and the user's flips on top of it. */
struct ik_kernel {
	unsigned release;    /* X*100+Y */
	uint64_t on;         /* bit s: switch s applied */
	uint64_t forced_on;  /* flipped on by the user */
	uint64_t forced_off; /* flipped off by the user */
};

#define IK_KERNEL_DEFAULT_RELEASE 619u
/*
 * The 6.19 set as a constant expression (the enum is in landing order): everything before
 * 7.0's first switch, minus what was reverted by 6.19.  test_kernel checks it against the
 * table.  Hot paths compare with it to run code specialised for the default.
 */
#define IK_KERNEL_DEFAULT_ON                                                                 \
	((((1ull << IK_SW_MENU_STOPPED_TICK_QUERY) - 1) & ~(1ull << IK_SW_MENU_TYPICAL_MAX) & \
	  ~(1ull << IK_SW_TEO_UTIL)) |                                                        \
	 IK_KERNEL_DEFAULT_DRIVER_ON)
/* The driver switches (appended after 7.1's) that 6.19 has: all but the proposal. */
#define IK_KERNEL_DEFAULT_DRIVER_ON                                                          \
	(((1ull << IK_SW_ACPI_IDLE_DUMMY_WAIT_ZEN) - 1) & ~((1ull << IK_SW_FIRST_DRIVER) - 1))

/*
 * The switches of the idle loop, the core and the governors (all but the drivers'), and
 * their sets in the LTS lines before 6.19, as constant expressions (the enum is in landing
 * order; test_kernel checks each against the table), for governors that specialise their
 * hot path: 5.15 stands for 5.15-6.2 (no such switch landed in 6.0-6.2), 6.6 for 6.6-6.8,
 * 6.12 for 6.11-6.12.
 */
#define IK_KERNEL_GOVERNOR_SWITCHES ((1ull << IK_SW_FIRST_DRIVER) - 1)
#define IK_KERNEL_ON_BEFORE(first) ((1ull << (first)) - 1)
#define IK_KERNEL_GOV_ON_5_15 IK_KERNEL_ON_BEFORE(IK_SW_TEO_UTIL)
#define IK_KERNEL_GOV_ON_6_6 IK_KERNEL_ON_BEFORE(IK_SW_HALTPOLL_SHRINK_RESET)
#define IK_KERNEL_GOV_ON_6_12 (IK_KERNEL_ON_BEFORE(IK_SW_MENU_NO_IOWAIT) & ~(1ull << IK_SW_TEO_UTIL))

/* The 6.19 set with nothing flipped: what a freshly initialised device points at. */
extern const struct ik_kernel ik_kernel_default;

static inline bool ik_kernel_has(const struct ik_kernel *k, enum ik_switch s)
{
	return (k->on >> s) & 1u;
}

/* The same test on a copy of k->on, for hot paths that read the set once. */
static inline bool ik_switch_on(uint64_t on, enum ik_switch s)
{
	return (on >> s) & 1u;
}

/*
 * k itself, or the 6.19 set when k was never initialised (release 0: a zeroed struct, as a
 * scenario built in code without the INI reader has).
 */
static inline const struct ik_kernel *ik_kernel_or_default(const struct ik_kernel *k)
{
	return k && k->release ? k : &ik_kernel_default;
}

const struct ik_switch_info *ik_switch_info(enum ik_switch s);
static inline bool ik_switch_is_proposal(const struct ik_switch_info *i)
{
	return i->since == IK_KERNEL_PROPOSAL;
}
/* By name; -1 if unknown. */
int ik_switch_find(const char *name);

/* The known releases, oldest first; n is set to their number. */
const unsigned *ik_kernel_releases(size_t *n);
/* "X.Y" (also "X.Y.Z": the point release behaves as its .0) -> X*100+Y; -1 if not a known
   release, with err listing the known ones. */
int ik_kernel_parse_release(const char *text, unsigned *release, char *err, size_t errlen);
/* "6.19" into buf. */
const char *ik_kernel_release_name(unsigned release, char *buf, size_t len);
/* The catalogued release a release behaves as: itself, or the last before it that has a
   change (4.19 -> 4.18). */
unsigned ik_kernel_release_behaves_as(unsigned release);
/* A longterm (LTS) line of kernel.org: 4.19, 5.4, 5.10, 5.15, 6.1, 6.6, 6.12, 6.18. */
bool ik_kernel_release_is_lts(unsigned release);
/* True if release r contains switch s (landed, not reverted). */
bool ik_kernel_release_has(unsigned release, enum ik_switch s);
/* "menu", "core", "idle loop", ... */
const char *ik_switch_area_name(enum ik_switch_area a);

void ik_kernel_init(struct ik_kernel *k, unsigned release);
/* Keep the flips, change the release. */
void ik_kernel_set_release(struct ik_kernel *k, unsigned release);
/* "NAME" and "on"/"off"; -1 with err (the known switches listed) if unknown. */
int ik_kernel_flip(struct ik_kernel *k, const char *name, const char *value, char *err,
		   size_t errlen);

/*
 * Can `governor` run as k behaves?  0 if yes; -1 with err saying why not: the governor does
 * not exist in that release, or a switch it depends on (its own, the core's, the idle
 * loop's) is set differently from 6.19 and is not modelled.
 */
int ik_kernel_check(const struct ik_kernel *k, const char *governor, char *err, size_t errlen);

/*
 * "6.19" or "6.12 +menu_no_iowait -menu_latency_first": the release and every switch that
 * differs from it (flipped by the user), for text headers.
 */
const char *ik_kernel_describe(const struct ik_kernel *k, char *buf, size_t len);

/*
 * The 4.16 idle loop: the tick is stopped on idle entry, before the governor's select runs,
 * and select's stop_tick hint is ignored (the tick stays stopped).  From 4.17 the idle loop
 * keeps the tick until select says to stop it.
 */
bool ik_idle_stops_tick_before_select(const struct ik_kernel *k);

#endif
