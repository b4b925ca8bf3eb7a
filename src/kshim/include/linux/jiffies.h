/* idlekit kernel shim: <linux/jiffies.h>: HZ and TICK_NSEC are those of the run. */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H
#include <linux/types.h>
#include <linux/time.h>
#define HZ ikk_hz
#define TICK_NSEC ikk_tick_nsec
#define TICK_USEC ((USEC_PER_SEC + HZ / 2) / HZ)
static inline unsigned int jiffies_to_usecs(const unsigned long j) { return (unsigned int)(j * (USEC_PER_SEC / HZ)); }
static inline u64 jiffies_to_nsecs(const unsigned long j) { return (u64)j * TICK_NSEC; }
#endif
