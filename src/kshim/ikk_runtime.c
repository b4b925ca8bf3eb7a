/*
 * idlekit kernel shim: the runtime linked with a kernel governor file into one shared
 * object.  It implements the kernel services the shim's headers declare by asking idlekit
 * (struct ikk_host), runs the file's initcalls, and exports the bridge (ikk_bridge.h) that
 * idlekit calls: a kernel struct cpuidle_driver and one struct cpuidle_device per CPU live
 * here, filled in from idlekit's model before each governor callback and read back after.
 *
 * Compiled with the shim's headers and -nostdinc like the governor file: the few C library
 * routines used are declared by hand below.  The module parameters are in ikk_params.c.
 *
 * Divisions: services (nohz, PM QoS, clocks, scheduler, printk, memory, per-CPU areas);
 * the bridge (loading in two steps, the callbacks).
 */
#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/tick.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/sched/topology.h>
#include <linux/version.h>
#include <linux/jiffies.h>
#include <linux/pm_qos.h>
#include <linux/sched.h>
#include <linux/cpumask.h>
#include <linux/slab.h>

/* v5.4: times in microseconds (cpuidle_enter_state's ktime_us_delta, capped at INT_MAX). */
#define IKK_US_API (LINUX_VERSION_CODE < KERNEL_VERSION(5, 5, 0))

#include "ikk_bridge.h"

#define IKK_EXPORT __attribute__((visibility("default")))

int snprintf(char *restrict s, unsigned long n, const char *restrict fmt, ...);
int vsnprintf(char *restrict s, unsigned long n, const char *restrict fmt, __builtin_va_list ap);
unsigned long long strtoull(const char *restrict s, char **restrict end, int base);
long long strtoll(const char *restrict s, char **restrict end, int base);
void *malloc(unsigned long size);
void *calloc(unsigned long n, unsigned long size);
void *realloc(void *p, unsigned long size);
int posix_memalign(void **p, unsigned long align, unsigned long size);
void free(void *p);

int ikk_this_cpu;
int ikk_hz = 250;
long ikk_tick_nsec = 4000000;
bool tick_nohz_enabled = true;

static const struct ikk_host *host;
static struct cpuidle_driver driver;
static struct cpuidle_device *devices[IKK_NR_CPUS]; /* allocated as each CPU is enabled */
static void *cookies[IKK_NR_CPUS];
static unsigned long utils[IKK_NR_CPUS];      /* sched_cpu_util(), as idlekit last said */
static unsigned long capacities[IKK_NR_CPUS]; /* arch_scale_cpu_capacity() */
static unsigned iowaiters[IKK_NR_CPUS];      /* nr_iowait_cpu() */
static bool in_idle[IKK_NR_CPUS];           /* between select and reflect: idle_cpu() */
static int cpus_seen;                        /* 1 + the highest CPU enabled */
static struct cpuidle_governor *registered;
static int registrations;
static bool prepared, loaded;

DEFINE_PER_CPU(struct cpuidle_device *, cpuidle_devices);

extern const ikk_initcall_t __start_ikk_initcalls[] __attribute__((weak, visibility("hidden")));
extern const ikk_initcall_t __stop_ikk_initcalls[] __attribute__((weak, visibility("hidden")));
/* The image of the per-CPU variables (DEFINE_PER_CPU), copied once per CPU. */
extern char __start_ikk_percpu[] __attribute__((weak, visibility("hidden")));
extern char __stop_ikk_percpu[] __attribute__((weak, visibility("hidden")));
long ikk_percpu_offsets[IKK_NR_CPUS];
static void *percpu_areas[IKK_NR_CPUS];

/* ---- Services ------------------------------------------------------------------------- */

static void *cur(void)
{
	return cookies[ikk_this_cpu];
}

ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next)
{
	long long d = 0;
	long long r = host->sleep_length(cur(), &d);
	*delta_next = d;
	return r;
}

bool tick_nohz_tick_stopped(void)
{
	return host->tick_stopped(cur()) != 0;
}

bool tick_nohz_tick_stopped_cpu(int cpu)
{
	return cpu >= 0 && cpu < IKK_NR_CPUS && cookies[cpu] && host->tick_stopped(cookies[cpu]);
}

bool tick_nohz_idle_got_tick(void)
{
	return host->got_tick(cur()) != 0;
}

#if IKK_US_API
int cpuidle_governor_latency_req(unsigned int cpu)
{
	if (cpu >= IKK_NR_CPUS || !cookies[cpu])
		BUG();
	long long us = host->latency_req(cookies[cpu]) / NSEC_PER_USEC;
	return us > INT_MAX ? INT_MAX : (int)us;
}
#else
s64 cpuidle_governor_latency_req(unsigned int cpu)
{
	if (cpu >= IKK_NR_CPUS || !cookies[cpu])
		BUG();
	return host->latency_req(cookies[cpu]);
}
#endif

u64 cpuidle_poll_time(struct cpuidle_driver *drv, struct cpuidle_device *dev)
{
	(void)drv;
	return host->poll_time(cookies[dev->cpu]);
}

struct cpuidle_driver *cpuidle_get_driver(void)
{
	return &driver;
}

struct cpuidle_driver *cpuidle_get_cpu_driver(struct cpuidle_device *dev)
{
	(void)dev;
	return &driver;
}

/* The simulated time; 0 outside a callback (an initcall runs before the clock starts). */
static long long now_ns(void)
{
	return host && cur() ? host->now_ns(cur()) : 0;
}

ktime_t ktime_get(void)
{
	return now_ns();
}

u64 local_clock(void)
{
	return (u64)now_ns();
}

u64 ikk_jiffies64(void)
{
	return (u64)now_ns() / (u64)ikk_tick_nsec;
}

ktime_t tick_nohz_get_next_hrtimer(void)
{
	return host && cur() ? host->next_event_ns(cur()) : 0;
}

/* The limit the model puts on this CPU (the global one: no per-CPU limits are modelled). */
s32 cpu_latency_qos_limit(void)
{
	if (!host || !cur())
		return PM_QOS_CPU_LATENCY_DEFAULT_VALUE;
	long long us = host->latency_req(cur()) / NSEC_PER_USEC;
	return us > S32_MAX ? S32_MAX : us < 0 ? 0 : (s32)us;
}

int idle_cpu(int cpu)
{
	if (cpu == ikk_this_cpu)
		return 1;
	return cpu >= 0 && cpu < IKK_NR_CPUS && in_idle[cpu];
}

unsigned int ikk_nr_cpus(void)
{
	if (host && host->ncpus > 0)
		return (unsigned int)host->ncpus;
	return cpus_seen > 0 ? (unsigned int)cpus_seen : 1;
}

u64 sched_clock(void)
{
	return local_clock();
}

/* The tasks waiting on I/O that idlekit handed in with the CPU's last callback. */
unsigned int nr_iowait_cpu(int cpu)
{
	return cpu >= 0 && cpu < IKK_NR_CPUS ? iowaiters[cpu] : 0;
}

/* The utilisation and capacity idlekit handed in with the CPU's last callback. */
unsigned long sched_cpu_util(int cpu)
{
	return cpu >= 0 && cpu < IKK_NR_CPUS ? utils[cpu] : 0;
}

unsigned long arch_scale_cpu_capacity(int cpu)
{
	if (cpu < 0 || cpu >= IKK_NR_CPUS || !capacities[cpu])
		return SCHED_CAPACITY_SCALE;
	return capacities[cpu];
}

int cpuidle_register_governor(struct cpuidle_governor *gov)
{
	registrations++;
	if (!registered)
		registered = gov;
	return 0;
}

int printk(const char *fmt, ...)
{
	char buf[512];
	__builtin_va_list ap;

	__builtin_va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	__builtin_va_end(ap);
	if (host && host->log)
		host->log(buf);
	return n;
}

int trace_printk(const char *fmt, ...)
{
	char buf[512];
	__builtin_va_list ap;

	__builtin_va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	__builtin_va_end(ap);
	return n;
}

/* 10 messages per call site in any 5 s of simulated time, then one count of the dropped. */
bool ikk_ratelimit(struct ikk_ratelimit *rs, const char *func)
{
	long long now = now_ns();
	if (!rs->started) {
		rs->started = true;
		rs->begin_ns = now;
	}
	if (now - rs->begin_ns >= 5 * NSEC_PER_SEC) {
		if (rs->missed)
			printk("%s: %d callbacks suppressed\n", func, rs->missed);
		rs->begin_ns = now;
		rs->printed = 0;
		rs->missed = 0;
	}
	if (rs->printed < 10) {
		rs->printed++;
		return true;
	}
	rs->missed++;
	return false;
}

/* As the kernel's BUG() on x86: an illegal instruction, which idlekit reports as a crash. */
void ikk_bug(const char *file, int line)
{
	printk("kernel BUG at %s:%d\n", file, line);
	__builtin_trap();
}

/* The integer square root, rounded down: the bits of the root from the highest. */
unsigned long int_sqrt(unsigned long x)
{
	unsigned long root = 0;
	for (int bit = 31; bit >= 0; bit--) {
		unsigned long t = root | (1UL << bit);
		if (t * t <= x)
			root = t;
	}
	return root;
}

u32 int_sqrt64(u64 x)
{
	return (u32)int_sqrt((unsigned long)x);
}

void *kmalloc(size_t size, gfp_t flags)
{
	return (flags & __GFP_ZERO) ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
}

void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

void *krealloc(const void *p, size_t size, gfp_t flags)
{
	(void)flags;
	return realloc((void *)p, size ? size : 1);
}

void kfree(const void *p)
{
	free((void *)p);
}

/* CPU cpu's copy of the per-CPU variables, made from their image at its first use. */
long ikk_percpu_setup(int cpu)
{
	if (cpu < 0 || cpu >= IKK_NR_CPUS) {
		printk("per-CPU variable of CPU %d: the shim serves CPUs 0 to %d\n", cpu,
		       IKK_NR_CPUS - 1);
		ikk_bug(__FILE__, __LINE__);
	}
	unsigned long size = (unsigned long)(__stop_ikk_percpu - __start_ikk_percpu);
	void *area;
	/* page-aligned: at least as aligned as the image, so every variable keeps its alignment */
	if (posix_memalign(&area, 4096, size ? size : 1)) {
		printk("out of memory for the per-CPU variables of CPU %d\n", cpu);
		ikk_bug(__FILE__, __LINE__);
	}
	memcpy(area, __start_ikk_percpu, size);
	percpu_areas[cpu] = area;
	ikk_percpu_offsets[cpu] = (long)((char *)area - __start_ikk_percpu);
	return ikk_percpu_offsets[cpu];
}

/* ---- The bridge ----------------------------------------------------------------------- */

static void dev_in(struct cpuidle_device *d, const struct ikk_dev *io)
{
	d->cpu = (unsigned int)io->cpu;
	d->last_state_idx = io->last_state_idx;
	d->poll_time_limit = io->poll_time_limit ? 1 : 0;
#if IKK_US_API
	unsigned long long us = io->last_residency_ns / NSEC_PER_USEC;
	d->last_residency = us > INT_MAX ? INT_MAX : (int)us;
#else
	d->last_residency_ns = io->last_residency_ns;
#endif
	d->poll_limit_ns = io->poll_limit_ns;
	for (int i = 0; i < driver.state_count; i++) {
		struct cpuidle_state_usage *u = &d->states_usage[i];
		u->disable = io->disable[i];
		u->usage = io->usage[i];
		u->above = io->above[i];
		u->below = io->below[i];
#if IKK_US_API
		u->time = io->time_ns[i] / NSEC_PER_USEC;
#else
		u->time_ns = io->time_ns[i];
		u->rejected = io->rejected[i];
#endif
	}
	utils[io->cpu] = io->cpu_util;
	capacities[io->cpu] = io->cpu_capacity;
	iowaiters[io->cpu] = io->nr_iowaiters;
	ikk_this_cpu = io->cpu;
}

static void dev_out(const struct cpuidle_device *d, struct ikk_dev *io)
{
	io->last_state_idx = d->last_state_idx;
	io->poll_time_limit = d->poll_time_limit;
	io->poll_limit_ns = d->poll_limit_ns;
}

IKK_EXPORT int ikk_prepare(const struct ikk_host *h, const struct ikk_state *states, int count,
			   const char *driver_name, int bridge_version, char *err, unsigned long errlen)
{
	if (bridge_version != IKK_BRIDGE_VERSION) {
		snprintf(err, errlen, "kernel shim bridge version %d, idlekit speaks %d: rebuild",
			 IKK_BRIDGE_VERSION, bridge_version);
		return -1;
	}
	if (prepared) {
		snprintf(err, errlen, "this copy of the governor is loaded already");
		return -1;
	}
	if (count < 1 || count > CPUIDLE_STATE_MAX) {
		snprintf(err, errlen, "%d states: expected 1 to %d", count, CPUIDLE_STATE_MAX);
		return -1;
	}
	host = h;
	ikk_hz = h->hz;
	ikk_tick_nsec = (long)h->tick_nsec;
	driver.name = driver_name;
	driver.state_count = count;
	for (int i = 0; i < count; i++) {
		struct cpuidle_state *s = &driver.states[i];
		memcpy(s->name, states[i].name, sizeof(s->name));
		memcpy(s->desc, states[i].desc, sizeof(s->desc));
		s->name[sizeof(s->name) - 1] = '\0';
		s->desc[sizeof(s->desc) - 1] = '\0';
#if !IKK_US_API
		s->exit_latency_ns = states[i].exit_latency_ns;
		s->target_residency_ns = states[i].target_residency_ns;
#endif
		s->exit_latency = states[i].exit_latency;
		s->target_residency = states[i].target_residency;
		s->power_usage = states[i].power_usage;
		s->flags = states[i].flags;
		if (s->flags & CPUIDLE_FLAG_TIMER_STOP)
			driver.bctimer = 1;
	}
	prepared = true;
	return 0;
}

/* After the parameters are set: the initcalls, and the governor they registered. */
IKK_EXPORT int ikk_init(char *err, unsigned long errlen)
{
	if (!prepared || loaded) {
		snprintf(err, errlen, "this copy of the governor is %s", loaded ? "loaded already" :
			 "not prepared");
		return -1;
	}
	if (__start_ikk_initcalls) {
		for (const ikk_initcall_t *fn = __start_ikk_initcalls; fn < __stop_ikk_initcalls; fn++) {
			int rc = (*fn)();
			if (rc) {
				snprintf(err, errlen, "an initcall returned %d", rc);
				return -1;
			}
		}
	}
	if (!registered) {
		snprintf(err, errlen, "no initcall of the file registered a governor "
			 "(cpuidle_register_governor())");
		return -1;
	}
	if (registrations > 1) {
		snprintf(err, errlen, "%d governors registered: expected one per file", registrations);
		return -1;
	}
	if (!registered->select) {
		snprintf(err, errlen, "governor %s has no ->select", registered->name);
		return -1;
	}
	loaded = true;
	return 0;
}

IKK_EXPORT const char *ikk_name(void)
{
	return registered ? registered->name : "";
}

/* The copy is unloaded (dlclose): free the devices. */
__attribute__((destructor)) static void ikk_unload(void)
{
	for (int i = 0; i < IKK_NR_CPUS; i++) {
		free(devices[i]);
		devices[i] = NULL;
		free(percpu_areas[i]);
		percpu_areas[i] = NULL;
	}
}

IKK_EXPORT int ikk_enable(void *cookie, struct ikk_dev *io)
{
	if (io->cpu < 0 || io->cpu >= IKK_NR_CPUS)
		return -22;
	if (!devices[io->cpu]) {
		devices[io->cpu] = calloc(1, sizeof(struct cpuidle_device));
		if (!devices[io->cpu])
			return -12;
		per_cpu(cpuidle_devices, io->cpu) = devices[io->cpu];
	}
	if (io->cpu >= cpus_seen)
		cpus_seen = io->cpu + 1;
	struct cpuidle_device *d = devices[io->cpu];
	cookies[io->cpu] = cookie;
	d->registered = 1;
	d->enabled = 1;
	dev_in(d, io);
	int rc = registered->enable ? registered->enable(&driver, d) : 0;
	dev_out(d, io);
	return rc;
}

IKK_EXPORT void ikk_disable(void *cookie, struct ikk_dev *io)
{
	struct cpuidle_device *d = devices[io->cpu];
	(void)cookie;
	dev_in(d, io);
	if (registered->disable)
		registered->disable(&driver, d);
	dev_out(d, io);
	d->enabled = 0;
	in_idle[io->cpu] = false;
	cookies[io->cpu] = NULL;
}

IKK_EXPORT int ikk_select(void *cookie, struct ikk_dev *io, int *stop_tick)
{
	struct cpuidle_device *d = devices[io->cpu];
	bool stop = *stop_tick != 0;
	(void)cookie;
	dev_in(d, io);
	in_idle[io->cpu] = true;
	int idx = registered->select(&driver, d, &stop);
	dev_out(d, io);
	*stop_tick = stop;
	return idx;
}

IKK_EXPORT void ikk_reflect(void *cookie, struct ikk_dev *io, int index)
{
	struct cpuidle_device *d = devices[io->cpu];
	(void)cookie;
	dev_in(d, io);
	in_idle[io->cpu] = false;
	if (registered->reflect)
		registered->reflect(d, index);
	dev_out(d, io);
}

