/*
 * idlekit's kernel shim: the bridge between idlekit and a kernel governor file compiled
 * against the shim (src/kshim/include).  The shared object built from the governor file
 * and ikk_runtime.c exports the functions below; idlekit (src/core/gov_kernel.c) looks
 * them up with dlsym and calls them.  Plain C types only: this header is compiled on both
 * sides, once with the kernel's dialect and headers, once with idlekit's.
 *
 * One loaded copy of the object is one machine: the governor's file-scope state
 * (per-CPU variables, module parameters, the flags of the _once printks) lives in it, so
 * every simulation or replay loads its own copy.
 */
#ifndef IKK_BRIDGE_H
#define IKK_BRIDGE_H

/* Bump on any change to this header or to what the shim headers mean (cache key). */
#define IKK_BRIDGE_VERSION 4
#define IKK_NR_CPUS 8192
#define IKK_STATE_MAX 10

/* The services a governor calls, answered by idlekit for the CPU `dev` (its ik_device). */
struct ikk_host {
	long long (*sleep_length)(void *dev, long long *delta_next); /* tick_nohz_get_sleep_length */
	int (*tick_stopped)(void *dev);                             /* tick_nohz_tick_stopped */
	int (*got_tick)(void *dev);                                 /* tick_nohz_idle_got_tick */
	long long (*latency_req)(void *dev);                        /* cpuidle_governor_latency_req */
	unsigned long long (*poll_time)(void *dev);                 /* cpuidle_poll_time */
	long long (*now_ns)(void *dev);                             /* local_clock, ktime_get */
	long long (*next_event_ns)(void *dev);  /* tick_nohz_get_next_hrtimer: absolute ns */
	void (*log)(const char *msg);                               /* printk, WARN */
	int hz;
	long long tick_nsec;
	int ncpus; /* the machine's CPUs (nr_cpu_ids); 0: not known (the CPUs enabled so far) */
};

/* One state of the driver's table, as idlekit's core normalised it. */
struct ikk_state {
	char name[16];
	char desc[32];
	long long exit_latency_ns;
	long long target_residency_ns;
	unsigned exit_latency;     /* us */
	unsigned target_residency; /* us */
	int power_usage;
	unsigned flags;
};

/*
 * A CPU's device fields, copied in before each governor call and out after it: the
 * kernel's struct cpuidle_device is private to the shim.
 */
struct ikk_dev {
	int cpu;
	int last_state_idx;
	int poll_time_limit;
	unsigned long long last_residency_ns;
	unsigned long long poll_limit_ns;
	unsigned long long disable[IKK_STATE_MAX];
	unsigned long long usage[IKK_STATE_MAX];
	unsigned long long time_ns[IKK_STATE_MAX];
	unsigned long long above[IKK_STATE_MAX];
	unsigned long long below[IKK_STATE_MAX];
	unsigned long long rejected[IKK_STATE_MAX];
	unsigned long cpu_util;     /* sched_cpu_util() */
	unsigned long cpu_capacity; /* arch_scale_cpu_capacity() */
	unsigned nr_iowaiters;      /* nr_iowait_cpu() */
};

/* Parameter types of module_param(), for listing. */
struct ikk_param_info {
	const char *name;
	const char *type; /* "uint", "int", "bool", ... as written in module_param() */
};

/*
 * The entry points (names as exported).  Loading is two steps, with the module parameters
 * set between them as the kernel sets them before a module's init: ikk_prepare takes the
 * host and the driver's table, ikk_init runs the file's initcalls and finds the registered
 * governor; each 0, or -1 with a message.  The others return what the governor's callback
 * returns (enable: 0 or a -errno).
 */
typedef int (*ikk_prepare_fn)(const struct ikk_host *host, const struct ikk_state *states,
			      int state_count, const char *driver_name, int bridge_version,
			      char *err, unsigned long errlen);
typedef int (*ikk_init_fn)(char *err, unsigned long errlen);
typedef const char *(*ikk_name_fn)(void);
typedef int (*ikk_enable_fn)(void *cookie, struct ikk_dev *io);
typedef void (*ikk_disable_fn)(void *cookie, struct ikk_dev *io);
typedef int (*ikk_select_fn)(void *cookie, struct ikk_dev *io, int *stop_tick);
typedef void (*ikk_reflect_fn)(void *cookie, struct ikk_dev *io, int index);
typedef int (*ikk_param_count_fn)(void);
/* Parameter i: its name and type; its value as text in buf.  -1 if no such parameter. */
typedef int (*ikk_param_get_fn)(int i, struct ikk_param_info *info, char *buf,
				unsigned long len);
/* Set by name from text: 0, -1 (no such parameter), -2 (bad value, message in err). */
typedef int (*ikk_param_set_fn)(const char *name, const char *value, char *err,
				unsigned long errlen);

#endif
