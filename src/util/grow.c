/* A growing array's room (util/grow.h). */
#include <stdint.h>
#include <stdlib.h>

#include "util/grow.h"

void *ik__grow(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
	if (n < *cap)
		return v;
	size_t c = *cap ? 2 * *cap : first;
	if (size && c > SIZE_MAX / size)
		return NULL;
	void *nv = realloc(v, c * size);
	if (!nv)
		return NULL;
	*cap = c;
	return nv;
}
