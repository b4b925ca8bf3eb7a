/*
 * idlekit replay: a governor and a state table run through the real core on a trace.
 *
 * Each CPU of the trace gets its own one-CPU harness (ik_govreplay: select, stop or keep the
 * tick, enter, wake at the earliest event, ik_account_entered, reflect).  The loop is open:
 * the trace's wake events keep their recorded times whatever the governor chose; what moves
 * is the work after them, which starts once the replayed state's exit latency has passed and
 * lasts as long as the recorded busy period.  Per recorded idle period k on a CPU:
 *
 *   E'k  replayed idle entry: the first period enters at its recorded time; later ones at
 *        (the previous replayed work start) + (the recorded busy time Ek - X(k-1));
 *   Wk   the wake: the first non-tick wake or task_wake recorded in [Ek, Xk], else the recorded exit
 *        minus the recorded state's exit latency (not before Ek);
 *   Tk   the next timer: the earliest pending timer expiring after Ek, as recorded.
 *
 * If Wk <= E'k the wake is already pending and the CPU does not idle (wake_pending).  Else
 * the harness steps with sleep = Tk - E'k, tick = the next multiple of TICK_NSEC, wake =
 * Wk - E'k.  A wake by the tick, a timer or the polling limit before Wk is not work: the CPU
 * enters idle again at once (extra_entries) with the timers then pending, until Wk, at most
 * IK_TRACE_REENTRY_CAP entries per period (then the CPU stays in its last state until the
 * wake, uncounted: capped).
 */
#include <stdlib.h>
#include <string.h>

#include "idlekit/govreplay.h"
#include "idlekit/trace.h"

struct timer {
	uint64_t id;
	int64_t expires;
};

struct cpu_replay {
	struct ik_govreplay g;
	struct timer timers[IK_TRACE_MAX_TIMERS];
	int ntimers;
	bool started; /* a period has been replayed: work_start is valid */
	bool idle, have_wake;
	int rec_state;
	int64_t enter_ns, entry_replay_ns, next_timer_ns, wake_ns;
	int64_t last_exit_ns, work_start_ns;
};

static int64_t next_timer_after(const struct cpu_replay *c, int64_t t)
{
	int64_t best = IK_KTIME_MAX;
	for (int i = 0; i < c->ntimers; i++)
		if (c->timers[i].expires > t && c->timers[i].expires < best)
			best = c->timers[i].expires;
	return best;
}

static void timer_remove(struct cpu_replay *c, uint64_t id)
{
	for (int i = 0; i < c->ntimers; i++)
		if (c->timers[i].id == id) {
			c->timers[i] = c->timers[--c->ntimers];
			return;
		}
}

static void timer_start(struct cpu_replay *c, uint64_t id, int64_t expires)
{
	timer_remove(c, id);
	if (c->ntimers < IK_TRACE_MAX_TIMERS) {
		c->timers[c->ntimers++] = (struct timer){ id, expires };
		return;
	}
	/* Full: keep the earliest ones, which are the ones a sleep length depends on. */
	int latest = 0;
	for (int i = 1; i < c->ntimers; i++)
		if (c->timers[i].expires > c->timers[latest].expires)
			latest = i;
	if (expires < c->timers[latest].expires)
		c->timers[latest] = (struct timer){ id, expires };
}

static void replay_period(struct ik_trace_replay *rp, struct cpu_replay *c,
			  const struct ik_driver *rec_drv, struct ik_timeline *tl)
{
	int64_t now = c->entry_replay_ns;
	int64_t w = c->wake_ns;
	int64_t tick = c->g.dev.tick_nsec;
	int64_t timer = c->next_timer_ns;
	bool first = true;
	uint64_t entries = 0; /* of this period, not ended by the wake */

	rp->periods++;
	if (w <= now) {
		rp->wake_pending++;
		c->work_start_ns = now;
		return;
	}
	for (;;) {
		struct ik_govreplay_input in = {
			.sleep_ns = timer > now ? timer - now : IK_KTIME_MAX,
			.tick_ns = tick - now % tick,
			.wake_ns = w - now,
			.latency_req_ns = IK_LATENCY_REQ_NONE_NS,
			.tick_stopped = false,
		};
		struct ik_govreplay_result res;
		ik_govreplay_step(&c->g, &in, &res);
		rp->entries++;
		if (first) {
			first = false;
			rp->compared++;
			if (res.state == c->rec_state)
				rp->agree++;
			if (c->rec_state < IK_STATE_MAX)
				rp->confusion[c->rec_state][res.state]++;
		} else {
			rp->extra_entries++;
		}
		rp->hist[ik_trace_hist_bucket(res.last_residency_ns)]++;
		ik_timeline_add(tl, c->g.dev.cpu, res.state, now, now + (int64_t)res.last_residency_ns);
		if (res.woken_by == IK_GOVREPLAY_WAKE) {
			c->work_start_ns = now + (int64_t)res.last_residency_ns;
			return;
		}
		now += (int64_t)res.last_residency_ns;
		if (now >= w) {
			c->work_start_ns = now;
			return;
		}
		/*
		 * A long quiet stretch with the tick kept (or a polling state's limit) would take
		 * one step per tick; at IK_TRACE_REENTRY_CAP entries the CPU is taken to stay in the
		 * last state until the wake, which ends it after that state's exit latency.
		 */
		if (++entries >= IK_TRACE_REENTRY_CAP || res.last_residency_ns == 0) {
			rp->capped++;
			c->work_start_ns = w + c->g.drv.states[res.state].exit_latency_ns;
			ik_timeline_add(tl, c->g.dev.cpu, res.state, now, c->work_start_ns);
			return;
		}
		if (timer <= now)
			timer = next_timer_after(c, now);
	}
	(void)rec_drv;
}

int ik_trace_replay_run(struct ik_trace_reader *r, const struct ik_trace_replay_opts *o,
			struct ik_trace_replay *rp, char *err, size_t errlen)
{
	const struct ik_trace_header *h = ik_trace_header(r);
	struct ik_trace_event ev;
	int rc = IK_TRACE_OK;
	int hz = o->hz ? o->hz : h->hz;
	bool first_event = true;

	memset(rp, 0, sizeof(*rp));
	rp->cpus = h->cpus;
	rp->nstates = o->drv->state_count;
	rp->cpu = calloc((size_t)h->cpus, sizeof(*rp->cpu));
	struct cpu_replay *cr = calloc((size_t)h->cpus, sizeof(*cr));
	int ready = 0;
	if (!rp->cpu || !cr) {
		snprintf(err, errlen, "out of memory");
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	for (; ready < h->cpus; ready++) {
		int grc = ik_govreplay_init(&cr[ready].g, o->drv, o->gov, hz, o->haltpoll, err, errlen);
		if (grc == IK_GOVREPLAY_OK) {
			cr[ready].g.dev.cpu = ready;
			grc = ik_govreplay_start(&cr[ready].g, err, errlen);
		}
		if (grc != IK_GOVREPLAY_OK) {
			ik_govreplay_free(&cr[ready].g);
			rc = grc == IK_GOVREPLAY_EINPUT ? IK_TRACE_EINPUT : IK_TRACE_EFAIL;
			goto out;
		}
	}
	while ((rc = ik_trace_next(r, &ev, err, errlen)) == IK_TRACE_OK) {
		if (first_event)
			rp->first_ns = ev.t_ns;
		rp->last_ns = ev.t_ns;
		if (first_event && o->timeline) {
			o->timeline->origin_ns = ev.t_ns;
			o->timeline->start_ns += ev.t_ns;
		}
		first_event = false;
		struct cpu_replay *c = &cr[ev.cpu];
		const struct ik_driver *rec = &h->drivers[h->cpu_driver[ev.cpu]].drv;
		switch (ev.kind) {
		case IK_TRACE_IDLE_ENTER:
			c->idle = true;
			c->have_wake = false;
			c->rec_state = ev.state;
			c->enter_ns = ev.t_ns;
			c->next_timer_ns = next_timer_after(c, ev.t_ns);
			c->entry_replay_ns = c->started ? c->work_start_ns + (ev.t_ns - c->last_exit_ns)
							: ev.t_ns;
			break;
		case IK_TRACE_IDLE_EXIT:
			if (!c->have_wake) {
				int64_t w = ev.t_ns - rec->states[c->rec_state].exit_latency_ns;
				c->wake_ns = w > c->enter_ns ? w : c->enter_ns;
			}
			replay_period(rp, c, rec, o->timeline);
			c->idle = false;
			c->started = true;
			c->last_exit_ns = ev.t_ns;
			break;
		case IK_TRACE_WAKE:
			if (c->idle && !c->have_wake && ev.cause != IK_CAUSE_TICK) {
				c->have_wake = true;
				c->wake_ns = ev.t_ns;
			}
			break;
		case IK_TRACE_TIMER_START:
			timer_start(c, ev.timer_id, ev.arg);
			break;
		case IK_TRACE_TIMER_CANCEL:
		case IK_TRACE_TIMER_EXPIRE:
			timer_remove(c, ev.timer_id);
			break;
		case IK_TRACE_TASK_WAKE:
			/* A task woken onto the idle CPU (by another CPU): work is due from now. */
			if (c->idle && !c->have_wake) {
				c->have_wake = true;
				c->wake_ns = ev.t_ns;
			}
			break;
		case IK_TRACE_SWITCH:
		case IK_TRACE_TICK_STOP:
			break;
		}
	}
	if (rc == IK_TRACE_EOF)
		rc = IK_TRACE_OK;
	rp->skipped = ik_trace_skipped(r);
	for (int cpu = 0; cpu < ready; cpu++) {
		struct ik_trace_replay_cpu *pc = &rp->cpu[cpu];
		for (int i = 0; i < rp->nstates; i++) {
			const struct ik_state_usage *u = &cr[cpu].g.dev.states_usage[i];
			pc->states[i] = *u;
			rp->all[i].usage += u->usage;
			rp->all[i].time_ns += u->time_ns;
			rp->all[i].above += u->above;
			rp->all[i].below += u->below;
			rp->all[i].rejected += u->rejected;
			rp->all[i].disable = u->disable;
		}
		pc->entries = cr[cpu].g.lines;
	}
out:
	for (int cpu = 0; cpu < ready; cpu++)
		ik_govreplay_free(&cr[cpu].g);
	free(cr);
	if (rc)
		ik_trace_replay_free(rp);
	return rc;
}

void ik_trace_replay_free(struct ik_trace_replay *rp)
{
	free(rp->cpu);
	rp->cpu = NULL;
}
