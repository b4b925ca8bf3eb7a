/*
 * acpi_idle: the ACPI processor idle driver (drivers/acpi/processor_idle.c), built from
 * the platform's _CST package or, without one, from the FADT's P_BLK.
 *
 * Reading the firmware:
 *   _CST entries fill power-state slots 1..7 in order; if the first entry is not a C1, slot
 *   1 is left for a default C1 (HLT).  An FFH entry is an MWAIT hint, usable only when CPUID
 *   leaf 5 reports sub-states for its C-state and both MWAIT extensions; when it is not, a
 *   C1 becomes HLT and a deeper state is dropped.  idle=nomwait also turns an FFH C1 into
 *   HLT.  A SYSTEMIO entry is an I/O port whose read enters the state.
 *   Without _CST (or with nocst) C2 and C3 are P_BLK+4 and P_BLK+5, with the FADT's
 *   latencies (C2 over 100 us or C3 over 1000 us invalidates it).
 * Checking it (acpi_processor_power_verify):
 *   C1 is always valid; C2 needs an address; C3 needs bus-master handling: bm_check (Intel,
 *   AMD Zen, or a single CPU) with _CST, or else the FADT's WBINVD flag.  Latencies out of
 *   order are sorted (only the latency values move).  max_cstate limits the slots; the AMD
 *   APIC-C1E bug limits it to 1.  Without ARAT, the first state of type >= C2 (>= C1 with
 *   that bug) and every deeper one stop the local APIC timer.
 * The table:
 *   state 0 POLL, then "C<slot>" with the firmware's desc, exit latency = _CST latency,
 *   target residency = latency x latency_factor (2), C3 TLB_FLUSHED.
 * At run time:
 *   C3 with bm_check demotes to the safe state (the deepest C1/C2-type) when bus-master
 *   activity is seen.  Without _CST and without FADT C2_MP_SUPPORTED, C2 and deeper run as
 *   C1 on SMP.  After a SYSTEMIO entry the kernel reads the ACPI PM timer, "a dummy wait";
 *   that timer is one chipset register for the whole machine and its reads are slow and
 *   served one at a time, so a CPU waking from an I/O-port state queues behind the others,
 *   and the wait counts in its measured residency and delays its return to work.  Whether
 *   the read happens depends on the kernel: every time before 2022, not in guests (2022),
 *   not in guests nor on Zen (the proposed fix), Intel only and not in guests (mainline).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/drivers_internal.h"
#include "util/errmsg.h"

#define MAX_C2_LATENCY_US 100  /* ACPI_PROCESSOR_MAX_C2_LATENCY */
#define MAX_C3_LATENCY_US 1000 /* ACPI_PROCESSOR_MAX_C3_LATENCY */

static const char *const type_names[] = { "C0", "C1", "C2", "C3" };

/* acpi_processor_ffh_cstate_probe(): can MWAIT with this hint be used? */
static bool ffh_probe(const struct ik_cpuid *c, uint32_t hint)
{
	if (c->vendor != IK_VENDOR_INTEL && c->vendor != IK_VENDOR_AMD)
		return false;
	if (!c->mwait || drv_mwait_substates(c, hint) == 0)
		return false;
	return (c->cpuid5_ecx & IK_CPUID5_ECX_EMX) && (c->cpuid5_ecx & IK_CPUID5_ECX_INT_BREAK);
}

int drv_evaluate_cst(const struct ik_scenario *sc, struct drv_cx cx[DRV_ACPI_MAX_POWER],
		     struct ik_driver_binding *b, const char *who)
{
	const struct ik_platform *p = &sc->platform;
	const struct ik_acpi *a = &p->acpi;
	int last = 0;

	memset(cx, 0, sizeof(*cx) * DRV_ACPI_MAX_POWER);
	if (!a->present || a->cst_count == 0)
		return -1;
	for (int i = 1; i <= a->cst_count; i++) {
		const struct ik_cst_entry *e = &a->cst[i - 1];
		struct drv_cx c = { 0 };

		if (last == DRV_ACPI_MAX_POWER - 1) {
			drv_note(b, "%s: _CST has %d entries, room for %d: [cst%d] and later ignored",
				 who, a->cst_count, DRV_ACPI_MAX_POWER - 1, i);
			break;
		}
		c.type = e->type;
		if (i == 1 && c.type != 1)
			last = 1; /* leave slot 1 for the default C1 */
		c.address = e->address;
		c.latency_us = e->latency_us;
		if (e->method == IK_CST_SYSTEMIO) {
			c.method = IK_CST_SYSTEMIO;
			snprintf(c.desc, sizeof(c.desc), "ACPI IOPORT 0x%x", (unsigned)c.address);
		} else if (e->method == IK_CST_FFH && ffh_probe(&p->cpuid, e->address)) {
			if (c.type == 1 && sc->opt.idle == IK_IDLE_NOMWAIT) {
				c.method = IK_CST_HALT;
				snprintf(c.desc, sizeof(c.desc), "ACPI HLT");
			} else {
				c.method = IK_CST_FFH;
				snprintf(c.desc, sizeof(c.desc), "ACPI FFH MWAIT 0x%x", (unsigned)c.address);
			}
			if (p->cpuid.vendor == IK_VENDOR_INTEL && !(e->access_size & 0x2))
				c.bm_sts_skip = true;
		} else if (c.type == 1) {
			c.method = IK_CST_HALT;
			snprintf(c.desc, sizeof(c.desc), "ACPI HLT");
			if (e->method == IK_CST_FFH)
				drv_note(b, "%s: [cst%d] FFH MWAIT 0x%x is not supported by the CPU "
					 "(CPUID leaf 5 ECX 0x%x EDX 0x%x): C1 uses HLT instead, as the "
					 "kernel does", who, i, (unsigned)e->address,
					 (unsigned)p->cpuid.cpuid5_ecx, (unsigned)p->cpuid.cpuid5_edx);
		} else {
			if (e->method == IK_CST_FFH)
				drv_note(b, "%s: [cst%d] %s FFH MWAIT 0x%x is not supported by the CPU "
					 "(CPUID leaf 5 ECX 0x%x EDX 0x%x): skipped, as the kernel does", who,
					 i, type_names[c.type], (unsigned)e->address,
					 (unsigned)p->cpuid.cpuid5_ecx, (unsigned)p->cpuid.cpuid5_edx);
			else
				drv_note(b, "%s: [cst%d] %s declares FIXED_HARDWARE without an MWAIT "
					 "hint: skipped, as the kernel does", who, i, type_names[c.type]);
			continue;
		}
		if (c.type == 1)
			c.valid = true;
		cx[++last] = c;
	}
	return last;
}

/* Per table index: how the state is entered, for ->enter and ->exit_ns. */
/* may_alias: it lives in the binding's bytes (drivers/binding.h) */
struct IK_DRIVER_CTX acpi_ctx {
	struct drv_cx cx[IK_STATE_MAX];
	int safe_state_index;
	bool bm_check;
	bool bm_check_disable;
	bool fallback_to_c1;
	bool dummy_wait;
	double bm_activity;
	struct ik_dist pm_timer_read;
	int ncpus;
	int64_t port_free_at; /* the PM timer is busy until then */
};
_Static_assert(sizeof(struct acpi_ctx) <= IK_DRIVER_CTX_MAX, "the binding holds the run-time state");

/* Whether the kernel's wait_for_freeze() reads the PM timer on this machine. */
static bool dummy_wait_applies(const struct ik_scenario *sc)
{
	const struct ik_cpuid *c = &sc->platform.cpuid;
	bool guest = c->hypervisor != IK_HYPERVISOR_NONE;

	switch (sc->opt.dummy_wait) {
	case IK_DUMMY_WAIT_ALWAYS:
		return true;
	case IK_DUMMY_WAIT_NOT_IN_GUEST:
		return !guest;
	case IK_DUMMY_WAIT_SKIP_ON_ZEN:
		return !guest && !c->zen;
	case IK_DUMMY_WAIT_INTEL_ONLY:
		break;
	}
	return !guest && c->vendor == IK_VENDOR_INTEL;
}

/* acpi_processor_power_init_bm_check(): bus-master checks instead of cache flushes. */
static bool bm_check_of(const struct ik_platform *p)
{
	const struct ik_cpuid *c = &p->cpuid;
	return ik__platform_cpus(p) == 1 || c->vendor == IK_VENDOR_INTEL ||
	       (c->vendor == IK_VENDOR_AMD && c->family >= 0x17);
}

/* P_BLK fallback (acpi_processor_get_power_info_fadt). */
static int fadt_states(const struct ik_scenario *sc, struct drv_cx cx[DRV_ACPI_MAX_POWER],
		       struct ik_driver_binding *b, char *err, size_t errlen)
{
	const struct ik_acpi *a = &sc->platform.acpi;

	if (!a->pblk)
		return ik__errmsg(err, errlen, "acpi_idle: platform %s has no _CST%s and no P_BLK "
				  "([acpi] pblk): no C-states to use, the driver does not load",
				  sc->platform.name,
				  sc->opt.nocst && a->cst_count ? " in use (nocst)" : "");
	cx[2].type = 2;
	cx[2].method = IK_CST_SYSTEMIO;
	cx[2].address = a->pblk + 4;
	cx[2].latency_us = a->c2_latency_us;
	cx[3].type = 3;
	cx[3].method = IK_CST_SYSTEMIO;
	cx[3].address = a->pblk + 5;
	cx[3].latency_us = a->c3_latency_us;
	if (a->c2_latency_us > MAX_C2_LATENCY_US) {
		drv_note(b, "acpi_idle: FADT C2 latency %u us > %d us: C2 invalid, as the kernel does",
			 (unsigned)a->c2_latency_us, MAX_C2_LATENCY_US);
		cx[2].address = 0;
	}
	if (a->c3_latency_us > MAX_C3_LATENCY_US) {
		drv_note(b, "acpi_idle: FADT C3 latency %u us > %d us: C3 invalid, as the kernel does",
			 (unsigned)a->c3_latency_us, MAX_C3_LATENCY_US);
		cx[3].address = 0;
	}
	snprintf(cx[2].desc, sizeof(cx[2].desc), "ACPI P_LVL2 IOPORT 0x%x", (unsigned)cx[2].address);
	snprintf(cx[3].desc, sizeof(cx[3].desc), "ACPI P_LVL3 IOPORT 0x%x", (unsigned)cx[3].address);
	return 0;
}

/* acpi_processor_power_verify(): which slots are valid, latency order, timer stop. */
static int verify(const struct ik_scenario *sc, struct drv_cx cx[DRV_ACPI_MAX_POWER],
		  int max_cstate, bool has_cst, bool bm_check, struct ik_driver_binding *b)
{
	const struct ik_platform *p = &sc->platform;
	const struct ik_cpuid *c = &p->cpuid;
	uint32_t last_latency = 0;
	int last_type = 0, broadcast_from = IK_STATE_MAX + DRV_ACPI_MAX_POWER;
	bool buggy = false;
	int timer_type = c->amd_apic_c1e ? 1 : 2;

	for (int i = 1; i < DRV_ACPI_MAX_POWER && i <= max_cstate; i++) {
		struct drv_cx *x = &cx[i];
		switch (x->type) {
		case 1:
			x->valid = true;
			break;
		case 2:
			x->valid = x->address != 0;
			break;
		case 3:
			if (!x->address)
				break;
			if (bm_check) {
				/* bm_control is 0 on every CPU modelled here: _CST is required. */
				if (!has_cst)
					drv_note(b, "acpi_idle: C3 at slot %d needs bus-master control "
						 "without _CST: invalid, as the kernel does", i);
				else
					x->valid = true;
			} else if (!p->acpi.wbinvd) {
				drv_note(b, "acpi_idle: C3 at slot %d needs FADT WBINVD when bus-master "
					 "checks are not used: invalid, as the kernel does", i);
			} else {
				x->valid = true;
			}
			break;
		}
		if (!x->valid)
			continue;
		if (x->type >= last_type && x->latency_us < last_latency)
			buggy = true;
		last_latency = x->latency_us;
		last_type = x->type;
		if (!c->arat && x->type >= timer_type && broadcast_from > i)
			broadcast_from = i;
	}
	if (buggy) {
		/* Sort the latency values of the valid slots; names and entry methods stay. */
		drv_note(b, "acpi_idle: FW issue: C-state latencies out of order, sorted as the "
			 "kernel does (only the latency values move)");
		for (int i = 1; i < DRV_ACPI_MAX_POWER && i <= max_cstate; i++)
			for (int j = i + 1; j < DRV_ACPI_MAX_POWER && j <= max_cstate; j++)
				if (cx[i].valid && cx[j].valid && cx[j].latency_us < cx[i].latency_us) {
					uint32_t t = cx[i].latency_us;
					cx[i].latency_us = cx[j].latency_us;
					cx[j].latency_us = t;
				}
	}
	return broadcast_from;
}

static int acpi_probe(const struct ik_scenario *sc, struct ik_driver_binding *out, char *err,
		      size_t errlen)
{
	const struct ik_platform *p = &sc->platform;
	const struct ik_cpuid *c = &p->cpuid;
	struct drv_cx cx[DRV_ACPI_MAX_POWER];
	struct ik_driver *drv = &out->table;

	drv_probe_begin(out, &ik__driver_acpi_idle);
	if (sc->opt.idle == IK_IDLE_POLL || sc->opt.idle == IK_IDLE_HALT)
		return ik__errmsg(err, errlen, "acpi_idle: not loaded with idle=%s",
				  sc->opt.idle == IK_IDLE_POLL ? "poll" : "halt");
	if (!p->acpi.present)
		return ik__errmsg(err, errlen, "acpi_idle: platform %s has no ACPI description "
				  "([acpi] or [cst1]...)", p->name);
	if (c->vendor == IK_VENDOR_IBM || c->vendor == IK_VENDOR_ARM)
		return ik__errmsg(err, errlen, "acpi_idle: platform %s is not x86 (vendor %s): no "
				  "ACPI processor C-states", p->name, ik__vendor_name(c->vendor));

	/* max_cstate, as acpi_processor_cstate_check() leaves it */
	int max_cstate = sc->opt.max_cstate < 0 ? DRV_ACPI_MAX_POWER : sc->opt.max_cstate;
	if (c->amd_apic_c1e && max_cstate > 1) {
		drv_note(out, "acpi_idle: AMD APIC C1E bug: max_cstate 1, as "
			 "the kernel does");
		max_cstate = 1;
	}
	if (max_cstate == 0)
		max_cstate = 1;

	bool has_cst = false;
	int n = sc->opt.nocst ? -1 : drv_evaluate_cst(sc, cx, out, "acpi_idle");
	if (n == 0)
		return ik__errmsg(err, errlen, "acpi_idle: no usable entry in platform %s's _CST: "
				  "the driver does not load (%s)", p->name,
				  out->notes[0] ? out->notes : "empty _CST");
	if (n > 0) {
		has_cst = true;
	} else {
		memset(cx, 0, sizeof(cx));
		if (fadt_states(sc, cx, out, err, errlen))
			return -1;
	}
	if (!cx[1].valid) { /* the default C1 */
		cx[1].type = 1;
		cx[1].valid = true;
		cx[1].method = IK_CST_HALT;
		snprintf(cx[1].desc, sizeof(cx[1].desc), "ACPI HLT");
	}
	bool bm_check = bm_check_of(p);
	int broadcast_from = verify(sc, cx, max_cstate, has_cst, bm_check, out);

	struct acpi_ctx *ctx = (struct acpi_ctx *)out->ctx;
	memset(ctx, 0, sizeof(*ctx));
	ctx->safe_state_index = -1;
	ik_poll_state_init(drv);
	int count = 1;
	for (int i = 1; i < DRV_ACPI_MAX_POWER && i <= max_cstate; i++) {
		const struct drv_cx *x = &cx[i];
		char name[IK_NAME_LEN];
		unsigned flags = 0;

		if (!x->valid)
			continue;
		if (i >= broadcast_from)
			flags |= IK_FLAG_TIMER_STOP;
		if (x->type == 3) {
			flags |= IK_FLAG_TLB_FLUSHED;
			if (bm_check)
				flags |= IK_FLAG_RCU_IDLE;
		}
		snprintf(name, sizeof(name), "C%d", i);
		drv_set_state(&drv->states[count], name, x->desc, x->latency_us,
			      x->latency_us * (uint32_t)sc->opt.latency_factor, flags);
		if (x->type != 3)
			ctx->safe_state_index = count;
		ctx->cx[count] = *x;
		int rc;
		if (x->method == IK_CST_FFH)
			rc = drv_bind(out, p, count, IK_METHOD_MWAIT, true, x->address, err, errlen);
		else if (x->method == IK_CST_SYSTEMIO)
			rc = drv_bind(out, p, count, IK_METHOD_IOPORT, true, x->address, err, errlen);
		else
			rc = drv_bind(out, p, count, IK_METHOD_HLT, false, 0, err, errlen);
		if (rc)
			goto fail;
		count++;
		if (count == IK_STATE_MAX)
			break;
	}
	drv->state_count = count;
	if (drv_bind(out, p, 0, IK_METHOD_POLL, false, 0, err, errlen))
		goto fail;

	ctx->bm_check = bm_check;
	ctx->bm_check_disable = sc->opt.bm_check_disable;
	ctx->fallback_to_c1 = !has_cst && !p->acpi.c2_mp_supported;
	ctx->dummy_wait = dummy_wait_applies(sc);
	ctx->bm_activity = p->acpi.bm_activity;
	ctx->pm_timer_read = p->acpi.pm_timer_read;
	ctx->ncpus = ik__platform_cpus(p);
	return drv_register(out, err, errlen);
fail:
	return -1;
}

/* acpi_idle_enter(): bus-master demotion of C3, C2 -> C1 without C2_MP_SUPPORTED. */
static int acpi_enter(struct ik_driver_binding *b, struct ik_device *dev, int index, int64_t now,
		      struct ik_rng *rng)
{
	struct acpi_ctx *ctx = (struct acpi_ctx *)b->ctx;
	const struct drv_cx *x = &ctx->cx[index];

	(void)dev;
	(void)now;
	if (index <= 0 || x->type == 1)
		return index;
	if (x->type == 3 && ctx->bm_check) {
		if (!x->bm_sts_skip && !ctx->bm_check_disable && ctx->bm_activity > 0 &&
		    ik__rng_unit(rng) < ctx->bm_activity && ctx->safe_state_index > 0)
			return ctx->safe_state_index;
		return index;
	}
	if (ctx->fallback_to_c1 && ctx->ncpus > 1)
		return 1;
	return index;
}

/* The dummy wait: this CPU's PM-timer read, queued behind the reads in progress. */
static int64_t acpi_exit_ns(struct ik_driver_binding *b, int cpu, int entered, int64_t now,
			    struct ik_rng *rng)
{
	struct acpi_ctx *ctx = (struct acpi_ctx *)b->ctx;

	(void)cpu;
	if (!ctx->dummy_wait || entered <= 0 || ctx->cx[entered].method != IK_CST_SYSTEMIO)
		return 0;
	int64_t service = ik__dist_sample(&ctx->pm_timer_read, rng);
	if (service < 0)
		service = 0;
	int64_t start = now > ctx->port_free_at ? now : ctx->port_free_at;
	ctx->port_free_at = start + service;
	return ctx->port_free_at - now;
}

const struct ik_idle_driver ik__driver_acpi_idle = {
	.name = "acpi_idle",
	.probe = acpi_probe,
	.enter = acpi_enter,
	.exit_ns = acpi_exit_ns,
};
