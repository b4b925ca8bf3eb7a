/*
 * Whether a trace's clock is CLOCK_MONOTONIC, from its tick expiries (trace/import.h,
 * ik_trace_clock): perf's default clock and trace-cmd's "local" clock differ from it by an
 * offset of their own (hundreds of microseconds after some uptime, and drifting), while on
 * CLOCK_MONOTONIC each tick expiry's now= is a few microseconds before the event's time.
 */
#include "trace/import.h"

void ik__trace_clock_add(struct ik_trace_clock *c, int64_t t_ns, int64_t now_ns, uint64_t line,
			int cpu)
{
	int64_t d = now_ns - t_ns;
	if (c->n == 0 || d < c->min_ns)
		c->min_ns = d;
	if (c->n == 0 || d > c->max_ns)
		c->max_ns = d;
	int64_t ad = d < 0 ? -d : d, af = c->far_ns < 0 ? -c->far_ns : c->far_ns;
	if (c->n == 0 || ad > af) {
		c->far_ns = d;
		c->far_t_ns = t_ns;
		c->far_line = line;
		c->far_cpu = cpu;
	}
	c->n++;
}

bool ik__trace_clock_mono(const struct ik_trace_clock *c, int hz, int64_t *tol_ns)
{
	int64_t tick = IK_NSEC_PER_SEC / (hz > 0 ? hz : 250);
	int64_t spread = c->n ? c->max_ns - c->min_ns : 0;
	int64_t tol = spread > INT64_MAX / 2 ? INT64_MAX : 2 * spread;
	if (tol < IK_TRACE_CLOCK_MIN_TOL_NS)
		tol = IK_TRACE_CLOCK_MIN_TOL_NS;
	if (tol > tick / 10)
		tol = tick / 10;
	if (tol_ns)
		*tol_ns = tol;
	int64_t af = c->far_ns < 0 ? -c->far_ns : c->far_ns;
	return c->n > 0 && af <= tol;
}
