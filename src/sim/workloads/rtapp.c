/*
 * The rtapp workload: an rt-app JSON file (src/config/rtapp_json.c) run as rt-app runs it.
 *
 * Each instance of each thread is a task that walks its events: phases in order, each
 * phase `loop` times, the whole thread `loop` times (-1: until the end, or until the
 * file's global duration has passed).  run, runtime, mem and yield are work on the CPU
 * (runtime lasts its time whatever the frequency; mem is bytes / mem_mb_per_s; yield is
 * none, behind whatever waits on the CPU); sleep and timer block on the task's own
 * hrtimer; wait, suspend and barrier block until signal/broad, resume or the last user of
 * the barrier; signal, broad and resume wake tasks (a wake-up with no waiter is lost, as a
 * condition variable's).
 *
 * Timers follow rt-app: on first use a timer's next expiry is now; each use adds its
 * period and sleeps until then; one already past is not waited for and, in relative
 * mode, the reference moves to now.  A timer named "unique..." is one per instance;
 * others are shared by every thread that names them.
 *
 * CPUs: a thread or phase with "cpus" may run on those CPUs only (rt-app's affinity: one
 * CPU pins it; among several the wake-up placement chooses, each instance starting on
 * cpus[i % n]); without, on any CPU by the model's wake-up placement.
 *
 * Policies: each instance gets its thread's policy at set-up and a phase's change of it
 * when the phase starts (rt-app's set_thread_param); the scheduler ranks and preempts
 * (src/sim/sched_rt.c).  rtapp_check refuses what the kernel's admission refuses.
 *
 * Figures, per phase iteration (rt-app's log): its period (start to end), the time its
 * run events took, and the wake-up latency after each sleep or timer (expiry to running).
 *
 * Divisions: the state and its phases; pinning and scheduling policy; the event step,
 * wake-ups, waiters, mutexes and signals; sleeps, forks and the task's advance; the ops
 * (task done, prepare, setup, free, max tasks, the checks against the platform, settings,
 * description, figures).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/rtapp_json.h"
#include "sim/workload.h"
#include "util/errmsg.h"

struct rt_inst {
	int def;          /* index into prog.tasks */
	int instance;
	int phase;        /* index within the thread's phases */
	int phase_loop;   /* iterations of the phase started */
	int event;        /* next event within the phase */
	int thread_loop;  /* loops of the thread started */
	bool done;
	bool dormant;     /* room for a forked instance, not started yet */
	bool suspended;
	int next_wait;    /* link in a condition's, barrier's or mutex's waiters, -1 = end */
	int wait_mutex;   /* waiting on a condition: the mutex to take back when woken, -1 */
	int64_t expected; /* a sleep or timer's expiry, -1 = not sleeping */
	int64_t iter_start;
	int64_t iter_run;
	int64_t run_start; /* start of a run event's work, -1 = none */
};

struct rt_res_state {
	int64_t next;     /* shared timer */
	bool init;
	int waiters;      /* list head (FIFO through tail) */
	int tail;
	int count;        /* barrier: tasks waiting */
	int holder;       /* mutex: the instance holding it, -1 = free */
};

struct sim_rtapp {
	const struct ik_rtapp *prog; /* the file, parsed once for all runs (rtapp_prepare) */
	struct rt_inst *inst;
	struct rt_res_state *res;
	int64_t *unique_next; /* ninst x nres, INT64_MIN = not used yet */
	int64_t stop_at;      /* the file's duration, INT64_MAX = none */
	struct ik_request_stats st;
};

static struct sim_rtapp *rtapp_of(const struct ik_sim *s)
{
	return s->wl;
}

static const struct ik_rtapp_phase *phase_of(const struct sim_rtapp *ra, const struct rt_inst *in)
{
	return &ra->prog->phases[ra->prog->tasks[in->def].first_phase + in->phase];
}

/* rt-app's set_thread_affinity: the thread may run on any CPU of cpus (one: pinned).  A
   task not on one of them moves to the one its instance number picks. */
static void pin(struct ik_sim *s, int task, const int *cpus, int n)
{
	struct sim_task *t = &s->tasks[task];
	bool on = false;
	for (int i = 0; i < n && !on; i++)
		on = cpus[i] == t->cpu;
	t->pinned = n == 1;
	t->aff = n > 1 ? cpus : NULL;
	t->naff = n > 1 ? n : 0;
	if (!on)
		t->cpu = cpus[rtapp_of(s)->inst[task].instance % n];
}

/* Any CPU. */
static void unpin(struct sim_task *t)
{
	t->pinned = false;
	t->aff = NULL;
	t->naff = 0;
}

/* rt-app's set_thread_param: the thread's policy, or a phase's change of it. */
static void apply_sched(struct ik_sim *s, int task, const struct ik_rtapp_sched *sc)
{
	struct sim_task *t = &s->tasks[task];
	int pol = sc->policy;

	if (pol == IK_RTAPP_SAME && !sc->prio_set)
		return;
	if (pol == IK_RTAPP_SAME) { /* a new priority in the same policy */
		if (t->policy == SIM_SCHED_FIFO || t->policy == SIM_SCHED_RR)
			t->prio = sc->prio >= 1 ? sc->prio : t->prio;
		return;
	}
	static const enum sim_policy map[] = { [IK_RTAPP_OTHER] = SIM_SCHED_OTHER,
					       [IK_RTAPP_FIFO] = SIM_SCHED_FIFO,
					       [IK_RTAPP_RR] = SIM_SCHED_RR,
					       [IK_RTAPP_DEADLINE] = SIM_SCHED_DEADLINE };
	if (map[pol] == t->policy && (pol != IK_RTAPP_DEADLINE ||
				      (t->dl_runtime == sc->runtime_ns &&
				       t->dl_deadline == sc->deadline_ns &&
				       t->dl_period == sc->period_ns)) &&
	    (pol == IK_RTAPP_DEADLINE || pol == IK_RTAPP_OTHER || t->prio == sc->prio))
		return; /* unchanged: a deadline task keeps its current period */
	sim_task_set_policy(s, task, map[pol], sc->prio, sc->runtime_ns, sc->deadline_ns,
			    sc->period_ns);
	if (pol == IK_RTAPP_DEADLINE)
		unpin(t); /* its CPUs are all of them (rtapp_check) */
}

/* The next event of the instance, the position moved past it; NULL when it has finished. */
static const struct ik_rtapp_event *step(struct ik_sim *s, int task)
{
	struct sim_rtapp *ra = rtapp_of(s);
	struct rt_inst *in = &ra->inst[task];
	const struct ik_rtapp_task *def = &ra->prog->tasks[in->def];

	for (;;) {
		if (in->done || s->now >= ra->stop_at) {
			in->done = true;
			return NULL;
		}
		const struct ik_rtapp_phase *ph = phase_of(ra, in);
		if (in->event == 0) {
			/* a phase iteration starts */
			/* rt-app's order of preference: the phase's cpus, the thread's, any */
			if (in->phase_loop == 0 && ph->ncpus > 0)
				pin(s, task, ph->cpus, ph->ncpus);
			else if (in->phase_loop == 0 && def->ncpus > 0)
				pin(s, task, def->cpus, def->ncpus);
			else if (in->phase_loop == 0)
				unpin(&s->tasks[task]);
			if (in->phase_loop == 0)
				apply_sched(s, task, &ph->sched);
			if (s->tasks[task].policy == SIM_SCHED_DEADLINE)
				unpin(&s->tasks[task]);
			in->iter_start = s->now;
			in->iter_run = 0;
		}
		if (in->event < ph->nevents)
			return &ra->prog->events[ph->first_event + in->event++];
		/* the iteration ended */
		if (s->measuring) {
			ra->st.done++;
			ik__hist_add(&ra->st.latency, s->now - in->iter_start);
			ik__hist_add(&ra->st.service, in->iter_run);
			ra->st.service_ns += in->iter_run;
		}
		in->event = 0;
		if (++in->phase_loop < ph->loop)
			continue;
		in->phase_loop = 0;
		if (++in->phase < def->nphases)
			continue;
		in->phase = 0;
		if (def->loop > 0 && ++in->thread_loop >= def->loop)
			in->done = true;
	}
}

/* The task goes on running (its next work): on its CPU, or moved to a new one. */
static void keep_running(struct ik_sim *s, int task, int ran_on)
{
	struct sim_task *t = &s->tasks[task];
	if (t->cpu == ran_on)
		sim_requeue_task(s, task);
	else
		sim_wake_task(s, task, ran_on); /* its affinity changed */
}

static void wake(struct ik_sim *s, int task, int waker)
{
	struct sim_task *t = &s->tasks[task];
	t->work_ns = 0;
	t->fixed_time = false;
	if (t->state == TASK_BLOCKED)
		sim_wake_task(s, task, s->tasks[waker].cpu);
}

static void add_waiter(struct sim_rtapp *ra, int res, int task)
{
	struct rt_res_state *r = &ra->res[res];
	ra->inst[task].next_wait = -1;
	if (r->waiters < 0)
		r->waiters = task;
	else
		ra->inst[r->tail].next_wait = task;
	r->tail = task;
}

static int pop_waiter(struct sim_rtapp *ra, int res)
{
	struct rt_res_state *r = &ra->res[res];
	int task = r->waiters;
	if (task >= 0)
		r->waiters = ra->inst[task].next_wait;
	return task;
}

/* The mutex goes to task (woken if it waited), or task waits in line. */
static bool take_mutex(struct ik_sim *s, int res, int task, int waker)
{
	struct sim_rtapp *ra = rtapp_of(s);
	struct rt_res_state *r = &ra->res[res];

	if (r->holder < 0 || r->holder == task) {
		r->holder = task;
		if (waker >= 0)
			wake(s, task, waker);
		return true;
	}
	add_waiter(ra, res, task);
	return false;
}

/* task gives the mutex back: to the first in line (who is woken), or free. */
static void give_mutex(struct ik_sim *s, int res, int task)
{
	struct sim_rtapp *ra = rtapp_of(s);
	struct rt_res_state *r = &ra->res[res];

	if (r->holder != task)
		return; /* (an unlock of a mutex it does not hold: rt-app's is undefined too) */
	r->holder = -1;
	int w = pop_waiter(ra, res);
	if (w >= 0)
		take_mutex(s, res, w, task);
}

/* A waiter of a condition is signalled: it runs once it has its mutex back. */
static void signalled(struct ik_sim *s, int w, int waker)
{
	struct rt_inst *in = &rtapp_of(s)->inst[w];
	int m = in->wait_mutex;

	in->wait_mutex = -1;
	if (m < 0)
		wake(s, w, waker);
	else
		take_mutex(s, m, w, waker);
}

/* A sleep or timer until `until`: the hrtimer fires a normal task's timer slack later
   (the platform's [os] timer_slack_ns, measured by `platform calibrate`; 0 without; an RT
   or deadline task has none), and
   the wake-up latency counts from `until`, as rt-app's wu_lat does. */
static void sleep_until(struct ik_sim *s, int task, int64_t until)
{
	struct sim_task *t = &s->tasks[task];
	rtapp_of(s)->inst[task].expected = until;
	t->work_ns = 0;
	t->fixed_time = false;
	/* (an RT or deadline task's sleeps have no slack: the kernel gives them none) */
	sim_task_sleep(s, task, until + (t->prio > 0 ? 0 : sim_timer_slack(s)));
}

/* Start the first instance of thread def that waits to be forked (none left: the fork does
   nothing, as when rt-app reaches its limit of forks). */
static void fork_instance(struct ik_sim *s, int def)
{
	struct sim_rtapp *ra = rtapp_of(s);

	for (int i = 0; i < s->ntasks; i++) {
		struct rt_inst *in = &ra->inst[i];
		if (in->def != def || !in->dormant)
			continue;
		in->dormant = false;
		in->done = false;
		sim_task_sleep(s, i, s->now + ra->prog->tasks[def].delay_ns + 1);
		return;
	}
}

/* Run the instance's events from where it is until one takes time or blocks. */
static void advance(struct ik_sim *s, int task)
{
	struct sim_rtapp *ra = rtapp_of(s);
	struct rt_inst *in = &ra->inst[task];
	struct sim_task *t = &s->tasks[task];
	int ran_on = t->cpu;

	for (;;) {
		const struct ik_rtapp_event *e = step(s, task);
		if (!e)
			return; /* finished: stays blocked */
		switch (e->kind) {
		case IK_RTAPP_RUN:
		case IK_RTAPP_RUNTIME:
		case IK_RTAPP_MEM:
		case IK_RTAPP_IORUN:
		case IK_RTAPP_YIELD:
			t->work_ns = e->kind == IK_RTAPP_MEM || e->kind == IK_RTAPP_IORUN ?
				(int64_t)((double)e->bytes * 1000.0 / s->sc->workload.mem_mb_per_s) :
				e->kind == IK_RTAPP_YIELD ? 0 : e->ns;
			t->fixed_time = e->kind == IK_RTAPP_RUNTIME;
			in->run_start = e->kind == IK_RTAPP_YIELD ? -1 : 0;
			if (e->kind == IK_RTAPP_YIELD)
				sim_rt_yield(s, task);
			keep_running(s, task, ran_on);
			return;
		case IK_RTAPP_SLEEP:
			sleep_until(s, task, s->now + e->ns);
			return;
		case IK_RTAPP_TIMER: {
			const struct ik_rtapp_resource *res = &ra->prog->res[e->res];
			int64_t *next;
			if (res->unique) {
				next = &ra->unique_next[(size_t)task * (size_t)ra->prog->nres + (size_t)e->res];
				if (*next == INT64_MIN)
					*next = s->now;
			} else {
				next = &ra->res[e->res].next;
				if (!ra->res[e->res].init) {
					ra->res[e->res].init = true;
					*next = s->now;
				}
			}
			*next += e->ns;
			if (*next > s->now) {
				sleep_until(s, task, *next);
				return;
			}
			if (!e->absolute)
				*next = s->now; /* missed: the reference moves to now */
			break;
		}
		case IK_RTAPP_BARRIER: {
			struct rt_res_state *r = &ra->res[e->res];
			if (r->count + 1 >= ra->prog->res[e->res].users) {
				int w;
				r->count = 0;
				while ((w = pop_waiter(ra, e->res)) >= 0)
					wake(s, w, task);
				break;
			}
			r->count++;
			add_waiter(ra, e->res, task);
			t->work_ns = 0;
			return;
		}
		case IK_RTAPP_SYNC:
		case IK_RTAPP_WAIT:
			if (e->kind == IK_RTAPP_SYNC) { /* signal, then wait on the same */
				int w = pop_waiter(ra, e->res);
				if (w >= 0)
					signalled(s, w, task);
			}
			/* pthread_cond_wait: the mutex is given up while waiting and taken back
			   after; a thread that waits without holding it (POSIX leaves that
			   undefined) just waits */
			add_waiter(ra, e->res, task);
			if (e->mutex >= 0 && ra->res[e->mutex].holder == task) {
				in->wait_mutex = e->mutex;
				give_mutex(s, e->mutex, task);
			}
			t->work_ns = 0;
			return;
		case IK_RTAPP_SIGNAL: {
			int w = pop_waiter(ra, e->res);
			if (w >= 0)
				signalled(s, w, task);
			break;
		}
		case IK_RTAPP_BROAD: {
			int w;
			while ((w = pop_waiter(ra, e->res)) >= 0)
				signalled(s, w, task);
			break;
		}
		case IK_RTAPP_FORK:
			fork_instance(s, e->res);
			break;
		case IK_RTAPP_LOCK:
			if (take_mutex(s, e->res, task, -1))
				break;
			t->work_ns = 0; /* in line: woken holding it */
			return;
		case IK_RTAPP_UNLOCK:
			give_mutex(s, e->res, task);
			break;
		case IK_RTAPP_SUSPEND:
			in->suspended = true;
			t->work_ns = 0;
			return;
		case IK_RTAPP_RESUME:
			for (int i = 0; i < s->ntasks; i++)
				if (ra->inst[i].def == e->res && ra->inst[i].suspended) {
					ra->inst[i].suspended = false;
					wake(s, i, task);
				}
			break;
		}
	}
}

static void rtapp_task_done(struct ik_sim *s, int task)
{
	struct sim_rtapp *ra = rtapp_of(s);
	struct rt_inst *in = &ra->inst[task];
	struct sim_task *t = &s->tasks[task];

	if (in->expected >= 0) {
		if (s->measuring)
			ik__hist_add(&ra->st.wake, t->started_at - in->expected);
		in->expected = -1;
	}
	if (in->run_start >= 0 && t->work_ns > 0)
		in->iter_run += s->now - t->started_at;
	in->run_start = -1;
	advance(s, task);
}

/* The file, read once for all the runs of the scenario. */
static int rtapp_prepare(const struct ik_scenario *sc, void *shared, char *err, size_t errlen)
{
	return ik__rtapp_load(sc->workload.file, shared, err, errlen);
}

static void rtapp_unprepare(void *shared)
{
	ik__rtapp_free(shared);
}

static int rtapp_setup(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	struct sim_rtapp *ra = calloc(1, sizeof(*ra));

	if (!ra)
		goto oom;
	s->wl = ra;
	s->requests = &ra->st;
	ra->prog = s->wl_shared;
	if (ra->prog->has_mem && !(w->mem_mb_per_s > 0))
		return ik__errmsg(err, errlen, "%s: a mem or iorun event needs "
				  "workload.mem_mb_per_s (the rate its bytes are written at, MB/s)",
				  w->file);
	int n = 0; /* the instances, and room for those that may be forked */
	for (int i = 0; i < ra->prog->ntasks; i++)
		n += ra->prog->tasks[i].instances + ra->prog->tasks[i].forks;
	ra->stop_at = ra->prog->duration_ns >= 0 ? w->start_ns + ra->prog->duration_ns : INT64_MAX;
	ra->inst = calloc((size_t)n, sizeof(*ra->inst));
	ra->res = calloc((size_t)ra->prog->nres + 1, sizeof(*ra->res));
	ra->unique_next = malloc(((size_t)n * (size_t)ra->prog->nres + 1) * sizeof(int64_t));
	s->ntasks = n;
	s->tasks = calloc((size_t)n, sizeof(*s->tasks));
	if (!ra->inst || !ra->res || !ra->unique_next || !s->tasks || sim_timer_reserve(s, n))
		goto oom;
	for (size_t i = 0; i < (size_t)n * (size_t)ra->prog->nres; i++)
		ra->unique_next[i] = INT64_MIN;
	for (int i = 0; i < ra->prog->nres; i++) {
		ra->res[i].waiters = -1;
		ra->res[i].holder = -1;
	}
	ik__hist_init(&ra->st.latency);
	ik__hist_init(&ra->st.wake);
	ik__hist_init(&ra->st.queue);
	ik__hist_init(&ra->st.service);
	ra->st.workers = n;
	int task = 0;
	for (int d = 0; d < ra->prog->ntasks; d++) {
		const struct ik_rtapp_task *def = &ra->prog->tasks[d];
		for (int k = 0; k < def->instances + def->forks; k++, task++) {
			struct sim_task *t = &s->tasks[task];
			struct rt_inst *in = &ra->inst[task];
			sim_task_init_blocked(t, task % s->ncpus, false);
			in->def = d;
			in->instance = k;
			in->expected = -1;
			in->run_start = -1;
			in->next_wait = -1;
			in->wait_mutex = -1;
			if (def->ncpus > 0)
				pin(s, task, def->cpus, def->ncpus);
			apply_sched(s, task, &def->sched);
			const struct ik_rtapp_phase *ph0 = &ra->prog->phases[def->first_phase];
			for (int c = 0; c < def->ncpus; c++)
				if (def->cpus[c] >= s->ncpus)
					goto nocpu;
			for (int p = def->first_phase; p < def->first_phase + def->nphases; p++)
				for (int c = 0; c < ra->prog->phases[p].ncpus; c++)
					if (ra->prog->phases[p].cpus[c] >= s->ncpus)
						goto nocpu;
			(void)ph0;
			if (k >= def->instances) { /* started by a fork, if one comes */
				in->dormant = in->done = true;
				continue;
			}
			/* it starts after its delay (the start of the thread is a zero-length run) */
			sim_task_sleep(s, task, w->start_ns + def->delay_ns + 1);
		}
	}
	return 0;
nocpu:
	return ik__errmsg(err, errlen, "%s: tasks.%s: a CPU in its cpus does not exist (platform "
			  "%s has %d CPUs)", w->file, ra->prog->tasks[ra->inst[task].def].name,
			  s->plat->name, s->ncpus);
oom:
	return ik__errmsg(err, errlen, "out of memory setting up the workload");
}

static void rtapp_free(struct ik_sim *s)
{
	struct sim_rtapp *ra = rtapp_of(s);

	free(ra->inst);
	free(ra->res);
	free(ra->unique_next);
}

/* The file's thread instances, counted when the scenario was read. */
static int rtapp_max_tasks(const struct ik_workload *w)
{
	return w->rtapp_tasks;
}

/* Does cpus name every CPU of a platform of n? */
static bool all_cpus(const int *cpus, int ncpus, int n)
{
	for (int want = 0; want < n; want++) {
		bool found = false;
		for (int i = 0; i < ncpus && !found; i++)
			found = cpus[i] == want;
		if (!found)
			return false;
	}
	return true;
}

/*
 * SCHED_DEADLINE as the kernel admits it (sched_setattr, sched_setaffinity), and rt-app
 * exits when it does not: a deadline thread's CPUs must be all of the machine's (a
 * narrower affinity is refused: EPERM, EBUSY), and the deadline threads' bandwidth
 * (runtime / period, in the kernel's 20-bit fixed point) at most 95 % of the CPUs
 * (sched_rt_runtime_us / sched_rt_period_us = 950000 / 1000000).  A thread is counted
 * with its largest bandwidth over its phases, for every instance it has and may fork.
 */
static int check_deadline(struct ik_workload *w, struct ik_workload_check *c,
			  const struct ik_rtapp *prog)
{
	int n = ik__platform_cpus(c->platform);
	uint64_t total = 0, limit = (uint64_t)n * ((950000ULL << 20) / 1000000);

	for (int i = 0; i < prog->ntasks; i++) {
		const struct ik_rtapp_task *t = &prog->tasks[i];
		uint64_t bw = 0;
		int ncpus = t->ncpus;
		const int *cpus = t->cpus;
		for (int p = -1; p < t->nphases; p++) {
			const struct ik_rtapp_sched *sc = p < 0 ? &t->sched :
				&prog->phases[t->first_phase + p].sched;
			if (p >= 0 && prog->phases[t->first_phase + p].ncpus > 0) {
				ncpus = prog->phases[t->first_phase + p].ncpus;
				cpus = prog->phases[t->first_phase + p].cpus;
			}
			if (sc->policy != IK_RTAPP_DEADLINE)
				continue;
			uint64_t b = ((uint64_t)sc->runtime_ns << 20) / (uint64_t)sc->period_ns;
			bw = b > bw ? b : bw;
			if (ncpus > 0 && !all_cpus(cpus, ncpus, n))
				return sim_check_fail(c, c->key, "[workload] file: %s: tasks.%s: "
						      "SCHED_DEADLINE with cpus narrower than the "
						      "machine's %d CPUs: the kernel refuses it "
						      "(EPERM/EBUSY), and rt-app exits", w->file,
						      t->name, n);
		}
		total += bw * (uint64_t)(t->instances + t->forks);
		if (total > limit)
			return sim_check_fail(c, c->key, "[workload] file: %s: tasks.%s: the "
					      "SCHED_DEADLINE threads up to this one reserve %.3f CPUs "
					      "(runtime / period), more than 95%% of platform %s's %d "
					      "CPUs: the kernel refuses it (EBUSY), and rt-app exits",
					      w->file, t->name, (double)total / (1 << 20),
					      c->platform->name, n);
	}
	return 0;
}

/* The file is read now, so that a bad one fails with the scenario (its message names the
   JSON path), and its thread instances counted (the task timers to reserve). */
static int rtapp_check(struct ik_workload *w, struct ik_workload_check *c)
{
	struct ik_rtapp prog;
	char msg[IK_ERR_LEN];

	if (sim_check_file(w, c, "[workload] type rtapp needs file = an rt-app JSON file"))
		return -1;
	if (ik__rtapp_load(w->file, &prog, msg, sizeof(msg)))
		return sim_check_fail(c, c->key, "[workload] file: %s", msg);
	w->rtapp_instances = 0;
	w->rtapp_tasks = 0;
	for (int i = 0; i < prog.ntasks; i++) {
		w->rtapp_instances += prog.tasks[i].instances;
		w->rtapp_tasks += prog.tasks[i].instances + prog.tasks[i].forks;
	}
	snprintf(c->notes, sizeof(c->notes), "%s", prog.notes);
	if (c->platform && check_deadline(w, c, &prog)) {
		ik__rtapp_free(&prog);
		return -1;
	}
	bool mem = prog.has_mem;
	ik__rtapp_free(&prog);
	if (mem && !(w->mem_mb_per_s > 0))
		return sim_check_fail(c, "mem_mb_per_s", "[workload] mem_mb_per_s: %s has mem or "
				      "iorun events: expected the rate their bytes are written at "
				      "(MB/s, > 0)", w->file);
	if (mem && !c->given(c->user, "mem_mb_per_s")) {
		size_t used = strlen(c->notes);
		snprintf(c->notes + used, sizeof(c->notes) - used, "%s%s: mem and iorun bytes at "
			 "workload.mem_mb_per_s = %g MB/s, the default (an estimate: set the "
			 "machine's)", used ? "\n" : "", w->file, w->mem_mb_per_s);
	}
	return 0;
}

static void rtapp_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_text(out, "file", w->file);
	sim_setting_int(out, "threads", w->rtapp_instances);
	if (w->mem_mb_per_s > 0)
		sim_setting_real(out, "mem_mb_per_s", w->mem_mb_per_s);
}

static void rtapp_describe(const struct ik_workload *w, char *buf, size_t len)
{
	snprintf(buf, len, ": %d threads from %s", w->rtapp_instances, w->file);
}

/* rt-app's per-activation figures (its log's period, run and wu_lat). */
static bool rtapp_figures(const struct ik_run_result *r, struct ik_workload_figures *f)
{
	const struct ik_request_stats *q = r->requests;

	if (!q)
		return false;
	ik__workload_figures_head(f, "rtapp", "rt-app activations",
				 "period: a phase activation from its start to its end; run: its run "
				 "events; wakeup: from the timer or sleep expiry to running.");
	ik__workload_figures_count(f, "activations", "phase activations", q->done);
	ik__workload_figures_dist(f, "period_ns", "period", &q->latency);
	ik__workload_figures_dist(f, "run_ns", "run", &q->service);
	ik__workload_figures_dist(f, "wakeup_latency_ns", "wakeup", &q->wake);
	return true;
}

const struct sim_workload_ops sim_rtapp_ops = {
	.name = "rtapp",
	.kind = IK_WORKLOAD_RTAPP,
	.check = rtapp_check,
	.max_tasks = rtapp_max_tasks,
	.prepare = rtapp_prepare,
	.unprepare = rtapp_unprepare,
	.setup = rtapp_setup,
	.task_done = rtapp_task_done,
	.free = rtapp_free,
	.settings = rtapp_settings,
	.figures = rtapp_figures,
	.describe = rtapp_describe,
	.shared_size = sizeof(struct ik_rtapp),
};
