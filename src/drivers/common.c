/* Helpers the idle drivers share (see drivers_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/drivers_internal.h"
#include "util/errmsg.h"

void drv_probe_begin(struct ik_driver_binding *out, const struct ik_idle_driver *ops)
{
	memset(out, 0, sizeof(*out));
	out->ops = ops;
	snprintf(out->table.name, sizeof(out->table.name), "%s", ops->name);
}

int drv_refuse_idle_option(const struct ik_scenario *sc, const char *name, char *err,
			   size_t errlen)
{
	if (sc->opt.idle == IK_IDLE_DEFAULT)
		return 0;
	return ik__errmsg(err, errlen, "%s: not loaded with any idle= option", name);
}

int drv_hw_find(const struct ik_platform *p, enum ik_method m, bool by_hint, uint32_t hint)
{
	for (int i = 0; i < p->state_count; i++)
		if (p->states[i].method == m && (!by_hint || p->states[i].hint == hint))
			return i;
	return -1;
}

void drv_hw_want(char *want, size_t len, enum ik_method m, bool by_hint, uint32_t hint)
{
	if (by_hint)
		snprintf(want, len, "method = %s, hint = 0x%x", ik__method_name(m), hint);
	else
		snprintf(want, len, "method = %s", ik__method_name(m));
}

int drv_bind(struct ik_driver_binding *b, const struct ik_platform *p, int index,
	     enum ik_method m, bool by_hint, uint32_t hint, char *err, size_t errlen)
{
	int hw = drv_hw_find(p, m, by_hint, hint);

	if (hw < 0) {
		const struct ik_state *s = &b->table.states[index];
		char want[48];
		drv_hw_want(want, sizeof(want), m, by_hint, hint);
		return ik__errmsg(err, errlen, "%s: platform %s has no hardware state for %s (%s): "
				  "add a [stateN] with %s (with in_table = no if the table driver "
				  "should not list it)", b->table.name, p->name, s->name, s->desc,
				  want);
	}
	b->hw_state[index] = hw;
	return 0;
}

void drv_note(struct ik_driver_binding *b, const char *fmt, ...)
{
	size_t n = strlen(b->notes);
	va_list ap;

	if (n + 3 >= sizeof(b->notes))
		return;
	if (n) {
		memcpy(b->notes + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(b->notes + n, sizeof(b->notes) - n, fmt, ap);
	va_end(ap);
}

int drv_register(struct ik_driver_binding *b, char *err, size_t errlen)
{
	struct ik_driver *drv = &b->table;

	if (ik_driver_init(drv, err, errlen))
		return -1;
	for (int i = 0; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];
		if (s->exit_latency_ns > s->target_residency_ns)
			return ik__errmsg(err, errlen, "%s: state%d %s has exit latency %u us > "
					  "target residency %u us; the kernel (v6.19) refuses to "
					  "register such a driver", drv->name, i, s->name,
					  (unsigned)s->exit_latency, (unsigned)s->target_residency);
	}
	return 0;
}

void drv_set_state(struct ik_state *s, const char *name, const char *desc, uint32_t exit_us,
		   uint32_t residency_us, unsigned flags)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->desc, sizeof(s->desc), "%s", desc);
	s->exit_latency = exit_us;
	s->target_residency = residency_us;
	s->exit_latency_ns = (int64_t)exit_us * IK_NSEC_PER_USEC;
	s->target_residency_ns = (int64_t)residency_us * IK_NSEC_PER_USEC;
	s->flags = flags;
}

unsigned drv_mwait_substates(const struct ik_cpuid *c, uint32_t hint)
{
	unsigned cstate = ((hint >> 4) & 0xf) + 1;
	if (cstate >= 8)
		return 0;
	return (c->cpuid5_edx >> (cstate * 4)) & 0xf;
}
