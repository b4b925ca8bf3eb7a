/*
 * idlekit kernel shim: <linux/sched/topology.h>.  sched_cpu_util() and
 * arch_scale_cpu_capacity() answer what idlekit's CPU says (struct ik_idle_inputs'
 * cpu_util and cpu_capacity, e.g. govreplay's cpu_util column): the two numbers teo of
 * v6.3-v6.10 compares.
 */
#ifndef _LINUX_SCHED_TOPOLOGY_H
#define _LINUX_SCHED_TOPOLOGY_H
#include <linux/types.h>
#define SCHED_CAPACITY_SHIFT 10
#define SCHED_CAPACITY_SCALE (1L << SCHED_CAPACITY_SHIFT)
unsigned long arch_scale_cpu_capacity(int cpu);
unsigned long sched_cpu_util(int cpu);
#endif
