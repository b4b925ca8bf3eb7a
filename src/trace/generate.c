/* A synthetic idle trace (ik__trace_generate), for tests and benchmarks. */
#include <stdlib.h>

#include "trace/format.h"

/* splitmix64: the same trace on every machine. */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct gen_cpu {
	bool idle;
	int64_t timer; /* 0 = none */
};

int ik__trace_generate(FILE *out, const struct ik_trace_header *h, uint64_t events, uint64_t seed)
{
	struct gen_cpu *cpu = calloc((size_t)h->cpus, sizeof(*cpu));
	struct ik_trace_event ev = { 0 };
	int64_t t = 1000;
	uint64_t n = 0;
	int rc = IK_TRACE_OK;

	if (!cpu)
		return IK_TRACE_EFAIL;
	if (ik__trace_write_header(out, h)) {
		free(cpu);
		return IK_TRACE_EFAIL;
	}
	for (int c = 0; n < events && rc == IK_TRACE_OK; c = (c + 1) % h->cpus) {
		struct gen_cpu *g = &cpu[c];
		const struct ik_driver *drv = &h->drivers[h->cpu_driver[c]].drv;
		uint64_t r = rnd(&seed);
		t += 1 + (int64_t)(r % 4000);
		ev.t_ns = t;
		ev.cpu = c;
		ev.timer_id = 0;
		if (!g->idle) {
			if (!g->timer && (r >> 20) % 2 == 0) {
				/* A timer 1 us .. 1 ms ahead. */
				g->timer = t + 1000 + (int64_t)((r >> 24) % 1000000);
				ev.kind = IK_TRACE_TIMER_START;
				ev.arg = g->timer;
				rc = ik__trace_write_event(out, &ev);
				n++;
			}
			ev.kind = IK_TRACE_IDLE_ENTER;
			ev.state = (int)((r >> 40) % (uint64_t)drv->state_count);
			g->idle = true;
		} else {
			ev.kind = IK_TRACE_WAKE;
			ev.arg = -1;
			if (g->timer && g->timer <= t) {
				ev.cause = IK_CAUSE_TIMER;
				rc = ik__trace_write_event(out, &ev);
				ev.kind = IK_TRACE_TIMER_EXPIRE;
				g->timer = 0;
			} else {
				unsigned k = (unsigned)((r >> 32) % 4);
				ev.cause = k == 0 ? IK_CAUSE_TICK : k == 1 ? IK_CAUSE_IPI : k == 2 ? IK_CAUSE_IRQ
											 : IK_CAUSE_UNKNOWN;
				if (ev.cause == IK_CAUSE_IRQ)
					ev.arg = 16 + (int64_t)((r >> 50) % 8);
			}
			if (rc == IK_TRACE_OK)
				rc = ik__trace_write_event(out, &ev);
			n++;
			ev.kind = IK_TRACE_IDLE_EXIT;
			g->idle = false;
		}
		if (rc == IK_TRACE_OK)
			rc = ik__trace_write_event(out, &ev);
		n++;
	}
	free(cpu);
	if (rc == IK_TRACE_OK && ferror(out))
		rc = IK_TRACE_EFAIL;
	return rc;
}
