/*
 * A per-CPU utilisation signal shaped like the kernel's PELT (kernel/sched/pelt.c): the
 * running time of the CPU's tasks, summed over 1024-unit periods (a unit is 1024 ns, so a
 * period is 1.048576 ms) with a weight that halves every 32 periods (y^32 = 1/2), and its
 * average util_avg in [0, 1024] (SCHED_CAPACITY_SCALE).
 *
 * Integer arithmetic only: the decay factors y^n are computed once, in 0.32 fixed point,
 * from an integer bisection for y, so every result is the same on any machine.
 */
#ifndef IDLEKIT_SIM_PELT_H
#define IDLEKIT_SIM_PELT_H

#include <stdbool.h>
#include <stdint.h>

#define IK_PELT_PERIOD 32 /* LOAD_AVG_PERIOD: periods for the weight to halve */
#define IK_PELT_SCALE 1024 /* SCHED_CAPACITY_SCALE */

/* The constants: y^n for n < 32 in 0.32 fixed point (y^0 as 2^32 - 1), and the largest sum
   of 1024 per period the truncating decay reaches (LOAD_AVG_MAX: 47742). */
struct ik_pelt_consts {
	uint32_t y_inv[IK_PELT_PERIOD];
	uint32_t load_avg_max;
};

/* One signal (struct sched_avg, util part). */
struct ik_pelt {
	int64_t last_update_ns; /* advanced in whole 1024 ns units */
	uint64_t util_sum;      /* sum of running units x 1024, decayed */
	uint32_t period_contrib; /* units of the current period already accounted */
	uint32_t util_avg;      /* util_sum / (LOAD_AVG_MAX - 1024 + period_contrib) */
};

void ik__pelt_consts_init(struct ik_pelt_consts *k);

/* val x y^n, as the kernel's decay_load(): 0 after 63 half-lives. */
uint64_t ik__pelt_decay(const struct ik_pelt_consts *k, uint64_t val, uint64_t n);

/* ik__pelt_update() when the time crosses a period boundary. */
void ik__pelt_update_periods(const struct ik_pelt_consts *k, struct ik_pelt *p, uint64_t units,
			    bool running);

/*
 * Account the time from the last update to now_ns as running (a task of this CPU ran all of
 * it) or not.  util_avg changes only when a period boundary is crossed, as the kernel's
 * ___update_load_sum() + ___update_load_avg() do.  A time before the last update resets
 * the clock and changes nothing.
 */
/* (Inline: most updates of a busy simulation stay inside one period; those that cross a
   boundary go to ik__pelt_update_periods(), in pelt.c.) */
static inline void ik__pelt_update(const struct ik_pelt_consts *k, struct ik_pelt *p,
				  int64_t now_ns, bool running)
{
	int64_t delta = now_ns - p->last_update_ns;

	if (delta < 0) {
		p->last_update_ns = now_ns;
		return;
	}
	uint64_t units = (uint64_t)delta >> 10;
	if (units == 0)
		return;
	p->last_update_ns += (int64_t)(units << 10);
	if (units + p->period_contrib >= 1024) {
		ik__pelt_update_periods(k, p, units, running);
		return;
	}
	p->period_contrib += (uint32_t)units;
	if (running)
		p->util_sum += units << 10;
}

/*
 * The same running time for two signals updated at the same instants so far (a CPU and the
 * task it runs, both brought up to the task's start): what they share is worked out once.
 */
static inline void ik__pelt_update_running2(const struct ik_pelt_consts *k, struct ik_pelt *a,
					   struct ik_pelt *b, int64_t now_ns)
{
	int64_t delta = now_ns - a->last_update_ns;
	uint64_t units = delta > 0 ? (uint64_t)delta >> 10 : 0;

	if (a->last_update_ns != b->last_update_ns || units == 0 ||
	    units + a->period_contrib >= 1024 || b->period_contrib != a->period_contrib) {
		ik__pelt_update(k, a, now_ns, true);
		ik__pelt_update(k, b, now_ns, true);
		return;
	}
	a->last_update_ns += (int64_t)(units << 10);
	b->last_update_ns = a->last_update_ns;
	a->period_contrib += (uint32_t)units;
	b->period_contrib = a->period_contrib;
	a->util_sum += units << 10;
	b->util_sum += units << 10;
}

#endif
