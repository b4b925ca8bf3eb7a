/* idlekit platform: the built-in platform catalog. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "idlekit/hw.h"
#include "idlekit/scenario.h"

static const char platform_usage[] =
	"usage: idlekit platform list\n"
	"       idlekit platform show NAME|FILE.ini\n"
	"\n"
	"list  the built-in platforms, one per line: name, CPUs and description\n"
	"show  a platform's topology and idle states: advertised exit latency and target\n"
	"      residency (us, as sysfs shows them), entry method, and the modelled real costs\n";

static int show(const char *ref)
{
	struct ik_platform p;
	char err[IK_ERR_LEN];

	if (ik_platform_load(ref, &p, err, sizeof(err))) {
		fprintf(stderr, "idlekit platform: %s\n", err);
		return EXIT_USAGE;
	}
	printf("platform     %s\n", p.name);
	if (p.description[0])
		printf("description  %s\n", p.description);
	if (p.source[0])
		printf("source       %s\n", p.source);
	printf("topology     %d package(s) x %d cores x %d threads = %d CPUs, %d cores per LLC\n",
	       p.packages, p.cores_per_package, p.threads_per_core, ik_platform_cpus(&p),
	       p.cores_per_llc);
	char buf[512];
	ik_dist_format(&p.ipi_ns, buf, sizeof(buf));
	printf("ipi_ns       %s\n", buf);
	printf("active power %d mW per CPU\n\n", p.active_power_mw);
	printf("%-5s %-10s %-22s %10s %12s %-7s %-4s %8s  %s\n", "state", "name", "desc",
	       "latency_us", "residency_us", "method", "ipi", "power_mW", "exit_ns (ipi)");
	for (int i = 0; i < p.state_count; i++) {
		const struct ik_hw_state *s = &p.states[i];
		ik_dist_format(&s->exit[IK_WAKE_IPI], buf, sizeof(buf));
		printf("%-5d %-10s %-22s %10" PRIu32 " %12" PRIu32 " %-7s %-4s %8d  %s\n", i,
		       s->name, s->desc, s->latency_us, s->residency_us, ik_method_name(s->method),
		       s->needs_ipi ? "yes" : "no", s->power_mw, buf);
	}
	return EXIT_OK;
}

int cmd_platform(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(platform_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	if (strcmp(argv[1], "list") == 0) {
		for (const struct ik_builtin *b = ik_builtin_platforms; b->name; b++) {
			struct ik_platform p;
			char err[IK_ERR_LEN];
			if (ik_platform_parse_string(b->name, b->text, &p, err, sizeof(err))) {
				fprintf(stderr, "idlekit platform: built-in %s: %s\n", b->name, err);
				return EXIT_FAIL;
			}
			printf("%-16s %5d CPUs  %s\n", b->name, ik_platform_cpus(&p), p.description);
		}
		return EXIT_OK;
	}
	if (strcmp(argv[1], "show") == 0) {
		if (argc != 3) {
			fprintf(stderr, "idlekit platform show: expected one NAME or FILE\n");
			return EXIT_USAGE;
		}
		return show(argv[2]);
	}
	fprintf(stderr, "idlekit platform: unknown subcommand '%s'\n\n%s", argv[1], platform_usage);
	return EXIT_USAGE;
}
