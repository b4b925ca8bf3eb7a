/*
 * The simulator's clock: an indexed binary min-heap of timers.
 *
 * Every timer the model can have (a CPU's tick, its pending wake-up, the end of its exit,
 * the end of the work it runs, a task's hrtimer, ...) has a fixed id, so arming a timer
 * that is already armed moves it instead of leaving a stale entry behind: the heap never
 * holds more entries than there are timers, however long the simulation runs.  Ties are
 * broken by id, which keeps the order of events, and so every result, deterministic.
 * Because that order is total, which timer fires next never depends on how the heap is laid
 * out, only on which timers are armed when.
 *
 * Popping leaves the root vacant rather than refilling it at once: the handler of the event
 * almost always arms a timer next (the wake-up it causes, the end of the exit it starts), and
 * that timer then takes the vacant root with one sift down, instead of the refill's sift
 * down and the new timer's sift up.
 */
#ifndef IDLEKIT_SIM_EVENT_QUEUE_H
#define IDLEKIT_SIM_EVENT_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

struct ik_eq_entry {
	int64_t expires;
	int id;
};

struct ik_event_queue {
	int capacity;              /* number of timer ids */
	int size;                  /* armed timers */
	bool vacant_root;          /* heap[0] was popped: entries are heap[1..size] */
	struct ik_eq_entry *heap;  /* the heap, times kept beside ids for locality */
	int *pos;                  /* pos[id] = index in heap, -1 when not armed */
};

int ik_eq_init(struct ik_event_queue *q, int capacity); /* 0 or -1 (out of memory) */
void ik_eq_free(struct ik_event_queue *q);
/* Arm timer id at time t, or move it there if it is armed already. */
void ik_eq_arm(struct ik_event_queue *q, int id, int64_t t);
void ik_eq_remove(struct ik_event_queue *q, int id);
/* Disarm timer id (nothing to do if it is not armed, the common case). */
static inline void ik_eq_cancel(struct ik_event_queue *q, int id)
{
	if (q->pos[id] >= 0)
		ik_eq_remove(q, id);
}
static inline bool ik_eq_armed(const struct ik_event_queue *q, int id)
{
	return q->pos[id] >= 0;
}
/* Only for an armed timer. */
static inline int64_t ik_eq_expires(const struct ik_event_queue *q, int id)
{
	return q->heap[q->pos[id]].expires;
}
/* Earliest timer: its id (and time in *t), disarmed; -1 when none is armed. */
int ik_eq_pop(struct ik_event_queue *q, int64_t *t);
/* The earliest timer if it expires at or before `until`: as ik_eq_pop; else -1 and
   nothing changes (one look at the heap instead of ik_eq_peek_time's and ik_eq_pop's). */
int ik_eq_pop_until(struct ik_event_queue *q, int64_t until, int64_t *t);
/* Time of the earliest timer without removing it; INT64_MAX when none. */
int64_t ik_eq_peek_time(struct ik_event_queue *q);

#endif
