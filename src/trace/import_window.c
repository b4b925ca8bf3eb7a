/*
 * The reorder window of the text importers.  Records come out in time order and, on equal
 * times, in the order they were read (the stable sort the importer used to do over the
 * whole input, in bounded memory).  Text traces are nearly sorted (perf and ftrace merge
 * their per-CPU buffers), so the window is two parts: a run of records that arrived in
 * order (a ring: O(1) in and out) and a min-heap of the stragglers that arrived before the
 * run's last one; the next record out is the earlier of the run's first and the heap's top.
 */
#include <stdlib.h>

#include "trace/import_internal.h"

static bool before(const struct ik_trace_import_rec *a, const struct ik_trace_import_rec *b)
{
	return a->t_ns != b->t_ns ? a->t_ns < b->t_ns : a->seq < b->seq;
}

int ik_import_window_init(struct ik_import_window *w, size_t cap)
{
	size_t c = 1;
	while (c < cap) /* a power of two: ring positions by mask */
		c *= 2;
	*w = (struct ik_import_window){ .cap = c };
	w->v = malloc(w->cap * sizeof(*w->v));
	w->heap = malloc(w->cap * sizeof(*w->heap));
	if (!w->v || !w->heap) {
		ik_import_window_free(w);
		return -1;
	}
	return 0;
}

void ik_import_window_free(struct ik_import_window *w)
{
	free(w->v);
	free(w->heap);
	w->v = w->heap = NULL;
	w->n = w->head = w->nheap = 0;
}

static void heap_push(struct ik_import_window *w, const struct ik_trace_import_rec *x)
{
	size_t i = w->nheap++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(x, &w->heap[p]))
			break;
		w->heap[i] = w->heap[p];
		i = p;
	}
	w->heap[i] = *x;
}

static void heap_pop(struct ik_import_window *w)
{
	struct ik_trace_import_rec x = w->heap[--w->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= w->nheap)
			break;
		if (c + 1 < w->nheap && before(&w->heap[c + 1], &w->heap[c]))
			c++;
		if (!before(&w->heap[c], &x))
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->nheap)
		w->heap[i] = x;
}

bool ik_import_window_pop(struct ik_import_window *w, struct ik_trace_import_rec *out)
{
	bool from_run = w->n > 0 && (w->nheap == 0 || before(&w->v[w->head], &w->heap[0]));
	if (from_run) {
		*out = w->v[w->head];
		w->head = (w->head + 1) & (w->cap - 1);
		w->n--;
	} else if (w->nheap > 0) {
		*out = w->heap[0];
		heap_pop(w);
	} else {
		return false;
	}
	w->last_out_ns = out->t_ns;
	w->any_out = true;
	return true;
}

int ik_import_window_push(struct ik_import_window *w, const struct ik_trace_import_rec *r,
			  struct ik_trace_import_rec *out)
{
	if (!w->any_order && w->any_out && r->t_ns < w->last_out_ns)
		return -1;
	struct ik_trace_import_rec x = *r;
	x.seq = w->seq++;
	int popped = 0;
	if (w->n + w->nheap == w->cap) {
		/* full: let the earliest out, the new one included */
		const struct ik_trace_import_rec *first =
			w->n && (!w->nheap || before(&w->v[w->head], &w->heap[0])) ? &w->v[w->head] : &w->heap[0];
		if (before(&x, first)) {
			*out = x;
			w->last_out_ns = x.t_ns;
			w->any_out = true;
			return 1;
		}
		popped = ik_import_window_pop(w, out) ? 1 : 0;
	}
	const struct ik_trace_import_rec *tail =
		w->n ? &w->v[(w->head + w->n - 1) & (w->cap - 1)] : NULL;
	if (!tail || !before(&x, tail)) {
		w->v[(w->head + w->n) & (w->cap - 1)] = x;
		w->n++;
	} else {
		heap_push(w, &x);
	}
	return popped;
}
