/*
 * Measuring the costs a platform file needs and sysfs does not give, on this machine.
 *
 * The model (docs/model.md) wakes an idle CPU in IPI + exit (+ a context switch only when
 * the CPU changes task), and a polling CPU in poll_wake_ns + exit.  Each figure is therefore
 * measured so that the parts can be told apart:
 *
 *   context switch  a pipe ping-pong with both threads on one CPU: no IPI, no idle state,
 *                   so a hand-over is the switch itself (with the pipe's system calls)
 *   IPI             a wake-up of a CPU that runs another task (a SCHED_IDLE spinner, which
 *                   the woken task preempts at once): IPI + switch; minus the switch
 *   a state's exit  a wake-up of the CPU idling with only that state enabled (as `idlekit
 *                   wakelat --state` does): IPI + exit + the switch from the idle task, so
 *                   minus the IPI and the switch; POLL has no IPI, only the poll notice
 *   timer exit      a timed sleep's overshoot with timer slack 1 ns in that configuration,
 *                   minus the switch
 *   after long idle both again after idles of 100 us to 100 ms (not POLL): in a guest the
 *                   host stops polling a halted vCPU after its halt_poll_ns and the
 *                   wake-up then costs more; what each costs beyond the gap's is the curve
 *   timer slack     the overshoot with the task's own slack minus the overshoot with 1 ns
 *   hand-over       the same ping-pong across the two CPUs, as a check of the sum
 *   background      first, the idle entries/s of every CPU while this process sleeps: the
 *                   machine's own wake-ups of an idle CPU (timers, daemons, a guest's agent)
 *
 * Each distribution keeps every sample; a lognormal is fitted to the quartiles, so that the
 * occasional millisecond a shared machine adds moves the fit little.
 *
 * Divisions: distributions; the spinner and the sleeper threads; one state's set-up and
 * undoing; the run.
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET, SCHED_IDLE */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "host/calibrate.h"
#include "host/pinned_thread.h"
#include "util/errmsg.h"

/* ---- distributions ------------------------------------------------------------------------ */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Nearest rank of sorted samples. */
static int64_t rank(const int64_t *v, long n, double pct)
{
	long k = (long)ceil(pct / 100.0 * (double)n);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

void ik__calib_dist_of(int64_t *samples, long n, struct ik_calib_dist *d)
{
	memset(d, 0, sizeof(*d));
	if (n <= 0)
		return;
	qsort(samples, (size_t)n, sizeof(*samples), cmp_i64);
	d->n = n;
	d->min = samples[0];
	d->max = samples[n - 1];
	d->p25 = rank(samples, n, 25);
	d->p50 = rank(samples, n, 50);
	d->p75 = rank(samples, n, 75);
	d->p99 = rank(samples, n, 99);
	/* a lognormal's quartiles are median * exp(+-0.6745 sigma) */
	if (d->p25 > 0 && d->p75 > d->p25)
		d->sigma = (log((double)d->p75) - log((double)d->p25)) / (2 * 0.6744897501960817);
}

/* samples - off, at least 0, as a distribution (samples are left as they were). */
static int shifted(const int64_t *samples, long n, int64_t off, struct ik_calib_dist *d)
{
	int64_t *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(*v));
	if (!v)
		return -1;
	for (long i = 0; i < n; i++)
		v[i] = samples[i] > off ? samples[i] - off : 0;
	ik__calib_dist_of(v, n, d);
	free(v);
	return 0;
}

/* ---- the spinner and the sleeper --------------------------------------------------------- */

/* Keeps its CPU busy at the lowest priority, so that any woken task preempts it. */
struct spinner {
	atomic_int stop;
	atomic_int running; /* 1 spinning at SCHED_IDLE, -1 could not get SCHED_IDLE */
};

static void *spin_main(void *arg)
{
	struct spinner *s = arg;
	struct sched_param sp = { .sched_priority = 0 };
	if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp) != 0) {
		atomic_store(&s->running, -1); /* a normal spinner would delay the wakee by a slice */
		return NULL;
	}
	atomic_store(&s->running, 1);
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed))
		;
	return NULL;
}

/* Timed sleeps on one CPU: how late each one wakes. */
struct sleeper {
	long count;
	int64_t gap_ns;
	bool fine;       /* timer slack 1 ns; else the task's own */
	int64_t *late;   /* count overshoots */
	long done;
	long slack_ns;   /* PR_GET_TIMERSLACK as the thread started */
	int (*should_stop)(void);
};

static void *sleep_main(void *arg)
{
	struct sleeper *s = arg;
	s->slack_ns = (long)prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	if (s->fine)
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	struct timespec gap = { (time_t)(s->gap_ns / 1000000000), (long)(s->gap_ns % 1000000000) };
	for (s->done = 0; s->done < s->count; s->done++) {
		if (s->should_stop && (s->done & 63) == 0 && s->should_stop())
			break;
		int64_t t0 = ik__host_now_ns();
		struct timespec left = gap;
		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left) == EINTR)
			;
		s->late[s->done] = ik__host_now_ns() - t0 - s->gap_ns;
	}
	return NULL;
}

/*
 * count timed sleeps of gap_ns each on the wakee CPU: their overshoot in d, and (when
 * less is not NULL) the overshoot minus off in less.
 */
static int oversleep_n(const struct ik_calib_config *c, int64_t gap_ns, long count, bool fine,
		       struct ik_calib_dist *d, int64_t off, struct ik_calib_dist *less,
		       long *slack_ns, char *err, size_t errlen)
{
	struct sleeper s = { .count = count, .gap_ns = gap_ns, .fine = fine,
			     .should_stop = c->should_stop };
	pthread_t t;
	s.late = malloc((size_t)count * sizeof(int64_t));
	if (!s.late)
		return ik__errmsg(err, errlen, "out of memory");
	if (ik__start_pinned(&t, c->wakee_cpu, 0, sleep_main, &s, err, errlen)) {
		free(s.late);
		return -1;
	}
	pthread_join(t, NULL);
	int rc = 0;
	if (s.done < s.count) {
		snprintf(err, errlen, "interrupted");
		rc = -1;
	} else {
		if (less && shifted(s.late, s.count, off, less))
			rc = ik__errmsg(err, errlen, "out of memory");
		ik__calib_dist_of(s.late, s.count, d);
		if (slack_ns)
			*slack_ns = s.slack_ns;
	}
	free(s.late);
	return rc;
}

static int oversleep(const struct ik_calib_config *c, bool fine, struct ik_calib_dist *d,
		     long *slack_ns, char *err, size_t errlen)
{
	return oversleep_n(c, c->gap_ns, c->samples, fine, d, 0, NULL, slack_ns, err, errlen);
}

/* ---- one state: only it enabled, and back ------------------------------------------------ */

struct changes {
	struct ik_journal journal;
	struct ik_pmqos qos;
};

/* Only state `only` enabled on the wakee CPU (POLL: a PM QoS limit of 0 as well). */
static int only_state(const struct ik_calib_config *c, const struct ik_host_cpu *cpu, int only,
		      bool poll, struct changes *ch, char *err, size_t errlen)
{
	char rel[128], path[4096];
	ik__signals_block(true); /* a signal now would leave half a change: take it after */
	int rc = 0;
	for (int k = 0; k < cpu->nstates && rc == 0; k++) {
		snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/disable", c->wakee_cpu, k);
		if (ik__sysfs_path(c->fs, rel, path, sizeof(path))) {
			snprintf(err, errlen, "%s: not a writable tree", rel);
			rc = -1;
		} else {
			rc = ik__journal_write(&ch->journal, path, k == only ? "0" : "1", err, errlen);
		}
	}
	/* the haltpoll governor ignores the disable files: its window and PM QoS decide */
	if (rc == 0 && !poll && c->haltpoll_dir) {
		snprintf(path, sizeof(path), "%s/guest_halt_poll_ns", c->haltpoll_dir);
		rc = ik__journal_write(&ch->journal, path, "0", err, errlen);
	}
	if (rc == 0 && poll) {
		rc = ik__pmqos_open(&ch->qos, c->pmqos_dev, err, errlen);
		if (rc == 0)
			rc = ik__pmqos_set(&ch->qos, 0, err, errlen);
	}
	ik__signals_block(false);
	return rc;
}

static int undo(struct changes *ch, char *err, size_t errlen)
{
	ik__pmqos_close(&ch->qos);
	return ik__journal_undo(&ch->journal, err, errlen);
}

/* The wakee CPU's counter NAME of state k now (0 when it cannot be read). */
static uint64_t counter_of(const struct ik_calib_config *c, int k, const char *name)
{
	char rel[128], e[IK_HOST_ERR_LEN];
	uint64_t v = 0;
	snprintf(rel, sizeof(rel), "cpu%d/cpuidle/state%d/%s", c->wakee_cpu, k, name);
	if (ik__sysfs_read_u64(c->fs, rel, &v, e, sizeof(e)) != IK_SYSFS_OK)
		return 0;
	return v;
}

/*
 * The wakee CPU's idle entries and time (all states) and the clock, to tell its busy time,
 * and the entries of the state being measured (`only`).
 */
struct idle_mark {
	uint64_t entries, idle_us, only_entries;
	int64_t t_ns;
};

static void mark(const struct ik_calib_config *c, int nstates, int only, struct idle_mark *m)
{
	m->entries = m->idle_us = m->only_entries = 0;
	for (int k = 0; k < nstates; k++) {
		uint64_t n = counter_of(c, k, "usage");
		m->entries += n;
		m->only_entries += k == only ? n : 0;
		m->idle_us += counter_of(c, k, "time");
	}
	m->t_ns = ik__host_now_ns();
}

/* The wakee CPU's busy time per idle entry from a to b (0 without entries). */
static int64_t busy_per_entry(const struct idle_mark *a, const struct idle_mark *b)
{
	uint64_t n = b->entries - a->entries;
	int64_t busy = (b->t_ns - a->t_ns) - (int64_t)(b->idle_us - a->idle_us) * 1000;
	return n > 0 && busy > 0 ? busy / (int64_t)n : 0;
}

static int wake_samples_n(const struct ik_calib_config *c, int64_t gap_ns, long count,
			  struct ik_wakelat_result *w, char *err, size_t errlen)
{
	struct ik_wakelat_config wc = {
		.waker_cpu = c->waker_cpu, .wakee_cpu = c->wakee_cpu, .count = count,
		.warmup = count / 20 + 2, .gap_ns = gap_ns, .method = IK_WAKELAT_FUTEX,
		.should_stop = c->should_stop,
	};
	return ik__wakelat_run(&wc, w, err, errlen);
}

static int wake_samples(const struct ik_calib_config *c, struct ik_wakelat_result *w,
			char *err, size_t errlen)
{
	return wake_samples_n(c, c->gap_ns, c->samples, w, err, errlen);
}

/*
 * State k alone: its wake-ups and timed sleeps.  The model adds the context switch to a
 * wake-up's exit (the woken task replaces the idle task), so each exit is the sample minus
 * the IPI (POLL: the poll notice) and minus ctxsw_ns, and the model's sum is the wake-up.
 */
static int measure_state(const struct ik_calib_config *c, const struct ik_host_cpu *cpu, int k,
			 int64_t ipi_ns, int64_t ctxsw_ns, struct changes *ch,
			 struct ik_calib_state *st, char *err, size_t errlen)
{
	struct ik_wakelat_result w = { 0 };
	memset(st, 0, sizeof(*st)); /* a try's figures only, and no curve until one is measured */
	snprintf(st->name, sizeof(st->name), "%s", cpu->states[k].name);
	st->poll = k == 0 && strcmp(cpu->states[k].name, "POLL") == 0;
	if (only_state(c, cpu, k, st->poll, ch, err, errlen))
		return -1;
	struct idle_mark m0, m1, m2;
	mark(c, cpu->nstates, k, &m0);
	int rc = wake_samples(c, &w, err, errlen);
	mark(c, cpu->nstates, k, &m1);
	st->entries = m1.only_entries - m0.only_entries;
	st->busy_wake_ns = busy_per_entry(&m0, &m1);
	if (rc == 0) {
		ik__calib_dist_of(w.samples_ns, w.count, &st->wake);
		rc = shifted(w.samples_ns, w.count,
			     (st->poll ? c->poll_wake_ns : ipi_ns) + ctxsw_ns, &st->exit);
		if (rc)
			snprintf(err, errlen, "out of memory");
	}
	if (rc == 0)
		rc = oversleep_n(c, c->gap_ns, c->samples, true, &st->timer, ctxsw_ns,
				 &st->timer_exit, NULL, err, errlen);
	mark(c, cpu->nstates, k, &m2);
	st->busy_timer_ns = busy_per_entry(&m1, &m2);
	ik__wakelat_free(&w);
	char e2[IK_HOST_ERR_LEN];
	if (undo(ch, e2, sizeof(e2)) && rc == 0) {
		snprintf(err, errlen, "%s", e2);
		rc = -1;
	}
	st->measured = rc == 0;
	return rc;
}

/* The idle lengths of the curve, 100 us to 100 ms by factors of about 3. */
static const int64_t curve_idle[IK_CALIB_CURVE_MAX] = {
	100000, 300000, 1000000, 3000000, 10000000, 30000000, 100000000,
};

/*
 * With state k alone, the wake-up and the timed sleep after each idle length longer than
 * the gap: as many samples as fit in curve_ns (at least 15, at most samples).
 */
static int measure_curve(const struct ik_calib_config *c, const struct ik_host_cpu *cpu, int k,
			 struct changes *ch, struct ik_calib_state *st, char *err, size_t errlen)
{
	st->ncurve = 0;
	if (only_state(c, cpu, k, false, ch, err, errlen))
		return -1;
	int rc = 0;
	for (int i = 0; i < IK_CALIB_CURVE_MAX && rc == 0; i++) {
		int64_t idle = curve_idle[i];
		if (idle <= c->gap_ns)
			continue;
		long n = (long)(c->curve_ns / idle);
		n = n < 15 ? 15 : n > c->samples ? c->samples : n;
		struct ik_wakelat_result w = { 0 };
		int j = st->ncurve;
		rc = wake_samples_n(c, idle, n, &w, err, errlen);
		if (rc == 0)
			ik__calib_dist_of(w.samples_ns, w.count, &st->curve_wake[j]);
		ik__wakelat_free(&w);
		if (rc == 0)
			rc = oversleep_n(c, idle, n, true, &st->curve_timer[j], 0, NULL, NULL, err,
					 errlen);
		if (rc == 0) {
			st->curve_idle_ns[j] = idle;
			st->ncurve++;
		}
	}
	char e2[IK_HOST_ERR_LEN];
	if (undo(ch, e2, sizeof(e2)) && rc == 0) {
		snprintf(err, errlen, "%s", e2);
		rc = -1;
	}
	return rc;
}

/* ---- the run ------------------------------------------------------------------------------ */

/* Did (nearly) every wake-up find the CPU idle in the state?  (Its entries say so.) */
static bool idle_enough(const struct ik_calib_state *st)
{
	return (double)st->entries >= 0.9 * (double)st->wake.n;
}

static int pingpong(const struct ik_calib_config *c, int cpu_b, int64_t *per_switch,
		    uint64_t *switches, char *err, size_t errlen)
{
	/* ticks only so that a signal is noticed within 100 ms */
	struct ik_ctxsw_config cc = { .cpu_a = c->waker_cpu, .cpu_b = cpu_b, .test = IK_CTXSW_PIPE,
				      .duration_ns = c->ctxsw_ns, .tick_ns = 100000000,
				      .should_stop = c->should_stop };
	struct ik_ctxsw_result r;
	if (ik__ctxsw_run(&cc, &r, err, errlen))
		return -1;
	if (r.switches == 0)
		return ik__errmsg(err, errlen, "the pipe ping-pong on CPUs %d,%d made no switch",
				  c->waker_cpu, cpu_b);
	*per_switch = r.elapsed_ns / (int64_t)r.switches;
	*switches = r.switches;
	return 0;
}

static int busy_wake(const struct ik_calib_config *c, struct ik_calib_result *r, char *err,
		     size_t errlen)
{
	struct spinner s = { 0 };
	pthread_t t;
	struct ik_wakelat_result w = { 0 };
	if (ik__start_pinned(&t, c->wakee_cpu, 0, spin_main, &s, err, errlen))
		return -1;
	while (!atomic_load(&s.running))
		sched_yield();
	if (atomic_load(&s.running) < 0) {
		pthread_join(t, NULL);
		return ik__errmsg(err, errlen, "cannot run a SCHED_IDLE spinner on CPU %d",
				  c->wakee_cpu);
	}
	int rc = wake_samples(c, &w, err, errlen);
	atomic_store(&s.stop, 1);
	pthread_join(t, NULL);
	if (rc == 0) {
		ik__calib_dist_of(w.samples_ns, w.count, &r->busy_wake);
		rc = shifted(w.samples_ns, w.count, r->context_switch_ns, &r->ipi);
	}
	ik__wakelat_free(&w);
	return rc;
}

static void progress(const struct ik_calib_config *c, const char *what, int step, int steps)
{
	if (c->progress)
		c->progress(c->arg, what, step, steps);
}

/* Entries into any state of every CPU with states, over background_ns of this thread's sleep. */
static int background(const struct ik_calib_config *c, struct ik_calib_result *r, char *err,
		      size_t errlen)
{
	struct ik_host_idle a = { 0 }, b = { 0 };
	int rc = -1;
	if (ik__host_idle_read(c->fs, NULL, &a, err, errlen))
		return -1;
	int64_t t0 = ik__host_now_ns();
	struct timespec ts = { (time_t)(c->background_ns / 1000000000LL),
			       (long)(c->background_ns % 1000000000LL) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !(c->should_stop && c->should_stop()))
		;
	int64_t t1 = ik__host_now_ns();
	if (ik__host_idle_read(c->fs, NULL, &b, err, errlen))
		goto out;
	double sum = 0, lo = INFINITY, hi = 0, secs = (double)(t1 - t0) / 1e9;
	int n = 0, busy = 0;
	for (int i = 0; i < a.ncpus && i < b.ncpus && secs > 0; i++) {
		const struct ik_host_cpu *x = &a.cpus[i], *y = &b.cpus[i];
		if (x->cpu != y->cpu || !x->online || x->nstates == 0 || x->nstates != y->nstates)
			continue;
		uint64_t entries = 0, idle_us = 0;
		for (int s = 0; s < x->nstates; s++) {
			entries += y->states[s].usage - x->states[s].usage;
			idle_us += y->states[s].time_us - x->states[s].time_us;
		}
		/* a CPU busy with other work for a tenth of the window is not an idle CPU */
		if ((double)idle_us / 1e6 < 0.9 * secs) {
			busy++;
			continue;
		}
		double hz = (double)entries / secs;
		sum += hz;
		lo = fmin(lo, hz);
		hi = fmax(hi, hz);
		n++;
	}
	rc = 0;
	if (busy) {
		size_t used = strlen(r->notes);
		snprintf(r->notes + used, sizeof(r->notes) - used, "%sbackground: %d CPU%s busy "
			 "for more than a tenth of the %.3g s (other work) left out%s", used ? "; " : "",
			 busy, busy > 1 ? "s" : "", secs, n ? "" : ", so it was not measured");
	}
	if (n == 0)
		goto out;
	r->background_cpus = n;
	r->background_hz = sum / n;
	r->background_min_hz = lo;
	r->background_max_hz = hi;
out:
	ik__host_idle_free(&a);
	ik__host_idle_free(&b);
	return rc;
}

static bool stopped(const struct ik_calib_config *c, char *err, size_t errlen)
{
	if (c->should_stop && c->should_stop()) {
		snprintf(err, errlen, "interrupted");
		return true;
	}
	return false;
}

int ik__calibrate_run(const struct ik_calib_config *c, struct ik_calib_result *r, char *err,
		     size_t errlen)
{
	struct ik_host_idle idle = { 0 };
	struct ik_cpuset one;
	struct changes ch;
	char what[192];
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->deepest = -1;
	ik__journal_init(&ch.journal);
	ch.qos.fd = -1;
	if (c->samples < 10 || c->gap_ns <= 0 || c->ctxsw_ns <= 0 || c->waker_cpu == c->wakee_cpu)
		return ik__errmsg(err, errlen, "expected at least 10 samples, a gap and a "
				  "ping-pong time > 0, and two different CPUs");
	ik__cpuset_clear(&one);
	ik__cpuset_add(&one, c->wakee_cpu);
	if (ik__host_idle_read(c->fs, &one, &idle, err, errlen))
		return -1;
	const struct ik_host_cpu *cpu = &idle.cpus[0];
	if (idle.ncpus != 1 || cpu->nstates == 0) {
		snprintf(err, errlen, "CPU %d has no idle states (cpuidle driver %s)", c->wakee_cpu,
			 idle.driver);
		goto out;
	}
	r->nstates = cpu->nstates;
	int steps = 4 + cpu->nstates + (c->background_ns > 0), step = 0;

	if (c->background_ns > 0) {
		snprintf(what, sizeof(what), "background: idle entries of every CPU in %.3g s of "
			 "nothing", (double)c->background_ns / 1e9);
		progress(c, what, ++step, steps);
		if (stopped(c, err, errlen) || background(c, r, err, errlen))
			goto out;
	}

	progress(c, "context switch: pipe ping-pong on one CPU", ++step, steps);
	if (stopped(c, err, errlen) ||
	    pingpong(c, c->waker_cpu, &r->context_switch_ns, &r->switches_one_cpu, err, errlen))
		goto out;
	progress(c, "IPI: wake-ups of a CPU running another task", ++step, steps);
	if (stopped(c, err, errlen) || busy_wake(c, r, err, errlen))
		goto out;
	for (int k = 0; k < cpu->nstates; k++) {
		snprintf(what, sizeof(what), "state %d (%s): wake-ups and timers with it alone", k,
			 cpu->states[k].name);
		progress(c, what, ++step, steps);
		/*
		 * A wake-up that finds the CPU running someone else's task measures that task,
		 * not the state: on a shared machine try again, and keep the try in which the
		 * most wake-ups found the CPU idle.
		 */
		struct ik_calib_state best = { 0 }, now;
		for (int attempt = 0; attempt < IK_CALIB_TRIES; attempt++) {
			if (stopped(c, err, errlen) ||
			    measure_state(c, cpu, k, r->ipi.p50, r->context_switch_ns, &ch, &now, err,
					  errlen))
				goto out;
			if (attempt == 0 || now.entries > best.entries)
				best = now;
			if (idle_enough(&best))
				break;
			snprintf(what, sizeof(what), "state %d (%s): %" PRIu64 " entries in %ld wake-ups: "
				 "the CPU was busy, again", k, best.name, now.entries, now.wake.n);
			progress(c, what, step, steps);
		}
		r->state[k] = best;
		if (!idle_enough(&best)) {
			size_t used = strlen(r->notes);
			snprintf(r->notes + used, sizeof(r->notes) - used, "%sstate %d (%s): only %" PRIu64
				 " idle entries in %ld wake-ups (the CPU was busy with other work)",
				 used ? "; " : "", k, best.name, best.entries, best.wake.n);
		}
		if (!r->state[k].poll)
			r->deepest = k;
		if (!r->state[k].poll && c->curve_ns > 0) {
			snprintf(what, sizeof(what), "state %d (%s): wake-ups and timers after idles of "
				 "100us-100ms", k, cpu->states[k].name);
			progress(c, what, step, steps);
			if (stopped(c, err, errlen) ||
			    measure_curve(c, cpu, k, &ch, &r->state[k], err, errlen))
				goto out;
		}
	}
	progress(c, "timer slack: timed sleeps with the task's own slack and with 1 ns", ++step,
		 steps);
	if (stopped(c, err, errlen) ||
	    oversleep(c, false, &r->oversleep_default, &r->task_slack_ns, err, errlen) ||
	    oversleep(c, true, &r->oversleep_fine, NULL, err, errlen))
		goto out;
	r->timer_slack_ns = r->oversleep_default.p50 - r->oversleep_fine.p50;
	if (r->timer_slack_ns < 0)
		r->timer_slack_ns = 0;
	progress(c, "check: pipe ping-pong across the two CPUs", ++step, steps);
	if (stopped(c, err, errlen) ||
	    pingpong(c, c->wakee_cpu, &r->handover_ns, &r->switches_two_cpus, err, errlen))
		goto out;
	rc = 0;
out:;
	char e2[IK_HOST_ERR_LEN];
	if (undo(&ch, e2, sizeof(e2)) && rc == 0) {
		snprintf(err, errlen, "%s", e2);
		rc = -1;
	}
	ik__journal_free(&ch.journal);
	ik__host_idle_free(&idle);
	return rc;
}
