/*
 * rt-app's JSON workload files, read with jansson.
 *
 * The format (rt-app's doc/tutorial.txt): a "global" object (duration in s, calibration as
 * "CPUn" or ns per loop, and logging options that do not change what runs) and a "tasks"
 * object whose keys name threads.  A thread has properties (instance, loop, cpus, delay,
 * policy) and either a "phases" object or its events directly; a phase has properties
 * (loop, cpus) and events.  Events are keys matched by prefix, as rt-app does, so that one
 * object can hold several of a kind (run0, sleep0, run1, ...): run, runtime, sleep, timer,
 * barrier, wait, sync, signal, broad, suspend, resume, mem, iorun, yield, lock, unlock, fork.
 * Keys run in
 * file order.  The text is first made strict JSON from rt-app's dialect (rtapp_dialect.c:
 * comments, trailing commas, repeated keys numbered as workgen does).
 *
 * Policies (policy, priority, dl-*: parse_sched) are read per thread and phase and
 * checked as the kernel checks them.  Keys rt-app reads that the model leaves out (logging,
 * nice, task groups) are noted in r->notes, once each, and read on; an event
 * rt-app has that is not modelled yet (iorun, fork, ...), a key rt-app refuses too, and
 * the pre-2015 format are errors naming the file and the key's JSON path.
 *
 * Divisions: messages and notes; small readers (integers, CPU lists, resources, strings);
 * events (timers, then every other event of a phase); scheduling policy and task groups;
 * phases, tasks and the global section; counting barrier users, runs and fork slots; the
 * parse and the file's load and free.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/rtapp_json.h"
#include "config/ini_common.h"
#include "util/errmsg.h"

#define MAX_US 3600000000LL /* an hour */
#define MAX_TASKS 1024
#define MAX_INSTANCES 4096
#define MAX_EVENTS (1 << 20)
#define MAX_LOOP 1000000000LL

struct reader {
	const char *origin;
	char *err;
	size_t errlen;
	struct ik_rtapp *r;
	int cap_phases, cap_events, cap_res;
	json_t *tasks; /* to resolve resume targets */
};

static int fail(struct reader *rd, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct reader *rd, const char *path, const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rd->err && rd->errlen)
		snprintf(rd->err, rd->errlen, "%s: %s: %s", rd->origin, path, msg);
	return -1;
}

/* A line of the notes, each text once (a key ignored in every thread is said once). */
static void rd_note(struct reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rd_note(struct reader *rd, const char *fmt, ...)
{
	char one[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	char *notes = rd->r->notes;
	size_t used = strlen(notes), n = strlen(one);
	for (const char *p = notes; (p = strstr(p, one)); p += n)
		if ((p == notes || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return;
	if (used + n + 2 < sizeof(rd->r->notes))
		snprintf(notes + used, sizeof(rd->r->notes) - used, "%s%s", used ? "\n" : "", one);
}

/* parent.key, shortened (never overflowing) for messages. */
static void join(char *out, size_t len, const char *parent, const char *key)
{
	char shown[72];
	size_t n = 0;
	for (const char *k = key; *k && n + 4 < sizeof(shown); k++)
		shown[n++] = (*k >= 0x20 && *k < 0x7f) ? *k : '?';
	shown[n] = '\0';
	if (snprintf(out, len, "%s%s%s", parent, parent[0] ? "." : "", shown) >= (int)len &&
	    len > 4)
		memcpy(out + len - 4, "...", 4); /* a path too long for messages, cut visibly */
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int get_int(struct reader *rd, const char *path, json_t *v, int64_t min, int64_t max,
		   int64_t *out)
{
	if (!json_is_integer(v))
		return fail(rd, path, "expected an integer %" PRId64 "..%" PRId64, min, max);
	json_int_t x = json_integer_value(v);
	if (x < min || x > max)
		return fail(rd, path, "expected an integer %" PRId64 "..%" PRId64 ", got %" PRId64,
			    min, max, (int64_t)x);
	*out = (int64_t)x;
	return 0;
}

static int get_cpus(struct reader *rd, const char *path, json_t *v, int *cpus, int *ncpus)
{
	size_t i;
	json_t *c;
	if (!json_is_array(v) || json_array_size(v) == 0 || json_array_size(v) > 64)
		return fail(rd, path, "expected an array of 1 to 64 CPU numbers");
	json_array_foreach(v, i, c) {
		int64_t cpu = 0;
		char p[256];
		if (snprintf(p, sizeof(p), "%s[%zu]", path, i) >= (int)sizeof(p))
			memcpy(p + sizeof(p) - 4, "...", 4);
		if (get_int(rd, p, c, 0, 8191, &cpu))
			return -1;
		cpus[i] = (int)cpu;
	}
	*ncpus = (int)json_array_size(v);
	return 0;
}

static int grow(void **p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return 0;
	int ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	void *g = realloc(*p, (size_t)ncap * size);
	if (!g)
		return -1;
	*p = g;
	*cap = ncap;
	return 0;
}

/* The resource of this name and kind (created on first use); -1 on error. */
static int resource(struct reader *rd, const char *path, const char *name,
		    enum ik_rtapp_res_kind kind)
{
	struct ik_rtapp *r = rd->r;
	if (strlen(name) == 0 || strlen(name) >= sizeof(r->res[0].name))
		return fail(rd, path, "expected a name of 1 to 63 characters");
	for (int i = 0; i < r->nres; i++) /* a name and a kind, as rt-app keys them */
		if (strcmp(r->res[i].name, name) == 0 && r->res[i].kind == kind)
			return i;
	if (grow((void **)&r->res, &rd->cap_res, r->nres + 1, sizeof(*r->res)))
		return fail(rd, path, "out of memory");
	struct ik_rtapp_resource *res = &r->res[r->nres];
	memset(res, 0, sizeof(*res));
	snprintf(res->name, sizeof(res->name), "%s", name);
	res->kind = kind;
	res->unique = kind == IK_RTAPP_RES_TIMER && starts(name, "unique");
	return r->nres++;
}

static const char *string_of(json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int timer_event(struct reader *rd, const char *path, json_t *v, struct ik_rtapp_event *e)
{
	const char *key;
	json_t *x;
	const char *ref = NULL;
	int64_t period = -1;
	char p[256];

	if (!json_is_object(v))
		return fail(rd, path, "expected an object {\"ref\": NAME, \"period\": US, \"mode\": "
			    "\"relative\" or \"absolute\"}");
	json_object_foreach(v, key, x) {
		join(p, sizeof(p), path, key);
		if (strcmp(key, "ref") == 0) {
			if (!(ref = string_of(x)))
				return fail(rd, p, "expected a string");
		} else if (strcmp(key, "period") == 0) {
			if (get_int(rd, p, x, 1, MAX_US, &period))
				return -1;
		} else if (strcmp(key, "mode") == 0) {
			const char *m = string_of(x);
			if (!m || (strcmp(m, "relative") && strcmp(m, "absolute")))
				return fail(rd, p, "expected \"relative\" or \"absolute\"");
			e->absolute = strcmp(m, "absolute") == 0;
		} else {
			return fail(rd, p, "unknown key; a timer has ref, period and mode");
		}
	}
	if (!ref || period < 0)
		return fail(rd, path, "a timer needs \"ref\" and \"period\"");
	e->kind = IK_RTAPP_TIMER;
	e->ns = period * 1000;
	e->res = resource(rd, path, ref, IK_RTAPP_RES_TIMER);
	return e->res < 0 ? -1 : 0;
}

static int task_index(struct reader *rd, const char *name)
{
	const char *key;
	json_t *x;
	int i = 0;
	json_object_foreach(rd->tasks, key, x) {
		if (strcmp(key, name) == 0)
			return i;
		i++;
	}
	return -1;
}

/* One event key of a phase; `self` is the task's index (suspend's default). */
static int parse_event(struct reader *rd, const char *path, const char *key, json_t *v,
		       struct ik_rtapp_event *e, int self)
{
	int64_t x = 0;
	const char *s;

	memset(e, 0, sizeof(*e));
	e->mutex = -1;
	if (starts(key, "lock") || starts(key, "unlock")) {
		if (!(s = string_of(v)))
			return fail(rd, path, "expected a string naming the mutex");
		e->kind = starts(key, "lock") ? IK_RTAPP_LOCK : IK_RTAPP_UNLOCK;
		e->res = resource(rd, path, s, IK_RTAPP_RES_MUTEX);
		return e->res < 0 ? -1 : 0;
	}
	if (starts(key, "runtime") || starts(key, "run") || starts(key, "sleep")) {
		if (get_int(rd, path, v, 0, MAX_US, &x))
			return -1;
		e->kind = starts(key, "sleep") ? IK_RTAPP_SLEEP
			  : starts(key, "runtime") ? IK_RTAPP_RUNTIME : IK_RTAPP_RUN;
		e->ns = x * 1000;
		if (e->kind == IK_RTAPP_RUN && rd->r->calib_ns > 0)
			e->ns = e->ns / rd->r->calib_ns * rd->r->calib_ns; /* whole loops */
		return 0;
	}
	if (starts(key, "timer"))
		return timer_event(rd, path, v, e);
	if ((starts(key, "mem") && !starts(key, "memrun")) || starts(key, "iorun")) {
		if (get_int(rd, path, v, 0, (int64_t)1 << 40, &x))
			return -1;
		e->kind = starts(key, "mem") ? IK_RTAPP_MEM : IK_RTAPP_IORUN;
		e->bytes = x;
		rd->r->has_mem = true;
		if (e->kind == IK_RTAPP_IORUN)
			rd_note(rd, "%s: iorun writes its bytes to rt-app's io_device: modelled as the "
				"CPU work of writing them at workload.mem_mb_per_s (no device wait)",
				rd->origin);
		return 0;
	}
	if (starts(key, "fork")) {
		if (!(s = string_of(v)))
			return fail(rd, path, "expected a string naming the thread to fork");
		e->kind = IK_RTAPP_FORK;
		e->res = task_index(rd, s);
		if (e->res < 0)
			return fail(rd, path, "no thread named '%.63s' in \"tasks\" to fork", s);
		return 0;
	}
	if (starts(key, "barrier") || starts(key, "signal") || starts(key, "broad")) {
		if (!(s = string_of(v)))
			return fail(rd, path, "expected a string naming the %s",
				    starts(key, "barrier") ? "barrier" : "condition");
		e->kind = starts(key, "barrier") ? IK_RTAPP_BARRIER
			  : starts(key, "signal") ? IK_RTAPP_SIGNAL : IK_RTAPP_BROAD;
		e->res = resource(rd, path, s, e->kind == IK_RTAPP_BARRIER ? IK_RTAPP_RES_BARRIER
									   : IK_RTAPP_RES_COND);
		return e->res < 0 ? -1 : 0;
	}
	if (starts(key, "wait") || starts(key, "sync")) {
		json_t *ref = json_is_object(v) ? json_object_get(v, "ref") : NULL;
		const char *k;
		json_t *y;
		if (!ref || !(s = string_of(ref)))
			return fail(rd, path, "expected an object {\"ref\": CONDITION, \"mutex\": NAME}");
		json_object_foreach(v, k, y) {
			char p[256];
			join(p, sizeof(p), path, k);
			if (strcmp(k, "ref") && strcmp(k, "mutex"))
				return fail(rd, p, "unknown key; wait has ref and mutex");
			if (!json_is_string(y))
				return fail(rd, p, "expected a string");
		}
		e->kind = starts(key, "sync") ? IK_RTAPP_SYNC : IK_RTAPP_WAIT;
		e->res = resource(rd, path, s, IK_RTAPP_RES_COND);
		if (e->res < 0)
			return -1;
		json_t *m = json_object_get(v, "mutex");
		if (m && (e->mutex = resource(rd, path, json_string_value(m), IK_RTAPP_RES_MUTEX)) < 0)
			return -1;
		return 0;
	}
	if (starts(key, "suspend")) {
		/* rt-app suspends the thread on the condition named after it, whatever the
		   value says */
		e->kind = IK_RTAPP_SUSPEND;
		e->res = self;
		return 0;
	}
	if (starts(key, "resume")) {
		if (!(s = string_of(v)))
			return fail(rd, path, "expected a string naming the thread to resume");
		e->kind = IK_RTAPP_RESUME;
		/* the waiters of that name: a thread's suspend; a name no thread has (rt-app makes
		   it a condition no one waits on) wakes none */
		e->res = task_index(rd, s);
		if (e->res < 0)
			rd_note(rd, "%s: %s \"%.63s\": no thread of that name suspends, so it wakes "
				"none (as in rt-app)", rd->origin, path, s);
		return 0;
	}
	if (starts(key, "yield")) {
		if (!json_is_string(v))
			return fail(rd, path, "expected a string (may be empty)");
		e->kind = IK_RTAPP_YIELD;
		return 0;
	}
	static const char *const unsupported[] = { "memrun", "sem_post", "sem_wait" };
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (starts(key, unsupported[i]))
			return fail(rd, path, "rt-app's event '%s' is not modelled yet; modelled: run "
				    "runtime sleep timer barrier wait sync signal broad suspend resume "
				    "mem iorun yield lock unlock fork", unsupported[i]);
	return fail(rd, path, "unknown event or key (rt-app refuses it too); events: run runtime "
		    "sleep timer barrier wait sync signal broad suspend resume mem iorun yield lock "
		    "unlock fork "
		    "(a repeated key is numbered, as workgen does: run, run1)");
}

/* A scheduling policy, as rt-app names them: SCHED_BATCH and SCHED_IDLE run as SCHED_OTHER
   (noted); anything else refused, as rt-app refuses it. */
static int policy(struct reader *rd, const char *path, json_t *v, int *out)
{
	static const char *const known[] = { "SCHED_OTHER", "SCHED_FIFO", "SCHED_RR",
					     "SCHED_DEADLINE", "SCHED_BATCH", "SCHED_IDLE" };
	const char *s = string_of(v);
	for (int i = 0; s && i < (int)(sizeof(known) / sizeof(known[0])); i++)
		if (!strcmp(s, known[i])) {
			if (i > IK_RTAPP_DEADLINE)
				rd_note(rd, "%s: policy %s is not modelled (the model's SCHED_OTHER has "
					"no weights): it runs as SCHED_OTHER", rd->origin, s);
			*out = i > IK_RTAPP_DEADLINE ? IK_RTAPP_OTHER : i;
			return 0;
		}
	return fail(rd, path, "expected one of rt-app's policies: SCHED_OTHER, SCHED_IDLE, "
		    "SCHED_BATCH, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE");
}

/* An optional integer key of obj (us for the dl-* keys); 0 when absent, -1 on error. */
static int opt_int(struct reader *rd, const char *path, json_t *obj, const char *key,
		   int64_t min, int64_t max, int64_t *out, bool *given)
{
	json_t *v = json_object_get(obj, key);
	char p[256];
	*given = v != NULL;
	if (!v)
		return 0;
	join(p, sizeof(p), path, key);
	return get_int(rd, p, v, min, max, out);
}

/*
 * A thread's or phase's policy, priority and deadline parameters, as rt-app's
 * parse_sched_data reads them: a thread without "policy" has the global default_policy,
 * a phase keeps the thread's; "priority" is the RT priority (FIFO, RR: default 10) or the
 * nice value (SCHED_OTHER, not modelled); dl-runtime, dl-period (default dl-runtime) and
 * dl-deadline (default dl-period) in us.  What the kernel refuses (sched_setscheduler,
 * sched_setattr), and so rt-app exits on, is refused here with its key.
 */
static int parse_sched(struct reader *rd, const char *path, json_t *obj, bool phase,
		       struct ik_rtapp_sched *out)
{
	json_t *v;
	char p[256];
	bool has_prio, has_rt, has_dp, has_dd;
	int64_t prio = 0, rt = 0, dp = 0, dd = 0;

	memset(out, 0, sizeof(*out));
	out->policy = phase ? IK_RTAPP_SAME : rd->r->default_policy;
	if ((v = json_object_get(obj, "policy"))) {
		join(p, sizeof(p), path, "policy");
		if (policy(rd, p, v, &out->policy))
			return -1;
	}
	if (opt_int(rd, path, obj, "priority", -20, 99, &prio, &has_prio) ||
	    opt_int(rd, path, obj, "dl-runtime", 0, MAX_US, &rt, &has_rt) ||
	    opt_int(rd, path, obj, "dl-period", 0, MAX_US, &dp, &has_dp) ||
	    opt_int(rd, path, obj, "dl-deadline", 0, MAX_US, &dd, &has_dd))
		return -1;
	/* uclamp (util_min, util_max: 0..1024, rt-app refuses more) and NUMA memory binding:
	   read by rt-app, not modelled */
	static const char *const unmodelled[] = { "util_min", "util_max", "nodes_membind" };
	for (size_t i = 0; i < sizeof(unmodelled) / sizeof(unmodelled[0]); i++) {
		json_t *u = json_object_get(obj, unmodelled[i]);
		int64_t x = 0;
		if (!u)
			continue;
		join(p, sizeof(p), path, unmodelled[i]);
		if (i < 2 && get_int(rd, p, u, -1, 1024, &x))
			return -1;
		rd_note(rd, "%s: \"%s\" (%s, read by rt-app) is not modelled: ignored", rd->origin,
			unmodelled[i], i < 2 ? "utilisation clamping" : "NUMA memory binding");
	}
	out->prio_set = has_prio;
	join(p, sizeof(p), path, "priority");
	switch (out->policy) {
	case IK_RTAPP_FIFO:
	case IK_RTAPP_RR:
		out->prio = has_prio ? (int)prio : 10;
		if (out->prio < 1)
			return fail(rd, p, "expected an RT priority 1..99 for %s, got %d (the kernel "
				    "refuses it, and rt-app exits)", out->policy == IK_RTAPP_FIFO ?
				    "SCHED_FIFO" : "SCHED_RR", out->prio);
		break;
	case IK_RTAPP_OTHER:
		if (has_prio && (prio < -20 || prio > 19))
			return fail(rd, p, "expected a nice value -20..19 for SCHED_OTHER, got %" PRId64
				    " (rt-app refuses it)", prio);
		if (has_prio)
			rd_note(rd, "%s: \"priority\" (nice, read by rt-app) is not modelled (the "
				"model's SCHED_OTHER has no weights): ignored", rd->origin);
		out->prio = (int)prio;
		break;
	case IK_RTAPP_SAME:
		out->prio = (int)prio; /* a phase's new priority in the thread's policy */
		break;
	case IK_RTAPP_DEADLINE: {
		out->runtime_ns = rt * 1000;
		out->period_ns = (has_dp ? dp : rt) * 1000;
		out->deadline_ns = has_dd ? dd * 1000 : out->period_ns;
		/* __checkparam_dl: runtime >= 1024 ns, runtime <= deadline <= period, the period
		   within sched_deadline_period_min_us and _max_us (100 us, 4194304 us) */
		join(p, sizeof(p), path, has_rt ? "dl-runtime" : "policy");
		if (out->runtime_ns < 1024)
			return fail(rd, p, "SCHED_DEADLINE needs dl-runtime >= 2 us (the kernel "
				    "refuses less, and rt-app exits)");
		if (out->deadline_ns < out->runtime_ns || out->period_ns < out->deadline_ns)
			return fail(rd, p, "SCHED_DEADLINE needs dl-runtime <= dl-deadline <= "
				    "dl-period, got %" PRId64 ", %" PRId64 " and %" PRId64 " us (the "
				    "kernel refuses it, and rt-app exits)", out->runtime_ns / 1000,
				    out->deadline_ns / 1000, out->period_ns / 1000);
		if (out->period_ns < 100000 || out->period_ns > 4194304000LL)
			return fail(rd, p, "SCHED_DEADLINE needs a dl-period of 100..4194304 us (the "
				    "kernel's sched_deadline_period_min_us and _max_us), got %" PRId64
				    " us", out->period_ns / 1000);
		break;
	}
	}
	if (out->policy != IK_RTAPP_DEADLINE && out->policy != IK_RTAPP_SAME &&
	    (has_rt || has_dp || has_dd))
		rd_note(rd, "%s: dl-runtime with a policy other than SCHED_DEADLINE (rt-app gives "
			"SCHED_OTHER's as its custom slice, Linux 6.12) is not modelled: ignored",
			rd->origin);
	return 0;
}

/* A task group (a cgroup's CPU share, rt-app's "taskgroup"): checked as rt-app checks it,
   otherwise not modelled (noted). */
static int taskgroup(struct reader *rd, const char *path, json_t *obj, int pol)
{
	json_t *v = json_object_get(obj, "taskgroup");
	char p[256];
	if (!v)
		return 0;
	join(p, sizeof(p), path, "taskgroup");
	const char *s = string_of(v);
	if (!s || s[0] != '/')
		return fail(rd, p, "expected a task group path starting with / (rt-app refuses "
			    "others)");
	if (pol == IK_RTAPP_FIFO || pol == IK_RTAPP_RR || pol == IK_RTAPP_DEADLINE)
		return fail(rd, p, "a task group with policy %s: rt-app refuses it (\"No "
			    "taskgroup support for policy\"); task groups are for SCHED_OTHER, "
			    "SCHED_BATCH and SCHED_IDLE", pol == IK_RTAPP_FIFO ? "SCHED_FIFO" :
			    pol == IK_RTAPP_RR ? "SCHED_RR" : "SCHED_DEADLINE");
	rd_note(rd, "%s: \"taskgroup\" (a cgroup's CPU share, read by rt-app) is not modelled: "
		"ignored, its threads run as if in the root group", rd->origin);
	return 0;
}

/* A thread's or phase's keys of its policy (parse_sched, taskgroup), or nice (noted). */
static bool is_ignored_thread_key(const char *k)
{
	return !strcmp(k, "priority") || !strcmp(k, "taskgroup") || !strcmp(k, "dl-runtime") ||
	       !strcmp(k, "dl-period") || !strcmp(k, "dl-deadline") || !strcmp(k, "nice") ||
	       !strcmp(k, "util_min") || !strcmp(k, "util_max") || !strcmp(k, "nodes_membind");
}

/* The events and properties of one phase (or of a thread without "phases"). */
static int parse_phase(struct reader *rd, const char *path, json_t *obj, int self,
		       bool thread_level, struct ik_rtapp_phase *ph)
{
	struct ik_rtapp *r = rd->r;
	const char *key;
	json_t *v;
	char p[256];

	memset(ph, 0, sizeof(*ph));
	ph->loop = 1;
	ph->first_event = r->nevents;
	ph->sched.policy = IK_RTAPP_SAME;
	if (!thread_level && (parse_sched(rd, path, obj, true, &ph->sched) ||
			      taskgroup(rd, path, obj, ph->sched.policy == IK_RTAPP_SAME ?
					r->tasks[self].sched.policy : ph->sched.policy)))
		return -1;
	json_object_foreach(obj, key, v) {
		join(p, sizeof(p), path, key);
		if (thread_level && (!strcmp(key, "instance") || !strcmp(key, "delay") ||
				     !strcmp(key, "policy") || !strcmp(key, "loop") ||
				     !strcmp(key, "cpus")))
			continue; /* the thread's own properties, read by parse_task */
		if (is_ignored_thread_key(key) || !strcmp(key, "policy"))
			continue; /* the policy's keys: parse_sched */
		if (!thread_level && !strcmp(key, "loop")) {
			int64_t x = 0;
			if (get_int(rd, p, v, 1, MAX_LOOP, &x))
				return -1;
			ph->loop = (int)x;
			continue;
		}
		if (!thread_level && !strcmp(key, "cpus")) {
			if (get_cpus(rd, p, v, ph->cpus, &ph->ncpus))
				return -1;
			continue;
		}
		if (r->nevents >= MAX_EVENTS)
			return fail(rd, p, "more than %d events", MAX_EVENTS);
		if (grow((void **)&r->events, &rd->cap_events, r->nevents + 1, sizeof(*r->events)))
			return fail(rd, p, "out of memory");
		if (parse_event(rd, p, key, v, &r->events[r->nevents], self))
			return -1;
		r->nevents++;
	}
	ph->nevents = r->nevents - ph->first_event;
	if (ph->nevents == 0)
		return fail(rd, path, "no events; expected at least one of run, sleep, timer, ...");
	return 0;
}

static int parse_task(struct reader *rd, const char *name, json_t *obj, int self,
		      struct ik_rtapp_task *t)
{
	struct ik_rtapp *r = rd->r;
	char path[256], p[256];
	json_t *v;
	int64_t x = 0;

	join(path, sizeof(path), "tasks", name);
	if (!json_is_object(obj))
		return fail(rd, path, "expected an object describing the thread");
	memset(t, 0, sizeof(*t));
	if (strlen(name) >= sizeof(t->name))
		return fail(rd, path, "a task name has at most 63 characters");
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->instances = 1;
	t->loop = -1;
	if ((v = json_object_get(obj, "instance"))) {
		join(p, sizeof(p), path, "instance");
		if (get_int(rd, p, v, 0, MAX_INSTANCES, &x))
			return -1;
		t->instances = (int)x;
	}
	if ((v = json_object_get(obj, "loop"))) {
		join(p, sizeof(p), path, "loop");
		if (get_int(rd, p, v, -1, MAX_LOOP, &x))
			return -1;
		if (x == 0)
			return fail(rd, p, "expected -1 (forever) or a number of loops >= 1, got 0");
		t->loop = (int)x;
	}
	if ((v = json_object_get(obj, "delay"))) {
		join(p, sizeof(p), path, "delay");
		if (get_int(rd, p, v, 0, MAX_US, &x))
			return -1;
		t->delay_ns = x * 1000;
	}
	if ((v = json_object_get(obj, "cpus"))) {
		join(p, sizeof(p), path, "cpus");
		if (get_cpus(rd, p, v, t->cpus, &t->ncpus))
			return -1;
	}
	if (parse_sched(rd, path, obj, false, &t->sched) ||
	    taskgroup(rd, path, obj, t->sched.policy))
		return -1;
	static const char *const pre2015[] = { "exec", "period", "deadline", "lock_order",
					       "resources" };
	for (size_t i = 0; i < sizeof(pre2015) / sizeof(pre2015[0]); i++)
		if (json_object_get(obj, pre2015[i])) {
			join(p, sizeof(p), path, pre2015[i]);
			return fail(rd, p, "the pre-2015 rt-app format (a thread's exec, period, "
				    "deadline, lock_order, resources), which rt-app reads no more: "
				    "write the thread's events instead (run, timer, lock, unlock; "
				    "rt-app's doc/tutorial.txt)");
		}
	if (json_object_get(obj, "nice"))
		rd_note(rd, "%s: \"nice\" is not modelled: ignored", rd->origin);
	t->first_phase = r->nphases;
	json_t *phases = json_object_get(obj, "phases");
	if (phases) {
		const char *key;
		json_t *ph;
		const char *k2;
		json_t *v2;
		/* with "phases", the thread holds only its properties */
		json_object_foreach(obj, k2, v2) {
			if (strcmp(k2, "phases") && strcmp(k2, "instance") && strcmp(k2, "loop") &&
			    strcmp(k2, "delay") && strcmp(k2, "cpus") && strcmp(k2, "policy") &&
			    !is_ignored_thread_key(k2)) {
				join(p, sizeof(p), path, k2);
				return fail(rd, p, "unknown key; with \"phases\", a thread has instance, "
					    "loop, delay, cpus and policy");
			}
		}
		char ppath[256];
		join(ppath, sizeof(ppath), path, "phases");
		if (!json_is_object(phases) || json_object_size(phases) == 0)
			return fail(rd, ppath, "expected an object of phases");
		json_object_foreach(phases, key, ph) {
			join(p, sizeof(p), ppath, key);
			if (!json_is_object(ph))
				return fail(rd, p, "expected an object describing the phase");
			if (grow((void **)&r->phases, &rd->cap_phases, r->nphases + 1, sizeof(*r->phases)))
				return fail(rd, p, "out of memory");
			if (parse_phase(rd, p, ph, self, false, &r->phases[r->nphases]))
				return -1;
			r->nphases++;
		}
	} else {
		if (grow((void **)&r->phases, &rd->cap_phases, r->nphases + 1, sizeof(*r->phases)))
			return fail(rd, path, "out of memory");
		if (parse_phase(rd, path, obj, self, true, &r->phases[r->nphases]))
			return -1;
		r->nphases++;
	}
	t->nphases = r->nphases - t->first_phase;
	/* rt-app's check_taskgroup_policy_dep, phase by phase: the policy and the task group
	   each phase leaves in force (the thread's, or the last phase's that set one) must not
	   be an RT or deadline policy in a task group */
	if (phases) {
		int pol = t->sched.policy, k = 0;
		bool tg = json_object_get(obj, "taskgroup") != NULL;
		const char *key;
		json_t *ph;
		json_object_foreach(phases, key, ph) {
			const struct ik_rtapp_phase *rp = &r->phases[t->first_phase + k++];
			if (rp->sched.policy != IK_RTAPP_SAME)
				pol = rp->sched.policy;
			tg |= json_object_get(ph, "taskgroup") != NULL;
			if (tg && (pol == IK_RTAPP_FIFO || pol == IK_RTAPP_RR ||
				   pol == IK_RTAPP_DEADLINE)) {
				char pp[256];
				join(p, sizeof(p), path, "phases");
				join(pp, sizeof(pp), p, key);
				return fail(rd, pp, "a task group (from this phase or before) with "
					    "policy %s: rt-app refuses it (\"No taskgroup support for "
					    "policy\")", pol == IK_RTAPP_FIFO ? "SCHED_FIFO" :
					    pol == IK_RTAPP_RR ? "SCHED_RR" : "SCHED_DEADLINE");
			}
		}
	}
	return 0;
}

static int parse_global(struct reader *rd, json_t *g)
{
	struct ik_rtapp *r = rd->r;
	const char *key;
	json_t *v;
	char p[256], ignored[256] = "";
	int64_t x = 0;

	if (!json_is_object(g))
		return fail(rd, "global", "expected an object");
	json_object_foreach(g, key, v) {
		join(p, sizeof(p), "global", key);
		if (!strcmp(key, "duration")) {
			if (get_int(rd, p, v, -1, 3600 * 24, &x))
				return -1;
			r->duration_ns = x < 0 ? -1 : x * 1000000000LL;
		} else if (!strcmp(key, "calibration")) {
			const char *s = string_of(v);
			if (s) {
				if (strncmp(s, "CPU", 3) != 0)
					return fail(rd, p, "expected \"CPUn\" or a number of ns per loop");
				r->calib_ns = 0;
			} else if (get_int(rd, p, v, 1, 1000000, &r->calib_ns)) {
				return -1;
			}
		} else if (!strcmp(key, "default_policy")) {
			if (policy(rd, p, v, &r->default_policy))
				return -1;
		} else if (!strcmp(key, "logdir") || !strcmp(key, "log_basename") ||
			   !strcmp(key, "log_size") || !strcmp(key, "ftrace") ||
			   !strcmp(key, "gnuplot") || !strcmp(key, "lock_pages") ||
			   !strcmp(key, "io_device") || !strcmp(key, "mem_buffer_size") ||
			   !strcmp(key, "cumulative_slack") || !strcmp(key, "frag") ||
			   !strcmp(key, "pi_enabled")) {
			/* where rt-app logs, its buffers, its page locking, priority inheritance of
			   mutexes: nothing the simulation runs */
			size_t used = strlen(ignored);
			snprintf(ignored + used, sizeof(ignored) - used, "%s%s", used ? ", " : "", key);
		} else {
			return fail(rd, p, "unknown key (rt-app refuses it too); global has duration, "
				    "calibration, default_policy, frag, pi_enabled and logging options");
		}
	}
	if (ignored[0])
		rd_note(rd, "%s: global's %s (read by rt-app: logging, buffers, page locking, "
			"priority inheritance) not modelled: ignored", rd->origin, ignored);
	return 0;
}

static void count_barrier_users(struct ik_rtapp *r)
{
	for (int t = 0; t < r->ntasks; t++) {
		const struct ik_rtapp_task *task = &r->tasks[t];
		for (int ph = task->first_phase; ph < task->first_phase + task->nphases; ph++)
			for (int e = r->phases[ph].first_event;
			     e < r->phases[ph].first_event + r->phases[ph].nevents; e++)
				if (r->events[e].kind == IK_RTAPP_BARRIER)
					r->res[r->events[e].res].users += task->instances;
	}
}

/* Times a phase's events run in one instance: its loop times the thread's (a thread that
   loops until the end: as many as there is room for). */
static int64_t runs_of(const struct ik_rtapp *r, const struct ik_rtapp_task *t, int ph)
{
	int64_t n = (int64_t)r->phases[ph].loop * (t->loop > 0 ? t->loop : IK_RTAPP_MAX_FORKS);
	return n < IK_RTAPP_MAX_FORKS ? n : IK_RTAPP_MAX_FORKS;
}

/* Room for the instances fork events may start: every fork each can run, at most
   IK_RTAPP_MAX_FORKS per forked thread. */
static void count_fork_slots(struct ik_rtapp *r)
{
	for (int t = 0; t < r->ntasks; t++) {
		const struct ik_rtapp_task *task = &r->tasks[t];
		for (int ph = task->first_phase; ph < task->first_phase + task->nphases; ph++)
			for (int e = r->phases[ph].first_event;
			     e < r->phases[ph].first_event + r->phases[ph].nevents; e++) {
				if (r->events[e].kind != IK_RTAPP_FORK)
					continue;
				struct ik_rtapp_task *target = &r->tasks[r->events[e].res];
				int64_t n = target->forks + runs_of(r, task, ph) * task->instances;
				target->forks = (int)(n < IK_RTAPP_MAX_FORKS ? n : IK_RTAPP_MAX_FORKS);
			}
	}
}

int ik__rtapp_parse(const char *origin, const char *text, size_t len, struct ik_rtapp *out,
		   char *err, size_t errlen)
{
	struct reader rd = { .origin = origin ? origin : "<rt-app>", .err = err, .errlen = errlen };
	struct ik_rtapp r = { .duration_ns = -1 };
	json_error_t je;
	int rc = -1;

	rd.r = &r;
	char *strict = NULL;
	size_t slen = 0;
	if (ik__rtapp_dialect(rd.origin, text, len, &strict, &slen, r.notes, sizeof(r.notes)))
		return ik__errmsg(err, errlen, "%s: out of memory", rd.origin);
	json_t *root = json_loadb(strict, slen, JSON_REJECT_DUPLICATES, &je);
	free(strict);
	if (!root) /* the input's bytes, quoted: ik__errmsg keeps the message one line */
		return ik__errmsg(err, errlen, "%s:%d:%d: %s (JSON as rt-app reads it: comments, "
				  "trailing commas and repeated keys are taken)", rd.origin, je.line,
				  je.column, je.text);
	if (!json_is_object(root)) {
		fail(&rd, "(top)", "expected an object with \"tasks\" (and \"global\")");
		goto done;
	}
	const char *key;
	json_t *v;
	json_object_foreach(root, key, v) {
		if (strcmp(key, "global") && strcmp(key, "tasks") && strcmp(key, "resources")) {
			char p[256];
			join(p, sizeof(p), "", key);
			fail(&rd, p, "unknown key; an rt-app file has global, tasks and resources");
			goto done;
		}
	}
	json_t *g = json_object_get(root, "global");
	if (g && parse_global(&rd, g))
		goto done;
	rd.tasks = json_object_get(root, "tasks");
	if (!rd.tasks && (json_object_get(root, "global") || json_object_get(root, "resources"))) {
		fail(&rd, "tasks", "none: a fragment of an rt-app file (only \"%s\"), as rt-app's "
		     "doc/merge.py joins into one; give the joined file",
		     json_object_get(root, "global") ? "global" : "resources");
		goto done;
	}
	if (!rd.tasks || !json_is_object(rd.tasks) || json_object_size(rd.tasks) == 0) {
		fail(&rd, "tasks", "expected an object with at least one thread");
		goto done;
	}
	if (json_object_size(rd.tasks) > MAX_TASKS) {
		fail(&rd, "tasks", "more than %d threads", MAX_TASKS);
		goto done;
	}
	r.tasks = calloc(json_object_size(rd.tasks), sizeof(*r.tasks));
	if (!r.tasks) {
		fail(&rd, "tasks", "out of memory");
		goto done;
	}
	int64_t instances = 0;
	json_object_foreach(rd.tasks, key, v) {
		if (parse_task(&rd, key, v, r.ntasks, &r.tasks[r.ntasks]))
			goto done;
		instances += r.tasks[r.ntasks].instances;
		r.ntasks++;
	}
	if (instances > 65536 || instances == 0) {
		fail(&rd, "tasks", "expected 1 to 65536 thread instances in all, got %" PRId64,
		     instances);
		goto done;
	}
	count_barrier_users(&r);
	count_fork_slots(&r);
	for (int t = 0; t < r.ntasks; t++) {
		/* a thread that neither blocks nor takes time would hold simulated time still */
		const struct ik_rtapp_task *task = &r.tasks[t];
		bool progresses = false;
		for (int ph = task->first_phase; ph < task->first_phase + task->nphases; ph++)
			for (int e = r.phases[ph].first_event;
			     e < r.phases[ph].first_event + r.phases[ph].nevents; e++) {
				const struct ik_rtapp_event *ev = &r.events[e];
				progresses |= ((ev->kind == IK_RTAPP_RUN || ev->kind == IK_RTAPP_RUNTIME ||
						ev->kind == IK_RTAPP_SLEEP) && ev->ns > 0) ||
					      (ev->kind == IK_RTAPP_MEM && ev->bytes > 0) ||
					      ev->kind == IK_RTAPP_TIMER || ev->kind == IK_RTAPP_WAIT ||
					      ev->kind == IK_RTAPP_SYNC ||
					      ev->kind == IK_RTAPP_SUSPEND ||
					      (ev->kind == IK_RTAPP_BARRIER && r.res[ev->res].users > 1);
			}
		if (!progresses && task->loop < 0) {
			char p[256];
			join(p, sizeof(p), "tasks", task->name);
			fail(&rd, p, "loops forever without taking time or blocking: expected a run, "
			     "runtime, sleep, timer, wait, suspend or shared barrier event");
			goto done;
		}
	}
	*out = r;
	memset(&r, 0, sizeof(r));
	rc = 0;
done:
	json_decref(root);
	ik__rtapp_free(&r);
	return rc;
}

static int parse_file(const char *path, const char *text, size_t len, void *out, char *err,
		      size_t errlen)
{
	return ik__rtapp_parse(path, text, len, out, err, errlen);
}

int ik__rtapp_load(const char *path, struct ik_rtapp *out, char *err, size_t errlen)
{
	return ik__config_load_workload_file(path, parse_file, out, err, errlen);
}

void ik__rtapp_free(struct ik_rtapp *r)
{
	if (!r)
		return;
	free(r->tasks);
	free(r->phases);
	free(r->events);
	free(r->res);
	memset(r, 0, sizeof(*r));
}
