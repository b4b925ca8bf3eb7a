/*
 * The simulator's clock: the armed timers in time order.
 *
 * Every timer the model can have (a CPU's tick, its pending wake-up, the end of its exit,
 * the end of the work it runs, a task's hrtimer, ...) has a fixed id, so arming a timer
 * that is already armed moves it instead of leaving a stale entry behind: the queue never
 * holds more entries than there are timers, however long the simulation runs.  Ties are
 * broken by id, which keeps the order of events, and so every result, deterministic.
 * Because that order is total, which timer fires next never depends on how the timers are
 * stored, only on which timers are armed when.
 *
 * Two stores, one order:
 *
 * - A timer wheel for the near future: IK_EQ_SLOTS slots of 2^IK_EQ_SHIFT ns each, from
 *   the slot of the last timer that fired onwards (about a quarter of a millisecond).  A
 *   slot holds its timers in a list sorted by (time, id), and a bitmap (with a summary
 *   word) finds the first slot that holds any.  Most timers of a busy machine (the end of
 *   an exit, of a piece of work, an IPI on its way) land here: arming one is a few
 *   instructions instead of a heap's sift along a dozen levels.
 * - An indexed binary min-heap for the rest (ticks, housekeeping, long sleeps).  Popping
 *   leaves its root vacant rather than refilling it at once: the handler of the event
 *   almost always arms a timer next, and that timer then takes the vacant root with one
 *   sift down, instead of the refill's sift down and the new timer's sift up.
 *
 * The next timer is the earlier (by time, then id) of the wheel's first and the heap's
 * root, so where a timer is stored never changes the order.
 */
#ifndef IDLEKIT_SIM_EVENT_QUEUE_H
#define IDLEKIT_SIM_EVENT_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#define IK_EQ_SHIFT 6     /* a wheel slot spans 64 ns */
#define IK_EQ_SLOTS 4096  /* 64 bitmap words: one summary word */
#define IK_EQ_IN_WHEEL (-2) /* pos[id] of a timer stored in the wheel */

struct ik_eq_entry {
	int64_t expires;
	int id;
};

/* What the queue knows of one timer (kept together: one cache line is touched). */
struct ik_eq_timer {
	int64_t when;              /* expiry, while armed */
	int pos;                   /* heap index, IK_EQ_IN_WHEEL, or -1 (not armed) */
	int next, prev;            /* in the wheel: neighbours in its slot's sorted list */
};

struct ik_event_queue {
	int capacity;              /* number of timer ids */
	int size;                  /* armed timers (wheel and heap) */
	struct ik_eq_timer *t;     /* t[id] */
	/* the wheel */
	int64_t cur;               /* slot number (time >> IK_EQ_SHIFT) the wheel starts at */
	int *head;                 /* head[slot]: its earliest timer, -1 when empty */
	uint64_t bits[IK_EQ_SLOTS / 64]; /* slot holds timers */
	uint64_t summary;          /* bit w: bits[w] != 0 */
	/* the heap */
	int hsize;                 /* timers in the heap */
	bool vacant_root;          /* heap[0] was popped: entries are heap[1..hsize] */
	struct ik_eq_entry *heap;  /* the heap, times kept beside ids for locality */
};

int ik_eq_init(struct ik_event_queue *q, int capacity); /* 0 or -1 (out of memory) */
void ik_eq_free(struct ik_event_queue *q);
/* Arm timer id at time t, or move it there if it is armed already. */
void ik_eq_arm(struct ik_event_queue *q, int id, int64_t t);
void ik_eq_remove(struct ik_event_queue *q, int id);
/* Disarm timer id (nothing to do if it is not armed, the common case). */
static inline void ik_eq_cancel(struct ik_event_queue *q, int id)
{
	if (q->t[id].pos != -1)
		ik_eq_remove(q, id);
}
static inline bool ik_eq_armed(const struct ik_event_queue *q, int id)
{
	return q->t[id].pos != -1;
}
/* Only for an armed timer. */
static inline int64_t ik_eq_expires(const struct ik_event_queue *q, int id)
{
	return q->t[id].when;
}
/* Earliest timer: its id (and time in *t), disarmed; -1 when none is armed. */
int ik_eq_pop(struct ik_event_queue *q, int64_t *t);
/* The earliest timer if it expires at or before `until`: as ik_eq_pop; else -1 and
   nothing changes (one look instead of ik_eq_peek_time's and ik_eq_pop's). */
int ik_eq_pop_until(struct ik_event_queue *q, int64_t until, int64_t *t);
/* Time of the earliest timer without removing it; INT64_MAX when none. */
int64_t ik_eq_peek_time(struct ik_event_queue *q);

#endif
