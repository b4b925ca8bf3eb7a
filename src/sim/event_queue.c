#include <stdlib.h>

#include "sim/event_queue.h"

int ik_eq_init(struct ik_event_queue *q, int capacity)
{
	q->capacity = capacity;
	q->size = 0;
	q->cur = 0;
	q->summary = 0;
	for (int w = 0; w < IK_EQ_SLOTS / 64; w++)
		q->bits[w] = 0;
	q->hsize = 0;
	q->vacant_root = false;
	size_t n = capacity > 0 ? (size_t)capacity : 1;
	q->heap = calloc(n, sizeof(*q->heap));
	q->t = calloc(n, sizeof(*q->t));
	q->head = malloc(IK_EQ_SLOTS * sizeof(*q->head));
	if (!q->heap || !q->t || !q->head) {
		ik_eq_free(q);
		return -1;
	}
	for (int i = 0; i < capacity; i++)
		q->t[i].pos = -1;
	for (int i = 0; i < IK_EQ_SLOTS; i++)
		q->head[i] = -1;
	return 0;
}

void ik_eq_free(struct ik_event_queue *q)
{
	free(q->heap);
	free(q->t);
	free(q->head);
	q->heap = NULL;
	q->t = NULL;
	q->head = NULL;
	q->size = q->capacity = q->hsize = 0;
	q->vacant_root = false;
}

/* (ta, a) fires before (tb, b): earlier time, or the same time and a smaller id. */
static inline bool before_t(int64_t ta, int a, int64_t tb, int b)
{
	return ta < tb || (ta == tb && a < b);
}

static inline bool before(struct ik_eq_entry a, struct ik_eq_entry b)
{
	return before_t(a.expires, a.id, b.expires, b.id);
}

/* ---- the wheel ---- */

static inline int slot_of(int64_t t)
{
	return (int)((uint64_t)(t >> IK_EQ_SHIFT) & (IK_EQ_SLOTS - 1));
}

/* t falls in the wheel's span: its slots from q->cur on (never behind it). */
static inline bool in_wheel_span(const struct ik_event_queue *q, int64_t t)
{
	return (uint64_t)((t >> IK_EQ_SHIFT) - q->cur) < IK_EQ_SLOTS;
}

_Static_assert(IK_EQ_SLOTS == 64 * 64, "one summary word covers the slots' bitmap");

#define EQ_INLINE static inline __attribute__((always_inline))

EQ_INLINE void wheel_link(struct ik_event_queue *q, int id, int64_t t)
{
	int slot = slot_of(t);
	int p = -1, c = q->head[slot];

	q->t[id].pos = IK_EQ_IN_WHEEL;
	q->t[id].when = t;
	if (c < 0) { /* the common case: an empty slot */
		q->head[slot] = id;
		q->t[id].prev = q->t[id].next = -1;
		q->bits[slot >> 6] |= 1ULL << (slot & 63);
		q->summary |= 1ULL << (slot >> 6);
		return;
	}
	while (c >= 0 && before_t(q->t[c].when, c, t, id)) {
		p = c;
		c = q->t[c].next;
	}
	q->t[id].prev = p;
	q->t[id].next = c;
	if (p < 0)
		q->head[slot] = id;
	else
		q->t[p].next = id;
	if (c >= 0)
		q->t[c].prev = id;
}

/* Clear the bit of a slot that became empty. */
EQ_INLINE void wheel_slot_emptied(struct ik_event_queue *q, int slot)
{
	uint64_t *word = &q->bits[slot >> 6];
	*word &= ~(1ULL << (slot & 63));
	if (!*word)
		q->summary &= ~(1ULL << (slot >> 6));
}

EQ_INLINE void wheel_unlink(struct ik_event_queue *q, int id)
{
	int p = q->t[id].prev, n = q->t[id].next;

	if (n >= 0)
		q->t[n].prev = p;
	if (p >= 0) {
		q->t[p].next = n;
		return;
	}
	int slot = slot_of(q->t[id].when);
	q->head[slot] = n;
	if (n < 0)
		wheel_slot_emptied(q, slot);
}

/* The first slot holding timers (the wheel must not be empty), searched from the
   wheel's start round to just before it. */
EQ_INLINE int wheel_first_slot(const struct ik_event_queue *q)
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

/* ---- the heap ---- */

static inline void place(struct ik_event_queue *q, int i, struct ik_eq_entry e)
{
	q->heap[i] = e;
	q->t[e.id].pos = i;
}

static void sift_up(struct ik_event_queue *q, int i)
{
	struct ik_eq_entry e = q->heap[i];

	while (i > 0) {
		int parent = (i - 1) / 2;
		if (!before(e, q->heap[parent]))
			break;
		place(q, i, q->heap[parent]);
		i = parent;
	}
	place(q, i, e);
}

static void sift_down(struct ik_event_queue *q, int i)
{
	struct ik_eq_entry e = q->heap[i];

	for (;;) {
		int child = 2 * i + 1;
		if (child >= q->hsize)
			break;
		if (child + 1 < q->hsize && before(q->heap[child + 1], q->heap[child]))
			child++;
		if (!before(q->heap[child], e))
			break;
		place(q, i, q->heap[child]);
		i = child;
	}
	place(q, i, e);
}

/* Put the last entry into the vacant root and restore the heap (Floyd: the vacancy goes
   down along the smaller children to a leaf, one comparison per level, and the last
   entry, which usually belongs near the bottom, rises from there). */
static void fill_vacant_root(struct ik_event_queue *q)
{
	q->vacant_root = false;
	if (q->hsize == 0)
		return;
	struct ik_eq_entry last = q->heap[q->hsize]; /* slots 1..hsize hold the entries */
	int i = 0;
	for (;;) {
		int child = 2 * i + 1;
		if (child >= q->hsize)
			break;
		if (child + 1 < q->hsize && before(q->heap[child + 1], q->heap[child]))
			child++;
		place(q, i, q->heap[child]);
		i = child;
	}
	place(q, i, last);
	sift_up(q, i);
}

static __attribute__((noinline)) void heap_insert(struct ik_event_queue *q, int id, int64_t t)
{
	q->t[id].when = t;
	if (q->vacant_root) {
		q->vacant_root = false;
		q->hsize++;
		place(q, 0, (struct ik_eq_entry){ t, id });
		sift_down(q, 0);
		return;
	}
	int i = q->hsize++;
	place(q, i, (struct ik_eq_entry){ t, id });
	sift_up(q, i);
}

/* Move a timer that is in the heap. */
static __attribute__((noinline)) void heap_move(struct ik_event_queue *q, int id, int64_t t)
{
	if (q->vacant_root)
		fill_vacant_root(q);
	int i = q->t[id].pos;
	int64_t old = q->heap[i].expires;
	q->heap[i].expires = t;
	q->t[id].when = t;
	if (t < old)
		sift_up(q, i);
	else if (t > old)
		sift_down(q, i);
}

static __attribute__((noinline)) void heap_remove(struct ik_event_queue *q, int id)
{
	if (q->vacant_root)
		fill_vacant_root(q);
	int i = q->t[id].pos;

	q->t[id].pos = -1;
	struct ik_eq_entry last = q->heap[--q->hsize];
	if (i == q->hsize)
		return;
	place(q, i, last);
	if (i > 0 && before(last, q->heap[(i - 1) / 2]))
		sift_up(q, i);
	else
		sift_down(q, i);
}

/* The heap's earliest timer, -1 when it is empty. */
static __attribute__((noinline)) int heap_first(struct ik_event_queue *q)
{
	if (q->vacant_root)
		fill_vacant_root(q);
	return q->hsize ? q->heap[0].id : -1;
}

/* ---- the queue ---- */

/* ik_eq_arm() of a timer that is armed already, or of one going into the heap. */
static __attribute__((noinline)) void arm_slow(struct ik_event_queue *q, int id, int64_t t)
{
	int p = q->t[id].pos;

	if (in_wheel_span(q, t)) {
		if (p == IK_EQ_IN_WHEEL)
			wheel_unlink(q, id);
		else if (p >= 0)
			heap_remove(q, id);
		else
			q->size++;
		wheel_link(q, id, t);
		return;
	}
	if (p >= 0) {
		heap_move(q, id, t);
		return;
	}
	if (p == IK_EQ_IN_WHEEL)
		wheel_unlink(q, id);
	else
		q->size++;
	heap_insert(q, id, t);
}

void ik_eq_arm(struct ik_event_queue *q, int id, int64_t t)
{
	if (__builtin_expect(q->t[id].pos == -1 && in_wheel_span(q, t), 1)) {
		q->size++;
		wheel_link(q, id, t);
		return;
	}
	arm_slow(q, id, t);
}

void ik_eq_remove(struct ik_event_queue *q, int id)
{
	if (q->t[id].pos == IK_EQ_IN_WHEEL)
		wheel_unlink(q, id);
	else
		heap_remove(q, id);
	q->t[id].pos = -1;
	q->size--;
}

/* The earliest armed timer, -1 when none; *slot: its wheel slot, -1 if in the heap. */
EQ_INLINE int first(struct ik_event_queue *q, int *slot)
{
	int h = !q->hsize ? -1 : q->vacant_root ? heap_first(q) : q->heap[0].id;

	*slot = -1;
	if (!q->summary)
		return h;
	int ws = wheel_first_slot(q), w = q->head[ws];
	if (h >= 0 && !before_t(q->t[w].when, w, q->heap[0].expires, h))
		return h;
	*slot = ws;
	return w;
}

int ik_eq_pop_until(struct ik_event_queue *q, int64_t until, int64_t *t)
{
	int slot, id = first(q, &slot);

	if (id < 0)
		return -1;
	int64_t when = q->t[id].when;
	if (when > until)
		return -1;
	if (slot >= 0) { /* the head of its slot */
		int n = q->t[id].next;
		q->head[slot] = n;
		if (n >= 0)
			q->t[n].prev = -1;
		else
			wheel_slot_emptied(q, slot);
	} else { /* the heap's root: left vacant for the next insertion */
		q->hsize--;
		q->vacant_root = true;
	}
	q->t[id].pos = -1;
	q->size--;
	/* Every timer left expires at or after this one: the wheel may start at its slot. */
	if ((when >> IK_EQ_SHIFT) > q->cur)
		q->cur = when >> IK_EQ_SHIFT;
	*t = when;
	return id;
}

int ik_eq_pop(struct ik_event_queue *q, int64_t *t)
{
	return ik_eq_pop_until(q, INT64_MAX, t);
}

int64_t ik_eq_peek_time(struct ik_event_queue *q)
{
	int slot, id = first(q, &slot);
	return id >= 0 ? q->t[id].when : INT64_MAX;
}
