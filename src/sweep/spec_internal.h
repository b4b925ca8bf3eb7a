/*
 * idlekit sweep subsystem, internal: what the spec reader (spec_ini.c), its check
 * (check.c), the grid (grid.c) and the rows (rows.c) share below the rest.  The layers go
 * one way: figures.c and spec_ini.c at the bottom, then grid.c, then check.c and rows.c,
 * then the runner, the reports, merge and slurm.
 */
#ifndef IDLEKIT_SWEEP_SPEC_INTERNAL_H
#define IDLEKIT_SWEEP_SPEC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "config/scenario.h"
#include "report/report_internal.h"
#include "sweep/sweep.h"

/* The report's figure behind sweep figure `figure` (0 .. ik__sweep_figure_count()-1). */
enum ik_rep_figure ik__sweep_figure_rep(int figure);

/*
 * The scenario of a point (the base, the overrides, then each axis's value), with the
 * scenario reader's own message on failure ("--set KEY=VALUE: ..."), which the spec check
 * puts at the spec's line; ik__sweep_point_load says which point instead.
 */
int ik__sweep_point_scenario(const struct ik_sweep_spec *s, int64_t point, struct ik_scenario *sc,
			    char *msg, size_t msglen);

#endif
