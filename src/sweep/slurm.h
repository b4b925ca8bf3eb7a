/*
 * A sweep as a Slurm job array (src/sweep/slurm.c): the sbatch script whose array tasks
 * each run one shard of the spec into DIR/shard-I, and its submission.  The command
 * (src/cli/sweep.c) resolves the paths, makes the folders and writes the file.  Internal:
 * not part of the public API.
 */
#ifndef IDLEKIT_SWEEP_SLURM_H
#define IDLEKIT_SWEEP_SLURM_H

#include <stdio.h>

#include "sweep/sweep.h"

/* Shards a script gets by default: one per point, at most this many. */
#define IK_SWEEP_SLURM_SHARDS_MAX 100

/* The #SBATCH options (NULL: left to the cluster's defaults). */
struct ik_sweep_slurm {
	const char *partition, *time, *mem, *account;
	int cpus;   /* --cpus-per-task, and the -j of each shard */
	int shards; /* 0: the default above */
};

/*
 * Each option's value fits in an #SBATCH line (printable, no blanks or quotes).  0, or -1
 * with "--partition: expected a value without spaces or quotes, got '...'".
 */
int ik__sweep_slurm_check(const struct ik_sweep_slurm *so, char *err, size_t errlen);
/* The shards for spec s: so->shards, else the default.  0, or -1 when there are more
   shards than points (message in err). */
int ik__sweep_slurm_shards(const struct ik_sweep_slurm *so, const struct ik_sweep_spec *s,
			  int *shards, char *err, size_t errlen);
/*
 * The script onto out: the job array of `shards` tasks, each running `exe` on the spec
 * (spec_abs) into dir_abs/shard-I with the task's CPUs, its log in dir_abs/logs.  The paths
 * are absolute (the tasks start elsewhere).  0, or -1 when writing failed.
 */
int ik__sweep_slurm_write(FILE *out, const struct ik_sweep_slurm *so, int shards,
			 const struct ik_sweep_spec *s, const char *exe, const char *spec_abs,
			 const char *dir_abs);
/*
 * sbatch --parsable SCRIPT (found on PATH), waited for: 0 when it exits 0.  -1 otherwise,
 * with *spawn_errno the reason it could not be started at all (0 when it ran and failed).
 */
int ik__sweep_slurm_submit(const char *script, int *spawn_errno);

#endif
