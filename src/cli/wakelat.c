/*
 * idlekit wakelat: wake-up latency of an idle CPU on the live machine (a waker thread wakes it),
 * optionally under a PM QoS limit or with one idle state alone enabled on the wakee CPU.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/textout.h"
#include "cli/cli.h"
#include "cli/host_cli.h"
#include "report/html.h"

static const char wakelat_usage[] =
	"usage: idlekit wakelat [OPTIONS]\n"
	"\n"
	"Measure how long an idle CPU takes to run a task woken from another CPU: a waker and\n"
	"a wakee thread pinned to two CPUs; before each wake-up the wakee waits blocked for an\n"
	"idle gap, then the waker reads CLOCK_MONOTONIC and wakes it, and the wakee reads the\n"
	"clock as soon as it runs.  Prints percentiles 25 50 75 90 95 99 99.5 99.9 99.95 99.99,\n"
	"min, max and mean in ns (exact: every sample is kept), and which idle states the\n"
	"wakee CPU entered meanwhile (from sysfs, when there is cpuidle).\n"
	"\n"
	"Options:\n"
	"  --waker-cpu N            CPU of the waker (default 0)\n"
	"  --wakee-cpu N            CPU of the wakee, the one that goes idle (default 1)\n"
	"  -n, --count N            wake-ups measured (default 10000)\n"
	"  --warmup N               wake-ups done first and not counted (default 100)\n"
	"  --gap TIME               idle gap before each wake-up: 100us (default), 1ms, 500ns\n"
	"  --method M               futex (default), pipe or eventfd\n"
	"  --rt-priority N          run both threads SCHED_FIFO at priority N (1..99; root or\n"
	"                           CAP_SYS_NICE), so other tasks on the CPUs cannot delay them\n"
	"  --latency TIME           hold this PM QoS CPU latency limit during the run (root)\n"
	"  --state STATE            only this idle state (index or name) enabled on the wakee\n"
	"                           CPU during the run; the others are disabled and put back\n"
	"                           afterwards, also on SIGINT/SIGTERM (root)\n"
	"  --pm-qos-dev PATH        the PM QoS device (default $IDLEKIT_PM_QOS_DEV, else\n"
	"                           /dev/cpu_dma_latency); for testing\n"
	"  --sysfs-root DIR         the cpu tree for --state and the state counters\n"
	"  --json                   JSON output (docs/host.md)\n"
	"  --html FILE              also write a self-contained HTML report with plots to FILE\n"
	"                           (docs/html-report.md)\n"
	"  -h, --help               this text\n"
	"\n"
	"A warning goes to standard error when the wakee CPU entered no idle state during the run\n"
	"(its counters moved only for POLL, or not at all): the figures then are the wake-up\n"
	"latency of a busy or polling CPU, not of an idle one.  Try a longer --gap, or --state.\n"
	"\n"
	"Examples:\n"
	"  idlekit wakelat --gap 1ms --rt-priority 50\n"
	"  idlekit wakelat --state C1 --json\n";

static const double percentiles[] = { 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };
#define NPCT (sizeof(percentiles) / sizeof(percentiles[0]))

/* The wakee CPU's idle-state counters, if there is cpuidle to read. */
struct wakee_states {
	bool ok;
	struct ik_host_idle idle;
	struct ik_host_cpu before;
};

static void read_wakee_states(const struct ik_sysfs *fs, int cpu, struct wakee_states *w)
{
	struct ik_cpuset one;
	char err[IK_HOST_ERR_LEN];

	w->ok = false;
	ik__host_idle_free(&w->idle);
	if (!fs)
		return;
	ik__cpuset_clear(&one);
	ik__cpuset_add(&one, cpu);
	if (ik__host_idle_read(fs, &one, &w->idle, err, sizeof(err)) == 0 && w->idle.ncpus == 1 &&
	    w->idle.cpus[0].nstates > 0) {
		w->before = w->idle.cpus[0];
		w->ok = true;
	}
}

int cmd_wakelat(int argc, char **argv)
{
	enum { OPT_WAKER = 256, OPT_WAKEE, OPT_WARMUP, OPT_GAP, OPT_METHOD, OPT_STATE, OPT_HTML,
	       OPT_RTPRIO };
	static const struct option opts[] = {
		{ "waker-cpu", required_argument, NULL, OPT_WAKER },
		{ "wakee-cpu", required_argument, NULL, OPT_WAKEE },
		{ "count", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "gap", required_argument, NULL, OPT_GAP },
		{ "method", required_argument, NULL, OPT_METHOD },
		{ "rt-priority", required_argument, NULL, OPT_RTPRIO },
		{ "state", required_argument, NULL, OPT_STATE },
		HOST_PMQOS_OPTIONS,
		{ "sysfs-root", required_argument, NULL, HOST_OPT_ROOT }, /* live only: no dump */
		CLI_OPTION_JSON,
		{ "html", required_argument, NULL, OPT_HTML },
		CLI_OPTIONS_END,
	};
	struct ik_wakelat_config cfg = { .waker_cpu = 0, .wakee_cpu = 1, .count = 10000,
					 .warmup = 100, .gap_ns = 100000,
					 .method = IK_WAKELAT_FUTEX };
	const char *state = NULL, *htmlpath = NULL;
	struct host_source src = { NULL, NULL };
	struct host_pmqos_limit limit = { -1, NULL };
	long v;
	int c;

	struct cli_opts opt = { .cmd = "wakelat", .usage = wakelat_usage, .shortopts = "n:h",
				.longopts = opts, .no_args = true };
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case OPT_WAKER:
		case OPT_WAKEE:
			if (host_long_arg("wakelat", c == OPT_WAKER ? "--waker-cpu" : "--wakee-cpu",
					  optarg, 0, IK_HOST_CPU_MAX - 1, &v))
				return EXIT_USAGE;
			*(c == OPT_WAKER ? &cfg.waker_cpu : &cfg.wakee_cpu) = (int)v;
			break;
		case 'n':
			if (host_long_arg("wakelat", "--count", optarg, 1, 100000000L, &cfg.count))
				return EXIT_USAGE;
			break;
		case OPT_WARMUP:
			if (host_long_arg("wakelat", "--warmup", optarg, 0, 100000000L, &cfg.warmup))
				return EXIT_USAGE;
			break;
		case OPT_GAP:
			if (host_duration_arg("wakelat", "--gap", optarg, "us", 10000000000LL,
					      &cfg.gap_ns))
				return EXIT_USAGE;
			break;
		case OPT_METHOD: {
			int m = ik__wakelat_method_parse(optarg);
			if (m < 0) {
				fprintf(stderr, "idlekit wakelat: --method: expected futex, pipe or "
					"eventfd, got '%s'\n", optarg);
				return EXIT_USAGE;
			}
			cfg.method = (enum ik_wakelat_method)m;
			break;
		}
		case OPT_RTPRIO:
			if (host_long_arg("wakelat", "--rt-priority", optarg, 1, 99, &v))
				return EXIT_USAGE;
			cfg.rt_priority = (int)v;
			break;
		case OPT_STATE:
			state = optarg;
			break;
		case HOST_OPT_LATENCY:
		case HOST_OPT_PMQOS:
			if (host_pmqos_opt("wakelat", c, optarg, &limit))
				return EXIT_USAGE;
			break;
		case HOST_OPT_ROOT:
			host_source_opt(c, optarg, &src);
			break;
		case OPT_HTML:
			htmlpath = optarg;
			break;
		}
	}
	if (opt.done)
		return opt.status;
	bool json = opt.json;
	int64_t latency_ns = limit.latency_ns;
	if (cfg.waker_cpu == cfg.wakee_cpu)
		fprintf(stderr, "idlekit wakelat: note: waker and wakee share CPU %d, so the wakee's "
			"CPU is never idle; this measures the scheduler alone\n", cfg.waker_cpu);

	if (host_waker_wakee_check("wakelat", cfg.waker_cpu, cfg.wakee_cpu))
		return EXIT_USAGE;
	char err[IK_HOST_ERR_LEN] = "";

	if (cli_output_check("wakelat", htmlpath))
		return EXIT_USAGE;

	/* The cpu tree is optional (counters) unless --state needs it. */
	struct ik_sysfs *fs = NULL;
	char tree_err[IK_HOST_ERR_LEN] = "";
	if (src.root || state) {
		if (host_open("wakelat", &src, &fs))
			return EXIT_USAGE;
	} else if (ik__sysfs_open_root("/", &fs, tree_err, sizeof(tree_err))) {
		fs = NULL;
	}

	struct ik_journal journal;
	struct ik_pmqos qos = { .fd = -1 };
	struct wakee_states ws = { 0 };
	struct ik_wakelat_result r = { 0 };
	int rc = EXIT_USAGE, only = -1;
	ik__journal_init(&journal);
	read_wakee_states(fs, cfg.wakee_cpu, &ws);

	/* Plan the state restriction: every other state of the wakee CPU disabled. */
	char paths[IK_STATE_MAX][4096];
	if (state) {
		if (!ws.ok) {
			fprintf(stderr, "idlekit wakelat: --state: CPU %d has no idle states in %s\n",
				cfg.wakee_cpu, ik__sysfs_origin(fs));
			goto out;
		}
		const struct ik_host_cpu *w = &ws.idle.cpus[0];
		if (state[0] && strspn(state, "0123456789") == strlen(state) && strlen(state) < 4 &&
		    atoi(state) < w->nstates)
			only = atoi(state);
		for (int k = 0; only < 0 && k < w->nstates; k++)
			if (strcmp(w->states[k].name, state) == 0 || strcasecmp(w->states[k].name, state) == 0)
				only = k;
		if (only < 0) {
			fprintf(stderr, "idlekit wakelat: --state %s: CPU %d has no such state (states: ",
				state, cfg.wakee_cpu);
			for (int k = 0; k < w->nstates; k++)
				fprintf(stderr, "%s%d=%s", k ? " " : "", k, w->states[k].name);
			fprintf(stderr, ")\n");
			goto out;
		}
		for (int k = 0; k < w->nstates; k++) {
			char rel[128];
			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/disable", cfg.wakee_cpu, k);
			if (ik__sysfs_path(fs, rel, paths[k], sizeof(paths[k])) ||
			    ik__check_writable(paths[k], err, sizeof(err))) {
				fprintf(stderr, "idlekit wakelat: --state: %s\n", err[0] ? err : rel);
				rc = EXIT_FAIL;
				goto out;
			}
		}
	}
	if (latency_ns >= 0 && host_pmqos_open("wakelat", &limit, &qos)) {
		rc = EXIT_FAIL;
		goto out;
	}
	bool changes = state || latency_ns >= 0;
	if (changes) {
		ik__signals_catch();
		ik__signals_block(true);
		rc = EXIT_OK;
		for (int k = 0; state && k < ws.idle.cpus[0].nstates && rc == EXIT_OK; k++)
			if (ik__journal_write(&journal, paths[k], k == only ? "0" : "1", err, sizeof(err)))
				rc = EXIT_FAIL;
		if (rc == EXIT_OK && latency_ns >= 0 &&
		    ik__pmqos_set(&qos, (int32_t)(latency_ns / 1000), err, sizeof(err)))
			rc = EXIT_FAIL;
		ik__signals_block(false);
		if (rc != EXIT_OK) {
			fprintf(stderr, "idlekit wakelat: %s\n", err);
			goto restore;
		}
		cfg.should_stop = ik__signals_caught;
		read_wakee_states(fs, cfg.wakee_cpu, &ws); /* counters after the change */
	}

	rc = EXIT_FAIL;
	if (ik__wakelat_run(&cfg, &r, err, sizeof(err))) {
		fprintf(stderr, "idlekit wakelat: %s\n", err);
		goto restore;
	}
	struct ik_host_cpu after = { 0 };
	bool states_ok = false;
	if (ws.ok) {
		char e2[IK_HOST_ERR_LEN];
		states_ok = ik__host_idle_refresh(fs, &ws.idle, e2, sizeof(e2)) == 0;
		after = ws.idle.cpus[0];
	}
	/* Did the wakee idle at all?  Entries of a state other than polling. */
	bool idled = false;
	for (int k = 0; states_ok && k < after.nstates; k++)
		if (strcmp(after.states[k].name, "POLL") != 0 &&
		    after.states[k].usage > ws.before.states[k].usage)
			idled = true;
	if (states_ok && !idled)
		fprintf(stderr, "idlekit wakelat: warning: CPU %d entered no idle state during the run "
			"(only POLL, or none, in its counters): these are wake-ups of a busy or polling "
			"CPU, not of an idle one (try a longer --gap, or --state)\n", cfg.wakee_cpu);

	if (json) {
		printf("{\n  \"schema\": \"idlekit.wakelat/1\",\n  \"method\": \"%s\",\n"
		       "  \"waker_cpu\": %d,\n  \"wakee_cpu\": %d,\n  \"samples\": %ld,\n"
		       "  \"warmup\": %ld,\n  \"gap_ns\": %" PRId64 ",\n",
		       ik__wakelat_method_name(cfg.method), cfg.waker_cpu, cfg.wakee_cpu, r.count,
		       cfg.warmup, cfg.gap_ns);
		if (cfg.rt_priority)
			printf("  \"rt_priority\": %d,\n", cfg.rt_priority);
		else
			printf("  \"rt_priority\": null,\n");
		if (latency_ns >= 0)
			printf("  \"latency_limit_us\": %" PRId64 ",\n", latency_ns / 1000);
		else
			printf("  \"latency_limit_us\": null,\n");
		printf("  \"only_state\": ");
		if (only >= 0)
			ik__json_string(stdout, ws.idle.cpus[0].states[only].name, SIZE_MAX);
		else
			printf("null");
		printf(",\n  \"percentiles_ns\": {");
		for (size_t i = 0; i < NPCT; i++)
			printf("%s\"%g\": %" PRId64, i ? ", " : "", percentiles[i],
			       ik__wakelat_percentile(&r, percentiles[i]));
		printf("},\n  \"min_ns\": %" PRId64 ",\n  \"max_ns\": %" PRId64 ",\n"
		       "  \"mean_ns\": %.1f,\n  \"elapsed_s\": %.6f,\n  \"wakee_states\": ",
		       r.min_ns, r.max_ns, r.mean_ns, (double)r.elapsed_ns / 1e9);
		if (states_ok) {
			printf("[");
			for (int k = 0; k < after.nstates; k++) {
				printf("%s\n    {\"index\": %d, \"name\": ", k ? "," : "", k);
				ik__json_string(stdout, after.states[k].name, SIZE_MAX);
				printf(", \"usage\": %" PRIu64 ", \"time_us\": %" PRIu64 "}",
				       after.states[k].usage - ws.before.states[k].usage,
				       after.states[k].time_us - ws.before.states[k].time_us);
			}
			printf("\n  ]\n}\n");
		} else {
			printf("null\n}\n");
		}
	} else {
		printf("wakelat: %s wake-ups, waker CPU %d -> wakee CPU %d, idle gap %" PRId64
		       " ns, %ld samples (after %ld warm-up) in %.3f s\n",
		       ik__wakelat_method_name(cfg.method), cfg.waker_cpu, cfg.wakee_cpu, cfg.gap_ns,
		       r.count, cfg.warmup, (double)r.elapsed_ns / 1e9);
		if (cfg.rt_priority)
			printf("both threads SCHED_FIFO, priority %d\n", cfg.rt_priority);
		if (latency_ns >= 0)
			printf("PM QoS CPU latency limit: %" PRId64 " us (%s)\n", latency_ns / 1000,
			       qos.path);
		if (only >= 0)
			printf("only idle state enabled on CPU %d: %d (%s)\n", cfg.wakee_cpu, only,
			       ws.idle.cpus[0].states[only].name);
		for (size_t i = 0; i < NPCT; i++)
			printf("%8g%%  %10" PRId64 " ns\n", percentiles[i],
			       ik__wakelat_percentile(&r, percentiles[i]));
		printf("%9s  %10" PRId64 " ns\n%9s  %10" PRId64 " ns\n%9s  %12.1f ns\n", "min", r.min_ns,
		       "max", r.max_ns, "mean", r.mean_ns);
		if (states_ok) {
			printf("idle states entered by CPU %d during the run (usage, time):", cfg.wakee_cpu);
			for (int k = 0; k < after.nstates; k++)
				printf("%s %s %" PRIu64 " %" PRIu64 " us", k ? "," : "", after.states[k].name,
				       after.states[k].usage - ws.before.states[k].usage,
				       after.states[k].time_us - ws.before.states[k].time_us);
			printf("\n");
		} else {
			printf("idle states of CPU %d: not known (no cpuidle counters)\n", cfg.wakee_cpu);
		}
	}
	rc = EXIT_OK;
	if (htmlpath) {
		const char *names[IK_STATE_MAX];
		uint64_t usage[IK_STATE_MAX], time_us[IK_STATE_MAX];
		int n = states_ok ? after.nstates : 0;
		if (n > IK_STATE_MAX)
			n = IK_STATE_MAX;
		for (int k = 0; k < n; k++) {
			names[k] = after.states[k].name;
			usage[k] = after.states[k].usage - ws.before.states[k].usage;
			time_us[k] = after.states[k].time_us - ws.before.states[k].time_us;
		}
		struct ik_html_wakelat hw = {
			.method = ik__wakelat_method_name(cfg.method), .waker_cpu = cfg.waker_cpu,
			.wakee_cpu = cfg.wakee_cpu, .warmup = cfg.warmup, .gap_ns = cfg.gap_ns,
			.latency_limit_ns = latency_ns,
			.only_state = only >= 0 ? ws.idle.cpus[0].states[only].name : NULL, .r = &r,
			.nstates = n, .state_names = names, .usage = usage, .time_us = time_us,
		};
		struct cli_output o;
		rc = EXIT_FAIL;
		if (fflush(stdout) == 0 && cli_output_open(&o, htmlpath) == 0) {
			int wrc = ik__report_html_wakelat(o.fp, &hw);
			rc = cli_output_close(&o, wrc == 0) ? EXIT_FAIL : EXIT_OK;
		}
	}
restore:
	if (changes) {
		if (ik__journal_undo(&journal, err, sizeof(err))) {
			fprintf(stderr, "idlekit wakelat: %s\n", err);
			rc = EXIT_FAIL;
		}
		ik__pmqos_close(&qos);
		int sig = ik__signals_caught();
		ik__signals_restore();
		if (sig) {
			fprintf(stderr, "idlekit wakelat: interrupted; settings restored\n");
			rc = 128 + sig;
		}
	}
out:
	ik__pmqos_close(&qos);
	ik__wakelat_free(&r);
	ik__journal_free(&journal);
	ik__host_idle_free(&ws.idle);
	ik__sysfs_close(fs);
	return rc;
}
