/* PM QoS latency limits as cpuidle_governor_latency_req() combines them. */
#include <stdint.h>

#include "idlekit/cpuidle.h"

void ik_pm_qos_init(struct ik_pm_qos *q)
{
	q->global_us = 2000000000LL; /* PM_QOS_CPU_LATENCY_DEFAULT_VALUE: 2000 s */
	q->per_cpu_us = INT32_MAX;   /* PM_QOS_RESUME_LATENCY_NO_CONSTRAINT */
}

int64_t ik_pm_qos_latency_req_ns(const struct ik_pm_qos *q)
{
	int64_t us = q->per_cpu_us < q->global_us ? q->per_cpu_us : q->global_us;

	return us * IK_NSEC_PER_USEC;
}
