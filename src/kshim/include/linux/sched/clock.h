/* idlekit kernel shim: <linux/sched/clock.h>: the run's simulated clock, in ns. */
#ifndef _LINUX_SCHED_CLOCK_H
#define _LINUX_SCHED_CLOCK_H
#include <linux/types.h>
u64 local_clock(void);
u64 sched_clock(void);
#endif
