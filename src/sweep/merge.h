/*
 * Joining the shards of a sweep (src/sweep/merge.c): their folders checked to be every
 * shard of one split of one spec, once, each complete, and their rows put back in point
 * order, so that the reports come out as a local run's, byte for byte.  The command
 * (src/cli/sweep.c) loads the spec, makes the folder and writes the files.  Internal: not
 * part of the public API.
 *
 * Steps: ik__sweep_merge_open (the manifests), the spec loaded from spec_path,
 * ik__sweep_merge_check (the spec and the rows), ik__sweep_merge_target (the output folder),
 * ik__sweep_merge_rows, and ik__sweep_merge_close in every case after open.  Each returns 0;
 * 2 when the folders do not make the sweep (message in err, nothing written); -1 out of
 * memory or a read failure (message in err).
 */
#ifndef IDLEKIT_SWEEP_MERGE_H
#define IDLEKIT_SWEEP_MERGE_H

#include <limits.h>
#include <stdio.h>

#include "sweep/sweep.h"

struct ik_sweep_merge_shard {
	const char *dir;
	struct ik_sweep_manifest m;
	FILE *rows; /* after ik__sweep_merge_check: at its start */
};

struct ik_sweep_merge {
	int n;
	struct ik_sweep_merge_shard *in; /* as given */
	int count;                       /* the split's shards */
	int *seen;                       /* per shard index: 1 + its place in `in` */
	char spec_path[PATH_MAX];        /* the first folder's spec.ini */
};

/* The manifests of dirs[0..n-1] (n >= 1): one spec, one split, every shard once. */
int ik__sweep_merge_open(struct ik_sweep_merge *mg, int n, char **dirs, char *err,
			size_t errlen);
/* s (from spec_path) is the manifests' spec, and every shard's rows hold all its points. */
int ik__sweep_merge_check(struct ik_sweep_merge *mg, const struct ik_sweep_spec *s, char *err,
			 size_t errlen);
/* out_dir holds no sweep, or this sweep's merge (a merge may be done again in place). */
int ik__sweep_merge_target(const struct ik_sweep_merge *mg, const char *out_dir, char *err,
			  size_t errlen);
/* The rows of every point in order onto out: 0, or -1 when reading or writing failed. */
int ik__sweep_merge_rows(struct ik_sweep_merge *mg, const struct ik_sweep_spec *s, FILE *out);
void ik__sweep_merge_close(struct ik_sweep_merge *mg);

#endif
