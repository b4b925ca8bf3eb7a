/*
 * Wake-up latency on the real machine, the way HLT and MWAIT wake-ups are compared: a waker
 * thread and a wakee thread pinned to two CPUs; before each wake-up the wakee sits blocked
 * for a controlled idle gap, so its CPU goes idle; then the waker reads the clock and wakes
 * it, and the wakee reads the clock as soon as it runs.  The difference is the time to get
 * an idle CPU running a woken task: the wake call, the IPI if one is needed, the idle
 * state's exit, and the scheduler's switch to the task.
 *
 * One sample per wake-up, all kept and sorted, so percentiles are exact.
 */
#define _GNU_SOURCE /* sched_setaffinity, pthread_attr_setaffinity_np, CPU_SET */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "host/host.h"
#include "host/pinned_thread.h"
#include "util/errmsg.h"
#include "util/fd_io.h"
#include "util/names.h"

#define STALL_NS 10000000000LL /* a wakee silent this long means something is wrong */

static const char *const method_names[] = { "futex", "pipe", "eventfd" };

const char *ik__wakelat_method_name(enum ik_wakelat_method m)
{
	return ik__name_of(method_names, 3, (int)m, "?");
}

int ik__wakelat_method_parse(const char *text)
{
	return ik__name_find(method_names, 3, text);
}

int ik__host_allowed_cpus(struct ik_cpuset *allowed, char *err, size_t errlen)
{
	cpu_set_t set;
	ik__cpuset_clear(allowed);
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return ik__errmsg(err, errlen, "sched_getaffinity: %s", strerror(errno));
	for (int cpu = 0; cpu < CPU_SETSIZE && cpu < IK_HOST_CPU_MAX; cpu++)
		if (CPU_ISSET(cpu, &set))
			ik__cpuset_add(allowed, cpu);
	return 0;
}

int ik__host_unavailable_cpu(const int cpus[2], char *list, size_t len, char *err, size_t errlen)
{
	struct ik_cpuset allowed;
	if (ik__host_allowed_cpus(&allowed, err, errlen) != 0)
		return -2;
	ik__cpuset_format(&allowed, list, len);
	for (int i = 0; i < 2; i++)
		if (!ik__cpuset_has(&allowed, cpus[i]))
			return i;
	return -1;
}

int ik__host_check_cpus(const int cpus[2], char *err, size_t errlen)
{
	char list[256];
	int bad = ik__host_unavailable_cpu(cpus, list, sizeof(list), err, errlen);
	if (bad >= 0 && err && errlen)
		snprintf(err, errlen, "CPU %d is not available to this process (CPUs allowed: %s)",
			 cpus[bad], list);
	return bad == -1 ? 0 : -1;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static long futex(atomic_int *word, int op, int value)
{
	return syscall(SYS_futex, (int *)word, op, value, NULL, NULL, 0);
}

struct wakelat {
	const struct ik_wakelat_config *cfg;
	long total;               /* warm-up + measured */
	int64_t *samples;         /* total entries */
	atomic_int word;          /* futex: 1 = woken */
	atomic_llong wake_time;   /* waker's clock just before the wake call */
	atomic_long acked;        /* samples the wakee has recorded */
	atomic_int stop;          /* the waker gave up: the wakee must leave */
	atomic_int wakee_ready;
	int pipefd[2];
	int eventfd;
	char err[IK_HOST_ERR_LEN]; /* first failure of either thread */
	atomic_int failed;
};

static void fail_with(struct wakelat *w, const char *what, int e)
{
	int expected = 0;
	if (atomic_compare_exchange_strong(&w->failed, &expected, 1))
		snprintf(w->err, sizeof(w->err), "%s: %s", what, strerror(e));
}

/* The pipe's byte or the eventfd's count, read or written whole: 0, or -1 with the failure
   noted. */
static int whole(struct wakelat *w, int fd, bool writing, void *buf, size_t len, const char *what)
{
	int e = ik__fd_whole(fd, writing, buf, len);
	if (e)
		fail_with(w, what, e);
	return e ? -1 : 0;
}

/* Block until woken: 0, or -1 on error. */
static int wait_for_wake(struct wakelat *w)
{
	switch (w->cfg->method) {
	case IK_WAKELAT_FUTEX:
		while (atomic_load_explicit(&w->word, memory_order_acquire) == 0) {
			if (futex(&w->word, FUTEX_WAIT_PRIVATE, 0) != 0 && errno != EAGAIN &&
			    errno != EINTR) {
				fail_with(w, "futex wait", errno);
				return -1;
			}
		}
		atomic_store_explicit(&w->word, 0, memory_order_relaxed);
		return 0;
	case IK_WAKELAT_PIPE: {
		char c;
		return whole(w, w->pipefd[0], false, &c, 1, "pipe read");
	}
	case IK_WAKELAT_EVENTFD: {
		uint64_t v;
		return whole(w, w->eventfd, false, &v, sizeof(v), "eventfd read");
	}
	}
	return -1;
}

static int wake(struct wakelat *w)
{
	switch (w->cfg->method) {
	case IK_WAKELAT_FUTEX:
		atomic_store_explicit(&w->word, 1, memory_order_release);
		if (futex(&w->word, FUTEX_WAKE_PRIVATE, 1) < 0) {
			fail_with(w, "futex wake", errno);
			return -1;
		}
		return 0;
	case IK_WAKELAT_PIPE: {
		char c = 'w';
		return whole(w, w->pipefd[1], true, &c, 1, "pipe write");
	}
	case IK_WAKELAT_EVENTFD: {
		uint64_t one = 1;
		return whole(w, w->eventfd, true, &one, sizeof(one), "eventfd write");
	}
	}
	return -1;
}

static void *wakee_main(void *arg)
{
	struct wakelat *w = arg;
	atomic_store(&w->wakee_ready, 1);
	for (long i = 0; i < w->total; i++) {
		if (wait_for_wake(w))
			break;
		int64_t woke = ik__host_now_ns();
		if (atomic_load(&w->stop))
			break;
		w->samples[i] = woke - (int64_t)atomic_load_explicit(&w->wake_time,
								     memory_order_acquire);
		atomic_store_explicit(&w->acked, i + 1, memory_order_release);
	}
	return NULL;
}

/* Spin until the wakee has recorded `n` samples (it takes microseconds). */
static int wait_acked(struct wakelat *w, long n, bool same_cpu)
{
	int64_t start = 0;
	for (unsigned spins = 0; atomic_load_explicit(&w->acked, memory_order_acquire) < n;
	     spins++) {
		if (atomic_load(&w->failed))
			return -1;
		if (same_cpu)
			sched_yield();
		else
			cpu_relax();
		if ((spins & 1023) == 1023) {
			int64_t t = ik__host_now_ns();
			if (!start)
				start = t;
			else if (t - start > STALL_NS) {
				fail_with(w, "the wakee stopped answering", ETIMEDOUT);
				return -1;
			}
		}
	}
	return 0;
}

struct waker_args {
	struct wakelat *w;
	int64_t measured_start;
	int64_t measured_end;
};

static void *waker_main(void *arg)
{
	struct waker_args *a = arg;
	struct wakelat *w = a->w;
	const struct ik_wakelat_config *c = w->cfg;
	bool same_cpu = c->waker_cpu == c->wakee_cpu;

	/* Sleep as asked, not up to 50 us more: the default timer slack of normal tasks. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	while (!atomic_load(&w->wakee_ready))
		sched_yield();
	for (long i = 0; i < w->total; i++) {
		if (wait_acked(w, i, same_cpu))
			goto stop;
		if (c->should_stop && c->should_stop()) {
			fail_with(w, "interrupted", EINTR);
			goto stop;
		}
		if (i == c->warmup)
			a->measured_start = ik__host_now_ns();
		if (c->gap_ns > 0) {
			int64_t until = ik__host_now_ns() + c->gap_ns;
			struct timespec ts = { (time_t)(until / 1000000000), (long)(until % 1000000000) };
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
				;
		}
		int64_t t0 = ik__host_now_ns();
		atomic_store_explicit(&w->wake_time, t0, memory_order_release);
		if (wake(w))
			goto stop;
	}
	if (wait_acked(w, w->total, same_cpu) == 0) {
		a->measured_end = ik__host_now_ns();
		return NULL;
	}
stop:
	atomic_store(&w->stop, 1);
	wake(w); /* let a blocked wakee see it */
	return NULL;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int ik__wakelat_run(const struct ik_wakelat_config *c, struct ik_wakelat_result *r, char *err,
		   size_t errlen)
{
	memset(r, 0, sizeof(*r));
	if (c->count < 1 || c->warmup < 0 || c->gap_ns < 0 || c->rt_priority < 0 ||
	    c->rt_priority > 99) {
		return ik__errmsg(err, errlen, "expected count >= 1, warmup >= 0 and gap >= 0");
	}
	int cpus[2] = { c->waker_cpu, c->wakee_cpu };
	if (ik__host_check_cpus(cpus, err, errlen))
		return -1;

	struct wakelat *w = calloc(1, sizeof(*w));
	if (!w)
		return ik__errmsg(err, errlen, "out of memory");
	w->cfg = c;
	w->total = c->warmup + c->count;
	w->pipefd[0] = w->pipefd[1] = w->eventfd = -1;
	w->samples = calloc((size_t)w->total, sizeof(int64_t));
	int ret = -1;
	if (!w->samples) {
		snprintf(err, errlen, "out of memory for %ld samples", w->total);
		goto out;
	}
	if (c->method == IK_WAKELAT_PIPE && pipe2(w->pipefd, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		goto out;
	}
	if (c->method == IK_WAKELAT_EVENTFD &&
	    (w->eventfd = eventfd(0, EFD_CLOEXEC)) < 0) {
		snprintf(err, errlen, "eventfd: %s", strerror(errno));
		goto out;
	}

	pthread_t wakee, waker;
	struct waker_args args = { w, 0, 0 };
	if (ik__start_pinned(&wakee, c->wakee_cpu, c->rt_priority, wakee_main, w, err, errlen))
		goto out;
	if (ik__start_pinned(&waker, c->waker_cpu, c->rt_priority, waker_main, &args, err, errlen)) {
		atomic_store(&w->stop, 1);
		wake(w);
		pthread_join(wakee, NULL);
		goto out;
	}
	pthread_join(waker, NULL);
	pthread_join(wakee, NULL);
	if (atomic_load(&w->failed) || atomic_load(&w->stop)) {
		snprintf(err, errlen, "%s", w->err[0] ? w->err : "the measurement stopped early");
		goto out;
	}

	/* Keep only the measured part, sorted. */
	r->count = c->count;
	r->samples_ns = malloc((size_t)c->count * sizeof(int64_t));
	if (!r->samples_ns) {
		snprintf(err, errlen, "out of memory for %ld samples", c->count);
		goto out;
	}
	memcpy(r->samples_ns, w->samples + c->warmup, (size_t)c->count * sizeof(int64_t));
	qsort(r->samples_ns, (size_t)r->count, sizeof(int64_t), cmp_i64);
	double sum = 0;
	for (long i = 0; i < r->count; i++)
		sum += (double)r->samples_ns[i];
	r->mean_ns = sum / (double)r->count;
	r->min_ns = r->samples_ns[0];
	r->max_ns = r->samples_ns[r->count - 1];
	r->elapsed_ns = args.measured_end - args.measured_start;
	ret = 0;
out:
	if (w->pipefd[0] >= 0) {
		close(w->pipefd[0]);
		close(w->pipefd[1]);
	}
	if (w->eventfd >= 0)
		close(w->eventfd);
	free(w->samples);
	free(w);
	return ret;
}

int64_t ik__wakelat_percentile(const struct ik_wakelat_result *r, double p)
{
	if (!r->count)
		return 0;
	/* Nearest rank: the smallest sample with at least p% of the samples at or below it.
	 * p is scaled to hundredths of a percent to keep 99.99 exact. */
	long long hundredths = (long long)(p * 100 + 0.5);
	long long rank = (hundredths * r->count + 9999) / 10000;
	if (rank < 1)
		rank = 1;
	if (rank > r->count)
		rank = r->count;
	return r->samples_ns[rank - 1];
}

void ik__wakelat_free(struct ik_wakelat_result *r)
{
	free(r->samples_ns);
	memset(r, 0, sizeof(*r));
}
