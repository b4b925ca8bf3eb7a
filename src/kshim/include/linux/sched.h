/* idlekit kernel shim: <linux/sched.h> (governors include it for CPU numbers only). */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H
#include <linux/types.h>
#include <linux/smp.h>
#endif
