/*
 * intel_idle's built-in tables, as of v6.19: state names, MWAIT hints, flags, exit
 * latency and target residency in us.  These are facts transcribed from the kernel's
 * tables (Linux v6.19 drivers/idle/intel_idle.c; docs/platform-sources.md sections 2.1
 * and 2.5); the sysfs dumps under tests/fixtures/sysfs show the same numbers on real
 * machines.
 */
#include <stddef.h>
#include <string.h>

#include "idlekit/cpuidle.h"
#include "drivers/registry.h"
#include "drivers/intel_idle_tables.h"

#define TLB IK_FLAG_TLB_FLUSHED
#define AE IK_FLAG_ALWAYS_ENABLE
#define IRQ IK_FLAG_IRQ_ENABLE
#define IBRS IK_FLAG_IBRS
#define XSTATE IK_FLAG_INIT_XSTATE
#define PARTIAL IK_FLAG_PARTIAL_HINT_MATCH
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Haswell client and server (HSX uses it with use_acpi). */
static const struct intel_cstate hsw[] = {
	{ "C1", "MWAIT 0x00", 0x00, 0, 2, 2 },
	{ "C1E", "MWAIT 0x01", 0x01, AE, 10, 20 },
	{ "C3", "MWAIT 0x10", 0x10, TLB, 33, 100 },
	{ "C6", "MWAIT 0x20", 0x20, TLB, 133, 400 },
	{ "C7s", "MWAIT 0x32", 0x32, TLB, 166, 500 },
	{ "C8", "MWAIT 0x40", 0x40, TLB, 300, 900 },
	{ "C9", "MWAIT 0x50", 0x50, TLB, 600, 1800 },
	{ "C10", "MWAIT 0x60", 0x60, TLB, 2600, 7700 },
};

/* Broadwell client and server. */
static const struct intel_cstate bdw[] = {
	{ "C1", "MWAIT 0x00", 0x00, 0, 2, 2 },
	{ "C1E", "MWAIT 0x01", 0x01, AE, 10, 20 },
	{ "C3", "MWAIT 0x10", 0x10, TLB, 40, 100 },
	{ "C6", "MWAIT 0x20", 0x20, TLB, 133, 400 },
	{ "C7s", "MWAIT 0x32", 0x32, TLB, 166, 500 },
	{ "C8", "MWAIT 0x40", 0x40, TLB, 300, 900 },
	{ "C9", "MWAIT 0x50", 0x50, TLB, 600, 1800 },
	{ "C10", "MWAIT 0x60", 0x60, TLB, 2600, 7700 },
};

/* Skylake and Kaby Lake client. */
static const struct intel_cstate skl[] = {
	{ "C1", "MWAIT 0x00", 0x00, 0, 2, 2 },
	{ "C1E", "MWAIT 0x01", 0x01, AE, 10, 20 },
	{ "C3", "MWAIT 0x10", 0x10, TLB, 70, 100 },
	{ "C6", "MWAIT 0x20", 0x20, TLB | IBRS, 85, 200 },
	{ "C7s", "MWAIT 0x33", 0x33, TLB | IBRS, 124, 800 },
	{ "C8", "MWAIT 0x40", 0x40, TLB | IBRS, 200, 800 },
	{ "C9", "MWAIT 0x50", 0x50, TLB | IBRS, 480, 5000 },
	{ "C10", "MWAIT 0x60", 0x60, TLB | IBRS, 890, 5000 },
};

/* Skylake-SP, Cascade Lake, Cooper Lake. */
static const struct intel_cstate skx[] = {
	{ "C1", "MWAIT 0x00", 0x00, IRQ, 2, 2 },
	{ "C1E", "MWAIT 0x01", 0x01, AE, 10, 20 },
	{ "C6", "MWAIT 0x20", 0x20, TLB | IBRS, 133, 600 },
};

/* Ice Lake-SP and Ice Lake-D. */
static const struct intel_cstate icx[] = {
	{ "C1", "MWAIT 0x00", 0x00, IRQ, 1, 1 },
	{ "C1E", "MWAIT 0x01", 0x01, AE, 4, 4 },
	{ "C6", "MWAIT 0x20", 0x20, TLB, 170, 600 },
};

/* Sapphire Rapids and Emerald Rapids. */
static const struct intel_cstate spr[] = {
	{ "C1", "MWAIT 0x00", 0x00, 0, 1, 1 },
	{ "C1E", "MWAIT 0x01", 0x01, AE, 2, 4 },
	{ "C6", "MWAIT 0x20", 0x20, TLB | XSTATE, 290, 800 },
};

/* Granite Rapids: C6 is core C6, C6P lets the package reach PC6. */
static const struct intel_cstate gnr[] = {
	{ "C1", "MWAIT 0x00", 0x00, 0, 1, 1 },
	{ "C1E", "MWAIT 0x01", 0x01, AE, 4, 4 },
	{ "C6", "MWAIT 0x20", 0x20, TLB | XSTATE | PARTIAL, 170, 650 },
	{ "C6P", "MWAIT 0x21", 0x21, TLB | XSTATE | PARTIAL, 210, 1000 },
};

/* Sierra Forest: C6S is module C6, C6SP lets the package follow. */
static const struct intel_cstate srf[] = {
	{ "C1", "MWAIT 0x00", 0x00, AE, 1, 1 },
	{ "C1E", "MWAIT 0x01", 0x01, AE, 2, 10 },
	{ "C6S", "MWAIT 0x22", 0x22, TLB | PARTIAL, 270, 700 },
	{ "C6SP", "MWAIT 0x23", 0x23, TLB | PARTIAL, 310, 900 },
};

/* Family-6 model numbers (asm/intel-family.h). */
static const uint8_t hsw_models[] = { 0x3c, 0x45, 0x46, 0 };
static const uint8_t hsx_models[] = { 0x3f, 0 };
static const uint8_t bdw_models[] = { 0x3d, 0x47, 0 };
static const uint8_t bdx_models[] = { 0x4f, 0x56, 0 };
static const uint8_t skl_models[] = { 0x4e, 0x5e, 0x8e, 0x9e, 0 };
static const uint8_t skx_models[] = { 0x55, 0 };
static const uint8_t icx_models[] = { 0x6a, 0x6c, 0 };
static const uint8_t spr_models[] = { 0x8f, 0xcf, 0 };
static const uint8_t gnr_models[] = { 0xad, 0 };
static const uint8_t srf_models[] = { 0xaf, 0 };

const struct intel_table intel_tables[] = {
	{ "hsw", hsw, N(hsw), false, -1, 0, 0, hsw_models },
	{ "hsx", hsw, N(hsw), true, -1, 0, 0, hsx_models },
	{ "bdw", bdw, N(bdw), false, -1, 0, 0, bdw_models },
	{ "bdx", bdw, N(bdw), true, -1, 0, 0, bdx_models },
	{ "skl", skl, N(skl), false, -1, 0, 0, skl_models },
	/* PC6 disabled: core C6 plus PC0 exit, residency 3 x that */
	{ "skx", skx, N(skx), true, 2, 92, 276, skx_models },
	{ "icx", icx, N(icx), true, -1, 0, 0, icx_models },
	/* the table's C6 numbers assume package C6; without it, core C6's */
	{ "spr", spr, N(spr), true, 2, 190, 600, spr_models },
	{ "gnr", gnr, N(gnr), true, -1, 0, 0, gnr_models },
	{ "srf", srf, N(srf), true, -1, 0, 0, srf_models },
};
const int intel_table_count = N(intel_tables);

const struct intel_table *intel_table_by_name(const char *name)
{
	for (int i = 0; i < intel_table_count; i++)
		if (strcmp(intel_tables[i].name, name) == 0)
			return &intel_tables[i];
	return NULL;
}

const struct intel_table *intel_table_by_model(int family, int model)
{
	if (family != 6)
		return NULL;
	for (int i = 0; i < intel_table_count; i++)
		for (const uint8_t *m = intel_tables[i].models; *m; m++)
			if (*m == model)
				return &intel_tables[i];
	return NULL;
}

bool ik__intel_idle_table_exists(const char *name)
{
	return name && intel_table_by_name(name) != NULL;
}

const char *ik__intel_idle_table_names(void)
{
	return "hsw hsx bdw bdx skl skx icx spr gnr srf";
}
