/*
 * idlekit: idle traces (docs/trace-format.md).
 *
 * A trace is idlekit's own line-oriented text format: a header describing the machine (HZ,
 * the number of CPUs, each driver's idle-state table and its CPUs) then one event per line
 * (idle entry and exit, wake-ups and their cause, timers started, cancelled, expired), with
 * non-decreasing timestamps.  The reader streams: it holds one read buffer and the header,
 * whatever the length of the trace.  The writer produces the same format.
 *
 * On top of the reader: ik_trace_analyze (per-state residency and mis-predictions with
 * ik_account_entered's definition, wake causes, an idle-duration histogram) and
 * ik_trace_replay (a governor and a state table run through the real core on the trace's
 * wake events, open loop).
 *
 * No global state; every time is in nanoseconds.
 */
#ifndef IDLEKIT_TRACE_H
#define IDLEKIT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "idlekit/cpuidle.h"
#include "idlekit/governor.h"
#include "config/result.h"
#include "util/timeline.h"

#define IK_TRACE_VERSION 1
#define IK_TRACE_MINOR 1 /* 1.1: task_wake, switch, tick_stop (a "1" trace has none of them) */
#define IK_TRACE_MAX_CPUS 8192
#define IK_TRACE_MAX_DRIVERS 8
#define IK_TRACE_MAX_TIMERS 16 /* pending timers per CPU the reader tracks */
#define IK_TRACE_LINE_MAX 4096 /* longest line */
#define IK_TRACE_IRQ_NAME_LEN 32 /* an IRQ's name, NUL included */
#define IK_TRACE_MAX_IRQ_NAMES 4096

enum ik_trace_kind {
	IK_TRACE_IDLE_ENTER,
	IK_TRACE_IDLE_EXIT,
	IK_TRACE_WAKE,
	IK_TRACE_TIMER_START,
	IK_TRACE_TIMER_CANCEL,
	IK_TRACE_TIMER_EXPIRE,
	/* Format 1.1 */
	IK_TRACE_TASK_WAKE, /* a task woken to run on cpu, by src_cpu (sched_waking) */
	IK_TRACE_SWITCH,    /* sched_switch on cpu: arg the previous PID, arg2 the next (0 = idle) */
	IK_TRACE_TICK_STOP, /* timer:tick_stop on cpu: arg 1 if the tick was stopped, 0 if not */
	IK_TRACE_FREQ,      /* power:cpu_frequency of cpu: arg the new frequency in kHz (1.1) */
};

enum ik_trace_cause {
	IK_CAUSE_TIMER,
	IK_CAUSE_TICK,
	IK_CAUSE_IPI,
	IK_CAUSE_IRQ,
	IK_CAUSE_UNKNOWN,
	IK_CAUSE_REMOTE, /* a task_wake from another CPU while idle (format 1.1) */
	IK_CAUSE_SOFTIRQ, /* a softirq with no interrupt traced before it (format 1.1) */
	IK_CAUSE_COUNT,
	IK_CAUSE_NONE = IK_CAUSE_COUNT, /* an idle period with no wake event recorded */
};

struct ik_trace_event {
	int64_t t_ns;
	int cpu;
	enum ik_trace_kind kind;
	int state;                 /* idle_enter: the state index in the CPU's driver table */
	enum ik_trace_cause cause; /* wake */
	int64_t arg;               /* wake irq: the IRQ number (-1 = none); wake softirq: the
				      vector (-1 = none); timer_start: expires;
				      task_wake: the PID (-1 = none); switch: the previous PID;
				      tick_stop: 1 stopped, 0 not */
	int64_t arg2;              /* switch: the next PID */
	int src_cpu;               /* task_wake: the waking CPU; wake ipi: the sender if ipi_src */
	bool ipi_src;              /* wake ipi: src_cpu is its sender (format 1.1) */
	uint64_t timer_id;         /* timer_*: the optional ID (0 if absent) */
};

struct ik_trace_driver {
	struct ik_driver drv; /* the table, normalised by ik_driver_init */
	int first_cpu, ncpus; /* informational */
};

/* The header. */
#define IK_TRACE_MAX_PARAMS 8
#define IK_TRACE_PARAM_KEY_LEN 40
struct ik_trace_param {
	char key[IK_TRACE_PARAM_KEY_LEN];
	uint64_t value;
};

struct ik_trace_header {
	int version;
	int minor; /* 0: "idlekit-trace 1"; 1: "idlekit-trace 1.1" (task_wake, switch, tick_stop) */
	int hz;
	int cpus;
	/* 1.1, optional: the governor that ran ("" if not said) and its module parameters */
	char governor[IK_NAME_LEN];
	int nparams;
	struct ik_trace_param params[IK_TRACE_MAX_PARAMS];
	int ndrivers;
	struct ik_trace_driver drivers[IK_TRACE_MAX_DRIVERS];
	uint8_t *cpu_driver; /* cpus entries: the driver index of each CPU */
	/* 1.1, optional ('cpu CPU PACKAGE CORE' lines): cpus entries, -1 where not said; NULL
	   when the trace says nothing of its topology */
	struct ik_trace_cpu_topo {
		int32_t package, core;
	} *topo;
	/* 1.1, optional ('irq N NAME' lines): the names of the IRQs the wake events give */
	int nirqs;
	struct ik_trace_irq_name {
		int32_t irq;
		char name[IK_TRACE_IRQ_NAME_LEN];
	} *irqs; /* by increasing irq */
};

/*
 * A kernel bitmask from a trace.dat record (ipi_send_cpumask's cpumask): len bytes of
 * unsigned longs of long_size bytes (4 or 8) in the recording machine's byte order, bit c of
 * the whole = CPU c.  Its CPUs below IK_TRACE_MAX_CPUS, ascending, into cpus (at most max):
 * how many, or -1 if long_size is not 4 or 8.
 */
int ik_trace_bitmask_cpus(const void *raw, size_t len, int long_size, bool big_endian,
			  int *cpus, int max);

/* The name of IRQ irq from the header's 'irq' lines, or NULL. */
const char *ik_trace_irq_name(const struct ik_trace_header *h, int64_t irq);
/* Add (or rename) IRQ irq's name in h (kept sorted; a byte that is not printable ASCII or
   is a blank becomes '_', at most IK_TRACE_IRQ_NAME_LEN - 1 bytes kept); 0, or -1 (an
   empty name, out of memory, too many). */
int ik_trace_irq_name_set(struct ik_trace_header *h, int64_t irq, const char *name, size_t len);

/* Return codes. */
enum {
	IK_TRACE_OK = 0,
	IK_TRACE_EOF = 1,     /* ik_trace_next: no more events */
	IK_TRACE_EFAIL = -1,  /* out of memory, read/write failed */
	IK_TRACE_EINPUT = -2, /* bad input: "ORIGIN:LINE: expected ..., got ..." */
};

struct ik_trace_reader;

/*
 * Open a reader on a FILE (read in chunks) or on a buffer in memory (not copied; it must
 * outlive the reader).  The header is read at once.  lenient: a bad event line is skipped
 * and counted instead of stopping the read (a bad header is always an error).
 * Returns IK_TRACE_OK with *out set, or an error with a message in err.
 */
int ik_trace_open_file(FILE *in, const char *origin, bool lenient, struct ik_trace_reader **out,
		       char *err, size_t errlen);
int ik_trace_open_mem(const char *data, size_t len, const char *origin, bool lenient,
		      struct ik_trace_reader **out, char *err, size_t errlen);
const struct ik_trace_header *ik_trace_header(const struct ik_trace_reader *r);
/* The next event: IK_TRACE_OK, IK_TRACE_EOF, or an error with a message. */
int ik_trace_next(struct ik_trace_reader *r, struct ik_trace_event *ev, char *err,
		  size_t errlen);
uint64_t ik_trace_events_read(const struct ik_trace_reader *r);
uint64_t ik_trace_skipped(const struct ik_trace_reader *r); /* lenient: bad lines skipped */
/* With lenient, the message of the first bad line skipped ("" if none). */
const char *ik_trace_first_skip(const struct ik_trace_reader *r);
void ik_trace_close(struct ik_trace_reader *r);

/* The writer: a header then events, checked as the reader checks them. */
int ik_trace_write_header(FILE *out, const struct ik_trace_header *h);
int ik_trace_write_event(FILE *out, const struct ik_trace_event *ev);

/* "timer", "tick", "ipi", "irq", "unknown", "remote", "softirq", "none". */
const char *ik_trace_cause_name(enum ik_trace_cause c);

/* A header with one driver for all CPUs (cpu_driver allocated); free with ..._free. */
int ik_trace_header_init(struct ik_trace_header *h, int hz, int cpus, const struct ik_driver *drv);
void ik_trace_header_free(struct ik_trace_header *h);

/*
 * A synthetic trace for tests and benchmarks (src/trace/generate.c): the header, then about
 * `events` events over h's CPUs, deterministic for a seed.  Each CPU in turn either arms a
 * timer and enters a state (chosen at random among its table) or is woken (a timer when its
 * timer is due, else tick, ipi or irq) and exits; the clock advances 1..4000 ns per event.
 */
int ik_trace_generate(FILE *out, const struct ik_trace_header *h, uint64_t events, uint64_t seed);

/* ---- Analysis (src/trace/analyze.c) ------------------------------------------------------ */

#define IK_TRACE_HIST_BUCKETS IK_IDLE_HIST_BUCKETS /* [0,1us) [1,2us) [2,4us) ... [2^20us, inf) */

struct ik_trace_state_stats {
	uint64_t entries;
	uint64_t min_ns, max_ns, total_ns;
	uint64_t too_deep, too_shallow;
};

struct ik_trace_cpu_stats {
	struct ik_trace_state_stats states[IK_STATE_MAX];
	uint64_t wakes[IK_CAUSE_COUNT + 1];          /* idle periods by cause (+ none) */
	uint64_t too_deep_by_cause[IK_CAUSE_COUNT + 1]; /* too-deep periods by cause ("early") */
	uint64_t too_shallow_by_cause[IK_CAUSE_COUNT + 1]; /* too-shallow periods ("late") */
};

/*
 * A wake event traced after the idle exit is the period's cause only if it comes within
 * this long of the exit and before the CPU did anything else (a switch, a task_wake it
 * sent, a timer it armed or cancelled, tick_stop): the interrupt that woke the CPU, which
 * the kernel handles once the idle state has returned.  A later one (a tick while the CPU
 * is busy) is not.
 */
#define IK_TRACE_WAKE_AFTER_EXIT_NS 50000

/* Periods ended by one IRQ (wake irq N), over all CPUs. */
struct ik_trace_irq_count {
	int64_t irq;
	uint64_t periods, too_deep, too_shallow;
};

/* Remote wake-ups of one CPU by one source CPU. */
struct ik_trace_remote {
	int src;
	uint64_t periods; /* idle periods of the CPU whose cause was a task_wake from src */
};

struct ik_trace_remote_list {
	struct ik_trace_remote *v; /* by increasing src */
	size_t n, cap;
};

struct ik_trace_analysis {
	int cpus;
	struct ik_trace_cpu_stats *cpu; /* cpus entries */
	struct ik_trace_remote_list *remote; /* cpus entries: periods woken from another CPU (a
						remote task_wake, or an IPI whose sender is known), by
						source CPU */
	struct ik_trace_irq_count *irqs; /* by increasing irq */
	size_t nirqs, irqs_cap;
	uint64_t *idle_ns; /* cpus entries: time in counted idle periods */
	/*
	 * idlestat's overlap, from the header's 'cpu' lines (topo; ngroups 0 without them):
	 * per package ("cluster") and per core, the time all of its CPUs were idle at once
	 * (in counted periods), as groups of CPUs
	 */
	/*
	 * P-state residency (format 1.1 'freq' events): per CPU, the time at each frequency
	 * from its first freq event to the last event of the trace, by increasing kHz
	 */
	struct ik_trace_pstates {
		struct ik_trace_pstate {
			uint32_t khz;
			uint64_t ns;
		} *v;
		size_t n, cap;
		uint32_t cur_khz; /* running: 0 before the first freq event */
		int64_t since_ns;
	} *pstates; /* cpus entries */
	bool has_freq;
	int npackages, ncores;
	struct ik_trace_group {
		int32_t package, core; /* core -1: the package's group */
		int cpus;              /* its CPUs */
		int idle;              /* running: how many are idle now */
		int64_t since_ns;      /* running: when the last one went idle */
		uint64_t all_idle_ns;  /* time all were idle at once */
	} *groups; /* npackages packages, then ncores cores */
	/* Format 1.1 with switch events: periods followed by a switch to a task (PID != 0)
	   before the next idle entry, and periods after which none ran (woken for nothing). */
	bool has_switch;
	uint64_t task_periods, empty_periods;
	struct ik_trace_cpu_stats all;  /* summed; states by index (drivers may differ) */
	uint64_t hist[IK_TRACE_HIST_BUCKETS]; /* idle durations, all CPUs */
	uint64_t events, skipped, periods;
	uint64_t open_at_end; /* idle periods still open at the end (not counted) */
	int64_t first_ns, last_ns;
};

/* Read the whole trace and analyse it; free with ik_trace_analysis_free. */
int ik_trace_analyze(struct ik_trace_reader *r, struct ik_trace_analysis *a, char *err,
		     size_t errlen);
/*
 * The same, and the idle periods that overlap tl's window kept in tl (NULL: none).  A trace's
 * window is relative to its first event: tl's origin_ns is set to that event's time and its
 * start_ns moved by as much.
 */
int ik_trace_analyze_timeline(struct ik_trace_reader *r, struct ik_trace_analysis *a,
			      struct ik_timeline *tl, char *err, size_t errlen);
void ik_trace_analysis_free(struct ik_trace_analysis *a);
/* The lower bound of histogram bucket i in ns. */
uint64_t ik_trace_hist_lower_ns(int i);
/* The histogram bucket of an idle duration in ns. */
int ik_trace_hist_bucket(uint64_t ns);
/* Bucket i's range in us for tables: "[2, 4)", "[1048576, inf)". */
void ik_trace_hist_label(int i, char *buf, size_t len);

/* ---- Replay (src/trace/replay.c, replay_cost.c, state_map.c; docs/replay.md) -------------- */

/* Idle entries per recorded period before the CPU is taken to stay in its last state. */
#define IK_TRACE_REENTRY_CAP 10000
/* Governors replayed in one pass over a trace. */
#define IK_TRACE_REPLAY_MAX_GOVS 16

/*
 * The recorded table's states mapped onto the replayed table (src/trace/state_map.c), per
 * driver of the trace: a state with the same name (case ignored) if there is one, else the
 * one at the same depth (a polling state to a polling state; the k-th of n non-polling
 * states to the one at the same relative position among the platform's).  Agreement with
 * the recording compares the mapped state with the governor's choice.
 */
enum ik_trace_map_how { IK_MAP_NAME, IK_MAP_DEPTH, IK_MAP_NONE };
struct ik_trace_state_map {
	int ndrivers;
	int nstates[IK_TRACE_MAX_DRIVERS];
	int to[IK_TRACE_MAX_DRIVERS][IK_STATE_MAX];   /* replayed table index, -1 = none */
	enum ik_trace_map_how how[IK_TRACE_MAX_DRIVERS][IK_STATE_MAX];
	bool identity; /* every recorded state maps to the same index by name */
};
void ik_trace_state_map_build(const struct ik_trace_header *h, const struct ik_driver *drv,
			      struct ik_trace_state_map *m);
const char *ik_trace_map_how_name(enum ik_trace_map_how how); /* "name", "depth", "none" */

/*
 * The real costs and powers of the replayed table's states (src/trace/replay_cost.c): from
 * a platform (the table driver's states mapped to its hardware states), or only the
 * advertised exit latencies when there is none (--platform trace: no energy).
 */
struct ik_platform;
struct ik_trace_cost_model {
	const struct ik_platform *plat; /* NULL: advertised exit latency, no entry cost, no power */
	int hw_state[IK_STATE_MAX];     /* replayed table index -> plat->states[] */
};

/*
 * Open loop (the default): every recorded event keeps its time; an idle entry is at its
 * recorded time unless the replayed exit of the period before ends later (then at that
 * end); a wake that comes before the replayed entry is pending (the CPU does not idle).
 * Closed loop: what the CPU does after a wake is delayed by the replayed exit cost (or made
 * earlier), and so is what follows from it on that CPU: its next idle entry, the timers it
 * arms and their expiries; IRQs keep their recorded times, a remote task_wake and an IPI
 * whose sender is known ('wake ipi SRC') move with the source CPU's delay, other IPIs keep
 * theirs.  docs/replay.md says when to use which.
 */
struct ik_trace_replay_opts {
	const struct ik_driver *drv; /* the table the governor chooses from */
	const struct ik_governor *gov;
	int hz; /* 0 = the trace's */
	const struct ik_haltpoll_params *haltpoll; /* NULL = defaults */
	struct ik_timeline *timeline; /* optional: the replayed idle entries in its window (made
					 relative to the first event, as ik_trace_analyze_timeline) */
	bool closed_loop;
	const struct ik_trace_cost_model *cost; /* NULL: advertised exit latencies, no energy */
	uint64_t seed; /* the real entry/exit costs are drawn from the platform's distributions */
	const struct ik_kernel *kernel; /* the release each CPU's device runs as; NULL: 6.19 */
};

struct ik_trace_replay_cpu {
	struct ik_state_usage states[IK_STATE_MAX];
	uint64_t entries, extra_entries, wake_pending;
	int64_t delay_ns; /* closed loop: how late the CPU's work is at the end of the trace */
};

struct ik_trace_replay {
	int cpus;
	int nstates;
	bool closed_loop;
	struct ik_trace_replay_cpu *cpu;
	struct ik_state_usage all[IK_STATE_MAX];
	uint64_t periods;       /* recorded idle periods */
	uint64_t entries;       /* replayed idle entries (periods + re-entries) */
	uint64_t extra_entries; /* re-entries after a tick, timer or poll-limit wake-up */
	uint64_t wake_pending;  /* recorded periods whose wake came before the replay's entry */
	uint64_t capped;        /* periods cut at IK_TRACE_REENTRY_CAP entries */
	uint64_t agree;         /* first entry of the period: chosen == the mapped recorded state */
	uint64_t compared;
	/* confusion[recorded][chosen] over compared periods */
	uint64_t confusion[IK_STATE_MAX][IK_STATE_MAX];
	uint64_t hist[IK_TRACE_HIST_BUCKETS]; /* replayed idle entries by residency, all CPUs */
	uint64_t skipped;
	int64_t first_ns, last_ns; /* the first and last event's times */
	/*
	 * The what-if figures, in a run result as the simulator fills it (so its reports'
	 * definitions apply: accuracy, residency_pct, avg_power_w): states and counters (usage,
	 * above, below, rejected as the core counted them; time_ns the real time from entry
	 * to the end of the real exit, here and in `all` and per CPU), per
	 * CPU, measured_ns (the traced time, plus the largest delay at the end in closed loop
	 * or the end of a replayed exit past the last event),
	 * busy and idle time, idle entries, wake_latency (per wake: from the wake to the work
	 * starting: the replayed state's real exit cost, or the wait when the wake was pending),
	 * energy_j (has_energy: the cost model has a platform).
	 */
	struct ik_run_result run;
	struct ik_trace_state_map map; /* the recorded states onto the replayed table */
	bool has_energy;
	int64_t entry_exit_ns;   /* summed over entries: time in the real entry and exit */
	double entry_exit_j;     /* their energy (at the platform's active power) */
	double state_j;          /* energy in the idle states proper */
	/* The packages the trace's CPUs are on (the platform's numbering), their energy (at
	   pkg_idle_mw while deep: every CPU of the package in a core-gating state, the time
	   summed in run.package_deep_ns; at pkg_active_mw otherwise). */
	int packages;
	double package_j;
	/* The package's exits (the simulator's pkg_exit_ns, paid by the first CPU to wake from
	   a deep package), how many and their time drawn; of them, those paid by the work's
	   wake of a period, whose wake_latency samples include them (the rest were paid by a
	   tick or timer wake before it, and are counted only). */
	uint64_t package_exits, package_exits_woken;
	int64_t package_exit_ns, package_exit_woken_ns;
	bool package_deep_state; /* a replayed state gates its core: the package can be deep */
};

/* One governor (o) over the trace. */
int ik_trace_replay_run(struct ik_trace_reader *r, const struct ik_trace_replay_opts *o,
			struct ik_trace_replay *out, char *err, size_t errlen);
/* n governors (o[i] -> out[i]) in one pass over the trace; on error none is left to free. */
int ik_trace_replay_many(struct ik_trace_reader *r, const struct ik_trace_replay_opts *o, int n,
			 struct ik_trace_replay *out, char *err, size_t errlen);
void ik_trace_replay_free(struct ik_trace_replay *rp);

/*
 * Reports of a replay of several governors (src/report/trace_replay.c): text side by side,
 * and JSON schema "idlekit.replay/2" (docs/replay.md): top-level trace, platform, settings,
 * and "runs", one object per governor with the figures of an idlekit.sim/1 run object.
 */
struct ik_trace_replay_report {
	const char *origin;   /* the trace */
	const char *platform; /* its name */
	int hz, cpus;
	bool closed_loop, compare;
	uint64_t seed;
	const struct ik_driver *drv; /* the replayed table */
	const struct ik_trace_header *h;
	const struct ik_trace_state_map *map;
	const char *haltpoll_from; /* NULL: no haltpoll run */
	const struct ik_haltpoll_params *haltpoll;
	int nruns;
	const char *const *governors;
	const struct ik_trace_replay *runs;
	const char *package_note; /* what the energy leaves out, or NULL */
	const char *package_exit; /* how the package's exit is charged, or NULL (no deep state) */
};
int ik_report_replay_text(FILE *out, const struct ik_trace_replay_report *r);
int ik_report_replay_json(FILE *out, const struct ik_trace_replay_report *r);

/* ---- Import of other tools' traces (src/trace/import_perf.c) ---------------------------- */

struct ik_trace_import_opts {
	const struct ik_driver *drv; /* the state table; NULL: a generic one, state0..stateN-1
					(0 us latency and residency), N = the deepest state seen + 1 */
	int hz;                      /* the header's HZ; 0 = 250 */
	bool lenient;                /* skip bad lines (counted) instead of stopping */
	/* perf script: perf recorded on CLOCK_MONOTONIC (perf record -k mono), so hrtimer
	   expiry times are on the events' time line: hrtimer_start/cancel/expire_entry become
	   timer_start/cancel/expire (checked: a tick expiry's now= must match its time). */
	bool clock_mono;
	/* IRQ names for the header's 'irq' lines (only nirqs and irqs are read); NULL: none */
	const struct ik_trace_header *irq_names;
};

/*
 * Is a trace on CLOCK_MONOTONIC (src/trace/clock_check.c)?  A tick's hrtimer_expire_entry
 * says now=, the CLOCK_MONOTONIC time its interrupt read; on that clock the event's own
 * time is a few us later (the handlers run between).  The offsets now= - time are kept
 * (count, min, max, the farthest); the tolerance comes from them: twice their spread, at
 * least IK_TRACE_CLOCK_MIN_TOL_NS, at most a tenth of the tick period.  The clock is taken
 * as CLOCK_MONOTONIC when every offset is within the tolerance: a constant offset (another
 * clock) is outside it however small its spread, a drifting one spreads beyond it.
 */
#define IK_TRACE_CLOCK_MIN_TOL_NS 20000
struct ik_trace_clock {
	uint64_t n;
	int64_t min_ns, max_ns;   /* of the offsets now= - event time */
	int64_t far_ns;           /* the offset farthest from 0, */
	int64_t far_t_ns;         /* its event's time, */
	uint64_t far_line;        /* its line (0: not known) */
	int far_cpu;              /* and CPU */
};
void ik_trace_clock_add(struct ik_trace_clock *c, int64_t t_ns, int64_t now_ns, uint64_t line,
			int cpu);
/* The tolerance for HZ hz; true when the offsets say CLOCK_MONOTONIC (false with none). */
bool ik_trace_clock_mono(const struct ik_trace_clock *c, int hz, int64_t *tol_ns);

struct ik_trace_import_stats {
	uint64_t lines;    /* lines read */
	uint64_t used;     /* input events converted (power:cpu_idle, IRQs, IPIs, hrtimer expiry) */
	uint64_t ignored;  /* input events of other kinds (hrtimer_start without clock_mono, ...) */
	uint64_t timers_ignored; /* hrtimer_start/cancel not used (no clock_mono) */
	struct ik_trace_clock clock; /* the tick expiries' now= against their times */
	uint64_t dropped;  /* cpu_idle out of order: an entry while idle, an exit while not
			      (other than the edges below) */
	uint64_t edge_start; /* partial periods at the start: a CPU's first cpu_idle is an exit
				(it was idle when the recording began); not written */
	uint64_t edge_end;   /* partial periods at the end: CPUs still idle (written open) */
	uint64_t ipi_senders; /* IPI wakes whose sender is known (ipi_send_cpu/_cpumask) */
	uint64_t ipi_sends;   /* ipi_send_cpu events read */
	uint64_t ipi_masks;   /* ipi_send_cpumask events read */
	uint64_t ipi_mask_targets; /* the CPUs their masks name, summed */
	uint64_t lost;        /* ftrace text: "[LOST N EVENTS]" lines */
	uint64_t header_lines; /* ftrace / trace-cmd report text: lines before the first event */
	uint64_t late_ticks;  /* ticks and timers after the exit, the CPU busy: not causes */
	uint64_t skipped;  /* lenient: bad lines skipped */
	uint64_t written;  /* trace events written */
	int cpus;
	int nstates;       /* states in the table written */
	bool generic;      /* the generic table was used */
	char first_skip[256];
};

/* The text formats of other tools' traces. */
enum ik_trace_text_format {
	IK_TEXT_PERF_SCRIPT,      /* perf script: COMM PID [CPU] SECONDS.FRACTION: SYS:EVENT: ... */
	IK_TEXT_FTRACE,           /* tracefs trace / trace_pipe: COMM-PID [CPU] FLAGS SECONDS: EVENT: ... */
	IK_TEXT_TRACE_CMD_REPORT, /* trace-cmd report: COMM-PID [CPU] [FLAGS] SECONDS: EVENT: ... */
};

/*
 * A text trace to an idlekit trace on out, streaming: lines are read in chunks, parsed,
 * put back in time order through a reorder window of IK_IMPORT_WINDOW records (stable on
 * equal times), converted and written to a temporary spool; at the end the header (CPUs,
 * table, IRQ names now known) and the spool go to out.  Memory does not grow with the
 * input.  IK_TRACE_OK, or IK_TRACE_EINPUT with "ORIGIN:LINE: expected ..., got ..."
 * (nothing written to out), or IK_TRACE_EFAIL.
 */
int ik_trace_import_text(FILE *in, const char *origin, enum ik_trace_text_format fmt, FILE *out,
			 const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st,
			 char *err, size_t errlen);
/* ik_trace_import_text for perf script (default fields, 6 or 9 decimals). */
int ik_trace_import_perf(FILE *in, const char *origin, FILE *out,
			 const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st,
			 char *err, size_t errlen);

/* One event of another tool's trace (what a reader of its format extracts). */
enum ik_trace_import_kind {
	IK_IMPORT_IDLE, IK_IMPORT_IRQ, IK_IMPORT_IPI, IK_IMPORT_TIMER, IK_IMPORT_TICK,
	IK_IMPORT_WAKING,    /* sched_waking: arg the PID, arg2 the target CPU */
	IK_IMPORT_WAKEUP,    /* sched_wakeup: the same; used only if there is no sched_waking */
	IK_IMPORT_SWITCH,    /* sched_switch: arg the previous PID, arg2 the next */
	IK_IMPORT_TICK_STOP, /* timer:tick_stop: arg success */
	IK_IMPORT_TSTART,    /* hrtimer_start: arg expires, id (written only with clock_mono) */
	IK_IMPORT_TCANCEL,   /* hrtimer_cancel: id (likewise) */
	IK_IMPORT_IPI_SEND,  /* ipi_send_cpu / one CPU of ipi_send_cpumask: arg the target CPU */
	IK_IMPORT_IPI_EXIT,  /* the end of an IPI handler (ipi_exit, irq_vectors:*_exit) */
	IK_IMPORT_SOFTIRQ,   /* softirq_entry: arg the vector */
	IK_IMPORT_FREQ,      /* cpu_frequency: cpu the one changed (cpu_id=), arg kHz, arg2
				the CPU that traced it (text import) */
	IK_IMPORT_KINDS
};
struct ik_trace_import_rec {
	int64_t t_ns;
	uint64_t seq; /* set by ik_trace_import_records: the input order */
	int64_t arg;  /* IDLE: the state index, -1 = exit; IRQ: the IRQ number; see the kinds */
	int64_t arg2;
	uint64_t id;  /* TIMER, TICK, TSTART, TCANCEL: the hrtimer's address (0 unknown) */
	int cpu;      /* 0 .. IK_TRACE_MAX_CPUS-1 */
	int kind;     /* enum ik_trace_import_kind */
};

/*
 * Records in any order (v is reordered) to a trace on out, as ik_trace_import_perf does
 * after parsing: a state outside the table is IK_TRACE_EINPUT ("ORIGIN: expected ...")
 * or, lenient, skipped (st->skipped); then sorted by time (stable) and written.  Sets
 * st's cpus, nstates, generic, dropped and written; the rest of st is the caller's.
 */
/*
 * A sched or tick_stop record (kind IK_IMPORT_WAKING, _WAKEUP, _SWITCH or _TICK_STOP, seen
 * on `cpu`) as the trace event it becomes, for import and record alike: a wake-up is a
 * task_wake on the woken task's CPU from the CPU that woke it, and sched_wakeup counts only
 * when the input has no sched_waking (its CPU is not always the waker's); a PID below 0 is
 * written as 0.  Fills ev's kind, cpu, src_cpu, arg, arg2; false when nothing is written.
 */
bool ik_trace_sched_event(int kind, int cpu, int64_t arg, int64_t arg2, bool have_waking,
			  int cpus, struct ik_trace_event *ev);

int ik_trace_import_records(struct ik_trace_import_rec *v, size_t n, const char *origin,
			    FILE *out, const struct ik_trace_import_opts *o,
			    struct ik_trace_import_stats *st, char *err, size_t errlen);

#endif
