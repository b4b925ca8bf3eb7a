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

static bool heap_before(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return before(a, b);
}

int ik__import_window_init(struct ik_import_window *w, size_t cap)
{
	size_t c = 1;
	while (c < cap) /* a power of two: ring positions by mask */
		c *= 2;
	*w = (struct ik_import_window){ .cap = c };
	w->v = malloc(w->cap * sizeof(*w->v));
	/* room for the whole window: a push never needs memory (n + heap count <= cap) */
	int heap_rc = ik__heap_init(&w->heap, sizeof(*w->v), w->cap, heap_before, NULL);
	if (!w->v || heap_rc) {
		ik__import_window_free(w);
		return -1;
	}
	return 0;
}

void ik__import_window_free(struct ik_import_window *w)
{
	free(w->v);
	ik__heap_free(&w->heap);
	w->v = NULL;
	w->n = w->head = 0;
}

/* The first record held, or NULL: the earlier of the run's first and the heap's top. */
static const struct ik_trace_import_rec *first(const struct ik_import_window *w)
{
	const struct ik_trace_import_rec *top = ik__heap_top(&w->heap);
	if (w->n && (!top || before(&w->v[w->head], top)))
		return &w->v[w->head];
	return top;
}

bool ik__import_window_pop(struct ik_import_window *w, struct ik_trace_import_rec *out)
{
	const struct ik_trace_import_rec *f = first(w);
	if (!f)
		return false;
	if (f == &w->v[w->head]) {
		*out = *f;
		w->head = (w->head + 1) & (w->cap - 1);
		w->n--;
	} else {
		ik__heap_pop(&w->heap, out);
	}
	w->last_out_ns = out->t_ns;
	w->any_out = true;
	return true;
}

int ik__import_window_push(struct ik_import_window *w, const struct ik_trace_import_rec *r,
			  struct ik_trace_import_rec *out)
{
	if (!w->any_order && w->any_out && r->t_ns < w->last_out_ns)
		return -1;
	struct ik_trace_import_rec x = *r;
	x.seq = w->seq++;
	int popped = 0;
	if (w->n + ik__heap_count(&w->heap) == w->cap) {
		/* full: let the earliest out, the new one included */
		if (before(&x, first(w))) {
			*out = x;
			w->last_out_ns = x.t_ns;
			w->any_out = true;
			return 1;
		}
		popped = ik__import_window_pop(w, out) ? 1 : 0;
	}
	const struct ik_trace_import_rec *tail =
		w->n ? &w->v[(w->head + w->n - 1) & (w->cap - 1)] : NULL;
	if (!tail || !before(&x, tail)) {
		w->v[(w->head + w->n) & (w->cap - 1)] = x;
		w->n++;
	} else {
		(void)ik__heap_push(&w->heap, &x); /* cannot fail: the heap has room for cap */
	}
	return popped;
}
