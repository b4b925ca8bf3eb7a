// idlekit test governor (written for idlekit, not kernel code): each mode of the module
// parameter "probe" reads one input of the cpuidle governor API and encodes it in the state
// it returns, so that tests/cli/kgov.sh can check the kernel shim delivers every input.
//
//   0  sleep length (ms, clamped to the deepest state); stop_tick: delta_next == sleep length
//   1  delta_next (ms, clamped)
//   2  tick stopped: C6 (3) if stopped, else C1 (1); the tick is kept
//   3  got_tick of the previous period: 2 if woken by the tick, else 1; the tick is kept
//   4  latency limit: the deepest state whose exit latency fits it
//   5  last_residency_ns: 1 + min(ms, 2)
//   6  poll time-out of the previous period: 1 if the polling state timed out, else 0
//      (the governor clears poll_time_limit, and sets its own poll limit of 50 us)
//   7  the deepest state not disabled
//   8  local_clock(): 1 + (ms % 3)
//   9  a per-CPU count of selects, modulo the state count
//  10  HZ: 3 at 1000, 2 at 250, 1 otherwise; stop_tick: TICK_NSEC longer than 1 ms
//  11  the release compiled for: 3 from v6.19 on, 2 from v6.1, else 1 (LINUX_VERSION_CODE)
//  12  nr_iowait_cpu() of this CPU (clamped)
//  13  sched_cpu_util() * 4 / arch_scale_cpu_capacity() of this CPU (clamped)

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/sched/topology.h>
#include <linux/tick.h>
#include <linux/version.h>
#include <trace/events/power.h>

#include "gov.h"

struct probe_cpu {
	u64 selects;
	bool got_tick;
	bool poll_timeout;
};

static DEFINE_PER_CPU(struct probe_cpu, probe_cpus);

static unsigned int probe __read_mostly;
module_param(probe, uint, 0644);
MODULE_PARM_DESC(probe, "which input to encode in the choice");

static int clamp_idx(struct cpuidle_driver *drv, u64 v)
{
	return (int)min_t(u64, v, drv->state_count - 1);
}

static int probe_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	struct probe_cpu *pc = this_cpu_ptr(&probe_cpus);
	ktime_t sleep, delta_next;
	s64 latency_req;
	u64 v;
	int i, idx = 0;

	pc->selects++;
	switch (READ_ONCE(probe)) {
	case 0:
		sleep = tick_nohz_get_sleep_length(&delta_next);
		*stop_tick = delta_next == sleep;
		return clamp_idx(drv, div_u64(sleep, PROBE_UNIT_NS));
	case 1:
		tick_nohz_get_sleep_length(&delta_next);
		return clamp_idx(drv, div64_u64(delta_next, PROBE_UNIT_NS));
	case 2:
		*stop_tick = false;
		return tick_nohz_tick_stopped() ? 3 : 1;
	case 3:
		*stop_tick = false;
		return pc->got_tick ? 2 : 1;
	case 4:
		latency_req = cpuidle_governor_latency_req(dev->cpu);
		for (i = 0; i < drv->state_count; i++)
			if (drv->states[i].exit_latency_ns <= latency_req)
				idx = i;
		return idx;
	case 5:
		v = dev->last_residency_ns;
		do_div(v, PROBE_UNIT_NS);
		return 1 + (int)min_t(u64, v, 2);
	case 6:
		return pc->poll_timeout ? 1 : 0;
	case 7:
		for (i = drv->state_count - 1; i > 0; i--)
			if (!dev->states_usage[i].disable)
				break;
		return i;
	case 8:
		v = local_clock();
		return 1 + (int)(div_u64(v, PROBE_UNIT_NS) % 3);
	case 9:
		return (int)(pc->selects % drv->state_count);
	case 10:
		*stop_tick = ktime_to_us(TICK_NSEC) > 1000;
		return HZ == 1000 ? 3 : HZ == 250 ? 2 : 1;
	case 11:
		if (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 19, 0))
			return 3;
		return LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0) ? 2 : 1;
	case 12:
		return clamp_idx(drv, nr_iowait_cpu(dev->cpu));
	case 13:
		return clamp_idx(drv, sched_cpu_util(dev->cpu) * 4 /
				 arch_scale_cpu_capacity(dev->cpu));
	}
	if (unlikely(probe > 13))
		pr_warn("probe: mode %u unknown\n", probe);
	return 0;
}

static void probe_reflect(struct cpuidle_device *dev, int index)
{
	struct probe_cpu *pc = this_cpu_ptr(&probe_cpus);

	trace_cpu_idle(index, dev->cpu);
	dev->last_state_idx = index;
	pc->got_tick = tick_nohz_idle_got_tick();
	pc->poll_timeout = dev->poll_time_limit;
	dev->poll_time_limit = false;
}

static int probe_enable_device(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	struct probe_cpu *pc = per_cpu_ptr(&probe_cpus, dev->cpu);

	memset(pc, 0, sizeof(*pc));
	if (probe == 6)
		dev->poll_limit_ns = 50 * NSEC_PER_USEC;
	return 0;
}

static struct cpuidle_governor probe_governor = {
	.name =		"probe",
	.rating =	1,
	.enable =	probe_enable_device,
	.select =	probe_select,
	.reflect =	probe_reflect,
};

static int __init init_probe(void)
{
	return cpuidle_register_governor(&probe_governor);
}

postcore_initcall(init_probe);
