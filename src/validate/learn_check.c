/*
 * A learned model against its own recording (learn_check.h): the recording's figures from
 * its analysis (src/trace/analyze.c), the model's from one simulated run (src/sim), side
 * by side.  A CPU's idle share is its time less its busy time (tasks, handlers), in both.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/wake_cause.h"
#include "sim/sim.h"
#include "trace/analyze.h"
#include "trace/format.h"
#include "util/errmsg.h"
#include "util/freep.h"
#include "validate/learn_check.h"

static bool off_by(double rec, double sim, double floor)
{
	double d = fabs(sim - rec);
	return d > floor && d > IK_LEARN_CHECK_REL * fabs(rec);
}

static int mix_group(int cause)
{
	switch (cause) {
	case IK_CAUSE_TIMER:
	case IK_CAUSE_TICK:
		return IK_LEARN_MIX_TIMER;
	case IK_CAUSE_IPI:
	case IK_CAUSE_REMOTE:
		return IK_LEARN_MIX_REMOTE;
	default:
		return IK_LEARN_MIX_IRQ;
	}
}

/* counts into shares in percent (all 0 when there is none) */
static void shares(const double *n, double *pct)
{
	double total = 0;
	for (int g = 0; g < IK_LEARN_MIX_COUNT; g++)
		total += n[g];
	for (int g = 0; g < IK_LEARN_MIX_COUNT; g++)
		pct[g] = total > 0 ? 100.0 * n[g] / total : 0.0;
}

static int analyse(const char *path, struct ik_trace_analysis *a, char *err, size_t errlen)
{
	FILE *in = fopen(path, "r");
	struct ik_trace_reader *r = NULL;

	if (!in)
		return ik__errmsg(err, errlen, "%s: cannot open it again to compare", path);
	int rc = ik__trace_open_file(in, path, false, &r, err, errlen);
	if (rc == 0)
		rc = ik__trace_analyze(r, a, err, errlen);
	if (r)
		ik__trace_close(r);
	fclose(in);
	return rc ? -1 : 0;
}

static void recorded(const struct ik_trace_analysis *a, struct ik_learn_check *c)
{
	double span_s = (double)(a->last_ns - a->first_ns) / 1e9, mix[IK_LEARN_MIX_COUNT] = { 0 };

	c->rec_s = span_s;
	for (int cpu = 0; cpu < c->cpus; cpu++) {
		uint64_t entries = 0;
		for (int i = 0; i < IK_STATE_MAX; i++)
			entries += a->cpu[cpu].states[i].entries;
		c->cpu[cpu].rec_idle_pct = span_s > 0 ? 100.0 * (double)a->idle_ns[cpu] / 1e9 / span_s
						      : 0.0;
		c->cpu[cpu].rec_entries_per_s = span_s > 0 ? (double)entries / span_s : 0.0;
	}
	for (int k = 0; k <= IK_CAUSE_COUNT; k++)
		mix[mix_group(k)] += (double)a->all.wakes[k];
	shares(mix, c->rec_mix_pct);
}

static void simulated(const struct ik_run_result *r, struct ik_learn_check *c)
{
	double s = (double)r->measured_ns / 1e9, mix[IK_LEARN_MIX_COUNT];
	uint64_t ended = 0;
	int n = r->nstates;

	c->sim_s = s;
	for (int cpu = 0; cpu < c->cpus && cpu < r->ncpus; cpu++) {
		uint64_t entries = 0;
		for (int i = 0; i < n; i++)
			entries += r->per_cpu[cpu * n + i].usage;
		ended += entries;
		/* the rest of its time once busy (as the recording's idle share is); a span in
		   progress at the warm-up's end counts whole in the window (sim.c), so a CPU
		   busy throughout may show a little more than the window: 0..100 */
		double busy_s = r->cpu_busy_ns ? (double)r->cpu_busy_ns[cpu] / 1e9 : 0.0;
		double pct = s > 0 ? 100.0 * (s - busy_s) / s : 0.0;
		c->cpu[cpu].sim_idle_pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
		c->cpu[cpu].sim_entries_per_s = s > 0 ? (double)entries / s : 0.0;
	}
	/* the periods no model wake-up ended (the tick, a poll limit) count with the timers */
	uint64_t ours = r->learned_wakes[0] + r->learned_wakes[1] + r->learned_wakes[2];
	mix[IK_LEARN_MIX_TIMER] = (double)(r->learned_wakes[0] + (ended > ours ? ended - ours : 0));
	mix[IK_LEARN_MIX_REMOTE] = (double)r->learned_wakes[1];
	mix[IK_LEARN_MIX_IRQ] = (double)r->learned_wakes[2];
	shares(mix, c->sim_mix_pct);
}

int ik__learn_check(const char *trace_path, const struct ik_scenario *sc,
		   struct ik_learn_check *out, char *err, size_t errlen)
{
	struct ik_trace_analysis a;
	struct ik_run_result r;

	memset(out, 0, sizeof(*out));
	if (analyse(trace_path, &a, err, errlen))
		return -1;
	if (ik__sim_run(sc, sc->seed, &r, err, errlen)) {
		ik__trace_analysis_free(&a);
		return -1;
	}
	out->cpus = a.cpus;
	out->cpu = calloc((size_t)(a.cpus > 0 ? a.cpus : 1), sizeof(*out->cpu));
	if (!out->cpu) {
		snprintf(err, errlen, "out of memory");
		ik__trace_analysis_free(&a);
		ik__run_result_free(&r);
		return -1;
	}
	recorded(&a, out);
	simulated(&r, out);
	for (int cpu = 0; cpu < out->cpus; cpu++) {
		struct ik_learn_check_cpu *k = &out->cpu[cpu];
		k->idle_off = off_by(k->rec_idle_pct, k->sim_idle_pct, IK_LEARN_CHECK_IDLE_PP);
		k->entries_off = off_by(k->rec_entries_per_s, k->sim_entries_per_s,
					IK_LEARN_CHECK_ENTRIES);
		out->off += k->idle_off + k->entries_off;
	}
	for (int g = 0; g < IK_LEARN_MIX_COUNT; g++) {
		out->mix_off[g] = fabs(out->sim_mix_pct[g] - out->rec_mix_pct[g]) >
				  IK_LEARN_CHECK_MIX_PP;
		out->off += out->mix_off[g];
	}
	ik__trace_analysis_free(&a);
	ik__run_result_free(&r);
	return 0;
}

static const char *const mix_names[IK_LEARN_MIX_COUNT] = {
	"timers (timer, tick)", "from another CPU (ipi, remote)", "interrupts and the rest" };

/* "+12.3%" of sim against rec, or "" when rec is 0. */
static void difference(double rec, double sim, char *buf, size_t len)
{
	if (rec != 0.0)
		snprintf(buf, len, "%+.1f%%", 100.0 * (sim - rec) / rec);
	else
		snprintf(buf, len, "%s", sim == 0.0 ? "0" : "(recorded 0)");
}

/*
 * One CPU's figure ("CPU 3 idle share (%)"): recorded, simulated, their difference with
 * decimals; when off, a warning too (the values followed by suffix).
 */
static void cpu_row(FILE *out, FILE *warn, const char *prefix, int cpu, const char *what,
		    const char *unit, const char *suffix, int decimals, double rec, double sim,
		    bool off)
{
	char name[64], d[32];
	snprintf(name, sizeof(name), "CPU %d idle %s (%s)", cpu, what, unit);
	difference(rec, sim, d, sizeof(d));
	fprintf(out, "  %-40s %12.*f %12.*f %12s%s\n", name, decimals, rec, decimals, sim, d,
		off ? "  <- off" : "");
	if (off)
		fprintf(warn, "%s: warning: CPU %d idle %s: simulated %.*f%s, recorded %.*f%s (%s, "
			      "beyond 10%%)\n", prefix, cpu, what, decimals, sim, suffix, decimals, rec,
			suffix, d);
}

int ik__learn_check_print(const struct ik_learn_check *c, FILE *out, FILE *warn,
			 const char *prefix)
{
	fprintf(out, "The model against its recording (%.3f s recorded, %.3f s simulated on the "
		     "trace's own table):\n", c->rec_s, c->sim_s);
	fprintf(out, "  %-40s %12s %12s %12s\n", "figure", "recorded", "simulated", "difference");
	for (int cpu = 0; cpu < c->cpus; cpu++) {
		const struct ik_learn_check_cpu *k = &c->cpu[cpu];
		cpu_row(out, warn, prefix, cpu, "share", "%", "%", 2, k->rec_idle_pct,
			k->sim_idle_pct, k->idle_off);
		cpu_row(out, warn, prefix, cpu, "entries", "1/s", "/s", 1, k->rec_entries_per_s,
			k->sim_entries_per_s, k->entries_off);
	}
	for (int g = 0; g < IK_LEARN_MIX_COUNT; g++) {
		char name[64];
		snprintf(name, sizeof(name), "wakes: %s (%%)", mix_names[g]);
		fprintf(out, "  %-40s %12.1f %12.1f %+11.1fpp%s\n", name, c->rec_mix_pct[g],
			c->sim_mix_pct[g], c->sim_mix_pct[g] - c->rec_mix_pct[g],
			c->mix_off[g] ? "  <- off" : "");
		if (c->mix_off[g])
			fprintf(warn, "%s: warning: wake-up mix, %s: simulated %.1f%%, recorded "
				      "%.1f%% of all idle periods (beyond 10 points)\n", prefix,
				mix_names[g], c->sim_mix_pct[g], c->rec_mix_pct[g]);
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}

void ik__learn_check_free(struct ik_learn_check *c)
{
	ik__freep(&c->cpu);
}
