/*
 * sweep slurm (slurm.h): the job array script and its submission.  Every task runs the
 * same idlekit on the same spec; the shard comes from the array's task ID inside idlekit
 * (ik__sweep_shard_from_env), the script only names the task's folder after it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/wait.h>

#include "sweep/slurm.h"
#include "sweep/sweep_internal.h"

extern char **environ;

/* 'text' for sh, with ' as '\'' */
static void sh_quote(FILE *out, const char *text)
{
	fputc('\'', out);
	for (const char *p = text; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", out);
		else
			fputc(*p, out);
	}
	fputc('\'', out);
}

/* An sbatch option value: printable, no quotes or spaces (it sits in a #SBATCH line). */
static bool good_option(const char *v)
{
	if (!*v)
		return false;
	for (const char *p = v; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '\'' || *p == '"' || *p == '\\')
			return false;
	return true;
}

int ik__sweep_slurm_check(const struct ik_sweep_slurm *so, char *err, size_t errlen)
{
	const char *opts[] = { so->partition, so->time, so->mem, so->account };
	const char *names[] = { "--partition", "--time", "--mem", "--account" };
	for (int i = 0; i < 4; i++) {
		if (opts[i] && !good_option(opts[i])) {
			ik__sweep_msg(err, errlen, "%s: expected a value without spaces or quotes, got "
				     "'%s'", names[i], opts[i]);
			return -1;
		}
	}
	return 0;
}

int ik__sweep_slurm_shards(const struct ik_sweep_slurm *so, const struct ik_sweep_spec *s,
			  int *shards, char *err, size_t errlen)
{
	int n = so->shards;
	if (n == 0)
		n = s->npoints < IK_SWEEP_SLURM_SHARDS_MAX ? (int)s->npoints : IK_SWEEP_SLURM_SHARDS_MAX;
	if (n > s->npoints) {
		ik__sweep_msg(err, errlen, "--shards %d: the sweep has only %lld points: expected at "
			     "most %lld shards", n, (long long)s->npoints, (long long)s->npoints);
		return -1;
	}
	*shards = n;
	return 0;
}

int ik__sweep_slurm_write(FILE *f, const struct ik_sweep_slurm *so, int shards,
			 const struct ik_sweep_spec *s, const char *exe, const char *spec_abs,
			 const char *dir_abs)
{
	fprintf(f, "#!/bin/sh\n");
	fprintf(f, "#SBATCH --job-name=idlekit-sweep\n");
	fprintf(f, "#SBATCH --array=0-%d\n", shards - 1);
	fprintf(f, "#SBATCH --cpus-per-task=%d\n", so->cpus);
	fprintf(f, "#SBATCH --ntasks=1\n");
	fprintf(f, "#SBATCH --output=%s/logs/shard-%%a.out\n", dir_abs);
	if (so->partition)
		fprintf(f, "#SBATCH --partition=%s\n", so->partition);
	if (so->time)
		fprintf(f, "#SBATCH --time=%s\n", so->time);
	if (so->mem)
		fprintf(f, "#SBATCH --mem=%s\n", so->mem);
	if (so->account)
		fprintf(f, "#SBATCH --account=%s\n", so->account);
	fprintf(f, "#\n# Written by idlekit sweep slurm: %lld points x %d runs of the spec "
		"below (hash %016llx)\n# in %d shards; each array task runs one shard into "
		"shard-I beside this script.\n# When all are done: idlekit sweep merge -o "
		"merged shard-*\n",
		(long long)s->npoints, s->runs, (unsigned long long)ik__sweep_spec_hash(s), shards);
	fputs("set -e\n", f);
	/* the shard comes from SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN inside idlekit;
	   the folder name needs it too */
	fputs("i=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))\nexec ", f);
	sh_quote(f, exe);
	fputs(" sweep ", f);
	sh_quote(f, spec_abs);
	fputs(" -o ", f);
	sh_quote(f, dir_abs);
	fputs("\"/shard-$i\" -j \"${SLURM_CPUS_PER_TASK:-1}\" -q\n", f);
	return ferror(f) ? -1 : 0;
}

int ik__sweep_slurm_submit(const char *script, int *spawn_errno)
{
	char *argv[] = { "sbatch", "--parsable", (char *)script, NULL };
	pid_t pid;
	int status = 0;
	*spawn_errno = posix_spawnp(&pid, "sbatch", NULL, NULL, argv, environ);
	if (*spawn_errno)
		return -1;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return 0;
}
