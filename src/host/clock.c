/*
 * The clock every host measurement uses: CLOCK_MONOTONIC in ns (the clock the kernel's
 * hrtimers and idlekit record's traces use too).
 */
#include <time.h>

#include "host/host.h"

int64_t ik__host_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

struct timespec ik__timespec_add(struct timespec t, int64_t ns)
{
	t.tv_sec += (time_t)(ns / 1000000000);
	t.tv_nsec += (long)(ns % 1000000000);
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	return t;
}

struct timespec ik__deadline_in(clockid_t clock, int64_t ns)
{
	struct timespec now;
	clock_gettime(clock, &now);
	return ik__timespec_add(now, ns);
}
