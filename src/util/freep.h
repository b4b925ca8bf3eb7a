/*
 * A pointer freed and cleared in one step (as GLib's g_clear_pointer), for the free
 * functions that leave a struct reusable: what pp points at is passed to free() and set
 * to NULL.  pp is the address of any object pointer.
 */
#ifndef IDLEKIT_UTIL_FREEP_H
#define IDLEKIT_UTIL_FREEP_H

#include <stdlib.h>

static inline void ik__freep(void *pp)
{
	void **p = (void **)pp;
	free(*p);
	*p = NULL;
}

#endif
