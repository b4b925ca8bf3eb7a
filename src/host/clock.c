/*
 * The clock every host measurement uses: CLOCK_MONOTONIC in ns (the clock the kernel's
 * hrtimers and idlekit record's traces use too).
 */
#include <time.h>

#include "host/host.h"

int64_t ik_host_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
