/* idlekit govreplay: a stream of idle periods in, a governor's decisions out. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/textout.h"
#include "drivers/registry.h"
#include "core/governor_registry.h"
#include "sim/govreplay.h"
#include "config/scenario.h"

static const char govreplay_usage[] =
	"usage: idlekit govreplay --governor G --platform P [--input FILE|-] [OPTIONS]\n"
	"\n"
	"Run a governor on a stream of idle periods, one CPU, closed loop, through the same\n"
	"cpuidle core code the simulator uses (select, stop or keep the tick, enter, account,\n"
	"reflect), and print its decisions.  For each input line the CPU wakes at the earliest\n"
	"of: wake_ns, sleep_ns, tick_ns (only if the tick ran: not stopped at entry and the\n"
	"governor kept it), the polling state's time limit (only in a polling state), or 10 s if\n"
	"none applies; ties go in that order.  The governor then learns last_residency_ns =\n"
	"that time + the state's exit latency (nothing added for a polling state).\n"
	"\n"
	"Input (CSV, header first; '#' lines are comments; times in ns from idle entry):\n"
	"  sleep_ns        next timer ignoring the tick, or '-' for none (KTIME_MAX)\n"
	"  tick_ns         next tick, 1..TICK_NSEC (4000000 at HZ 250)\n"
	"  wake_ns         a non-timer wakeup (IPI, device), or '-' for none\n"
	"  latency_req_ns  optional: PM QoS limit ('-' or absent: none, 2e12 ns)\n"
	"  tick_stopped    optional: 1 if the tick is already stopped at entry (default 0)\n"
	"  nr_iowaiters    optional: tasks of the CPU waiting on I/O (menu before 6.13; default 0)\n"
	"  cpu_util        optional: the CPU's utilisation, sched_cpu_util(), 0..1024 of its\n"
	"                  capacity 1024 (teo 6.3-6.10: above 16 is a busy CPU; default 0)\n"
	"Output: one line 'state,stop_tick' per input line (index and 0/1), nothing else on\n"
	"standard output; a summary of the per-state counters goes to standard error.\n"
	"Format, rules and a worked example: docs/govreplay.md.\n"
	"\n"
	"Options:\n"
	"  -g, --governor G        menu, teo, ladder or haltpoll; kernel:PATH.c (a governor file\n"
	"                          from a kernel tree, compiled against idlekit's kernel shim);\n"
	"                          plugin:PATH.so (idlekit/governor_plugin.h): docs/governor-lab.md\n"
	"  --param NAME=VALUE      a module parameter of the governor (repeatable), as\n"
	"                          --set governor.NAME=VALUE does for sim\n"
	"  -p, --platform P        a built-in platform (idlekit platform list) or an INI file;\n"
	"                          its idle states become the driver's table\n"
	"  -i, --input FILE        the input stream (default '-': standard input)\n"
	"  --hz N                  the kernel's HZ: 100, 250, 300 or 1000 (default 250)\n"
	"  --disable NAME[,NAME]   disable states by name, as sysfs 'disable' does (repeatable)\n"
	"  --kernel X.Y            behave as kernel release X.Y (default 6.19; idlekit kernel list)\n"
	"  --switch NAME=on|off    flip one behaviour switch on top of the release (repeatable),\n"
	"                          e.g. --kernel 6.12 --switch menu_no_iowait=on\n"
	"  --json                  instead of the decisions, one JSON object: governor,\n"
	"                          platform, hz, lines, stop_tick decisions, per-state usage,\n"
	"                          time_us, above, below, rejected\n"
	"  -o, --output FILE       write to FILE, atomically: a bad input leaves no file\n"
	"  -q, --quiet             no summary on standard error\n"
	"  --trace                 explain each idle period on standard error: the state, the\n"
	"                          wake event and its time, the residency the governor learns\n"
	"  --haltpoll-poll-ns N    haltpoll governor parameters (defaults: guest_halt_poll_ns\n"
	"  --haltpoll-grow N       200000, grow 2, shrink 2, grow_start 50000, allow_shrink 1)\n"
	"  --haltpoll-shrink N\n"
	"  --haltpoll-grow-start N\n"
	"  --haltpoll-allow-shrink 0|1\n"
	"  -h, --help              this text\n"
	"\n"
	"Bad input stops the run with the file, line, column and reason, exit status 2.  The\n"
	"decisions for the good lines before it have already been written to standard output\n"
	"(the output streams); with -o FILE nothing is left behind.\n"
	"\n"
	"Example:\n"
	"  $ printf 'sleep_ns,tick_ns,wake_ns\\n3000000,4000000,-\\n-,4000000,50000\\n' |\n"
	"      idlekit govreplay --governor menu --platform intel-skx -q\n"
	"  3,0\n"
	"  0,0\n"
	"  A timer in 3 ms: menu predicts 3 ms, C6 (state 3, 600 us residency) fits; 3 ms is\n"
	"  less than a tick, so the tick is kept.  No timer: KTIME_MAX times menu's correction\n"
	"  factor wraps to a 0 us prediction in u64, as in the kernel: POLL, tick kept.\n"
	"\n"
	"  The kernel's own menu.c, unmodified (compiled once, then cached by its sha256):\n"
	"  $ idlekit govreplay --governor kernel:linux/drivers/cpuidle/governors/menu.c \\\n"
	"      --platform intel-skx --input idles.csv\n";

/* ns as exact microseconds: 1234567 -> "1234.567", 5000 -> "5". */
static void fmt_us(char *buf, size_t len, uint64_t ns)
{
	uint64_t frac = ns % 1000;
	int digits = 3;

	if (frac == 0) {
		snprintf(buf, len, "%" PRIu64, ns / 1000);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64, ns / 1000, digits, frac);
}

static int write_json(FILE *f, const struct ik_govreplay *g, const char *platform,
		      const struct ik_governor_identity *id, const char *origin, FILE *decisions)
{
	char us[32];

	fputs("{\n  \"schema\": \"idlekit.govreplay/1\",\n  \"governor\": ", f);
	ik__json_string(f, g->gov->name, SIZE_MAX);
	if (id->kind != IK_GOVERNOR_BUILTIN) {
		fputs(",\n  \"governor_source\": {\"kind\": ", f);
		ik__json_string(f, ik__governor_kind_name(id->kind), SIZE_MAX);
		fputs(", \"path\": ", f);
		ik__json_string(f, id->path, SIZE_MAX);
		fputs(", \"sha256\": ", f);
		ik__json_string(f, id->sha256, SIZE_MAX);
		fputs(", \"params\": {", f);
		for (int i = 0; i < id->nparams; i++) {
			fputs(i ? ", " : "", f);
			ik__json_string(f, id->params[i].name, SIZE_MAX);
			fputs(": ", f);
			ik__json_string(f, id->params[i].value, SIZE_MAX);
		}
		fputs("}}", f);
	}
	fputs(",\n  \"platform\": ", f);
	ik__json_string(f, platform, SIZE_MAX);
	fprintf(f, ",\n  \"hz\": %d,\n  \"kernel\": ", g->hz);
	cli_kernel_json(f, g->dev.kernel);
	fprintf(f, ",\n  \"lines\": %" PRIu64 ",\n  \"stop_tick_decisions\": %" PRIu64
		   ",\n  \"states\": [\n",
		g->lines, g->stop_tick_count);
	for (int i = 0; i < g->drv.state_count; i++) {
		const struct ik_state_usage *u = &g->dev.states_usage[i];
		fmt_us(us, sizeof(us), u->time_ns);
		fprintf(f, "    {\"index\": %d, \"name\": ", i);
		ik__json_string(f, g->drv.states[i].name, SIZE_MAX);
		fprintf(f,
			", \"disabled\": %s, \"usage\": %" PRIu64 ", \"time_us\": %s, \"above\": %" PRIu64
			", \"below\": %" PRIu64 ", \"rejected\": %" PRIu64 "}%s\n",
			g->dev.states_disable[i] ? "true" : "false", u->usage, us, u->above, u->below, u->rejected,
			i + 1 < g->drv.state_count ? "," : "");
	}
	/* every decision, [input line, state, stop_tick]: compare diffs two of these */
	fputs("  ],\n  \"input\": ", f);
	ik__json_string(f, origin, SIZE_MAX);
	fputs(",\n  \"decisions\": [", f);
	rewind(decisions);
	unsigned long long line;
	int state, stop, n = 0;
	while (fscanf(decisions, "%llu,%d,%d\n", &line, &state, &stop) == 3)
		fprintf(f, "%s[%llu, %d, %d]", n++ % 8 ? ", " : n > 1 ? ",\n    " : "\n    ", line,
			state, stop);
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", f);
	return ferror(f) || ferror(decisions) ? -1 : 0;
}

static void write_summary(FILE *f, const struct ik_govreplay *g, const char *platform,
			  const struct ik_governor_identity *id)
{
	char us[32], kernel[512];

	if (id->kind != IK_GOVERNOR_BUILTIN) {
		fprintf(f, "govreplay: governor %s from %s:%s, sha256 %s", id->name,
			ik__governor_kind_name(id->kind), id->path, id->sha256);
		for (int i = 0; i < id->nparams; i++)
			fprintf(f, "%s%s=%s", i ? " " : ", parameters ", id->params[i].name,
				id->params[i].value);
		fputc('\n', f);
		if (id->kind == IK_GOVERNOR_KERNEL && id->api[0])
			fprintf(f, "govreplay: the file is %s\n", id->api);
	}

	fprintf(f,
		"govreplay: %" PRIu64 " lines, governor %s, platform %s, HZ %d, kernel %s, "
		"stop_tick=1 in %" PRIu64 "\n",
		g->lines, g->gov->name, platform, g->hz,
		ik_kernel_describe(g->dev.kernel, kernel, sizeof(kernel)), g->stop_tick_count);
	fprintf(f, "%-5s %-10s %12s %18s %12s %12s %9s\n", "state", "name", "usage", "time_us",
		"above", "below", "rejected");
	for (int i = 0; i < g->drv.state_count; i++) {
		const struct ik_state_usage *u = &g->dev.states_usage[i];
		fmt_us(us, sizeof(us), u->time_ns);
		fprintf(f, "%-5d %-10s %12" PRIu64 " %18s %12" PRIu64 " %12" PRIu64 " %9" PRIu64 "%s\n",
			i, g->drv.states[i].name, u->usage, us, u->above, u->below, u->rejected,
			g->dev.states_disable[i] ? "  (disabled)" : "");
	}
}

/* The --haltpoll-* options, in the order of their ids: the module parameter each sets. */
struct hp_option {
	const char *option, *param;
	uint64_t max;
};
static const struct hp_option hp_options[] = {
	{ "--haltpoll-poll-ns", "guest_halt_poll_ns", UINT32_MAX },
	{ "--haltpoll-grow", "guest_halt_poll_grow", UINT32_MAX },
	{ "--haltpoll-shrink", "guest_halt_poll_shrink", UINT32_MAX },
	{ "--haltpoll-grow-start", "guest_halt_poll_grow_start", UINT32_MAX },
	{ "--haltpoll-allow-shrink", "guest_halt_poll_allow_shrink", 1 },
};

/* A --haltpoll-* option is also that module parameter of a kernel-source haltpoll.c. */
static void hp_param(const char **names, const char **values, char (*buf)[24], bool *from_hp,
		     int *n, const char *name, uint64_t v)
{
	snprintf(buf[*n], sizeof(buf[*n]), "%llu", (unsigned long long)v);
	from_hp[*n] = true;
	names[*n] = name;
	values[*n] = buf[*n];
	(*n)++;
}

/* --disable A,B: each name must be a state of the table. */
static int disable_states(struct ik_govreplay *g, char *list)
{
	for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
		if (ik__govreplay_disable(g, name) == 0)
			continue;
		fprintf(stderr, "idlekit govreplay: --disable: no state named '%s' (states:", name);
		for (int i = 0; i < g->drv.state_count; i++)
			fprintf(stderr, " %s", g->drv.states[i].name);
		fprintf(stderr, ")\n");
		return -1;
	}
	return 0;
}

int cmd_govreplay(int argc, char **argv)
{
	enum {
		OPT_HZ = 256,
		OPT_DISABLE,
		OPT_JSON,
		OPT_HP_POLL, /* to OPT_HP_ALLOW_SHRINK: hp_options[] in order */
		OPT_HP_GROW,
		OPT_HP_SHRINK,
		OPT_HP_GROW_START,
		OPT_HP_ALLOW_SHRINK,
		OPT_TRACE,
		OPT_PARAM,
	};
	static const struct option opts[] = {
		{ "governor", required_argument, NULL, 'g' },
		CLI_OPTION_PLATFORM,
		{ "input", required_argument, NULL, 'i' },
		{ "hz", required_argument, NULL, OPT_HZ },
		{ "disable", required_argument, NULL, OPT_DISABLE },
		{ "json", no_argument, NULL, OPT_JSON },
		CLI_OPTION_OUTPUT,
		CLI_OPTION_QUIET,
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "param", required_argument, NULL, OPT_PARAM },
		CLI_KERNEL_OPTIONS,
		{ "haltpoll-poll-ns", required_argument, NULL, OPT_HP_POLL },
		{ "haltpoll-grow", required_argument, NULL, OPT_HP_GROW },
		{ "haltpoll-shrink", required_argument, NULL, OPT_HP_SHRINK },
		{ "haltpoll-grow-start", required_argument, NULL, OPT_HP_GROW_START },
		{ "haltpoll-allow-shrink", required_argument, NULL, OPT_HP_ALLOW_SHRINK },
		CLI_OPTIONS_END,
	};
	const char *governor = NULL, *platform = NULL, *input = "-";
	char **disable = calloc((size_t)argc + 1, sizeof(char *));
	/* --param NAME=VALUE and the --haltpoll-* spellings, in order (names point into argv). */
	const char **pnames = calloc((size_t)argc + 1, sizeof(char *));
	const char **pvalues = calloc((size_t)argc + 1, sizeof(char *));
	char (*pbuf)[24] = calloc((size_t)argc + 1, sizeof(*pbuf));
	bool *pfrom_hp = calloc((size_t)argc + 1, sizeof(bool));
	int nparams = 0;
	struct ik_governor_inst *inst = NULL;
	int ndisable = 0, rc = EXIT_USAGE;
	bool json = false, trace = false;
	uint64_t hz = 250, v;
	struct ik_haltpoll_params hp;
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	struct ik_driver_binding *bind = calloc(1, sizeof(*bind));
	struct ik_govreplay *g = calloc(1, sizeof(*g));
	bool have_g = false;
	FILE *in = NULL;
	char err[IK_ERR_LEN];

	struct ik_kernel kernel;

	ik_kernel_init(&kernel, IK_KERNEL_DEFAULT_RELEASE);
	ik_haltpoll_params_default(&hp);
	if (!disable || !sc || !bind || !g || !pnames || !pvalues || !pbuf || !pfrom_hp) {
		fprintf(stderr, "idlekit govreplay: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	struct cli_opts opt = { .cmd = "govreplay", .usage = govreplay_usage,
				.shortopts = "+g:p:i:o:qh", .longopts = opts,
				.bad = CLI_BAD_NEEDS_VALUE, .kernel = &kernel };
	int c;
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case 'g':
			governor = optarg;
			break;
		case 'i':
			input = optarg;
			break;
		case OPT_HZ:
			if (cli_parse_u64("govreplay", "--hz", optarg, 1000, &hz))
				goto out;
			if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) {
				fprintf(stderr, "idlekit govreplay: --hz: expected one of: 100 250 300 "
						"1000, got '%s'\n",
					optarg);
				goto out;
			}
			break;
		case OPT_DISABLE:
			disable[ndisable++] = optarg;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_TRACE:
			trace = true;
			break;
		case OPT_PARAM: {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg) {
				fprintf(stderr, "idlekit govreplay: --param: expected NAME=VALUE, got "
						"'%s'\n",
					optarg);
				goto out;
			}
			*eq = '\0';
			pnames[nparams] = optarg;
			pvalues[nparams++] = eq + 1;
			break;
		}
		case OPT_HP_POLL:
		case OPT_HP_GROW:
		case OPT_HP_SHRINK:
		case OPT_HP_GROW_START:
		case OPT_HP_ALLOW_SHRINK: {
			const struct hp_option *o = &hp_options[c - OPT_HP_POLL];
			if (cli_parse_u64("govreplay", o->option, optarg, o->max, &v))
				goto out;
			ik__haltpoll_param_set(&hp, o->param, v);
			hp_param(pnames, pvalues, pbuf, pfrom_hp, &nparams, o->param, v);
			break;
		}
		}
	}
	if (opt.done) {
		rc = opt.status;
		goto out;
	}
	platform = opt.platform;
	if (optind < argc) {
		fprintf(stderr, "idlekit govreplay: unexpected argument '%s' (the input is given "
				"with --input FILE)\n",
			argv[optind]);
		goto out;
	}
	if (!governor || !platform) {
		fprintf(stderr,
			"idlekit govreplay: %s is required\n"
			"e.g. idlekit govreplay --governor menu --platform intel-skx --input FILE\n",
			!governor ? "--governor G (one of: menu teo ladder haltpoll)"
				  : "--platform P (a built-in name or an INI file)");
		goto out;
	}
	if (ik__governor_spec_check(governor, err, sizeof(err))) {
		fprintf(stderr, "idlekit govreplay: --governor: %s\n", err);
		goto out;
	}
	/* a kernel: or plugin: file is the user's own code: only the core's switches apply */
	if (ik_kernel_check(&kernel, governor, err, sizeof(err))) {
		fprintf(stderr, "idlekit govreplay: --kernel: %s\n", err);
		goto out;
	}

	/* The platform's states become the driver's table, as the simulator builds it. */
	if (ik__platform_load(platform, &sc->platform, err, sizeof(err))) {
		fprintf(stderr, "idlekit govreplay: %s\n", err);
		goto out;
	}
	char berr[IK_ERR_LEN + PATH_MAX];
	if (ik__driver_table_bind(sc, platform, governor, (int)hz, bind, berr, sizeof(berr))) {
		fprintf(stderr, "idlekit govreplay: %s\n", berr);
		goto out;
	}

	/*
	 * The governor's instance.  The --haltpoll-* options set the built-in haltpoll's
	 * parameters directly (and are ignored by other built-ins, as before); for a kernel
	 * file they are its module parameters of the same names.
	 */
	bool builtin = strncmp(governor, "kernel:", 7) != 0 && strncmp(governor, "plugin:", 7) != 0;
	int kept = 0;
	for (int i = 0; i < nparams; i++) {
		if (builtin && pfrom_hp[i])
			continue;
		pnames[kept] = pnames[i];
		pvalues[kept++] = pvalues[i];
	}
	char release_name[16];
	struct ik_governor_open_args ga = {
		.spec = governor, .drv = &bind->table, .hz = (int)hz, .nparams = kept,
		.param_names = pnames, .param_values = pvalues,
		/* a kernel file compiles against the governor API of the release */
		.kernel_version = ik_kernel_release_name(kernel.release, release_name,
						  sizeof(release_name)),
	};
	int orc = ik__governor_open(&ga, &inst, err, sizeof(err));
	if (orc) {
		fprintf(stderr, "idlekit govreplay: %s\n", err);
		rc = orc == -2 ? EXIT_USAGE : EXIT_FAIL;
		goto out;
	}
	const struct ik_governor *gov = ik__governor_inst_ops(inst);
	const struct ik_governor_identity *id = ik__governor_inst_identity(inst);
	if (ik__governor_inst_haltpoll(inst) && kept > 0)
		hp = *ik__governor_inst_haltpoll(inst); /* --param on the built-in haltpoll */

	if (ik__govreplay_init(g, &bind->table, gov, (int)hz, &hp, err, sizeof(err))) {
		fprintf(stderr, "idlekit govreplay: %s\n", err);
		goto out;
	}
	have_g = true;
	g->dev.kernel = &kernel;
	if (trace)
		g->trace = stderr;
	for (int i = 0; i < ndisable; i++)
		if (disable_states(g, disable[i]))
			goto out;

	const char *origin = input;
	if (strcmp(input, "-") == 0) {
		origin = "stdin";
		if (isatty(STDIN_FILENO))
			fprintf(stderr, "idlekit govreplay: reading the idle periods from the "
					"terminal (end with Ctrl-D; see --help for the format)\n");
	}
	in = cli_input_open("govreplay", input, &rc);
	if (!in)
		goto out;

	struct cli_output o;
	if (cli_output_open(&o, opt.output)) {
		rc = EXIT_FAIL;
		goto out;
	}
	FILE *decisions = json ? tmpfile() : NULL;
	if (json && !decisions) {
		fprintf(stderr, "idlekit govreplay: cannot make a temporary file: %s\n",
			strerror(errno));
		cli_output_close(&o, 0);
		rc = EXIT_FAIL;
		goto out;
	}
	g->decisions = decisions;
	int grc = ik__govreplay_stream(g, in, origin, json ? NULL : o.fp, err, sizeof(err));
	if (grc == IK_GOVREPLAY_OK && json &&
	    write_json(o.fp, g, sc->platform.name, id, origin, decisions))
		grc = IK_GOVREPLAY_EFAIL;
	if (decisions)
		fclose(decisions);
	g->decisions = NULL;
	if (grc != IK_GOVREPLAY_OK) {
		if (grc == IK_GOVREPLAY_EFAIL && err[0] == '\0')
			snprintf(err, sizeof(err), "writing the output failed");
		fprintf(stderr, "idlekit govreplay: %s\n", err);
		cli_output_close(&o, 0);
		rc = grc == IK_GOVREPLAY_EINPUT ? EXIT_USAGE : EXIT_FAIL;
		goto out;
	}
	if (cli_output_close(&o, 1)) {
		rc = EXIT_FAIL;
		goto out;
	}
	if (!json && !opt.quiet)
		write_summary(stderr, g, sc->platform.name, id);
	rc = EXIT_OK;
out:
	cli_input_close(in);
	if (have_g)
		ik__govreplay_free(g);
	ik__governor_close(inst);
	free(pnames);
	free(pvalues);
	free(pbuf);
	free(pfrom_hp);
	free(g);
	free(bind);
	free(sc);
	free(disable);
	return rc;
}
