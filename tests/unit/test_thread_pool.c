/*
 * The pool of threads (src/util/thread_pool.c): every job runs once, jobs are handed out in
 * order, a job's nonzero return stops the handing out but not the jobs already taken, and
 * a job may wait for an earlier one (the policies sweep and sim --runs build on it).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/thread_pool.h"

#define N 500

struct count {
	pthread_mutex_t mu;
	int runs[N];
	int64_t order[N]; /* the job numbers in the order they were taken */
	int taken;
	int64_t stop_at;  /* the job that returns nonzero, or -1 */
};

static int count_job(void *user, int64_t i)
{
	struct count *c = user;
	pthread_mutex_lock(&c->mu);
	c->runs[i]++;
	c->order[c->taken++] = i;
	pthread_mutex_unlock(&c->mu);
	return i == c->stop_at;
}

static void test_every_job_once(void **state)
{
	(void)state;
	static const int threads[] = { 1, 2, 3, 8, 1000 };
	for (size_t k = 0; k < sizeof(threads) / sizeof(threads[0]); k++) {
		struct count c = { .mu = PTHREAD_MUTEX_INITIALIZER, .stop_at = -1 };
		ik__thread_pool_run(N, threads[k], count_job, &c);
		assert_int_equal(c.taken, N);
		for (int i = 0; i < N; i++)
			assert_int_equal(c.runs[i], 1);
	}
	/* no jobs, or no threads asked for: nothing or the caller alone */
	struct count c = { .mu = PTHREAD_MUTEX_INITIALIZER, .stop_at = -1 };
	ik__thread_pool_run(0, 4, count_job, &c);
	assert_int_equal(c.taken, 0);
	ik__thread_pool_run(3, 0, count_job, &c);
	assert_int_equal(c.taken, 3);
}

static void test_in_order_on_one_thread(void **state)
{
	(void)state;
	struct count c = { .mu = PTHREAD_MUTEX_INITIALIZER, .stop_at = -1 };
	ik__thread_pool_run(N, 1, count_job, &c);
	for (int i = 0; i < N; i++)
		assert_int_equal(c.order[i], i);
}

static void test_stop(void **state)
{
	(void)state;
	/* one thread: nothing after the job that stopped it */
	struct count c = { .mu = PTHREAD_MUTEX_INITIALIZER, .stop_at = 10 };
	ik__thread_pool_run(N, 1, count_job, &c);
	assert_int_equal(c.taken, 11);
	/* several: every job before it still ran (they were taken first), none twice (how
	   many after it were taken before the stop depends on the timing) */
	for (int t = 2; t <= 8; t *= 2) {
		struct count d = { .mu = PTHREAD_MUTEX_INITIALIZER, .stop_at = 100 };
		ik__thread_pool_run(N, t, count_job, &d);
		for (int i = 0; i <= 100; i++)
			assert_int_equal(d.runs[i], 1);
		for (int i = 101; i < N; i++)
			assert_true(d.runs[i] <= 1);
	}
}

/* Job i waits until job i - 1 has ended: a wait on an earlier job never deadlocks. */
struct chain {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int64_t done; /* jobs [0, done) ended */
};

static int chain_job(void *user, int64_t i)
{
	struct chain *c = user;
	pthread_mutex_lock(&c->mu);
	while (c->done < i)
		pthread_cond_wait(&c->cv, &c->mu);
	c->done = i + 1;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	return 0;
}

static void test_wait_for_earlier(void **state)
{
	(void)state;
	struct chain c = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	ik__thread_pool_run(200, 4, chain_job, &c);
	assert_int_equal(c.done, 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_job_once),
		cmocka_unit_test(test_in_order_on_one_thread),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_wait_for_earlier),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
