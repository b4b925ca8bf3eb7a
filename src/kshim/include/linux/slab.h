/*
 * idlekit kernel shim: <linux/slab.h>: the allocations are the C library's (kzalloc and
 * kcalloc zeroed; the gfp flags are not used).  Memory a governor keeps is freed with its
 * loaded copy only if it kfree()s it, as in the kernel.
 */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H
#include <linux/types.h>
#include <linux/compiler.h>
#define GFP_KERNEL 0x0cc0u
#define GFP_ATOMIC 0x0820u
#define GFP_NOWAIT 0x0800u
#define __GFP_ZERO 0x100u
#define __GFP_NOWARN 0x2000u
void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *krealloc(const void *p, size_t size, gfp_t flags);
void kfree(const void *p);
static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kmalloc(n * size, flags);
}
static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}
#define kzalloc_node(size, flags, node) kzalloc(size, flags)
#define kmalloc_node(size, flags, node) kmalloc(size, flags)
#define kvmalloc(size, flags) kmalloc(size, flags)
#define kvzalloc(size, flags) kzalloc(size, flags)
#define kvfree(p) kfree(p)
#define kfree_sensitive(p) kfree(p)
#endif
