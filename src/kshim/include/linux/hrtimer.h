/* idlekit kernel shim: <linux/hrtimer.h>: governors include it for ktime; no timers here. */
#ifndef _LINUX_HRTIMER_H
#define _LINUX_HRTIMER_H
#include <linux/ktime.h>
#endif
