/* idlekit kernel shim: <linux/kernel.h>. */
#ifndef _LINUX_KERNEL_H
#define _LINUX_KERNEL_H
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/math.h>
#include <linux/log2.h>
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/bug.h>
#include <linux/string.h>
#include <linux/init.h>
#include <linux/export.h>
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - __builtin_offsetof(type, member)))
#define ALIGN(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
/*
 * trace_printk() writes to the kernel's trace buffer, not its log; idlekit has no trace
 * buffer, so the message is formatted (and its arguments checked) and then dropped.
 */
int trace_printk(const char *fmt, ...) __printf(1, 2);
#endif
