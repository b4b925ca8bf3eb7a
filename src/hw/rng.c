/*
 * Deterministic random numbers: xoshiro256** (Blackman and Vigna), seeded through
 * splitmix64 so that nearby seeds (1, 2, 3...) give unrelated streams.
 *
 * Everything is a function of the four state words: no static state, so two simulations
 * (or two threads) never disturb each other, and the same seed gives the same sequence on
 * every machine.  Floating-point results use only IEEE-exact operations (see detmath.h).
 */
#include "hw/detmath.h"
#include "idlekit/hw.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void ik_rng_seed(struct ik_rng *rng, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&x);
	rng->have_spare = false;
	rng->spare_normal = 0.0;
	/* splitmix64 is a bijection of its counter, so four outputs are never all zero. */
}

uint64_t ik_rng_next(struct ik_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* The top 53 bits as a multiple of 2^-53: every value exact, in [0, 1). */
double ik_rng_unit(struct ik_rng *rng)
{
	return (double)(ik_rng_next(rng) >> 11) * 0x1.0p-53;
}

/*
 * Standard normal by Marsaglia's polar method: no trigonometry, and only log and sqrt
 * (sqrt is exact in IEEE 754).  The method yields two independent values; keeping the
 * second would need state outside struct ik_rng, so it is dropped.
 */
double ik_rng_normal(struct ik_rng *rng)
{
	double u, v, s;
	if (rng->have_spare) {
		rng->have_spare = false;
		return rng->spare_normal;
	}
	do {
		u = 2.0 * ik_rng_unit(rng) - 1.0;
		v = 2.0 * ik_rng_unit(rng) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	double scale = sqrt(-2.0 * ik_det_log(s) / s);
	rng->spare_normal = v * scale;
	rng->have_spare = true;
	return u * scale;
}

/* Exponential with mean 1 by inversion; 1 - u is in (0, 1], so the log is finite. */
double ik_rng_exp(struct ik_rng *rng)
{
	return 0.0 - ik_det_log(1.0 - ik_rng_unit(rng)); /* 0.0 - x: never -0.0 */
}
