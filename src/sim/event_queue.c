#include <stdlib.h>

#include "sim/event_queue.h"

int ik_eq_init(struct ik_event_queue *q, int capacity)
{
	q->capacity = capacity;
	q->size = 0;
	q->vacant_root = false;
	q->heap = calloc((size_t)capacity, sizeof(*q->heap));
	q->pos = malloc((size_t)capacity * sizeof(*q->pos));
	if (!q->heap || !q->pos) {
		ik_eq_free(q);
		return -1;
	}
	for (int i = 0; i < capacity; i++)
		q->pos[i] = -1;
	return 0;
}

void ik_eq_free(struct ik_event_queue *q)
{
	free(q->heap);
	free(q->pos);
	q->heap = NULL;
	q->pos = NULL;
	q->size = q->capacity = 0;
	q->vacant_root = false;
}

/* a fires before b: earlier time, or the same time and a smaller id. */
static inline bool before(struct ik_eq_entry a, struct ik_eq_entry b)
{
	return a.expires < b.expires || (a.expires == b.expires && a.id < b.id);
}

static inline void place(struct ik_event_queue *q, int i, struct ik_eq_entry e)
{
	q->heap[i] = e;
	q->pos[e.id] = i;
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
		if (child >= q->size)
			break;
		if (child + 1 < q->size && before(q->heap[child + 1], q->heap[child]))
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
	if (q->size == 0)
		return;
	struct ik_eq_entry last = q->heap[q->size]; /* slots 1..size hold the entries */
	int i = 0;
	for (;;) {
		int child = 2 * i + 1;
		if (child >= q->size)
			break;
		if (child + 1 < q->size && before(q->heap[child + 1], q->heap[child]))
			child++;
		place(q, i, q->heap[child]);
		i = child;
	}
	place(q, i, last);
	sift_up(q, i);
}

void ik_eq_arm(struct ik_event_queue *q, int id, int64_t t)
{
	int i = q->pos[id];

	if (i < 0 && q->vacant_root) {
		q->vacant_root = false;
		q->size++;
		place(q, 0, (struct ik_eq_entry){ t, id });
		sift_down(q, 0);
		return;
	}
	if (q->vacant_root) {
		fill_vacant_root(q);
		i = q->pos[id];
	}
	if (i < 0) {
		i = q->size++;
		place(q, i, (struct ik_eq_entry){ t, id });
		sift_up(q, i);
		return;
	}
	int64_t old = q->heap[i].expires;
	q->heap[i].expires = t;
	if (t < old)
		sift_up(q, i);
	else if (t > old)
		sift_down(q, i);
}

void ik_eq_remove(struct ik_event_queue *q, int id)
{
	if (q->vacant_root)
		fill_vacant_root(q);
	int i = q->pos[id];

	q->pos[id] = -1;
	struct ik_eq_entry last = q->heap[--q->size];
	if (i == q->size)
		return;
	place(q, i, last);
	if (i > 0 && before(last, q->heap[(i - 1) / 2]))
		sift_up(q, i);
	else
		sift_down(q, i);
}

int ik_eq_pop(struct ik_event_queue *q, int64_t *t)
{
	if (q->vacant_root)
		fill_vacant_root(q);
	if (q->size == 0)
		return -1;
	int id = q->heap[0].id;
	*t = q->heap[0].expires;
	q->pos[id] = -1;
	q->size--;
	q->vacant_root = true;
	return id;
}

int ik_eq_pop_until(struct ik_event_queue *q, int64_t until, int64_t *t)
{
	if (q->vacant_root)
		fill_vacant_root(q);
	if (q->size == 0 || q->heap[0].expires > until)
		return -1;
	int id = q->heap[0].id;
	*t = q->heap[0].expires;
	q->pos[id] = -1;
	q->size--;
	q->vacant_root = true;
	return id;
}

int64_t ik_eq_peek_time(struct ik_event_queue *q)
{
	if (q->vacant_root)
		fill_vacant_root(q);
	return q->size ? q->heap[0].expires : INT64_MAX;
}
