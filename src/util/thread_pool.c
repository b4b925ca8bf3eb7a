/* The pool of threads for numbered jobs (thread_pool.h). */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util/thread_pool.h"

struct pool {
	pthread_mutex_t mu; /* guards next and stop */
	int64_t next, n;
	bool stop;
	ik_thread_pool_job job;
	void *user;
};

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		if (p->stop || p->next >= p->n) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		int64_t i = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (p->job(p->user, i) != 0) {
			pthread_mutex_lock(&p->mu);
			p->stop = true;
			pthread_mutex_unlock(&p->mu);
		}
	}
}

void ik__thread_pool_run(int64_t n, int threads, ik_thread_pool_job job, void *user)
{
	struct pool p = { .n = n, .job = job, .user = user };
	if (n <= 0)
		return;
	if (threads > n)
		threads = (int)n;
	if (threads < 1)
		threads = 1;
	pthread_mutex_init(&p.mu, NULL);
	/* threads - 1 more beside the caller; without memory for their ids, none */
	pthread_t *tid = threads > 1 ? calloc((size_t)threads - 1, sizeof(*tid)) : NULL;
	int started = 0;
	for (int i = 0; tid && i < threads - 1; i++) {
		if (pthread_create(&tid[i], NULL, worker, &p) != 0)
			break;
		started++;
	}
	worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	pthread_mutex_destroy(&p.mu);
}
