/*
 * idlekit kernel shim: <linux/sched/topology.h>.  Every CPU has the full capacity
 * (SCHED_CAPACITY_SCALE).  sched_cpu_util() is 0: idlekit has no PELT utilisation signal,
 * so teo's utilisation check of v6.3-v6.10 never fires (say so when comparing).
 */
#ifndef _LINUX_SCHED_TOPOLOGY_H
#define _LINUX_SCHED_TOPOLOGY_H
#include <linux/types.h>
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)
static inline unsigned long arch_scale_cpu_capacity(int cpu) { (void)cpu; return SCHED_CAPACITY_SCALE; }
unsigned long sched_cpu_util(int cpu);
#endif
