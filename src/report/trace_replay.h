/*
 * The reports of a trace replay (src/report/trace_replay.c), for the replay command and the
 * batch's report hook (report/replay_batch_out.h).
 */
#ifndef IDLEKIT_REPORT_TRACE_REPLAY_H
#define IDLEKIT_REPORT_TRACE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "idlekit/cpuidle.h"
#include "trace/format.h"
#include "trace/replay.h"

/*
 * Reports of a replay of several governors (src/report/trace_replay.c): text side by side,
 * and JSON schema "idlekit.replay/2" (docs/replay.md): top-level trace, platform, settings,
 * and "runs", one object per governor with the figures of an idlekit.sim/1 run object.
 */
struct ik_trace_replay_report {
	const char *origin;   /* the trace */
	const char *platform; /* its name */
	int hz, cpus;
	bool closed_loop, compare;
	uint64_t seed;
	const struct ik_driver *drv; /* the replayed table */
	const struct ik_trace_header *h;
	const struct ik_trace_state_map *map;
	const char *haltpoll_from; /* NULL: no haltpoll run */
	const struct ik_haltpoll_params *haltpoll;
	int nruns;
	const char *const *governors;
	const struct ik_trace_replay *runs;
	const char *package_note; /* what the energy leaves out, or NULL */
	const char *package_exit; /* how the package's exit is charged, or NULL (no deep state) */
};
int ik__report_replay_text(FILE *out, const struct ik_trace_replay_report *r);
int ik__report_replay_json(FILE *out, const struct ik_trace_replay_report *r);

#endif
