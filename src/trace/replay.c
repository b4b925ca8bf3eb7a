/*
 * idlekit replay: governors and a state table run through the real core on a trace.
 *
 * Each CPU of the trace gets, per governor, its own one-CPU harness (ik_govreplay: select,
 * stop or keep the tick, enter, wake at the earliest event, ik_account_entered, reflect);
 * all the governors are replayed in one pass over the trace.  Per recorded idle period k on
 * a CPU (recorded entry Ek, exit Xk):
 *
 *   Wk   the wake: the first non-tick wake or task_wake recorded in [Ek, Xk], else the
 *        recorded exit minus the recorded state's exit latency (not before Ek);
 *   E'k  the replayed entry.  Open loop: Ek, or the end of the previous period's replayed
 *        exit if that is later.  Closed loop: Ek + D, where D = (the replayed work start of
 *        the previous period) - X(k-1) is how late the CPU's work runs; Wk moves by D too
 *        when it is a timer's, by the source CPU's D when it sent it when it is a remote
 *        task_wake or an IPI whose sender the trace names ('wake ipi SRC');
 *   Tk   the next timer: the earliest pending timer expiring after E'k (closed loop: armed
 *        D late, so expiring D late).
 *
 * If Wk <= E'k the wake is already pending and the CPU does not idle (wake_pending); the
 * work starts at E'k.  Else the harness steps with sleep = Tk - E'k, tick = the next
 * multiple of TICK_NSEC, wake = Wk - E'k.  The state is left at max(wake, real entry cost)
 * plus the real exit cost of the wake's source (replay_cost.c).  A wake by the tick, a timer
 * or the polling limit before Wk is not work: the CPU enters idle again at once
 * (extra_entries), until Wk, at most IK_TRACE_REENTRY_CAP entries per period (then the CPU
 * stays in its last state until the wake: capped).  The wake that ends a package's deep
 * state also pays the platform's pkg_exit_ns (replay_package.c), and the work after it
 * starts that much later: which wake that is is known only once the package's other CPUs
 * are replayed past it, so the CPU's next events wait (per governor, in order) until then.
 * In closed loop another CPU's period whose wake that CPU sends (moved by its delay) is
 * replayed step by step meanwhile (the harness's two halves, ik__govreplay_enter and
 * ik__govreplay_exit), as far as a lower bound of that wake allows, so that the package's
 * time line can be known past the held wake.  docs/replay.md has the model.
 *
 * This file: the replay's pass over the trace; a run's set-up and its result at the end
 * are replay_run.c, its state (struct ik_replay_run) replay_internal.h.
 *
 * Divisions: timers; entry costs and wake latency; blocked CPUs and their tickets; a
 * period's start and the advance of the idle loop; work, held events and how far the trace
 * is known; the package sweep; applying entries, exits and events, resolving waiters,
 * delivering wake-ups; progress and settling at the end; the pass (ik__trace_replay_many)
 * and its single-run wrapper.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/govreplay.h"
#include "trace/replay_internal.h"
#include "util/freep.h"

static int64_t next_timer_after(const struct gov_cpu *c, int64_t t)
{
	int64_t best = IK_KTIME_MAX;
	for (int i = 0; i < c->ntimers; i++)
		if (c->timers[i].expires > t && c->timers[i].expires < best)
			best = c->timers[i].expires;
	return best;
}

static void timer_remove(struct gov_cpu *c, uint64_t id)
{
	for (int i = 0; i < c->ntimers; i++)
		if (c->timers[i].id == id) {
			c->timers[i] = c->timers[--c->ntimers];
			return;
		}
}

static void timer_start(struct gov_cpu *c, uint64_t id, int64_t expires)
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

/* One replayed idle entry's real time and energy: [now, return value). */
static int64_t charge_entry(const struct ik_trace_replay_opts *o, struct ik_replay_pkg *pkg,
			    struct gov_cpu *c, int state, int64_t now, int64_t wake_at,
			    enum ik_wake_source src)
{
	/* the core is gated from the entry's start to the wake (src/sim/hw_effects.c) */
	c->queued = ik__replay_pkg_idle(pkg, c->g.dev.cpu, state, now, now + wake_at);
	const struct ik_driver *drv = &c->g.drv;
	int64_t entry = ik__trace_cost_entry_ns(o->cost, drv, state, &c->rng);
	int64_t exit = ik__trace_cost_exit_ns(o->cost, drv, state, src, &c->rng);
	int64_t in_state = wake_at > entry ? wake_at - entry : 0;
	int64_t end = now + (wake_at > entry ? wake_at : entry) + exit;
	c->in_state_ns += in_state;
	c->entry_exit_ns += end - now - in_state;
	c->idle_ns += end - now;
	c->state_ns[state] += (uint64_t)(end - now);
	c->state_mw_ns += (double)in_state * ik__trace_cost_state_mw(o->cost, state);
	return end;
}

/*
 * The wake's latency sample: at once, or, when the entry that ends it gated the core, when
 * the package's time is known past the wake (with the package's exit if this wake ends a
 * deep stretch: replay_package.c).
 */
static void wake_latency(struct ik_trace_replay *rp, struct ik_replay_pkg *pkg,
			 const struct gov_cpu *c, bool entered, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	if (entered && c->queued)
		ik__replay_pkg_wake_latency(pkg, c->g.dev.cpu, ns);
	else
		ik__hist_add(&rp->run.wake_latency, ns);
}

static bool blocked(const struct gov_cpu *c)
{
	return c->held || c->pr.active;
}

static struct ticket *ticket_of(const struct gov_cpu *c, uint64_t pno)
{
	for (size_t i = 0; i < c->tickets.n; i++) {
		struct ticket *t = ik__replay_ring_at(&c->tickets, i);
		if (t->pno == pno)
			return t;
	}
	return NULL;
}

static bool wake_of(const struct ik_replay_run *run, int cpu, int64_t *w, int64_t *lb, int depth);

/*
 * Where CPU s's replayed time line is at least, as far as its next events go: a wake it
 * sends after a period it is still replaying, or whose work waits for the package, is not
 * before that period's work, so not before this (its replayed time line only goes forward).
 */
static int64_t position(const struct ik_replay_run *run, int s, int depth)
{
	const struct gov_cpu *c = &run->cpu[s];
	if (!c->pr.active)
		return c->work_start_ns;
	int64_t pos = c->pr.now, w, lb;
	/* its work is not before its own wake either (a few links of such a chain: enough) */
	if (depth < 8 && !wake_of(run, s, &w, &lb, depth + 1) && lb > pos)
		pos = lb;
	return pos;
}

/*
 * The wake of the period cpu is replaying, as this governor's CPU sees it (closed loop:
 * moved): true and *w if known, else false and *lb, a time it is not before.
 */
static bool wake_of(const struct ik_replay_run *run, int cpu, int64_t *w, int64_t *lb, int depth)
{
	const struct gov_cpu *c = &run->cpu[cpu];
	const struct rec_cpu *rc = &c->pr.rc;
	*w = rc->wake_ns;
	if (!run->o->closed_loop)
		return true;
	if (rc->cause == IK_CAUSE_TIMER || rc->cause == IK_CAUSE_TICK) {
		*w = rc->wake_ns + c->delay_ns; /* armed D late */
		return true;
	}
	if ((rc->cause == IK_CAUSE_REMOTE || rc->cause == IK_CAUSE_IPI) && rc->wake_src >= 0) {
		const struct ticket *t = ticket_of(c, c->pr.rc.pno);
		if (t && t->resolved) {
			*w = rc->wake_ns + t->shift_ns;
			return true;
		}
		*lb = position(run, rc->wake_src, depth);
		return false;
	}
	return true;
}

/* The period the CPU starts replaying: E'k = c->entry_ns, its recorded facts rc. */
static void period_start(struct gov_cpu *c, const struct rec_cpu *rc, int mapped,
			 int64_t exit_ns)
{
	struct period *pr = &c->pr;
	pr->active = true;
	pr->phase = P_START;
	pr->rc = *rc;
	pr->mapped = mapped;
	pr->exit_ns = exit_ns;
	pr->entered = false;
	pr->first = true;
	pr->now = c->entry_ns;
	pr->timer = c->next_timer_ns;
	pr->entries = 0;
}

/*
 * Replay the period as far as its wake allows: to the end (true, c->work_start_ns set), or
 * to where it needs the wake, which waits for another CPU's work (false; the CPU is in the
 * package's open entry if it is gated).  With the wake known it is the one-step-at-a-time
 * loop below throughout: select, enter, wake at the earliest event, account, reflect;
 * re-entries after the tick, a timer or the polling limit; the cap.
 */
static bool advance(struct ik_replay_run *run, int cpu)
{
	const struct ik_trace_replay_opts *o = run->o;
	struct ik_trace_replay *rp = run->rp;
	struct ik_replay_pkg *pkg = &run->pkg;
	struct gov_cpu *c = &run->cpu[cpu];
	struct period *pr = &c->pr;
	enum ik_wake_source src = ik__trace_cause_source(pr->rc.cause);
	int64_t w, lb = 0;
	bool known = wake_of(run, cpu, &w, &lb, 0);

	ik__replay_pkg_open(pkg, cpu, -1, 0);
	for (;;) {
		switch (pr->phase) {
		case P_START:
			if (!known && lb <= pr->now)
				return false; /* pending or not: not known yet */
			rp->periods++;
			if (known && w <= pr->now) {
				rp->wake_pending++;
				rp->cpu[cpu].wake_pending++;
				c->work_start_ns = pr->now;
				wake_latency(rp, pkg, c, false, pr->now - w);
				return true;
			}
			pr->entered = true;
			pr->phase = P_ENTER;
			break;
		case P_ENTER: {
			int64_t now = pr->now, tick = c->g.dev.tick_nsec;
			pr->in = (struct ik_govreplay_input){
				.sleep_ns = pr->timer > now ? pr->timer - now : IK_KTIME_MAX,
				.tick_ns = tick - now % tick,
				.wake_ns = IK_KTIME_MAX,
				.latency_req_ns = IK_LATENCY_REQ_NONE_NS,
				.tick_stopped = false,
			};
			ik__govreplay_enter(&c->g, &pr->in, &pr->e);
			if (!known) /* (once known, the wake stays known) */
				pr->b_ev = ik__govreplay_earliest(&pr->in, &pr->e, &pr->b_at);
			pr->phase = P_STEP;
			break;
		}
		case P_STEP: {
			int64_t now = pr->now, at;
			enum ik_govreplay_event ev;
			if (known) {
				pr->in.wake_ns = w - now;
				ev = ik__govreplay_earliest(&pr->in, &pr->e, &at);
			} else if (pr->b_ev != IK_GOVREPLAY_NO_EVENT &&
				   !__builtin_add_overflow(now, pr->b_at, &at) && at < lb) {
				ev = pr->b_ev; /* before the wake, whenever it comes */
				at = pr->b_at;
			} else {
				ik__replay_pkg_open(pkg, cpu, pr->e.state, now);
				return false;
			}
			struct ik_govreplay_result res;
			ik__govreplay_exit(&c->g, &pr->e, ev, at, &res);
			rp->entries++;
			if (pr->first) {
				pr->first = false;
				rp->compared++;
				if (res.state == pr->mapped)
					rp->agree++;
				if (pr->rc.rec_state < IK_STATE_MAX)
					rp->confusion[pr->rc.rec_state][res.state]++;
			} else {
				rp->extra_entries++;
				rp->cpu[cpu].extra_entries++;
			}
			rp->hist[ik__trace_hist_bucket(res.last_residency_ns)]++;
			bool woken = res.woken_by == IK_GOVREPLAY_WAKE;
			int64_t end = charge_entry(o, pkg, c, res.state, now, res.wake_at_ns,
						   woken ? src : IK_WAKE_TIMER);
			ik__timeline_add(o->timeline, cpu, res.state, now, end);
			if (woken) {
				c->work_start_ns = end;
				wake_latency(rp, pkg, c, true, end - w);
				return true;
			}
			pr->now = end;
			pr->last_state = res.state;
			pr->last_residency_ns = res.last_residency_ns;
			pr->phase = P_AFTER;
			break;
		}
		case P_AFTER:
			if (!known && lb <= pr->now)
				return false; /* woken before the wake, or at it: not known yet */
			if (known && pr->now >= w) {
				c->work_start_ns = pr->now;
				wake_latency(rp, pkg, c, true, pr->now - w);
				return true;
			}
			/*
			 * A long quiet stretch with the tick kept (or a polling state's limit) would
			 * take one step per tick; at IK_TRACE_REENTRY_CAP entries the CPU is taken to
			 * stay in the last state until the wake, which ends it after that state's exit
			 * cost.
			 */
			if (++pr->entries >= IK_TRACE_REENTRY_CAP || pr->last_residency_ns == 0) {
				pr->phase = P_CAPPED;
				break;
			}
			if (pr->timer <= pr->now)
				pr->timer = next_timer_after(c, pr->now);
			pr->phase = P_ENTER;
			break;
		case P_CAPPED:
			if (!known) {
				ik__replay_pkg_open(pkg, cpu, pr->last_state, pr->now);
				return false;
			}
			rp->capped++;
			c->work_start_ns =
				charge_entry(o, pkg, c, pr->last_state, pr->now, w - pr->now, src);
			ik__timeline_add(o->timeline, cpu, pr->last_state, pr->now, c->work_start_ns);
			wake_latency(rp, pkg, c, true, c->work_start_ns - w);
			return true;
		}
	}
}

static void work(struct ik_replay_run *run, int cpu)
{
	struct gov_cpu *c = &run->cpu[cpu];
	if (!c->in_work) {
		c->in_work = true;
		run->work[run->nwork++] = cpu;
	}
}

/* An event waits behind the CPU's blocked work (run->oom if out of memory). */
static void held_push(struct ik_replay_run *run, struct gov_cpu *c, const struct held *h)
{
	struct held *e = ik__replay_ring_push(&c->hq);
	if (e)
		*e = *h;
	else
		run->oom = true;
}

/*
 * How far one CPU's replayed time line is known while the trace is at t: in a period it is
 * replaying, to where that stopped (the start of an entry whose end is not known, or the
 * wake's lower bound while it is in a state it will not leave before the wake); in a
 * recorded period, to its replayed entry; else to where its next entry can be at the
 * earliest (its recorded entry is not before t, or before its first held event; open
 * loop: not before the replayed work, closed loop: moved by its delay, and not before the
 * work either).  At the end of the trace (eof) a CPU with nothing left to do is known to
 * the end of time (a period the trace leaves open is not replayed: awake).
 */
static int64_t known_until(const struct ik_replay_run *run, int cpu, int64_t t, bool eof)
{
	const struct gov_cpu *c = &run->cpu[cpu];
	if (c->pr.active) {
		const struct period *pr = &c->pr;
		int64_t w, lb, b_end;
		if ((pr->phase != P_STEP && pr->phase != P_CAPPED) || wake_of(run, cpu, &w, &lb, 0) ||
		    lb <= pr->now)
			return pr->now;
		if (pr->phase == P_CAPPED || pr->b_ev == IK_GOVREPLAY_NO_EVENT ||
		    __builtin_add_overflow(pr->now, pr->b_at, &b_end))
			return lb; /* in its state until the wake */
		/*
		 * In its state until the earlier of its tick or timer (b_end) and the wake.  The
		 * wake's bound may have grown since it stopped (it goes on once looked at again):
		 * then only its entry is known.  The tick or timer's end is a wake like any other,
		 * so it must be past what is known, strictly; the wake, sent by a CPU whose work
		 * waits, is taken to come after that CPU's own wake even at the same time.
		 */
		if (lb > b_end)
			return pr->now;
		return lb < b_end ? lb : b_end - 1;
	}
	if (eof && !c->held && !c->hq.n)
		return INT64_MAX;
	if (c->in_period)
		return c->entry_ns;
	int64_t next = c->hq.n ? ((const struct held *)ik__replay_ring_at(&c->hq, 0))->t : t;
	if (run->o->closed_loop && __builtin_add_overflow(next, c->delay_ns, &next))
		next = c->delay_ns > 0 ? INT64_MAX : INT64_MIN;
	return next > c->work_start_ns ? next : c->work_start_ns;
}

/* The package of `cpu`: its deep time counted as far as all its CPUs are known. */
static void package_sweep(struct ik_replay_run *run, int cpu, int64_t t, bool eof)
{
	struct ik_replay_pkg *p = &run->pkg;
	if (!p->tracked)
		return;
	int k = p->pkg_of[cpu];
	int64_t until = INT64_MAX;
	for (int c = p->first[k]; c >= 0; c = p->next[c]) {
		int64_t u = known_until(run, c, t, eof);
		if (u <= p->swept_ns[k])
			return; /* nothing new: every span ending by then is out already */
		if (u < until)
			until = u;
	}
	ik__replay_pkg_sweep(p, k, until);
}

static void apply_enter(struct ik_replay_run *run, struct gov_cpu *c, int64_t t, bool started)
{
	int64_t e = t;
	if (started && run->o->closed_loop)
		e = t + c->delay_ns;
	else if (started && c->work_start_ns > e)
		e = c->work_start_ns;
	c->entry_ns = e;
	c->next_timer_ns = next_timer_after(c, e);
	c->in_period = true;
}

/* The period just replayed to its end: the delay, and whether the work waits for the
   package's exit. */
static void period_done(struct ik_replay_run *run, int cpu)
{
	struct gov_cpu *c = &run->cpu[cpu];
	struct period *pr = &c->pr;
	c->delay_ns = c->work_start_ns - pr->exit_ns;
	c->in_period = false;
	pr->active = false;
	while (c->tickets.n && ((struct ticket *)ik__replay_ring_at(&c->tickets, 0))->pno <= pr->rc.pno)
		ik__replay_ring_pop(&c->tickets);
	if (run->hold && pr->entered && c->queued) {
		/* the span that ends at the work's wake: the work waits for its package exit */
		ik__replay_pkg_hold(&run->pkg, cpu);
		c->held = true;
	}
	run->progress++;
}

/* The period rc of `cpu`, recorded exit exit_ns: start replaying it, as far as it goes. */
static void apply_exit(struct ik_replay_run *run, const struct ik_trace_header *h, int cpu,
		       const struct rec_cpu *rc, int64_t exit_ns)
{
	struct gov_cpu *c = &run->cpu[cpu];
	const struct ik_trace_state_map *m = &run->rp->map;
	int d = h->cpu_driver[cpu];
	int mapped = rc->rec_state < IK_STATE_MAX ? m->to[d][rc->rec_state] : -1;
	period_start(c, rc, mapped, exit_ns);
	if (advance(run, cpu))
		period_done(run, cpu);
}

/* The wakes cpu sent before trace position `seq` move by its delay, final now. */
static void resolve_waiters(struct ik_replay_run *run, int cpu, uint64_t seq)
{
	struct gov_cpu *c = &run->cpu[cpu];
	while (c->waiters.n) {
		const struct waiter *wt = ik__replay_ring_at(&c->waiters, 0);
		if (wt->seq >= seq)
			break;
		struct ticket *t = ticket_of(&run->cpu[wt->cpu], wt->pno);
		if (t) {
			t->resolved = true;
			t->shift_ns = c->delay_ns;
		}
		work(run, wt->cpu);
		ik__replay_ring_pop(&c->waiters);
	}
}

/*
 * Go on with cpu as far as it can: the period it is replaying, then the events that
 * waited behind it, in order, until it is blocked again; then its package's sweep (which
 * may release CPUs) and, if it moved on, a look again at the CPUs waiting for its wakes.
 */
/* An event of cpu's, as it is replayed now or after it waited. */
static void apply_event(struct ik_replay_run *run, const struct ik_trace_header *h, int cpu,
			const struct held *e)
{
	struct gov_cpu *c = &run->cpu[cpu];
	switch (e->kind) {
	case HELD_ENTER:
		apply_enter(run, c, e->t, e->rc.started);
		break;
	case HELD_TIMER_START:
		timer_start(c, e->id, e->expires + (run->o->closed_loop ? c->delay_ns : 0));
		break;
	case HELD_TIMER_REMOVE:
		timer_remove(c, e->id);
		break;
	case HELD_EXIT:
		apply_exit(run, h, cpu, &e->rc, e->t);
		break;
	}
}

/* An event of cpu's to each run: replayed now, or held while its CPU is blocked. */
static void deliver(struct ik_replay_run *runs, int n, const struct ik_trace_header *h, int cpu,
		    const struct held *e)
{
	for (int g = 0; g < n; g++) {
		struct gov_cpu *c = &runs[g].cpu[cpu];
		if (blocked(c))
			held_push(&runs[g], c, e);
		else
			apply_event(&runs[g], h, cpu, e);
	}
}

static void progress(struct ik_replay_run *run, const struct ik_trace_header *h, int cpu, int64_t t,
		     bool eof)
{
	struct gov_cpu *c = &run->cpu[cpu];
	if (c->pr.active && advance(run, cpu))
		period_done(run, cpu);
	while (!blocked(c) && c->hq.n) {
		struct held e = *(const struct held *)ik__replay_ring_at(&c->hq, 0);
		resolve_waiters(run, cpu, e.seq); /* its delay now is the one they were sent with */
		ik__replay_ring_pop(&c->hq);
		apply_event(run, h, cpu, &e);
	}
	if (!blocked(c))
		resolve_waiters(run, cpu, UINT64_MAX);
	package_sweep(run, cpu, t, eof);
	int64_t pos = position(run, cpu, 0);
	if (c->waiters.n && pos > c->pos_told) {
		c->pos_told = pos;
		for (size_t i = 0; i < c->waiters.n; i++)
			work(run, ((const struct waiter *)ik__replay_ring_at(&c->waiters, i))->cpu);
	}
}

/*
 * Until nothing moves: the CPUs whose held span became final (their work moves by the
 * package exit their wake paid, and their waiting events go on) and the CPUs on the work
 * list.
 */
static void settle(struct ik_replay_run *run, const struct ik_trace_header *h, int64_t t, bool eof)
{
	for (;;) {
		int64_t pkg_ns;
		int cpu = ik__replay_pkg_released(&run->pkg, &pkg_ns);
		if (cpu >= 0) {
			struct gov_cpu *c = &run->cpu[cpu];
			c->work_start_ns += pkg_ns;
			c->delay_ns += pkg_ns;
			c->held = false;
			run->progress++;
			work(run, cpu);
			continue;
		}
		if (!run->nwork)
			return;
		cpu = run->work[--run->nwork];
		run->cpu[cpu].in_work = false;
		progress(run, h, cpu, t, eof);
	}
}

/*
 * The end of the trace: every CPU still blocked waits for a package or a wake that is now
 * known to the end (a CPU with no event left stays awake).  Of the held CPUs, the one whose
 * span ends first is always released (its package is known past it; a wake that waits for
 * a CPU's work is after that CPU's wake), so this ends; a CPU that did not would be a
 * wrong answer, so it is an error.
 */
static int settle_at_end(struct ik_replay_run *run, const struct ik_trace_header *h, int64_t t)
{
	for (;;) {
		bool any = false;
		for (int cpu = 0; cpu < h->cpus; cpu++)
			if (blocked(&run->cpu[cpu])) {
				any = true;
				work(run, cpu);
			}
		if (!any)
			return IK_TRACE_OK;
		uint64_t before = run->progress;
		settle(run, h, t, true);
		if (run->progress == before)
			return IK_TRACE_EFAIL;
	}
}

/* A wake that another CPU sends to `cpu`, starting its period's wake (closed loop): the
   delay it moves by is the sender's now, or later when that is final. */
static void wake_sent(struct ik_replay_run *run, int cpu, const struct rec_cpu *rc, uint64_t seq)
{
	struct gov_cpu *c = &run->cpu[cpu];
	struct gov_cpu *s = &run->cpu[rc->wake_src];
	struct ticket *t = ik__replay_ring_push(&c->tickets);
	if (!t) {
		run->oom = true;
		return;
	}
	*t = (struct ticket){ rc->pno, !blocked(s), s->delay_ns };
	if (t->resolved)
		return;
	struct waiter *wt = ik__replay_ring_push(&s->waiters);
	if (!wt) {
		run->oom = true;
		return;
	}
	*wt = (struct waiter){ cpu, rc->pno, seq };
}

static void period_end(struct ik_replay_run *runs, int n, const struct ik_trace_header *h,
		       struct rec_cpu *rec, int cpu, int64_t exit_ns, uint64_t seq)
{
	struct rec_cpu *rc = &rec[cpu];
	const struct ik_driver *recdrv = &h->drivers[h->cpu_driver[cpu]].drv;
	if (!rc->have_wake) {
		int64_t w = exit_ns - recdrv->states[rc->rec_state].exit_latency_ns;
		rc->wake_ns = w > rc->enter_ns ? w : rc->enter_ns;
		rc->cause = IK_CAUSE_NONE;
		rc->wake_src = -1;
	}
	deliver(runs, n, h, cpu, &(struct held){ .kind = HELD_EXIT, .seq = seq, .t = exit_ns,
						 .rc = *rc });
	rc->idle = false;
	rc->started = true;
	rc->last_exit_ns = exit_ns;
	rc->pno++;
	for (int g = 0; g < n; g++) {
		work(&runs[g], cpu);
		settle(&runs[g], h, exit_ns, false);
	}
}

int ik__trace_replay_many(struct ik_trace_reader *r, const struct ik_trace_replay_opts *o, int n,
			 struct ik_trace_replay *rps, char *err, size_t errlen)
{
	const struct ik_trace_header *h = ik__trace_header(r);
	struct ik_trace_event ev;
	int rc = IK_TRACE_OK;
	bool first_event = true;
	uint64_t seq = 0; /* the events' places in the trace */

	if (n < 1 || n > IK_TRACE_REPLAY_MAX_GOVS) {
		snprintf(err, errlen, "%d governors: expected 1 to %d", n, IK_TRACE_REPLAY_MAX_GOVS);
		return IK_TRACE_EINPUT;
	}
	struct ik_replay_run runs[IK_TRACE_REPLAY_MAX_GOVS];
	memset(runs, 0, sizeof(runs));
	struct rec_cpu *rec = calloc((size_t)h->cpus, sizeof(*rec));
	for (int g = 0; g < n; g++) {
		memset(&rps[g], 0, sizeof(rps[g]));
		runs[g].o = &o[g];
		runs[g].rp = &rps[g];
	}
	if (!rec) {
		snprintf(err, errlen, "out of memory");
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	for (int g = 0; g < n && rc == IK_TRACE_OK; g++)
		rc = ik__replay_run_setup(&runs[g], h, err, errlen);
	if (rc)
		goto out;
	while ((rc = ik__trace_next(r, &ev, err, errlen)) == IK_TRACE_OK) {
		if (first_event) {
			for (int g = 0; g < n; g++) {
				rps[g].first_ns = ev.t_ns;
				if (o[g].timeline) {
					o[g].timeline->origin_ns = ev.t_ns;
					o[g].timeline->start_ns += ev.t_ns;
				}
			}
			first_event = false;
		}
		for (int g = 0; g < n; g++)
			rps[g].last_ns = ev.t_ns;
		seq++;
		struct rec_cpu *c = &rec[ev.cpu];
		switch (ev.kind) {
		case IK_TRACE_IDLE_ENTER:
			c->idle = true;
			c->have_wake = false;
			c->rec_state = ev.state;
			c->enter_ns = ev.t_ns;
			deliver(runs, n, h, ev.cpu, &(struct held){ .kind = HELD_ENTER, .seq = seq,
								    .t = ev.t_ns, .rc = *c });
			break;
		case IK_TRACE_IDLE_EXIT:
			period_end(runs, n, h, rec, ev.cpu, ev.t_ns, seq);
			break;
		case IK_TRACE_WAKE:
			if (c->idle && !c->have_wake && ev.cause != IK_CAUSE_TICK) {
				c->have_wake = true;
				c->wake_ns = ev.t_ns;
				c->cause = ev.cause;
				c->wake_src = ev.cause == IK_CAUSE_IPI && ev.ipi_src && ev.src_cpu < h->cpus
						      ? ev.src_cpu : -1;
				for (int g = 0; g < n; g++)
					if (o[g].closed_loop && c->wake_src >= 0)
						wake_sent(&runs[g], ev.cpu, c, seq);
			}
			break;
		case IK_TRACE_TIMER_START:
			deliver(runs, n, h, ev.cpu, &(struct held){ .kind = HELD_TIMER_START,
								    .seq = seq, .t = ev.t_ns,
								    .id = ev.timer_id,
								    .expires = ev.arg });
			break;
		case IK_TRACE_TIMER_CANCEL:
		case IK_TRACE_TIMER_EXPIRE:
			deliver(runs, n, h, ev.cpu, &(struct held){ .kind = HELD_TIMER_REMOVE,
								    .seq = seq, .t = ev.t_ns,
								    .id = ev.timer_id });
			break;
		case IK_TRACE_TASK_WAKE:
			/* A task woken onto the idle CPU (by another CPU): work is due from now. */
			if (c->idle && !c->have_wake) {
				c->have_wake = true;
				c->wake_ns = ev.t_ns;
				c->cause = ev.src_cpu != ev.cpu ? IK_CAUSE_REMOTE : IK_CAUSE_UNKNOWN;
				c->wake_src = ev.src_cpu >= 0 && ev.src_cpu < h->cpus ? ev.src_cpu : -1;
				for (int g = 0; g < n; g++)
					if (o[g].closed_loop && c->wake_src >= 0 &&
					    c->cause == IK_CAUSE_REMOTE)
						wake_sent(&runs[g], ev.cpu, c, seq);
			}
			break;
		case IK_TRACE_SWITCH:
		case IK_TRACE_TICK_STOP:
		case IK_TRACE_FREQ:
			break;
		}
	}
	if (rc == IK_TRACE_EOF)
		rc = IK_TRACE_OK;
	for (int g = 0; g < n && rc == IK_TRACE_OK; g++) {
		int end = settle_at_end(&runs[g], h, rps[g].last_ns);
		if (runs[g].oom || runs[g].pkg.oom) {
			snprintf(err, errlen, "out of memory");
			rc = IK_TRACE_EFAIL;
		} else if (end) {
			snprintf(err, errlen, "internal error: a replayed period stayed undecided");
			rc = IK_TRACE_EFAIL;
		}
	}
	for (int g = 0; g < n && rc == IK_TRACE_OK; g++) {
		rps[g].skipped = ik__trace_skipped(r);
		rc = ik__replay_run_finish(&runs[g]);
		if (rc)
			snprintf(err, errlen, "out of memory");
	}
out:
	for (int g = 0; g < n; g++) {
		ik__replay_run_free(&runs[g]);
		if (rc)
			ik__trace_replay_free(&rps[g]);
	}
	free(rec);
	return rc;
}

int ik__trace_replay_run(struct ik_trace_reader *r, const struct ik_trace_replay_opts *o,
			struct ik_trace_replay *rp, char *err, size_t errlen)
{
	return ik__trace_replay_many(r, o, 1, rp, err, errlen);
}

void ik__trace_replay_free(struct ik_trace_replay *rp)
{
	ik__freep(&rp->cpu);
	ik__run_result_free(&rp->run);
}
