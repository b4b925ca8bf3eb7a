/*
 * Fuzz target: the reading of a kernel: governor file's source for the release whose API
 * it was written against (src/core/gov_release.c, ik__gov_api_recognise).  The input is the
 * file; it must never crash or read out of bounds, the bounds must be release codes or 0,
 * and the description must be one terminated line within its buffer, never empty.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/gov_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an exact-size copy, so that a read past the end is seen by the sanitizer */
	char *src = malloc(size ? size : 1);
	struct ik_gov_api api;
	char buf[512];

	if (!src)
		return 0;
	memcpy(src, data, size);
	ik__gov_api_recognise(src, size, &api);
	if (api.lo < 0 || api.hi < 0 || (api.lo & 0xff) || (api.hi & 0xff) || api.markers < 0 ||
	    strlen(api.blob) != 40 || memchr(api.uses, '\0', sizeof(api.uses)) == NULL)
		abort();
	memset(buf, 'x', sizeof(buf));
	ik__gov_api_describe(&api, buf, sizeof(buf));
	size_t n = strnlen(buf, sizeof(buf));
	if (n == 0 || n == sizeof(buf) || memchr(buf, '\n', n))
		abort();
	(void)ik__gov_api_fits(&api, (6 << 16) + (19 << 8));
	free(src);
	return 0;
}
