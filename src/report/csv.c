/*
 * `idlekit sim --csv`: two tables in one file, separated by an empty line.
 *
 *   1. one row per (run, state): the sysfs counters summed over CPUs;
 *   2. one row per run: throughput, wake latency, energy;
 *   3. for the server, schbench and rtapp workloads only, one row per run: requests, load,
 *      request latency and its parts (schbench: its request latency, its wake-up latency
 *      as the wake part, no queue or service part; rtapp: period, run as service).
 *
 * Quoting follows RFC 4180 (a field with a comma, a double quote, CR or LF is enclosed in
 * double quotes, inner quotes doubled); lines end in LF.  Numbers are printed as in the JSON
 * report: counters as integers, ns counters as exact decimals of the unit the column names,
 * other doubles as the shortest text that reads back as the same double, and an empty field
 * when a value is not finite.  See docs/json-schema.md.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"

static void csv_text(FILE *out, const char *s, size_t maxlen)
{
	size_t n = strnlen(s, maxlen);
	bool needs_quotes = false;
	for (size_t i = 0; i < n; i++)
		needs_quotes |= s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
	if (!needs_quotes) {
		fwrite(s, 1, n, out);
		return;
	}
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

static void csv_double(FILE *out, double v)
{
	char buf[IK_REP_NUM_LEN];
	if (ik_rep_fmt_double(buf, sizeof(buf), v))
		fputs(buf, out);
}

static void write_states_table(FILE *out, const struct ik_run_result *runs, int nruns)
{
	char time_us[IK_REP_NUM_LEN];
	fputs("seed,state,name,latency_us,residency_us,usage,time_us,above,below,rejected,"
	      "residency_pct\n",
	      out);
	for (int k = 0; k < nruns; k++) {
		const struct ik_run_result *r = &runs[k];
		for (int i = 0; i < ik_rep_nstates(r); i++) {
			const struct ik_state_counters *c = &r->total[i];
			ik_rep_fmt_exact(time_us, sizeof(time_us),
					 c->time_ns > INT64_MAX ? INT64_MAX : (int64_t)c->time_ns, 3);
			fprintf(out, "%llu,%d,", (unsigned long long)r->seed, i);
			csv_text(out, r->states[i].name, sizeof(r->states[i].name));
			fprintf(out, ",%u,%u,%llu,%s,%llu,%llu,%llu,", r->states[i].exit_latency,
				r->states[i].target_residency, (unsigned long long)c->usage, time_us,
				(unsigned long long)c->above, (unsigned long long)c->below,
				(unsigned long long)c->rejected);
			csv_double(out, ik_run_residency_pct(r, i));
			fputc('\n', out);
		}
	}
}

static void write_runs_table(FILE *out, const struct ik_run_result *runs, int nruns)
{
	fputs("seed,messages_per_s,mb_per_s,wake_p50_ns,wake_p90_ns,wake_p99_ns,wake_p99_9_ns,"
	      "wake_max_ns,energy_j,avg_power_w\n",
	      out);
	for (int k = 0; k < nruns; k++) {
		const struct ik_run_result *r = &runs[k];
		const struct ik_hist *lat = &r->wake_latency;
		fprintf(out, "%llu,", (unsigned long long)r->seed);
		csv_double(out, ik_run_messages_per_s(r));
		fputc(',', out);
		csv_double(out, ik_run_mb_per_s(r));
		fprintf(out, ",%lld,%lld,%lld,%lld,%lld,", (long long)ik_hist_percentile(lat, 50.0),
			(long long)ik_hist_percentile(lat, 90.0),
			(long long)ik_hist_percentile(lat, 99.0),
			(long long)ik_hist_percentile(lat, 99.9),
			(long long)ik_hist_percentile(lat, 100.0));
		csv_double(out, r->energy_j);
		fputc(',', out);
		csv_double(out, ik_run_avg_power_w(r));
		fputc('\n', out);
	}
}

static void write_requests_table(FILE *out, const struct ik_run_result *runs, int nruns)
{
	fputs("seed,arrived,done,dropped,target_load_pct,achieved_load_pct,latency_p50_ns,"
	      "latency_p99_ns,wake_p50_ns,wake_p99_ns,queue_p50_ns,queue_p99_ns,service_p50_ns,"
	      "service_p99_ns\n",
	      out);
	for (int k = 0; k < nruns; k++) {
		const struct ik_request_stats *q = runs[k].requests;
		if (!q)
			continue;
		fprintf(out, "%llu,%llu,%llu,%llu,", (unsigned long long)runs[k].seed,
			(unsigned long long)q->arrived, (unsigned long long)q->done,
			(unsigned long long)q->dropped);
		csv_double(out, q->target_load_pct);
		fputc(',', out);
		csv_double(out, ik_request_achieved_load_pct(q, runs[k].measured_ns));
		const struct ik_hist *parts[] = {&q->latency, &q->wake, &q->queue, &q->service};
		for (int i = 0; i < 4; i++)
			fprintf(out, ",%lld,%lld", (long long)ik_hist_percentile(parts[i], 50.0),
				(long long)ik_hist_percentile(parts[i], 99.0));
		fputc('\n', out);
	}
}

int ik_report_csv(FILE *out, const struct ik_scenario *sc, const struct ik_run_result *runs,
		  int nruns)
{
	if (!out || !sc || nruns < 0 || (nruns > 0 && !runs))
		return -1;

	struct ik_rep_locale locale;
	ik_rep_locale_enter(&locale);
	write_states_table(out, runs, nruns);
	fputc('\n', out);
	write_runs_table(out, runs, nruns);
	if (sc->workload.kind == IK_WORKLOAD_SERVER || sc->workload.kind == IK_WORKLOAD_SCHBENCH ||
	    sc->workload.kind == IK_WORKLOAD_RTAPP) {
		fputc('\n', out);
		write_requests_table(out, runs, nruns);
	}
	ik_rep_locale_leave(&locale);
	return ik_rep_finish(out);
}
