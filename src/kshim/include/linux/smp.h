/* idlekit kernel shim: <linux/smp.h>. */
#ifndef __LINUX_SMP_H
#define __LINUX_SMP_H
#include <linux/types.h>
#define smp_processor_id() ((unsigned int)ikk_this_cpu)
#define raw_smp_processor_id() ((unsigned int)ikk_this_cpu)
#endif
