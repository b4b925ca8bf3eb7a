/*
 * Fuzz target: learned-workload model files (src/config/learned_model.c), and learning
 * from a trace (src/trace/learn.c).  Input that starts with "idlekit-trace" is a trace: the
 * model learned from it is written and must read back, with its counts.  Anything else is
 * a model file.  It must never crash, hang or leak; a failure must be one line naming the
 * line of the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/format.h"
#include "trace/learn.h"

static void check_model(const struct ik_learned *m)
{
	for (int c = 0; c < m->cpus; c++)
		for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
			const struct ik_learned_samples *s = &m->cpu[c].idle[k];
			if (m->cpu[c].periods[k] > 0 && s->n < 1)
				__builtin_trap();
			for (int i = 1; i < s->n; i++)
				if (s->v[i] < s->v[i - 1])
					__builtin_trap();
		}
	for (int t = 0; t < m->ntasks; t++) {
		uint64_t runs = 0;
		for (int c = 0; c < m->cpus; c++)
			runs += m->task[t].cpu_runs[c];
		if (runs == 0)
			__builtin_trap();
		for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++)
			if (m->task[t].wakes[k] > 0 && m->task[t].sleep[k].n < 1)
				__builtin_trap();
	}
}

/* A trace: learn, write, read back. */
static void learn(const uint8_t *data, size_t size)
{
	struct ik_trace_reader *r;
	struct ik_learned m, back;
	char err[512];

	if (ik__trace_open_mem((const char *)data, size, "fuzz", false, &r, err, sizeof(err)) != 0)
		return;
	if (ik__learn_trace(r, "fuzz", &m, err, sizeof(err)) != 0) {
		ik__trace_close(r);
		return;
	}
	ik__trace_close(r);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		ik__learned_free(&m);
		return;
	}
	int w = ik__learned_write(f, &m);
	fclose(f);
	if (w != 0 || ik__learned_parse("fuzz", text, len, &back, err, sizeof(err)) != 0)
		__builtin_trap(); /* what learn writes, the reader must take */
	if (back.cpus != m.cpus || back.ntasks != m.ntasks)
		__builtin_trap();
	check_model(&back);
	ik__learned_free(&back);
	ik__learned_free(&m);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ik_learned m;
	char err[512];

	if (size >= 13 && memcmp(data, "idlekit-trace", 13) == 0) {
		learn(data, size);
		return 0;
	}
	if (ik__learned_parse("fuzz", (const char *)data, size, &m, err, sizeof(err)) == 0) {
		check_model(&m);
		ik__learned_free(&m);
	} else if (strncmp(err, "fuzz:", 5) != 0 || strchr(err, '\n')) {
		__builtin_trap();
	}
	return 0;
}
