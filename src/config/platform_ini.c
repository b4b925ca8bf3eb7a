/*
 * Platform files: the hardware a simulation runs on.
 *
 *   [platform]                  name, topology, IPI cost, busy power
 *   [state0] [state1] ...       the hardware's idle states, shallow to deep, with what each
 *                               really costs (the "table" driver registers them as listed)
 *   [cpuid]                     the CPU as the kernel sees it: vendor, MWAIT, leaf 5, bugs
 *   [acpi] [cst1] [cst2] ...    FADT facts and the _CST package, for acpi_idle/intel_idle
 *   [intel_idle]                which built-in table, package C6 enabled or not
 *   [dt_state0] ...             a POWER machine's device-tree idle states (powernv)
 *
 * Every key is checked against a table; anything unknown, repeated, malformed or out of
 * range is an error that names the file, line, section and key and says what was
 * expected.  Defaults that depend on other keys (a state's desc, its exit cost, whether
 * waking it needs an IPI) are filled in only after the whole file and any overrides are
 * read, so an override of latency_us also moves the default exit cost.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/driver.h"
#include "config/platform_ini.h"
#include "config/effective.h"

enum platform_key {
	PK_NAME,
	PK_DESCRIPTION,
	PK_SOURCE,
	PK_PACKAGES,
	PK_CORES_PER_PACKAGE,
	PK_THREADS_PER_CORE,
	PK_CORES_PER_LLC,
	PK_IPI_NS,
	PK_POLL_WAKE_NS,
	PK_CONTEXT_SWITCH_NS,
	PK_ACTIVE_POWER_MW,
	PK_COUNT
};
static const char *const platform_keys[PK_COUNT] = {
	"name", "description", "source", "packages", "cores_per_package", "threads_per_core",
	"cores_per_llc", "ipi_ns", "poll_wake_ns", "context_switch_ns", "active_power_mw",
};

enum state_key {
	SK_NAME,
	SK_DESC,
	SK_LATENCY_US,
	SK_RESIDENCY_US,
	SK_METHOD,
	SK_HINT,
	SK_FLAGS,
	SK_POWER_MW,
	SK_ENTRY_NS,
	SK_EXIT_NS,
	SK_EXIT_IPI_NS,
	SK_EXIT_TIMER_NS,
	SK_EXIT_IRQ_NS,
	SK_NEEDS_IPI,
	SK_IN_TABLE,
	SK_LITE,
	SK_CORE_OFF,
	SK_COUNT
};
static const char *const state_keys[SK_COUNT] = {
	"name", "desc", "latency_us", "residency_us", "method", "hint", "flags", "power_mw",
	"entry_ns", "exit_ns", "exit_ipi_ns", "exit_timer_ns", "exit_irq_ns", "needs_ipi",
	"in_table", "lite", "core_off",
};

enum cpuid_key {
	CK_VENDOR,
	CK_FAMILY,
	CK_MODEL,
	CK_MWAIT,
	CK_MONITOR_BUG,
	CK_ARAT,
	CK_ZEN,
	CK_AMD_E400,
	CK_AMD_APIC_C1E,
	CK_HYPERVISOR,
	CK_KVM_HINT_REALTIME,
	CK_CPUID5_ECX,
	CK_CPUID5_EDX,
	CK_COUNT
};
static const char *const cpuid_keys[CK_COUNT] = {
	"vendor", "family", "model", "mwait", "monitor_bug", "arat", "zen", "amd_e400",
	"amd_apic_c1e", "hypervisor", "kvm_hint_realtime", "cpuid5_ecx", "cpuid5_edx",
};

enum acpi_key {
	AK_CST_CONTROL,
	AK_PBLK,
	AK_C2_LATENCY_US,
	AK_C3_LATENCY_US,
	AK_C2_MP_SUPPORTED,
	AK_WBINVD,
	AK_PM_TIMER_PORT,
	AK_PM_TIMER_READ_NS,
	AK_BM_ACTIVITY,
	AK_COUNT
};
static const char *const acpi_keys[AK_COUNT] = {
	"cst_control", "pblk", "c2_latency_us", "c3_latency_us", "c2_mp_supported", "wbinvd",
	"pm_timer_port", "pm_timer_read_ns", "bm_activity",
};

enum cst_key { XK_TYPE, XK_METHOD, XK_ADDRESS, XK_LATENCY_US, XK_POWER_MW, XK_ACCESS_SIZE, XK_COUNT };
static const char *const cst_keys[XK_COUNT] = {
	"type", "method", "address", "latency_us", "power_mw", "access_size",
};

enum effects_key {
	EK_BASE_MHZ,
	EK_TURBO_MHZ,
	EK_SMT_SIBLING_BUSY,
	EK_SMT_SIBLING_LITE,
	EK_PKG_EXIT_NS,
	EK_PKG_ACTIVE_MW,
	EK_PKG_IDLE_MW,
	EK_COUNT
};
static const char *const effects_keys[EK_COUNT] = {
	"base_mhz", "turbo_mhz", "smt_sibling_busy", "smt_sibling_lite", "pkg_exit_ns",
	"pkg_active_mw", "pkg_idle_mw",
};

enum intel_idle_key { IK_KEY_TABLE, IK_KEY_PC6, IK_KEY_COUNT };
static const char *const intel_idle_keys[IK_KEY_COUNT] = { "table", "pc6" };

enum dt_key { DK_NAME, DK_FLAGS, DK_LATENCY_NS, DK_RESIDENCY_NS, DK_PSSCR, DK_COUNT };
static const char *const dt_keys[DK_COUNT] = {
	"name", "flags", "latency_ns", "residency_ns", "psscr",
};

_Static_assert(PK_COUNT <= IK_INI_MAX_KEYS && SK_COUNT <= IK_INI_MAX_KEYS &&
		       CK_COUNT <= IK_INI_MAX_KEYS && AK_COUNT <= IK_INI_MAX_KEYS &&
		       XK_COUNT <= IK_INI_MAX_KEYS && DK_COUNT <= IK_INI_MAX_KEYS &&
		       EK_COUNT <= IK_INI_MAX_KEYS,
	       "key tables");

/* The kinds of section, with their key tables. */
enum sec_kind {
	SEC_PLATFORM,
	SEC_STATE,
	SEC_CPUID,
	SEC_ACPI,
	SEC_CST,
	SEC_INTEL_IDLE,
	SEC_DT,
	SEC_EFFECTS
};
static const struct {
	const char *const *keys;
	int nkeys;
} kind_keys[] = {
	[SEC_PLATFORM] = { platform_keys, PK_COUNT },
	[SEC_STATE] = { state_keys, SK_COUNT },
	[SEC_CPUID] = { cpuid_keys, CK_COUNT },
	[SEC_ACPI] = { acpi_keys, AK_COUNT },
	[SEC_CST] = { cst_keys, XK_COUNT },
	[SEC_INTEL_IDLE] = { intel_idle_keys, IK_KEY_COUNT },
	[SEC_DT] = { dt_keys, DK_COUNT },
	[SEC_EFFECTS] = { effects_keys, EK_COUNT },
};

static const char *const vendor_names[] = { "other", "intel", "amd", "ibm", "arm" };
static const char *const hypervisor_names[] = { "none", "kvm", "other" };
static const char *const cst_method_names[] = { "ffh", "systemio", "halt" };

static const struct {
	const char *name;
	uint32_t flag;
} opal_flag_names[] = {
	{ "dec_stop", IK_OPAL_DEC_STOP },
	{ "timebase_stop", IK_OPAL_TIMEBASE_STOP },
	{ "lose_user_context", IK_OPAL_LOSE_USER_CONTEXT },
	{ "lose_hyp_context", IK_OPAL_LOSE_HYP_CONTEXT },
	{ "lose_full_context", IK_OPAL_LOSE_FULL_CONTEXT },
	{ "nap", IK_OPAL_NAP },
	{ "sleep", IK_OPAL_SLEEP },
	{ "winkle", IK_OPAL_WINKLE },
	{ "sleep_er1", IK_OPAL_SLEEP_ER1 },
	{ "stop_fast", IK_OPAL_STOP_FAST },
	{ "stop_deep", IK_OPAL_STOP_DEEP },
};
#define OPAL_FLAG_LIST "dec_stop timebase_stop lose_user_context lose_hyp_context " \
	"lose_full_context nap sleep winkle sleep_er1 stop_fast stop_deep"

/* "<prefix>N" with N = first..max-1 without leading zeros: N, else -1 (see ik_ini_state_index). */
static int prefixed_index(const char *section, const char *prefix, int first, int max)
{
	size_t n = strlen(prefix);
	if (strncmp(section, prefix, n) != 0)
		return -1;
	const char *d = section + n;
	if (*d == '\0' || (d[0] == '0' && d[1] != '\0'))
		return -1;
	int v = 0;
	for (; *d; d++) {
		if (*d < '0' || *d > '9')
			return -1;
		v = v * 10 + (*d - '0');
		if (v >= max)
			return -1;
	}
	return v >= first ? v : -1;
}

/* The kind of a section and its number (state, cst, dt_state), or -1. */
static int section_kind(const char *section, int *index)
{
	int i;

	*index = 0;
	if (strcmp(section, "platform") == 0)
		return SEC_PLATFORM;
	if (strcmp(section, "cpuid") == 0)
		return SEC_CPUID;
	if (strcmp(section, "acpi") == 0)
		return SEC_ACPI;
	if (strcmp(section, "intel_idle") == 0)
		return SEC_INTEL_IDLE;
	if (strcmp(section, "effects") == 0)
		return SEC_EFFECTS;
	if ((i = ik_ini_state_index(section, IK_STATE_MAX)) >= 0) {
		*index = i;
		return SEC_STATE;
	}
	if ((i = prefixed_index(section, "cst", 1, IK_CST_MAX + 1)) >= 0) {
		*index = i;
		return SEC_CST;
	}
	if ((i = prefixed_index(section, "dt_state", 0, IK_DT_STATE_MAX)) >= 0) {
		*index = i;
		return SEC_DT;
	}
	return -1;
}

static struct ik_ini_section *section_of(struct ik_platform_reader *r, int kind, int index)
{
	switch (kind) {
	case SEC_PLATFORM:
		return &r->platform;
	case SEC_STATE:
		return &r->state[index];
	case SEC_CPUID:
		return &r->cpuid;
	case SEC_ACPI:
		return &r->acpi;
	case SEC_CST:
		return &r->cst[index];
	case SEC_INTEL_IDLE:
		return &r->intel_idle;
	case SEC_EFFECTS:
		return &r->effects;
	default:
		return &r->dt[index];
	}
}

static const struct {
	const char *name;
	unsigned flag;
} flag_names[] = {
	{ "polling", IK_FLAG_POLLING },	    { "timer_stop", IK_FLAG_TIMER_STOP },
	{ "tlb_flushed", IK_FLAG_TLB_FLUSHED }, { "off", IK_FLAG_OFF },
	{ "unusable", IK_FLAG_UNUSABLE },
};
#define FLAG_LIST "polling timer_stop tlb_flushed off unusable"

#define MAX_CPUS 8192
#define MAX_STATE_US 100000000
#define MAX_POWER_MW 1000000
#define MAX_COST_NS 1000000000 /* poll_wake_ns, context_switch_ns: a second is plenty */

/* Topology limits; SMT8 exists on POWER. */
#define MAX_THREADS_PER_CORE 8

static const struct ik_ini_where nowhere = { 0, NULL, NULL };

void ik_platform_reader_init(struct ik_platform_reader *r, const char *origin,
			     struct ik_platform *p, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->origin, sizeof(r->origin), "%s", origin ? origin : "<platform>");
	r->e.origin = r->origin;
	r->e.buf = err;
	r->e.len = errlen;
	if (err && errlen)
		err[0] = '\0';
	r->p = p;

	memset(p, 0, sizeof(*p));
	p->ipi_ns.kind = IK_DIST_CONSTANT;
	p->ipi_ns.a_ns = p->ipi_ns.b_ns = 1000;
	p->poll_wake_ns = 100;
	p->context_switch_ns = 1000;
	/* entry_ns defaults to "constant 0": the zeroed struct ik_dist already is. */

	/* Firmware defaults: what a machine without the quirk has. */
	p->acpi.cst_control = true;
	p->acpi.c2_mp_supported = true;
	p->acpi.wbinvd = true;
	p->acpi.pm_timer_read.kind = IK_DIST_CONSTANT;
	p->acpi.pm_timer_read.a_ns = p->acpi.pm_timer_read.b_ns = 1000;
	p->intel_idle.pc6 = true;
	p->effects.smt_sibling_busy = 1.0;
	p->effects.smt_sibling_lite = 1.0;
}

bool ik_platform_section(const char *section)
{
	int index;
	return section_kind(section, &index) >= 0;
}

int ik_platform_check_key(const char *section, const char *key, char *msg, size_t msglen)
{
	char list[400];
	int index, kind = section_kind(section, &index);
	const char *const *names = platform_keys;
	int n = PK_COUNT;

	if (kind >= 0) {
		names = kind_keys[kind].keys;
		n = kind_keys[kind].nkeys;
	}
	if (ik_ini_key_index(key, names, n) >= 0)
		return 0;
	char shown[80];
	if (msg && msglen)
		snprintf(msg, msglen, "unknown key '%s' in [%s]; known keys: %s",
			 ik_ini_shown(key, shown, sizeof(shown)), section,
			 ik_ini_join(names, n, list, sizeof(list)));
	return -1;
}

/* "[section] key: <what was wrong>" at w. */
static int bad_value(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		     const char *key, const char *msg)
{
	return ik_ini_fail(&r->e, w, "[%s] %s: %s", section, key, msg);
}

static int set_int(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		   const char *key, const char *value, int64_t min, int64_t max, bool hex,
		   int64_t *out)
{
	char msg[256];
	if (ik_ini_int(value, min, max, hex, out, msg, sizeof(msg)) != 0)
		return bad_value(r, w, section, key, msg);
	return 0;
}

static int set_dist(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		    const char *key, const char *value, struct ik_dist *out)
{
	char msg[256];
	if (ik_dist_parse(value, out, msg, sizeof(msg)) != 0)
		return bad_value(r, w, section, key, msg);
	return 0;
}

static int set_text(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		    const char *key, const char *value, size_t size, bool name_chars, char *out)
{
	char msg[256];
	if (ik_ini_text(value, size, name_chars, out, msg, sizeof(msg)) != 0)
		return bad_value(r, w, section, key, msg);
	return 0;
}

static int parse_flags(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		       const char *value, unsigned *out)
{
	unsigned flags = 0;
	const char *p = value;
	char shown[80];

	if (strcmp(value, "none") == 0) {
		*out = 0;
		return 0;
	}
	while (*p) {
		size_t skip = strspn(p, ", \t");
		p += skip;
		size_t len = strcspn(p, ", \t");
		if (len == 0)
			break;
		bool found = false;
		for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
			if (strlen(flag_names[i].name) == len && memcmp(p, flag_names[i].name, len) == 0) {
				flags |= flag_names[i].flag;
				found = true;
			}
		}
		if (!found) {
			char tok[64];
			snprintf(tok, sizeof(tok), "%.*s", (int)(len < 63 ? len : 63), p);
			return ik_ini_fail(&r->e, w, "[%s] flags: expected 'none' or a comma/space "
					   "separated list of: " FLAG_LIST ", got '%s'", section,
					   ik_ini_shown(tok, shown, sizeof(shown)));
		}
		p += len;
	}
	*out = flags;
	return 0;
}

/* "stop_fast, lose_user_context": OPAL flags; "none" = 0. */
static int parse_opal_flags(struct ik_platform_reader *r, struct ik_ini_where w,
			    const char *section, const char *value, uint32_t *out)
{
	uint32_t flags = 0;
	const char *p = value;
	char shown[80];

	if (strcmp(value, "none") == 0) {
		*out = 0;
		return 0;
	}
	while (*p) {
		p += strspn(p, ", \t");
		size_t len = strcspn(p, ", \t");
		if (len == 0)
			break;
		bool found = false;
		for (size_t i = 0; i < sizeof(opal_flag_names) / sizeof(opal_flag_names[0]); i++) {
			if (strlen(opal_flag_names[i].name) == len &&
			    memcmp(p, opal_flag_names[i].name, len) == 0) {
				flags |= opal_flag_names[i].flag;
				found = true;
			}
		}
		if (!found) {
			char tok[64];
			snprintf(tok, sizeof(tok), "%.*s", (int)(len < 63 ? len : 63), p);
			return ik_ini_fail(&r->e, w, "[%s] flags: expected 'none' or a comma/space "
					   "separated list of: " OPAL_FLAG_LIST ", got '%s'", section,
					   ik_ini_shown(tok, shown, sizeof(shown)));
		}
		p += len;
	}
	*out = flags;
	return 0;
}

static int set_bool(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		    const char *key, const char *value, bool *out)
{
	char msg[256];
	if (ik_ini_bool(value, out, msg, sizeof(msg)) != 0)
		return bad_value(r, w, section, key, msg);
	return 0;
}

static int set_enum(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		    const char *key, const char *value, const char *const *names, int n, int *out)
{
	char msg[400];
	if (ik_ini_enum(value, names, n, out, msg, sizeof(msg)) != 0)
		return bad_value(r, w, section, key, msg);
	return 0;
}

static int set_u32(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		   const char *key, const char *value, int64_t max, bool hex, uint32_t *out)
{
	int64_t v;
	if (set_int(r, w, section, key, value, 0, max, hex, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int set_cpuid_key(struct ik_platform_reader *r, int k, const char *value,
			 struct ik_ini_where w)
{
	struct ik_cpuid *c = &r->p->cpuid;
	const char *sec = "cpuid", *key = cpuid_keys[k];
	int64_t v;
	int idx;

	switch (k) {
	case CK_VENDOR:
		if (set_enum(r, w, sec, key, value, vendor_names, 5, &idx))
			return -1;
		c->vendor = (enum ik_cpu_vendor)idx;
		return 0;
	case CK_FAMILY:
		if (set_int(r, w, sec, key, value, 0, 0xfff, true, &v))
			return -1;
		c->family = (int)v;
		return 0;
	case CK_MODEL:
		if (set_int(r, w, sec, key, value, 0, 0xfff, true, &v))
			return -1;
		c->model = (int)v;
		return 0;
	case CK_MWAIT:
		return set_bool(r, w, sec, key, value, &c->mwait);
	case CK_MONITOR_BUG:
		return set_bool(r, w, sec, key, value, &c->monitor_bug);
	case CK_ARAT:
		return set_bool(r, w, sec, key, value, &c->arat);
	case CK_ZEN:
		return set_bool(r, w, sec, key, value, &c->zen);
	case CK_AMD_E400:
		return set_bool(r, w, sec, key, value, &c->amd_e400);
	case CK_AMD_APIC_C1E:
		return set_bool(r, w, sec, key, value, &c->amd_apic_c1e);
	case CK_HYPERVISOR:
		if (set_enum(r, w, sec, key, value, hypervisor_names, 3, &idx))
			return -1;
		c->hypervisor = (enum ik_hypervisor)idx;
		return 0;
	case CK_KVM_HINT_REALTIME:
		return set_bool(r, w, sec, key, value, &c->kvm_hint_realtime);
	case CK_CPUID5_ECX:
		return set_u32(r, w, sec, key, value, UINT32_MAX, true, &c->cpuid5_ecx);
	case CK_CPUID5_EDX:
		return set_u32(r, w, sec, key, value, UINT32_MAX, true, &c->cpuid5_edx);
	}
	return ik_ini_fail(&r->e, w, "[cpuid] %s: internal error", key);
}

static int set_acpi_key(struct ik_platform_reader *r, int k, const char *value,
			struct ik_ini_where w)
{
	static const char *const control[] = { "fail", "ok" };
	struct ik_acpi *a = &r->p->acpi;
	const char *sec = "acpi", *key = acpi_keys[k];
	char msg[256];
	int idx;

	switch (k) {
	case AK_CST_CONTROL:
		if (set_enum(r, w, sec, key, value, control, 2, &idx))
			return -1;
		a->cst_control = idx == 1;
		return 0;
	case AK_PBLK:
		return set_u32(r, w, sec, key, value, 0xffff, true, &a->pblk);
	case AK_C2_LATENCY_US:
		return set_u32(r, w, sec, key, value, 0xffff, false, &a->c2_latency_us);
	case AK_C3_LATENCY_US:
		return set_u32(r, w, sec, key, value, 0xffff, false, &a->c3_latency_us);
	case AK_C2_MP_SUPPORTED:
		return set_bool(r, w, sec, key, value, &a->c2_mp_supported);
	case AK_WBINVD:
		return set_bool(r, w, sec, key, value, &a->wbinvd);
	case AK_PM_TIMER_PORT:
		return set_u32(r, w, sec, key, value, 0xffff, true, &a->pm_timer_port);
	case AK_PM_TIMER_READ_NS:
		return set_dist(r, w, sec, key, value, &a->pm_timer_read);
	case AK_BM_ACTIVITY:
		if (ik_ini_real(value, 0.0, 1.0, &a->bm_activity, msg, sizeof(msg)))
			return bad_value(r, w, sec, key, msg);
		return 0;
	}
	return ik_ini_fail(&r->e, w, "[acpi] %s: internal error", key);
}

static int set_cst_key(struct ik_platform_reader *r, int i, const char *sec, int k,
		       const char *value, struct ik_ini_where w)
{
	static const char *const types[] = { "C1", "C2", "C3" };
	struct ik_cst_entry *c = &r->p->acpi.cst[i - 1];
	const char *key = cst_keys[k];
	char shown[80];
	int64_t v;
	int idx;

	switch (k) {
	case XK_TYPE:
		if (ik_ini_enum(value, types, 3, &idx, NULL, 0) == 0) {
			c->type = idx + 1;
			return 0;
		}
		if (ik_ini_int(value, 1, 3, false, &v, NULL, 0) == 0) {
			c->type = (int)v;
			return 0;
		}
		return ik_ini_fail(&r->e, w, "[%s] type: expected an ACPI C-state type C1, C2 or C3 "
				   "(or 1..3), got '%s'", sec, ik_ini_shown(value, shown, sizeof(shown)));
	case XK_METHOD:
		if (ik_ini_enum(value, cst_method_names, 3, &idx, NULL, 0) != 0)
			return ik_ini_fail(&r->e, w, "[%s] method: expected one of: ffh (FIXED_HARDWARE, "
					   "MWAIT hint in address) systemio (SYSTEM_IO port in address) "
					   "halt (FIXED_HARDWARE without MWAIT), got '%s'", sec,
					   ik_ini_shown(value, shown, sizeof(shown)));
		c->method = (enum ik_cst_method)idx;
		return 0;
	case XK_ADDRESS:
		return set_u32(r, w, sec, key, value, UINT32_MAX, true, &c->address);
	case XK_LATENCY_US:
		return set_u32(r, w, sec, key, value, MAX_STATE_US, false, &c->latency_us);
	case XK_POWER_MW:
		return set_u32(r, w, sec, key, value, MAX_POWER_MW, false, &c->power_mw);
	case XK_ACCESS_SIZE:
		return set_u32(r, w, sec, key, value, 4, false, &c->access_size);
	}
	return ik_ini_fail(&r->e, w, "[%s] %s: internal error", sec, key);
}

static int set_intel_idle_key(struct ik_platform_reader *r, int k, const char *value,
			      struct ik_ini_where w)
{
	struct ik_intel_idle_hw *h = &r->p->intel_idle;
	char shown[80];

	switch (k) {
	case IK_KEY_TABLE:
		if (strcmp(value, "auto") == 0) {
			h->table[0] = '\0';
			return 0;
		}
		if (strcmp(value, "acpi") != 0 && !ik_intel_idle_table_exists(value))
			return ik_ini_fail(&r->e, w, "[intel_idle] table: expected auto (by CPU model), "
					   "acpi (no built-in table: states from _CST) or one of: %s, "
					   "got '%s'", ik_intel_idle_table_names(),
					   ik_ini_shown(value, shown, sizeof(shown)));
		snprintf(h->table, sizeof(h->table), "%s", value);
		return 0;
	case IK_KEY_PC6:
		return set_bool(r, w, "intel_idle", "pc6", value, &h->pc6);
	}
	return ik_ini_fail(&r->e, w, "[intel_idle]: internal error: key %d", k);
}

/*
 * "turbo_mhz = 1:3600 2:3500 4:3300 18:2800": MHz for up to N active cores, N ascending.
 */
static int set_turbo(struct ik_platform_reader *r, struct ik_ini_where w, const char *value)
{
	struct ik_hw_effects *fx = &r->p->effects;
	char shown[80];
	const char *p = value;
	int n = 0;

	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (!*p)
			break;
		char *end;
		errno = 0;
		long cores = strtol(p, &end, 10);
		if (end == p || *end != ':' || errno || cores < 1 || cores > MAX_CPUS)
			goto bad;
		p = end + 1;
		long mhz = strtol(p, &end, 10);
		if (end == p || errno || mhz < 1 || mhz > 100000 ||
		    (*end && *end != ' ' && *end != '\t' && *end != ','))
			goto bad;
		if (n == IK_TURBO_MAX)
			return ik_ini_fail(&r->e, w, "[effects] turbo_mhz: at most %d CORES:MHZ pairs",
					   IK_TURBO_MAX);
		if (n > 0 && cores <= fx->turbo_cores[n - 1])
			return ik_ini_fail(&r->e, w, "[effects] turbo_mhz: core counts must increase, "
					   "got %ld after %d", cores, fx->turbo_cores[n - 1]);
		fx->turbo_cores[n] = (int)cores;
		fx->turbo_mhz[n] = (int)mhz;
		n++;
		p = end;
	}
	fx->nturbo = n;
	return 0;
bad:
	return ik_ini_fail(&r->e, w, "[effects] turbo_mhz: expected CORES:MHZ pairs such as "
			   "'1:3600 2:3500 18:2800', got '%s'", ik_ini_shown(value, shown, sizeof(shown)));
}

static int set_effects_key(struct ik_platform_reader *r, int k, const char *value,
			   struct ik_ini_where w)
{
	struct ik_hw_effects *fx = &r->p->effects;
	const char *key = effects_keys[k];
	char msg[256];
	int64_t v;

	switch (k) {
	case EK_BASE_MHZ:
		if (set_int(r, w, "effects", key, value, 0, 100000, false, &v))
			return -1;
		fx->base_mhz = (int)v;
		return 0;
	case EK_TURBO_MHZ:
		return set_turbo(r, w, value);
	case EK_SMT_SIBLING_BUSY:
	case EK_SMT_SIBLING_LITE:
		if (ik_ini_real(value, 0.01, 1.0, k == EK_SMT_SIBLING_BUSY ? &fx->smt_sibling_busy :
					     &fx->smt_sibling_lite, msg, sizeof(msg)))
			return bad_value(r, w, "effects", key, msg);
		return 0;
	case EK_PKG_EXIT_NS:
		return set_dist(r, w, "effects", key, value, &fx->pkg_exit_ns);
	case EK_PKG_ACTIVE_MW:
	case EK_PKG_IDLE_MW:
		if (set_int(r, w, "effects", key, value, 0, MAX_POWER_MW, false, &v))
			return -1;
		*(k == EK_PKG_ACTIVE_MW ? &fx->pkg_active_mw : &fx->pkg_idle_mw) = (int)v;
		return 0;
	}
	return ik_ini_fail(&r->e, w, "[effects] %s: internal error", key);
}

static int set_dt_key(struct ik_platform_reader *r, int i, const char *sec, int k,
		      const char *value, struct ik_ini_where w)
{
	struct ik_dt_state *d = &r->p->powernv.states[i];
	const char *key = dt_keys[k];
	int64_t v;

	switch (k) {
	case DK_NAME:
		return set_text(r, w, sec, key, value, sizeof(d->name), true, d->name);
	case DK_FLAGS:
		return parse_opal_flags(r, w, sec, value, &d->flags);
	case DK_LATENCY_NS:
		if (set_int(r, w, sec, key, value, 0, (int64_t)MAX_STATE_US * 1000, false, &v))
			return -1;
		d->latency_ns = (uint64_t)v;
		return 0;
	case DK_RESIDENCY_NS:
		if (set_int(r, w, sec, key, value, 0, (int64_t)MAX_STATE_US * 1000, false, &v))
			return -1;
		d->residency_ns = (uint64_t)v;
		return 0;
	case DK_PSSCR:
		return set_u32(r, w, sec, key, value, UINT32_MAX, true, &d->psscr);
	}
	return ik_ini_fail(&r->e, w, "[%s] %s: internal error", sec, key);
}

static int set_platform_key(struct ik_platform_reader *r, int k, const char *value,
			    struct ik_ini_where w)
{
	struct ik_platform *p = r->p;
	const char *sec = "platform", *key = platform_keys[k];
	int64_t v;

	switch (k) {
	case PK_NAME:
		return set_text(r, w, sec, key, value, sizeof(p->name), true, p->name);
	case PK_DESCRIPTION:
		return set_text(r, w, sec, key, value, sizeof(p->description), false, p->description);
	case PK_SOURCE:
		return set_text(r, w, sec, key, value, sizeof(p->source), false, p->source);
	case PK_PACKAGES:
		if (set_int(r, w, sec, key, value, 1, MAX_CPUS, false, &v))
			return -1;
		p->packages = (int)v;
		return 0;
	case PK_CORES_PER_PACKAGE:
		if (set_int(r, w, sec, key, value, 1, MAX_CPUS, false, &v))
			return -1;
		p->cores_per_package = (int)v;
		return 0;
	case PK_THREADS_PER_CORE:
		if (set_int(r, w, sec, key, value, 1, MAX_THREADS_PER_CORE, false, &v))
			return -1;
		p->threads_per_core = (int)v;
		return 0;
	case PK_CORES_PER_LLC:
		if (set_int(r, w, sec, key, value, 1, MAX_CPUS, false, &v))
			return -1;
		p->cores_per_llc = (int)v;
		return 0;
	case PK_IPI_NS:
		return set_dist(r, w, sec, key, value, &p->ipi_ns);
	case PK_POLL_WAKE_NS:
		return set_int(r, w, sec, key, value, 0, MAX_COST_NS, false, &p->poll_wake_ns);
	case PK_CONTEXT_SWITCH_NS:
		return set_int(r, w, sec, key, value, 0, MAX_COST_NS, false, &p->context_switch_ns);
	case PK_ACTIVE_POWER_MW:
		if (set_int(r, w, sec, key, value, 0, MAX_POWER_MW, false, &v))
			return -1;
		p->active_power_mw = (int)v;
		return 0;
	}
	return ik_ini_fail(&r->e, w, "[platform] %s: internal error", key);
}

static int set_state_key(struct ik_platform_reader *r, int i, const char *sec, int k,
			 const char *value, struct ik_ini_where w)
{
	struct ik_hw_state *s = &r->p->states[i];
	const char *key = state_keys[k];
	char msg[256], shown[80];
	int64_t v;

	switch (k) {
	case SK_NAME:
		return set_text(r, w, sec, key, value, sizeof(s->name), true, s->name);
	case SK_DESC:
		return set_text(r, w, sec, key, value, sizeof(s->desc), false, s->desc);
	case SK_LATENCY_US:
		if (set_int(r, w, sec, key, value, 0, MAX_STATE_US, false, &v))
			return -1;
		s->latency_us = (uint32_t)v;
		return 0;
	case SK_RESIDENCY_US:
		if (set_int(r, w, sec, key, value, 0, MAX_STATE_US, false, &v))
			return -1;
		s->residency_us = (uint32_t)v;
		return 0;
	case SK_METHOD:
		if (ik_method_parse(value, &s->method) != 0)
			return ik_ini_fail(&r->e, w, "[%s] method: expected one of: poll mwait hlt "
					   "ioport stop wfi other, got '%s'", sec,
					   ik_ini_shown(value, shown, sizeof(shown)));
		return 0;
	case SK_HINT:
		if (set_int(r, w, sec, key, value, 0, UINT32_MAX, true, &v))
			return -1;
		s->hint = (uint32_t)v;
		return 0;
	case SK_FLAGS:
		return parse_flags(r, w, sec, value, &s->flags);
	case SK_POWER_MW:
		if (set_int(r, w, sec, key, value, 0, MAX_POWER_MW, false, &v))
			return -1;
		s->power_mw = (int)v;
		return 0;
	case SK_ENTRY_NS:
		return set_dist(r, w, sec, key, value, &s->entry);
	case SK_EXIT_NS:
		return set_dist(r, w, sec, key, value, &r->exit_ns[i]);
	case SK_EXIT_IPI_NS:
		return set_dist(r, w, sec, key, value, &s->exit[IK_WAKE_IPI]);
	case SK_EXIT_TIMER_NS:
		return set_dist(r, w, sec, key, value, &s->exit[IK_WAKE_TIMER]);
	case SK_EXIT_IRQ_NS:
		return set_dist(r, w, sec, key, value, &s->exit[IK_WAKE_IRQ]);
	case SK_NEEDS_IPI:
		if (ik_ini_bool(value, &s->needs_ipi, msg, sizeof(msg)) != 0)
			return bad_value(r, w, sec, key, msg);
		return 0;
	case SK_IN_TABLE: {
		bool listed;
		if (ik_ini_bool(value, &listed, msg, sizeof(msg)) != 0)
			return bad_value(r, w, sec, key, msg);
		s->unlisted = !listed;
		return 0;
	}
	case SK_LITE:
		if (ik_ini_bool(value, &r->p->effects.state_lite[i], msg, sizeof(msg)) != 0)
			return bad_value(r, w, sec, key, msg);
		return 0;
	case SK_CORE_OFF:
		if (ik_ini_bool(value, &r->p->effects.state_core_off[i], msg, sizeof(msg)) != 0)
			return bad_value(r, w, sec, key, msg);
		return 0;
	}
	return ik_ini_fail(&r->e, w, "[%s] %s: internal error", sec, key);
}

int ik_platform_reader_set(struct ik_platform_reader *r, const char *section, const char *key,
			   const char *value, struct ik_ini_where w)
{
	char msg[500], shown[80];
	int index;

	if (section[0] == '\0')
		return ik_ini_fail(&r->e, w, "key '%s' is outside any section; platform files have "
				   "[platform], [state0], [state1], ...",
				   ik_ini_shown(key, shown, sizeof(shown)));
	int kind = section_kind(section, &index);
	if (kind < 0)
		return ik_ini_fail(&r->e, w, "unknown section [%s]; known sections: "
				   IK_PLATFORM_SECTIONS, ik_ini_shown(section, shown, sizeof(shown)));
	struct ik_ini_section *sec = section_of(r, kind, index);
	int k = ik_ini_key_index(key, kind_keys[kind].keys, kind_keys[kind].nkeys);
	if (k < 0) {
		ik_platform_check_key(section, key, msg, sizeof(msg));
		return ik_ini_fail(&r->e, w, "%s", msg);
	}
	if (!sec->present) { /* a section only an override mentions */
		sec->present = true;
		sec->where = w;
	}
	if (ik_ini_mark_key(&r->e, sec, section, k, key, w) != 0)
		return -1;
	if (r->cfg) {
		enum ik_config_origin o = w.override ? IK_ORIGIN_SET :
			w.file ? IK_ORIGIN_SCENARIO : IK_ORIGIN_PLATFORM;
		if (ik_config_give(r->cfg, section, key, value, o, msg, sizeof(msg)) != 0)
			return ik_ini_fail(&r->e, w, "[%s] %s: %s", section, key, msg);
	}
	switch (kind) {
	case SEC_STATE:
		return set_state_key(r, index, section, k, value, w);
	case SEC_CPUID:
		return set_cpuid_key(r, k, value, w);
	case SEC_ACPI:
		return set_acpi_key(r, k, value, w);
	case SEC_CST:
		return set_cst_key(r, index, section, k, value, w);
	case SEC_INTEL_IDLE:
		return set_intel_idle_key(r, k, value, w);
	case SEC_DT:
		return set_dt_key(r, index, section, k, value, w);
	case SEC_EFFECTS:
		return set_effects_key(r, k, value, w);
	default:
		return set_platform_key(r, k, value, w);
	}
}

static int on_section(void *user, const char *name, int line)
{
	struct ik_platform_reader *r = user;
	struct ik_ini_where w = { line, NULL, NULL };
	char shown[80];
	int index, kind = section_kind(name, &index);

	if (kind < 0) {
		if (ik_ini_state_index(name, 1000000) >= IK_STATE_MAX)
			return ik_ini_fail(&r->e, w, "[%s]: at most %d idle states (state0..state%d)",
					   ik_ini_shown(name, shown, sizeof(shown)), IK_STATE_MAX,
					   IK_STATE_MAX - 1);
		if (prefixed_index(name, "cst", 0, 1000000) >= 0)
			return ik_ini_fail(&r->e, w, "[%s]: _CST entries are [cst1]..[cst%d]",
					   ik_ini_shown(name, shown, sizeof(shown)), IK_CST_MAX);
		if (prefixed_index(name, "dt_state", 0, 1000000) >= 0)
			return ik_ini_fail(&r->e, w, "[%s]: at most %d device-tree idle states "
					   "(dt_state0..dt_state%d)", ik_ini_shown(name, shown, sizeof(shown)),
					   IK_DT_STATE_MAX, IK_DT_STATE_MAX - 1);
		return ik_ini_fail(&r->e, w, "unknown section [%s]; known sections: "
				   IK_PLATFORM_SECTIONS, ik_ini_shown(name, shown, sizeof(shown)));
	}
	struct ik_ini_section *sec = section_of(r, kind, index);
	if (sec->present)
		return ik_ini_fail(&r->e, w, "duplicate section [%s] (first on line %d)", name,
				   sec->where.line);
	sec->present = true;
	sec->where = w;
	return 0;
}

static int on_key(void *user, const char *section, const char *key, const char *value, int line)
{
	return ik_platform_reader_set(user, section, key, value, (struct ik_ini_where){ line, NULL, NULL });
}

int ik_platform_reader_parse(struct ik_platform_reader *r, const char *text)
{
	static const struct ik_ini_callbacks cb = { on_section, on_key };
	return ik_ini_parse_text(&r->e, text, &cb, r);
}

/* ---- after the last key: defaults and checks ----------------------------------------- */

static int require(struct ik_platform_reader *r, const struct ik_ini_section *sec,
		   const char *section, const char *const *names, const int *keys, int n)
{
	for (int i = 0; i < n; i++)
		if (!sec->set[keys[i]])
			return ik_ini_fail(&r->e, sec->where, "[%s]: missing required key '%s'", section,
					   names[keys[i]]);
	return 0;
}

/* Where a key was set, else where its section starts. */
static struct ik_ini_where key_where(const struct ik_ini_section *sec, int k)
{
	return sec->set[k] ? sec->key_where[k] : sec->where;
}

static int finish_platform_section(struct ik_platform_reader *r)
{
	static const int required[] = { PK_NAME, PK_PACKAGES, PK_CORES_PER_PACKAGE,
					PK_THREADS_PER_CORE, PK_ACTIVE_POWER_MW };
	struct ik_platform *p = r->p;

	if (!r->platform.present)
		return ik_ini_fail(&r->e, nowhere, "missing section [platform] (with at least name, "
				   "packages, cores_per_package, threads_per_core, active_power_mw)");
	if (require(r, &r->platform, "platform", platform_keys, required,
		    (int)(sizeof(required) / sizeof(required[0]))))
		return -1;
	int64_t cpus = (int64_t)p->packages * p->cores_per_package * p->threads_per_core;
	if (cpus > MAX_CPUS)
		return ik_ini_fail(&r->e, r->platform.where, "[platform]: packages * cores_per_package "
				   "* threads_per_core = %" PRId64 " CPUs, expected at most %d", cpus,
				   MAX_CPUS);
	if (!r->platform.set[PK_CORES_PER_LLC])
		p->cores_per_llc = p->cores_per_package;
	if (p->cores_per_package % p->cores_per_llc != 0)
		return ik_ini_fail(&r->e, key_where(&r->platform, PK_CORES_PER_LLC),
				   "[platform] cores_per_llc: expected a divisor of cores_per_package "
				   "(%d), got %d", p->cores_per_package, p->cores_per_llc);
	return 0;
}

static int finish_state(struct ik_platform_reader *r, int i)
{
	static const int required[] = { SK_NAME, SK_LATENCY_US, SK_RESIDENCY_US, SK_METHOD };
	struct ik_ini_section *sec = &r->state[i];
	struct ik_hw_state *s = &r->p->states[i];
	char name[24];

	snprintf(name, sizeof(name), "state%d", i);
	if (require(r, sec, name, state_keys, required, (int)(sizeof(required) / sizeof(required[0]))))
		return -1;
	for (int j = 0; j < i; j++)
		if (strcmp(r->p->states[j].name, s->name) == 0)
			return ik_ini_fail(&r->e, key_where(sec, SK_NAME), "[%s] name: '%s' is already "
					   "the name of [state%d]; state names must be unique", name,
					   s->name, j);

	if (s->method == IK_METHOD_POLL) {
		if (i != 0)
			return ik_ini_fail(&r->e, key_where(sec, SK_METHOD), "[%s] method: poll is only "
					   "allowed for state0 (the kernel's POLL state)", name);
		s->flags |= IK_FLAG_POLLING;
	} else if (s->flags & IK_FLAG_POLLING) {
		return ik_ini_fail(&r->e, key_where(sec, SK_FLAGS), "[%s] flags: polling is only "
				   "allowed with method poll, got method %s", name,
				   ik_method_name(s->method));
	}

	_Static_assert(sizeof(s->desc) >= sizeof(s->name), "desc holds a name");
	if (!sec->set[SK_DESC])
		memcpy(s->desc, s->name, sizeof(s->name));
	if (!sec->set[SK_EXIT_NS]) {
		memset(&r->exit_ns[i], 0, sizeof(r->exit_ns[i]));
		r->exit_ns[i].kind = IK_DIST_CONSTANT;
		r->exit_ns[i].a_ns = r->exit_ns[i].b_ns = (int64_t)s->latency_us * 1000;
	}
	static const int by_source[IK_WAKE_SOURCES] = {
		[IK_WAKE_IPI] = SK_EXIT_IPI_NS,
		[IK_WAKE_TIMER] = SK_EXIT_TIMER_NS,
		[IK_WAKE_IRQ] = SK_EXIT_IRQ_NS,
	};
	for (int src = 0; src < IK_WAKE_SOURCES; src++)
		if (!sec->set[by_source[src]])
			s->exit[src] = r->exit_ns[i];
	if (!sec->set[SK_NEEDS_IPI])
		s->needs_ipi = !(s->method == IK_METHOD_POLL || s->method == IK_METHOD_MWAIT);
	/* A polling CPU spins like a busy one; other states cost nothing unless told. */
	if (!sec->set[SK_POWER_MW])
		s->power_mw = s->method == IK_METHOD_POLL ? r->p->active_power_mw : 0;
	return 0;
}

/*
 * Where to point for "states out of order" between state `before` and state i: at state
 * i's key, unless only the other's came from an override (the file alone was in order).
 */
static struct ik_ini_where order_where(const struct ik_platform_reader *r, int i, int before,
				       int k)
{
	struct ik_ini_where w = key_where(&r->state[i], k);
	struct ik_ini_where prev = key_where(&r->state[before], k);
	return (!w.override && prev.override) ? prev : w;
}

/* Sections numbered from `first` must have no gaps: [X3] needs [X2]. */
static int check_numbering(struct ik_platform_reader *r, const struct ik_ini_section *secs,
			   int first, int max, const char *prefix, int *count)
{
	int n = 0;

	*count = 0; /* defined on the error path too (gcc -O3 cannot see ik_ini_fail returns -1) */

	for (int i = first; i < max; i++)
		if (secs[i].present)
			n = i + 1;
	for (int i = first; i < n; i++)
		if (!secs[i].present) {
			int next = i + 1;
			while (!secs[next].present)
				next++;
			return ik_ini_fail(&r->e, secs[next].where, "[%s%d] without [%s%d]: numbered "
					   "from %s%d without gaps", prefix, next, prefix, i, prefix, first);
		}
	*count = n > first ? n - first : 0;
	return 0;
}

static int finish_cpuid(struct ik_platform_reader *r)
{
	struct ik_cpuid *c = &r->p->cpuid;

	r->p->has_cpuid = r->cpuid.present;
	if (!r->cpuid.present)
		return 0;
	if (!r->cpuid.set[CK_VENDOR])
		return ik_ini_fail(&r->e, r->cpuid.where, "[cpuid]: missing required key 'vendor'");
	if (!r->cpuid.set[CK_ZEN])
		c->zen = c->vendor == IK_VENDOR_AMD && c->family >= 0x17;
	if (c->kvm_hint_realtime && c->hypervisor != IK_HYPERVISOR_KVM)
		return ik_ini_fail(&r->e, key_where(&r->cpuid, CK_KVM_HINT_REALTIME),
				   "[cpuid] kvm_hint_realtime: only meaningful with hypervisor = kvm, "
				   "got hypervisor = %s", hypervisor_names[c->hypervisor]);
	return 0;
}

static int finish_acpi(struct ik_platform_reader *r)
{
	struct ik_acpi *a = &r->p->acpi;
	int count;

	if (check_numbering(r, r->cst, 1, IK_CST_MAX + 1, "cst", &count))
		return -1;
	a->cst_count = count;
	a->present = r->acpi.present || count > 0;
	for (int i = 1; i <= count; i++) {
		static const int required[] = { XK_TYPE, XK_METHOD, XK_LATENCY_US };
		struct ik_ini_section *sec = &r->cst[i];
		struct ik_cst_entry *c = &a->cst[i - 1];
		char name[16];

		snprintf(name, sizeof(name), "cst%d", i);
		if (require(r, sec, name, cst_keys, required, 3))
			return -1;
		if (c->method != IK_CST_HALT && !sec->set[XK_ADDRESS])
			return ik_ini_fail(&r->e, sec->where, "[%s]: missing required key 'address' "
					   "(the %s for method %s)", name,
					   c->method == IK_CST_FFH ? "MWAIT hint" : "I/O port",
					   cst_method_names[c->method]);
		if (c->method == IK_CST_FFH && c->address > 0xff)
			return ik_ini_fail(&r->e, key_where(sec, XK_ADDRESS), "[%s] address: an MWAIT "
					   "hint is one byte (0x00..0xff), got 0x%" PRIx32, name,
					   c->address);
		if (c->method == IK_CST_SYSTEMIO && c->address > 0xffff)
			return ik_ini_fail(&r->e, key_where(sec, XK_ADDRESS), "[%s] address: an I/O "
					   "port is 0x0000..0xffff, got 0x%" PRIx32, name, c->address);
		if (!sec->set[XK_ACCESS_SIZE])
			c->access_size = 3;
	}
	return 0;
}

static int finish_dt(struct ik_platform_reader *r)
{
	struct ik_powernv *pn = &r->p->powernv;
	int count;

	if (check_numbering(r, r->dt, 0, IK_DT_STATE_MAX, "dt_state", &count))
		return -1;
	pn->count = count;
	for (int i = 0; i < count; i++) {
		static const int required[] = { DK_NAME, DK_FLAGS, DK_LATENCY_NS, DK_RESIDENCY_NS };
		struct ik_ini_section *sec = &r->dt[i];
		char name[24];

		snprintf(name, sizeof(name), "dt_state%d", i);
		if (require(r, sec, name, dt_keys, required, 4))
			return -1;
		if ((pn->states[i].flags & (IK_OPAL_STOP_FAST | IK_OPAL_STOP_DEEP)) &&
		    !sec->set[DK_PSSCR])
			return ik_ini_fail(&r->e, sec->where, "[%s]: missing required key 'psscr' "
					   "(a stop state's PSSCR value)", name);
	}
	return 0;
}

int ik_platform_reader_finish(struct ik_platform_reader *r)
{
	struct ik_platform *p = r->p;
	int count = 0;

	if (finish_platform_section(r))
		return -1;
	for (int i = 0; i < IK_STATE_MAX; i++)
		if (r->state[i].present)
			count = i + 1;
	if (count == 0)
		return ik_ini_fail(&r->e, nowhere, "no idle states: expected [state0], [state1], ... "
				   "(at least one)");
	for (int i = 0; i < count; i++)
		if (!r->state[i].present) {
			int next = i + 1;
			while (!r->state[next].present)
				next++;
			return ik_ini_fail(&r->e, r->state[next].where, "[state%d] without [state%d]: "
					   "states are numbered from state0 without gaps", next, i);
		}
	for (int i = 0; i < count; i++)
		if (finish_state(r, i))
			return -1;
	/* The table driver's states in order; unlisted states are outside that table. */
	int prev = -1;
	for (int i = 0; i < count; i++) {
		if (p->states[i].unlisted)
			continue;
		if (prev >= 0) {
			const struct ik_hw_state *a = &p->states[prev], *b = &p->states[i];
			if (b->latency_us < a->latency_us)
				return ik_ini_fail(&r->e, order_where(r, i, prev, SK_LATENCY_US),
						   "states out of order: state%d latency_us %" PRIu32
						   " < state%d latency_us %" PRIu32, i, b->latency_us,
						   prev, a->latency_us);
			if (b->residency_us < a->residency_us)
				return ik_ini_fail(&r->e, order_where(r, i, prev, SK_RESIDENCY_US),
						   "states out of order: state%d residency_us %" PRIu32
						   " < state%d residency_us %" PRIu32, i, b->residency_us,
						   prev, a->residency_us);
		}
		prev = i;
	}
	p->state_count = count;
	if (finish_cpuid(r) || finish_acpi(r) || finish_dt(r))
		return -1;
	return 0;
}

/* ---- finding and loading --------------------------------------------------------------- */

static bool is_path(const char *ref)
{
	size_t n = strlen(ref);
	return strchr(ref, '/') || (n >= 4 && strcmp(ref + n - 4, ".ini") == 0);
}

void ik_platform_text_free(struct ik_platform_text *t)
{
	free(t->owned);
	t->owned = NULL;
	t->text = NULL;
}

int ik_platform_find(const char *ref, const char *base_dir, struct ik_platform_text *t,
		     char *err, size_t errlen)
{
	char shown[160], names[256];
	size_t len = 0;

	memset(t, 0, sizeof(*t));
	if (!ref || !*ref) {
		if (err && errlen)
			snprintf(err, errlen, "expected a built-in platform name or a path to an .ini "
				 "file, got ''");
		return -1;
	}
	if (is_path(ref)) {
		int first_errno = 0;
		if (ik_ini_read_file(ref, &t->owned, err, errlen, &first_errno) == 0) {
			snprintf(t->origin, sizeof(t->origin), "%s", ref);
			t->text = t->owned;
			return 0;
		}
		if (ref[0] == '/' || !base_dir || !*base_dir || first_errno != ENOENT)
			return -1;
		char other[IK_PLATFORM_ORIGIN_LEN];
		int k = snprintf(other, sizeof(other), "%s/%s", base_dir, ref);
		if (k < 0 || (size_t)k >= sizeof(other))
			return -1;
		char err2[IK_ERR_LEN];
		int second_errno = 0;
		if (ik_ini_read_file(other, &t->owned, err2, sizeof(err2), &second_errno) == 0) {
			snprintf(t->origin, sizeof(t->origin), "%s", other);
			t->text = t->owned;
			return 0;
		}
		if (second_errno == ENOENT) {
			if (err && errlen) {
				size_t n = strlen(err);
				snprintf(err + n, errlen - n, " (also tried %s)",
					 ik_ini_shown(other, shown, sizeof(shown)));
			}
		} else if (err && errlen) {
			snprintf(err, errlen, "%s", err2); /* it exists there but is unreadable */
		}
		return -1;
	}
	for (const struct ik_builtin *b = ik_builtin_platforms; b->name; b++) {
		if (strcmp(b->name, ref) == 0) {
			snprintf(t->origin, sizeof(t->origin), "%s.ini (built-in)", b->name);
			t->text = b->text;
			return 0;
		}
	}
	names[0] = '\0';
	for (const struct ik_builtin *b = ik_builtin_platforms; b->name && len < sizeof(names); b++) {
		int k = snprintf(names + len, sizeof(names) - len, "%s%s", len ? " " : "", b->name);
		if (k < 0)
			break;
		len += (size_t)k;
	}
	if (err && errlen)
		snprintf(err, errlen, "unknown platform '%s'; built-in platforms: %s (a file path must "
			 "contain '/' or end in .ini)", ik_ini_shown(ref, shown, sizeof(shown)),
			 names[0] ? names : "none");
	return -1;
}

int ik_platform_parse_string(const char *origin, const char *text, struct ik_platform *p,
			     char *err, size_t errlen)
{
	struct ik_platform_reader *r = malloc(sizeof(*r));
	if (!r) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", origin ? origin : "<platform>");
		return -1;
	}
	ik_platform_reader_init(r, origin, p, err, errlen);
	int ret = ik_platform_reader_parse(r, text);
	if (ret == 0)
		ret = ik_platform_reader_finish(r);
	free(r);
	return ret;
}

int ik_platform_load(const char *ref, struct ik_platform *p, char *err, size_t errlen)
{
	struct ik_platform_text t;

	if (ik_platform_find(ref, NULL, &t, err, errlen) != 0)
		return -1;
	int ret = ik_platform_parse_string(t.origin, t.text, p, err, errlen);
	ik_platform_text_free(&t);
	return ret;
}

const char *ik_vendor_name(enum ik_cpu_vendor v)
{
	if ((unsigned)v < sizeof(vendor_names) / sizeof(vendor_names[0]))
		return vendor_names[v];
	return "?";
}

/* ---- the effective configuration --------------------------------------------------- */

static void format_flags(unsigned flags, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]) && used < len; i++)
		if (flags & flag_names[i].flag)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
						 flag_names[i].name);
	if (!buf[0])
		snprintf(buf, len, "none");
}

static void format_opal_flags(uint32_t flags, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(opal_flag_names) / sizeof(opal_flag_names[0]) && used < len;
	     i++)
		if (flags & opal_flag_names[i].flag)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
						 opal_flag_names[i].name);
	if (!buf[0])
		snprintf(buf, len, "none");
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

/*
 * The value the platform runs with for one key of one section, as INI text the reader
 * takes back (a switch per key table: the compiler names a new key without a case).
 */
static void format_platform(const struct ik_platform *p, enum platform_key k, char *buf,
			    size_t len)
{
	switch (k) {
	case PK_NAME: snprintf(buf, len, "%s", p->name); return;
	case PK_DESCRIPTION: snprintf(buf, len, "%s", p->description); return;
	case PK_SOURCE: snprintf(buf, len, "%s", p->source); return;
	case PK_PACKAGES: snprintf(buf, len, "%d", p->packages); return;
	case PK_CORES_PER_PACKAGE: snprintf(buf, len, "%d", p->cores_per_package); return;
	case PK_THREADS_PER_CORE: snprintf(buf, len, "%d", p->threads_per_core); return;
	case PK_CORES_PER_LLC: snprintf(buf, len, "%d", p->cores_per_llc); return;
	case PK_IPI_NS: ik_dist_format(&p->ipi_ns, buf, len); return;
	case PK_POLL_WAKE_NS: snprintf(buf, len, "%" PRId64, p->poll_wake_ns); return;
	case PK_CONTEXT_SWITCH_NS: snprintf(buf, len, "%" PRId64, p->context_switch_ns); return;
	case PK_ACTIVE_POWER_MW: snprintf(buf, len, "%d", p->active_power_mw); return;
	case PK_COUNT: break;
	}
	buf[0] = '\0';
}

static void format_state(const struct ik_platform_reader *r, int i, enum state_key k, char *buf,
			 size_t len)
{
	const struct ik_hw_state *s = &r->p->states[i];
	switch (k) {
	case SK_NAME: snprintf(buf, len, "%s", s->name); return;
	case SK_DESC: snprintf(buf, len, "%s", s->desc); return;
	case SK_LATENCY_US: snprintf(buf, len, "%" PRIu32, s->latency_us); return;
	case SK_RESIDENCY_US: snprintf(buf, len, "%" PRIu32, s->residency_us); return;
	case SK_METHOD: snprintf(buf, len, "%s", ik_method_name(s->method)); return;
	case SK_HINT: snprintf(buf, len, "0x%" PRIx32, s->hint); return;
	case SK_FLAGS: format_flags(s->flags, buf, len); return;
	case SK_POWER_MW: snprintf(buf, len, "%d", s->power_mw); return;
	case SK_ENTRY_NS: ik_dist_format(&s->entry, buf, len); return;
	case SK_EXIT_NS: ik_dist_format(&r->exit_ns[i], buf, len); return;
	case SK_EXIT_IPI_NS: ik_dist_format(&s->exit[IK_WAKE_IPI], buf, len); return;
	case SK_EXIT_TIMER_NS: ik_dist_format(&s->exit[IK_WAKE_TIMER], buf, len); return;
	case SK_EXIT_IRQ_NS: ik_dist_format(&s->exit[IK_WAKE_IRQ], buf, len); return;
	case SK_NEEDS_IPI: snprintf(buf, len, "%s", yes_no(s->needs_ipi)); return;
	case SK_IN_TABLE: snprintf(buf, len, "%s", yes_no(!s->unlisted)); return;
	case SK_LITE: snprintf(buf, len, "%s", yes_no(r->p->effects.state_lite[i])); return;
	case SK_CORE_OFF: snprintf(buf, len, "%s", yes_no(r->p->effects.state_core_off[i])); return;
	case SK_COUNT: break;
	}
	buf[0] = '\0';
}

static void format_cpuid(const struct ik_cpuid *c, enum cpuid_key k, char *buf, size_t len)
{
	switch (k) {
	case CK_VENDOR: snprintf(buf, len, "%s", ik_vendor_name(c->vendor)); return;
	case CK_FAMILY: snprintf(buf, len, "0x%x", (unsigned)c->family); return;
	case CK_MODEL: snprintf(buf, len, "0x%02x", (unsigned)c->model); return;
	case CK_MWAIT: snprintf(buf, len, "%s", yes_no(c->mwait)); return;
	case CK_MONITOR_BUG: snprintf(buf, len, "%s", yes_no(c->monitor_bug)); return;
	case CK_ARAT: snprintf(buf, len, "%s", yes_no(c->arat)); return;
	case CK_ZEN: snprintf(buf, len, "%s", yes_no(c->zen)); return;
	case CK_AMD_E400: snprintf(buf, len, "%s", yes_no(c->amd_e400)); return;
	case CK_AMD_APIC_C1E: snprintf(buf, len, "%s", yes_no(c->amd_apic_c1e)); return;
	case CK_HYPERVISOR:
		snprintf(buf, len, "%s", (unsigned)c->hypervisor < 3 ? hypervisor_names[c->hypervisor] : "?");
		return;
	case CK_KVM_HINT_REALTIME: snprintf(buf, len, "%s", yes_no(c->kvm_hint_realtime)); return;
	case CK_CPUID5_ECX: snprintf(buf, len, "0x%" PRIx32, c->cpuid5_ecx); return;
	case CK_CPUID5_EDX: snprintf(buf, len, "0x%" PRIx32, c->cpuid5_edx); return;
	case CK_COUNT: break;
	}
	buf[0] = '\0';
}

static void format_acpi(const struct ik_acpi *a, enum acpi_key k, char *buf, size_t len)
{
	switch (k) {
	case AK_CST_CONTROL: snprintf(buf, len, "%s", a->cst_control ? "ok" : "fail"); return;
	case AK_PBLK: snprintf(buf, len, "0x%" PRIx32, a->pblk); return;
	case AK_C2_LATENCY_US: snprintf(buf, len, "%" PRIu32, a->c2_latency_us); return;
	case AK_C3_LATENCY_US: snprintf(buf, len, "%" PRIu32, a->c3_latency_us); return;
	case AK_C2_MP_SUPPORTED: snprintf(buf, len, "%s", yes_no(a->c2_mp_supported)); return;
	case AK_WBINVD: snprintf(buf, len, "%s", yes_no(a->wbinvd)); return;
	case AK_PM_TIMER_PORT: snprintf(buf, len, "0x%" PRIx32, a->pm_timer_port); return;
	case AK_PM_TIMER_READ_NS: ik_dist_format(&a->pm_timer_read, buf, len); return;
	case AK_BM_ACTIVITY: ik_ini_format_real(a->bm_activity, buf, len); return;
	case AK_COUNT: break;
	}
	buf[0] = '\0';
}

static void format_cst(const struct ik_cst_entry *c, enum cst_key k, char *buf, size_t len)
{
	switch (k) {
	case XK_TYPE: snprintf(buf, len, "C%d", c->type); return;
	case XK_METHOD:
		snprintf(buf, len, "%s", (unsigned)c->method < 3 ? cst_method_names[c->method] : "?");
		return;
	case XK_ADDRESS: snprintf(buf, len, "0x%" PRIx32, c->address); return;
	case XK_LATENCY_US: snprintf(buf, len, "%" PRIu32, c->latency_us); return;
	case XK_POWER_MW: snprintf(buf, len, "%" PRIu32, c->power_mw); return;
	case XK_ACCESS_SIZE: snprintf(buf, len, "%" PRIu32, c->access_size); return;
	case XK_COUNT: break;
	}
	buf[0] = '\0';
}

static void format_intel_idle(const struct ik_intel_idle_hw *h, enum intel_idle_key k, char *buf,
			      size_t len)
{
	switch (k) {
	case IK_KEY_TABLE: snprintf(buf, len, "%s", h->table[0] ? h->table : "auto"); return;
	case IK_KEY_PC6: snprintf(buf, len, "%s", yes_no(h->pc6)); return;
	case IK_KEY_COUNT: break;
	}
	buf[0] = '\0';
}

static void format_dt(const struct ik_dt_state *d, enum dt_key k, char *buf, size_t len)
{
	switch (k) {
	case DK_NAME: snprintf(buf, len, "%s", d->name); return;
	case DK_FLAGS: format_opal_flags(d->flags, buf, len); return;
	case DK_LATENCY_NS: snprintf(buf, len, "%" PRIu64, d->latency_ns); return;
	case DK_RESIDENCY_NS: snprintf(buf, len, "%" PRIu64, d->residency_ns); return;
	case DK_PSSCR: snprintf(buf, len, "0x%" PRIx32, d->psscr); return;
	case DK_COUNT: break;
	}
	buf[0] = '\0';
}

static void format_effects(const struct ik_hw_effects *fx, enum effects_key k, char *buf,
			   size_t len)
{
	switch (k) {
	case EK_BASE_MHZ: snprintf(buf, len, "%d", fx->base_mhz); return;
	case EK_TURBO_MHZ: {
		size_t used = 0;
		buf[0] = '\0';
		for (int i = 0; i < fx->nturbo && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%d:%d", i ? " " : "",
						 fx->turbo_cores[i], fx->turbo_mhz[i]);
		return;
	}
	case EK_SMT_SIBLING_BUSY: ik_ini_format_real(fx->smt_sibling_busy, buf, len); return;
	case EK_SMT_SIBLING_LITE: ik_ini_format_real(fx->smt_sibling_lite, buf, len); return;
	case EK_PKG_EXIT_NS: ik_dist_format(&fx->pkg_exit_ns, buf, len); return;
	case EK_PKG_ACTIVE_MW: snprintf(buf, len, "%d", fx->pkg_active_mw); return;
	case EK_PKG_IDLE_MW: snprintf(buf, len, "%d", fx->pkg_idle_mw); return;
	case EK_COUNT: break;
	}
	buf[0] = '\0';
}

/*
 * The keys of one section: a key given keeps its text; one not given is recorded with the
 * value the reader derived for it (origin derived), so that every result says what ran.
 * A section the platform does not have ([cpuid] of a POWER machine) has no values to
 * record: its keys are listed without text.
 */
static int emit_section(struct ik_platform_reader *r, int kind, int index, const char *section)
{
	char buf[IK_CONFIG_VALUE_LEN];
	bool have = true;
	if (kind == SEC_CPUID)
		have = r->p->has_cpuid;
	else if (kind == SEC_ACPI)
		have = r->p->acpi.present;
	for (int k = 0; k < kind_keys[kind].nkeys; k++) {
		buf[0] = '\0';
		switch ((enum sec_kind)kind) {
		case SEC_PLATFORM: format_platform(r->p, (enum platform_key)k, buf, sizeof(buf)); break;
		case SEC_STATE: format_state(r, index, (enum state_key)k, buf, sizeof(buf)); break;
		case SEC_CPUID: format_cpuid(&r->p->cpuid, (enum cpuid_key)k, buf, sizeof(buf)); break;
		case SEC_ACPI: format_acpi(&r->p->acpi, (enum acpi_key)k, buf, sizeof(buf)); break;
		case SEC_CST:
			format_cst(&r->p->acpi.cst[index - 1], (enum cst_key)k, buf, sizeof(buf));
			break;
		case SEC_INTEL_IDLE:
			format_intel_idle(&r->p->intel_idle, (enum intel_idle_key)k, buf, sizeof(buf));
			break;
		case SEC_DT:
			format_dt(&r->p->powernv.states[index], (enum dt_key)k, buf, sizeof(buf));
			break;
		case SEC_EFFECTS: format_effects(&r->p->effects, (enum effects_key)k, buf, sizeof(buf)); break;
		}
		if (ik_config_emit_derived(r->cfg, section, kind_keys[kind].keys[k], have ? buf : NULL))
			return -1;
	}
	return 0;
}

/*
 * Every key of the platform's tables, in the order of IK_PLATFORM_SECTIONS: the single
 * sections always (their defaults apply without them), numbered ones when present.
 */
int ik_platform_reader_config(struct ik_platform_reader *r)
{
	char name[32];
	int ret = 0;

	if (!r->cfg)
		return 0;
	ret |= emit_section(r, SEC_PLATFORM, 0, "platform");
	for (int i = 0; i < IK_STATE_MAX; i++)
		if (r->state[i].present) {
			snprintf(name, sizeof(name), "state%d", i);
			ret |= emit_section(r, SEC_STATE, i, name);
		}
	ret |= emit_section(r, SEC_CPUID, 0, "cpuid");
	ret |= emit_section(r, SEC_ACPI, 0, "acpi");
	for (int i = 1; i <= IK_CST_MAX; i++)
		if (r->cst[i].present) {
			snprintf(name, sizeof(name), "cst%d", i);
			ret |= emit_section(r, SEC_CST, i, name);
		}
	ret |= emit_section(r, SEC_INTEL_IDLE, 0, "intel_idle");
	for (int i = 0; i < IK_DT_STATE_MAX; i++)
		if (r->dt[i].present) {
			snprintf(name, sizeof(name), "dt_state%d", i);
			ret |= emit_section(r, SEC_DT, i, name);
		}
	ret |= emit_section(r, SEC_EFFECTS, 0, "effects");
	return ret ? -1 : 0;
}
