/* idlekit: the command and its subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] =
	"usage: idlekit COMMAND [OPTIONS]\n"
	"\n"
	"Simulate and inspect the Linux CPU idle-state system (cpuidle core, governors,\n"
	"drivers) on modelled hardware.\n"
	"\n"
	"Commands:\n"
	"  sim [SCENARIO] [--set SECTION.KEY=VALUE]... [--runs N] [--seed N] [--json|--csv]\n"
	"                     run a scenario (default: the built-in 'default' scenario)\n"
	"  platform list      list the built-in platforms\n"
	"  platform show NAME show a platform's idle states (a built-in name or an INI file)\n"
	"  help [COMMAND]     this text, or a command's own help\n"
	"  version            print the version\n"
	"\n"
	"Every command takes --help.  Exit status: 0 success, 1 failure, 2 bad input.\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		/* With no command, run the default scenario: the quickest way to see it work. */
		char *args[] = { "sim", NULL };
		return cmd_sim(1, args);
	}
	const char *cmd = argv[1];

	if (strcmp(cmd, "sim") == 0)
		return cmd_sim(argc - 1, argv + 1);
	if (strcmp(cmd, "platform") == 0)
		return cmd_platform(argc - 1, argv + 1);
	if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
		printf("idlekit 0.1.0\n");
		return EXIT_OK;
	}
	if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		if (argc > 2) {
			char *args[] = { argv[2], "--help", NULL };
			if (strcmp(argv[2], "sim") == 0)
				return cmd_sim(2, args);
			if (strcmp(argv[2], "platform") == 0)
				return cmd_platform(2, args);
		}
		fputs(usage, stdout);
		return EXIT_OK;
	}
	fprintf(stderr, "idlekit: unknown command '%s'\n\n%s", cmd, usage);
	return EXIT_USAGE;
}
