/*
 * idlekit workload learn TRACE -o W.ini: a workload learned from a recording, written as a
 * scenario (W.ini), its model (W.learned) and the recording's own platform (W.platform.ini,
 * the trace's table), so that `idlekit sim W.ini` re-simulates it and `--set
 * scenario.platform=...` moves it to any other machine.
 *
 * idlekit workload keys: the [workload] keys from their table (src/config/workload_keys.c),
 * as the Markdown table docs/workloads.md carries.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "config/workload_keys.h"
#include "idlekit/governor.h"
#include "trace/format.h"
#include "trace/learn.h"
#include "validate/learn_check.h"

static const char help[] =
	"usage: idlekit workload learn TRACE -o W.ini\n"
	"       idlekit workload keys\n"
	"\n"
	"keys: print every [workload] key with its unit, default, values and meaning, as a\n"
	"Markdown table (the one in docs/workloads.md).\n"
	"\n"
	"learn: "
	"learn a workload from an idle trace (docs/trace-format.md): per CPU and wake cause\n"
	"(timer, tick, ipi, irq, remote, ...), how often the cause ended an idle period, the\n"
	"lengths of those periods and the busy time after them; and, when the trace has sched\n"
	"events (switch, task_wake), per task: its wake-ups by cause (remote, its CPU's idle\n"
	"cause, local), the sleeps they ended, the runs after them and the CPUs it ran on --\n"
	"such a model runs as its tasks.  Writes three files:\n"
	"  W.ini           a scenario with workload.type = learned (governor and HZ from the\n"
	"                  trace when it says them, duration the trace's length, at least 1 s)\n"
	"  W.learned       the model (format in src/config/learned_model.h)\n"
	"  W.platform.ini  the trace's machine as far as its header tells (its table)\n"
	"\n"
	"Then the model runs once on the trace's table and its figures are printed beside the\n"
	"recording's: per CPU the idle share and idle entries per second, and the mix of wake\n"
	"causes (own timers, from another CPU, interrupts); a figure more than 10% off (and\n"
	"more than 1 point, 1/s, or 10 points of the mix) is named in a warning on stderr.\n"
	"\n"
	"Options:\n"
	"  -o, --output W.ini   the scenario to write (required)\n"
	"  --lenient            skip bad event lines of the trace instead of stopping\n"
	"  --no-check           do not run the model against the recording\n"
	"  -h, --help           this text\n"
	"\n"
	"Examples:\n"
	"  idlekit workload keys | grep period\n"
	"  idlekit workload learn tests/fixtures/traces/recorded-sched.trace -o /tmp/w.ini\n"
	"  grep ^task /tmp/w.learned                 # its tasks\n"
	"  idlekit sim /tmp/w.ini                    # on the trace's own table\n"
	"  idlekit sim /tmp/w.ini --set scenario.platform=intel-spr --set cpuidle.governor=teo\n";

/* "dir/name.ini" -> "dir/name" + suffix. */
static int sibling(char *out, size_t len, const char *ini, const char *suffix)
{
	size_t n = strlen(ini);
	if (n > 4 && strcmp(ini + n - 4, ".ini") == 0)
		n -= 4;
	int k = snprintf(out, len, "%.*s%s", (int)n, ini, suffix);
	return k > 0 && (size_t)k < len ? 0 : -1;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The model just written, run against its recording (validate/learn_check.h).  A model
   that does not run is a failure of the files just written: exit 1, and they stay. */
static int check_model(const char *trace, const char *scenario)
{
	struct ik_scenario *sc = malloc(sizeof(*sc));
	struct ik_learn_check c;
	char err[IK_ERR_LEN];
	int rc = EXIT_FAIL;

	if (!sc) {
		fprintf(stderr, "idlekit workload learn: out of memory\n");
		return EXIT_FAIL;
	}
	if (ik__scenario_load(scenario, NULL, 0, sc, err, sizeof(err)) ||
	    ik__learn_check(trace, sc, &c, err, sizeof(err))) {
		fprintf(stderr, "idlekit workload learn: the check of the model: %s\n", err);
		free(sc);
		return EXIT_FAIL;
	}
	if (ik__learn_check_print(&c, stdout, stderr, "idlekit workload learn") == 0)
		rc = EXIT_OK;
	ik__learn_check_free(&c);
	free(sc);
	return rc;
}

static int learn(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_OPTION_OUTPUT,
		{ "lenient", no_argument, NULL, 'l' },
		{ "no-check", no_argument, NULL, 'n' },
		CLI_OPTIONS_END,
	};
	bool lenient = false, check = true;
	struct cli_opts opt = { .cmd = "workload learn", .usage = help, .shortopts = "o:h",
				.longopts = opts, .bad = CLI_BAD_GETOPT };
	int c;

	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		if (c == 'l')
			lenient = true;
		else if (c == 'n')
			check = false;
	}
	if (opt.done)
		return opt.status;
	const char *out = opt.output;
	if (optind + 1 != argc || !out) {
		fprintf(stderr, "idlekit workload learn: expected TRACE and -o W.ini (see idlekit "
			"workload --help)\n");
		return EXIT_USAGE;
	}
	const char *path = argv[optind];
	char model[4096], plat[4096], err[512];
	if (sibling(model, sizeof(model), out, ".learned") ||
	    sibling(plat, sizeof(plat), out, ".platform.ini")) {
		fprintf(stderr, "idlekit workload learn: -o: path too long\n");
		return EXIT_USAGE;
	}
	if (cli_output_check("workload learn", out) || cli_output_check("workload learn", model) ||
	    cli_output_check("workload learn", plat))
		return EXIT_USAGE;
	int orc = EXIT_USAGE;
	FILE *in = cli_input_fopen("workload learn", path, &orc); /* a FIFO or directory: refused */
	if (!in)
		return orc;
	struct ik_trace_reader *r = NULL;
	struct ik_learned m;
	int rc = ik__trace_open_file(in, path, lenient, &r, err, sizeof(err));
	if (rc == 0)
		rc = ik__learn_trace(r, base(path), &m, err, sizeof(err));
	if (rc != 0) {
		fprintf(stderr, "idlekit workload learn: %s\n", err);
		if (r)
			ik__trace_close(r);
		fclose(in);
		return rc == IK_TRACE_EFAIL ? EXIT_FAIL : EXIT_USAGE;
	}
	const struct ik_trace_header *h = ik__trace_header(r);
	struct cli_output_group outs = { 0 }; /* the three files: all written or none */
	struct cli_output o_model, o_plat, o_sc;
	int ok = 0;
	if (cli_output_open_in(&outs, &o_model, model) == 0) {
		ok = ik__learned_write(o_model.fp, &m) == 0;
		if (cli_output_close(&o_model, ok))
			ok = 0;
	}
	if (ok && cli_output_open_in(&outs, &o_plat, plat) == 0) {
		ok = ik__learned_platform_ini(o_plat.fp, r, &m, base(path)) == 0;
		if (cli_output_close(&o_plat, ok))
			ok = 0;
	} else {
		ok = 0;
	}
	if (ok && cli_output_open_in(&outs, &o_sc, out) == 0) {
		const char *gov = h->governor[0] && ik_governor_find(h->governor) ? h->governor : "menu";
		fprintf(o_sc.fp, "; A workload learned from %s by idlekit workload learn.\n"
				 "; Its model is %s; its platform the trace's own table (%s):\n"
				 "; --set scenario.platform=NAME runs it on another machine.\n"
				 "[scenario]\nname = learned-%.40s\nplatform = %s\n"
				 "duration_ms = 2000\nwarmup_ms = 100\n\n[kernel]\nhz = %d\n\n"
				 "[cpuidle]\ngovernor = %s\n\n[workload]\ntype = learned\nfile = %s\n",
			path, base(model), base(plat), base(path), base(plat), h->hz, gov, base(model));
		/* the governor's module parameters as the recording ran it (haltpoll's
		   guest_halt_poll_ns), when it is the governor the scenario runs */
		if (gov == h->governor && h->nparams > 0) {
			fputs("\n[governor]\n", o_sc.fp);
			for (int i = 0; i < h->nparams; i++)
				fprintf(o_sc.fp, "%s = %llu\n", h->params[i].key,
					(unsigned long long)h->params[i].value);
		}
		ok = !ferror(o_sc.fp);
		if (cli_output_close(&o_sc, ok))
			ok = 0;
	} else {
		ok = 0;
	}
	if (cli_output_group_commit(&outs, ok))
		ok = 0;
	ik__learned_free(&m);
	ik__trace_close(r);
	fclose(in);
	if (!ok) {
		fprintf(stderr, "idlekit workload learn: could not write %s and its two files\n", out);
		return EXIT_FAIL;
	}
	return check ? check_model(path, out) : EXIT_OK;
}

/* A table cell: '|' would end it. */
static void cell(const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '|')
			putchar('\\');
		putchar(*p);
	}
}

static int keys(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
			fputs(help, stdout);
			return EXIT_OK;
		}
		fprintf(stderr, "idlekit workload keys: unexpected argument '%s'\n", argv[1]);
		return EXIT_USAGE;
	}
	fputs("| key | unit | default | values | meaning |\n|---|---|---|---|---|\n", stdout);
	for (int k = 0; k < WL_COUNT; k++) {
		struct ik_workload_key_info info;
		ik__workload_key_info((enum workload_key)k, &info);
		printf("| `%s` | ", info.name);
		cell(info.unit);
		fputs(info.def[0] ? " | `" : " | none", stdout);
		cell(info.def);
		fputs(info.def[0] ? "` | " : " | ", stdout);
		cell(info.range);
		fputs(" | ", stdout);
		cell(info.doc);
		fputs(" |\n", stdout);
	}
	return fflush(stdout) || ferror(stdout) ? EXIT_FAIL : EXIT_OK;
}

int cmd_workload(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "learn") == 0)
		return learn(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "keys") == 0)
		return keys(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	fprintf(stderr, "idlekit workload: expected 'learn' or 'keys', got '%s' (see idlekit "
		"workload --help)\n", argc > 1 ? argv[1] : "nothing");
	return EXIT_USAGE;
}
