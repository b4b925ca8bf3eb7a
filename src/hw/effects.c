/*
 * Turbo and SMT: the two ways idle states change how fast the busy CPUs run.
 *
 * A core that power-gates (C6, CC6) leaves thermal and current headroom to the others,
 * which then run at a higher turbo frequency: that is why enabling deep states can raise
 * single-thread throughput.  An SMT thread runs slower while its sibling holds
 * the core's resources, by running work or by idling in a state that keeps them (a
 * polling loop, POWER's stop0_lite): why a sibling stuck in a lite state costs
 * throughput.
 */
#include "hw/hw.h"

int ik__effects_mhz(const struct ik_hw_effects *fx, int active)
{
	if (fx->nturbo == 0)
		return fx->base_mhz;
	for (int i = 0; i < fx->nturbo; i++)
		if (active <= fx->turbo_cores[i])
			return fx->turbo_mhz[i];
	return fx->turbo_mhz[fx->nturbo - 1];
}

int64_t ik__effects_duration(const struct ik_hw_effects *fx, int64_t work_ns, int mhz, double smt)
{
	if (work_ns <= 0)
		return 0;
	double scale = 1.0;
	if (fx->base_mhz > 0 && mhz > 0)
		scale = (double)fx->base_mhz / (double)mhz;
	if (smt > 0.0 && smt < 1.0)
		scale /= smt;
	/* Rounded to the nearest ns; exact for the default scale of 1. */
	int64_t d = (int64_t)((double)work_ns * scale + 0.5);
	return d > 0 ? d : 1;
}
