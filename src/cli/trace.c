/*
 * idlekit analyze and idlekit replay: idle traces (docs/trace-format.md).  The commands'
 * options, inputs, messages and outputs; the work is done by the trace analysis
 * (src/trace/analyze.c) with its writers (src/report/analyze_out.c), and by the replay of
 * several traces (src/trace/replay_batch.c) with its reports (src/report/replay_batch_out.c).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "idlekit/kernel.h"
#include "report/analyze_out.h"
#include "report/html.h"
#include "report/replay_batch_out.h"
#include "trace/analyze.h"
#include "trace/replay_batch.h"

static const char analyze_usage[] =
	"usage: idlekit analyze TRACE [--json|--csv] [--lenient] [-o FILE] [--html FILE]\n"
	"\n"
	"What the idle periods of a trace were (idlekit's trace format, docs/trace-format.md;\n"
	"'-' reads standard input).  An idle period runs from idle_enter to idle_exit on one\n"
	"CPU; its residency is that time, exit included, as the kernel measures it.  Per CPU and\n"
	"for all CPUs, per state: entries, residency min/avg/max/total (us), and mis-predictions\n"
	"counted as the kernel's 'above' and 'below' (the one definition idlekit uses everywhere):\n"
	"  too deep     residency < the state's target residency, and a shallower enabled state\n"
	"               existed\n"
	"  too shallow  residency - the state's exit latency >= the target residency of the next\n"
	"               deeper enabled state\n"
	"(a state whose flags include OFF 0x10 or UNUSABLE 0x8 counts as disabled).  Also: a\n"
	"histogram of idle durations (log2 buckets in us) and the wake causes: the cause of a\n"
	"period is the first 'wake' event on its CPU at or after its idle_enter and before the\n"
	"next one ('none' if there was none), with how many too-deep periods each cause ended.\n"
	"A wake after the exit counts only within 50 us of it and before the CPU did anything else\n"
	"(a tick while the CPU is busy is not a cause).  Per cause, and per IRQ (named by the\n"
	"trace's 'irq' lines), the too-deep and too-shallow periods it ended.  Per CPU, its idle\n"
	"and busy share of the traced time (a CPU that never idled is flagged); with 'cpu' lines,\n"
	"the time all CPUs of a package, and of a core, were idle at once; with 'freq' events\n"
	"(cpu_frequency), the time at each frequency per CPU (P-state residency).\n"
	"Format 1.1: a task_wake from another CPU while idle is the cause 'remote'; the source\n"
	"CPUs of those and of 'wake ipi SRC' periods are listed; with switch events, the periods\n"
	"followed by a task and the empty ones.\n"
	"\n"
	"Options:\n"
	"  --json          one JSON object (schema idlekit.analyze/1; times in us, 3 decimals)\n"
	"  --csv           idlestat's layout: cluster,core,cpu,C-state,min (us),max (us),\n"
	"                  avg (us),total (us),hits,over,under  (over = too deep, under = too\n"
	"                  shallow; cluster and core from the trace's 'cpu' lines, else 0 and\n"
	"                  the CPU)\n"
	"  --lenient       skip bad event lines and count them (the first is reported) instead\n"
	"                  of stopping at the first one; a bad header is always an error\n"
	"  -o, --output F  write to F atomically (nothing is left behind on an error)\n"
	"  --html FILE     also write a self-contained HTML report with plots to FILE\n"
	"                  (docs/html-report.md)\n"
	"  --timeline-window START:LEN\n"
	"                  the HTML timeline's window from the first event (default 0:2ms;\n"
	"                  units ns, us, ms, s; ms if none)\n"
	"  -h, --help      this text\n"
	"\n"
	"Bad input: 'FILE:LINE: expected ..., got ...', exit status 2.\n"
	"\n"
	"Example:\n"
	"  $ idlekit analyze tests/fixtures/traces/two-cpus.trace --csv\n";

static const char replay_usage[] =
	"usage: idlekit replay TRACE [TRACE...] --governor G[,G...] --platform P [--closed-loop]\n"
	"                      [-j N] [OPTIONS]\n"
	"\n"
	"What would these governors have done on this trace?  Each governor, with a platform's\n"
	"state table (the 'table' driver), runs through the real cpuidle core on the trace's idle\n"
	"periods, one harness per CPU, all governors in one pass.  Per recorded period: the sleep\n"
	"length is the earliest pending timer (timer_start, timer_cancel, timer_expire events), the\n"
	"tick comes at multiples of TICK_NSEC, the wake is the first non-tick 'wake' or task_wake\n"
	"in the period (else the exit minus the recorded state's exit latency).  A wake by the\n"
	"tick, a timer or the polling limit before it is not work: the CPU enters idle again (a\n"
	"re-entry).  The chosen state costs the platform's real entry and exit (drawn from its\n"
	"distributions with --seed) and draws its power_mw.\n"
	"\n"
	"Open loop (the default): the recorded events keep their times; an entry waits only for\n"
	"the previous period's replayed exit to end.  --closed-loop: the exit cost delays the work\n"
	"and what follows from it on that CPU (its next entry, the timers it arms); IRQs keep\n"
	"their times, a remote task_wake or an IPI of a known sender moves with its source CPU.\n"
	"docs/replay.md says when to use which.\n"
	"\n"
	"Per governor: energy_j and avg_power_w (idle states at their power, entry and exit and\n"
	"busy time at the active power, each package at pkg_idle_mw while all its CPUs are in a\n"
	"core-gating state at once, at pkg_active_mw otherwise), the wake latency (per wake,\n"
	"from the wake to the work: the exit cost paid, with the platform's pkg_exit_ns when\n"
	"the wake is the first out of a deep package; percentiles), too deep / too shallow (the\n"
	"kernel's above/below, as idlekit sim counts them), residency per state.\n"
	"\n"
	"Options:\n"
	"  -g, --governor G,... menu, teo, ladder, haltpoll; several separated by commas\n"
	"  -p, --platform P     a built-in platform (idlekit platform list), an INI file, or\n"
	"                       'trace': the trace's own table (its first driver's; no power\n"
	"                       figures, so no energy; exits cost the advertised latency)\n"
	"  --closed-loop        the exit cost shifts what follows (default: open loop)\n"
	"  -j, --jobs N         replay N traces at a time (default: the CPUs this process may\n"
	"                       use); the output is the same\n"
	"                       bytes for any N: the reports in the traces' order, text one\n"
	"                       after the other, JSON {\"schema\": \"idlekit.replays/1\",\n"
	"                       \"replays\": [...]} with one idlekit.replay/2 object per trace\n"
	"                       (a single TRACE: its report alone, as before)\n"
	"  --seed N             seed of the entry/exit cost draws (default 1)\n"
	"  --hz N               the kernel's HZ (default: the trace's)\n"
	"  --kernel X.Y         every governor and the core as kernel release X.Y behaves\n"
	"                       (default 6.19; idlekit kernel list); each run's label then\n"
	"                       says 'as X.Y', e.g. -g menu --kernel 5.10\n"
	"  --switch NAME=on|off flip one behaviour switch on top of the release (repeatable;\n"
	"                       the label says it: 'as 6.12 +menu_no_iowait'), e.g.\n"
	"                       --kernel 6.12 --switch menu_no_iowait=on\n"
	"  --haltpoll-poll-ns N the haltpoll governor's guest_halt_poll_ns (default: the trace\n"
	"                       header's 'governor haltpoll' parameters, which idlekit record\n"
	"                       takes from /sys/module/haltpoll/parameters/; else 200000)\n"
	"  --compare-recorded   also: the recorded states mapped onto the platform's (by name,\n"
	"                       else by depth), how often each governor's first choice in a\n"
	"                       period is the mapped recorded state, and the confusion table\n"
	"                       (rows: recorded, columns: chosen, counts of periods)\n"
	"  --json               one JSON object (schema idlekit.replay/2, docs/replay.md):\n"
	"                       'runs' holds one object per governor with the figures of an\n"
	"                       idlekit sim run; idlekit compare takes two of them\n"
	"  --lenient            skip bad event lines and count them\n"
	"  -o, --output F       write to F atomically\n"
	"  --html FILE          also write a self-contained HTML report with plots to FILE\n"
	"                       (docs/html-report.md; the timeline is the first governor's)\n"
	"  --timeline-window START:LEN\n"
	"                       the HTML timeline's window from the first event (default\n"
	"                       0:2ms; units ns, us, ms, s; ms if none)\n"
	"  -h, --help           this text\n"
	"\n"
	"Bad input: 'FILE:LINE: ...', exit 2.\n"
	"\n"
	"Examples:\n"
	"  $ idlekit replay tests/fixtures/traces/two-cpus.trace -g menu,teo,ladder,haltpoll \\\n"
	"      -p intel-skx --compare-recorded\n"
	"  $ idlekit replay tests/fixtures/traces/recorded-sched.trace -g menu,teo -p arm-juno \\\n"
	"      --closed-loop --json -o whatif.json\n"
	"  $ idlekit replay tests/fixtures/traces/two-cpus.trace \\\n"
	"      tests/fixtures/traces/one-long-exit.trace -g menu,teo -p intel-skx -j 2\n";

struct opened {
	FILE *fp;
	const char *origin;
	struct ik_trace_reader *r;
};

/* Open TRACE and read its header; exit status or -1 if fine. */
static int open_trace(const char *cmd, const char *path, bool lenient, struct opened *o)
{
	char err[512];
	o->origin = strcmp(path, "-") == 0 ? "<stdin>" : path;
	int orc = EXIT_USAGE;
	o->fp = cli_input_open(cmd, path, &orc);
	if (!o->fp)
		return orc;
	int rc = ik__trace_open_file(o->fp, o->origin, lenient, &o->r, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		cli_input_close(o->fp);
		return rc == IK_TRACE_EINPUT ? EXIT_USAGE : EXIT_FAIL;
	}
	return -1;
}

static void close_trace(struct opened *o)
{
	ik__trace_close(o->r);
	cli_input_close(o->fp);
}

/* What analyze writes: the analysis as text, JSON or CSV, and its page. */
struct analyze_out {
	bool json, csv;
	const struct opened *in;
	const struct ik_trace_analysis *a;
	const struct ik_timeline *tl;
};

static int analyze_report(FILE *f, void *ctx)
{
	const struct analyze_out *w = ctx;
	const struct ik_trace_header *h = ik__trace_header(w->in->r);
	return w->json  ? ik__report_analyze_json(f, h, w->a)
	       : w->csv ? ik__report_analyze_csv(f, h, w->a)
			: ik__report_analyze_text(f, w->in->origin, h, w->a);
}

static int analyze_page(FILE *f, void *ctx)
{
	const struct analyze_out *w = ctx;
	return ik__report_html_analyze(f, w->in->origin, ik__trace_header(w->in->r), w->a, w->tl);
}

int cmd_analyze(int argc, char **argv)
{
	enum { OPT_CSV = 256 };
	static const struct option opts[] = {
		CLI_OPTION_JSON,
		CLI_HTML_OPTIONS,
		{ "csv", no_argument, NULL, OPT_CSV },
		CLI_OPTION_LENIENT,
		CLI_OPTION_OUTPUT,
		CLI_OPTIONS_END,
	};
	bool csv = false;
	struct cli_opts opt = { .cmd = "analyze", .usage = analyze_usage, .shortopts = "o:h",
				.longopts = opts, .bad = CLI_BAD_INCOMPLETE };
	int c;

	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case OPT_CSV: csv = true; break;
		}
	}
	if (opt.done)
		return opt.status;
	const char *outpath = opt.output, *htmlpath = opt.html;
	bool json = opt.json, lenient = opt.lenient;
	if (optind != argc - 1 || (json && csv)) {
		fprintf(stderr, "idlekit analyze: %s\ne.g. idlekit analyze run.trace --csv\n",
			json && csv ? "--json and --csv exclude each other"
				    : "expected one TRACE file ('-' for standard input)");
		return EXIT_USAGE;
	}
	if (cli_report_options_check(&opt))
		return EXIT_USAGE;
	struct opened in;
	int rc = open_trace("analyze", argv[optind], lenient, &in);
	if (rc >= 0)
		return rc;
	struct ik_trace_analysis a;
	char err[512];
	struct ik_timeline *tl = NULL;
	if (htmlpath) {
		tl = ik__timeline_new(0, opt.win_start, opt.win_len, ik__trace_header(in.r)->cpus);
		if (!tl) {
			fprintf(stderr, "idlekit analyze: out of memory\n");
			close_trace(&in);
			return EXIT_FAIL;
		}
	}
	int arc = ik__trace_analyze_timeline(in.r, &a, tl, err, sizeof(err));
	if (arc) {
		fprintf(stderr, "idlekit analyze: %s\n", err);
		ik__timeline_free(tl);
		close_trace(&in);
		return arc == IK_TRACE_EINPUT ? EXIT_USAGE : EXIT_FAIL;
	}
	if (a.skipped)
		fprintf(stderr, "idlekit analyze: --lenient: %" PRIu64 " bad lines skipped; the first: %s\n",
			a.skipped, ik__trace_first_skip(in.r));
	struct analyze_out w = { json, csv, &in, &a, tl };
	rc = cli_write_report_and_page(outpath, analyze_report, htmlpath, analyze_page, &w);
	ik__timeline_free(tl);
	ik__trace_analysis_free(&a);
	close_trace(&in);
	return rc;
}

/* ---- replay ------------------------------------------------------------------------------ */

/* What replay writes: every trace's report, and the one trace's page. */
struct replay_out {
	struct ik_replay_batch_out *out;
	int ntraces;
};

static int replay_report(FILE *f, void *ctx)
{
	struct replay_out *w = ctx;
	return ik__report_replay_batch_write(f, w->out, w->ntraces);
}

static int replay_page(FILE *f, void *ctx)
{
	const struct ik_replay_batch_bytes *v = &((struct replay_out *)ctx)->out->v[0];
	return fwrite(v->html, 1, v->htmllen, f) == v->htmllen ? 0 : -1;
}

int cmd_replay(int argc, char **argv)
{
	enum { OPT_COMPARE = 256, OPT_HP_POLL, OPT_CLOSED, OPT_SEED };
	static const struct option opts[] = {
		CLI_OPTION_JOBS,
		CLI_KERNEL_OPTIONS,
		CLI_HTML_OPTIONS,
		{ "governor", required_argument, NULL, 'g' },
		CLI_OPTION_PLATFORM,
		CLI_OPTION_HZ,
		{ "compare-recorded", no_argument, NULL, OPT_COMPARE },
		{ "haltpoll-poll-ns", required_argument, NULL, OPT_HP_POLL },
		{ "closed-loop", no_argument, NULL, OPT_CLOSED },
		{ "seed", required_argument, NULL, OPT_SEED },
		CLI_OPTION_JSON,
		CLI_OPTION_LENIENT,
		CLI_OPTION_OUTPUT,
		CLI_OPTIONS_END,
	};
	const char *governor = NULL;
	bool compare = false, closed = false;
	uint64_t seed = 1;
	struct ik_haltpoll_params hp;
	bool hp_given = false;
	/* --kernel: the release every governor instance and device runs as */
	struct ik_kernel kernel;
	char kerr[IK_ERR_LEN];
	struct cli_opts opt = { .cmd = "replay", .usage = replay_usage, .shortopts = "g:p:o:j:h",
				.longopts = opts, .bad = CLI_BAD_INCOMPLETE, .kernel = &kernel };
	int c;

	ik_kernel_init(&kernel, IK_KERNEL_DEFAULT_RELEASE);
	ik_haltpoll_params_default(&hp);
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case 'g': governor = optarg; break;
		case OPT_COMPARE: compare = true; break;
		case OPT_CLOSED: closed = true; break;
		case OPT_SEED:
			if (cli_parse_u64("replay", "--seed", optarg, UINT64_MAX, &seed))
				return EXIT_USAGE;
			break;
		case OPT_HP_POLL:
			if (cli_parse_u64("replay", "--haltpoll-poll-ns", optarg, UINT32_MAX,
					  &hp.guest_halt_poll_ns))
				return EXIT_USAGE;
			hp_given = true;
			break;
		}
	}
	if (opt.done)
		return opt.status;
	const char *outpath = opt.output, *htmlpath = opt.html, *platform = opt.platform;
	bool json = opt.json, lenient = opt.lenient;
	uint64_t hz = opt.hz;
	int jobs = opt.jobs; /* 0: the CPUs this process may use */
	/* The traces may come before or after the options. */
	int ntraces = argc - optind;
	const char *path = ntraces > 0 ? argv[optind] : NULL;
	for (int i = optind; i < argc; i++)
		for (int k = optind; k < i; k++)
			if (strcmp(argv[i], argv[k]) == 0 && strcmp(argv[i], "-") == 0) {
				fprintf(stderr, "idlekit replay: '-' (standard input) given twice\n");
				return EXIT_USAGE;
			}
	if (ntraces > 1 && htmlpath) {
		fprintf(stderr, "idlekit replay: --html is for one TRACE, got %d\n", ntraces);
		return EXIT_USAGE;
	}
	if (!path || !governor || !platform) {
		fprintf(stderr, "idlekit replay: %s is required\ne.g. idlekit replay run.trace -g menu,teo --platform intel-skx\n",
			!path ? "TRACE" : !governor ? "--governor G[,G...] (of: menu teo ladder haltpoll)"
						     : "--platform P (a built-in name or an INI file)");
		return EXIT_USAGE;
	}
	if (cli_report_options_check(&opt))
		return EXIT_USAGE;
	struct ik_replay_batch_out out = { .json = json, .compare = compare, .html = htmlpath != NULL };
	struct ik_replay_batch bt = { .closed_loop = closed, .hz = hz, .seed = seed, .haltpoll = hp,
				      .haltpoll_given = hp_given, .kernel = &kernel,
				      .timeline = htmlpath != NULL, .win_start = opt.win_start,
				      .win_len = opt.win_len, .report = ik__report_replay_batch_one,
				      .user = &out };
	char err[IK_REPLAY_BATCH_ERR_LEN];
	if (ik__replay_batch_governors(&bt, governor, err, sizeof(err))) {
		fprintf(stderr, "idlekit replay: --governor: %s\n", err);
		return EXIT_USAGE;
	}
	/* each governor must exist and be modelled as the release (a kernel: file: the core's) */
	for (int g = 0; g < bt.ngov; g++) {
		if (ik_kernel_check(&kernel, bt.specs[g], kerr, sizeof(kerr))) {
			fprintf(stderr, "idlekit replay: --kernel: %s\n", kerr);
			return EXIT_USAGE;
		}
	}
	int rc = ik__replay_batch_open(&bt, platform, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "idlekit replay: %s\n", err);
		ik__replay_batch_close(&bt);
		return rc == IK_TRACE_EINPUT ? EXIT_USAGE : EXIT_FAIL;
	}
	/* Every trace opened (its header read) here, in order: a bad one is reported first. */
	struct opened *in = calloc((size_t)ntraces, sizeof(*in));
	struct ik_replay_batch_trace *tv = calloc((size_t)ntraces, sizeof(*tv));
	out.v = calloc((size_t)ntraces, sizeof(*out.v));
	int nopen = 0;
	if (!in || !tv || !out.v) {
		fprintf(stderr, "idlekit replay: out of memory\n");
		rc = EXIT_FAIL;
		goto close;
	}
	for (; nopen < ntraces; nopen++) {
		rc = open_trace("replay", argv[optind + nopen], lenient, &in[nopen]);
		if (rc >= 0)
			goto close;
		tv[nopen].r = in[nopen].r;
		tv[nopen].origin = in[nopen].origin;
	}
	int fail = ik__replay_batch_run(&bt, tv, ntraces, jobs ? jobs : cli_default_jobs());
	/* the messages in the traces' order, up to the first that failed (then nothing is
	   written) */
	for (int i = 0; i <= (fail < ntraces ? fail : ntraces - 1); i++) {
		if (tv[i].skipped)
			fprintf(stderr, "idlekit replay: --lenient: %" PRIu64 " bad lines skipped; the first: %s\n",
				tv[i].skipped, ik__trace_first_skip(tv[i].r));
		if (tv[i].rc)
			fprintf(stderr, "idlekit replay: %s\n", tv[i].err);
	}
	if (fail < ntraces) {
		rc = tv[fail].rc == IK_TRACE_EINPUT ? EXIT_USAGE : EXIT_FAIL;
		goto close;
	}
	struct replay_out w = { &out, ntraces };
	rc = cli_write_report_and_page(outpath, replay_report, htmlpath, replay_page, &w);
close:
	for (int i = 0; i < nopen; i++)
		close_trace(&in[i]);
	free(in);
	free(tv);
	ik__report_replay_batch_free(&out, ntraces);
	ik__replay_batch_close(&bt);
	return rc;
}
