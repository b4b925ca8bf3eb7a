/*
 * idlekit kernel shim: <linux/bitops.h>: the bit searches (fls(0) and ffs(0) are 0; __ffs,
 * __fls and ffz of 0 are undefined, as in the kernel), hweight, and the plain bit ops.
 */
#ifndef _LINUX_BITOPS_H
#define _LINUX_BITOPS_H
#include <linux/types.h>
#include <linux/bits.h>
#include <linux/compiler.h>

#define BITS_PER_BYTE 8
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))

static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int fls64(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int fls_long(unsigned long x) { return fls64(x); }
static inline int ffs(int x) { return __builtin_ffs(x); }
static inline unsigned long __ffs(unsigned long x) { return (unsigned long)__builtin_ctzl(x); }
static inline unsigned long __fls(unsigned long x) { return 63UL - (unsigned long)__builtin_clzl(x); }
static inline unsigned long ffz(unsigned long x) { return __ffs(~x); }
static inline unsigned int __ffs64(u64 x) { return (unsigned int)__builtin_ctzll(x); }
static inline unsigned int hweight8(unsigned int w) { return (unsigned int)__builtin_popcount(w & 0xffu); }
static inline unsigned int hweight16(unsigned int w) { return (unsigned int)__builtin_popcount(w & 0xffffu); }
static inline unsigned int hweight32(unsigned int w) { return (unsigned int)__builtin_popcount(w); }
static inline unsigned long hweight64(u64 w) { return (unsigned long)__builtin_popcountll(w); }
static inline unsigned long hweight_long(unsigned long w) { return hweight64(w); }
static inline u32 rol32(u32 w, unsigned int s) { return (w << (s & 31)) | (w >> ((-s) & 31)); }
static inline u32 ror32(u32 w, unsigned int s) { return (w >> (s & 31)) | (w << ((-s) & 31)); }
static inline u64 rol64(u64 w, unsigned int s) { return (w << (s & 63)) | (w >> ((-s) & 63)); }
static inline u64 ror64(u64 w, unsigned int s) { return (w >> (s & 63)) | (w << ((-s) & 63)); }

/* The bit operations on an array of longs (one CPU runs a callback at a time: plain). */
static inline void __set_bit(unsigned long nr, volatile unsigned long *addr) { addr[BIT_WORD(nr)] |= BIT_MASK(nr); }
static inline void __clear_bit(unsigned long nr, volatile unsigned long *addr) { addr[BIT_WORD(nr)] &= ~BIT_MASK(nr); }
static inline void __change_bit(unsigned long nr, volatile unsigned long *addr) { addr[BIT_WORD(nr)] ^= BIT_MASK(nr); }
static inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] & BIT_MASK(nr)) != 0;
}
static inline bool __test_and_set_bit(unsigned long nr, volatile unsigned long *addr)
{
	bool old = test_bit(nr, addr);
	__set_bit(nr, addr);
	return old;
}
static inline bool __test_and_clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	bool old = test_bit(nr, addr);
	__clear_bit(nr, addr);
	return old;
}
#define set_bit(nr, addr) __set_bit(nr, addr)
#define clear_bit(nr, addr) __clear_bit(nr, addr)
#define change_bit(nr, addr) __change_bit(nr, addr)
#define test_and_set_bit(nr, addr) __test_and_set_bit(nr, addr)
#define test_and_clear_bit(nr, addr) __test_and_clear_bit(nr, addr)
#endif
