/*
 * idlekit kernel shim: <linux/percpu.h>.  A per-CPU variable is an array indexed by the
 * CPU number; this_cpu_*() use the CPU whose governor callback is running.
 */
#ifndef __LINUX_PERCPU_H
#define __LINUX_PERCPU_H
#include <linux/types.h>
#define DEFINE_PER_CPU(type, name) __typeof__(type) name[IKK_NR_CPUS_SHIM]
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) name[IKK_NR_CPUS_SHIM]
#define DEFINE_PER_CPU_READ_MOSTLY(type, name) DEFINE_PER_CPU(type, name)
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) DEFINE_PER_CPU(type, name)
#define per_cpu_ptr(ptr, cpu) (&(*(ptr))[(cpu)])
#define per_cpu(var, cpu) ((var)[(cpu)])
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, ikk_this_cpu)
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define this_cpu_read(var) ((var)[ikk_this_cpu])
#define __this_cpu_read(var) this_cpu_read(var)
#define this_cpu_write(var, val) do { (var)[ikk_this_cpu] = (val); } while (0)
#define __this_cpu_write(var, val) this_cpu_write(var, val)
#define this_cpu_inc(var) do { (var)[ikk_this_cpu]++; } while (0)
#define this_cpu_add(var, val) do { (var)[ikk_this_cpu] += (val); } while (0)
#endif
