/*
 * Replay, internal: the real costs and powers of the replayed states (replay_cost.c), used
 * by the replay engine (replay.c).  Not part of the public API.
 */
#ifndef IDLEKIT_TRACE_REPLAY_INTERNAL_H
#define IDLEKIT_TRACE_REPLAY_INTERNAL_H

#include <stdlib.h>
#include <string.h>

#include "config/result.h"
#include "hw/hw.h"
#include "sim/govreplay.h"
#include "trace/replay.h"

/* The hardware wake source whose exit cost a wake of this cause pays. */
enum ik_wake_source ik__trace_cause_source(enum ik_trace_cause c);

/* Real entry cost of table state `state` (0 for a polling state or without a platform). */
int64_t ik__trace_cost_entry_ns(const struct ik_trace_cost_model *m, const struct ik_driver *drv,
			       int state, struct ik_rng *rng);
/* Real exit cost (the advertised exit latency without a platform; 0 for a polling state). */
int64_t ik__trace_cost_exit_ns(const struct ik_trace_cost_model *m, const struct ik_driver *drv,
			      int state, enum ik_wake_source src, struct ik_rng *rng);
/* Power in mW of table state `state`, and of a busy CPU (0 without a platform). */
int ik__trace_cost_state_mw(const struct ik_trace_cost_model *m, int state);
int ik__trace_cost_active_mw(const struct ik_trace_cost_model *m);
/* Package (uncore) power while not in its deep state, and in it. */
int ik__trace_cost_package_mw(const struct ik_trace_cost_model *m);
int ik__trace_cost_package_idle_mw(const struct ik_trace_cost_model *m);

/*
 * The package deep state on the replayed time lines (replay_package.c), one per run.  A
 * core-off span ends at a wake; the first CPU to wake from a deep package pays the
 * platform's pkg_exit_ns (src/sim/hw_effects.c).  Whether a span's wake does is known only
 * once every CPU of the package is known past it, so the span keeps its wake's latency
 * sample (lat_ns, -1 when its wake is not the period's: a timer or tick before the work's
 * wake) and the sample goes into the run's histogram, with the package exit if paid, when
 * the span is swept.
 */
struct ik_replay_span {
	int64_t from, to;
	int64_t lat_ns; /* the wake latency sample it ends (without the package exit), or -1 */
	int64_t pkg_ns; /* the package exit its wake pays, or 0 */
	bool hold;      /* its CPU's work waits for pkg_ns to be known (ik__replay_pkg_hold) */
};
/*
 * A ring of fixed-size elements (`size` bytes each), growing by doubling from 16 (the
 * capacity a power of two: positions by mask).  The replay's queues: a CPU's core-off spans
 * (here), its held events, tickets and waiters (replay.c).
 */
struct ik_replay_ring {
	char *v;
	size_t head, n, cap, size;
};
static inline void *ik__replay_ring_at(const struct ik_replay_ring *r, size_t i)
{
	return r->v + ((r->head + i) & (r->cap - 1)) * r->size;
}
/* A new last element, NULL out of memory. */
static inline void *ik__replay_ring_push(struct ik_replay_ring *r)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		char *v = malloc(cap * r->size);
		if (!v)
			return NULL;
		for (size_t i = 0; i < r->n; i++)
			memcpy(v + i * r->size, ik__replay_ring_at(r, i), r->size);
		free(r->v);
		r->v = v;
		r->cap = cap;
		r->head = 0;
	}
	return ik__replay_ring_at(r, r->n++);
}
static inline void ik__replay_ring_pop(struct ik_replay_ring *r)
{
	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
}
struct ik_replay_pkg {
	const struct ik_trace_cost_model *model;
	int cpus, npkg;     /* npkg: the packages the trace's CPUs are on */
	int *pkg_of;        /* per CPU */
	int *first, *next;  /* each package's CPUs: first[pkg], then next[cpu] (-1 ends) */
	bool tracked;       /* some replayed state gates its core */
	bool oom;
	struct ik_replay_ring *q; /* per CPU: its core-off spans not swept yet */
	int64_t *swept_ns;  /* per package: its deep time is counted up to here */
	struct ik_rng *rng; /* per package: its pkg_exit_ns draws, seeded from the run's seed */
	struct ik_hist *lat; /* the run's wake latency histogram: the deferred samples go there */
	int64_t deep_ns;    /* summed over packages */
	uint64_t exits;     /* wakes that ended a deep stretch (each paid pkg_exit_ns) */
	uint64_t exits_woken; /* of them, the work's wakes (their latency includes the exit) */
	int64_t exit_ns;    /* the package exits drawn, summed */
	int64_t exit_woken_ns; /* of them, added to wake latency samples */
	/* CPUs whose held span is final (ik__replay_pkg_hold): the caller takes them with
	   ik__replay_pkg_released */
	int *released;
	int64_t *released_ns; /* per CPU: the package exit its held span's wake paid */
	int nreleased;
	/* per CPU: the start of an entry into a gating state whose end is not known yet (its
	   wake waits for another CPU's work), INT64_MAX if none: gated from there on, as far
	   as the CPU is known, and never the wake that ends a deep stretch before that */
	int64_t *open_from;
};
/* CPUs on the platform's packages (none without a platform); -1 out of memory.  lat: where
   the wake latency samples of core-off spans go once swept. */
int ik__replay_pkg_init(struct ik_replay_pkg *p, const struct ik_trace_cost_model *m,
		       const struct ik_driver *drv, int cpus, int64_t start_ns, uint64_t seed,
		       struct ik_hist *lat);
/* CPU `cpu` entered table state `state` at from and was woken at to (its time line grows).
   True if the span was queued (the state gates the core): its wake may pay a package exit. */
bool ik__replay_pkg_idle(struct ik_replay_pkg *p, int cpu, int state, int64_t from, int64_t to);
/* The span just queued for `cpu` ends the wake of the work, whose latency is lat_ns
   (without the package's exit): the sample is added when the span is swept. */
void ik__replay_pkg_wake_latency(struct ik_replay_pkg *p, int cpu, int64_t lat_ns);
/* The span just queued for `cpu` ends the wake of the work, whose start may move by the
   package's exit: when the span is final (swept past), cpu is put on the released list
   with the exit its wake paid (0 if none). */
void ik__replay_pkg_hold(struct ik_replay_pkg *p, int cpu);
/* CPU `cpu` is in table state `state` from `from` on, its wake not known yet (state -1:
   no such entry now).  It must end, by a span queued from `from`, before any other. */
void ik__replay_pkg_open(struct ik_replay_pkg *p, int cpu, int state, int64_t from);
/* The next CPU whose held span is final, and its package exit in *pkg_ns; -1 if none. */
int ik__replay_pkg_released(struct ik_replay_pkg *p, int64_t *pkg_ns);
/* Count package pkg's deep time up to until_ns: every CPU of it is known that far. */
void ik__replay_pkg_sweep(struct ik_replay_pkg *p, int pkg, int64_t until_ns);
/* Every package up to end_ns (the run's end: every time line complete); every deferred
   sample is then in the histogram. */
void ik__replay_pkg_close(struct ik_replay_pkg *p, int64_t end_ns);
void ik__replay_pkg_free(struct ik_replay_pkg *p);

/*
 * replay.c's state: per governor a run, per CPU of the trace its harness and the period it
 * replays.  (replay_run.c sets a run up and fills its result; replay.c drives it.)
 */
struct timer {
	uint64_t id;
	int64_t expires;
};

/* The recorded period in progress on one CPU (the same for every governor). */
struct rec_cpu {
	bool idle, have_wake;
	int rec_state;
	enum ik_trace_cause cause; /* of the wake (IK_CAUSE_NONE: the exit's) */
	int wake_src;              /* a task_wake's source CPU, else -1 */
	int64_t enter_ns, wake_ns, last_exit_ns;
	bool started; /* a period has ended */
	uint64_t pno; /* periods ended so far: the number of the one in progress */
};

/*
 * A recorded event of one CPU that one governor has not applied yet: the CPU's work waits
 * for its package's exit to be known, or for the wake of its period in progress, so its
 * next events wait in order.  An exit carries the period as recorded (the same for every
 * governor).
 */
enum held_kind { HELD_ENTER, HELD_EXIT, HELD_TIMER_START, HELD_TIMER_REMOVE };
struct held {
	enum held_kind kind;
	uint64_t seq;    /* the event's place in the trace */
	int64_t t;       /* recorded time */
	uint64_t id;     /* timers */
	int64_t expires; /* HELD_TIMER_START */
	struct rec_cpu rc; /* HELD_EXIT: the period; HELD_ENTER: rc.started */
};

/*
 * Closed loop: a wake another CPU (src) sends moves by src's delay as it was when the wake
 * was sent (after src's periods that ended before it).  When src's delay is not final then
 * (its work waits), the receiving period's ticket waits on src's waiter list.
 */
struct ticket {
	uint64_t pno;   /* the receiving CPU's period */
	bool resolved;
	int64_t shift_ns;
};
struct waiter {
	int cpu;      /* the receiving CPU */
	uint64_t pno; /* its period */
	uint64_t seq; /* the wake's place in the trace */
};

/* The replay of one period, which can stop where it needs a wake not known yet. */
enum phase { P_START, P_ENTER, P_STEP, P_AFTER, P_CAPPED };
struct period {
	bool active;
	enum phase phase;
	struct rec_cpu rc; /* as recorded */
	int mapped;        /* the recorded state on the replayed table */
	int64_t exit_ns;   /* recorded */
	bool entered, first;
	int64_t now, timer;
	uint64_t entries; /* of this period, not ended by the wake */
	struct ik_govreplay_input in;     /* P_STEP: the entry's inputs */
	struct ik_govreplay_entered e;    /* P_STEP: what was entered */
	enum ik_govreplay_event b_ev;     /* P_STEP: its earliest event but the wake */
	int64_t b_at;
	int last_state;                   /* P_AFTER, P_CAPPED: the state just left */
	uint64_t last_residency_ns;
};

/* One governor on one CPU. */
struct gov_cpu {
	struct ik_govreplay g;
	struct ik_rng rng;
	struct timer timers[IK_TRACE_MAX_TIMERS];
	int ntimers;
	int64_t entry_ns, next_timer_ns; /* of the period in progress, replayed */
	int64_t work_start_ns;           /* replayed: the work after the last period */
	int64_t delay_ns;                /* work_start - recorded exit */
	int64_t idle_ns, in_state_ns, entry_exit_ns;
	double state_mw_ns;              /* in_state time x the state's power */
	bool queued;                     /* the last entry's span waits in the package's queue */
	bool in_period;                  /* the entry of a recorded period is applied, not its exit */
	bool held;                       /* the work start waits for the package's exit */
	struct period pr;                /* the period being replayed (pr.active) */
	struct ik_replay_ring hq;                  /* struct held: the events after, while held or pr.active */
	struct ik_replay_ring tickets;             /* struct ticket, by period */
	struct ik_replay_ring waiters;             /* struct waiter: wakes this CPU sent, in trace order */
	int64_t pos_told;                /* the position its waiters last saw (see position) */
	bool in_work;                    /* on the run's work list */
	uint64_t state_ns[IK_STATE_MAX]; /* real time per state, entry to exit */
};

struct ik_replay_run {
	const struct ik_trace_replay_opts *o;
	struct ik_trace_replay *rp;
	struct gov_cpu *cpu; /* h->cpus */
	int ready;           /* harnesses set up */
	struct ik_replay_pkg pkg; /* the package deep state on this run's time lines */
	bool hold;           /* a package deep state: its exit moves the work */
	bool oom;
	int *work;           /* CPUs to look at again (settle), h->cpus at most */
	int nwork;
	uint64_t progress;   /* periods finished and CPUs released: to see that the end ends */
};

/* replay_run.c: a run's harnesses for the trace's CPUs (0, or -1 with a message), its
   result once the trace is done (0, or -1 when out of memory), and its memory freed. */
int ik__replay_run_setup(struct ik_replay_run *run, const struct ik_trace_header *h, char *err,
			size_t errlen);
int ik__replay_run_finish(struct ik_replay_run *run);
void ik__replay_run_free(struct ik_replay_run *run);

#endif
