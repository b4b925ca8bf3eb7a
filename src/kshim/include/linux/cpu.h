/*
 * idlekit kernel shim: <linux/cpu.h>: CPU hotplug never happens in a simulated run, so the
 * hotplug lock is a no-op and every CPU of the run stays online.
 */
#ifndef _LINUX_CPU_H_
#define _LINUX_CPU_H_
#include <linux/types.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
static inline void cpus_read_lock(void) { }
static inline void cpus_read_unlock(void) { }
static inline void get_online_cpus(void) { }
static inline void put_online_cpus(void) { }
static inline void cpu_hotplug_disable(void) { }
static inline void cpu_hotplug_enable(void) { }
#endif
