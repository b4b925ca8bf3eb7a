/* idlekit: the command and its subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "config/config.h"

static const char usage[] =
	"usage: idlekit COMMAND [OPTIONS]\n"
	"\n"
	"Simulate and inspect the Linux CPU idle-state system (cpuidle core, governors,\n"
	"drivers) on modelled hardware.\n"
	"\n"
	"Commands:\n"
	"  sim [SCENARIO] [--set SECTION.KEY=VALUE]... [--runs N] [--seed N] [--json|--csv]\n"
	"                     run a scenario (default: the built-in 'default' scenario)\n"
	"  sweep SPEC.ini -o DIR [-j N] [--shard I/N]\n"
	"                     a grid of scenarios (also sweep slurm, sweep merge)\n"
	"  compare RESULT.json...\n"
	"                     results side by side: changes and their significance\n"
	"  platform list      list the built-in platforms\n"
	"  platform show NAME\n"
	"                     a platform's idle states (a built-in name or an INI file)\n"
	"  kernel list|show X.Y\n"
	"                     the kernel releases idlekit can behave as, and their switches\n"
	"  govreplay --governor G --platform P [--input FILE]\n"
	"                     a governor's decisions for a stream of idle periods\n"
	"  analyze TRACE [--json|--csv]\n"
	"                     an idle trace's residency, mis-predictions and wake causes\n"
	"  replay TRACE --governor G[,G...] --platform P [--closed-loop] [--compare-recorded]\n"
	"                     governors run on a trace's wake events: energy, wake latency\n"
	"  record -o FILE [--duration T] [-- CMD]\n"
	"                     record this machine's idle trace (tracefs, root)\n"
	"  import perf-script|ftrace|trace-cmd-report|trace-dat FILE -o OUT [--platform P]\n"
	"                     another tool's trace as an idlekit trace\n"
	"  workload learn TRACE -o W.ini\n"
	"                     a workload learned from a trace, as a scenario sim runs\n"
	"  info [--cpu LIST] [--json|--csv]\n"
	"                     the machine's idle states, like cpupower idle-info\n"
	"  set [-d|-e STATES] [-g GOV] [--latency T] [-- CMD]\n"
	"                     enable/disable states, switch governor, hold a PM QoS limit\n"
	"  monitor [--interval S] [-- CMD]\n"
	"                     idle-state usage, residency and mis-predictions per interval\n"
	"  platform import    a platform file from this machine's sysfs (or a dump)\n"
	"  wakelat            wake-up latency of an idle CPU (futex, pipe or eventfd)\n"
	"  ctxsw              context switches per second between two pinned threads\n"
	"  validate RTAPP.json|--builtin NAME [--runs N] [--json]\n"
	"                     a workload run on this machine and in its model, side by side\n"
	"                     (info, set, monitor, platform import: --sysfs-root DIR or\n"
	"                     --sysfs-dump FILE read a captured tree instead of the live one)\n"
	"  help [COMMAND]     this text, or a command's own help\n"
	"  version            print the version\n"
	"\n"
	"Every command takes --help (also: idlekit help COMMAND, man idlekit-COMMAND).\n"
	"Exit status: 0 success, 1 failure, 2 bad input, 4 a kernel:FILE governor crashed\n"
	"or hung (one message names the file, the decision and its inputs).\n"
	"\n"
	"Environment:\n"
	"  IDLEKIT_PROGRESS_AFTER_MS  how long work runs before its progress line shows on a\n"
	"                             terminal (default 1000; 0: at once)\n"
	"  IDLEKIT_CC                 the C compiler for kernel:FILE governors (default cc)\n"
	"  IDLEKIT_GOV_TIMEOUT_S      wall time a kernel:FILE governor's call may take before\n"
	"                             the run is stopped (default 10)\n"
	"  IDLEKIT_CACHE_DIR          where compiled kernel:FILE governors are kept (default\n"
	"                             $XDG_CACHE_HOME/idlekit or ~/.cache/idlekit)\n"
	"  IDLEKIT_KSHIM_DIR          the kernel shim's headers they compile against\n"
	"  IDLEKIT_COMPARE_MAX_MB     the largest result file compare reads (default 512)\n"
	"  SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, JOB_COMPLETION_INDEX\n"
	"                             the shard of `idlekit sweep` when --shard is not given\n"
	"\n"
	"Examples:\n"
	"  idlekit sim                                the default scenario\n"
	"  idlekit sim --set cpuidle.governor=teo --json -o teo.json\n"
	"  idlekit compare menu.json teo.json\n"
	"  idlekit info                               this machine's idle states\n";

/* Every command, by name (the host commands look at the real machine). */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "sim", cmd_sim },
	{ "sweep", cmd_sweep },
	{ "compare", cmd_compare },
	{ "platform", cmd_platform },
	{ "kernel", cmd_kernel },
	{ "govreplay", cmd_govreplay },
	{ "analyze", cmd_analyze },
	{ "replay", cmd_replay },
	{ "record", cmd_record },
	{ "import", cmd_import },
	{ "workload", cmd_workload },
	{ "info", cmd_info },
	{ "set", cmd_set },
	{ "monitor", cmd_monitor },
	{ "wakelat", cmd_wakelat },
	{ "ctxsw", cmd_ctxsw },
	{ "validate", cmd_validate },
	{ NULL, NULL },
};

static int (*command(const char *name))(int, char **)
{
	for (int i = 0; commands[i].name; i++)
		if (strcmp(name, commands[i].name) == 0)
			return commands[i].fn;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		/* No command is a usage error, as for any command-line tool (`idlekit sim` runs
		   the default scenario). */
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	int (*fn)(int, char **) = command(cmd);

	if (fn)
		return fn(argc - 1, argv + 1);
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("idlekit %s\n", ik__version());
		return EXIT_OK;
	}
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		if (argc > 2) {
			char *args[] = { argv[2], "--help", NULL };
			fn = command(argv[2]);
			if (fn)
				return fn(2, args);
			if (strcmp(argv[2], "help") != 0 && strcmp(argv[2], "version") != 0) {
				fprintf(stderr, "idlekit help: no command '%s' (the commands: see "
						"idlekit help)\n", argv[2]);
				return EXIT_USAGE;
			}
		}
		fputs(usage, stdout);
		return EXIT_OK;
	}
	fprintf(stderr, "idlekit: unknown command '%s'; the commands:", cmd);
	for (int i = 0; commands[i].name; i++)
		fprintf(stderr, " %s", commands[i].name);
	fprintf(stderr, " (see idlekit --help)\n");
	return EXIT_USAGE;
}
