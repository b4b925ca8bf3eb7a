/*
 * What a platform file needs from this machine beyond the idle-state table sysfs gives
 * (src/host/calibrate_machine.c, src/host/calibrate.c):
 *
 *   struct ik_host_machine  the CPU as CPUID shows it (vendor, family, model, MONITOR/MWAIT,
 *                           ARAT, the hypervisor and KVM's realtime hint), the haltpoll
 *                           governor's module parameters and cpuidle_haltpoll.force
 *   ik__calibrate_run        the costs sysfs does not give, measured: each idle state's exit
 *                           on a wake-up and on a timer, IPI delivery, the context switch,
 *                           the timer slack of a normal task, both exits again after
 *                           longer idles (100 us - 100 ms), and the ping-pong across two
 *                           CPUs as a check
 *
 * A measurement changes the machine (idle states disabled on one CPU, the haltpoll poll
 * window, a PM QoS limit); every change goes through a journal and is undone before
 * ik__calibrate_run returns, also when it fails or a signal (caught by the caller with
 * ik__signals_catch) stops it.
 */
#ifndef IDLEKIT_HOST_CALIBRATE_H
#define IDLEKIT_HOST_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/host.h"

/* ---- the machine (src/host/calibrate_machine.c) ---------------------------------------- */

struct ik_host_machine {
	bool have_cpuid;      /* read with the CPUID instruction (x86, the live machine only) */
	char vendor[16];      /* "intel", "amd" or "other" */
	int family, model;    /* display family and model, as /proc/cpuinfo shows them */
	bool mwait;           /* CPUID.1:ECX MONITOR */
	bool arat;            /* CPUID.6:EAX ARAT */
	bool hypervisor;      /* CPUID.1:ECX bit 31 */
	bool kvm;             /* leaf 0x40000000 says "KVMKVMKVM" */
	bool kvm_hint_realtime; /* leaf 0x40000001 EDX bit 0 (KVM_HINTS_REALTIME) */
	bool have_haltpoll;   /* ROOT/sys/module/haltpoll/parameters was read */
	uint64_t guest_halt_poll_ns, guest_halt_poll_shrink, guest_halt_poll_grow,
		guest_halt_poll_grow_start;
	bool guest_halt_poll_allow_shrink;
	int haltpoll_force;   /* ROOT/sys/module/cpuidle_haltpoll/parameters/force: -1 none */
};

/*
 * Read what the machine at `root` ("/" = this one) tells: CPUID only for "/", the module
 * parameters from ROOT/sys/module.  Missing parts are left out (the have_ flags say what
 * was read); 0, or -1 with err when a file exists but does not hold what it should.
 */
int ik__host_machine_read(const char *root, struct ik_host_machine *m, char *err, size_t errlen);

/* ---- the measurements (src/host/calibrate.c) ------------------------------------------ */

/* A measured distribution in ns: quantiles of the samples, and a lognormal fitted to them. */
struct ik_calib_dist {
	long n;          /* samples; 0 = not measured */
	int64_t p25, p50, p75, p99, min, max;
	double sigma;    /* lognormal shape from the interquartile range */
};

/* Idle lengths of the exit-by-idle curve: 100 us to 100 ms, those longer than the gap. */
#define IK_CALIB_CURVE_MAX 7

struct ik_calib_state {
	char name[32];
	bool poll;                 /* the polling state (state 0, "POLL"): no IPI wakes it */
	bool measured;
	uint64_t entries;          /* entries into it on the wakee CPU during its wake-ups */
	struct ik_calib_dist wake; /* a wake-up from another CPU, as wakelat measures it */
	struct ik_calib_dist timer; /* a timer of the wakee's own, timer slack 1 ns */
	/* wake minus the IPI (the poll notice for POLL) and the context switch */
	struct ik_calib_dist exit;
	struct ik_calib_dist timer_exit; /* timer minus the context switch */
	/* the wakee CPU's busy time per idle entry during the wake-ups and the timed sleeps:
	   what it runs outside the state in each round (its task, the idle paths) */
	int64_t busy_wake_ns, busy_timer_ns;
	/*
	 * Longer idles (not POLL): the wake-up and the timed sleep's overshoot after each of
	 * ncurve idle lengths longer than the gap, with it alone as above.
	 */
	int ncurve;
	int64_t curve_idle_ns[IK_CALIB_CURVE_MAX];
	struct ik_calib_dist curve_wake[IK_CALIB_CURVE_MAX], curve_timer[IK_CALIB_CURVE_MAX];
};

/* Tries per state when the wake-ups found the CPU busy (another task ran there). */
#define IK_CALIB_TRIES 3

struct ik_calib_config {
	int waker_cpu, wakee_cpu;
	long samples;          /* wake-ups or sleeps per figure */
	int64_t gap_ns;        /* idle time before each wake-up */
	int64_t curve_ns;      /* each longer idle's figure: samples, or as many as fit in
				  this time (at least 15); 0: no curve */
	int64_t ctxsw_ns;      /* how long each ping-pong runs */
	int64_t background_ns; /* how long the idle machine's background is counted (0: not) */
	int64_t poll_wake_ns;  /* the platform's poll notice, taken off POLL's wake-up */
	const struct ik_sysfs *fs; /* the live cpu tree */
	const char *pmqos_dev; /* PM QoS device (IK_PMQOS_DEV, or a test's stand-in) */
	const char *haltpoll_dir; /* ROOT/sys/module/haltpoll/parameters, or NULL */
	/* what is being measured now, for a progress line; may be NULL */
	void (*progress)(void *arg, const char *what, int step, int steps);
	void *arg;
	int (*should_stop)(void); /* non-zero: stop and restore (ik__signals_caught) */
};

struct ik_calib_result {
	int nstates;
	struct ik_calib_state state[IK_STATE_MAX];
	struct ik_calib_dist busy_wake; /* a wake-up of a CPU running another task */
	struct ik_calib_dist ipi;       /* busy_wake minus the context switch */
	int64_t context_switch_ns;      /* per switch, pipe ping-pong on one CPU */
	uint64_t switches_one_cpu;
	int64_t handover_ns;            /* per hand-over, pipe ping-pong across the two CPUs */
	uint64_t switches_two_cpus;
	struct ik_calib_dist oversleep_default; /* timed sleeps with the task's own slack */
	struct ik_calib_dist oversleep_fine;    /* ... with timer slack 1 ns */
	int64_t timer_slack_ns;         /* the difference of the two medians */
	long task_slack_ns;             /* PR_GET_TIMERSLACK of a normal task here */
	int deepest;                    /* the deepest state measured, for the timer figures */
	/* the background: idle entries/s of each CPU while nothing of ours runs, their mean
	   (the platform's [os] background_hz) and range; background_cpus 0: not measured */
	int background_cpus;
	double background_hz, background_min_hz, background_max_hz;
	char notes[512];                /* what was not measured as asked, and why */
};

/*
 * Measure.  The wakee CPU's states are measured one at a time with only that one enabled
 * (POLL by a PM QoS limit of 0, which every governor obeys, the haltpoll governor too,
 * which ignores the disable files); the haltpoll poll window is set to 0 while a state
 * other than POLL is measured.  0, or -1 with err; either way every change is undone.
 */
int ik__calibrate_run(const struct ik_calib_config *c, struct ik_calib_result *r, char *err,
		     size_t errlen);

/* Quantiles and the lognormal of n samples (sorted in place); n may be 0. */
void ik__calib_dist_of(int64_t *samples, long n, struct ik_calib_dist *d);

#endif
