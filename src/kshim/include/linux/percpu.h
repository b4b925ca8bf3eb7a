/*
 * idlekit kernel shim: <linux/percpu.h> and the accessors of <linux/percpu-defs.h>.
 *
 * As in the kernel, DEFINE_PER_CPU puts one copy of the variable in a section of its own
 * ("ikk_percpu"): that copy is only the initial image.  Each CPU gets a copy of the whole
 * section (made when the CPU is first named, from the image), and the accessors add that
 * CPU's offset to the variable's address.  So any lvalue inside a per-CPU variable (a
 * member of a per-CPU struct, an element of a per-CPU array) is per-CPU too, for every CPU
 * of the run: this_cpu_inc(stats.count) counts for the CPU whose callback runs.
 */
#ifndef __LINUX_PERCPU_H
#define __LINUX_PERCPU_H
#include <linux/types.h>

#define __ikk_percpu __attribute__((__section__("ikk_percpu")))
#define DEFINE_PER_CPU(type, name) __ikk_percpu __typeof__(type) name
#define DECLARE_PER_CPU(type, name) extern __ikk_percpu __typeof__(type) name
#define DEFINE_PER_CPU_READ_MOSTLY(type, name) DEFINE_PER_CPU(type, name)
#define DECLARE_PER_CPU_READ_MOSTLY(type, name) DECLARE_PER_CPU(type, name)
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name) \
	__attribute__((__aligned__(64))) DEFINE_PER_CPU(type, name)
#define DECLARE_PER_CPU_SHARED_ALIGNED(type, name) DECLARE_PER_CPU(type, name)
#define DEFINE_PER_CPU_ALIGNED(type, name) DEFINE_PER_CPU_SHARED_ALIGNED(type, name)

/* The offset of CPU cpu's copy from the image; the copy is made on first use. */
extern long ikk_percpu_offsets[IKK_NR_CPUS_SHIM] __attribute__((visibility("hidden")));
long ikk_percpu_setup(int cpu) __attribute__((visibility("hidden")));
static inline long __ikk_percpu_off(int cpu)
{
	long off = ikk_percpu_offsets[cpu];
	return off ? off : ikk_percpu_setup(cpu);
}

#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))((unsigned long)(ptr) + (unsigned long)__ikk_percpu_off((int)(cpu))))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), cpu))
#define this_cpu_ptr(ptr) per_cpu_ptr(ptr, ikk_this_cpu)
#define raw_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define get_cpu_ptr(ptr) this_cpu_ptr(ptr)
#define put_cpu_ptr(ptr) do { (void)(ptr); } while (0)
#define get_cpu_var(var) (*this_cpu_ptr(&(var)))
#define put_cpu_var(var) do { (void)&(var); } while (0)

/* The operations on an lvalue inside a per-CPU variable (pcp), for the running CPU. */
#define this_cpu_read(pcp) (*this_cpu_ptr(&(pcp)))
#define this_cpu_write(pcp, val) do { *this_cpu_ptr(&(pcp)) = (val); } while (0)
#define this_cpu_add(pcp, val) do { *this_cpu_ptr(&(pcp)) += (val); } while (0)
#define this_cpu_sub(pcp, val) do { *this_cpu_ptr(&(pcp)) -= (val); } while (0)
#define this_cpu_inc(pcp) this_cpu_add(pcp, 1)
#define this_cpu_dec(pcp) this_cpu_sub(pcp, 1)
#define this_cpu_and(pcp, val) do { *this_cpu_ptr(&(pcp)) &= (val); } while (0)
#define this_cpu_or(pcp, val) do { *this_cpu_ptr(&(pcp)) |= (val); } while (0)
#define this_cpu_add_return(pcp, val) ({ __typeof__(pcp) *__p = this_cpu_ptr(&(pcp)); \
	*__p += (val); *__p; })
#define this_cpu_sub_return(pcp, val) this_cpu_add_return(pcp, -(__typeof__(pcp))(val))
#define this_cpu_inc_return(pcp) this_cpu_add_return(pcp, 1)
#define this_cpu_dec_return(pcp) this_cpu_add_return(pcp, -1)
#define this_cpu_xchg(pcp, nval) ({ __typeof__(pcp) *__p = this_cpu_ptr(&(pcp)); \
	__typeof__(pcp) __old = *__p; *__p = (nval); __old; })
#define this_cpu_cmpxchg(pcp, oval, nval) ({ __typeof__(pcp) *__p = this_cpu_ptr(&(pcp)); \
	__typeof__(pcp) __old = *__p; if (__old == (oval)) *__p = (nval); __old; })

/* The __this_cpu_ and raw_cpu_ forms: the same here (a callback is never preempted). */
#define __this_cpu_read(pcp) this_cpu_read(pcp)
#define __this_cpu_write(pcp, val) this_cpu_write(pcp, val)
#define __this_cpu_add(pcp, val) this_cpu_add(pcp, val)
#define __this_cpu_sub(pcp, val) this_cpu_sub(pcp, val)
#define __this_cpu_inc(pcp) this_cpu_inc(pcp)
#define __this_cpu_dec(pcp) this_cpu_dec(pcp)
#define __this_cpu_and(pcp, val) this_cpu_and(pcp, val)
#define __this_cpu_or(pcp, val) this_cpu_or(pcp, val)
#define __this_cpu_add_return(pcp, val) this_cpu_add_return(pcp, val)
#define __this_cpu_inc_return(pcp) this_cpu_inc_return(pcp)
#define __this_cpu_dec_return(pcp) this_cpu_dec_return(pcp)
#define raw_cpu_read(pcp) this_cpu_read(pcp)
#define raw_cpu_write(pcp, val) this_cpu_write(pcp, val)
#define raw_cpu_add(pcp, val) this_cpu_add(pcp, val)
#define raw_cpu_inc(pcp) this_cpu_inc(pcp)
#define raw_cpu_dec(pcp) this_cpu_dec(pcp)
#endif
