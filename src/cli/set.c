/*
 * idlekit set: enable and disable idle states, switch the governor, hold a PM QoS latency
 * limit; with a command, only while it runs.
 *
 * Everything is checked before anything is written (states and governor exist, every file
 * to be written can be opened for writing, the PM QoS device opens), so an error changes
 * nothing.  Writes go through the undo journal with the signals blocked; a failure halfway
 * is undone at once.
 */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/host_cli.h"

static const char set_usage[] =
	"usage: idlekit set [OPTIONS] [-- COMMAND [ARG...]]\n"
	"\n"
	"Change idle-state settings: enable or disable states per CPU, switch the cpuidle\n"
	"governor, hold a PM QoS CPU latency limit (/dev/cpu_dma_latency).\n"
	"\n"
	"With a COMMAND the changes hold while it runs and are undone when it ends or when\n"
	"idlekit is interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT: passed on to the command);\n"
	"the exit status is the command's.  Without one, state and governor changes stay, as\n"
	"with cpupower idle-set, while a --latency limit (with any other change) is held until\n"
	"idlekit is interrupted and then undone.  Needs root: nothing is changed unless every\n"
	"file can be written.\n"
	"\n"
	"Options:\n"
	"  -d, --disable STATES     disable these states: indexes or names, comma-separated\n"
	"                           (repeatable), e.g. -d 2,3 or -d C6\n"
	"  -e, --enable STATES      enable these states (applied in order with --disable)\n"
	"  -E, --enable-all         enable every state first\n"
	"  -D, --disable-above TIME disable the states whose exit latency is above TIME and\n"
	"                           enable the others, e.g. -D 20us (cpupower idle-set -D, but\n"
	"                           a state of exactly TIME stays enabled; bare numbers: us)\n"
	"  -g, --governor NAME      switch the cpuidle governor\n"
	"  --latency TIME           hold a CPU latency limit: 20us, 1ms, 0 (bare numbers: us)\n"
	"  --cpu LIST               CPUs whose states change (default: every online CPU)\n"
	"  --pm-qos-dev PATH        the PM QoS device (default $IDLEKIT_PM_QOS_DEV, else\n"
	"                           /dev/cpu_dma_latency); for testing with a stand-in file\n"
	"  --sysfs-root DIR         change DIR/sys/devices/system/cpu instead of the live tree\n"
	"  -h, --help               this text\n"
	"\n"
	"Examples:\n"
	"  idlekit set -d C6 --cpu 2-3\n"
	"  idlekit set --latency 20us -- ./benchmark --runs 5\n"
	"  idlekit set -E -g teo\n"
	"  idlekit set -D 10us -- ./latency-test     only states that exit within 10 us\n";

#define MAX_ACTIONS 64

struct action {
	bool disable;
	const char *states; /* as given: "2,C6"; NULL for --disable-above */
	int64_t above_ns;   /* --disable-above: states with a longer exit latency */
};

struct write_plan {
	char path[4096];
	char value[64];
};

struct plan {
	struct write_plan *writes;
	int count, capacity;
};

static int plan_add(struct plan *p, const char *path, const char *value)
{
	for (int i = 0; i < p->count; i++) /* a later action on the same file wins */
		if (strcmp(p->writes[i].path, path) == 0) {
			snprintf(p->writes[i].value, sizeof(p->writes[i].value), "%s", value);
			return 0;
		}
	if (p->count == p->capacity) {
		int cap = p->capacity ? p->capacity * 2 : 64;
		struct write_plan *w = realloc(p->writes, (size_t)cap * sizeof(*w));
		if (!w)
			return -1;
		p->writes = w;
		p->capacity = cap;
	}
	snprintf(p->writes[p->count].path, sizeof(p->writes[0].path), "%s", path);
	snprintf(p->writes[p->count].value, sizeof(p->writes[0].value), "%s", value);
	p->count++;
	return 0;
}

/* The index of state `token` (an index or a name) on CPU c, or -1 with a message. */
static int find_state(const struct ik_host_cpu *c, const char *token)
{
	char names[512] = "";
	size_t len = 0;

	if (token[0] && strspn(token, "0123456789") == strlen(token)) {
		long k = strtol(token, NULL, 10);
		if (strlen(token) < 4 && k < c->nstates)
			return (int)k;
		fprintf(stderr, "idlekit set: state %s: CPU %d has states 0..%d\n", token, c->cpu,
			c->nstates - 1);
		return -1;
	}
	for (int k = 0; k < c->nstates; k++)
		if (strcmp(c->states[k].name, token) == 0)
			return k;
	for (int k = 0; k < c->nstates; k++)
		if (strcasecmp(c->states[k].name, token) == 0)
			return k;
	for (int k = 0; k < c->nstates && len < sizeof(names); k++) {
		int n = snprintf(names + len, sizeof(names) - len, "%s%d=%s", k ? " " : "", k,
				 c->states[k].name);
		if (n > 0)
			len += (size_t)n;
	}
	fprintf(stderr, "idlekit set: no state '%s' on CPU %d (its states: %s)\n", token, c->cpu,
		names);
	return -1;
}

static bool governor_available(const char *list, const char *name)
{
	char copy[256];
	snprintf(copy, sizeof(copy), "%s", list);
	for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " "))
		if (strcmp(tok, name) == 0)
			return true;
	return false;
}

/* What --disable-above chose on the first CPU with states (the others have its table or
 * say so in their own writes). */
static void say_above(const struct ik_host_cpu *c, const bool *target, int64_t above_ns)
{
	char off[512] = "", on[512] = "";
	for (int k = 0; k < c->nstates; k++) {
		char *buf = target[k] ? off : on;
		size_t n = strlen(buf);
		snprintf(buf + n, 512 - n, "%s%s (%" PRIu64 " us)", n ? ", " : "", c->states[k].name,
			 c->states[k].latency_us);
	}
	fprintf(stderr, "idlekit set: --disable-above %.3g us on CPU %d: disabled %s; enabled %s\n",
		(double)above_ns / 1000.0, c->cpu, off[0] ? off : "none", on[0] ? on : "none");
}

/* Build the list of writes: (CPU, state) disable files and the governor file. */
static int make_plan(const struct ik_sysfs *fs, const struct ik_host_idle *idle,
		     const struct action *actions, int nactions, bool enable_all,
		     const char *governor, struct plan *plan)
{
	char rel[128], path[4096];
	bool said_above = false;

	for (int i = 0; i < idle->ncpus; i++) {
		const struct ik_host_cpu *c = &idle->cpus[i];
		bool target[IK_STATE_MAX];
		if (!c->online)
			continue;
		if (!c->has_cpuidle || c->nstates == 0) {
			if (enable_all || nactions) {
				fprintf(stderr, "idlekit set: CPU %d has no idle states to change "
					"(cpuidle driver: %s)\n", c->cpu, idle->driver);
				return -1;
			}
			continue;
		}
		for (int k = 0; k < c->nstates; k++)
			target[k] = enable_all ? false : c->states[k].disabled;
		for (int a = 0; a < nactions; a++) {
			if (!actions[a].states) {
				for (int k = 0; k < c->nstates; k++)
					target[k] = c->states[k].latency_us * 1000 > (uint64_t)actions[a].above_ns;
				if (!said_above) /* which states the bound picked, by name */
					say_above(c, target, actions[a].above_ns);
				said_above = true;
				continue;
			}
			char list[512];
			snprintf(list, sizeof(list), "%s", actions[a].states);
			char *save = NULL;
			bool any = false;
			for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				while (isspace((unsigned char)*tok))
					tok++;
				int k = find_state(c, tok);
				if (k < 0)
					return -1;
				target[k] = actions[a].disable;
				any = true;
			}
			if (!any) {
				fprintf(stderr, "idlekit set: %s: expected state indexes or names, got "
					"'%s'\n", actions[a].disable ? "--disable" : "--enable",
					actions[a].states);
				return -1;
			}
		}
		for (int k = 0; k < c->nstates; k++) {
			if (!(c->states[k].have & IK_HAVE_DISABLE)) {
				fprintf(stderr, "idlekit set: CPU %d state %d has no 'disable' file\n",
					c->cpu, k);
				return -1;
			}
			if (!enable_all && target[k] == c->states[k].disabled)
				continue;
			snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/disable", c->cpu, k);
			if (ik__sysfs_path(fs, rel, path, sizeof(path)) || plan_add(plan, path,
										  target[k] ? "1" : "0"))
				return -1;
		}
	}
	if (governor) {
		if (strcmp(idle->driver, "none") == 0) {
			fprintf(stderr, "idlekit set: --governor: no cpuidle driver, so no governor to "
				"switch\n");
			return -1;
		}
		if (idle->available_governors[0] &&
		    !governor_available(idle->available_governors, governor)) {
			fprintf(stderr, "idlekit set: --governor %s: not available (available: %s)\n",
				governor, idle->available_governors);
			return -1;
		}
		if (ik__sysfs_path(fs, "cpuidle/current_governor", path, sizeof(path)) ||
		    plan_add(plan, path, governor))
			return -1;
	}
	return 0;
}

/* Undo; say what happened.  0 or -1. */
static int undo(struct ik_journal *j, const char *why)
{
	char err[IK_HOST_ERR_LEN] = "";
	int n = j->count;
	if (ik__journal_undo(j, err, sizeof(err))) {
		fprintf(stderr, "idlekit set: %s\n", err);
		return -1;
	}
	if (n)
		fprintf(stderr, "idlekit set: %s: restored %d setting%s\n", why, n, n == 1 ? "" : "s");
	return 0;
}

int cmd_set(int argc, char **argv)
{
	enum { OPT_CPU = 256 };
	static const struct option opts[] = {
		{ "disable", required_argument, NULL, 'd' },
		{ "enable", required_argument, NULL, 'e' },
		{ "enable-all", no_argument, NULL, 'E' },
		{ "disable-above", required_argument, NULL, 'D' },
		{ "governor", required_argument, NULL, 'g' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		HOST_PMQOS_OPTIONS,
		HOST_SOURCE_OPTIONS,
		CLI_OPTIONS_END,
	};
	struct action actions[MAX_ACTIONS];
	int nactions = 0, c;
	bool enable_all = false;
	const char *governor = NULL, *cpu_list = NULL;
	struct host_source src = { NULL, NULL };
	struct host_pmqos_limit limit = { -1, NULL };

	/* '+': stop at the first non-option, so the command's own options stay its own. */
	struct cli_opts opt = { .cmd = "set", .usage = set_usage, .shortopts = "+d:e:Eg:D:h",
				.longopts = opts };
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case 'd':
		case 'e':
		case 'D':
			if (nactions == MAX_ACTIONS) {
				fprintf(stderr, "idlekit set: at most %d --disable/--enable options\n",
					MAX_ACTIONS);
				return EXIT_USAGE;
			}
			actions[nactions].disable = c == 'd';
			actions[nactions].states = c == 'D' ? NULL : optarg;
			actions[nactions].above_ns = -1;
			if (c == 'D' && host_duration_arg("set", "--disable-above", optarg, "us",
							  (int64_t)IK_PMQOS_MAX_US * 1000,
							  &actions[nactions].above_ns))
				return EXIT_USAGE;
			nactions++;
			break;
		case 'E':
			enable_all = true;
			break;
		case 'g':
			governor = optarg;
			break;
		case OPT_CPU:
			cpu_list = optarg;
			break;
		case HOST_OPT_LATENCY:
		case HOST_OPT_PMQOS:
			if (host_pmqos_opt("set", c, optarg, &limit))
				return EXIT_USAGE;
			break;
		default: /* --sysfs-root, --sysfs-dump */
			host_source_opt(c, optarg, &src);
		}
	}
	if (opt.done)
		return opt.status;
	int64_t latency_ns = limit.latency_ns;
	char **command = optind < argc ? argv + optind : NULL;
	if (!nactions && !enable_all && !governor && latency_ns < 0) {
		fprintf(stderr, "idlekit set: nothing to change: give --disable, --enable, "
			"--enable-all, --disable-above, --governor or --latency\n");
		return EXIT_USAGE;
	}
	if (src.dump) {
		fprintf(stderr, "idlekit set: --sysfs-dump: a dump cannot be changed; use a tree "
			"(--sysfs-root)\n");
		return EXIT_USAGE;
	}

	struct ik_sysfs *fs = NULL;
	struct ik_host_idle idle = { 0 };
	struct plan plan = { 0 };
	struct ik_journal journal;
	struct ik_pmqos qos = { .fd = -1 };
	char err[IK_HOST_ERR_LEN] = "";
	int rc = EXIT_USAGE;
	bool sysfs_changes = nactions || enable_all || governor;

	ik__journal_init(&journal);
	if (sysfs_changes) {
		struct ik_cpuset want;
		if (host_open("set", &src, &fs))
			goto out;
		if (cpu_list && host_cpu_arg("set", fs, cpu_list, &want))
			goto out;
		if (ik__host_idle_read(fs, cpu_list ? &want : NULL, &idle, err, sizeof(err))) {
			fprintf(stderr, "idlekit set: %s\n", err);
			goto out;
		}
		if (cpu_list) {
			for (int i = 0; i < idle.ncpus; i++)
				if (!idle.cpus[i].online) {
					fprintf(stderr, "idlekit set: --cpu: CPU %d is offline\n",
						idle.cpus[i].cpu);
					goto out;
				}
		}
		if (make_plan(fs, &idle, actions, nactions, enable_all, governor, &plan))
			goto out;
		/* Before anything changes: can every file be written? */
		for (int i = 0; i < plan.count; i++) {
			if (ik__check_writable(plan.writes[i].path, err, sizeof(err))) {
				fprintf(stderr, "idlekit set: %s\n", err);
				rc = EXIT_FAIL;
				goto out;
			}
		}
	}
	if (latency_ns >= 0 && host_pmqos_open("set", &limit, &qos)) {
		rc = EXIT_FAIL;
		goto out;
	}

	if (ik__signals_catch()) {
		fprintf(stderr, "idlekit set: cannot install signal handlers\n");
		rc = EXIT_FAIL;
		goto out;
	}
	ik__signals_block(true);
	rc = EXIT_OK;
	for (int i = 0; i < plan.count && rc == EXIT_OK; i++) {
		if (ik__journal_write(&journal, plan.writes[i].path, plan.writes[i].value, err,
				     sizeof(err))) {
			fprintf(stderr, "idlekit set: %s\n", err);
			rc = EXIT_FAIL;
		}
	}
	if (rc == EXIT_OK && latency_ns >= 0 &&
	    ik__pmqos_set(&qos, (int32_t)(latency_ns / 1000), err, sizeof(err))) {
		fprintf(stderr, "idlekit set: %s\n", err);
		rc = EXIT_FAIL;
	}
	ik__signals_block(false); /* a signal that came meanwhile is handled here */
	if (rc != EXIT_OK) {
		undo(&journal, "after the error");
		goto out;
	}
	int sig = ik__signals_caught();
	bool hold = command || latency_ns >= 0;
	if (!sig && hold) {
		if (latency_ns >= 0)
			fprintf(stderr, "idlekit set: holding a CPU latency limit of %" PRId64 " us "
				"through %s%s\n", latency_ns / 1000, qos.path,
				command ? "" : "; interrupt (Ctrl-C) to release");
		if (command) {
			int status;
			if (ik__run_command(command, &status, err, sizeof(err))) {
				fprintf(stderr, "idlekit set: %s\n", err);
			}
			rc = status;
		} else {
			ik__signals_wait();
		}
		sig = ik__signals_caught();
	}
	if (sig || hold) {
		char why[64];
		if (sig)
			snprintf(why, sizeof(why), "%s", sig == 2 ? "interrupted (SIGINT)" :
				 sig == 15 ? "terminated (SIGTERM)" : "signalled");
		else
			snprintf(why, sizeof(why), "the command ended");
		if (undo(&journal, why))
			rc = EXIT_FAIL;
		ik__pmqos_close(&qos);
		/* Holding until interrupted: the signal is the expected end. */
		if (sig && !command)
			rc = hold ? EXIT_OK : 128 + sig;
		if (sig && command && rc == EXIT_OK)
			rc = 128 + sig;
	} else {
		for (int i = 0; i < journal.count; i++)
			printf("%s: %s -> %s\n", journal.entries[i].path, journal.entries[i].old_value,
			       journal.entries[i].new_value);
		if (!journal.count)
			printf("nothing changed: already as asked\n");
	}
	ik__signals_restore();
out:
	ik__pmqos_close(&qos);
	ik__journal_free(&journal);
	free(plan.writes);
	ik__host_idle_free(&idle);
	ik__sysfs_close(fs);
	return rc;
}
