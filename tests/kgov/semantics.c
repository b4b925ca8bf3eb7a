// idlekit test governor (written for idlekit, not kernel code): each mode of the module
// parameter "mode" depends on one semantic of the kernel that the shim must reproduce, and
// encodes it in the state it returns (tests/kgov/semantics*.csv, kgov.sh):
//
//   0  abs() of an unsigned difference: min(abs(sleep_us - 3000u) / 1000, deepest); the
//      kernel converts the u32 difference to int first, so 1000 us gives 2, not the deepest
//   1  per-CPU struct members: this_cpu_inc(sem_stats.count) on this CPU and
//      per_cpu(sem_stats.count, 1) += 2 for CPU 1; returns CPU 0's count % 4 while CPU 1's
//      copy holds twice it (two copies), else 0
//   2  a parameter clamped by the init function: "window" (default 2) is clamped to 1..2 at
//      init, and returned; the kernel sets parameters before init, so window=3 gives 2
//   3  printing once: pr_warn_once, WARN_ON_ONCE and printk_ratelimited at every select
//   4  per-CPU members on every CPU of a simulation: each CPU counts its selects in its own
//      copy and says so at its 100th; a copy that holds another CPU's number is reported
//   5  idle_cpu() of the other CPUs from the simulator's model: each CPU counts, at every
//      select, how many of the others are idle, and says the totals at its 200th select,
//      with the sum of every CPU's per-CPU count read through per_cpu_ptr() beside the
//      number of selects on all CPUs (the two are equal when each CPU's copy is its own)
//   6  the jiffies conversions at the run's HZ, printed at the first select (kgov.sh holds
//      them against the kernel's results at HZ 250 and 300)

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/tick.h>

struct sem_stats {
	u64 count;
	int cpu;
	bool seen;
	u64 others, others_idle;
};

static DEFINE_PER_CPU(struct sem_stats, sem_stats);

static atomic64_t selects = ATOMIC64_INIT(0);

static unsigned int mode;
module_param(mode, uint, 0444);

static unsigned int window = 2;
module_param(window, uint, 0444);

static int deepest(struct cpuidle_driver *drv)
{
	return drv->state_count - 1;
}

static int sem_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		      bool *stop_tick)
{
	ktime_t delta_next;
	s64 sleep_ns = tick_nohz_get_sleep_length(&delta_next);
	u32 sleep_us = (u32)min_t(s64, sleep_ns / NSEC_PER_USEC, U32_MAX);
	u64 c0, c1;
	int cpu = smp_processor_id(), c;

	switch (mode) {
	case 0:
		return min(abs(sleep_us - 3000u) / 1000, deepest(drv));
	case 1:
		this_cpu_inc(sem_stats.count);
		per_cpu(sem_stats.count, 1) += 2;
		c0 = per_cpu(sem_stats.count, 0);
		c1 = per_cpu(sem_stats.count, 1);
		return c1 == 2 * c0 ? (int)(c0 % 4) : 0;
	case 2:
		return min_t(int, window, deepest(drv));
	case 3:
		pr_warn_once("semantics: pr_warn_once at cpu %d\n", cpu);
		WARN_ON_ONCE(sleep_ns > 0);
		printk_ratelimited("semantics: printk_ratelimited\n");
		return 1;
	case 5:
		atomic64_inc(&selects);
		c0 = 0;
		for_each_possible_cpu(c) {
			c0 += per_cpu_ptr(&sem_stats, c)->count + (c == cpu);
			if (c == cpu)
				continue;
			this_cpu_inc(sem_stats.others);
			if (idle_cpu(c))
				this_cpu_inc(sem_stats.others_idle);
		}
		if (this_cpu_inc_return(sem_stats.count) == 200)
			pr_info("semantics: cpu %d: other CPUs idle %llu of %llu; per-CPU counts "
				"%llu, selects %lld\n", cpu, this_cpu_read(sem_stats.others_idle),
				this_cpu_read(sem_stats.others), c0,
				(long long)atomic64_read(&selects));
		return 1;
	case 6:
		if (this_cpu_inc_return(sem_stats.count) == 1)
			pr_info("semantics: HZ %d: jiffies_to_msecs(1) %u, jiffies_to_usecs(3) %u, "
				"jiffies_to_nsecs(3) %llu, jiffies64_to_nsecs(3) %llu, "
				"msecs_to_jiffies(10) %lu, usecs_to_jiffies(1431649099) %lu, "
				"usecs_to_jiffies(4294959297) %lu, nsecs_to_jiffies(10000000) %lu\n",
				HZ, jiffies_to_msecs(1), jiffies_to_usecs(3), jiffies_to_nsecs(3),
				jiffies64_to_nsecs(3), msecs_to_jiffies(10),
				usecs_to_jiffies(1431649099), usecs_to_jiffies(4294959297u),
				nsecs_to_jiffies(10000000));
		return 1;
	default:
		if (this_cpu_read(sem_stats.seen) && this_cpu_read(sem_stats.cpu) != cpu)
			pr_err("semantics: cpu %d sees cpu %d's copy\n", cpu,
			       this_cpu_read(sem_stats.cpu));
		this_cpu_write(sem_stats.cpu, cpu);
		this_cpu_write(sem_stats.seen, true);
		this_cpu_inc(sem_stats.count);
		if (this_cpu_read(sem_stats.count) == 100)
			pr_info("semantics: cpu %d: count 100\n", cpu);
		return 1;
	}
}

static struct cpuidle_governor sem_governor = {
	.name =		"semantics",
	.rating =	1,
	.select =	sem_select,
};

static int __init init_semantics(void)
{
	window = clamp(window, 1u, 2u);
	return cpuidle_register_governor(&sem_governor);
}

postcore_initcall(init_semantics);
