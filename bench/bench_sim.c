/*
 * Simulator throughput: simulated idle entries per second of wall time, for the menu
 * governor under a pingpong workload on 16 CPUs, and the peak memory at two simulated
 * durations (it must not grow with the duration).
 *
 * usage: bench_sim [SIMULATED_SECONDS]   (default 2)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "sim/sim.h"

static struct ik_dist constant(int64_t ns)
{
	struct ik_dist d;
	memset(&d, 0, sizeof(d));
	d.a_ns = ns;
	return d;
}

static void add_state(struct ik_platform *p, const char *name, uint32_t lat, uint32_t res,
		      enum ik_method m, struct ik_dist exit)
{
	struct ik_hw_state *s = &p->states[p->state_count++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->desc, sizeof(s->desc), "%s", name);
	s->latency_us = lat;
	s->residency_us = res;
	s->method = m;
	s->needs_ipi = m != IK_METHOD_POLL && m != IK_METHOD_MWAIT;
	s->flags = m == IK_METHOD_POLL ? IK_FLAG_POLLING : 0;
	for (int w = 0; w < IK_WAKE_SOURCES; w++)
		s->exit[w] = exit;
	s->entry = constant(0);
	s->power_mw = 100;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long max_rss_kb(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int run(struct ik_scenario *sc, double seconds)
{
	struct ik_run_result r;
	char err[256];

	sc->duration_ns = (int64_t)(seconds * 1e9);
	double t0 = now_s();
	if (ik__sim_run(sc, 1, &r, err, sizeof(err))) {
		fprintf(stderr, "bench_sim: %s\n", err);
		return 1;
	}
	double wall = now_s() - t0;
	printf("simulated %.1f s: %llu idle entries in %.3f s wall = %.2f M idle entries/s, "
	       "%.2f M messages/s simulated, peak RSS %ld KiB\n",
	       seconds, (unsigned long long)r.idle_entries, wall,
	       (double)r.idle_entries / wall / 1e6, (double)r.messages / seconds / 1e6,
	       max_rss_kb());
	ik__run_result_free(&r);
	return 0;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 2.0;
	struct ik_scenario sc;
	memset(&sc, 0, sizeof(sc));
	struct ik_platform *p = &sc.platform;

	snprintf(sc.name, sizeof(sc.name), "bench");
	snprintf(p->name, sizeof(p->name), "bench-16");
	p->packages = 1;
	p->cores_per_package = 8;
	p->threads_per_core = 2;
	p->cores_per_llc = 8;
	p->ipi_ns = constant(1000);
	p->poll_wake_ns = 100;
	p->context_switch_ns = 500;
	p->active_power_mw = 2000;
	struct ik_dist c1 = { .kind = IK_DIST_LOGNORMAL, .a_ns = 1000, .sigma = 0.2 };
	struct ik_dist c2 = { .kind = IK_DIST_LOGNORMAL, .a_ns = 20000, .sigma = 0.1 };
	add_state(p, "POLL", 0, 0, IK_METHOD_POLL, constant(0));
	add_state(p, "C1", 1, 2, IK_METHOD_MWAIT, c1);
	add_state(p, "C2", 18, 36, IK_METHOD_IOPORT, c2);
	sc.hz = 250;
	sc.latency_limit_us = -1;
	snprintf(sc.driver, sizeof(sc.driver), "table");
	snprintf(sc.governor, sizeof(sc.governor), "menu");
	sc.workload.kind = IK_WORKLOAD_PINGPONG;
	sc.workload.pairs = 8;
	sc.workload.work_ns = 4000;
	sc.workload.msg_bytes = 1024;
	sc.workload.placement = IK_PLACE_WAKE_IDLE;
	sc.workload.start_spread_ns = 100000;
	sc.runs = 1;

	printf("bench_sim: menu governor, pingpong 8 pairs (work 4 us), 16 CPUs\n");
	if (run(&sc, seconds / 4) || run(&sc, seconds))
		return 1;
	return 0;
}
