/*
 * cpuidle-powernv (drivers/cpuidle/cpuidle-powernv.c): IBM POWER on OPAL firmware.
 *
 * State 0 is "snooze", a low-priority spin (POLLING) that gives up after a timeout: the
 * target residency of the next enabled state, or a tick when there is no other state.
 * The others come from the device tree's ibm,cpu-idle-state-* arrays (at most nine): a
 * state whose latency exceeds 200 us is skipped, so are stop states whose PSSCR the kernel
 * finds inconsistent (ESL differing from EC, or a full-context-losing state without ESL);
 * latency and residency are rounded up to microseconds; a state that stops the timebase
 * gets TIMER_STOP.  Names and descs are the device tree's names.
 *
 * A "lite" stop state (ESL = EC = 0, no user context lost) does not release the core's SMT
 * resources: a sibling thread keeps running slower.  A CPU the governor left in one for
 * long deprives its siblings, so a 2019 proposal (never merged; forced_wakeup = on) armed
 * a timer before entering a lite state, at the target residency plus twice the exit
 * latency of the next enabled state, to kick the CPU out and let the governor see a long
 * enough idle period to pick a deeper state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/drivers_internal.h"
#include "util/errmsg.h"

#define THRESHOLD_LATENCY_NS 200000ULL /* POWERNV_THRESHOLD_LATENCY_NS */

/* may_alias: it lives in the binding's bytes (drivers/binding.h) */
struct IK_DRIVER_CTX powernv_ctx {
	bool lite[IK_STATE_MAX];
	bool forced_wakeup;
	int64_t tick_usec_ns; /* default snooze timeout: TICK_USEC in ns */
};
_Static_assert(sizeof(struct powernv_ctx) <= IK_DRIVER_CTX_MAX, "the binding holds the run-time state");

/* validate_psscr_val_mask(): 0 when the kernel accepts the PSSCR value. */
static const char *psscr_problem(const struct ik_dt_state *d)
{
	bool esl = d->psscr & IK_PSSCR_ESL, ec = d->psscr & IK_PSSCR_EC;
	if (esl != ec)
		return "PSSCR ESL and EC bits differ";
	if ((d->flags & IK_OPAL_LOSE_FULL_CONTEXT) && !esl)
		return "a state losing full context without PSSCR ESL";
	return NULL;
}

static int powernv_probe(const struct ik_scenario *sc, struct ik_driver_binding *out, char *err,
			 size_t errlen)
{
	const struct ik_platform *p = &sc->platform;
	const struct ik_powernv *pn = &p->powernv;
	struct ik_driver *drv = &out->table;

	drv_probe_begin(out, &ik__driver_powernv);
	if (p->cpuid.vendor != IK_VENDOR_IBM)
		return ik__errmsg(err, errlen, "powernv_idle: needs an IBM POWER platform on OPAL "
				  "([cpuid] vendor = ibm), platform %s has vendor %s", p->name,
				  ik__vendor_name(p->cpuid.vendor));
	struct powernv_ctx *ctx = (struct powernv_ctx *)out->ctx;
	memset(ctx, 0, sizeof(*ctx));
	ctx->forced_wakeup = sc->opt.forced_wakeup;
	ctx->tick_usec_ns = (int64_t)((1000000 + sc->hz / 2) / sc->hz) * IK_NSEC_PER_USEC;

	drv_set_state(&drv->states[0], "snooze", "snooze", 0, 0, IK_FLAG_POLLING);
	drv->states[0].power_usage = 0;
	drv->state_count = 1;
	if (drv_bind(out, p, 0, IK_METHOD_POLL, false, 0, err, errlen))
		goto fail;

	int n = pn->count;
	if (n == 0)
		drv_note(out, "powernv_idle: no device-tree idle states: only snooze is available");
	if (n > IK_STATE_MAX - 1) {
		drv_note(out, "powernv_idle: %d device-tree idle states, more than allowed: only the "
			 "first %d are used", n, IK_STATE_MAX - 1);
		n = IK_STATE_MAX - 1;
	}
	bool has_stop = n > 0 && (pn->states[0].flags & (IK_OPAL_STOP_FAST | IK_OPAL_STOP_DEEP));
	for (int i = 0; i < n; i++) {
		const struct ik_dt_state *d = &pn->states[i];
		unsigned flags = 0;
		const char *name = d->name;
		enum ik_method m = IK_METHOD_STOP;
		bool by_hint = true;

		if (d->latency_ns > THRESHOLD_LATENCY_NS) {
			drv_note(out, "powernv_idle: %s latency %llu ns > 200 us: skipped, as the kernel "
				 "does", d->name, (unsigned long long)d->latency_ns);
			continue;
		}
		const char *bad = has_stop ? psscr_problem(d) : NULL;
		if (bad) {
			drv_note(out, "powernv_idle: %s: %s (psscr 0x%x): skipped, as the kernel does",
				 d->name, bad, (unsigned)d->psscr);
			continue;
		}
		bool timebase = d->flags & IK_OPAL_TIMEBASE_STOP;
		if (d->flags & IK_OPAL_NAP) {
			name = "Nap";
			m = IK_METHOD_OTHER;
			by_hint = false;
		} else if (has_stop && !timebase) {
			/* stop_loop */
		} else if (d->flags & (IK_OPAL_SLEEP | IK_OPAL_SLEEP_ER1)) {
			name = "FastSleep";
			flags |= IK_FLAG_TIMER_STOP;
			m = IK_METHOD_OTHER;
			by_hint = false;
		} else if (has_stop && timebase) {
			flags |= IK_FLAG_TIMER_STOP;
		} else {
			continue;
		}
		uint32_t exit_us = (uint32_t)((d->latency_ns + 999) / 1000);
		uint32_t res_us = (uint32_t)((d->residency_ns + 999) / 1000);
		int idx = drv->state_count++;
		drv_set_state(&drv->states[idx], name, name, exit_us, res_us, flags);
		ctx->lite[idx] = has_stop && !(d->flags & IK_OPAL_LOSE_USER_CONTEXT) &&
				 !(d->psscr & IK_PSSCR_ESL);
		if (by_hint) {
			if (drv_bind(out, p, idx, m, true, d->psscr, err, errlen))
				goto fail;
		} else {
			int hw = drv_hw_find(p, IK_METHOD_OTHER, false, 0);
			if (hw < 0)
				hw = drv_hw_find(p, IK_METHOD_STOP, false, 0);
			if (hw < 0) {
				snprintf(err, errlen, "powernv_idle: platform %s has no hardware state "
					 "for %s", p->name, name);
				goto fail;
			}
			out->hw_state[idx] = hw;
		}
	}
	return drv_register(out, err, errlen);
fail:
	return -1;
}

/* The next enabled state after index, or -1. */
static int next_enabled(const struct ik_driver *drv, const struct ik_device *dev, int index)
{
	for (int i = index + 1; i < drv->state_count; i++)
		if (!ik_state_disabled(dev, i))
			return i;
	return -1;
}

/*
 * snooze_loop's timeout is the next enabled state's target residency, or TICK_USEC: the
 * simulator arms a polling state's limit from the device's poll limit, so it is set here.
 */
static int powernv_enter(struct ik_driver_binding *b, struct ik_device *dev, int index,
			 int64_t now, struct ik_rng *rng)
{
	struct powernv_ctx *ctx = (struct powernv_ctx *)b->ctx;

	(void)now;
	(void)rng;
	if (index == 0) {
		int next = b->table.state_count > 1 ? next_enabled(&b->table, dev, 0) : -1;
		dev->poll_limit_ns = next > 0 ? (uint64_t)b->table.states[next].target_residency_ns
					      : (uint64_t)ctx->tick_usec_ns;
	}
	return index;
}

static int64_t powernv_wakeup_timer_ns(struct ik_driver_binding *b, const struct ik_device *dev,
				       int entered)
{
	struct powernv_ctx *ctx = (struct powernv_ctx *)b->ctx;

	if (!ctx->forced_wakeup || entered <= 0 || !ctx->lite[entered])
		return 0;
	int next = next_enabled(&b->table, dev, entered);
	if (next < 0)
		return 0;
	const struct ik_state *s = &b->table.states[next];
	return ((int64_t)s->target_residency + 2 * (int64_t)s->exit_latency) * IK_NSEC_PER_USEC;
}

const struct ik_idle_driver ik__driver_powernv = {
	.name = "powernv_idle",
	.probe = powernv_probe,
	.enter = powernv_enter,
	.wakeup_timer_ns = powernv_wakeup_timer_ns,
};
