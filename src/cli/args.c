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
#include "core/governor_registry.h"
#include "config/scenario.h"
#include "idlekit/kernel.h"
#include "util/timeline.h"

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

/* getopt_long said '?' for OPT: is it an option of ours that came without its value?  (Any
   of a command's own long-only ones, ids from 256, as govreplay has always said; a shared
   one that takes a value; a short one with a ':' after it.) */
static bool lacks_value(const struct cli_opts *o, int opt)
{
	if (opt >= 256)
		return true;
	for (const struct option *l = o->longopts; opt > 0 && l->name; l++)
		if (l->val == opt && l->has_arg == required_argument)
			return true;
	const char *p = opt > 0 ? strchr(o->shortopts, opt) : NULL;
	return p && p[1] == ':';
}

static void bad_option(const struct cli_opts *o, const char *arg)
{
	const char *help = o->help_cmd ? o->help_cmd : o->cmd;
	switch (o->bad) {
	case CLI_BAD_USAGE:
		fprintf(stderr, "idlekit %s: unknown option or missing value: '%s' (see idlekit %s "
			"--help)\n", o->cmd, arg, help);
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
		if (lacks_value(o, optopt))
			fprintf(stderr, "idlekit %s: '%s' needs a value\n", o->cmd, arg);
		else
			fprintf(stderr, "idlekit %s: unknown option '%s'\n", o->cmd, arg);
		fprintf(stderr, "(see idlekit %s --help)\n", help);
		break;
	case CLI_BAD_GETOPT: /* getopt has said what was wrong */
		fprintf(stderr, "(see idlekit %s --help)\n", help);
		break;
	}
}

static int finish(struct cli_opts *o, int status)
{
	o->done = true;
	o->status = status;
	return -1;
}

/* --kernel X.Y or --switch NAME=on|off onto k; -1 with the message printed. */
static int kernel_option(const char *cmd, int c, const char *arg, struct ik_kernel *k)
{
	char err[IK_ERR_LEN];
	unsigned release;
	if (c == CLI_OPT_SWITCH) {
		if (cli_kernel_switch(k, arg, err, sizeof(err)) == 0)
			return 0;
	} else if (ik_kernel_parse_release(arg, &release, err, sizeof(err)) == 0) {
		ik_kernel_set_release(k, release);
		return 0;
	}
	fprintf(stderr, "idlekit %s: %s: %s\n", cmd, c == CLI_OPT_SWITCH ? "--switch" : "--kernel",
		err);
	return -1;
}

int cli_window_needs_html(const struct cli_opts *o)
{
	if (!o->window || o->html)
		return 0;
	fprintf(stderr, "idlekit %s: --timeline-window is for the HTML report: add --html FILE\n",
		o->cmd);
	return -1;
}

int cli_getopt(struct cli_opts *o, int argc, char **argv)
{
	if (!o->started) {
		optind = o->first ? o->first : 1;
		opterr = o->bad == CLI_BAD_GETOPT;
		o->win_len = IK_TIMELINE_DEFAULT_LEN_NS;
		o->started = true;
	}
	char err[256];
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
			ik__gov_kernel_set_quiet(true); /* a kernel:FILE's warnings as a count */
			break;
		case 'j':
			if (cli_parse_jobs(o->cmd, optarg, &o->jobs))
				return finish(o, EXIT_USAGE);
			break;
		case 'p':
			o->platform = optarg;
			break;
		case CLI_OPT_JSON:
			o->json = true;
			break;
		case CLI_OPT_LENIENT:
			o->lenient = true;
			break;
		case CLI_OPT_HZ:
			if (cli_parse_range(o->cmd, "--hz", optarg, 1, 100000, &o->hz))
				return finish(o, EXIT_USAGE);
			break;
		case CLI_OPT_HTML:
			o->html = optarg;
			break;
		case CLI_OPT_WINDOW:
			o->window = optarg;
			if (ik__timeline_parse_window(optarg, &o->win_start, &o->win_len, err,
						     sizeof(err))) {
				fprintf(stderr, "idlekit %s: --timeline-window: %s\n", o->cmd, err);
				return finish(o, EXIT_USAGE);
			}
			break;
		case CLI_OPT_KERNEL:
		case CLI_OPT_SWITCH:
			if (!o->kernel)
				return c;
			if (kernel_option(o->cmd, c, optarg, o->kernel))
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
