/*
 * The periodic workload's I/O bursts (workload.burst_ios > 0).
 *
 * Each period's timer wakes the task; it works task_work_ns, submits an I/O and blocks.
 * The CPU idles until the device's completion interrupt, `io` after the submission (an
 * idle period no timer of the CPU announces: the governor's sleep length does not see
 * it).  The handler runs irq_work_ns in the idle loop and wakes the task on its own CPU,
 * which works task_work_ns again, and so on burst_ios times; after the last one the task
 * sleeps until its next period.  So each period leaves burst_ios short, interrupt-driven
 * idle periods and one longer, timer-driven one (the rest of the period).
 *
 * Each CPU waits for at most one I/O at a time (one periodic task per CPU); the
 * completion is the CPU's device-interrupt timer (TIMER_IRQ).
 */
#include <stdlib.h>

#include "sim/sim_internal.h"

struct sim_iobursts {
	int *ios_left; /* per task: I/O waits still to come in this period */
	int *waiter;   /* per CPU: the task waiting for the I/O in flight, -1 = none */
};

int sim_iobursts_setup(struct ik_sim *s)
{
	struct sim_iobursts *b = calloc(1, sizeof(*b));

	if (!b)
		return -1;
	s->iobursts = b;
	b->ios_left = calloc((size_t)(s->ntasks > 0 ? s->ntasks : 1), sizeof(int));
	b->waiter = malloc((size_t)s->ncpus * sizeof(int));
	if (!b->ios_left || !b->waiter)
		return -1;
	for (int i = 0; i < s->ntasks; i++)
		b->ios_left[i] = s->sc->workload.burst_ios;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		b->waiter[cpu] = -1;
	return 0;
}

bool sim_iobursts_next(struct ik_sim *s, int task)
{
	struct sim_iobursts *b = s->iobursts;
	int cpu = s->tasks[task].cpu;

	if (b->ios_left[task] == 0) {
		b->ios_left[task] = s->sc->workload.burst_ios; /* the next period's */
		return false;
	}
	b->ios_left[task]--;
	b->waiter[cpu] = task;
	ik_eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_IRQ), s->now + ik_dist_sample(&s->sc->workload.io, &s->rng));
	return true;
}

void sim_iobursts_irq(struct ik_sim *s, int cpu)
{
	struct sim_iobursts *b = s->iobursts;
	int task = b->waiter[cpu];

	b->waiter[cpu] = -1;
	/* the interrupt wakes the CPU; its handler queues the task there, which runs after it */
	sim_interrupt(s, cpu, s->sc->workload.irq_work_ns, WAKE_IRQ);
	if (task >= 0)
		sim_wake_task(s, task, cpu);
}

void sim_iobursts_free(struct ik_sim *s)
{
	if (!s->iobursts)
		return;
	free(s->iobursts->ios_left);
	free(s->iobursts->waiter);
	free(s->iobursts);
	s->iobursts = NULL;
}
