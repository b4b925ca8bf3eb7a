/*
 * Figures derived from one run.  Every rate is over the measured window (after warm-up);
 * a run with no measured time has rates of 0 rather than a division by zero.
 */
#include <stdlib.h>

#include "config/result.h"
#include "util/freep.h"

static double measured_s(const struct ik_run_result *r)
{
	return (double)r->measured_ns / (double)IK_NSEC_PER_SEC;
}

double ik__run_per_s(const struct ik_run_result *r, uint64_t count)
{
	return r->measured_ns > 0 ? (double)count * 1e9 / (double)r->measured_ns : 0.0;
}

double ik__run_messages_per_s(const struct ik_run_result *r)
{
	if (r->measured_ns <= 0)
		return 0.0;
	return (double)r->messages / measured_s(r);
}

/* MB is 10^6 bytes, as tbench and netperf count them. */
double ik__run_mb_per_s(const struct ik_run_result *r)
{
	if (r->measured_ns <= 0)
		return 0.0;
	return (double)r->bytes / 1e6 / measured_s(r);
}

double ik__run_avg_power_w(const struct ik_run_result *r)
{
	if (r->measured_ns <= 0)
		return 0.0;
	return r->energy_j / measured_s(r);
}

/* Share of all CPUs' measured time spent in `state`, summed over CPUs, in percent. */
double ik__run_residency_pct(const struct ik_run_result *r, int state)
{
	if (state < 0 || state >= r->nstates || state >= IK_STATE_MAX)
		return 0.0;
	if (r->ncpus <= 0 || r->measured_ns <= 0)
		return 0.0;
	double cpu_time_ns = (double)r->ncpus * (double)r->measured_ns;
	/* the counters' time, as sysfs's, and the idle periods still open at the end in that
	   state (sysfs adds them at their exit): the CPUs were in it all the same */
	double ns = (double)r->total[state].time_ns;
	for (int c = 0; r->open_idle && c < r->ncpus; c++)
		if (r->open_idle[c].state == state)
			ns += (double)r->open_idle[c].ns;
	return ns / cpu_time_ns * 100.0;
}

void ik__run_result_free(struct ik_run_result *r)
{
	if (!r)
		return;
	ik__freep(&r->per_cpu);
	ik__freep(&r->open_idle);
	ik__freep(&r->cpu_busy_ns);
	ik__timeline_free(r->timeline);
	r->timeline = NULL;
	ik__freep(&r->requests);
}

double ik__request_achieved_load_pct(const struct ik_request_stats *q, int64_t measured_ns)
{
	if (!q || q->workers <= 0 || measured_ns <= 0)
		return 0.0;
	return (double)q->service_ns / ((double)q->workers * (double)measured_ns) * 100.0;
}
