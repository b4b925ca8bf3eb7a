/*
 * sweep merge (merge.h): shard folders into the rows of the whole sweep.  A shard's rows
 * hold its points in order (point p is shard p mod N's), so the whole sweep's rows are
 * read round-robin, `runs` lines of point p from shard p mod N, without parsing them
 * again: the bytes a local run appends.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep/merge.h"
#include "sweep/sweep_internal.h"

static void join(char *buf, size_t len, const char *dir, const char *name)
{
	ik__sweep_msg(buf, len, "%s/%s", dir, name);
}

int ik__sweep_merge_open(struct ik_sweep_merge *mg, int n, char **dirs, char *err,
			size_t errlen)
{
	char path[PATH_MAX];
	memset(mg, 0, sizeof(*mg));
	mg->in = calloc((size_t)(n > 0 ? n : 1), sizeof(*mg->in));
	if (!mg->in) {
		ik__sweep_msg(err, errlen, "out of memory");
		return -1;
	}
	mg->n = n;
	for (int i = 0; i < n; i++) {
		mg->in[i].dir = dirs[i];
		join(path, sizeof(path), dirs[i], "manifest");
		if (ik__sweep_manifest_read(path, &mg->in[i].m, err, errlen) != 0)
			return 2;
	}
	/* one spec, one shard count, every shard once */
	const struct ik_sweep_merge_shard *in = mg->in;
	for (int i = 1; i < n; i++) {
		if (in[i].m.spec_hash != in[0].m.spec_hash) {
			ik__sweep_msg(err, errlen, "%s: a shard of another spec (hash %016llx, %s has "
				     "%016llx): not merged", in[i].dir,
				     (unsigned long long)in[i].m.spec_hash, in[0].dir,
				     (unsigned long long)in[0].m.spec_hash);
			return 2;
		}
		if (in[i].m.shard.count != in[0].m.shard.count) {
			ik__sweep_msg(err, errlen, "%s: shard %d/%d, but %s is shard %d/%d: expected "
				     "shards of one split", in[i].dir, in[i].m.shard.index,
				     in[i].m.shard.count, in[0].dir, in[0].m.shard.index,
				     in[0].m.shard.count);
			return 2;
		}
	}
	int count = mg->count = in[0].m.shard.count;
	mg->seen = calloc((size_t)count, sizeof(*mg->seen));
	if (!mg->seen) {
		ik__sweep_msg(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int k = in[i].m.shard.index;
		if (mg->seen[k]) {
			ik__sweep_msg(err, errlen, "%s and %s are both shard %d/%d: expected each "
				     "shard once", dirs[mg->seen[k] - 1], in[i].dir, k, count);
			return 2;
		}
		mg->seen[k] = i + 1;
	}
	char missing[512];
	size_t len = 0;
	int nmissing = 0;
	missing[0] = '\0';
	for (int k = 0; k < count; k++) {
		if (mg->seen[k])
			continue;
		nmissing++;
		if (len < sizeof(missing) - 32) {
			int w = snprintf(missing + len, sizeof(missing) - len, "%s%d/%d", len ? ", " : "",
					 k, count);
			if (w > 0)
				len += (size_t)w;
		}
	}
	if (nmissing) {
		ik__sweep_msg(err, errlen, "%d shard%s missing: %s", nmissing, nmissing > 1 ? "s" : "",
			     missing);
		return 2;
	}
	join(mg->spec_path, sizeof(mg->spec_path), dirs[0], "spec.ini");
	return 0;
}

int ik__sweep_merge_check(struct ik_sweep_merge *mg, const struct ik_sweep_spec *s, char *err,
			 size_t errlen)
{
	char path[PATH_MAX];
	const struct ik_sweep_manifest *m0 = &mg->in[0].m;
	if (ik__sweep_spec_hash(s) != m0->spec_hash || s->runs != m0->runs) {
		ik__sweep_msg(err, errlen, "%s: the spec does not match the manifest's hash",
			     mg->spec_path);
		return 2;
	}
	for (int i = 0; i < mg->n; i++) {
		struct ik_sweep_merge_shard *in = &mg->in[i];
		int64_t done;
		long good;
		join(path, sizeof(path), in->dir, "rows.csv");
		in->rows = fopen(path, "r");
		if (!in->rows) {
			ik__sweep_msg(err, errlen, "%s: cannot open: %s", path, strerror(errno));
			return 2;
		}
		if (ik__sweep_rows_scan(in->rows, path, s, &in->m.shard, &done, &good, err, errlen) != 0)
			return 2;
		int64_t want = ik__sweep_shard_points(s, &in->m.shard);
		if (done != want) {
			ik__sweep_msg(err, errlen, "%s: shard %d/%d incomplete: %lld of %lld points "
				     "(rerun it to finish)", in->dir, in->m.shard.index, mg->count,
				     (long long)done, (long long)want);
			return 2;
		}
		rewind(in->rows);
	}
	return 0;
}

int ik__sweep_merge_target(const struct ik_sweep_merge *mg, const char *out_dir, char *err,
			  size_t errlen)
{
	char path[PATH_MAX], why[IK_ERR_LEN];
	struct ik_sweep_manifest prev;
	join(path, sizeof(path), out_dir, "manifest");
	if (access(path, F_OK) == 0 &&
	    (ik__sweep_manifest_read(path, &prev, why, sizeof(why)) != 0 ||
	     prev.spec_hash != mg->in[0].m.spec_hash || prev.shard.count != 1)) {
		ik__sweep_msg(err, errlen, "%s: holds another sweep (or a shard): expected a new "
			     "folder or this sweep's merge", out_dir);
		return 2;
	}
	return 0;
}

int ik__sweep_merge_rows(struct ik_sweep_merge *mg, const struct ik_sweep_spec *s, FILE *out)
{
	char *line = NULL;
	size_t cap = 0;
	bool ok = true;
	for (int64_t p = 0; p < s->npoints && ok; p++) {
		FILE *f = mg->in[mg->seen[p % mg->count] - 1].rows;
		for (int run = 0; run < s->runs && ok; run++) {
			ssize_t got = getline(&line, &cap, f);
			ok = got > 0 && fwrite(line, 1, (size_t)got, out) == (size_t)got;
		}
	}
	free(line);
	return ok ? 0 : -1;
}

void ik__sweep_merge_close(struct ik_sweep_merge *mg)
{
	for (int i = 0; mg->in && i < mg->n; i++)
		if (mg->in[i].rows)
			fclose(mg->in[i].rows);
	free(mg->in);
	free(mg->seen);
	memset(mg, 0, sizeof(*mg));
}
