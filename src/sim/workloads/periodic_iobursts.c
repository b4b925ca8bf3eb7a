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
 *
 * With ack_timer_ns > 0 each round trip is a TCP exchange with a peer: the completion is
 * the peer's reply, and receiving it (re)arms the socket's delayed-ACK timer on this CPU,
 * as tcp_send_delayed_ack() does with sk_reset_timer(): a timer-wheel timer ato jiffies
 * after the current jiffy (the ACK itself goes out with the next request, but the timer
 * is not deleted then: inet_csk_clear_xmit_timer() only clears the pending flag unless
 * INET_CSK_CLEAR_TIMERS is defined, which it is not).  In a steady exchange ato settles at
 * TCP_ATO_MIN = TCP_DELACK_MIN = HZ/25 jiffies, 40 ms (tcp_event_data_recv(): replies
 * closer than TCP_ATO_MIN/2 give ato = ato/2 + TCP_ATO_MIN/2).  While the work goes on the
 * timer is pushed ahead at every reply and never fires; once it stops, the timer is the
 * CPU's next timer event (tick_nohz_get_sleep_length() sees timer-wheel timers), 36-40 ms
 * after the last reply, on a tick boundary.  Its handler finds nothing to send (a short
 * interrupt: irq_work_ns).
 */
#include <stdlib.h>

#include "sim/workloads/periodic_iobursts.h"

static struct sim_iobursts *iobursts_of(struct ik_sim *s)
{
	return s->wl;
}

struct sim_iobursts {
	int *ios_left; /* per task: I/O waits still to come in this period */
	int *waiter;   /* per CPU: the task waiting for the I/O in flight, -1 = none */
};

int sim_iobursts_setup(struct ik_sim *s)
{
	struct sim_iobursts *b = calloc(1, sizeof(*b));

	if (!b)
		return -1;
	s->wl = b;
	s->socket_timers = s->sc->workload.ack_timer_ns > 0;
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
	struct sim_iobursts *b = iobursts_of(s);
	int cpu = s->tasks[task].cpu;

	if (b->ios_left[task] == 0) {
		b->ios_left[task] = s->sc->workload.burst_ios; /* the next period's */
		return false;
	}
	b->ios_left[task]--;
	b->waiter[cpu] = task;
	ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_IRQ), s->now + ik__dist_sample(&s->sc->workload.io, &s->rng));
	return true;
}

void sim_iobursts_irq(struct ik_sim *s, int cpu)
{
	struct sim_iobursts *b = iobursts_of(s);
	int task = b->waiter[cpu];

	b->waiter[cpu] = -1;
	if (s->socket_timers) {
		/* the jiffy grid: the model's ticks fall on multiples of the tick period */
		int64_t tick = s->cpus[cpu].dev.tick_nsec;
		int64_t ato = s->sc->workload.ack_timer_ns / tick;
		ik__eq_arm(&s->eq, cpu_timer_id(cpu, TIMER_SOCKET),
			  (s->now / tick + (ato > 0 ? ato : 1)) * tick);
	}
	/* the interrupt wakes the CPU; its handler queues the task there, which runs after it */
	sim_interrupt(s, cpu, s->sc->workload.irq_work_ns, WAKE_IRQ);
	if (task >= 0)
		sim_wake_task(s, task, cpu);
}

void sim_iobursts_socket_timer(struct ik_sim *s, int cpu)
{
	/* tcp_delack_timer(): the ACK already went out with the next request, or goes now */
	sim_interrupt(s, cpu, s->sc->workload.irq_work_ns, WAKE_TIMER);
}

void sim_iobursts_free(struct ik_sim *s)
{
	struct sim_iobursts *b = iobursts_of(s);

	free(b->ios_left);
	free(b->waiter);
}
