/*
 * Fuzz target: rt-app JSON workload files (src/config/rtapp_json.c).  It must never crash,
 * hang or leak; a failure must be one message naming the JSON path.
 */
#include <stdint.h>
#include <string.h>

#include "config/rtapp_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ik_rtapp prog;
	char err[512];

	if (ik__rtapp_parse("fuzz.json", (const char *)data, size, &prog, err, sizeof(err)) == 0) {
		/* what the simulator relies on */
		for (int t = 0; t < prog.ntasks; t++)
			if (prog.tasks[t].nphases < 1 || prog.tasks[t].first_phase + prog.tasks[t].nphases >
								  prog.nphases)
				__builtin_trap();
		for (int p = 0; p < prog.nphases; p++)
			if (prog.phases[p].nevents < 1 || prog.phases[p].loop < 1)
				__builtin_trap();
		ik__rtapp_free(&prog);
	} else if (!memchr(err, '\0', sizeof(err)) || strchr(err, '\n')) {
		__builtin_trap();
	}
	return 0;
}
