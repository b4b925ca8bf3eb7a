/* idlekit kernel shim: <linux/bug.h>: a WARN prints the file and line; BUG aborts the run. */
#ifndef _LINUX_BUG_H
#define _LINUX_BUG_H
#include <linux/printk.h>
void ikk_bug(const char *file, int line) __attribute__((__noreturn__));
#define WARN_ON(cond) ({ int __ret = !!(cond); \
	if (unlikely(__ret)) printk("WARNING: %s:%d: WARN_ON(%s)\n", __FILE__, __LINE__, #cond); \
	unlikely(__ret); })
#define WARN_ON_ONCE(cond) WARN_ON(cond)
#define WARN(cond, fmt, ...) ({ int __ret = !!(cond); \
	if (unlikely(__ret)) printk(fmt, ##__VA_ARGS__); unlikely(__ret); })
#define WARN_ONCE WARN
#define BUG() ikk_bug(__FILE__, __LINE__)
#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)
#endif
