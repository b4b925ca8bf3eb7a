/*
 * idlekit: the hardware model of a platform.
 *
 * What a driver registers (advertised latency and residency) is one thing; what the
 * hardware really costs is another.  A platform file describes both: per idle state its
 * advertised numbers and its real entry and exit costs, per wake source, as distributions.
 */
#ifndef IDLEKIT_HW_H
#define IDLEKIT_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "idlekit/cpuidle.h"

/* Deterministic random numbers (xoshiro256**, seeded through splitmix64). */
struct ik_rng {
	uint64_t s[4];
	double spare_normal; /* the polar method makes normals in pairs */
	bool have_spare;
};
void ik__rng_seed(struct ik_rng *rng, uint64_t seed);
uint64_t ik__rng_next(struct ik_rng *rng);
double ik__rng_unit(struct ik_rng *rng);      /* [0, 1) */
double ik__rng_normal(struct ik_rng *rng);    /* standard normal */
double ik__rng_exp(struct ik_rng *rng);       /* exponential, mean 1 */

/* A cost in ns, as a distribution. */
enum ik_dist_kind {
	IK_DIST_CONSTANT,    /* a */
	IK_DIST_UNIFORM,     /* [a, b] */
	IK_DIST_LOGNORMAL,   /* median a, shape sigma */
	IK_DIST_PERCENTILES, /* piecewise linear through (pct[i], val[i]) */
};
#define IK_DIST_MAX_POINTS 16
struct ik_dist {
	enum ik_dist_kind kind;
	int64_t a_ns;
	int64_t b_ns;
	double sigma;
	int npoints;
	double pct[IK_DIST_MAX_POINTS];    /* 0..100, increasing */
	int64_t val_ns[IK_DIST_MAX_POINTS]; /* non-decreasing */
};
int64_t ik__dist_sample(const struct ik_dist *d, struct ik_rng *rng);
/*
 * Parse "constant 1500", "uniform 1000 2000", "lognormal 1500 0.25" or
 * "percentiles 0:1700 25:1900 50:2000 99:2800 100:5900" (ns).  Returns 0, or -1 with what
 * was expected in err.
 */
int ik__dist_parse(const char *text, struct ik_dist *d, char *err, size_t errlen);
/* The inverse of ik__dist_parse (same grammar), for platform show and JSON. */
void ik__dist_format(const struct ik_dist *d, char *buf, size_t len);

/* How a state is entered; decides whether waking it needs an IPI. */
enum ik_method {
	IK_METHOD_POLL,   /* spins on need_resched: no IPI */
	IK_METHOD_MWAIT,  /* monitors need_resched: no IPI */
	IK_METHOD_HLT,
	IK_METHOD_IOPORT, /* ACPI SYSTEMIO */
	IK_METHOD_STOP,   /* POWER stop */
	IK_METHOD_WFI,    /* Arm */
	IK_METHOD_OTHER,
};
const char *ik__method_name(enum ik_method m);
int ik__method_parse(const char *text, enum ik_method *m);

enum ik_wake_source {
	IK_WAKE_IPI,   /* another CPU woke a task here */
	IK_WAKE_TIMER, /* a local timer: the tick or an hrtimer */
	IK_WAKE_IRQ,   /* a device interrupt */
	IK_WAKE_SOURCES,
};

/*
 * An exit's extra cost by how long the CPU was idle: points (idle_ns, extra_ns), idle
 * strictly increasing; the first point's extra before it, the last one's after it, and
 * linear in log(idle) between points (src/hw/exit_curve.c).
 */
#define IK_EXIT_CURVE_MAX 8 /* formatted, at most 8 * 28 characters: a config value */
struct ik_exit_curve {
	int n; /* 0: no extra */
	int64_t idle_ns[IK_EXIT_CURVE_MAX];
	int64_t extra_ns[IK_EXIT_CURVE_MAX];
};
/* "none" or "IDLE_NS:EXTRA_NS ..."; 0, or -1 with what was expected in err. */
int ik__exit_curve_parse(const char *text, struct ik_exit_curve *c, char *err, size_t errlen);
void ik__exit_curve_format(const struct ik_exit_curve *c, char *buf, size_t len);
/* The extra cost after idle_ns of idle (0 for a curve with no points). */
int64_t ik__exit_curve_extra(const struct ik_exit_curve *c, int64_t idle_ns);

struct ik_hw_state {
	char name[IK_NAME_LEN];
	char desc[IK_DESC_LEN];
	uint32_t latency_us;   /* advertised exit latency */
	uint32_t residency_us; /* advertised target residency */
	unsigned flags;        /* IK_FLAG_* */
	enum ik_method method;
	uint32_t hint; /* MWAIT hint, I/O port, stop level: informational for now */
	struct ik_dist exit[IK_WAKE_SOURCES]; /* real exit cost by wake source */
	struct ik_dist entry;                 /* real entry cost */
	bool needs_ipi;                       /* from the method unless the file says */
	int power_mw;                         /* per-CPU power while in this state */
	/*
	 * The "table" driver does not register it: a state that only another driver or the
	 * default idle routine uses (HLT beside an MWAIT C1, say).  File key in_table = no.
	 */
	bool unlisted;
	/*
	 * What the exit costs beyond exit[] after a long idle (a guest's host stops polling
	 * for it, then schedules or idles the vCPU's thread): by a wake-up from another CPU or
	 * an interrupt, and by the CPU's own timer or tick.  None (n = 0): the same for any
	 * idle length.  File keys exit_after_idle_ns, exit_timer_after_idle_ns.
	 */
	struct ik_exit_curve after_idle, timer_after_idle;
	/*
	 * CPU time of the kernel's idle path around each entry into this state, outside its
	 * residency (the tick's stop and restart, the wake-up's interrupt: in a guest, their
	 * VM exits): busy time between the governor's choice and the state.  File key
	 * entry_busy_ns, default 0.
	 */
	int64_t entry_busy_ns;
};

/*
 * Firmware and CPU description: what the kernel's idle drivers read to build their table
 * (src/drivers/).  A platform without these sections has vendor "other" and no ACPI.
 */
enum ik_cpu_vendor { IK_VENDOR_OTHER, IK_VENDOR_INTEL, IK_VENDOR_AMD, IK_VENDOR_IBM, IK_VENDOR_ARM };
enum ik_hypervisor { IK_HYPERVISOR_NONE, IK_HYPERVISOR_KVM, IK_HYPERVISOR_OTHER };
const char *ik__vendor_name(enum ik_cpu_vendor v);

/* CPUID leaf 5 (MONITOR/MWAIT) bits the kernel tests. */
#define IK_CPUID5_ECX_EMX 0x1u       /* enumeration of MWAIT extensions */
#define IK_CPUID5_ECX_INT_BREAK 0x2u /* interrupts break MWAIT even when masked */

/* The CPU as CPUID and the kernel's feature and bug bits describe it ([cpuid]). */
struct ik_cpuid {
	enum ik_cpu_vendor vendor;
	int family;
	int model;
	bool mwait;        /* CPUID.1:ECX MONITOR (X86_FEATURE_MWAIT) */
	bool monitor_bug;  /* X86_BUG_MONITOR */
	bool arat;         /* X86_FEATURE_ARAT: the local APIC timer runs in every C-state */
	bool zen;          /* X86_FEATURE_ZEN (default: AMD family >= 0x17) */
	bool amd_e400;     /* X86_BUG_AMD_E400 */
	bool amd_apic_c1e; /* X86_BUG_AMD_APIC_C1E: the APIC timer stops in C1E */
	enum ik_hypervisor hypervisor; /* X86_FEATURE_HYPERVISOR and which */
	bool kvm_hint_realtime;        /* KVM_HINTS_REALTIME */
	uint32_t cpuid5_ecx;
	uint32_t cpuid5_edx; /* MWAIT sub-states per C-state, 4 bits each from C0 */
};

/* One _CST package entry ([cstN]). */
enum ik_cst_method {
	IK_CST_FFH,      /* FIXED_HARDWARE with an MWAIT hint in address */
	IK_CST_SYSTEMIO, /* SYSTEM_IO: an I/O port read enters the state */
	IK_CST_HALT,     /* FIXED_HARDWARE without an MWAIT hint: HLT for C1 */
};
struct ik_cst_entry {
	int type;            /* ACPI C-state type 1..3 */
	enum ik_cst_method method;
	uint32_t address;    /* MWAIT hint or I/O port */
	uint32_t latency_us;
	uint32_t power_mw;   /* validated by the kernel, not used */
	uint32_t access_size; /* GAS access size; Intel FFH: bit 1 clear = skip BM_STS check */
};
#define IK_CST_MAX 8

/* ACPI tables the idle drivers read ([acpi], [cst1]...). */
struct ik_acpi {
	bool present;          /* the platform has ACPI */
	int cst_count;         /* _CST entries; 0 = no _CST object */
	struct ik_cst_entry cst[IK_CST_MAX];
	bool cst_control;      /* taking _CST control (FADT CST_CNT via SMI_CMD) succeeds */
	uint32_t pblk;         /* processor P_BLK I/O address, 0 = none */
	uint32_t c2_latency_us; /* FADT P_LVL2_LAT */
	uint32_t c3_latency_us; /* FADT P_LVL3_LAT */
	bool c2_mp_supported;  /* FADT flag: P_LVL2 usable on SMP */
	bool wbinvd;           /* FADT flag: WBINVD flushes caches (C3 without bm_check) */
	uint32_t pm_timer_port; /* FADT X_PM_TMR_BLK */
	/* One read of the PM timer: a chipset register served one read at a time. */
	struct ik_dist pm_timer_read;
	double bm_activity;    /* chance BM_STS is found set at a C3 entry */
};

/* intel_idle's view ([intel_idle]). */
struct ik_intel_idle_hw {
	char table[16]; /* built-in table by name; "" = by CPU model; "acpi" = none */
	bool pc6;       /* MSR_PKG_CST_CONFIG_CONTROL limit allows package C6 */
};

/* OPAL idle-state flags (ibm,cpu-idle-state-flags). */
#define IK_OPAL_DEC_STOP 0x00000001u
#define IK_OPAL_TIMEBASE_STOP 0x00000002u
#define IK_OPAL_LOSE_USER_CONTEXT 0x00001000u
#define IK_OPAL_LOSE_HYP_CONTEXT 0x00002000u
#define IK_OPAL_LOSE_FULL_CONTEXT 0x00004000u
#define IK_OPAL_NAP 0x00010000u
#define IK_OPAL_SLEEP 0x00020000u
#define IK_OPAL_WINKLE 0x00040000u
#define IK_OPAL_SLEEP_ER1 0x00080000u
#define IK_OPAL_STOP_FAST 0x00100000u
#define IK_OPAL_STOP_DEEP 0x00200000u
/* PSSCR fields the kernel checks. */
#define IK_PSSCR_EC 0x00100000u
#define IK_PSSCR_ESL 0x00200000u

/* One device-tree idle state of a POWER machine ([dt_stateN]). */
struct ik_dt_state {
	char name[IK_NAME_LEN];
	uint32_t flags; /* IK_OPAL_* */
	uint64_t latency_ns;
	uint64_t residency_ns;
	uint32_t psscr;
};
#define IK_DT_STATE_MAX 16
struct ik_powernv {
	int count;
	struct ik_dt_state states[IK_DT_STATE_MAX];
};


/*
 * Hardware effects that make one CPU's speed and power depend on what the others do
 * (src/hw/effects.c).  All default to "no effect".
 */
#define IK_TURBO_MAX 16
struct ik_hw_effects {
	/*
	 * Frequency: work is given in ns at base_mhz and runs at the turbo frequency its
	 * package allows for its number of active cores (cores not power-gated).  The table
	 * maps "up to N active cores" to MHz, N ascending.  base_mhz 0 = fixed frequency.
	 */
	int base_mhz;
	int nturbo;
	int turbo_cores[IK_TURBO_MAX];
	int turbo_mhz[IK_TURBO_MAX];
	/* SMT: a thread's speed (1 = alone on its core) while its sibling ... */
	double smt_sibling_busy; /* ... runs work */
	double smt_sibling_lite; /* ... idles in a state that keeps core resources */
	bool state_lite[IK_STATE_MAX];     /* polling or POWER lite: keeps SMT resources */
	bool state_core_off[IK_STATE_MAX]; /* power-gates the core (C6, CC6, stop4...) */
	/* Package state, reached while every core of a package is power-gated. */
	struct ik_dist pkg_exit_ns; /* extra exit cost of the first CPU to wake */
	int pkg_active_mw;          /* package (uncore) power otherwise */
	int pkg_idle_mw;            /* package power in its deep state */
};

/* MHz for a package with `active` cores not power-gated; base_mhz if no table. */
int ik__effects_mhz(const struct ik_hw_effects *fx, int active);
/*
 * Wall time of `work_ns` of work (ns at base frequency) at `mhz` and SMT speed factor
 * `smt` (0 < smt <= 1); at least 1 ns for any positive work.
 */
int64_t ik__effects_duration(const struct ik_hw_effects *fx, int64_t work_ns, int mhz, double smt);

/*
 * What the machine's kernel runs on this hardware ([os]) and its haltpoll governor's module
 * parameters ([haltpoll]): a platform made from a real machine names them, so that a
 * scenario that names no driver or governor runs what the machine runs.  The built-in
 * platforms have neither section.
 */
struct ik_os {
	bool present;        /* the file has [os] */
	char driver[16];     /* the cpuidle driver; "" = not named */
	char governor[16];   /* the cpuidle governor; "" = not named */
	int haltpoll_force;  /* cpuidle_haltpoll.force on its command line: -1 not named, 0, 1 */
	int64_t timer_slack_ns; /* a normal task's timer slack (the kernel's default 50 us) */
	/* how often the machine's own background (kernel housekeeping, daemons, a guest's
	   agent) wakes an otherwise idle CPU, per CPU and second; 0: not known.  When known it
	   is the scenario's kernel.housekeeping_hz unless the scenario gives one. */
	double background_hz;
	bool has_haltpoll;   /* the file has [haltpoll] */
	struct ik_haltpoll_params haltpoll; /* /sys/module/haltpoll/parameters */
};

struct ik_platform {
	char name[64];
	char description[160];
	char source[256];
	int packages;
	int cores_per_package;
	int threads_per_core;
	int cores_per_llc;      /* last-level cache group (a CCX on Zen) */
	struct ik_dist ipi_ns;  /* send to delivery of an IPI */
	int64_t poll_wake_ns;   /* a polling CPU noticing need_resched */
	int64_t context_switch_ns; /* switching to a woken task */
	int active_power_mw;    /* per CPU, busy */
	int state_count;
	struct ik_hw_state states[IK_STATE_MAX];
	struct ik_hw_effects effects;
	/* firmware and CPU description, for the idle drivers */
	bool has_cpuid; /* the file has [cpuid] */
	struct ik_cpuid cpuid;
	struct ik_acpi acpi;
	struct ik_intel_idle_hw intel_idle;
	struct ik_powernv powernv;
	struct ik_os os;
};

static inline int ik__platform_cpus(const struct ik_platform *p)
{
	return p->packages * p->cores_per_package * p->threads_per_core;
}

/* Topology: CPU numbering as Linux enumerates x86: first thread of every core, then SMT. */
struct ik_cpu_topo {
	int package;
	int core; /* global core index */
	int thread;
	int llc;  /* global LLC group index */
};
void ik__platform_topology(const struct ik_platform *p, int cpu, struct ik_cpu_topo *t);

#endif
