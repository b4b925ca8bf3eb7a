/* idlekit kernel shim: <trace/events/power.h>: the tracepoints are no-ops (arguments checked). */
#if !defined(_TRACE_POWER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_POWER_H
#include <linux/types.h>
static inline void trace_cpu_idle(unsigned int state, unsigned int cpu_id) { (void)state; (void)cpu_id; }
static inline void trace_cpu_idle_miss(unsigned int cpu_id, unsigned int state, bool below)
{ (void)cpu_id; (void)state; (void)below; }
static inline void trace_guest_halt_poll_ns(bool grow, unsigned int new, unsigned int old)
{ (void)grow; (void)new; (void)old; }
#define trace_guest_halt_poll_ns_grow(new, old) trace_guest_halt_poll_ns(true, new, old)
#define trace_guest_halt_poll_ns_shrink(new, old) trace_guest_halt_poll_ns(false, new, old)
#endif
