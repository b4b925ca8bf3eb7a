/*
 * The [workload] keys, each named once: its field of struct ik_workload, its type, the unit
 * its value is written in, its range, its default and what it means.  The defaults, reading
 * a key, printing it back and the docs' key table (`idlekit workload keys`) all work from
 * this table, so that a new key is one line here (and its enum constant in
 * workload_keys.h, which gives the checks in scenario_ini.c a name for it).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/ini_common.h"
#include "config/workload_keys.h"

#define MAX_LISTED_CPUS 64 /* as struct ik_workload's lists hold */
#define MAX_MS IK_SCENARIO_MAX_MS
#define MAX_WORK_NS IK_SCENARIO_MAX_WORK_NS
#define US IK_NSEC_PER_USEC
#define MS IK_NSEC_PER_MSEC

enum key_type {
	KT_TYPE, /* workload.type: the workloads' registry's names */
	KT_INT,  /* an int field */
	KT_I64,  /* an int64_t field, in ns: the value given times `scale` */
	KT_REAL, /* a double field */
	KT_ENUM, /* an enum field, one of `names` */
	KT_DIST, /* a struct ik_dist (ns) */
	KT_CPUS, /* a list of CPUs, its count at `count_at` */
	KT_FILE, /* a path */
};

static const char *const arrivals[] = { "poisson", "periodic", "bursty" }; /* enum ik_arrival */
static const char *const irq_affinities[] = { "one", "spread" }; /* enum ik_irq_affinity */
static const char *const placements[] = { "same_core", "same_package", "cross_package",
					  "wake_idle" }; /* enum ik_placement */
static const char *const start_cpu_orders[] = { "in_order", "shuffled" }; /* enum ik_start_cpus */
#define NAMES(a) .names = (a), .nnames = (int)(sizeof(a) / sizeof((a)[0]))

struct key {
	const char *name;
	enum key_type type;
	size_t at;          /* the field's offset in struct ik_workload */
	int64_t min, max;   /* KT_INT, KT_I64: in the key's unit */
	int64_t scale;      /* KT_I64: ns per unit of the key (1 for a key in ns) */
	double rmin, rmax;  /* KT_REAL */
	const char *const *names; /* KT_ENUM */
	int nnames;
	size_t count_at;    /* KT_CPUS: the count's offset */
	const char *def;    /* the default, as a file would write it ("": none, the field 0) */
	const char *unit;   /* the value's unit, for the docs ("": none) */
	const char *doc;    /* what it means, in a line */
};

#define F(field) .at = offsetof(struct ik_workload, field)
#define INT(field, lo, hi) .type = KT_INT, F(field), .min = (lo), .max = (hi)
#define I64(field, lo, hi, unit) .type = KT_I64, F(field), .min = (lo), .max = (hi), .scale = (unit)
#define REAL(field, lo, hi) .type = KT_REAL, F(field), .rmin = (lo), .rmax = (hi)
#define ENUM(field, list) .type = KT_ENUM, F(field), NAMES(list)
#define DIST(field) .type = KT_DIST, F(field)
#define CPUS(field, count) .type = KT_CPUS, F(field), .count_at = offsetof(struct ik_workload, count)
#define D(default_, unit_, doc_) .def = (default_), .unit = (unit_), .doc = (doc_)

static const struct key keys[WL_COUNT] = {
	[WL_TYPE] = { "type", .type = KT_TYPE, F(kind),
		D("idle", "", "what runs: one of the types below") },
	[WL_PAIRS] = { "pairs", INT(pairs, 1, 65536),
		D("1", "", "pairs of tasks passing messages (pingpong, stream)") },
	[WL_WORK_NS] = { "work_ns", I64(work_ns, 0, MAX_WORK_NS, 1),
		D("5000", "ns", "CPU time per message on the receiving side (pingpong, stream); "
		  "per request (schbench)") },
	[WL_MSG_BYTES] = { "msg_bytes", I64(msg_bytes, 0, 1 << 30, 1),
		D("1024", "B", "payload per message, for MB/s (pingpong, stream)") },
	[WL_PLACEMENT] = { "placement", ENUM(placement, placements),
		D("wake_idle", "", "where a pair runs: same_core, same_package, cross_package "
		  "(pinned) or wake_idle (the scheduler places the wakee)") },
	[WL_TASKS] = { "tasks", INT(tasks, 1, 65536),
		D("1", "", "tasks (periodic, spin)") },
	[WL_PERIOD_US] = { "period_us", I64(period_ns, 1, 10000000, US),
		D("1000", "us", "the timer period (periodic, ipi)") },
	[WL_TASK_WORK_NS] = { "task_work_ns", I64(task_work_ns, 0, MAX_WORK_NS, 1),
		D("10000", "ns", "work per period (periodic, spin; the handler for ipi)") },
	[WL_IRQ_RATE_HZ] = { "irq_rate_hz", REAL(irq_rate_hz, 0.0, 1e7),
		D("1000", "1/s", "device interrupts per second per CPU (poisson)") },
	[WL_IRQ_WORK_NS] = { "irq_work_ns", I64(irq_work_ns, 0, MAX_WORK_NS, 1),
		D("2000", "ns", "an interrupt handler's work (poisson, server, periodic's I/O "
		  "completions)") },
	[WL_START_MS] = { "start_ms", I64(start_ns, 0, MAX_MS, MS),
		D("0", "ms", "when the tasks start (the machine idles before)") },
	[WL_WORK_NS_PER_KB] = { "work_ns_per_kb", I64(work_ns_per_kb, 0, MAX_WORK_NS, 1),
		D("0", "ns", "work per KiB of payload on both sides (stream)") },
	[WL_RECV_WORK_NS] = { "recv_work_ns", I64(recv_work_ns, 0, MAX_WORK_NS, 1),
		D("2000", "ns", "the receiver's work per message (stream)") },
	[WL_CPUS] = { "cpus", CPUS(spin_cpus, nspin_cpus),
		D("", "CPU list", "pinned CPUs: spin's tasks, ipi's sender and target, server's "
		  "workers (none: spin and server choose)") },
	[WL_START_SPREAD_US] = { "start_spread_us", I64(start_spread_ns, 0, (int64_t)MAX_MS * 1000, US),
		D("100", "us", "the tasks' first wake-ups spread over this (the seed decides)") },
	[WL_STOP_MS] = { "stop_ms", I64(stop_ns, 0, MAX_MS, MS),
		D("0", "ms", "when a periodic workload stops (0: never); after it the way out of "
		  "polling and lite states is reported") },
	[WL_SIDE_SPIN_CPUS] = { "side_spin_cpus", CPUS(side_spin_cpus, nside_spin_cpus),
		D("", "CPU list", "busy tasks pinned there beside the workload") },
	[WL_SIDE_SPIN_WORK_NS] = { "side_spin_work_ns", I64(side_spin_work_ns, 1, MAX_WORK_NS, 1),
		D("10000", "ns", "the side spinners' unit of work (counted as side units)") },
	[WL_ARRIVAL] = { "arrival", ENUM(arrival, arrivals),
		D("poisson", "", "how requests arrive: poisson, periodic or bursty (server)") },
	[WL_LOAD_PCT] = { "load_pct", REAL(load_pct, 0.0, 1000.0),
		D("50", "%", "target utilisation of the workers (server)") },
	[WL_SERVICE_NS] = { "service_ns", DIST(service),
		D("lognormal 20000 0.5", "ns", "service time per request, a distribution (server)") },
	[WL_WORKERS] = { "workers", INT(workers, 1, 4096),
		D("4", "", "worker threads (server; schbench: per message thread, default CPUs / "
		  "message threads)") },
	[WL_IRQ_CPU] = { "irq_cpu", INT(irq_cpu, 0, 8191),
		D("0", "CPU", "the CPU the requests' interrupts arrive on (server)") },
	[WL_QUEUE_LIMIT] = { "queue_limit", INT(queue_limit, 0, 1 << 24),
		D("1024", "requests", "requests that may wait for a worker; more are dropped "
		  "(server)") },
	[WL_BURST_ON_US] = { "burst_on_us", I64(burst_on_ns, 1, (int64_t)MAX_MS * 1000, US),
		D("1000", "us", "a burst's length (server, arrival = bursty)") },
	[WL_BURST_OFF_US] = { "burst_off_us", I64(burst_off_ns, 0, (int64_t)MAX_MS * 1000, US),
		D("4000", "us", "the gap between bursts (server, arrival = bursty)") },
	[WL_MESSAGE_THREADS] = { "message_threads", INT(message_threads, 1, 1024),
		D("1", "", "message threads (schbench -m)") },
	[WL_SLEEP_US] = { "sleep_us", I64(sleep_ns, 0, (int64_t)MAX_MS * 1000, US),
		D("100", "us", "a request's sleep (schbench -s)") },
	[WL_RPS] = { "rps", I64(rps, 0, 100000000, 1),
		D("0", "requests/s", "requests per second (schbench -R; 0: saturating)") },
	[WL_FILE] = { "file", .type = KT_FILE, F(file),
		D("", "path", "the rt-app JSON file (rtapp) or the model (learned), tried as "
		  "given, then next to the scenario") },
	[WL_MEM_MB_PER_S] = { "mem_mb_per_s", REAL(mem_mb_per_s, 0.0, 1e9),
		D("10000", "MB/s", "the rate rt-app's mem and iorun events write their bytes at "
		  "(rtapp; the default is an estimate of one core's memset bandwidth)") },
	[WL_COPY_MB_PER_S] = { "copy_mb_per_s", REAL(copy_mb_per_s, 0.0, 1e9),
		D("0", "MB/s", "a payload copy bound by memory bandwidth, added unscaled by turbo "
		  "(stream; 0: none)") },
	[WL_IOWAIT_PCT] = { "iowait_pct", REAL(iowait_pct, 0.0, 100.0),
		D("0", "%", "the share of the tasks' sleeps that are I/O waits (nr_iowait_cpu())") },
	[WL_START_CPUS] = { "start_cpus", ENUM(start_cpus, start_cpu_orders),
		D("in_order", "", "the CPUs unpinned tasks start on: in_order or shuffled "
		  "(pingpong with wake_idle)") },
	[WL_REMOTE_LLC_NS] = { "remote_llc_ns", I64(remote_llc_ns, 0, MAX_WORK_NS, 1),
		D("0", "ns", "extra time per message when the receiver is in another last-level "
		  "cache (pingpong)") },
	[WL_REMOTE_PACKAGE_NS] = { "remote_package_ns", I64(remote_package_ns, 0, MAX_WORK_NS, 1),
		D("0", "ns", "extra time per message when the receiver is in another package "
		  "(pingpong)") },
	[WL_IRQ_AFFINITY] = { "irq_affinity", ENUM(irq_affinity, irq_affinities),
		D("one", "", "where the requests' interrupts go: one (irq_cpu) or spread (the "
		  "workers' CPUs) (server)") },
	[WL_BURST_IOS] = { "burst_ios", INT(burst_ios, 0, 1000000),
		D("0", "", "I/O waits after each period's work (periodic)") },
	[WL_IO_NS] = { "io_ns", DIST(io),
		D("constant 10000", "ns", "from an I/O's submission to its completion interrupt, a "
		  "distribution (periodic)") },
	[WL_ACK_TIMER_MS] = { "ack_timer_ms", I64(ack_timer_ns, 0, 1000, MS),
		D("0", "ms", "the delayed-ACK timer re-armed by each completion (periodic; 0: "
		  "none)") },
};
_Static_assert(WL_COUNT <= IK_INI_MAX_KEYS, "workload keys");
/* enum fields are read and written as int */
_Static_assert(sizeof(enum ik_placement) == sizeof(int) && sizeof(enum ik_arrival) == sizeof(int) &&
	       sizeof(enum ik_irq_affinity) == sizeof(int) &&
	       sizeof(enum ik_start_cpus) == sizeof(int) &&
	       sizeof(enum ik_workload_kind) == sizeof(int), "enums are ints");

static const char *key_names[WL_COUNT];
static pthread_once_t key_names_once = PTHREAD_ONCE_INIT;

static void fill_key_names(void)
{
	for (int k = 0; k < WL_COUNT; k++)
		key_names[k] = keys[k].name;
}

const char *const *ik__workload_key_names(void)
{
	pthread_once(&key_names_once, fill_key_names);
	return key_names;
}

#define NAME_OF(list, v) ((unsigned)(v) < sizeof(list) / sizeof((list)[0]) ? (list)[v] : "unknown")

const char *ik__workload_placement_name(enum ik_placement p)
{
	return NAME_OF(placements, p);
}

const char *ik__workload_arrival_name(enum ik_arrival a)
{
	return NAME_OF(arrivals, a);
}

const char *ik__workload_irq_affinity_name(enum ik_irq_affinity a)
{
	return NAME_OF(irq_affinities, a);
}

static void put_int(void *field, int v)
{
	memcpy(field, &v, sizeof(v));
}

static int get_int_field(const void *field)
{
	int v;
	memcpy(&v, field, sizeof(v));
	return v;
}

/* "0, 1, 4": CPU numbers separated by commas (or blanks). */
static int set_cpus(const char *value, int *cpus, int *ncpus, char *msg, size_t msglen)
{
	char shown[80], *end = NULL;
	int n = 0;

	for (const char *p = ik__ini_list_item(value); p; p = ik__ini_list_item(end)) {
		errno = 0;
		long cpu = strtol(p, &end, 10);
		if (end == p || errno || cpu < 0 || cpu > 8191 || !ik__ini_list_sep(*end)) {
			snprintf(msg, msglen, "expected CPU numbers 0..8191 separated by commas, got '%s'",
				 ik__ini_shown(value, shown, sizeof(shown)));
			return -1;
		}
		if (n == MAX_LISTED_CPUS) {
			snprintf(msg, msglen, "at most %d CPUs", MAX_LISTED_CPUS);
			return -1;
		}
		cpus[n++] = (int)cpu;
	}
	*ncpus = n;
	return 0;
}

static void format_cpus(const int *cpus, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? ", " : "", cpus[i]);
}

int ik__workload_key_set(struct ik_workload *wl, enum workload_key k, const char *value,
			char *msg, size_t msglen)
{
	const struct key *d = &keys[k];
	char *field = (char *)wl + d->at;
	int64_t v;
	int idx;

	switch (d->type) {
	case KT_TYPE: {
		const char *types[IK_WORKLOAD_KINDS];
		ik__workload_type_names(types);
		if (ik__ini_enum(value, types, IK_WORKLOAD_KINDS, &idx, msg, msglen))
			return -1;
		put_int(field, idx);
		return 0;
	}
	case KT_INT:
		if (ik__ini_int(value, d->min, d->max, false, &v, msg, msglen))
			return -1;
		put_int(field, (int)v);
		return 0;
	case KT_I64:
		if (ik__ini_int(value, d->min, d->max, false, &v, msg, msglen))
			return -1;
		v *= d->scale;
		memcpy(field, &v, sizeof(v));
		return 0;
	case KT_REAL:
		return ik__ini_real(value, d->rmin, d->rmax, (double *)(void *)field, msg, msglen);
	case KT_ENUM:
		if (ik__ini_enum(value, d->names, d->nnames, &idx, msg, msglen))
			return -1;
		put_int(field, idx);
		return 0;
	case KT_DIST:
		return ik__dist_parse(value, (struct ik_dist *)(void *)field, msg, msglen);
	case KT_CPUS:
		return set_cpus(value, (int *)(void *)field, (int *)(void *)((char *)wl + d->count_at),
				msg, msglen);
	case KT_FILE:
		if (strlen(value) == 0 || strlen(value) >= sizeof(wl->file)) {
			snprintf(msg, msglen, "expected a file path of 1 to %zu characters",
				 sizeof(wl->file) - 1);
			return -1;
		}
		snprintf(wl->file, sizeof(wl->file), "%s", value);
		return 0;
	}
	snprintf(msg, msglen, "internal error");
	return -1;
}

void ik__workload_key_format(const struct ik_workload *wl, enum workload_key k, char *buf,
			    size_t len)
{
	const struct key *d = &keys[k];
	const char *field = (const char *)wl + d->at;
	int64_t v;

	buf[0] = '\0';
	switch (d->type) {
	case KT_TYPE:
		snprintf(buf, len, "%s", ik__workload_type_name((enum ik_workload_kind)get_int_field(field)));
		return;
	case KT_INT:
		snprintf(buf, len, "%d", get_int_field(field));
		return;
	case KT_I64:
		memcpy(&v, field, sizeof(v));
		snprintf(buf, len, "%" PRId64, v / d->scale);
		return;
	case KT_REAL: {
		double x;
		memcpy(&x, field, sizeof(x));
		ik__ini_format_real(x, buf, len);
		return;
	}
	case KT_ENUM: {
		int i = get_int_field(field);
		snprintf(buf, len, "%s", i >= 0 && i < d->nnames ? d->names[i] : "unknown");
		return;
	}
	case KT_DIST:
		ik__dist_format((const struct ik_dist *)(const void *)field, buf, len);
		return;
	case KT_CPUS:
		format_cpus((const int *)(const void *)field,
			    get_int_field((const char *)wl + d->count_at), buf, len);
		return;
	case KT_FILE: /* recorded from wl->file itself (a path is long) */
		return;
	}
}

void ik__workload_defaults(struct ik_workload *wl)
{
	char msg[IK_ERR_LEN];

	memset(wl, 0, sizeof(*wl));
	/* every default parses: tests/unit/test_workload_keys.c reads each one back */
	for (int k = 0; k < WL_COUNT; k++)
		if (keys[k].def[0])
			(void)ik__workload_key_set(wl, (enum workload_key)k, keys[k].def, msg,
						  sizeof(msg));
}

/* "a, b, c" of n names into buf. */
static void join_names(const char *const *names, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
}

void ik__workload_key_info(enum workload_key k, struct ik_workload_key_info *out)
{
	const struct key *d = &keys[k];
	char lo[32], hi[32];

	out->name = d->name;
	out->unit = d->unit;
	out->def = d->def;
	out->doc = d->doc;
	switch (d->type) {
	case KT_TYPE: {
		const char *types[IK_WORKLOAD_KINDS];
		ik__workload_type_names(types);
		join_names(types, IK_WORKLOAD_KINDS, out->range, sizeof(out->range));
		return;
	}
	case KT_INT:
	case KT_I64:
		snprintf(out->range, sizeof(out->range), "%" PRId64 "..%" PRId64, d->min, d->max);
		return;
	case KT_REAL:
		ik__ini_format_real(d->rmin, lo, sizeof(lo));
		ik__ini_format_real(d->rmax, hi, sizeof(hi));
		snprintf(out->range, sizeof(out->range), "%s..%s", lo, hi);
		return;
	case KT_ENUM:
		join_names(d->names, d->nnames, out->range, sizeof(out->range));
		return;
	case KT_DIST:
		snprintf(out->range, sizeof(out->range), "constant, uniform, lognormal or percentiles");
		return;
	case KT_CPUS:
		snprintf(out->range, sizeof(out->range), "up to %d CPU numbers", MAX_LISTED_CPUS);
		return;
	case KT_FILE:
		snprintf(out->range, sizeof(out->range), "a path");
		return;
	}
	out->range[0] = '\0';
}
