// idlekit test governor (written for idlekit, not kernel code): at its 100th decision it
// dereferences NULL (how=0, the default), divides by zero (how=1), calls BUG() (how=2) or
// asks mul_u64_u64_div_u64() for a quotient past 64 bits (how=3, a divide error on x86-64)
// or takes a SIGBUS (how=4: raised, as no kernel code can make one portably here),
// so that idlekit's crash isolation is seen to stop the run there.

#include <linux/kernel.h>
#include <linux/cpuidle.h>
#include <linux/module.h>
#include <linux/math64.h>

static unsigned int decisions;
static int *volatile nowhere;
static volatile int zero;

int raise(int sig); /* the C library's, for how=4 only */

static unsigned int how;
module_param(how, uint, 0444);

static int crash_select(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			bool *stop_tick)
{
	if (++decisions == 100) {
		if (how == 1)
			return drv->state_count / zero;
		if (how == 2)
			BUG();
		if (how == 4)
			raise(7); /* SIGBUS on x86 and arm */
		if (how == 3)
			return (int)mul_u64_u64_div_u64(1ULL << 63, 4 + zero, 1);
		return *nowhere;
	}
	return 1;
}

static struct cpuidle_governor crash_governor = {
	.name =		"crash",
	.rating =	1,
	.select =	crash_select,
};

static int __init init_crash(void)
{
	return cpuidle_register_governor(&crash_governor);
}

postcore_initcall(init_crash);
