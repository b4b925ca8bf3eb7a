/*
 * idlekit kernel shim: <linux/math.h>.  abs() follows the kernel's rule (v6.19): an
 * argument of an unsigned type is first converted to the signed type of its size, so
 * abs(3u - 5u) is 2; the result has that signed type (int for the types narrower than int,
 * as after promotion; plain char stays char).  A type it does not know is a build error,
 * as in the kernel.
 */
#ifndef _LINUX_MATH_H
#define _LINUX_MATH_H
#include <linux/types.h>
#include <linux/compiler.h>

static inline long long __ikk_abs_ll(long long v) { return v < 0 ? -v : v; }
static inline long __ikk_abs_l(long v) { return v < 0 ? -v : v; }
static inline int __ikk_abs_i(int v) { return v < 0 ? -v : v; }
static inline int __ikk_abs_s(short v) { return v < 0 ? -v : v; }
static inline int __ikk_abs_c(signed char v) { return v < 0 ? -v : v; }
static inline char __ikk_abs_pc(signed char v) { return (char)(v < 0 ? -v : v); }
#define abs(x) _Generic((x), \
	long long: __ikk_abs_ll, unsigned long long: __ikk_abs_ll, \
	long: __ikk_abs_l, unsigned long: __ikk_abs_l, \
	int: __ikk_abs_i, unsigned int: __ikk_abs_i, \
	short: __ikk_abs_s, unsigned short: __ikk_abs_s, \
	signed char: __ikk_abs_c, unsigned char: __ikk_abs_c, \
	char: __ikk_abs_pc)(x)

/* |a - b| computed in the arguments' type, without overflow for unsigned ones. */
#define abs_diff(a, b) ({ __typeof__(a) __ad_a = (a); __typeof__(b) __ad_b = (b); \
	__ad_a > __ad_b ? (__ad_a - __ad_b) : (__ad_b - __ad_a); })

#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
/* (The divisor is a u32, as do_div() takes it.) */
#define DIV_ROUND_DOWN_ULL(ll, d) ({ unsigned long long _tmp = (ll); _tmp / (u32)(d); })
#define DIV_ROUND_UP_ULL(ll, d) DIV_ROUND_DOWN_ULL((unsigned long long)(ll) + (d) - 1, (d))
/* Rounded to the nearest, halves away from zero; a negative quotient only when both
   types are signed and the signs differ. */
#define DIV_ROUND_CLOSEST(x, divisor) ({ __typeof__(x) __rc_x = (x); \
	__typeof__(divisor) __rc_d = (divisor); \
	bool __rc_pos = ((__typeof__(x))-1) > 0 || ((__typeof__(divisor))-1) > 0 || \
		(__rc_x > 0) == (__rc_d > 0); \
	__rc_pos ? (__rc_x + __rc_d / 2) / __rc_d : (__rc_x - __rc_d / 2) / __rc_d; })
/* (The division is do_div()'s: by the divisor cut to u32.) */
#define DIV_ROUND_CLOSEST_ULL(x, divisor) ({ __typeof__(divisor) __d = (divisor); \
	unsigned long long _tmp = (x) + (__d) / 2; _tmp / (u32)__d; })
#define roundup(x, y) ({ __typeof__(y) __y = (y); (((x) + (__y - 1)) / __y) * __y; })
#define rounddown(x, y) ({ __typeof__(x) __x = (x); __x - (__x % (y)); })
#define round_up(x, y) ((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y) ((x) & ~((__typeof__(x))((y) - 1)))
#define mult_frac(x, n, d) ({ __typeof__(x) __mf_x = (x); __typeof__(n) __mf_n = (n); \
	__typeof__(d) __mf_d = (d); __typeof__(x) __mf_q = __mf_x / __mf_d; \
	__typeof__(x) __mf_r = __mf_x % __mf_d; __mf_q * __mf_n + __mf_r * __mf_n / __mf_d; })

/* The integer square root, rounded down (int_sqrt(0) is 0). */
unsigned long int_sqrt(unsigned long x);
u32 int_sqrt64(u64 x);
#endif
