/* idlekit sim: run a scenario for one or more seeds and report. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/governor_registry.h"
#include "cli/progress.h"
#include "config/config.h"
#include "config/result.h"
#include "config/scenario.h"
#include "report/html.h"
#include "sim/sim.h"
#include "sweep/sweep.h"

static const char sim_usage[] =
	"usage: idlekit sim [SCENARIO] [OPTIONS]\n"
	"\n"
	"Run a scenario on its modelled platform: the cpuidle core, the chosen governor and\n"
	"driver, and the workload, and print the per-state counters the kernel would show in\n"
	"sysfs with wake latency, throughput and energy.\n"
	"\n"
	"SCENARIO is a built-in scenario name or an INI file (default: the built-in 'default');\n"
	"--list prints the built-in ones with what each runs.\n"
	"\n"
	"Options:\n"
	"  --set SECTION.KEY=VALUE  override one key of the scenario or its platform, as if it\n"
	"                           were in the file (repeatable), e.g. --set cpuidle.governor=menu\n"
	"                           --set workload.pairs=16 --set state2.exit_ns='constant 40000'\n"
	"  --runs N                 run N seeds (seed, seed+1, ...) and add min, max, median,\n"
	"                           amean, hmean, stddev and CoV across them\n"
	"  --seed N                 first seed (default: the scenario's)\n"
	"  -j, --jobs N             run the seeds on N CPUs (default: the CPUs this process\n"
	"                           may use): N at a time, and the last N + runs % N all at\n"
	"                           once, sharing them; the results are the same for any N\n"
	"  --vary SECTION.KEY=LIST  vary a key over a list V1,V2,... or a range\n"
	"                           lin:START:STOP:COUNT / log:START:STOP:COUNT (repeatable:\n"
	"                           the axes are crossed) and print each point's medians; a\n"
	"                           quick `idlekit sweep` (docs/sweep.md).  With --json the\n"
	"                           tidy table of every run, with --csv the summary per point,\n"
	"                           with --html the sweep's page\n"
	"  --bad-below FIGURE:VALUE with --vary: the fraction of runs with FIGURE < VALUE\n"
	"  -q, --quiet              no progress line on standard error\n"
	"  --json                   JSON output (schema: docs/json-schema.md)\n"
	"  --csv                    CSV output: one table, the runs (docs/csv.md)\n"
	"  --csv-table NAME         CSV output of table NAME: runs, states, per_cpu, summary,\n"
	"                           requests (the workload's own figures: server, schbench,\n"
	"                           rtapp, learned) or config (implies --csv)\n"
	"  -o, --output FILE        write to FILE (atomically) instead of standard output\n"
	"  --html FILE              also write a self-contained HTML report with plots to FILE\n"
	"                           (docs/html-report.md)\n"
	"  --timeline-window START:LEN\n"
	"                           the HTML timeline's window in the first run, from the end of\n"
	"                           the warm-up (default 0:2ms; units ns, us, ms, s; ms if none)\n"
	"  --list                   the built-in scenarios, one a line: name and description\n"
	"  --print-config           print the effective configuration (every key of the scenario\n"
	"                           and platform, with where it came from) as a scenario file\n"
	"                           and stop; running that file gives the same result, byte for\n"
	"                           byte\n"
	"  -h, --help               this text\n"
	"\n"
	"Examples:\n"
	"  idlekit sim\n"
	"  idlekit sim scenarios/default.ini --runs 5 --json -o result.json\n"
	"  idlekit sim default --set cpuidle.disable=C2 --set scenario.duration_ms=500\n"
	"  idlekit sim seed000-baseline --runs 6 -j 2\n"
	"  idlekit sim default --vary cpuidle.governor=menu,teo --vary workload.pairs=1,2,4\n"
	"  idlekit sim seed000-baseline --set kernel.hz=1000 --print-config > mine.ini\n"
	"  idlekit sim mine.ini\n";

/* What sim --vary writes: the sweep's tidy JSON, its summary CSV or a table of medians;
   and its page. */
struct vary_out {
	int format, json_format, csv_format;
	FILE *rows;
	const struct ik_sweep_spec *s;
	const struct ik_sweep_summary *sum;
};

static int vary_report(FILE *out, void *ctx)
{
	const struct vary_out *w = ctx;
	const struct ik_sweep_spec *s = w->s;
	const struct ik_sweep_summary *sum = w->sum;
	if (w->format == w->json_format)
		return ik__sweep_write_results_json(out, w->rows, s);
	if (w->format == w->csv_format)
		return ik__sweep_write_summary_csv(out, s, sum);
	static const char *const figs[] = { "messages_per_s", "mb_per_s", "wake_p99_ns",
					    "avg_power_w" };
	int idx[IK_SWEEP_MAX_AXES];
	fprintf(out, "%-6s", "point");
	for (int a = 0; a < s->naxes; a++)
		fprintf(out, " %18s", s->axes[a].key);
	fprintf(out, " %5s", "runs");
	if (s->bad.on)
		fprintf(out, " %8s", "bad");
	for (int f = 0; f < 4; f++)
		fprintf(out, " %16s", figs[f]);
	fprintf(out, "\n");
	for (int64_t p = 0; p < s->npoints; p++) {
		ik__sweep_point_index(s, p, idx);
		fprintf(out, "%-6lld", (long long)p);
		for (int a = 0; a < s->naxes; a++)
			fprintf(out, " %18.18s", s->axes[a].values[idx[a]]);
		fprintf(out, " %5d", sum->nruns[p]);
		if (s->bad.on)
			fprintf(out, " %8.2f", sum->bad_fraction[p]);
		for (int f = 0; f < 4; f++)
			fprintf(out, " %16.6g",
				sum->stat[p * sum->nfigures + ik__sweep_figure_find(figs[f])].median);
		fprintf(out, "\n");
	}
	fprintf(out, "(medians over each point's runs; --csv for quartiles and 95%% CIs)\n");
	return ferror(out) ? -1 : 0;
}

static int vary_page(FILE *f, void *ctx)
{
	const struct vary_out *w = ctx;
	return ik__sweep_write_html(f, w->s, w->sum);
}

/* sim --vary: the points of a sweep of the scenario, a table of medians (or the sweep's
   tidy JSON, its summary CSV, its HTML page). */
static int sim_vary(const char *ref, const char **sets, int nsets, const char **vary, int nvary,
		    uint64_t runs, bool have_seed, uint64_t seed, const char *bad, int format,
		    int json_format, int csv_format, const char *outpath, const char *htmlpath,
		    int jobs, bool quiet)
{
	struct ik_sweep_spec *s = malloc(sizeof(*s));
	struct ik_sweep_shard whole = { 0, 1 };
	struct ik_sweep_summary sum = { 0 };
	char err[IK_ERR_LEN];
	int rc = EXIT_USAGE;
	FILE *rows = NULL;
	bool have_sum = false;

	if (!s) {
		fprintf(stderr, "idlekit sim: out of memory\n");
		return EXIT_FAIL;
	}
	ik__sweep_spec_init(s, "idlekit sim", ref);
	for (int i = 0; i < nsets; i++) {
		if (strlen(sets[i]) >= IK_SWEEP_OVERRIDE_LEN || s->noverrides >= IK_SWEEP_MAX_OVERRIDES) {
			fprintf(stderr, "idlekit sim: --set %.60s: with --vary, at most %d overrides of "
				"%d characters\n", sets[i], IK_SWEEP_MAX_OVERRIDES,
				IK_SWEEP_OVERRIDE_LEN - 1);
			goto out;
		}
		snprintf(s->overrides[s->noverrides++], IK_SWEEP_OVERRIDE_LEN, "%s", sets[i]);
	}
	for (int i = 0; i < nvary; i++) {
		char key[IK_SWEEP_KEY_LEN + 1];
		const char *eq = strchr(vary[i], '=');
		if (!eq || eq == vary[i] || (size_t)(eq - vary[i]) >= sizeof(key)) {
			fprintf(stderr, "idlekit sim: --vary %.60s: expected SECTION.KEY=V1,V2,... or "
				"SECTION.KEY=lin:START:STOP:COUNT\n", vary[i]);
			goto out;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - vary[i]), vary[i]);
		if (ik__sweep_spec_add_axis(s, key, eq + 1, 0, err, sizeof(err)) != 0) {
			/* "vary.KEY: ..." as "--vary KEY: ..." */
			fprintf(stderr, "idlekit sim: --vary %s\n",
				strncmp(err, "vary.", 5) == 0 ? err + 5 : err);
			goto out;
		}
	}
	if (bad && ik__sweep_parse_bad(bad, &s->bad, err, sizeof(err)) != 0) {
		fprintf(stderr, "idlekit sim: --bad-below: %s\n", err);
		goto out;
	}
	s->runs = (int)runs;
	s->have_seed = have_seed;
	s->seed = seed;
	if (ik__sweep_spec_check(s, err, sizeof(err)) != 0 ||
	    ik__sweep_governors_check(s, err, sizeof(err)) != 0) {
		fprintf(stderr, "idlekit sim: %s\n", err);
		goto out;
	}
	rows = tmpfile();
	if (!rows) {
		fprintf(stderr, "idlekit sim: cannot create a temporary file: %s\n", strerror(errno));
		rc = EXIT_FAIL;
		goto out;
	}
	struct cli_progress prog;
	cli_progress_begin(&prog, "sim", "runs", 0, s->npoints * s->runs, quiet);
	struct ik_sweep_progress hook = { cli_progress_step, &prog };
	int ret = ik__sweep_run(s, &whole, 0, jobs, rows, &hook, err, sizeof(err));
	cli_progress_end(&prog);
	if (ret != 0) {
		fprintf(stderr, "idlekit sim: %s\n", err);
		rc = ret == 2 ? EXIT_USAGE : EXIT_FAIL;
		goto out;
	}
	if (ik__sweep_summarize(rows, s, &sum, err, sizeof(err)) != 0) {
		fprintf(stderr, "idlekit sim: %s\n", err);
		rc = EXIT_FAIL;
		goto out;
	}
	have_sum = true;
	struct vary_out w = { format, json_format, csv_format, rows, s, &sum };
	rc = cli_write_report_and_page(outpath, vary_report, htmlpath, vary_page, &w);
out:
	if (have_sum)
		ik__sweep_summary_free(&sum);
	if (rows)
		fclose(rows);
	ik__sweep_spec_free(s);
	free(s);
	return rc;
}

/* What sim writes of its runs: the table, JSON or a CSV table; and the page. */
struct runs_out {
	bool json, csv;
	const char *csv_table;
	const struct ik_scenario *sc;
	const struct ik_run_result *results;
};

static int runs_report(FILE *f, void *ctx)
{
	const struct runs_out *w = ctx;
	if (w->json)
		return ik__report_json(f, w->sc, w->results, w->sc->runs);
	if (w->csv)
		return ik__report_csv_table(f, w->sc, w->results, w->sc->runs, w->csv_table);
	return ik__report_table(f, w->sc, w->results, w->sc->runs);
}

static int runs_page(FILE *f, void *ctx)
{
	const struct runs_out *w = ctx;
	return ik__report_html(f, w->sc, w->results, w->sc->runs);
}

/* The built-in scenarios: name and the description line of each. */
static int list_scenarios(void)
{
	for (int i = 0; ik__builtin_scenarios[i].name; i++) {
		const char *t = ik__builtin_scenarios[i].text, *d = strstr(t, "\ndescription = ");
		int n = 0;
		if (d) {
			d += strlen("\ndescription = ");
			n = (int)strcspn(d, "\n");
		}
		printf("%-24s %.*s\n", ik__builtin_scenarios[i].name, n, d ? d : "");
	}
	return fflush(stdout) || ferror(stdout) ? EXIT_FAIL : EXIT_OK;
}

int cmd_sim(int argc, char **argv)
{
	enum { OPT_SET = 256, OPT_RUNS, OPT_SEED, OPT_JSON, OPT_CSV, OPT_VARY, OPT_BAD, OPT_PRINT,
	       OPT_CSV_TABLE, OPT_LIST };
	static const struct option opts[] = {
		{ "set", required_argument, NULL, OPT_SET },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		CLI_HTML_OPTIONS,
		{ "vary", required_argument, NULL, OPT_VARY },
		{ "bad-below", required_argument, NULL, OPT_BAD },
		CLI_OPTION_JOBS,
		CLI_OPTION_QUIET,
		{ "print-config", no_argument, NULL, OPT_PRINT },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "csv-table", required_argument, NULL, OPT_CSV_TABLE },
		CLI_OPTION_OUTPUT,
		CLI_OPTIONS_END,
	};
	const char **sets = calloc((size_t)argc + 3, sizeof(char *));
	const char **vary = calloc((size_t)argc + 1, sizeof(char *));
	const char *bad = NULL;
	char runs_set[64], seed_set[64];
	bool print_config = false;
	const char *csv_table = NULL;
	struct ik_config *cfg = ik__config_new();
	int nsets = 0, nvary = 0, format = 0, rc = EXIT_USAGE;
	uint64_t runs = 0, seed = 0;
	bool have_seed = false;
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	struct ik_run_result *results = NULL;
	int done = 0;

	if (!sets || !sc || !vary || !cfg) {
		fprintf(stderr, "idlekit sim: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	struct cli_opts opt = { .cmd = "sim", .usage = sim_usage, .shortopts = "ho:j:q",
				.longopts = opts, .bad = CLI_BAD_SEE_HELP };
	int c;
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case OPT_VARY:
			vary[nvary++] = optarg;
			break;
		case OPT_BAD:
			bad = optarg;
			break;
		case OPT_SET:
			sets[nsets++] = optarg;
			break;
		case OPT_RUNS:
			if (cli_parse_range("sim", "--runs", optarg, 1, 1000, &runs))
				goto out;
			break;
		case OPT_SEED:
			if (cli_parse_u64("sim", "--seed", optarg, UINT64_MAX - 1000, &seed))
				goto out;
			have_seed = true;
			break;
		case OPT_JSON:
		case OPT_CSV:
			if (format && format != c) {
				fprintf(stderr, "idlekit sim: --json and --csv exclude each other\n");
				goto out;
			}
			format = c;
			break;
		case OPT_PRINT:
			print_config = true;
			break;
		case OPT_LIST:
			rc = list_scenarios();
			goto out;
		case OPT_CSV_TABLE: {
			bool known = false;
			for (int i = 0; ik__csv_tables[i]; i++)
				known |= strcmp(optarg, ik__csv_tables[i]) == 0;
			if (!known) {
				fprintf(stderr, "idlekit sim: --csv-table: expected runs, states, per_cpu, "
					"summary or config, got '%s'\n", optarg);
				goto out;
			}
			if (format == OPT_JSON) {
				fprintf(stderr, "idlekit sim: --json and --csv exclude each other\n");
				goto out;
			}
			csv_table = optarg;
			format = OPT_CSV;
			break;
		}
		}
	}
	if (opt.done) {
		rc = opt.status;
		goto out;
	}
	const char *outpath = opt.output, *htmlpath = opt.html;
	bool quiet = opt.quiet;
	int jobs = opt.jobs ? opt.jobs : cli_default_jobs();
	if (argc - optind > 1) {
		fprintf(stderr, "idlekit sim: one scenario at a time, got '%s' and '%s'\n",
			argv[optind], argv[optind + 1]);
		goto out;
	}
	if (cli_window_needs_html(&opt))
		goto out;
	const char *ref = optind < argc ? argv[optind] : "default";
	bool is_file = strchr(ref, '/') || (strlen(ref) > 4 && !strcmp(ref + strlen(ref) - 4, ".ini"));
	if ((is_file && cli_input_check("sim", ref)) ||
	    cli_report_outputs_check("sim", outpath, htmlpath))
		goto out;
	if (bad && !nvary) {
		fprintf(stderr, "idlekit sim: --bad-below is for a sweep: add --vary KEY=LIST\n");
		goto out;
	}
	if (nvary) {
		if (opt.window) {
			fprintf(stderr, "idlekit sim: --timeline-window is not for --vary\n");
			goto out;
		}
		rc = sim_vary(ref, sets, nsets, vary, nvary, runs, have_seed, seed, bad, format,
			      OPT_JSON, OPT_CSV, outpath, htmlpath, jobs, quiet);
		goto out;
	}

	/* --runs and --seed are overrides of [scenario] like any other (and recorded so) */
	if (runs) {
		snprintf(runs_set, sizeof(runs_set), "scenario.runs=%" PRIu64, runs);
		sets[nsets++] = runs_set;
	}
	if (have_seed) {
		snprintf(seed_set, sizeof(seed_set), "scenario.seed=%" PRIu64, seed);
		sets[nsets++] = seed_set;
	}
	char err[IK_ERR_LEN];
	if (ik__scenario_load_config(ref, sets, nsets, sc, cfg, err, sizeof(err))) {
		fprintf(stderr, "idlekit sim: %s\n", err);
		goto out;
	}
	cli_print_notes("sim", sc->workload_notes);
	if (print_config) {
		if (format || htmlpath) {
			fprintf(stderr, "idlekit sim: --print-config prints a scenario file: it excludes "
				"--json, --csv and --html\n");
			goto out;
		}
		struct cli_output o;
		if (cli_output_open(&o, outpath)) {
			rc = EXIT_FAIL;
			goto out;
		}
		int wrc = ik__config_print_ini(o.fp, cfg, ref);
		rc = cli_output_close(&o, wrc == 0) == 0 ? EXIT_OK : EXIT_FAIL;
		goto out;
	}

	results = calloc((size_t)sc->runs, sizeof(*results));
	if (!results) {
		fprintf(stderr, "idlekit sim: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	/* the HTML page's timeline: the first run's idle periods in a window */
	struct ik_scenario *first = malloc(sizeof(*first));
	if (!first) {
		fprintf(stderr, "idlekit sim: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	*first = *sc;
	first->timeline_start_ns = htmlpath ? opt.win_start : 0;
	first->timeline_len_ns = htmlpath ? opt.win_len : 0;
	sc->timeline_start_ns = sc->timeline_len_ns = 0;
	struct cli_progress prog;
	cli_progress_begin(&prog, "sim", "simulated ms", 0,
			   (int64_t)sc->runs * ((sc->warmup_ns + sc->duration_ns) / 1000000), quiet);
	struct ik_sweep_progress hook = { cli_progress_step, &prog };
	int mrc = ik__sim_run_many(first, sc, sc->seed, sc->runs, jobs, results, &hook, err,
				  sizeof(err));
	cli_progress_end(&prog);
	free(first);
	if (mrc != 0) {
		fprintf(stderr, "idlekit sim: %s\n", err);
		rc = EXIT_USAGE;
		goto out;
	}
	done = sc->runs;

	struct runs_out w = { format == OPT_JSON, format == OPT_CSV, csv_table, sc, results };
	rc = cli_write_report_and_page(outpath, runs_report, htmlpath, runs_page, &w);
out:
	for (int i = 0; i < done; i++)
		ik__run_result_free(&results[i]);
	free(results);
	free(sc);
	ik__config_free(cfg);
	free(sets);
	free(vary);
	return rc;
}
