/*
 * `idlekit sim --csv`: one table per output, chosen with --csv-table (docs/csv.md):
 *
 *   runs     one row per run: the headline figures (the default)
 *   states   one row per (run, state): the sysfs counters summed over CPUs
 *   per_cpu  one row per (run, CPU, state)
 *   summary  one row per figure: min, max, median, amean, hmean, stddev, CoV over the runs
 *   requests one row per run of a workload with figures of its own (server, schbench,
 *            rtapp, learned): its counts and its distributions' p50 and p99, as the
 *            workload lists them (ik__workload_figures)
 *   config   one row per key of the effective configuration, with its origin
 *
 * Every table but config starts with the scenario, platform, driver and governor columns,
 * so tables of several results can be concatenated (less their header) and still say what
 * each row is.  Numbers have a fixed number of decimals per column (the unit is in the
 * column name), so no float noise: counters and ns as integers, us and ms with 3 decimals,
 * percentages with 4, J with 6, W with 3, rates with 1.  A value that is not finite is an
 * empty field.  RFC 4180 quoting; lines end in LF.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/textout.h"
#include "config/config.h"
#include "report/report_internal.h"

/* ",v" with `decimals` decimals; an empty field when v is not finite. */
static void csv_fixed(FILE *out, double v, int decimals)
{
	char buf[IK_FMT_NUM_LEN];
	fputc(',', out);
	if (!isfinite(v))
		return;
	ik__fmt_fixed(buf, sizeof(buf), v, decimals);
	fputs(buf, out);
}

/* ",value" of integer nanoseconds in us or ms, exact to `decimals` (3) decimals. */
static void csv_scaled(FILE *out, uint64_t ns, int scale_digits)
{
	char buf[IK_FMT_NUM_LEN];
	ik__fmt_scaled(buf, sizeof(buf), ns > INT64_MAX ? INT64_MAX : (int64_t)ns, scale_digits, 3);
	fprintf(out, ",%s", buf);
}

/* The decimals of a figure's values (its unit is in its name). */
static int figure_decimals(enum ik_rep_figure f)
{
	switch (f) {
	case IK_FIG_ENERGY_J:
		return 6;
	case IK_FIG_AVG_POWER_W:
	case IK_FIG_MB_PER_S:
		return 3;
	case IK_FIG_TOO_DEEP_PCT:
	case IK_FIG_TOO_SHALLOW_PCT:
	case IK_FIG_RESIDENCY_PCT:
		return 4;
	default: /* ns percentiles (integers, but a mean of them is not), rates per s */
		return 1;
	}
}

/* room for every [governor] NAME=VALUE of a scenario, space separated */
#define IK_SC_GOV_PARAMS_TEXT (32 * (64 + 128 + 2))
#define ID_HEADER "scenario,platform,driver,governor,governor_sha256,governor_params"
static void csv_id(FILE *out, const struct ik_scenario *sc)
{
	ik__csv_text(out, sc->name, sizeof(sc->name));
	fputc(',', out);
	ik__csv_text(out, sc->platform.name, sizeof(sc->platform.name));
	fputc(',', out);
	ik__csv_text(out, sc->driver, sizeof(sc->driver));
	fputc(',', out);
	ik__csv_text(out, sc->governor, sizeof(sc->governor));
	/* a kernel: or plugin: governor's file, and module parameters given: its identity */
	fprintf(out, ",%s,", sc->governor_sha256);
	char params[IK_SC_GOV_PARAMS_TEXT];
	size_t o = 0;
	params[0] = '\0';
	for (int i = 0; i < sc->ngov_params && o < sizeof(params); i++)
		o += (size_t)snprintf(params + o, sizeof(params) - o, "%s%s=%s", i ? " " : "",
				      sc->gov_params[i].name, sc->gov_params[i].value);
	ik__csv_text(out, params, sizeof(params));
}

static void write_states_table(FILE *out, const struct ik_scenario *sc,
			       const struct ik_run_result *runs, int nruns)
{
	fputs(ID_HEADER ",seed,state,name,latency_us,residency_us,usage,time_us,above,below,"
	      "rejected,residency_pct\n", out);
	for (int k = 0; k < nruns; k++) {
		const struct ik_run_result *r = &runs[k];
		for (int i = 0; i < ik__rep_nstates(r); i++) {
			const struct ik_state_counters *c = &r->total[i];
			csv_id(out, sc);
			fprintf(out, ",%llu,%d,", (unsigned long long)r->seed, i);
			ik__csv_text(out, r->states[i].name, sizeof(r->states[i].name));
			fprintf(out, ",%u,%u,%llu", r->states[i].exit_latency,
				r->states[i].target_residency, (unsigned long long)c->usage);
			csv_scaled(out, c->time_ns, 3);
			fprintf(out, ",%llu,%llu,%llu", (unsigned long long)c->above,
				(unsigned long long)c->below, (unsigned long long)c->rejected);
			csv_fixed(out, ik__run_residency_pct(r, i), 4);
			fputc('\n', out);
		}
	}
}

static void write_per_cpu_table(FILE *out, const struct ik_scenario *sc,
				const struct ik_run_result *runs, int nruns)
{
	fputs(ID_HEADER ",seed,cpu,state,name,usage,time_us,above,below,rejected\n", out);
	for (int k = 0; k < nruns; k++) {
		const struct ik_run_result *r = &runs[k];
		for (int cpu = 0; r->per_cpu && cpu < r->ncpus; cpu++)
			for (int i = 0; i < ik__rep_nstates(r); i++) {
				const struct ik_state_counters *c = ik__rep_per_cpu(r, cpu, i);
				csv_id(out, sc);
				fprintf(out, ",%llu,%d,%d,", (unsigned long long)r->seed, cpu, i);
				ik__csv_text(out, r->states[i].name, sizeof(r->states[i].name));
				fprintf(out, ",%llu", (unsigned long long)c->usage);
				csv_scaled(out, c->time_ns, 3);
				fprintf(out, ",%llu,%llu,%llu\n", (unsigned long long)c->above,
					(unsigned long long)c->below, (unsigned long long)c->rejected);
			}
	}
}

/* The per-run figures of the runs and summary tables, in column order. */
static const enum ik_rep_figure run_figures[] = {
	IK_FIG_MESSAGES_PER_S, IK_FIG_MB_PER_S,	   IK_FIG_WAKE_P50_NS,
	IK_FIG_WAKE_P90_NS,    IK_FIG_WAKE_P99_NS, IK_FIG_WAKE_P99_9_NS,
	IK_FIG_WAKE_MAX_NS,    IK_FIG_ENERGY_J,	   IK_FIG_AVG_POWER_W,
	IK_FIG_IDLE_ENTRIES_PER_CPU_PER_S, IK_FIG_TOO_DEEP_PCT, IK_FIG_TOO_SHALLOW_PCT,
};
#define NFIGURES (sizeof(run_figures) / sizeof(run_figures[0]))

static void write_runs_table(FILE *out, const struct ik_scenario *sc,
			     const struct ik_run_result *runs, int nruns)
{
	fputs(ID_HEADER ",seed,measured_ms,busy_ms,idle_ms", out);
	for (size_t f = 0; f < NFIGURES; f++)
		fprintf(out, ",%s", ik__rep_figure_key(run_figures[f]));
	fputc('\n', out);
	for (int k = 0; k < nruns; k++) {
		const struct ik_run_result *r = &runs[k];
		csv_id(out, sc);
		fprintf(out, ",%llu", (unsigned long long)r->seed);
		csv_scaled(out, r->measured_ns > 0 ? (uint64_t)r->measured_ns : 0, 6);
		csv_scaled(out, r->busy_ns, 6);
		csv_scaled(out, r->idle_ns, 6);
		for (size_t f = 0; f < NFIGURES; f++) {
			double v = ik__rep_figure_value(r, run_figures[f], 0);
			/* ns percentiles are whole ns */
			csv_fixed(out, v, run_figures[f] >= IK_FIG_WAKE_P50_NS &&
					  run_figures[f] <= IK_FIG_WAKE_MAX_NS ? 0
									  : figure_decimals(run_figures[f]));
		}
		fputc('\n', out);
	}
}

static int summary_row(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		       int nruns, enum ik_rep_figure f, int state, const char *name)
{
	struct ik_summary s;
	if (ik__rep_summarize_figure(runs, nruns, f, state, &s) != 0)
		return -1;
	int d = figure_decimals(f);
	csv_id(out, sc);
	fputc(',', out);
	ik__csv_text(out, name, 128);
	fprintf(out, ",%d", s.n);
	csv_fixed(out, s.min, d);
	csv_fixed(out, s.max, d);
	csv_fixed(out, s.median, d);
	csv_fixed(out, s.amean, d);
	csv_fixed(out, s.hmean, d);
	csv_fixed(out, s.stddev, d);
	csv_fixed(out, s.cov_pct, 4);
	fputc('\n', out);
	return 0;
}

static int write_summary_table(FILE *out, const struct ik_scenario *sc,
			       const struct ik_run_result *runs, int nruns)
{
	int rc = 0;
	fputs(ID_HEADER ",figure,n,min,max,median,amean,hmean,stddev,cov_pct\n", out);
	for (size_t f = 0; f < NFIGURES; f++)
		rc |= summary_row(out, sc, runs, nruns, run_figures[f], 0,
				  ik__rep_figure_key(run_figures[f]));
	for (int i = 0; nruns > 0 && i < ik__rep_nstates(&runs[0]); i++) {
		char name[64];
		snprintf(name, sizeof(name), "%.*s.residency_pct", IK_NAME_LEN,
			 runs[0].states[i].name);
		rc |= summary_row(out, sc, runs, nruns, IK_FIG_RESIDENCY_PCT, i, name);
	}
	return rc;
}

/* Decimals of a workload value by the unit its key ends in (rates 1, percentages and the
   rest 4, as the other tables). */
static int value_decimals(const char *key)
{
	size_t n = strlen(key);
	return n >= 6 && strcmp(key + n - 6, "_per_s") == 0 ? 1 : 4;
}

/* The workload's own figures (ik__workload_figures), a row per run that has them: its counts,
   then each distribution's p50 and p99 in ns.  The header is the first such run's. */
static void write_requests_table(FILE *out, const struct ik_scenario *sc,
				 const struct ik_run_result *runs, int nruns)
{
	bool header = false;
	for (int k = 0; k < nruns; k++) {
		struct ik_workload_figures f;
		if (!ik__workload_figures(&sc->workload, &runs[k], &f))
			continue;
		if (!header) {
			fputs(ID_HEADER ",seed", out);
			for (int i = 0; i < f.ncounts; i++)
				fprintf(out, ",%s", f.count[i].key);
			for (int i = 0; i < f.ndists; i++)
				fprintf(out, ",%s_p50_ns,%s_p99_ns", f.dist[i].name, f.dist[i].name);
			fputc('\n', out);
			header = true;
		}
		csv_id(out, sc);
		fprintf(out, ",%llu", (unsigned long long)runs[k].seed);
		for (int i = 0; i < f.ncounts; i++) {
			if (f.count[i].integer)
				fprintf(out, ",%llu", (unsigned long long)f.count[i].count);
			else
				csv_fixed(out, f.count[i].value, value_decimals(f.count[i].key));
		}
		for (int i = 0; i < f.ndists; i++)
			fprintf(out, ",%lld,%lld", (long long)ik__hist_percentile(f.dist[i].h, 50.0),
				(long long)ik__hist_percentile(f.dist[i].h, 99.0));
		fputc('\n', out);
	}
	if (!header)
		fputs(ID_HEADER ",seed\n", out);
}

static void write_config_table(FILE *out, const struct ik_config *cfg)
{
	fputs("idlekit_version,section,key,value,origin\n", out);
	for (int i = 0; cfg && i < cfg->n; i++) {
		const struct ik_config_entry *e = &cfg->entry[i];
		ik__csv_text(out, ik__version(), 256);
		fputc(',', out);
		ik__csv_text(out, e->section, sizeof(e->section));
		fputc(',', out);
		ik__csv_text(out, e->key, sizeof(e->key));
		fputc(',', out);
		if (e->has_value)
			ik__csv_text(out, e->value, sizeof(e->value));
		fprintf(out, ",%s\n", ik__config_origin_name(e->origin));
	}
}

const char *const ik__csv_tables[] = { "runs",	   "states", "per_cpu", "summary",
				      "requests", "config", NULL };

static int csv_table(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		     int nruns, const void *arg)
{
	const char *table = arg;
	int rc = 0;
	if (strcmp(table, "runs") == 0)
		write_runs_table(out, sc, runs, nruns);
	else if (strcmp(table, "states") == 0)
		write_states_table(out, sc, runs, nruns);
	else if (strcmp(table, "per_cpu") == 0)
		write_per_cpu_table(out, sc, runs, nruns);
	else if (strcmp(table, "summary") == 0)
		rc = write_summary_table(out, sc, runs, nruns);
	else if (strcmp(table, "requests") == 0)
		write_requests_table(out, sc, runs, nruns);
	else if (strcmp(table, "config") == 0)
		write_config_table(out, sc->config);
	else
		rc = -1;
	return rc;
}

int ik__report_csv_table(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
			int nruns, const char *table)
{
	return ik__rep_runs_report(out, sc, runs, nruns, csv_table, table ? table : ik__csv_tables[0]);
}

int ik__report_csv(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		  int nruns)
{
	return ik__report_csv_table(out, sc, runs, nruns, NULL);
}
