/*
 * `idlekit replay`: the what-if of several governors on one trace, as a text table with
 * one column per governor, and as JSON schema "idlekit.replay/2" (docs/replay.md).
 *
 * Each governor's figures come from a run result filled as the simulator fills one
 * (src/trace/replay.c), so the names and definitions are those of an idlekit.sim/1 run
 * object (docs/json-schema.md): the states array, wake_latency_ns, accuracy, energy_j,
 * avg_power_w.  Replay adds its own: the recorded periods, re-entries, wake_pending, the
 * agreement with the recording and the state mapping it is computed through.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "report/report_internal.h"
#include "report/textout.h"
#include "report/trace_replay.h"

#define SCHEMA "idlekit.replay/2"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void jdouble(FILE *f, double v)
{
	char b[IK_FMT_NUM_LEN];
	ik__fmt_double(b, sizeof(b), v);
	fputs(b, f);
}

/* Integer ns as exact us (or ms with scale 6). */
static void jscaled(FILE *f, int64_t v, int scale)
{
	char b[IK_FMT_NUM_LEN];
	ik__fmt_exact(b, sizeof(b), v, scale);
	fputs(b, f);
}

static const char *rec_state_name(const struct ik_trace_header *h, int d, int i)
{
	return h->drivers[d].drv.states[i].name;
}

static void json_mapping(FILE *f, const struct ik_trace_replay_report *r,
			 const struct ik_trace_state_map *m, const char *ind)
{
	fputs("[", f);
	bool first = true;
	for (int d = 0; d < m->ndrivers; d++)
		for (int i = 0; i < m->nstates[d] && i < IK_STATE_MAX; i++) {
			fprintf(f, "%s\n%s  {\"driver\": ", first ? "" : ",", ind);
			first = false;
			ik__json_string(f, r->h->drivers[d].drv.name, IK_NAME_LEN);
			fprintf(f, ", \"recorded\": %d, \"recorded_name\": ", i);
			ik__json_string(f, rec_state_name(r->h, d, i), IK_NAME_LEN);
			if (m->to[d][i] >= 0) {
				fprintf(f, ", \"replayed\": %d, \"replayed_name\": ", m->to[d][i]);
				ik__json_string(f, r->drv->states[m->to[d][i]].name, IK_NAME_LEN);
			} else {
				fputs(", \"replayed\": null, \"replayed_name\": null", f);
			}
			fprintf(f, ", \"by\": \"%s\"}", ik__trace_map_how_name(m->how[d][i]));
		}
	fprintf(f, "\n%s]", ind);
}

static void json_run(FILE *f, const struct ik_trace_replay_report *r, int g)
{
	const struct ik_trace_replay *rp = &r->runs[g];
	const struct ik_run_result *run = &rp->run;
	const struct ik_hist *lat = &run->wake_latency;
	int n = ik__rep_nstates(run);
	struct ik_rep_accuracy a;
	ik__rep_accuracy(run, &a);

	fputs("    {\n      \"governor\": ", f);
	ik__json_string(f, r->governors[g], strlen(r->governors[g]));
	fprintf(f, ", \"cpus\": %d, \"measured_ms\": ", run->ncpus);
	jscaled(f, run->measured_ns, 6);
	fputs(",\n      \"states\": [\n", f);
	for (int i = 0; i < n; i++) {
		const struct ik_state *st = &run->states[i];
		const struct ik_state_counters *c = &run->total[i];
		fprintf(f, "        {\"index\": %d, \"name\": ", i);
		ik__json_string(f, st->name, sizeof(st->name));
		fputs(", \"desc\": ", f);
		ik__json_string(f, st->desc, sizeof(st->desc));
		fprintf(f, ", \"latency_us\": %u, \"residency_us\": %u, \"usage\": %" PRIu64
			   ", \"time_us\": ", st->exit_latency, st->target_residency, c->usage);
		jscaled(f, (int64_t)c->time_ns, 3);
		fprintf(f, ", \"above\": %" PRIu64 ", \"below\": %" PRIu64 ", \"rejected\": %" PRIu64
			   ", \"residency_pct\": ", c->above, c->below, c->rejected);
		jdouble(f, ik__run_residency_pct(run, i));
		fprintf(f, "}%s\n", i + 1 < n ? "," : "");
	}
	fputs("      ],\n      \"per_cpu\": [\n", f);
	for (int cpu = 0; cpu < run->ncpus; cpu++) {
		fprintf(f, "        {\"cpu\": %d, \"wake_pending\": %" PRIu64 ", \"delay_us\": ", cpu,
			rp->cpu[cpu].wake_pending);
		jscaled(f, rp->cpu[cpu].delay_ns, 3);
		fputs(", \"states\": [", f);
		for (int i = 0; i < n; i++) {
			const struct ik_state_counters *c = ik__rep_per_cpu(run, cpu, i);
			fprintf(f, "%s{\"usage\": %" PRIu64 ", \"time_us\": ", i ? ", " : "", c->usage);
			jscaled(f, (int64_t)c->time_ns, 3);
			fprintf(f, ", \"above\": %" PRIu64 ", \"below\": %" PRIu64 ", \"rejected\": %" PRIu64 "}",
				c->above, c->below, c->rejected);
		}
		fprintf(f, "]}%s\n", cpu + 1 < run->ncpus ? "," : "");
	}
	fputs("      ],\n      \"wake_latency_ns\": {", f);
	static const struct { const char *k; double p; } pc[] = {
		{ "p25", 25 }, { "p50", 50 }, { "p75", 75 }, { "p90", 90 }, { "p95", 95 },
		{ "p99", 99 }, { "p99_5", 99.5 }, { "p99_9", 99.9 }, { "p99_95", 99.95 },
		{ "p99_99", 99.99 },
	};
	fprintf(f, "\"count\": %" PRIu64 ", \"min\": %" PRId64, lat->count, lat->count ? lat->min : 0);
	for (size_t i = 0; i < sizeof(pc) / sizeof(pc[0]); i++)
		fprintf(f, ", \"%s\": %" PRId64, pc[i].k, ik__hist_percentile(lat, pc[i].p));
	fprintf(f, ", \"max\": %" PRId64 ", \"mean\": ", lat->count ? lat->max : 0);
	jdouble(f, lat->count ? lat->sum / (double)lat->count : 0.0);
	fprintf(f, "},\n      \"wakeups\": %" PRIu64 ", \"idle_entries\": %" PRIu64
		   ", \"idle_entries_per_cpu_per_s\": ", run->wakeups, run->idle_entries);
	jdouble(f, ik__rep_idle_entries_per_cpu_per_s(run));
	fputs(", \"busy_ms\": ", f);
	jscaled(f, run->busy_ns, 6);
	fputs(", \"idle_ms\": ", f);
	jscaled(f, run->idle_ns, 6);
	fprintf(f, ",\n      \"accuracy\": {\"entries\": %" PRIu64 ", \"too_deep\": %" PRIu64
		   ", \"too_shallow\": %" PRIu64 ", \"right\": %" PRIu64 ", \"too_deep_pct\": ",
		a.entries, a.too_deep, a.too_shallow, a.right);
	jdouble(f, a.too_deep_pct);
	fputs(", \"too_shallow_pct\": ", f);
	jdouble(f, a.too_shallow_pct);
	fputs(", \"right_pct\": ", f);
	jdouble(f, a.right_pct);
	fputs("},\n      \"idle_duration_hist\": [", f);
	for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
		fprintf(f, "%s%" PRIu64, i ? ", " : "", run->idle_hist[i]);
	fputs("],\n      \"energy_j\": ", f);
	if (rp->has_energy) {
		jdouble(f, run->energy_j);
		fputs(", \"avg_power_w\": ", f);
		jdouble(f, ik__run_avg_power_w(run));
		fputs(", \"energy_parts_j\": {\"idle_states\": ", f);
		jdouble(f, rp->state_j);
		fputs(", \"entry_exit\": ", f);
		jdouble(f, rp->entry_exit_j);
		fputs(", \"busy_and_package\": ", f);
		jdouble(f, run->energy_j - rp->state_j - rp->entry_exit_j);
		fputs("}, \"package_j\": ", f);
		jdouble(f, rp->package_j);
		fprintf(f, ", \"packages\": %d, \"package_deep_us\": ", rp->packages);
		jscaled(f, run->package_deep_ns, 3);
		fprintf(f, ",\n      \"package_exits\": %" PRIu64 ", \"package_exit_us\": ",
			rp->package_exits);
		jscaled(f, rp->package_exit_ns, 3);
		fputs(", \"package_exit_mean_us\": ", f);
		jdouble(f, rp->package_exits ? (double)rp->package_exit_ns / 1000.0 /
						     (double)rp->package_exits : 0.0);
		fprintf(f, ", \"package_exits_in_wake_latency\": %" PRIu64
			   ", \"package_exit_in_wake_latency_us\": ", rp->package_exits_woken);
		jscaled(f, rp->package_exit_woken_ns, 3);
	} else {
		fputs("null, \"avg_power_w\": null, \"energy_parts_j\": null, \"package_j\": null, "
		      "\"packages\": null, \"package_deep_us\": null,\n      \"package_exits\": null, "
		      "\"package_exit_us\": null, \"package_exit_mean_us\": null, "
		      "\"package_exits_in_wake_latency\": null, "
		      "\"package_exit_in_wake_latency_us\": null", f);
	}
	fputs(", \"entry_exit_us\": ", f);
	jscaled(f, rp->entry_exit_ns, 3);
	fprintf(f, ",\n      \"periods\": %" PRIu64 ", \"extra_entries\": %" PRIu64
		   ", \"wake_pending\": %" PRIu64 ", \"capped\": %" PRIu64 ",\n",
		rp->periods, rp->extra_entries, rp->wake_pending, rp->capped);
	fprintf(f, "      \"agreement\": {\"compared\": %" PRIu64 ", \"agree\": %" PRIu64
		   ", \"agreement_pct\": ", rp->compared, rp->agree);
	jdouble(f, pct(rp->agree, rp->compared));
	fputs("},\n      \"confusion\": [", f);
	int nrec = ik__trace_max_states(r->h);
	for (int i = 0; i < nrec; i++) {
		fprintf(f, "%s[", i ? ", " : "");
		for (int j = 0; j < n; j++)
			fprintf(f, "%s%" PRIu64, j ? ", " : "", rp->confusion[i][j]);
		fputc(']', f);
	}
	fputs("],\n      \"mapping\": ", f);
	json_mapping(f, r, &rp->map, "      ");
	fprintf(f, "\n    }%s\n", g + 1 < r->nruns ? "," : "");
}

/*
 * The frame of both reports: -1 when r does not hold together, else body written in the
 * "C" locale; 0 if everything reached f.
 */
static int replay_report(FILE *f, const struct ik_trace_replay_report *r,
			 void (*body)(FILE *f, const struct ik_trace_replay_report *r))
{
	if (!f || !r || r->nruns < 1 || !r->runs || !r->governors || !r->h || !r->drv)
		return -1;
	struct ik_rep_locale locale;
	ik__rep_locale_enter(&locale);
	body(f, r);
	return ik__rep_done(f, &locale, 0);
}

static void replay_json(FILE *f, const struct ik_trace_replay_report *r)
{
	const struct ik_trace_replay *r0 = &r->runs[0];
	const struct ik_trace_header *h = r->h;

	fputs("{\n  \"schema\": \"" SCHEMA "\",\n  \"trace\": {\"path\": ", f);
	ik__json_string(f, r->origin, 4096);
	fprintf(f, ", \"format\": \"%d.%d\", \"cpus\": %d, \"hz\": %d, \"periods\": %" PRIu64
		   ", \"skipped\": %" PRIu64 ", \"first_ns\": %" PRId64 ", \"last_ns\": %" PRId64
		   ", \"traced_us\": ",
		h->version, h->minor, h->cpus, h->hz, r0->periods, r0->skipped, r0->first_ns,
		r0->last_ns);
	jscaled(f, r0->last_ns - r0->first_ns, 3);
	fputs(", \"recorded_governor\": ", f);
	if (h->governor[0])
		ik__json_string(f, h->governor, sizeof(h->governor));
	else
		fputs("null", f);
	fputs(", \"drivers\": [", f);
	for (int d = 0; d < h->ndrivers; d++) {
		fprintf(f, "%s{\"name\": ", d ? ", " : "");
		ik__json_string(f, h->drivers[d].drv.name, IK_NAME_LEN);
		fputs(", \"states\": [", f);
		for (int i = 0; i < h->drivers[d].drv.state_count; i++) {
			fputs(i ? ", " : "", f);
			ik__json_string(f, rec_state_name(h, d, i), IK_NAME_LEN);
		}
		fputs("]}", f);
	}
	fputs("]},\n  \"platform\": {\"name\": ", f);
	ik__json_string(f, r->platform, 256);
	fputs(", \"driver\": ", f);
	ik__json_string(f, r->drv->name, IK_NAME_LEN);
	fputs(", \"states\": [", f);
	for (int i = 0; i < r->drv->state_count; i++) {
		fputs(i ? ", " : "", f);
		ik__json_string(f, r->drv->states[i].name, IK_NAME_LEN);
	}
	fprintf(f, "]},\n  \"settings\": {\"loop\": \"%s\", \"hz\": %d, \"seed\": %" PRIu64
		   ", \"compare_recorded\": %s, \"reentry_cap\": %d, \"energy\": ",
		r->closed_loop ? "closed" : "open", r->hz, r->seed, r->compare ? "true" : "false",
		IK_TRACE_REENTRY_CAP);
	if (r0->has_energy)
		ik__json_string(f, "idle states at their power_mw; real entry and exit, busy time and the idle loop at active_power_mw; the package at pkg_active_mw", 4096);
	else
		fputs("null", f);
	fputs(", \"energy_leaves_out\": ", f);
	if (r->package_note)
		ik__json_string(f, r->package_note, 4096);
	else
		fputs("null", f);
	fputs(", \"package_exit\": ", f);
	if (r->package_exit && r0->package_deep_state)
		ik__json_string(f, r->package_exit, 4096);
	else
		fputs("null", f);
	fputs(", \"haltpoll\": ", f);
	if (r->haltpoll_from && r->haltpoll) {
		const struct ik_haltpoll_params *hp = r->haltpoll;
		fputs("{\"from\": ", f);
		ik__json_string(f, r->haltpoll_from, 256);
		fprintf(f, ", \"guest_halt_poll_ns\": %" PRIu64 ", \"guest_halt_poll_grow\": %u"
			   ", \"guest_halt_poll_grow_start\": %" PRIu64 ", \"guest_halt_poll_shrink\": %u"
			   ", \"guest_halt_poll_allow_shrink\": %s}",
			hp->guest_halt_poll_ns, hp->guest_halt_poll_grow, hp->guest_halt_poll_grow_start,
			hp->guest_halt_poll_shrink, hp->guest_halt_poll_allow_shrink ? "true" : "false");
	} else {
		fputs("null", f);
	}
	fputs("},\n  \"runs\": [\n", f);
	for (int g = 0; g < r->nruns; g++)
		json_run(f, r, g);
	fputs("  ]\n}\n", f);
}

int ik__report_replay_json(FILE *f, const struct ik_trace_replay_report *r)
{
	return replay_report(f, r, replay_json);
}

/* ---- Text ---------------------------------------------------------------------------- */

#define LABEL_W 34
#define COL_W 14

static void row_label(FILE *f, const char *label)
{
	fprintf(f, "%-*s", LABEL_W, label);
}

static void row_u64(FILE *f, const struct ik_trace_replay_report *r, const char *label,
		    size_t off)
{
	row_label(f, label);
	for (int g = 0; g < r->nruns; g++)
		fprintf(f, " %*" PRIu64, COL_W, *(const uint64_t *)((const char *)&r->runs[g] + off));
	fputc('\n', f);
}

static void cell_fixed(FILE *f, double v, int decimals)
{
	char b[IK_FMT_NUM_LEN];
	ik__fmt_fixed(b, sizeof(b), v, decimals);
	fprintf(f, " %*s", COL_W, b);
}

static void cell_us(FILE *f, int64_t ns)
{
	char b[IK_FMT_NUM_LEN];
	ik__fmt_scaled(b, sizeof(b), ns, 3, 3);
	fprintf(f, " %*s", COL_W, b);
}

/* A row of each run's joules (a double at offset off), as row_u64 does counts. */
static void row_j(FILE *f, const struct ik_trace_replay_report *r, const char *label, size_t off)
{
	row_label(f, label);
	for (int g = 0; g < r->nruns; g++)
		cell_fixed(f, *(const double *)((const char *)&r->runs[g] + off), 6);
	fputc('\n', f);
}

/* A row of each run's time in us (an int64_t of ns at offset off). */
static void row_us(FILE *f, const struct ik_trace_replay_report *r, const char *label, size_t off)
{
	row_label(f, label);
	for (int g = 0; g < r->nruns; g++)
		cell_us(f, *(const int64_t *)((const char *)&r->runs[g] + off));
	fputc('\n', f);
}

static void replay_text(FILE *f, const struct ik_trace_replay_report *r)
{
	const struct ik_trace_replay *r0 = &r->runs[0];
	char b[64];

	fprintf(f, "replay %s: platform %s, HZ %d, %d CPUs, %s loop, seed %" PRIu64 "\n", r->origin,
		r->platform, r->hz, r->cpus, r->closed_loop ? "closed" : "open", r->seed);
	if (r->haltpoll_from && r->haltpoll) {
		const struct ik_haltpoll_params *hp = r->haltpoll;
		fprintf(f, "haltpoll parameters (%s): guest_halt_poll_ns %" PRIu64 ", grow %u, "
			   "grow_start %" PRIu64 " ns, shrink %u, allow_shrink %s\n", r->haltpoll_from,
			hp->guest_halt_poll_ns, hp->guest_halt_poll_grow, hp->guest_halt_poll_grow_start,
			hp->guest_halt_poll_shrink, hp->guest_halt_poll_allow_shrink ? "yes" : "no");
	}
	ik__fmt_scaled(b, sizeof(b), r0->last_ns - r0->first_ns, 3, 3);
	fprintf(f, "recorded idle periods %" PRIu64 ", traced %s us", r0->periods, b);
	if (r0->skipped)
		fprintf(f, ", %" PRIu64 " bad lines skipped", r0->skipped);
	fputs("\n\n", f);

	/* a kernel: or plugin: governor's label is long (name, file, sha256, parameters): its
	   column shows the name, a line of its own the whole identity */
	for (int g = 0; g < r->nruns; g++)
		if (strchr(r->governors[g], ' '))
			fprintf(f, "governor %s\n", r->governors[g]);
	row_label(f, "governor");
	for (int g = 0; g < r->nruns; g++)
		fprintf(f, " %*.*s", COL_W, (int)strcspn(r->governors[g], " "), r->governors[g]);
	fputc('\n', f);
	row_u64(f, r, "idle entries", offsetof(struct ik_trace_replay, entries));
	row_u64(f, r, "  re-entries (tick/timer/poll)", offsetof(struct ik_trace_replay, extra_entries));
	row_u64(f, r, "  wake pending at entry", offsetof(struct ik_trace_replay, wake_pending));
	row_u64(f, r, "  cut at the re-entry cap", offsetof(struct ik_trace_replay, capped));
	if (r0->has_energy) {
		row_j(f, r, "energy_j", offsetof(struct ik_trace_replay, run.energy_j));
		row_j(f, r, "  of which idle states_j", offsetof(struct ik_trace_replay, state_j));
		row_j(f, r, "  of which entry and exit_j",
		      offsetof(struct ik_trace_replay, entry_exit_j));
		row_j(f, r, "  of which package_j", offsetof(struct ik_trace_replay, package_j));
		row_us(f, r, "package deep_us", offsetof(struct ik_trace_replay, run.package_deep_ns));
		if (r0->package_deep_state) {
			row_u64(f, r, "package exits", offsetof(struct ik_trace_replay, package_exits));
			row_us(f, r, "  package exit time_us",
			       offsetof(struct ik_trace_replay, package_exit_ns));
			row_label(f, "  package exit mean_us");
			for (int g = 0; g < r->nruns; g++) {
				const struct ik_trace_replay *x = &r->runs[g];
				cell_fixed(f, x->package_exits ? (double)x->package_exit_ns / 1000.0 /
									 (double)x->package_exits
							       : 0.0, 3);
			}
			fputc('\n', f);
			row_u64(f, r, "  in wake latency",
				offsetof(struct ik_trace_replay, package_exits_woken));
		}
		row_label(f, "avg_power_w");
		for (int g = 0; g < r->nruns; g++)
			cell_fixed(f, ik__run_avg_power_w(&r->runs[g].run), 4);
		fputc('\n', f);
	}
	static const struct { const char *label; double p; } lp[] = {
		{ "wake latency p50_us", 50 }, { "wake latency p90_us", 90 },
		{ "wake latency p99_us", 99 }, { "wake latency p99_9_us", 99.9 },
	};
	for (size_t i = 0; i < sizeof(lp) / sizeof(lp[0]); i++) {
		row_label(f, lp[i].label);
		for (int g = 0; g < r->nruns; g++)
			cell_us(f, ik__hist_percentile(&r->runs[g].run.wake_latency, lp[i].p));
		fputc('\n', f);
	}
	row_label(f, "wake latency max_us");
	for (int g = 0; g < r->nruns; g++)
		cell_us(f, r->runs[g].run.wake_latency.count ? r->runs[g].run.wake_latency.max : 0);
	fputc('\n', f);
	row_label(f, "wake latency mean_us");
	for (int g = 0; g < r->nruns; g++) {
		const struct ik_hist *l = &r->runs[g].run.wake_latency;
		cell_fixed(f, l->count ? l->sum / (double)l->count / 1000.0 : 0.0, 3);
	}
	fputc('\n', f);
	struct ik_rep_accuracy a[IK_TRACE_REPLAY_MAX_GOVS];
	for (int g = 0; g < r->nruns; g++)
		ik__rep_accuracy(&r->runs[g].run, &a[g]);
	row_label(f, "too_deep_%");
	for (int g = 0; g < r->nruns; g++)
		cell_fixed(f, a[g].too_deep_pct, 2);
	fputc('\n', f);
	row_label(f, "too_shallow_%");
	for (int g = 0; g < r->nruns; g++)
		cell_fixed(f, a[g].too_shallow_pct, 2);
	fputc('\n', f);
	row_label(f, "agreement with the recording_%");
	for (int g = 0; g < r->nruns; g++)
		cell_fixed(f, pct(r->runs[g].agree, r->runs[g].compared), 2);
	fputc('\n', f);
	for (int i = 0; i < r0->nstates; i++) {
		char label[LABEL_W + 16];
		const char *name = r->drv->states[i].name;
		snprintf(label, sizeof(label), "%.16s usage", name);
		row_label(f, label);
		for (int g = 0; g < r->nruns; g++)
			fprintf(f, " %*" PRIu64, COL_W, r->runs[g].all[i].usage);
		fputc('\n', f);
		snprintf(label, sizeof(label), "%.16s time_us", name);
		row_label(f, label);
		for (int g = 0; g < r->nruns; g++)
			cell_us(f, (int64_t)r->runs[g].all[i].time_ns);
		fputc('\n', f);
		snprintf(label, sizeof(label), "%.16s above/below", name);
		row_label(f, label);
		for (int g = 0; g < r->nruns; g++) {
			snprintf(b, sizeof(b), "%" PRIu64 "/%" PRIu64, r->runs[g].all[i].above,
				 r->runs[g].all[i].below);
			fprintf(f, " %*s", COL_W, b);
		}
		fputc('\n', f);
		snprintf(label, sizeof(label), "%.16s residency_%%", name);
		row_label(f, label);
		for (int g = 0; g < r->nruns; g++)
			cell_fixed(f, ik__run_residency_pct(&r->runs[g].run, i), 2);
		fputc('\n', f);
	}
	if (r->package_note)
		fprintf(f, "energy leaves out: %s\n", r->package_note);
	if (r->package_exit && r0->package_deep_state)
		fprintf(f, "package exit: %s\n", r->package_exit);
	if (!r0->has_energy)
		fputs("no energy: the platform 'trace' has no power figures (give --platform NAME)\n", f);

	if (!r->compare)
		return;
	const struct ik_trace_state_map *m = &r0->map;
	fprintf(f, "\nrecorded states mapped onto %s's table%s:\n", r->platform,
		m->identity ? " (the same table)" : "");
	for (int d = 0; d < m->ndrivers; d++)
		for (int i = 0; i < m->nstates[d] && i < IK_STATE_MAX; i++)
			fprintf(f, "  %s %-12s -> %-12s (by %s)\n", r->h->drivers[d].drv.name,
				rec_state_name(r->h, d, i),
				m->to[d][i] >= 0 ? r->drv->states[m->to[d][i]].name : "(none)",
				ik__trace_map_how_name(m->how[d][i]));
	for (int g = 0; g < r->nruns; g++) {
		const struct ik_trace_replay *rp = &r->runs[g];
		fprintf(f, "\nagreement with the recorded state (first entry of each period, state mapped), %s: %.2f %% (%" PRIu64
			   " of %" PRIu64 " periods)\n",
			r->governors[g], pct(rp->agree, rp->compared), rp->agree, rp->compared);
		fprintf(f, "confusion (periods; rows: recorded state, columns: chosen state)\n%-15s", "recorded\\chosen");
		for (int j = 0; j < r->drv->state_count; j++)
			fprintf(f, " %12s", r->drv->states[j].name);
		fputc('\n', f);
		int nrec = ik__trace_max_states(r->h);
		for (int i = 0; i < nrec; i++) {
			if (r->h->ndrivers == 1)
				fprintf(f, "%-15s", rec_state_name(r->h, 0, i));
			else
				fprintf(f, "state%-10d", i);
			for (int j = 0; j < r->drv->state_count; j++)
				fprintf(f, " %12" PRIu64, rp->confusion[i][j]);
			fputc('\n', f);
		}
	}
}

int ik__report_replay_text(FILE *f, const struct ik_trace_replay_report *r)
{
	return replay_report(f, r, replay_text);
}
