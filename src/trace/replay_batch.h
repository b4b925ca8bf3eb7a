/*
 * `idlekit replay` on several traces: every trace replayed under every governor (one pass
 * each, ik__trace_replay_many), the traces on a pool of threads (util/thread_pool.h).
 * Internal to idlekit (the command and its report use it; nothing is installed).
 *
 * Each trace's results go to the caller's report hook in the worker that replayed it; the
 * hook writes only that trace's slot of the caller's outputs, so what the caller writes at
 * the end is the same bytes for any number of threads.  A trace is not replayed once an
 * earlier one failed, and every trace before the first failure is, so the first failure
 * (and the messages up to it) is the same for any number of threads too.
 */
#ifndef IDLEKIT_TRACE_REPLAY_BATCH_H
#define IDLEKIT_TRACE_REPLAY_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/scenario.h"
#include "drivers/registry.h"
#include "idlekit/kernel.h"
#include "trace/replay.h"

struct ik_replay_batch;

/* Holds any message of ik__replay_batch_governors and _open whole: a governor list quoted
   (up to 8191 bytes), or a platform's path (up to PATH_MAX) with its driver's message. */
#define IK_REPLAY_BATCH_ERR_LEN (8192 + 64)

/* One trace's replay, for the report hook; valid during the call only. */
struct ik_replay_batch_done {
	const struct ik_replay_batch *b;
	int index;                  /* the trace's, in the caller's order */
	const char *origin;
	const struct ik_trace_header *h;
	const struct ik_driver *drv; /* the replayed table */
	int hz;                     /* the batch's hz, else the trace's */
	const struct ik_haltpoll_params *haltpoll; /* as haltpoll ran */
	const char *haltpoll_from;  /* where its parameters came from; NULL: no haltpoll run */
	const char *const *governors; /* b->ngov labels: identity, and the release if not 6.19 */
	const struct ik_trace_replay *runs; /* b->ngov, in the order of b->specs */
	const struct ik_timeline *timeline; /* the first governor's (b->timeline), else NULL */
};

/* One trace: the caller opens it (header read) and reads what came of it. */
struct ik_replay_batch_trace {
	struct ik_trace_reader *r;
	const char *origin;
	/* set by ik__replay_batch_run, when the trace was replayed */
	int rc;           /* 0, IK_TRACE_EINPUT (a governor or the trace is bad) or IK_TRACE_EFAIL */
	uint64_t skipped; /* --lenient: bad lines skipped (the first: ik__trace_first_skip(r)) */
	char err[IK_ERR_LEN]; /* with rc != 0 */
};

struct ik_replay_batch {
	/* the governors, set by ik__replay_batch_governors */
	const char *specs[IK_TRACE_REPLAY_MAX_GOVS]; /* each once, in the list's order */
	int ngov;
	char spec_buf[8192];      /* the list, cut at its commas */
	/* the settings, filled by the caller */
	bool closed_loop;
	uint64_t hz;              /* 0: each trace's own */
	uint64_t seed;
	struct ik_haltpoll_params haltpoll; /* the defaults, or --haltpoll-poll-ns on them */
	bool haltpoll_given;      /* else a trace recorded under haltpoll gives its own */
	const struct ik_kernel *kernel;
	bool timeline;            /* keep the first governor's timeline in this window */
	int64_t win_start, win_len;
	/* called once per trace replayed, in a worker: 0, or -1 with a message in err */
	int (*report)(void *user, const struct ik_replay_batch_done *d, char *err, size_t errlen);
	void *user;
	/* set by ik__replay_batch_open */
	struct ik_scenario *sc; /* its platform ("trace": each trace's own table, no power) */
	struct ik_driver_binding *bind;
	bool from_trace, bound;
	char release_name[16];
	char kernel_label[512]; /* the release and its flipped switches */
};

/*
 * The governors from "menu,teo,kernel:PATH,...": each spec checked for its form (files are
 * opened when a trace is replayed), none twice, at most IK_TRACE_REPLAY_MAX_GOVS.  0, or -1
 * with a message.
 */
int ik__replay_batch_governors(struct ik_replay_batch *b, const char *list, char *err,
			      size_t errlen);
/*
 * The platform (a built-in name, an INI file or "trace") and its table driver, and the
 * release's names.  0, or IK_TRACE_EINPUT / IK_TRACE_EFAIL with a message; close it either
 * way.
 */
int ik__replay_batch_open(struct ik_replay_batch *b, const char *platform, char *err,
			 size_t errlen);
/* Replay t[0..n-1] on up to `threads` threads; the index of the first that failed, or n. */
int ik__replay_batch_run(const struct ik_replay_batch *b, struct ik_replay_batch_trace *t, int n,
			int threads);
void ik__replay_batch_close(struct ik_replay_batch *b);

#endif
