/*
 * idlekit kernel shim: <linux/sched/stat.h>.  idlekit models no block I/O: no task is ever
 * waiting for I/O on a CPU, so nr_iowait_cpu() is 0 (menu before v6.13 reads it).
 */
#ifndef _LINUX_SCHED_STAT_H
#define _LINUX_SCHED_STAT_H
#include <linux/types.h>
unsigned int nr_iowait_cpu(int cpu);
#endif
