/* idlekit platform: the built-in platform catalog. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/platform_calibrate.h"
#include "config/platform_ini.h"
#include "config/scenario.h"
#include "drivers/registry.h"
#include "hw/hw.h"
#include "util/errmsg.h"

static const char platform_usage[] =
	"usage: idlekit platform list\n"
	"       idlekit platform show NAME|FILE.ini [--driver DRIVER] [--set SECTION.KEY=VALUE]...\n"
	"       idlekit platform import [--sysfs-root DIR | --sysfs-dump FILE] [-o FILE]\n"
	"       idlekit platform calibrate [-o FILE] [--from FILE] [-q]\n"
	"\n"
	"list  the built-in platforms, one per line: name, CPUs, the idle driver the kernel\n"
	"      would load, and description\n"
	"show  a platform's topology, its hardware idle states (advertised exit latency and\n"
	"      target residency in us, entry method, modelled real costs), its CPU and firmware\n"
	"      description, and the state table its idle driver registers, in the style of\n"
	"      `cpupower idle-info`.  --driver picks the driver (default auto: the one the\n"
	"      kernel would load: acpi_idle intel_idle powernv_idle haltpoll table none);\n"
	"      --set gives [cpuidle] options (cpuidle.latency_factor=3, cpuidle.idle=nomwait,\n"
	"      ...) or changes the platform (cst2.latency_us=30), as for `idlekit sim`.\n"
	"import  a platform file from this machine's idle states and topology (or a copied\n"
	"      sysfs tree or dump); `idlekit platform import --help` says what it can and\n"
	"      cannot read.\n"
	"calibrate  that file with the costs sysfs does not give measured here (exit costs,\n"
	"      IPI, context switch, timer slack; root); `idlekit platform calibrate --help`.\n"
	"\n"
	"Examples:\n"
	"  idlekit platform list\n"
	"  idlekit platform show amd-zen3-milan\n"
	"  idlekit platform show intel-hsx --driver intel_idle --set cpuidle.use_acpi=yes\n"
	"  idlekit platform import -o mine.ini && idlekit sim --set scenario.platform=mine.ini\n"
	"  sudo idlekit platform calibrate -o mine.ini\n";

/* The platform inside a minimal scenario, so driver options and overrides apply. */
static int load_scenario(const char *ref, const char *driver, const char *const *sets,
			 int nsets, struct ik_scenario *sc, char *err, size_t errlen)
{
	char text[1024];
	int n = snprintf(text, sizeof(text), "[scenario]\nname = show\nplatform = %s\n"
			 "[cpuidle]\ndriver = %s\n", ref, driver);
	if (n < 0 || (size_t)n >= sizeof(text))
		return ik__errmsg(err, errlen, "platform name too long");
	return ik__scenario_parse_string("platform show", text, sets, nsets, sc, err, errlen);
}

static const char *flag_text(unsigned flags, char *buf, size_t len)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ IK_FLAG_POLLING, "polling" },	    { IK_FLAG_TIMER_STOP, "timer_stop" },
		{ IK_FLAG_UNUSABLE, "unusable" },    { IK_FLAG_OFF, "off" },
		{ IK_FLAG_TLB_FLUSHED, "tlb_flushed" }, { IK_FLAG_RCU_IDLE, "rcu_idle" },
		{ IK_FLAG_IRQ_ENABLE, "irq_enable" }, { IK_FLAG_ALWAYS_ENABLE, "always_enable" },
		{ IK_FLAG_IBRS, "ibrs" },	    { IK_FLAG_INIT_XSTATE, "init_xstate" },
		{ IK_FLAG_PARTIAL_HINT_MATCH, "partial_hint_match" },
	};
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & names[i].bit) {
			int k = snprintf(buf + n, len - n, "%s%s", n ? "," : "", names[i].name);
			if (k < 0 || (size_t)k >= len - n)
				break;
			n += (size_t)k;
		}
	if (!n)
		snprintf(buf, len, "-");
	return buf;
}

static void show_firmware(const struct ik_platform *p)
{
	static const char *const cst_methods[] = { "FFH", "SYSTEMIO", "HALT" };
	static const char *const hypervisors[] = { "none", "kvm", "other" };
	const struct ik_cpuid *c = &p->cpuid;

	if (p->has_cpuid)
		printf("cpuid        vendor %s family 0x%x model 0x%x, mwait %s%s, arat %s, zen %s, "
		       "leaf 5 ECX 0x%" PRIx32 " EDX 0x%" PRIx32 ", hypervisor %s%s%s%s\n",
		       ik__vendor_name(c->vendor), c->family, c->model, c->mwait ? "yes" : "no",
		       c->monitor_bug ? " (MONITOR bug)" : "", c->arat ? "yes" : "no",
		       c->zen ? "yes" : "no", c->cpuid5_ecx, c->cpuid5_edx,
		       hypervisors[c->hypervisor], c->kvm_hint_realtime ? " (realtime hint)" : "",
		       c->amd_e400 ? ", AMD E400" : "", c->amd_apic_c1e ? ", APIC C1E bug" : "");
	if (p->acpi.present) {
		char buf[256];
		ik__dist_format(&p->acpi.pm_timer_read, buf, sizeof(buf));
		printf("acpi         _CST control %s, P_BLK 0x%" PRIx32 ", PM timer port 0x%" PRIx32
		       " read %s, bus-master activity %.3g\n", p->acpi.cst_control ? "ok" : "fails",
		       p->acpi.pblk, p->acpi.pm_timer_port, buf, p->acpi.bm_activity);
		for (int i = 0; i < p->acpi.cst_count; i++) {
			const struct ik_cst_entry *e = &p->acpi.cst[i];
			printf("  _CST %d     C%d %-8s 0x%-5" PRIx32 " latency %" PRIu32 " us\n", i + 1,
			       e->type, cst_methods[e->method], e->address, e->latency_us);
		}
	}
	if (p->has_cpuid && c->vendor == IK_VENDOR_INTEL)
		printf("intel_idle   table %s, package C6 %s\n",
		       p->intel_idle.table[0] ? p->intel_idle.table : "by model",
		       p->intel_idle.pc6 ? "enabled" : "disabled");
	if (p->os.present)
		printf("os           driver %s, governor %s%s, timer slack %" PRId64 " ns\n",
		       p->os.driver[0] ? p->os.driver : "not named",
		       p->os.governor[0] ? p->os.governor : "not named",
		       p->os.haltpoll_force > 0 ? ", cpuidle_haltpoll.force" : "", p->os.timer_slack_ns);
	if (p->os.has_haltpoll) {
		const struct ik_haltpoll_params *hp = &p->os.haltpoll;
		printf("haltpoll     guest_halt_poll_ns %" PRIu64 ", shrink %u, grow %u, grow_start %"
		       PRIu64 ", allow_shrink %s\n", hp->guest_halt_poll_ns, hp->guest_halt_poll_shrink,
		       hp->guest_halt_poll_grow, hp->guest_halt_poll_grow_start,
		       hp->guest_halt_poll_allow_shrink ? "yes" : "no");
	}
	for (int i = 0; i < p->powernv.count; i++) {
		const struct ik_dt_state *d = &p->powernv.states[i];
		printf("  dt %-2d      %-12s flags 0x%08" PRIx32 " latency %" PRIu64 " ns residency %" PRIu64
		       " ns psscr 0x%" PRIx32 "\n", i, d->name, d->flags, d->latency_ns, d->residency_ns,
		       d->psscr);
	}
}

/* cpupower idle-info style. */
static void show_driver(const struct ik_scenario *sc, const struct ik_driver_binding *b)
{
	const struct ik_driver *drv = &b->table;
	char flags[256];

	printf("\nCPUidle driver: %s\n", drv->name);
	if (strcmp(sc->kernel_driver, sc->driver) != 0)
		printf("(not the kernel's choice, which is %s)\n", sc->kernel_driver);
	else if (sc->platform.os.driver[0])
		printf("(the kernel's choice, and the platform's [os] driver: a scenario without a "
		       "driver key runs it)\n");
	else if (strcmp(sc->driver, "table") != 0)
		printf("(the kernel's choice; idlekit sim runs it with cpuidle.driver = auto or %s; "
		       "a scenario without a driver key runs the 'table' driver, the hardware "
		       "states as listed above)\n", sc->driver);
	printf("CPUidle governor: %s\n", b->bypass_governor ? "none (default idle routine)"
							    : sc->governor);
	printf("Number of idle states: %d\n", drv->state_count);
	printf("Available idle states:");
	for (int i = 0; i < drv->state_count; i++)
		printf(" %s", drv->states[i].name);
	printf("\n");
	for (int i = 0; i < drv->state_count; i++) {
		const struct ik_state *s = &drv->states[i];
		printf("%s:\n", s->name);
		printf("Flags/Description: %s\n", s->desc);
		printf("Latency: %" PRIu32 "\n", s->exit_latency);
		printf("Residency: %" PRIu32 "\n", s->target_residency);
		printf("Default: %s\n", s->flags & IK_FLAG_OFF ? "disabled" : "enabled");
		printf("Kernel flags: %s\n", flag_text(s->flags & 0x00ffffffu, flags, sizeof(flags)));
		if (IK_FLAG_MWAIT_HINT(s->flags))
			printf("MWAIT hint: 0x%02x\n", IK_FLAG_MWAIT_HINT(s->flags));
		printf("Hardware state: %s\n", sc->platform.states[b->hw_state[i]].name);
	}
	if (b->notes[0])
		printf("\nNotes: %s\n", b->notes);
}

static int show(const char *ref, const char *driver, const char *const *sets, int nsets)
{
	struct ik_scenario *sc = malloc(sizeof(*sc));
	struct ik_driver_binding *b = malloc(sizeof(*b));
	char err[IK_ERR_LEN];
	int rc = EXIT_USAGE;

	if (!sc || !b) {
		fprintf(stderr, "idlekit platform: out of memory\n");
		goto out;
	}
	/* the name or file first: its error is about what was typed, not the scenario
	   that carries it */
	struct ik_platform_text t;
	if (ik__platform_find(ref, NULL, &t, err, sizeof(err)) != 0) {
		fprintf(stderr, "idlekit platform show: %s\n", err);
		goto out;
	}
	ik__platform_text_free(&t);
	if (load_scenario(ref, driver, sets, nsets, sc, err, sizeof(err))) {
		fprintf(stderr, "idlekit platform: %s\n", err);
		goto out;
	}
	const struct ik_platform *p = &sc->platform;
	printf("platform     %s\n", p->name);
	if (p->description[0])
		printf("description  %s\n", p->description);
	if (p->source[0])
		printf("source       %s\n", p->source);
	printf("topology     %d package(s) x %d cores x %d threads = %d CPUs, %d cores per LLC\n",
	       p->packages, p->cores_per_package, p->threads_per_core, ik__platform_cpus(p),
	       p->cores_per_llc);
	char buf[512];
	ik__dist_format(&p->ipi_ns, buf, sizeof(buf));
	printf("ipi_ns       %s\n", buf);
	printf("active power %d mW per CPU\n", p->active_power_mw);
	show_firmware(p);
	printf("\nhardware idle states\n");
	printf("%-5s %-13s %-22s %10s %12s %-7s %-8s %-4s %8s  %s\n", "state", "name", "desc",
	       "latency_us", "residency_us", "method", "hint", "ipi", "power_mW", "exit_ns (ipi)");
	for (int i = 0; i < p->state_count; i++) {
		const struct ik_hw_state *s = &p->states[i];
		char hint[16];
		snprintf(hint, sizeof(hint), "0x%" PRIx32, s->hint);
		ik__dist_format(&s->exit[IK_WAKE_IPI], buf, sizeof(buf));
		printf("%-5d %-13s %-22s %10" PRIu32 " %12" PRIu32 " %-7s %-8s %-4s %8d  %s%s\n", i,
		       s->name, s->desc, s->latency_us, s->residency_us, ik__method_name(s->method), hint,
		       s->needs_ipi ? "yes" : "no", s->power_mw, buf, s->unlisted ? "  (not in table)" : "");
	}
	for (int i = 0; i < p->state_count; i++) {
		const struct ik_exit_curve *c[2] = { &p->states[i].after_idle,
						     &p->states[i].timer_after_idle };
		for (int k = 0; k < 2; k++) {
			if (c[k]->n == 0)
				continue;
			printf("state %d %s exit after idle (%s), extra: ", i, p->states[i].name,
			       k ? "own timer" : "woken");
			for (int j = 0; j < c[k]->n; j++)
				printf("%s%.3gms %+.1fus", j ? ", " : "", (double)c[k]->idle_ns[j] / 1e6,
				       (double)c[k]->extra_ns[j] / 1e3);
			printf("\n");
		}
	}
	if (ik__idle_driver_probe(sc, b, err, sizeof(err))) {
		fprintf(stderr, "idlekit platform: %s\n", err);
		rc = EXIT_FAIL;
		goto out;
	}
	show_driver(sc, b);
	rc = EXIT_OK;
out:
	free(sc);
	free(b);
	return rc;
}

/* The driver the kernel would load on a built-in platform, or "?" if it fails to load. */
static void auto_driver(const char *name, char *out, size_t len)
{
	struct ik_scenario *sc = malloc(sizeof(*sc));
	char err[IK_ERR_LEN];

	snprintf(out, len, "?");
	if (sc && load_scenario(name, "auto", NULL, 0, sc, err, sizeof(err)) == 0)
		snprintf(out, len, "%s", sc->driver);
	free(sc);
}

int cmd_platform(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(platform_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[1], "list") == 0) {
		for (const struct ik_builtin *b = ik__builtin_platforms; b->name; b++) {
			struct ik_platform *p = malloc(sizeof(*p));
			char err[IK_ERR_LEN], driver[16];
			if (!p || ik__platform_parse_string(b->name, b->text, p, err, sizeof(err))) {
				fprintf(stderr, "idlekit platform: built-in %s: %s\n", b->name,
					p ? err : "out of memory");
				free(p);
				return EXIT_FAIL;
			}
			auto_driver(b->name, driver, sizeof(driver));
			printf("%-20s %5d CPUs  %-12s %s\n", b->name, ik__platform_cpus(p), driver,
			       p->description);
			free(p);
		}
		return EXIT_OK;
	}
	if (strcmp(argv[1], "show") == 0) {
		const char *ref = NULL, *driver = "auto";
		const char **sets = calloc((size_t)argc, sizeof(*sets));
		int nsets = 0;
		if (!sets)
			return EXIT_FAIL;
		for (int i = 2; i < argc; i++) {
			if ((strcmp(argv[i], "--driver") == 0 || strcmp(argv[i], "--set") == 0) &&
			    i + 1 >= argc) {
				fprintf(stderr, "idlekit platform show: %s needs a value\n", argv[i]);
				free(sets);
				return EXIT_USAGE;
			}
			if (strcmp(argv[i], "--driver") == 0)
				driver = argv[++i];
			else if (strcmp(argv[i], "--set") == 0)
				sets[nsets++] = argv[++i];
			else if (!ref && argv[i][0] != '-')
				ref = argv[i];
			else {
				fprintf(stderr, "idlekit platform show: unexpected '%s' (see idlekit "
					"platform --help)\n", argv[i]);
				free(sets);
				return EXIT_USAGE;
			}
		}
		if (!ref) {
			fprintf(stderr, "idlekit platform show: expected one NAME or FILE\n");
			free(sets);
			return EXIT_USAGE;
		}
		int rc = show(ref, driver, sets, nsets);
		free(sets);
		return rc;
	}
	if (strcmp(argv[1], "import") == 0) /* src/cli/platform_import.c */
		return cmd_platform_import(argc - 1, argv + 1);
	if (strcmp(argv[1], "calibrate") == 0) /* src/cli/platform_calibrate.c */
		return cmd_platform_calibrate(argc - 1, argv + 1);
	fprintf(stderr, "idlekit platform: unknown subcommand '%s'; expected list, show, import "
		"or calibrate (see idlekit platform --help)\n", argv[1]);
	return EXIT_USAGE;
}
