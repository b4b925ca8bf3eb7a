/*
 * Deterministic random numbers: xoshiro256** (Blackman and Vigna), seeded through
 * splitmix64 so that nearby seeds (1, 2, 3...) give unrelated streams.
 *
 * Everything is a function of the four state words: no static state, so two simulations
 * (or two threads) never disturb each other, and the same seed gives the same sequence on
 * every machine.  Floating-point results use only IEEE-exact operations (see detmath.h).
 */
#include "hw/sample.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void ik__rng_seed(struct ik_rng *rng, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&x);
	rng->have_spare = false;
	rng->spare_normal = 0.0;
	/* splitmix64 is a bijection of its counter, so four outputs are never all zero. */
}

/* The generator's step, a uniform and a normal: the inline forms in hw/sample.h. */
uint64_t ik__rng_next(struct ik_rng *rng)
{
	return ik__rng_next_inline(rng);
}

double ik__rng_unit(struct ik_rng *rng)
{
	return ik__rng_unit_inline(rng);
}

double ik__rng_normal(struct ik_rng *rng)
{
	return ik__rng_normal_inline(rng);
}

/* Exponential with mean 1 by inversion; 1 - u is in (0, 1], so the log is finite. */
double ik__rng_exp(struct ik_rng *rng)
{
	return 0.0 - ik__det_log(1.0 - ik__rng_unit(rng)); /* 0.0 - x: never -0.0 */
}
