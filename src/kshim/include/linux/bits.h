/* idlekit kernel shim: <linux/bits.h>. */
#ifndef __LINUX_BITS_H
#define __LINUX_BITS_H
#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define BITS_PER_LONG 64
#define GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#endif
