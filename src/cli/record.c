/*
 * idlekit record: an idle trace of this machine, in idlekit's format (docs/trace-format.md).
 *
 * A tracefs instance of its own (idlekit-record-PID; the global tracer is never touched)
 * with the events power:cpu_idle, irq:irq_handler_entry, the x86 IPI vectors, the hrtimer
 * events, sched_waking/_wakeup/_switch and tick_stop, clock "mono" (the hrtimers'
 * CLOCK_MONOTONIC, so timer expiry times and event times are on one clock).  A thread drains
 * the buffers every 200 ms into per-CPU temporary files (each in time order); when the
 * recording ends (the duration, the command's exit, or SIGINT/SIGTERM) tracing stops, the
 * rest is drained, and the files are merged by time (k-way) and converted: cpu_idle(state)
 * -> idle_enter, cpu_idle(-1) -> idle_exit, the first interrupt of an idle period -> wake
 * (irq N, ipi, tick or timer), hrtimer_start/cancel/expire_entry -> timer_start/cancel/expire with the hrtimer's address as ID, sched_waking ->
 * task_wake on the target CPU from the waking one, sched_switch -> switch, tick_stop ->
 * tick_stop.  The instance is removed in every case.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "idlekit/host.h"
#include "idlekit/scenario.h"
#include "idlekit/trace.h"

static const char record_usage[] =
	"usage: idlekit record -o FILE [--duration TIME] [--hz N] [--buffer-kb N] [-- CMD...]\n"
	"\n"
	"Record an idle trace of this machine in idlekit's format (docs/trace-format.md), for\n"
	"idlekit analyze and idlekit replay.  Needs root and tracefs (mounted if it is not).\n"
	"A tracefs instance of its own is used (the global tracer and its settings are not\n"
	"touched) with the events power:cpu_idle, irq:irq_handler_entry, irq_vectors IPIs\n"
	"(reschedule, call_function; x86), timer:hrtimer_start/_cancel/_expire_entry,\n"
	"sched:sched_waking/_wakeup/_switch and timer:tick_stop, on the 'mono' clock (format\n"
	"1.1: task_wake, switch, tick_stop lines).  The header is this machine's cpuidle\n"
	"tables from sysfs (a disabled state gets the OFF flag 0x10, POLL the POLLING flag\n"
	"0x1) and its governor with the integer module parameters (/sys/module/GOV/parameters/,\n"
	"e.g. haltpoll's guest_halt_poll_ns), which idlekit replay then uses.\n"
	"\n"
	"The recording ends after --duration, when CMD exits, or at SIGINT/SIGTERM (Ctrl-C),\n"
	"whichever comes first; the trace is then written, atomically.  The instance's per-CPU\n"
	"ring buffers are drained every 200 ms into temporary files beside FILE (removed in\n"
	"every case), merged by time at the end: memory does not grow with the recording.\n"
	"Events lost all the same (a buffer full within 200 ms) are counted and printed; a write\n"
	"error (a full disk) ends the recording with a message, exit status 1 and no output.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE  the trace (required)\n"
	"  -d, --duration T   how long: 10s, 500ms, ... (a bare number is seconds; default: until\n"
	"                     CMD exits or SIGINT; without CMD, 10 s)\n"
	"  --hz N             the kernel's HZ for the header (default: measured from the tick\n"
	"                     hrtimer's period during the recording, else 250)\n"
	"  --buffer-kb N      per-CPU ring buffer size in KiB (default 16384)\n"
	"  -h, --help         this text\n"
	"\n"
	"A tracefs instance left by a recording that was killed (idlekit-record-PID whose\n"
	"process is gone) is removed first, with a message.  $IDLEKIT_TRACEFS names another\n"
	"tracefs directory (for testing).\n"
	"\n"
	"Example:\n"
	"  # idlekit record -o run.trace --duration 5s && idlekit analyze run.trace\n";

#ifndef IDLEKIT_HAVE_TRACEFS

int cmd_record(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(record_usage, stdout);
			return EXIT_OK;
		}
	fprintf(stderr, "idlekit record: this idlekit was built without libtracefs "
			"(install libtracefs-dev: scripts/install-deps, then rebuild)\n");
	return EXIT_FAIL;
}

#else

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <tracefs.h>

/* How often the instance's buffers are drained during the recording. */
#define DRAIN_NS (200 * 1000 * 1000L)

enum rk { R_IDLE, R_IRQ, R_IPI, R_TSTART, R_TCANCEL, R_TEXPIRE, R_WAKING, R_WAKEUP, R_SWITCH,
	  R_TICK_STOP };
#define R_TICK 0x100 /* with R_TSTART, R_TEXPIRE: the tick's hrtimer */

/* One kernel event as spooled: fixed size, native byte order (the files never leave). */
struct rec {
	uint64_t ts;
	uint64_t id;   /* hrtimer address */
	int64_t arg;   /* cpu_idle state (-1 exit), irq, expires, waking/wakeup PID, prev PID, success */
	int64_t arg2;  /* waking/wakeup: target CPU; switch: next PID */
	int32_t cpu;
	int32_t kind;
};

/*
 * The spool: one unlinked temporary file per CPU beside the output, in the order the CPU's
 * ring buffer gave the events (by time: one CPU's buffer is ordered), so memory does not grow
 * with the recording; the trace is written at the end by a k-way merge of the files.
 */
struct spool {
	FILE **f;
	int ncpus;
	uint64_t events;
	int err;     /* errno of the first write failure */
	bool failed; /* a write failed (err) */
	bool read_failed;
	uint64_t tick_fn;
	uint64_t *last_tick; /* per CPU: the tick hrtimer's last expiry time (HZ) */
	uint64_t tick_step;  /* the smallest step between them */
};

static int on_event(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	struct spool *sp = ctx;
	unsigned long long v = 0, id = 0, w = 0;
	struct rec x = { .ts = r->ts, .cpu = cpu, .arg = -1, .arg2 = -1 };

	if (cpu < 0 || cpu >= sp->ncpus || sp->failed)
		return sp->failed;
	if (strcmp(e->name, "cpu_idle") == 0) {
		if (tep_get_field_val(NULL, e, "state", r, &v, 0))
			return 0;
		x.kind = R_IDLE;
		x.arg = (uint32_t)v == UINT32_MAX ? -1 : (int64_t)(uint32_t)v;
	} else if (strcmp(e->name, "irq_handler_entry") == 0) {
		if (tep_get_field_val(NULL, e, "irq", r, &v, 0))
			return 0;
		x.kind = R_IRQ;
		x.arg = (int64_t)(int32_t)v;
	} else if (strcmp(e->system, "irq_vectors") == 0) {
		x.kind = R_IPI;
	} else if (strcmp(e->name, "hrtimer_start") == 0) {
		unsigned long long fn = 0;
		if (tep_get_field_val(NULL, e, "hrtimer", r, &id, 0) ||
		    tep_get_field_val(NULL, e, "expires", r, &v, 0))
			return 0;
		tep_get_field_val(NULL, e, "function", r, &fn, 0);
		x.kind = R_TSTART;
		x.arg = (int64_t)v;
		x.id = id;
		if (sp->tick_fn && fn == sp->tick_fn) {
			x.kind |= R_TICK;
			/* HZ: the smallest step between the tick's expiry times on one CPU. */
			uint64_t prev = sp->last_tick[cpu];
			if (prev && v > prev && (!sp->tick_step || v - prev < sp->tick_step))
				sp->tick_step = v - prev;
			sp->last_tick[cpu] = v;
		}
	} else if (strcmp(e->name, "hrtimer_cancel") == 0 ||
		   strcmp(e->name, "hrtimer_expire_entry") == 0) {
		unsigned long long fn = 0;
		if (tep_get_field_val(NULL, e, "hrtimer", r, &id, 0))
			return 0;
		x.id = id;
		x.kind = e->name[8] == 'c' ? R_TCANCEL : R_TEXPIRE;
		if (x.kind == R_TEXPIRE && !tep_get_field_val(NULL, e, "function", r, &fn, 0) &&
		    sp->tick_fn && fn == sp->tick_fn)
			x.kind |= R_TICK;
	} else if (strcmp(e->name, "sched_waking") == 0 || strcmp(e->name, "sched_wakeup") == 0) {
		if (tep_get_field_val(NULL, e, "pid", r, &v, 0) ||
		    tep_get_field_val(NULL, e, "target_cpu", r, &w, 0))
			return 0;
		x.kind = e->name[11] == 'g' ? R_WAKING : R_WAKEUP;
		x.arg = (int64_t)(int32_t)v;
		x.arg2 = (int64_t)(int32_t)w;
	} else if (strcmp(e->name, "sched_switch") == 0) {
		if (tep_get_field_val(NULL, e, "prev_pid", r, &v, 0) ||
		    tep_get_field_val(NULL, e, "next_pid", r, &w, 0))
			return 0;
		x.kind = R_SWITCH;
		x.arg = (int64_t)(int32_t)v;
		x.arg2 = (int64_t)(int32_t)w;
	} else if (strcmp(e->name, "tick_stop") == 0) {
		if (tep_get_field_val(NULL, e, "success", r, &v, 0))
			return 0;
		x.kind = R_TICK_STOP;
		x.arg = v != 0;
	} else {
		return 0;
	}
	if (fwrite(&x, sizeof(x), 1, sp->f[cpu]) != 1) {
		sp->failed = true;
		sp->err = errno ? errno : EIO;
		return 1; /* stop the iteration */
	}
	sp->events++;
	return 0;
}

/* Per-CPU temporary files in the output's directory, unlinked at once. */
static int spool_open(struct spool *sp, const char *outpath, int ncpus, char *err, size_t errlen)
{
	char dir[4096];
	const char *slash = strrchr(outpath, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == outpath)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - outpath), outpath);
	sp->ncpus = ncpus;
	sp->f = calloc((size_t)ncpus, sizeof(*sp->f));
	sp->last_tick = calloc((size_t)ncpus, sizeof(*sp->last_tick));
	if (!sp->f || !sp->last_tick) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* One descriptor per CPU: raise the soft limit if that needs it. */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)ncpus + 64) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (rlim_t)ncpus + 64
				      ? (rlim_t)ncpus + 64 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (int c = 0; c < ncpus; c++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/.idlekit-record-%ld-cpu%d-XXXXXX", dir, (long)getpid(), c);
		int fd = mkstemp(path);
		if (fd < 0 || unlink(path) != 0 || !(sp->f[c] = fdopen(fd, "w+"))) {
			snprintf(err, errlen, "%.300s: cannot create a temporary file: %s", dir, strerror(errno));
			if (fd >= 0 && !sp->f[c])
				close(fd);
			return -1;
		}
	}
	return 0;
}

static void spool_close(struct spool *sp)
{
	for (int c = 0; sp->f && c < sp->ncpus; c++)
		if (sp->f[c])
			fclose(sp->f[c]);
	free(sp->f);
	free(sp->last_tick);
	sp->f = NULL;
	sp->last_tick = NULL;
}

/* Read what the instance's buffers hold now (consumed) into the spool; -1 on failure. */
static int drain(struct tep_handle *tep, struct tracefs_instance *inst, struct spool *sp)
{
	if (sp->failed || sp->read_failed)
		return -1;
	if (tracefs_iterate_raw_events(tep, inst, NULL, 0, on_event, sp) < 0 && !sp->failed) {
		sp->read_failed = true;
		return -1;
	}
	for (int c = 0; c < sp->ncpus && !sp->failed; c++)
		if (fflush(sp->f[c]) != 0 || ferror(sp->f[c])) {
			sp->failed = true;
			sp->err = errno ? errno : EIO;
		}
	return sp->failed ? -1 : 0;
}

/* The drain thread: every DRAIN_NS until told to stop.  Signals go to the main thread. */
struct drainer {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	struct tep_handle *tep;
	struct tracefs_instance *inst;
	struct spool *sp;
	uint64_t rounds;
};

static void *drain_main(void *p)
{
	struct drainer *d = p;
	pthread_mutex_lock(&d->mu);
	while (!d->stop) {
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += DRAIN_NS;
		if (until.tv_nsec >= IK_NSEC_PER_SEC) {
			until.tv_sec++;
			until.tv_nsec -= IK_NSEC_PER_SEC;
		}
		while (!d->stop && pthread_cond_timedwait(&d->cv, &d->mu, &until) != ETIMEDOUT)
			;
		if (d->stop)
			break;
		pthread_mutex_unlock(&d->mu);
		int rc = drain(d->tep, d->inst, d->sp);
		pthread_mutex_lock(&d->mu);
		d->rounds++;
		if (rc) {
			/* A full disk: end the recording now (the command too), as SIGTERM would. */
			kill(getpid(), SIGTERM);
			break;
		}
	}
	pthread_mutex_unlock(&d->mu);
	return NULL;
}

static int drainer_start(struct drainer *d)
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
	return rc ? -1 : 0;
}

static void drainer_stop(struct drainer *d)
{
	pthread_mutex_lock(&d->mu);
	d->stop = true;
	pthread_cond_signal(&d->cv);
	pthread_mutex_unlock(&d->mu);
	pthread_join(d->th, NULL);
	pthread_cond_destroy(&d->cv);
	pthread_mutex_destroy(&d->mu);
}

/* ---- The k-way merge ---------------------------------------------------------------------- */

struct merge {
	struct spool *sp;
	struct rec *head; /* per CPU: its next record */
	int *heap, n;     /* CPUs with a next record, by (ts, cpu) */
	bool read_err;
};

static bool before(const struct merge *m, int a, int b)
{
	const struct rec *x = &m->head[a], *y = &m->head[b];
	return x->ts != y->ts ? x->ts < y->ts : a < b;
}

static void sift_down(struct merge *m, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, s = i;
		if (l < m->n && before(m, m->heap[l], m->heap[s]))
			s = l;
		if (r < m->n && before(m, m->heap[r], m->heap[s]))
			s = r;
		if (s == i)
			return;
		int t = m->heap[i];
		m->heap[i] = m->heap[s];
		m->heap[s] = t;
		i = s;
	}
}

static int merge_open(struct merge *m, struct spool *sp)
{
	memset(m, 0, sizeof(*m));
	m->sp = sp;
	m->head = calloc((size_t)sp->ncpus, sizeof(*m->head));
	m->heap = calloc((size_t)sp->ncpus, sizeof(*m->heap));
	if (!m->head || !m->heap)
		return -1;
	for (int c = 0; c < sp->ncpus; c++) {
		if (fflush(sp->f[c]) != 0 || fseek(sp->f[c], 0, SEEK_SET) != 0)
			return -1;
		if (fread(&m->head[c], sizeof(struct rec), 1, sp->f[c]) == 1)
			m->heap[m->n++] = c;
		else if (ferror(sp->f[c]))
			return -1;
	}
	for (int i = m->n / 2 - 1; i >= 0; i--)
		sift_down(m, i);
	return 0;
}

/* The next record by time into *out: 1, or 0 at the end. */
static int merge_next(struct merge *m, struct rec *out)
{
	if (m->n == 0)
		return 0;
	int c = m->heap[0];
	*out = m->head[c];
	if (fread(&m->head[c], sizeof(struct rec), 1, m->sp->f[c]) != 1) {
		if (ferror(m->sp->f[c]))
			m->read_err = true;
		m->heap[0] = m->heap[--m->n];
	}
	sift_down(m, 0);
	return 1;
}

static void merge_free(struct merge *m)
{
	free(m->head);
	free(m->heap);
}

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

/* The header from sysfs: one driver per group of CPUs with the same table. */
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

static int build_header(struct ik_trace_header *h, int hz, char *err, size_t errlen)
{
	struct ik_sysfs *fs;
	struct ik_host_idle idle;
	int rc = -1;

	memset(h, 0, sizeof(*h));
	if (ik_sysfs_open_root("/", &fs, err, errlen))
		return -1;
	memset(&idle, 0, sizeof(idle));
	if (ik_host_idle_read(fs, NULL, &idle, err, errlen)) {
		ik_sysfs_close(fs);
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
	for (int i = 0; i < idle.ncpus; i++) {
		const struct ik_host_cpu *cpu = &idle.cpus[i];
		if (!cpu->has_cpuidle || cpu->nstates < 1) {
			snprintf(err, errlen, "CPU %d has no cpuidle states (driver %s): nothing to trace",
				 cpu->cpu, idle.driver);
			goto out;
		}
		int d;
		for (d = 0; d < h->ndrivers; d++)
			if (ik_host_same_table(&idle.cpus[group_first[d]], cpu))
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
		if (ik_sysfs_read_u64(fs, rel, &pkg, e, sizeof(e)) != IK_SYSFS_OK || pkg > INT32_MAX)
			continue;
		snprintf(rel, sizeof(rel), "cpu%d/topology/core_id", c);
		if (ik_sysfs_read_u64(fs, rel, &core, e, sizeof(e)) != IK_SYSFS_OK || core > INT32_MAX)
			continue;
		h->topo[c].package = (int32_t)pkg;
		h->topo[c].core = (int32_t)core;
	}
	/* The governor that chose the recorded states, and its parameters. */
	if (idle.governor[0] && strlen(idle.governor) < sizeof(h->governor) &&
	    !strpbrk(idle.governor, " \t")) {
		snprintf(h->governor, sizeof(h->governor), "%.15s", idle.governor); /* length checked above */
		read_governor_params(h);
	}
	rc = 0;
out:
	ik_host_idle_free(&idle);
	ik_sysfs_close(fs);
	if (rc)
		ik_trace_header_free(h);
	return rc;
}

/* Merge the spool by time, convert and write the trace; the count of events written. */
static int write_trace(FILE *out, struct ik_trace_header *h, struct spool *sp, bool have_waking,
		       uint64_t *nev)
{
	uint8_t *idle = calloc((size_t)h->cpus, 1), *woke = calloc((size_t)h->cpus, 1);
	struct merge m = { 0 };
	int rc = -1;
	if (!idle || !woke || merge_open(&m, sp))
		goto out;
	if (!h->hz) {
		uint64_t best = sp->tick_step;
		h->hz = best >= 10000 && best <= 100000000 ? (int)((1000000000 + best / 2) / best) : 250;
	}
	if (ik_trace_write_header(out, h))
		goto out;
	struct rec rr;
	const struct rec *r = &rr;
	while (merge_next(&m, &rr)) {
		struct ik_trace_event ev = { .t_ns = (int64_t)r->ts, .cpu = r->cpu, .arg = -1 };
		const struct ik_driver *drv = &h->drivers[h->cpu_driver[r->cpu]].drv;
		bool tick = (r->kind & R_TICK) != 0;
		switch (r->kind & 0xff) {
		case R_IDLE:
			if (r->arg < 0) {
				if (!idle[r->cpu])
					continue; /* an exit whose entry was before the recording */
				ev.kind = IK_TRACE_IDLE_EXIT;
				idle[r->cpu] = 0;
			} else {
				if (idle[r->cpu] || r->arg >= drv->state_count)
					continue; /* an event lost in between */
				ev.kind = IK_TRACE_IDLE_ENTER;
				ev.state = (int)r->arg;
				idle[r->cpu] = 1;
				woke[r->cpu] = 0;
			}
			break;
		case R_IRQ:
		case R_IPI:
			if (!idle[r->cpu] || woke[r->cpu])
				continue;
			ev.kind = IK_TRACE_WAKE;
			ev.cause = (r->kind & 0xff) == R_IPI ? IK_CAUSE_IPI : IK_CAUSE_IRQ;
			ev.arg = (r->kind & 0xff) == R_IRQ ? r->arg : -1;
			woke[r->cpu] = 1;
			break;
		case R_TSTART:
			ev.kind = IK_TRACE_TIMER_START;
			ev.arg = r->arg < 0 ? 0 : r->arg;
			ev.timer_id = r->id;
			break;
		case R_TCANCEL:
			ev.kind = IK_TRACE_TIMER_CANCEL;
			ev.timer_id = r->id;
			break;
		case R_TEXPIRE:
			if (idle[r->cpu] && !woke[r->cpu]) {
				struct ik_trace_event w = ev;
				w.kind = IK_TRACE_WAKE;
				w.cause = tick ? IK_CAUSE_TICK : IK_CAUSE_TIMER;
				woke[r->cpu] = 1;
				if (ik_trace_write_event(out, &w))
					goto out;
				(*nev)++;
			}
			ev.kind = IK_TRACE_TIMER_EXPIRE;
			ev.timer_id = r->id;
			break;
		case R_WAKING:
		case R_WAKEUP:
		case R_SWITCH:
		case R_TICK_STOP: {
			static const int as_import[] = {
				[R_WAKING] = IK_IMPORT_WAKING, [R_WAKEUP] = IK_IMPORT_WAKEUP,
				[R_SWITCH] = IK_IMPORT_SWITCH, [R_TICK_STOP] = IK_IMPORT_TICK_STOP,
			};
			if (!ik_trace_sched_event(as_import[r->kind & 0xff], r->cpu, r->arg, r->arg2,
						  have_waking, h->cpus, &ev))
				continue;
			break;
		}
		default:
			continue;
		}
		if (ik_trace_write_event(out, &ev))
			goto out;
		(*nev)++;
	}
	rc = ferror(out) || m.read_err ? -1 : 0;
out:
	merge_free(&m);
	free(idle);
	free(woke);
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

/*
 * Instances of recordings that were killed (their idlekit-record-PID is gone) hold ring
 * buffers and enabled events until removed: remove them, or say how.
 */
static void remove_leftover_instances(const char *tracing_dir)
{
	struct ik_stale_instance stale[16];
	char err[IK_HOST_ERR_LEN];
	int n = ik_trace_instances_stale(tracing_dir, true, stale, 16, err, sizeof(err));
	if (n < 0) {
		fprintf(stderr, "idlekit record: note: cannot look for leftover instances: %s\n", err);
		return;
	}
	for (int i = 0; i < n; i++) {
		if (stale[i].removed)
			fprintf(stderr, "idlekit record: removed the tracefs instance %s left by a "
				"killed recording (process %ld is gone)\n", stale[i].name, stale[i].pid);
		else
			fprintf(stderr, "idlekit record: warning: the tracefs instance %s is left by a "
				"killed recording (process %ld is gone) and cannot be removed: %s; "
				"remove it with: rmdir %s\n", stale[i].name, stale[i].pid,
				strerror(stale[i].error), stale[i].path);
	}
}

int cmd_record(int argc, char **argv)
{
	enum { OPT_HZ = 256, OPT_BUFFER };
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "hz", required_argument, NULL, OPT_HZ },
		{ "buffer-kb", required_argument, NULL, OPT_BUFFER },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *outpath = NULL;
	int64_t duration_ns = -1;
	uint64_t hz = 0, buffer_kb = 16384;
	char err[IK_ERR_LEN];
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'd':
			if (ik_parse_duration_ns(optarg, "s", 24 * 3600 * IK_NSEC_PER_SEC, &duration_ns, err,
						 sizeof(err))) {
				fprintf(stderr, "idlekit record: --duration: %s\n", err);
				return EXIT_USAGE;
			}
			break;
		case OPT_HZ:
			if (cli_parse_range("record", "--hz", optarg, 1, 100000, &hz))
				return EXIT_USAGE;
			break;
		case OPT_BUFFER:
			if (cli_parse_range("record", "--buffer-kb", optarg, 4, 1u << 22, &buffer_kb))
				return EXIT_USAGE;
			break;
		case 'h': fputs(record_usage, stdout); return EXIT_OK;
		default:
			fprintf(stderr, "idlekit record: unknown or incomplete option '%s' (see idlekit record --help)\n",
				argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	char **command = NULL;
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--") != 0) {
			fprintf(stderr, "idlekit record: unexpected '%s': a command goes after '--'\n", argv[optind]);
			return EXIT_USAGE;
		}
		command = argv + optind;
	}
	if (!outpath) {
		fprintf(stderr, "idlekit record: -o FILE is required\ne.g. idlekit record -o run.trace --duration 5s\n");
		return EXIT_USAGE;
	}
	if (cli_output_check("record", outpath))
		return EXIT_USAGE;

	/* tracefs: where libtracefs finds it, or (for testing) $IDLEKIT_TRACEFS */
	char *tracefs_override = getenv("IDLEKIT_TRACEFS");
	if (tracefs_override && *tracefs_override && tracefs_set_tracing_dir(tracefs_override)) {
		fprintf(stderr, "idlekit record: IDLEKIT_TRACEFS=%s: not usable\n", tracefs_override);
		return EXIT_USAGE;
	}
	const char *tracing_dir = tracefs_override && *tracefs_override ? tracefs_override
									: tracefs_tracing_dir();
	if (tracing_dir)
		remove_leftover_instances(tracing_dir);
	if (duration_ns < 0 && !command)
		duration_ns = 10 * IK_NSEC_PER_SEC;

	/* Signals first: SIGINT during the set-up ends the recording as soon as it starts. */
	if (ik_signals_catch()) {
		fprintf(stderr, "idlekit record: cannot install signal handlers\n");
		return EXIT_FAIL;
	}
	struct ik_trace_header h;
	if (build_header(&h, (int)hz, err, sizeof(err))) {
		fprintf(stderr, "idlekit record: %s\n", err);
		ik_signals_restore();
		return EXIT_FAIL;
	}
	h.minor = 1; /* task_wake, switch, tick_stop */
	char name[64], kb[32];
	snprintf(name, sizeof(name), "idlekit-record-%ld", (long)getpid());
	struct tracefs_instance *inst = tracefs_instance_create(name);
	struct spool sp = { .tick_fn = tick_function() };
	struct tep_handle *tep = NULL;
	int rc = EXIT_FAIL;
	if (!inst) {
		fprintf(stderr, "idlekit record: cannot create the tracefs instance %s: %s (root and tracefs needed)\n",
			name, strerror(errno));
		goto out;
	}
	snprintf(kb, sizeof(kb), "%" PRIu64, buffer_kb);
	tracefs_trace_off(inst);
	if (tracefs_instance_file_write(inst, "trace_clock", "mono") < 0 ||
	    tracefs_instance_file_write(inst, "buffer_size_kb", kb) < 0 ||
	    tracefs_event_enable(inst, "power", "cpu_idle") ||
	    tracefs_event_enable(inst, "irq", "irq_handler_entry") ||
	    tracefs_event_enable(inst, "timer", "hrtimer_start") ||
	    tracefs_event_enable(inst, "timer", "hrtimer_cancel") ||
	    tracefs_event_enable(inst, "timer", "hrtimer_expire_entry")) {
		fprintf(stderr, "idlekit record: %s: cannot set up the instance (trace_clock mono, buffer_size_kb, events power:cpu_idle, irq, timer): %s\n",
			name, strerror(errno));
		goto out;
	}
	/* The IPI vectors exist on x86 only; the sched events and tick_stop where the kernel
	   has them (sched_waking since 4.3; without it, sched_wakeup stands in). */
	tracefs_event_enable(inst, "irq_vectors", "reschedule_entry");
	tracefs_event_enable(inst, "irq_vectors", "call_function_entry");
	tracefs_event_enable(inst, "irq_vectors", "call_function_single_entry");
	bool have_waking = tracefs_event_enable(inst, "sched", "sched_waking") == 0;
	bool have_wakeup = tracefs_event_enable(inst, "sched", "sched_wakeup") == 0;
	bool have_switch = tracefs_event_enable(inst, "sched", "sched_switch") == 0;
	bool have_tick_stop = tracefs_event_enable(inst, "timer", "tick_stop") == 0;
	if (!have_waking && !have_wakeup)
		fprintf(stderr, "idlekit record: note: no sched_waking or sched_wakeup event: no task_wake in the trace\n");
	const char *systems[] = { "power", "irq", "timer", "irq_vectors", "sched", NULL };
	tep = tracefs_local_events_system(NULL, systems);
	if (!tep) {
		fprintf(stderr, "idlekit record: cannot read the event formats: %s\n", strerror(errno));
		goto out;
	}
	if (spool_open(&sp, outpath, h.cpus, err, sizeof(err))) {
		fprintf(stderr, "idlekit record: %s\n", err);
		goto out;
	}
	struct drainer dr = { .tep = tep, .inst = inst, .sp = &sp };
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tracefs_trace_on(inst);
	if (drainer_start(&dr)) {
		tracefs_trace_off(inst);
		fprintf(stderr, "idlekit record: cannot start the drain thread\n");
		goto out;
	}
	int child_status = 0, run_rc = 0;
	if (command) {
		run_rc = ik_run_command(command, &child_status, err, sizeof(err));
	} else {
		struct timespec end = t0;
		end.tv_sec += (time_t)(duration_ns / IK_NSEC_PER_SEC);
		end.tv_nsec += (long)(duration_ns % IK_NSEC_PER_SEC);
		if (end.tv_nsec >= IK_NSEC_PER_SEC) {
			end.tv_sec++;
			end.tv_nsec -= IK_NSEC_PER_SEC;
		}
		while (!ik_signals_caught() &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
			;
	}
	tracefs_trace_off(inst);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	drainer_stop(&dr);
	if (run_rc) {
		fprintf(stderr, "idlekit record: %s\n", err);
		rc = EXIT_USAGE;
		goto out;
	}
	int sig = ik_signals_caught();
	drain(tep, inst, &sp); /* what is left */
	if (sp.failed || sp.read_failed) {
		if (sp.failed)
			fprintf(stderr, "idlekit record: writing the temporary files beside %s failed: %s; nothing written\n",
				outpath, strerror(sp.err));
		else
			fprintf(stderr, "idlekit record: reading the trace buffers failed; nothing written\n");
		goto out;
	}

	struct cli_output o;
	uint64_t nev = 0;
	if (cli_output_open(&o, outpath) == 0) {
		int wrc = write_trace(o.fp, &h, &sp, have_waking, &nev);
		if (wrc)
			fprintf(stderr, "idlekit record: %s: writing the trace failed: %s; nothing written\n",
				outpath, strerror(errno));
		if (cli_output_close(&o, wrc == 0) == 0) {
			double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
			fprintf(stderr, "idlekit record: %s: %" PRIu64 " events from %" PRIu64 " kernel events over %.3f s (%" PRIu64 " drains), %d CPUs, HZ %d%s%s%s\n",
				outpath, nev, sp.events, secs, dr.rounds + 1, h.cpus, h.hz,
				have_switch ? "" : ", no sched_switch", have_tick_stop ? "" : ", no tick_stop",
				sig ? " (stopped by a signal)" : "");
			rc = command ? (child_status ? EXIT_FAIL : EXIT_OK) : EXIT_OK;
		} else if (wrc == 0) {
			fprintf(stderr, "idlekit record: %s: nothing written\n", outpath);
		}
	}
	/* Events lost: overwritten in a full ring buffer ("overrun") or not recorded ("dropped"). */
	for (int cpu = 0; cpu < h.cpus; cpu++) {
		uint64_t over = cpu_stat(inst, cpu, "overrun: "), drop = cpu_stat(inst, cpu, "dropped events: ");
		if (over || drop)
			fprintf(stderr, "idlekit record: CPU %d: %" PRIu64 " events lost (%" PRIu64 " overrun, %" PRIu64 " dropped): a larger --buffer-kb\n",
				cpu, over + drop, over, drop);
	}
out:
	/* The instance goes before the default dispositions come back: a late signal must not
	   leave it behind. */
	if (tep)
		tep_free(tep);
	if (inst) {
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	ik_signals_restore();
	spool_close(&sp);
	ik_trace_header_free(&h);
	return rc;
}

#endif
