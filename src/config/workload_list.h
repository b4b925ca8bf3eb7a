/*
 * The workloads, one line each: X(KIND, name) gives the kind IK_WORKLOAD_KIND and the ops
 * table sim_name_ops that src/sim/workloads/name.c defines.  Adding a workload is its file
 * and its line here: the kind enum (config/scenario.h) and the registry
 * (src/sim/workloads/registry.c) are made from this list.  A kind's number is its place
 * in the list, which nothing stores (files name a workload by its type name), so lines may
 * be added anywhere.
 */
#ifndef IDLEKIT_CONFIG_WORKLOAD_LIST_H
#define IDLEKIT_CONFIG_WORKLOAD_LIST_H

#define IK_WORKLOAD_LIST(X)                                                                  \
	X(PINGPONG, pingpong) /* closed loop: pairs of tasks exchanging messages */           \
	X(PERIODIC, periodic) /* tasks woken by their own timer */                            \
	X(POISSON, poisson)   /* device interrupts with exponential gaps */                   \
	X(IDLE, idle)         /* nothing to do */                                             \
	X(STREAM, stream)     /* busy senders, each feeding a receiver (netperf UDP_STREAM) */ \
	X(SPIN, spin)         /* tasks that never sleep, counting work units */               \
	X(IPI, ipi)           /* one CPU sends IPIs to another every period (wake latency) */ \
	X(SERVER, server)     /* open-loop requests: device interrupt, worker threads, queue */ \
	X(SCHBENCH, schbench) /* schbench: message threads and their workers */               \
	X(RTAPP, rtapp)       /* an rt-app JSON file */                                        \
	X(LEARNED, learned)   /* a model learned from a trace (idlekit workload learn) */

#endif
