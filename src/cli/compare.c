/* idlekit compare: results side by side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "idlekit/compare.h"

static const char compare_usage[] =
	"usage: idlekit compare RESULT.json[@RUN] RESULT.json[@RUN]... [-o FILE] [--html FILE]\n"
	"\n"
	"Set the results of `idlekit sim --json` side by side, the first as the baseline:\n"
	"throughput (Min, Max, Median, AMean, HMean, Stddev, CoefVar over each file's runs),\n"
	"wake latency, power, governor accuracy, residency and entries per state, and entries\n"
	"per entry method (FFH/MWAIT, SYSTEMIO, HALT, POLL).  Each figure shows its change from\n"
	"the baseline, and '*' when Welch's t-test over the runs gives a two-sided p < 0.05.\n"
	"FILE@N takes only run N (from 1), e.g. to set a good run beside a bad one.\n"
	"--html FILE also writes the results' plots, overlaid, as one self-contained HTML file.\n"
	"\n"
	"Example:\n"
	"  idlekit sim scenarios/default.ini --runs 5 --json -o menu.json\n"
	"  idlekit sim scenarios/default.ini --runs 5 --json -o teo.json --set cpuidle.governor=teo\n"
	"  idlekit compare menu.json teo.json\n";

int cmd_compare(int argc, char **argv)
{
	const char *outpath = NULL, *htmlpath = NULL;
	struct ik_compare_set **sets = calloc((size_t)argc + 1, sizeof(*sets));
	int n = 0, rc = EXIT_USAGE;
	char err[512];

	if (!sets)
		return EXIT_FAIL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(compare_usage, stdout);
			rc = EXIT_OK;
			goto out;
		}
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "idlekit compare: %s needs a FILE\n", argv[i]);
				goto out;
			}
			outpath = argv[++i];
			continue;
		}
		if (strcmp(argv[i], "--html") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "idlekit compare: --html needs a FILE\n");
				goto out;
			}
			htmlpath = argv[++i];
			continue;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "idlekit compare: unknown option '%s'\n(see idlekit compare --help)\n",
				argv[i]);
			goto out;
		}
		if (n >= 64) {
			fprintf(stderr, "idlekit compare: at most 64 results\n");
			goto out;
		}
		if (cli_input_check("compare", argv[i]))
			goto out;
		if (ik_compare_load(argv[i], &sets[n], err, sizeof(err))) {
			fprintf(stderr, "idlekit compare: %s\n", err);
			goto out;
		}
		n++;
	}
	if (n < 1) {
		fputs(compare_usage, stderr);
		goto out;
	}
	if (cli_output_check("compare", outpath) || cli_output_check("compare", htmlpath))
		goto out;
	struct cli_output_group outs = { 0 }; /* -o and --html: both written or neither */
	struct cli_output o, h; /* in the group until its commit */
	if (cli_output_open_in(&outs, &o, outpath)) {
		rc = EXIT_FAIL;
		goto out;
	}
	int wrc = ik_compare_report(o.fp, sets, n);
	rc = cli_output_close(&o, wrc == 0) == 0 ? EXIT_OK : EXIT_FAIL;
	if (rc == EXIT_OK && htmlpath) {
		if (cli_output_open_in(&outs, &h, htmlpath)) {
			rc = EXIT_FAIL;
			goto out;
		}
		wrc = ik_compare_report_html(h.fp, sets, n);
		rc = cli_output_close(&h, wrc == 0) == 0 ? EXIT_OK : EXIT_FAIL;
	}
	if (cli_output_group_commit(&outs, rc == EXIT_OK))
		rc = EXIT_FAIL;
out:
	for (int k = 0; k < n; k++)
		ik_compare_free(sets[k]);
	free(sets);
	return rc;
}
