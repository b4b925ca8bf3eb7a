/*
 * Crash isolation for kernel-source governors: a fault in a governor file's code (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, as from a NULL dereference, a division by zero or BUG()) or a
 * callback that runs past a wall-time limit (an endless loop) ends the run with one
 * message naming the file, the call, the decision number, the simulated time and the
 * inputs of the call, and exit status 4, leaving no output file.
 *
 * Runs go on several threads at once (sim -j, sweeps), so the state is per thread: each
 * guarded call marks its thread as inside a governor (a thread-local record with a
 * sigjmp_buf), the fault handler jumps back to the guard of the faulting thread only when
 * that thread is inside a call (any other fault is idlekit's own and is passed on to the
 * handler that was there before), and one watchdog thread signals a thread whose call has
 * not returned after the limit ($IDLEKIT_GOV_TIMEOUT_S seconds, default 10).  The faulting
 * code is never resumed: the process ends from the guard, on the thread's own stack.
 *
 * Divisions: the per-thread record; the handlers; the watchdog; guarding a call; the report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/gov_internal.h"
#include "idlekit/cpuidle.h"
#include "util/freep.h"

/* Removes the command's temporary output files (the CLI defines it; a library user may not). */
extern void ik__fatal_cleanup(void) __attribute__((weak));

enum { GUARD_FAULT = 1, GUARD_TIMEOUT = 2 };
#define MAX_GUARDED_THREADS 512
#define ALT_STACK_SIZE (256 * 1024)

/* ---- The per-thread record -------------------------------------------------------------- */

struct guard {
	sigjmp_buf jb;
	volatile sig_atomic_t active;   /* inside a governor call */
	volatile sig_atomic_t in_host;  /* inside idlekit's answer to the governor */
	volatile sig_atomic_t pending;  /* the limit passed while in_host */
	volatile sig_atomic_t signo;
	atomic_ulong calls;             /* calls begun: the watchdog sees progress */
	pthread_t thread;
	const struct ik_gov_call *call;
	void *altstack;
};

static __thread struct guard *self;
static struct guard *guards[MAX_GUARDED_THREADS]; /* for the watchdog */
static pthread_mutex_t guards_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static pthread_key_t guard_key;
static int timeout_signal;
static double timeout_s = 10.0;
static atomic_int dying; /* the first report wins; another thread's waits */

static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
#define NFAULTS (int)(sizeof(fault_signals) / sizeof(fault_signals[0]))
static struct sigaction previous[NFAULTS];

/* ---- The handlers ------------------------------------------------------------------------- */

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	struct guard *g = self;
	if (g && g->active && !g->in_host) {
		g->signo = sig;
		siglongjmp(g->jb, GUARD_FAULT);
	}
	/* idlekit's own fault: as if this handler were not there */
	for (int i = 0; i < NFAULTS; i++) {
		if (fault_signals[i] != sig)
			continue;
		if (previous[i].sa_flags & SA_SIGINFO) {
			previous[i].sa_sigaction(sig, si, uc);
			return;
		}
		if (previous[i].sa_handler == SIG_IGN)
			return;
		if (previous[i].sa_handler != SIG_DFL) {
			previous[i].sa_handler(sig);
			return;
		}
	}
	signal(sig, SIG_DFL); /* the fault happens again on return, and kills */
}

static void on_timeout(int sig)
{
	(void)sig;
	struct guard *g = self;
	if (!g || !g->active)
		return; /* the call returned meanwhile */
	if (g->in_host) {
		g->pending = 1; /* jump once idlekit's code is left (it may hold a lock) */
		return;
	}
	siglongjmp(g->jb, GUARD_TIMEOUT);
}

static void forget_thread(void *p)
{
	struct guard *g = p;
	pthread_mutex_lock(&guards_lock);
	for (int i = 0; i < MAX_GUARDED_THREADS; i++)
		if (guards[i] == g)
			guards[i] = NULL;
	pthread_mutex_unlock(&guards_lock);
	stack_t ss = { .ss_flags = SS_DISABLE };
	if (g->altstack)
		sigaltstack(&ss, NULL);
	free(g->altstack);
	free(g);
}

/* ---- The watchdog --------------------------------------------------------------------------- */

/* A thread whose call count has not moved while it is inside a call for the whole limit. */
static void *watchdog(void *arg)
{
	(void)arg;
	unsigned long seen[MAX_GUARDED_THREADS] = { 0 };
	double still[MAX_GUARDED_THREADS] = { 0 };
	double tick = timeout_s / 4 < 0.1 ? timeout_s / 4 : 0.1;
	struct timespec ts = { (time_t)tick, (long)((tick - (double)(time_t)tick) * 1e9) };

	for (;;) {
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&guards_lock);
		for (int i = 0; i < MAX_GUARDED_THREADS; i++) {
			struct guard *g = guards[i];
			if (!g)
				continue;
			unsigned long c = atomic_load(&g->calls);
			if (!g->active || c != seen[i]) {
				seen[i] = c;
				still[i] = 0;
				continue;
			}
			still[i] += tick;
			if (still[i] >= timeout_s) {
				still[i] = -1e9; /* once */
				pthread_kill(g->thread, timeout_signal);
			}
		}
		pthread_mutex_unlock(&guards_lock);
	}
	return NULL;
}

static void setup(void)
{
	const char *t = getenv("IDLEKIT_GOV_TIMEOUT_S");
	if (t && t[0]) {
		char *end;
		double v = strtod(t, &end);
		if (*end == '\0' && v > 0)
			timeout_s = v;
	}
	pthread_key_create(&guard_key, forget_thread);
	timeout_signal = SIGRTMIN + 4;

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NFAULTS; i++)
		sigaction(fault_signals[i], &sa, &previous[i]);
	struct sigaction st;
	memset(&st, 0, sizeof(st));
	st.sa_handler = on_timeout;
	st.sa_flags = SA_ONSTACK;
	sigemptyset(&st.sa_mask);
	sigaction(timeout_signal, &st, NULL);

	pthread_t w;
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	/* the watchdog takes no signals: they are for the threads running governors */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_create(&w, &at, watchdog, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&at);
}

/* This thread's record: made at its first guarded call, with a stack for the handlers (a
   governor that overflows its own stack still gets its report). */
static struct guard *thread_guard(void)
{
	if (self)
		return self;
	pthread_once(&setup_once, setup);
	struct guard *g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->thread = pthread_self();
	stack_t old;
	if (sigaltstack(NULL, &old) == 0 && (old.ss_flags & SS_DISABLE)) {
		g->altstack = malloc(ALT_STACK_SIZE);
		stack_t ss = { .ss_sp = g->altstack, .ss_size = ALT_STACK_SIZE };
		if (g->altstack && sigaltstack(&ss, NULL) != 0) {
			ik__freep(&g->altstack);
		}
	}
	pthread_mutex_lock(&guards_lock);
	for (int i = 0; i < MAX_GUARDED_THREADS; i++)
		if (!guards[i]) {
			guards[i] = g;
			break;
		}
	pthread_mutex_unlock(&guards_lock);
	pthread_setspecific(guard_key, g);
	self = g;
	return g;
}

/* ---- Guarding a call -------------------------------------------------------------------------- */

static void report(const struct ik_gov_call *c, int how, int sig) __attribute__((noreturn));

struct ik_gov_guard *ik__gov_guard_enter(const struct ik_gov_call *call)
{
	struct guard *g = thread_guard();
	if (!g)
		return NULL;
	g->call = call;
	g->signo = 0;
	g->pending = 0;
	/* (only this thread writes it: no locked add needed) */
	atomic_store_explicit(&g->calls, atomic_load_explicit(&g->calls, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	return (struct ik_gov_guard *)g;
}

sigjmp_buf *ik__gov_guard_jmpbuf(struct ik_gov_guard *gg)
{
	return &((struct guard *)gg)->jb;
}

void ik__gov_guard_arm(struct ik_gov_guard *gg)
{
	((struct guard *)gg)->active = 1;
}

void ik__gov_guard_leave(struct ik_gov_guard *gg)
{
	if (gg)
		((struct guard *)gg)->active = 0;
}

void ik__gov_guard_failed(struct ik_gov_guard *gg, int how)
{
	struct guard *g = (struct guard *)gg;
	g->active = 0;
	report(g->call, how, g->signo);
}

void ik__gov_guard_host_enter(void)
{
	if (self)
		self->in_host = 1;
}

void ik__gov_guard_host_leave(void)
{
	struct guard *g = self;
	if (!g)
		return;
	g->in_host = 0;
	if (g->pending && g->active) {
		g->active = 0;
		report(g->call, GUARD_TIMEOUT, 0);
	}
}

/* ---- The report ------------------------------------------------------------------------------ */

static const char *signal_meaning(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV, an invalid memory access";
	case SIGBUS: return "SIGBUS, a bad memory access";
	case SIGFPE: return "SIGFPE, an arithmetic fault such as a division by zero";
	case SIGILL: return "SIGILL, an illegal instruction (BUG() or a trap)";
	default: return "a fault";
	}
}

static void report(const struct ik_gov_call *c, int how, int sig)
{
	if (atomic_fetch_add(&dying, 1) != 0)
		for (;;)
			pause(); /* another thread is reporting and ending the process */
	char what[200];
	if (how == GUARD_TIMEOUT)
		snprintf(what, sizeof(what), "did not return within %g s of wall time "
			 "(IDLEKIT_GOV_TIMEOUT_S sets the limit)", timeout_s);
	else
		snprintf(what, sizeof(what), "crashed (%s)", signal_meaning(sig));
	const struct ik_device *d = c->dev;
	char idx[40] = "";
	if (c->index >= 0)
		snprintf(idx, sizeof(idx), ", state %d", c->index);
	if (!d) /* an initcall: no decision yet, no inputs */
		fprintf(stderr, "idlekit: governor kernel:%s %s in %s, before the first decision\n",
			c->path, what, c->what);
	else
		fprintf(stderr, "idlekit: governor kernel:%s %s in %s at decision %llu (simulated time "
			"%lld ns; inputs: cpu %d, sleep length %lld ns, delta_next %lld ns, latency_req "
			"%lld ns, tick stopped %d, last residency %llu ns%s)\n", c->path, what, c->what,
			(unsigned long long)c->decision, (long long)d->in.now_ns, d->cpu,
			(long long)d->in.sleep_length_ns, (long long)d->in.delta_next_ns,
			(long long)d->in.latency_req_ns, d->in.tick_stopped ? 1 : 0,
			(unsigned long long)d->last_residency_ns, idx);
	fflush(stderr);
	if (ik__fatal_cleanup)
		ik__fatal_cleanup();
	_exit(IK_GOV_EXIT_CRASH);
}
