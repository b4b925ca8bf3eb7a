/*
 * A pool of threads for jobs numbered 0..n-1: each worker takes the next number from a
 * shared counter, so jobs start in order, and each job writes only its own slot of the
 * caller's results, so what they produce does not depend on the number of threads or on
 * which thread ran which job.  The calling thread is one of the workers; the call returns
 * once every job taken has ended (their writes are then visible to the caller).
 *
 * A job that returns nonzero stops the handing out: jobs already taken still run to their
 * end.  Because another worker may have taken a later job just before, a job that must not
 * run after an earlier one failed checks that itself (under the caller's lock).
 *
 * Policies on top (a window of results not yet written, how many go on at once) live in
 * the job: it may wait on the caller's own condition variable before it does its work.
 * Such a wait must only be for jobs with smaller numbers, which have all been taken.
 */
#ifndef IDLEKIT_UTIL_THREAD_POOL_H
#define IDLEKIT_UTIL_THREAD_POOL_H

#include <stdint.h>

/* One job: 0 to go on, nonzero to hand out no more jobs. */
typedef int (*ik_thread_pool_job)(void *user, int64_t i);

/*
 * Run job(user, i) for i in [0, n) on min(threads, n) threads, the caller's included.
 * It cannot fail: a thread that cannot be started leaves its share to the others (at
 * worst the calling thread runs every job).
 */
void ik__thread_pool_run(int64_t n, int threads, ik_thread_pool_job job, void *user);

#endif
