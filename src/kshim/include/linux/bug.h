/*
 * idlekit kernel shim: <linux/bug.h>: a WARN prints the file and line; BUG() stops the run
 * as a crash of the governor (an illegal instruction, as the kernel's BUG() is on x86).
 */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H
#include <linux/printk.h>
void ikk_bug(const char *file, int line) __attribute__((__noreturn__));
#define WARN_ON(cond) ({ int __ret = !!(cond); \
	if (unlikely(__ret)) printk("WARNING: %s:%d: WARN_ON(%s)\n", __FILE__, __LINE__, #cond); \
	unlikely(__ret); })
/* The _ONCE forms warn at the first true condition of their call site; the value is the
   condition's every time. */
#define WARN_ON_ONCE(cond) ({ static bool __ikk_warned; int __ret = !!(cond); \
	if (unlikely(__ret) && !__ikk_warned) { __ikk_warned = true; \
		printk("WARNING: %s:%d: WARN_ON_ONCE(%s)\n", __FILE__, __LINE__, #cond); } \
	unlikely(__ret); })
#define WARN(cond, fmt, ...) ({ int __ret = !!(cond); \
	if (unlikely(__ret)) printk(fmt, ##__VA_ARGS__); unlikely(__ret); })
#define WARN_ONCE(cond, fmt, ...) ({ static bool __ikk_warned; int __ret = !!(cond); \
	if (unlikely(__ret) && !__ikk_warned) { __ikk_warned = true; printk(fmt, ##__VA_ARGS__); } \
	unlikely(__ret); })
#define BUG() ikk_bug(__FILE__, __LINE__)
#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)
#endif
