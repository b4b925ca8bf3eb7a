/*
 * idlekit validate: a workload run for real on this machine and in the model of this
 * machine, and the two side by side.  The command: options, the platform (imported from
 * this machine unless given), the scratch directory, the outputs.  The work is
 * src/validate/.
 *
 * Divisions: the usage; the platform of this machine imported in a child; the scratch
 * directory's removal; option parsing and the checks between options; the outputs (text,
 * JSON, HTML); the command (cmd_validate: the workload's spec, the tools it needs, the
 * machine, the model's platform, the real runs, the traced run, the model's runs, the
 * comparison).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/host_cli.h"
#include "config/config.h"
#include "config/platform_ini.h"
#include "sim/sim.h"
#include "validate/validate.h"

static const char validate_usage[] =
	"usage: idlekit validate RTAPP.json [OPTIONS]\n"
	"       idlekit validate --builtin pingpong|periodic|cyclictest|tbench [OPTIONS]\n"
	"       idlekit validate [OPTIONS] -- COMMAND [ARGS...]\n"
	"\n"
	"Run a workload for real on this machine, reading the sysfs cpuidle counters of every\n"
	"CPU and state before and after one CLOCK_MONOTONIC window, and run the same workload in\n"
	"the simulator on the platform of this machine for the same duration; N runs each side.\n"
	"Prints each figure's median measured and predicted, their ranges and the error:\n"
	"per CPU and state entries/s, residency share, above/s and below/s; per CPU the busy\n"
	"share; idle entries/s over all CPUs; the workload's wake-up latency p50/p99 and its\n"
	"throughput.  Nothing of the machine is changed (no knob is written).\n"
	"\n"
	"The workloads, the real program and the model of each:\n"
	"  RTAPP.json          the real rt-app binary (Debian package rt-app) runs the file; its\n"
	"                      start-up (and calibration) is outside the window, which opens when\n"
	"                      its threads exist and lasts the file's global.duration; the wake-up\n"
	"                      latency is the wu_lat column of rt-app's own per-activation logs.\n"
	"                      Model: workload.type = rtapp on the same file\n"
	"  --builtin periodic  a timer sleeper: rt-app runs a generated file of --tasks threads,\n"
	"                      thread i pinned to CPU i, each a runtime event of --duty percent of\n"
	"                      --period then a timer.  Model: workload.type = periodic\n"
	"  --builtin pingpong  the pipe ping-pong of `idlekit ctxsw` (src/host/ctxsw.c) on CPUs\n"
	"                      0 and 1, compared in messages/s (each hand-over is one).  Model:\n"
	"                      workload.type = pingpong, one pair, same_package, 1-byte messages\n"
	"  --builtin cyclictest  rt-tests' cyclictest: --tasks threads, thread i on CPU i, each\n"
	"                      woken every --period (SCHED_OTHER, --default-system: the PM QoS\n"
	"                      limit left alone); the wake-up latency is its own histogram.\n"
	"                      Model: workload.type = periodic, --work-ns per cycle (1000)\n"
	"  --builtin tbench    dbench's tbench_srv and one tbench client over loopback TCP\n"
	"                      (Debian package dbench), placed by the scheduler; the window\n"
	"                      opens 1 s after the client's start; operations/s from tbench's\n"
	"                      per-second counts.  Model: workload.type = pingpong, one pair, an\n"
	"                      operation two messages (request, reply) of --work-ns each (4000)\n"
	"  -- COMMAND ARGS     any command: one run traced by idlekit's recorder (root, tracefs)\n"
	"                      and learned as a workload, as `idlekit workload learn` does; the\n"
	"                      other runs measured, each window the command's life (or\n"
	"                      --duration of it, then SIGTERM).  Its output goes to a scratch\n"
	"                      file; a non-zero exit fails the run.  Model: workload.type =\n"
	"                      learned on that model.  A --set is read after the traced run\n"
	"\n"
	"Options:\n"
	"  -p, --platform FILE      the model's platform (default: `idlekit platform import` of\n"
	"                           this machine, made in memory)\n"
	"  --set SECTION.KEY=VALUE  override a key of the model's scenario or platform, as in\n"
	"                           sim (repeatable), e.g. --set cpuidle.governor=haltpoll\n"
	"  --runs N                 runs each side (default 3, at most 64)\n"
	"  --duration T             builtins: the window (default 2s; periodic: whole seconds,\n"
	"                           rt-app's duration is); a command: its limit (default none)\n"
	"  --period T               periodic, cyclictest: the timer period (default 1ms)\n"
	"  --duty PCT               periodic: the runtime per period, % of it (default 20)\n"
	"  --tasks N                periodic, cyclictest: threads, one per CPU from CPU 0\n"
	"                           (default 1)\n"
	"  --work-ns N              pingpong: the model's work per message beyond the\n"
	"                           platform's context_switch_ns (default 0: calibrated, that\n"
	"                           is the one-CPU pipe ping-pong's whole hand-over, syscalls\n"
	"                           included);\n"
	"                           cyclictest: per cycle (default 1000, an estimate); tbench:\n"
	"                           per request or reply (default 4000, an estimate)\n"
	"  --json                   JSON output (schema idlekit.validate/1, docs/validation.md)\n"
	"  -o, --output FILE        write to FILE (atomically) instead of standard output\n"
	"  --html FILE              also a page with the idle-duration histograms overlaid\n"
	"  -q, --quiet              no progress lines on standard error\n"
	"  -h, --help               this text\n"
	"\n"
	"A machine with no cpuidle driver keeps no per-state counters: validate says so and\n"
	"exits 1.  $IDLEKIT_SYSFS_ROOT names a root whose sys/devices/system/cpu is read instead\n"
	"of the live one (for testing).\n"
	"\n"
	"Exit status: 0 done, 1 a run failed or was interrupted (or no cpuidle states), 2 bad\n"
	"input (also: rt-app not installed).\n"
	"\n"
	"Examples:\n"
	"  idlekit validate tests/fixtures/rtapp/validate-1ms.json\n"
	"  idlekit validate --builtin periodic --period 4ms --duty 25 --tasks 2 --runs 5\n"
	"  idlekit validate --builtin pingpong --json -o pingpong.json\n"
	"  idlekit validate --builtin tbench --duration 3s --html tbench.html\n"
	"  idlekit validate --runs 5 -- hackbench -g 1 -l 200\n";

/* The import of this machine, made by `platform import` in a child (its standard output
   into a pipe): the text, malloc'd, or NULL with the child's message already printed. */
static char *import_platform(void)
{
	int fd[2];
	if (pipe(fd) != 0)
		return NULL;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return NULL;
	}
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 1);
		close(fd[1]);
		char *args[] = { "platform import", NULL };
		int rc = cmd_platform_import(1, args);
		fflush(stdout);
		_exit(rc);
	}
	close(fd[1]);
	char *text = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 16384;
			char *p = realloc(text, cap);
			if (!p)
				break;
			text = p;
		}
		ssize_t n = read(fd[0], text + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!text || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(text);
		return NULL;
	}
	text[len] = '\0';
	return text;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

struct opts {
	const char *file, *builtin, *platform, *outpath, *htmlpath;
	char **command; /* after "--": any command */
	bool json, quiet;
	uint64_t runs, tasks, work_ns;
	int64_t duration_ns, period_ns;
	double duty;
	bool have_duration, have_period, have_duty, have_tasks, have_work;
};

static int parse(int argc, char **argv, struct opts *o, struct ik_val_spec *spec)
{
	enum { OPT_RUNS = 256, OPT_JSON, OPT_HTML, OPT_SET, OPT_BUILTIN, OPT_DURATION, OPT_PERIOD,
	       OPT_DUTY, OPT_TASKS, OPT_WORK };
	static const struct option table[] = {
		{ "platform", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, OPT_SET },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "builtin", required_argument, NULL, OPT_BUILTIN },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "period", required_argument, NULL, OPT_PERIOD },
		{ "duty", required_argument, NULL, OPT_DUTY },
		{ "tasks", required_argument, NULL, OPT_TASKS },
		{ "work-ns", required_argument, NULL, OPT_WORK },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "output", required_argument, NULL, 'o' },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	/* everything after "--" is the command (not options of validate's) */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "idlekit validate: --: expected a command after it, e.g. "
					"idlekit validate -- sleep 1\n");
				return -1;
			}
			o->command = argv + i + 1;
			argc = i;
			break;
		}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hp:o:q", table, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->platform = optarg;
			break;
		case OPT_SET:
			if (spec->nsets >= IK_VAL_MAX_SETS || !strchr(optarg, '=')) {
				fprintf(stderr, "idlekit validate: --set %s: expected SECTION.KEY=VALUE "
					"(at most %d of them)\n", optarg, IK_VAL_MAX_SETS);
				return -1;
			}
			spec->sets[spec->nsets++] = optarg;
			break;
		case OPT_RUNS:
			if (cli_parse_range("validate", "--runs", optarg, 1, IK_VAL_MAX_RUNS, &o->runs))
				return -1;
			break;
		case OPT_BUILTIN:
			if (strcmp(optarg, "pingpong") != 0 && strcmp(optarg, "periodic") != 0 &&
			    strcmp(optarg, "cyclictest") != 0 && strcmp(optarg, "tbench") != 0) {
				fprintf(stderr, "idlekit validate: --builtin %s: expected pingpong, "
					"periodic, cyclictest or tbench\n", optarg);
				return -1;
			}
			o->builtin = optarg;
			break;
		case OPT_DURATION:
			if (host_duration_arg("validate", "--duration", optarg, "s", 3600000000000LL,
					      &o->duration_ns))
				return -1;
			o->have_duration = true;
			break;
		case OPT_PERIOD:
			if (host_duration_arg("validate", "--period", optarg, "ms", 10000000000LL,
					      &o->period_ns))
				return -1;
			o->have_period = true;
			break;
		case OPT_DUTY: {
			char *end;
			o->duty = strtod(optarg, &end);
			if (end == optarg || *end || !(o->duty > 0 && o->duty < 100)) {
				fprintf(stderr, "idlekit validate: --duty %s: expected a percentage "
					"above 0 and below 100\n", optarg);
				return -1;
			}
			o->have_duty = true;
			break;
		}
		case OPT_TASKS:
			if (cli_parse_range("validate", "--tasks", optarg, 1, 64, &o->tasks))
				return -1;
			o->have_tasks = true;
			break;
		case OPT_WORK:
			if (cli_parse_range("validate", "--work-ns", optarg, 0, 1000000000, &o->work_ns))
				return -1;
			o->have_work = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 'o':
			o->outpath = optarg;
			break;
		case OPT_HTML:
			o->htmlpath = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			fputs(validate_usage, stdout);
			return 1;
		default:
			fprintf(stderr, "idlekit validate: unknown option or missing value: '%s' (see "
				"idlekit validate --help)\n", argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc)
		o->file = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "idlekit validate: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	if ((o->file != NULL) + (o->builtin != NULL) + (o->command != NULL) != 1) {
		fprintf(stderr, "idlekit validate: expected an rt-app file, --builtin NAME or -- "
			"COMMAND (one of them; see idlekit validate --help)\n");
		return -1;
	}
	if (o->command && !ik__val_command_found(o->command[0])) {
		fprintf(stderr, "idlekit validate: -- %s: %s\n", o->command[0],
			strchr(o->command[0], '/') ? "not an executable file"
						   : "no such command on PATH");
		return -1;
	}
	const char *stray = NULL;
	bool cyclic = o->builtin && strcmp(o->builtin, "cyclictest") == 0;
	/* periodic: what both timer builtins share (whole seconds and microseconds) */
	bool periodic = o->builtin && (strcmp(o->builtin, "periodic") == 0 || cyclic);
	bool pingpong = o->builtin && (strcmp(o->builtin, "pingpong") == 0 ||
				       strcmp(o->builtin, "tbench") == 0);
	if (o->file && o->have_duration)
		stray = "--duration (an rt-app file's window is its global.duration)";
	else if (!periodic && (o->have_period || o->have_duty || o->have_tasks))
		stray = "--period, --duty and --tasks (only with --builtin periodic or cyclictest)";
	else if (cyclic && o->have_duty)
		stray = "--duty (cyclictest's threads do nothing but measure; --work-ns is the "
			"model's work per cycle)";
	else if (!pingpong && !cyclic && o->have_work)
		stray = "--work-ns (only with --builtin pingpong, cyclictest or tbench)";
	if (stray) {
		fprintf(stderr, "idlekit validate: %s\n", stray);
		return -1;
	}
	if (periodic && o->duration_ns % 1000000000 != 0) {
		fprintf(stderr, "idlekit validate: --duration: expected whole seconds for %s "
			"(%s), got %.9g s\n", o->builtin, cyclic ? "cyclictest's -D is" :
			"rt-app's duration is", (double)o->duration_ns / 1e9);
		return -1;
	}
	if (periodic && o->period_ns % 1000 != 0) {
		fprintf(stderr, "idlekit validate: --period: expected whole microseconds\n");
		return -1;
	}
	if (!o->file && !o->command && o->duration_ns <= 0) {
		fprintf(stderr, "idlekit validate: --duration: expected more than 0\n");
		return -1;
	}
	if (periodic && o->period_ns <= 0) {
		fprintf(stderr, "idlekit validate: --period: expected more than 0\n");
		return -1;
	}
	return 0;
}

static char *command_line(int argc, char **argv)
{
	size_t len = 16;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "idlekit");
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* The outputs, all or none. */
static int write_outputs(const struct opts *o, const struct ik_val_report *rep)
{
	struct cli_output_group g = { 0 };
	struct cli_output out, html;
	int ok = 1;
	if (cli_output_open_in(&g, &out, o->outpath))
		return EXIT_FAIL;
	if (o->htmlpath && cli_output_open_in(&g, &html, o->htmlpath))
		return EXIT_FAIL;
	if ((o->json ? ik__val_json(out.fp, rep) : ik__val_table(out.fp, rep)) != 0)
		ok = 0;
	if (ok && o->htmlpath && ik__val_html(html.fp, rep) != 0)
		ok = 0;
	if (cli_output_close(&out, ok) != 0)
		ok = 0;
	if (o->htmlpath && cli_output_close(&html, ok) != 0)
		ok = 0;
	if (cli_output_group_commit(&g, ok) != 0 || !ok) {
		fprintf(stderr, "idlekit validate: writing the output failed\n");
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int cmd_validate(int argc, char **argv)
{
	struct opts o = { .runs = 3, .tasks = 1, .duration_ns = 2000000000LL,
			  .period_ns = 1000000, .duty = 20 };
	struct ik_val_spec *spec = calloc(1, sizeof(*spec));
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	struct ik_config *cfg = NULL;
	struct ik_sysfs *fs = NULL;
	struct ik_val_sample *meas = NULL, *pred = NULL;
	struct ik_run_result *runs = NULL;
	struct ik_val_comparison cmp = { 0 };
	struct ik_val_machine machine;
	char err[IK_VAL_ERR_LEN] = "", rtapp[4096], params[IK_VAL_ERR_LEN];
	char *platform = NULL, *command = NULL;
	int rc = EXIT_USAGE, nm = 0, np = 0;
	bool have_tmp = false, signals = false, have_runs = false;
	bool traced = false; /* tr holds the traced run's figures */
	char trace_err[IK_VAL_ERR_LEN] = "";
	struct ik_val_sample tr = { 0 };

	if (!spec || !sc) {
		fprintf(stderr, "idlekit validate: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	int p = parse(argc, argv, &o, spec);
	if (p != 0) {
		rc = p > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	spec->runs = (int)o.runs;
	spec->quiet = o.quiet;
	if (o.file) {
		spec->kind = IK_VAL_RTAPP;
		if (cli_input_check("validate", o.file))
			goto out;
		if (access(o.file, F_OK) != 0) {
			fprintf(stderr, "idlekit validate: %s: %s\n", o.file, strerror(errno));
			goto out;
		}
		/* read as given (messages name it so), then by its full path: the model's
		   scenario resolves a relative path against itself, rt-app runs from here */
		int instances;
		if (ik__val_rtapp_info(o.file, &spec->duration_ns, &instances, err, sizeof(err))) {
			fprintf(stderr, "idlekit validate: %s\n", err);
			goto out;
		}
		if (!realpath(o.file, spec->rtapp_file)) {
			fprintf(stderr, "idlekit validate: %s: %s\n", o.file, strerror(errno));
			goto out;
		}
	} else if (o.command) {
		spec->kind = IK_VAL_COMMAND;
		spec->command = o.command;
		spec->limit_ns = o.have_duration ? o.duration_ns : 0;
		spec->duration_ns = o.have_duration ? o.duration_ns : 0; /* the learned run's, below */
	} else if (strcmp(o.builtin, "cyclictest") == 0) {
		spec->kind = IK_VAL_CYCLICTEST;
		spec->duration_ns = o.duration_ns;
		spec->tasks = (int)o.tasks;
		spec->period_us = o.period_ns / 1000;
		spec->pingpong_work_ns = o.have_work ? (int64_t)o.work_ns : 1000;
	} else if (strcmp(o.builtin, "tbench") == 0) {
		spec->kind = IK_VAL_TBENCH;
		spec->duration_ns = o.duration_ns;
		spec->pingpong_work_ns = o.have_work ? (int64_t)o.work_ns : 4000;
	} else if (strcmp(o.builtin, "periodic") == 0) {
		spec->kind = IK_VAL_PERIODIC;
		spec->duration_ns = o.duration_ns;
		spec->tasks = (int)o.tasks;
		spec->period_us = o.period_ns / 1000;
		spec->duty_pct = o.duty;
	} else {
		spec->kind = IK_VAL_PINGPONG;
		spec->duration_ns = o.duration_ns;
		spec->cpu_a = 0;
		spec->cpu_b = 1;
		/* a calibrated context switch is a whole one-CPU hand-over: its work is in it */
		spec->pingpong_work_ns = o.have_work ? (int64_t)o.work_ns : 0;
	}
	if (cli_output_check("validate", o.outpath) || cli_output_check("validate", o.htmlpath))
		goto out;
	if (spec->kind == IK_VAL_CYCLICTEST && !ik__val_command_found("cyclictest")) {
		fprintf(stderr, "idlekit validate: cyclictest is not installed (not on PATH); it "
			"is in Debian's package rt-tests: apt-get install rt-tests\n");
		goto out;
	}
	if (spec->kind == IK_VAL_TBENCH &&
	    (!ik__val_command_found("tbench") || !ik__val_command_found("tbench_srv"))) {
		fprintf(stderr, "idlekit validate: tbench and tbench_srv are not installed (not on "
			"PATH); they are in Debian's package dbench: apt-get install dbench\n");
		goto out;
	}
	if ((spec->kind == IK_VAL_RTAPP || spec->kind == IK_VAL_PERIODIC) &&
	    !ik__val_find_rtapp(rtapp, sizeof(rtapp))) {
		fprintf(stderr, "idlekit validate: rt-app is not installed (not on PATH); it is "
			"Debian's package rt-app: apt-get install rt-app\n");
		goto out;
	}

	/* the machine: without cpuidle states there are no counters to hold the model against */
	struct host_source src = { getenv("IDLEKIT_SYSFS_ROOT"), NULL };
	if (host_open("validate", &src, &fs))
		goto out;
	ik__val_machine_read(fs, &machine);
	if (!machine.has_states) {
		fprintf(stderr, "idlekit validate: this machine has no cpuidle states (driver '%s'): "
			"the kernel idles in its default routine and keeps no per-state counters to "
			"hold the model against; idlekit monitor shows its idle time, idlekit record "
			"traces its idle periods\n", machine.driver[0] ? machine.driver : "none");
		rc = EXIT_FAIL;
		goto out;
	}

	/* the model's platform */
	if (o.platform) {
		struct ik_platform_text t;
		if (ik__platform_find(o.platform, NULL, &t, err, sizeof(err)) != 0) {
			fprintf(stderr, "idlekit validate: -p %s: %s\n", o.platform, err);
			goto out;
		}
		platform = strdup(t.text);
		snprintf(spec->platform_origin, sizeof(spec->platform_origin), "%s", t.origin);
		ik__platform_text_free(&t);
	} else {
		platform = import_platform();
		if (!platform) {
			fprintf(stderr, "idlekit validate: the platform of this machine could not be "
				"imported (see above); give one with -p FILE\n");
			rc = EXIT_FAIL;
			goto out;
		}
		snprintf(spec->platform_origin, sizeof(spec->platform_origin),
			 "idlekit platform import of this machine");
	}
	if (!platform) {
		rc = EXIT_FAIL;
		goto out;
	}
	spec->platform_text = platform;

	/* a scratch directory for rt-app's files, removed at the end */
	const char *tmp = getenv("TMPDIR");
	snprintf(spec->tmpdir, sizeof(spec->tmpdir), "%s/idlekit-validate-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(spec->tmpdir)) {
		fprintf(stderr, "idlekit validate: %s: %s\n", spec->tmpdir, strerror(errno));
		rc = EXIT_FAIL;
		goto out;
	}
	have_tmp = true;
	if (spec->kind == IK_VAL_PERIODIC && ik__val_periodic_file(spec, err, sizeof(err))) {
		fprintf(stderr, "idlekit validate: %s\n", err);
		rc = EXIT_FAIL;
		goto out;
	}
	/* A command's model is learned from its traced run, which comes first: its scenario
	   can only be read after it.  Else the model's scenario is read before anything runs:
	   a bad --set costs no run. */
	if (spec->kind == IK_VAL_COMMAND) {
		if (ik__signals_catch() == 0)
			signals = true;
		rc = EXIT_FAIL;
		if (!o.quiet)
			fprintf(stderr, "idlekit validate: the command, traced, to learn its model\n");
		traced = ik__val_traced_run(spec, fs, 0, &tr, trace_err, sizeof(trace_err)) == 0;
		if (!traced) {
			fprintf(stderr, "idlekit validate: -- %s: the traced run, whose trace the "
				"model is learned from: %s\n", spec->command[0], trace_err);
			goto out;
		}
		if (ik__val_command_learn(spec, &tr, err, sizeof(err))) {
			fprintf(stderr, "idlekit validate: -- %s: learning its model: %s\n",
				spec->command[0], err);
			goto out;
		}
		rc = EXIT_USAGE;
	}
	if (ik__val_scenario(spec, sc, &cfg, err, sizeof(err))) {
		fprintf(stderr, "idlekit validate: %s\n", err);
		goto out;
	}
	if (ik__val_machine_params(spec, &machine, sc, &cfg, params, sizeof(params)) && !o.quiet)
		fprintf(stderr, "idlekit validate: note: %s\n", params);
	spec->model_slack_ns = sc->platform.os.present && sc->platform.os.timer_slack_ns > 0
				       ? sc->platform.os.timer_slack_ns : 0;
	rc = EXIT_FAIL;
	meas = calloc((size_t)spec->runs, sizeof(*meas));
	pred = calloc((size_t)spec->runs, sizeof(*pred));
	runs = calloc((size_t)spec->runs, sizeof(*runs));
	if (!meas || !pred || !runs) {
		fprintf(stderr, "idlekit validate: out of memory\n");
		goto out;
	}
	if (!signals && ik__signals_catch() == 0)
		signals = true;
	/* the real runs first, on a machine the simulator does not load yet */
	for (; nm < spec->runs; nm++) {
		if (!o.quiet)
			fprintf(stderr, "idlekit validate: real run %d/%d (%.3g s)\n", nm + 1,
				spec->runs, (double)spec->duration_ns / 1e9);
		if (ik__val_real_run(spec, fs, nm, NULL, &meas[nm], err, sizeof(err))) {
			fprintf(stderr, "idlekit validate: real run %d: %s\n", nm + 1, err);
			goto out;
		}
		if (!machine.changed[0] && ik__val_machine_recheck(&machine, nm + 1))
			fprintf(stderr, "idlekit validate: warning: %s\n", machine.changed);
	}
	/* the page's histogram: one more run, traced, kept out of the figures (a command's
	   learning run is that run) */
	if (o.htmlpath && spec->kind != IK_VAL_COMMAND) {
		if (!o.quiet)
			fprintf(stderr, "idlekit validate: one more real run, traced, for the page\n");
		traced = ik__val_traced_run(spec, fs, spec->runs, &tr, trace_err, sizeof(trace_err)) == 0;
		if (ik__signals_caught())
			goto out;
		if (!traced && !o.quiet)
			fprintf(stderr, "idlekit validate: note: no trace for the page: %s\n", trace_err);
	}
	machine.loadavg_after = ik__val_loadavg();
	if (!o.quiet)
		fprintf(stderr, "idlekit validate: %d simulated run%s\n", spec->runs,
			spec->runs > 1 ? "s" : "");
	if (ik__val_predict(spec, sc, runs, err, sizeof(err))) {
		fprintf(stderr, "idlekit validate: the model: %s\n", err);
		goto out;
	}
	have_runs = true;
	for (; np < spec->runs; np++)
		if (ik__val_sample_sim(spec, &runs[np], &pred[np], err, sizeof(err))) {
			fprintf(stderr, "idlekit validate: %s\n", err);
			goto out;
		}
	if (ik__val_compare(meas, nm, pred, np, &cmp, err, sizeof(err))) {
		fprintf(stderr, "idlekit validate: %s\n", err);
		goto out;
	}
	if (o.htmlpath)
		ik__val_traced_note(&cmp, traced ? &tr : NULL, trace_err);
	command = command_line(argc, argv);
	struct ik_val_report rep = { spec, &machine, sc, runs, &cmp, command };
	rc = write_outputs(&o, &rep);
out:
	if (signals && ik__signals_caught()) {
		fprintf(stderr, "idlekit validate: interrupted; no knob of the machine was "
			"changed\n");
		rc = EXIT_FAIL;
	}
	if (signals)
		ik__signals_restore();
	if (traced)
		ik__val_sample_free(&tr);
	if (have_tmp)
		nftw(spec->tmpdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	for (int i = 0; i < nm; i++)
		ik__val_sample_free(&meas[i]);
	for (int i = 0; i < np; i++)
		ik__val_sample_free(&pred[i]);
	if (have_runs)
		for (int i = 0; i < spec->runs; i++)
			ik__run_result_free(&runs[i]);
	ik__val_comparison_free(&cmp);
	if (fs)
		ik__sysfs_close(fs);
	if (cfg)
		ik__config_free(cfg);
	free(meas);
	free(pred);
	free(runs);
	free(command);
	free(platform);
	free(sc);
	free(spec);
	return rc;
}
