/*
 * The simulator's inner model, shared by its files: CPUs, tasks, timer ids.
 * Nothing outside src/sim includes this.
 */
#ifndef IDLEKIT_SIM_INTERNAL_H
#define IDLEKIT_SIM_INTERNAL_H

#include "config/result.h"
#include "config/scenario.h"
#include "core/governor_registry.h"
#include "drivers/registry.h"
#include "hw/hw.h"
#include "idlekit/governor.h"
#include "sim/event_queue.h"
#include "sim/pelt.h"

/*
 * Per-CPU timers; a CPU's timer id is cpu * CPU_TIMER_STRIDE + one of these.  The stride
 * is a power of two above CPU_TIMERS: an event's CPU and kind are a shift and a mask, and
 * a CPU's timers start on a cache line of the queue's table.  Ties between timers are
 * broken by id, and cpu * 16 + kind orders any two timers as cpu * 10 + kind would (and
 * the tasks' and global ids still come after all CPUs'), so the stride changes no order.
 */
enum cpu_timer {
	TIMER_TICK,      /* the scheduler tick (armed while the tick runs) */
	TIMER_WAKE,      /* an IPI arriving, or a polling CPU noticing need_resched */
	TIMER_POLL,      /* the poll time limit of a polling state */
	TIMER_EXIT_DONE, /* the idle state's exit is complete */
	TIMER_WORK_DONE, /* the task or interrupt handler that runs ends */
	TIMER_IRQ,       /* the next device interrupt (poisson workload) */
	TIMER_DRIVER,    /* a wake-up timer the idle driver armed for this entry */
	TIMER_HOUSEKEEPING, /* the kernel's own periodic work on this CPU */
	TIMER_IPI,       /* an IPI (ipi workload) arriving */
	TIMER_SOCKET,    /* a timer-wheel timer of the workload's sockets on this CPU (TCP's
			    delayed ACK, iobursts with ack_timer_ms) */
	CPU_TIMERS,
};
#define CPU_TIMER_SHIFT 4
#define CPU_TIMER_STRIDE (1 << CPU_TIMER_SHIFT)
_Static_assert(CPU_TIMERS <= CPU_TIMER_STRIDE, "a CPU's timers fit in its stride");

/* Why a CPU left its idle state. */
enum wake_reason {
	WAKE_TICK,
	WAKE_TIMER, /* an hrtimer: a task's timer, or the driver's */
	WAKE_REMOTE, /* another CPU queued a task: IPI or need_resched seen by polling */
	WAKE_IRQ,
	WAKE_POLL_LIMIT,
};

enum cpu_mode {
	CPU_RUNNING, /* a task or an interrupt handler runs */
	CPU_IDLE,    /* in an idle state since idle_t0 */
	CPU_EXITING, /* leaving it: done at TIMER_EXIT_DONE */
};

/* TASK_THROTTLED: a SCHED_DEADLINE task whose runtime for its period is spent, off the run
   queue with its work unfinished until its replenishment (its task timer; sched_rt.c). */
enum task_state { TASK_BLOCKED, TASK_RUNNABLE, TASK_RUNNING, TASK_THROTTLED };

/* Scheduling policies (sched_rt.c); SCHED_BATCH and SCHED_IDLE run as SCHED_OTHER. */
enum sim_policy { SIM_SCHED_OTHER, SIM_SCHED_FIFO, SIM_SCHED_RR, SIM_SCHED_DEADLINE };
#define SIM_PRIO_DL 100 /* a deadline task's rank: above every RT priority (1..99) */

/* (What the scheduler touches at every wake-up and switch comes first: with hundreds of
   tasks, a task's state is cold whenever its turn comes round.) */
struct sim_task {
	enum task_state state;
	int cpu;        /* where it runs or last ran; the CPU of its timer */
	int peer;       /* pingpong: the other task of the pair */
	int next;       /* run queue link, -1 = end */
	int util_cpu;         /* the CPU whose signal holds it (0 before it first runs: none) */
	bool pinned;
	bool busy_loop;       /* never blocks: runs again as soon as its work ends */
	bool side;            /* a side spinner (side_spin_cpus), not part of the workload */
	bool fixed_time;      /* its work lasts work_ns whatever the frequency (rt-app runtime) */
	bool in_iowait;       /* its sleep is an I/O wait, counted in nr_iowait of iowait_cpu */
	int64_t woken_at; /* when it was woken, for the wake latency; -1 = not a wake-up */
	int64_t work_ns;
	int64_t started_at;   /* when its current work started (after the context switch) */
	int64_t unscaled_ns;  /* added to each work item whatever the frequency (memory-bound copy) */
	struct ik_pelt pelt;  /* its own utilisation, which moves with it (sched.c) */
	int64_t period_start; /* periodic: phase of its timer */
	int pending;          /* stream receiver: messages waiting */
	int timer_cpu;        /* the CPU whose timer list holds its timer, -1 = none */
	int iowait_cpu;
	uint32_t iowait_acc;  /* workload.iowait_pct spread over its sleeps (ppm, see sched.c) */
	/* an affinity of several CPUs (rt-app's cpus; NULL = any CPU, or pinned to cpu):
	   wake-up placement chooses among them (sched.c) */
	const int *aff;
	int naff;
	/* its scheduling policy (sched_rt.c): all zero for SCHED_OTHER */
	enum sim_policy policy;
	int prio;             /* 0 SCHED_OTHER, 1..99 FIFO and RR, SIM_PRIO_DL deadline */
	bool resumed;         /* its work is the rest of an item it was preempted, sliced or
				 throttled in: not a new start (started_at stays) */
	bool cut;             /* its work-done timer ends its RR slice or DL runtime, not its work */
	int64_t seg_start;    /* when its current stretch on the CPU began */
	int64_t seg_wall;     /* the wall time the rest of its item takes from seg_start */
	int64_t item_end;     /* a fixed-time item (runtime): the wall time it ends at */
	int64_t rr_left;      /* SCHED_RR: what is left of its time slice */
	int64_t dl_runtime, dl_deadline, dl_period; /* SCHED_DEADLINE, ns */
	int64_t dl_budget;    /* runtime left in the current period */
	int64_t dl_abs;       /* absolute deadline of the current period */
};

/*
 * (Laid out for the cache: with hundreds of CPUs a CPU's state is cold whenever one of its
 * events comes round, so what the idle loop and the scheduler touch at every idle period
 * comes first, in the struct's first three 64-byte lines (the array is line-aligned), and
 * the cpuidle device, of which each entry reads a few fields, after it.)
 */
struct sim_cpu {
	enum cpu_mode mode;
	int current; /* running task, -1 for an interrupt handler or none */
	int last_task; /* the task that ran last, -1 if none */
	int rq_head, rq_tail, nr_queued;
	/* the idle period in progress */
	int entered;       /* driver table index */
	enum wake_reason reason;
	bool tick_stopped;
	bool in_idle_loop;
	bool driver_exit_done; /* the driver's own exit work (after the hardware's) is done */
	bool core_off;        /* hardware effects: counted in its core's power-gated threads */
	bool watch_leave;     /* leaving lite states after the workload stopped */
	/* rq->nr_iowait: the tasks that last ran here and sleep in an I/O wait */
	unsigned nr_iowait;
	int ntimers;          /* timers of periodic tasks that live on this CPU (timer_tasks) */
	int64_t idle_t0;   /* enter time (local_clock before ->enter) */
	int64_t entry_done; /* the state is really reached */
	int64_t pending_irq_work;
	/* spans, for busy and idle time */
	int64_t span_start;
	int64_t busy_ns;
	int64_t idle_ns;
	double run_power_mw;  /* power of the work running now (frequency-scaled) */
	double busy_energy;   /* mW x ns of the work it ran */
	/* what the scheduler knows of this CPU (docs/model.md, "Scheduler signals"): the
	   PELT-like utilisation of its tasks' running time */
	struct ik_pelt pelt;
	struct ik_cpu_topo topo;
	int *timer_tasks;
	int timer_cap;
	int64_t ipi_sent_at; /* ipi workload: when the IPI now in flight or pending was sent, or -1 */
	int64_t last_work_end;
	unsigned lite_entries; /* watching: its entries into lite states since then */
	_Alignas(64) struct ik_device dev;
} __attribute__((aligned(1024)));
/* 16 lines: a power of two, so that indexing s->cpus[] is a shift (at 960 bytes every
   access multiplied: +0.5 % of a 256-CPU run's instructions).  Growing past it doubles the
   array: move fields out instead. */
_Static_assert(sizeof(struct sim_cpu) == 1024, "struct sim_cpu is 16 cache lines");

/* Per package: how many cores are awake, and since when it is in its deep state. */
struct sim_package {
	int active_cores;
	int64_t deep_since; /* -1 when not deep */
	int64_t deep_ns;    /* accumulated */
};

struct ik_sim {
	const struct ik_scenario *sc;
	const struct ik_platform *plat;
	const struct ik_governor *gov;
	struct ik_governor_inst *gov_inst; /* the instance gov belongs to (owned) */
	struct ik_driver_binding bind;
	const struct ik_driver *drv;
	struct ik_rng rng;
	struct ik_event_queue eq;
	struct ik_pelt_consts pelt_k; /* the PELT decay factors */
	bool track_util;  /* the governor may read sched_cpu_util(): keep the PELT signals */
	bool socket_timers; /* the workload arms TIMER_SOCKET (iobursts with ack_timer_ms) */
	bool policies;      /* a task is not SCHED_OTHER: run queues by priority, preemption
			       (sched_rt.c); false keeps the FIFO run queues exactly */
	uint32_t iowait_ppm;          /* workload.iowait_pct, in parts per million of sleeps */
	int ncpus;
	struct sim_cpu *cpus;
	int ntasks;
	struct sim_task *tasks;
	int *llc_cpus;  /* CPUs grouped by LLC, each group in CPU order */
	int *llc_first; /* llc_first[g] .. llc_first[g+1]-1 index llc_cpus */
	int *llc_pos;   /* llc_pos[cpu] = index of cpu in llc_cpus */
	int *core_off_threads;     /* per core: threads idle in a power-gating state */
	bool effects_trivial;      /* no turbo and no SMT effect: work takes its nominal time */
	struct sim_package *packages;
	int64_t now;
	int64_t latency_req_ns;
	bool measuring;
	/* counters of the measured window */
	uint64_t idle_entries;
	uint64_t wakeups;
	uint64_t ipis;
	uint64_t messages;
	uint64_t bytes;
	uint64_t side_units;
	struct ik_hist wake_latency;
	struct ik_hist leave_lite;
	struct ik_hist leave_lite_entries;
	uint64_t idle_hist[IK_IDLE_HIST_BUCKETS];
	uint64_t idle_time_hist[IK_IDLE_HIST_BUCKETS]; /* ns of those periods */
	struct ik_timeline *timeline; /* timeline.c: captured idle periods, or NULL */
	/* the workload (workload.h): its hooks, and its state (its own file's struct) */
	const struct sim_workload_ops *wl_ops;
	void *wl;
	const void *wl_shared; /* what its prepare made for all runs of the scenario */
	/* its request statistics (in its state), copied into the result; NULL: none */
	const struct ik_request_stats *requests;
	int64_t ipi_handler_ns; /* the handler's work of an IPI sent for its own sake */
};

static inline int cpu_timer_id(int cpu, enum cpu_timer t)
{
	return cpu * CPU_TIMER_STRIDE + (int)t;
}
static inline int task_timer_id(const struct ik_sim *s, int task)
{
	return s->ncpus * CPU_TIMER_STRIDE + task;
}

/* The CPU's utilisation brought up to now, at an idle entry (no task of it runs: the last
   one's running time was accounted when its work ended): what sched_cpu_util() reads.
   0 when the governor never reads it (track_util: the signals are not kept). */
static inline unsigned long sim_cpu_util(struct ik_sim *s, int cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (!s->track_util)
		return 0;
	ik__pelt_update(&s->pelt_k, &c->pelt, s->now, false);
	return c->pelt.util_avg < IK_PELT_SCALE ? c->pelt.util_avg : IK_PELT_SCALE;
}

/* idle_loop.c */
void sim_cpu_idle_enter(struct ik_sim *s, int cpu);
void sim_cpu_wake(struct ik_sim *s, int cpu, enum wake_reason why);
void sim_cpu_exit_done(struct ik_sim *s, int cpu);
void sim_cpu_tick(struct ik_sim *s, int cpu);
void sim_cpu_poll_limit(struct ik_sim *s, int cpu);
void sim_leave_idle_loop(struct ik_sim *s, int cpu);

/* timeline.c: an idle period of cpu in state (driver index) from t0 to s->now ended */
void sim_timeline_idle(struct ik_sim *s, int cpu, int state, int64_t t0);
/* timeline.c: the periods still in progress added, the timeline handed to out (or none) */
void sim_timeline_take(struct ik_sim *s, struct ik_run_result *out);

/* hw_effects.c */
int sim_effects_setup(struct ik_sim *s);
void sim_effects_close(struct ik_sim *s, int64_t end);
/* The slow paths of the three below (a core gated, the turbo and SMT effects). */
void sim_effects_idle_gated(struct ik_sim *s, int cpu);
int64_t sim_effects_wake_gated(struct ik_sim *s, int cpu);
int64_t sim_effects_work_scaled(struct ik_sim *s, int cpu, int64_t work_ns);

/* (The three run at every idle entry, wake-up and piece of work: the common cases, no
   power-gating state and no frequency effect, are inline.) */

/* The CPU is now idle in state `entered` (driver index): power-gate bookkeeping. */
static inline void sim_effects_idle(struct ik_sim *s, int cpu)
{
	const struct sim_cpu *c = &s->cpus[cpu];

	if (c->core_off || !s->plat->effects.state_core_off[s->bind.hw_state[c->entered]])
		return;
	sim_effects_idle_gated(s, cpu);
}

/* The CPU starts leaving its idle state: returns the package's extra exit cost, if any. */
static inline int64_t sim_effects_wake(struct ik_sim *s, int cpu)
{
	return s->cpus[cpu].core_off ? sim_effects_wake_gated(s, cpu) : 0;
}

/* Wall time of work_ns on this CPU now (turbo, SMT), and the power it runs at. */
static inline int64_t sim_effects_work(struct ik_sim *s, int cpu, int64_t work_ns)
{
	if (s->effects_trivial) { /* no turbo table, no SMT effect: work runs as given */
		s->cpus[cpu].run_power_mw = s->plat->active_power_mw;
		return work_ns > 0 ? work_ns : 0;
	}
	return sim_effects_work_scaled(s, cpu, work_ns);
}

/* sched.c */
void sim_wake_task(struct ik_sim *s, int task, int waker_cpu);
void sim_run_next(struct ik_sim *s, int cpu);
void sim_requeue_task(struct ik_sim *s, int task);
void sim_work_done(struct ik_sim *s, int cpu);
void sim_device_irq(struct ik_sim *s, int cpu);
void sim_housekeeping(struct ik_sim *s, int cpu);
void sim_send_ipi(struct ik_sim *s, int cpu);
void sim_ipi_arrives(struct ik_sim *s, int cpu);
/* An IPI's handler starts on this CPU now: its latency is a wake-latency sample. */
void sim_ipi_handled(struct ik_sim *s, int cpu);
void sim_task_timer(struct ik_sim *s, int task);
/* Interrupt work on a CPU: it runs now if the CPU is idle (woken for `why`), or right
   after what it is running or leaving. */
void sim_interrupt(struct ik_sim *s, int cpu, int64_t work, enum wake_reason why);
bool sim_cpu_is_idle(const struct ik_sim *s, int cpu);

/* workload.c: the workload's side as the engine sees it (the hooks: workload.h) */
struct sim_workload_ops;
/* Its tasks and first timers, by s->wl_ops (sim_setup set it). */
int sim_workload_setup(struct ik_sim *s, char *err, size_t errlen);
/* A task finished the work it was woken for: what it does next. */
void sim_workload_task_done(struct ik_sim *s, int task);
/* The task's timer lives on its CPU (t->cpu): that CPU's timer list holds it, for the
   governor's sleep length.  0, or -1 when out of memory. */
int sim_timer_register(struct ik_sim *s, int task);
/* Room for `cap` timers in every CPU's list, so that tasks can move at run time. */
int sim_timer_reserve(struct ik_sim *s, int cap);

/* sched_rt.c: scheduling policies.  Set a task's policy (before it first runs); prio is
   1..99 for FIFO and RR; runtime <= deadline <= period (ns) for DEADLINE. */
void sim_task_set_policy(struct ik_sim *s, int task, enum sim_policy policy, int prio,
			 int64_t runtime, int64_t deadline, int64_t period);
/* Does a run before b (its rank is higher, or both are deadline tasks and a's deadline is
   earlier)? */
bool sim_rt_before(const struct sim_task *a, const struct sim_task *b);
/* Queue task on cpu's run queue by rank: behind its equals (a wake-up, a requeue), or
   before them (head: a task preempted keeps its place at the front). */
void sim_rt_enqueue(struct ik_sim *s, int cpu, int task, bool head);
/* A task was queued on cpu: preempt what runs there if the task ranks higher. */
void sim_rt_check_preempt(struct ik_sim *s, int cpu, int task);
/* A task becomes runnable after blocking: a deadline task's CBS rule (a new deadline and a
   full runtime unless what is left fits in the old one). */
void sim_rt_wakeup(struct ik_sim *s, struct sim_task *t);
/* The wall time a stretch of work starting at start may run before it is cut (RR slice,
   DL runtime left); INT64_MAX for none. */
int64_t sim_rt_limit(struct ik_sim *s, struct sim_task *t);
/* The task stops running at now (its work done, preempted or cut): charge its DL runtime
   and RR slice for the stretch since seg_start. */
void sim_rt_charge(struct ik_sim *s, struct sim_task *t);
/* Its work-done timer cut it (t->cut): the rest of its work kept, then the RR slice
   renewed and the task behind its equals, or the DL task throttled until its
   replenishment.  The CPU then runs its next task or idles (sim_work_done's end). */
void sim_rt_cut(struct ik_sim *s, int cpu, int task);
/* sched_yield(): a deadline task gives up the rest of its runtime for the period (an RT
   or other task just goes behind its equals, as any requeue does). */
void sim_rt_yield(struct ik_sim *s, int task);
/* A throttled deadline task's replenishment (its task timer). */
void sim_rt_replenish(struct ik_sim *s, int task);
/* Wake-up placement of an RT or DL task that is not pinned, its previous CPU busy with a
   task of equal or higher rank: an idle CPU of its LLC, else one whose task ranks lower,
   else prev. */
int sim_rt_select_cpu(const struct ik_sim *s, const struct sim_task *t, int prev);
/* A new task (in zeroed memory): blocked on `cpu`, in no run queue, no pair, no timer. */
void sim_task_init_blocked(struct sim_task *t, int cpu, bool pinned);
/* A blocked task sleeps until `until` on the CPU it last ran on (usleep, nanosleep). */
void sim_task_sleep(struct ik_sim *s, int task, int64_t until);
/* How many task timers the workload needs (timer ids are fixed at set-up). */
int sim_workload_max_tasks(const struct sim_workload_ops *ops, const struct ik_workload *w);
/* The workload's own figures into the result (0, or -1 when out of memory), and its state freed. */
int sim_workload_result(struct ik_sim *s, struct ik_run_result *out);
void sim_workload_free(struct ik_sim *s);

#endif
