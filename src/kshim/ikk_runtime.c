/*
 * idlekit kernel shim: the runtime linked with a kernel governor file into one shared
 * object.  It implements the kernel services the shim's headers declare by asking idlekit
 * (struct ikk_host), runs the file's initcalls, and exports the bridge (ikk_bridge.h) that
 * idlekit calls: a kernel struct cpuidle_driver and one struct cpuidle_device per CPU live
 * here, filled in from idlekit's model before each governor callback and read back after.
 *
 * Compiled with the shim's headers and -nostdinc like the governor file: the few C library
 * routines used are declared by hand below.
 */
#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/tick.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/sched/topology.h>
#include <linux/version.h>

/* v5.4: times in microseconds (cpuidle_enter_state's ktime_us_delta, capped at INT_MAX). */
#define IKK_US_API (LINUX_VERSION_CODE < KERNEL_VERSION(5, 5, 0))

#include "ikk_bridge.h"

#define IKK_EXPORT __attribute__((visibility("default")))

int snprintf(char *restrict s, unsigned long n, const char *restrict fmt, ...);
int vsnprintf(char *restrict s, unsigned long n, const char *restrict fmt, __builtin_va_list ap);
unsigned long long strtoull(const char *restrict s, char **restrict end, int base);
long long strtoll(const char *restrict s, char **restrict end, int base);
void *calloc(unsigned long n, unsigned long size);
void free(void *p);
void abort(void) __attribute__((__noreturn__));
int *__errno_location(void);

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
static struct cpuidle_governor *registered;
static int registrations;
static bool loaded;

DEFINE_PER_CPU(struct cpuidle_device *, cpuidle_devices);

extern const ikk_initcall_t __start_ikk_initcalls[] __attribute__((weak, visibility("hidden")));
extern const ikk_initcall_t __stop_ikk_initcalls[] __attribute__((weak, visibility("hidden")));
extern const struct ikk_param __start_ikk_params[] __attribute__((weak, visibility("hidden")));
extern const struct ikk_param __stop_ikk_params[] __attribute__((weak, visibility("hidden")));

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

ktime_t ktime_get(void)
{
	return host->now_ns(cur());
}

u64 local_clock(void)
{
	return (u64)host->now_ns(cur());
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

void ikk_bug(const char *file, int line)
{
	printk("kernel BUG at %s:%d\n", file, line);
	abort();
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

IKK_EXPORT int ikk_load(const struct ikk_host *h, const struct ikk_state *states, int count,
			const char *driver_name, int bridge_version, char *err, unsigned long errlen)
{
	if (bridge_version != IKK_BRIDGE_VERSION) {
		snprintf(err, errlen, "kernel shim bridge version %d, idlekit speaks %d: rebuild",
			 IKK_BRIDGE_VERSION, bridge_version);
		return -1;
	}
	if (loaded) {
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
		cpuidle_devices[io->cpu] = devices[io->cpu];
	}
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
	cookies[io->cpu] = NULL;
}

IKK_EXPORT int ikk_select(void *cookie, struct ikk_dev *io, int *stop_tick)
{
	struct cpuidle_device *d = devices[io->cpu];
	bool stop = *stop_tick != 0;
	(void)cookie;
	dev_in(d, io);
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
	if (registered->reflect)
		registered->reflect(d, index);
	dev_out(d, io);
}

/* ---- Module parameters ---------------------------------------------------------------- */

static int nparams(void)
{
	return __start_ikk_params ? (int)(__stop_ikk_params - __start_ikk_params) : 0;
}

IKK_EXPORT int ikk_param_count(void)
{
	return nparams();
}

static bool type_is(const struct ikk_param *p, const char *t)
{
	return strcmp(p->type, t) == 0;
}

IKK_EXPORT int ikk_param_get(int i, struct ikk_param_info *info, char *buf, unsigned long len)
{
	if (i < 0 || i >= nparams())
		return -1;
	const struct ikk_param *p = &__start_ikk_params[i];
	info->name = p->name;
	info->type = p->type;
	if (type_is(p, "bool"))
		snprintf(buf, len, "%s", *(bool *)p->ptr ? "Y" : "N");
	else if (type_is(p, "invbool"))
		snprintf(buf, len, "%s", *(bool *)p->ptr ? "N" : "Y");
	else if (type_is(p, "uint"))
		snprintf(buf, len, "%u", *(unsigned int *)p->ptr);
	else if (type_is(p, "int"))
		snprintf(buf, len, "%d", *(int *)p->ptr);
	else if (type_is(p, "ulong"))
		snprintf(buf, len, "%lu", *(unsigned long *)p->ptr);
	else if (type_is(p, "long"))
		snprintf(buf, len, "%ld", *(long *)p->ptr);
	else if (type_is(p, "ullong"))
		snprintf(buf, len, "%llu", *(unsigned long long *)p->ptr);
	else if (type_is(p, "ushort"))
		snprintf(buf, len, "%u", *(unsigned short *)p->ptr);
	else if (type_is(p, "short"))
		snprintf(buf, len, "%d", *(short *)p->ptr);
	else if (type_is(p, "byte"))
		snprintf(buf, len, "%u", *(unsigned char *)p->ptr);
	else
		snprintf(buf, len, "?");
	return 0;
}

/* The kernel's param_set_* rules: kstrtoX (base 0 for numbers), bool accepts y/n/1/0/on/off. */
static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "y", "Y", "on", "yes", "true" };
	static const char *const no[] = { "0", "n", "N", "off", "no", "false" };
	for (unsigned i = 0; i < ARRAY_SIZE(yes); i++) {
		if (strcmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static int parse_unsigned(const char *v, unsigned long long max, unsigned long long *out)
{
	char *end;
	if (!*v || *v == '-' || *v == '+' || *v == ' ')
		return -1;
	*__errno_location() = 0;
	unsigned long long u = strtoull(v, &end, 0);
	if (*end || *__errno_location() || u > max)
		return -1;
	*out = u;
	return 0;
}

static int parse_signed(const char *v, long long min, long long max, long long *out)
{
	char *end;
	if (!*v || *v == ' ')
		return -1;
	*__errno_location() = 0;
	long long s = strtoll(v, &end, 0);
	if (*end || *__errno_location() || s < min || s > max)
		return -1;
	*out = s;
	return 0;
}

IKK_EXPORT int ikk_param_set(const char *name, const char *value, char *err, unsigned long errlen)
{
	const struct ikk_param *p = NULL;
	for (int i = 0; i < nparams(); i++)
		if (strcmp(__start_ikk_params[i].name, name) == 0)
			p = &__start_ikk_params[i];
	if (!p)
		return -1;
	unsigned long long u;
	long long s;
	bool b;
	int rc = 0;
	const char *expect = "";
	if (type_is(p, "bool") || type_is(p, "invbool")) {
		expect = "y, n, 1, 0, on or off";
		if ((rc = parse_bool(value, &b)) == 0)
			*(bool *)p->ptr = type_is(p, "bool") ? b : !b;
	} else if (type_is(p, "uint")) {
		expect = "an integer 0..4294967295";
		if ((rc = parse_unsigned(value, U32_MAX, &u)) == 0)
			*(unsigned int *)p->ptr = (unsigned int)u;
	} else if (type_is(p, "ulong") || type_is(p, "ullong")) {
		expect = "an integer 0..18446744073709551615";
		if ((rc = parse_unsigned(value, U64_MAX, &u)) == 0) {
			if (type_is(p, "ulong"))
				*(unsigned long *)p->ptr = (unsigned long)u;
			else
				*(unsigned long long *)p->ptr = u;
		}
	} else if (type_is(p, "ushort")) {
		expect = "an integer 0..65535";
		if ((rc = parse_unsigned(value, U16_MAX, &u)) == 0)
			*(unsigned short *)p->ptr = (unsigned short)u;
	} else if (type_is(p, "byte")) {
		expect = "an integer 0..255";
		if ((rc = parse_unsigned(value, U8_MAX, &u)) == 0)
			*(unsigned char *)p->ptr = (unsigned char)u;
	} else if (type_is(p, "int")) {
		expect = "an integer -2147483648..2147483647";
		if ((rc = parse_signed(value, S32_MIN, S32_MAX, &s)) == 0)
			*(int *)p->ptr = (int)s;
	} else if (type_is(p, "short")) {
		expect = "an integer -32768..32767";
		if ((rc = parse_signed(value, S16_MIN, S16_MAX, &s)) == 0)
			*(short *)p->ptr = (short)s;
	} else if (type_is(p, "long")) {
		expect = "an integer";
		if ((rc = parse_signed(value, S64_MIN, S64_MAX, &s)) == 0)
			*(long *)p->ptr = (long)s;
	} else {
		snprintf(err, errlen, "parameter %s has type '%s', which the shim cannot set", name,
			 p->type);
		return -2;
	}
	if (rc) {
		snprintf(err, errlen, "parameter %s (%s): expected %s, got '%s'", name, p->type,
			 expect, value);
		return -2;
	}
	return 0;
}
