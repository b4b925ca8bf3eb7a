/*
 * The learned-workload file (format in src/config/learned_model.h): read, checking every
 * line, with one message "ORIGIN:LINE: expected ..., got ..." on the first bad one.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/learned_model.h"
#include "config/ini_common.h"
#include "util/errmsg.h"

#define MAX_CPUS 8192
#define MAX_NS IK_LEARNED_MAX_NS

static const char *const cause_names[IK_LEARNED_TASK_CAUSES] = {
	"timer", "tick", "ipi", "irq", "unknown", "remote", "softirq", "none", "local"
};

struct lreader {
	const char *origin;
	int line;
	char *err;
	size_t errlen;
};

static int fail(struct lreader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct lreader *r, const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->err && r->errlen)
		snprintf(r->err, r->errlen, "%s:%d: %s", r->origin, r->line, msg);
	return -1;
}

/* The next blank-separated word of *p (NUL-terminated in place), or NULL. */
static char *word(char **p)
{
	char *s = *p;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	char *e = s;
	while (*e && *e != ' ' && *e != '\t')
		e++;
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

static const char *shown(const char *w, char *buf, size_t len)
{
	size_t n = 0;
	for (; w && *w && n + 4 < len; w++)
		buf[n++] = (*w >= 0x20 && *w < 0x7f) ? *w : '?';
	buf[n] = '\0';
	return buf;
}

static int number(struct lreader *r, const char *w, long long max, const char *what, long long *out)
{
	char b[48];
	if (!w)
		return fail(r, "expected %s, got the end of the line", what);
	char *end;
	errno = 0;
	long long v = strtoll(w, &end, 10);
	if (*end || end == w || errno || v < 0 || v > max || w[0] == '-' || w[0] == '+')
		return fail(r, "expected %s (0..%lld), got '%s'", what, max, shown(w, b, sizeof(b)));
	*out = v;
	return 0;
}

/* The number of a line that comes once (key; seen: it came before), 0..max, what it is. */
static int once_number(struct lreader *r, char **p, const char *key, bool seen, long long max,
		       const char *what, long long *out)
{
	if (seen)
		return fail(r, "expected one '%s' line, got a second one", key);
	return number(r, word(p), max, what, out);
}

static int a_cause(struct lreader *r, char **p, int ncauses, int *cause)
{
	char b[48];
	const char *w = word(p);
	for (int k = 0; k < ncauses; k++)
		if (w && strcmp(w, cause_names[k]) == 0) {
			*cause = k;
			return 0;
		}
	return fail(r, "expected a cause (timer tick ipi irq unknown remote softirq none%s), got '%s'",
		    ncauses > IK_LEARNED_CAUSES ? " local" : "", w ? shown(w, b, sizeof(b)) : "");
}

static int cpu_cause(struct lreader *r, char **p, const struct ik_learned *m, int *cpu, int *cause)
{
	long long c;
	if (m->cpus == 0)
		return fail(r, "expected 'cpus N' before the CPUs' lines");
	if (number(r, word(p), m->cpus - 1, "a CPU number", &c))
		return -1;
	*cpu = (int)c;
	if (!cause)
		return 0;
	return a_cause(r, p, IK_LEARNED_CAUSES, cause);
}

/* The task of a task line (added at its first line), and the cause if asked. */
static int task_of(struct lreader *r, char **p, struct ik_learned *m, struct ik_learned_task **t,
		   int *cause)
{
	long long pid;
	if (m->cpus == 0)
		return fail(r, "expected 'cpus N' before the tasks' lines");
	if (number(r, word(p), 1LL << 62, "a PID", &pid))
		return -1;
	*t = NULL;
	for (int i = 0; i < m->ntasks; i++)
		if (m->task[i].pid == pid)
			*t = &m->task[i];
	if (!*t) {
		if (m->ntasks == IK_LEARNED_MAX_TASKS)
			return fail(r, "expected at most %d tasks, got more", IK_LEARNED_MAX_TASKS);
		if (m->ntasks == 0) {
			m->task = calloc(IK_LEARNED_MAX_TASKS, sizeof(*m->task));
			if (!m->task)
				return fail(r, "out of memory");
		}
		*t = &m->task[m->ntasks];
		(*t)->cpu_runs = calloc((size_t)m->cpus, sizeof(uint64_t));
		if (!(*t)->cpu_runs)
			return fail(r, "out of memory");
		(*t)->pid = pid;
		m->ntasks++;
	}
	return cause ? a_cause(r, p, IK_LEARNED_TASK_CAUSES, cause) : 0;
}

/* task_cpus PID CPU:RUNS ... */
static int task_cpus(struct lreader *r, char *p, struct ik_learned *m)
{
	struct ik_learned_task *t;
	char b[48];
	char *w;
	if (task_of(r, &p, m, &t, NULL))
		return -1;
	bool any = false;
	while ((w = word(&p))) {
		char *colon = strchr(w, ':');
		long long cpu, runs;
		if (!colon)
			return fail(r, "expected CPU:RUNS, got '%s'", shown(w, b, sizeof(b)));
		*colon = '\0';
		if (number(r, w, m->cpus - 1, "a CPU number", &cpu) ||
		    number(r, colon + 1, 1LL << 50, "a number of runs", &runs))
			return -1;
		if (t->cpu_runs[cpu])
			return fail(r, "expected each CPU once, got CPU %lld twice", cpu);
		t->cpu_runs[cpu] = (uint64_t)runs;
		any |= runs > 0;
	}
	if (!any)
		return fail(r, "expected at least one CPU:RUNS with runs, got none");
	return 0;
}

static int samples(struct lreader *r, char *p, struct ik_learned_samples *s)
{
	const char *w;
	if (s->n > 0)
		return fail(r, "expected one line of these per CPU and cause, got a second one");
	while ((w = word(&p))) {
		long long v;
		if (s->n == IK_LEARNED_MAX_SAMPLES)
			return fail(r, "expected at most %d samples, got more", IK_LEARNED_MAX_SAMPLES);
		if (number(r, w, MAX_NS, "a length in ns", &v))
			return -1;
		if (s->n > 0 && v < s->v[s->n - 1])
			return fail(r, "expected non-decreasing lengths, got %lld after %lld", v,
				    (long long)s->v[s->n - 1]);
		s->v[s->n++] = v;
	}
	if (s->n == 0)
		return fail(r, "expected at least one length in ns, got none");
	return 0;
}

/* task_run_cpus PID CAUSE CPU ...: one CPU per sample of the task_run line before it. */
static int run_cpus(struct lreader *r, char *p, const struct ik_learned *m,
		    struct ik_learned_task *t, int cause)
{
	const char *w;
	int n = 0;
	if (t->has_run_cpu[cause])
		return fail(r, "expected one task_run_cpus line per task and cause, got a second one");
	if (t->run[cause].n == 0)
		return fail(r, "expected the task_run line of this task and cause before its "
			       "task_run_cpus line");
	while ((w = word(&p))) {
		long long cpu;
		if (n == t->run[cause].n)
			return fail(r, "expected %d CPUs, one per run of the task_run line, got more",
				    t->run[cause].n);
		if (number(r, w, m->cpus - 1, "a CPU of the model", &cpu))
			return -1;
		t->run_cpu[cause][n++] = (int16_t)cpu;
	}
	if (n != t->run[cause].n)
		return fail(r, "expected %d CPUs, one per run of the task_run line, got %d",
			    t->run[cause].n, n);
	t->has_run_cpu[cause] = true;
	return 0;
}

static int parse_line(struct lreader *r, char *p, struct ik_learned *m, bool *header)
{
	char b[48];
	char *w = word(&p);
	if (!w || w[0] == '#')
		return 0;
	if (!*header) {
		const char *v = word(&p);
		if (strcmp(w, "idlekit-learned") || !v || strcmp(v, "1") || word(&p))
			return fail(r, "expected 'idlekit-learned 1', got '%s'", shown(w, b, sizeof(b)));
		*header = true;
		return 0;
	}
	if (!strcmp(w, "source")) {
		const char *v = word(&p);
		snprintf(m->source, sizeof(m->source), "%s", v ? v : "");
		return 0;
	}
	if (!strcmp(w, "cpus")) {
		long long n;
		if (once_number(r, &p, w, m->cpus != 0, MAX_CPUS, "a number of CPUs", &n))
			return -1;
		if (n == 0)
			return fail(r, "expected 1..%d CPUs, got 0", MAX_CPUS);
		m->cpu = calloc((size_t)n, sizeof(*m->cpu));
		if (!m->cpu)
			return fail(r, "out of memory");
		m->cpus = (int)n;
		return 0;
	}
	if (!strcmp(w, "span")) {
		long long n;
		if (once_number(r, &p, w, m->span_ns != 0, MAX_NS, "the recording's length in ns", &n))
			return -1;
		m->span_ns = n;
		if (word(&p))
			return fail(r, "expected the end of the line after its values");
		return 0;
	}
	int cpu = 0, cause = 0;
	if (!strcmp(w, "empty")) {
		long long n;
		if (cpu_cause(r, &p, m, &cpu, &cause) ||
		    number(r, word(&p), 1LL << 50, "a number of periods", &n))
			return -1;
		m->cpu[cpu].empty[cause] = (uint64_t)n;
	} else if (!strcmp(w, "busy_cpu")) {
		if (cpu_cause(r, &p, m, &cpu, NULL))
			return -1;
		m->cpu[cpu].always_busy = true;
	} else if (!strcmp(w, "cause")) {
		long long n;
		if (cpu_cause(r, &p, m, &cpu, &cause) ||
		    number(r, word(&p), 1LL << 50, "a number of periods", &n))
			return -1;
		m->cpu[cpu].periods[cause] = (uint64_t)n;
	} else if (!strcmp(w, "idle") || !strcmp(w, "busy")) {
		if (cpu_cause(r, &p, m, &cpu, &cause))
			return -1;
		return samples(r, p, w[0] == 'i' ? &m->cpu[cpu].idle[cause] : &m->cpu[cpu].busy[cause]);
	} else if (!strcmp(w, "task")) {
		struct ik_learned_task *t;
		long long n;
		if (task_of(r, &p, m, &t, &cause) ||
		    number(r, word(&p), 1LL << 50, "a number of wake-ups", &n))
			return -1;
		t->wakes[cause] = (uint64_t)n;
	} else if (!strcmp(w, "task_sleep") || !strcmp(w, "task_run")) {
		struct ik_learned_task *t;
		if (task_of(r, &p, m, &t, &cause))
			return -1;
		return samples(r, p, w[5] == 's' ? &t->sleep[cause] : &t->run[cause]);
	} else if (!strcmp(w, "task_run_cpus")) {
		struct ik_learned_task *t;
		if (task_of(r, &p, m, &t, &cause))
			return -1;
		return run_cpus(r, p, m, t, cause);
	} else if (!strcmp(w, "task_cpus")) {
		return task_cpus(r, p, m);
	} else {
		return fail(r, "expected source, cpus, span, cause, idle, busy, busy_cpu, empty, task, "
			       "task_sleep, task_run, task_run_cpus or task_cpus, got '%s'",
			    shown(w, b, sizeof(b)));
	}
	if (word(&p))
		return fail(r, "expected the end of the line after its values");
	return 0;
}

int ik__learned_parse(const char *origin, const char *text, size_t len, struct ik_learned *out,
		     char *err, size_t errlen)
{
	struct lreader r = { origin ? origin : "<learned>", 0, err, errlen };
	struct ik_learned m;
	bool header = false;
	size_t at = 0;
	char *line = malloc(65536);

	memset(&m, 0, sizeof(m));
	if (!line)
		return ik__errmsg(err, errlen, "out of memory");
	while (at < len) {
		size_t e = at;
		while (e < len && text[e] != '\n')
			e++;
		r.line++;
		size_t n = e - at;
		if (n && text[at + n - 1] == '\r')
			n--;
		if (n >= 65536 || memchr(text + at, '\0', n)) {
			fail(&r, "expected a text line shorter than 64 KiB");
			goto bad;
		}
		memcpy(line, text + at, n);
		line[n] = '\0';
		if (parse_line(&r, line, &m, &header))
			goto bad;
		at = e + 1;
	}
	r.line++;
	if (!header) {
		fail(&r, "expected 'idlekit-learned 1', got the end of the file");
		goto bad;
	}
	if (m.cpus == 0) {
		fail(&r, "expected a 'cpus N' line, got the end of the file");
		goto bad;
	}
	for (int c = 0; c < m.cpus; c++) {
		const struct ik_learned_cpu *cpu = &m.cpu[c];
		bool any = false;
		for (int k = 0; k < IK_LEARNED_CAUSES; k++) {
			if (cpu->periods[k] > 0 && cpu->idle[k].n == 0) {
				fail(&r, "CPU %d cause %s: expected its 'idle' line, got none", c,
				     cause_names[k]);
				goto bad;
			}
			any |= cpu->periods[k] > 0;
		}
		if (any && cpu->always_busy) {
			fail(&r, "CPU %d: expected either idle periods or busy_cpu, got both", c);
			goto bad;
		}
	}
	for (int i = 0; i < m.ntasks; i++) {
		const struct ik_learned_task *t = &m.task[i];
		uint64_t wakes = 0, runs = 0;
		for (int k = 0; k < IK_LEARNED_TASK_CAUSES; k++) {
			if (t->wakes[k] > 0 && t->sleep[k].n == 0) {
				fail(&r, "task %lld cause %s: expected its 'task_sleep' line, got none",
				     (long long)t->pid, cause_names[k]);
				goto bad;
			}
			wakes += t->wakes[k];
		}
		for (int c = 0; c < m.cpus; c++)
			runs += t->cpu_runs[c];
		if (wakes == 0 || runs == 0) {
			fail(&r, "task %lld: expected wake-ups ('task') and CPUs ('task_cpus'), got %s",
			     (long long)t->pid, wakes == 0 ? "no wake-ups" : "no CPUs");
			goto bad;
		}
	}
	free(line);
	*out = m;
	return 0;
bad:
	free(line);
	ik__learned_free(&m);
	return -1;
}

static int parse_file(const char *path, const char *text, size_t len, void *out, char *err,
		      size_t errlen)
{
	return ik__learned_parse(path, text, len, out, err, errlen);
}

int ik__learned_load(const char *path, struct ik_learned *out, char *err, size_t errlen)
{
	return ik__config_load_workload_file(path, parse_file, out, err, errlen);
}
