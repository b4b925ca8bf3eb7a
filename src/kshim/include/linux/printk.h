/* idlekit kernel shim: <linux/printk.h>: messages go to idlekit's standard error. */
#ifndef __KERNEL_PRINTK__
#define __KERNEL_PRINTK__
#include <linux/compiler.h>
#define KERN_EMERG ""
#define KERN_ALERT ""
#define KERN_CRIT ""
#define KERN_ERR ""
#define KERN_WARNING ""
#define KERN_NOTICE ""
#define KERN_INFO ""
#define KERN_DEBUG ""
#define KERN_CONT ""
int printk(const char *fmt, ...) __printf(1, 2);
#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...) printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...) printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...) printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(fmt, ##__VA_ARGS__)
/* pr_debug is compiled out, as without DEBUG/dynamic debug; the arguments are still checked. */
#define pr_debug(fmt, ...) do { if (0) printk(pr_fmt(fmt), ##__VA_ARGS__); } while (0)
#define pr_warn_once pr_warn
#define pr_info_once pr_info
#define pr_err_once pr_err
#endif
