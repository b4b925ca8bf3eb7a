/*
 * idlekit: scenarios (what to simulate) and their INI files.
 *
 * In src/config because its main code is there: scenario_ini.c and platform_ini.c read the
 * files, workload_keys.c holds the workload keys.  The workload kinds' names and checks it
 * declares are the workloads' own (src/sim/workload.c, src/sim/workloads/registry.c and
 * check.c): the types live here, below the simulator, so config can read a scenario without
 * including src/sim.
 */
#ifndef IDLEKIT_SCENARIO_H
#define IDLEKIT_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/binding.h"
#include "hw/hw.h"
#include "config/workload_list.h"
#include "idlekit/kernel.h"

/* A workload's kind: IK_WORKLOAD_PINGPONG ..., one per line of config/workload_list.h. */
enum ik_workload_kind {
#define IK_WORKLOAD_KIND_ENUM(KIND, name) IK_WORKLOAD_##KIND,
	IK_WORKLOAD_LIST(IK_WORKLOAD_KIND_ENUM)
#undef IK_WORKLOAD_KIND_ENUM
	IK_WORKLOAD_KINDS /* how many there are */
};

/* workload.type's name of a kind ("unknown" for none), from the workloads' own files. */
const char *ik__workload_type_name(enum ik_workload_kind kind);
/* Every type's name, indexed by kind, into names[IK_WORKLOAD_KINDS]. */
void ik__workload_type_names(const char *names[IK_WORKLOAD_KINDS]);

/* How a server's requests arrive (open loop: arrivals do not wait for answers). */
/* server: where the requests' interrupts go */
enum ik_irq_affinity {
	IK_IRQ_ONE,    /* all on irq_cpu (one NIC queue, or every queue's IRQ on one CPU) */
	IK_IRQ_SPREAD, /* each on one of the workers' CPUs, at random (RSS over many flows) */
};

enum ik_arrival {
	IK_ARRIVAL_POISSON,  /* exponential gaps */
	IK_ARRIVAL_PERIODIC, /* a fixed gap */
	IK_ARRIVAL_BURSTY,   /* on/off: Poisson during burst_on_ns, nothing for burst_off_ns */
};

enum ik_placement {
	IK_PLACE_SAME_CORE,    /* pinned, the two tasks of a pair on SMT siblings */
	IK_PLACE_SAME_PACKAGE, /* pinned, different cores of one package */
	IK_PLACE_CROSS_PACKAGE,/* pinned, different packages */
	IK_PLACE_WAKE_IDLE,    /* not pinned: previous CPU if idle, else an idle CPU of its LLC */
};

enum ik_start_cpus { IK_START_CPUS_IN_ORDER, IK_START_CPUS_SHUFFLED };

/* The names of workload.placement, arrival and irq_affinity values ("unknown" for none). */
const char *ik__workload_placement_name(enum ik_placement p);
const char *ik__workload_arrival_name(enum ik_arrival a);
const char *ik__workload_irq_affinity_name(enum ik_irq_affinity a);

struct ik_workload {
	enum ik_workload_kind kind;
	/* pingpong */
	int pairs;
	int64_t work_ns;     /* CPU time per message, each side */
	int64_t msg_bytes;   /* payload per message, for MB/s */
	enum ik_placement placement;
	/* periodic */
	int tasks;
	int64_t period_ns;
	int64_t task_work_ns;
	/* poisson */
	double irq_rate_hz;  /* per CPU */
	int64_t irq_work_ns;
	/* stream: per message, work_ns + msg_bytes * work_ns_per_kb / 1024 to send, and
	   recv_work_ns + the same per-byte part to receive; pairs and placement as pingpong */
	int64_t work_ns_per_kb;
	/* stream: the payload copy's bandwidth when it is bound by memory, not the core clock
	   (MB/s; 0 = none): msg_bytes at this rate is added to both sides' work unscaled by
	   turbo */
	double copy_mb_per_s;
	int64_t recv_work_ns;
	/* when the tasks start (the machine idles before), spread over start_spread_ns */
	int64_t start_ns;
	int64_t start_spread_ns;
	/* pingpong, wake_idle: the CPUs the tasks start on, task i on CPU i (in_order) or on a
	   seeded permutation of the CPUs (shuffled: where fork and the first wake-ups put them
	   differs from run to run) */
	enum ik_start_cpus start_cpus;
	/* pingpong: extra time per message, unscaled by the core clock, when the receiver is in
	   another last-level cache than the sender (remote_llc_ns) or another package
	   (remote_package_ns, instead): the message's cache lines come from further away */
	int64_t remote_llc_ns;
	int64_t remote_package_ns;
	/* periodic: the tasks stop after this (0 = never); then how long each CPU takes to
	   leave polling and lite states is measured */
	int64_t stop_ns;
	/* periodic: each period's timer starts a burst of burst_ios I/O waits (0 = none): after
	   its work the task submits an I/O and blocks; the device's completion interrupt comes
	   io after the submission (its handler: irq_work_ns) and wakes the task, which works
	   task_work_ns again; after the last one it sleeps until the next period */
	int burst_ios;
	struct ik_dist io;
	/* periodic with burst_ios: each completion is a TCP receive that (re)arms the CPU's
	   delayed-ACK timer this long ahead on the jiffy grid (the kernel's TCP_DELACK_MIN,
	   HZ/25 jiffies = 40 ms); 0 = none (the I/O is not a socket's) */
	int64_t ack_timer_ns;
	/* spin: `tasks` busy tasks of task_work_ns units on CPUs spin_cpus[] (default 0..);
	   ipi: spin_cpus[0] sends to spin_cpus[1] (default 0 and 1) every period_ns, and the
	   handler runs task_work_ns */
	int nspin_cpus;
	int spin_cpus[64];
	/* any type: busy tasks pinned to these CPUs beside the workload, counting units of
	   side_spin_work_ns (the throughput of, e.g., the SMT siblings of idle CPUs) */
	int nside_spin_cpus;
	int side_spin_cpus[64];
	int64_t side_spin_work_ns;
	/* server: requests arrive at a rate that makes the workers' target utilisation
	   load_pct (rate = load_pct / 100 x workers / mean service time), each by a device
	   interrupt on irq_cpu whose handler (irq_work_ns) wakes an idle worker or queues the
	   request; `workers` worker threads pinned to cpus[] (default the CPUs after irq_cpu);
	   at most queue_limit requests wait, the others are dropped */
	enum ik_arrival arrival;
	double load_pct;
	struct ik_dist service;  /* service time per request, ns at the base frequency */
	int workers;
	int irq_cpu;
	enum ik_irq_affinity irq_affinity;
	int queue_limit;
	int64_t burst_on_ns;
	int64_t burst_off_ns;
	/* schbench (-m message_threads, -t workers, -s sleep, -R rps): each request is a sleep
	   of sleep_ns then work_ns of work; rps = 0 is its default mode, where every worker
	   asks its message thread for the next request as soon as it is done */
	int message_threads;
	int64_t sleep_ns;
	int64_t rps;
	/* rtapp: the rt-app JSON file (resolved against the scenario's folder), its thread
	   instances (counted when the scenario is read), and the rate of its mem events */
	char file[512];
	int rtapp_instances;
	int rtapp_tasks;     /* the instances and the threads it may fork (task timers) */
	double mem_mb_per_s;
	/* learned: `file` is the model; its CPUs and tasks (counted when the scenario is read) */
	int learned_cpus;
	int learned_tasks;
	/* any type: the percentage of the tasks' sleeps that are I/O waits (counted in
	   nr_iowait_cpu() of the CPU the task last ran on until it wakes); 0 = none */
	double iowait_pct;
};

/*
 * Options of the idle drivers and the x86 idle code that live on the kernel command line
 * ([cpuidle] keys; the kernel's parameter names in comments).
 */
enum ik_dummy_wait {
	IK_DUMMY_WAIT_INTEL_ONLY,   /* mainline since v6.0: only on Intel, never in a guest */
	IK_DUMMY_WAIT_ALWAYS,       /* before 2022: after every SYSTEMIO entry */
	IK_DUMMY_WAIT_NOT_IN_GUEST, /* 2022: skipped under a hypervisor */
	IK_DUMMY_WAIT_SKIP_ON_ZEN,  /* the proposed patch: skipped in guests and on Zen */
};
enum ik_idle_option { IK_IDLE_DEFAULT, IK_IDLE_POLL, IK_IDLE_HALT, IK_IDLE_NOMWAIT }; /* idle= */
enum ik_prefer_mwait {
	IK_PREFER_MWAIT_CPUID,  /* v6.0 on: from CPUID leaf 5 */
	IK_PREFER_MWAIT_VENDOR, /* before v6.0: Intel only */
};
enum ik_cst_fallback {
	IK_CST_FALLBACK_FIXED,  /* v5.10 on: _CST ignored when its control cannot be taken */
	IK_CST_FALLBACK_LEGACY, /* v5.6-v5.9: the _CST still decides which states are off */
};
struct ik_driver_options {
	int latency_factor;        /* processor.latency_factor (2) */
	int max_cstate;            /* processor.max_cstate / intel_idle.max_cstate; -1 = default */
	bool nocst;                /* processor.nocst */
	bool bm_check_disable;     /* processor.bm_check_disable */
	enum ik_dummy_wait dummy_wait;
	int use_acpi;              /* -1 = the table's default, 1 = intel_idle.use_acpi, 0 = no_acpi */
	enum ik_cst_fallback cst_fallback;
	int pc6;                   /* -1 = as the platform says, 0 = disabled, 1 = enabled */
	uint32_t states_off;       /* intel_idle.states_off */
	bool forced_wakeup;        /* powernv forced wake-up from lite states */
	enum ik_idle_option idle;
	enum ik_prefer_mwait prefer_mwait;
	bool haltpoll_force;       /* cpuidle_haltpoll.force */
};

struct ik_config;
#define IK_MAX_DISABLED 16
struct ik_scenario {
	char name[64];
	char platform_ref[256]; /* built-in name or file path, as written */
	/* the workload's check's notes (struct ik_workload_check): lines, "" when none; the
	   commands print them on standard error */
	char workload_notes[2048];
	struct ik_platform platform;
	int hz;
	struct ik_kernel kernel;  /* kernel.version and kernel.switch.NAME (default 6.19) */
	int64_t latency_limit_us; /* global PM QoS; -1 = none */
	/* the kernel's own periodic work on every CPU (vmstat, RCU, ...): an hrtimer per CPU */
	double housekeeping_hz;   /* 0 = none */
	int64_t housekeeping_work_ns;
	char driver[16];          /* table, acpi_idle, intel_idle, ...; "auto" is resolved at load */
	char kernel_driver[16];   /* what "auto" gives: the driver the kernel would load */
	/* The driver as the scenario's check probed it (ops NULL in a scenario built by hand):
	   the simulator's runs start from copies of it instead of probing again. */
	struct ik_driver_binding driver_probed;
	char governor[4096];      /* menu, teo, ladder, haltpoll, kernel:PATH.c or plugin:PATH.so */
	char governor_sha256[65]; /* kernel: and plugin: files' sha256 at load, hex; "" otherwise */
	char governor_api[512];   /* kernel: only: the release whose API the file was written
				     against, in words after "the file is"; "" otherwise */
	/* [governor] NAME = VALUE (--set governor.NAME=VALUE): module parameters, in order */
	int ngov_params;
	struct {
		char name[64];
		char value[128];
	} gov_params[32];
	struct ik_driver_options opt;
	/* states disabled through sysfs on every CPU, by name */
	int ndisabled;
	char disabled[IK_MAX_DISABLED][IK_NAME_LEN];
	struct ik_workload workload;
	int64_t duration_ns;
	int64_t warmup_ns; /* simulated before counters start */
	int runs;
	uint64_t seed;
	/* not from the file: the caller asks for a timeline of idle states (src/sim/timeline.c)
	   over [warm-up end + timeline_start_ns, + timeline_len_ns); 0 = none */
	int64_t timeline_start_ns;
	int64_t timeline_len_ns;
	/* not from the file: the effective configuration (config/config.h) the reports
	   record, owned by the caller; NULL = not recorded */
	const struct ik_config *config;
};

#define IK_ERR_LEN 1024

/*
 * The checks of a workload's settings that need the platform (CPUs that must exist,
 * placements that must fit, the file an rt-app or learned workload reads), made by the
 * workload's own code when a scenario is read.  It may complete the settings (a count read
 * from its file, a default that follows the platform).  On failure: -1, with the key to
 * blame and the message (which names the key and what was expected).
 */
struct ik_workload_check {
	const struct ik_platform *platform;
	const char *base_dir;      /* the scenario file's folder, for a relative file ("": none) */
	/* was this [workload] key given (in the file or by --set)? */
	bool (*given)(const void *user, const char *key);
	const void *user;
	const char *key;           /* out: the key the message is about */
	char msg[IK_ERR_LEN];      /* out */
	/* out, on success too: what the workload read otherwise than its own tool would, or
	   leaves out (lines; "" when nothing): kept in the scenario's workload_notes */
	char notes[2048];
};
int ik__workload_check(struct ik_workload *w, struct ik_workload_check *c);

/*
 * A workload's settings as results show them (the JSON's "workload" object), in the order
 * its own code lists them: each a key with its unit in its name and a typed value.  Only
 * the settings its type uses, so a result says what ran.
 */
enum ik_setting_type {
	IK_SETTING_INT,      /* i */
	IK_SETTING_REAL,     /* x */
	IK_SETTING_TEXT,     /* text */
	IK_SETTING_NS_AS_US, /* i, in ns, shown exactly in us (the key ends in _us) */
};
struct ik_workload_setting {
	const char *key;
	enum ik_setting_type type;
	int64_t i;
	double x;
	char text[512];
};
#define IK_WORKLOAD_SETTINGS 16
struct ik_workload_settings {
	int n;
	struct ik_workload_setting v[IK_WORKLOAD_SETTINGS];
};
void ik__workload_settings(const struct ik_workload *w, struct ik_workload_settings *out);
/*
 * The workload in words, its type first: "pingpong: 8 pairs, 1024 B per message, ...", as
 * the text report shows it; brief, the short form of a page's settings.  Numbers are
 * printed in the C library's locale: call it in the "C" numeric locale.
 */
void ik__workload_describe(const struct ik_workload *w, bool brief, char *buf, size_t len);
/* Are the workload's messages its throughput (messages/s, MB/s)? */
bool ik__workload_has_throughput(const struct ik_workload *w);

/* Built-in platforms and scenarios, embedded at build time from platforms/ and scenarios/. */
struct ik_builtin {
	const char *name;
	const char *text;
};
extern const struct ik_builtin ik__builtin_platforms[];
extern const struct ik_builtin ik__builtin_scenarios[];

/*
 * Load a platform: `ref` is a built-in name or a path to an INI file.  Returns 0, or -1 with
 * a message naming the file, line, field and what was expected.
 */
int ik__platform_load(const char *ref, struct ik_platform *p, char *err, size_t errlen);
int ik__platform_parse_string(const char *origin, const char *text, struct ik_platform *p,
			     char *err, size_t errlen);

/*
 * Load a scenario (built-in name or path), then apply overrides "section.key=value" in order
 * as if they were in the file.  The platform it names is loaded too.
 */
int ik__scenario_load(const char *ref, const char *const *overrides, int noverrides,
		     struct ik_scenario *sc, char *err, size_t errlen);

/* The same from text (origin names it in messages); used by tests and fuzzers. */
int ik__scenario_parse_string(const char *origin, const char *text, const char *const *overrides,
			     int noverrides, struct ik_scenario *sc, char *err, size_t errlen);

#endif
