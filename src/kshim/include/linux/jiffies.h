/*
 * idlekit kernel shim: <linux/jiffies.h>: HZ and TICK_NSEC are those of the run, and
 * jiffies counts ticks of the simulated clock: now / TICK_NSEC, from 0 at the start of the
 * run (the kernel starts 5 minutes before its wrap, INITIAL_JIFFIES; idlekit does not).
 * jiffies is a value here: it can be read, not assigned.
 */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H
#include <linux/types.h>
#include <linux/time.h>
#include <linux/limits.h>
#define HZ ikk_hz
#define TICK_NSEC ikk_tick_nsec
#define TICK_USEC ((USEC_PER_SEC + HZ / 2) / HZ)
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)
#define INITIAL_JIFFIES 0UL

u64 ikk_jiffies64(void) __attribute__((visibility("hidden")));
#define jiffies ((unsigned long)ikk_jiffies64())
#define jiffies_64 ikk_jiffies64()
static inline u64 get_jiffies_64(void) { return ikk_jiffies64(); }

/* The comparisons that survive the counter's wrap. */
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
#define time_in_range(a, b, c) (time_after_eq(a, b) && time_before_eq(a, c))
#define time_in_range_open(a, b, c) (time_after_eq(a, b) && time_before(a, c))
#define time_after64(a, b) ((s64)((b) - (a)) < 0)
#define time_before64(a, b) time_after64(b, a)
#define time_after_eq64(a, b) ((s64)((a) - (b)) >= 0)
#define time_before_eq64(a, b) time_after_eq64(b, a)
#define time_is_before_jiffies(a) time_after(jiffies, a)
#define time_is_after_jiffies(a) time_before(jiffies, a)
#define time_is_before_eq_jiffies(a) time_after_eq(jiffies, a)
#define time_is_after_eq_jiffies(a) time_before_eq(jiffies, a)

/* To jiffies: rounded up (a wait is at least as long as asked), capped at MAX_JIFFY_OFFSET. */
static inline unsigned long __ikk_to_jiffies(u64 v, u64 per_sec)
{
	u64 j = (v * (u64)HZ + per_sec - 1) / per_sec;
	return j > (u64)MAX_JIFFY_OFFSET ? (unsigned long)MAX_JIFFY_OFFSET : (unsigned long)j;
}
/* (A negative count of milliseconds, as int, means "for ever", as in the kernel.) */
static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	return (int)m < 0 ? (unsigned long)MAX_JIFFY_OFFSET : __ikk_to_jiffies(m, MSEC_PER_SEC);
}
static inline unsigned long usecs_to_jiffies(const unsigned int u) { return __ikk_to_jiffies(u, USEC_PER_SEC); }
/* nsecs_to_jiffies rounds down, as the kernel's does. */
static inline u64 nsecs_to_jiffies64(u64 n)
{
	if (NSEC_PER_SEC % HZ == 0)
		return n / (u64)(NSEC_PER_SEC / HZ);
	return (u64)((unsigned __int128)n * 9 / ((9ULL * NSEC_PER_SEC + (u64)HZ / 2) / (u64)HZ));
}
static inline unsigned long nsecs_to_jiffies(u64 n) { return (unsigned long)nsecs_to_jiffies64(n); }
static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (unsigned int)((u64)j * MSEC_PER_SEC / (u64)HZ);
}
static inline unsigned int jiffies_to_usecs(const unsigned long j) { return (unsigned int)(j * (USEC_PER_SEC / HZ)); }
static inline u64 jiffies_to_nsecs(const unsigned long j) { return (u64)j * TICK_NSEC; }
static inline u64 jiffies64_to_nsecs(u64 j) { return j * (u64)TICK_NSEC; }
#endif
