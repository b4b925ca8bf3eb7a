/*
 * A growing array's room: the one doubling (realloc, first elements when empty) that the
 * arrays filled one element at a time share.  No idea of what the elements are.
 */
#ifndef IDLEKIT_UTIL_GROW_H
#define IDLEKIT_UTIL_GROW_H

#include <stddef.h>

/*
 * Room for element n of the array v, which has room for *cap elements of size bytes: v
 * itself when n < *cap, else v reallocated to twice *cap (first when *cap is 0) with *cap
 * updated.  NULL when memory ran out (v and *cap unchanged, still the caller's).
 */
void *ik__grow(void *v, size_t *cap, size_t n, size_t size, size_t first);

#endif
