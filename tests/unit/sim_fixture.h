/*
 * Hand-built platforms and scenarios for simulator tests: small, with constant costs, so
 * expected figures can be worked out by hand.
 */
#ifndef IDLEKIT_TEST_SIM_FIXTURE_H
#define IDLEKIT_TEST_SIM_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "config/scenario.h"

static inline struct ik_dist constant(int64_t ns)
{
	struct ik_dist d;
	memset(&d, 0, sizeof(d));
	d.kind = IK_DIST_CONSTANT;
	d.a_ns = ns;
	return d;
}

static inline void add_state(struct ik_platform *p, const char *name, uint32_t lat, uint32_t res,
		      enum ik_method m, int64_t exit_ns)
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
		s->exit[w] = constant(exit_ns);
	s->entry = constant(0);
	s->power_mw = 100 * (10 - p->state_count);
}

/* 1 package x 4 cores x 2 threads, POLL + C1 (MWAIT) + C2 (I/O port). */
static inline void small_scenario(struct ik_scenario *sc, enum ik_workload_kind kind)
{
	memset(sc, 0, sizeof(*sc));
	struct ik_platform *p = &sc->platform;
	snprintf(sc->name, sizeof(sc->name), "test");
	snprintf(p->name, sizeof(p->name), "test-8");
	p->packages = 1;
	p->cores_per_package = 4;
	p->threads_per_core = 2;
	p->cores_per_llc = 4;
	p->ipi_ns = constant(1000);
	p->poll_wake_ns = 100;
	p->context_switch_ns = 500;
	p->active_power_mw = 2000;
	add_state(p, "POLL", 0, 0, IK_METHOD_POLL, 0);
	add_state(p, "C1", 1, 2, IK_METHOD_MWAIT, 1000);
	add_state(p, "C2", 18, 36, IK_METHOD_IOPORT, 20000);
	sc->hz = 250;
	sc->latency_limit_us = -1;
	snprintf(sc->driver, sizeof(sc->driver), "table");
	snprintf(sc->governor, sizeof(sc->governor), "menu");
	sc->workload.kind = kind;
	sc->workload.pairs = 3;
	sc->workload.work_ns = 5000;
	sc->workload.msg_bytes = 1000;
	sc->workload.placement = IK_PLACE_WAKE_IDLE;
	sc->workload.start_spread_ns = 100000;
	sc->workload.tasks = 6;
	sc->workload.period_ns = 700000;
	sc->workload.task_work_ns = 20000;
	sc->workload.irq_rate_hz = 3000;
	sc->workload.irq_work_ns = 3000;
	sc->duration_ns = 50 * IK_NSEC_PER_MSEC;
	sc->runs = 1;
	sc->seed = 7;
}

#endif
