/* A thread started on one CPU, the way the host benchmarks start theirs (wakelat, ctxsw,
   calibrate): pinned from its first instruction, optionally at a SCHED_FIFO priority. */
#ifndef IDLEKIT_HOST_PINNED_THREAD_H
#define IDLEKIT_HOST_PINNED_THREAD_H

#include <pthread.h>
#include <stddef.h>

/* Start fn(arg) in *t on CPU cpu; rt_priority > 0: at that SCHED_FIFO priority, else the
   default policy.  0, or -1 with why in err (when err is given). */
int ik__start_pinned(pthread_t *t, int cpu, int rt_priority, void *(*fn)(void *), void *arg,
		    char *err, size_t errlen);

#endif
