/*
 * The periodic workload's I/O bursts (workload.burst_ios > 0): periodic_iobursts.c, used
 * by periodic.c only.  Their state is the periodic workload's s->wl (NULL without bursts).
 */
#ifndef IDLEKIT_SIM_WORKLOADS_PERIODIC_IOBURSTS_H
#define IDLEKIT_SIM_WORKLOADS_PERIODIC_IOBURSTS_H

#include "sim/workload.h"

int sim_iobursts_setup(struct ik_sim *s); /* 0, or -1 when out of memory */
/* The task's work ended within a period: true if it now waits for an I/O (the completion
   is armed), false when its burst is over and it sleeps until the next period. */
bool sim_iobursts_next(struct ik_sim *s, int task);
void sim_iobursts_irq(struct ik_sim *s, int cpu); /* the completion interrupt (TIMER_IRQ) */
void sim_iobursts_socket_timer(struct ik_sim *s, int cpu); /* the delayed ACK (TIMER_SOCKET) */
void sim_iobursts_free(struct ik_sim *s);

#endif
