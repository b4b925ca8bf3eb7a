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
 *   slot holds its timers in a (singly linked) list sorted by (time, id), and a bitmap (with a summary
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

/* What the queue knows of one timer (kept together, 16 bytes: four timers a cache line). */
struct ik_eq_timer {
	int64_t when;              /* expiry, while armed */
	int pos;                   /* heap index, IK_EQ_IN_WHEEL, or -1 (not armed) */
	int next;                  /* in the wheel: the next in its slot's sorted list, or -1 */
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
	/* the root's time, INT64_MAX for an empty heap, INT64_MIN while the root is vacant:
	   a wheel timer strictly earlier is the next timer without looking at the heap */
	int64_t heap_bound;
};

int ik__eq_init(struct ik_event_queue *q, int capacity); /* 0 or -1 (out of memory) */
void ik__eq_free(struct ik_event_queue *q);
void ik__eq_remove(struct ik_event_queue *q, int id);
/* Time of the earliest timer without removing it; INT64_MAX when none. */
int64_t ik__eq_peek_time(struct ik_event_queue *q);
/* Earliest timer: its id (and time in *t), disarmed; -1 when none is armed. */
int ik__eq_pop(struct ik_event_queue *q, int64_t *t);

/*
 * The fast paths below are inline: the simulator arms and pops a few million timers per
 * simulated second, and a call's own cost (saving registers, passing the queue) was a
 * fifth of each.  The rest (the heap, moving an armed timer) is in event_queue.c.
 */

/* ik__eq_arm() of a timer that is armed already, or of one going into the heap. */
void ik__eq_arm_slow(struct ik_event_queue *q, int id, int64_t t);
/* The heap's earliest timer after refilling a vacant root; -1 when the heap is empty. */
int ik__eq_heap_first(struct ik_event_queue *q);

#define IK_EQ_INLINE static inline __attribute__((always_inline))

/* (ta, a) fires before (tb, b): earlier time, or the same time and a smaller id. */
IK_EQ_INLINE bool ik__eq_before(int64_t ta, int a, int64_t tb, int b)
{
	return ta < tb || (ta == tb && a < b);
}

IK_EQ_INLINE int ik__eq_slot_of(int64_t t)
{
	return (int)((uint64_t)(t >> IK_EQ_SHIFT) & (IK_EQ_SLOTS - 1));
}

/* t falls in the wheel's span: its slots from q->cur on (never behind it). */
IK_EQ_INLINE bool ik__eq_in_wheel_span(const struct ik_event_queue *q, int64_t t)
{
	return (uint64_t)((t >> IK_EQ_SHIFT) - q->cur) < IK_EQ_SLOTS;
}

/* Put timer id (not stored anywhere) into its wheel slot's sorted list. */
IK_EQ_INLINE void ik__eq_wheel_link(struct ik_event_queue *q, int id, int64_t t)
{
	int slot = ik__eq_slot_of(t);
	int p = -1, c = q->head[slot];
	struct ik_eq_timer *me = &q->t[id];

	me->pos = IK_EQ_IN_WHEEL;
	me->when = t;
	if (c < 0) { /* the common case: an empty slot */
		q->head[slot] = id;
		me->next = -1;
		q->bits[slot >> 6] |= 1ULL << (slot & 63);
		q->summary |= 1ULL << (slot >> 6);
		return;
	}
	while (c >= 0 && ik__eq_before(q->t[c].when, c, t, id)) {
		p = c;
		c = q->t[c].next;
	}
	me->next = c;
	if (p < 0)
		q->head[slot] = id;
	else
		q->t[p].next = id;
}

/* Clear the bit of a slot that became empty. */
IK_EQ_INLINE void ik__eq_wheel_slot_emptied(struct ik_event_queue *q, int slot)
{
	uint64_t *word = &q->bits[slot >> 6];
	*word &= ~(1ULL << (slot & 63));
	if (!*word)
		q->summary &= ~(1ULL << (slot >> 6));
}

/* Take timer id out of its slot's list (found from the slot's head: a slot holds a few
   timers at most, and only a cancel or a move of a wheel timer comes here, while every
   pop takes a head, so the lists are singly linked). */
IK_EQ_INLINE void ik__eq_wheel_unlink(struct ik_event_queue *q, int id)
{
	int slot = ik__eq_slot_of(q->t[id].when);
	int n = q->t[id].next, c = q->head[slot];

	if (c == id) {
		q->head[slot] = n;
		if (n < 0)
			ik__eq_wheel_slot_emptied(q, slot);
		return;
	}
	while (q->t[c].next != id)
		c = q->t[c].next;
	q->t[c].next = n;
}

/* The first slot holding timers (the wheel must not be empty), searched from the
   wheel's start round to just before it. */
IK_EQ_INLINE int ik__eq_wheel_first_slot(const struct ik_event_queue *q)
{
	int s = (int)((uint64_t)q->cur & (IK_EQ_SLOTS - 1));
	int w = s >> 6;
	uint64_t m = q->bits[w] & (~0ULL << (s & 63));
	if (m)
		return (w << 6) | __builtin_ctzll(m);
	uint64_t later = w < 63 ? q->summary & (~0ULL << (w + 1)) : 0;
	/* none after word w: the wheel wraps (word w's lower slots are its last) */
	int w2 = __builtin_ctzll(later ? later : q->summary);
	return (w2 << 6) | __builtin_ctzll(q->bits[w2]);
}

/* Arm timer id at time t, or move it there if it is armed already. */
IK_EQ_INLINE void ik__eq_arm(struct ik_event_queue *q, int id, int64_t t)
{
	if (__builtin_expect(q->t[id].pos == -1 && ik__eq_in_wheel_span(q, t), 1)) {
		q->size++;
		ik__eq_wheel_link(q, id, t);
		return;
	}
	ik__eq_arm_slow(q, id, t);
}

/* Disarm timer id (nothing to do if it is not armed, the common case). */
static inline void ik__eq_cancel(struct ik_event_queue *q, int id)
{
	if (q->t[id].pos != -1)
		ik__eq_remove(q, id);
}
static inline bool ik__eq_armed(const struct ik_event_queue *q, int id)
{
	return q->t[id].pos != -1;
}
/* Only for an armed timer. */
static inline int64_t ik__eq_expires(const struct ik_event_queue *q, int id)
{
	return q->t[id].when;
}

/* The earliest armed timer, -1 when none; *slot: its wheel slot, -1 if in the heap. */
IK_EQ_INLINE int ik__eq_first(struct ik_event_queue *q, int *slot)
{
	if (q->summary) { /* the usual case: the wheel's first, before the heap's root */
		int ws = ik__eq_wheel_first_slot(q), w = q->head[ws];
		if (q->t[w].when < q->heap_bound) {
			*slot = ws;
			return w;
		}
	}
	int h = !q->hsize ? -1 : q->vacant_root ? ik__eq_heap_first(q) : q->heap[0].id;

	*slot = -1;
	if (!q->summary)
		return h;
	int ws = ik__eq_wheel_first_slot(q), w = q->head[ws];
	if (h >= 0 && !ik__eq_before(q->t[w].when, w, q->heap[0].expires, h))
		return h;
	*slot = ws;
	return w;
}

/* The earliest timer if it expires at or before `until`: as ik__eq_pop; else -1, *t is
   INT64_MAX and nothing else changes (one look instead of ik__eq_peek_time's and
   ik__eq_pop's). */
IK_EQ_INLINE int ik__eq_pop_until(struct ik_event_queue *q, int64_t until, int64_t *t)
{
	int slot, id = ik__eq_first(q, &slot);

	*t = INT64_MAX;
	if (id < 0)
		return -1;
	int64_t when = q->t[id].when;
	if (when > until)
		return -1;
	if (slot >= 0) { /* the head of its slot */
		int n = q->t[id].next;
		q->head[slot] = n;
		if (n < 0)
			ik__eq_wheel_slot_emptied(q, slot);
	} else { /* the heap's root: left vacant for the next insertion */
		q->hsize--;
		q->vacant_root = true;
		q->heap_bound = INT64_MIN;
	}
	q->t[id].pos = -1;
	q->size--;
	/* Every timer left expires at or after this one: the wheel may start at its slot. */
	int64_t at = when >> IK_EQ_SHIFT;
	q->cur = at > q->cur ? at : q->cur;
	*t = when;
	return id;
}

#endif
