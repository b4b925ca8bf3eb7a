/*
 * Trace throughput: events per second of one core for `idlekit analyze` and `idlekit replay`
 * (reading and checking the text included; the output is not formatted).
 *
 * The trace is generated into memory first (not timed) by ik__trace_generate: CPUs taking
 * turns to arm a timer and enter a random state of intel-skx's table, or wake (timer, tick,
 * IPI, IRQ) and exit.  It is then read through a FILE (fmemopen), in the same chunks and by
 * the same code as the commands.
 *
 * usage: bench_trace [EVENTS [CPUS [GOVERNOR [PLATFORM]]]]   (default 10000000 8 menu intel-skx)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/scenario.h"
#include "drivers/registry.h"
#include "trace/replay.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long events = argc > 1 ? atol(argv[1]) : 10000000;
	int cpus = argc > 2 ? atoi(argv[2]) : 8;
	const char *governor = argc > 3 ? argv[3] : "menu";
	const char *platform = argc > 4 ? argv[4] : "intel-skx";
	char err[IK_ERR_LEN];
	static struct ik_scenario sc;
	static struct ik_driver_binding bind;

	if (events < 1 || cpus < 1 || cpus > IK_TRACE_MAX_CPUS) {
		fprintf(stderr, "usage: bench_trace [EVENTS [CPUS [GOVERNOR [PLATFORM]]]]\n");
		return 2;
	}
	const struct ik_governor *gov = ik_governor_find(governor);
	if (!gov || ik__platform_load(platform, &sc.platform, err, sizeof(err))) {
		fprintf(stderr, "bench_trace: %s\n", gov ? err : "unknown governor");
		return 2;
	}
	snprintf(sc.driver, sizeof(sc.driver), "table");
	sc.hz = 250;
	sc.latency_limit_us = -1;
	if (ik__driver_table.probe(&sc, &bind, err, sizeof(err))) {
		fprintf(stderr, "bench_trace: %s\n", err);
		return 2;
	}
	struct ik_trace_header h;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem || ik__trace_header_init(&h, 250, cpus, &bind.table) ||
	    ik__trace_generate(mem, &h, (uint64_t)events, 42) || fclose(mem)) {
		fprintf(stderr, "bench_trace: generating the trace failed\n");
		return 1;
	}
	ik__trace_header_free(&h);

	for (int pass = 0; pass < 2; pass++) {
		FILE *in = fmemopen(buf, len, "r");
		struct ik_trace_reader *r;
		if (!in || ik__trace_open_file(in, "bench", false, &r, err, sizeof(err))) {
			fprintf(stderr, "bench_trace: %s\n", err);
			return 1;
		}
		double t0 = now_s();
		uint64_t n;
		int rc;
		if (pass == 0) {
			struct ik_trace_analysis a;
			rc = ik__trace_analyze(r, &a, err, sizeof(err));
			n = a.events;
			if (!rc)
				ik__trace_analysis_free(&a);
		} else {
			struct ik_trace_replay_opts o = { .drv = &bind.table, .gov = gov };
			struct ik_trace_replay rp;
			rc = ik__trace_replay_run(r, &o, &rp, err, sizeof(err));
			n = ik__trace_events_read(r);
			if (!rc) {
				printf("replay: %llu recorded periods, %llu governor steps (%llu re-entries), %llu wake pending\n",
				       (unsigned long long)rp.periods, (unsigned long long)rp.entries,
				       (unsigned long long)rp.extra_entries, (unsigned long long)rp.wake_pending);
				ik__trace_replay_free(&rp);
			}
		}
		double dt = now_s() - t0;
		if (rc) {
			fprintf(stderr, "bench_trace: %s\n", err);
			return 1;
		}
		printf("%-8s %llu events (%d CPUs, %.1f MB) in %.3f s: %.2f M events/s (one core)%s%s\n",
		       pass == 0 ? "analyze" : "replay", (unsigned long long)n, cpus,
		       (double)len / 1e6, dt, (double)n / dt / 1e6, pass == 0 ? "" : ", governor ",
		       pass == 0 ? "" : gov->name);
		ik__trace_close(r);
		fclose(in);
	}
	free(buf);
	return 0;
}
