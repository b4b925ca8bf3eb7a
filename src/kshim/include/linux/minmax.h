/* idlekit kernel shim: <linux/minmax.h>.  Each argument is evaluated once. */
#ifndef _LINUX_MINMAX_H
#define _LINUX_MINMAX_H
/* (The kernel's type checks are not repeated: a file the kernel accepts compiles here.) */
#define __ikk_cmp(op, x, y) ({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); \
	__x op __y ? __x : __y; })
#define min(x, y) __ikk_cmp(<, x, y)
#define max(x, y) __ikk_cmp(>, x, y)
#define min3(x, y, z) min((__typeof__(x))min(x, y), z)
#define max3(x, y, z) max((__typeof__(x))max(x, y), z)
#define min_t(type, x, y) ({ type __a = (x); type __b = (y); __a < __b ? __a : __b; })
#define max_t(type, x, y) ({ type __a = (x); type __b = (y); __a > __b ? __a : __b; })
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi) clamp_t(__typeof__(val), val, lo, hi)
#define swap(a, b) do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)
#endif
