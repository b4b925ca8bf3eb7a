/*
 * The random draws the simulator makes at every idle exit and wake-up, inline: the
 * generator's step, a uniform in [0, 1), a standard normal (Marsaglia's polar method), and
 * a cost drawn from a constant or lognormal distribution.  src/hw/rng.c and src/hw/dist.c
 * are these same functions for everyone else (ik__rng_next, ik__rng_unit, ik__rng_normal,
 * ik__dist_sample); the simulator calls the inline forms to save a call or two per draw
 * (a few million draws per simulated second).  One definition of each, here.
 *
 * Including this header includes hw/detmath.h, which turns off floating-point contraction
 * for the rest of the including file (see there).
 */
#ifndef IDLEKIT_HW_SAMPLE_H
#define IDLEKIT_HW_SAMPLE_H

#include "hw/detmath.h"
#include "hw/hw.h"

/* A lognormal tail can exceed any bound; samples are clipped here (about 11.6 days). */
#define IK_DIST_SAMPLE_MAX_NS 1000000000000000LL

static inline uint64_t ik__rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* xoshiro256** (Blackman and Vigna): one step. */
static inline uint64_t ik__rng_next_inline(struct ik_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = ik__rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ik__rng_rotl(s[3], 45);
	return result;
}

/* The top 53 bits as a multiple of 2^-53: every value exact, in [0, 1). */
static inline double ik__rng_unit_inline(struct ik_rng *rng)
{
	return (double)(ik__rng_next_inline(rng) >> 11) * 0x1.0p-53;
}

/*
 * Standard normal by Marsaglia's polar method: no trigonometry, and only log and sqrt
 * (sqrt is exact in IEEE 754).  The method yields two independent values: the second is
 * kept in the generator for the next call.
 */
static inline double ik__rng_normal_inline(struct ik_rng *rng)
{
	double u, v, s;
	if (rng->have_spare) {
		rng->have_spare = false;
		return rng->spare_normal;
	}
	do {
		u = 2.0 * ik__rng_unit_inline(rng) - 1.0;
		v = 2.0 * ik__rng_unit_inline(rng) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	double scale = sqrt(-2.0 * ik__det_log(s) / s);
	rng->spare_normal = v * scale;
	rng->have_spare = true;
	return u * scale;
}

/* x >= 0 rounded half up, clipped to IK_DIST_SAMPLE_MAX_NS (exact: no libm rounding mode). */
static inline int64_t ik__dist_round_ns(double x)
{
	if (!(x > 0.0))
		return 0;
	if (x >= (double)IK_DIST_SAMPLE_MAX_NS)
		return IK_DIST_SAMPLE_MAX_NS;
	int64_t r = (int64_t)x;
	if (x - (double)r >= 0.5)
		r++;
	return r;
}

/* ik__dist_sample(): constant and lognormal costs here, the other forms in dist.c. */
static inline int64_t ik__dist_sample_inline(const struct ik_dist *d, struct ik_rng *rng)
{
	if (d->kind == IK_DIST_CONSTANT)
		return d->a_ns > 0 ? d->a_ns : 0;
	if (d->kind == IK_DIST_LOGNORMAL) {
		if (d->sigma <= 0.0)
			return d->a_ns > 0 ? d->a_ns : 0;
		return ik__dist_round_ns((double)d->a_ns *
					ik__det_exp(d->sigma * ik__rng_normal_inline(rng)));
	}
	return ik__dist_sample(d, rng);
}

#endif
