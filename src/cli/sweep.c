/*
 * idlekit sweep: a grid of scenarios from a spec (docs/sweep.md), run here on a pool of
 * threads, split into shards for a cluster (sweep slurm writes the job array), and joined
 * again (sweep merge).  A sweep folder holds:
 *
 *   manifest    the spec's hash, the shard I/N, its points and runs per point
 *   spec.ini    the spec in canonical form (what merge reads)
 *   rows.csv    one line per run, appended as points finish, in point order (a rerun
 *               with the same spec resumes after the last complete point)
 *   results.csv, results.json, summary.csv, index.html
 *               the reports, written when every point is done (a whole sweep, or a merge)
 *
 * The command: options, the folder and its files (each written whole or not at all), and
 * the messages.  The work is src/sweep's: the spec and its check, running the points,
 * the reports, joining shards (merge.c) and the job array script (slurm.c).
 *
 * Divisions: the help text; files and folders (each file whole, the reports, a sweep folder
 * new or resumed, the spec); a run; merge; slurm; the command (options, and which of the
 * three).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/governor_registry.h"
#include "cli/progress.h"
#include "sweep/merge.h"
#include "sweep/slurm.h"
#include "sweep/sweep.h"

static const char sweep_usage[] =
	"usage: idlekit sweep SPEC.ini -o DIR [-j N] [-q] [--shard I/N] [--bad-below FIGURE:VALUE]\n"
	"       idlekit sweep slurm SPEC.ini -o DIR [--shards N] [--partition P] [--time T]\n"
	"                           [--cpus-per-task C] [--mem M] [--account A] [--submit]\n"
	"       idlekit sweep merge -o DIR SHARD_DIR... [--bad-below FIGURE:VALUE]\n"
	"\n"
	"Run a grid of what-ifs: a base scenario with keys varied over lists or ranges, every\n"
	"combination (point) for a number of runs (seeds).  The spec is an INI file:\n"
	"\n"
	"  [sweep]\n"
	"  base = seed000-baseline          ; a built-in scenario or an .ini file\n"
	"  runs = 3                         ; seeds per point (default: the scenario's)\n"
	"  vary.workload.pairs = 2,4,8      ; an axis: a list ...\n"
	"  vary.workload.start_spread_us = lin:2300:2900:4   ; ... or lin:/log:START:STOP:COUNT\n"
	"  vary.acpi.pm_timer_read_ns = 1300,1500\n"
	"  template.acpi.pm_timer_read_ns = lognormal {} 0.1 ; what the value goes into\n"
	"  zip = KEY1,KEY2                  ; these axes move together (default: crossed)\n"
	"  bad_below = messages_per_s:900000 ; a bad run, for bimodal results\n"
	"  [scenario]                       ; any other section overrides the base (as --set)\n"
	"  duration_ms = 50\n"
	"\n"
	"DIR receives results.csv and results.json (a row per point and run), summary.csv\n"
	"(per point: median, quartiles, IQR, mean with 95% CI) and index.html (plots).  The\n"
	"results are the same bytes for any -j.  A rerun with the same spec and DIR skips the\n"
	"points already done; a DIR made from another spec is refused.\n"
	"\n"
	"Options:\n"
	"  -o, --output DIR        the sweep folder (created if missing)\n"
	"  -j, --jobs N            threads (default: the CPUs this process may use)\n"
	"  -q, --quiet             no progress line on standard error\n"
	"  --shard I/N             run only shard I of N (points p with p mod N = I); also\n"
	"                          taken from a Slurm job array (SLURM_ARRAY_TASK_ID minus\n"
	"                          SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT) or from a\n"
	"                          Kubernetes Indexed Job (JOB_COMPLETION_INDEX of --shard-count)\n"
	"  --shard-count N         the number of shards, for JOB_COMPLETION_INDEX\n"
	"  --bad-below FIGURE:VALUE\n"
	"                          a run is bad when FIGURE < VALUE: summary.csv and index.html\n"
	"                          add the fraction of bad runs per point (overrides bad_below)\n"
	"  -h, --help              this text\n"
	"\n"
	"sweep slurm writes DIR/sweep.sbatch, a job array of --shards tasks (default: one per\n"
	"point, at most 100), each writing DIR/shard-I; --submit also runs sbatch.  Then:\n"
	"sweep merge -o OUT DIR/shard-* joins the shards into the files a local run writes,\n"
	"byte for byte, after checking that every shard is there once, complete and of one spec.\n"
	"\n"
	"Examples:\n"
	"  idlekit sweep docs/examples/sweep-seed000/spec.ini -o /tmp/seed000 -j 2\n"
	"  idlekit sweep spec.ini -o out --shard 0/4        # one of four shards\n"
	"  idlekit sweep slurm spec.ini -o /shared/run --partition batch --time 00:30:00 --submit\n"
	"  idlekit sweep merge -o merged /shared/run/shard-*\n";

/* ---- files and folders --------------------------------------------------------------- */

/* snprintf where a text cut short is acceptable (messages; paths are checked by open). */
static void fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

static void join(char *buf, size_t len, const char *dir, const char *name)
{
	fmt(buf, len, "%s/%s", dir, name);
}

/* Writes `path` whole or not at all with fn(out, ...). */
static int write_file(const char *dir, const char *name, int (*fn)(FILE *, void *), void *arg)
{
	char path[PATH_MAX];
	struct cli_output o;
	join(path, sizeof(path), dir, name);
	if (cli_output_open(&o, path))
		return -1;
	int ok = fn(o.fp, arg) == 0;
	return cli_output_close(&o, ok);
}

struct reports {
	const struct ik_sweep_spec *s;
	FILE *rows;
	struct ik_sweep_summary sum;
	const struct ik_sweep_shard *sh;
};

static int w_manifest(FILE *out, void *arg)
{
	struct reports *r = arg;
	return ik__sweep_manifest_write(out, r->s, r->sh);
}
static int w_spec(FILE *out, void *arg)
{
	struct reports *r = arg;
	return ik__sweep_spec_write(out, r->s);
}
static int w_results_csv(FILE *out, void *arg)
{
	struct reports *r = arg;
	return ik__sweep_write_results_csv(out, r->rows, r->s);
}
static int w_results_json(FILE *out, void *arg)
{
	struct reports *r = arg;
	return ik__sweep_write_results_json(out, r->rows, r->s);
}
static int w_summary(FILE *out, void *arg)
{
	struct reports *r = arg;
	return ik__sweep_write_summary_csv(out, r->s, &r->sum);
}
static int w_html(FILE *out, void *arg)
{
	struct reports *r = arg;
	return ik__sweep_write_html(out, r->s, &r->sum);
}

/* The four reports from DIR/rows.csv (every point present). EXIT_*. */
static int write_reports(const char *cmd, const char *dir, const struct ik_sweep_spec *s)
{
	char path[PATH_MAX], err[IK_ERR_LEN];
	struct reports r = { .s = s };
	join(path, sizeof(path), dir, "rows.csv");
	r.rows = fopen(path, "r");
	if (!r.rows) {
		fprintf(stderr, "idlekit %s: %s: cannot open: %s\n", cmd, path, strerror(errno));
		return EXIT_FAIL;
	}
	int rc = EXIT_FAIL;
	if (ik__sweep_summarize(r.rows, s, &r.sum, err, sizeof(err)) != 0) {
		fprintf(stderr, "idlekit %s: %s: %s\n", cmd, path, err);
		goto out;
	}
	if (write_file(dir, "results.csv", w_results_csv, &r) == 0 &&
	    write_file(dir, "results.json", w_results_json, &r) == 0 &&
	    write_file(dir, "summary.csv", w_summary, &r) == 0 &&
	    write_file(dir, "index.html", w_html, &r) == 0)
		rc = EXIT_OK;
	ik__sweep_summary_free(&r.sum);
out:
	fclose(r.rows);
	return rc;
}

static int make_dir(const char *cmd, const char *dir)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "idlekit %s: %s: cannot create the folder: %s\n", cmd, dir,
			strerror(errno));
		return -1;
	}
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "idlekit %s: %s: expected a folder\n", cmd, dir);
		return -1;
	}
	return 0;
}

static bool dir_empty(const char *dir)
{
	FILE *f;
	char path[PATH_MAX];
	/* a folder is empty for us when it holds none of a sweep's files and nothing else we
	   could overwrite: only manifest-less folders with no rows.csv are taken */
	join(path, sizeof(path), dir, "rows.csv");
	f = fopen(path, "r");
	if (f) {
		fclose(f);
		return false;
	}
	join(path, sizeof(path), dir, "results.csv");
	f = fopen(path, "r");
	if (f) {
		fclose(f);
		return false;
	}
	return true;
}

/*
 * The sweep folder for this spec and shard: new (manifest and spec written), or resumed
 * (same hash, shard and runs; rows cut to the last complete point).  *done = the points
 * done before.  EXIT_*.
 */
static int open_dir(const char *cmd, const char *dir, const struct ik_sweep_spec *s,
		    const struct ik_sweep_shard *sh, int64_t *done)
{
	char path[PATH_MAX], err[IK_ERR_LEN];
	struct ik_sweep_manifest m;
	struct reports r = { .s = s, .sh = sh };

	*done = 0;
	if (make_dir(cmd, dir))
		return EXIT_USAGE;
	if (ik__sweep_lock(dir, err, sizeof(err)) < 0) { /* one sweep per folder at a time */
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	join(path, sizeof(path), dir, "manifest");
	if (access(path, F_OK) != 0) {
		if (!dir_empty(dir)) {
			fprintf(stderr, "idlekit %s: %s: holds results but no manifest: expected a new "
				"folder or one of this sweep's\n", cmd, dir);
			return EXIT_USAGE;
		}
		join(path, sizeof(path), dir, "rows.csv");
		FILE *f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "idlekit %s: %s: cannot create: %s\n", cmd, path, strerror(errno));
			return EXIT_FAIL;
		}
		fclose(f);
		if (write_file(dir, "spec.ini", w_spec, &r) || write_file(dir, "manifest", w_manifest, &r))
			return EXIT_FAIL;
		return EXIT_OK;
	}
	if (ik__sweep_manifest_read(path, &m, err, sizeof(err)) != 0) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	uint64_t h = ik__sweep_spec_hash(s);
	if (m.spec_hash != h || m.runs != s->runs) {
		fprintf(stderr, "idlekit %s: %s: made from a different spec (hash %016llx, this "
			"spec's is %016llx): use another folder\n", cmd, dir,
			(unsigned long long)m.spec_hash, (unsigned long long)h);
		return EXIT_USAGE;
	}
	if (m.shard.index != sh->index || m.shard.count != sh->count) {
		fprintf(stderr, "idlekit %s: %s: holds shard %d/%d, this run is shard %d/%d: use "
			"another folder\n", cmd, dir, m.shard.index, m.shard.count, sh->index,
			sh->count);
		return EXIT_USAGE;
	}
	join(path, sizeof(path), dir, "rows.csv");
	FILE *f = fopen(path, "r+");
	if (!f) {
		fprintf(stderr, "idlekit %s: %s: cannot open: %s\n", cmd, path, strerror(errno));
		return EXIT_USAGE;
	}
	long good;
	int ret = ik__sweep_rows_scan(f, path, s, sh, done, &good, err, sizeof(err));
	if (ret == 0 && ftruncate(fileno(f), good) != 0)
		ret = -1, fmt(err, sizeof(err), "%s: cannot truncate: %s", path, strerror(errno));
	fclose(f);
	if (ret) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The spec from a file, with --bad-below, checked against its scenario. EXIT_*. */
static int load_spec(const char *cmd, const char *path, const char *bad, bool check,
		     struct ik_sweep_spec *s)
{
	char err[IK_ERR_LEN];
	if (ik__sweep_spec_load(path, s, err, sizeof(err)) != 0) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		return EXIT_USAGE;
	}
	if (bad && ik__sweep_parse_bad(bad, &s->bad, err, sizeof(err)) != 0) {
		fprintf(stderr, "idlekit %s: --bad-below: %s\n", cmd, err);
		ik__sweep_spec_free(s);
		return EXIT_USAGE;
	}
	if (check && (ik__sweep_spec_check(s, err, sizeof(err)) != 0 ||
		      ik__sweep_governors_check(s, err, sizeof(err)) != 0)) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		ik__sweep_spec_free(s);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* load_spec with the checks into a new spec (*out, for ik__sweep_spec_free and free). */
static int new_spec(const char *cmd, const char *path, const char *bad, struct ik_sweep_spec **out)
{
	struct ik_sweep_spec *s = malloc(sizeof(*s));
	if (!s) {
		fprintf(stderr, "idlekit %s: out of memory\n", cmd);
		return EXIT_FAIL;
	}
	int rc = load_spec(cmd, path, bad, true, s);
	if (rc) {
		free(s);
		return rc;
	}
	*out = s;
	return EXIT_OK;
}

/* ---- a run ---------------------------------------------------------------------------- */

static int run_sweep(const char *spec_path, const char *dir, int jobs, bool quiet,
		     const char *shard_text, int shard_count, const char *bad)
{
	struct ik_sweep_spec *s;
	struct ik_sweep_shard sh = { 0, 1 };
	char err[IK_ERR_LEN], src[64];
	int rc;

	if (shard_text) {
		if (ik__sweep_shard_parse(shard_text, &sh, err, sizeof(err)) != 0) {
			fprintf(stderr, "idlekit sweep: --shard: %s\n", err);
			return EXIT_USAGE;
		}
	} else {
		int found = ik__sweep_shard_from_env(shard_count, &sh, src, sizeof(src), err, sizeof(err));
		if (found < 0) {
			fprintf(stderr, "idlekit sweep: %s\n", err);
			return EXIT_USAGE;
		}
		if (found == 0 && shard_count > 0) {
			fprintf(stderr, "idlekit sweep: --shard-count is for JOB_COMPLETION_INDEX, which "
				"is not set: give --shard I/N\n");
			return EXIT_USAGE;
		}
	}
	rc = new_spec("sweep", spec_path, bad, &s);
	if (rc)
		return rc;
	if (sh.count > s->npoints) {
		fprintf(stderr, "idlekit sweep: shard %d/%d: the sweep has only %lld points: expected "
			"at most %lld shards\n", sh.index, sh.count, (long long)s->npoints,
			(long long)s->npoints);
		rc = EXIT_USAGE;
		goto out;
	}
	int64_t done, npoints = ik__sweep_shard_points(s, &sh);
	rc = open_dir("sweep", dir, s, &sh, &done);
	if (rc)
		goto out;
	if (done > 0 && !quiet)
		fprintf(stderr, "idlekit sweep: %s: %lld of %lld points done before, %s\n", dir,
			(long long)done, (long long)npoints, done == npoints ? "nothing to run" :
			"running the others");
	char path[PATH_MAX];
	join(path, sizeof(path), dir, "rows.csv");
	FILE *rows = fopen(path, "a");
	if (!rows) {
		fprintf(stderr, "idlekit sweep: %s: cannot open: %s\n", path, strerror(errno));
		rc = EXIT_FAIL;
		goto out;
	}
	struct cli_progress prog;
	cli_progress_begin(&prog, "sweep", "runs", done * s->runs, npoints * s->runs, quiet);
	struct ik_sweep_progress hook = { cli_progress_step, &prog };
	int ret = ik__sweep_run(s, &sh, done, jobs, rows, &hook, err, sizeof(err));
	cli_progress_end(&prog);
	if (fclose(rows) != 0 && ret == 0) {
		ret = -1;
		fmt(err, sizeof(err), "%s: write failed", path);
	}
	if (ret != 0) {
		fprintf(stderr, "idlekit sweep: %s\n", err);
		rc = ret == 2 ? EXIT_USAGE : EXIT_FAIL;
		goto out;
	}
	if (sh.count == 1) {
		rc = write_reports("sweep", dir, s);
		/* the end said whatever standard error is (the progress line shows on a
		   terminal only): what ran and where its answers are */
		if (rc == EXIT_OK && !quiet)
			fprintf(stderr, "idlekit sweep: %lld point%s x %d run%s in %s: results.csv, "
				"results.json, summary.csv, index.html\n", (long long)npoints,
				npoints == 1 ? "" : "s", s->runs, s->runs == 1 ? "" : "s", dir);
	} else if (!quiet)
		fprintf(stderr, "idlekit sweep: shard %d/%d: %lld points in %s; join the shards with "
			"idlekit sweep merge\n", sh.index, sh.count, (long long)npoints, dir);
out:
	ik__sweep_spec_free(s);
	free(s);
	return rc;
}

/* ---- merge --------------------------------------------------------------------------- */

static int merge(const char *out_dir, int n, char **dirs, const char *bad)
{
	struct ik_sweep_merge mg;
	struct ik_sweep_spec *s = malloc(sizeof(*s));
	char path[PATH_MAX], err[IK_ERR_LEN];
	bool have_spec = false;

	if (!s) {
		fprintf(stderr, "idlekit sweep merge: out of memory\n");
		return EXIT_FAIL;
	}
	int ret = ik__sweep_merge_open(&mg, n, dirs, err, sizeof(err));
	if (ret == 0) {
		if (load_spec("sweep merge", mg.spec_path, bad, false, s) != EXIT_OK)
			goto usage;
		have_spec = true;
		ret = ik__sweep_merge_check(&mg, s, err, sizeof(err));
	}
	if (ret == 0)
		ret = ik__sweep_merge_target(&mg, out_dir, err, sizeof(err));
	if (ret != 0) {
		fprintf(stderr, "idlekit sweep merge: %s\n", err);
		goto out;
	}
	/* the output: a whole sweep's folder */
	struct ik_sweep_shard whole = { 0, 1 };
	struct reports r = { .s = s, .sh = &whole };
	ret = -1;
	if (make_dir("sweep merge", out_dir))
		goto out;
	struct cli_output o;
	join(path, sizeof(path), out_dir, "rows.csv");
	if (cli_output_open(&o, path))
		goto out;
	bool ok = ik__sweep_merge_rows(&mg, s, o.fp) == 0;
	if (cli_output_close(&o, ok) != 0)
		goto out;
	if (write_file(out_dir, "spec.ini", w_spec, &r) || write_file(out_dir, "manifest", w_manifest, &r))
		goto out;
	ret = write_reports("sweep merge", out_dir, s) == EXIT_OK ? 0 : -1;
	goto out;
usage:
	ret = 2;
out:
	ik__sweep_merge_close(&mg);
	if (have_spec)
		ik__sweep_spec_free(s);
	free(s);
	return ret == 0 ? EXIT_OK : ret == 2 ? EXIT_USAGE : EXIT_FAIL;
}

/* ---- slurm ------------------------------------------------------------------------- */

static int slurm(const char *spec_path, const char *dir, const struct ik_sweep_slurm *so,
		 const char *bad, bool submit)
{
	struct ik_sweep_spec *s;
	char spec_abs[PATH_MAX], dir_abs[PATH_MAX], exe[PATH_MAX], path[PATH_MAX], err[IK_ERR_LEN];
	int rc, shards;

	if (ik__sweep_slurm_check(so, err, sizeof(err))) {
		fprintf(stderr, "idlekit sweep slurm: %s\n", err);
		return EXIT_USAGE;
	}
	rc = new_spec("sweep slurm", spec_path, bad, &s);
	if (rc)
		return rc;
	rc = EXIT_USAGE;
	if (ik__sweep_slurm_shards(so, s, &shards, err, sizeof(err))) {
		fprintf(stderr, "idlekit sweep slurm: %s\n", err);
		goto out;
	}
	rc = EXIT_FAIL;
	/* the tasks start elsewhere: this idlekit, the spec and the folder by absolute paths */
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || !realpath(spec_path, spec_abs)) {
		fprintf(stderr, "idlekit sweep slurm: cannot find the absolute paths of idlekit and "
			"the spec\n");
		goto out;
	}
	exe[n] = '\0';
	if (make_dir("sweep slurm", dir) || !realpath(dir, dir_abs))
		goto out;
	join(path, sizeof(path), dir_abs, "logs");
	if (make_dir("sweep slurm", path))
		goto out;
	join(path, sizeof(path), dir_abs, "sweep.sbatch");
	struct cli_output o;
	if (cli_output_open(&o, path))
		goto out;
	(void)ik__sweep_slurm_write(o.fp, so, shards, s, exe, spec_abs, dir_abs); /* close checks */
	if (cli_output_close(&o, 1) != 0)
		goto out;
	chmod(path, 0755);
	printf("%s\n", path);
	rc = EXIT_OK;
	if (submit) {
		int spawn_errno;
		fflush(stdout);
		if (ik__sweep_slurm_submit(path, &spawn_errno) != 0) {
			if (spawn_errno)
				fprintf(stderr, "idlekit sweep slurm: --submit: cannot run sbatch: %s\n",
					strerror(spawn_errno));
			fprintf(stderr, "idlekit sweep slurm: --submit: sbatch failed\n");
			rc = EXIT_FAIL;
		} else {
			/* sbatch --parsable printed the job id: what it is, and what comes next */
			fprintf(stderr, "idlekit sweep slurm: submitted: the job id above, %d array "
				"tasks; when they are done: idlekit sweep merge -o %s/merged "
				"%s/shard-*\n", shards, dir_abs, dir_abs);
		}
	}
out:
	ik__sweep_spec_free(s);
	free(s);
	return rc;
}

/* ---- the command ------------------------------------------------------------------- */

/* --shard-count N and --shards N: a number of shards, 1..100000; -1 with the message. */
static int shards_arg(const char *cmd, const char *opt, const char *text, int *out)
{
	uint64_t v;
	if (cli_parse_u64(cmd, opt, text, 100000, &v))
		return -1;
	if (v == 0) {
		fprintf(stderr, "idlekit %s: %s: expected 1..100000, got 0\n", cmd, opt);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int cmd_sweep(int argc, char **argv)
{
	enum { OPT_SHARD = 256, OPT_SHARD_COUNT, OPT_BAD, OPT_PARTITION, OPT_TIME, OPT_CPUS,
	       OPT_MEM, OPT_ACCOUNT, OPT_SHARDS, OPT_SUBMIT };
	static const struct option opts[] = {
		CLI_OPTION_OUTPUT,
		CLI_OPTION_JOBS,
		CLI_OPTION_QUIET,
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "shard-count", required_argument, NULL, OPT_SHARD_COUNT },
		{ "bad-below", required_argument, NULL, OPT_BAD },
		{ "partition", required_argument, NULL, OPT_PARTITION },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "cpus-per-task", required_argument, NULL, OPT_CPUS },
		{ "mem", required_argument, NULL, OPT_MEM },
		{ "account", required_argument, NULL, OPT_ACCOUNT },
		{ "shards", required_argument, NULL, OPT_SHARDS },
		{ "submit", no_argument, NULL, OPT_SUBMIT },
		CLI_OPTIONS_END,
	};
	const char *sub = NULL;
	int first = 1;
	if (argc > 1 && (strcmp(argv[1], "slurm") == 0 || strcmp(argv[1], "merge") == 0)) {
		sub = argv[1];
		first = 2;
	}
	char cmd[32];
	snprintf(cmd, sizeof(cmd), "sweep%s%s", sub ? " " : "", sub ? sub : "");
	const char *shard = NULL;
	int shard_count = 0;
	struct ik_sweep_slurm so = { .cpus = 1 };
	const char *bad = NULL;
	bool submit = false;
	bool slurm_opt = false, run_opt = false;
	uint64_t v;

	struct cli_opts opt = { .cmd = cmd, .usage = sweep_usage, .shortopts = "ho:j:q",
				.longopts = opts, .bad = CLI_BAD_SEE_HELP, .help_cmd = "sweep",
				.first = first };
	int c;
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case OPT_SHARD:
			shard = optarg;
			run_opt = true;
			break;
		case OPT_SHARD_COUNT:
			if (shards_arg(cmd, "--shard-count", optarg, &shard_count))
				return EXIT_USAGE;
			run_opt = true;
			break;
		case OPT_BAD:
			bad = optarg;
			break;
		case OPT_PARTITION:
			so.partition = optarg;
			slurm_opt = true;
			break;
		case OPT_TIME:
			so.time = optarg;
			slurm_opt = true;
			break;
		case OPT_MEM:
			so.mem = optarg;
			slurm_opt = true;
			break;
		case OPT_ACCOUNT:
			so.account = optarg;
			slurm_opt = true;
			break;
		case OPT_CPUS:
			if (cli_parse_u64(cmd, "--cpus-per-task", optarg, 1024, &v))
				return EXIT_USAGE;
			so.cpus = v ? (int)v : 1;
			slurm_opt = true;
			break;
		case OPT_SHARDS:
			if (shards_arg(cmd, "--shards", optarg, &so.shards))
				return EXIT_USAGE;
			slurm_opt = true;
			break;
		case OPT_SUBMIT:
			submit = true;
			slurm_opt = true;
			break;
		}
	}
	if (opt.done)
		return opt.status;
	const char *out = opt.output;
	if (opt.jobs)
		run_opt = true;
	if (!out) {
		fprintf(stderr, "idlekit %s: expected -o DIR (see idlekit sweep --help)\n", cmd);
		return EXIT_USAGE;
	}
	bool is_slurm = sub && strcmp(sub, "slurm") == 0, is_merge = sub && strcmp(sub, "merge") == 0;
	if (slurm_opt && !is_slurm) {
		fprintf(stderr, "idlekit %s: --partition, --time, --cpus-per-task, --mem, --account, "
			"--shards and --submit are options of idlekit sweep slurm\n", cmd);
		return EXIT_USAGE;
	}
	if (run_opt && sub) {
		fprintf(stderr, "idlekit %s: -j, --shard and --shard-count are options of a sweep's "
			"run (idlekit sweep SPEC.ini)\n", cmd);
		return EXIT_USAGE;
	}
	int nargs = argc - optind;
	if (is_merge) {
		if (nargs < 1) {
			fprintf(stderr, "idlekit sweep merge: expected one shard folder or more\n");
			return EXIT_USAGE;
		}
		return merge(out, nargs, argv + optind, bad);
	}
	if (nargs != 1) {
		fprintf(stderr, "idlekit %s: expected one SPEC.ini, got %d arguments\n", cmd, nargs);
		return EXIT_USAGE;
	}
	if (is_slurm)
		return slurm(argv[optind], out, &so, bad, submit);
	return run_sweep(argv[optind], out, opt.jobs ? opt.jobs : cli_default_jobs(), opt.quiet,
			 shard, shard_count, bad);
}
