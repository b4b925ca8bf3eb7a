/*
 * Learning a workload from a trace (`idlekit workload learn`, src/trace/learn.c): the model
 * (config/learned_model.h, where its file format is described) from a whole trace, written
 * in that format, and the recording machine's platform beside it.
 */
#ifndef IDLEKIT_TRACE_LEARN_H
#define IDLEKIT_TRACE_LEARN_H

#include <stddef.h>
#include <stdio.h>

#include "config/learned_model.h"

/* "timer" ... "none", "local" */
const char *ik__learned_task_cause_name(int cause);

struct ik_trace_reader;
/* Learn from a whole trace.  0, or IK_TRACE_EINPUT / IK_TRACE_EFAIL with the message. */
int ik__learn_trace(struct ik_trace_reader *r, const char *source, struct ik_learned *out,
		   char *err, size_t errlen);
int ik__learned_write(FILE *out, const struct ik_learned *m);
/* A platform INI text for the trace's own machine: its first driver's table, each state's
   exit and the context switch as the recording measured them (m->exit_ns,
   m->wake_to_run_ns) where it holds enough of them, else the advertised latencies and no
   context-switch cost; no IPI cost (the recording does not say it). */
int ik__learned_platform_ini(FILE *out, const struct ik_trace_reader *r, const struct ik_learned *m,
			    const char *name);

#endif
