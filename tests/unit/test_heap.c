/*
 * The min-heap (src/util/heap.c): elements out in order whatever order they went in, with
 * pushes and pops interleaved, growing past the room given, elements of an odd size, a
 * comparison through its context (keys standing for other data) and a changed top put back
 * in place.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/heap.h"

/* 12 bytes: not a power of two, so every move copies the whole element. */
struct elem {
	int32_t key, seq, pad;
};

static bool elem_before(const void *a, const void *b, void *ctx)
{
	const struct elem *x = a, *y = b;
	(void)ctx;
	return x->key != y->key ? x->key < y->key : x->seq < y->seq;
}

static int cmp_elem(const void *a, const void *b)
{
	return elem_before(a, b, NULL) ? -1 : elem_before(b, a, NULL) ? 1 : 0;
}

/* A small deterministic generator: the test's sequence is the same on every run. */
static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void sorted_out(void **state)
{
	(void)state;
	enum { N = 1000 };
	struct ik_heap h;
	struct elem in[N], out;
	uint32_t seed = 7;

	assert_int_equal(ik__heap_init(&h, sizeof(struct elem), 0, elem_before, NULL), 0);
	assert_null(ik__heap_top(&h));
	assert_false(ik__heap_pop(&h, &out));
	for (int i = 0; i < N; i++) {
		in[i] = (struct elem){ (int32_t)(next_rand(&seed) % 50), i, 0 }; /* many ties */
		assert_int_equal(ik__heap_push(&h, &in[i]), 0);
	}
	assert_int_equal(ik__heap_count(&h), N);
	assert_true(h.cap >= N); /* grown from no room at all */
	qsort(in, N, sizeof(in[0]), cmp_elem);
	for (int i = 0; i < N; i++) {
		const struct elem *top = ik__heap_top(&h);
		assert_non_null(top);
		assert_int_equal(top->key, in[i].key);
		assert_true(ik__heap_pop(&h, &out));
		assert_int_equal(out.key, in[i].key);
		assert_int_equal(out.seq, in[i].seq);
	}
	assert_int_equal(ik__heap_count(&h), 0);
	assert_false(ik__heap_pop(&h, NULL));
	ik__heap_free(&h);
	ik__heap_free(&h); /* twice is harmless */
}

/* Pushes and pops mixed: what comes out is always the least of what is held. */
static void interleaved(void **state)
{
	(void)state;
	enum { N = 4000 };
	struct ik_heap h;
	static struct elem held[N];
	int nheld = 0, seq = 0;
	uint32_t seed = 99;

	assert_int_equal(ik__heap_init(&h, sizeof(struct elem), 8, elem_before, NULL), 0);
	for (int step = 0; step < N; step++) {
		if (nheld == 0 || next_rand(&seed) % 3 != 0) {
			struct elem e = { (int32_t)(next_rand(&seed) % 1000), seq++, 0 };
			assert_int_equal(ik__heap_push(&h, &e), 0);
			held[nheld++] = e;
			continue;
		}
		int least = 0;
		for (int i = 1; i < nheld; i++)
			if (elem_before(&held[i], &held[least], NULL))
				least = i;
		struct elem out;
		assert_true(ik__heap_pop(&h, &out));
		assert_int_equal(out.key, held[least].key);
		assert_int_equal(out.seq, held[least].seq);
		held[least] = held[--nheld];
		assert_int_equal(ik__heap_count(&h), (size_t)nheld);
	}
	ik__heap_free(&h);
}

/* Keys standing for streams, ordered by each stream's next value (the spill's use). */
struct streams {
	int next[5][4]; /* each stream ascending, INT32_MAX: done */
	int at[5];
};

static bool stream_before(const void *a, const void *b, void *ctx)
{
	const struct streams *s = ctx;
	int x = *(const int *)a, y = *(const int *)b;
	int vx = s->next[x][s->at[x]], vy = s->next[y][s->at[y]];
	return vx != vy ? vx < vy : x < y;
}

static void merge_by_context(void **state)
{
	(void)state;
	struct streams s = {
		.next = { { 1, 4, 9, INT32_MAX }, { 2, 3, 10, INT32_MAX }, { 5, INT32_MAX },
			  { 0, 6, 7, 8 }, { INT32_MAX } },
	};
	struct ik_heap h;
	assert_int_equal(ik__heap_init(&h, sizeof(int), 5, stream_before, &s), 0);
	for (int k = 0; k < 5; k++)
		if (s.next[k][0] != INT32_MAX)
			assert_int_equal(ik__heap_push(&h, &k), 0);
	int got[16], n = 0;
	const int *top;
	while ((top = ik__heap_top(&h))) {
		int k = *top;
		got[n++] = s.next[k][s.at[k]++];
		if (s.at[k] < 4 && s.next[k][s.at[k]] != INT32_MAX)
			ik__heap_top_changed(&h); /* its next value is later */
		else
			ik__heap_pop(&h, NULL);
	}
	assert_int_equal(n, 11);
	for (int i = 0; i < n; i++)
		assert_int_equal(got[i], i);
	ik__heap_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sorted_out),
		cmocka_unit_test(interleaved),
		cmocka_unit_test(merge_by_context),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
