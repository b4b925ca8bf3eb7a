// idlekit test governor (written for idlekit, not kernel code): it uses every kernel symbol
// and header the shim serves for realistic patches beyond the governor API itself, and at
// its first four decisions prints what each returns (kgov.sh compares the lines with
// api.log.expected; input: api.input).  It returns the deepest state whose exit latency fits
// cpu_latency_qos_limit(), the model's PM QoS limit.

#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/cpuidle.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/pm_qos.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>

struct api_stats {
	u64 selects;
	u64 sum;
};

static DEFINE_PER_CPU(struct api_stats, api_stats);
static DEFINE_STATIC_KEY_FALSE(api_key);
static DEFINE_SPINLOCK(api_lock);
static atomic_t api_calls = ATOMIC_INIT(0);

/* a parameter with its own set: param_set_uint, then a ceiling of 100 */
static unsigned int ceiling = 7;
static int ceiling_set(const char *val, const struct kernel_param *kp)
{
	int rc = param_set_uint(val, kp);
	if (!rc && *(unsigned int *)kp->arg > 100)
		*(unsigned int *)kp->arg = 100;
	return rc;
}
static const struct kernel_param_ops ceiling_ops = {
	.set = ceiling_set,
	.get = param_get_uint,
};
module_param_cb(ceiling, &ceiling_ops, &ceiling, 0644);

static unsigned int weights[4] = { 1, 1 };
static unsigned int nweights = 2;
module_param_array(weights, uint, &nweights, 0444);

static bool use_key;
module_param(use_key, bool, 0444);

static unsigned long first_jiffies;

static int api_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		      bool *stop_tick)
{
	int calls = atomic_inc_return(&api_calls);
	unsigned long flags;
	ktime_t delta_next;
	s64 now = ktime_get();
	s32 rem;
	s64 q;
	int cpu, ncpus = 0, i, idx = 0;
	unsigned int wsum = 0;
	volatile unsigned long sq = 1000000, lg = 1000;
	u32 *scratch;
	const u8 vals[3] = { 7, 2, 9 };

	tick_nohz_get_sleep_length(&delta_next);
	this_cpu_inc(api_stats.selects);
	__this_cpu_inc(api_stats.selects);
	this_cpu_add(api_stats.sum, 5);
	if (calls == 1)
		first_jiffies = jiffies;

	for (i = 1; i < drv->state_count; i++)
		if (drv->states[i].exit_latency_ns <= (s64)cpu_latency_qos_limit() * NSEC_PER_USEC)
			idx = i;

	if (calls > 4)
		return idx;

	spin_lock_irqsave(&api_lock, flags);
	spin_unlock_irqrestore(&api_lock, flags);
	cpus_read_lock();
	for_each_possible_cpu(cpu)
		ncpus++;
	cpus_read_unlock();
	for (i = 0; i < nweights; i++)
		wsum += weights[i];
	q = div_s64_rem(-7, 2, &rem);

	pr_info("api: decision %d: jiffies %lu, time_after(jiffies, first) %d, now %lld\n",
		calls, jiffies, time_after(jiffies, first_jiffies), now);
	pr_info("api: tick_nohz_get_next_hrtimer - now %lld, delta_next %lld\n",
		tick_nohz_get_next_hrtimer() - now, delta_next);
	pr_info("api: ktime_get_mono_fast_ns - now %lld\n", (s64)ktime_get_mono_fast_ns() - now);
	pr_info("api: cpu_latency_qos_limit %d, idle_cpu(this) %d, idle_cpu(1) %d\n",
		cpu_latency_qos_limit(), idle_cpu(smp_processor_id()), idle_cpu(1));
	pr_info("api: nr_cpu_ids %u, possible CPUs %d\n", nr_cpu_ids, ncpus);
	pr_info("api: per-CPU selects %llu, sum %llu\n", this_cpu_read(api_stats.selects),
		this_cpu_read(api_stats.sum));
	if (calls > 1)
		return idx;
	scratch = kzalloc(16 * sizeof(*scratch), GFP_KERNEL);
	pr_info("api: msecs_to_jiffies(10) %lu, usecs_to_jiffies(4001) %lu, "
		"nsecs_to_jiffies(7999999) %lu\n", msecs_to_jiffies(10), usecs_to_jiffies(4001),
		nsecs_to_jiffies(7999999));
	pr_info("api: div_s64_rem(-7, 2) %lld rem %d, mul_u64_u64_div_u64 %llu\n", q, rem,
		mul_u64_u64_div_u64(1ULL << 40, 1ULL << 40, 1ULL << 50));
	pr_info("api: mul_u64_u64_div_u64_roundup(10, 10, 3) %llu, "
		"mul_u64_add_u64_div_u64(10, 10, 5, 3) %llu, mul_u64_u32_div(2^40, 3, 2) %llu\n",
		mul_u64_u64_div_u64_roundup(10, 10, 3), mul_u64_add_u64_div_u64(10, 10, 5, 3),
		mul_u64_u32_div(1ULL << 40, 3, 2));
	pr_info("api: abs(3u - 5u) %d, abs_diff(3u, 5u) %u, DIV_ROUND_CLOSEST(-7, 2) %d\n",
		abs(3u - 5u), abs_diff(3u, 5u), DIV_ROUND_CLOSEST(-7, 2));
	pr_info("api: int_sqrt %lu %lu, ilog2 %d %d, fls64 %d %d\n", int_sqrt(sq),
		int_sqrt(99), ilog2(4096), ilog2(lg), fls64(1ULL << 40), fls64(0));
	/* in_range() wraps round in 32 bits when all three fit there, else in 64 */
	pr_info("api: in_range(2u, 0xfffffff0u, 0x20u) %d, in_range(2ul, ...) %d, "
		"in_range(2u, 3u, 5u) %d, min_array %d, max_array %d\n",
		in_range((u32)(sq / 500000), 0xfffffff0u, 0x20u),
		in_range(sq / 500000, 0xfffffff0u, 0x20u), in_range((u32)(sq / 500000), 3u, 5u),
		min_array(vals, 3), max_array(vals, 3));
	pr_info("api: min_not_zero %d %d, hweight32 %u, __ffs %lu, roundup_pow_of_two %lu\n",
		min_not_zero(0, 5), min_not_zero(3, 5), hweight32(0xff), __ffs(8),
		roundup_pow_of_two(5));
	pr_info("api: static key %d, ceiling %u, weights %u of sum %u, kzalloc %s\n",
		static_branch_unlikely(&api_key) ? 1 : 0, ceiling, nweights, wsum,
		scratch && scratch[15] == 0 ? "zeroed" : "failed");
	pr_info("api: trace_printk wrote %d bytes\n", trace_printk("api: %d\n", 12345));
	printk_ratelimited("api: printk_ratelimited\n");
	kfree(scratch);
	return idx;
}

static struct cpuidle_governor api_governor = {
	.name =		"api",
	.rating =	1,
	.select =	api_select,
};

static int __init init_api(void)
{
	if (use_key)
		static_branch_enable(&api_key);
	return cpuidle_register_governor(&api_governor);
}

postcore_initcall(init_api);
