/*
 * cpuidle-haltpoll (drivers/cpuidle/cpuidle-haltpoll.c): a KVM guest's driver.
 *
 * Two states: the core's POLL state, whose time limit the haltpoll governor adapts, and
 * "haltpoll idle" (exit latency 1 us, target residency 1 us), which runs the architecture's
 * idle routine: HLT in most guests, MWAIT C1 where the guest sees MWAIT and prefers it.
 * It loads only in a KVM guest with no idle= option, and only when the host hints that
 * the vCPUs are dedicated (KVM_HINTS_REALTIME) or with cpuidle_haltpoll.force=1.  It asks
 * for the haltpoll governor, which is used unless cpuidle.governor= names another.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/drivers_internal.h"
#include "util/errmsg.h"

static int haltpoll_probe(const struct ik_scenario *sc, struct ik_driver_binding *out, char *err,
			  size_t errlen)
{
	const struct ik_platform *p = &sc->platform;
	const struct ik_cpuid *c = &p->cpuid;
	struct ik_driver *drv = &out->table;
	struct drv_idle_routine r;

	drv_probe_begin(out, &ik__driver_haltpoll);
	if (drv_refuse_idle_option(sc, "haltpoll", err, errlen))
		return -1;
	if (c->hypervisor != IK_HYPERVISOR_KVM)
		return ik__errmsg(err, errlen, "haltpoll: needs a KVM guest ([cpuid] hypervisor = "
				  "kvm), platform %s is not one", p->name);
	if (!c->kvm_hint_realtime && !sc->opt.haltpoll_force)
		return ik__errmsg(err, errlen, "haltpoll: the host does not hint dedicated vCPUs "
				  "([cpuid] kvm_hint_realtime = no) and haltpoll_force is off");
	if (drv_idle_routine(sc, &r, err, errlen))
		return -1;
	ik_poll_state_init(drv);
	drv_set_state(&drv->states[1], "haltpoll idle", "default architecture idle", 1, 1, r.flags);
	drv->states[1].power_usage = -1;
	drv->state_count = 2;
	out->hw_state[1] = r.hw;
	if (drv_bind(out, p, 0, IK_METHOD_POLL, false, 0, err, errlen))
		return -1;
	return drv_register(out, err, errlen);
}

const struct ik_idle_driver ik__driver_haltpoll = {
	.name = "haltpoll",
	.governor = "haltpoll",
	.probe = haltpoll_probe,
};
