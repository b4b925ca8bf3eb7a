/*
 * stream: senders that never sleep (netperf UDP_STREAM), each waking its receiver, so the
 * send rate follows the sender's frequency, hence turbo.  Pair k is tasks 2k (sender, a
 * busy loop) and 2k + 1 (receiver), pinned by workload.placement.
 */
#include <stdio.h>

#include "sim/workload.h"
#include "util/errmsg.h"
#include "util/number_format.h"

static int stream_max_tasks(const struct ik_workload *w)
{
	return 2 * w->pairs;
}

/* Per-message CPU time: a fixed part and a part per KiB of payload. */
static int64_t message_work(int64_t fixed_ns, const struct ik_workload *w)
{
	return fixed_ns + w->msg_bytes * w->work_ns_per_kb / 1024;
}

static int stream_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;

	if (w->placement == IK_PLACE_WAKE_IDLE)
		return ik__errmsg(err, errlen, "workload: stream needs a pinned placement "
				  "(same_core, same_package or cross_package), got wake_idle");
	if (sim_tasks_alloc(s, 2 * w->pairs))
		return sim_workload_oom(err, errlen);
	for (int k = 0; k < w->pairs; k++) {
		struct sim_task *sender = &s->tasks[2 * k], *receiver = &s->tasks[2 * k + 1];
		int scpu, rcpu;

		if (sim_pinned_pair(s, k, &scpu, &rcpu, err, errlen))
			return -1;
		sender->cpu = scpu;
		receiver->cpu = rcpu;
		sender->pinned = receiver->pinned = true;
		sender->peer = 2 * k + 1;
		receiver->peer = 2 * k;
		sender->busy_loop = true;
		sender->work_ns = message_work(w->work_ns, w);
		receiver->work_ns = message_work(w->recv_work_ns, w);
		/* a copy bound by memory bandwidth takes as long at any core clock */
		if (w->copy_mb_per_s > 0)
			sender->unscaled_ns = receiver->unscaled_ns =
				(int64_t)((double)w->msg_bytes * 1000.0 / w->copy_mb_per_s + 0.5);
		if (sim_task_start_in_spread(s, 2 * k))
			return sim_workload_oom(err, errlen);
	}
	return 0;
}

static void stream_task_done(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];

	if (t->busy_loop) {
		/* A message is sent; the receiver wakes for it unless already busy. */
		if (s->measuring) {
			s->messages++;
			s->bytes += (uint64_t)s->sc->workload.msg_bytes;
		}
		struct sim_task *r = &s->tasks[t->peer];
		r->pending++;
		if (r->state == TASK_BLOCKED)
			sim_wake_task(s, t->peer, t->cpu);
	} else if (--t->pending > 0) {
		sim_requeue_task(s, task); /* more messages waiting: no sleep */
	}
}

static int stream_check(struct ik_workload *w, struct ik_workload_check *c)
{
	if (w->placement == IK_PLACE_WAKE_IDLE)
		return sim_check_fail(c, "type", "[workload] type stream: its senders and receivers "
				      "are pinned; expected placement same_core, same_package or "
				      "cross_package");
	return sim_check_pinned_pairs(w, c);
}

static void stream_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_int(out, "pairs", w->pairs);
	sim_setting_int(out, "work_ns", w->work_ns);
	sim_setting_int(out, "recv_work_ns", w->recv_work_ns);
	sim_setting_int(out, "work_ns_per_kb", w->work_ns_per_kb);
	sim_setting_int(out, "msg_bytes", w->msg_bytes);
	sim_setting_text(out, "placement", ik__workload_placement_name(w->placement));
}

static void stream_describe(const struct ik_workload *w, char *buf, size_t len)
{
	char a[IK_FMT_NUM_LEN], b[IK_FMT_NUM_LEN];

	ik__fmt_exact(a, sizeof(a), message_work(w->work_ns, w), 3);
	ik__fmt_exact(b, sizeof(b), message_work(w->recv_work_ns, w), 3);
	snprintf(buf, len, ": %d senders, %lld B per message, %s us to send and %s us to receive "
		 "each, placement %s", w->pairs, (long long)w->msg_bytes, a, b,
		 ik__workload_placement_name(w->placement));
}

const struct sim_workload_ops sim_stream_ops = {
	.name = "stream",
	.kind = IK_WORKLOAD_STREAM,
	.throughput = true,
	.check = stream_check,
	.max_tasks = stream_max_tasks,
	.setup = stream_setup,
	.task_done = stream_task_done,
	.settings = stream_settings,
	.describe = stream_describe,
	.describe_brief = sim_describe_pairs_brief,
};
