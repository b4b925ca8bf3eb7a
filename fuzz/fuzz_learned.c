/*
 * Fuzz target: learned-workload model files (src/config/learned_model.c).  It must never
 * crash, hang or leak; a failure must be one line naming the line of the input.
 */
#include <stdint.h>
#include <string.h>

#include "idlekit/learned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ik_learned m;
	char err[512];

	if (ik_learned_parse("fuzz", (const char *)data, size, &m, err, sizeof(err)) == 0) {
		for (int c = 0; c < m.cpus; c++)
			for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
				const struct ik_learned_samples *s = &m.cpu[c].idle[k];
				if (m.cpu[c].periods[k] > 0 && s->n < 1)
					__builtin_trap();
				for (int i = 1; i < s->n; i++)
					if (s->v[i] < s->v[i - 1])
						__builtin_trap();
			}
		ik_learned_free(&m);
	} else if (strncmp(err, "fuzz:", 5) != 0 || strchr(err, '\n')) {
		__builtin_trap();
	}
	return 0;
}
