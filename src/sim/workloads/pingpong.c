/*
 * pingpong: pairs of tasks exchanging messages in a closed loop (tbench, context_switch2).
 * Each message is work on the receiving side, then a wake-up of the peer, so a slower
 * wake-up directly lowers the message rate.  Pair k is tasks 2k (client) and 2k + 1
 * (server); the client's first timer starts the exchange.
 */
#include <stdlib.h>

#include <stdio.h>

#include "sim/workload.h"
#include "util/number_format.h"

static int pingpong_max_tasks(const struct ik_workload *w)
{
	return 2 * w->pairs;
}

static int pingpong_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	int *order = NULL;

	if (sim_tasks_alloc(s, 2 * w->pairs))
		goto oom;
	if (w->placement == IK_PLACE_WAKE_IDLE && !(order = sim_start_cpu_order(s)))
		goto oom;
	for (int k = 0; k < w->pairs; k++) {
		struct sim_task *client = &s->tasks[2 * k], *server = &s->tasks[2 * k + 1];
		int ccpu, scpu;

		if (w->placement == IK_PLACE_WAKE_IDLE) {
			ccpu = order[(2 * k) % s->ncpus];
			scpu = order[(2 * k + 1) % s->ncpus];
		} else {
			if (sim_pinned_pair(s, k, &ccpu, &scpu, err, errlen))
				return -1;
			client->pinned = server->pinned = true;
		}
		client->cpu = ccpu;
		server->cpu = scpu;
		client->peer = 2 * k + 1;
		server->peer = 2 * k;
		client->work_ns = server->work_ns = w->work_ns;
		if (sim_task_start_in_spread(s, 2 * k))
			goto oom;
	}
	free(order);
	return 0;
oom:
	free(order);
	return sim_workload_oom(err, errlen);
}

/*
 * The distance part of a message's cost, for the receiver: its cache lines come from the
 * sender's L3 (same last-level cache: nothing extra), another L3 of the package, or the
 * other package.  The receiver wakes in its previous CPU's last-level cache (the
 * scheduler's wake_idle placement scans only that one), so its previous CPU says where.
 */
static int64_t message_distance_ns(const struct ik_sim *s, int from_cpu, int to_cpu)
{
	const struct ik_workload *w = &s->sc->workload;
	const struct ik_cpu_topo *a = &s->cpus[from_cpu].topo, *b = &s->cpus[to_cpu].topo;

	if (a->package != b->package)
		return w->remote_package_ns;
	return a->llc != b->llc ? w->remote_llc_ns : 0;
}

/* The message is sent: the peer wakes up to handle it. */
static void pingpong_task_done(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];

	if (s->measuring) {
		s->messages++;
		s->bytes += (uint64_t)s->sc->workload.msg_bytes;
	}
	s->tasks[t->peer].unscaled_ns = message_distance_ns(s, t->cpu, s->tasks[t->peer].cpu);
	sim_wake_task(s, t->peer, t->cpu);
}

static int pingpong_check(struct ik_workload *w, struct ik_workload_check *c)
{
	return sim_check_pinned_pairs(w, c);
}

static void pingpong_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_int(out, "pairs", w->pairs);
	sim_setting_int(out, "work_ns", w->work_ns);
	sim_setting_int(out, "msg_bytes", w->msg_bytes);
	sim_setting_text(out, "placement", ik__workload_placement_name(w->placement));
}

static void pingpong_describe(const struct ik_workload *w, char *buf, size_t len)
{
	char a[IK_FMT_NUM_LEN];

	ik__fmt_exact(a, sizeof(a), w->work_ns, 3);
	snprintf(buf, len, ": %d pairs, %lld B per message, %s us of work per message on each "
		 "side, placement %s", w->pairs, (long long)w->msg_bytes, a,
		 ik__workload_placement_name(w->placement));
}

const struct sim_workload_ops sim_pingpong_ops = {
	.name = "pingpong",
	.kind = IK_WORKLOAD_PINGPONG,
	.throughput = true,
	.check = pingpong_check,
	.max_tasks = pingpong_max_tasks,
	.setup = pingpong_setup,
	.task_done = pingpong_task_done,
	.settings = pingpong_settings,
	.describe = pingpong_describe,
	.describe_brief = sim_describe_pairs_brief,
};
