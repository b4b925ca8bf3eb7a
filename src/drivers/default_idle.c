/*
 * No cpuidle driver: the architecture's default idle routine (driver name "none").
 *
 * On x86 the kernel picks one routine at boot (select_idle_routine() in
 * arch/x86/kernel/process.c) and the idle loop calls it directly, with no governor and the
 * tick always stopped.  The order of the choice:
 *   idle=poll           spin until need_resched (cpu_idle_poll)
 *   idle=halt           HLT, nothing else considered
 *   AMD erratum 400     HLT, with the tick on the broadcast timer if the APIC timer stops
 *                       in C1E
 *   MWAIT preferred     MONITOR/MWAIT with hint 0 (C1)
 *   otherwise           STI; HLT
 * "MWAIT preferred" changed in v6.0: before, only Intel CPUs with MWAIT and no MONITOR bug
 * used it; since, any CPU whose CPUID leaf 5 allows MWAIT C1 (no extensions reported, or at
 * least one C1 sub-state), unless idle=nomwait.  The scenario's prefer_mwait picks the rule.
 *
 * The routine decides the real cost: waking an MWAIT or polling CPU needs no IPI, waking
 * a halted one does, and the exit is that of the platform state the routine runs in.
 * Elsewhere: Arm idles in WFI, POWER in its shallowest stop state.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/drivers_internal.h"
#include "util/errmsg.h"

bool drv_prefer_mwait_c1(const struct ik_scenario *sc)
{
	const struct ik_cpuid *c = &sc->platform.cpuid;

	if (sc->opt.idle == IK_IDLE_NOMWAIT || !c->mwait || c->monitor_bug)
		return false;
	if (sc->opt.prefer_mwait == IK_PREFER_MWAIT_VENDOR)
		return c->vendor == IK_VENDOR_INTEL;
	if (!(c->cpuid5_ecx & IK_CPUID5_ECX_EMX))
		return true;
	return (c->cpuid5_edx & 0xf0u) != 0;
}

static int routine_hw(const struct ik_scenario *sc, struct drv_idle_routine *r, enum ik_method m,
		      bool by_hint, uint32_t hint, char *err, size_t errlen)
{
	const struct ik_platform *p = &sc->platform;

	r->hw = drv_hw_find(p, m, by_hint, hint);
	if (r->hw >= 0)
		return 0;
	char want[48];
	drv_hw_want(want, sizeof(want), m, by_hint, hint);
	return ik__errmsg(err, errlen, "default idle routine %s: platform %s has no hardware state "
			  "for it: add a [stateN] with %s (in_table = no keeps it out of the table "
			  "driver)", r->name, p->name, want);
}

static void routine_name(struct drv_idle_routine *r, const char *name, const char *desc)
{
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->desc, sizeof(r->desc), "%s", desc);
}

int drv_idle_routine(const struct ik_scenario *sc, struct drv_idle_routine *r, char *err,
		     size_t errlen)
{
	const struct ik_platform *p = &sc->platform;
	const struct ik_cpuid *c = &p->cpuid;

	memset(r, 0, sizeof(*r));
	if (c->vendor == IK_VENDOR_ARM) {
		routine_name(r, "WFI", "cpu_do_idle: WFI");
		return routine_hw(sc, r, IK_METHOD_WFI, false, 0, err, errlen);
	}
	if (c->vendor == IK_VENDOR_IBM) {
		/* power9_idle: the shallowest stop state the firmware describes. */
		r->hw = drv_hw_find(p, IK_METHOD_STOP, false, 0);
		if (r->hw < 0)
			return ik__errmsg(err, errlen, "default idle routine: platform %s has no "
					  "stop state (method = stop)", p->name);
		routine_name(r, p->states[r->hw].name, "power9_idle: stop");
		return 0;
	}
	switch (sc->opt.idle) {
	case IK_IDLE_POLL:
		/* No POLLING flag: cpu_idle_poll() has no time limit, it spins until work. */
		routine_name(r, "POLL", "cpu_idle_poll (idle=poll)");
		return routine_hw(sc, r, IK_METHOD_POLL, false, 0, err, errlen);
	case IK_IDLE_HALT:
		routine_name(r, "HLT", "default_idle: STI; HLT");
		return routine_hw(sc, r, IK_METHOD_HLT, false, 0, err, errlen);
	default:
		break;
	}
	if (c->amd_e400) {
		routine_name(r, "AMD E400", "amd_e400_idle: HLT");
		if (c->amd_apic_c1e)
			r->flags |= IK_FLAG_TIMER_STOP;
		return routine_hw(sc, r, IK_METHOD_HLT, false, 0, err, errlen);
	}
	if (drv_prefer_mwait_c1(sc)) {
		routine_name(r, "MWAIT C1", "mwait_idle: MWAIT 0x00");
		return routine_hw(sc, r, IK_METHOD_MWAIT, true, 0, err, errlen);
	}
	routine_name(r, "HLT", "default_idle: STI; HLT");
	return routine_hw(sc, r, IK_METHOD_HLT, false, 0, err, errlen);
}

static int default_idle_probe(const struct ik_scenario *sc, struct ik_driver_binding *out,
			      char *err, size_t errlen)
{
	struct drv_idle_routine r;

	drv_probe_begin(out, &ik__driver_default_idle);
	if (drv_idle_routine(sc, &r, err, errlen))
		return -1;
	drv_set_state(&out->table.states[0], r.name, r.desc, 0, 0, r.flags);
	out->table.states[0].power_usage = -1;
	out->table.state_count = 1;
	out->hw_state[0] = r.hw;
	out->bypass_governor = true;
	return drv_register(out, err, errlen);
}

const struct ik_idle_driver ik__driver_default_idle = {
	.name = "none",
	.probe = default_idle_probe,
};
