/*
 * idlekit: the decision-stream harness (`idlekit govreplay`).
 *
 * One CPU, one driver state table, one governor.  Each idle period is described by a few
 * numbers (time to the next timer, to the next tick, to a non-timer wakeup, the latency
 * limit, whether the tick is already stopped); the harness runs the real core code on it
 * (select, stop or keep the tick, enter, wake at the earliest event, account as
 * cpuidle_enter_state, reflect) and reports the governor's choice.  The loop is closed: the
 * measured residency of one period is what the governor learns from at the next.
 *
 * Input stream format (docs/govreplay.md): CSV with a header naming the columns sleep_ns,
 * tick_ns, wake_ns and optionally latency_req_ns and tick_stopped, in any order; one idle
 * period per line; '#' starts a comment line; blank lines are skipped.  Output: one line
 * "state,stop_tick" per idle period.
 *
 * No global state: everything lives in struct ik_govreplay, which the caller owns.
 *
 * Implemented by govreplay.c beside it.
 */
#ifndef IDLEKIT_GOVREPLAY_H
#define IDLEKIT_GOVREPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlekit/cpuidle.h"
#include "idlekit/governor.h"

/* With no wake event at all the CPU is taken to wake after this long. */
#define IK_GOVREPLAY_NO_EVENT_NS (10 * IK_NSEC_PER_SEC)

/* One idle period, as parsed from one input line. */
struct ik_govreplay_input {
	int64_t sleep_ns;       /* entry to the next timer, tick ignored; IK_KTIME_MAX = none */
	int64_t tick_ns;        /* entry to the next tick, 1..TICK_NSEC */
	int64_t wake_ns;        /* entry to a non-timer wakeup (IPI...); IK_KTIME_MAX = none */
	int64_t latency_req_ns; /* IK_LATENCY_REQ_NONE_NS = no constraint */
	bool tick_stopped;      /* the tick is already stopped at entry */
};

/* What ended the idle period; on equal times the first in this order wins. */
enum ik_govreplay_event {
	IK_GOVREPLAY_WAKE,       /* wake_ns */
	IK_GOVREPLAY_TIMER,      /* sleep_ns */
	IK_GOVREPLAY_TICK,       /* tick_ns, only while the tick runs */
	IK_GOVREPLAY_POLL_LIMIT, /* cpuidle_poll_time(), only in a polling state */
	IK_GOVREPLAY_NO_EVENT,   /* none of the above: IK_GOVREPLAY_NO_EVENT_NS */
};

/* The outcome of one idle period. */
struct ik_govreplay_result {
	int state;       /* the governor's choice, which is also the state entered */
	bool stop_tick;  /* *stop_tick after select */
	bool tick_kept;  /* the tick ran during the period (not stopped at entry, !stop_tick) */
	enum ik_govreplay_event woken_by;
	int64_t wake_at_ns;         /* when that event came, from idle entry */
	uint64_t last_residency_ns; /* wake_at_ns + exit latency (0 for a polling state) */
};

/* The harness for one CPU.  Fill with ik__govreplay_init, free with ik__govreplay_free. */
struct ik_govreplay {
	struct ik_driver drv;
	struct ik_device dev;
	const struct ik_governor *gov;
	struct ik_haltpoll_params haltpoll;
	int hz;
	bool enabled;           /* gov->enable succeeded: disable at free */
	uint64_t lines;         /* idle periods stepped */
	uint64_t stop_tick_count; /* of those, how many with stop_tick = 1 */
	int64_t clock_ns;       /* the harness's clock (local_clock()): the periods end to end */
	/*
	 * Optional: the stream functions write here, per idle period, what happened (line,
	 * state, stop_tick, the wake event and its time, last_residency_ns).  NULL = nothing.
	 */
	FILE *trace;
	/* Optional: per idle period "LINE,STATE,STOP_TICK\n" (the input's line number), for
	   the JSON's decision list.  NULL = nothing. */
	FILE *decisions;
};

/* Return codes of the functions below. */
enum {
	IK_GOVREPLAY_OK = 0,
	IK_GOVREPLAY_EFAIL = -1,  /* out of memory, or reading/writing failed */
	IK_GOVREPLAY_EINPUT = -2, /* bad input: the message names the line and the column */
};

/*
 * Set up one CPU (number 0) with a copy of drv (already registered: ik_driver_init done),
 * the governor, HZ and the haltpoll governor's parameters (NULL = the kernel's defaults).
 * States can be disabled with ik__govreplay_disable before the first step.  The governor is
 * enabled by ik__govreplay_start (the stream functions call it).  Returns IK_GOVREPLAY_OK,
 * or IK_GOVREPLAY_EINPUT with a message (no governor, bad hz, empty table).  The struct
 * points into itself (dev.haltpoll): do not copy it once initialised.
 */
int ik__govreplay_init(struct ik_govreplay *g, const struct ik_driver *drv,
		      const struct ik_governor *gov, int hz,
		      const struct ik_haltpoll_params *haltpoll, char *err, size_t errlen);

/* Disable a state by name, as writing 1 to its sysfs "disable" does. 0, or -1 if unknown. */
int ik__govreplay_disable(struct ik_govreplay *g, const char *state_name);

/* Enable the governor (its per-CPU data); does nothing if already done. */
int ik__govreplay_start(struct ik_govreplay *g, char *err, size_t errlen);

void ik__govreplay_free(struct ik_govreplay *g);

/* TICK_NSEC of the harness's HZ: the largest valid tick_ns. */
static inline int64_t ik__govreplay_tick_nsec(const struct ik_govreplay *g)
{
	return g->dev.tick_nsec;
}

/*
 * One idle period through the core: fill the device's inputs, select, stop or keep the
 * tick, enter, find the earliest wake event, account, reflect.  The input must be valid
 * (times >= 0, 1 <= tick_ns <= TICK_NSEC); the stream functions check it.  Requires
 * ik__govreplay_start to have succeeded.
 */
void ik__govreplay_step(struct ik_govreplay *g, const struct ik_govreplay_input *in,
		       struct ik_govreplay_result *out);

/*
 * The same step in two halves, for a caller that learns what wakes the CPU only after it
 * has entered (idlekit replay: the wake of a period is read from the trace later, and other
 * CPUs' wakes in between may depend on the state chosen).  ik__govreplay_step is exactly
 * enter, earliest, exit; between enter and exit nothing else may be called on g.
 */
struct ik_govreplay_entered {
	int state;              /* the governor's choice, which is also the state entered */
	bool stop_tick;         /* *stop_tick after select */
	bool tick_kept;         /* the tick runs during the period */
	bool polling;           /* a polling state: the poll limit below can end it */
	uint64_t poll_limit_ns; /* cpuidle_poll_time(), from entry (when polling) */
};

/* Fill the device's inputs from `in` (its wake_ns is not used), select, stop or keep the
   tick, enter. */
void ik__govreplay_enter(struct ik_govreplay *g, const struct ik_govreplay_input *in,
			struct ik_govreplay_entered *e);

/* The earliest wake event of an entered period given in's times (wake_ns, sleep_ns, the
   tick if kept, the poll limit if polling; ties in enum ik_govreplay_event's order), and
   when, from entry (IK_GOVREPLAY_NO_EVENT_NS if none). */
enum ik_govreplay_event ik__govreplay_earliest(const struct ik_govreplay_input *in,
					      const struct ik_govreplay_entered *e,
					      int64_t *at_ns);

/* Wake the entered CPU at `at_ns` from entry by `woken_by`: account as cpuidle_enter_state
   (with the advertised exit latency), reflect, advance the harness's clock, report. */
void ik__govreplay_exit(struct ik_govreplay *g, const struct ik_govreplay_entered *e,
		       enum ik_govreplay_event woken_by, int64_t at_ns,
		       struct ik_govreplay_result *out);

/*
 * Read an input stream and step each idle period, writing "state,stop_tick\n" per period
 * to out (NULL = write nothing).  `origin` names the input in messages ("FILE:LINE: ...").
 * Output of the lines before a bad one has been written when the error is returned.
 * Returns IK_GOVREPLAY_OK, IK_GOVREPLAY_EINPUT (err: "origin:line: column 'c': expected
 * ..., got '...'"), or IK_GOVREPLAY_EFAIL (err says what failed).
 */
int ik__govreplay_stream(struct ik_govreplay *g, FILE *in, const char *origin, FILE *out,
			char *err, size_t errlen);

/* The same over a buffer held in memory. */
int ik__govreplay_buffer(struct ik_govreplay *g, const char *data, size_t len, const char *origin,
			FILE *out, char *err, size_t errlen);

/* "wake", "timer", "tick", "poll_limit", "none". */
const char *ik__govreplay_event_name(enum ik_govreplay_event e);

#endif
