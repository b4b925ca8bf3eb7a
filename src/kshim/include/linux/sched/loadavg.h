/* idlekit kernel shim: <linux/sched/loadavg.h> (included by older menu.c, nothing used). */
#ifndef _LINUX_SCHED_LOADAVG_H
#define _LINUX_SCHED_LOADAVG_H
#include <linux/types.h>
#endif
