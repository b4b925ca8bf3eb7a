/*
 * govreplay throughput: input lines per second of one core, parsing, stepping the governor
 * through the core and formatting the decisions included (the output goes to /dev/null).
 *
 * The stream is generated into memory first (not timed): a deterministic mix of idle
 * periods like a busy server's, with short and long timers, no timer at all ('-'), IPI
 * wakeups and tick positions spread over the tick period.  It is then read through a
 * FILE (fmemopen), in the same chunks and by the same code as `idlekit govreplay --input`.
 *
 * usage: bench_govreplay [LINES [GOVERNOR [PLATFORM]]]   (default 10000000 menu intel-skx)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/scenario.h"
#include "core/governor_registry.h"
#include "drivers/registry.h"
#include "sim/govreplay.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* splitmix64: the stream is the same on every machine. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static char *generate(long lines, int64_t tick_nsec, size_t *len)
{
	size_t cap = (size_t)lines * 48 + 64;
	char *buf = malloc(cap);
	uint64_t rng = 42;
	size_t o = 0;

	if (!buf)
		return NULL;
	o += (size_t)snprintf(buf, cap, "sleep_ns,tick_ns,wake_ns\n");
	for (long i = 0; i < lines; i++) {
		uint64_t r = next_random(&rng);
		int64_t tick = 1 + (int64_t)((r >> 8) % (uint64_t)tick_nsec);
		char sleep[24], wake[24];

		/* Timers: 10% none, 40% under 100 us, 30% under a tick, 20% up to 50 ms. */
		unsigned kind = (unsigned)(r % 10);
		uint64_t r2 = next_random(&rng);
		if (kind == 0)
			snprintf(sleep, sizeof(sleep), "-");
		else if (kind <= 4)
			snprintf(sleep, sizeof(sleep), "%llu", (unsigned long long)(r2 % 100000));
		else if (kind <= 7)
			snprintf(sleep, sizeof(sleep), "%llu",
				 (unsigned long long)(r2 % (uint64_t)tick_nsec));
		else
			snprintf(sleep, sizeof(sleep), "%llu", (unsigned long long)(r2 % 50000000));
		/* Half the periods end by an IPI, mostly soon. */
		uint64_t r3 = next_random(&rng);
		if (r3 & 1)
			snprintf(wake, sizeof(wake), "-");
		else
			snprintf(wake, sizeof(wake), "%llu", (unsigned long long)((r3 >> 1) % 200000));
		o += (size_t)snprintf(buf + o, cap - o, "%s,%lld,%s\n", sleep, (long long)tick, wake);
	}
	*len = o;
	return buf;
}

int main(int argc, char **argv)
{
	long lines = argc > 1 ? atol(argv[1]) : 10000000;
	const char *governor = argc > 2 ? argv[2] : "menu";
	const char *platform = argc > 3 ? argv[3] : "intel-skx";
	char err[IK_ERR_LEN];
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	struct ik_driver_binding bind;
	struct ik_govreplay g;

	if (!sc || lines < 1)
		return 1;
	if (ik__platform_load(platform, &sc->platform, err, sizeof(err)) ||
	    ik__driver_table.probe(sc, &bind, err, sizeof(err))) {
		fprintf(stderr, "bench_govreplay: %s\n", err);
		return 1;
	}
	/* Any governor spec: a built-in name, kernel:PATH.c or plugin:PATH.so. */
	struct ik_governor_inst *inst = NULL;
	struct ik_governor_open_args ga = { .spec = governor, .drv = &bind.table, .hz = 250 };
	if (ik__governor_open(&ga, &inst, err, sizeof(err))) {
		fprintf(stderr, "bench_govreplay: %s\n", err);
		return 1;
	}
	if (ik__govreplay_init(&g, &bind.table, ik__governor_inst_ops(inst), 250, NULL, err,
			      sizeof(err))) {
		fprintf(stderr, "bench_govreplay: %s\n", err);
		return 1;
	}

	size_t len = 0;
	char *text = generate(lines, ik__govreplay_tick_nsec(&g), &len);
	FILE *in = text ? fmemopen(text, len, "r") : NULL;
	FILE *out = fopen("/dev/null", "w");
	if (!in || !out) {
		fprintf(stderr, "bench_govreplay: cannot set up the input or /dev/null\n");
		return 1;
	}

	double t0 = now_s();
	clock_t c0 = clock();
	int rc = ik__govreplay_stream(&g, in, "bench", out, err, sizeof(err));
	fflush(out);
	double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
	double wall = now_s() - t0;
	if (rc) {
		fprintf(stderr, "bench_govreplay: %s\n", err);
		return 1;
	}
	printf("bench_govreplay: %s on %s, HZ 250: %ld lines (%.1f MB) in %.3f s wall, %.3f s "
	       "CPU = %.2f M lines/s (%.1f ns/line), stop_tick=1 in %.1f%%\n",
	       governor, platform, lines, (double)len / 1e6, wall, cpu,
	       (double)lines / cpu / 1e6, cpu * 1e9 / (double)lines,
	       100.0 * (double)g.stop_tick_count / (double)g.lines);

	ik__govreplay_free(&g);
	ik__governor_close(inst);
	fclose(in);
	fclose(out);
	free(text);
	free(sc);
	return 0;
}
