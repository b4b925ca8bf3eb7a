/*
 * The per-CPU timeline of idle states (declared in util/timeline.h): the data structure
 * and its window's "START:LEN" syntax.  Here, below sim, trace and report, because the
 * simulator (src/sim/timeline.c captures from its state), the trace analysis and replay
 * fill timelines and the HTML reports draw them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/timeline.h"

struct ik_timeline *ik__timeline_new(int64_t origin_ns, int64_t start_ns, int64_t len_ns,
				    int total_cpus)
{
	struct ik_timeline *tl = calloc(1, sizeof(*tl));
	if (!tl)
		return NULL;
	tl->origin_ns = origin_ns;
	tl->start_ns = start_ns;
	tl->len_ns = len_ns > 0 ? len_ns : 1;
	tl->total_cpus = total_cpus;
	tl->ncpus = total_cpus < IK_TIMELINE_MAX_CPUS ? total_cpus : IK_TIMELINE_MAX_CPUS;
	tl->max_segs = IK_TIMELINE_MAX_SEGS;
	return tl;
}

void ik__timeline_add(struct ik_timeline *tl, int cpu, int state, int64_t t0, int64_t t1)
{
	if (!tl)
		return;
	int64_t end = tl->start_ns + tl->len_ns;
	if (cpu < 0 || cpu >= tl->ncpus || t1 <= tl->start_ns || t0 >= end || t1 <= t0)
		return;
	if (tl->nsegs >= tl->max_segs) {
		tl->dropped++;
		return;
	}
	if (tl->nsegs == tl->cap) {
		size_t cap = tl->cap ? tl->cap * 2 : 1024;
		if (cap > tl->max_segs)
			cap = tl->max_segs;
		struct ik_timeline_seg *s = cap > tl->cap ? realloc(tl->segs, cap * sizeof(*s)) : NULL;
		if (!s) {
			tl->dropped++;
			return;
		}
		tl->segs = s;
		tl->cap = cap;
	}
	tl->segs[tl->nsegs++] = (struct ik_timeline_seg){
		.t0_ns = t0 < tl->start_ns ? tl->start_ns : t0,
		.t1_ns = t1 > end ? end : t1,
		.cpu = cpu,
		.state = state,
	};
}

void ik__timeline_free(struct ik_timeline *tl)
{
	if (!tl)
		return;
	free(tl->segs);
	free(tl);
}

/* A duration with an optional unit (ms by default): 0, or -1. */
static int parse_duration(const char *s, size_t n, int64_t *ns)
{
	char buf[64];
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (errno || !(v >= 0))
		return -1;
	double scale = 1e6;
	if (strcmp(end, "ns") == 0)
		scale = 1;
	else if (strcmp(end, "us") == 0)
		scale = 1e3;
	else if (strcmp(end, "ms") == 0 || *end == '\0')
		scale = 1e6;
	else if (strcmp(end, "s") == 0)
		scale = 1e9;
	else
		return -1;
	if (v * scale > 1e17)
		return -1;
	*ns = (int64_t)(v * scale + 0.5);
	return 0;
}

int ik__timeline_parse_window(const char *text, int64_t *start_ns, int64_t *len_ns, char *err,
			     size_t errlen)
{
	const char *colon = strchr(text, ':');
	int64_t start = 0, len = 0;
	int bad = colon ? parse_duration(text, (size_t)(colon - text), &start) ||
				  parse_duration(colon + 1, strlen(colon + 1), &len)
			: parse_duration(text, strlen(text), &len);
	if (bad || len <= 0) {
		snprintf(err, errlen,
			 "expected START:LEN, durations with a unit ns, us, ms or s (ms if none) and "
			 "LEN > 0, e.g. 0:2ms or 10ms:500us, got '%s'",
			 text);
		return -1;
	}
	*start_ns = start;
	*len_ns = len;
	return 0;
}
