/*
 * The engine's side of a workload: who wakes whom, and when.
 *
 * A workload is an ops table, as a cpuidle governor or a scheduling class is: the engine
 * (sim.c, sched.c, idle_loop.c) calls its hooks at the events the workload arranged, and
 * never names a workload.  Each workload lives in its own file of src/sim/workloads/,
 * keeps its state behind s->wl (and what all the runs of a scenario share, such as the
 * file it read, behind s->wl_shared), and is listed once in config/workload_list.h.
 *
 * What the engine gives every workload (workload.c): tasks blocked on a CPU, task timers
 * that the CPU's governor sees in its sleep length, sleeps, pinned pair placement, the
 * side spinners of any workload, and its wake-ups (sim_wake_task, sim_interrupt,
 * sim_send_ipi in sched.c).
 *
 * Adding a workload: a file in src/sim/workloads/ that defines its `const struct
 * sim_workload_ops sim_NAME_ops`, and its line in config/workload_list.h.
 */
#ifndef IDLEKIT_SIM_WORKLOAD_H
#define IDLEKIT_SIM_WORKLOAD_H

#include "sim/sim_internal.h"

struct sim_workload_ops {
	const char *name;          /* workload.type */
	enum ik_workload_kind kind;
	/* Its messages (s->messages, s->bytes) are its throughput: reports show messages/s
	   and MB/s. */
	bool throughput;
	/* Its settings checked against the platform when the scenario is read (and completed:
	   counts from its file, defaults that follow the platform): 0, or -1 from
	   sim_check_fail().  NULL: nothing to check. */
	int (*check)(struct ik_workload *w, struct ik_workload_check *c);
	/* Once for all the runs of a scenario (a run set, ik__sim_set_open): what they share
	   and only read, such as the file it names, parsed once; each run finds it in
	   s->wl_shared.  The engine gives it shared_size zeroed bytes to fill and frees them.
	   0, or -1 with a message (what it filled in already released).  NULL: nothing
	   shared. */
	int (*prepare)(const struct ik_scenario *sc, void *shared, char *err, size_t errlen);
	size_t shared_size;
	/* Releases what prepare put into shared (called once, after the set's last run). */
	void (*unprepare)(void *shared);
	/* How many task timers it needs (timer ids are fixed before set-up). */
	int (*max_tasks)(const struct ik_workload *w);
	/* Make its tasks (s->tasks, s->ntasks), arm their first timers, keep its state in
	   s->wl.  0, or -1 with a message in err (out of memory, or what does not fit the
	   platform).  On failure the engine still calls free. */
	int (*setup)(struct ik_sim *s, char *err, size_t errlen);
	/* A task timer fired.  True when the workload handled it (an arrival clock, a hidden
	   clock, a sender's period); false and the engine wakes the task on its CPU.  NULL:
	   every task timer is the task's own. */
	bool (*task_timer)(struct ik_sim *s, int task);
	/* A task finished the work it was woken for: what it does next.  (A busy-loop task
	   is then queued again by the engine.) */
	void (*task_done)(struct ik_sim *s, int task);
	/* The CPU's device-interrupt timer (TIMER_IRQ), which only the workload arms. */
	void (*irq)(struct ik_sim *s, int cpu);
	/* The CPU's socket timer (TIMER_SOCKET), armed by a workload that sets
	   s->socket_timers. */
	void (*socket_timer)(struct ik_sim *s, int cpu);
	/* An interrupt handler that ran in the idle loop of cpu ended (no task ran). */
	void (*handler_done)(struct ik_sim *s, int cpu);
	/* Its settings as results show them (ik__workload_settings), with the sim_setting_*
	   helpers.  NULL: none but its type. */
	void (*settings)(const struct ik_workload *w, struct ik_workload_settings *out);
	/* What it does in words, after its name: ": 8 pairs, ..." (ik__workload_describe);
	   and the short form for a page's settings.  NULL: nothing after the name. */
	void (*describe)(const struct ik_workload *w, char *buf, size_t len);
	void (*describe_brief)(const struct ik_workload *w, char *buf, size_t len);
	/* Its own figures into the result: 0, or -1 when out of memory.  (Its request
	   statistics, if set-up pointed s->requests at them, the engine copies itself.) */
	int (*result)(struct ik_sim *s, struct ik_run_result *out);
	/* Those figures as the reports list them (ik__workload_figures), with the
	   ik_workload_figures_* helpers; false when run r has none.  NULL: none. */
	bool (*figures)(const struct ik_run_result *r, struct ik_workload_figures *f);
	/* What its state holds freed (also after a failed set-up, with s->wl as set-up left
	   it); called only when s->wl is set, and the engine frees s->wl itself after. */
	void (*free)(struct ik_sim *s);
};

/* sim.c: one run of the scenario with this workload (ik__sim_set_open() takes the one the
   registry lists for the scenario's kind; a test may pass its own). */
struct ik_sim_watch;
int sim_run(const struct ik_scenario *sc, const struct sim_workload_ops *ops, uint64_t seed,
	    const struct ik_sim_watch *watch, struct ik_run_result *out, char *err, size_t errlen);

/* workloads/registry.c: the workload of that kind, or NULL if none is listed. */
const struct sim_workload_ops *sim_workload_ops_of(enum ik_workload_kind kind);

/* The workloads (one file each in src/sim/workloads/, one line each in
   config/workload_list.h). */
#define SIM_WORKLOAD_OPS_DECL(KIND, name) extern const struct sim_workload_ops sim_##name##_ops;
IK_WORKLOAD_LIST(SIM_WORKLOAD_OPS_DECL)
#undef SIM_WORKLOAD_OPS_DECL

/* workloads/check.c: the pieces of checks that several workloads share. */
/* c->key = key, c->msg = the message; returns -1. */
int sim_check_fail(struct ik_workload_check *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Every CPU of the list exists on the platform. */
int sim_check_cpus_exist(struct ik_workload_check *c, const char *key, const int *cpus, int n);
/* Every CPU of workload.cpus exists (spin's spinners, ipi's targets, server's): a check
   hook. */
int sim_check_spin_cpus(struct ik_workload *w, struct ik_workload_check *c);
/* Pinned pairs (workload.placement other than wake_idle) fit the platform. */
int sim_check_pinned_pairs(const struct ik_workload *w, struct ik_workload_check *c);
/* workload.file opens (tried next to the scenario file too); `needs` if none is given. */
int sim_check_file(struct ik_workload *w, struct ik_workload_check *c, const char *needs);

/* workload.c: a setting for ik__workload_settings (the key a string literal). */
void sim_setting_int(struct ik_workload_settings *out, const char *key, int64_t v);
void sim_setting_real(struct ik_workload_settings *out, const char *key, double x);
void sim_setting_text(struct ik_workload_settings *out, const char *key, const char *text);
void sim_setting_us(struct ik_workload_settings *out, const char *key, int64_t ns);
void sim_setting_dist(struct ik_workload_settings *out, const char *key, const struct ik_dist *d);
/* workload.c: the brief description of pairs passing messages (pingpong, stream). */
void sim_describe_pairs_brief(const struct ik_workload *w, char *buf, size_t len);

/* workload.c: what every workload may use. */
/* n tasks, blocked on CPU 0, unpinned, in no pair: 0, or -1 when out of memory. */
int sim_tasks_alloc(struct ik_sim *s, int n);
/* The two CPUs of pinned pair k under workload.placement (same_core, same_package,
   cross_package): 0, or -1 with a message when the pairs do not fit the platform. */
int sim_pinned_pair(const struct ik_sim *s, int k, int *client, int *server, char *err,
		    size_t errlen);
/* The task's first wake-up: its timer at start_ms plus a random part of start_spread_ms.
   0, or -1 when out of memory. */
int sim_task_start_in_spread(struct ik_sim *s, int task);
/* The CPUs unpinned tasks start on, by workload.start_cpus (malloc'd; NULL when out of
   memory). */
int *sim_start_cpu_order(struct ik_sim *s);
/* How late a normal task's hrtimer fires: the platform's [os] timer_slack_ns (the
   default 50 us of the kernel, as `platform calibrate` measures it), 0 when the platform
   does not say it (the built-in platforms). */
static inline int64_t sim_timer_slack(const struct ik_sim *s)
{
	return s->plat->os.present && s->plat->os.timer_slack_ns > 0 ? s->plat->os.timer_slack_ns : 0;
}
/* The common message for a failed allocation in set-up; returns -1. */
int sim_workload_oom(char *err, size_t errlen);

#endif
