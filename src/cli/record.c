/*
 * idlekit record: an idle trace of this machine, in idlekit's format (docs/trace-format.md).
 *
 * The command: its options, the output (written atomically), the command it runs or the
 * time it waits, and what it says.  The recording is src/host/record_tracefs.c (a tracefs
 * instance of its own, drained by a thread into a spool) and src/trace/record_spool.c (the
 * spool merged by time and converted into the trace).  The instance is removed in every
 * case.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "config/scenario.h"
#include "host/host.h"
#include "host/record_tracefs.h"

static const char record_usage[] =
	"usage: idlekit record -o FILE [--duration TIME] [--hz N] [--buffer-kb N] [-- CMD...]\n"
	"\n"
	"Record an idle trace of this machine in idlekit's format (docs/trace-format.md), for\n"
	"idlekit analyze and idlekit replay.  Needs root and tracefs (mounted if it is not).\n"
	"A tracefs instance of its own is used (the global tracer and its settings are not\n"
	"touched) with the events power:cpu_idle, irq:irq_handler_entry, irq_vectors IPIs\n"
	"(reschedule, call_function; x86), ipi:ipi_send_cpu/_cpumask (their senders; kernel\n"
	"6.3 on), timer:hrtimer_start/_cancel/_expire_entry, sched:sched_waking/_wakeup/\n"
	"_switch and timer:tick_stop, on the 'mono' clock (format 1.1: task_wake, switch,\n"
	"tick_stop lines), each period's cause by import's rule (docs/trace-format.md).  The header is this machine's cpuidle\n"
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
	"tracefs directory, $IDLEKIT_SYSFS_ROOT a root whose sys/devices/system/cpu gives the\n"
	"idle-state tables (both for testing).\n"
	"\n"
	"With no cpuidle driver the trace's table is the idle loop's own: state 1 the default\n"
	"idle routine (HLT, MWAIT C1, WFI, ...), state 0 polling (idle=poll), as the kernel\n"
	"numbers them in its cpu_idle events.\n"
	"\n"
	"Example:\n"
	"  # idlekit record -o run.trace --duration 5s && idlekit analyze run.trace\n";

/*
 * Instances of recordings that were killed (their idlekit-record-PID is gone) hold ring
 * buffers and enabled events until removed: remove them, or say how.
 */
static void remove_leftover_instances(const char *tracing_dir)
{
	struct ik_stale_instance stale[16];
	char err[IK_HOST_ERR_LEN];
	int n = ik__trace_instances_stale(tracing_dir, true, stale, 16, err, sizeof(err));
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
	enum { OPT_BUFFER = 256 };
	static const struct option opts[] = {
		CLI_OPTION_OUTPUT,
		{ "duration", required_argument, NULL, 'd' },
		CLI_OPTION_HZ,
		{ "buffer-kb", required_argument, NULL, OPT_BUFFER },
		CLI_OPTIONS_END,
	};
	int64_t duration_ns = -1;
	uint64_t buffer_kb = 16384;
	char err[IK_ERR_LEN];
	int c;

	if (!ik__recording_supported()) {
		for (int i = 1; i < argc; i++)
			if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
				fputs(record_usage, stdout);
				return EXIT_OK;
			}
		fprintf(stderr, "idlekit record: this idlekit was built without libtracefs "
				"(install libtracefs-dev: scripts/install-deps, then rebuild)\n");
		return EXIT_FAIL;
	}
	struct cli_opts opt = { .cmd = "record", .usage = record_usage, .shortopts = "+o:d:h",
				.longopts = opts, .bad = CLI_BAD_INCOMPLETE };
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case 'd':
			if (ik__parse_duration_ns(optarg, "s", 24 * 3600 * IK_NSEC_PER_SEC, &duration_ns, err,
						 sizeof(err))) {
				fprintf(stderr, "idlekit record: --duration: %s\n", err);
				return EXIT_USAGE;
			}
			break;
		case OPT_BUFFER:
			if (cli_parse_range("record", "--buffer-kb", optarg, 4, 1u << 22, &buffer_kb))
				return EXIT_USAGE;
			break;
		}
	}
	if (opt.done)
		return opt.status;
	const char *outpath = opt.output;
	uint64_t hz = opt.hz;
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
	bool bad_override;
	const char *tracing_dir = ik__recording_tracing_dir(tracefs_override, &bad_override);
	if (bad_override) {
		fprintf(stderr, "idlekit record: IDLEKIT_TRACEFS=%s: not a tracefs (expected a "
			"directory with an instances directory in it)\n", tracefs_override);
		return EXIT_USAGE;
	}
	if (tracing_dir)
		remove_leftover_instances(tracing_dir);
	if (duration_ns < 0 && !command)
		duration_ns = 10 * IK_NSEC_PER_SEC;

	/* Signals first: SIGINT during the set-up ends the recording as soon as it starts. */
	if (ik__signals_catch()) {
		fprintf(stderr, "idlekit record: cannot install signal handlers\n");
		return EXIT_FAIL;
	}
	struct ik_recording rec;
	int rc = EXIT_FAIL;
	if (ik__recording_open(&rec, getenv("IDLEKIT_SYSFS_ROOT"), (int)hz, buffer_kb, err,
			      sizeof(err))) {
		fprintf(stderr, "idlekit record: %s\n", err);
		goto out;
	}
	if (!rec.have_waking && !rec.have_wakeup)
		fprintf(stderr, "idlekit record: note: no sched_waking or sched_wakeup event: no task_wake in the trace\n");
	/* the spool goes beside the output: where there is room for the trace */
	char dir[4096];
	const char *slash = strrchr(outpath, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == outpath)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - outpath), outpath);
	if (ik__recording_start(&rec, dir, err, sizeof(err))) {
		fprintf(stderr, "idlekit record: %s\n", err);
		goto out;
	}
	int child_status = 0, run_rc = 0;
	if (command) {
		run_rc = ik__run_command(command, &child_status, err, sizeof(err));
	} else {
		struct timespec end = ik__timespec_add(rec.t0, duration_ns);
		while (!ik__signals_caught() &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR)
			;
	}
	ik__recording_stop(&rec);
	if (run_rc) {
		fprintf(stderr, "idlekit record: %s\n", err);
		rc = EXIT_USAGE;
		goto out;
	}
	int sig = ik__signals_caught();
	ik__recording_drain(&rec); /* what is left */
	if (rec.spool.failed || rec.read_failed) {
		if (rec.spool.failed)
			fprintf(stderr, "idlekit record: writing the temporary files beside %s failed: %s; nothing written\n",
				outpath, strerror(rec.spool.err));
		else
			fprintf(stderr, "idlekit record: reading the trace buffers failed; nothing written\n");
		goto out;
	}

	struct cli_output o;
	uint64_t nev = 0;
	if (cli_output_open(&o, outpath) == 0) {
		int wrc = ik__recording_write(&rec, o.fp, &nev);
		if (wrc)
			fprintf(stderr, "idlekit record: %s: writing the trace failed: %s; nothing written\n",
				outpath, strerror(errno));
		if (cli_output_close(&o, wrc == 0) == 0) {
			double secs = (double)(rec.t1.tv_sec - rec.t0.tv_sec) +
				      (double)(rec.t1.tv_nsec - rec.t0.tv_nsec) * 1e-9;
			fprintf(stderr, "idlekit record: %s: %" PRIu64 " events from %" PRIu64 " kernel events over %.3f s (%" PRIu64 " drains), %d CPUs, HZ %d%s%s%s\n",
				outpath, nev, ik__record_spool_events(&rec.spool), secs, rec.drains + 1,
				rec.h.cpus, rec.h.hz, rec.have_switch ? "" : ", no sched_switch",
				rec.have_tick_stop ? "" : ", no tick_stop", sig ? " (stopped by a signal)" : "");
			rc = command ? (child_status ? EXIT_FAIL : EXIT_OK) : EXIT_OK;
		} else if (wrc == 0) {
			fprintf(stderr, "idlekit record: %s: nothing written\n", outpath);
		}
	}
	/* Events lost: overwritten in a full ring buffer ("overrun") or not recorded ("dropped"). */
	for (int cpu = 0; cpu < rec.h.cpus; cpu++) {
		uint64_t over, drop;
		ik__recording_lost(&rec, cpu, &over, &drop);
		if (over || drop)
			fprintf(stderr, "idlekit record: CPU %d: %" PRIu64 " events lost (%" PRIu64 " overrun, %" PRIu64 " dropped): a larger --buffer-kb\n",
				cpu, over + drop, over, drop);
	}
out:
	/* The instance goes before the default dispositions come back: a late signal must not
	   leave it behind. */
	ik__recording_close(&rec);
	ik__signals_restore();
	return rc;
}
