/*
 * Fuzz target: CPU lists ("0-3,8,10-11").  Parsing must never crash or hang; a list that
 * parses must print (ik__cpuset_format) as a list that parses to the same set.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct ik_cpuset *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	char err[IK_HOST_ERR_LEN];

	if (!text || !a || !b)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	int limit = size ? (data[0] % 2 ? IK_HOST_CPU_MAX : 64) : IK_HOST_CPU_MAX;
	if (ik__cpulist_parse(text, limit, true, a, err, sizeof(err)) == 0) {
		size_t need = ik__cpuset_format(a, NULL, 0);
		char *list = malloc(need + 1);
		if (!list)
			goto out;
		if (ik__cpuset_format(a, list, need + 1) != need || strlen(list) != need)
			abort();
		if (ik__cpulist_parse(list, limit, true, b, err, sizeof(err)) != 0 ||
		    !ik__cpuset_equal(a, b))
			abort();
		for (int cpu = ik__cpuset_next(a, -1); cpu >= 0; cpu = ik__cpuset_next(a, cpu))
			if (cpu >= limit)
				abort();
		free(list);
	} else if (!err[0] || strchr(err, '\n')) {
		abort();
	}
out:
	free(text);
	free(a);
	free(b);
	return 0;
}
