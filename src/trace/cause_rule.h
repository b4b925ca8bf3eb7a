/*
 * The wake-cause rule of an idle period (docs/trace-format.md, "Meaning"), one definition
 * for import's writer, which decides from the kernel's events which one it writes as the
 * period's `wake` (import_writer.c: every import format and `idlekit record`), and for
 * analyze, which reads the causes back from a trace's events (analyze.c).
 *
 * A period wants a cause from its entry until one is found.  An interrupt-like event (an
 * IRQ, an IPI or an IPI sent to the CPU, a softirq, a timer or the tick) is the cause if it
 * comes inside the period, or after its exit by at most IK_TRACE_WAKE_AFTER_EXIT_NS and
 * before the CPU did anything else (the kernel handles the waking interrupt inside the
 * idle state, or once the state has returned); a wake-up from another CPU is the cause
 * only inside the period (after the exit the CPU was already awake).
 */
#ifndef IDLEKIT_TRACE_CAUSE_RULE_H
#define IDLEKIT_TRACE_CAUSE_RULE_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/analyze.h" /* IK_TRACE_WAKE_AFTER_EXIT_NS */

struct ik_cause_period {
	bool idle;       /* between its entry and its exit */
	bool want;       /* entered, no cause found yet */
	bool busy;       /* since the exit the CPU did something of its own */
	int64_t exit_ns; /* when it exited */
};

static inline void ik__cause_enter(struct ik_cause_period *p)
{
	p->idle = p->want = true;
	p->busy = false;
}

static inline void ik__cause_exit(struct ik_cause_period *p, int64_t t_ns)
{
	p->idle = p->busy = false;
	p->exit_ns = t_ns;
}

/* The CPU did something (a switch, a timer armed or cancelled, tick_stop, a wake-up or an
   IPI it sent): after the exit, a later interrupt is no longer the wake's. */
static inline void ik__cause_did(struct ik_cause_period *p)
{
	if (!p->idle)
		p->busy = true;
}

/* Is an interrupt-like event at t_ns the period's cause? */
static inline bool ik__cause_takes(const struct ik_cause_period *p, int64_t t_ns)
{
	return p->want &&
	       (p->idle || (!p->busy && t_ns - p->exit_ns <= IK_TRACE_WAKE_AFTER_EXIT_NS));
}

/* Is a wake-up sent from another CPU the period's cause? */
static inline bool ik__cause_takes_remote(const struct ik_cause_period *p)
{
	return p->want && p->idle;
}

#endif
