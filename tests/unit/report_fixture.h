/*
 * A report of runs into memory, for tests that read what a report writer printed.  Include
 * after cmocka.h (it asserts).
 */
#ifndef IDLEKIT_TEST_REPORT_FIXTURE_H
#define IDLEKIT_TEST_REPORT_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "config/result.h"

typedef int (*report_fn)(FILE *, const struct ik_scenario *, const struct ik_run_result *, int);

/* The NUL-terminated text fn wrote (the caller frees it); its length in *lenp if not NULL. */
static inline char *report_to_string_len(report_fn fn, const struct ik_scenario *sc,
					 const struct ik_run_result *runs, int nruns, size_t *lenp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(fn(f, sc, runs, nruns), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(text);
	assert_int_equal(strlen(text), len); /* no NUL inside */
	if (lenp)
		*lenp = len;
	return text;
}

static inline char *report_to_string(report_fn fn, const struct ik_scenario *sc,
				     const struct ik_run_result *runs, int nruns)
{
	return report_to_string_len(fn, sc, runs, nruns, NULL);
}

#endif
