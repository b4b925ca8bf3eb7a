/* idlekit kernel shim: <linux/kernel.h>. */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/string.h>
#include <linux/init.h>
#include <linux/export.h>
#define abs(x) ({ __typeof__(x) __v = (x); __v < 0 ? -__v : __v; })
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - __builtin_offsetof(type, member)))
#define ALIGN(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define roundup(x, y) ((((x) + ((y) - 1)) / (y)) * (y))
#define rounddown(x, y) ((x) - ((x) % (y)))
#endif
