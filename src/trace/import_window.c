/*
 * The reorder window of the text importers: a binary min-heap on (time, input order), so
 * records come out in time order and, on equal times, in the order they were read (the
 * stable sort the importer used to do over the whole input, in bounded memory).
 */
#include <stdlib.h>

#include "trace/import_internal.h"

static bool before(const struct ik_trace_import_rec *a, const struct ik_trace_import_rec *b)
{
	return a->t_ns != b->t_ns ? a->t_ns < b->t_ns : a->seq < b->seq;
}

int ik_import_window_init(struct ik_import_window *w, size_t cap)
{
	*w = (struct ik_import_window){ .cap = cap ? cap : 1 };
	w->v = malloc(w->cap * sizeof(*w->v));
	return w->v ? 0 : -1;
}

void ik_import_window_free(struct ik_import_window *w)
{
	free(w->v);
	w->v = NULL;
	w->n = 0;
}

static void sift_down(struct ik_import_window *w, size_t i)
{
	struct ik_trace_import_rec x = w->v[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= w->n)
			break;
		if (c + 1 < w->n && before(&w->v[c + 1], &w->v[c]))
			c++;
		if (!before(&w->v[c], &x))
			break;
		w->v[i] = w->v[c];
		i = c;
	}
	w->v[i] = x;
}

bool ik_import_window_pop(struct ik_import_window *w, struct ik_trace_import_rec *out)
{
	if (w->n == 0)
		return false;
	*out = w->v[0];
	w->v[0] = w->v[--w->n];
	if (w->n)
		sift_down(w, 0);
	w->last_out_ns = out->t_ns;
	w->any_out = true;
	return true;
}

int ik_import_window_push(struct ik_import_window *w, const struct ik_trace_import_rec *r,
			  struct ik_trace_import_rec *out)
{
	if (w->any_out && r->t_ns < w->last_out_ns)
		return -1;
	struct ik_trace_import_rec x = *r;
	x.seq = w->seq++;
	int popped = 0;
	if (w->n == w->cap) {
		/* let the earliest out, the new one included */
		if (before(&x, &w->v[0])) {
			*out = x;
			w->last_out_ns = x.t_ns;
			w->any_out = true;
			return 1;
		}
		*out = w->v[0];
		w->last_out_ns = out->t_ns;
		w->any_out = true;
		w->v[0] = x;
		sift_down(w, 0);
		return 1;
	}
	size_t i = w->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(&x, &w->v[p]))
			break;
		w->v[i] = w->v[p];
		i = p;
	}
	w->v[i] = x;
	return popped;
}
