/*
 * A sweep's tables, made from its rows file (every point, in order): results.csv (the rows
 * under a header), results.json (the same rows as objects, with the spec's axes), and
 * summary.csv (per point and figure: median, quartiles, IQR, mean and its 95% confidence
 * interval, and the fraction of bad runs when the spec says what a bad run is).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "report/textout.h"
#include "sweep/sweep_internal.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The 0.975 quantile of Student's t with df degrees of freedom, by bisection on its CDF. */
static double t975(int df)
{
	double lo = 0, hi = 1000;
	for (int i = 0; i < 200; i++) {
		double t = (lo + hi) / 2;
		double tail = 0.5 * ik__incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
		if (tail > 0.025)
			lo = t;
		else
			hi = t;
	}
	return (lo + hi) / 2;
}

static double quantile(const double *v, int n, double q)
{
	double h = (n - 1) * q;
	int i = (int)floor(h);
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (h - i) * (v[i + 1] - v[i]);
}

void ik__sweep_stat_of(double *values, int n, struct ik_sweep_stat *st)
{
	int m = 0;
	for (int i = 0; i < n; i++)
		if (isfinite(values[i]))
			values[m++] = values[i];
	st->median = st->q1 = st->q3 = st->mean = st->ci_low = st->ci_high = NAN;
	if (m == 0)
		return;
	qsort(values, (size_t)m, sizeof(*values), cmp_double);
	st->median = quantile(values, m, 0.5);
	st->q1 = quantile(values, m, 0.25);
	st->q3 = quantile(values, m, 0.75);
	double sum = 0;
	for (int i = 0; i < m; i++)
		sum += values[i];
	st->mean = sum / m;
	if (m < 2)
		return;
	double ss = 0;
	for (int i = 0; i < m; i++)
		ss += (values[i] - st->mean) * (values[i] - st->mean);
	double half = t975(m - 1) * sqrt(ss / (m - 1)) / sqrt((double)m);
	st->ci_low = st->mean - half;
	st->ci_high = st->mean + half;
}

void ik__sweep_summary_free(struct ik_sweep_summary *sum)
{
	free(sum->nruns);
	free(sum->stat);
	free(sum->bad_fraction);
	free(sum->settings);
	memset(sum, 0, sizeof(*sum));
}

static double field_value(const char *f)
{
	char *end;
	if (!*f)
		return NAN;
	double v = strtod(f, &end);
	return *end ? NAN : v;
}

int ik__sweep_summarize(FILE *rows, const struct ik_sweep_spec *s, struct ik_sweep_summary *sum,
		       char *err, size_t errlen)
{
	int nfig = ik__sweep_figure_count();
	int fig0 = IK_SWEEP_LEAD_COLS + s->naxes + IK_SWEEP_SETTING_COLS;
	struct ik_sweep_row row = { 0 };
	double *values = malloc((size_t)s->runs * (size_t)nfig * sizeof(*values));
	int ret = -1;

	memset(sum, 0, sizeof(*sum));
	sum->npoints = s->npoints;
	sum->nfigures = nfig;
	sum->nruns = calloc((size_t)s->npoints, sizeof(*sum->nruns));
	sum->stat = calloc((size_t)(s->npoints * nfig), sizeof(*sum->stat));
	sum->bad_fraction = calloc((size_t)s->npoints, sizeof(*sum->bad_fraction));
	sum->settings = calloc((size_t)s->npoints, sizeof(*sum->settings));
	if (!values || !sum->nruns || !sum->stat || !sum->bad_fraction || !sum->settings) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rewind(rows);
	for (int64_t p = 0; p < s->npoints; p++) {
		for (int run = 0; run < s->runs; run++) {
			if (ik__sweep_row_read(rows, s, &row) != 1 || row.point != p || row.run != run) {
				snprintf(err, errlen, "the rows file lacks point %lld run %d",
					 (long long)p, run);
				goto out;
			}
			for (int f = 0; f < nfig; f++)
				values[f * s->runs + run] = field_value(row.f[fig0 + f]);
			if (run == 0)
				for (int k = 0; k < IK_SWEEP_KEPT_SETTINGS; k++)
					snprintf(sum->settings[p][k], IK_SWEEP_SETTING_LEN, "%s",
						 row.f[IK_SWEEP_LEAD_COLS + s->naxes + k]);
		}
		sum->nruns[p] = s->runs;
		if (s->bad.on) {
			int bad = 0, n = 0;
			for (int run = 0; run < s->runs; run++) {
				double v = values[s->bad.figure * s->runs + run];
				if (isfinite(v)) {
					n++;
					bad += v < s->bad.below;
				}
			}
			sum->bad_fraction[p] = n ? (double)bad / n : NAN;
		}
		for (int f = 0; f < nfig; f++)
			ik__sweep_stat_of(values + f * s->runs, s->runs, &sum->stat[p * nfig + f]);
	}
	ret = 0;
out:
	ik__sweep_row_free(&row);
	free(values);
	if (ret)
		ik__sweep_summary_free(sum);
	return ret;
}

int ik__sweep_write_results_csv(FILE *out, FILE *rows, const struct ik_sweep_spec *s)
{
	struct ik_sweep_row row = { 0 };
	int ret = 0;
	ik__sweep_rows_header(out, s);
	rewind(rows);
	for (int r; (r = ik__sweep_row_read(rows, s, &row)) != 0;) {
		if (r < 0) {
			ret = -1;
			break;
		}
		fwrite(row.raw, 1, row.len, out);
	}
	ik__sweep_row_free(&row);
	return ret || ik__rep_finish(out) ? -1 : 0;
}

static void json_value(FILE *out, const char *text, bool numeric)
{
	if (numeric)
		fputs(text, out);
	else
		ik__json_string(out, text, SIZE_MAX);
}

int ik__sweep_write_results_json(FILE *out, FILE *rows, const struct ik_sweep_spec *s)
{
	static const char *const settings[IK_SWEEP_SETTING_COLS] = {
		"scenario", "platform", "driver", "governor", "workload", "duration_ms", "warmup_ms",
	};
	int nfig = ik__sweep_figure_count();
	struct ik_sweep_row row = { 0 };
	int ret = 0;

	fputs("{\n  \"schema\": \"idlekit.sweep/1\",\n  \"base\": ", out);
	ik__json_string(out, s->base, SIZE_MAX);
	fprintf(out, ",\n  \"runs_per_point\": %d,\n  \"first_seed\": %llu,\n  \"points\": %lld,\n",
		s->runs, (unsigned long long)s->seed, (long long)s->npoints);
	fputs("  \"axes\": [", out);
	for (int a = 0; a < s->naxes; a++) {
		const struct ik_sweep_axis *ax = &s->axes[a];
		fputs(a ? ",\n    {\"key\": " : "\n    {\"key\": ", out);
		ik__json_string(out, ax->key, SIZE_MAX);
		fprintf(out, ", \"group\": %d, \"template\": ", ax->group);
		if (ax->template_[0])
			ik__json_string(out, ax->template_, SIZE_MAX);
		else
			fputs("null", out);
		fputs(", \"values\": [", out);
		for (int v = 0; v < ax->nvalues; v++) {
			if (v)
				fputs(", ", out);
			json_value(out, ax->values[v], ax->numeric);
		}
		fputs("]}", out);
	}
	fputs(s->naxes ? "\n  ],\n  \"rows\": [" : "],\n  \"rows\": [", out);
	rewind(rows);
	int64_t n = 0;
	for (int r; (r = ik__sweep_row_read(rows, s, &row)) != 0; n++) {
		if (r < 0) {
			ret = -1;
			break;
		}
		fprintf(out, "%s\n    {\"point\": %s, \"run\": %s, \"seed\": %s", n ? "," : "",
			row.f[0], row.f[1], row.f[2]);
		for (int a = 0; a < s->naxes; a++) {
			fputs(", ", out);
			ik__json_string(out, s->axes[a].key, SIZE_MAX);
			fputs(": ", out);
			json_value(out, row.f[IK_SWEEP_LEAD_COLS + a], s->axes[a].numeric);
		}
		int set0 = IK_SWEEP_LEAD_COLS + s->naxes;
		for (int k = 0; k < IK_SWEEP_SETTING_COLS; k++) {
			fprintf(out, ", \"%s\": ", settings[k]);
			json_value(out, row.f[set0 + k], k >= 5);
		}
		for (int f = 0; f < nfig; f++) {
			const char *v = row.f[set0 + IK_SWEEP_SETTING_COLS + f];
			fprintf(out, ", \"%s\": %s", ik__sweep_figure_key(f), *v ? v : "null");
		}
		fputc('}', out);
	}
	fputs(n ? "\n  ]\n}\n" : "]\n}\n", out);
	ik__sweep_row_free(&row);
	return ret || ik__rep_finish(out) ? -1 : 0;
}

static void csv_num(FILE *out, double v)
{
	char buf[IK_FMT_NUM_LEN];
	fputc(',', out);
	if (ik__fmt_double(buf, sizeof(buf), v))
		fputs(buf, out);
}

int ik__sweep_write_summary_csv(FILE *out, const struct ik_sweep_spec *s,
			       const struct ik_sweep_summary *sum)
{
	static const char *const stat_names[] = { "median", "q1", "q3", "iqr", "mean",
						  "ci95_low", "ci95_high" };
	int idx[IK_SWEEP_MAX_AXES];
	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);

	fputs("point", out);
	for (int a = 0; a < s->naxes; a++) {
		fputc(',', out);
		ik__csv_text(out, s->axes[a].key, SIZE_MAX);
	}
	fputs(",runs", out);
	if (s->bad.on)
		fprintf(out, ",%s_below_%.17g_fraction", ik__sweep_figure_key(s->bad.figure),
			s->bad.below);
	for (int f = 0; f < sum->nfigures; f++)
		for (size_t k = 0; k < sizeof(stat_names) / sizeof(stat_names[0]); k++)
			fprintf(out, ",%s_%s", ik__sweep_figure_key(f), stat_names[k]);
	fputc('\n', out);
	for (int64_t p = 0; p < sum->npoints; p++) {
		ik__sweep_point_index(s, p, idx);
		fprintf(out, "%lld", (long long)p);
		for (int a = 0; a < s->naxes; a++) {
			fputc(',', out);
			ik__csv_text(out, s->axes[a].values[idx[a]], SIZE_MAX);
		}
		fprintf(out, ",%d", sum->nruns[p]);
		if (s->bad.on)
			csv_num(out, sum->bad_fraction[p]);
		for (int f = 0; f < sum->nfigures; f++) {
			const struct ik_sweep_stat *st = &sum->stat[p * sum->nfigures + f];
			csv_num(out, st->median);
			csv_num(out, st->q1);
			csv_num(out, st->q3);
			csv_num(out, st->q3 - st->q1);
			csv_num(out, st->mean);
			csv_num(out, st->ci_low);
			csv_num(out, st->ci_high);
		}
		fputc('\n', out);
	}
	ik__rep_locale_leave(&locale);
	return ik__rep_finish(out);
}
