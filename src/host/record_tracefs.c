/*
 * The machine's half of `idlekit record` (record_tracefs.h): this machine's idle tables as
 * the trace's header, and a tracefs instance of its own (idlekit-record-PID; the global
 * tracer is never touched) with the events power:cpu_idle, irq:irq_handler_entry, the x86
 * IPI vectors, the hrtimer events, sched_waking/_wakeup/_switch and tick_stop, on the clock
 * "mono" (the hrtimers' CLOCK_MONOTONIC, so timer expiry times and event times are on one
 * clock).  A thread drains the ring buffers every 200 ms into the spool
 * (src/trace/record_spool.c: one time-ordered stream per CPU), which at the end is merged
 * by time and converted.  The kernel's events are read here (libtracefs, libtraceevent);
 * what they become in the trace is the spool's business.
 *
 * Divisions: the stubs of a build without libtracefs; the header from sysfs; the tracefs
 * instance; the events into the spool; the drain thread; the recording's steps.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/host.h"
#include "host/record_tracefs.h"
#include "trace/import.h"
#include "trace/import_tep.h"
#include "util/errmsg.h"
#include "util/freep.h"

#ifndef IDLEKIT_HAVE_TRACEFS

bool ik__recording_supported(void)
{
	return false;
}

const char *ik__recording_tracing_dir(char *override, bool *bad)
{
	(void)override;
	*bad = false;
	return NULL;
}

int ik__recording_open(struct ik_recording *rec, const char *sysfs_root, int hz,
		      uint64_t buffer_kb, char *err, size_t errlen)
{
	(void)sysfs_root;
	(void)hz;
	(void)buffer_kb;
	memset(rec, 0, sizeof(*rec));
	return ik__errmsg(err, errlen, "this idlekit was built without libtracefs");
}

int ik__recording_start(struct ik_recording *rec, const char *spool_dir, char *err, size_t errlen)
{
	(void)rec;
	(void)spool_dir;
	return ik__errmsg(err, errlen, "this idlekit was built without libtracefs");
}

void ik__recording_stop(struct ik_recording *rec)
{
	(void)rec;
}

int ik__recording_drain(struct ik_recording *rec)
{
	(void)rec;
	return -1;
}

int ik__recording_write(struct ik_recording *rec, FILE *out, uint64_t *nev)
{
	(void)rec;
	(void)out;
	(void)nev;
	errno = ENOSYS;
	return -1;
}

void ik__recording_lost(const struct ik_recording *rec, int cpu, uint64_t *overrun,
		       uint64_t *dropped)
{
	(void)rec;
	(void)cpu;
	*overrun = *dropped = 0;
}

void ik__recording_close(struct ik_recording *rec)
{
	ik__trace_header_free(&rec->h);
}

#else

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <tracefs.h>
#include <unistd.h>

/* How often the instance's buffers are drained during the recording. */
#define DRAIN_NS (200 * 1000 * 1000L)

/* ---- The header from sysfs: one driver per group of CPUs with the same table ---------- */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The governor's module parameters (/sys/module/GOV/parameters/, e.g. haltpoll's
 * guest_halt_poll_ns) that are integers or Y/N, in name order, for the header: replay
 * runs the governor with them.  A governor built in without parameters has none.
 */
static void read_governor_params(struct ik_trace_header *h)
{
	char dir[128];
	snprintf(dir, sizeof(dir), "/sys/module/%s/parameters", h->governor);
	DIR *d = opendir(dir);
	if (!d)
		return;
	char *names[64];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 64)
		if (e->d_name[0] != '.' && strlen(e->d_name) < IK_TRACE_PARAM_KEY_LEN)
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), by_name);
	for (int i = 0; i < n; i++) {
		char path[256], val[32] = "";
		if (!names[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		FILE *f = fopen(path, "r");
		if (f) {
			if (!fgets(val, sizeof(val), f))
				val[0] = '\0';
			fclose(f);
		}
		val[strcspn(val, "\n")] = '\0';
		uint64_t v = 0;
		char *end = NULL;
		bool ok = true;
		if (strcmp(val, "Y") == 0 || strcmp(val, "N") == 0) {
			v = val[0] == 'Y';
		} else {
			errno = 0;
			v = strtoull(val, &end, 10);
			ok = val[0] >= '0' && val[0] <= '9' && end && !*end && errno == 0;
		}
		if (ok && h->nparams < IK_TRACE_MAX_PARAMS) {
			struct ik_trace_param *p = &h->params[h->nparams++];
			snprintf(p->key, sizeof(p->key), "%s", names[i]);
			p->value = v;
		}
		free(names[i]);
	}
}

/*
 * No cpuidle driver on any CPU: the idle loop calls the default idle routine itself
 * (default_idle_call() in kernel/sched/idle.c), which reports itself as state 1, and
 * cpu_idle_poll() (idle=poll, or while polling is forced) as state 0.  The table says so;
 * sysfs gives neither state's latency or residency (0 here).
 */
static void default_idle_table(struct ik_driver *drv)
{
	memset(drv, 0, sizeof(*drv));
	snprintf(drv->name, sizeof(drv->name), "none");
	drv->state_count = 2;
	snprintf(drv->states[0].name, sizeof(drv->states[0].name), "POLL");
	snprintf(drv->states[0].desc, sizeof(drv->states[0].desc), "cpu_idle_poll (idle=poll)");
	drv->states[0].flags = IK_FLAG_POLLING;
	snprintf(drv->states[1].name, sizeof(drv->states[1].name), "default_idle");
	snprintf(drv->states[1].desc, sizeof(drv->states[1].desc), "the arch's default routine");
}

static int build_header(struct ik_trace_header *h, const char *sysfs_root, int hz, char *err,
			size_t errlen)
{
	struct ik_sysfs *fs;
	struct ik_host_idle idle;
	int rc = -1;

	memset(h, 0, sizeof(*h));
	if (ik__sysfs_open_root(sysfs_root, &fs, err, errlen))
		return -1;
	memset(&idle, 0, sizeof(idle));
	if (ik__host_idle_read(fs, NULL, &idle, err, errlen)) {
		ik__sysfs_close(fs);
		return -1;
	}
	int maxcpu = -1;
	for (int i = 0; i < idle.ncpus; i++)
		if (idle.cpus[i].cpu > maxcpu)
			maxcpu = idle.cpus[i].cpu;
	h->version = IK_TRACE_VERSION;
	h->hz = hz;
	h->cpus = maxcpu + 1;
	h->cpu_driver = calloc((size_t)h->cpus > 0 ? (size_t)h->cpus : 1, 1);
	if (!h->cpu_driver || h->cpus < 1) {
		snprintf(err, errlen, h->cpus < 1 ? "no CPUs found in sysfs" : "out of memory");
		goto out;
	}
	int group_first[IK_TRACE_MAX_DRIVERS];
	bool no_driver = !ik__host_idle_has_states(&idle); /* (idle.ncpus >= 1: checked above) */
	if (no_driver) {
		default_idle_table(&h->drivers[0].drv);
		if (ik_driver_init(&h->drivers[0].drv, err, errlen))
			goto out;
		h->ndrivers = 1;
		h->drivers[0].ncpus = idle.ncpus; /* every CPU's cpu_driver is 0 already */
	}
	for (int i = 0; h->ndrivers == 0 && i < idle.ncpus; i++) {
		const struct ik_host_cpu *cpu = &idle.cpus[i];
		if (!cpu->has_cpuidle || cpu->nstates < 1) {
			snprintf(err, errlen, "CPU %d has no cpuidle states (driver %s) while others "
				 "have: a trace has one table per CPU", cpu->cpu, idle.driver);
			goto out;
		}
		int d;
		for (d = 0; d < h->ndrivers; d++)
			if (ik__host_same_table(&idle.cpus[group_first[d]], cpu))
				break;
		if (d == h->ndrivers) {
			if (d == IK_TRACE_MAX_DRIVERS) {
				snprintf(err, errlen, "more than %d different idle-state tables", d);
				goto out;
			}
			group_first[d] = i;
			struct ik_driver *drv = &h->drivers[d].drv;
			snprintf(drv->name, sizeof(drv->name), "%.15s", idle.driver);
			drv->state_count = cpu->nstates;
			for (int s = 0; s < cpu->nstates; s++) {
				const struct ik_host_state *hs = &cpu->states[s];
				struct ik_state *st = &drv->states[s];
				snprintf(st->name, sizeof(st->name), "%.15s", hs->name);
				snprintf(st->desc, sizeof(st->desc), "%.31s", hs->desc);
				for (char *p = st->name; *p; p++)
					if (*p == ' ' || *p == '\t')
						*p = '_';
				st->exit_latency = hs->latency_us > UINT32_MAX ? UINT32_MAX : (uint32_t)hs->latency_us;
				st->target_residency = hs->residency_us > UINT32_MAX ? UINT32_MAX : (uint32_t)hs->residency_us;
				st->flags = (strcmp(hs->name, "POLL") == 0 ? IK_FLAG_POLLING : 0) |
					    (hs->disabled ? IK_FLAG_OFF : 0);
			}
			if (ik_driver_init(drv, err, errlen))
				goto out;
			h->ndrivers++;
		}
		h->cpu_driver[cpu->cpu] = (uint8_t)d;
		h->drivers[d].ncpus++;
	}
	/* The topology: each CPU's package and core, as sysfs gives them (when it does). */
	h->topo = malloc((size_t)h->cpus * sizeof(*h->topo));
	if (!h->topo) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int c = 0; c < h->cpus; c++) {
		char rel[64], e[160];
		uint64_t pkg, core;
		h->topo[c].package = h->topo[c].core = -1;
		snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", c);
		if (ik__sysfs_read_u64(fs, rel, &pkg, e, sizeof(e)) != IK_SYSFS_OK || pkg > INT32_MAX)
			continue;
		snprintf(rel, sizeof(rel), "cpu%d/topology/core_id", c);
		if (ik__sysfs_read_u64(fs, rel, &core, e, sizeof(e)) != IK_SYSFS_OK || core > INT32_MAX)
			continue;
		h->topo[c].package = (int32_t)pkg;
		h->topo[c].core = (int32_t)core;
	}
	/* The governor that chose the recorded states, and its parameters (none without a
	 * driver: the idle loop does not call it). */
	if (!no_driver && idle.governor[0] && strlen(idle.governor) < sizeof(h->governor) &&
	    !strpbrk(idle.governor, " \t")) {
		snprintf(h->governor, sizeof(h->governor), "%.15s", idle.governor); /* length checked above */
		read_governor_params(h);
	}
	rc = 0;
out:
	ik__host_idle_free(&idle);
	ik__sysfs_close(fs);
	if (rc)
		ik__trace_header_free(h);
	return rc;
}

/* ---- The tracefs instance ------------------------------------------------------------- */

bool ik__recording_supported(void)
{
	return true;
}

const char *ik__recording_tracing_dir(char *override, bool *bad)
{
	*bad = false;
	if (override && *override) {
		/* a tracefs has its instances directory (a stand-in for testing must too) */
		char inst[4096];
		struct stat st;
		snprintf(inst, sizeof(inst), "%s/instances", override);
		if (stat(inst, &st) != 0 || !S_ISDIR(st.st_mode) || tracefs_set_tracing_dir(override)) {
			*bad = true;
			return NULL;
		}
		return override;
	}
	return tracefs_tracing_dir();
}

/* ---- The events into the spool -------------------------------------------------------- */

/* import's conversion (src/trace/import_tep.c), the same as trace-dat's, into the spool */
static int to_spool(void *ctx, const struct ik_trace_import_rec *r)
{
	return ik__record_spool_add(ctx, r);
}

static int on_event(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	struct ik_recording *rec = ctx;
	if (rec->spool.failed)
		return 1;
	return ik__tep_conv_event(&rec->conv, e, r, cpu) ? 1 : 0; /* a write failed: stop */
}

int ik__recording_drain(struct ik_recording *rec)
{
	struct ik_record_spool *sp = &rec->spool;
	if (sp->failed || rec->read_failed)
		return -1;
	if (tracefs_iterate_raw_events(rec->tep, rec->inst, NULL, 0, on_event, rec) < 0 &&
	    !sp->failed) {
		rec->read_failed = true;
		return -1;
	}
	return ik__record_spool_flush(sp);
}

/* ---- The drain thread: every DRAIN_NS until told to stop; signals go to the main one -- */

struct ik_drainer {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	struct ik_recording *rec;
};

static void *drain_main(void *p)
{
	struct ik_drainer *d = p;
	pthread_mutex_lock(&d->mu);
	while (!d->stop) {
		struct timespec until = ik__deadline_in(CLOCK_MONOTONIC, DRAIN_NS);
		while (!d->stop && pthread_cond_timedwait(&d->cv, &d->mu, &until) != ETIMEDOUT)
			;
		if (d->stop)
			break;
		pthread_mutex_unlock(&d->mu);
		int rc = ik__recording_drain(d->rec);
		pthread_mutex_lock(&d->mu);
		d->rec->drains++;
		if (rc) {
			/* A full disk: end the recording now (the command too), as SIGTERM would. */
			kill(getpid(), SIGTERM);
			break;
		}
	}
	pthread_mutex_unlock(&d->mu);
	return NULL;
}

static int drainer_start(struct ik_drainer *d)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	pthread_mutex_init(&d->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&d->cv, &ca);
	pthread_condattr_destroy(&ca);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int rc = pthread_create(&d->th, NULL, drain_main, d);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		pthread_cond_destroy(&d->cv);
		pthread_mutex_destroy(&d->mu);
	}
	return rc ? -1 : 0;
}

static void drainer_stop(struct ik_drainer *d)
{
	pthread_mutex_lock(&d->mu);
	d->stop = true;
	pthread_cond_signal(&d->cv);
	pthread_mutex_unlock(&d->mu);
	pthread_join(d->th, NULL);
	pthread_cond_destroy(&d->cv);
	pthread_mutex_destroy(&d->mu);
}

/* ---- The recording's steps ------------------------------------------------------------ */

/* The address of the tick's hrtimer function, from /proc/kallsyms (0 if not found). */
static uint64_t tick_function(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256];
	uint64_t addr = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char name[128], type;
		unsigned long long a;
		if (sscanf(line, "%llx %c %127s", &a, &type, name) == 3 &&
		    (strcmp(name, "tick_nohz_handler") == 0 || strcmp(name, "tick_sched_timer") == 0)) {
			addr = a;
			break;
		}
	}
	fclose(f);
	return addr;
}

/* Write value to the instance's file; -1 with "PATH: cannot write \"value\": why". */
static int setup_write(struct tracefs_instance *inst, const char *file, const char *value,
		       char *err, size_t errlen)
{
	if (tracefs_instance_file_write(inst, file, value) >= 0)
		return 0;
	int e = errno;
	char *path = tracefs_instance_get_file(inst, file);
	snprintf(err, errlen, "%s: cannot write \"%s\": %s", path ? path : file, value,
		 strerror(e ? e : EIO));
	tracefs_put_tracing_file(path);
	return -1;
}

/* Enable SYSTEM:EVENT: a required one must exist; *have says whether an optional one does. */
static int setup_event(struct tracefs_instance *inst, const char *sys, const char *ev,
		       bool required, bool *have, char *err, size_t errlen)
{
	char rel[160];
	snprintf(rel, sizeof(rel), "events/%s/%s/enable", sys, ev);
	if (have)
		*have = false;
	if (!tracefs_file_exists(inst, rel)) {
		if (!required)
			return 0;
		char *path = tracefs_instance_get_file(inst, rel);
		snprintf(err, errlen, "%s: no such file: the kernel has no %s:%s event (needed)",
			 path ? path : rel, sys, ev);
		tracefs_put_tracing_file(path);
		return -1;
	}
	if (setup_write(inst, rel, "1", err, errlen))
		return -1;
	if (have)
		*have = true;
	return 0;
}

int ik__recording_open(struct ik_recording *rec, const char *sysfs_root, int hz,
		      uint64_t buffer_kb, char *err, size_t errlen)
{
	memset(rec, 0, sizeof(*rec));
	if (build_header(&rec->h, sysfs_root ? sysfs_root : "/", hz, err, errlen))
		return -1;
	rec->h.minor = 1; /* task_wake, switch, tick_stop */
	snprintf(rec->name, sizeof(rec->name), "idlekit-record-%ld", (long)getpid());
	struct tracefs_instance *inst = tracefs_instance_create(rec->name);
	rec->inst = inst;
	rec->tick_fn = tick_function();
	if (!inst)
		return ik__errmsg(err, errlen, "cannot create the tracefs instance %s: %s (root "
				  "and tracefs needed)", rec->name, strerror(errno));
	char kb[32];
	snprintf(kb, sizeof(kb), "%" PRIu64, buffer_kb);
	/* Every write is checked: the first that fails ends the set-up, naming its file. */
	static const char *const required[][2] = {
		{ "power", "cpu_idle" },      { "irq", "irq_handler_entry" },
		{ "timer", "hrtimer_start" }, { "timer", "hrtimer_cancel" },
		{ "timer", "hrtimer_expire_entry" },
	};
	/* The IPI vectors exist on x86 only; the sched events and tick_stop where the kernel
	   has them (sched_waking since 4.3; without it, sched_wakeup stands in); the IPI
	   senders from 6.3.  One the kernel has must be enabled. */
	static const char *const optional[][2] = {
		{ "ipi", "ipi_send_cpu" },
		{ "ipi", "ipi_send_cpumask" },
		{ "irq_vectors", "reschedule_entry" },
		{ "irq_vectors", "call_function_entry" },
		{ "irq_vectors", "call_function_single_entry" },
		{ "sched", "sched_waking" }, /* [5] */
		{ "sched", "sched_wakeup" },
		{ "sched", "sched_switch" },
		{ "timer", "tick_stop" },    /* [8] */
	};
	bool have[sizeof(optional) / sizeof(optional[0])];
	if (setup_write(inst, "tracing_on", "0", err, errlen) ||
	    setup_write(inst, "trace_clock", "mono", err, errlen) ||
	    setup_write(inst, "buffer_size_kb", kb, err, errlen))
		return -1;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (setup_event(inst, required[i][0], required[i][1], true, NULL, err, errlen))
			return -1;
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (setup_event(inst, optional[i][0], optional[i][1], false, &have[i], err, errlen))
			return -1;
	rec->have_waking = have[5];
	rec->have_wakeup = have[6];
	rec->have_switch = have[7];
	rec->have_tick_stop = have[8];
	return 0;
}

int ik__recording_start(struct ik_recording *rec, const char *spool_dir, char *err, size_t errlen)
{
	const char *systems[] = { "power", "irq", "timer", "irq_vectors", "sched", "ipi", NULL };
	rec->tep = tracefs_local_events_system(NULL, systems);
	if (!rec->tep)
		return ik__errmsg(err, errlen, "cannot read the event formats: %s",
				  strerror(errno));
	char prefix[64];
	snprintf(prefix, sizeof(prefix), ".idlekit-record-%ld", (long)getpid());
	if (ik__tep_conv_init(&rec->conv, rec->tep, rec->h.cpus, rec->tick_fn, to_spool, &rec->spool))
		return ik__errmsg(err, errlen, "out of memory");
	rec->conv_open = true;
	if (ik__record_spool_open(&rec->spool, spool_dir, prefix, rec->h.cpus, err, errlen))
		return -1;
	rec->spool_open = true;
	rec->drainer = calloc(1, sizeof(*rec->drainer));
	if (!rec->drainer)
		return ik__errmsg(err, errlen, "out of memory");
	rec->drainer->rec = rec;
	clock_gettime(CLOCK_MONOTONIC, &rec->t0);
	if (setup_write(rec->inst, "tracing_on", "1", err, errlen)) {
		ik__freep(&rec->drainer);
		return -1;
	}
	if (drainer_start(rec->drainer)) {
		tracefs_trace_off(rec->inst);
		ik__freep(&rec->drainer);
		return ik__errmsg(err, errlen, "cannot start the drain thread");
	}
	return 0;
}

void ik__recording_stop(struct ik_recording *rec)
{
	tracefs_trace_off(rec->inst);
	clock_gettime(CLOCK_MONOTONIC, &rec->t1);
	if (rec->drainer) {
		drainer_stop(rec->drainer);
		ik__freep(&rec->drainer);
	}
}

int ik__recording_write(struct ik_recording *rec, FILE *out, uint64_t *nev)
{
	if (!rec->h.hz) {
		uint64_t best = rec->conv_open ? rec->conv.tick_step : 0;
		rec->h.hz = best >= 10000 && best <= 100000000 ? (int)((1000000000 + best / 2) / best) : 250;
	}
	/* the IRQs' names the events gave, as import's header lines (borrowed) */
	rec->h.nirqs = rec->conv_open ? rec->conv.names.nirqs : 0;
	rec->h.irqs = rec->conv_open ? rec->conv.names.irqs : NULL;
	int rc = ik__record_spool_write(&rec->spool, out, &rec->h, rec->have_waking, nev);
	rec->h.nirqs = 0;
	rec->h.irqs = NULL;
	return rc;
}

/* A per-CPU counter of the instance's stats ("overrun: N", "dropped events: N"). */
static uint64_t cpu_stat(struct tracefs_instance *inst, int cpu, const char *key)
{
	char file[64];
	snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
	char *stats = tracefs_instance_file_read(inst, file, NULL);
	const char *p = stats ? strstr(stats, key) : NULL;
	uint64_t v = p ? strtoull(p + strlen(key), NULL, 10) : 0;
	free(stats);
	return v;
}

void ik__recording_lost(const struct ik_recording *rec, int cpu, uint64_t *overrun,
		       uint64_t *dropped)
{
	*overrun = cpu_stat(rec->inst, cpu, "overrun: ");
	*dropped = cpu_stat(rec->inst, cpu, "dropped events: ");
}

void ik__recording_close(struct ik_recording *rec)
{
	if (rec->drainer)
		ik__recording_stop(rec);
	if (rec->tep)
		tep_free(rec->tep);
	if (rec->inst) {
		tracefs_instance_destroy(rec->inst);
		tracefs_instance_free(rec->inst);
	}
	rec->tep = rec->inst = NULL;
	if (rec->spool_open)
		ik__record_spool_close(&rec->spool);
	rec->spool_open = false;
	if (rec->conv_open)
		ik__tep_conv_free(&rec->conv);
	rec->conv_open = false;
	ik__trace_header_free(&rec->h);
}

#endif
