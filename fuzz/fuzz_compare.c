/*
 * Fuzz target: compare's reader of result documents (sim, replay /1 and /2, analyze JSON).
 * The input is one document; the first 8 bytes, when they are "@N\n" or "@NAME\n", pick a
 * run.  It must never crash, hang or leak; then the text, JSON and CSV reports of what was
 * read (the document against itself) must be written without failing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[32] = "fuzz.json";
	struct ik_compare_set *sets[8];
	char err[512];
	int n = 0;

	if (size > 1 && data[0] == '@') {
		const uint8_t *nl = memchr(data, '\n', size < 16 ? size : 16);
		if (nl) {
			snprintf(spec, sizeof(spec), "fuzz.json%.*s", (int)(nl - data), (const char *)data);
			size -= (size_t)(nl - data) + 1;
			data = nl + 1;
		}
	}
	if (ik__compare_load_text(spec, (const char *)data, size, sets, 4, &n, err, sizeof(err)) != 0)
		return strchr(err, '\n') ? (abort(), 0) : 0;
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		struct ik_compare_set *both[8];
		int m = 0;
		for (int i = 0; i < n; i++)
			both[m++] = sets[i];
		for (int i = 0; i < n; i++)
			both[m++] = sets[i];
		if (ik__compare_report(null, both, m) || ik__compare_report_json(null, both, m) ||
		    ik__compare_report_csv(null, both, m))
			abort();
		fclose(null);
	}
	for (int i = 0; i < n; i++)
		ik__compare_free(sets[i]);
	return 0;
}
