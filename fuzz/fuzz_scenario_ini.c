/*
 * Fuzz target: scenario files and --set overrides.  The input is a scenario file's text,
 * optionally followed by a line "%%" and then one override per line (at most 16).  It must
 * never crash, hang or leak; a failure must be a one-line message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/scenario.h"

#define MAX_OVERRIDES 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct ik_scenario *sc = malloc(sizeof(*sc));
	const char *overrides[MAX_OVERRIDES];
	int n = 0;
	char err[IK_ERR_LEN];

	if (!text || !sc) {
		free(text);
		free(sc);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';

	char *sep = strstr(text, "\n%%\n");
	if (sep) {
		*sep = '\0';
		char *line = sep + 4;
		while (*line && n < MAX_OVERRIDES) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = '\0';
			overrides[n++] = line;
			if (!nl)
				break;
			line = nl + 1;
		}
	}

	if (ik__scenario_parse_string("fuzz.ini", text, overrides, n, sc, err, sizeof(err)) == 0) {
		const struct ik_platform *p = &sc->platform;
		if (p->state_count < 1 || p->state_count > IK_STATE_MAX || sc->ndisabled < 0 ||
		    sc->ndisabled > IK_MAX_DISABLED || sc->runs < 1 || sc->duration_ns <= 0)
			abort();
		for (int i = 0; i < sc->ndisabled; i++) {
			int found = 0;
			for (int s = 0; s < p->state_count; s++)
				found |= strcmp(p->states[s].name, sc->disabled[i]) == 0;
			if (!found)
				abort();
		}
	} else if (err[0] == '\0' || strchr(err, '\n')) {
		abort();
	}
	free(text);
	free(sc);
	return 0;
}
