/* idlekit ctxsw: context switches per second between two pinned threads (context_switch2). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/host_cli.h"

static const char ctxsw_usage[] =
	"usage: idlekit ctxsw [OPTIONS]\n"
	"\n"
	"Two threads pinned to two CPUs hand control to each other as fast as they can, as in\n"
	"Anton Blanchard's context_switch2: through a pair of pipes, a pair of futexes, or\n"
	"sched_yield().  Prints the switches per second each second and overall; a pipe or\n"
	"futex round trip counts two switches, a yield one.  Across two CPUs every hand-over\n"
	"wakes an idle CPU, so the rate follows the idle state's exit latency.\n"
	"\n"
	"Options:\n"
	"  --test T                 pipe (default), futex or yield\n"
	"  --cpus A,B               the two CPUs (default 0,1; yield: 0,0, since yielding only\n"
	"                           switches between threads that share a CPU)\n"
	"  --duration S             seconds to run (default 5)\n"
	"  --json                   JSON output (docs/host.md)\n"
	"  -h, --help               this text\n"
	"\n"
	"Examples:\n"
	"  idlekit ctxsw                            pipes between CPUs 0 and 1 for 5 s\n"
	"  idlekit ctxsw --test futex --cpus 2,3 --duration 10\n"
	"  idlekit set -d C2 -- idlekit ctxsw       the same with state C2 disabled (root)\n";

struct ticks {
	bool json;
	double *rates;
	int n, cap;
};

static void on_tick(void *arg, int tick, uint64_t switches, int64_t elapsed_ns)
{
	struct ticks *t = arg;
	double rate = elapsed_ns > 0 ? (double)switches * 1e9 / (double)elapsed_ns : 0;
	if (t->json) {
		if (t->n == t->cap) {
			int cap = t->cap ? t->cap * 2 : 16;
			double *more = realloc(t->rates, (size_t)cap * sizeof(double));
			if (!more)
				return;
			t->rates = more;
			t->cap = cap;
		}
		t->rates[t->n++] = rate;
		return;
	}
	printf("%4d  %12.0f switches/s\n", tick, rate);
	fflush(stdout);
}

int cmd_ctxsw(int argc, char **argv)
{
	enum { OPT_TEST = 256, OPT_CPUS, OPT_DURATION };
	static const struct option opts[] = {
		{ "test", required_argument, NULL, OPT_TEST },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "duration", required_argument, NULL, OPT_DURATION },
		CLI_OPTION_JSON,
		CLI_OPTIONS_END,
	};
	struct ik_ctxsw_config cfg = { .cpu_a = 0, .cpu_b = 1, .test = IK_CTXSW_PIPE,
				       .duration_ns = 5000000000LL, .tick_ns = 1000000000LL };
	struct ticks ticks = { 0 };
	bool have_cpus = false;
	int c;

	struct cli_opts opt = { .cmd = "ctxsw", .usage = ctxsw_usage, .shortopts = "h",
				.longopts = opts, .no_args = true };
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case OPT_TEST: {
			int t = ik__ctxsw_test_parse(optarg);
			if (t < 0) {
				fprintf(stderr, "idlekit ctxsw: --test: expected pipe, futex or yield, got "
					"'%s'\n", optarg);
				return EXIT_USAGE;
			}
			cfg.test = (enum ik_ctxsw_test)t;
			break;
		}
		case OPT_CPUS: {
			int a, b, used = 0;
			if (sscanf(optarg, "%d,%d%n", &a, &b, &used) != 2 || optarg[used] || a < 0 ||
			    b < 0 || a >= IK_HOST_CPU_MAX || b >= IK_HOST_CPU_MAX) {
				fprintf(stderr, "idlekit ctxsw: --cpus: expected two CPU numbers A,B, got "
					"'%s'\n", optarg);
				return EXIT_USAGE;
			}
			cfg.cpu_a = a;
			cfg.cpu_b = b;
			have_cpus = true;
			break;
		}
		case OPT_DURATION:
			if (host_seconds_arg("ctxsw", "--duration", optarg, &cfg.duration_ns))
				return EXIT_USAGE;
			break;
		}
	}
	if (opt.done)
		return opt.status;
	ticks.json = opt.json;
	if (cfg.test == IK_CTXSW_YIELD && !have_cpus)
		cfg.cpu_b = cfg.cpu_a;
	if (cfg.test == IK_CTXSW_YIELD && cfg.cpu_a != cfg.cpu_b)
		fprintf(stderr, "idlekit ctxsw: note: yield on two CPUs counts yields that switch "
			"nothing\n");

	char err[IK_HOST_ERR_LEN] = "", list[256];
	int cpus[2] = { cfg.cpu_a, cfg.cpu_b };
	int bad = ik__host_unavailable_cpu(cpus, list, sizeof(list), err, sizeof(err));
	if (bad >= 0) {
		fprintf(stderr, "idlekit ctxsw: --cpus: CPU %d not available (CPUs this process may "
			"use: %s)\n", cpus[bad], list);
		return EXIT_USAGE;
	}
	cfg.on_tick = on_tick;
	cfg.arg = &ticks;
	if (!ticks.json)
		printf("ctxsw: %s test, CPUs %d and %d, %.3f s\n", ik__ctxsw_test_name(cfg.test),
		       cfg.cpu_a, cfg.cpu_b, (double)cfg.duration_ns / 1e9);
	struct ik_ctxsw_result r;
	if (ik__ctxsw_run(&cfg, &r, err, sizeof(err))) {
		fprintf(stderr, "idlekit ctxsw: %s\n", err);
		free(ticks.rates);
		return EXIT_FAIL;
	}
	double rate = r.elapsed_ns > 0 ? (double)r.switches * 1e9 / (double)r.elapsed_ns : 0;
	if (ticks.json) {
		printf("{\n  \"schema\": \"idlekit.ctxsw/1\",\n  \"test\": \"%s\",\n  \"cpus\": [%d, %d],\n"
		       "  \"per_second\": [", ik__ctxsw_test_name(cfg.test), cfg.cpu_a, cfg.cpu_b);
		for (int i = 0; i < ticks.n; i++)
			printf("%s%.0f", i ? ", " : "", ticks.rates[i]);
		printf("],\n  \"switches\": %" PRIu64 ",\n  \"elapsed_s\": %.6f,\n"
		       "  \"switches_per_s\": %.0f\n}\n", r.switches, (double)r.elapsed_ns / 1e9, rate);
	} else {
		printf("overall: %" PRIu64 " switches in %.3f s = %.0f switches/s\n", r.switches,
		       (double)r.elapsed_ns / 1e9, rate);
	}
	free(ticks.rates);
	return EXIT_OK;
}
