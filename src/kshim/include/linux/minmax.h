/*
 * idlekit kernel shim: <linux/minmax.h>, with the kernel's rules (read in v6.19): each
 * argument is evaluated once, the comparison is made in the usual arithmetic conversions
 * of the arguments as they are (min3 and clamp too, without casting to the first's type),
 * and comparing a signed with an unsigned argument stops the build as it does in the
 * kernel from v6.7 on, unless the signed one is a constant that is not negative or the
 * unsigned one is narrower than int.  (Before v6.7 the kernel's check of the two types was
 * a warning, so files of those releases are not checked.)
 */
#ifndef _LINUX_MINMAX_H
#define _LINUX_MINMAX_H
#include <linux/compiler.h>
#include <linux/types.h>

/* Called only where the check below is not known false once optimised: a build error. */
extern void __ikk_minmax_signedness(void) __attribute__((__error__(
	"min()/max()/clamp() signedness error: a signed and an unsigned argument "
	"(the kernel's <linux/minmax.h> refuses it too; use min_t() or a cast)")));
#define __ikk_signed_type(t) (((t)(-1)) < ((t)1))
#define __ikk_nonneg(v) (__builtin_constant_p((long long)(v) >= 0) && ((long long)(v) >= 0))
/* bit 0: fine for an unsigned comparison; bit 1: for a signed one. */
#define __ikk_sign_use(v) (__ikk_signed_type(__typeof__(v)) ? (2 + __ikk_nonneg(v)) : \
	(1 + 2 * (sizeof(v) < 4)))
#if IKK_LINUX_VERSION_CODE >= 395008 /* KERNEL_VERSION(6, 7, 0) */
#define __ikk_sign_check(ok) do { if (!(ok)) __ikk_minmax_signedness(); } while (0)
#else
#define __ikk_sign_check(ok) do { } while (0)
#endif

#define __ikk_careful(op, x, y) ({ __auto_type __ikk_x = (x); __auto_type __ikk_y = (y); \
	__ikk_sign_check(__ikk_sign_use(__ikk_x) & __ikk_sign_use(__ikk_y)); \
	__ikk_x op __ikk_y ? __ikk_x : __ikk_y; })
#define min(x, y) __ikk_careful(<, x, y)
#define max(x, y) __ikk_careful(>, x, y)
#define umin(x, y) min((x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define umax(x, y) max((x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)

#define __ikk_careful3(op, x, y, z) ({ __auto_type __ikk_x3 = (x); \
	__auto_type __ikk_y3 = (y); __auto_type __ikk_z3 = (z); \
	__ikk_sign_check(__ikk_sign_use(__ikk_x3) & __ikk_sign_use(__ikk_y3) & \
			 __ikk_sign_use(__ikk_z3)); \
	__auto_type __ikk_yz = __ikk_y3 op __ikk_z3 ? __ikk_y3 : __ikk_z3; \
	__ikk_x3 op __ikk_yz ? __ikk_x3 : __ikk_yz; })
#define min3(x, y, z) __ikk_careful3(<, x, y, z)
#define max3(x, y, z) __ikk_careful3(>, x, y, z)

#define min_t(type, x, y) ({ type __a = (x); type __b = (y); __a < __b ? __a : __b; })
#define max_t(type, x, y) ({ type __a = (x); type __b = (y); __a > __b ? __a : __b; })
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN_T(type, a, b) MIN((type)(a), (type)(b))
#define MAX_T(type, a, b) MAX((type)(a), (type)(b))

/* The smaller of the two that is not zero; zero only if both are. */
#define min_not_zero(x, y) ({ __typeof__(x) __nz_x = (x); __typeof__(y) __nz_y = (y); \
	__nz_x == 0 ? __nz_y : (__nz_y == 0 ? __nz_x : min(__nz_x, __nz_y)); })

/* Called only where lo > hi is known at compile time: a build error (v6.19's clamp(),
   clamp_t() and clamp_val() refuse it; dated with the signedness check). */
extern void __ikk_clamp_limits(void) __attribute__((__error__(
	"clamp() low limit greater than high limit (the kernel's <linux/minmax.h> refuses it "
	"too)")));
#if IKK_LINUX_VERSION_CODE >= 395008 /* KERNEL_VERSION(6, 7, 0) */
#define __ikk_limits_check(lo, hi) do { \
	if (__builtin_constant_p((lo) > (hi)) && (lo) > (hi)) __ikk_clamp_limits(); } while (0)
#else
#define __ikk_limits_check(lo, hi) do { } while (0)
#endif

/* hi when val >= hi, else lo when val <= lo, else val (the kernel's order of tests). */
#define __ikk_clamp(check, type, val, lo, hi) ({ type __cv = (val); type __cl = (lo); \
	type __ch = (hi); \
	__ikk_limits_check(__cl, __ch); \
	if (check) __ikk_sign_check(__ikk_sign_use(__cv) & __ikk_sign_use(__cl) & \
				    __ikk_sign_use(__ch)); \
	__cv >= __ch ? __ch : (__cv <= __cl ? __cl : __cv); })
#define clamp(val, lo, hi) __ikk_clamp(1, __auto_type, val, lo, hi)
#define clamp_t(type, val, lo, hi) __ikk_clamp(0, type, val, lo, hi)
#define clamp_val(val, lo, hi) __ikk_clamp(0, __typeof__(val), val, lo, hi)
/* As the kernel's: (val - start) < len in u32 when all three fit in 32 bits, else in u64,
   so a range whose end wraps round holds the values past the wrap. */
static inline bool __ikk_in_range32(u32 val, u32 start, u32 len) { return val - start < len; }
static inline bool __ikk_in_range64(u64 val, u64 start, u64 len) { return val - start < len; }
#define in_range(val, start, len) \
	((sizeof(start) | sizeof(len) | sizeof(val)) <= sizeof(u32) ? \
	 __ikk_in_range32(val, start, len) : __ikk_in_range64(val, start, len))
/* The smallest (largest) of len > 0 values, compared with min() (max()). */
#define __ikk_minmax_array(op, array, len) ({ __typeof__(&(array)[0]) __ma_a = (array); \
	__typeof__(len) __ma_n = (len); \
	__auto_type __ma_e = __ma_a[--__ma_n]; \
	while (__ma_n--) __ma_e = op(__ma_e, __ma_a[__ma_n]); \
	__ma_e; })
#define min_array(array, len) __ikk_minmax_array(min, array, len)
#define max_array(array, len) __ikk_minmax_array(max, array, len)
#define swap(a, b) do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)
#endif
