/*
 * idlekit kernel shim: <linux/cpumask.h>: the CPUs of the run are possible, present and
 * online, numbered 0 to nr_cpu_ids - 1 (the simulated machine's CPU count; where idlekit
 * does not know it, as in govreplay, the CPUs enabled so far, at least one).
 */
#ifndef __LINUX_CPUMASK_H
#define __LINUX_CPUMASK_H
#include <linux/types.h>
#include <linux/bitops.h>
unsigned int ikk_nr_cpus(void) __attribute__((visibility("hidden")));
#define nr_cpu_ids ikk_nr_cpus()
#define NR_CPUS IKK_NR_CPUS_SHIM
#define CONFIG_NR_CPUS IKK_NR_CPUS_SHIM
#define num_possible_cpus() nr_cpu_ids
#define num_present_cpus() nr_cpu_ids
#define num_online_cpus() nr_cpu_ids
#define num_active_cpus() nr_cpu_ids
#define cpu_possible(cpu) ((unsigned int)(cpu) < nr_cpu_ids)
#define cpu_present(cpu) cpu_possible(cpu)
#define cpu_online(cpu) cpu_possible(cpu)
#define cpu_active(cpu) cpu_possible(cpu)
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (unsigned int)(cpu) < nr_cpu_ids; (cpu)++)
#define for_each_present_cpu(cpu) for_each_possible_cpu(cpu)
#define for_each_online_cpu(cpu) for_each_possible_cpu(cpu)
#define for_each_cpu(cpu, mask) \
	for ((cpu) = 0; (unsigned int)(cpu) < nr_cpu_ids; (cpu)++) if (!cpumask_test_cpu(cpu, mask)) ; else

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(IKK_NR_CPUS_SHIM)];
};
typedef struct cpumask cpumask_t;
typedef struct cpumask cpumask_var_t[1];
#define cpumask_bits(m) ((m)->bits)
static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m) { return test_bit((unsigned long)cpu, m->bits); }
static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m) { __set_bit(cpu, m->bits); }
static inline void cpumask_clear_cpu(int cpu, struct cpumask *m) { __clear_bit((unsigned long)cpu, m->bits); }
static inline void cpumask_clear(struct cpumask *m)
{
	for (unsigned i = 0; i < BITS_TO_LONGS(IKK_NR_CPUS_SHIM); i++)
		m->bits[i] = 0;
}
static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int n = 0;
	for (unsigned i = 0; i < BITS_TO_LONGS(IKK_NR_CPUS_SHIM); i++)
		n += (unsigned int)hweight64(m->bits[i]);
	return n;
}
/* The mask of one CPU (a fresh one each call, in the caller's frame). */
#define cpumask_of(cpu) ({ static struct cpumask __ikk_m; cpumask_clear(&__ikk_m); \
	cpumask_set_cpu(cpu, &__ikk_m); (const struct cpumask *)&__ikk_m; })
#endif
