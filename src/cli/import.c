/*
 * idlekit import: other tools' traces into idlekit's trace format (docs/trace-format.md).
 *
 * Divisions: reading a trace.dat in a child process (dat_*: the records staged and emitted,
 * its clock checked, the child and its status); the import's note on periods with no
 * cause; the command (cmd_import: options, the format, the platform's table, the outputs).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "config/scenario.h"
#include "drivers/registry.h"
#include "trace/dat_check.h"
#include "trace/import.h"
#include "trace/import_tep.h"
#include "util/fd_io.h"

static const char import_usage[] =
	"usage: idlekit import perf-script|ftrace|trace-cmd-report|trace-dat FILE [-o OUT.trace]\n"
	"                     [--platform P] [--hz N] [--clock mono] [--lenient]\n"
	"\n"
	"Convert another tool's trace into idlekit's trace format (docs/trace-format.md), for\n"
	"idlekit analyze and idlekit replay.  Formats:\n"
	"  perf-script  the text of `perf script` ('-' reads standard input) on a recording of\n"
	"               power:cpu_idle (required) and, for the wake causes,\n"
	"               irq:irq_handler_entry (its name= names the IRQ), irq:softirq_entry,\n"
	"               irq_vectors:reschedule_entry, call_function_entry,\n"
	"               call_function_single_entry, ipi:ipi_entry, ipi:ipi_send_cpu and\n"
	"               ipi_send_cpumask (the IPI's sender), timer:hrtimer_expire_entry;\n"
	"               power:cpu_frequency (P-states: 'freq' lines); sched:sched_waking,\n"
	"               sched_wakeup,\n"
	"               sched_switch and timer:tick_stop if present (task_wake, switch and\n"
	"               tick_stop lines, format 1.1); hrtimer_start and hrtimer_cancel only\n"
	"               with --clock mono.  e.g.\n"
	"                 perf record -e power:cpu_idle -e irq:irq_handler_entry \\\n"
	"                   -e timer:hrtimer_expire_entry -a -- sleep 1\n"
	"                 perf script > run.txt\n"
	"               Streams: memory does not grow with the input (a reorder window of\n"
	"               65536 events, then a per-CPU spill to a temporary file, put it back\n"
	"               in time order: CPUs any distance apart, each CPU's own events within\n"
	"               the window).\n"
	"  ftrace       tracefs text: the 'trace' file or trace_pipe ('COMM-PID [CPU] FLAGS\n"
	"               SECONDS: EVENT: FIELDS'), the same events; '[LOST N EVENTS]' counted\n"
	"  trace-cmd-report  the text of `trace-cmd report` (with or without -l; -t gives the\n"
	"               nanoseconds; its sched plugin's 'COMM:PID [PRIO]' forms are read),\n"
	"               the same\n"
	"  trace-dat    trace-cmd's trace.dat (all its buffers; needs an idlekit built with\n"
	"               libtracecmd), the same events; hrtimer_start/_cancel when the file's\n"
	"               clock is CLOCK_MONOTONIC (trace-cmd record -C mono, idlekit record),\n"
	"               which is found from the tick expiries: every now= within a tolerance\n"
	"               from their spread (docs/trace-format.md)\n"
	"\n"
	"Neither carries an idle-state table: --platform gives it (state=N is the index in\n"
	"that platform's table).  Without it a generic table is used, state0..stateN-1 with 0 us\n"
	"exit latency and target residency (N = the deepest state seen + 1): counts and\n"
	"residencies are right, mis-predictions are not meaningful.\n"
	"\n"
	"Options:\n"
	"  -o, --output F      the trace, written atomically (default: standard output)\n"
	"  -p, --platform P    a built-in platform (idlekit platform list) or an INI file\n"
	"  --hz N              the kernel's HZ for the header (default 250)\n"
	"  --clock mono        perf-script: perf recorded with -k mono (CLOCK_MONOTONIC), so the\n"
	"                      hrtimers' expiry times are on the events' clock: import\n"
	"                      hrtimer_start/_cancel/_expire_entry as timer events (checked:\n"
	"                      every tick expiry's now= within twice the offsets' spread, at\n"
	"                      least 20 us, at most a tenth of a tick, else exit 2);\n"
	"                      trace-dat: insist on it (exit 2 if the file's clock is not)\n"
	"  --lenient           skip bad lines and count them (the first is reported) instead\n"
	"                      of stopping at the first one\n"
	"  -q, --quiet         no progress line (a text FILE read for more than a second shows\n"
	"                      MB read of its size, on a terminal, on standard error)\n"
	"  -h, --help          this text\n"
	"\n"
	"Bad input: 'FILE:LINE: expected ..., got ...', exit status 2, nothing written.\n"
	"\n"
	"Example:\n"
	"  $ idlekit import perf-script run.txt -o run.trace --platform intel-skx\n"
	"  $ cat /sys/kernel/tracing/trace | idlekit import ftrace - -o run.trace\n"
	"  $ idlekit analyze run.trace\n";

struct dat_records {
	struct ik_trace_import_rec *v;
	size_t n, cap;
	bool oom;
	uint64_t used, ignored;
	uint64_t ipi_sends, ipi_masks, ipi_mask_targets; /* ipi_send_cpu, _cpumask and its CPUs */
	struct ik_trace_header names; /* IRQ names seen (irq_handler_entry's name) */
	bool names_full;
	struct ik_tep_conv conv; /* the child's: the events to records */
	char *stage; /* the child's: what libtracecmd is doing (shared with the parent) */
};

#define DAT_STAGE_LEN 96
static void dat_stage(struct dat_records *d, const char *what, int n)
{
	if (d->stage)
		snprintf(d->stage, DAT_STAGE_LEN, what, n);
}

#ifdef IDLEKIT_HAVE_TRACECMD

#include <trace-cmd.h>

static int dat_push(struct dat_records *d, const struct ik_trace_import_rec *r)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 4096;
		struct ik_trace_import_rec *nv = realloc(d->v, cap * sizeof(*nv));
		if (!nv) {
			d->oom = true;
			return -1;
		}
		d->v = nv;
		d->cap = cap;
	}
	d->v[d->n++] = *r;
	return 0;
}

static int dat_emit(void *ctx, const struct ik_trace_import_rec *r)
{
	return dat_push(ctx, r);
}

/* One record of a trace.dat buffer: what `idlekit record` makes of the same event
   (src/trace/import_tep.c), kept. */
static int dat_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *ctx)
{
	struct dat_records *d = ctx;
	struct tep_handle *tep = tracecmd_get_tep(handle);
	d->conv.tep = tep; /* an instance's buffer may have a handle of its own */
	return ik__tep_conv_event(&d->conv, tep ? tep_find_event_by_record(tep, rec) : NULL, rec,
				 cpu) ? -1 : 0;
}

/* Every buffer of a trace.dat (the top one and the instances'): exit status. */
static int read_dat_here(const char *path, struct dat_records *d, struct ik_trace_import_stats *st)
{
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (ik__tep_conv_init(&d->conv, NULL, IK_TRACE_MAX_CPUS, 0, dat_emit, d)) {
		fprintf(stderr, "idlekit import: out of memory\n");
		return EXIT_FAIL;
	}
	dat_stage(d, "opening it (its headers, event formats, options)", 0);
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "idlekit import: %s: expected a trace-cmd trace.dat file, got one that libtracecmd cannot open\n",
			path);
		return EXIT_USAGE;
	}
	dat_stage(d, "reading the top buffer's records", 0);
	int rc = tracecmd_iterate_events(h, NULL, 0, dat_record, d) < 0 && !d->oom ? -1 : 0;
	int nb = tracecmd_buffer_instances(h);
	for (int i = 0; i < nb && !rc && !d->oom; i++) {
		dat_stage(d, "opening buffer instance %d", i + 1);
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);
		if (!b)
			continue;
		dat_stage(d, "reading buffer instance %d's records", i + 1);
		if (tracecmd_iterate_events(b, NULL, 0, dat_record, d) < 0 && !d->oom)
			rc = -1;
		dat_stage(d, "closing buffer instance %d", i + 1);
		tracecmd_close(b);
	}
	dat_stage(d, "closing it", 0);
	tracecmd_close(h);
	st->used = d->used = d->conv.used;
	st->ignored = d->ignored = d->conv.ignored;
	st->ipi_sends = d->ipi_sends = d->conv.ipi_sends;
	st->ipi_masks = d->ipi_masks = d->conv.ipi_masks;
	st->ipi_mask_targets = d->ipi_mask_targets = d->conv.ipi_mask_targets;
	d->names = d->conv.names; /* sent to the parent */
	d->names_full = d->conv.names_full;
	memset(&d->conv.names, 0, sizeof(d->conv.names));
	ik__tep_conv_free(&d->conv);
	if (d->oom) {
		fprintf(stderr, "idlekit import: out of memory\n");
		return EXIT_FAIL;
	}
	if (rc) {
		fprintf(stderr, "idlekit import: %s: reading the trace.dat buffers failed\n", path);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/*
 * A trace.dat does not say its clock through libtracecmd, but its tick expiries do: each
 * hrtimer_expire_entry of the tick carries now=, the CLOCK_MONOTONIC time it fired.  When
 * every one is within the tolerance ik__trace_clock_mono derives from them, the trace is on
 * that clock (trace-cmd -C mono, or idlekit record's instance), and the hrtimers' expiry
 * times can be placed on its time line: hrtimer_start/_cancel are kept.  Otherwise they are
 * dropped and counted; with --clock mono that is an error naming the farthest tick.
 */
static int dat_timer_clock(struct dat_records *d, const char *origin, bool mono,
			   struct ik_trace_import_stats *st, struct ik_trace_import_opts *io)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct ik_trace_import_rec *r = &d->v[i];
		if (r->kind == IK_IMPORT_TICK && r->arg2 >= 0)
			ik__trace_clock_add(&st->clock, r->t_ns, r->arg2, 0, r->cpu);
	}
	int64_t tol;
	bool on_mono = ik__trace_clock_mono(&st->clock, io->hz, &tol);
	if (mono && !on_mono) {
		if (st->clock.n)
			fprintf(stderr, "idlekit import: %s: expected the trace's clock to be CLOCK_MONOTONIC "
					"with --clock mono, got a tick hrtimer on CPU %d at %" PRId64 " ns whose "
					"now= is %" PRId64 " us away (tolerance %" PRId64 " us, from the offsets' "
					"spread; record with trace-cmd -C mono)\n",
				origin, st->clock.far_cpu, st->clock.far_t_ns, st->clock.far_ns / 1000,
				tol / 1000);
		else
			fprintf(stderr, "idlekit import: %s: expected tick hrtimer_expire_entry events with "
					"now= to check --clock mono against, got none\n", origin);
		return EXIT_USAGE;
	}
	io->clock_mono = on_mono;
	if (on_mono)
		return EXIT_OK;
	size_t k = 0;
	for (size_t i = 0; i < d->n; i++) {
		if (d->v[i].kind == IK_IMPORT_TSTART || d->v[i].kind == IK_IMPORT_TCANCEL) {
			st->timers_ignored++;
			st->ignored++;
			st->used--;
			continue;
		}
		d->v[k++] = d->v[i];
	}
	d->n = k;
	return EXIT_OK;
}

/*
 * The file is the user's and libtracecmd reads it in full trust (a header cut short makes
 * it free twice; a corrupt section, read out of bounds), so it is read in a child process:
 * the records, the counts and the IRQ names come back through a pipe, and a reader that
 * crashes or aborts ends the import with a message, not the process.
 */
struct dat_reply {
	int rc;
	uint64_t n, used, ignored, ipi_sends, ipi_masks, ipi_mask_targets;
	int nirqs;
};

static void dat_child(int fd, const char *path, char *stage)
{
	struct dat_records *d = calloc(1, sizeof(*d));
	struct ik_trace_import_stats st;
	struct dat_reply rp = { .rc = EXIT_FAIL };
	if (d) {
		d->stage = stage;
		memset(&st, 0, sizeof(st));
		rp.rc = read_dat_here(path, d, &st);
		rp.n = d->n;
		rp.used = st.used, rp.ignored = st.ignored, rp.ipi_sends = st.ipi_sends;
		rp.ipi_masks = st.ipi_masks, rp.ipi_mask_targets = st.ipi_mask_targets;
		rp.nirqs = d->names.nirqs;
	}
	int bad = ik__fd_whole(fd, true, &rp, sizeof(rp));
	if (!bad && d && rp.n)
		bad = ik__fd_whole(fd, true, d->v, (size_t)rp.n * sizeof(*d->v));
	for (int i = 0; !bad && d && i < rp.nirqs; i++)
		bad = ik__fd_whole(fd, true, &d->names.irqs[i], sizeof(d->names.irqs[i]));
	_exit(bad ? 3 : 0);
}

/* The file's structure (src/trace/dat_check.c), before libtracecmd trusts any of it. */
static int check_dat(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct ik_dat_src src;
	struct ik_dat_info info;
	char err[320];
	if (fd < 0 || ik__dat_src_fd(&src, fd)) {
		fprintf(stderr, "idlekit import: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return EXIT_USAGE;
	}
	int bad = ik__dat_check(&src, &info, err, sizeof(err));
	close(fd);
	if (bad) {
		fprintf(stderr, "idlekit import: %s: not a trace.dat idlekit can read: %s\n", path, err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int read_dat(const char *path, struct dat_records *d, struct ik_trace_import_stats *st)
{
	int pfd[2];
	if (cli_input_check("import", path))
		return EXIT_USAGE;
	int checked = check_dat(path);
	if (checked != EXIT_OK)
		return checked;
	fflush(stderr);
	/* the child's standard error: libtracecmd prints on it whatever its log level
	   ("mmap: Unknown error -22"); only the import's own lines are passed on */
	FILE *cerr = tmpfile();
	/* what the child was doing, readable after it died */
	char *stage = mmap(NULL, DAT_STAGE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			   -1, 0);
	if (!cerr || stage == MAP_FAILED || pipe(pfd) != 0) {
		fprintf(stderr, "idlekit import: %s: %s\n", path, strerror(errno));
		if (cerr)
			fclose(cerr);
		if (stage != MAP_FAILED)
			munmap(stage, DAT_STAGE_LEN);
		return EXIT_FAIL;
	}
	stage[0] = '\0';
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "idlekit import: %s: cannot start its reader: %s\n", path,
			strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		fclose(cerr);
		munmap(stage, DAT_STAGE_LEN);
		return EXIT_FAIL;
	}
	if (pid == 0) {
		close(pfd[0]);
		if (dup2(fileno(cerr), 2) < 0)
			_exit(3);
		dat_child(pfd[1], path, stage);
	}
	close(pfd[1]);
	struct dat_reply rp;
	int got = ik__fd_whole(pfd[0], false, &rp, sizeof(rp));
	if (got == 0 && rp.n > 0) {
		if (rp.n > SIZE_MAX / sizeof(*d->v) || !(d->v = malloc((size_t)rp.n * sizeof(*d->v)))) {
			got = -1;
			d->oom = true;
		} else {
			got = ik__fd_whole(pfd[0], false, d->v, (size_t)rp.n * sizeof(*d->v));
			d->n = d->cap = (size_t)rp.n;
		}
	}
	for (int i = 0; got == 0 && i < rp.nirqs; i++) {
		struct ik_trace_irq_name nm;
		got = ik__fd_whole(pfd[0], false, &nm, sizeof(nm));
		nm.name[sizeof(nm.name) - 1] = '\0';
		if (got == 0 && ik__trace_irq_name_set(&d->names, nm.irq, nm.name, strlen(nm.name)))
			d->names_full = true;
	}
	close(pfd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	char line[1024];
	rewind(cerr);
	while (fgets(line, sizeof(line), cerr))
		if (strncmp(line, "idlekit ", 8) == 0)
			fputs(line, stderr);
	fclose(cerr);
	char was[DAT_STAGE_LEN];
	snprintf(was, sizeof(was), "%.*s", DAT_STAGE_LEN - 1, stage[0] ? stage : "starting");
	munmap(stage, DAT_STAGE_LEN);
	/* The child exits 0 after its reply, 3 when the reply could not be sent; anything
	   else is the reader dying on the file: a signal, or an exit of its own or of a
	   sanitizer that caught its fault (ASan exits 1). */
	bool died = WIFSIGNALED(status) ||
		    (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3);
	if (died) {
		char how[64];
		if (WIFSIGNALED(status))
			snprintf(how, sizeof(how), "%s", strsignal(WTERMSIG(status)));
		else
			snprintf(how, sizeof(how), "exit status %d", WEXITSTATUS(status));
		fprintf(stderr, "idlekit import: %s: the trace.dat reader (libtracecmd) crashed on it "
			"while %s (%s): the file is damaged or not a trace.dat\n", path, was, how);
		return EXIT_USAGE;
	}
	if (d->oom) {
		fprintf(stderr, "idlekit import: out of memory\n");
		return EXIT_FAIL;
	}
	if (got != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "idlekit import: %s: its reader ended without its records\n", path);
		return EXIT_FAIL;
	}
	st->used = rp.used, st->ignored = rp.ignored, st->ipi_sends = rp.ipi_sends;
	st->ipi_masks = rp.ipi_masks, st->ipi_mask_targets = rp.ipi_mask_targets;
	d->used = rp.used, d->ignored = rp.ignored, d->ipi_sends = rp.ipi_sends;
	d->ipi_masks = rp.ipi_masks, d->ipi_mask_targets = rp.ipi_mask_targets;
	return rp.rc;
}

#else

static int read_dat(const char *path, struct dat_records *d, struct ik_trace_import_stats *st)
{
	(void)path, (void)d, (void)st;
	return EXIT_FAIL;
}

#endif

static int64_t mb_read(void *ctx)
{
	off_t at = lseek(*(const int *)ctx, 0, SEEK_CUR); /* moves nothing */
	return at > 0 ? (int64_t)(at >> 20) : 0;
}

/*
 * Periods left without a cause: which kinds of event the input lacks that would name one
 * (an IPI's sender, a timer's expiry, a device interrupt), how many periods each would
 * have explained as far as the input shows it (IPIs: the CPU woke a task onto itself at its
 * wake with nothing before it, the wake-up an IPI carries), and the record commands that
 * take them all.
 */
static void no_cause_note(const struct ik_trace_import_stats *st)
{
	bool no_send = !st->kinds[IK_IMPORT_IPI_SEND];
	bool no_timer = !st->kinds[IK_IMPORT_TIMER] && !st->kinds[IK_IMPORT_TICK];
	bool no_irq = !st->kinds[IK_IMPORT_IRQ];
	if (!no_send && !no_timer && !no_irq) {
		fprintf(stderr, "idlekit import: note: %" PRIu64 " idle periods have no cause: no "
				"event the input has came first in them (a wake-up by an event not "
				"recorded, such as another architecture's IPI)\n", st->no_cause);
		return;
	}
	char what[512] = "";
	size_t a = 0;
	uint64_t told = 0;
	if (no_timer)
		a += (size_t)snprintf(what + a, sizeof(what) - a, "timer expiries "
				      "(timer:hrtimer_expire_entry), how many not known (without "
				      "them a timer's expiry time cannot be placed on the trace's clock)");
	if (no_send && a < sizeof(what)) {
		a += (size_t)snprintf(what + a, sizeof(what) - a, "%sIPIs' senders "
				      "(ipi:ipi_send_cpu, ipi:ipi_send_cpumask), at least %" PRIu64 " of them "
				      "(the CPU woke a task onto itself at its wake, nothing before "
				      "it%s)", a ? "; " : "", st->no_cause_wakeup,
				      no_timer ? ", though a timer's handler does the same" : "");
		told += st->no_cause_wakeup;
	}
	if (no_irq && a < sizeof(what))
		a += (size_t)snprintf(what + a, sizeof(what) - a, "%sdevice interrupts "
				      "(irq:irq_handler_entry), any of the other %" PRIu64,
				      a ? "; " : "", st->no_cause - (told < st->no_cause ? told : st->no_cause));
	static const char events[] = "power:cpu_idle irq:irq_handler_entry irq:softirq_entry "
				     "timer:hrtimer_start timer:hrtimer_cancel "
				     "timer:hrtimer_expire_entry ipi:ipi_send_cpu "
				     "ipi:ipi_send_cpumask sched:sched_waking sched:sched_switch";
	char perf[512] = "", tc[512] = "";
	size_t b = 0, c = 0;
	for (const char *e = events; *e;) {
		size_t n = strcspn(e, " ");
		b += (size_t)snprintf(perf + b, sizeof(perf) - b, " -e %.*s", (int)n, e);
		c += (size_t)snprintf(tc + c, sizeof(tc) - c, " -e %.*s", (int)n, e);
		e += n + (e[n] == ' ');
		if (b >= sizeof(perf) || c >= sizeof(tc))
			break;
	}
	fprintf(stderr, "idlekit import: note: %" PRIu64 " idle periods have no cause; the input "
			"has none of these, which would have named them: %s.  Record them with: perf "
			"record -k mono -a%s -- CMD (then perf script --ns), or trace-cmd record -C "
			"mono%s CMD (or idlekit record -o FILE -- CMD, which takes them all)\n",
		st->no_cause, what, perf, tc);
}

int cmd_import(int argc, char **argv)
{
	enum { OPT_CLOCK = 256 };
	static const struct option opts[] = {
		CLI_OPTION_OUTPUT,
		CLI_OPTION_PLATFORM,
		CLI_OPTION_HZ,
		CLI_OPTION_LENIENT,
		{ "clock", required_argument, NULL, OPT_CLOCK },
		CLI_OPTION_QUIET,
		CLI_OPTIONS_END,
	};
	bool mono = false;
	struct cli_opts opt = { .cmd = "import", .usage = import_usage, .shortopts = "o:p:qh",
				.longopts = opts, .bad = CLI_BAD_INCOMPLETE };
	int c;

	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case OPT_CLOCK:
			if (strcmp(optarg, "mono") != 0 && strcmp(optarg, "CLOCK_MONOTONIC") != 0) {
				fprintf(stderr, "idlekit import: --clock: expected 'mono' (perf record -k mono), got '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			mono = true;
			break;
		}
	}
	if (opt.done)
		return opt.status;
	const char *outpath = opt.output, *platform = opt.platform;
	bool quiet = opt.quiet, lenient = opt.lenient;
	uint64_t hz = opt.hz;
	if (argc - optind != 2) {
		fprintf(stderr, "idlekit import: expected FORMAT FILE, got %d arguments\n"
				"e.g. idlekit import perf-script run.txt -o run.trace --platform intel-skx\n",
			argc - optind);
		return EXIT_USAGE;
	}
	const char *format = argv[optind], *path = argv[optind + 1];
	bool dat = strcmp(format, "trace-dat") == 0;
	enum ik_trace_text_format tf = IK_TEXT_PERF_SCRIPT;
	if (strcmp(format, "ftrace") == 0)
		tf = IK_TEXT_FTRACE;
	else if (strcmp(format, "trace-cmd-report") == 0)
		tf = IK_TEXT_TRACE_CMD_REPORT;
	else if (strcmp(format, "perf-script") != 0 && !dat) {
		fprintf(stderr, "idlekit import: unknown format '%s' (known: perf-script, ftrace, "
				"trace-cmd-report, trace-dat)\n", format);
		return EXIT_USAGE;
	}
#ifndef IDLEKIT_HAVE_TRACECMD
	if (dat) {
		fprintf(stderr, "idlekit import: trace-dat: this idlekit was built without libtracecmd "
				"(install libtracecmd-dev: scripts/install-deps, then rebuild)\n");
		return EXIT_FAIL;
	}
#endif

	char err[IK_ERR_LEN];
	int rc = EXIT_USAGE;
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	struct ik_driver_binding *bind = calloc(1, sizeof(*bind));
	bool bound = false;
	FILE *in = NULL;
	if (!sc || !bind) {
		fprintf(stderr, "idlekit import: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	if (platform) {
		/* The platform's states as the table driver builds them, as replay does. */
		if (ik__platform_load(platform, &sc->platform, err, sizeof(err))) {
			fprintf(stderr, "idlekit import: %s\n", err);
			goto out;
		}
		char berr[IK_ERR_LEN + PATH_MAX];
		if (ik__driver_table_bind(sc, platform, "menu", 250, bind, berr, sizeof(berr))) {
			fprintf(stderr, "idlekit import: %s\n", berr);
			goto out;
		}
		bound = true;
	}
	const char *origin = strcmp(path, "-") == 0 ? "<stdin>" : path;
	struct ik_trace_import_opts io = { .drv = bound ? &bind->table : NULL, .hz = (int)hz,
					   .lenient = lenient, .clock_mono = mono };
	struct ik_trace_import_stats st;
	struct cli_output o;
	int irc;
	if (dat) {
		struct dat_records dr = { 0 };
		memset(&st, 0, sizeof(st));
		rc = read_dat(path, &dr, &st);
		if (rc != EXIT_OK) {
			free(dr.v);
			ik__trace_header_free(&dr.names);
			goto out;
		}
		rc = dat_timer_clock(&dr, origin, mono, &st, &io);
		if (rc != EXIT_OK) {
			free(dr.v);
			ik__trace_header_free(&dr.names);
			goto out;
		}
		rc = EXIT_FAIL;
		if (cli_output_open(&o, outpath) != 0) {
			free(dr.v);
			ik__trace_header_free(&dr.names);
			goto out;
		}
		io.irq_names = &dr.names;
		irc = ik__trace_import_records(dr.v, dr.n, origin, o.fp, &io, &st, err, sizeof(err));
		free(dr.v);
		ik__trace_header_free(&dr.names);
	} else {
		in = cli_input_open("import", path, &rc);
		if (!in)
			goto out;
		rc = EXIT_FAIL;
		if (cli_output_open(&o, outpath) != 0)
			goto out;
		/* a regular file's MB read so far, from its descriptor's offset (stdio reads ahead
		   by a buffer: close enough), asked by the progress line's own thread */
		struct stat sb;
		int fd = fileno(in);
		struct cli_progress prog;
		bool sized = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;
		if (sized)
			cli_progress_begin_polled(&prog, "import", "MB read", (sb.st_size + (1 << 20) - 1) >> 20,
						  quiet, mb_read, &fd);
		irc = ik__trace_import_text(in, origin, tf, o.fp, &io, &st, err, sizeof(err));
		if (sized)
			cli_progress_end(&prog);
	}
	if (irc)
		fprintf(stderr, "idlekit import: %s\n", err);
	if (cli_output_close(&o, irc == 0) != 0) {
		rc = irc == IK_TRACE_EINPUT ? EXIT_USAGE : EXIT_FAIL;
		goto out;
	}
	if (st.skipped)
		fprintf(stderr, "idlekit import: --lenient: %" PRIu64 " bad lines skipped; the first: %s\n",
			st.skipped, st.first_skip);
	if (st.generic)
		fprintf(stderr, "idlekit import: note: no --platform: a generic table state0..state%d "
				"(0 us latency and residency); mis-predictions are not meaningful\n",
			st.nstates - 1);
	int64_t tol;
	bool looks_mono = ik__trace_clock_mono(&st.clock, io.hz, &tol);
	char offs[200] = "no tick expiry with now= to compare";
	if (st.clock.n)
		snprintf(offs, sizeof(offs), "%" PRIu64 " tick expiries' now= from %" PRId64 " to %" PRId64
			 " us off their times, tolerance %" PRId64 " us", st.clock.n,
			 st.clock.min_ns / 1000, st.clock.max_ns / 1000, tol / 1000);
	if (st.timers_ignored && dat)
		fprintf(stderr, "idlekit import: note: %" PRIu64 " hrtimer_start/_cancel events ignored: "
				"their expiry times are on CLOCK_MONOTONIC and this trace's clock is not "
				"(%s; trace-cmd record -C mono keeps them)\n",
			st.timers_ignored, offs);
	else if (st.timers_ignored)
		fprintf(stderr, "idlekit import: note: %" PRIu64 " hrtimer_start/_cancel events ignored: their expiry times are on CLOCK_MONOTONIC, %s (%s)\n",
			st.timers_ignored,
			looks_mono ? "and so is this input's clock: --clock mono imports them"
				   : "this input's clock is not: perf record -k mono, then --clock mono, imports them",
			offs);
	else if (dat && io.clock_mono)
		fprintf(stderr, "idlekit import: note: the trace's clock is CLOCK_MONOTONIC (%s): "
				"hrtimer_start/_cancel/_expire imported\n", offs);
	if (st.lost)
		fprintf(stderr, "idlekit import: note: %" PRIu64 " '[LOST N EVENTS]' lines: the ring "
				"buffer overflowed, periods around them may be wrong (a larger buffer_size_kb)\n",
			st.lost);
	if (st.ipi_sends || st.ipi_masks)
		fprintf(stderr, "idlekit import: note: IPIs sent: %" PRIu64 " ipi_send_cpu, %" PRIu64
				" ipi_send_cpumask (to %" PRIu64 " CPUs in all); %" PRIu64
				" idle periods ended by an IPI whose sender is known\n",
			st.ipi_sends, st.ipi_masks, st.ipi_mask_targets, st.ipi_senders);
	if (st.no_cause)
		no_cause_note(&st);
	if (st.edge_start || st.edge_end)
		fprintf(stderr, "idlekit import: note: partial idle periods at the edges: %" PRIu64
				" at the start (an exit before any entry: the CPU was idle when the "
				"recording began; not written), %" PRIu64 " at the end (still idle: written "
				"open, not counted by analyze)\n", st.edge_start, st.edge_end);
	fprintf(stderr, "idlekit import: %s: %" PRIu64 " events from %" PRIu64 " %s (%" PRIu64
			" events of other kinds ignored, %" PRIu64 " idle entries/exits out of order dropped, %" PRIu64
			" partial periods at the edges), %d CPUs\n",
		outpath ? outpath : "<stdout>", st.written, dat ? st.used + st.ignored : st.lines,
		dat ? "records" : "lines", st.ignored, st.dropped, st.edge_start + st.edge_end, st.cpus);
	rc = EXIT_OK;
out:
	cli_input_close(in);
	free(bind);
	free(sc);
	return rc;
}
