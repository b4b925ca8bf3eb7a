// idlekit test file that compiles but is no governor: nothing registers one.

#include <linux/kernel.h>

static int __init init_nothing(void)
{
	return 0;
}

postcore_initcall(init_nothing);
