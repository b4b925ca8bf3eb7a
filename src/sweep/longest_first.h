/*
 * Which of a set of runs sharing fewer CPUs go on: those with the most CPU time left
 * (longest remaining first).  With good estimates that ends the whole set soonest: the
 * longest run is never the one kept waiting, and the others fill the CPUs beside it.
 */
#ifndef IDLEKIT_SWEEP_LONGEST_FIRST_H
#define IDLEKIT_SWEEP_LONGEST_FIRST_H

#include <stdbool.h>

struct ik_lf_run {
	double left_s; /* CPU seconds it still needs (INFINITY: not estimated yet) */
	bool live;     /* started and not finished */
	bool running;  /* going on now (not waiting for its turn) */
};

/*
 * Whether run `me` of r[0..n-1] is among the `slots` live runs that go on: ranked by
 * left_s, an unknown estimate first, a running run's counted `keep` (>= 1) times larger so
 * that two runs with about the same time left do not take turns at every look; ties by
 * index.
 */
bool ik__lf_goes_on(const struct ik_lf_run *r, int n, int slots, int me, double keep);

#endif
