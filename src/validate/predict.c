/*
 * idlekit validate: the prediction.  The same workload as a scenario of the simulator, on
 * the platform of this machine, for the same duration measured from its start (no warm-up:
 * the real window opens when the workload starts too), one run per seed 1..N; and each
 * run's figures in the form the real runs give them.
 *
 *   rtapp     workload.type = rtapp on the same file (src/sim/workloads/rtapp.c)
 *   periodic  workload.type = periodic: task i on CPU i, woken every period for its duty
 *   pingpong  workload.type = pingpong: one pair on CPUs 0 and 1 (same_package), 1-byte
 *             messages, work_ns of work per message on the receiving side
 *   command   workload.type = learned on the model learned from the traced run
 *   cyclictest  workload.type = periodic: thread i on CPU i, work_ns of work per cycle
 *
 * The platform is given as text (the import of this machine, or a file's): it is read
 * through a memory file, so nothing is written to disk.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config/config.h"
#include "sim/sim.h"
#include "util/errmsg.h"
#include "validate/validate.h"

/* The scenario's text: validate's own keys; the caller's --set come after as overrides. */
static int scenario_text(const struct ik_val_spec *spec, const char *platform, char *buf,
			 size_t len)
{
	int n = snprintf(buf, len,
			 "[scenario]\nname = validate-%s\ndescription = idlekit validate: the model of "
			 "this machine\nplatform = %s\nduration_ms = %" PRId64 "\nwarmup_ms = 0\n"
			 "runs = %d\nseed = 1\n\n[workload]\n",
			 ik__val_kind_name(spec->kind), platform, spec->duration_ns / 1000000,
			 spec->runs);
	switch (spec->kind) {
	case IK_VAL_RTAPP:
		n += snprintf(buf + n, len - (size_t)n, "type = rtapp\nfile = %s\n", spec->rtapp_file);
		break;
	case IK_VAL_PERIODIC:
		n += snprintf(buf + n, len - (size_t)n,
			      "type = periodic\ntasks = %d\nperiod_us = %" PRId64 "\ntask_work_ns = %lld\n",
			      spec->tasks, spec->period_us,
			      (long long)((double)spec->period_us * spec->duty_pct * 10.0 + 0.5));
		break;
	case IK_VAL_PINGPONG:
	case IK_VAL_TBENCH:
		n += snprintf(buf + n, len - (size_t)n,
			      "type = pingpong\npairs = 1\nplacement = same_package\nmsg_bytes = 1\n"
			      "work_ns = %" PRId64 "\n", spec->pingpong_work_ns);
		break;
	case IK_VAL_COMMAND:
		n += snprintf(buf + n, len - (size_t)n, "type = learned\nfile = %s\n",
			      spec->learned_file);
		break;
	case IK_VAL_CYCLICTEST:
		n += snprintf(buf + n, len - (size_t)n,
			      "type = periodic\ntasks = %d\nperiod_us = %" PRId64 "\ntask_work_ns = %" PRId64
			      "\n", spec->tasks, spec->period_us, spec->pingpong_work_ns);
		break;
	}
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int ik__val_scenario(const struct ik_val_spec *spec, struct ik_scenario *sc, struct ik_config **cfg,
		    char *err, size_t errlen)
{
	char path[64], text[8192 + 4096];
	int fd = memfd_create("idlekit-validate-platform", MFD_CLOEXEC);
	size_t len = strlen(spec->platform_text);
	int rc = -1;

	*cfg = ik__config_new();
	if (fd < 0 || !*cfg) {
		snprintf(err, errlen, "cannot hold the platform in memory: %s", strerror(errno));
		goto out;
	}
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, spec->platform_text + off, len - off);
		if (w <= 0) {
			snprintf(err, errlen, "cannot hold the platform in memory: %s", strerror(errno));
			goto out;
		}
		off += (size_t)w;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (scenario_text(spec, path, text, sizeof(text))) {
		snprintf(err, errlen, "the model's scenario is too long");
		goto out;
	}
	rc = ik__scenario_parse_string_config("idlekit validate", text, spec->sets, spec->nsets, sc,
					     *cfg, err, errlen);
out:
	if (fd >= 0)
		close(fd);
	if (rc != 0 && *cfg) {
		ik__config_free(*cfg);
		*cfg = NULL;
	}
	return rc;
}

int ik__val_predict(const struct ik_val_spec *spec, const struct ik_scenario *sc,
		   struct ik_run_result *runs, char *err, size_t errlen)
{
	for (int i = 0; i < spec->runs; i++) {
		if (ik__sim_run(sc, (uint64_t)(i + 1), &runs[i], err, errlen)) {
			for (int j = 0; j < i; j++)
				ik__run_result_free(&runs[j]);
			return -1;
		}
		if (ik__signals_caught()) {
			for (int j = 0; j <= i; j++)
				ik__run_result_free(&runs[j]);
			return ik__errmsg(err, errlen, "interrupted");
		}
	}
	return 0;
}

int ik__val_sample_sim(const struct ik_val_spec *spec, const struct ik_run_result *r,
		      struct ik_val_sample *s, char *err, size_t errlen)
{
	if (ik__val_sample_alloc(s, r->ncpus, r->nstates))
		return ik__errmsg(err, errlen, "out of memory");
	s->window_ns = (double)r->measured_ns;
	s->have_above_below = true;
	for (int st = 0; st < r->nstates; st++)
		snprintf(s->state_names[st], IK_VAL_NAME_LEN, "%s", r->states[st].name);
	for (int c = 0; c < r->ncpus; c++) {
		s->cpu_ids[c] = c;
		for (int st = 0; st < r->nstates; st++) {
			size_t j = (size_t)c * (size_t)r->nstates + (size_t)st;
			const struct ik_state_counters *k = &r->per_cpu[j];
			s->usage[j] = (double)k->usage;
			s->time_ns[j] = (double)k->time_ns;
			s->above[j] = (double)k->above;
			s->below[j] = (double)k->below;
		}
		/* An idle period still open at the end: sysfs would add it when the CPU wakes.
		   The machine's CPUs wake tens of times a second, so what its counters miss at
		   the end is short; a modelled CPU with nothing to do may sleep through most of
		   the window in one period, which would count as busy.  Its time is counted. */
		if (r->open_idle && r->open_idle[c].state >= 0 && r->open_idle[c].state < r->nstates)
			s->time_ns[(size_t)c * (size_t)r->nstates + (size_t)r->open_idle[c].state] +=
				(double)r->open_idle[c].ns;
	}
	/* the wake-up latency rt-app logs (timer expiry to running) is the rtapp workload's
	   "wake" part; the periodic workload's is the run's wake-latency histogram */
	const struct ik_hist *wake = NULL;
	if (spec->kind == IK_VAL_RTAPP && r->requests)
		wake = &r->requests->wake;
	else if (spec->kind == IK_VAL_PERIODIC || spec->kind == IK_VAL_CYCLICTEST)
		wake = &r->wake_latency;
	if (wake && wake->count > 0) {
		/* from the timer's time, as the real side measures: the periodic model's
		   histogram starts at the firing, the slack after it */
		double slack_us = wake == &r->wake_latency ? (double)spec->model_slack_ns / 1000.0 : 0;
		s->have_wake = true;
		s->wake_p50_us = (double)ik__hist_percentile(wake, 50) / 1000.0 + slack_us;
		s->wake_p99_us = (double)ik__hist_percentile(wake, 99) / 1000.0 + slack_us;
	}
	double secs = (double)r->measured_ns / 1e9;
	if (spec->kind == IK_VAL_PINGPONG) {
		s->have_throughput = true;
		s->throughput_name = "messages/s";
		s->throughput = secs > 0 ? (double)r->messages / secs : 0;
	} else if (spec->kind == IK_VAL_TBENCH) {
		/* an operation: a request and its reply */
		s->have_throughput = true;
		s->throughput_name = "operations/s";
		s->throughput = secs > 0 ? (double)r->messages / 2.0 / secs : 0;
	} else if (spec->kind == IK_VAL_RTAPP && r->requests) {
		s->have_throughput = true;
		s->throughput_name = "activations/s";
		s->throughput = secs > 0 ? (double)r->requests->done / secs : 0;
	} else if (spec->kind == IK_VAL_PERIODIC || spec->kind == IK_VAL_CYCLICTEST) {
		/* one activation per wake-up of a periodic task */
		s->have_throughput = true;
		s->throughput_name = "activations/s";
		s->throughput = secs > 0 ? (double)r->wakeups / secs : 0;
	}
	s->have_hist = true;
	memcpy(s->idle_hist, r->idle_hist, sizeof(s->idle_hist));
	(void)spec;
	return 0;
}

/*
 * The machine's governor parameters for a model that runs the machine's governor (see
 * validate.h).  The scenario is read again with them before the user's --set.
 */
int ik__val_machine_params(struct ik_val_spec *spec, const struct ik_val_machine *m,
			  struct ik_scenario *sc, struct ik_config **cfg, char *msg, size_t len)
{
	static char sets[IK_VAL_MAX_PARAMS][200];
	const char *all[IK_VAL_MAX_SETS + IK_VAL_MAX_PARAMS];
	size_t glen = strlen(m->governor);
	int n = 0;

	if (!m->governor[0] || strcmp(sc->governor, m->governor) != 0)
		return 0;
	for (int i = 0; i < m->nparams; i++) {
		if (strncmp(m->param_name[i], m->governor, glen) != 0 || m->param_name[i][glen] != '.')
			continue;
		/* sysfs shows a bool parameter as Y or N */
		const char *v = m->param_value[i];
		if (strcmp(v, "Y") == 0)
			v = "1";
		else if (strcmp(v, "N") == 0)
			v = "0";
		snprintf(sets[n], sizeof(sets[0]), "governor.%.60s=%.60s", m->param_name[i] + glen + 1, v);
		all[n] = sets[n];
		n++;
	}
	if (n == 0)
		return 0;
	if (n + spec->nsets > IK_VAL_MAX_SETS) {
		snprintf(msg, len, "too many --set: the machine's governor parameters not passed");
		return -1;
	}
	for (int i = 0; i < spec->nsets; i++)
		all[n + i] = spec->sets[i];
	struct ik_val_spec *again = malloc(sizeof(*again));
	struct ik_scenario *sc2 = malloc(sizeof(*sc2));
	struct ik_config *cfg2 = NULL;
	char err[IK_VAL_ERR_LEN];
	int rc = 0;
	if (!again || !sc2) {
		snprintf(msg, len, "out of memory: the machine's governor parameters not passed");
		rc = -1;
	} else {
		*again = *spec;
		memcpy(again->sets, all, (size_t)(n + spec->nsets) * sizeof(all[0]));
		again->nsets = n + spec->nsets;
		if (ik__val_scenario(again, sc2, &cfg2, err, sizeof(err)) != 0) {
			snprintf(msg, len, "the model does not take the machine's %s parameters (%.600s); "
				 "it runs with its own", m->governor, err);
			rc = -1;
		} else {
			*sc = *sc2;
			ik__config_free(*cfg);
			*cfg = cfg2;
			sc->config = cfg2;
			*spec = *again;
		}
	}
	free(again);
	free(sc2);
	return rc;
}
