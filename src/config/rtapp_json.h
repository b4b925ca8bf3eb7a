/*
 * idlekit: rt-app workload files (the JSON format of github.com/scheduler-tools/rt-app),
 * read into a program the simulator runs (workload.type = rtapp).  docs/workloads.md
 * lists what is supported; anything else is refused with its JSON path.
 *
 * Implemented by rtapp_json.c (hence the name); run by src/sim/workloads/rtapp.c.
 */
#ifndef IDLEKIT_RTAPP_H
#define IDLEKIT_RTAPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ik_rtapp_event_kind {
	IK_RTAPP_RUN,     /* work, ns at the calibration (base) frequency */
	IK_RTAPP_RUNTIME, /* work that lasts ns whatever the frequency */
	IK_RTAPP_SLEEP,   /* sleep ns from now */
	IK_RTAPP_TIMER,   /* sleep until the timer's next period */
	IK_RTAPP_BARRIER, /* wait until every user of the barrier is there */
	IK_RTAPP_WAIT,    /* block on a condition until signalled */
	IK_RTAPP_SIGNAL,  /* wake the first waiter of a condition */
	IK_RTAPP_BROAD,   /* wake every waiter of a condition */
	IK_RTAPP_SUSPEND, /* block until resumed */
	IK_RTAPP_RESUME,  /* wake the suspended instances of a task (res -1: of none) */
	IK_RTAPP_MEM,     /* write bytes: work of bytes / mem_bytes_per_us */
	IK_RTAPP_YIELD,   /* go to the back of the run queue */
	IK_RTAPP_SYNC,    /* signal a condition and wait on it at once */
	IK_RTAPP_FORK,    /* start one more instance of a thread (res: its task index) */
	IK_RTAPP_IORUN,   /* write bytes to rt-app's io_device: modelled as mem's work */
	IK_RTAPP_LOCK,    /* take a mutex, waiting in line while another instance holds it */
	IK_RTAPP_UNLOCK,  /* give it back: to the first in line, or free */
};

struct ik_rtapp_event {
	enum ik_rtapp_event_kind kind;
	int64_t ns;      /* run, runtime, sleep: duration; timer: period */
	int64_t bytes;   /* mem */
	int res;         /* timer, barrier, wait/signal/broad, lock/unlock: resource; resume:
			    task index */
	int mutex;       /* wait: the mutex it gives up while waiting and takes back (-1: none) */
	bool absolute;   /* timer mode */
};

/* Scheduling policies, as rt-app names them (SCHED_BATCH and SCHED_IDLE run as OTHER). */
enum ik_rtapp_policy {
	IK_RTAPP_SAME = -1, /* a phase that does not change it */
	IK_RTAPP_OTHER,
	IK_RTAPP_FIFO,
	IK_RTAPP_RR,
	IK_RTAPP_DEADLINE,
};
struct ik_rtapp_sched {
	int policy;         /* enum ik_rtapp_policy */
	int prio;           /* FIFO, RR: 1..99 (rt-app's default 10); OTHER: nice (not modelled) */
	bool prio_set;      /* a phase's "priority" changes it */
	int64_t runtime_ns, deadline_ns, period_ns; /* DEADLINE: dl-runtime, dl-deadline,
						       dl-period */
};

struct ik_rtapp_phase {
	int loop;        /* times the phase runs before the next, >= 1 */
	int ncpus;       /* affinity from this phase on; 0 = unchanged */
	int cpus[64];
	struct ik_rtapp_sched sched; /* policy from this phase on (policy SAME and !prio_set:
					unchanged) */
	int first_event, nevents;
};

struct ik_rtapp_task {
	char name[64];
	int instances;
	int loop;        /* times the phases run, -1 = until the end */
	int64_t delay_ns;
	int ncpus;       /* 0 = any CPU */
	int cpus[64];
	struct ik_rtapp_sched sched; /* its policy (global default_policy when it names none) */
	int first_phase, nphases;
	int forks;       /* instances other threads may fork at run time (at most
			    IK_RTAPP_MAX_FORKS in all; they start only when forked) */
};
#define IK_RTAPP_MAX_FORKS 256 /* forked instances of one thread the model keeps room for */

enum ik_rtapp_res_kind {
	IK_RTAPP_RES_TIMER,
	IK_RTAPP_RES_BARRIER,
	IK_RTAPP_RES_COND,
	IK_RTAPP_RES_MUTEX,
};
struct ik_rtapp_resource {
	char name[64];
	enum ik_rtapp_res_kind kind;
	bool unique;     /* timer named "unique...": one per task instance */
	int users;       /* barrier: references over all task instances */
};

struct ik_rtapp {
	int64_t duration_ns; /* global duration; -1 = until the simulation ends */
	int64_t calib_ns;    /* ns per loop of a run event; 0 = calibrated on a CPU (exact) */
	int ntasks, nphases, nevents, nres;
	struct ik_rtapp_task *tasks;
	struct ik_rtapp_phase *phases;
	struct ik_rtapp_event *events;
	struct ik_rtapp_resource *res;
	bool has_mem;        /* a mem or iorun event: its bytes at workload.mem_mb_per_s */
	int default_policy;  /* global default_policy (enum ik_rtapp_policy) */
	/* what was read otherwise than rt-app would, or not modelled: one line each ("" when
	   nothing): repeated keys numbered, a repair, keys rt-app reads that idlekit ignores */
	char notes[2048];
};

/*
 * rt-app's dialect (rtapp_dialect.c): comments, trailing commas, repeated keys numbered as
 * workgen numbers them, a key with no value read as "".  The strict JSON into *json
 * (malloc'd), what it changed beyond comments and commas into notes (lines; "" when
 * nothing).  0, or -1 when out of memory.
 */
int ik__rtapp_dialect(const char *origin, const char *text, size_t len, char **json,
		     size_t *json_len, char *notes, size_t noteslen);

/*
 * Parse rt-app JSON.  `origin` names the file in messages.  Returns 0, or -1 with one
 * message naming the file, the JSON path (tasks.thread0.phases.p1.foo) and what was
 * expected in err.
 */
int ik__rtapp_parse(const char *origin, const char *text, size_t len, struct ik_rtapp *out,
		   char *err, size_t errlen);
int ik__rtapp_load(const char *path, struct ik_rtapp *out, char *err, size_t errlen);
void ik__rtapp_free(struct ik_rtapp *r);

#endif
