/*
 * Fuzz target: `perf script` text import (ik__trace_import_perf, src/trace/import_perf.c).
 * The input is the text; the checks are the shared import harness's (import_harness.h).
 */
#include "import_harness.h"

static int import_perf_script(FILE *in, FILE *out, const struct ik_trace_import_opts *o,
			 struct ik_trace_import_stats *st, char *err, size_t errlen)
{
	return ik__trace_import_perf(in, "fuzz", out, o, st, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_import_input(data, size, import_perf_script);
}
