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

/*
 * The _once forms print at the first call of their call site only: one flag per site, in
 * the loaded copy of the governor (so once per simulated machine, as once per boot).
 */
#define printk_once(fmt, ...) ({ static bool __ikk_printed; bool __ikk_first = !__ikk_printed; \
	if (unlikely(__ikk_first)) { __ikk_printed = true; printk(fmt, ##__VA_ARGS__); } \
	unlikely(__ikk_first); })
#define pr_emerg_once(fmt, ...) printk_once(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert_once(fmt, ...) printk_once(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit_once(fmt, ...) printk_once(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_once(fmt, ...) printk_once(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_once(fmt, ...) printk_once(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice_once(fmt, ...) printk_once(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_once(fmt, ...) printk_once(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug_once(fmt, ...) pr_debug(fmt, ##__VA_ARGS__)

/*
 * printk_ratelimited: the kernel's default limit per call site, 10 messages in any 5
 * seconds (DEFAULT_RATELIMIT_BURST, _INTERVAL), counted in simulated time; when a new
 * 5 s window opens after messages were dropped, one line says how many.
 */
struct ikk_ratelimit {
	long long begin_ns;
	int printed, missed;
	bool started;
};
bool ikk_ratelimit(struct ikk_ratelimit *rs, const char *func) __attribute__((visibility("hidden")));
#define printk_ratelimit() 1
#define printk_ratelimited(fmt, ...) ({ static struct ikk_ratelimit __ikk_rs; \
	if (ikk_ratelimit(&__ikk_rs, __func__)) printk(fmt, ##__VA_ARGS__); })
#define pr_emerg_ratelimited(fmt, ...) printk_ratelimited(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert_ratelimited(fmt, ...) printk_ratelimited(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit_ratelimited(fmt, ...) printk_ratelimited(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err_ratelimited(fmt, ...) printk_ratelimited(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn_ratelimited(fmt, ...) printk_ratelimited(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_notice_ratelimited(fmt, ...) printk_ratelimited(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info_ratelimited(fmt, ...) printk_ratelimited(pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug_ratelimited(fmt, ...) pr_debug(fmt, ##__VA_ARGS__)
#endif
