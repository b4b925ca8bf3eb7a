/*
 * idlekit validate: the table and the JSON (schema idlekit.validate/1, docs/validation.md).
 *
 * The table: what ran on each side, then one line per figure: its median measured and
 * predicted across the runs with each side's range, and the error.  The JSON holds the same
 * with every run's value, the machine's settings (kernel, driver, governor, their module
 * parameters), the tools, the platform's text, and the prediction as `idlekit sim --json`
 * records it (its scenario, every key with its origin).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "idlekit/kernel.h"
#include "report/textout.h"
#include "trace/analyze.h"
#include "validate/validate.h"
#include "util/names.h"

const char *ik__val_kind_name(enum ik_val_kind k)
{
	static const char *const names[] = {
		[IK_VAL_RTAPP] = "rtapp",     [IK_VAL_PINGPONG] = "pingpong",
		[IK_VAL_PERIODIC] = "periodic", [IK_VAL_COMMAND] = "command",
		[IK_VAL_CYCLICTEST] = "cyclictest", [IK_VAL_TBENCH] = "tbench",
	};
	return ik__name_of(names, IK_VAL_TBENCH + 1, (int)k, "?");
}

/* What the real side ran, in words. */
static void real_side(const struct ik_val_spec *s, char *buf, size_t len)
{
	switch (s->kind) {
	case IK_VAL_RTAPP:
		snprintf(buf, len, "rt-app %.900s", s->rtapp_file);
		break;
	case IK_VAL_PERIODIC: {
		char cpus[32];
		if (s->tasks > 1)
			snprintf(cpus, sizeof(cpus), "CPUs 0-%d", s->tasks - 1);
		else
			snprintf(cpus, sizeof(cpus), "CPU 0");
		snprintf(buf, len, "rt-app, %d task%s on %s, each a runtime of %g%% of a %" PRId64
			 " us timer period", s->tasks, s->tasks > 1 ? "s" : "", cpus, s->duty_pct,
			 s->period_us);
		break;
	}
	case IK_VAL_PINGPONG:
		snprintf(buf, len, "the pipe ping-pong of idlekit ctxsw, CPUs %d and %d", s->cpu_a,
			 s->cpu_b);
		break;
	case IK_VAL_CYCLICTEST:
		snprintf(buf, len, "cyclictest, %d thread%s on CPU%s 0%s, each woken every %" PRId64
			 " us (SCHED_OTHER, the machine untuned)", s->tasks, s->tasks > 1 ? "s" : "",
			 s->tasks > 1 ? "s" : "", s->tasks > 1 ? "-..." : "", s->period_us);
		break;
	case IK_VAL_TBENCH:
		snprintf(buf, len, "tbench_srv and one tbench client over loopback TCP (dbench), "
			 "placed by the scheduler; modelled as a ping-pong of 2 messages per operation");
		break;
	case IK_VAL_COMMAND: {
		size_t n = 0;
		buf[0] = '\0';
		for (int i = 0; s->command && s->command[i] && n + 1 < len; i++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", s->command[i]);
		if (n + 1 < len)
			snprintf(buf + n, len - n, " (model: the workload learned from a traced run)");
		break;
	}
	}
}

static void num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

static void range(char *buf, size_t len, const struct ik_summary *s)
{
	char a[24], b[24];
	if (s->n == 0) {
		snprintf(buf, len, "-");
		return;
	}
	num(a, sizeof(a), s->min);
	num(b, sizeof(b), s->max);
	snprintf(buf, len, "%s..%s", a, b);
}

int ik__val_table(FILE *out, const struct ik_val_report *r)
{
	const struct ik_val_spec *s = r->spec;
	const struct ik_val_machine *m = r->machine;
	const struct ik_val_comparison *c = r->cmp;
	char buf[1024];

	real_side(s, buf, sizeof(buf));
	fprintf(out, "workload   %s: %s\n", ik__val_kind_name(s->kind), buf);
	fprintf(out, "window     %.3f s from the workload's start, %d run%s each side; figures are "
		"medians\n", (double)s->duration_ns / 1e9, s->runs, s->runs > 1 ? "s" : "");
	fprintf(out, "machine    kernel %s, cpuidle driver %s, governor %s, %d CPUs online\n",
		m->kernel, m->driver, m->governor, m->ncpus_online);
	if (m->nparams) {
		fprintf(out, "           ");
		for (int i = 0; i < m->nparams; i++)
			fprintf(out, "%s%s=%s", i ? " " : "", m->param_name[i], m->param_value[i]);
		fprintf(out, "\n");
	}
	if (m->loadavg_before >= 0)
		fprintf(out, "           load average %.2f before the real runs, %.2f after%s\n",
			m->loadavg_before, m->loadavg_after,
			m->loadavg_after > 0.5 || m->loadavg_before > 0.5
				? " (other work shared the CPUs: the measurement holds it)"
				: "");
	ik__workload_describe(&r->sc->workload, true, buf, sizeof(buf));
	char rel[16];
	ik_kernel_release_name(r->sc->kernel.release, rel, sizeof(rel));
	fprintf(out, "model      platform %s (%s), driver %s, governor %s, kernel %s, HZ %d\n",
		r->sc->platform.name, s->platform_origin, r->sc->driver, r->sc->governor, rel,
		r->sc->hz);
	fprintf(out, "           workload %s\n", buf);
	if (strcmp(r->sc->governor, m->governor) != 0)
		fprintf(out, "note       the model runs governor %s, the machine %s (--set "
			"cpuidle.governor=%s runs the machine's)\n", r->sc->governor, m->governor,
			m->governor);
	if (m->changed[0])
		fprintf(out, "warning    %s\n", m->changed);
	for (int i = 0; i < c->nnotes; i++)
		fprintf(out, "note       %s\n", c->notes[i]);
	fprintf(out, "\n%-34s %-4s %12s %21s %12s %21s %9s\n", "figure", "unit", "measured",
		"measured range", "predicted", "predicted range", "error_%");
	int zero = 0;
	for (int i = 0; i < c->nfig; i++) {
		const struct ik_val_figure *f = &c->fig[i];
		char mv[32], pv[32], mr[80], pr[80], e[32];
		if (f->ms.n && f->ps.n && f->ms.min == 0 && f->ms.max == 0 && f->ps.min == 0 &&
		    f->ps.max == 0) {
			zero++; /* a state neither side entered: a line of zeros says nothing */
			continue;
		}
		num(mv, sizeof(mv), f->ms.n ? f->ms.median : NAN);
		num(pv, sizeof(pv), f->ps.n ? f->ps.median : NAN);
		range(mr, sizeof(mr), &f->ms);
		range(pr, sizeof(pr), &f->ps);
		if (isnan(f->error_pct))
			snprintf(e, sizeof(e), "-");
		else
			snprintf(e, sizeof(e), "%+.1f", f->error_pct);
		fprintf(out, "%-34s %-4s %12s %21s %12s %21s %9s\n", f->name, f->unit, mv, mr, pv, pr, e);
	}
	if (zero)
		fprintf(out, "(%d figure%s 0 in every run on both sides not shown; --json has them)\n",
			zero, zero > 1 ? "s" : "");
	return ferror(out) ? -1 : 0;
}

/* ---- JSON -------------------------------------------------------------------------------- */

static void jnum(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else
		fprintf(out, "%.6g", v);
}

static void jside(FILE *out, const struct ik_summary *s, const double *v, int n)
{
	fputs("{\"median\": ", out);
	jnum(out, s->n ? s->median : NAN);
	fputs(", \"min\": ", out);
	jnum(out, s->n ? s->min : NAN);
	fputs(", \"max\": ", out);
	jnum(out, s->n ? s->max : NAN);
	fputs(", \"cov_pct\": ", out);
	jnum(out, s->n > 1 ? s->cov_pct : NAN);
	fputs(", \"runs\": [", out);
	for (int i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		jnum(out, v[i]);
	}
	fputs("]}", out);
}

static void jkey(FILE *out, const char *key, const char *value, bool comma)
{
	ik__json_string(out, key, SIZE_MAX);
	fputs(": ", out);
	ik__json_string(out, value, SIZE_MAX);
	if (comma)
		fputs(", ", out);
}

static void jhist(FILE *out, bool have, const uint64_t *h)
{
	if (!have) {
		fputs("null", out);
		return;
	}
	fputc('[', out);
	for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
		fprintf(out, "%s%" PRIu64, i ? ", " : "", h[i]);
	fputc(']', out);
}

int ik__val_json(FILE *out, const struct ik_val_report *r)
{
	const struct ik_val_spec *s = r->spec;
	const struct ik_val_machine *m = r->machine;
	const struct ik_val_comparison *c = r->cmp;
	char buf[1024];

	fputs("{\n  \"schema\": \"idlekit.validate/1\",\n  ", out);
	jkey(out, "idlekit", ik__version(), true);
	jkey(out, "command", r->command ? r->command : "", false);
	fputs(",\n  \"workload\": {", out);
	jkey(out, "kind", ik__val_kind_name(s->kind), true);
	real_side(s, buf, sizeof(buf));
	jkey(out, "real", buf, true);
	if (s->kind == IK_VAL_RTAPP || s->kind == IK_VAL_PERIODIC)
		jkey(out, "rtapp_file", s->rtapp_file, true);
	if (s->kind == IK_VAL_COMMAND) {
		fputs("\"argv\": [", out);
		for (int i = 0; s->command && s->command[i]; i++) {
			if (i)
				fputs(", ", out);
			ik__json_string(out, s->command[i], SIZE_MAX);
		}
		fprintf(out, "], \"limit_s\": %.9g, ", (double)s->limit_ns / 1e9);
	}
	if (s->kind == IK_VAL_PERIODIC)
		fprintf(out, "\"tasks\": %d, \"period_us\": %" PRId64 ", \"duty_pct\": %g, ", s->tasks,
			s->period_us, s->duty_pct);
	if (s->kind == IK_VAL_CYCLICTEST)
		fprintf(out, "\"tasks\": %d, \"period_us\": %" PRId64 ", \"model_work_ns\": %" PRId64
			", ", s->tasks, s->period_us, s->pingpong_work_ns);
	if (s->kind == IK_VAL_PINGPONG)
		fprintf(out, "\"cpus\": [%d, %d], \"model_work_ns\": %" PRId64 ", ", s->cpu_a, s->cpu_b,
			s->pingpong_work_ns);
	if (s->kind == IK_VAL_TBENCH)
		fprintf(out, "\"clients\": 1, \"model_work_ns\": %" PRId64 ", ", s->pingpong_work_ns);
	fprintf(out, "\"duration_s\": %.9g, \"runs\": %d},\n", (double)s->duration_ns / 1e9, s->runs);
	fputs("  \"machine\": {", out);
	jkey(out, "kernel", m->kernel, true);
	jkey(out, "driver", m->driver, true);
	jkey(out, "governor", m->governor, true);
	fputs("\"loadavg_before\": ", out);
	jnum(out, m->loadavg_before >= 0 ? m->loadavg_before : NAN);
	fputs(", \"loadavg_after\": ", out);
	jnum(out, m->loadavg_after >= 0 ? m->loadavg_after : NAN);
	fputs(", \"changed_during_runs\": ", out);
	if (m->changed[0])
		ik__json_string(out, m->changed, SIZE_MAX);
	else
		fputs("null", out);
	fprintf(out, ", \"cpus_online\": %d, \"parameters\": {", m->ncpus_online);
	for (int i = 0; i < m->nparams; i++)
		jkey(out, m->param_name[i], m->param_value[i], i + 1 < m->nparams);
	fputs("}},\n  \"tools\": {", out);
	jkey(out, "rt-app", s->kind == IK_VAL_RTAPP || s->kind == IK_VAL_PERIODIC ? m->rtapp_version : "",
	     false);
	fputs("},\n  \"platform\": {", out);
	jkey(out, "name", r->sc->platform.name, true);
	jkey(out, "origin", s->platform_origin, true);
	jkey(out, "text", s->platform_text, false);
	fputs("},\n  \"notes\": [", out);
	for (int i = 0; i < c->nnotes; i++) {
		if (i)
			fputs(", ", out);
		ik__json_string(out, c->notes[i], SIZE_MAX);
	}
	fputs("],\n  \"figures\": [\n", out);
	for (int i = 0; i < c->nfig; i++) {
		const struct ik_val_figure *f = &c->fig[i];
		fputs("    {", out);
		jkey(out, "name", f->name, true);
		jkey(out, "group", f->group, true);
		jkey(out, "unit", f->unit, true);
		fprintf(out, "\"cpu\": %d, \"state\": %d, \"measured\": ", f->cpu, f->state);
		jside(out, &f->ms, f->measured, f->nm);
		fputs(", \"predicted\": ", out);
		jside(out, &f->ps, f->predicted, f->np);
		fputs(", \"error_pct\": ", out);
		jnum(out, f->error_pct);
		fprintf(out, "}%s\n", i + 1 < c->nfig ? "," : "");
	}
	fputs("  ],\n  \"idle_hist\": {\"lower_ns\": [", out);
	for (int i = 0; i < IK_IDLE_HIST_BUCKETS; i++)
		fprintf(out, "%s%" PRIu64, i ? ", " : "", ik__trace_hist_lower_ns(i));
	fputs("], \"measured\": ", out);
	jhist(out, c->have_measured_hist, c->measured_hist);
	fputs(", \"predicted\": ", out);
	jhist(out, c->have_predicted_hist, c->predicted_hist);
	fputs("},\n  \"prediction\": ", out);

	/* the prediction as sim's JSON records it: its scenario and every key's origin */
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return -1;
	bool bad = ik__report_json(mem, r->sc, r->runs, s->runs) != 0;
	if (fclose(mem) != 0)
		bad = true;
	if (bad) {
		free(text);
		return -1;
	}
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = '\0';
	fputs(text, out);
	free(text);
	fputs("\n}\n", out);
	return ferror(out) ? -1 : 0;
}
