/*
 * Deterministic exp() and log() for the hardware model's random numbers.
 *
 * The C library's exp() and log() are accurate to about one unit in the last place, but
 * which way they round differs between libraries and between architectures (some use fused
 * multiply-add, some do not).  A sampled cost is rounded to whole nanoseconds, so a
 * last-bit difference almost never shows, but "almost never" is not "same seed, same
 * output on any machine".  These versions use only +, -, *, / and exact scaling (frexp,
 * ldexp), which IEEE 754 defines to the bit, so they give the same result everywhere.
 *
 * Including this header also turns off floating-point contraction (a*b+c fused into one
 * rounding) for the rest of the including file: a compiler for an FMA machine would
 * otherwise be free to change the last bit of any expression.
 */
#ifndef IDLEKIT_HW_DETMATH_H
#define IDLEKIT_HW_DETMATH_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

#define IK_LN2_HI 6.93147180369123816490e-01 /* ln 2, high 32 bits (exact times small k) */
#define IK_LN2_LO 1.90821492927058770002e-10 /* ln 2 - IK_LN2_HI */
#define IK_LOG2E 1.44269504088896338700e+00

/*
 * frexp(x, e) for a finite x > 0, from the bits for a normal x (the exponent field
 * rebased to [0.5, 1), which is what frexp returns), the library for a subnormal one.
 * Both exact, so the same; the bits cost a few instructions where the call costs a dozen.
 */
static inline double ik__det_frexp(double x, int *e)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof(bits));
	int field = (int)(bits >> 52 & 0x7ff);
	if (field == 0 || field == 0x7ff)
		return frexp(x, e);
	*e = field - 1022;
	bits = (bits & ~((uint64_t)0x7ff << 52)) | (uint64_t)1022 << 52;
	double m;
	memcpy(&m, &bits, sizeof(m));
	return m;
}

/* floor(y) for |y| < 2^52 by truncation to an integer and a step down for a negative
   fraction: exact, so equal to floor(y) (a zero's sign aside, which no caller sees: it
   only multiplies and converts it to int); floor itself for larger |y| or NaN. */
static inline double ik__det_floor(double y)
{
	if (!(y > -4503599627370496.0 && y < 4503599627370496.0))
		return floor(y);
	double t = (double)(int64_t)y;
	return t > y ? t - 1.0 : t;
}

/*
 * Natural logarithm of x > 0 (returns -HUGE_VAL for 0 and NAN for negative or NaN input).
 * x = m * 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(f), f = (m-1)/(m+1), |f| <= 0.172,
 * whose odd series sum f^(2j) / (2j+1), j = 0..12, converges to double precision.  The
 * series is evaluated by Estrin's scheme (pairs, then pairs of pairs) rather than Horner's:
 * the same terms with shorter chains of dependent operations, which the simulator, sampling
 * a cost at every idle exit, feels.
 */

/* log(m * 2^e) for m in [0.5, 1) (what frexp returns): the series above. */
static inline double ik__det_log_of(double m, int e)
{
	if (m < 0.70710678118654752440) {
		m *= 2.0;
		e -= 1;
	}
	double f = (m - 1.0) / (m + 1.0);
	double z = f * f, z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
	double a = (1.0 + z * (1.0 / 3)) + z2 * (1.0 / 5 + z * (1.0 / 7));
	double b = (1.0 / 9 + z * (1.0 / 11)) + z2 * (1.0 / 13 + z * (1.0 / 15));
	double c = (1.0 / 17 + z * (1.0 / 19)) + z2 * (1.0 / 21 + z * (1.0 / 23));
	double series = (a + z4 * b) + z8 * (c + z4 * (1.0 / 25));
	double log_m = 2.0 * f * series;
	return ((double)e * IK_LN2_LO + log_m) + (double)e * IK_LN2_HI;
}

/* ik__det_log for any input: zero, negative, NaN, infinite and subnormal x included. */
static inline double ik__det_log_any(double x)
{
	if (!(x > 0.0))
		return x == 0.0 ? -HUGE_VAL : NAN;
	if (isinf(x))
		return x;
	int e;
	double m = ik__det_frexp(x, &e); /* [0.5, 1) */
	return ik__det_log_of(m, e);
}

/*
 * ik__det_log_any with one test for the usual input, a positive normal number (its exponent
 * field in [1, 0x7fe] and the sign bit clear): then frexp is the bits (ik__det_frexp), so the
 * result is the same.
 */
static inline double ik__det_log(double x)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof(bits));
	if ((bits >> 52) - 1 >= 0x7fe)
		return ik__det_log_any(x);
	int e = (int)(bits >> 52) - 1022;
	bits = (bits & ~((uint64_t)0x7ff << 52)) | (uint64_t)1022 << 52;
	double m;
	memcpy(&m, &bits, sizeof(m));
	return ik__det_log_of(m, e);
}

/*
 * p * 2^k, as ldexp(p, k) gives it, for p in [0.5, 2) (ik__det_exp's polynomial): for k in
 * [-1020, 1020] the product is a normal number, so multiplying by 2^k built from its bits is
 * exact and equal to ldexp's result; outside that range (overflow, subnormals) ldexp itself.
 * The multiplication costs a few instructions where the library call costs dozens.
 */
static inline double ik__det_scale2(double p, int k)
{
	if (k < -1020 || k > 1020)
		return ldexp(p, k);
	uint64_t bits = (uint64_t)(k + 1023) << 52;
	double two_k;
	memcpy(&two_k, &bits, sizeof(two_k));
	return p * two_k;
}

/*
 * e^x.  x = k ln 2 + r with |r| <= ln 2 / 2; e^r by its Taylor series to r^14/14! (the next
 * term is below 1e-17 relative), with the coefficients 1/n! as constants and Estrin's
 * scheme as in ik__det_log, the 1 added last (within 1 ulp of libm), then scaled by 2^k.
 * Overflows to HUGE_VAL above 709.78, underflows to 0 below -745.
 */

/* e^(k ln 2 + r), k an integer, before the scaling by 2^k: the series above. */
static inline double ik__det_exp_series(double x, double k)
{
	double r = (x - k * IK_LN2_HI) - k * IK_LN2_LO;
	double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
	double a = r + r2 * (1.0 / 2 + r * (1.0 / 6));
	double b = (1.0 / 24 + r * (1.0 / 120)) + r2 * (1.0 / 720 + r * (1.0 / 5040));
	double c = (1.0 / 40320 + r * (1.0 / 362880)) + r2 * (1.0 / 3628800 + r * (1.0 / 39916800));
	double d = (1.0 / 479001600 + r * (1.0 / 6227020800.0)) + r2 * (1.0 / 87178291200.0);
	return 1.0 + ((a + r4 * b) + r8 * (c + r4 * d)); /* 1 added last */
}

/* ik__det_exp for any input: NaN, overflow, underflow and subnormal results included. */
static inline double ik__det_exp_any(double x)
{
	if (isnan(x))
		return x;
	if (x > 709.78)
		return HUGE_VAL;
	if (x < -745.2)
		return 0.0;
	double k = ik__det_floor(x * IK_LOG2E + 0.5);
	return ik__det_scale2(ik__det_exp_series(x, k), (int)k);
}

/*
 * ik__det_exp_any with one test for the usual input, |x| <= 706: then x * log2(e) + 1/2 is
 * within +-1019, so it is neither NaN nor out of range, its floor is the truncation stepped
 * down for a negative fraction (ik__det_floor's own path) and k in [-1019, 1019] scales by one
 * exact multiplication (ik__det_scale2's own path): the same operations, so the same result.
 */
static inline double ik__det_exp(double x)
{
	if (!(x >= -706.0 && x <= 706.0))
		return ik__det_exp_any(x);
	double y = x * IK_LOG2E + 0.5;
	double t = (double)(int64_t)y;
	double k = t > y ? t - 1.0 : t;
	uint64_t bits = (uint64_t)((int)k + 1023) << 52;
	double two_k;
	memcpy(&two_k, &bits, sizeof(two_k));
	return ik__det_exp_series(x, k) * two_k;
}

#endif
