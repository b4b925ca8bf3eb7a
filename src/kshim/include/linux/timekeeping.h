/*
 * idlekit kernel shim: <linux/timekeeping.h>: every clock is the simulated one (ns from the
 * start of the run), as ktime_get() is.
 */
#ifndef _LINUX_TIMEKEEPING_H
#define _LINUX_TIMEKEEPING_H
#include <linux/ktime.h>
static inline ktime_t ktime_get_raw(void) { return ktime_get(); }
static inline ktime_t ktime_get_boottime(void) { return ktime_get(); }
static inline u64 ktime_get_raw_ns(void) { return (u64)ktime_get(); }
static inline u64 ktime_get_boottime_ns(void) { return (u64)ktime_get(); }
static inline u64 ktime_get_mono_fast_ns(void) { return (u64)ktime_get(); }
static inline u64 ktime_get_raw_fast_ns(void) { return (u64)ktime_get(); }
static inline u64 ktime_get_boot_fast_ns(void) { return (u64)ktime_get(); }
static inline s64 ktime_get_seconds(void) { return ktime_get() / NSEC_PER_SEC; }
#endif
