/* Option values and the option loop shared by the commands. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

int cli_parse_u64(const char *cmd, const char *opt, const char *text, uint64_t max, uint64_t *out)
{
	return cli_parse_range(cmd, opt, text, 0, max, out);
}

int cli_parse_range(const char *cmd, const char *opt, const char *text, uint64_t min, uint64_t max,
		    uint64_t *out)
{
	char *end;

	errno = 0;
	if (text[0] < '0' || text[0] > '9')
		goto bad;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || *end || v < min || v > max)
		goto bad;
	*out = v;
	return 0;
bad:
	fprintf(stderr, "idlekit %s: %s: expected an integer %" PRIu64 "..%" PRIu64 ", got '%s'\n",
		cmd, opt, min, max, text);
	return -1;
}

int cli_default_jobs(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	int n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > 1024 ? 1024 : n;
}

int cli_parse_jobs(const char *cmd, const char *text, int *out)
{
	uint64_t v;
	if (cli_parse_u64(cmd, "-j", text, 1024, &v))
		return -1;
	if (v == 0) {
		fprintf(stderr, "idlekit %s: -j: expected an integer 1..1024, got 0\n", cmd);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* ---- the option loop --------------------------------------------------------------------- */

/* getopt_long said '?' for OPT: is it an option of ours that came without its value?  (A
   long-only option's id is 256 or more; a short one takes a value where a ':' follows it.) */
static bool lacks_value(const char *shortopts, int opt)
{
	if (opt >= 256)
		return true;
	const char *p = opt > 0 ? strchr(shortopts, opt) : NULL;
	return p && p[1] == ':';
}

static void bad_option(const struct cli_opts *o, const char *arg)
{
	const char *help = o->help_cmd ? o->help_cmd : o->cmd;
	switch (o->bad) {
	case CLI_BAD_USAGE:
		fprintf(stderr, "idlekit %s: unknown option or missing value: '%s'\n\n%s", o->cmd,
			arg, o->usage);
		break;
	case CLI_BAD_INCOMPLETE:
		fprintf(stderr, "idlekit %s: unknown or incomplete option '%s' "
			"(see idlekit %s --help)\n", o->cmd, arg, help);
		break;
	case CLI_BAD_SEE_HELP:
		fprintf(stderr, "idlekit %s: unknown option '%s'\n(see idlekit %s --help)\n",
			o->cmd, arg, help);
		break;
	case CLI_BAD_NEEDS_VALUE:
		if (lacks_value(o->shortopts, optopt))
			fprintf(stderr, "idlekit %s: '%s' needs a value\n", o->cmd, arg);
		else
			fprintf(stderr, "idlekit %s: unknown option '%s'\n", o->cmd, arg);
		fprintf(stderr, "(see idlekit %s --help)\n", help);
		break;
	case CLI_BAD_GETOPT: /* getopt has said what was wrong */
		fputs(o->usage, stderr);
		break;
	}
}

static int finish(struct cli_opts *o, int status)
{
	o->done = true;
	o->status = status;
	return -1;
}

int cli_getopt(struct cli_opts *o, int argc, char **argv)
{
	if (!o->started) {
		optind = o->first ? o->first : 1;
		opterr = o->bad == CLI_BAD_GETOPT;
		o->started = true;
	}
	for (;;) {
		int c = getopt_long(argc, argv, o->shortopts, o->longopts, NULL);
		switch (c) {
		case -1:
			if (o->no_args && optind < argc) {
				fprintf(stderr, "idlekit %s: unexpected argument '%s'\n", o->cmd,
					argv[optind]);
				return finish(o, EXIT_USAGE);
			}
			return -1;
		case 'h':
			fputs(o->usage, stdout);
			return finish(o, EXIT_OK);
		case 'o':
			o->output = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'j':
			if (cli_parse_jobs(o->cmd, optarg, &o->jobs))
				return finish(o, EXIT_USAGE);
			break;
		case '?':
			bad_option(o, argv[optind - 1]);
			return finish(o, EXIT_USAGE);
		default:
			return c;
		}
	}
}
