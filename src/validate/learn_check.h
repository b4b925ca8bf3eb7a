/*
 * Does a learned workload reproduce the trace it was learned from?  The model runs once on
 * the trace's own platform (the scenario `workload learn` wrote) and, per CPU, its idle
 * share and idle entries per second are set beside the recording's, and the wake-cause
 * mix of all CPUs beside the recording's; a figure further off than the bounds below is
 * named in a warning.
 */
#ifndef IDLEKIT_VALIDATE_LEARN_CHECK_H
#define IDLEKIT_VALIDATE_LEARN_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "config/scenario.h"

/* A figure is off when it differs by more than this share of the recorded value ... */
#define IK_LEARN_CHECK_REL 0.10
/* ... and by more than these, so that a nearly busy CPU's 0.2 % idle is not "off" by 50 %:
   percentage points of idle share, entries per second, percentage points of a cause's
   share. */
#define IK_LEARN_CHECK_IDLE_PP 1.0
#define IK_LEARN_CHECK_ENTRIES 1.0
#define IK_LEARN_CHECK_MIX_PP 10.0

/* The wake causes grouped as the model makes them: its own timers (timer, tick and the
   tick's periods in the simulation), wake-ups from another CPU (ipi, remote), and device
   interrupts with the rest. */
enum { IK_LEARN_MIX_TIMER, IK_LEARN_MIX_REMOTE, IK_LEARN_MIX_IRQ, IK_LEARN_MIX_COUNT };

struct ik_learn_check_cpu {
	double rec_idle_pct, sim_idle_pct;
	double rec_entries_per_s, sim_entries_per_s;
	bool idle_off, entries_off;
};

struct ik_learn_check {
	int cpus;
	struct ik_learn_check_cpu *cpu; /* cpus entries */
	double rec_s, sim_s;            /* the recording's length, the simulated window's */
	double rec_mix_pct[IK_LEARN_MIX_COUNT], sim_mix_pct[IK_LEARN_MIX_COUNT];
	bool mix_off[IK_LEARN_MIX_COUNT];
	int off; /* how many figures are off */
};

/* Analyse the trace at trace_path, run sc (its learned workload) once with its seed, and
   compare: 0, or -1 with a message (the trace unreadable, the run failing). */
int ik__learn_check(const char *trace_path, const struct ik_scenario *sc,
		   struct ik_learn_check *out, char *err, size_t errlen);
/* The table (figure, recorded, simulated, difference) on out, one warning line per figure
   that is off on warn, each starting with prefix ("idlekit workload learn"). */
int ik__learn_check_print(const struct ik_learn_check *c, FILE *out, FILE *warn,
			 const char *prefix);
void ik__learn_check_free(struct ik_learn_check *c);

#endif
