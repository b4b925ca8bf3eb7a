/*
 * idlekit: scenarios (what to simulate) and their INI files.
 */
#ifndef IDLEKIT_SCENARIO_H
#define IDLEKIT_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "idlekit/hw.h"

enum ik_workload_kind {
	IK_WORKLOAD_PINGPONG, /* closed loop: pairs of tasks exchanging messages */
	IK_WORKLOAD_PERIODIC, /* tasks woken by their own timer */
	IK_WORKLOAD_POISSON,  /* device interrupts with exponential gaps */
	IK_WORKLOAD_IDLE,     /* nothing to do */
};

enum ik_placement {
	IK_PLACE_SAME_CORE,    /* pinned, the two tasks of a pair on SMT siblings */
	IK_PLACE_SAME_PACKAGE, /* pinned, different cores of one package */
	IK_PLACE_CROSS_PACKAGE,/* pinned, different packages */
	IK_PLACE_WAKE_IDLE,    /* not pinned: previous CPU if idle, else an idle CPU of its LLC */
};

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
};

#define IK_MAX_DISABLED 16
struct ik_scenario {
	char name[64];
	char platform_ref[256]; /* built-in name or file path, as written */
	struct ik_platform platform;
	int hz;
	int64_t latency_limit_us; /* global PM QoS; -1 = none */
	char driver[16];          /* "table" */
	char governor[16];
	/* states disabled through sysfs on every CPU, by name */
	int ndisabled;
	char disabled[IK_MAX_DISABLED][IK_NAME_LEN];
	struct ik_workload workload;
	int64_t duration_ns;
	int64_t warmup_ns; /* simulated before counters start */
	int runs;
	uint64_t seed;
};

#define IK_ERR_LEN 512

/* Built-in platforms and scenarios, embedded at build time from platforms/ and scenarios/. */
struct ik_builtin {
	const char *name;
	const char *text;
};
extern const struct ik_builtin ik_builtin_platforms[];
extern const struct ik_builtin ik_builtin_scenarios[];

/*
 * Load a platform: `ref` is a built-in name or a path to an INI file.  Returns 0, or -1 with
 * a message naming the file, line, field and what was expected.
 */
int ik_platform_load(const char *ref, struct ik_platform *p, char *err, size_t errlen);
int ik_platform_parse_string(const char *origin, const char *text, struct ik_platform *p,
			     char *err, size_t errlen);

/*
 * Load a scenario (built-in name or path), then apply overrides "section.key=value" in order
 * as if they were in the file.  The platform it names is loaded too.
 */
int ik_scenario_load(const char *ref, const char *const *overrides, int noverrides,
		     struct ik_scenario *sc, char *err, size_t errlen);

/* The same from text (origin names it in messages); used by tests and fuzzers. */
int ik_scenario_parse_string(const char *origin, const char *text, const char *const *overrides,
			     int noverrides, struct ik_scenario *sc, char *err, size_t errlen);

#endif
