#include <stdlib.h>
#include <string.h>

#include "sim/event_queue.h"

int ik__eq_init(struct ik_event_queue *q, int capacity)
{
	q->capacity = capacity;
	q->size = 0;
	q->cur = 0;
	q->summary = 0;
	for (int w = 0; w < IK_EQ_SLOTS / 64; w++)
		q->bits[w] = 0;
	q->hsize = 0;
	q->vacant_root = false;
	q->heap_bound = INT64_MAX;
	size_t n = capacity > 0 ? (size_t)capacity : 1;
	/* the timer table on cache-line boundaries (a multiple of 64 bytes, as aligned_alloc
	   wants): a CPU's timers, 16 ids from a multiple of 16 (src/sim), fill whole lines */
	size_t tsize = (n * sizeof(*q->t) + 63) / 64 * 64;
	q->heap = calloc(n, sizeof(*q->heap));
	q->t = aligned_alloc(64, tsize);
	q->head = malloc(IK_EQ_SLOTS * sizeof(*q->head));
	if (!q->heap || !q->t || !q->head) {
		ik__eq_free(q);
		return -1;
	}
	memset(q->t, 0, tsize);
	for (int i = 0; i < capacity; i++)
		q->t[i].pos = -1;
	for (int i = 0; i < IK_EQ_SLOTS; i++)
		q->head[i] = -1;
	return 0;
}

void ik__eq_free(struct ik_event_queue *q)
{
	free(q->heap);
	free(q->t);
	free(q->head);
	q->heap = NULL;
	q->t = NULL;
	q->head = NULL;
	q->size = q->capacity = q->hsize = 0;
	q->vacant_root = false;
	q->heap_bound = INT64_MAX;
}

#define before_t ik__eq_before
#define slot_of ik__eq_slot_of
#define in_wheel_span ik__eq_in_wheel_span
#define wheel_link ik__eq_wheel_link
#define wheel_unlink ik__eq_wheel_unlink

static inline bool before(struct ik_eq_entry a, struct ik_eq_entry b)
{
	return before_t(a.expires, a.id, b.expires, b.id);
}

_Static_assert(IK_EQ_SLOTS == 64 * 64, "one summary word covers the slots' bitmap");

/* ---- the heap ---- */

static inline void place(struct ik_event_queue *q, int i, struct ik_eq_entry e)
{
	q->heap[i] = e;
	q->t[e.id].pos = i;
}

/* After any change to the heap: q->heap_bound as ik__eq_first() reads it. */
static inline void update_bound(struct ik_event_queue *q)
{
	q->heap_bound = q->vacant_root ? INT64_MIN : q->hsize ? q->heap[0].expires : INT64_MAX;
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

/* The earlier of a first child (in the heap) and its sibling (when there is one). */
static inline int earlier_child(const struct ik_event_queue *q, int child)
{
	if (child + 1 < q->hsize && before(q->heap[child + 1], q->heap[child]))
		child++;
	return child;
}

static void sift_down(struct ik_event_queue *q, int i)
{
	struct ik_eq_entry e = q->heap[i];

	for (int child; (child = 2 * i + 1) < q->hsize; i = child) {
		child = earlier_child(q, child);
		if (!before(q->heap[child], e))
			break;
		place(q, i, q->heap[child]);
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
	for (int child; (child = 2 * i + 1) < q->hsize; i = child) {
		child = earlier_child(q, child);
		place(q, i, q->heap[child]);
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
int ik__eq_heap_first(struct ik_event_queue *q)
{
	if (q->vacant_root) {
		fill_vacant_root(q);
		update_bound(q);
	}
	return q->hsize ? q->heap[0].id : -1;
}

/* ---- the queue ---- */

/* ik__eq_arm() of a timer that is armed already, or of one going into the heap. */
void ik__eq_arm_slow(struct ik_event_queue *q, int id, int64_t t)
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
		update_bound(q);
		return;
	}
	if (p >= 0) {
		heap_move(q, id, t);
		update_bound(q);
		return;
	}
	if (p == IK_EQ_IN_WHEEL)
		wheel_unlink(q, id);
	else
		q->size++;
	heap_insert(q, id, t);
	update_bound(q);
}

void ik__eq_remove(struct ik_event_queue *q, int id)
{
	if (q->t[id].pos == IK_EQ_IN_WHEEL) {
		wheel_unlink(q, id);
	} else {
		heap_remove(q, id);
		update_bound(q);
	}
	q->t[id].pos = -1;
	q->size--;
}

int ik__eq_pop(struct ik_event_queue *q, int64_t *t)
{
	return ik__eq_pop_until(q, INT64_MAX, t);
}

int64_t ik__eq_peek_time(struct ik_event_queue *q)
{
	int slot, id = ik__eq_first(q, &slot);
	return id >= 0 ? q->t[id].when : INT64_MAX;
}
