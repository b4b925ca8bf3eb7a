/* idlekit info: the machine's idle states as sysfs shows them, like `cpupower idle-info`. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/textout.h"
#include "cli/cli.h"
#include "cli/host_cli.h"

static const char info_usage[] =
	"usage: idlekit info [OPTIONS]\n"
	"\n"
	"Show the cpuidle driver, the governor and the idle states of every CPU (or of --cpu\n"
	"LIST): per state its name, description, exit latency, target residency, power, and\n"
	"the counters usage, time, above, below and rejected, with disable and default_status.\n"
	"CPUs whose tables are identical are folded into one group; the text report sums their\n"
	"counters (--per-cpu shows each CPU), --json and --csv always give every CPU.\n"
	"Files an older kernel lacks are shown as '-' (null in JSON, empty in CSV).  With no\n"
	"cpuidle driver (driver 'none', as in many VMs and containers) it says so and names\n"
	"the kernel's default idle routine instead.\n"
	"\n"
	"Options:\n"
	"  --cpu LIST               only these CPUs, e.g. 0-3,8 (default: all)\n"
	"  --per-cpu                one table per CPU instead of folded groups (text)\n"
	"  --json                   JSON output (docs/host.md)\n"
	"  --csv                    CSV output, one row per CPU and state (docs/host.md)\n"
	"  -o, --output FILE        write to FILE (atomically) instead of standard output\n"
	"  --dump FILE              instead of the report, write the cpuidle sysfs (CPU lists,\n"
	"                           cpuidle/, every cpuN/online and cpuN/cpuidle/) as a dump\n"
	"                           that --sysfs-dump reads ('-': standard output)\n"
	HOST_SOURCE_HELP
	"  -h, --help               this text\n"
	"\n"
	"Examples:\n"
	"  idlekit info                              this machine, CPUs with equal tables folded\n"
	"  idlekit info --cpu 0 --json               CPU 0's states as JSON\n"
	"  idlekit info --dump mybox.txt             this machine as a file to send to a colleague\n"
	"  idlekit info --sysfs-dump mybox.txt       ... who reads it as if on that machine\n";


/* A counter, or "-" when the kernel has no such file. */
static const char *counter(char *buf, size_t len, uint64_t v, bool have)
{
	if (!have)
		return "-";
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

static void print_header(FILE *f, const struct ik_sysfs *fs, const struct ik_host_idle *idle,
			 const struct ik_cpuset *selected)
{
	char present[256], online[256], sel[256], offline[256];
	struct ik_cpuset off = idle->present;

	ik__cpuset_andnot(&off, &idle->online);
	ik__cpuset_format(&idle->present, present, sizeof(present));
	ik__cpuset_format(&idle->online, online, sizeof(online));
	ik__cpuset_format(selected, sel, sizeof(sel));
	ik__cpuset_format(&off, offline, sizeof(offline));

	fprintf(f, "source:              %s\n", ik__sysfs_origin(fs));
	if (strcmp(idle->driver, "none") == 0) {
		char routine[256];
		ik__host_default_idle(fs, routine, sizeof(routine));
		fprintf(f, "driver:              none (no cpuidle driver: CPUs idle in the kernel's "
			"default idle routine, with no idle states to choose from)\n");
		fprintf(f, "default idle:        %s\n", routine);
	} else {
		fprintf(f, "driver:              %s\n", idle->driver);
	}
	fprintf(f, "governor:            %s\n", idle->governor[0] ? idle->governor : "-");
	fprintf(f, "available governors: %s\n",
		idle->available_governors[0] ? idle->available_governors : "-");
	fprintf(f, "CPUs present:        %s (%d), online: %s (%d)%s%s\n", present,
		ik__cpuset_count(&idle->present), online[0] ? online : "none",
		ik__cpuset_count(&idle->online), offline[0] ? ", offline: " : "", offline);
	if (!ik__cpuset_equal(selected, &idle->present))
		fprintf(f, "CPUs shown:          %s\n", sel);
}

/* One table: the states of `lead` with the counters summed over the CPUs in `members`. */
static void print_group(FILE *f, const struct ik_host_idle *idle, int lead, const int *group_of,
			bool per_cpu)
{
	static const char *const headers[] = { "state", "name", "desc", "latency_us",
					       "residency_us", "power_mW", "usage", "time_us",
					       "above", "below", "rejected", "disable", "default" };
	const struct ik_host_cpu *c = &idle->cpus[lead];
	struct ik_cpuset members;
	char list[4096];
	int n = 0;

	ik__cpuset_clear(&members);
	for (int i = 0; i < idle->ncpus; i++)
		if (per_cpu ? i == lead : group_of[i] == lead) {
			ik__cpuset_add(&members, idle->cpus[i].cpu);
			n++;
		}
	ik__cpuset_format(&members, list, sizeof(list));
	fprintf(f, "\n%s %s: %d idle state%s", n > 1 ? "CPUs" : "CPU", list, c->nstates,
		c->nstates == 1 ? "" : "s");
	if (n > 1)
		fprintf(f, "; usage, time, above, below and rejected summed over these %d CPUs", n);
	fputs("\n", f);
	if (c->nstates == 0)
		return;

	struct host_table t;
	host_table_init(&t, 13, headers, "lllrrrrrrrrrl");
	for (int k = 0; k < c->nstates; k++) {
		const struct ik_host_state *s = &c->states[k];
		struct ik_host_state sum = *s;
		sum.usage = sum.time_us = sum.above = sum.below = sum.rejected = 0;
		for (int i = 0; i < idle->ncpus; i++) {
			if (per_cpu ? i != lead : group_of[i] != lead)
				continue;
			const struct ik_host_state *m = &idle->cpus[i].states[k];
			sum.usage += m->usage;
			sum.time_us += m->time_us;
			sum.above += m->above;
			sum.below += m->below;
			sum.rejected += m->rejected;
		}
		char idx[16], lat[32], res[32], pow[32], use[32], tim[32], abv[32], blw[32], rej[32],
			dis[8];
		snprintf(idx, sizeof(idx), "%d", k);
		snprintf(lat, sizeof(lat), "%" PRIu64, s->latency_us);
		snprintf(res, sizeof(res), "%" PRIu64, s->residency_us);
		long long mw = host_power_mw(s->power);
		if (!(s->have & IK_HAVE_POWER) || mw < 0)
			snprintf(pow, sizeof(pow), "-");
		else
			snprintf(pow, sizeof(pow), "%lld", mw);
		snprintf(dis, sizeof(dis), "%s", (s->have & IK_HAVE_DISABLE) ? (s->disabled ? "1" : "0")
									    : "-");
		const char *cells[13] = {
			idx,
			s->name,
			(s->have & IK_HAVE_DESC) ? s->desc : "-",
			lat,
			res,
			pow,
			counter(use, sizeof(use), sum.usage, s->have & IK_HAVE_USAGE),
			counter(tim, sizeof(tim), sum.time_us, s->have & IK_HAVE_TIME),
			counter(abv, sizeof(abv), sum.above, s->have & IK_HAVE_ABOVE),
			counter(blw, sizeof(blw), sum.below, s->have & IK_HAVE_BELOW),
			counter(rej, sizeof(rej), sum.rejected, s->have & IK_HAVE_REJECTED),
			dis,
			(s->have & IK_HAVE_DEFAULT_STATUS) ? (s->default_enabled ? "enabled" : "disabled")
							   : "-",
		};
		host_table_row(&t, cells);
	}
	host_table_print(f, &t);
	host_table_free(&t);
}

static void print_text(FILE *f, const struct ik_sysfs *fs, const struct ik_host_idle *idle,
		       const struct ik_cpuset *selected, const int *group_of, bool per_cpu)
{
	struct ik_cpuset offline, bare, nodir;
	char list[4096];

	print_header(f, fs, idle, selected);
	ik__cpuset_clear(&offline);
	ik__cpuset_clear(&bare);
	ik__cpuset_clear(&nodir);
	for (int i = 0; i < idle->ncpus; i++) {
		const struct ik_host_cpu *c = &idle->cpus[i];
		if (!c->has_dir)
			ik__cpuset_add(&nodir, c->cpu);
		else if (!c->online)
			ik__cpuset_add(&offline, c->cpu);
		else if (!c->has_cpuidle)
			ik__cpuset_add(&bare, c->cpu);
		else if (per_cpu || group_of[i] == i)
			print_group(f, idle, i, group_of, per_cpu);
	}
	if (ik__cpuset_count(&bare)) {
		ik__cpuset_format(&bare, list, sizeof(list));
		fprintf(f, "\nCPU%s %s: no cpuidle directory%s\n", ik__cpuset_count(&bare) > 1 ? "s" : "",
			list, strcmp(idle->driver, "none") == 0 ? " (no driver)" : "");
	}
	if (ik__cpuset_count(&offline)) {
		ik__cpuset_format(&offline, list, sizeof(list));
		fprintf(f, "\nCPU%s %s: offline\n", ik__cpuset_count(&offline) > 1 ? "s" : "", list);
	}
	if (ik__cpuset_count(&nodir)) {
		/* present (and maybe online) by the kernel's lists, but the tree or dump holds
		   no cpuN directory for them: not captured, so nothing to show */
		ik__cpuset_format(&nodir, list, sizeof(list));
		fprintf(f, "\nCPU%s %s: present but not in %s (no cpuN directory: a partial copy?)\n",
			ik__cpuset_count(&nodir) > 1 ? "s" : "", list, ik__sysfs_is_dump(fs) ? "the dump" : "the tree");
	}
}

static void json_u64(FILE *f, const char *key, uint64_t v, bool have, bool comma)
{
	if (have)
		fprintf(f, "\"%s\": %" PRIu64 "%s", key, v, comma ? ", " : "");
	else
		fprintf(f, "\"%s\": null%s", key, comma ? ", " : "");
}

static void print_json(FILE *f, const struct ik_sysfs *fs, const struct ik_host_idle *idle,
		       const struct ik_cpuset *selected, const int *group_of, int ngroups)
{
	char list[65536];
	int *index_of_lead = calloc((size_t)(idle->ncpus ? idle->ncpus : 1), sizeof(int));

	fputs("{\n  \"schema\": \"idlekit.info/1\",\n  \"source\": ", f);
	ik__json_string(f, ik__sysfs_origin(fs), SIZE_MAX);
	fputs(",\n  \"driver\": ", f);
	ik__json_string(f, idle->driver, SIZE_MAX);
	fputs(",\n  \"default_idle\": ", f);
	if (strcmp(idle->driver, "none") == 0) {
		char routine[256];
		ik__host_default_idle(fs, routine, sizeof(routine));
		ik__json_string(f, routine, SIZE_MAX);
	} else {
		fputs("null", f);
	}
	fputs(",\n  \"governor\": ", f);
	if (idle->governor[0])
		ik__json_string(f, idle->governor, SIZE_MAX);
	else
		fputs("null", f);
	fputs(",\n  \"available_governors\": [", f);
	{
		char govs[256];
		snprintf(govs, sizeof(govs), "%s", idle->available_governors);
		int n = 0;
		for (char *tok = strtok(govs, " "); tok; tok = strtok(NULL, " ")) {
			fputs(n++ ? ", " : "", f);
			ik__json_string(f, tok, SIZE_MAX);
		}
	}
	fputs("],\n", f);
	ik__cpuset_format(&idle->present, list, sizeof(list));
	fprintf(f, "  \"cpus_present\": \"%s\",\n", list);
	ik__cpuset_format(&idle->online, list, sizeof(list));
	fprintf(f, "  \"cpus_online\": \"%s\",\n", list);
	ik__cpuset_format(selected, list, sizeof(list));
	fprintf(f, "  \"cpus_shown\": \"%s\",\n", list);

	/* Groups: the CPUs of each, numbered in order of their first CPU. */
	fputs("  \"groups\": [", f);
	int g = 0;
	for (int i = 0; i < idle->ncpus; i++) {
		if (group_of[i] != i)
			continue;
		if (index_of_lead)
			index_of_lead[i] = g;
		struct ik_cpuset members;
		ik__cpuset_clear(&members);
		for (int j = i; j < idle->ncpus; j++)
			if (group_of[j] == i)
				ik__cpuset_add(&members, idle->cpus[j].cpu);
		ik__cpuset_format(&members, list, sizeof(list));
		fprintf(f, "%s\n    {\"group\": %d, \"cpus\": \"%s\", \"states\": %d}", g ? "," : "", g,
			list, idle->cpus[i].nstates);
		g++;
	}
	fprintf(f, "%s],\n", ngroups ? "\n  " : "");

	fputs("  \"cpus\": [", f);
	for (int i = 0; i < idle->ncpus; i++) {
		const struct ik_host_cpu *c = &idle->cpus[i];
		fprintf(f, "%s\n    {\"cpu\": %d, \"online\": %s, \"cpuidle\": %s, \"group\": ",
			i ? "," : "", c->cpu, c->online ? "true" : "false",
			c->has_cpuidle ? "true" : "false");
		if (group_of[i] >= 0 && index_of_lead)
			fprintf(f, "%d", index_of_lead[group_of[i]]);
		else
			fputs("null", f);
		fprintf(f, ", \"in_tree\": %s", c->has_dir ? "true" : "false");
		fputs(", \"states\": [", f);
		for (int k = 0; k < c->nstates; k++) {
			const struct ik_host_state *s = &c->states[k];
			fprintf(f, "%s\n      {\"index\": %d, \"name\": ", k ? "," : "", k);
			ik__json_string(f, s->name, SIZE_MAX);
			fputs(", \"desc\": ", f);
			if (s->have & IK_HAVE_DESC)
				ik__json_string(f, s->desc, SIZE_MAX);
			else
				fputs("null", f);
			fprintf(f, ", \"latency_us\": %" PRIu64 ", \"residency_us\": %" PRIu64 ", ",
				s->latency_us, s->residency_us);
			if (s->have & IK_HAVE_POWER)
				fprintf(f, "\"power_mw\": %lld, ", host_power_mw(s->power));
			else
				fputs("\"power_mw\": null, ", f);
			json_u64(f, "usage", s->usage, s->have & IK_HAVE_USAGE, true);
			json_u64(f, "time_us", s->time_us, s->have & IK_HAVE_TIME, true);
			json_u64(f, "above", s->above, s->have & IK_HAVE_ABOVE, true);
			json_u64(f, "below", s->below, s->have & IK_HAVE_BELOW, true);
			json_u64(f, "rejected", s->rejected, s->have & IK_HAVE_REJECTED, true);
			json_u64(f, "disable", s->disabled, s->have & IK_HAVE_DISABLE, true);
			fputs("\"default_status\": ", f);
			if (s->have & IK_HAVE_DEFAULT_STATUS)
				ik__json_string(f, s->default_enabled ? "enabled" : "disabled", SIZE_MAX);
			else
				fputs("null", f);
			if (s->have & IK_HAVE_S2IDLE)
				fprintf(f, ", \"s2idle_usage\": %" PRIu64 ", \"s2idle_time_us\": %" PRIu64,
					s->s2idle_usage, s->s2idle_time_us);
			fputs("}", f);
		}
		fprintf(f, "%s]}", c->nstates ? "\n    " : "");
	}
	fprintf(f, "%s]\n}\n", idle->ncpus ? "\n  " : "");
	free(index_of_lead);
}

static void csv_u64(FILE *f, uint64_t v, bool have)
{
	if (have)
		fprintf(f, ",%" PRIu64, v);
	else
		fputs(",", f);
}

static void print_csv(FILE *f, const struct ik_host_idle *idle, const int *group_of)
{
	int *index_of_lead = calloc((size_t)(idle->ncpus ? idle->ncpus : 1), sizeof(int));
	int g = 0;
	for (int i = 0; i < idle->ncpus && index_of_lead; i++)
		if (group_of[i] == i)
			index_of_lead[i] = g++;

	fputs("cpu,online,group,driver,state,name,desc,latency_us,residency_us,power_mw,usage,"
	      "time_us,above,below,rejected,disable,default_status\n", f);
	for (int i = 0; i < idle->ncpus; i++) {
		const struct ik_host_cpu *c = &idle->cpus[i];
		for (int k = 0; k < c->nstates; k++) {
			const struct ik_host_state *s = &c->states[k];
			fprintf(f, "%d,%d,", c->cpu, c->online ? 1 : 0);
			if (group_of[i] >= 0 && index_of_lead)
				fprintf(f, "%d", index_of_lead[group_of[i]]);
			fputc(',', f);
			ik__csv_text(f, idle->driver, SIZE_MAX);
			fprintf(f, ",%d,", k);
			ik__csv_text(f, s->name, SIZE_MAX);
			fputc(',', f);
			ik__csv_text(f, (s->have & IK_HAVE_DESC) ? s->desc : "", SIZE_MAX);
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", s->latency_us, s->residency_us);
			if (s->have & IK_HAVE_POWER)
				fprintf(f, "%lld", host_power_mw(s->power));
			csv_u64(f, s->usage, s->have & IK_HAVE_USAGE);
			csv_u64(f, s->time_us, s->have & IK_HAVE_TIME);
			csv_u64(f, s->above, s->have & IK_HAVE_ABOVE);
			csv_u64(f, s->below, s->have & IK_HAVE_BELOW);
			csv_u64(f, s->rejected, s->have & IK_HAVE_REJECTED);
			csv_u64(f, s->disabled, s->have & IK_HAVE_DISABLE);
			fputc(',', f);
			if (s->have & IK_HAVE_DEFAULT_STATUS)
				fputs(s->default_enabled ? "enabled" : "disabled", f);
			fputc('\n', f);
		}
	}
	free(index_of_lead);
}

/* --dump FILE: the tree as a dump, written atomically; exit status. */
static int write_dump(struct ik_sysfs *fs, const char *path)
{
	char err[IK_HOST_ERR_LEN] = "";
	int skipped = 0;
	struct cli_output out;
	int rc = EXIT_FAIL;
	if (cli_output_open(&out, path) == 0) {
		int wrc = ik__sysfs_write_dump(fs, out.fp, &skipped, err, sizeof(err));
		if (wrc)
			fprintf(stderr, "idlekit info: %s\n", err);
		rc = cli_output_close(&out, wrc == 0) == 0 ? EXIT_OK : EXIT_FAIL;
		if (rc == EXIT_OK && skipped)
			fprintf(stderr, "idlekit info: note: %d unreadable file%s left out of the dump\n",
				skipped, skipped > 1 ? "s" : "");
	}
	ik__sysfs_close(fs);
	return rc;
}

int cmd_info(int argc, char **argv)
{
	enum { OPT_DUMP_OUT = 256 };
	static const struct option opts[] = {
		HOST_VIEW_OPTIONS,
		CLI_OPTION_OUTPUT,
		{ "dump", required_argument, NULL, OPT_DUMP_OUT },
		CLI_OPTIONS_END,
	};
	struct host_view view = { .format = HOST_FMT_TEXT };
	const char *dumppath = NULL;
	struct cli_opts opt = { .cmd = "info", .usage = info_usage, .shortopts = "ho:",
				.longopts = opts, .no_args = true };
	int c;

	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		if (c == OPT_DUMP_OUT)
			dumppath = optarg;
		else if (host_view_opt("info", c, optarg, &view))
			return EXIT_USAGE;
	}
	if (opt.done)
		return opt.status;
	const char *outpath = opt.output, *cpu_list = view.cpu_list;
	enum host_format format = view.format;

	bool dump_requested = dumppath != NULL;
	if (dump_requested && (outpath || cpu_list || view.per_cpu || format != HOST_FMT_TEXT)) {
		fprintf(stderr, "idlekit info: --dump FILE writes the whole tree and nothing else "
				"(no -o, --cpu, --per-cpu, --json or --csv)\n");
		return EXIT_USAGE;
	}
	if (dumppath && strcmp(dumppath, "-") == 0)
		dumppath = NULL; /* standard output */
	if (cli_output_check("info", outpath) || cli_output_check("info", dumppath))
		return EXIT_USAGE;
	struct ik_sysfs *fs;
	if (host_open("info", &view.src, &fs))
		return EXIT_USAGE;
	if (dump_requested)
		return write_dump(fs, dumppath);
	struct ik_cpuset want;
	int rc = EXIT_USAGE;
	struct ik_host_idle idle = { 0 };
	int *group_of = NULL;
	char err[IK_HOST_ERR_LEN] = "";
	if (cpu_list && host_cpu_arg("info", fs, cpu_list, &want))
		goto out;
	if (ik__host_idle_read(fs, cpu_list ? &want : NULL, &idle, err, sizeof(err))) {
		fprintf(stderr, "idlekit info: %s\n", err);
		goto out;
	}
	if (!cpu_list)
		want = idle.present;
	group_of = malloc((size_t)(idle.ncpus ? idle.ncpus : 1) * sizeof(int));
	if (!group_of) {
		fprintf(stderr, "idlekit info: out of memory\n");
		rc = EXIT_FAIL;
		goto out;
	}
	int ngroups = ik__host_fold(&idle, group_of);

	struct cli_output out;
	if (cli_output_open(&out, outpath)) {
		rc = EXIT_FAIL;
		goto out;
	}
	if (format == HOST_FMT_JSON)
		print_json(out.fp, fs, &idle, &want, group_of, ngroups);
	else if (format == HOST_FMT_CSV)
		print_csv(out.fp, &idle, group_of);
	else
		print_text(out.fp, fs, &idle, &want, group_of, view.per_cpu);
	rc = cli_output_close(&out, 1) == 0 ? EXIT_OK : EXIT_FAIL;
out:
	free(group_of);
	ik__host_idle_free(&idle);
	ik__sysfs_close(fs);
	return rc;
}
