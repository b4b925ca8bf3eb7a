/*
 * poisson: device interrupts on every CPU with exponential gaps (workload.irq_rate_hz per
 * CPU); their handlers (irq_work_ns) run in the idle loop.  No tasks.
 */
#include <stdio.h>

#include "sim/workload.h"
#include "util/number_format.h"

static int poisson_max_tasks(const struct ik_workload *w)
{
	(void)w;
	return 0;
}

/* The gap to a CPU's next interrupt. */
static int64_t irq_gap(struct ik_sim *s)
{
	double mean_ns = 1e9 / s->sc->workload.irq_rate_hz;
	int64_t gap = (int64_t)(ik__rng_exp(&s->rng) * mean_ns);

	return gap > 0 ? gap : 1;
}

static int poisson_setup(struct ik_sim *s, char *err, size_t errlen)
{
	if (s->sc->workload.irq_rate_hz > 0)
		for (int cpu = 0; cpu < s->ncpus; cpu++)
			ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_IRQ),
				  s->sc->workload.start_ns + irq_gap(s));
	return sim_tasks_alloc(s, 0) ? sim_workload_oom(err, errlen) : 0;
}

static void poisson_irq(struct ik_sim *s, int cpu)
{
	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_IRQ), s->now + irq_gap(s));
	sim_interrupt(s, cpu, s->sc->workload.irq_work_ns, WAKE_IRQ);
}

static void poisson_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	sim_setting_real(out, "irq_rate_hz", w->irq_rate_hz);
	sim_setting_int(out, "irq_work_ns", w->irq_work_ns);
}

static void poisson_describe(const struct ik_workload *w, char *buf, size_t len)
{
	char a[IK_FMT_NUM_LEN], b[IK_FMT_NUM_LEN];

	ik__fmt_fixed(a, sizeof(a), w->irq_rate_hz, 3);
	ik__fmt_exact(b, sizeof(b), w->irq_work_ns, 3);
	snprintf(buf, len, ": %s interrupts/s per CPU, %s us of work per interrupt", a, b);
}

const struct sim_workload_ops sim_poisson_ops = {
	.name = "poisson",
	.kind = IK_WORKLOAD_POISSON,
	.max_tasks = poisson_max_tasks,
	.setup = poisson_setup,
	.irq = poisson_irq,
	.settings = poisson_settings,
	.describe = poisson_describe,
};
