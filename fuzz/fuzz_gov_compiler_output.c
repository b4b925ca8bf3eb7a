/*
 * Fuzz target: the reading of a C compiler's output when a kernel-source governor does not
 * build (src/core/gov_kernel.c, ik__gov_compile_message).  The input is what the compiler
 * printed; it must never crash or read out of bounds, and the message must be one line,
 * terminated, within the buffer, and never empty.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/gov_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = malloc(size + 1);
	char err[512];

	if (!out)
		return 0;
	memcpy(out, data, size);
	out[size] = '\0';
	memset(err, 'x', sizeof(err));
	ik__gov_compile_message("gov.c", out, 1, err, sizeof(err));
	size_t n = strnlen(err, sizeof(err));
	if (n == 0 || n == sizeof(err) || memchr(err, '\n', n))
		abort();
	free(out);
	return 0;
}
