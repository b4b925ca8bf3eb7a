/*
 * intel_idle (drivers/idle/intel_idle.c): the native idle driver of Intel CPUs.
 *
 * Loading: not with any idle= option nor max_cstate=0; an Intel family-6 CPU with MWAIT,
 * CPUID leaf 5 reporting both MWAIT extensions and some sub-states.  A CPU model with a
 * built-in table uses it; any other family-6 CPU with MWAIT builds its states from _CST.
 *
 * A built-in table (intel_idle_tables.c) goes in order, up to max_cstate entries: a state
 * whose C-state CPUID leaf 5 reports no sub-states for is skipped; one the table marks
 * UNUSABLE too.  Package C6 disabled in the BIOS changes SKX's and SPR's C6 numbers.
 * Without ARAT, states deeper than C1 stop the local APIC timer.
 *
 * _CST: tables with use_acpi (the Xeons), or intel_idle.use_acpi=1, read it; no_acpi
 * forbids it.  It counts only if every entry (within max_cstate) is FFH and taking control
 * of C-states from the firmware succeeds.  Then a table state whose MWAIT hint _CST does not
 * list starts disabled (CPUIDLE_FLAG_OFF, re-enabled in sysfs), except ALWAYS_ENABLE ones;
 * with PARTIAL_HINT_MATCH only the C-state part of the hint has to match.
 * How a _CST that cannot be used is handled depends on the release (kernel switches
 * intel_idle_acpi_cst, 5.6, and intel_idle_cst_needs_control, 5.10; the scenario key
 * cst_fallback follows the second unless given):
 *   before 5.6  intel_idle does not read _CST: table states all on, no table = no driver.
 *   5.6-5.9     the extraction loop gives up on a _CST it cannot claim control of (and
 *               forgets it), but a _CST with a non-FFH entry is only skipped: after the
 *               last CPU the loop reports "not found or not usable" and returns with the
 *               last table still counted, so its entries (I/O ports, which match no MWAIT
 *               hint) switch every table state they do not list off (cst_fallback = legacy).
 *   5.10 on     every unusable _CST is forgotten: all table states on (fixed).
 *
 * States from _CST alone ("C<n>_ACPI"): exit latency from _CST, target residency equal to
 * it for C1-type states and three times it for deeper ones, C3-type TLB_FLUSHED.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/drivers_internal.h"
#include "drivers/intel_idle_tables.h"
#include "util/errmsg.h"

#define DEFAULT_MAX_CSTATE (IK_STATE_MAX - 1)

/* The usable part of _CST, as intel_idle_acpi_cst_extract() leaves acpi_state_table. */
struct cst_view {
	struct drv_cx cx[DRV_ACPI_MAX_POWER];
	int count; /* entries + 1, as the kernel counts; 0 = no _CST information */
};

static bool cst_usable(const struct cst_view *v, int max_cstate)
{
	int limit = IK_STATE_MAX;
	if (max_cstate + 1 < limit)
		limit = max_cstate + 1;
	if (v->count < limit)
		limit = v->count;
	for (int i = 1; i < limit; i++)
		if (v->cx[i].method != IK_CST_FFH)
			return false;
	return true;
}

/*
 * intel_idle_acpi_cst_extract(): true when _CST can build the states on its own.  On false,
 * v->count says whether the table still counts for intel_idle_off_by_default().
 */
static bool cst_extract(const struct ik_scenario *sc, int max_cstate, struct cst_view *v,
			struct ik_driver_binding *b)
{
	const struct ik_acpi *a = &sc->platform.acpi;
	bool legacy = sc->opt.cst_fallback == IK_CST_FALLBACK_LEGACY;

	v->count = 0;
	if (sc->opt.use_acpi == 0) {
		drv_note(b, "intel_idle: _CST not used (no_acpi)");
		return false;
	}
	int n = drv_evaluate_cst(sc, v->cx, b, "intel_idle");
	if (n < 0)
		return false;
	v->count = n + 1;
	if (!cst_usable(v, max_cstate)) {
		/* every CPU's _CST alike: the loop runs to its end with the last one counted */
		if (legacy) {
			drv_note(b, "intel_idle: _CST lists a state that is not FFH MWAIT: reported "
				 "not usable, but the table stays counted (cst_fallback = legacy, "
				 "v5.6-v5.9): the states it does not list start disabled");
			return false;
		}
		drv_note(b, "intel_idle: _CST lists a state that is not FFH MWAIT: _CST not used");
		v->count = 0;
		return false;
	}
	if (!a->cst_control) {
		/* both behaviours forget the table here (5.9: count cleared, 5.10: loop left) */
		drv_note(b, "intel_idle: C-state control could not be taken from the firmware "
			 "(cst_control = fail): _CST not used");
		v->count = 0;
		return false;
	}
	return true;
}

/* intel_idle_off_by_default(): _CST lists no state with this hint. */
static bool off_by_default(const struct cst_view *v, unsigned flags, uint32_t hint)
{
	if (v->count == 0)
		return false;
	int limit = v->count < IK_STATE_MAX ? v->count : IK_STATE_MAX;
	for (int i = 1; i < limit; i++) {
		uint32_t acpi_hint = v->cx[i].address, table_hint = hint;
		if (flags & IK_FLAG_PARTIAL_HINT_MATCH) {
			acpi_hint &= ~0xfu;
			table_hint &= ~0xfu;
		}
		if (acpi_hint == table_hint)
			return false;
	}
	return true;
}

/* intel_idle_state_needs_timer_stop(): deeper than C1 without ARAT. */
static bool needs_timer_stop(const struct ik_cpuid *c, uint32_t hint)
{
	return !c->arat && ((hint >> 4) & 0xf) != 0;
}

static int from_table(const struct ik_scenario *sc, const struct intel_table *t, int max_cstate,
		      const struct cst_view *v, bool use_acpi, struct ik_driver_binding *b,
		      char *err, size_t errlen)
{
	const struct ik_platform *p = &sc->platform;
	struct ik_driver *drv = &b->table;
	bool pc6 = sc->opt.pc6 >= 0 ? sc->opt.pc6 == 1 : p->intel_idle.pc6;

	if (!pc6 && t->pc6_off_index >= 0)
		drv_note(b, "intel_idle: package C6 disabled: %s uses %u/%u us (core C6)",
			 t->states[t->pc6_off_index].name, (unsigned)t->pc6_off_exit_us,
			 (unsigned)t->pc6_off_residency_us);
	for (int i = 0; i < t->count; i++) {
		const struct intel_cstate *cs = &t->states[i];
		if (i + 1 > max_cstate)
			break;
		if (cs->flags & IK_FLAG_UNUSABLE)
			continue;
		if (drv_mwait_substates(&p->cpuid, cs->hint) == 0) {
			drv_note(b, "intel_idle: %s (MWAIT 0x%02x) left out: CPUID leaf 5 EDX 0x%x reports "
				 "no sub-states for it, as the kernel does", cs->name, cs->hint,
				 (unsigned)p->cpuid.cpuid5_edx);
			continue;
		}
		uint32_t exit_us = cs->exit_us, res_us = cs->residency_us;
		if (!pc6 && i == t->pc6_off_index) {
			exit_us = t->pc6_off_exit_us;
			res_us = t->pc6_off_residency_us;
		}
		unsigned flags = cs->flags | ((unsigned)cs->hint << 24);
		if ((sc->opt.states_off & (1u << drv->state_count)) ||
		    (use_acpi && off_by_default(v, cs->flags, cs->hint) && !(cs->flags & IK_FLAG_ALWAYS_ENABLE)))
			flags |= IK_FLAG_OFF;
		if (needs_timer_stop(&p->cpuid, cs->hint))
			flags |= IK_FLAG_TIMER_STOP;
		if (drv->state_count == IK_STATE_MAX)
			break;
		int idx = drv->state_count++;
		drv_set_state(&drv->states[idx], cs->name, cs->desc, exit_us, res_us, flags);
		if (drv_bind(b, p, idx, IK_METHOD_MWAIT, true, cs->hint, err, errlen))
			return -1;
	}
	return 0;
}

static int from_cst(const struct ik_scenario *sc, int max_cstate, const struct cst_view *v,
		    struct ik_driver_binding *b, char *err, size_t errlen)
{
	const struct ik_platform *p = &sc->platform;
	struct ik_driver *drv = &b->table;
	int limit = v->count < IK_STATE_MAX ? v->count : IK_STATE_MAX;

	for (int i = 1; i < limit; i++) {
		const struct drv_cx *x = &v->cx[i];
		char name[IK_NAME_LEN];
		if (i - 1 + 1 > max_cstate)
			break;
		unsigned flags = x->address << 24;
		if (x->type > 2)
			flags |= IK_FLAG_TLB_FLUSHED;
		if (sc->opt.states_off & (1u << i))
			flags |= IK_FLAG_OFF;
		if (needs_timer_stop(&p->cpuid, x->address))
			flags |= IK_FLAG_TIMER_STOP;
		snprintf(name, sizeof(name), "C%d_ACPI", i);
		int idx = drv->state_count++;
		drv_set_state(&drv->states[idx], name, x->desc, x->latency_us,
			      x->type > 1 ? 3 * x->latency_us : x->latency_us, flags);
		if (drv_bind(b, p, idx, IK_METHOD_MWAIT, true, x->address, err, errlen))
			return -1;
	}
	return 0;
}

static int intel_probe(const struct ik_scenario *sc, struct ik_driver_binding *out, char *err,
		       size_t errlen)
{
	const struct ik_platform *p = &sc->platform;
	const struct ik_cpuid *c = &p->cpuid;
	struct ik_driver *drv = &out->table;
	struct cst_view v;

	drv_probe_begin(out, &ik__driver_intel_idle);
	memset(&v, 0, sizeof(v));
	if (drv_refuse_idle_option(sc, "intel_idle", err, errlen))
		return -1;
	int max_cstate = sc->opt.max_cstate < 0 ? DEFAULT_MAX_CSTATE : sc->opt.max_cstate;
	if (max_cstate == 0)
		return ik__errmsg(err, errlen, "intel_idle: disabled by max_cstate = 0");
	if (c->vendor != IK_VENDOR_INTEL || c->family != 6)
		return ik__errmsg(err, errlen, "intel_idle: needs an Intel family-6 CPU, platform "
				  "%s has vendor %s family 0x%x", p->name,
				  ik__vendor_name(c->vendor), c->family);
	const struct intel_table *t = NULL;
	if (strcmp(p->intel_idle.table, "acpi") != 0)
		t = p->intel_idle.table[0] ? intel_table_by_name(p->intel_idle.table)
					   : intel_table_by_model(c->family, c->model);
	if (!c->mwait)
		return ik__errmsg(err, errlen, "intel_idle: platform %s has no MWAIT ([cpuid] "
				  "mwait = no)", p->name);
	if (!(c->cpuid5_ecx & IK_CPUID5_ECX_EMX) || !(c->cpuid5_ecx & IK_CPUID5_ECX_INT_BREAK) ||
	    !c->cpuid5_edx) {
		return ik__errmsg(err, errlen, "intel_idle: CPUID leaf 5 (ECX 0x%x, EDX 0x%x) "
				  "lacks the MWAIT extensions or sub-states the driver needs",
				  (unsigned)c->cpuid5_ecx, (unsigned)c->cpuid5_edx);
	}
	ik_poll_state_init(drv);
	drv->state_count = 1;
	if (sc->opt.states_off & 1u)
		drv->states[0].flags |= IK_FLAG_OFF;
	if (drv_bind(out, p, 0, IK_METHOD_POLL, false, 0, err, errlen))
		return -1;
	const struct ik_kernel *k = ik_kernel_or_default(&sc->kernel);
	bool reads_cst = ik_kernel_has(k, IK_SW_INTEL_IDLE_ACPI_CST);
	if (!reads_cst && !t)
		return ik__errmsg(err, errlen, "intel_idle: no built-in table for family 6 model "
				  "0x%x, and this kernel's intel_idle does not read _CST "
				  "(intel_idle_acpi_cst = off, before 5.6): the driver does not "
				  "load", c->model);
	if (t) {
		bool use_acpi = reads_cst && (t->use_acpi || sc->opt.use_acpi == 1);
		if (!reads_cst)
			drv_note(out, "intel_idle: _CST not read (intel_idle_acpi_cst = off, before "
				 "5.6): every table state on");
		if (use_acpi)
			cst_extract(sc, max_cstate, &v, out);
		if (from_table(sc, t, max_cstate, &v, use_acpi, out, err, errlen))
			return -1;
	} else {
		if (!cst_extract(sc, max_cstate, &v, out)) {
			snprintf(err, errlen, "intel_idle: no built-in table for family 6 model 0x%x "
				 "and no usable _CST: the driver does not load%s%s", c->model,
				 out->notes[0] ? " (" : "", out->notes[0] ? out->notes : "");
			if (out->notes[0])
				strncat(err, ")", errlen - strlen(err) - 1);
			return -1;
		}
		if (from_cst(sc, max_cstate, &v, out, err, errlen))
			return -1;
	}
	return drv_register(out, err, errlen);
}

const struct ik_idle_driver ik__driver_intel_idle = {
	.name = "intel_idle",
	.probe = intel_probe,
};
