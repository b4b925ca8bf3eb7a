/*
 * idlekit: the simulator.  One call runs one scenario for one seed on the modelled
 * platform: the kernel's idle loop, the chosen driver and governor, the workload, and the
 * hardware's real costs.  No global state: runs may go on in parallel threads.
 *
 * The simulator's entry point for its callers (the commands, sweeps); sim_internal.h beside
 * it is the engine's inner model, for src/sim's own files only.
 */
#ifndef IDLEKIT_SIM_H
#define IDLEKIT_SIM_H

#include "config/result.h"
#include "config/scenario.h"

/*
 * Run sc with the given seed.  On success fills *out (free with ik__run_result_free) and
 * returns 0; on failure returns -1 with a message in err.
 */
int ik__sim_run(const struct ik_scenario *sc, uint64_t seed, struct ik_run_result *out,
	       char *err, size_t errlen);

/*
 * A look at a run while it goes on: at(user, now_ns, end_ns) is called from the run's own
 * thread every every_ns of simulated time (now_ns: how far it is, end_ns: where it ends,
 * both from its start).  It may block, which only pauses the run: the result is the same
 * bytes as ik__sim_run's, whatever the watch does.
 */
struct ik_sim_watch {
	void (*at)(void *user, int64_t now_ns, int64_t end_ns);
	void *user;
	int64_t every_ns;
};

/* ik__sim_run with a watch (NULL: none). */
int ik__sim_run_watched(const struct ik_scenario *sc, uint64_t seed,
		       const struct ik_sim_watch *watch, struct ik_run_result *out, char *err,
		       size_t errlen);

/*
 * A run set: what all the runs of one scenario share, made once: the driver probed (each
 * run takes a copy of its binding) and the workload's prepared state (an rt-app or learned
 * file parsed).  Runs of a set may go on in parallel threads; the set is only read.  The
 * scenario must outlive the set.  ik__sim_run is a set of one run.
 */
struct ik_sim_set;
/* 0, or -1 with a message in err (a driver that does not load, a file that does not
   parse, out of memory). */
int ik__sim_set_open(const struct ik_scenario *sc, struct ik_sim_set **out, char *err,
		    size_t errlen);
/* One run of the set's scenario with that seed: as ik__sim_run_watched. */
int ik__sim_set_run(const struct ik_sim_set *set, uint64_t seed, const struct ik_sim_watch *watch,
		   struct ik_run_result *out, char *err, size_t errlen);
void ik__sim_set_close(struct ik_sim_set *set);

#endif
