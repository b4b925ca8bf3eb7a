/*
 * idlekit: the simulator.  One call runs one scenario for one seed on the modelled
 * platform: the kernel's idle loop, the chosen driver and governor, the workload, and the
 * hardware's real costs.  No global state: runs may go on in parallel threads.
 */
#ifndef IDLEKIT_SIM_H
#define IDLEKIT_SIM_H

#include "idlekit/result.h"
#include "idlekit/scenario.h"

/*
 * Run sc with the given seed.  On success fills *out (free with ik_run_result_free) and
 * returns 0; on failure returns -1 with a message in err.
 */
int ik_sim_run(const struct ik_scenario *sc, uint64_t seed, struct ik_run_result *out,
	       char *err, size_t errlen);

#endif
