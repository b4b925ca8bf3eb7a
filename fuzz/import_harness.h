/*
 * The harness the three text-import fuzz targets share (fuzz_perf_script, fuzz_ftrace_text,
 * fuzz_trace_cmd_report): each gives its importer, and an input must never crash, hang or
 * leak, and:
 *   - on bad input nothing is written and the message names the origin;
 *   - whatever the import accepts is a valid idlekit trace: it reads back strictly with as
 *     many events as the import wrote, and analyze accepts it;
 *   - lenient import fails only when no power:cpu_idle event is left (or, with clock_mono,
 *     on the clock check, which is about the whole input, not a line);
 *   - with a 2-state table, the import accepts no more than with the generic one, nor with
 *     clock_mono (hrtimers imported, the clock checked) more than without.
 */
#ifndef IDLEKIT_FUZZ_IMPORT_HARNESS_H
#define IDLEKIT_FUZZ_IMPORT_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analyze.h"
#include "trace/import.h"

/* One import of `in` into `out` (origin "fuzz"). */
typedef int (*fuzz_import_fn)(FILE *in, FILE *out, const struct ik_trace_import_opts *o,
			      struct ik_trace_import_stats *st, char *err, size_t errlen);

static int import(const uint8_t *data, size_t size, fuzz_import_fn run,
		  const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st)
{
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *in = fmemopen((void *)data, size ? size : 1, "r");
	FILE *out = open_memstream(&buf, &len);
	if (!in || !out)
		abort();
	if (!size)
		fgetc(in); /* fmemopen rejects size 0: read the byte away, then EOF */
	int rc = run(in, out, o, st, err, sizeof(err));
	fclose(in);
	fclose(out);
	if (rc == IK_TRACE_EINPUT) {
		if (len != 0 || strncmp(err, "fuzz", 4) != 0)
			abort();
		if (o->lenient && !strstr(err, "expected power:cpu_idle events") &&
		    !(o->clock_mono && strstr(err, "expected perf's clock to be CLOCK_MONOTONIC")))
			abort();
	} else if (rc == IK_TRACE_OK) {
		struct ik_trace_reader *r;
		struct ik_trace_event ev;
		uint64_t n = 0;
		if (ik__trace_open_mem(buf, len, "fuzz2", false, &r, err, sizeof(err)))
			abort();
		while ((rc = ik__trace_next(r, &ev, err, sizeof(err))) == IK_TRACE_OK)
			n++;
		if (rc != IK_TRACE_EOF || n != st->written)
			abort();
		ik__trace_close(r);
		struct ik_trace_analysis a;
		if (ik__trace_open_mem(buf, len, "fuzz2", false, &r, err, sizeof(err)) ||
		    ik__trace_analyze(r, &a, err, sizeof(err)))
			abort();
		ik__trace_analysis_free(&a);
		ik__trace_close(r);
		rc = IK_TRACE_OK;
	} else {
		abort(); /* no I/O can fail on memory streams */
	}
	free(buf);
	return rc;
}

/* The checks above for one input, through the importer `run`. */
static int fuzz_import_input(const uint8_t *data, size_t size, fuzz_import_fn run)
{
	struct ik_trace_import_stats st;
	if (size > (1u << 20))
		return 0;
	struct ik_trace_import_opts o = { 0 };
	int generic = import(data, size, run, &o, &st);
	o.lenient = true;
	import(data, size, run, &o, &st);
	/* --clock mono only adds the clock check (and writes the timers). */
	o.clock_mono = true;
	o.lenient = false;
	if (import(data, size, run, &o, &st) == IK_TRACE_OK && generic != IK_TRACE_OK)
		abort();
	o.lenient = true;
	import(data, size, run, &o, &st);
	o.clock_mono = false;

	struct ik_driver d;
	char err[128];
	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "two");
	d.state_count = 2;
	snprintf(d.states[0].name, sizeof(d.states[0].name), "POLL");
	d.states[0].flags = 0x1;
	snprintf(d.states[1].name, sizeof(d.states[1].name), "C1 deep");
	d.states[1].exit_latency = 2;
	d.states[1].target_residency = 4;
	if (ik_driver_init(&d, err, sizeof(err)))
		abort();
	o.drv = &d;
	o.lenient = false;
	if (import(data, size, run, &o, &st) == IK_TRACE_OK && generic != IK_TRACE_OK)
		abort();
	o.lenient = true;
	import(data, size, run, &o, &st);
	return 0;
}

#endif
