/* idlekit kernel shim: <linux/time.h> (vdso/time64.h's constants). */
#ifndef _LINUX_TIME_H
#define _LINUX_TIME_H
#include <linux/types.h>
#define MSEC_PER_SEC 1000L
#define USEC_PER_MSEC 1000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L
#define PSEC_PER_NSEC 1000L
#define FSEC_PER_SEC 1000000000000000LL
#endif
