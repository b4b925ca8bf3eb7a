/* idlekit kernel shim: <linux/math64.h> and do_div() (asm/div64.h). */
#ifndef _LINUX_MATH64_H
#define _LINUX_MATH64_H
#include <linux/types.h>
#include <linux/math.h>
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}
static inline u64 div_u64(u64 dividend, u32 divisor) { return dividend / divisor; }
static inline s64 div_s64(s64 dividend, s32 divisor) { return dividend / divisor; }
static inline u64 div64_u64(u64 dividend, u64 divisor) { return dividend / divisor; }
static inline s64 div_s64_rem(s64 dividend, s32 divisor, s32 *remainder)
{
	*remainder = (s32)(dividend % divisor);
	return dividend / divisor;
}
static inline s64 div64_s64(s64 dividend, s64 divisor) { return dividend / divisor; }
static inline u64 div64_ul(u64 dividend, unsigned long divisor) { return dividend / divisor; }
static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}
/*
 * (a * b + c) / d with a 128-bit product and sum.  A quotient that does not fit in 64 bits
 * is what the kernel's is on the machine idlekit runs on: on x86-64 its divq raises a
 * divide error (here SIGFPE: the governor crashed, exit 4), elsewhere the generic code
 * returns ~0; d == 0 traps on both (v6.19: arch/x86/include/asm/div64.h, lib/math/div64.c).
 */
static inline u64 mul_u64_add_u64_div_u64(u64 a, u64 b, u64 c, u64 d)
{
	unsigned __int128 n = (unsigned __int128)a * b + c;
#if defined(__x86_64__)
	u64 lo = (u64)n, hi = (u64)(n >> 64);
	__asm__ volatile("divq %[d]" : "+a"(lo), "+d"(hi) : [d] "rm"(d));
	return lo;
#else
	if (d == 0) {
		volatile u64 zero = 0;
		return ~0ULL / zero;
	}
	if ((u64)(n >> 64) >= d)
		return ~0ULL;
	return (u64)(n / d);
#endif
}
#define mul_u64_u64_div_u64(a, b, d) mul_u64_add_u64_div_u64(a, b, 0, d)
#define mul_u64_u64_div_u64_roundup(a, b, d) \
	({ u64 __rd = (d); mul_u64_add_u64_div_u64(a, b, __rd - 1, __rd); })
static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 div) { return mul_u64_add_u64_div_u64(a, mul, 0, div); }
static inline u64 mul_u64_u64_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * b) >> shift);
}
#define DIV64_U64_ROUND_UP(ll, d) ({ u64 _tmp = (d); div64_u64((ll) + _tmp - 1, _tmp); })
/* do_div(n, base): n becomes n / base; the remainder is the value. */
#define do_div(n, base) ({ u32 __base = (base); u32 __rem = (u32)((n) % __base); \
	(n) = (n) / __base; __rem; })
#endif
