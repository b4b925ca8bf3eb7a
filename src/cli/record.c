/*
 * idlekit record: an idle trace of this machine, in idlekit's format (docs/trace-format.md).
 *
 * A tracefs instance of its own (idlekit-record-PID; the global tracer is never touched)
 * with the events power:cpu_idle, irq:irq_handler_entry, the x86 IPI vectors and the
 * hrtimer events, clock "mono" (the hrtimers' CLOCK_MONOTONIC, so timer expiry times and
 * event times are on one clock).  When the recording ends (the duration, the command's exit,
 * or SIGINT/SIGTERM) tracing stops, the instance's buffers are read with libtracefs, sorted
 * by time and converted: cpu_idle(state) -> idle_enter, cpu_idle(-1) -> idle_exit, the first
 * interrupt of an idle period -> wake (irq N, ipi, tick or timer), hrtimer_start/cancel/
 * expire_entry -> timer_start/cancel/expire with the hrtimer's address as ID.  The instance
 * is removed in every case.
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
	"(reschedule, call_function; x86) and timer:hrtimer_start/_cancel/_expire_entry, on the\n"
	"'mono' clock.  The header is this machine's cpuidle tables from sysfs (a disabled state\n"
	"gets the OFF flag 0x10, POLL the POLLING flag 0x1).\n"
	"\n"
	"The recording ends after --duration, when CMD exits, or at SIGINT/SIGTERM (Ctrl-C),\n"
	"whichever comes first; the trace is then written, atomically.  The events are held in\n"
	"the instance's per-CPU ring buffers until then: a longer recording needs a larger\n"
	"--buffer-kb, else the oldest events are overwritten (the count lost is printed).\n"
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

#include <tracefs.h>

enum rk { R_IDLE, R_IRQ, R_IPI, R_TSTART, R_TCANCEL, R_TEXPIRE };

struct rec {
	uint64_t ts;
	uint64_t seq;
	uint64_t id;
	int64_t arg;
	int cpu;
	int kind;
};

struct collect {
	struct rec *v;
	size_t n, cap;
	bool oom;
	uint64_t tick_fn;
	int ncpus;
};

static int on_event(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	struct collect *c = ctx;
	unsigned long long v = 0, id = 0;
	struct rec x = { .ts = r->ts, .cpu = cpu, .arg = -1 };

	if (cpu < 0 || cpu >= c->ncpus)
		return 0;
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
		if (c->tick_fn && fn == c->tick_fn)
			x.kind = R_TSTART | 0x100; /* the tick's hrtimer */
	} else if (strcmp(e->name, "hrtimer_cancel") == 0 ||
		   strcmp(e->name, "hrtimer_expire_entry") == 0) {
		unsigned long long fn = 0;
		if (tep_get_field_val(NULL, e, "hrtimer", r, &id, 0))
			return 0;
		x.id = id;
		x.kind = e->name[8] == 'c' ? R_TCANCEL : R_TEXPIRE;
		if (x.kind == R_TEXPIRE && !tep_get_field_val(NULL, e, "function", r, &fn, 0) &&
		    c->tick_fn && fn == c->tick_fn)
			x.kind |= 0x100;
	} else {
		return 0;
	}
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 65536;
		struct rec *nv = realloc(c->v, cap * sizeof(*nv));
		if (!nv) {
			c->oom = true;
			return 1;
		}
		c->v = nv;
		c->cap = cap;
	}
	x.seq = c->n;
	c->v[c->n++] = x;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
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
	rc = 0;
out:
	ik_host_idle_free(&idle);
	ik_sysfs_close(fs);
	if (rc)
		ik_trace_header_free(h);
	return rc;
}

/* Convert the sorted records and write the trace; the counts of what was written. */
static int write_trace(FILE *out, struct ik_trace_header *h, struct collect *c, uint64_t *nev)
{
	uint8_t *idle = calloc((size_t)h->cpus, 1), *woke = calloc((size_t)h->cpus, 1);
	uint64_t *last_tick = calloc((size_t)h->cpus, sizeof(uint64_t));
	int rc = -1;
	if (!idle || !woke || !last_tick)
		goto out;
	/* HZ from the tick hrtimer: the smallest step between its expiry times. */
	if (!h->hz) {
		uint64_t best = 0;
		for (size_t i = 0; i < c->n; i++) {
			const struct rec *r = &c->v[i];
			if (r->kind != (R_TSTART | 0x100))
				continue;
			uint64_t prev = last_tick[r->cpu], exp = (uint64_t)r->arg;
			if (prev && exp > prev && (!best || exp - prev < best))
				best = exp - prev;
			last_tick[r->cpu] = exp;
		}
		h->hz = best >= 10000 && best <= 100000000 ? (int)((1000000000 + best / 2) / best) : 250;
	}
	if (ik_trace_write_header(out, h))
		goto out;
	for (size_t i = 0; i < c->n; i++) {
		const struct rec *r = &c->v[i];
		struct ik_trace_event ev = { .t_ns = (int64_t)r->ts, .cpu = r->cpu, .arg = -1 };
		const struct ik_driver *drv = &h->drivers[h->cpu_driver[r->cpu]].drv;
		bool tick = (r->kind & 0x100) != 0;
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
		default:
			continue;
		}
		if (ik_trace_write_event(out, &ev))
			goto out;
		(*nev)++;
	}
	rc = ferror(out) ? -1 : 0;
out:
	free(idle);
	free(woke);
	free(last_tick);
	return rc;
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
			if (cli_parse_u64("record", "--hz", optarg, 100000, &hz) || hz == 0) {
				if (hz == 0)
					fprintf(stderr, "idlekit record: --hz: expected 1..100000, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_BUFFER:
			if (cli_parse_u64("record", "--buffer-kb", optarg, 1u << 22, &buffer_kb) || buffer_kb < 4) {
				if (buffer_kb < 4)
					fprintf(stderr, "idlekit record: --buffer-kb: expected 4..4194304, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
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
	char name[64], kb[32];
	snprintf(name, sizeof(name), "idlekit-record-%ld", (long)getpid());
	struct tracefs_instance *inst = tracefs_instance_create(name);
	struct collect col = { .tick_fn = tick_function(), .ncpus = h.cpus };
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
	/* The IPI vectors exist on x86 only. */
	tracefs_event_enable(inst, "irq_vectors", "reschedule_entry");
	tracefs_event_enable(inst, "irq_vectors", "call_function_entry");
	tracefs_event_enable(inst, "irq_vectors", "call_function_single_entry");
	const char *systems[] = { "power", "irq", "timer", "irq_vectors", NULL };
	struct tep_handle *tep = tracefs_local_events_system(NULL, systems);
	if (!tep) {
		fprintf(stderr, "idlekit record: cannot read the event formats: %s\n", strerror(errno));
		goto out;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tracefs_trace_on(inst);
	int child_status = 0;
	if (command) {
		if (ik_run_command(command, &child_status, err, sizeof(err))) {
			tracefs_trace_off(inst);
			fprintf(stderr, "idlekit record: %s\n", err);
			tep_free(tep);
			rc = EXIT_USAGE;
			goto out;
		}
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
	int sig = ik_signals_caught();

	cpu_set_t *none = NULL;
	if (tracefs_iterate_raw_events(tep, inst, none, 0, on_event, &col) < 0 || col.oom) {
		fprintf(stderr, "idlekit record: reading the trace buffers failed%s\n", col.oom ? ": out of memory" : "");
		tep_free(tep);
		goto out;
	}
	tep_free(tep);
	if (col.n)
		qsort(col.v, col.n, sizeof(*col.v), by_time);

	struct cli_output o;
	uint64_t nev = 0;
	if (cli_output_open(&o, outpath) == 0) {
		int wrc = write_trace(o.fp, &h, &col, &nev);
		if (cli_output_close(&o, wrc == 0) == 0) {
			double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
			fprintf(stderr, "idlekit record: %s: %" PRIu64 " events from %zu kernel events over %.3f s, %d CPUs, HZ %d%s\n",
				outpath, nev, col.n, secs, h.cpus, h.hz, sig ? " (stopped by a signal)" : "");
			rc = command ? (child_status ? EXIT_FAIL : EXIT_OK) : EXIT_OK;
		}
	}
	/* Events overwritten in the ring buffers, per CPU 'overrun' of the instance's stats. */
	for (int cpu = 0; cpu < h.cpus; cpu++) {
		char file[64];
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		char *stats = tracefs_instance_file_read(inst, file, NULL);
		const char *p = stats ? strstr(stats, "overrun: ") : NULL;
		if (p && strtoull(p + 9, NULL, 10))
			fprintf(stderr, "idlekit record: CPU %d: %llu events lost (ring buffer full: a larger --buffer-kb)\n",
				cpu, strtoull(p + 9, NULL, 10));
		free(stats);
	}
out:
	ik_signals_restore();
	if (inst) {
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	free(col.v);
	ik_trace_header_free(&h);
	return rc;
}

#endif
