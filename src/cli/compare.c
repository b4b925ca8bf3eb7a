/* idlekit compare: results side by side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/compare.h"

#define MAX_RESULTS 64
#define MAX_GATES 32

static const char compare_usage[] =
	"usage: idlekit compare RESULT.json[@RUN] RESULT.json[@RUN]... [--json | --csv]\n"
	"                       [--fail-if FIGURE:worse-than:PCT]... [-o FILE] [--html FILE]\n"
	"\n"
	"Set results side by side, the first as the baseline: the output of `idlekit sim\n"
	"--json`, `replay --json` (one result per governor), `analyze --json` or `validate\n"
	"--json` (two results: FILE@measured and FILE@predicted, each figure of validate's\n"
	"table as validate.NAME, the prediction's error as abs_error_pct.NAME), read by figure\n"
	"name (a figure a result lacks is shown as missing).  Throughput (Min, Max, Median,\n"
	"AMean, HMean, Stddev, CoefVar over each file's runs), wake latency, power, energy,\n"
	"governor accuracy, residency, time and entries per state (every state of every result,\n"
	"matched by name) and entries per entry method (FFH/MWAIT, SYSTEMIO, HALT, POLL); the\n"
	"workload's own figures (a server's requests.latency_p99_us, ...).\n"
	"\n"
	"govreplay --json results are compared decision by decision instead: how many differ in\n"
	"state and stop_tick, a matrix of the state chosen, the first 10 that differ with their\n"
	"input lines (text only).\n"
	"\n"
	"Means change by a relative amount and get Welch's t-test: its two-sided p-value, the\n"
	"95% confidence interval of the difference, and '*' when p < 0.05.  No test and no mark\n"
	"with fewer than 2 runs on a side or no spread on either.  Stddev and CoefVar change by\n"
	"an absolute amount.  Results whose configurations differ get a warning naming the keys.\n"
	"FILE@N takes only run N (from 1), e.g. to set a good run beside a bad one; FILE@GOVERNOR\n"
	"one governor of a replay result.\n"
	"\n"
	"Options:\n"
	"  --json                the comparison as JSON (schema idlekit.compare/1)\n"
	"  --csv                 the comparison as CSV, one row per (figure, result)\n"
	"  --fail-if FIGURE:worse-than:PCT\n"
	"                        exit 3 when a result's mean of FIGURE is more than PCT percent\n"
	"                        worse than the baseline's (repeatable); worse is lower for\n"
	"                        mb_per_s messages_per_s, higher for wake_p50_us wake_p99_us\n"
	"                        avg_power_w energy_j too_deep_pct too_shallow_pct; or a\n"
	"                        workload's or validate's figure as the report names it\n"
	"                        (requests.latency_p99_us, \"abs_error_pct.cpu0 busy\"), or\n"
	"                        its words (request_latency_p99: said which figure it took)\n"
	"  -o, --output FILE     write to FILE instead of standard output\n"
	"  --html FILE           also write the results' plots, overlaid, as one HTML file\n"
	"  -h, --help            this text\n"
	"\n"
	"Results that ran different kernel releases, or the same kernel: governor path with\n"
	"different file contents (sha256), get a warning that says so.\n"
	"\n"
	"Exit status: 0, 2 for bad input, 3 when a --fail-if gate fails (the report is written).\n"
	"\n"
	"Examples:\n"
	"  idlekit sim scenarios/default.ini --runs 5 --json -o menu.json\n"
	"  idlekit sim scenarios/default.ini --runs 5 --json -o teo.json --set cpuidle.governor=teo\n"
	"  idlekit compare menu.json teo.json\n"
	"  idlekit compare menu.json teo.json --fail-if mb_per_s:worse-than:5 --csv -o cmp.csv\n";

int cmd_compare(int argc, char **argv)
{
	const char *outpath = NULL, *htmlpath = NULL;
	struct ik_compare_set *sets[MAX_RESULTS];
	struct ik_compare_gate gates[MAX_GATES];
	int n = 0, ngates = 0, rc = EXIT_USAGE;
	int format = 0; /* TEXT, JSON or CSV */
	enum { TEXT, JSON, CSV };
	char err[512];
	const char *decpaths[MAX_RESULTS];
	int ndec = 0;
	bool decisions = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(compare_usage, stdout);
			rc = EXIT_OK;
			goto out;
		}
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0 ||
		    strcmp(argv[i], "--html") == 0 || strcmp(argv[i], "--fail-if") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "idlekit compare: %s needs %s\n", argv[i],
					strcmp(argv[i], "--fail-if") == 0 ? "FIGURE:worse-than:PCT" : "a FILE");
				goto out;
			}
			const char *opt = argv[i++];
			if (strcmp(opt, "--html") == 0) {
				htmlpath = argv[i];
			} else if (strcmp(opt, "--fail-if") == 0) {
				if (ngates == MAX_GATES) {
					fprintf(stderr, "idlekit compare: at most %d --fail-if\n", MAX_GATES);
					goto out;
				}
				if (ik__compare_parse_gate(argv[i], &gates[ngates], err, sizeof(err))) {
					fprintf(stderr, "idlekit compare: %s\n", err);
					goto out;
				}
				ngates++;
			} else {
				outpath = argv[i];
			}
			continue;
		}
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--csv") == 0) {
			int f = argv[i][2] == 'j' ? JSON : CSV;
			if (format != TEXT && format != f) {
				fprintf(stderr, "idlekit compare: --json and --csv exclude each other\n");
				goto out;
			}
			format = f;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "idlekit compare: unknown option '%s'\n(see idlekit compare --help)\n",
				argv[i]);
			goto out;
		}
		/* FILE or FILE@GOVERNOR (one governor of a replay result): the file must be a
		   regular file (a FIFO would block, a directory is no result) */
		char path[4096];
		snprintf(path, sizeof(path), "%s", argv[i]);
		char *at = strrchr(path, '@');
		if (at && access(path, F_OK) != 0)
			*at = '\0';
		if (cli_input_check("compare", path))
			goto out;
		/* govreplay results: compared decision by decision, all of them (below) */
		if (n == 0 && ndec == 0 && ik__compare_is_govreplay(path))
			decisions = true;
		if (decisions) {
			if (ndec == MAX_RESULTS) {
				fprintf(stderr, "idlekit compare: at most %d results\n", MAX_RESULTS);
				goto out;
			}
			decpaths[ndec++] = argv[i];
			continue;
		}
		int got;
		if (ik__compare_load_many(argv[i], sets + n, MAX_RESULTS - n, &got, err, sizeof(err))) {
			fprintf(stderr, "idlekit compare: %s%s\n", err,
				n == MAX_RESULTS ? " (at most 64 results)" : "");
			goto out;
		}
		n += got;
	}
	if (decisions) {
		if (format != TEXT || htmlpath || ngates) {
			fprintf(stderr, "idlekit compare: govreplay results are compared decision by "
				"decision, as text only (no --json, --csv, --html or --fail-if)\n");
			goto out;
		}
		if (ndec < 2) {
			fprintf(stderr, "idlekit compare: a govreplay result needs another to be "
				"compared with (see idlekit compare --help)\n");
			goto out;
		}
		if (cli_output_check("compare", outpath))
			goto out;
		struct cli_output o;
		if (cli_output_open(&o, outpath)) {
			rc = EXIT_FAIL;
			goto out;
		}
		int drc = ik__compare_decisions(o.fp, decpaths, ndec, ik__compare_max_bytes(), err,
					       sizeof(err));
		if (drc)
			fprintf(stderr, "idlekit compare: %s\n", err);
		rc = cli_output_close(&o, drc == 0) == 0 ? (drc ? EXIT_USAGE : EXIT_OK) : EXIT_FAIL;
		if (drc)
			rc = EXIT_USAGE;
		goto out;
	}
	if (n < 1) {
		fputs(compare_usage, stderr);
		goto out;
	}
	if (ik__compare_resolve_gates(stderr, sets, n, gates, ngates, err, sizeof(err))) {
		fprintf(stderr, "idlekit compare: %s\n", err);
		goto out;
	}
	if (cli_report_outputs_check("compare", outpath, htmlpath))
		goto out;
	struct cli_output_group outs = { 0 }; /* -o and --html: both written or neither */
	struct cli_output o, h; /* in the group until its commit */
	if (cli_output_open_in(&outs, &o, outpath)) {
		rc = EXIT_FAIL;
		goto out;
	}
	int wrc = format == JSON ? ik__compare_report_json(o.fp, sets, n)
		: format == CSV	 ? ik__compare_report_csv(o.fp, sets, n)
				 : ik__compare_report(o.fp, sets, n);
	rc = cli_output_close(&o, wrc == 0) == 0 ? EXIT_OK : EXIT_FAIL;
	if (rc == EXIT_OK && htmlpath) {
		if (cli_output_open_in(&outs, &h, htmlpath)) {
			rc = EXIT_FAIL;
			goto out;
		}
		wrc = ik__compare_report_html(h.fp, sets, n);
		rc = cli_output_close(&h, wrc == 0) == 0 ? EXIT_OK : EXIT_FAIL;
	}
	if (cli_output_group_commit(&outs, rc == EXIT_OK))
		rc = EXIT_FAIL;
	if (rc == EXIT_OK && ik__compare_check_gates(stderr, sets, n, gates, ngates))
		rc = 3;
out:
	for (int k = 0; k < n; k++)
		ik__compare_free(sets[k]);
	return rc;
}
