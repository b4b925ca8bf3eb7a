/*
 * acpi_idle: the table built from _CST or P_BLK, each kernel rule that shapes it, the
 * fallbacks for firmware the kernel does not accept, and the run-time hooks (bus-master
 * demotion, the PM-timer dummy wait queue under each kernel policy).
 */
#include "driver_test.h"

/* amd-zen3: _CST C1 FFH MWAIT 0x0 (1 us), C2 SYSTEMIO 0x414 (18 us). */
static void table_from_cst(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("amd-zen3", "acpi_idle", NULL);
	assert_string_equal(drv->name, "acpi_idle");
	assert_int_equal(drv->state_count, 3);
	dt_state_is(drv, 0, "POLL", "CPUIDLE CORE POLL IDLE", 0, 0);
	assert_true(drv->states[0].flags & IK_FLAG_POLLING);
	dt_state_is(drv, 1, "C1", "ACPI FFH MWAIT 0x0", 1, 2);
	dt_state_is(drv, 2, "C2", "ACPI IOPORT 0x414", 18, 36);
	assert_int_equal(drv->states[1].flags, 0);
	assert_int_equal(drv->states[2].flags, 0); /* ARAT: no timer stop */
	/* each entry runs in the platform state of its method and hint */
	assert_int_equal(dt_hw(0)->method, IK_METHOD_POLL);
	assert_int_equal(dt_hw(1)->method, IK_METHOD_MWAIT);
	assert_int_equal(dt_hw(2)->method, IK_METHOD_IOPORT);
	assert_int_equal(dt_hw(2)->hint, 0x414);
	assert_string_equal(dt_b.notes, "");
	assert_false(dt_b.bypass_governor);
}

static void latency_factor(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("amd-zen3", "acpi_idle", "cpuidle.latency_factor=3", NULL);
	dt_state_is(drv, 1, "C1", "ACPI FFH MWAIT 0x0", 1, 3);
	dt_state_is(drv, 2, "C2", "ACPI IOPORT 0x414", 18, 54);
	/* 0 makes residency < latency: v6.19 refuses the driver, auto falls back to none */
	dt_load_fails("amd-zen3", "acpi_idle", "exit latency 1 us > target residency 0 us",
		      "cpuidle.latency_factor=0", NULL);
	assert_string_equal(dt_resolved("amd-zen3", "cpuidle.latency_factor=0", NULL), "none");
}

static void max_cstate(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("amd-zen3", "acpi_idle", "cpuidle.max_cstate=1", NULL);
	assert_int_equal(drv->state_count, 2);
	assert_string_equal(drv->states[1].name, "C1");
	drv = dt_table("amd-zen3", "acpi_idle", "cpuidle.max_cstate=0", NULL); /* 0 means 1 */
	assert_int_equal(drv->state_count, 2);
	/* the AMD APIC-C1E bug limits to C1 */
	drv = dt_table("amd-zen3", "acpi_idle", "cpuid.amd_apic_c1e=yes", NULL);
	assert_int_equal(drv->state_count, 2);
	assert_non_null(strstr(dt_b.notes, "AMD APIC C1E bug"));
}

/* nocst, or no _CST at all: C2/C3 from P_BLK with the FADT's latencies. */
static void fadt_pblk(void **state)
{
	(void)state;
	const struct ik_driver *drv =
		dt_table("amd-zen3", "acpi_idle", "cpuidle.nocst=yes", "acpi.pblk=0x410",
			 "acpi.c2_latency_us=20", "acpi.c3_latency_us=2000",
			 "state2.hint=0x414", NULL);
	/* C1 is the default HLT; C2 = P_BLK + 4; C3's latency > 1000 us invalidates it */
	assert_int_equal(drv->state_count, 3);
	dt_state_is(drv, 1, "C1", "ACPI HLT", 0, 0);
	dt_state_is(drv, 2, "C2", "ACPI P_LVL2 IOPORT 0x414", 20, 40);
	assert_int_equal(dt_hw(1)->method, IK_METHOD_HLT);
	assert_non_null(strstr(dt_b.notes, "C3 latency 2000 us > 1000 us"));
	/* no P_BLK either: the driver does not load */
	dt_load_fails("amd-zen3", "acpi_idle", "no P_BLK", "cpuidle.nocst=yes", NULL);
	/* C2 latency > 100 us invalidates C2 */
	drv = dt_table("amd-zen3", "acpi_idle", "cpuidle.nocst=yes", "acpi.pblk=0x410",
		       "acpi.c2_latency_us=101", NULL);
	assert_int_equal(drv->state_count, 2);
}

/* FFH validation against CPUID leaf 5: C1 falls back to HLT, deeper states are dropped. */
static void ffh_validation(void **state)
{
	(void)state;
	/* Zen's EDX 0x11 has no sub-states for C-state 2 (hint 0x10) */
	const struct ik_driver *drv =
		dt_table("amd-zen3", "acpi_idle", "cst2.method=ffh", "cst2.address=0x10", NULL);
	assert_int_equal(drv->state_count, 2);
	assert_non_null(strstr(dt_b.notes, "[cst2] C2 FFH MWAIT 0x10 is not supported"));
	assert_non_null(strstr(dt_b.notes, "skipped, as the kernel does"));
	/* no MWAIT at all: C1 becomes HLT */
	drv = dt_table("amd-zen3", "acpi_idle", "cpuid.mwait=no", NULL);
	dt_state_is(drv, 1, "C1", "ACPI HLT", 1, 2);
	assert_int_equal(dt_hw(1)->method, IK_METHOD_HLT);
	assert_non_null(strstr(dt_b.notes, "C1 uses HLT instead"));
	/* the interrupt-break extension is required too */
	drv = dt_table("amd-zen3", "acpi_idle", "cpuid.cpuid5_ecx=0x1", NULL);
	assert_string_equal(drv->states[1].desc, "ACPI HLT");
	/* FIXED_HARDWARE without an MWAIT hint: HLT for C1, skipped for C2 */
	drv = dt_table("amd-zen3", "acpi_idle", "cst1.method=halt", NULL);
	assert_string_equal(drv->states[1].desc, "ACPI HLT");
	drv = dt_table("amd-zen3", "acpi_idle", "cst2.method=halt", NULL);
	assert_int_equal(drv->state_count, 2);
	assert_non_null(strstr(dt_b.notes, "FIXED_HARDWARE without an MWAIT hint"));
	/* idle=nomwait turns an FFH C1 into HLT */
	drv = dt_table("amd-zen3", "acpi_idle", "cpuidle.idle=nomwait", NULL);
	dt_state_is(drv, 1, "C1", "ACPI HLT", 1, 2);
	dt_state_is(drv, 2, "C2", "ACPI IOPORT 0x414", 18, 36);
}

/* A _CST without C1 first leaves slot 1 for the default C1: names follow the slots. */
static void first_entry_not_c1(void **state)
{
	(void)state;
	const struct ik_driver *drv =
		dt_table("amd-zen3", "acpi_idle", "cst1.type=C2", "cst1.method=systemio",
			 "cst1.address=0x414", "cst1.latency_us=18", "cst2.type=C3",
			 "cst2.address=0x415", "cst2.latency_us=350", "state4.name=CC6",
			 "state4.latency_us=350", "state4.residency_us=700", "state4.method=ioport",
			 "state4.hint=0x415", NULL);
	assert_int_equal(drv->state_count, 4);
	dt_state_is(drv, 1, "C1", "ACPI HLT", 0, 0);
	dt_state_is(drv, 2, "C2", "ACPI IOPORT 0x414", 18, 36);
	dt_state_is(drv, 3, "C3", "ACPI IOPORT 0x415", 350, 700);
	assert_true(drv->states[3].flags & IK_FLAG_TLB_FLUSHED);
	assert_true(drv->states[3].flags & IK_FLAG_RCU_IDLE); /* Zen: bm_check */
}

/* Latencies out of order: the kernel swaps the latency values, names stay. */
static void latencies_sorted(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("amd-zen3", "acpi_idle", "cst1.latency_us=20", NULL);
	dt_state_is(drv, 1, "C1", "ACPI FFH MWAIT 0x0", 18, 36);
	dt_state_is(drv, 2, "C2", "ACPI IOPORT 0x414", 20, 40);
	assert_non_null(strstr(dt_b.notes, "latencies out of order"));
}

/* Without ARAT, C2-type and deeper states stop the APIC timer (C1 too with the C1E bug). */
static void timer_stop_without_arat(void **state)
{
	(void)state;
	const struct ik_driver *drv = dt_table("amd-zen3", "acpi_idle", "cpuid.arat=no", NULL);
	assert_false(drv->states[1].flags & IK_FLAG_TIMER_STOP);
	assert_true(drv->states[2].flags & IK_FLAG_TIMER_STOP);
	assert_true(drv->bctimer);
	drv = dt_table("amd-zen3", "acpi_idle", NULL);
	assert_false(drv->states[2].flags & IK_FLAG_TIMER_STOP);
	assert_false(drv->bctimer);
}

/* Zen C3 (SYSTEMIO 0x415): bus-master activity demotes to the safe state, C2. */
#define WITH_C3                                                                            \
	"cst3.type=C3", "cst3.method=systemio", "cst3.address=0x415", "cst3.latency_us=350",  \
		"state4.name=CC6", "state4.latency_us=350", "state4.residency_us=700",        \
		"state4.method=ioport", "state4.hint=0x415"

static void c3_bus_master_demotion(void **state)
{
	(void)state;
	struct ik_device dev;
	struct ik_rng rng;

	const struct ik_driver *drv = dt_table("amd-zen3", "acpi_idle", WITH_C3,
					       "acpi.bm_activity=1", NULL);
	assert_int_equal(drv->state_count, 4);
	ik__rng_seed(&rng, 1);
	ik_device_init(&dev, drv, 0, 250);
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 3, 0, &rng), 2); /* demoted to C2 */
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 2, 0, &rng), 2);
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 1, 0, &rng), 1);
	/* no activity, or bm_check_disable: C3 is entered */
	dt_table("amd-zen3", "acpi_idle", WITH_C3, NULL);
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 3, 0, &rng), 3);
	dt_table("amd-zen3", "acpi_idle", WITH_C3, "acpi.bm_activity=1",
		 "cpuidle.bm_check_disable=yes", NULL);
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 3, 0, &rng), 3);
	/* an Intel FFH C3 whose GAS access size has bit 1 clear skips the check */
	dt_table("amd-zen3", "acpi_idle", "cpuid.vendor=intel", "cpuid.family=6", "cpuid.model=0x1a",
		 "cpuid.cpuid5_edx=0x1111", "cst2.type=C3", "cst2.method=ffh", "cst2.address=0x10",
		 "cst2.access_size=1", "state2.method=mwait", "state2.hint=0x10",
		 "acpi.bm_activity=1", NULL);
	assert_string_equal(dt_b.table.states[2].desc, "ACPI FFH MWAIT 0x10");
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 2, 0, &rng), 2);
}

/* Without _CST and FADT C2_MP_SUPPORTED, C2 runs as C1 on SMP. */
static void c2_demoted_without_mp_support(void **state)
{
	(void)state;
	struct ik_device dev;
	struct ik_rng rng;

	const struct ik_driver *drv =
		dt_table("amd-zen3", "acpi_idle", "cpuidle.nocst=yes", "acpi.pblk=0x410",
			 "acpi.c2_latency_us=20", "acpi.c2_mp_supported=no", NULL);
	ik__rng_seed(&rng, 1);
	ik_device_init(&dev, drv, 0, 250);
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 2, 0, &rng), 1);
	dt_table("amd-zen3", "acpi_idle", "cpuidle.nocst=yes", "acpi.pblk=0x410",
		 "acpi.c2_latency_us=20", NULL);
	assert_int_equal(dt_b.ops->enter(&dt_b, &dev, 2, 0, &rng), 2);
}

/* The dummy wait after a SYSTEMIO exit, per policy and CPU. */
static int64_t dummy_wait(const char *policy, const char *extra)
{
	struct ik_rng rng;
	char ov[64];
	snprintf(ov, sizeof(ov), "cpuidle.dummy_wait=%s", policy);
	dt_table("amd-zen3", "acpi_idle", ov, "acpi.pm_timer_read_ns=constant 1000", extra, NULL);
	ik__rng_seed(&rng, 1);
	assert_int_equal(dt_b.ops->exit_ns(&dt_b, 0, 1, 5000, &rng), 0); /* C1 is FFH */
	assert_int_equal(dt_b.ops->exit_ns(&dt_b, 0, 0, 5000, &rng), 0); /* POLL */
	return dt_b.ops->exit_ns(&dt_b, 0, 2, 5000, &rng);
}

static void dummy_wait_policies(void **state)
{
	(void)state;
	/* Zen 3, bare metal */
	assert_int_equal(dummy_wait("always", NULL), 1000);
	assert_int_equal(dummy_wait("not_in_guest", NULL), 1000);
	assert_int_equal(dummy_wait("skip_on_zen", NULL), 0);
	assert_int_equal(dummy_wait("intel_only", NULL), 0);
	/* in a guest only "always" reads it */
	assert_int_equal(dummy_wait("always", "cpuid.hypervisor=kvm"), 1000);
	assert_int_equal(dummy_wait("not_in_guest", "cpuid.hypervisor=kvm"), 0);
	assert_int_equal(dummy_wait("skip_on_zen", "cpuid.hypervisor=other"), 0);
	/* an AMD CPU that is not Zen: skip_on_zen reads it, intel_only does not */
	assert_int_equal(dummy_wait("skip_on_zen", "cpuid.zen=no"), 1000);
	assert_int_equal(dummy_wait("intel_only", "cpuid.zen=no"), 0);
	/* an Intel CPU on acpi_idle: mainline still reads it */
	assert_int_equal(dummy_wait("intel_only", "cpuid.vendor=intel"), 1000);
	/* the default policy is mainline's */
	assert_int_equal(dt_sc.opt.dummy_wait, IK_DUMMY_WAIT_INTEL_ONLY);
}

/* One PM timer for the machine: reads are served one at a time, in arrival order. */
static void pm_timer_queue(void **state)
{
	(void)state;
	struct ik_rng rng;

	dt_table("amd-zen3", "acpi_idle", "cpuidle.dummy_wait=always",
		 "acpi.pm_timer_read_ns=constant 1000", NULL);
	ik__rng_seed(&rng, 1);
	assert_int_equal(dt_b.ops->exit_ns(&dt_b, 0, 2, 10000, &rng), 1000);
	assert_int_equal(dt_b.ops->exit_ns(&dt_b, 1, 2, 10000, &rng), 2000); /* behind CPU 0 */
	assert_int_equal(dt_b.ops->exit_ns(&dt_b, 2, 2, 10500, &rng), 2500);
	assert_int_equal(dt_b.ops->exit_ns(&dt_b, 3, 2, 20000, &rng), 1000); /* port idle again */
	/* a new run starts with an idle port */
	dt_table("amd-zen3", "acpi_idle", "cpuidle.dummy_wait=always",
		 "acpi.pm_timer_read_ns=constant 1000", NULL);
	assert_int_equal(dt_b.ops->exit_ns(&dt_b, 0, 2, 10000, &rng), 1000);
}

static void not_loaded(void **state)
{
	(void)state;
	dt_load_fails("amd-zen3", "acpi_idle", "not loaded with idle=poll", "cpuidle.idle=poll", NULL);
	dt_load_fails("amd-zen3", "acpi_idle", "not loaded with idle=halt", "cpuidle.idle=halt", NULL);
	dt_load_fails("ibm-power9", "acpi_idle", "no ACPI description", NULL);
	dt_load_fails("arm-juno", "acpi_idle", "no ACPI description", NULL);
	/* a platform state the table needs is missing: say which */
	dt_load_fails("amd-zen3", "acpi_idle", "has no hardware state for C2 (ACPI IOPORT 0x415)",
		      "cst2.address=0x415", NULL);
	dt_load_fails("amd-zen3", "acpi_idle", "add a [stateN] with method = ioport, hint = 0x415",
		      "cst2.address=0x415", NULL);
}

/* The driver in the simulator: the dummy wait inflates C2's measured residency. */
static void dummy_wait_in_simulation(void **state)
{
	(void)state;
	struct ik_run_result r;
	char err[IK_ERR_LEN];
	uint64_t c2_time[2];
	const char *policy[2] = { "cpuidle.dummy_wait=intel_only", "cpuidle.dummy_wait=always" };

	for (int k = 0; k < 2; k++) {
		const char *ov[] = { "cpuidle.driver=acpi_idle", policy[k], "cpuidle.disable=POLL C1",
				     "workload.type=pingpong", "workload.pairs=32",
				     "workload.placement=wake_idle", "scenario.duration_ms=20",
				     "acpi.pm_timer_read_ns=constant 2000" };
		if (ik__scenario_parse_string("t.ini", "[scenario]\nname = t\nplatform = amd-zen3\n", ov,
					     8, &dt_sc, err, sizeof(err)))
			fail_msg("%s", err);
		if (ik__sim_run(&dt_sc, 1, &r, err, sizeof(err)))
			fail_msg("%s", err);
		c2_time[k] = r.total[2].time_ns / (r.total[2].usage ? r.total[2].usage : 1);
		assert_true(r.total[2].usage > 100);
		ik__run_result_free(&r);
	}
	/* each C2 exit waits at least one 2 us read, more when others queue */
	assert_true(c2_time[1] >= c2_time[0] + 2000);
}

/* dummy_wait and prefer_mwait follow kernel.version and its switches unless given. */
static void options_from_release(void **state)
{
	(void)state;
	dt_table("amd-zen3-milan", "acpi_idle", "kernel.version=5.4", NULL);
	assert_int_equal(dt_sc.opt.dummy_wait, IK_DUMMY_WAIT_ALWAYS);
	assert_int_equal(dt_sc.opt.prefer_mwait, IK_PREFER_MWAIT_VENDOR);
	dt_table("amd-zen3-milan", "acpi_idle", "kernel.version=5.15", NULL);
	assert_int_equal(dt_sc.opt.dummy_wait, IK_DUMMY_WAIT_NOT_IN_GUEST);
	dt_table("amd-zen3-milan", "acpi_idle", "kernel.version=5.15",
		 "kernel.switch.acpi_idle_dummy_wait_zen=on", NULL);
	assert_int_equal(dt_sc.opt.dummy_wait, IK_DUMMY_WAIT_SKIP_ON_ZEN);
	dt_table("amd-zen3-milan", "acpi_idle", "kernel.version=6.1", NULL);
	assert_int_equal(dt_sc.opt.dummy_wait, IK_DUMMY_WAIT_INTEL_ONLY);
	assert_int_equal(dt_sc.opt.prefer_mwait, IK_PREFER_MWAIT_CPUID);
	dt_table("amd-zen3-milan", "acpi_idle", "kernel.version=5.15",
		 "kernel.switch.x86_prefer_mwait_cpuid=on", NULL);
	assert_int_equal(dt_sc.opt.prefer_mwait, IK_PREFER_MWAIT_CPUID);
	/* an explicit key wins over the release */
	dt_table("amd-zen3-milan", "acpi_idle", "kernel.version=6.1", "cpuidle.dummy_wait=always",
		 "cpuidle.prefer_mwait=vendor", NULL);
	assert_int_equal(dt_sc.opt.dummy_wait, IK_DUMMY_WAIT_ALWAYS);
	assert_int_equal(dt_sc.opt.prefer_mwait, IK_PREFER_MWAIT_VENDOR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_from_cst),
		cmocka_unit_test(options_from_release),
		cmocka_unit_test(latency_factor),
		cmocka_unit_test(max_cstate),
		cmocka_unit_test(fadt_pblk),
		cmocka_unit_test(ffh_validation),
		cmocka_unit_test(first_entry_not_c1),
		cmocka_unit_test(latencies_sorted),
		cmocka_unit_test(timer_stop_without_arat),
		cmocka_unit_test(c3_bus_master_demotion),
		cmocka_unit_test(c2_demoted_without_mp_support),
		cmocka_unit_test(dummy_wait_policies),
		cmocka_unit_test(pm_timer_queue),
		cmocka_unit_test(not_loaded),
		cmocka_unit_test(dummy_wait_in_simulation),
	};
	return cmocka_run_group_tests(tests, NULL, dt_teardown);
}
