/* Platform files: the built-ins, every key, every error path and its message. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/platform_ini.h"
#include "config/platform_keys.h"
#include "config/scenario.h"

static struct ik_platform plat; /* large: keep it off the stack */

/* A minimal valid file; tests append to or edit it. */
#define PLATFORM_HEAD                                                                     \
	"[platform]\n"                                                                    \
	"name = t1\n"                                                                     \
	"packages = 1\n"                                                                  \
	"cores_per_package = 4\n"                                                         \
	"threads_per_core = 2\n"                                                          \
	"active_power_mw = 1000\n"
#define STATE0 "[state0]\nname = POLL\nlatency_us = 0\nresidency_us = 0\nmethod = poll\n"
#define STATE1 "[state1]\nname = C1\nlatency_us = 2\nresidency_us = 2\nmethod = mwait\n"

static int parse(const char *text, char *err, size_t errlen)
{
	return ik__platform_parse_string("t.ini", text, &plat, err, errlen);
}

static void expect_ok(const char *text)
{
	char err[IK_ERR_LEN] = "";
	if (parse(text, err, sizeof(err)) != 0)
		fail_msg("expected success, got: %s", err);
}

/* The message must contain every needle (NULL-terminated list) and be one line. */
static void expect_error(const char *text, ...)
{
	char err[IK_ERR_LEN] = "";
	va_list ap;

	if (parse(text, err, sizeof(err)) == 0)
		fail_msg("expected an error, parsing succeeded");
	assert_null(strchr(err, '\n'));
	va_start(ap, text);
	for (const char *needle = va_arg(ap, const char *); needle; needle = va_arg(ap, const char *))
		if (!strstr(err, needle))
			fail_msg("error '%s' lacks '%s'", err, needle);
	va_end(ap);
}

/* ---- the built-in platforms --------------------------------------------------------- */

static void builtin_amd_zen3(void **state)
{
	(void)state;
	char err[IK_ERR_LEN] = "";
	if (ik__platform_load("amd-zen3", &plat, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_string_equal(plat.name, "amd-zen3");
	assert_int_equal(plat.packages, 1);
	assert_int_equal(plat.cores_per_package, 64);
	assert_int_equal(plat.threads_per_core, 2);
	assert_int_equal(plat.cores_per_llc, 8);
	assert_int_equal(ik__platform_cpus(&plat), 128);
	assert_int_equal(plat.state_count, 4); /* POLL C1 C2, and HLT outside the table */
	assert_true(plat.states[3].unlisted);
	assert_int_equal(plat.states[3].method, IK_METHOD_HLT);
	assert_int_equal(plat.ipi_ns.kind, IK_DIST_PERCENTILES);

	const struct ik_hw_state *s = plat.states;
	assert_string_equal(s[0].name, "POLL");
	assert_int_equal(s[0].method, IK_METHOD_POLL);
	assert_true(s[0].flags & IK_FLAG_POLLING);
	assert_false(s[0].needs_ipi);
	assert_int_equal(s[0].power_mw, plat.active_power_mw);

	assert_string_equal(s[1].name, "C1");
	assert_string_equal(s[1].desc, "ACPI FFH MWAIT 0x0");
	assert_int_equal(s[1].latency_us, 1);
	assert_int_equal(s[1].residency_us, 2);
	assert_int_equal(s[1].method, IK_METHOD_MWAIT);
	assert_int_equal(s[1].hint, 0);
	assert_false(s[1].needs_ipi);

	assert_string_equal(s[2].name, "C2");
	assert_string_equal(s[2].desc, "ACPI IOPORT 0x414");
	assert_int_equal(s[2].latency_us, 18);
	assert_int_equal(s[2].residency_us, 36);
	assert_int_equal(s[2].method, IK_METHOD_IOPORT);
	assert_int_equal(s[2].hint, 0x414);
	assert_int_equal(s[2].flags, 0);
	assert_true(s[2].needs_ipi);
	for (int src = 0; src < IK_WAKE_SOURCES; src++) {
		assert_int_equal(s[2].exit[src].kind, IK_DIST_LOGNORMAL);
		assert_true(s[2].exit[src].a_ns >= 20000 && s[2].exit[src].a_ns <= 23500);
	}
}

static void builtin_intel_skx(void **state)
{
	(void)state;
	char err[IK_ERR_LEN] = "";
	if (ik__platform_load("intel-skx", &plat, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(ik__platform_cpus(&plat), 80);
	assert_int_equal(plat.cores_per_llc, 20);
	assert_int_equal(plat.state_count, 5); /* and HLT, outside the table */
	assert_true(plat.states[4].unlisted);
	const char *names[] = { "POLL", "C1", "C1E", "C6" };
	const unsigned lat[] = { 0, 2, 10, 133 }, res[] = { 0, 2, 20, 600 }, hint[] = { 0, 0, 1, 0x20 };
	for (int i = 0; i < 4; i++) {
		assert_string_equal(plat.states[i].name, names[i]);
		assert_int_equal(plat.states[i].latency_us, lat[i]);
		assert_int_equal(plat.states[i].residency_us, res[i]);
		assert_int_equal(plat.states[i].hint, hint[i]);
	}
	assert_string_equal(plat.states[2].desc, "MWAIT 0x01");
	assert_int_equal(plat.states[3].flags, IK_FLAG_TLB_FLUSHED);
	/* pre-wake: a timer wake from C6 is cheaper than an IPI or device wake */
	assert_true(plat.states[3].exit[IK_WAKE_TIMER].a_ns < plat.states[3].exit[IK_WAKE_IPI].a_ns);
	assert_int_equal(plat.states[3].exit[IK_WAKE_IRQ].a_ns, plat.states[3].exit[IK_WAKE_IPI].a_ns);
	/* C1 and C1E: the advertised latency as exit cost (no measurement) */
	assert_int_equal(plat.states[2].exit[IK_WAKE_IPI].kind, IK_DIST_CONSTANT);
	assert_int_equal(plat.states[2].exit[IK_WAKE_IPI].a_ns, 10000);
}

/* The file under platforms/ and the embedded copy are the same platform. */
static void builtin_equals_file(void **state)
{
	(void)state;
	static struct ik_platform file;
	char err[IK_ERR_LEN] = "";
	const char *names[] = { "amd-zen3", "intel-skx" };
	for (int i = 0; i < 2; i++) {
		char path[64];
		snprintf(path, sizeof(path), "../platforms/%s.ini", names[i]);
		if (ik__platform_load(path, &file, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		if (ik__platform_load(names[i], &plat, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_memory_equal(&file, &plat, sizeof(plat));
	}
}

static void unknown_builtin_lists_names(void **state)
{
	(void)state;
	char err[IK_ERR_LEN] = "";
	assert_int_equal(ik__platform_load("amd-zen9", &plat, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown platform 'amd-zen9'"));
	assert_non_null(strstr(err, "amd-zen3"));
	assert_non_null(strstr(err, "intel-skx"));
}

static void cannot_open(void **state)
{
	(void)state;
	char err[IK_ERR_LEN] = "";
	assert_int_equal(ik__platform_load("no-such-file.ini", &plat, err, sizeof(err)), -1);
	assert_string_equal(err, "no-such-file.ini: cannot open: No such file or directory");
	assert_int_equal(ik__platform_load("../platforms/", &plat, err, sizeof(err)), -1);
	assert_string_equal(err, "../platforms/: cannot open: Is a directory");
}


/* ---- firmware and CPU description ------------------------------------------------------ */

/* Every built-in platform parses and equals its file under platforms/. */
static void builtins_all_parse(void **state)
{
	(void)state;
	static struct ik_platform file;
	char err[IK_ERR_LEN] = "", path[128];
	int n = 0;
	for (const struct ik_builtin *b = ik__builtin_platforms; b->name; b++, n++) {
		if (ik__platform_load(b->name, &plat, err, sizeof(err)) != 0)
			fail_msg("%s: %s", b->name, err);
		assert_string_equal(plat.name, b->name);
		assert_true(plat.source[0] != '\0'); /* each says where its numbers come from */
		snprintf(path, sizeof(path), "../platforms/%s.ini", b->name);
		if (ik__platform_load(path, &file, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_memory_equal(&file, &plat, sizeof(plat));
	}
	assert_true(n >= 13);
}

#define CPUID_AMD "[cpuid]\nvendor = amd\nfamily = 0x19\nmwait = yes\n"

static void firmware_sections(void **state)
{
	(void)state;
	expect_ok(PLATFORM_HEAD STATE0 STATE1
		  "[state2]\nname = HLT\nlatency_us = 1\nresidency_us = 1\nmethod = hlt\nin_table = no\n"
		  "[cpuid]\nvendor = intel\nfamily = 6\nmodel = 0x55\nmwait = yes\nmonitor_bug = no\n"
		  "arat = yes\nzen = no\namd_e400 = no\namd_apic_c1e = yes\nhypervisor = kvm\n"
		  "kvm_hint_realtime = yes\ncpuid5_ecx = 0x3\ncpuid5_edx = 0x2020\n"
		  "[acpi]\ncst_control = fail\npblk = 0x410\nc2_latency_us = 20\nc3_latency_us = 200\n"
		  "c2_mp_supported = no\nwbinvd = no\npm_timer_port = 0x808\n"
		  "pm_timer_read_ns = constant 1200\nbm_activity = 0.25\n"
		  "[cst1]\ntype = C1\nmethod = ffh\naddress = 0x00\nlatency_us = 1\npower_mw = 1000\n"
		  "access_size = 1\n"
		  "[cst2]\ntype = 2\nmethod = systemio\naddress = 0x414\nlatency_us = 18\n"
		  "[cst3]\ntype = C3\nmethod = halt\nlatency_us = 100\n"
		  "[intel_idle]\ntable = skx\npc6 = no\n"
		  "[dt_state0]\nname = stop0_lite\nflags = stop_fast\nlatency_ns = 1000\n"
		  "residency_ns = 10000\npsscr = 0x330\n"
		  "[dt_state1]\nname = stop4\nflags = stop_deep, lose_full_context timebase_stop\n"
		  "latency_ns = 100000\nresidency_ns = 10000000\npsscr = 0x300334\n");
	assert_true(plat.states[2].unlisted);
	assert_false(plat.states[1].unlisted);
	assert_true(plat.has_cpuid);
	const struct ik_cpuid *c = &plat.cpuid;
	assert_int_equal(c->vendor, IK_VENDOR_INTEL);
	assert_int_equal(c->model, 0x55);
	assert_true(c->mwait && c->arat && c->amd_apic_c1e && c->kvm_hint_realtime);
	assert_false(c->zen || c->monitor_bug || c->amd_e400);
	assert_int_equal(c->hypervisor, IK_HYPERVISOR_KVM);
	assert_int_equal(c->cpuid5_edx, 0x2020);
	const struct ik_acpi *a = &plat.acpi;
	assert_true(a->present);
	assert_false(a->cst_control);
	assert_int_equal(a->pblk, 0x410);
	assert_int_equal(a->c3_latency_us, 200);
	assert_false(a->c2_mp_supported || a->wbinvd);
	assert_int_equal(a->pm_timer_read.a_ns, 1200);
	assert_true(a->bm_activity > 0.24 && a->bm_activity < 0.26);
	assert_int_equal(a->cst_count, 3);
	assert_int_equal(a->cst[0].access_size, 1);
	assert_int_equal(a->cst[1].access_size, 3); /* default */
	assert_int_equal(a->cst[1].type, 2);
	assert_int_equal(a->cst[1].method, IK_CST_SYSTEMIO);
	assert_int_equal(a->cst[1].address, 0x414);
	assert_int_equal(a->cst[2].method, IK_CST_HALT);
	assert_string_equal(plat.intel_idle.table, "skx");
	assert_false(plat.intel_idle.pc6);
	assert_int_equal(plat.powernv.count, 2);
	assert_int_equal(plat.powernv.states[1].flags,
			 IK_OPAL_STOP_DEEP | IK_OPAL_LOSE_FULL_CONTEXT | IK_OPAL_TIMEBASE_STOP);
	assert_int_equal(plat.powernv.states[1].residency_ns, 10000000);
	assert_int_equal(plat.powernv.states[0].psscr, 0x330);

	/* defaults: no sections, no firmware; zen from the family */
	expect_ok(PLATFORM_HEAD STATE0);
	assert_false(plat.has_cpuid || plat.acpi.present);
	assert_true(plat.acpi.cst_control && plat.intel_idle.pc6);
	assert_int_equal(plat.cpuid.vendor, IK_VENDOR_OTHER);
	expect_ok(PLATFORM_HEAD STATE0 CPUID_AMD);
	assert_true(plat.cpuid.zen);
	expect_ok(PLATFORM_HEAD STATE0 "[cpuid]\nvendor = amd\nfamily = 0x10\n");
	assert_false(plat.cpuid.zen);
	/* an unlisted state is outside the order check of the table */
	expect_ok(PLATFORM_HEAD STATE0 STATE1
		  "[state2]\nname = X\nlatency_us = 0\nresidency_us = 0\nmethod = hlt\nin_table = no\n"
		  "[state3]\nname = C6\nlatency_us = 100\nresidency_us = 300\nmethod = mwait\n");
	expect_error(PLATFORM_HEAD STATE0 STATE1
		     "[state2]\nname = X\nlatency_us = 0\nresidency_us = 0\nmethod = hlt\n",
		     "t.ini:19: states out of order: state2 latency_us 0 < state1 latency_us 2", NULL);
}

static void firmware_errors(void **state)
{
	(void)state;
	expect_error(PLATFORM_HEAD STATE0 "[cpuid]\nfamily = 6\n", "t.ini:12: [cpuid]: missing required "
		     "key 'vendor'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cpuid]\nvendor = via\n", "t.ini:13: [cpuid] vendor: "
		     "expected one of: other intel amd ibm arm, got 'via'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cpuid]\nvendor = amd\nkvm_hint_realtime = yes\n",
		     "t.ini:14: [cpuid] kvm_hint_realtime: only meaningful with hypervisor = kvm", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cpuid]\nvendor = amd\ncpuid5_edx = 0x1g\n",
		     "t.ini:14: [cpuid] cpuid5_edx: expected", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[acpi]\ncst_control = maybe\n", "t.ini:13: [acpi] "
		     "cst_control: expected one of: fail ok, got 'maybe'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[acpi]\nbm_activity = 2\n", "t.ini:13: [acpi] bm_activity:", NULL);
	/* _CST entries: unknown method, bad type, missing address, hint range, gaps */
	expect_error(PLATFORM_HEAD STATE0 "[cst1]\ntype = C1\nmethod = mwait\n", "t.ini:14: [cst1] "
		     "method: expected one of: ffh (FIXED_HARDWARE, MWAIT hint in address) systemio "
		     "(SYSTEM_IO port in address) halt (FIXED_HARDWARE without MWAIT), got 'mwait'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst1]\ntype = C4\n", "t.ini:13: [cst1] type: expected an "
		     "ACPI C-state type C1, C2 or C3 (or 1..3), got 'C4'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst1]\ntype = C1\nmethod = ffh\nlatency_us = 1\n",
		     "t.ini:12: [cst1]: missing required key 'address' (the MWAIT hint for method ffh)",
		     NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst1]\ntype = C1\nmethod = systemio\nlatency_us = 1\n",
		     "(the I/O port for method systemio)", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst1]\ntype = C1\nmethod = ffh\nlatency_us = 1\n"
		     "address = 0x100\n", "t.ini:16: [cst1] address: an MWAIT hint is one byte "
		     "(0x00..0xff), got 0x100", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst1]\ntype = C1\nmethod = systemio\nlatency_us = 1\n"
		     "address = 0x10000\n", "an I/O port is 0x0000..0xffff", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst1]\ntype = C1\nlatency_us = 1\n",
		     "[cst1]: missing required key 'method'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst2]\ntype = C1\nmethod = halt\nlatency_us = 1\n",
		     "t.ini:12: [cst2] without [cst1]: numbered from cst1 without gaps", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst9]\n", "t.ini:12: [cst9]: _CST entries are "
		     "[cst1]..[cst8]", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cst0]\n", "[cst0]: _CST entries are [cst1]..[cst8]", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[intel_idle]\ntable = knl\n", "t.ini:13: [intel_idle] "
		     "table: expected auto (by CPU model), acpi (no built-in table: states from _CST) or "
		     "one of: hsw hsx bdw bdx skl skx icx spr gnr srf, got 'knl'", NULL);
	/* device-tree states */
	expect_error(PLATFORM_HEAD STATE0 "[dt_state0]\nname = s\nflags = stop_fast, fast\n",
		     "t.ini:14: [dt_state0] flags: expected 'none' or a comma/space separated list of: "
		     "dec_stop timebase_stop", "got 'fast'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[dt_state0]\nname = s\nflags = stop_fast\nlatency_ns = 1\n"
		     "residency_ns = 1\n", "t.ini:12: [dt_state0]: missing required key 'psscr' "
		     "(a stop state's PSSCR value)", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[dt_state1]\nname = s\n", "[dt_state1] without [dt_state0]",
		     NULL);
	expect_error(PLATFORM_HEAD STATE0 "[dt_state16]\n", "at most 16 device-tree idle states", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[dt_state0]\nname = s\n", "[dt_state0]: missing required "
		     "key 'flags'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state0]\n", "duplicate section [state0]", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[acpi]\n[acpi]\n", "t.ini:13: duplicate section [acpi] "
		     "(first on line 12)", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[cpuid]\nvendor = amd\nnope = 1\n", "t.ini:14: unknown key "
		     "'nope' in [cpuid]; known keys: vendor family model mwait", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state0]\n", "duplicate section", NULL);
	expect_error(PLATFORM_HEAD "[state0]\nname = P\nlatency_us = 0\nresidency_us = 0\n"
		     "method = poll\nin_table = maybe\n", "[state0] in_table: expected yes, no", NULL);
}

/* ---- a minimal file: exact values, defaults --------------------------------------------- */

static void minimal_file_defaults(void **state)
{
	(void)state;
	expect_ok(PLATFORM_HEAD STATE0 STATE1
		  "[state2]\nname = C6\nlatency_us = 100\nresidency_us = 50\nmethod = hlt\n");
	assert_string_equal(plat.name, "t1");
	assert_string_equal(plat.description, "");
	assert_int_equal(plat.cores_per_llc, 4);          /* = cores_per_package */
	assert_int_equal(plat.ipi_ns.kind, IK_DIST_CONSTANT);
	assert_int_equal(plat.ipi_ns.a_ns, 1000);
	assert_int_equal(plat.poll_wake_ns, 100);
	assert_int_equal(plat.context_switch_ns, 1000);
	assert_int_equal(plat.active_power_mw, 1000);
	assert_int_equal(plat.state_count, 3);

	const struct ik_hw_state *s = plat.states;
	assert_string_equal(s[1].desc, "C1");             /* desc = name */
	assert_int_equal(s[1].exit[IK_WAKE_TIMER].kind, IK_DIST_CONSTANT);
	assert_int_equal(s[1].exit[IK_WAKE_TIMER].a_ns, 2000); /* latency_us * 1000 */
	assert_int_equal(s[1].entry.kind, IK_DIST_CONSTANT);
	assert_int_equal(s[1].entry.a_ns, 0);
	assert_false(s[1].needs_ipi);                     /* mwait */
	assert_int_equal(s[1].power_mw, 0);
	assert_true(s[2].needs_ipi);                      /* hlt */
	assert_int_equal(s[2].residency_us, 50);         /* residency < latency is allowed */
	assert_int_equal(s[2].exit[IK_WAKE_IRQ].a_ns, 100000);
	assert_int_equal(s[0].flags, IK_FLAG_POLLING);
	assert_int_equal(s[0].power_mw, 1000);            /* POLL burns like a busy CPU */
}

static void every_key(void **state)
{
	(void)state;
	expect_ok("; comment\n# another\n"
		  "[platform]\n"
		  "name = every.key-1\n"
		  "description = all keys ; an inline comment\n"
		  "source = here\n"
		  "packages = 2\n"
		  "cores_per_package = 6\n"
		  "threads_per_core = 1\n"
		  "cores_per_llc = 3\n"
		  "ipi_ns = uniform 900 1100\n"
		  "poll_wake_ns = 50\n"
		  "context_switch_ns = 700\n"
		  "active_power_mw = 2000\n"
		  STATE0
		  "[state1]\n"
		  "name = C2\n"
		  "desc = ACPI IOPORT 0x414\n"
		  "latency_us = 18\n"
		  "residency_us = 36\n"
		  "method = ioport\n"
		  "hint = 0x414\n"
		  "flags = timer_stop, tlb_flushed off unusable\n"
		  "power_mw = 7\n"
		  "entry_ns = constant 300\n"
		  "exit_ns = lognormal 20000 0.1\n"
		  "exit_ipi_ns = constant 25000\n"
		  "exit_timer_ns = constant 5000\n"
		  "exit_irq_ns = uniform 1 2\n"
		  "entry_busy_ns = 1234\n"
		  "needs_ipi = no\n");
	assert_string_equal(plat.name, "every.key-1");
	assert_string_equal(plat.description, "all keys");
	assert_string_equal(plat.source, "here");
	assert_int_equal(plat.packages, 2);
	assert_int_equal(plat.cores_per_package, 6);
	assert_int_equal(plat.threads_per_core, 1);
	assert_int_equal(plat.cores_per_llc, 3);
	assert_int_equal(plat.ipi_ns.kind, IK_DIST_UNIFORM);
	assert_int_equal(plat.ipi_ns.b_ns, 1100);
	assert_int_equal(plat.poll_wake_ns, 50);
	assert_int_equal(plat.context_switch_ns, 700);
	assert_int_equal(plat.active_power_mw, 2000);
	const struct ik_hw_state *s = &plat.states[1];
	assert_string_equal(s->desc, "ACPI IOPORT 0x414");
	assert_int_equal(s->hint, 0x414);
	assert_int_equal(s->flags, IK_FLAG_TIMER_STOP | IK_FLAG_TLB_FLUSHED | IK_FLAG_OFF |
					   IK_FLAG_UNUSABLE);
	assert_int_equal(s->power_mw, 7);
	assert_int_equal(s->entry.a_ns, 300);
	assert_int_equal(s->exit[IK_WAKE_IPI].a_ns, 25000);
	assert_int_equal(s->exit[IK_WAKE_TIMER].a_ns, 5000);
	assert_int_equal(s->exit[IK_WAKE_IRQ].kind, IK_DIST_UNIFORM);
	assert_int_equal(s->entry_busy_ns, 1234);
	assert_false(s->needs_ipi);
}

/* Only the wake sources not given fall back to exit_ns. */
static void exit_ns_fallback(void **state)
{
	(void)state;
	expect_ok(PLATFORM_HEAD STATE0 STATE1 "exit_ns = constant 3000\nexit_timer_ns = constant 100\n"
		  "needs_ipi = yes\n");
	assert_int_equal(plat.states[1].exit[IK_WAKE_IPI].a_ns, 3000);
	assert_int_equal(plat.states[1].exit[IK_WAKE_IRQ].a_ns, 3000);
	assert_int_equal(plat.states[1].exit[IK_WAKE_TIMER].a_ns, 100);
	assert_true(plat.states[1].needs_ipi);
}

static void syntax_variants(void **state)
{
	(void)state;
	/* indentation, CRLF, a BOM, "key: value", a very long comment, blank lines */
	char text[2048];
	char comment[400];
	memset(comment, 'x', sizeof(comment) - 1);
	comment[sizeof(comment) - 1] = '\0';
	snprintf(text, sizeof(text),
		 "\xEF\xBB\xBF[platform]\r\n"
		 "   name = crlf\r\n"
		 "\tpackages: 1\r\n"
		 "cores_per_package = 4 ; %s\r\n"
		 "\r\n"
		 "threads_per_core = 1\r\n"
		 "active_power_mw = 0\r\n"
		 "; %s\r\n"
		 "[state0]\r\n  name = C1\r\n  latency_us = 1\r\n  residency_us = 1\r\n"
		 "  method = wfi\r\n  flags = none\r\n",
		 comment, comment);
	expect_ok(text);
	assert_string_equal(plat.name, "crlf");
	assert_int_equal(plat.cores_per_package, 4);
	assert_int_equal(plat.states[0].method, IK_METHOD_WFI);
	assert_true(plat.states[0].needs_ipi);
	assert_int_equal(plat.states[0].flags, 0);
}

/* ---- errors: each names file, line, section, key and what was expected ----------------- */

static void error_malformed_lines(void **state)
{
	(void)state;
	expect_error("[platform]\nname = x\npackages 1\n", "t.ini:3:", "expected 'key = value'",
		     "got 'packages 1'", NULL);
	expect_error("; c\n[platform\nname = x\n", "t.ini:2:", "expected ']'", NULL);
	expect_error("name = x\n[platform]\n", "t.ini:1:", "key 'name' is outside any section", NULL);
	/* the first error wins, whatever its kind */
	expect_error("[platform]\nbogus\nnope = 1\n", "t.ini:2:", "expected 'key = value'", NULL);
	expect_error("[platform]\nnope = 1\nbogus\n", "t.ini:2:", "unknown key 'nope'", NULL);
	char text[400];
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	memcpy(text, "[platform]\nname = ", 18);
	expect_error(text, "t.ini:2:", "line too long", NULL);
}

static void error_sections(void **state)
{
	(void)state;
	expect_error(PLATFORM_HEAD "[foo]\n", "t.ini:7:", "unknown section [foo]",
		     "known sections: platform state0..state9 cpuid acpi cst1..cst8 intel_idle "
		     "dt_state0..dt_state15", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[platform]\n", "t.ini:12:",
		     "duplicate section [platform] (first on line 1)", NULL);
	expect_error(PLATFORM_HEAD "[state10]\n", "t.ini:7:", "at most 10 idle states", NULL);
	expect_error(PLATFORM_HEAD "[state01]\n", "unknown section [state01]", NULL);
	expect_error(STATE0, "t.ini: missing section [platform]", NULL);
	expect_error(PLATFORM_HEAD, "t.ini: no idle states", NULL);
	expect_error(PLATFORM_HEAD STATE0
		     "[state2]\nname = C6\nlatency_us = 100\nresidency_us = 50\nmethod = hlt\n",
		     "t.ini:12:", "[state2] without [state1]", NULL);
}

static void error_keys(void **state)
{
	(void)state;
	expect_error(PLATFORM_HEAD "cores = 3\n" STATE0, "t.ini:7:",
		     "unknown key 'cores' in [platform]; known keys: name description", NULL);
	expect_error(PLATFORM_HEAD STATE0 "latency = 3\n", "t.ini:12:",
		     "unknown key 'latency' in [state0]; known keys: name desc latency_us", NULL);
	expect_error(PLATFORM_HEAD "packages = 1\n" STATE0, "t.ini:7:",
		     "[platform] packages: duplicate key (first set on line 3)", NULL);
	expect_error("[platform]\npackages = 1\ncores_per_package = 4\nthreads_per_core = 2\n"
		     "active_power_mw = 1\n" STATE0,
		     "t.ini:1:", "[platform]: missing required key 'name'", NULL);
	expect_error("[platform]\nname = x\npackages = 1\ncores_per_package = 4\nthreads_per_core = 2\n"
		     STATE0, "t.ini:1:", "missing required key 'active_power_mw'", NULL);
	expect_error(PLATFORM_HEAD "[state0]\nname = POLL\nlatency_us = 0\nmethod = poll\n",
		     "t.ini:7:", "[state0]: missing required key 'residency_us'", NULL);
	expect_error(PLATFORM_HEAD "[state0]\nname = POLL\nlatency_us = 0\nresidency_us = 0\n",
		     "t.ini:7:", "[state0]: missing required key 'method'", NULL);
}

static void error_values(void **state)
{
	(void)state;
	expect_error("[platform]\nname = x\npackages = abc\n", "t.ini:3: [platform] packages: "
		     "expected an integer 1..8192, got 'abc'", NULL);
	expect_error("[platform]\npackages = -1\n", "t.ini:2:", "got '-1'", NULL);
	expect_error("[platform]\npackages = +1\n", "got '+1'", NULL);
	expect_error("[platform]\npackages = 12abc\n", "got '12abc'", NULL);
	expect_error("[platform]\npackages = 0\n", "expected an integer 1..8192, got '0'", NULL);
	expect_error("[platform]\npackages = 99999999999999999999999\n",
		     "got '99999999999999999999999'", NULL);
	expect_error("[platform]\npackages =\n", "t.ini:2: [platform] packages: expected an "
		     "integer 1..8192, got ''", NULL);
	expect_error("[platform]\nname = bad name\n", "t.ini:2: [platform] name: expected a name",
		     NULL);
	expect_error("[platform]\nthreads_per_core = 9\n", "[platform] threads_per_core: expected "
		     "an integer 1..8", NULL);
	expect_error(PLATFORM_HEAD "ipi_ns = gaussian 5\n" STATE0, "t.ini:7: [platform] ipi_ns: "
		     "expected 'constant NS'", "got 'gaussian'", NULL);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "residency_us = 100000001\n",
		     "t.ini:17: [state1] residency_us: duplicate key (first set on line 15)", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nname = C1\nlatency_us = 100000001\n",
		     "t.ini:14: [state1] latency_us: expected an integer 0..100000000, got '100000001'",
		     NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nname = C1-is-too-long-a-name\n",
		     "[state1] name: expected at most 15 characters", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\ndesc = 0123456789012345678901234567890123\n",
		     "[state1] desc: expected at most 31 characters", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nmethod = halt\n", "t.ini:13: [state1] method: "
		     "expected one of: poll mwait hlt ioport stop wfi other, got 'halt'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nhint = 0x\n", "[state1] hint: expected an "
		     "integer 0..4294967295 (decimal or 0x hex), got '0x'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nhint = 0x100000000\n", "got '0x100000000'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nflags = timer_stop,lite\n", "[state1] flags:",
		     "got 'lite'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nneeds_ipi = maybe\n", "[state1] needs_ipi: "
		     "expected yes, no, true, false, 1 or 0, got 'maybe'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nexit_ns = percentiles 50:10 40:20\n",
		     "t.ini:13: [state1] exit_ns: expected increasing percentiles", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\npower_mw = -3\n",
		     "[state1] power_mw: expected an integer 0..1000000, got '-3'", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\npower_mw = -0\n", "got '-0'", NULL); /* no sign */
}

static void error_checks_after_parsing(void **state)
{
	(void)state;
	expect_error("[platform]\nname = x\npackages = 8192\ncores_per_package = 2\n"
		     "threads_per_core = 1\nactive_power_mw = 1\n" STATE0,
		     "t.ini:1:", "16384 CPUs, expected at most 8192", NULL);
	expect_error(PLATFORM_HEAD "cores_per_llc = 3\n" STATE0, "t.ini:7: [platform] cores_per_llc: "
		     "expected a divisor of cores_per_package (4), got 3", NULL);
	expect_error(PLATFORM_HEAD STATE0
		     "[state1]\nname = C1\nlatency_us = 18\nresidency_us = 36\nmethod = mwait\n"
		     "[state2]\nname = C2\nlatency_us = 10\nresidency_us = 40\nmethod = hlt\n",
		     "t.ini:19: states out of order: state2 latency_us 10 < state1 latency_us 18", NULL);
	expect_error(PLATFORM_HEAD STATE0
		     "[state1]\nname = C1\nlatency_us = 18\nresidency_us = 36\nmethod = mwait\n"
		     "[state2]\nname = C2\nlatency_us = 20\nresidency_us = 30\nmethod = hlt\n",
		     "t.ini:20: states out of order: state2 residency_us 30 < state1 residency_us 36",
		     NULL);
	expect_error(PLATFORM_HEAD STATE1 "[state1]\n", "duplicate section [state1]", NULL);
	expect_error(PLATFORM_HEAD "[state0]\nname = C1\nlatency_us = 2\nresidency_us = 2\nmethod = "
		     "mwait\n[state1]\nname = POLL\nlatency_us = 2\nresidency_us = 2\nmethod = poll\n",
		     "t.ini:16: [state1] method: poll is only allowed for state0", NULL);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "flags = polling\n",
		     "t.ini:17: [state1] flags: polling is only allowed with method poll", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[state1]\nname = POLL\nlatency_us = 2\nresidency_us = 2\n"
		     "method = hlt\n", "t.ini:13: [state1] name: 'POLL' is already the name of [state0]",
		     NULL);
}

static void error_buffer_edge_cases(void **state)
{
	(void)state;
	/* no buffer, a one-byte buffer, a short buffer: never a crash or overflow */
	assert_int_equal(ik__platform_parse_string("t.ini", "[x]\n", &plat, NULL, 0), -1);
	char one[1] = { 'z' };
	assert_int_equal(ik__platform_parse_string("t.ini", "[x]\n", &plat, one, 1), -1);
	assert_int_equal(one[0], '\0');
	char small[12];
	assert_int_equal(ik__platform_parse_string("t.ini", "[x]\n", &plat, small, sizeof(small)), -1);
	assert_string_equal(small, "t.ini:1: un");
	/* empty text and NULL text */
	char err[IK_ERR_LEN];
	assert_int_equal(ik__platform_parse_string("t.ini", "", &plat, err, sizeof(err)), -1);
	assert_string_equal(err, "t.ini: missing section [platform] (with at least name, packages, "
			    "cores_per_package, threads_per_core, active_power_mw)");
	assert_int_equal(ik__platform_parse_string("t.ini", NULL, &plat, err, sizeof(err)), -1);
}

/* [effects] and the lite / core_off state keys of the hardware-effects model. */
static void effects_section(void **state)
{
	(void)state;
	expect_ok(PLATFORM_HEAD STATE0 STATE1 "lite = yes\ncore_off = no\n"
		  "[state2]\nname = C6\nlatency_us = 100\nresidency_us = 400\nmethod = mwait\n"
		  "core_off = yes\n[effects]\nbase_mhz = 2300\nturbo_mhz = 1:3600 2:3500, 4:3300\n"
		  "smt_sibling_busy = 0.6\nsmt_sibling_lite = 0.8\npkg_exit_ns = constant 40000\n"
		  "pkg_active_mw = 20000\npkg_idle_mw = 5000\n");
	const struct ik_hw_effects *fx = &plat.effects;
	assert_int_equal(fx->base_mhz, 2300);
	assert_int_equal(fx->nturbo, 3);
	assert_int_equal(fx->turbo_cores[2], 4);
	assert_int_equal(fx->turbo_mhz[2], 3300);
	assert_true(fx->smt_sibling_busy == 0.6 && fx->smt_sibling_lite == 0.8);
	assert_int_equal(fx->pkg_exit_ns.a_ns, 40000);
	assert_int_equal(fx->pkg_active_mw, 20000);
	assert_int_equal(fx->pkg_idle_mw, 5000);
	assert_true(fx->state_lite[1] && !fx->state_core_off[1] && fx->state_core_off[2]);
	/* defaults: no effect */
	expect_ok(PLATFORM_HEAD STATE0 STATE1);
	assert_true(plat.effects.smt_sibling_busy == 1.0 && plat.effects.nturbo == 0);
	expect_error(PLATFORM_HEAD STATE0 "[effects]\nturbo_mhz = 1:3600 1:3500\n", "t.ini:13",
		     "turbo_mhz", "must increase", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[effects]\nturbo_mhz = fast\n", "t.ini:13", "CORES:MHZ",
		     NULL);
	expect_error(PLATFORM_HEAD STATE0 "[effects]\nsmt_sibling_busy = 2\n", "t.ini:13",
		     "smt_sibling_busy", NULL);
	expect_error(PLATFORM_HEAD STATE0 "lite = maybe\n", "t.ini:12", "lite", NULL);
	expect_error(PLATFORM_HEAD STATE0 "[effects]\nturbo = 1\n", "t.ini:13", "turbo", NULL);
}

/*
 * The writer gives back what the reader took: every built-in platform, read, written out
 * key by key (every key of every section it has) and read again, is the same platform.
 */
static void write_every_key(struct ik_platform_writer *w, const char *section)
{
	int index, kind = platform_section_kind(section, &index);
	assert_true(kind >= 0);
	assert_int_equal(ik__platform_write_section(w, section), 0);
	for (int k = 0; k < platform_key_count(kind); k++)
		assert_int_equal(ik__platform_write_key(w, platform_key_name(kind, k), NULL), 0);
}

static void writer_round_trip(void **state)
{
	(void)state;
	static struct ik_platform again;
	struct ik_platform_reader *r = malloc(sizeof(*r));
	char err[IK_ERR_LEN] = "", section[32];
	assert_non_null(r);
	for (const struct ik_builtin *b = ik__builtin_platforms; b->name; b++) {
		ik__platform_reader_init(r, b->name, &plat, err, sizeof(err));
		if (ik__platform_reader_parse(r, b->text) || ik__platform_reader_finish(r))
			fail_msg("%s: %s", b->name, err);
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		assert_non_null(f);
		struct ik_platform_writer w;
		ik__platform_writer_init(&w, f, &plat);
		assert_int_equal(ik__platform_write_key(&w, "name", NULL), -1); /* no section yet */
		assert_int_equal(ik__platform_write_section(&w, "nosuch"), -1);
		write_every_key(&w, "platform");
		assert_int_equal(ik__platform_write_key(&w, "nosuch", NULL), -1);
		w.exit_ns = r->exit_ns;
		for (int i = 0; i < plat.state_count; i++) {
			snprintf(section, sizeof(section), "state%d", i);
			write_every_key(&w, section);
		}
		if (plat.has_cpuid)
			write_every_key(&w, "cpuid");
		if (plat.acpi.present)
			write_every_key(&w, "acpi");
		for (int i = 1; i <= plat.acpi.cst_count; i++) {
			snprintf(section, sizeof(section), "cst%d", i);
			write_every_key(&w, section);
		}
		write_every_key(&w, "intel_idle");
		for (int i = 0; i < plat.powernv.count; i++) {
			snprintf(section, sizeof(section), "dt_state%d", i);
			write_every_key(&w, section);
		}
		write_every_key(&w, "effects");
		assert_int_equal(fclose(f), 0);
		if (ik__platform_parse_string("written", text, &again, err, sizeof(err)))
			fail_msg("%s written does not read back: %s\n%s", b->name, err, text);
		if (memcmp(&plat, &again, sizeof(plat)) != 0)
			fail_msg("%s written reads back different:\n%s", b->name, text);
		free(text);
	}
	free(r);
}

/* Exit cost by idle length: parsed, evaluated as documented, written back, refused. */
static void exit_curves(void **state)
{
	(void)state;
	expect_ok(PLATFORM_HEAD STATE0 STATE1 "exit_after_idle_ns = 50000:0 1000000:10000 "
		  "100000000:90000\nexit_timer_after_idle_ns = 1000:7\n");
	const struct ik_exit_curve *c = &plat.states[1].after_idle;
	assert_int_equal(c->n, 3);
	assert_int_equal(c->idle_ns[1], 1000000);
	assert_int_equal(c->extra_ns[2], 90000);
	assert_int_equal(plat.states[1].timer_after_idle.n, 1);
	assert_int_equal(plat.states[0].after_idle.n, 0); /* not given: none */
	/* flat before the first and after the last point, linear in log(idle) between */
	assert_int_equal(ik__exit_curve_extra(c, 1), 0);
	assert_int_equal(ik__exit_curve_extra(c, 50000), 0);
	assert_int_equal(ik__exit_curve_extra(c, 1000000), 10000);
	assert_int_equal(ik__exit_curve_extra(c, 10000000), 50000); /* halfway in log */
	assert_int_equal(ik__exit_curve_extra(c, 100000000), 90000);
	assert_int_equal(ik__exit_curve_extra(c, 3600000000000LL), 90000);
	int64_t geo = 223607; /* sqrt(50000 * 1000000): halfway between the first two */
	assert_in_range(ik__exit_curve_extra(c, geo), 4999, 5001);
	assert_int_equal(ik__exit_curve_extra(&plat.states[1].timer_after_idle, 5), 7);
	assert_int_equal(ik__exit_curve_extra(&plat.states[0].after_idle, 1000000), 0);

	char buf[IK_CONFIG_VALUE_LEN];
	ik__exit_curve_format(c, buf, sizeof(buf));
	assert_string_equal(buf, "50000:0 1000000:10000 100000000:90000");
	ik__exit_curve_format(&plat.states[0].after_idle, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	/* the longest curve formats within a config value, and reads back */
	struct ik_exit_curve big = { .n = IK_EXIT_CURVE_MAX }, back;
	for (int i = 0; i < big.n; i++) {
		big.idle_ns[i] = 3600000000000LL - (IK_EXIT_CURVE_MAX - i);
		big.extra_ns[i] = 3600000000000LL;
	}
	ik__exit_curve_format(&big, buf, sizeof(buf));
	assert_int_equal(ik__exit_curve_parse(buf, &back, buf, sizeof(buf)), 0);
	assert_memory_equal(&big, &back, sizeof(big));

	expect_ok(PLATFORM_HEAD STATE0 STATE1 "exit_after_idle_ns = none\n");
	assert_int_equal(plat.states[1].after_idle.n, 0);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "exit_after_idle_ns = 1000:5 1000:6\n",
		     "t.ini:17: [state1] exit_after_idle_ns: expected 'none' or up to 8 points",
		     "got idle 1000 after 1000", NULL);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "exit_after_idle_ns = 0:5\n", "got '0:5'", NULL);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "exit_after_idle_ns = 10:-5\n", "got '10:-5'",
		     NULL);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "exit_timer_after_idle_ns = 10\n",
		     "[state1] exit_timer_after_idle_ns:", "got '10'", NULL);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "exit_after_idle_ns = 1:1 2:1 3:1 4:1 5:1 6:1 7:1 "
		     "8:1 9:1\n", "got more than 8 points", NULL);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "exit_after_idle_ns = 3600000000001:1\n",
		     "got '3600000000001:1'", NULL);
	expect_error(PLATFORM_HEAD STATE0 STATE1 "exit_after_idle_ns = none 1:1\n", "got 'none'",
		     NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builtin_amd_zen3),
		cmocka_unit_test(builtin_intel_skx),
		cmocka_unit_test(builtin_equals_file),
		cmocka_unit_test(builtins_all_parse),
		cmocka_unit_test(firmware_sections),
		cmocka_unit_test(firmware_errors),
		cmocka_unit_test(unknown_builtin_lists_names),
		cmocka_unit_test(cannot_open),
		cmocka_unit_test(minimal_file_defaults),
		cmocka_unit_test(effects_section),
		cmocka_unit_test(every_key),
		cmocka_unit_test(exit_ns_fallback),
		cmocka_unit_test(syntax_variants),
		cmocka_unit_test(error_malformed_lines),
		cmocka_unit_test(error_sections),
		cmocka_unit_test(error_keys),
		cmocka_unit_test(error_values),
		cmocka_unit_test(error_checks_after_parsing),
		cmocka_unit_test(error_buffer_edge_cases),
		cmocka_unit_test(writer_round_trip),
		cmocka_unit_test(exit_curves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
