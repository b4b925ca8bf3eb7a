/*
 * idlekit kernel shim: <linux/jiffies.h>: HZ and TICK_NSEC are those of the run, and
 * jiffies counts ticks of the simulated clock: now / TICK_NSEC, from 0 at the start of the
 * run (the kernel starts 5 minutes before its wrap, INITIAL_JIFFIES; idlekit does not).
 * jiffies is a value here: it can be read, not assigned.
 */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H
#include <linux/types.h>
#include <linux/time.h>
#include <linux/limits.h>
#define HZ ikk_hz
#define TICK_NSEC ikk_tick_nsec
#define TICK_USEC ((USEC_PER_SEC + HZ / 2) / HZ)
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)
#define INITIAL_JIFFIES 0UL

u64 ikk_jiffies64(void) __attribute__((visibility("hidden")));
#define jiffies ((unsigned long)ikk_jiffies64())
#define jiffies_64 ikk_jiffies64()
static inline u64 get_jiffies_64(void) { return ikk_jiffies64(); }

/* The comparisons that survive the counter's wrap. */
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
#define time_in_range(a, b, c) (time_after_eq(a, b) && time_before_eq(a, c))
#define time_in_range_open(a, b, c) (time_after_eq(a, b) && time_before(a, c))
#define time_after64(a, b) ((s64)((b) - (a)) < 0)
#define time_before64(a, b) time_after64(b, a)
#define time_after_eq64(a, b) ((s64)((a) - (b)) >= 0)
#define time_before_eq64(a, b) time_after_eq64(b, a)
#define time_is_before_jiffies(a) time_after(jiffies, a)
#define time_is_after_jiffies(a) time_before(jiffies, a)
#define time_is_before_eq_jiffies(a) time_after_eq(jiffies, a)
#define time_is_after_eq_jiffies(a) time_before_eq(jiffies, a)

/*
 * The conversions as v6.19's (include/linux/jiffies.h, kernel/time/time.c) compute them
 * on a 64-bit machine, for the run's HZ: exact where HZ divides the unit, else by the
 * reduced fraction unit/HZ (timeconst's NUM/DEN); from jiffies rounded down except
 * jiffies_to_msecs(), which rounds up; to jiffies rounded up (a wait is at least as long as
 * asked) except nsecs_to_jiffies(), which rounds down; the results cut to the kernel's
 * types where the kernel's are.
 */
static inline unsigned long __ikk_gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;
		a = b;
		b = t;
	}
	return a;
}
static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	unsigned long hz = (unsigned long)HZ, g = __ikk_gcd(MSEC_PER_SEC, hz);
	if (hz <= MSEC_PER_SEC && MSEC_PER_SEC % hz == 0)
		return (unsigned int)((MSEC_PER_SEC / hz) * j);
	if (hz > MSEC_PER_SEC && hz % MSEC_PER_SEC == 0)
		return (unsigned int)((j + hz / MSEC_PER_SEC - 1) / (hz / MSEC_PER_SEC));
	return (unsigned int)((j * (MSEC_PER_SEC / g) + hz / g - 1) / (hz / g));
}
static inline unsigned int jiffies_to_usecs(const unsigned long j)
{
	unsigned long hz = (unsigned long)HZ, g = __ikk_gcd(USEC_PER_SEC, hz);
	if (USEC_PER_SEC % hz == 0)
		return (unsigned int)((USEC_PER_SEC / hz) * j);
	return (unsigned int)(j * (USEC_PER_SEC / g) / (hz / g));
}
/* (In microseconds first, cut to 32 bits, as the kernel's inline does.) */
static inline u64 jiffies_to_nsecs(const unsigned long j)
{
	return (u64)jiffies_to_usecs(j) * NSEC_PER_USEC;
}
static inline u64 jiffies64_to_nsecs(u64 j)
{
	u64 hz = (u64)HZ, g = __ikk_gcd(NSEC_PER_SEC, hz);
	if (NSEC_PER_SEC % hz == 0)
		return (NSEC_PER_SEC / hz) * j;
	return j * (NSEC_PER_SEC / g) / (hz / g);
}
static inline u64 jiffies64_to_msecs(u64 j)
{
	u64 hz = (u64)HZ, g = __ikk_gcd(MSEC_PER_SEC, hz);
	return j * (MSEC_PER_SEC / g) / (hz / g);
}
/*
 * v (ms or us, per_sec a second's) in jiffies: where HZ divides per_sec, rounded up; where
 * HZ is a multiple of per_sec, multiplied; else by the kernel's reciprocal (timeconst.bc,
 * computed here for the run's HZ): the smallest shift s whose multiplier ceil(2^s HZ /
 * per_sec) reaches 2^31, and the adjustment floor(2^s (d - 1) / d), d = per_sec reduced
 * by gcd(HZ, per_sec): ceil(v HZ / per_sec), or one more for some v in the upper half of
 * the 32-bit range, as in the kernel.  (usecs_to_jiffies() gives MAX_JIFFY_OFFSET above
 * jiffies_to_usecs(MAX_JIFFY_OFFSET), which wraps: 1431649098 us at HZ 300.)
 */
static inline unsigned long __ikk_to_jiffies(unsigned int v, u64 per_sec)
{
	u64 hz = (u64)HZ, mul = 0, d = per_sec / __ikk_gcd(hz, per_sec);
	unsigned s;
	if (per_sec % hz == 0)
		return (unsigned long)(((u64)v + per_sec / hz - 1) / (per_sec / hz));
	if (hz % per_sec == 0)
		return (unsigned long)((u64)v * (hz / per_sec));
	for (s = 0; s < 63; s++) {
		mul = (u64)((((unsigned __int128)1 << s) * hz + per_sec - 1) / per_sec);
		if (mul >= (1ULL << 31))
			break;
	}
	u64 adj = (u64)((((unsigned __int128)1 << s) * (d - 1)) / d);
	return (unsigned long)((mul * v + adj) >> s);
}
/* A negative count of milliseconds, as int, means "for ever" (MAX_JIFFY_OFFSET). */
static inline unsigned long msecs_to_jiffies(const unsigned int m)
{
	if ((int)m < 0)
		return (unsigned long)MAX_JIFFY_OFFSET;
	if (HZ > MSEC_PER_SEC && m > jiffies_to_msecs((unsigned long)MAX_JIFFY_OFFSET))
		return (unsigned long)MAX_JIFFY_OFFSET;
	return __ikk_to_jiffies(m, MSEC_PER_SEC);
}
static inline unsigned long usecs_to_jiffies(const unsigned int u)
{
	if (u > jiffies_to_usecs((unsigned long)MAX_JIFFY_OFFSET))
		return (unsigned long)MAX_JIFFY_OFFSET;
	return __ikk_to_jiffies(u, USEC_PER_SEC);
}
static inline u64 nsecs_to_jiffies64(u64 n)
{
	if (NSEC_PER_SEC % HZ == 0)
		return n / (u64)(NSEC_PER_SEC / HZ);
	if (HZ % 512 == 0)
		return n * (u64)HZ / 512 / (u64)(NSEC_PER_SEC / 512);
	return n * 9 / ((9ULL * NSEC_PER_SEC + (u64)HZ / 2) / (u64)HZ);
}
static inline unsigned long nsecs_to_jiffies(u64 n) { return (unsigned long)nsecs_to_jiffies64(n); }
#endif
