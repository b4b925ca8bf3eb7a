/*
 * An example idlekit governor plugin: "nexttimer", a governor idea in 90 lines.
 *
 * Idea: predict the idle duration as the smaller of the time to the next timer and a
 * running average of the recent idle durations (an exponentially weighted mean, weight 1/8),
 * then take the deepest enabled state whose target residency fits the prediction and whose
 * exit latency fits the PM QoS limit.  Keep the tick when the prediction is shorter than a
 * tick, as menu and teo do.
 *
 * Build (CMake builds it too, as build/examples/nexttimer.so):
 *     cc -std=c11 -O2 -fPIC -shared -I include -o nexttimer.so examples/governor_plugin/nexttimer.c
 * Run:
 *     idlekit sim --set cpuidle.governor=plugin:./nexttimer.so
 *     idlekit govreplay --governor plugin:./nexttimer.so --platform intel-skx --input idles.csv
 * See docs/governor-lab.md.
 */
#include <stdlib.h>

#include <idlekit/governor_plugin.h>

struct nexttimer_cpu {
	int64_t avg_ns;                 /* running mean of the measured idle durations */
	int64_t exit_ns[IK_STATE_MAX];  /* the states' exit latencies, for reflect */
};

static int nexttimer_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	struct nexttimer_cpu *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	c->avg_ns = dev->tick_nsec; /* start by trusting the timers */
	for (int i = 0; i < drv->state_count; i++)
		c->exit_ns[i] = drv->states[i].exit_latency_ns;
	dev->governor_data = c;
	return 0;
}

static void nexttimer_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	free(dev->governor_data);
	dev->governor_data = NULL;
}

static int nexttimer_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	struct nexttimer_cpu *c = dev->governor_data;
	int64_t delta_next;
	int64_t sleep = ik_sleep_length(dev, &delta_next);
	int64_t predicted = sleep < c->avg_ns ? sleep : c->avg_ns;
	int64_t latency_req = ik_latency_req(dev);
	int idx = 0;

	for (int i = 0; i < drv->state_count; i++) {
		if (ik_state_disabled(dev, i))
			continue;
		if (drv->states[i].exit_latency_ns > latency_req)
			break;
		if (drv->states[i].target_residency_ns <= predicted || i == 0)
			idx = i;
	}
	if (predicted < dev->tick_nsec && !ik_tick_stopped(dev))
		*stop_tick = false;
	return idx;
}

static void nexttimer_reflect(struct ik_device *dev, int index)
{
	struct nexttimer_cpu *c = dev->governor_data;
	int64_t measured = (int64_t)dev->last_residency_ns;
	int64_t exit_ns = c->exit_ns[index];

	/* The core measures entry to exit: the exit latency was not idle time. */
	measured = measured > 2 * exit_ns ? measured - exit_ns : measured / 2;
	dev->last_state_idx = index;
	c->avg_ns += (measured - c->avg_ns) / 8;
}

/* select never looks at dev->in.cpu_util: the simulator need not keep it up to date. */
static bool nexttimer_reads_cpu_util(const struct ik_kernel *kernel)
{
	(void)kernel;
	return false;
}

static const struct ik_governor nexttimer = {
	.name = "nexttimer",
	.enable = nexttimer_enable,
	.disable = nexttimer_disable,
	.select = nexttimer_select,
	.reflect = nexttimer_reflect,
	.reads_cpu_util = nexttimer_reads_cpu_util,
};

IK_GOVERNOR_PLUGIN(nexttimer)
