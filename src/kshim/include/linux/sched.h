/* idlekit kernel shim: <linux/sched.h> (CPU numbers, idle_cpu()). */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H
#include <linux/types.h>
#include <linux/smp.h>
/*
 * Whether the CPU runs its idle task: the CPU whose governor callback runs is; another CPU
 * is from the select of its idle period to the reflect after its wakeup.
 */
int idle_cpu(int cpu);
#define available_idle_cpu(cpu) idle_cpu(cpu)
#endif
