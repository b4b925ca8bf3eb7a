/*
 * idlekit monitor: what the idle states did per interval, or around a command, like
 * `cpupower monitor` (Idle_Stats) and turbostat's C1+/C1- columns: per state the change in
 * usage, time, above and below, the residency (time / interval) and the mis-prediction
 * rate (above + below) / usage.
 *
 * The kernel updates a state's counters when a CPU leaves it, so a CPU that stayed in one
 * state for the whole interval shows little until it wakes (cpupower notes the same).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/textout.h"
#include "cli/cli.h"
#include "cli/host_cli.h"

static const char monitor_usage[] =
	"usage: idlekit monitor [OPTIONS] [-- COMMAND [ARG...]]\n"
	"\n"
	"Report, per interval or around COMMAND, per idle state: the change in usage, time\n"
	"(us), above and below, the residency (% of the interval spent in the state) and the\n"
	"mis-prediction rate miss_% = (above + below) / usage.  CPUs with the same idle-state\n"
	"table are summed together (--per-cpu: one row per CPU and state).  With no cpuidle\n"
	"driver it says so and reports each CPU's idle time from /proc/stat instead.\n"
	"\n"
	"Options:\n"
	"  -i, --interval S         seconds between reports (default 1; 0.5 allowed); not with\n"
	"                           a COMMAND, which gets one report for its whole run\n"
	"  -n, --count N            stop after N reports (default: until interrupted)\n"
	"  --cpu LIST               only these CPUs (default: all online)\n"
	"  --per-cpu                a row per CPU and state (JSON: each group's per_cpu list)\n"
	"  --json                   one JSON object per report, one per line (docs/host.md)\n"
	"  --csv                    CSV, a row per report, CPU and state\n"
	HOST_SOURCE_HELP
	"  -h, --help               this text\n"
	"\n"
	"Examples:\n"
	"  idlekit monitor                          every second until Ctrl-C\n"
	"  idlekit monitor -- make -j8              one report for the build's whole run\n"
	"  idlekit monitor -i 0.5 -n 10 --cpu 0-3 --per-cpu --json\n";


struct monitor {
	const struct ik_sysfs *fs;
	struct ik_host_idle idle;    /* current counters */
	struct ik_host_cpu *before;  /* counters at the start of the report */
	int *group_of;
	enum host_format format;
	bool per_cpu;
	int report;
	bool csv_header_done;
	/* /proc/stat mode: per CPU idle and total ticks at the start */
	bool proc_mode;
	char proc_stat[4200];
	uint64_t *idle_ticks, *total_ticks;
};

static uint64_t delta(uint64_t after, uint64_t before)
{
	return after >= before ? after - before : 0; /* a reset counter (driver reloaded) */
}

struct figures {
	uint64_t usage, time_us, above, below;
	bool have_above, have_below;
};

static void add_figures(struct figures *f, const struct ik_host_state *now,
			const struct ik_host_state *then)
{
	f->usage += delta(now->usage, then->usage);
	f->time_us += delta(now->time_us, then->time_us);
	f->above += delta(now->above, then->above);
	f->below += delta(now->below, then->below);
	f->have_above = now->have & IK_HAVE_ABOVE;
	f->have_below = now->have & IK_HAVE_BELOW;
}

/* residency % over ncpus * elapsed; miss % over usage (negative: not defined). */
static double residency_pct(const struct figures *f, int ncpus, int64_t elapsed_ns)
{
	double span_us = (double)elapsed_ns / 1000.0 * ncpus;
	return span_us > 0 ? 100.0 * (double)f->time_us / span_us : 0;
}

static double miss_pct(const struct figures *f)
{
	if (!f->usage || !f->have_above || !f->have_below)
		return -1;
	return 100.0 * (double)(f->above + f->below) / (double)f->usage;
}

/* ---- /proc/stat, for machines without cpuidle ---------------------------------------- */

static int read_proc_stat(struct monitor *m, uint64_t *idle_ticks, uint64_t *total_ticks)
{
	FILE *f = fopen(m->proc_stat, "r");
	if (!f)
		return -1;
	char line[1024];
	for (int i = 0; i < m->idle.ncpus; i++)
		idle_ticks[i] = total_ticks[i] = 0;
	while (fgets(line, sizeof(line), f)) {
		int cpu;
		unsigned long long v[10] = { 0 };
		if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9')
			continue;
		int n = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			       &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n < 5)
			continue;
		for (int i = 0; i < m->idle.ncpus; i++) {
			if (m->idle.cpus[i].cpu != cpu)
				continue;
			idle_ticks[i] = v[3] + v[4]; /* idle + iowait */
			for (int k = 0; k < 8; k++)
				total_ticks[i] += v[k];
		}
	}
	fclose(f);
	return 0;
}

static void report_proc(struct monitor *m, int64_t elapsed_ns, FILE *out)
{
	uint64_t *idle_now = calloc((size_t)m->idle.ncpus + 1, sizeof(uint64_t));
	uint64_t *total_now = calloc((size_t)m->idle.ncpus + 1, sizeof(uint64_t));
	bool ok = idle_now && total_now && m->idle_ticks &&
		  read_proc_stat(m, idle_now, total_now) == 0;
	double secs = (double)elapsed_ns / 1e9;

	m->report++;
	if (m->format == HOST_FMT_JSON) {
		fprintf(out, "{\"schema\": \"idlekit.monitor/1\", \"report\": %d, \"elapsed_s\": %.6f, "
			"\"driver\": ", m->report, secs);
		ik__json_string(out, m->idle.driver, SIZE_MAX);
		fputs(", \"idle_source\": ", out);
		if (ok)
			ik__json_string(out, m->proc_stat, SIZE_MAX);
		else
			fputs("null", out);
		fputs(", \"cpus\": [", out);
	} else if (m->format == HOST_FMT_CSV) {
		if (!m->csv_header_done)
			fputs("report,elapsed_s,cpu,idle_pct\n", out);
		m->csv_header_done = true;
	} else {
		fprintf(out, "%sreport %d: %.3f s; no cpuidle driver (driver '%s'): no idle-state "
			"counters.\n", m->report > 1 ? "\n" : "", m->report, secs, m->idle.driver);
		if (ok)
			fprintf(out, "Idle time per CPU from %s:\ncpu  idle_%%\n", m->proc_stat);
		else
			fprintf(out, "No %s to measure idle time from.\n", m->proc_stat);
	}
	int shown = 0;
	for (int i = 0; ok && i < m->idle.ncpus; i++) {
		if (!m->idle.cpus[i].online)
			continue;
		uint64_t total = delta(total_now[i], m->total_ticks[i]);
		double pct = total ? 100.0 * (double)delta(idle_now[i], m->idle_ticks[i]) / (double)total
				   : 0;
		if (m->format == HOST_FMT_JSON)
			fprintf(out, "%s{\"cpu\": %d, \"idle_pct\": %.2f}", shown ? ", " : "",
				m->idle.cpus[i].cpu, pct);
		else if (m->format == HOST_FMT_CSV)
			fprintf(out, "%d,%.6f,%d,%.2f\n", m->report, secs, m->idle.cpus[i].cpu, pct);
		else
			fprintf(out, "%-4d %6.2f\n", m->idle.cpus[i].cpu, pct);
		shown++;
	}
	if (m->format == HOST_FMT_JSON)
		fputs("]}\n", out);
	if (ok) {
		memcpy(m->idle_ticks, idle_now, (size_t)m->idle.ncpus * sizeof(uint64_t));
		memcpy(m->total_ticks, total_now, (size_t)m->idle.ncpus * sizeof(uint64_t));
	}
	free(idle_now);
	free(total_now);
	fflush(out);
}

/* ---- cpuidle counters ------------------------------------------------------------------- */

static void fmt_pct(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v);
}

static void json_pct(FILE *out, const char *key, double v)
{
	if (v < 0)
		fprintf(out, "\"%s\": null", key);
	else
		fprintf(out, "\"%s\": %.4f", key, v);
}

static void json_state(FILE *out, int k, const char *name, const struct figures *f, double res,
		       bool first)
{
	fprintf(out, "%s{\"index\": %d, \"name\": ", first ? "" : ", ", k);
	ik__json_string(out, name, SIZE_MAX);
	fprintf(out, ", \"usage\": %" PRIu64 ", \"time_us\": %" PRIu64 ", ", f->usage, f->time_us);
	json_pct(out, "residency_pct", res);
	fputs(", ", out);
	if (f->have_above)
		fprintf(out, "\"above\": %" PRIu64 ", ", f->above);
	else
		fputs("\"above\": null, ", out);
	if (f->have_below)
		fprintf(out, "\"below\": %" PRIu64 ", ", f->below);
	else
		fputs("\"below\": null, ", out);
	json_pct(out, "miss_pct", miss_pct(f));
	fputs("}", out);
}

static void report_idle(struct monitor *m, int64_t elapsed_ns, FILE *out)
{
	static const char *const headers[] = { "cpu", "state", "name", "usage", "time_us",
					       "residency_%", "above", "below", "miss_%" };
	const struct ik_host_idle *idle = &m->idle;
	double secs = (double)elapsed_ns / 1e9;
	char list[4096];

	m->report++;
	if (m->format == HOST_FMT_CSV && !m->csv_header_done) {
		fputs("report,elapsed_s,cpu,state,name,usage,time_us,residency_pct,above,below,"
		      "miss_pct\n", out);
		m->csv_header_done = true;
	}
	if (m->format == HOST_FMT_JSON) {
		fprintf(out, "{\"schema\": \"idlekit.monitor/1\", \"report\": %d, \"elapsed_s\": %.6f, "
			"\"driver\": ", m->report, secs);
		ik__json_string(out, idle->driver, SIZE_MAX);
		fputs(", \"governor\": ", out);
		ik__json_string(out, idle->governor, SIZE_MAX);
		fputs(", \"groups\": [", out);
	}
	if (m->format == HOST_FMT_TEXT)
		fprintf(out, "%sreport %d: %.3f s, driver %s, governor %s\n", m->report > 1 ? "\n" : "",
			m->report, secs, idle->driver, idle->governor[0] ? idle->governor : "-");

	/* Groups (CPUs with one table): sums, for the text and the JSON. */
	int ngroup = 0;
	for (int lead = 0; lead < idle->ncpus; lead++) {
		if (m->group_of[lead] != lead)
			continue;
		const struct ik_host_cpu *c = &idle->cpus[lead];
		struct ik_cpuset members;
		int n = 0;
		ik__cpuset_clear(&members);
		for (int i = lead; i < idle->ncpus; i++)
			if (m->group_of[i] == lead) {
				ik__cpuset_add(&members, idle->cpus[i].cpu);
				n++;
			}
		ik__cpuset_format(&members, list, sizeof(list));
		struct host_table t;
		if (m->format == HOST_FMT_TEXT) {
			fprintf(out, "CPU%s %s%s\n", n > 1 ? "s" : "", list,
				n > 1 && !m->per_cpu ? " (summed)" : "");
			host_table_init(&t, 9, headers, "rrlrrrrrr");
		}
		if (m->format == HOST_FMT_JSON)
			fprintf(out, "%s{\"cpus\": \"%s\", \"states\": [", ngroup ? ", " : "", list);
		double in_states = 0;
		for (int k = 0; k < c->nstates; k++) {
			struct figures sum = { 0 };
			for (int i = lead; i < idle->ncpus; i++) {
				if (m->group_of[i] != lead)
					continue;
				add_figures(&sum, &idle->cpus[i].states[k], &m->before[i].states[k]);
			}
			double res = residency_pct(&sum, n, elapsed_ns);
			in_states += res;
			if (m->format == HOST_FMT_JSON)
				json_state(out, k, c->states[k].name, &sum, res, k == 0);
			if (m->format == HOST_FMT_TEXT && !m->per_cpu) {
				char st[16], u[32], tm[32], r[32], a[32], b[32], ms[32];
				snprintf(st, sizeof(st), "%d", k);
				snprintf(u, sizeof(u), "%" PRIu64, sum.usage);
				snprintf(tm, sizeof(tm), "%" PRIu64, sum.time_us);
				fmt_pct(r, sizeof(r), res);
				snprintf(a, sizeof(a), sum.have_above ? "%" PRIu64 : "-", sum.above);
				snprintf(b, sizeof(b), sum.have_below ? "%" PRIu64 : "-", sum.below);
				fmt_pct(ms, sizeof(ms), miss_pct(&sum));
				const char *cells[9] = { n > 1 ? "all" : list, st, c->states[k].name, u, tm,
							 r, a, b, ms };
				host_table_row(&t, cells);
			}
		}
		/* Per CPU, CPU by CPU: the CSV, and the text and JSON with --per-cpu (JSON: the
		   group's "per_cpu" list, beside its sums). */
		bool rows = m->format == HOST_FMT_CSV || m->per_cpu;
		int ncpu = 0;
		for (int i = lead; rows && i < idle->ncpus; i++) {
			if (m->group_of[i] != lead)
				continue;
			if (m->format == HOST_FMT_JSON)
				fprintf(out, "%s{\"cpu\": %d, \"states\": [", ncpu ? ", " : "], \"per_cpu\": [",
					idle->cpus[i].cpu);
			ncpu++;
			for (int k = 0; k < c->nstates; k++) {
				struct figures one = { 0 };
				char cpu[16], st[16], u[32], tm[32], r[32], a[32], b[32], ms[32];
				add_figures(&one, &idle->cpus[i].states[k], &m->before[i].states[k]);
				if (m->format == HOST_FMT_JSON)
					json_state(out, k, c->states[k].name, &one,
						   residency_pct(&one, 1, elapsed_ns), k == 0);
				if (m->format == HOST_FMT_CSV) {
					fprintf(out, "%d,%.6f,%d,%d,", m->report, secs, idle->cpus[i].cpu, k);
					ik__csv_text(out, c->states[k].name, SIZE_MAX);
					fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%.4f,", one.usage, one.time_us,
						residency_pct(&one, 1, elapsed_ns));
					if (one.have_above)
						fprintf(out, "%" PRIu64, one.above);
					fputc(',', out);
					if (one.have_below)
						fprintf(out, "%" PRIu64, one.below);
					fputc(',', out);
					if (miss_pct(&one) >= 0)
						fprintf(out, "%.4f", miss_pct(&one));
					fputc('\n', out);
				}
				if (m->format != HOST_FMT_TEXT)
					continue;
				snprintf(cpu, sizeof(cpu), "%d", idle->cpus[i].cpu);
				snprintf(st, sizeof(st), "%d", k);
				snprintf(u, sizeof(u), "%" PRIu64, one.usage);
				snprintf(tm, sizeof(tm), "%" PRIu64, one.time_us);
				fmt_pct(r, sizeof(r), residency_pct(&one, 1, elapsed_ns));
				snprintf(a, sizeof(a), one.have_above ? "%" PRIu64 : "-", one.above);
				snprintf(b, sizeof(b), one.have_below ? "%" PRIu64 : "-", one.below);
				fmt_pct(ms, sizeof(ms), miss_pct(&one));
				const char *cells[9] = { cpu, st, c->states[k].name, u, tm, r, a, b, ms };
				host_table_row(&t, cells);
			}
			if (m->format == HOST_FMT_JSON)
				fputs("]}", out);
		}
		if (m->format == HOST_FMT_TEXT) {
			host_table_print(out, &t);
			host_table_free(&t);
			double rest = 100.0 - in_states;
			fprintf(out, "not in an idle state: %.2f%% (running, or counters not yet updated "
				"by a CPU still idle)\n", rest < 0 ? 0 : rest);
		}
		if (m->format == HOST_FMT_JSON)
			fputs("]}", out);
		ngroup++;
	}
	if (m->format == HOST_FMT_JSON)
		fputs("]}\n", out);
	if (m->format == HOST_FMT_TEXT && ngroup == 0)
		fprintf(out, "no online CPU with idle states among those asked for\n");
	fflush(out);
}

static int take_report(struct monitor *m, int64_t elapsed_ns)
{
	char err[IK_HOST_ERR_LEN] = "";
	if (m->proc_mode) {
		report_proc(m, elapsed_ns, stdout);
		return 0;
	}
	if (ik__host_idle_refresh(m->fs, &m->idle, err, sizeof(err))) {
		fprintf(stderr, "idlekit monitor: %s\n", err);
		return -1;
	}
	report_idle(m, elapsed_ns, stdout);
	memcpy(m->before, m->idle.cpus, (size_t)m->idle.ncpus * sizeof(*m->before));
	return 0;
}

int cmd_monitor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		HOST_VIEW_OPTIONS,
		CLI_OPTIONS_END,
	};
	struct host_view view = { .format = HOST_FMT_TEXT };
	int64_t interval_ns = 1000000000;
	bool have_interval = false;
	long count = -1;
	struct cli_opts opt = { .cmd = "monitor", .usage = monitor_usage, .shortopts = "+i:n:h",
				.longopts = opts };
	int c;

	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case 'i':
			if (host_seconds_arg("monitor", "--interval", optarg, &interval_ns))
				return EXIT_USAGE;
			have_interval = true;
			break;
		case 'n':
			if (host_long_arg("monitor", "--count", optarg, 1, 1000000000L, &count))
				return EXIT_USAGE;
			break;
		default:
			if (host_view_opt("monitor", c, optarg, &view))
				return EXIT_USAGE;
		}
	}
	if (opt.done)
		return opt.status;
	char **command = optind < argc ? argv + optind : NULL;
	if (command && (have_interval || count >= 0)) {
		fprintf(stderr, "idlekit monitor: --interval and --count are for periodic reports; "
			"a COMMAND gets one report for its whole run\n");
		return EXIT_USAGE;
	}

	struct monitor m = { 0 };
	struct ik_sysfs *fs;
	char err[IK_HOST_ERR_LEN] = "";
	int rc = EXIT_USAGE;
	if (host_open("monitor", &view.src, &fs))
		return EXIT_USAGE;
	m.fs = fs;
	m.format = view.format;
	m.per_cpu = view.per_cpu;
	struct ik_cpuset want;
	if (view.cpu_list && host_cpu_arg("monitor", fs, view.cpu_list, &want))
		goto out;
	if (ik__host_idle_read(fs, view.cpu_list ? &want : NULL, &m.idle, err, sizeof(err))) {
		fprintf(stderr, "idlekit monitor: %s\n", err);
		goto out;
	}
	rc = EXIT_FAIL;
	size_t n = (size_t)(m.idle.ncpus ? m.idle.ncpus : 1);
	m.before = malloc(n * sizeof(*m.before));
	m.group_of = malloc(n * sizeof(int));
	if (!m.before || !m.group_of) {
		fprintf(stderr, "idlekit monitor: out of memory\n");
		goto out;
	}
	memcpy(m.before, m.idle.cpus, (size_t)m.idle.ncpus * sizeof(*m.before));
	int ngroups = ik__host_fold(&m.idle, m.group_of);
	bool any_states = false;
	for (int i = 0; i < m.idle.ncpus; i++)
		any_states |= m.group_of[i] >= 0 && m.idle.cpus[i].nstates > 0;
	if (!ngroups || !any_states) {
		/* No cpuidle: say so, and fall back to the idle time the scheduler counts. */
		const char *root = ik__sysfs_root(fs);
		m.proc_mode = true;
		snprintf(m.proc_stat, sizeof(m.proc_stat), "%s/proc/stat",
			 !root || strcmp(root, "/") == 0 ? "" : root);
		if (!root)
			snprintf(m.proc_stat, sizeof(m.proc_stat), "%s", "(a dump has no /proc/stat)");
		m.idle_ticks = calloc(n, sizeof(uint64_t));
		m.total_ticks = calloc(n, sizeof(uint64_t));
		if (m.idle_ticks && m.total_ticks && root)
			read_proc_stat(&m, m.idle_ticks, m.total_ticks);
		if (view.format == HOST_FMT_TEXT)
			fprintf(stdout, "no cpuidle driver (driver '%s'): the kernel idles in its default "
				"routine and keeps no per-state counters\n", m.idle.driver);
	} else if (ik__sysfs_is_dump(fs) && view.format == HOST_FMT_TEXT) {
		fprintf(stdout, "note: %s is a dump; its counters do not change\n", ik__sysfs_origin(fs));
	}

	if (ik__signals_catch()) {
		fprintf(stderr, "idlekit monitor: cannot install signal handlers\n");
		goto out;
	}
	int64_t start = ik__host_now_ns();
	if (command) {
		int status = 0;
		if (ik__run_command(command, &status, err, sizeof(err)))
			fprintf(stderr, "idlekit monitor: %s\n", err);
		if (take_report(&m, ik__host_now_ns() - start))
			goto out;
		rc = status;
	} else {
		rc = EXIT_OK;
		int64_t last = start;
		for (long done = 0; count < 0 || done < count; done++) {
			int64_t until = last + interval_ns;
			struct timespec ts = { (time_t)(until / 1000000000), (long)(until % 1000000000) };
			while (!ik__signals_caught() &&
			       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
				;
			if (ik__signals_caught())
				break; /* interrupted: the partial interval is not reported */
			int64_t t = ik__host_now_ns();
			if (take_report(&m, t - last)) {
				rc = EXIT_FAIL;
				break;
			}
			last = t;
		}
	}
	ik__signals_restore();
out:
	free(m.before);
	free(m.group_of);
	free(m.idle_ticks);
	free(m.total_ticks);
	ik__host_idle_free(&m.idle);
	ik__sysfs_close(fs);
	return rc;
}
