/*
 * The rows file: the tidy table's lines, one per run, in task order (point, then run).
 * Columns: point, run, seed, one per varied key (the value as listed), the point's main
 * settings (scenario, platform, driver, governor, workload, duration_ms, warmup_ms), then
 * every per-run figure with its unit in its name.  Numbers print as in `sim --csv`: the
 * shortest text that reads back as the same double, an empty field when not finite.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"
#include "report/textout.h"
#include "sweep/spec_internal.h"
#include "sweep/sweep_internal.h"
#include "util/errmsg.h"
#include "util/freep.h"


static const char *const setting_cols[IK_SWEEP_SETTING_COLS] = {
	"scenario", "platform", "driver", "governor", "workload", "duration_ms", "warmup_ms",
};

int ik__sweep_row_columns(const struct ik_sweep_spec *s)
{
	return IK_SWEEP_LEAD_COLS + s->naxes + IK_SWEEP_SETTING_COLS + ik__sweep_figure_count();
}

void ik__sweep_rows_header(FILE *out, const struct ik_sweep_spec *s)
{
	fputs("point,run,seed", out);
	for (int a = 0; a < s->naxes; a++) {
		fputc(',', out);
		ik__csv_text(out, s->axes[a].key, SIZE_MAX);
	}
	for (int i = 0; i < IK_SWEEP_SETTING_COLS; i++)
		fprintf(out, ",%s", setting_cols[i]);
	for (int i = 0; i < ik__sweep_figure_count(); i++)
		fprintf(out, ",%s", ik__sweep_figure_key(i));
	fputc('\n', out);
}

char *ik__sweep_row_format(const struct ik_sweep_spec *s, int64_t point, int run,
			  const struct ik_scenario *sc, const struct ik_run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	int idx[IK_SWEEP_MAX_AXES];
	char num[IK_FMT_NUM_LEN];
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);
	ik__sweep_point_index(s, point, idx);
	fprintf(m, "%lld,%d,%llu", (long long)point, run, (unsigned long long)r->seed);
	for (int a = 0; a < s->naxes; a++) {
		fputc(',', m);
		ik__csv_text(m, s->axes[a].values[idx[a]], SIZE_MAX);
	}
	const char *texts[5] = { sc->name, sc->platform_ref, sc->driver, sc->governor,
				 ik__workload_type_name(sc->workload.kind) };
	for (int i = 0; i < 5; i++) {
		fputc(',', m);
		ik__csv_text(m, texts[i], SIZE_MAX);
	}
	ik__fmt_exact(num, sizeof(num), sc->duration_ns, 6);
	fprintf(m, ",%s", num);
	ik__fmt_exact(num, sizeof(num), sc->warmup_ns, 6);
	fprintf(m, ",%s", num);
	for (int i = 0; i < ik__sweep_figure_count(); i++) {
		fputc(',', m);
		if (ik__fmt_double(num, sizeof(num), ik__rep_figure_value(r, ik__sweep_figure_rep(i), 0)))
			fputs(num, m);
	}
	fputc('\n', m);
	ik__rep_locale_leave(&locale);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int ik__sweep_split(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		if (n >= max)
			return -1;
		if (*p == '"') {
			char *w = ++p;
			fields[n++] = w;
			for (;;) {
				if (*p == '\0')
					return -1;
				if (*p == '"') {
					if (p[1] == '"') {
						*w++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				*w++ = *p++;
			}
			*w = '\0';
			if (*p == '\0' || *p == '\n')
				return n;
			if (*p != ',')
				return -1;
			p++;
			continue;
		}
		fields[n++] = p;
		while (*p && *p != ',' && *p != '\n')
			p++;
		if (*p == ',') {
			*p++ = '\0';
			continue;
		}
		*p = '\0';
		return n;
	}
}

int ik__sweep_row_read(FILE *rows, const struct ik_sweep_spec *s, struct ik_sweep_row *row)
{
	ssize_t n = getline(&row->raw, &row->rawcap, rows);
	if (n <= 0 || row->raw[n - 1] != '\n')
		return 0;
	row->len = (size_t)n;
	if (row->workcap < (size_t)n + 1) {
		char *w = realloc(row->work, (size_t)n + 1);
		if (!w)
			return -1;
		row->work = w;
		row->workcap = (size_t)n + 1;
	}
	memcpy(row->work, row->raw, (size_t)n + 1);
	int max = (int)(sizeof(row->f) / sizeof(row->f[0]));
	row->nf = ik__sweep_split(row->work, row->f, max);
	if (row->nf != ik__sweep_row_columns(s))
		return -1;
	char *end;
	row->point = strtoll(row->f[0], &end, 10);
	if (*end || row->f[0][0] < '0' || row->f[0][0] > '9')
		return -1;
	long run = strtol(row->f[1], &end, 10);
	if (*end || row->f[1][0] < '0' || row->f[1][0] > '9' || run >= s->runs)
		return -1;
	row->run = (int)run;
	return 1;
}

void ik__sweep_row_free(struct ik_sweep_row *row)
{
	ik__freep(&row->raw);
	ik__freep(&row->work);
	row->rawcap = row->workcap = 0;
}

int ik__sweep_rows_scan(FILE *rows, const char *name, const struct ik_sweep_spec *s,
		       const struct ik_sweep_shard *sh, int64_t *done, long *good_bytes, char *err,
		       size_t errlen)
{
	struct ik_sweep_row row = { 0 };
	int64_t k = 0;
	int next_run = 0;
	long pos = 0, good = 0;
	int ret = 0, lineno = 0;
	int64_t total = ik__sweep_shard_points(s, sh);

	rewind(rows);
	for (;;) {
		int r = ik__sweep_row_read(rows, s, &row);
		if (r == 0)
			break;
		lineno++;
		if (r < 0 || k >= total || row.point != ik__sweep_shard_point(sh, k) ||
		    row.run != next_run) {
			snprintf(err, errlen, "%s:%d: expected the row of point %lld run %d of this "
				 "sweep, got another (the folder holds another sweep's results)",
				 name, lineno, (long long)(k < total ? ik__sweep_shard_point(sh, k) : -1),
				 next_run);
			ret = -1;
			break;
		}
		pos += (long)row.len;
		if (++next_run == s->runs) {
			next_run = 0;
			k++;
			good = pos;
		}
	}
	ik__sweep_row_free(&row);
	*done = k;
	*good_bytes = good;
	return ret;
}

int ik__sweep_manifest_write(FILE *out, const struct ik_sweep_spec *s,
			    const struct ik_sweep_shard *sh)
{
	fprintf(out, "idlekit-sweep 1\nspec_hash %016llx\nshard %d/%d\npoints %lld\nruns %d\n",
		(unsigned long long)ik__sweep_spec_hash(s), sh->index, sh->count,
		(long long)ik__sweep_shard_points(s, sh), s->runs);
	return ferror(out) ? -1 : 0;
}

int ik__sweep_manifest_read(const char *path, struct ik_sweep_manifest *m, char *err,
			   size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int lineno = 0, got = 0;
	if (!f)
		return ik__errmsg(err, errlen, "%s: cannot open: expected a sweep folder's "
				  "manifest", path);
	memset(m, 0, sizeof(*m));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long h;
		long long p;
		int a, b, n;
		lineno++;
		if (lineno == 1 && strcmp(line, "idlekit-sweep 1\n") == 0)
			got |= 1;
		else if (sscanf(line, "spec_hash %16llx%n", &h, &n) == 1 && line[n] == '\n') {
			m->spec_hash = h;
			got |= 2;
		} else if (sscanf(line, "shard %d/%d%n", &a, &b, &n) == 2 && line[n] == '\n' &&
			   a >= 0 && b > a) {
			m->shard.index = a;
			m->shard.count = b;
			got |= 4;
		} else if (sscanf(line, "points %lld%n", &p, &n) == 1 && line[n] == '\n' && p >= 0) {
			m->points = p;
			got |= 8;
		} else if (sscanf(line, "runs %d%n", &a, &n) == 1 && line[n] == '\n' && a > 0) {
			m->runs = a;
			got |= 16;
		} else {
			fclose(f);
			return ik__errmsg(err, errlen, "%s:%d: expected 'idlekit-sweep 1', "
					  "'spec_hash HEX', 'shard I/N', 'points N' or 'runs N'",
					  path, lineno);
		}
	}
	fclose(f);
	if (got != 31)
		return ik__errmsg(err, errlen, "%s: expected a complete manifest (idlekit-sweep 1, "
				  "spec_hash, shard, points, runs)", path);
	return 0;
}
