/*
 * idlekit validate: the comparison.  The figures of every run on both sides, each side's
 * median and spread (min, max, CoV across its runs) and the error of the predicted median
 * against the measured one.
 *
 * The figures, in this order: per CPU and state its entries/s, residency share (% of the
 * window), above/s and below/s (entries that were too deep or too shallow, as the kernel
 * counts them); per CPU its busy share (the window less every state's residency); over all
 * CPUs the idle entries/s; the workload's wake-up latency p50 and p99 where it has one; its
 * throughput.  CPUs and states are matched by position: the model's CPU i is the i-th
 * online CPU of the machine, its state k the machine's state k (their names are noted when
 * they differ).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/freep.h"
#include "validate/validate.h"

struct builder {
	struct ik_val_comparison *c;
	int cap;
};

static struct ik_val_figure *add(struct builder *b, const char *group, const char *unit, int cpu,
				 int state, const char *fmt, const char *a, const char *x)
{
	if (b->c->nfig == b->cap) {
		int cap = b->cap ? 2 * b->cap : 64;
		struct ik_val_figure *p = realloc(b->c->fig, (size_t)cap * sizeof(*p));
		if (!p)
			return NULL;
		b->c->fig = p;
		b->cap = cap;
	}
	struct ik_val_figure *f = &b->c->fig[b->c->nfig++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), fmt, a, x);
	f->group = group;
	f->unit = unit;
	f->cpu = cpu;
	f->state = state;
	return f;
}

/* The figures of one side's run, in the order of the figure list (see the top). */
static int figures_of(const struct ik_val_sample *s, int ncpus, int nstates, double *out,
		      int max)
{
	int n = 0;
	double secs = s->window_ns / 1e9;
	double all_entries = 0;
	for (int c = 0; c < ncpus; c++) {
		double idle = 0;
		for (int st = 0; st < nstates; st++) {
			size_t j = (size_t)c * (size_t)s->nstates + (size_t)st;
			if (n + 4 > max)
				return -1;
			out[n++] = s->usage[j] / secs;
			out[n++] = 100.0 * s->time_ns[j] / s->window_ns;
			out[n++] = s->have_above_below ? s->above[j] / secs : NAN;
			out[n++] = s->have_above_below ? s->below[j] / secs : NAN;
			idle += s->time_ns[j];
			all_entries += s->usage[j];
		}
		if (n + 1 > max)
			return -1;
		double busy = 100.0 * (1.0 - idle / s->window_ns);
		out[n++] = busy < 0 ? 0 : busy;
	}
	if (n + 5 > max)
		return -1;
	out[n++] = all_entries / secs;
	out[n++] = s->have_wake ? s->wake_p50_us : NAN;
	out[n++] = s->have_wake ? s->wake_p99_us : NAN;
	out[n++] = s->have_throughput ? s->throughput : NAN;
	/* the workload's wake structure: idle entries (all CPUs) per activation, message or
	   operation of its throughput */
	out[n++] = s->have_throughput && s->throughput > 0 ? all_entries / secs / s->throughput
							   : NAN;
	return n;
}

static void summarize(const double *v, int n, struct ik_summary *s)
{
	double ok[IK_VAL_MAX_RUNS];
	int k = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]))
			ok[k++] = v[i];
	memset(s, 0, sizeof(*s));
	if (k > 0)
		ik__summarize(ok, k, s);
}

int ik__val_compare(const struct ik_val_sample *measured, int nm, const struct ik_val_sample *predicted,
		   int np, struct ik_val_comparison *c, char *err, size_t errlen)
{
	struct builder b = { c, 0 };
	memset(c, 0, sizeof(*c));
	if (nm < 1 || np < 1 || nm > IK_VAL_MAX_RUNS || np > IK_VAL_MAX_RUNS)
		return ik__errmsg(err, errlen, "validate: 1 to %d runs each side", IK_VAL_MAX_RUNS);
	const struct ik_val_sample *m0 = &measured[0], *p0 = &predicted[0];
	int ncpus = m0->ncpus < p0->ncpus ? m0->ncpus : p0->ncpus;
	int nstates = m0->nstates < p0->nstates ? m0->nstates : p0->nstates;
	if (m0->ncpus != p0->ncpus)
		snprintf(c->notes[c->nnotes++], sizeof(c->notes[0]), "the machine has %d CPUs with "
			 "idle states, the model %d: the first %d compared", m0->ncpus, p0->ncpus, ncpus);
	if (m0->nstates != p0->nstates)
		snprintf(c->notes[c->nnotes++], sizeof(c->notes[0]), "the machine has %d idle states, "
			 "the model's driver %d: the first %d compared", m0->nstates, p0->nstates,
			 nstates);
	for (int st = 0; st < nstates && c->nnotes < 3; st++)
		if (strcmp(m0->state_names[st], p0->state_names[st]) != 0) {
			snprintf(c->notes[c->nnotes++], sizeof(c->notes[0]), "state %d is %s on the "
				 "machine, %s in the model", st, m0->state_names[st], p0->state_names[st]);
			break;
		}
	c->ncpus = ncpus;
	c->nstates = nstates;
	memcpy(c->state_names, m0->state_names, sizeof(c->state_names));

	/* the figure list, in figures_of's order */
	char cpu[16];
	static const char *const per_state[4][2] = {
		{ "entries/s", "1/s" }, { "residency", "%" }, { "above/s", "1/s" }, { "below/s", "1/s" }
	};
	for (int k = 0; k < ncpus; k++) {
		snprintf(cpu, sizeof(cpu), "cpu%d", m0->cpu_ids[k]);
		for (int st = 0; st < nstates; st++)
			for (int q = 0; q < 4; q++) {
				char fmt[64];
				snprintf(fmt, sizeof(fmt), "%%s %%s %s", per_state[q][0]);
				if (!add(&b, "state", per_state[q][1], m0->cpu_ids[k], st, fmt, cpu,
					 m0->state_names[st]))
					goto oom;
			}
		if (!add(&b, "cpu", "%", m0->cpu_ids[k], -1, "%s busy%s", cpu, ""))
			goto oom;
	}
	if (!add(&b, "all", "1/s", -1, -1, "all CPUs idle entries/s%s%s", "", "") ||
	    !add(&b, "wake", "us", -1, -1, "wake latency p50%s%s", "", "") ||
	    !add(&b, "wake", "us", -1, -1, "wake latency p99%s%s", "", "") ||
	    !add(&b, "throughput", "1/s", -1, -1, "%s%s",
		 m0->throughput_name ? m0->throughput_name : "throughput", ""))
		goto oom;
	/* "activations/s" -> "idle entries per activation" */
	char per[48];
	const char *tn = m0->throughput_name ? m0->throughput_name : "units/s";
	size_t tl = strcspn(tn, "/");
	if (tl > 1 && tn[tl - 1] == 's')
		tl--;
	snprintf(per, sizeof(per), "%.*s", (int)tl, tn);
	if (!add(&b, "structure", "1", -1, -1, "idle entries per %s%s", per, ""))
		goto oom;

	int nfig = c->nfig;
	double *v = malloc((size_t)nfig * sizeof(double));
	if (!v)
		goto oom;
	for (int side = 0; side < 2; side++) {
		const struct ik_val_sample *s = side ? predicted : measured;
		int n = side ? np : nm;
		for (int r = 0; r < n; r++) {
			if (figures_of(&s[r], ncpus, nstates, v, nfig) != nfig) {
				free(v);
				snprintf(err, errlen, "validate: internal error: figure count");
				ik__val_comparison_free(c);
				return -1;
			}
			for (int f = 0; f < nfig; f++) {
				if (side)
					c->fig[f].predicted[c->fig[f].np++] = v[f];
				else
					c->fig[f].measured[c->fig[f].nm++] = v[f];
			}
			if (s[r].have_hist) {
				bool *have = side ? &c->have_predicted_hist : &c->have_measured_hist;
				uint64_t *h = side ? c->predicted_hist : c->measured_hist;
				*have = true;
				for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
					h[i] += s[r].idle_hist[i];
			}
		}
	}
	free(v);
	/* a figure neither side has (no wake latency, no throughput) is dropped */
	int kept = 0;
	for (int f = 0; f < nfig; f++) {
		struct ik_val_figure *x = &c->fig[f];
		summarize(x->measured, x->nm, &x->ms);
		summarize(x->predicted, x->np, &x->ps);
		if (x->ms.n == 0 && x->ps.n == 0)
			continue;
		if (x->ms.n == 0 || x->ps.n == 0)
			x->error_pct = NAN;
		else if (x->ms.median != 0)
			x->error_pct = 100.0 * (x->ps.median - x->ms.median) / fabs(x->ms.median);
		else
			x->error_pct = x->ps.median == 0 ? 0 : NAN;
		c->fig[kept++] = *x;
	}
	c->nfig = kept;
	return 0;
oom:
	ik__val_comparison_free(c);
	return ik__errmsg(err, errlen, "out of memory");
}

void ik__val_comparison_free(struct ik_val_comparison *c)
{
	ik__freep(&c->fig);
	c->nfig = 0;
}

void ik__val_traced_note(struct ik_val_comparison *c, const struct ik_val_sample *tr,
			const char *trace_err)
{
	if (c->nnotes >= 8)
		return;
	if (!tr || !tr->have_hist) {
		snprintf(c->notes[c->nnotes++], sizeof(c->notes[0]), "no trace of the machine for "
			 "the idle-duration histogram: %.200s", trace_err && *trace_err ? trace_err : "?");
		return;
	}
	c->have_measured_hist = true;
	memcpy(c->measured_hist, tr->idle_hist, sizeof(c->measured_hist));
	double entries = 0;
	for (int i = 0; i < tr->ncpus * tr->nstates; i++)
		entries += tr->usage[i];
	double traced = entries / (tr->window_ns / 1e9), untraced = NAN;
	for (int i = 0; i < c->nfig; i++)
		if (strcmp(c->fig[i].name, "all CPUs idle entries/s") == 0 && c->fig[i].ms.n)
			untraced = c->fig[i].ms.median;
	snprintf(c->notes[c->nnotes++], sizeof(c->notes[0]), "the machine's idle-duration "
		 "histogram comes from one more run traced by idlekit's recorder (kept out of the "
		 "figures): it made %.1f idle entries/s over all CPUs, the untraced runs %.1f",
		 traced, untraced);
}
