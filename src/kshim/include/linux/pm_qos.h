/*
 * idlekit kernel shim: <linux/pm_qos.h>.  cpu_latency_qos_limit() is the run's CPU latency
 * limit in us, as idlekit's PM QoS model has it (cpuidle.latency_limit_us in a sim, the
 * latency_req column in govreplay: the limit the governor's CPU is under, whose value the
 * model takes from the global limit; 2000000000, PM_QOS_CPU_LATENCY_DEFAULT_VALUE, when
 * none is set).
 */
#ifndef _LINUX_PM_QOS_H
#define _LINUX_PM_QOS_H
#include <linux/types.h>
#include <linux/limits.h>
#define PM_QOS_DEFAULT_VALUE (-1)
#define PM_QOS_LATENCY_ANY S32_MAX
#define PM_QOS_LATENCY_ANY_NS ((s64)PM_QOS_LATENCY_ANY * 1000)
#define PM_QOS_CPU_LATENCY_DEFAULT_VALUE (2000 * 1000000)
#define PM_QOS_RESUME_LATENCY_DEFAULT_VALUE PM_QOS_LATENCY_ANY
#define PM_QOS_RESUME_LATENCY_NO_CONSTRAINT PM_QOS_LATENCY_ANY
#define PM_QOS_RESUME_LATENCY_NO_CONSTRAINT_NS PM_QOS_LATENCY_ANY_NS
s32 cpu_latency_qos_limit(void);
#endif
