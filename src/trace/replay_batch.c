/*
 * Several traces replayed under several governors (replay_batch.h): per trace, one instance
 * of each governor on the platform's table (or the trace's own), the platform's real costs,
 * one pass over the trace; the traces on a pool of threads.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/governor_registry.h"
#include "trace/replay_batch.h"
#include "util/errmsg.h"
#include "util/thread_pool.h"

/* a governor's one-line identity (ik__governor_identity_label): name, path, sha256, parameters */
#define GOV_LABEL_LEN 5200

int ik__replay_batch_governors(struct ik_replay_batch *b, const char *list, char *err,
			      size_t errlen)
{
	if (strlen(list) >= sizeof(b->spec_buf))
		return ik__errmsg(err, errlen, "list too long");
	snprintf(b->spec_buf, sizeof(b->spec_buf), "%s", list);
	b->ngov = 0;
	for (char *t = b->spec_buf, *next; t; t = next) {
		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		if (!*t)
			return ik__errmsg(err, errlen, "expected NAME[,NAME...], got '%s'", list);
		char why[IK_ERR_LEN]; /* a spec's own message, as long as it ever was */
		if (ik__governor_spec_check(t, why, sizeof(why)))
			return ik__errmsg(err, errlen, "%s", why);
		for (int i = 0; i < b->ngov; i++)
			if (strcmp(b->specs[i], t) == 0)
				return ik__errmsg(err, errlen, "'%s' given twice", t);
		if (b->ngov == IK_TRACE_REPLAY_MAX_GOVS)
			return ik__errmsg(err, errlen, "expected at most %d governors",
					  IK_TRACE_REPLAY_MAX_GOVS);
		b->specs[b->ngov++] = t;
	}
	return 0;
}

int ik__replay_batch_open(struct ik_replay_batch *b, const char *platform, char *err,
			 size_t errlen)
{
	ik_kernel_release_name(b->kernel->release, b->release_name, sizeof(b->release_name));
	ik_kernel_describe(b->kernel, b->kernel_label, sizeof(b->kernel_label));
	b->sc = calloc(1, sizeof(*b->sc));
	b->bind = calloc(1, sizeof(*b->bind));
	if (!b->sc || !b->bind) {
		snprintf(err, errlen, "out of memory");
		return IK_TRACE_EFAIL;
	}
	struct ik_scenario *sc = b->sc;
	/* "trace": each trace's own table (its first driver's), taken when it is replayed */
	b->from_trace = strcmp(platform, "trace") == 0;
	if (b->from_trace)
		snprintf(sc->platform.name, sizeof(sc->platform.name), "trace");
	char why[IK_ERR_LEN]; /* the loader's and the driver's messages, as long as they were */
	if (!b->from_trace && ik__platform_load(platform, &sc->platform, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		return IK_TRACE_EINPUT;
	}
	if (b->from_trace) {
		ik__driver_table_scenario(sc, platform, b->specs[0], 250);
		return 0;
	}
	if (ik__driver_table_bind(sc, platform, b->specs[0], 250, b->bind, err, errlen))
		return IK_TRACE_EINPUT;
	b->bound = true;
	return 0;
}

void ik__replay_batch_close(struct ik_replay_batch *b)
{
	b->bound = false;
	free(b->bind);
	free(b->sc);
	b->bind = NULL;
	b->sc = NULL;
}

/* haltpoll: the parameters the traced machine ran with, when the trace says them. */
static const char *haltpoll_params(const struct ik_trace_header *th, bool given,
				   struct ik_haltpoll_params *hp)
{
	if (given)
		return "--haltpoll-poll-ns, the rest defaults";
	if (strcmp(th->governor, "haltpoll") != 0)
		return "defaults";
	for (int i = 0; i < th->nparams; i++) /* other keys, and values too large, are passed over */
		ik__haltpoll_param_set(hp, th->params[i].key, th->params[i].value);
	return "the trace header";
}

/* Replay trace i under every governor and hand the results to the report hook. */
static void replay_one(const struct ik_replay_batch *b, int i, struct ik_replay_batch_trace *t)
{
	const struct ik_trace_header *h = ik__trace_header(t->r);
	const int ngov = b->ngov;
	struct ik_haltpoll_params hp = b->haltpoll;
	struct ik_driver_binding *bind = malloc(sizeof(*bind));
	struct ik_governor_inst *ginst[IK_TRACE_REPLAY_MAX_GOVS] = { 0 };
	const struct ik_governor *govs[IK_TRACE_REPLAY_MAX_GOVS];
	char *gov_labels = calloc(ngov > 0 ? (size_t)ngov : 1, GOV_LABEL_LEN);
	struct ik_trace_replay *rps = calloc(ngov > 0 ? (size_t)ngov : 1, sizeof(*rps));
	t->rc = IK_TRACE_EFAIL;
	if (!bind || !gov_labels || !rps) {
		snprintf(t->err, sizeof(t->err), "out of memory");
		goto out;
	}
	/* a copy: with the trace's own table, each trace's */
	*bind = *b->bind;
	if (b->from_trace)
		bind->table = h->drivers[0].drv;
	const char *hp_from = NULL;
	for (int g = 0; g < ngov; g++)
		if (strcmp(b->specs[g], "haltpoll") == 0)
			hp_from = haltpoll_params(h, b->haltpoll_given, &hp);
	const struct ik_kernel *k = b->kernel;
	bool as_release = k->release != IK_KERNEL_DEFAULT_RELEASE || k->forced_on || k->forced_off;
	for (int g = 0; g < ngov; g++) {
		struct ik_governor_open_args ga = { .spec = b->specs[g], .drv = &bind->table,
						    .hz = b->hz ? (int)b->hz : h->hz,
						    .kernel_version = b->release_name };
		int grc = ik__governor_open(&ga, &ginst[g], t->err, sizeof(t->err));
		if (grc) {
			t->rc = grc == -2 ? IK_TRACE_EINPUT : IK_TRACE_EFAIL;
			goto out;
		}
		govs[g] = ik__governor_inst_ops(ginst[g]);
		char *label = gov_labels + (size_t)g * GOV_LABEL_LEN;
		ik__governor_identity_label(ik__governor_inst_identity(ginst[g]), label, GOV_LABEL_LEN);
		if (as_release) {
			size_t l = strlen(label);
			snprintf(label + l, GOV_LABEL_LEN - l, " as %s", b->kernel_label);
		}
	}
	struct ik_trace_cost_model cost = { .plat = b->from_trace ? NULL : &b->sc->platform };
	memcpy(cost.hw_state, bind->hw_state, sizeof(cost.hw_state));
	struct ik_trace_replay_opts ro[IK_TRACE_REPLAY_MAX_GOVS];
	for (int g = 0; g < ngov; g++)
		ro[g] = (struct ik_trace_replay_opts){ .drv = &bind->table, .gov = govs[g],
						       .hz = (int)b->hz, .haltpoll = &hp,
						       .closed_loop = b->closed_loop, .cost = &cost,
						       .seed = b->seed, .kernel = k };
	struct ik_timeline *tl = NULL;
	if (b->timeline) {
		tl = ro[0].timeline = ik__timeline_new(0, b->win_start, b->win_len, h->cpus);
		if (!tl) {
			snprintf(t->err, sizeof(t->err), "out of memory");
			goto out;
		}
	}
	int rrc = ik__trace_replay_many(t->r, ro, ngov, rps, t->err, sizeof(t->err));
	if (rrc) {
		ik__timeline_free(tl);
		t->rc = rrc == IK_TRACE_EINPUT ? IK_TRACE_EINPUT : IK_TRACE_EFAIL;
		goto out;
	}
	t->skipped = rps[0].skipped;
	const char *names[IK_TRACE_REPLAY_MAX_GOVS];
	for (int g = 0; g < ngov; g++)
		names[g] = gov_labels + (size_t)g * GOV_LABEL_LEN;
	struct ik_replay_batch_done d = {
		.b = b, .index = i, .origin = t->origin, .h = h, .drv = &bind->table,
		.hz = b->hz ? (int)b->hz : h->hz, .haltpoll = &hp, .haltpoll_from = hp_from,
		.governors = names, .runs = rps, .timeline = tl,
	};
	t->rc = b->report(b->user, &d, t->err, sizeof(t->err)) == 0 ? 0 : IK_TRACE_EFAIL;
	ik__timeline_free(tl);
	for (int g = 0; g < ngov; g++)
		ik__trace_replay_free(&rps[g]);
out:
	for (int g = 0; g < ngov; g++)
		ik__governor_close(ginst[g]);
	free(gov_labels);
	free(rps);
	free(bind);
}

struct batch_run {
	const struct ik_replay_batch *b;
	struct ik_replay_batch_trace *t;
	pthread_mutex_t mu;
	int fail; /* the first trace that failed, or n */
};

/* A job of the pool: trace i, unless an earlier one failed. */
static int batch_job(void *arg, int64_t idx)
{
	struct batch_run *x = arg;
	int i = (int)idx;
	pthread_mutex_lock(&x->mu);
	bool after_fail = x->fail < i;
	pthread_mutex_unlock(&x->mu);
	if (after_fail)
		return 1;
	replay_one(x->b, i, &x->t[i]);
	if (x->t[i].rc == 0)
		return 0;
	pthread_mutex_lock(&x->mu);
	if (i < x->fail)
		x->fail = i;
	pthread_mutex_unlock(&x->mu);
	return 1;
}

int ik__replay_batch_run(const struct ik_replay_batch *b, struct ik_replay_batch_trace *t, int n,
			int threads)
{
	struct batch_run x = { .b = b, .t = t, .fail = n };
	for (int i = 0; i < n; i++) {
		t[i].rc = 0;
		t[i].skipped = 0;
		t[i].err[0] = '\0';
	}
	pthread_mutex_init(&x.mu, NULL);
	ik__thread_pool_run(n, threads, batch_job, &x);
	pthread_mutex_destroy(&x.mu);
	return x.fail;
}
