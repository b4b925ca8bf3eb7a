/*
 * idlekit validate --html: the page.  The figure table (measured, predicted, error), then
 * the idle periods by length: the model's histogram and the machine's, from one more real
 * run traced by idlekit's recorder (traced.c).  Without a trace (no tracefs, not root) the
 * machine's side is its mean idle period per CPU and state (time / entries from the
 * counters), marked on the same axis, and the page says so.
 * The page style is the sim report's (report/html_internal.h, svg.h).
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/html_internal.h"
#include "report/svg.h"
#include "trace/analyze.h"
#include "validate/validate.h"

static void figure_table(FILE *out, const struct ik_val_comparison *c)
{
	fputs("<h2>Figures</h2>\n<table>\n", out);
	static const char *const head[] = { "figure", "unit", "measured", "min", "max",
					    "predicted", "min", "max", "error %" };
	ik__html_head_row(out, head, sizeof(head) / sizeof(head[0]));
	for (int i = 0; i < c->nfig; i++) {
		const struct ik_val_figure *f = &c->fig[i];
		fputs("<tr>", out);
		ik__html_td_text(out, f->name, sizeof(f->name));
		ik__html_td_text(out, f->unit, strlen(f->unit));
		const struct ik_summary *s[2] = { &f->ms, &f->ps };
		for (int k = 0; k < 2; k++) {
			if (s[k]->n == 0) {
				for (int j = 0; j < 3; j++)
					ik__html_td_text(out, "-", 1);
				continue;
			}
			ik__html_td_fixed(out, s[k]->median, 2);
			ik__html_td_fixed(out, s[k]->min, 2);
			ik__html_td_fixed(out, s[k]->max, 2);
		}
		if (isnan(f->error_pct))
			ik__html_td_text(out, "-", 1);
		else
			ik__html_td_fixed(out, f->error_pct, 1);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

/* The median of figure NAME's measured side, NaN when there is none. */
static double measured(const struct ik_val_comparison *c, const char *name)
{
	for (int i = 0; i < c->nfig; i++)
		if (strcmp(c->fig[i].name, name) == 0 && c->fig[i].ms.n)
			return c->fig[i].ms.median;
	return NAN;
}

static void durations(FILE *out, const struct ik_val_comparison *c)
{
	fputs("<h2>Idle periods by length</h2>\n", out);
	int first = IK_IDLE_HIST_BUCKETS, last = -1;
	if (c->have_predicted_hist)
		ik__html_idle_span(c->predicted_hist, &first, &last);
	if (c->have_measured_hist)
		ik__html_idle_span(c->measured_hist, &first, &last);
	/* the machine's mean idle period per CPU and state: time / entries */
	double means[256];
	char labels[256][64];
	int nmeans = 0;
	for (int cpu = 0; !c->have_measured_hist && cpu < 256 && nmeans < 256; cpu++)
		for (int st = 0; st < c->nstates && nmeans < 256; st++) {
			char name[128];
			snprintf(name, sizeof(name), "cpu%d %s entries/s", cpu, c->state_names[st]);
			double e = measured(c, name);
			snprintf(name, sizeof(name), "cpu%d %s residency", cpu, c->state_names[st]);
			double r = measured(c, name);
			if (isnan(e) || isnan(r) || e <= 0)
				continue;
			/* residency % of one second over entries per second: us per entry */
			means[nmeans] = r / 100.0 * 1e6 / e;
			snprintf(labels[nmeans], sizeof(labels[0]), "cpu%d %s", cpu, c->state_names[st]);
			int b = ik__trace_hist_bucket((uint64_t)(means[nmeans] * 1000.0));
			first = b < first ? b : first;
			last = b > last ? b : last;
			nmeans++;
		}
	if (last < 0) {
		ik__html_note(out, "No idle periods on either side.");
		return;
	}
	double edges[IK_IDLE_HIST_BUCKETS + 1];
	struct ik_svg p;
	struct ik_svg_axis x;
	ik__html_idle_axis(&x, edges, first, last);
	double ymax = fmax(c->have_predicted_hist ? ik__html_idle_share_max(c->predicted_hist) : 0,
			   c->have_measured_hist ? ik__html_idle_share_max(c->measured_hist) : 0);
	struct ik_svg_axis y = { .min = 0, .max = ymax > 0 ? ymax * 1.1 : 1,
				 .label = "share of idle periods (%)" };
	ik__svg_begin(&p, out, IK_HTML_PLOT_W, IK_HTML_PLOT_H,
		     "Idle periods by length: measured and predicted", &x, &y);
	const char *names[3];
	const char *colors[3];
	int n = 0;
	if (c->have_predicted_hist) {
		ik__html_idle_share_line(&p, c->predicted_hist, edges, first, last, ik__svg_color(1), "predicted");
		names[n] = "predicted (all CPUs, all runs)";
		colors[n++] = ik__svg_color(1);
	}
	if (c->have_measured_hist) {
		ik__html_idle_share_line(&p, c->measured_hist, edges, first, last, ik__svg_color(0), "measured");
		names[n] = "measured (all CPUs, all runs)";
		colors[n++] = ik__svg_color(0);
	}
	for (int i = 0; i < nmeans; i++) {
		char label[96];
		snprintf(label, sizeof(label), "measured mean %s", labels[i]);
		ik__svg_vmarker(&p, means[i], label, ik__svg_color(0));
	}
	if (nmeans) {
		names[n] = "measured mean per CPU and state";
		colors[n++] = ik__svg_color(0);
	}
	ik__svg_axes(&p);
	ik__svg_legend(&p, n, names, colors);
	ik__svg_end(&p);
	if (c->have_measured_hist && ik__html_idle_share_max(c->measured_hist) == 0)
		ik__html_note(out, "The machine's trace holds no complete idle period (events lost, "
			     "or none ended inside it): no measured line.");
	if (!c->have_measured_hist)
		ik__html_note(out, "No trace of the machine (see the notes above): its side comes from "
			     "the sysfs counters only, which give each state's entries and time, so its "
			     "mean idle period per CPU and state (the marks), not the distribution.");
	ik__html_note(out, "The model's idle periods (governor entry to exit, every CPU, every run) "
		     "in power-of-two buckets of microseconds, as a share of its periods.");
}

int ik__val_html(FILE *out, const struct ik_val_report *r)
{
	char title[256], buf[1024];
	snprintf(title, sizeof(title), "idlekit validate: %s, measured and predicted",
		 ik__val_kind_name(r->spec->kind));
	ik__html_begin(out, title);
	fputs("<h2>Settings</h2>\n<table>\n", out);
	ik__html_setting(out, "machine kernel", r->machine->kernel, sizeof(r->machine->kernel));
	snprintf(buf, sizeof(buf), "%s, governor %s", r->machine->driver, r->machine->governor);
	ik__html_setting(out, "machine cpuidle", buf, sizeof(buf));
	for (int i = 0; i < r->machine->nparams; i++)
		ik__html_setting(out, r->machine->param_name[i], r->machine->param_value[i],
				sizeof(r->machine->param_value[0]));
	snprintf(buf, sizeof(buf), "%s (%.600s), driver %s, governor %.200s", r->sc->platform.name,
		 r->spec->platform_origin, r->sc->driver, r->sc->governor);
	ik__html_setting(out, "model", buf, sizeof(buf));
	ik__workload_describe(&r->sc->workload, false, buf, sizeof(buf));
	ik__html_setting(out, "model workload", buf, sizeof(buf));
	snprintf(buf, sizeof(buf), "%.3f s, %d runs each side (figures: medians)",
		 (double)r->spec->duration_ns / 1e9, r->spec->runs);
	ik__html_setting(out, "window", buf, sizeof(buf));
	if (r->command)
		ik__html_setting(out, "command", r->command, strlen(r->command));
	fputs("</table>\n", out);
	if (r->machine->changed[0])
		ik__html_note(out, "Warning: %s.", r->machine->changed);
	for (int i = 0; i < r->cmp->nnotes; i++)
		ik__html_note(out, "%s", r->cmp->notes[i]);
	figure_table(out, r->cmp);
	durations(out, r->cmp);
	ik__html_end(out);
	return ferror(out) ? -1 : 0;
}
