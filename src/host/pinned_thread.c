/* A thread pinned to one CPU (src/host/pinned_thread.h). */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "host/pinned_thread.h"

int ik__start_pinned(pthread_t *t, int cpu, int rt_priority, void *(*fn)(void *), void *arg,
		    char *err, size_t errlen)
{
	pthread_attr_t attr;
	cpu_set_t set;
	pthread_attr_init(&attr);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	int e = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!e && rt_priority > 0) {
		/* SCHED_FIFO from the thread's first instruction: a wake-up then preempts
		   anything of the default policy on the wakee CPU */
		struct sched_param sp = { .sched_priority = rt_priority };
		e = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		if (!e)
			e = pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		if (!e)
			e = pthread_attr_setschedparam(&attr, &sp);
	}
	if (!e)
		e = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (e) {
		if (err && errlen) {
			if (rt_priority > 0 && e == EPERM)
				snprintf(err, errlen, "--rt-priority %d: not permitted to use SCHED_FIFO "
					 "(needs root or CAP_SYS_NICE, or an RLIMIT_RTPRIO of %d)",
					 rt_priority, rt_priority);
			else
				snprintf(err, errlen, "cannot start a thread pinned to CPU %d%s: %s", cpu,
					 rt_priority > 0 ? " with SCHED_FIFO" : "", strerror(e));
		}
		return -1;
	}
	return 0;
}
