/*
 * The binary min-heap (util/heap.h).  Sifting moves a hole, not the element: the element
 * being placed waits in h->tmp (or the caller's copy) while the others move one level
 * each, so a sift costs one copy per level instead of a swap's three.
 */
#include <stdlib.h>
#include <string.h>

#include "util/freep.h"
#include "util/grow.h"
#include "util/heap.h"

static inline unsigned char *at(const struct ik_heap *h, size_t i)
{
	return h->v + i * h->size;
}

/*
 * One element copied.  memcpy of a size known only at run time is a call into the C
 * library; a key of an int (the merges' heaps) is worth copying inline, as a single move.
 */
static inline void move(const struct ik_heap *h, void *dst, const void *src)
{
	if (h->size == sizeof(int))
		memcpy(dst, src, sizeof(int));
	else
		memcpy(dst, src, h->size);
}

int ik__heap_init(struct ik_heap *h, size_t size, size_t cap, ik__heap_before_fn *before,
		 void *ctx)
{
	*h = (struct ik_heap){ .size = size ? size : 1, .before = before, .ctx = ctx };
	h->tmp = malloc(h->size);
	if (cap)
		h->v = malloc(cap * h->size);
	if (!h->tmp || (cap && !h->v)) {
		ik__heap_free(h);
		return -1;
	}
	h->cap = cap;
	return 0;
}

void ik__heap_free(struct ik_heap *h)
{
	ik__freep(&h->v);
	ik__freep(&h->tmp);
	h->n = h->cap = 0;
}

/* Put *x into the hole at i, moving the hole down past every child that comes before x. */
static void sift_down(struct ik_heap *h, size_t i, const void *x)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->before(at(h, c + 1), at(h, c), h->ctx))
			c++;
		if (!h->before(at(h, c), x, h->ctx))
			break;
		move(h, at(h, i), at(h, c));
		i = c;
	}
	move(h, at(h, i), x);
}

int ik__heap_push(struct ik_heap *h, const void *x)
{
	unsigned char *nv = ik__grow(h->v, &h->cap, h->n, h->size, 16);
	if (!nv)
		return -1;
	h->v = nv;
	size_t i = h->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!h->before(x, at(h, p), h->ctx))
			break;
		move(h, at(h, i), at(h, p));
		i = p;
	}
	move(h, at(h, i), x);
	return 0;
}

bool ik__heap_pop(struct ik_heap *h, void *out)
{
	if (h->n == 0)
		return false;
	if (out)
		move(h, out, h->v);
	if (--h->n > 0) {
		move(h, h->tmp, at(h, h->n)); /* the last element, into the root's hole */
		sift_down(h, 0, h->tmp);
	}
	return true;
}

void ik__heap_top_changed(struct ik_heap *h)
{
	if (h->n < 2)
		return;
	move(h, h->tmp, h->v);
	sift_down(h, 0, h->tmp);
}
