/*
 * idlekit kernel shim: <linux/cpuidle.h>: the driver, state, usage, device and governor
 * structures a governor reads and the core's services it calls.  Fields are those of the
 * v5.10-v6.19 releases, or of v5.4 (microseconds) when idlekit compiles for it; what only the real core uses (kobjects, coupled states, the
 * driver's callbacks' arguments) is kept as opaque members so that initialisers compile.
 * idlekit's core fills these in from its own model before every governor callback and
 * reads back what a governor may write (last_state_idx, poll_limit_ns, poll_time_limit).
 */
#ifndef _LINUX_CPUIDLE_H
#define _LINUX_CPUIDLE_H
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bits.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/ktime.h>
#include <linux/version.h>

#define CPUIDLE_STATE_MAX 10
#define CPUIDLE_NAME_LEN 16
#define CPUIDLE_DESC_LEN 32

struct module;
struct cpuidle_device;
struct cpuidle_driver;
struct cpumask;

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 5, 0)
/* The v5.4 layout (read in the v5.4.6 tree): microseconds, no _ns mirrors, no rejected. */
struct cpuidle_state_usage {
	unsigned long long disable;
	unsigned long long usage;
	unsigned long long time; /* us */
	unsigned long long above;
	unsigned long long below;
	unsigned long long s2idle_usage;
	unsigned long long s2idle_time;
};

struct cpuidle_state {
	char name[CPUIDLE_NAME_LEN];
	char desc[CPUIDLE_DESC_LEN];
	unsigned int flags;
	unsigned int exit_latency;     /* us */
	int power_usage;               /* mW */
	unsigned int target_residency; /* us */
	bool disabled;                 /* on all CPUs */
	int (*enter)(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index);
	int (*enter_dead)(struct cpuidle_device *dev, int index);
	void (*enter_s2idle)(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index);
};
#else
struct cpuidle_state_usage {
	unsigned long long disable;
	unsigned long long usage;
	u64 time_ns;
	unsigned long long above;
	unsigned long long below;
	unsigned long long rejected;
	unsigned long long s2idle_usage;
	unsigned long long s2idle_time;
};

struct cpuidle_state {
	char name[CPUIDLE_NAME_LEN];
	char desc[CPUIDLE_DESC_LEN];
	s64 exit_latency_ns;
	s64 target_residency_ns;
	unsigned int flags;
	unsigned int exit_latency;     /* us */
	int power_usage;               /* mW */
	unsigned int target_residency; /* us */
	int (*enter)(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index);
	void (*enter_dead)(struct cpuidle_device *dev, int index);
	int (*enter_s2idle)(struct cpuidle_device *dev, struct cpuidle_driver *drv, int index);
};
#endif

#define CPUIDLE_FLAG_NONE (0x00)
#define CPUIDLE_FLAG_POLLING BIT(0)
#define CPUIDLE_FLAG_COUPLED BIT(1)
#define CPUIDLE_FLAG_TIMER_STOP BIT(2)
#define CPUIDLE_FLAG_UNUSABLE BIT(3)
#define CPUIDLE_FLAG_OFF BIT(4)
#define CPUIDLE_FLAG_TLB_FLUSHED BIT(5)
#define CPUIDLE_FLAG_RCU_IDLE BIT(6)
#define CPUIDLE_FLAG_INIT_XSTATE BIT(7)
#define CPUIDLE_FLAG_PARTIAL_HINT_MATCH BIT(8)
#define CPUIDLE_FLAG_IBRS BIT(16)

#define CPUIDLE_STATE_DISABLED_BY_USER BIT(0)
#define CPUIDLE_STATE_DISABLED_BY_DRIVER BIT(1)

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 5, 0)
struct cpuidle_device {
	unsigned int registered:1;
	unsigned int enabled:1;
	unsigned int use_deepest_state:1;
	unsigned int poll_time_limit:1;
	unsigned int cpu;
	ktime_t next_hrtimer;
	int last_state_idx;
	int last_residency; /* us */
	u64 poll_limit_ns;
	struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];
	void *kobjs[CPUIDLE_STATE_MAX];
	void *kobj_driver;
	void *kobj_dev;
	struct list_head device_list;
};
#else
struct cpuidle_device {
	unsigned int registered:1;
	unsigned int enabled:1;
	unsigned int poll_time_limit:1;
	unsigned int cpu;
	ktime_t next_hrtimer;
	int last_state_idx;
	u64 last_residency_ns;
	u64 poll_limit_ns;
	u64 forced_idle_latency_limit_ns;
	struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];
	void *kobjs[CPUIDLE_STATE_MAX];
	void *kobj_driver;
	void *kobj_dev;
	struct list_head device_list;
};
#endif

struct cpuidle_driver {
	const char *name;
	struct module *owner;
	unsigned int bctimer:1;
	struct cpuidle_state states[CPUIDLE_STATE_MAX];
	int state_count;
	int safe_state_index;
	struct cpumask *cpumask;
	const char *governor;
};

struct cpuidle_governor {
	char name[CPUIDLE_NAME_LEN];
	struct list_head governor_list;
	unsigned int rating;
	int (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	void (*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	int (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev, bool *stop_tick);
	void (*reflect)(struct cpuidle_device *dev, int index);
};

/* The core's services. */
int cpuidle_register_governor(struct cpuidle_governor *gov);
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 5, 0)
int cpuidle_governor_latency_req(unsigned int cpu); /* us */
#else
s64 cpuidle_governor_latency_req(unsigned int cpu);
#endif
u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev);
struct cpuidle_driver *cpuidle_get_driver(void);
struct cpuidle_driver *cpuidle_get_cpu_driver(struct cpuidle_device *dev);
DECLARE_PER_CPU(struct cpuidle_device *, cpuidle_devices);
#endif
