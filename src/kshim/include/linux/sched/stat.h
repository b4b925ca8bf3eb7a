/*
 * idlekit kernel shim: <linux/sched/stat.h>.  nr_iowait_cpu() is what idlekit hands in with
 * the CPU's callback: the simulator's tasks waiting on I/O (workload.iowait_pct), govreplay's
 * nr_iowaiters column, 0 elsewhere (menu before v6.13 reads it).
 */
#ifndef _LINUX_SCHED_STAT_H
#define _LINUX_SCHED_STAT_H
#include <linux/types.h>
unsigned int nr_iowait_cpu(int cpu);
#endif
