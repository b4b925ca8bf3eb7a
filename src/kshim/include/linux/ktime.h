/* idlekit kernel shim: <linux/ktime.h>: ktime_t is s64 nanoseconds. */
#ifndef _LINUX_KTIME_H
#define _LINUX_KTIME_H
#include <linux/types.h>
#include <linux/time.h>
#include <linux/math64.h>
#define KTIME_MAX ((s64)~((u64)1 << 63))
#define KTIME_MIN (-KTIME_MAX - 1)
#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)
static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
	if (unlikely(secs >= KTIME_SEC_MAX))
		return KTIME_MAX;
	return secs * NSEC_PER_SEC + (s64)nsecs;
}
#define ktime_sub(lhs, rhs) ((lhs) - (rhs))
#define ktime_add(lhs, rhs) ((lhs) + (rhs))
#define ktime_add_ns(kt, nsval) ((kt) + (nsval))
#define ktime_sub_ns(kt, nsval) ((kt) - (nsval))
static inline s64 ktime_to_ns(const ktime_t kt) { return kt; }
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }
static inline ktime_t us_to_ktime(u64 us) { return (ktime_t)(us * NSEC_PER_USEC); }
static inline ktime_t ms_to_ktime(u64 ms) { return (ktime_t)(ms * NSEC_PER_MSEC); }
static inline s64 ktime_to_us(const ktime_t kt) { return kt / NSEC_PER_USEC; }
static inline s64 ktime_to_ms(const ktime_t kt) { return kt / NSEC_PER_MSEC; }
static inline s64 ktime_divns(const ktime_t kt, s64 div) { return kt / div; }
static inline s64 ktime_us_delta(const ktime_t later, const ktime_t earlier)
{
	return ktime_to_us(ktime_sub(later, earlier));
}
static inline s64 ktime_ms_delta(const ktime_t later, const ktime_t earlier)
{
	return ktime_to_ms(ktime_sub(later, earlier));
}
static inline int ktime_compare(const ktime_t a, const ktime_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}
static inline bool ktime_after(const ktime_t a, const ktime_t b) { return a > b; }
static inline bool ktime_before(const ktime_t a, const ktime_t b) { return a < b; }
/* The simulated clock of the CPU whose governor callback runs. */
ktime_t ktime_get(void);
static inline u64 ktime_get_ns(void) { return (u64)ktime_get(); }
#endif
