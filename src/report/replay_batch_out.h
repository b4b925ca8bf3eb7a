/*
 * The reports of `idlekit replay` on several traces (replay_batch_out.c): each trace's
 * report (text or JSON, and HTML) written into memory by the batch's report hook, in the
 * worker that replayed it, then all of them in the traces' order.  Internal to idlekit.
 */
#ifndef IDLEKIT_REPORT_REPLAY_BATCH_OUT_H
#define IDLEKIT_REPORT_REPLAY_BATCH_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "trace/replay_batch.h"

struct ik_replay_batch_out {
	bool json;    /* idlekit.replay/2, else the text table */
	bool compare; /* --compare-recorded: the recorded states beside the chosen */
	bool html;    /* also each trace's HTML report */
	struct ik_replay_batch_bytes {
		char *out, *html;
		size_t outlen, htmllen;
	} *v; /* one per trace, by index, zeroed by the caller */
};

/* The batch's report hook (user: a struct ik_replay_batch_out): trace d->index's reports. */
int ik__report_replay_batch_one(void *user, const struct ik_replay_batch_done *d, char *err,
			       size_t errlen);
/*
 * The reports of traces 0..n-1 in order: one trace's as it is; several, text one after the
 * other (a blank line between), JSON as {"schema": "idlekit.replays/1", "replays": [each
 * idlekit.replay/2 object]}.  0, or -1 when writing failed.
 */
int ik__report_replay_batch_write(FILE *f, const struct ik_replay_batch_out *o, int n);
void ik__report_replay_batch_free(struct ik_replay_batch_out *o, int n);

#endif
