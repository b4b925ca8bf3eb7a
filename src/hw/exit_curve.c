/*
 * An idle state's exit cost by how long the CPU was idle before the wake-up.
 *
 * On bare metal an exit costs about the same after 50 us as after 50 ms.  In a guest it
 * does not: the host polls a halted vCPU for a while (KVM's halt_poll_ns, 200 us by
 * default) and wakes it fast within that window; after it the vCPU's thread sleeps, and
 * the wake-up pays the host's scheduler and the host CPU's own idle exit.  `platform
 * calibrate` measures the wake-up at several idle lengths and writes what each costs
 * beyond the shortest; the simulator adds it to the exit it draws (src/sim/idle_loop.c).
 *
 * The curve is points (idle, extra): flat before the first and after the last point, and
 * linear in log(idle) between two, since the measured lengths are spaced by factors.  The
 * logarithm is the deterministic one of hw/detmath.h, so that every build draws the same.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "hw/detmath.h"
#include "hw/hw.h"
#include "util/errmsg.h"

/* An hour: far beyond any idle period, and far from int64 overflow. */
#define CURVE_MAX_NS 3600000000000LL

#define CURVE_GRAMMAR "'none' or up to 8 points 'IDLE_NS:EXTRA_NS' (integers, idle > 0 and " \
		      "increasing)"

/* One integer of a point, digits only, in [min, CURVE_MAX_NS]; false if not. */
static bool curve_int(const char *s, size_t len, int64_t min, int64_t *out)
{
	int64_t v = 0;
	if (len == 0 || len > 13)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (v < min || v > CURVE_MAX_NS)
		return false;
	*out = v;
	return true;
}

int ik__exit_curve_parse(const char *text, struct ik_exit_curve *c, char *err, size_t errlen)
{
	const char *p = text;
	struct ik_exit_curve got = { 0 };

	p += strspn(p, " \t");
	if (strncmp(p, "none", 4) == 0 && p[4 + strspn(p + 4, " \t")] == '\0') {
		*c = got;
		return 0;
	}
	while (*p) {
		size_t len = strcspn(p, " \t");
		const char *colon = memchr(p, ':', len);
		int64_t idle, extra;
		if (got.n == IK_EXIT_CURVE_MAX)
			return ik__errmsg(err, errlen, "expected %s, got more than %d points",
					  CURVE_GRAMMAR, IK_EXIT_CURVE_MAX);
		if (!colon || !curve_int(p, (size_t)(colon - p), 1, &idle) ||
		    !curve_int(colon + 1, len - (size_t)(colon + 1 - p), 0, &extra))
			return ik__errmsg(err, errlen, "expected %s, got '%.*s'", CURVE_GRAMMAR,
					  (int)(len > 40 ? 40 : len), p);
		if (got.n > 0 && idle <= got.idle_ns[got.n - 1])
			return ik__errmsg(err, errlen, "expected %s, got idle %" PRId64 " after %" PRId64,
					  CURVE_GRAMMAR, idle, got.idle_ns[got.n - 1]);
		got.idle_ns[got.n] = idle;
		got.extra_ns[got.n] = extra;
		got.n++;
		p += len;
		p += strspn(p, " \t");
	}
	if (got.n == 0)
		return ik__errmsg(err, errlen, "expected %s, got nothing", CURVE_GRAMMAR);
	*c = got;
	return 0;
}

void ik__exit_curve_format(const struct ik_exit_curve *c, char *buf, size_t len)
{
	size_t used = 0;
	if (len == 0)
		return;
	buf[0] = '\0';
	if (c->n <= 0) {
		snprintf(buf, len, "none");
		return;
	}
	for (int i = 0; i < c->n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%" PRId64 ":%" PRId64, i ? " " : "",
				 c->idle_ns[i], c->extra_ns[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

int64_t ik__exit_curve_extra(const struct ik_exit_curve *c, int64_t idle_ns)
{
	if (c->n <= 0)
		return 0;
	if (idle_ns <= c->idle_ns[0])
		return c->extra_ns[0];
	int i = 1;
	while (i < c->n && idle_ns > c->idle_ns[i])
		i++;
	if (i == c->n)
		return c->extra_ns[c->n - 1];
	double x0 = ik__det_log((double)c->idle_ns[i - 1]), x1 = ik__det_log((double)c->idle_ns[i]);
	double f = (ik__det_log((double)idle_ns) - x0) / (x1 - x0);
	double e0 = (double)c->extra_ns[i - 1], e1 = (double)c->extra_ns[i];
	return (int64_t)(e0 + f * (e1 - e0) + 0.5);
}
