/* idlekit sim: run a scenario for one or more seeds and report. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "idlekit/html.h"
#include "idlekit/result.h"
#include "idlekit/scenario.h"
#include "idlekit/sim.h"

static const char sim_usage[] =
	"usage: idlekit sim [SCENARIO] [OPTIONS]\n"
	"\n"
	"Run a scenario on its modelled platform: the cpuidle core, the chosen governor and\n"
	"driver, and the workload, and print the per-state counters the kernel would show in\n"
	"sysfs with wake latency, throughput and energy.\n"
	"\n"
	"SCENARIO is a built-in scenario name or an INI file (default: the built-in 'default').\n"
	"\n"
	"Options:\n"
	"  --set SECTION.KEY=VALUE  override one key of the scenario or its platform, as if it\n"
	"                           were in the file (repeatable), e.g. --set cpuidle.governor=menu\n"
	"                           --set workload.pairs=16 --set state2.exit_ns='constant 40000'\n"
	"  --runs N                 run N seeds (seed, seed+1, ...) and add min, max, median,\n"
	"                           amean, hmean, stddev and CoV across them\n"
	"  --seed N                 first seed (default: the scenario's)\n"
	"  --json                   JSON output (schema: docs/json-schema.md)\n"
	"  --csv                    CSV output\n"
	"  -o, --output FILE        write to FILE (atomically) instead of standard output\n"
	"  --html FILE              also write a self-contained HTML report with plots to FILE\n"
	"                           (docs/html-report.md)\n"
	"  --timeline-window START:LEN\n"
	"                           the HTML timeline's window in the first run, from the end of\n"
	"                           the warm-up (default 0:2ms; units ns, us, ms, s; ms if none)\n"
	"  -h, --help               this text\n"
	"\n"
	"Examples:\n"
	"  idlekit sim\n"
	"  idlekit sim scenarios/default.ini --runs 5 --json -o result.json\n"
	"  idlekit sim default --set cpuidle.disable=C2 --set scenario.duration_ms=500\n";

int cmd_sim(int argc, char **argv)
{
	enum { OPT_SET = 256, OPT_RUNS, OPT_SEED, OPT_JSON, OPT_CSV, OPT_HTML, OPT_WINDOW };
	static const struct option opts[] = {
		{ "set", required_argument, NULL, OPT_SET },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "timeline-window", required_argument, NULL, OPT_WINDOW },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char **sets = calloc((size_t)argc + 1, sizeof(char *));
	int nsets = 0, format = 0, rc = EXIT_USAGE;
	uint64_t runs = 0, seed = 0;
	bool have_seed = false;
	const char *outpath = NULL, *htmlpath = NULL, *window = NULL;
	int64_t win_start = 0, win_len = IK_TIMELINE_DEFAULT_LEN_NS;
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	struct ik_run_result *results = NULL;
	int done = 0;

	if (!sets || !sc) {
		fprintf(stderr, "idlekit sim: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	optind = 1;
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
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
		case 'o':
			outpath = optarg;
			break;
		case OPT_HTML:
			htmlpath = optarg;
			break;
		case OPT_WINDOW: {
			char werr[256];
			window = optarg;
			if (ik_timeline_parse_window(optarg, &win_start, &win_len, werr, sizeof(werr))) {
				fprintf(stderr, "idlekit sim: --timeline-window: %s\n", werr);
				goto out;
			}
			break;
		}
		case 'h':
			fputs(sim_usage, stdout);
			rc = EXIT_OK;
			goto out;
		default:
			fprintf(stderr, "idlekit sim: unknown option '%s'\n(see idlekit sim --help)\n",
				argv[optind - 1]);
			goto out;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "idlekit sim: one scenario at a time, got '%s' and '%s'\n",
			argv[optind], argv[optind + 1]);
		goto out;
	}
	if (window && !htmlpath) {
		fprintf(stderr, "idlekit sim: --timeline-window is for the HTML report: add --html FILE\n");
		goto out;
	}
	const char *ref = optind < argc ? argv[optind] : "default";
	bool is_file = strchr(ref, '/') || (strlen(ref) > 4 && !strcmp(ref + strlen(ref) - 4, ".ini"));
	if ((is_file && cli_input_check("sim", ref)) || cli_output_check("sim", outpath) ||
	    cli_output_check("sim", htmlpath))
		goto out;

	char err[IK_ERR_LEN];
	if (ik_scenario_load(ref, sets, nsets, sc, err, sizeof(err))) {
		fprintf(stderr, "idlekit sim: %s\n", err);
		goto out;
	}
	if (runs)
		sc->runs = (int)runs;
	if (have_seed)
		sc->seed = seed;

	results = calloc((size_t)sc->runs, sizeof(*results));
	if (!results) {
		fprintf(stderr, "idlekit sim: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	bool progress = sc->runs > 1 && isatty(STDERR_FILENO);
	for (int i = 0; i < sc->runs; i++) {
		if (progress)
			fprintf(stderr, "\rrun %d/%d (seed %" PRIu64 ")", i + 1, sc->runs,
				sc->seed + (uint64_t)i);
		/* the HTML page's timeline: the first run's idle periods in a window */
		sc->timeline_start_ns = htmlpath && i == 0 ? win_start : 0;
		sc->timeline_len_ns = htmlpath && i == 0 ? win_len : 0;
		if (ik_sim_run(sc, sc->seed + (uint64_t)i, &results[i], err, sizeof(err))) {
			fprintf(stderr, "%sidlekit sim: %s\n", progress ? "\n" : "", err);
			rc = EXIT_USAGE;
			goto out;
		}
		done++;
	}
	if (progress)
		fprintf(stderr, "\r%*s\r", 40, "");

	struct cli_output_group outs = { 0 }; /* -o and --html: both written or neither */
	struct cli_output o, h; /* in the group until its commit */
	if (cli_output_open_in(&outs, &o, outpath)) {
		rc = EXIT_FAIL;
		goto out;
	}
	int wrc;
	if (format == OPT_JSON)
		wrc = ik_report_json(o.fp, sc, results, sc->runs);
	else if (format == OPT_CSV)
		wrc = ik_report_csv(o.fp, sc, results, sc->runs);
	else
		wrc = ik_report_table(o.fp, sc, results, sc->runs);
	rc = cli_output_close(&o, wrc == 0) == 0 ? EXIT_OK : EXIT_FAIL;
	if (rc == EXIT_OK && htmlpath) {
		if (cli_output_open_in(&outs, &h, htmlpath)) {
			rc = EXIT_FAIL;
			goto out;
		}
		wrc = ik_report_html(h.fp, sc, results, sc->runs);
		rc = cli_output_close(&h, wrc == 0) == 0 ? EXIT_OK : EXIT_FAIL;
	}
	if (cli_output_group_commit(&outs, rc == EXIT_OK))
		rc = EXIT_FAIL;
out:
	for (int i = 0; i < done; i++)
		ik_run_result_free(&results[i]);
	free(results);
	free(sc);
	free(sets);
	return rc;
}
