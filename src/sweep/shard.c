/*
 * Shards: point p goes to shard p mod N, so every shard gets points from all over the grid
 * (neighbouring points cost about the same) and the assignment needs nothing but I and N.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"
#include "util/errmsg.h"

#define MAX_SHARDS 100000

static int parse_int(const char *t, long long min, long long max, long long *out)
{
	char *end;
	if (!t || t[0] < '0' || t[0] > '9')
		return -1;
	errno = 0;
	long long v = strtoll(t, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int ik__sweep_shard_parse(const char *text, struct ik_sweep_shard *sh, char *err, size_t errlen)
{
	char buf[64];
	long long i, n;
	snprintf(buf, sizeof(buf), "%s", text ? text : "");
	char *slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	if (!slash || parse_int(slash + 1, 1, MAX_SHARDS, &n) || parse_int(buf, 0, MAX_SHARDS, &i))
		return ik__errmsg(err, errlen, "expected I/N with 0 <= I < N <= %d, got '%.40s'",
				  MAX_SHARDS, text ? text : "");
	if (i >= n)
		return ik__errmsg(err, errlen, "shard %lld out of range: expected 0..%lld for %lld "
				  "shards", i, n - 1, n);
	sh->index = (int)i;
	sh->count = (int)n;
	return 0;
}

int ik__sweep_shard_from_env(int count_hint, struct ik_sweep_shard *sh, char *src, size_t srclen,
			    char *err, size_t errlen)
{
	const char *id = getenv("SLURM_ARRAY_TASK_ID");
	const char *count = getenv("SLURM_ARRAY_TASK_COUNT");
	const char *min = getenv("SLURM_ARRAY_TASK_MIN");
	long long i, n, m = 0;

	if (id && *id) {
		if (parse_int(id, 0, MAX_SHARDS * 10LL, &i) || !count ||
		    parse_int(count, 1, MAX_SHARDS, &n) || (min && *min && parse_int(min, 0, i, &m))) {
			return ik__errmsg(err, errlen, "SLURM_ARRAY_TASK_ID=%.20s, "
					  "SLURM_ARRAY_TASK_COUNT=%.20s, "
					  "SLURM_ARRAY_TASK_MIN=%.20s: expected MIN <= ID < MIN + "
					  "COUNT", id, count ? count : "(unset)",
					  min ? min : "(unset)");
		}
		if (count_hint > 0)
			n = count_hint;
		if (i - m >= n)
			return ik__errmsg(err, errlen, "SLURM_ARRAY_TASK_ID=%lld: shard %lld out "
					  "of range for %lld shards (an array must be "
					  "MIN-(MIN+N-1) with no step)", i, i - m, n);
		sh->index = (int)(i - m);
		sh->count = (int)n;
		snprintf(src, srclen, "SLURM_ARRAY_TASK_ID");
		return 1;
	}
	const char *k8s = getenv("JOB_COMPLETION_INDEX");
	if (k8s && *k8s) {
		if (parse_int(k8s, 0, MAX_SHARDS, &i))
			return ik__errmsg(err, errlen, "JOB_COMPLETION_INDEX=%.20s: expected an "
					  "integer", k8s);
		if (count_hint <= 0)
			return ik__errmsg(err, errlen, "JOB_COMPLETION_INDEX is set: give the "
					  "job's completions with --shard-count N");
		if (i >= count_hint)
			return ik__errmsg(err, errlen, "JOB_COMPLETION_INDEX=%lld: shard out of "
					  "range: expected 0..%d for --shard-count %d", i,
					  count_hint - 1, count_hint);
		sh->index = (int)i;
		sh->count = count_hint;
		snprintf(src, srclen, "JOB_COMPLETION_INDEX");
		return 1;
	}
	return 0;
}

int64_t ik__sweep_shard_points(const struct ik_sweep_spec *s, const struct ik_sweep_shard *sh)
{
	if (sh->index >= s->npoints)
		return 0;
	return (s->npoints - sh->index + sh->count - 1) / sh->count;
}

int64_t ik__sweep_shard_point(const struct ik_sweep_shard *sh, int64_t k)
{
	return sh->index + k * sh->count;
}
