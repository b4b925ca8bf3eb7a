/*
 * Fuzz target: govreplay input streams.  The input is the text of a stream; it must never
 * crash, hang or leak, under every governor, and the outcome must be consistent:
 *   - the in-memory reader and the FILE reader (1 MiB chunks) agree byte for byte on the
 *     decisions, the return code and the message;
 *   - a success writes exactly one 4-byte "S,T\n" line per idle period, S a valid index;
 *   - a failure is bad input with a one-line message naming the origin.
 * Each governor gets its own HZ, so tick_ns ranges differ between the four runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/govreplay.h"

/* POLL, C1 1/2 us, C2 18/36 us, C6 600/6000 us (deeper than a tick at HZ 1000). */
static void make_table(struct ik_driver *drv)
{
	static const struct {
		const char *name;
		uint32_t exit_us, residency_us;
	} states[] = { { "C1", 1, 2 }, { "C2", 18, 36 }, { "C6", 600, 6000 } };
	char err[128];

	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "fuzz");
	ik_poll_state_init(drv);
	drv->state_count = 1;
	for (size_t i = 0; i < 3; i++) {
		struct ik_state *s = &drv->states[drv->state_count++];
		snprintf(s->name, sizeof(s->name), "%s", states[i].name);
		s->exit_latency = states[i].exit_us;
		s->target_residency = states[i].residency_us;
	}
	if (ik_driver_init(drv, err, sizeof(err)))
		abort();
}

struct outcome {
	int rc;
	char err[512];
	char *out;
	size_t len;
	uint64_t lines;
};

static void run(const char *governor, int hz, const uint8_t *data, size_t size, bool use_file,
		struct outcome *o)
{
	struct ik_driver drv;
	struct ik_govreplay g;
	char err[512];

	make_table(&drv);
	if (ik__govreplay_init(&g, &drv, ik_governor_find(governor), hz, NULL, err, sizeof(err)))
		abort();
	/* Some inputs run with a state disabled (the poll limit and the choices change). */
	if (size % 5 == 0 && ik__govreplay_disable(&g, "C2") != 0)
		abort();
	o->out = NULL;
	o->len = 0;
	o->err[0] = '\0';
	FILE *out = open_memstream(&o->out, &o->len);
	if (!out)
		abort();
	if (use_file) {
		FILE *in = fmemopen((void *)data, size, "r");
		if (!in)
			abort();
		o->rc = ik__govreplay_stream(&g, in, "fuzz", out, o->err, sizeof(o->err));
		fclose(in);
	} else {
		o->rc = ik__govreplay_buffer(&g, (const char *)data, size, "fuzz", out, o->err,
					    sizeof(o->err));
	}
	fclose(out);
	o->lines = g.lines;
	ik__govreplay_free(&g);
}

static void check(const struct outcome *o, int nstates)
{
	if (o->rc == IK_GOVREPLAY_OK) {
		if (o->len != 4 * o->lines)
			abort();
	} else if (o->rc != IK_GOVREPLAY_EINPUT || strncmp(o->err, "fuzz", 4) != 0 ||
		   strchr(o->err, '\n')) {
		abort();
	}
	/* Whatever was written (before an error too) is whole decisions. */
	if (o->len % 4 != 0)
		abort();
	for (size_t i = 0; i < o->len; i += 4) {
		if (o->out[i] < '0' || o->out[i] >= '0' + nstates || o->out[i + 1] != ',' ||
		    (o->out[i + 2] != '0' && o->out[i + 2] != '1') || o->out[i + 3] != '\n')
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		const char *governor;
		int hz;
	} runs[] = { { "menu", 250 }, { "teo", 1000 }, { "ladder", 100 }, { "haltpoll", 300 } };

	for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		struct outcome mem, file;

		run(runs[k].governor, runs[k].hz, data, size, false, &mem);
		check(&mem, 4);
		/* fmemopen() of 0 bytes is not portable; the buffer reader covered that input. */
		if (size > 0) {
			run(runs[k].governor, runs[k].hz, data, size, true, &file);
			check(&file, 4);
			if (mem.rc != file.rc || mem.len != file.len ||
			    memcmp(mem.out, file.out, mem.len) != 0 || strcmp(mem.err, file.err) != 0)
				abort();
			free(file.out);
		}
		free(mem.out);
	}
	return 0;
}
