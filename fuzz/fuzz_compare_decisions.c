/*
 * Fuzz target: compare's reader of govreplay results (src/report/compare_decisions.c).  The
 * input is two documents separated by a line "---"; it must never crash, hang or leak, a
 * refusal has one line of message and, when the two are read, the report says how many
 * decisions differ.  The corpus holds govreplay --json results of tests/govreplay inputs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *sep = NULL;
	char err[512] = "";
	if (size > (1u << 20))
		return 0;
	for (size_t i = 0; i + 5 <= size; i++)
		if (memcmp(text + i, "\n---\n", 5) == 0) {
			sep = text + i;
			break;
		}
	const char *paths[2] = { "a.json", "b.json" };
	const char *texts[2] = { text, sep ? sep + 5 : text };
	size_t lens[2] = { sep ? (size_t)(sep - text) : size,
			   sep ? size - (size_t)(sep + 5 - text) : size };
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);
	if (!f)
		abort();
	int rc = ik__compare_decisions_text(f, paths, texts, lens, 2, err, sizeof(err));
	fclose(f);
	if (rc != 0 && (!err[0] || strchr(err, '\n')))
		abort();
	if (rc == 0 && !strstr(out, "decisions differ"))
		abort();
	free(out);
	return 0;
}
