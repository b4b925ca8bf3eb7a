/*
 * The text importers' per-CPU spill.  A text trace is the merge of per-CPU buffers, each in
 * time order, but the merge may lag: trace_pipe read per CPU, perf's rounds, a CPU whose
 * buffer was flushed late.  Records let out of the reorder window (import_window.c) go to
 * the spill, one stream per CPU that traced them; each stream stays in time order however
 * far apart the CPUs are, and at the end a k-way merge of the streams gives every record
 * in time order (ties in the order read), as a sort of the whole input would.  One
 * temporary file: each stream is a chain of chunks of SPILL_CHUNK records (no descriptor
 * per CPU), its last chunk in memory.  `idlekit record` spools to it too
 * (src/trace/record_spool.c).
 *
 * Memory: a chunk's buffer per CPU seen (two while merging) and 8 bytes per chunk written.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/import_internal.h"
#include "util/grow.h"

#define SPILL_CHUNK 128

struct spill_cpu {
	struct ik_trace_import_rec *buf; /* the chunk being filled: n records */
	size_t n;
	long *chunk;                     /* file offsets of the chunks written */
	size_t nchunks, cap;
	int64_t last_ns;                 /* the latest record added */
	bool any;
	/* merging: the chunk being read (rd, rn records, at ri) */
	struct ik_trace_import_rec *rd;
	size_t rn, ri, next_chunk;
	bool in_buf; /* reading buf (the last chunk) */
};

int ik__import_spill_init(struct ik_import_spill *s)
{
	*s = (struct ik_import_spill){ 0 };
	s->cpu = calloc(IK_TRACE_MAX_CPUS, sizeof(*s->cpu));
	return s->cpu ? 0 : -1;
}

void ik__import_spill_free(struct ik_import_spill *s)
{
	for (int c = 0; s->cpu && c < IK_TRACE_MAX_CPUS; c++) {
		free(s->cpu[c].buf);
		free(s->cpu[c].chunk);
		free(s->cpu[c].rd);
	}
	free(s->cpu);
	ik__heap_free(&s->heap);
	if (s->f)
		fclose(s->f);
	*s = (struct ik_import_spill){ 0 };
}

bool ik__import_spill_late(const struct ik_import_spill *s, int key, int64_t t_ns,
			  int64_t *last_ns)
{
	const struct spill_cpu *c = &s->cpu[key];
	if (!c->any || t_ns >= c->last_ns)
		return false;
	*last_ns = c->last_ns;
	return true;
}

int ik__import_spill_add(struct ik_import_spill *s, int key, const struct ik_trace_import_rec *r)
{
	struct spill_cpu *c = &s->cpu[key];
	if (!c->buf && !(c->buf = malloc(SPILL_CHUNK * sizeof(*c->buf))))
		return -1;
	if (c->n == SPILL_CHUNK) {
		if (!s->f && !(s->f = tmpfile()))
			return -1;
		long *nv = ik__grow(c->chunk, &c->cap, c->nchunks, sizeof(*nv), 16);
		if (!nv)
			return -1;
		c->chunk = nv;
		/* the file is only appended to until the merge: s->end is where this goes */
		if (fwrite(c->buf, sizeof(*c->buf), SPILL_CHUNK, s->f) != SPILL_CHUNK)
			return -1;
		c->chunk[c->nchunks++] = s->end;
		s->end += (long)(SPILL_CHUNK * sizeof(*c->buf));
		c->n = 0;
	}
	c->buf[c->n++] = *r;
	c->last_ns = r->t_ns;
	c->any = true;
	s->records++;
	return 0;
}

/* Keys by their next record: time, then input order (seq is unique: a total order). */
static bool before(const void *a, const void *b, void *ctx)
{
	const struct ik_import_spill *s = ctx;
	const struct spill_cpu *ca = &s->cpu[*(const int *)a], *cb = &s->cpu[*(const int *)b];
	const struct ik_trace_import_rec *x = &ca->rd[ca->ri], *y = &cb->rd[cb->ri];
	return x->t_ns != y->t_ns ? x->t_ns < y->t_ns : x->seq < y->seq;
}

/* The next chunk of CPU c into rd: false when its stream is done (or a read failed). */
static bool load(struct ik_import_spill *s, struct spill_cpu *c)
{
	if (c->in_buf)
		return false;
	c->ri = 0;
	if (c->next_chunk == c->nchunks) { /* the last one, in memory */
		c->in_buf = true;
		memcpy(c->rd, c->buf, c->n * sizeof(*c->buf));
		c->rn = c->n;
		return c->rn > 0;
	}
	if (fseek(s->f, c->chunk[c->next_chunk++], SEEK_SET) ||
	    fread(c->rd, sizeof(*c->rd), SPILL_CHUNK, s->f) != SPILL_CHUNK) {
		s->read_failed = true;
		return false;
	}
	c->rn = SPILL_CHUNK;
	return true;
}

int ik__import_spill_merge(struct ik_import_spill *s)
{
	if (ik__heap_init(&s->heap, sizeof(int), IK_TRACE_MAX_CPUS, before, s))
		return -1;
	if (s->f && fflush(s->f))
		return -1;
	for (int k = 0; k < IK_TRACE_MAX_CPUS; k++) {
		struct spill_cpu *c = &s->cpu[k];
		if (!c->any)
			continue;
		if (!(c->rd = malloc(SPILL_CHUNK * sizeof(*c->rd))))
			return -1;
		if (load(s, c))
			(void)ik__heap_push(&s->heap, &k); /* cannot fail: room for every key */
		else if (s->read_failed)
			return -1;
	}
	return 0;
}

int ik__import_spill_next(struct ik_import_spill *s, struct ik_trace_import_rec *out)
{
	const int *top = ik__heap_top(&s->heap);
	if (!top)
		return 0;
	struct spill_cpu *c = &s->cpu[*top];
	*out = c->rd[c->ri++];
	if (c->ri < c->rn || load(s, c)) {
		ik__heap_top_changed(&s->heap); /* its next record is later: it may go down */
		return 1;
	}
	if (s->read_failed)
		return -1;
	ik__heap_pop(&s->heap, NULL); /* its stream is done */
	return 1;
}
