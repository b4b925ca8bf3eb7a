/*
 * Progress on standard error while long work runs: done/total, elapsed time and an ETA,
 * redrawn on one line a few times a second, only when standard error is a terminal and
 * not silenced (-q), and only once the work has taken a second (short runs stay quiet;
 * IDLEKIT_PROGRESS_AFTER_MS sets another wait, 0 to show it at once).
 */
#ifndef IDLEKIT_CLI_PROGRESS_H
#define IDLEKIT_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct cli_progress {
	bool on;
	const char *what; /* "runs", "points" */
	const char *cmd;  /* "sim", "sweep" */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t ticker;
	bool stop;
	int64_t total, done, first_done;
	int64_t start_ns, quiet_ns;
	bool drawn;
	int64_t (*poll)(void *ctx); /* polled progress: done, asked before each redraw */
	void *poll_ctx;
};

/* Start (done: already finished before, as in a resumed sweep). */
void cli_progress_begin(struct cli_progress *p, const char *cmd, const char *what, int64_t done,
			int64_t total, bool quiet);
/* Start progress that is asked for rather than told: poll(ctx) gives done (from any
   thread: it must not touch what the work's thread is using). */
void cli_progress_begin_polled(struct cli_progress *p, const char *cmd, const char *what,
			       int64_t total, bool quiet, int64_t (*poll)(void *ctx), void *ctx);
/* A step finished (the signature of struct ik_sweep_progress's step). */
void cli_progress_step(void *user, int64_t done, int64_t total);
/* Stop and clear the line. */
void cli_progress_end(struct cli_progress *p);

#endif
