/* Progress with ETA on a terminal (progress.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"
#include "host/host.h"

#define QUIET_NS 1000000000LL  /* nothing shown in the first second */
#define REDRAW_NS 250000000LL

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void fmt_secs(char *buf, size_t len, double s)
{
	if (s < 60)
		snprintf(buf, len, "%.1f s", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
	else
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

/* Under the lock. */
static void draw(struct cli_progress *p)
{
	char el[32], eta[32];
	double elapsed = (double)(now_ns() - p->start_ns) / 1e9;
	int64_t new_done = p->done - p->first_done;
	fmt_secs(el, sizeof(el), elapsed);
	if (new_done > 0 && p->total > p->done)
		fmt_secs(eta, sizeof(eta), elapsed / (double)new_done * (double)(p->total - p->done));
	else
		snprintf(eta, sizeof(eta), "--");
	fprintf(stderr, "\r\033[Kidlekit %s: %lld/%lld %s (%d%%), %s elapsed, ETA %s", p->cmd,
		(long long)p->done, (long long)p->total, p->what,
		p->total ? (int)(100 * p->done / p->total) : 100, el, eta);
	fflush(stderr);
	p->drawn = true;
}

static void *tick(void *arg)
{
	struct cli_progress *p = arg;
	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		struct timespec ts = ik__deadline_in(CLOCK_REALTIME, REDRAW_NS);
		if (p->drawn || now_ns() - p->start_ns < p->quiet_ns)
			pthread_cond_timedwait(&p->cv, &p->mu, &ts);
		if (p->stop || now_ns() - p->start_ns < p->quiet_ns)
			continue;
		if (p->poll)
			p->done = p->poll(p->poll_ctx);
		draw(p);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* The ticker; with no wait asked for, the first line drawn here, before any work is done,
   so that even work shorter than a redraw shows it. */
static void start(struct cli_progress *p)
{
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	if (p->quiet_ns == 0) {
		if (p->poll)
			p->done = p->poll(p->poll_ctx);
		draw(p);
	}
	if (pthread_create(&p->ticker, NULL, tick, p) != 0) {
		if (p->drawn)
			fputs("\r\033[K", stderr);
		pthread_cond_destroy(&p->cv);
		pthread_mutex_destroy(&p->mu);
		return;
	}
	p->on = true;
}

void cli_progress_begin(struct cli_progress *p, const char *cmd, const char *what, int64_t done,
			int64_t total, bool quiet)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->what = what;
	p->done = p->first_done = done;
	p->total = total;
	p->start_ns = now_ns();
	p->quiet_ns = QUIET_NS;
	const char *after = getenv("IDLEKIT_PROGRESS_AFTER_MS");
	if (after && after[0]) {
		char *end;
		long long ms = strtoll(after, &end, 10);
		if (!*end && ms >= 0 && ms <= 3600000)
			p->quiet_ns = ms * 1000000LL;
	}
	if (quiet || !isatty(STDERR_FILENO))
		return;
	start(p);
}

void cli_progress_begin_polled(struct cli_progress *p, const char *cmd, const char *what,
			       int64_t total, bool quiet, int64_t (*poll)(void *ctx), void *ctx)
{
	cli_progress_begin(p, cmd, what, 0, total, true); /* set up, not started */
	p->poll = poll;
	p->poll_ctx = ctx;
	if (quiet || !isatty(STDERR_FILENO))
		return;
	start(p);
}

void cli_progress_step(void *user, int64_t done, int64_t total)
{
	struct cli_progress *p = user;
	if (!p || !p->on)
		return;
	pthread_mutex_lock(&p->mu);
	p->done = done;
	p->total = total;
	pthread_mutex_unlock(&p->mu);
}

void cli_progress_end(struct cli_progress *p)
{
	if (!p->on)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->ticker, NULL);
	if (p->drawn)
		fputs("\r\033[K", stderr);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	p->on = false;
}
