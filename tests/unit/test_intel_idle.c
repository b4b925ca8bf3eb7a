/*
 * intel_idle: the built-in tables, the package-C6 variants, the flags, CPUID sub-state
 * filtering, use_acpi with _CST (states _CST does not list start disabled), the _CST
 * control claim before and after the 2020 fix, and tables built from _CST alone.
 */
#include "driver_test.h"

static void skx_table(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("intel-skx", "intel_idle", NULL);
	assert_string_equal(drv->name, "intel_idle");
	assert_int_equal(drv->state_count, 4);
	dt_state_is(drv, 0, "POLL", "CPUIDLE CORE POLL IDLE", 0, 0);
	dt_state_is(drv, 1, "C1", "MWAIT 0x00", 2, 2);
	dt_state_is(drv, 2, "C1E", "MWAIT 0x01", 10, 20);
	dt_state_is(drv, 3, "C6", "MWAIT 0x20", 133, 600);
	/* flags: the kernel's bits, the MWAIT hint in 31..24 */
	assert_true(drv->states[1].flags & IK_FLAG_IRQ_ENABLE);
	assert_true(drv->states[2].flags & IK_FLAG_ALWAYS_ENABLE);
	assert_true(drv->states[3].flags & IK_FLAG_TLB_FLUSHED);
	assert_true(drv->states[3].flags & IK_FLAG_IBRS);
	assert_int_equal(IK_FLAG_MWAIT_HINT(drv->states[3].flags), 0x20);
	assert_int_equal(IK_FLAG_MWAIT_HINT(drv->states[2].flags), 0x01);
	for (int i = 0; i < 4; i++)
		assert_false(drv->states[i].flags & (IK_FLAG_OFF | IK_FLAG_TIMER_STOP));
	assert_int_equal(dt_hw(3)->hint, 0x20);
	assert_int_equal(dt_hw(3)->method, IK_METHOD_MWAIT);
	/* the kernel's choice on an Intel server */
	assert_string_equal(dt_resolved("intel-skx", NULL), "intel_idle");
}

/* Package C6 disabled in the BIOS: SKX and SPR C6 use core-C6 numbers. */
static void pc6_variants(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("intel-skx", "intel_idle", "intel_idle.pc6=no", NULL);
	dt_state_is(drv, 3, "C6", "MWAIT 0x20", 92, 276);
	assert_non_null(strstr(dt_b.notes, "package C6 disabled"));
	drv = dt_table("intel-skx", "intel_idle", "cpuidle.pc6=disabled", NULL);
	dt_state_is(drv, 3, "C6", "MWAIT 0x20", 92, 276);
	drv = dt_table("intel-skx", "intel_idle", "intel_idle.pc6=no", "cpuidle.pc6=enabled", NULL);
	dt_state_is(drv, 3, "C6", "MWAIT 0x20", 133, 600);
	drv = dt_table("intel-spr", "intel_idle", "cpuidle.pc6=disabled", NULL);
	dt_state_is(drv, 3, "C6", "MWAIT 0x20", 190, 600);
	assert_true(drv->states[3].flags & IK_FLAG_INIT_XSTATE);
	drv = dt_table("intel-icx", "intel_idle", "cpuidle.pc6=disabled", NULL); /* no variant */
	dt_state_is(drv, 3, "C6", "MWAIT 0x20", 170, 600);
}

static void other_tables(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("intel-gnr", "intel_idle", NULL);
	assert_int_equal(drv->state_count, 5);
	dt_state_is(drv, 4, "C6P", "MWAIT 0x21", 210, 1000);
	assert_true(drv->states[4].flags & IK_FLAG_PARTIAL_HINT_MATCH);
	drv = dt_table("intel-srf", "intel_idle", NULL);
	dt_state_is(drv, 3, "C6S", "MWAIT 0x22", 270, 700);
	dt_state_is(drv, 4, "C6SP", "MWAIT 0x23", 310, 900);
	assert_true(drv->states[1].flags & IK_FLAG_ALWAYS_ENABLE);
	/* Haswell client: C1 to C10 */
	drv = dt_table("intel-hsw-client", "intel_idle", NULL);
	assert_int_equal(drv->state_count, 9);
	dt_state_is(drv, 3, "C3", "MWAIT 0x10", 33, 100);
	dt_state_is(drv, 5, "C7s", "MWAIT 0x32", 166, 500);
	dt_state_is(drv, 8, "C10", "MWAIT 0x60", 2600, 7700);
	/* the table by name overrides the model */
	drv = dt_table("intel-hsw-client", "intel_idle", "intel_idle.table=bdw", NULL);
	dt_state_is(drv, 3, "C3", "MWAIT 0x10", 40, 100);
}

/* States whose C-state CPUID leaf 5 reports no sub-states for are left out. */
static void cpuid_substates(void **state)
{
	(void)state;
	/* Haswell-EP: EDX 0x2120 has nothing beyond C6 */
	const struct ik_driver *drv = dt_table("intel-hsx", "intel_idle", NULL);
	assert_int_equal(drv->state_count, 5);
	assert_string_equal(drv->states[4].name, "C6");
	assert_non_null(strstr(dt_b.notes, "C7s (MWAIT 0x32) left out: CPUID leaf 5 EDX 0x2120"));
	/* a CPU without C6 sub-states loses C6 */
	drv = dt_table("intel-skx", "intel_idle", "cpuid.cpuid5_edx=0x20", NULL);
	assert_int_equal(drv->state_count, 3);
	assert_string_equal(drv->states[2].name, "C1E");
	dt_load_fails("intel-skx", "intel_idle", "lacks the MWAIT extensions", "cpuid.cpuid5_ecx=0x1",
		      NULL);
	dt_load_fails("intel-skx", "intel_idle", "lacks the MWAIT extensions", "cpuid.cpuid5_edx=0",
		      NULL);
}

static void max_cstate_and_states_off(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("intel-skx", "intel_idle", "cpuidle.max_cstate=2", NULL);
	assert_int_equal(drv->state_count, 3); /* POLL, C1, C1E */
	dt_load_fails("intel-skx", "intel_idle", "disabled by max_cstate = 0", "cpuidle.max_cstate=0",
		      NULL);
	/* with max_cstate=0 the kernel falls back to acpi_idle */
	assert_string_equal(dt_resolved("intel-skx", "cpuidle.max_cstate=0", NULL), "acpi_idle");
	drv = dt_table("intel-skx", "intel_idle", "cpuidle.states_off=0x8", NULL);
	assert_true(drv->states[3].flags & IK_FLAG_OFF);
	assert_false(drv->states[2].flags & IK_FLAG_OFF);
	/* OFF states start disabled by the user bit */
	struct ik_device dev;
	ik_device_init(&dev, drv, 0, 250);
	assert_int_equal(dev.states_disable[3], IK_DISABLE_USER);
}

static void timer_stop_without_arat(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("intel-skx", "intel_idle", "cpuid.arat=no", NULL);
	assert_false(drv->states[1].flags & IK_FLAG_TIMER_STOP); /* C1 */
	assert_false(drv->states[2].flags & IK_FLAG_TIMER_STOP); /* C1E: still C-state 1 */
	assert_true(drv->states[3].flags & IK_FLAG_TIMER_STOP);
}

/* use_acpi: a table state _CST does not list starts disabled, unless ALWAYS_ENABLE. */
static void use_acpi(void **state)
{
	(void)state;
	/* drop C6 from the _CST: C6 off, C1E (always enable) on */
	const struct ik_driver *drv = dt_table("intel-skx", "intel_idle", "cst2.address=0x10",
					       "cpuid.cpuid5_edx=0x2120", NULL);
	assert_true(drv->states[3].flags & IK_FLAG_OFF);
	assert_false(drv->states[2].flags & IK_FLAG_OFF);
	assert_false(drv->states[1].flags & IK_FLAG_OFF);
	/* no_acpi: _CST not read, nothing off */
	drv = dt_table("intel-skx", "intel_idle", "cst2.address=0x10", "cpuid.cpuid5_edx=0x2120",
		       "cpuidle.use_acpi=no", NULL);
	assert_false(drv->states[3].flags & IK_FLAG_OFF);
	/* a client table ignores _CST unless use_acpi=yes */
	const char *cst[] = { "acpi.cst_control=ok", "cst1.type=C1", "cst1.method=ffh",
			      "cst1.address=0x00", "cst1.latency_us=2" };
	drv = dt_table("intel-hsw-client", "intel_idle", cst[0], cst[1], cst[2], cst[3], cst[4], NULL);
	assert_false(drv->states[3].flags & IK_FLAG_OFF);
	drv = dt_table("intel-hsw-client", "intel_idle", cst[0], cst[1], cst[2], cst[3], cst[4],
		       "cpuidle.use_acpi=yes", NULL);
	assert_false(drv->states[1].flags & IK_FLAG_OFF);
	assert_false(drv->states[2].flags & IK_FLAG_OFF); /* C1E */
	for (int i = 3; i < drv->state_count; i++)
		assert_true(drv->states[i].flags & IK_FLAG_OFF);
	/* a _CST entry that is not FFH makes the whole _CST unusable */
	drv = dt_table("intel-skx", "intel_idle", "cst2.address=0x10", "cpuid.cpuid5_edx=0x2120",
		       "cst2.method=systemio", "cst2.address=0x414", NULL);
	assert_false(drv->states[3].flags & IK_FLAG_OFF);
	assert_non_null(strstr(dt_b.notes, "not FFH MWAIT"));
}

/* GNR/SRF: the C6 flavours match _CST on the C-state part of the hint only. */
static void partial_hint_match(void **state)
{
	(void)state;
	/* gnr's _CST lists C6P (0x21): both C6 (0x20) and C6P stay on */
	const struct ik_driver *drv = dt_table("intel-gnr", "intel_idle", NULL);
	assert_false(drv->states[3].flags & IK_FLAG_OFF);
	assert_false(drv->states[4].flags & IK_FLAG_OFF);
	drv = dt_table("intel-gnr", "intel_idle", "cst2.address=0x20", NULL);
	assert_false(drv->states[3].flags & IK_FLAG_OFF);
	assert_false(drv->states[4].flags & IK_FLAG_OFF);
	/* without ACPI C2 both are off */
	drv = dt_table("intel-gnr", "intel_idle", "cst2.address=0x01", NULL);
	assert_true(drv->states[3].flags & IK_FLAG_OFF);
	assert_true(drv->states[4].flags & IK_FLAG_OFF);
	drv = dt_table("intel-srf", "intel_idle", NULL); /* _CST C2 = 0x22 */
	assert_false(drv->states[3].flags & IK_FLAG_OFF);
	assert_false(drv->states[4].flags & IK_FLAG_OFF);
}

/*
 * Haswell-EP whose BIOS refuses C-state control, with a C1-only FFH _CST (intel-hsx) and
 * with an I/O-port _CST (intel-hsx-ioport-cst: C1 FFH, C2/C3 SYSTEMIO), on 5.9 and 5.10.
 */
static bool all_on(const struct ik_driver *drv)
{
	for (int i = 0; i < drv->state_count; i++)
		if (drv->states[i].flags & IK_FLAG_OFF)
			return false;
	return true;
}

static void cst_control_claim(void **state)
{
	(void)state;
	/* 6.19 (and 5.10 on): an unusable _CST is ignored, every state on */
	const struct ik_driver *drv = dt_table("intel-hsx", "intel_idle", NULL);
	assert_int_equal(dt_sc.opt.cst_fallback, IK_CST_FALLBACK_FIXED);
	assert_true(all_on(drv));
	assert_non_null(strstr(dt_b.notes, "cst_control = fail"));
	drv = dt_table("intel-hsx-ioport-cst", "intel_idle", NULL);
	assert_true(all_on(drv));
	assert_non_null(strstr(dt_b.notes, "not FFH MWAIT: _CST not used"));
	/* 5.9, C1-only _CST: the failed hand-over forgets the table there too: all on */
	drv = dt_table("intel-hsx", "intel_idle", "kernel.version=5.9", NULL);
	assert_int_equal(dt_sc.opt.cst_fallback, IK_CST_FALLBACK_LEGACY);
	assert_true(all_on(drv));
	/* 5.9, I/O-port _CST: skipped as unusable but left counted: C3 and C6 off */
	drv = dt_table("intel-hsx-ioport-cst", "intel_idle", "kernel.version=5.9", NULL);
	assert_false(drv->states[1].flags & IK_FLAG_OFF);
	assert_false(drv->states[2].flags & IK_FLAG_OFF);
	assert_string_equal(drv->states[3].name, "C3");
	assert_true(drv->states[3].flags & IK_FLAG_OFF);
	assert_string_equal(drv->states[4].name, "C6");
	assert_true(drv->states[4].flags & IK_FLAG_OFF);
	assert_non_null(strstr(dt_b.notes, "stays counted"));
	/* the fix as the kernel change: 5.9 + 75af76d0a3 */
	drv = dt_table("intel-hsx-ioport-cst", "intel_idle", "kernel.version=5.9",
		       "kernel.switch.intel_idle_cst_needs_control=on", NULL);
	assert_int_equal(dt_sc.opt.cst_fallback, IK_CST_FALLBACK_FIXED);
	assert_true(all_on(drv));
	/* an explicit option still wins over the release */
	drv = dt_table("intel-hsx-ioport-cst", "intel_idle", "cpuidle.cst_fallback=legacy", NULL);
	assert_true(drv->states[4].flags & IK_FLAG_OFF);
	/* before 5.6 intel_idle reads no _CST: every table state on */
	drv = dt_table("intel-hsx-ioport-cst", "intel_idle", "kernel.version=5.4", NULL);
	assert_true(all_on(drv));
	assert_non_null(strstr(dt_b.notes, "intel_idle_acpi_cst = off"));
	/* control taken: _CST (C1 only) is honoured */
	drv = dt_table("intel-hsx", "intel_idle", "acpi.cst_control=ok", NULL);
	assert_true(drv->states[3].flags & IK_FLAG_OFF);
	assert_true(drv->states[4].flags & IK_FLAG_OFF);
}

/* A family-6 CPU without a table: states from _CST alone. */
static void states_from_cst(void **state)
{
	(void)state;
	const struct ik_driver *drv =
		dt_table("intel-skx", "intel_idle", "cpuid.model=0xb7", "cst3.type=C3",
			 "cst3.method=ffh", "cst3.address=0x20", "cst3.latency_us=500",
			 "cst2.address=0x01", "cst2.latency_us=10", NULL);
	assert_int_equal(drv->state_count, 4);
	dt_state_is(drv, 1, "C1_ACPI", "ACPI FFH MWAIT 0x0", 2, 2);    /* C1 type: 1 x */
	dt_state_is(drv, 2, "C2_ACPI", "ACPI FFH MWAIT 0x1", 10, 30);  /* deeper: 3 x */
	dt_state_is(drv, 3, "C3_ACPI", "ACPI FFH MWAIT 0x20", 500, 1500);
	assert_true(drv->states[3].flags & IK_FLAG_TLB_FLUSHED);
	assert_false(drv->states[2].flags & IK_FLAG_TLB_FLUSHED);
	/* without a usable _CST such a CPU gets no intel_idle */
	dt_load_fails("intel-skx", "intel_idle", "no built-in table for family 6 model 0xb7",
		      "cpuid.model=0xb7", "acpi.cst_control=fail", NULL);
	dt_load_fails("intel-skx", "intel_idle", "no built-in table", "intel_idle.table=acpi",
		      "cpuidle.use_acpi=no", NULL);
	/* before 5.6 intel_idle had no _CST mode */
	dt_load_fails("intel-skx", "intel_idle", "does not read _CST", "cpuid.model=0xb7",
		      "kernel.version=5.4", NULL);
}

static void not_loaded(void **state)
{
	(void)state;
	dt_load_fails("intel-skx", "intel_idle", "not loaded with any idle= option",
		      "cpuidle.idle=nomwait", NULL);
	dt_load_fails("intel-skx", "intel_idle", "not loaded with any idle= option",
		      "cpuidle.idle=halt", NULL);
	dt_load_fails("amd-zen3", "intel_idle", "needs an Intel family-6 CPU", NULL);
	dt_load_fails("intel-skx", "intel_idle", "has no MWAIT", "cpuid.mwait=no", NULL);
	/* with idle=nomwait the kernel runs acpi_idle, with C1 as HLT */
	assert_string_equal(dt_resolved("intel-skx", "cpuidle.idle=nomwait", NULL), "acpi_idle");
	/* a missing hardware state is named */
	dt_load_fails("intel-skx", "intel_idle", "no hardware state for C6 (MWAIT 0x20)",
		      "state3.hint=0x21", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(skx_table),
		cmocka_unit_test(pc6_variants),
		cmocka_unit_test(other_tables),
		cmocka_unit_test(cpuid_substates),
		cmocka_unit_test(max_cstate_and_states_off),
		cmocka_unit_test(timer_stop_without_arat),
		cmocka_unit_test(use_acpi),
		cmocka_unit_test(partial_hint_match),
		cmocka_unit_test(cst_control_claim),
		cmocka_unit_test(states_from_cst),
		cmocka_unit_test(not_loaded),
	};
	return cmocka_run_group_tests(tests, NULL, dt_teardown);
}
