/*
 * idlekit kernel shim: <linux/log2.h>.  ilog2(n) is the index of the highest set bit: of a
 * constant 0 or 1 it is 0, of a run-time 0 it is -1 (fls(0) - 1), as the kernel's.
 */
#ifndef _LINUX_LOG2_H
#define _LINUX_LOG2_H
#include <linux/types.h>
#include <linux/bitops.h>

static inline int __ilog2_u32(u32 n) { return fls(n) - 1; }
static inline int __ilog2_u64(u64 n) { return fls64(n) - 1; }
#define ilog2(n) (__builtin_constant_p(n) ? \
	((n) < 2 ? 0 : 63 - __builtin_clzll((unsigned long long)(n))) : \
	(sizeof(n) <= 4 ? __ilog2_u32((u32)(n)) : __ilog2_u64((u64)(n))))
static inline bool is_power_of_2(unsigned long n) { return n != 0 && (n & (n - 1)) == 0; }
static inline unsigned long __roundup_pow_of_two(unsigned long n) { return 1UL << fls_long(n - 1); }
static inline unsigned long __rounddown_pow_of_two(unsigned long n) { return 1UL << (fls_long(n) - 1); }
#define roundup_pow_of_two(n) ((n) == 1 ? 1UL : __roundup_pow_of_two(n))
#define rounddown_pow_of_two(n) __rounddown_pow_of_two(n)
/* ceil(log2(n)); order_base_2(0) and (1) are 0. */
#define order_base_2(n) ((n) > 1 ? ilog2((n) - 1) + 1 : 0)
#endif
