/*
 * idlekit: the cpuidle core's data model and services.
 *
 * This mirrors what drivers/cpuidle offers governors in the kernel: a driver's state table
 * (shared by all its CPUs), a per-CPU device with per-state usage records, and the few
 * services a governor may call (sleep length, tick state, latency limit, poll time).
 * Governors see nothing else, which is what lets the same governor code run inside the
 * simulator, on a replayed trace and in the decision-stream harness.
 *
 * Units: every time is int64/uint64 nanoseconds unless the name says otherwise (the u32
 * microsecond mirrors exit_latency/target_residency exist because the kernel has them and
 * sysfs prints them).
 */
#ifndef IDLEKIT_CPUIDLE_H
#define IDLEKIT_CPUIDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idlekit/kernel.h"

#define IK_STATE_MAX 10 /* CPUIDLE_STATE_MAX */
#define IK_NAME_LEN 16
#define IK_DESC_LEN 32

/* State flags: the same bits as include/linux/cpuidle.h. */
#define IK_FLAG_POLLING (1u << 0)
#define IK_FLAG_COUPLED (1u << 1)
#define IK_FLAG_TIMER_STOP (1u << 2)
#define IK_FLAG_UNUSABLE (1u << 3)
#define IK_FLAG_OFF (1u << 4)
#define IK_FLAG_TLB_FLUSHED (1u << 5)
#define IK_FLAG_RCU_IDLE (1u << 6)

/* Bits of ik_device.states_disable[] (the kernel's cpuidle_state_usage.disable). */
#define IK_DISABLE_USER (1u << 0)
#define IK_DISABLE_DRIVER (1u << 1)

#define IK_NSEC_PER_USEC 1000LL
#define IK_NSEC_PER_MSEC 1000000LL
#define IK_NSEC_PER_SEC 1000000000LL
#define IK_KTIME_MAX INT64_MAX
#define IK_RESIDENCY_THRESHOLD_NS (15 * IK_NSEC_PER_USEC) /* governors/gov.h */
/* 7.1 (governors/gov.h, SAFE_TIMER_RANGE_NS = 2 * TICK_NSEC): with the tick stopped, a timer
   this many tick periods away or sooner is safety net enough for a shallow state. */
#define IK_SAFE_TIMER_RANGE_TICKS 2
#define IK_POLL_MIN_NS (10 * IK_NSEC_PER_USEC)            /* poll_state.c POLL_MIN */
/* cpu_latency_qos default (2000 s) in ns: what latency_req is with no constraint. */
#define IK_LATENCY_REQ_NONE_NS 2000000000000LL

/* struct cpuidle_state: one entry of a driver's table. */
struct ik_state {
	char name[IK_NAME_LEN];
	char desc[IK_DESC_LEN];
	int64_t exit_latency_ns;
	int64_t target_residency_ns;
	uint32_t exit_latency;     /* us */
	uint32_t target_residency; /* us */
	int power_usage;           /* mW, -1 = unknown (sysfs prints it unsigned) */
	unsigned flags;
};

/* struct cpuidle_driver: the state table, ordered shallow to deep. */
struct ik_driver {
	char name[IK_NAME_LEN];
	struct ik_state states[IK_STATE_MAX];
	int state_count;
	bool bctimer; /* some state has TIMER_STOP: broadcast timer needed */
};

/* struct cpuidle_state_usage: per CPU, per state (its disable bits: ik_device.states_disable). */
struct ik_state_usage {
	uint64_t usage;
	uint64_t time_ns;
	uint64_t above;
	uint64_t below;
	uint64_t rejected;
	/* not in sysfs: the time of the entries counted in above and below, for an accuracy
	   weighted by time (docs/json-schema.md) */
	uint64_t above_time_ns;
	uint64_t below_time_ns;
};

/*
 * What the idle loop and the tick code know at one idle entry; the host (simulator,
 * govreplay, trace replay) fills it in before calling the governor's select.
 */
struct ik_idle_inputs {
	int64_t sleep_length_ns; /* tick_nohz_get_sleep_length() return value */
	int64_t delta_next_ns;   /* its *delta_next: time to the next clock event */
	bool tick_stopped;       /* tick_nohz_tick_stopped() */
	bool got_tick;           /* tick_nohz_idle_got_tick(), as read by reflect */
	int64_t latency_req_ns;  /* cpuidle_governor_latency_req() */
	int64_t now_ns;          /* local_clock(): the world's time (kernel-source governors) */
	unsigned nr_iowaiters;   /* nr_iowait_cpu(): tasks of this CPU waiting on I/O (menu < 6.13) */
	/* sched_cpu_util() and arch_scale_cpu_capacity() (teo 6.3-6.10 compares the two); the
	   host fills cpu_util, ik_device_init sets the capacity to SCHED_CAPACITY_SCALE (1024) */
	unsigned long cpu_util;
	unsigned long cpu_capacity;
};

/* Module parameters of the haltpoll governor (drivers/cpuidle/governors/haltpoll.c). */
struct ik_haltpoll_params {
	uint64_t guest_halt_poll_ns;       /* 200000 */
	unsigned guest_halt_poll_shrink;   /* 2 */
	unsigned guest_halt_poll_grow;     /* 2 */
	uint64_t guest_halt_poll_grow_start; /* 50000 */
	bool guest_halt_poll_allow_shrink; /* true */
};

struct ik_governor;

/* struct cpuidle_device: one per CPU. */
/* (What every idle entry reads comes first and the per-state counters last: a simulated
   machine has hundreds of these, each out of the cache when its CPU idles again.) */
struct ik_device {
	int cpu;
	bool poll_time_limit;
	int last_state_idx;
	uint64_t last_residency_ns;
	uint64_t poll_limit_ns;
	int64_t tick_nsec; /* TICK_NSEC of the kernel's HZ */
	const struct ik_kernel *kernel; /* the release's switches; ik_device_init: 6.19 */
	void *governor_data;           /* owned by the governor's enable/disable */
	const struct ik_governor *governor; /* the ops running on this device (ik_governor_enable) */
	uint64_t sleep_length_queries; /* how often the governor asked (diagnostic) */
	struct ik_idle_inputs in;
	const struct ik_haltpoll_params *haltpoll; /* NULL = defaults */
	/*
	 * states_usage[i].disable in the kernel: IK_DISABLE_* bits, any bit set = disabled.
	 * Kept apart from the counters, with the fields above, because a governor reads every
	 * state's bits at every select while the counters are written only for the state
	 * entered: beside the counters each state's bits cost a cache line of their own.
	 */
	unsigned char states_disable[IK_STATE_MAX];
	struct ik_state_usage states_usage[IK_STATE_MAX];
};

/* TICK_NSEC = (1e9 + HZ/2) / HZ. */
int64_t ik_tick_nsec(int hz);

/*
 * __cpuidle_driver_init(): unit normalisation (the us value wins when non-zero, negative ns
 * clamp to 0, else the us mirror is derived) and bctimer.  Also checks what the kernel
 * assumes (1..IK_STATE_MAX states); returns 0, or -1 with a message in err.
 */
int ik_driver_init(struct ik_driver *drv, char *err, size_t errlen);

/* cpuidle_poll_state_init(): fills states[0] as the core's POLL state. */
void ik_poll_state_init(struct ik_driver *drv);

/*
 * cpuidle device registration: zeroed counters, UNUSABLE -> driver disable bit, OFF -> user
 * disable bit, last_state_idx = -1, latency_req = none, tick_nsec from hz.
 */
void ik_device_init(struct ik_device *dev, const struct ik_driver *drv, int cpu, int hz);

static inline bool ik_state_disabled(const struct ik_device *dev, int i)
{
	return dev->states_disable[i] != 0;
}

/*
 * Services a governor calls (the kernel's names in comments).  The four that only read or
 * clear a field of the device are C99 inline functions: a governor compiled with this
 * header reads the field directly (they run at every idle entry), and src/core/device.c
 * holds their external definitions for code that takes their address or does not inline.
 */
inline int64_t ik_sleep_length(struct ik_device *dev, int64_t *delta_next) /* tick_nohz_get_sleep_length */
{
	dev->sleep_length_queries++;
	*delta_next = dev->in.delta_next_ns;
	return dev->in.sleep_length_ns;
}
inline bool ik_tick_stopped(const struct ik_device *dev) /* tick_nohz_tick_stopped */
{
	return dev->in.tick_stopped;
}
/* Self-clearing, as tick_nohz_idle_got_tick() is. */
inline bool ik_got_tick(struct ik_device *dev) /* tick_nohz_idle_got_tick */
{
	bool got = dev->in.got_tick;

	dev->in.got_tick = false;
	return got;
}
inline int64_t ik_latency_req(const struct ik_device *dev) /* cpuidle_governor_latency_req */
{
	return dev->in.latency_req_ns;
}
uint64_t ik_poll_time(const struct ik_driver *drv, struct ik_device *dev); /* cpuidle_poll_time */

/* find_deepest_state() without the s2idle case; returns 0 if no state qualifies. */
int ik_find_deepest_state(const struct ik_driver *drv, const struct ik_device *dev,
			  uint64_t max_latency_ns, unsigned forbidden_flags);

/*
 * cpuidle_enter_state() accounting once the driver returned: entered >= 0 is the state the
 * driver reports, measured_ns = t1 - t0 (entry and exit included, as the kernel measures).
 * Sets last_residency_ns, usage, time, above, below.  (Inline: it runs at every idle exit.)
 */
static inline void ik_account_entered(const struct ik_driver *drv, struct ik_device *dev,
				      int entered, int64_t measured_ns)
{
	struct ik_state_usage *u = &dev->states_usage[entered];
	int64_t diff = measured_ns;

	dev->last_residency_ns = (uint64_t)diff;
	u->time_ns += (uint64_t)diff;
	u->usage++;

	if (diff < drv->states[entered].target_residency_ns) {
		/* Too deep, but only if a shallower state could have been chosen. */
		for (int i = entered - 1; i >= 0; i--) {
			if (ik_state_disabled(dev, i))
				continue;
			u->above++;
			u->above_time_ns += (uint64_t)diff;
			break;
		}
	} else if (diff > drv->states[entered].exit_latency_ns) {
		/* Too shallow: only the first enabled deeper state is checked. */
		for (int i = entered + 1; i < drv->state_count; i++) {
			if (ik_state_disabled(dev, i))
				continue;
			if (diff - drv->states[entered].exit_latency_ns >=
			    drv->states[i].target_residency_ns) {
				u->below++;
				u->below_time_ns += (uint64_t)diff;
			}
			break;
		}
	}
}
/* A rejected entry (resched pending or driver refused): last_residency = 0, rejected++. */
void ik_account_rejected(struct ik_device *dev, int index);

/* PM QoS: min(per-CPU resume latency, global cpu latency limit) in us -> ns. */
struct ik_pm_qos {
	int64_t global_us;  /* cpu_latency_qos_limit(); 2000000000 = none */
	int64_t per_cpu_us; /* dev_pm_qos_raw_resume_latency(); INT32_MAX = none */
};
void ik_pm_qos_init(struct ik_pm_qos *q);
int64_t ik_pm_qos_latency_req_ns(const struct ik_pm_qos *q);

#endif
