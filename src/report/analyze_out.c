/*
 * `idlekit analyze`'s writers: a trace analysis (ik__trace_analyze) as text, as JSON schema
 * "idlekit.analyze/1" and as idlestat's CSV layout (the command's --help and
 * docs/trace-format.md say what each figure is).  Times are printed in microseconds with
 * three decimals, computed in integers so that the same trace gives the same bytes.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/analyze_out.h"
#include "report/report_internal.h"
#include "report/textout.h"
#include "trace/analyze.h"

/* ns as microseconds with 3 decimals. */
static const char *us3(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
	return buf;
}

static const char *state_name(const struct ik_trace_header *h, int cpu, int i, char *buf,
			      size_t len)
{
	const struct ik_driver *d = &h->drivers[cpu < 0 ? 0 : h->cpu_driver[cpu]].drv;
	if ((cpu >= 0 || h->ndrivers == 1) && i < d->state_count)
		return d->states[i].name;
	snprintf(buf, len, "state%d", i);
	return buf;
}

static void text_states(FILE *f, const struct ik_trace_header *h, int cpu,
			const struct ik_trace_cpu_stats *s)
{
	char b[5][32];
	int n = cpu >= 0 ? h->drivers[h->cpu_driver[cpu]].drv.state_count : ik__trace_max_states(h);
	fprintf(f, "  %-12s %10s %14s %14s %14s %18s %10s %12s\n", "state", "entries", "min_us",
		"avg_us", "max_us", "total_us", "too_deep", "too_shallow");
	for (int i = 0; i < n; i++) {
		const struct ik_trace_state_stats *st = &s->states[i];
		fprintf(f, "  %-12s %10" PRIu64 " %14s %14s %14s %18s %10" PRIu64 " %12" PRIu64 "\n",
			state_name(h, cpu, i, b[4], sizeof(b[4])), st->entries,
			us3(b[0], 32, st->min_ns), us3(b[1], 32, st->entries ? st->total_ns / st->entries : 0),
			us3(b[2], 32, st->max_ns), us3(b[3], 32, st->total_ns), st->too_deep,
			st->too_shallow);
	}
	fprintf(f, "  wake causes (idle periods, of which too deep):");
	for (int k = 0; k <= IK_CAUSE_COUNT; k++)
		fprintf(f, " %s %" PRIu64 " (%" PRIu64 ")", ik__trace_cause_name((enum ik_trace_cause)k),
			s->wakes[k], s->too_deep_by_cause[k]);
	fprintf(f, "\n  too shallow by cause:");
	for (int k = 0; k <= IK_CAUSE_COUNT; k++)
		fprintf(f, " %s %" PRIu64, ik__trace_cause_name((enum ik_trace_cause)k),
			s->too_shallow_by_cause[k]);
	fputc('\n', f);
}

/* A CPU's idle share of the traced time, in percent. */
static double idle_pct(const struct ik_trace_analysis *a, int cpu)
{
	int64_t span = a->last_ns - a->first_ns;
	return span > 0 ? 100.0 * (double)a->idle_ns[cpu] / (double)span : 0.0;
}

static uint64_t cpu_periods(const struct ik_trace_analysis *a, int cpu)
{
	uint64_t n = 0;
	for (int i = 0; i < IK_STATE_MAX; i++)
		n += a->cpu[cpu].states[i].entries;
	return n;
}

/* The remote wakes (a remote task_wake, or an IPI whose sender is known) src sent: the
   periods it woke on CPU c, or (c < 0) on all CPUs. */
static uint64_t sent_by(const struct ik_trace_analysis *a, int src, int c)
{
	uint64_t n = 0;
	for (int d = c < 0 ? 0 : c; d < (c < 0 ? a->cpus : c + 1); d++)
		for (size_t i = 0; i < a->remote[d].n; i++)
			n += a->remote[d].v[i].src == src ? a->remote[d].v[i].periods : 0;
	return n;
}

/*
 * The remote wakes by sending CPU, in text or JSON: per sender, sender with (first or next,
 * the CPU, its count), then target with (", " after the first, the woken CPU, the count) per
 * woken CPU, then close.  Returns whether any CPU sent one.
 */
struct senders_syntax {
	const char *first, *next, *sender, *target, *close;
};

static bool write_senders(FILE *f, const struct ik_trace_analysis *a,
			  const struct senders_syntax *s)
{
	bool any = false;
	for (int src = 0; src < a->cpus; src++) {
		uint64_t n = sent_by(a, src, -1);
		if (!n)
			continue;
		fprintf(f, s->sender, any ? s->next : s->first, src, n);
		bool first = true;
		for (int c = 0; c < a->cpus; c++) {
			uint64_t k = sent_by(a, src, c);
			if (k)
				fprintf(f, s->target, first ? "" : ", ", c, k);
			first &= !k;
		}
		fputs(s->close, f);
		any = true;
	}
	return any;
}

int ik__report_analyze_text(FILE *f, const char *origin, const struct ik_trace_header *h,
			   const struct ik_trace_analysis *a)
{
	char b[32];
	fprintf(f, "trace %s: %d CPUs, HZ %d, %" PRIu64 " events (%" PRIu64
		   " bad lines skipped), %" PRIu64 " idle periods (%" PRIu64
		   " still open at the end, not counted), %s us traced\n",
		origin, h->cpus, h->hz, a->events, a->skipped, a->periods, a->open_at_end,
		us3(b, sizeof(b), (uint64_t)(a->last_ns - a->first_ns)));
	if (h->governor[0]) {
		fprintf(f, "recorded under governor %s", h->governor);
		for (int i = 0; i < h->nparams; i++)
			fprintf(f, "%s%s=%" PRIu64, i ? " " : " (", h->params[i].key, h->params[i].value);
		fputs(h->nparams ? ")\n" : "\n", f);
	}
	if (a->has_switch)
		fprintf(f, "after the idle periods: %" PRIu64 " ran a task, %" PRIu64 " none (woken for nothing)\n",
			a->task_periods, a->empty_periods);
	for (int c = 0; c < a->cpus; c++) {
		fprintf(f, "\nCPU %d (driver %s", c, h->drivers[h->cpu_driver[c]].drv.name);
		if (h->topo && h->topo[c].package >= 0)
			fprintf(f, ", package %" PRId32 " core %" PRId32, h->topo[c].package, h->topo[c].core);
		fprintf(f, "): idle %.2f %%, busy %.2f %% of the traced time%s\n", idle_pct(a, c),
			100.0 - idle_pct(a, c), cpu_periods(a, c) ? "" : " (never idled)");
		text_states(f, h, c, &a->cpu[c]);
		const struct ik_trace_pstates *ps = &a->pstates[c];
		uint64_t pt = 0;
		for (size_t i = 0; i < ps->n; i++)
			pt += ps->v[i].ns;
		for (size_t i = 0; i < ps->n; i++)
			fprintf(f, "%s %" PRIu32 " kHz %s us (%.2f %%)%s",
				i ? "," : "  P-states (from the CPU's first cpu_frequency):", ps->v[i].khz,
				us3(b, sizeof(b), ps->v[i].ns), pt ? 100.0 * (double)ps->v[i].ns / (double)pt : 0.0,
				i + 1 < ps->n ? "" : "\n");
		for (size_t i = 0; i < a->remote[c].n; i++)
			fprintf(f, "%s CPU %d %" PRIu64 "%s", i ? "," : "  remote wakes by source:",
				a->remote[c].v[i].src, a->remote[c].v[i].periods, i + 1 < a->remote[c].n ? "" : "\n");
	}
	fprintf(f, "\nall CPUs\n");
	text_states(f, h, -1, &a->all);
	static const struct senders_syntax text = {
		"  remote wakes by sending CPU:", ";", "%s CPU %d %" PRIu64 " (",
		"%sto CPU %d %" PRIu64, ")",
	};
	if (write_senders(f, a, &text))
		fputc('\n', f);
	for (size_t i = 0; i < a->nirqs; i++) {
		const char *name = ik__trace_irq_name(h, a->irqs[i].irq);
		fprintf(f, "%s  IRQ %" PRId64 " %s: %" PRIu64 " periods, %" PRIu64 " too deep, %" PRIu64 " too shallow\n",
			i ? "" : "wakes by IRQ (all CPUs)\n", a->irqs[i].irq, name ? name : "(no name)",
			a->irqs[i].periods, a->irqs[i].too_deep, a->irqs[i].too_shallow);
	}
	int64_t span = a->last_ns - a->first_ns;
	for (int g = 0; g < a->npackages + a->ncores; g++) {
		const struct ik_trace_group *gr = &a->groups[g];
		if (g == 0)
			fputs("\nall the CPUs of a group idle at once (from the 'cpu' lines)\n", f);
		if (gr->core < 0)
			fprintf(f, "  package %" PRId32 " (%d CPUs)", gr->package, gr->cpus);
		else
			fprintf(f, "  package %" PRId32 " core %" PRId32 " (%d CPUs)", gr->package, gr->core, gr->cpus);
		fprintf(f, ": %s us, %.2f %% of the traced time\n", us3(b, sizeof(b), gr->all_idle_ns),
			span > 0 ? 100.0 * (double)gr->all_idle_ns / (double)span : 0.0);
	}
	fprintf(f, "\nidle duration histogram (all CPUs)\n  %-24s %12s\n", "duration_us", "periods");
	for (int i = 0; i < IK_TRACE_HIST_BUCKETS; i++) {
		char range[64];
		ik__trace_hist_label(i, range, sizeof(range));
		fprintf(f, "  %-24s %12" PRIu64 "\n", range, a->hist[i]);
	}
	return ik__rep_finish(f);
}

static void json_stats(FILE *f, const struct ik_trace_header *h, int cpu,
		       const struct ik_trace_cpu_stats *s, const char *indent)
{
	char b[5][32];
	int n = cpu >= 0 ? h->drivers[h->cpu_driver[cpu]].drv.state_count : ik__trace_max_states(h);
	fprintf(f, "\"states\": [\n");
	for (int i = 0; i < n; i++) {
		const struct ik_trace_state_stats *st = &s->states[i];
		fprintf(f, "%s  {\"index\": %d, \"name\": ", indent, i);
		ik__json_string(f, state_name(h, cpu, i, b[4], sizeof(b[4])), SIZE_MAX);
		fprintf(f, ", \"entries\": %" PRIu64 ", \"min_us\": %s, \"avg_us\": %s, \"max_us\": %s, \"total_us\": %s, \"too_deep\": %" PRIu64 ", \"too_shallow\": %" PRIu64 "}%s\n",
			st->entries, us3(b[0], 32, st->min_ns),
			us3(b[1], 32, st->entries ? st->total_ns / st->entries : 0),
			us3(b[2], 32, st->max_ns), us3(b[3], 32, st->total_ns), st->too_deep,
			st->too_shallow, i + 1 < n ? "," : "");
	}
	fprintf(f, "%s], \"wake_causes\": {", indent);
	for (int k = 0; k <= IK_CAUSE_COUNT; k++)
		fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", ik__trace_cause_name((enum ik_trace_cause)k), s->wakes[k]);
	fprintf(f, "}, \"too_deep_by_cause\": {");
	for (int k = 0; k <= IK_CAUSE_COUNT; k++)
		fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", ik__trace_cause_name((enum ik_trace_cause)k),
			s->too_deep_by_cause[k]);
	fprintf(f, "}, \"too_shallow_by_cause\": {");
	for (int k = 0; k <= IK_CAUSE_COUNT; k++)
		fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", ik__trace_cause_name((enum ik_trace_cause)k),
			s->too_shallow_by_cause[k]);
	fprintf(f, "}");
}

int ik__report_analyze_json(FILE *f, const struct ik_trace_header *h,
			   const struct ik_trace_analysis *a)
{
	char b[32];
	fprintf(f, "{\n  \"schema\": \"idlekit.analyze/1\",\n  \"hz\": %d, \"cpus\": %d, \"events\": %" PRIu64
		   ", \"skipped\": %" PRIu64 ", \"periods\": %" PRIu64 ", \"open_at_end\": %" PRIu64
		   ", \"first_ns\": %" PRId64 ", \"last_ns\": %" PRId64 ",\n",
		h->hz, h->cpus, a->events, a->skipped, a->periods, a->open_at_end, a->first_ns,
		a->last_ns);
	if (h->governor[0]) { /* what the trace's header says ran (format 1.1) */
		fprintf(f, "  \"governor\": ");
		ik__json_string(f, h->governor, SIZE_MAX);
		fprintf(f, ", \"governor_params\": {");
		for (int i = 0; i < h->nparams; i++) {
			fprintf(f, "%s", i ? ", " : "");
			ik__json_string(f, h->params[i].key, SIZE_MAX);
			fprintf(f, ": %" PRIu64, h->params[i].value);
		}
		fprintf(f, "},\n");
	}
	fprintf(f, "  \"per_cpu\": [\n");
	for (int c = 0; c < a->cpus; c++) {
		fprintf(f, "    {\"cpu\": %d, \"driver\": ", c);
		ik__json_string(f, h->drivers[h->cpu_driver[c]].drv.name, SIZE_MAX);
		if (h->topo && h->topo[c].package >= 0)
			fprintf(f, ", \"package\": %" PRId32 ", \"core\": %" PRId32, h->topo[c].package,
				h->topo[c].core);
		fprintf(f, ", \"idle_us\": %s, \"idle_pct\": %.3f, \"busy_pct\": %.3f, \"never_idle\": %s, ",
			us3(b, sizeof(b), a->idle_ns[c]), idle_pct(a, c), 100.0 - idle_pct(a, c),
			cpu_periods(a, c) ? "false" : "true");
		json_stats(f, h, c, &a->cpu[c], "    ");
		const struct ik_trace_pstates *ps = &a->pstates[c];
		uint64_t pt = 0;
		for (size_t i = 0; i < ps->n; i++)
			pt += ps->v[i].ns;
		fprintf(f, ", \"pstates\": [");
		for (size_t i = 0; i < ps->n; i++)
			fprintf(f, "%s{\"khz\": %" PRIu32 ", \"time_us\": %s, \"pct\": %.3f}", i ? ", " : "",
				ps->v[i].khz, us3(b, sizeof(b), ps->v[i].ns),
				pt ? 100.0 * (double)ps->v[i].ns / (double)pt : 0.0);
		fprintf(f, "], \"remote_from\": {");
		for (size_t i = 0; i < a->remote[c].n; i++)
			fprintf(f, "%s\"%d\": %" PRIu64, i ? ", " : "", a->remote[c].v[i].src, a->remote[c].v[i].periods);
		fprintf(f, "}}%s\n", c + 1 < a->cpus ? "," : "");
	}
	fprintf(f, "  ],\n  \"all\": {");
	json_stats(f, h, -1, &a->all, "  ");
	fprintf(f, ", \"remote_by_sender\": {");
	static const struct senders_syntax json = {
		"", ", ", "%s\"%d\": {\"periods\": %" PRIu64 ", \"to\": {", "%s\"%d\": %" PRIu64,
		"}}",
	};
	write_senders(f, a, &json);
	fputc('}', f);
	if (a->has_switch)
		fprintf(f, "},\n  \"task_periods\": %" PRIu64 ", \"empty_periods\": %" PRIu64, a->task_periods,
			a->empty_periods);
	else
		fprintf(f, "},\n  \"task_periods\": null, \"empty_periods\": null");
	fprintf(f, ",\n  \"irqs\": [");
	for (size_t i = 0; i < a->nirqs; i++) {
		const char *name = ik__trace_irq_name(h, a->irqs[i].irq);
		fprintf(f, "%s{\"irq\": %" PRId64 ", \"name\": ", i ? ", " : "", a->irqs[i].irq);
		if (name)
			ik__json_string(f, name, SIZE_MAX);
		else
			fputs("null", f);
		fprintf(f, ", \"periods\": %" PRIu64 ", \"too_deep\": %" PRIu64 ", \"too_shallow\": %" PRIu64 "}",
			a->irqs[i].periods, a->irqs[i].too_deep, a->irqs[i].too_shallow);
	}
	fprintf(f, "],\n  \"groups_all_idle\": [");
	for (int g = 0; g < a->npackages + a->ncores; g++) {
		const struct ik_trace_group *gr = &a->groups[g];
		fprintf(f, "%s{\"package\": %" PRId32 ", \"core\": ", g ? ", " : "", gr->package);
		if (gr->core < 0)
			fputs("null", f);
		else
			fprintf(f, "%" PRId32, gr->core);
		fprintf(f, ", \"cpus\": %d, \"all_idle_us\": %s}", gr->cpus, us3(b, sizeof(b), gr->all_idle_ns));
	}
	fprintf(f, "],\n  \"histogram\": [");
	for (int i = 0; i < IK_TRACE_HIST_BUCKETS; i++) {
		fprintf(f, "%s{\"lower_us\": %" PRIu64 ", \"upper_us\": ", i ? ", " : "",
			ik__trace_hist_lower_ns(i) / 1000);
		if (i + 1 < IK_TRACE_HIST_BUCKETS)
			fprintf(f, "%" PRIu64, ik__trace_hist_lower_ns(i + 1) / 1000);
		else
			fputs("null", f);
		fprintf(f, ", \"periods\": %" PRIu64 "}", a->hist[i]);
	}
	fprintf(f, "]\n}\n");
	return ik__rep_finish(f);
}

int ik__report_analyze_csv(FILE *f, const struct ik_trace_header *h,
			  const struct ik_trace_analysis *a)
{
	char b[4][32];
	fputs("cluster,core,cpu,C-state,min (us),max (us),avg (us),total (us),hits,over,under\n", f);
	for (int c = 0; c < a->cpus; c++) {
		const struct ik_driver *d = &h->drivers[h->cpu_driver[c]].drv;
		for (int i = 0; i < d->state_count; i++) {
			const struct ik_trace_state_stats *st = &a->cpu[c].states[i];
			bool t = h->topo && h->topo[c].package >= 0;
			fprintf(f, "%d,%d,%d,%s,%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
				t ? (int)h->topo[c].package : 0, t ? (int)h->topo[c].core : c, c,
				d->states[i].name, us3(b[0], 32, st->min_ns), us3(b[1], 32, st->max_ns),
				us3(b[2], 32, st->entries ? st->total_ns / st->entries : 0),
				us3(b[3], 32, st->total_ns), st->entries, st->too_deep, st->too_shallow);
		}
	}
	return ik__rep_finish(f);
}
