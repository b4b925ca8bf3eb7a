/*
 * Context switches per second, as Anton Blanchard's context_switch2 counts them: two threads
 * pinned to two CPUs (or one) hand control to each other as fast as they can.  With the
 * threads on different CPUs every hand-over wakes an idle CPU, so the rate is set by the
 * wake-up path and the idle state's exit cost (HLT against MWAIT shows it); on one CPU it is
 * the scheduler's switch cost.
 *
 *   pipe   A writes a byte to B's pipe and reads B's answer from its own: 2 switches a round
 *   futex  the same with two futex words
 *   yield  both call sched_yield(); each call hands the CPU over when they share one
 */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "host/host.h"
#include "host/pinned_thread.h"
#include "util/errmsg.h"
#include "util/fd_io.h"
#include "util/names.h"

static const char *const test_names[] = { "pipe", "futex", "yield" };

const char *ik__ctxsw_test_name(enum ik_ctxsw_test t)
{
	return ik__name_of(test_names, 3, (int)t, "?");
}

int ik__ctxsw_test_parse(const char *text)
{
	return ik__name_find(test_names, 3, text);
}

/* Counters on their own cache lines: the threads must not slow each other down. */
struct counter {
	_Alignas(64) atomic_ullong value;
};

struct ctxsw {
	const struct ik_ctxsw_config *cfg;
	int to_b[2], to_a[2]; /* pipes */
	_Alignas(64) atomic_int word_a; /* futex: A may run */
	_Alignas(64) atomic_int word_b; /* futex: B may run */
	struct counter count_a, count_b;
	_Alignas(64) atomic_int stop;
	atomic_int failed;
	char err[IK_HOST_ERR_LEN];
};

static void fail_with(struct ctxsw *s, const char *what, int e)
{
	int expected = 0;
	if (atomic_compare_exchange_strong(&s->failed, &expected, 1))
		snprintf(s->err, sizeof(s->err), "%s: %s", what, strerror(e));
	atomic_store(&s->stop, 1);
}

/* One byte through a pipe: 0, or -1 with the failure noted. */
static int pipe_byte(struct ctxsw *s, int fd, bool put)
{
	char c = 'x';
	int e = ik__fd_whole(fd, put, &c, 1);
	if (e)
		fail_with(s, put ? "pipe write" : "pipe read", e);
	return e ? -1 : 0;
}

static int put_byte(struct ctxsw *s, int fd)
{
	return pipe_byte(s, fd, true);
}

static int get_byte(struct ctxsw *s, int fd)
{
	return pipe_byte(s, fd, false);
}

static void futex_post(atomic_int *word)
{
	atomic_store_explicit(word, 1, memory_order_release);
	syscall(SYS_futex, (int *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void futex_take(atomic_int *word)
{
	while (atomic_load_explicit(word, memory_order_acquire) == 0)
		syscall(SYS_futex, (int *)word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	atomic_store_explicit(word, 0, memory_order_relaxed);
}

/* yield: each thread counts its own yields, one switch each (when the two share a CPU). */
static void yield_until_stop(struct ctxsw *s, atomic_ullong *count)
{
	unsigned long long n = 0;
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		sched_yield();
		atomic_store_explicit(count, ++n, memory_order_relaxed);
	}
}

/* A starts each round trip and counts it. */
static void *thread_a(void *arg)
{
	struct ctxsw *s = arg;
	unsigned long long n = 0;

	switch (s->cfg->test) {
	case IK_CTXSW_PIPE:
		while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
			if (put_byte(s, s->to_b[1]) || get_byte(s, s->to_a[0]))
				break;
			n += 2;
			atomic_store_explicit(&s->count_a.value, n, memory_order_relaxed);
		}
		put_byte(s, s->to_b[1]); /* B may be waiting for one more */
		break;
	case IK_CTXSW_FUTEX:
		while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
			futex_post(&s->word_b);
			futex_take(&s->word_a);
			n += 2;
			atomic_store_explicit(&s->count_a.value, n, memory_order_relaxed);
		}
		futex_post(&s->word_b);
		break;
	case IK_CTXSW_YIELD:
		yield_until_stop(s, &s->count_a.value);
		break;
	}
	return NULL;
}

/* B answers; it always answers before looking at stop, so A is never left waiting. */
static void *thread_b(void *arg)
{
	struct ctxsw *s = arg;

	switch (s->cfg->test) {
	case IK_CTXSW_PIPE:
		for (;;) {
			if (get_byte(s, s->to_b[0]) || put_byte(s, s->to_a[1]))
				break;
			if (atomic_load_explicit(&s->stop, memory_order_relaxed))
				break;
		}
		break;
	case IK_CTXSW_FUTEX:
		for (;;) {
			futex_take(&s->word_b);
			futex_post(&s->word_a);
			if (atomic_load_explicit(&s->stop, memory_order_relaxed))
				break;
		}
		break;
	case IK_CTXSW_YIELD:
		yield_until_stop(s, &s->count_b.value);
		break;
	}
	return NULL;
}

static uint64_t switches(struct ctxsw *s)
{
	return atomic_load_explicit(&s->count_a.value, memory_order_relaxed) +
	       atomic_load_explicit(&s->count_b.value, memory_order_relaxed);
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000), (long)(t % 1000000000) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int ik__ctxsw_run(const struct ik_ctxsw_config *c, struct ik_ctxsw_result *r, char *err,
		 size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (c->duration_ns <= 0 || c->tick_ns < 0)
		return ik__errmsg(err, errlen, "expected a duration > 0");
	int cpus[2] = { c->cpu_a, c->cpu_b };
	if (ik__host_check_cpus(cpus, err, errlen))
		return -1;
	struct ctxsw *s = aligned_alloc(64, (sizeof(struct ctxsw) + 63) / 64 * 64);
	if (!s)
		return ik__errmsg(err, errlen, "out of memory");
	memset(s, 0, sizeof(*s));
	s->cfg = c;
	s->to_a[0] = s->to_a[1] = s->to_b[0] = s->to_b[1] = -1;
	int ret = -1;
	if (c->test == IK_CTXSW_PIPE && (pipe2(s->to_a, O_CLOEXEC) || pipe2(s->to_b, O_CLOEXEC))) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		goto out;
	}
	pthread_t a, b;
	if (ik__start_pinned(&b, c->cpu_b, 0, thread_b, s, err, errlen))
		goto out;
	if (ik__start_pinned(&a, c->cpu_a, 0, thread_a, s, err, errlen)) {
		atomic_store(&s->stop, 1);
		if (c->test == IK_CTXSW_PIPE)
			put_byte(s, s->to_b[1]);
		else if (c->test == IK_CTXSW_FUTEX)
			futex_post(&s->word_b);
		pthread_join(b, NULL);
		goto out;
	}

	int64_t start = ik__host_now_ns(), end = start + c->duration_ns, last = start;
	uint64_t last_count = 0;
	int tick = 0;
	while (!atomic_load(&s->failed)) {
		int64_t next = c->tick_ns ? last + c->tick_ns : end;
		if (next > end)
			next = end;
		sleep_until(next);
		int64_t t = ik__host_now_ns();
		uint64_t n = switches(s);
		if (c->on_tick && c->tick_ns && (t - last) * 2 >= c->tick_ns)
			c->on_tick(c->arg, ++tick, n - last_count, t - last);
		last = t;
		last_count = n;
		if (t >= end || (c->should_stop && c->should_stop()))
			break;
	}
	atomic_store(&s->stop, 1);
	/*
	 * Kick both sides once more, so that neither can be left waiting for a partner that
	 * has already seen stop and left (seen in CI: thread A asleep in its futex wait after
	 * B had gone); an extra byte or post only makes a waiting thread look at stop again.
	 */
	if (c->test == IK_CTXSW_PIPE) {
		put_byte(s, s->to_a[1]);
		put_byte(s, s->to_b[1]);
	} else if (c->test == IK_CTXSW_FUTEX) {
		futex_post(&s->word_a);
		futex_post(&s->word_b);
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (atomic_load(&s->failed)) {
		snprintf(err, errlen, "%s", s->err);
		goto out;
	}
	r->switches = last_count;
	r->elapsed_ns = last - start;
	ret = 0;
out:
	for (int i = 0; i < 2; i++) {
		if (s->to_a[i] >= 0)
			close(s->to_a[i]);
		if (s->to_b[i] >= 0)
			close(s->to_b[i]);
	}
	free(s);
	return ret;
}
