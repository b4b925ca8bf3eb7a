/* idlekit kernel shim: <linux/tick.h>: the nohz services, answered from idlekit's model. */
#ifndef _LINUX_TICK_H
#define _LINUX_TICK_H
#include <linux/types.h>
#include <linux/ktime.h>
#include <linux/jiffies.h>
/* Time to the next timer ignoring the tick; *delta_next: to the next clock event. */
ktime_t tick_nohz_get_sleep_length(ktime_t *delta_next);
bool tick_nohz_tick_stopped(void);
bool tick_nohz_tick_stopped_cpu(int cpu);
bool tick_nohz_idle_got_tick(void);
/* When the CPU's next clock event fires (absolute, simulated time): now + delta_next. */
ktime_t tick_nohz_get_next_hrtimer(void);
extern bool tick_nohz_enabled;
#endif
