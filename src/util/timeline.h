/*
 * idlekit: a per-CPU timeline of idle states over a window of time, for the HTML report.
 *
 * Memory is bounded: at most max_cpus CPUs (the first ones) and max_segs segments are
 * kept; segments past the cap are counted in `dropped` and the page says so.  Segments are
 * clipped to the window.  Times are on the source's clock (simulated time, or the trace's
 * timestamps), in ns.
 */
#ifndef IDLEKIT_TIMELINE_H
#define IDLEKIT_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#define IK_TIMELINE_MAX_CPUS 64
#define IK_TIMELINE_MAX_SEGS 65536
#define IK_TIMELINE_DEFAULT_LEN_NS 2000000 /* 2 ms */

struct ik_timeline_seg {
	int64_t t0_ns, t1_ns;
	int32_t cpu;
	int32_t state; /* index in the CPU's driver table */
};

struct ik_timeline {
	int64_t origin_ns; /* times are shown relative to this (warm-up end, first event) */
	int64_t start_ns;  /* the window: [start_ns, start_ns + len_ns) */
	int64_t len_ns;
	int ncpus;         /* CPUs kept: 0 .. ncpus-1 */
	int total_cpus;    /* CPUs of the machine or trace */
	size_t nsegs, cap, max_segs;
	uint64_t dropped;  /* segments not kept: max_segs reached */
	struct ik_timeline_seg *segs;
};

/* A timeline for [start_ns, start_ns + len_ns) of total_cpus CPUs; NULL if out of memory. */
struct ik_timeline *ik__timeline_new(int64_t origin_ns, int64_t start_ns, int64_t len_ns,
				    int total_cpus);
/* One idle period of cpu in state from t0 to t1: kept, clipped, if it overlaps the window. */
void ik__timeline_add(struct ik_timeline *tl, int cpu, int state, int64_t t0_ns, int64_t t1_ns);
void ik__timeline_free(struct ik_timeline *tl);

/*
 * "START:LEN" (or "LEN": from 0): durations with a unit ns, us, ms or s (ms when there is
 * none), LEN > 0.  0, or -1 with "expected ..., got ..." in err.
 */
int ik__timeline_parse_window(const char *text, int64_t *start_ns, int64_t *len_ns, char *err,
			     size_t errlen);

#endif
