/*
 * The PELT-like utilisation signal (sim/pelt.h).  The arithmetic follows what
 * kernel/sched/pelt.c computes for a cfs_rq's util_avg (Linux 6.6): time in 1024 ns units,
 * periods of 1024 units, the sum decayed by y per period with y^32 = 1/2, an update's time
 * split into the rest of the period it started in (d1), whole periods (d2) and the start
 * of the current one (d3), and the average taken over the largest sum reachable at the
 * current position in the period.
 */
#include "sim/pelt.h"

/* High 64 bits of a x b (a 0.64 fixed-point product), from 32-bit halves. */
static uint64_t mul_hi64(uint64_t a, uint64_t b)
{
	uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32;
	uint64_t b_lo = b & 0xffffffffu, b_hi = b >> 32;
	uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
	uint64_t mid = (lo_lo >> 32) + (hi_lo & 0xffffffffu) + (lo_hi & 0xffffffffu);

	return a_hi * b_hi + (hi_lo >> 32) + (lo_hi >> 32) + (mid >> 32);
}

/* y^32 for y in 0.64 fixed point (five squarings, each truncated). */
static uint64_t pow32(uint64_t y)
{
	for (int i = 0; i < 5; i++)
		y = mul_hi64(y, y);
	return y;
}

void ik__pelt_consts_init(struct ik_pelt_consts *k)
{
	/* y = 2^(-1/32): the largest 0.64 value whose 32nd power is at most 1/2 */
	uint64_t lo = UINT64_C(1) << 63, hi = UINT64_MAX;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (pow32(mid) <= UINT64_C(1) << 63)
			lo = mid;
		else
			hi = mid;
	}
	/* y^n x (2^32 - 1), rounded down, as the kernel's table is made */
	uint64_t yn = lo;
	k->y_inv[0] = UINT32_MAX;
	for (int n = 1; n < IK_PELT_PERIOD; n++) {
		k->y_inv[n] = (uint32_t)mul_hi64(yn, UINT32_MAX);
		yn = mul_hi64(yn, lo);
	}
	/* the fixed point of max = max y + 1024 with the table's y, truncating each step */
	uint64_t max = IK_PELT_SCALE;
	for (;;) {
		uint64_t next = ((max * k->y_inv[1]) >> 32) + IK_PELT_SCALE;
		if (next == max)
			break;
		max = next;
	}
	k->load_avg_max = (uint32_t)max;
}

uint64_t ik__pelt_decay(const struct ik_pelt_consts *k, uint64_t val, uint64_t n)
{
	if (n > (uint64_t)IK_PELT_PERIOD * 63)
		return 0;
	val >>= n / IK_PELT_PERIOD;
	uint64_t m = k->y_inv[n % IK_PELT_PERIOD];
	/* val x m / 2^32 rounded down, without overflow for any val */
	return (val >> 32) * m + (((val & 0xffffffffu) * m) >> 32);
}

void ik__pelt_update_periods(const struct ik_pelt_consts *k, struct ik_pelt *p, uint64_t units,
			    bool running)
{
	uint64_t total = units + p->period_contrib;
	uint64_t periods = total / 1024, d3 = total % 1024;

	/* the old sum decays by y^periods; the new time's part is the rest of the old period
	   (d1) decayed as much, the whole periods between (d2: 1024 y^1 + ... + 1024 y^(p-1),
	   from the sum of the series), and the start of the current period (d3) at weight 1 */
	p->util_sum = ik__pelt_decay(k, p->util_sum, periods);
	if (running) {
		uint64_t d1 = ik__pelt_decay(k, 1024 - p->period_contrib, periods);
		uint64_t d2 = k->load_avg_max - ik__pelt_decay(k, k->load_avg_max, periods) - 1024;
		p->util_sum += (d1 + d2 + d3) << 10;
	}
	p->period_contrib = (uint32_t)d3;
	p->util_avg = (uint32_t)(p->util_sum / (k->load_avg_max - 1024 + p->period_contrib));
}
