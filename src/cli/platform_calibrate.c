/*
 * idlekit platform calibrate: a platform file of this machine with the costs sysfs does not
 * give measured here (src/host/calibrate.c): each idle state's exit on a wake-up and on a
 * timer, IPI delivery, the context switch, a normal task's timer slack.  It starts from an
 * import of this machine (src/cli/platform_import.c) or --from an existing file, and changes
 * only the measured keys' lines, each with a comment saying measured, where, when and from
 * how many samples.  The machine is put back as it was, also on SIGINT/SIGTERM and on
 * failure.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/host_cli.h"
#include "cli/platform_calibrate.h"
#include "config/platform_ini.h"
#include "config/scenario.h"
#include "drivers/registry.h"
#include "host/calibrate.h"

static const char calibrate_usage[] =
	"usage: idlekit platform calibrate [OPTIONS]\n"
	"\n"
	"Measure on this machine what its platform file needs and sysfs does not give, and\n"
	"write the file: each idle state's exit cost when another CPU wakes it (exit_ns) and\n"
	"when its own timer does (exit_timer_ns), IPI delivery (ipi_ns), the context switch\n"
	"(context_switch_ns), a normal task's timer slack ([os] timer_slack_ns), how often\n"
	"the machine's own background wakes an idle CPU ([os] background_hz), and what\n"
	"both exits cost more after longer idles (exit_after_idle_ns,\n"
	"exit_timer_after_idle_ns: idles of 100us to 100ms).  In a KVM guest the HLT\n"
	"state's exit is the halt exit: VM exit, host wake-up, VM entry, and it grows with\n"
	"the idle once the host stops polling the halted vCPU (KVM's halt_poll_ns).  Each\n"
	"value gets a comment: measured, the host, the date, the sample count and quartiles.\n"
	"\n"
	"How: the background is the idle entries/s of every CPU while calibrate sleeps (first,\n"
	"--background-time; their mean); a state's exit is a wake-up of the wakee CPU with\n"
	"only that state enabled (as `idlekit wakelat --state`) minus the IPI (POLL: the poll\n"
	"notice) and a context switch, which the model adds after the exit; the IPI is a\n"
	"wake-up of the wakee CPU busy with a SCHED_IDLE spinner minus a context switch; the\n"
	"context switch is a pipe ping-pong on one CPU (`idlekit ctxsw --cpus 0,0`); the timer\n"
	"exits are timed sleeps' overshoot on the wakee CPU minus a context switch; the\n"
	"longer idles repeat both.  A lognormal is fitted to each figure's\n"
	"quartiles.  The machine is changed while it runs (the wakee CPU's idle states\n"
	"disabled but one, the haltpoll poll window set to 0, a PM QoS limit of 0 for POLL)\n"
	"and put back afterwards, also on SIGINT/SIGTERM and on failure.  Needs root.\n"
	"Other work on the machine shows in the figures: run it on a quiet machine.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE        write to FILE (atomically) instead of standard output\n"
	"  --from FILE|NAME         start from this platform file (or built-in) instead of an\n"
	"                           import of this machine; only the measured keys change\n"
	"  --name NAME              the imported platform's name (default host-HOSTNAME)\n"
	"  --samples N              wake-ups or sleeps per figure (default 2000, at least 10)\n"
	"  --gap TIME               idle time before each wake-up (default 50us: short,\n"
	"                           so that exit_ns is the exit after a short idle)\n"
	"  --long-idle-time TIME    per figure of each longer idle: as many wake-ups as fit,\n"
	"                           at least 15, at most --samples (default 3s; 0: none,\n"
	"                           and the exit does not depend on the idle length)\n"
	"  --ctxsw-time TIME        how long each ping-pong runs (default 1s)\n"
	"  --background-time TIME   how long the background is counted (default 4s; 0: not,\n"
	"                           and background_hz is left as it is)\n"
	"  --waker-cpu N            the CPU that wakes (default 0)\n"
	"  --wakee-cpu N            the CPU whose states are measured (default 1)\n"
	"  --pm-qos-dev PATH        the PM QoS device (default $IDLEKIT_PM_QOS_DEV, else\n"
	"                           /dev/cpu_dma_latency)\n"
	"  -q, --quiet              no progress and no summary on standard error\n"
	"  -h, --help               this text\n"
	"\n"
	"Examples:\n"
	"  sudo idlekit platform calibrate -o mine.ini\n"
	"  sudo idlekit platform import --calibrate -o mine.ini      # the same\n"
	"  sudo idlekit platform calibrate --from kvm-guest-haltpoll --samples 5000 -o kvm.ini\n"
	"  idlekit sim --set scenario.platform=mine.ini              # runs what this machine runs\n";

struct opts {
	const char *outpath, *from, *name, *pmqos;
	struct ik_calib_config c;
	bool quiet;
};

static void on_progress(void *arg, const char *what, int step, int steps)
{
	(void)arg;
	fprintf(stderr, "idlekit platform calibrate: [%d/%d] %s\n", step, steps, what);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	enum { OPT_FROM = 256, OPT_NAME, OPT_SAMPLES, OPT_GAP, OPT_CTXSW, OPT_WAKER, OPT_WAKEE,
	       OPT_PMQOS, OPT_CALIBRATE, OPT_BACKGROUND, OPT_CURVE };
	static const struct option opts[] = {
		CLI_OPTION_OUTPUT,
		{ "from", required_argument, NULL, OPT_FROM },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "gap", required_argument, NULL, OPT_GAP },
		{ "ctxsw-time", required_argument, NULL, OPT_CTXSW },
		{ "background-time", required_argument, NULL, OPT_BACKGROUND },
		{ "long-idle-time", required_argument, NULL, OPT_CURVE },
		{ "waker-cpu", required_argument, NULL, OPT_WAKER },
		{ "wakee-cpu", required_argument, NULL, OPT_WAKEE },
		{ "pm-qos-dev", required_argument, NULL, OPT_PMQOS },
		{ "calibrate", no_argument, NULL, OPT_CALIBRATE }, /* from `platform import` */
		CLI_OPTION_QUIET,
		CLI_OPTIONS_END,
	};
	const char *cmd = "platform calibrate";
	long v;
	int c;

	struct cli_opts opt = { .cmd = cmd, .usage = calibrate_usage, .shortopts = "ho:q",
				.longopts = opts, .no_args = true };
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case OPT_FROM:
			o->from = optarg;
			break;
		case OPT_NAME:
			o->name = optarg;
			break;
		case OPT_SAMPLES:
			if (host_long_arg(cmd, "--samples", optarg, 10, 10000000L, &o->c.samples))
				return EXIT_USAGE;
			break;
		case OPT_GAP:
			if (host_duration_arg(cmd, "--gap", optarg, "us", 1000000000LL, &o->c.gap_ns))
				return EXIT_USAGE;
			if (o->c.gap_ns <= 0) {
				fprintf(stderr, "idlekit %s: --gap: expected more than 0\n", cmd);
				return EXIT_USAGE;
			}
			break;
		case OPT_CTXSW:
			if (host_duration_arg(cmd, "--ctxsw-time", optarg, "s", 600000000000LL,
					      &o->c.ctxsw_ns))
				return EXIT_USAGE;
			if (o->c.ctxsw_ns < 10000000) {
				fprintf(stderr, "idlekit %s: --ctxsw-time: expected at least 10ms\n", cmd);
				return EXIT_USAGE;
			}
			break;
		case OPT_CURVE:
			if (host_duration_arg(cmd, "--long-idle-time", optarg, "s", 600000000000LL,
					      &o->c.curve_ns))
				return EXIT_USAGE;
			break;
		case OPT_BACKGROUND:
			if (host_duration_arg(cmd, "--background-time", optarg, "s", 600000000000LL,
					      &o->c.background_ns))
				return EXIT_USAGE;
			break;
		case OPT_WAKER:
		case OPT_WAKEE:
			if (host_long_arg(cmd, c == OPT_WAKER ? "--waker-cpu" : "--wakee-cpu", optarg, 0,
					  IK_HOST_CPU_MAX - 1, &v))
				return EXIT_USAGE;
			*(c == OPT_WAKER ? &o->c.waker_cpu : &o->c.wakee_cpu) = (int)v;
			break;
		case OPT_PMQOS:
			o->pmqos = optarg;
			break;
		case OPT_CALIBRATE:
			break;
		}
	}
	if (opt.done)
		return opt.status;
	o->outpath = opt.output;
	o->quiet = opt.quiet;
	if (o->c.waker_cpu == o->c.wakee_cpu) {
		fprintf(stderr, "idlekit %s: --waker-cpu and --wakee-cpu must differ (both %d)\n", cmd,
			o->c.waker_cpu);
		return EXIT_USAGE;
	}
	return -1; /* go on */
}

/*
 * Which platform state each of the wakee CPU's states is: the state its driver binds the
 * same name to (on --from), or the same number (an import writes one per sysfs state).
 * -1 where none fits.
 */
static int map_states(const char *from, const struct ik_platform *p, const struct ik_host_cpu *h,
		      int *map, char *err, size_t errlen)
{
	for (int k = 0; k < h->nstates; k++)
		map[k] = !from && k < p->state_count ? k : -1;
	if (!from)
		return 0;
	char text[600];
	snprintf(text, sizeof(text), "[scenario]\nname = calibrate\nplatform = %s\n[cpuidle]\n"
		 "driver = %s\n", from, p->os.driver[0] ? p->os.driver : "auto");
	struct ik_scenario *sc = malloc(sizeof(*sc));
	struct ik_driver_binding *b = malloc(sizeof(*b));
	int rc = -1;
	if (!sc || !b) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (ik__scenario_parse_string("--from", text, NULL, 0, sc, err, errlen) ||
	    ik__idle_driver_probe(sc, b, err, errlen))
		goto out;
	const struct ik_driver *drv = &b->table;
	for (int k = 0; k < h->nstates; k++) {
		for (int i = 0; i < drv->state_count && map[k] < 0; i++)
			if (strcasecmp(drv->states[i].name, h->states[k].name) == 0)
				map[k] = b->hw_state[i];
		if (map[k] < 0 && drv->state_count == h->nstates)
			map[k] = b->hw_state[k];
	}
	rc = 0;
out:
	free(sc);
	free(b);
	return rc;
}

/* "lognormal MEDIAN SIGMA", or "constant V" when there is no spread to fit. */
static void dist_text(const struct ik_calib_dist *d, char *buf, size_t len)
{
	double sigma = d->sigma > 3.0 ? 3.0 : d->sigma;
	if (d->p50 <= 0 || sigma < 0.005)
		snprintf(buf, len, "constant %" PRId64, d->p50 > 0 ? d->p50 : 0);
	else
		snprintf(buf, len, "lognormal %" PRId64 " %.3f", d->p50, sigma);
}

static void dist_comment(const char *stamp, const char *what, const struct ik_calib_dist *d,
			 char *buf, size_t len)
{
	snprintf(buf, len, "measured on %.80s, %ld %.100s: p25 %.1f p50 %.1f p75 %.1f p99 %.1f us",
		 stamp, d->n, what, (double)d->p25 / 1e3, (double)d->p50 / 1e3,
		 (double)d->p75 / 1e3, (double)d->p99 / 1e3);
}

/*
 * The exit-by-idle curve: 0 extra at the gap, then each longer idle's median minus the
 * gap's (at least 0), for wake-ups from another CPU or (timer) the CPU's own timer.
 */
static void curve_text(int64_t gap_ns, const struct ik_calib_state *st, bool timer, char *buf,
		       size_t len)
{
	int64_t base = timer ? st->timer.p50 : st->wake.p50, extra[IK_CALIB_CURVE_MAX];
	/* no point above a longer idle's: a few slow samples at one length are not a bump */
	for (int i = st->ncurve - 1; i >= 0; i--) {
		int64_t p50 = timer ? st->curve_timer[i].p50 : st->curve_wake[i].p50;
		extra[i] = p50 > base ? p50 - base : 0;
		if (i + 1 < st->ncurve && extra[i] > extra[i + 1])
			extra[i] = extra[i + 1];
	}
	int used = snprintf(buf, len, "%" PRId64 ":0", gap_ns);
	for (int i = 0; i < st->ncurve && used > 0 && (size_t)used < len; i++)
		used += snprintf(buf + used, len - (size_t)used, " %" PRId64 ":%" PRId64,
				 st->curve_idle_ns[i], extra[i]);
}

static void curve_comment(const char *stamp, const struct ik_calib_state *st, bool timer,
			  char *buf, size_t len)
{
	int used = snprintf(buf, len, "measured on %s, %s p50 after each idle, us: %.1f",
			    stamp, timer ? "timed sleeps' overshoot" : "wake-ups'",
			    (double)(timer ? st->timer.p50 : st->wake.p50) / 1e3);
	long lo = st->curve_wake[0].n, hi = lo;
	for (int i = 0; i < st->ncurve && used > 0 && (size_t)used < len; i++) {
		const struct ik_calib_dist *d = timer ? &st->curve_timer[i] : &st->curve_wake[i];
		used += snprintf(buf + used, len - (size_t)used, " %.1f", (double)d->p50 / 1e3);
		lo = d->n < lo ? d->n : lo;
		hi = d->n > hi ? d->n : hi;
	}
	if (used > 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, " (%ld-%ld samples each)", lo, hi);
}

/* The measured keys into the text, each with its comment; -1 when out of memory. */
static int write_figures(char **text, const struct ik_calib_result *r, const int *map,
			 const struct ik_calib_config *c, const char *stamp)
{
	char value[128], comment[1600], section[24]; /* a comment's numbers: %.1f of a double */
	int rc = 0;

	dist_text(&r->ipi, value, sizeof(value));
	dist_comment(stamp, "wake-ups of a busy CPU minus a context switch", &r->ipi, comment,
		     sizeof(comment));
	rc |= ik__platform_text_set(text, "platform", "ipi_ns", value, comment, false) < 0;
	snprintf(value, sizeof(value), "%" PRId64, r->context_switch_ns);
	snprintf(comment, sizeof(comment), "measured on %s, %" PRIu64 " switches of a pipe "
		 "ping-pong on CPU %d", stamp, r->switches_one_cpu, c->waker_cpu);
	rc |= ik__platform_text_set(text, "platform", "context_switch_ns", value, comment, false) < 0;
	for (int k = 0; k < r->nstates; k++) {
		const struct ik_calib_state *st = &r->state[k];
		if (!st->measured || map[k] < 0)
			continue;
		snprintf(section, sizeof(section), "state%d", map[k]);
		dist_text(&st->exit, value, sizeof(value));
		dist_comment(stamp, st->poll ? "wake-ups with it alone, minus the poll notice "
					       "and a context switch"
					     : "wake-ups with it alone, minus the IPI and a context "
					       "switch", &st->exit, comment, sizeof(comment));
		rc |= ik__platform_text_set(text, section, "exit_ns", value, comment, false) < 0;
		/* a file that gives the IPI exit apart would otherwise keep its old one */
		rc |= ik__platform_text_set(text, section, "exit_ipi_ns", value, comment, true) < 0;
		dist_text(&st->timer_exit, value, sizeof(value));
		dist_comment(stamp, "timed sleeps with it alone, timer slack 1 ns, overshoot minus a "
			     "context switch", &st->timer_exit, comment, sizeof(comment));
		rc |= ik__platform_text_set(text, section, "exit_timer_ns", value, comment, false) < 0;
		/*
		 * The rest of each wake-up round's busy time beyond the switch: the idle path's.
		 * (A timed sleep's round also runs the timer interrupt: it is only reported.)
		 */
		int64_t busy = st->busy_wake_ns - r->context_switch_ns;
		snprintf(value, sizeof(value), "%" PRId64, busy > 0 ? busy : 0);
		snprintf(comment, sizeof(comment), "measured on %.60s, busy per idle entry with it "
			 "alone %.1f us in wake-ups (%.1f us in timed sleeps), minus a switch", stamp,
			 (double)st->busy_wake_ns / 1e3, (double)st->busy_timer_ns / 1e3);
		rc |= ik__platform_text_set(text, section, "entry_busy_ns", value, comment, false) < 0;
		if (st->ncurve > 0) {
			curve_text(c->gap_ns, st, false, value, sizeof(value));
			curve_comment(stamp, st, false, comment, sizeof(comment));
			rc |= ik__platform_text_set(text, section, "exit_after_idle_ns", value, comment,
						    false) < 0;
			curve_text(c->gap_ns, st, true, value, sizeof(value));
			curve_comment(stamp, st, true, comment, sizeof(comment));
			rc |= ik__platform_text_set(text, section, "exit_timer_after_idle_ns", value,
						    comment, false) < 0;
		}
	}
	snprintf(value, sizeof(value), "%" PRId64, r->timer_slack_ns);
	snprintf(comment, sizeof(comment), "measured on %s, %ld timed sleeps each with slack %ld "
		 "ns and 1 ns: p50 %.1f - %.1f us", stamp, r->oversleep_default.n, r->task_slack_ns,
		 (double)r->oversleep_default.p50 / 1e3, (double)r->oversleep_fine.p50 / 1e3);
	rc |= ik__platform_text_set(text, "os", "timer_slack_ns", value, comment, false) < 0;
	if (r->background_cpus > 0) {
		snprintf(value, sizeof(value), "%.1f", r->background_hz);
		snprintf(comment, sizeof(comment), "measured on %s, idle entries/s of %d CPUs over "
			 "%.3g s of nothing: mean (CPUs %.1f-%.1f)", stamp, r->background_cpus,
			 (double)c->background_ns / 1e9, r->background_min_hz, r->background_max_hz);
		rc |= ik__platform_text_set(text, "os", "background_hz", value, comment, false) < 0;
	}
	return rc ? -1 : 0;
}

/* The header comment: what was measured, how, and the check across two CPUs. */
static int prepend_header(char **text, const struct ik_calib_result *r,
			  const struct ik_calib_config *c, const char *stamp, const char *from)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	if (!f)
		return -1;
	int64_t predicted = r->ipi.p50 + r->context_switch_ns +
			    (r->deepest >= 0 ? r->state[r->deepest].exit.p50 : 0);
	fprintf(f, "; Calibrated by `idlekit platform calibrate` on %s (%s), wakee CPU %d, waker "
		"CPU %d,\n; %ld samples per figure, idle gap %" PRId64 " ns.  The values marked "
		"\"measured\" below are\n; medians and lognormal fits of what this machine did; "
		"any other load on it then is in them.\n", stamp, from ? from : "an import of this "
		"machine", c->wakee_cpu, c->waker_cpu, c->samples, c->gap_ns);
	fprintf(f, "; Check: a pipe ping-pong across CPUs %d and %d took %.1f us per hand-over; "
		"the model\n; charges one IPI + the deepest state's exit + a context switch, %.1f us, "
		"beside the\n; workload's own work.\n", c->waker_cpu, c->wakee_cpu, (double)r->handover_ns / 1e3,
		(double)predicted / 1e3);
	if (r->notes[0])
		fprintf(f, "; Note: %s\n", r->notes);
	fputs(*text, f);
	if (fclose(f) != 0) {
		free(out);
		return -1;
	}
	free(*text);
	*text = out;
	return 0;
}

static void summary(const struct ik_calib_result *r)
{
	fprintf(stderr, "idlekit platform calibrate: context switch %.2f us; busy wake p50 %.1f "
		"us, IPI p50 %.1f us; timer slack %.1f us (task slack %ld ns)\n",
		(double)r->context_switch_ns / 1e3, (double)r->busy_wake.p50 / 1e3,
		(double)r->ipi.p50 / 1e3, (double)r->timer_slack_ns / 1e3, r->task_slack_ns);
	for (int k = 0; k < r->nstates; k++) {
		const struct ik_calib_state *s = &r->state[k];
		fprintf(stderr, "  state %d %-14s wake p50 %.1f us (p25 %.1f, p75 %.1f), exit p50 "
			"%.1f us sigma %.2f, timer p50 %.1f us, %" PRIu64 " entries in %ld wake-ups\n",
			k, s->name, (double)s->wake.p50 / 1e3, (double)s->wake.p25 / 1e3,
			(double)s->wake.p75 / 1e3, (double)s->exit.p50 / 1e3, s->exit.sigma,
			(double)s->timer.p50 / 1e3, s->entries, s->wake.n);
		fprintf(stderr, "    busy per idle entry: %.1f us in the wake-ups, %.1f us in the "
			"timed sleeps\n", (double)s->busy_wake_ns / 1e3, (double)s->busy_timer_ns / 1e3);
		if (s->ncurve > 0) {
			fprintf(stderr, "    after idles of");
			for (int i = 0; i < s->ncurve; i++)
				fprintf(stderr, " %.3gms", (double)s->curve_idle_ns[i] / 1e6);
			fprintf(stderr, ": wake p50");
			for (int i = 0; i < s->ncurve; i++)
				fprintf(stderr, " %.1f", (double)s->curve_wake[i].p50 / 1e3);
			fprintf(stderr, " us, timer p50");
			for (int i = 0; i < s->ncurve; i++)
				fprintf(stderr, " %.1f", (double)s->curve_timer[i].p50 / 1e3);
			fprintf(stderr, " us\n");
		}
	}
	fprintf(stderr, "  ping-pong across the CPUs: %.1f us per hand-over\n",
		(double)r->handover_ns / 1e3);
	if (r->background_cpus > 0)
		fprintf(stderr, "  background: %.1f idle entries/s per CPU (CPUs %.1f-%.1f)\n",
			r->background_hz, r->background_min_hz, r->background_max_hz);
}

int cmd_platform_calibrate(int argc, char **argv)
{
	struct opts o = { .c = { .waker_cpu = 0, .wakee_cpu = 1, .samples = 2000, .gap_ns = 50000,
			     .curve_ns = 3000000000LL, .ctxsw_ns = 1000000000, .background_ns = 4000000000LL } };
	int rc = parse_opts(argc, argv, &o);
	if (rc >= 0)
		return rc;
	const char *cmd = "platform calibrate";
	if (cli_output_check(cmd, o.outpath))
		return EXIT_USAGE;
	if (host_waker_wakee_check(cmd, o.c.waker_cpu, o.c.wakee_cpu))
		return EXIT_USAGE;

	char err[IK_ERR_LEN] = "", *text = NULL;
	struct ik_platform *p = malloc(sizeof(*p));
	struct ik_calib_result *r = calloc(1, sizeof(*r));
	struct ik_sysfs *fs = NULL;
	struct ik_host_idle idle = { 0 };
	rc = EXIT_FAIL;
	if (!p || !r)
		goto out;

	/* the file to start from, checked before anything is measured */
	if (o.from) {
		struct ik_platform_text t;
		if (ik__platform_find(o.from, NULL, &t, err, sizeof(err))) {
			fprintf(stderr, "idlekit %s: --from: %s\n", cmd, err);
			rc = EXIT_USAGE;
			goto out;
		}
		text = strdup(t.text);
		int bad = ik__platform_parse_string(t.origin, t.text, p, err, sizeof(err));
		ik__platform_text_free(&t);
		if (bad || !text) {
			fprintf(stderr, "idlekit %s: --from: %s\n", cmd, bad ? err : "out of memory");
			rc = bad ? EXIT_USAGE : EXIT_FAIL;
			goto out;
		}
	} else {
		struct host_source src = { NULL, NULL };
		rc = cli_platform_import_text(&src, -1, o.name, cmd, &text);
		if (rc != EXIT_OK)
			goto out;
		rc = EXIT_FAIL;
		if (ik__platform_parse_string("the import", text, p, err, sizeof(err))) {
			fprintf(stderr, "idlekit %s: %s\n", cmd, err);
			goto out;
		}
	}

	/* this machine: cpuidle on the wakee CPU, and root to change it */
	struct ik_cpuset one;
	if (ik__sysfs_open_root("/", &fs, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		goto out;
	}
	ik__cpuset_clear(&one);
	ik__cpuset_add(&one, o.c.wakee_cpu);
	if (ik__host_idle_read(fs, &one, &idle, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: --wakee-cpu %d: %s\n", cmd, o.c.wakee_cpu, err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (idle.ncpus != 1 || idle.cpus[0].nstates == 0) {
		fprintf(stderr, "idlekit %s: CPU %d has no cpuidle states to measure (driver %s)\n",
			cmd, o.c.wakee_cpu, idle.driver);
		goto out;
	}
	char rel[96], path[4096];
	snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state0/disable", o.c.wakee_cpu);
	if (ik__sysfs_path(fs, rel, path, sizeof(path)) || ik__check_writable(path, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		goto out;
	}
	int map[IK_STATE_MAX];
	if (map_states(o.from, p, &idle.cpus[0], map, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: --from: %s\n", cmd, err);
		goto out;
	}

	/* measure, with every change undone also when a signal stops it */
	char hp_dir[] = "/sys/module/haltpoll/parameters";
	o.c.fs = fs;
	o.c.pmqos_dev = host_pmqos_path(o.pmqos);
	o.c.haltpoll_dir = access(hp_dir, F_OK) == 0 ? hp_dir : NULL;
	o.c.poll_wake_ns = p->poll_wake_ns;
	o.c.should_stop = ik__signals_caught;
	if (!o.quiet)
		o.c.progress = on_progress;
	ik__signals_catch();
	int mrc = ik__calibrate_run(&o.c, r, err, sizeof(err));
	int sig = ik__signals_caught();
	ik__signals_restore();
	if (sig) {
		fprintf(stderr, "idlekit %s: interrupted; settings restored\n", cmd);
		rc = 128 + sig;
		goto out;
	}
	if (mrc) {
		fprintf(stderr, "idlekit %s: %s (settings restored)\n", cmd, err);
		goto out;
	}

	/* the file: the measured keys, a header, checked, written at once */
	char host[128] = "", stamp[200], day[16];
	time_t now = time(NULL);
	struct tm tm;
	gethostname(host, sizeof(host) - 1);
	for (char *q = host; *q; q++)
		if (*q == ';' || *q == '#' || (unsigned char)*q < 0x20)
			*q = '_';
	strftime(day, sizeof(day), "%Y-%m-%d", gmtime_r(&now, &tm));
	snprintf(stamp, sizeof(stamp), "%s %s", host[0] ? host : "unknown", day);
	if (write_figures(&text, r, map, &o.c, stamp) ||
	    prepend_header(&text, r, &o.c, stamp, o.from)) {
		fprintf(stderr, "idlekit %s: out of memory\n", cmd);
		goto out;
	}
	if (ik__platform_parse_string("the calibrated platform", text, p, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: internal error, the file made does not parse: %s\n", cmd,
			err);
		goto out;
	}
	if (!o.quiet)
		summary(r);
	struct cli_output out;
	if (cli_output_open(&out, o.outpath) == 0) {
		fputs(text, out.fp);
		rc = cli_output_close(&out, 1) == 0 ? EXIT_OK : EXIT_FAIL;
	}
out:
	free(text);
	free(p);
	free(r);
	ik__host_idle_free(&idle);
	ik__sysfs_close(fs);
	return rc;
}
