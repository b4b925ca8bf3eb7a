/*
 * Import of `perf script` text into idlekit's trace format (docs/trace-format.md, "Import").
 *
 * perf script prints one event per line in its default layout
 *
 *     COMM  PID [CPU] SECONDS.FRACTION:  SYS:EVENT: FIELDS
 *
 * (FRACTION has 6 digits, 9 with --ns; COMM may contain blanks, so the line is anchored on
 * the first "[CPU]" followed by a timestamp).  The events used:
 *
 *   power:cpu_idle state=N                 idle_enter N (4294967295 or -1: idle_exit)
 *   irq:irq_handler_entry irq=N            wake irq N  } the first of an idle period
 *   irq_vectors:reschedule_entry, call_function_entry, call_function_single_entry,
 *   ipi:ipi_entry                          wake ipi    }
 *   timer:hrtimer_expire_entry function=F  wake tick (F tick_nohz_handler, tick_sched_timer;
 *                                          with trace-cmd's "/0xSIZE" or "+0x0" after it)
 *                                          or wake timer
 *
 *   sched:sched_waking pid=P target_cpu=C  task_wake SRC P on CPU C (SRC: the CPU it was
 *                                          traced on); sched_wakeup the same, only if the
 *                                          input has no sched_waking (format 1.1)
 *   sched:sched_switch prev_pid= next_pid= switch PREV NEXT (1.1)
 *   (trace-cmd report's sched plugin: "COMM:PID [PRIO] CPU:C" and "PREV:PID [PRIO] S ==>
 *   NEXT:PID [PRIO]", the same)
 *   timer:tick_stop success=S              tick_stop S (1.1)
 *   timer:hrtimer_start/_cancel, and the expiry's hrtimer=
 *                                          timer_start/_cancel/_expire, only with
 *                                          clock_mono (perf record -k mono)
 *
 * perf's default clock is not the hrtimers' CLOCK_MONOTONIC, so an expiry time cannot be
 * placed on the trace's time line unless perf recorded with -k mono: then clock_mono says
 * so, and it is checked (ik_trace_clock_mono: every tick expiry's now= within a tolerance
 * derived from the offsets' spread).  Without it hrtimer_start/cancel are ignored and
 * counted, and the same check tells the caller whether the input looks like -k mono.  perf script has
 * no state table: the caller gives one, or a generic one is made.  The whole input is read,
 * sorted by time (stable) and then written, so a bad input writes nothing.
 *
 * Divisions: the text line parser (fields, time stamps, trace-cmd plugin forms, systems;
 * parse_line); the writer (records to events: emit, writer_record, write_events); streaming
 * (lines in, records through the reorder window, events to a spool, the header and
 * table, ik_trace_import_perf and ik_trace_import_text); sched events (ik_trace_sched_event);
 * records from trace.dat (ik_trace_import_records).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/analyze.h"
#include "trace/import.h"
#include "trace/import_internal.h"
#include "util/cpuset.h"

#define LINE_LIMIT (1u << 16)
#define IDLE_EXIT_STATE 4294967295u

enum { P_IDLE = IK_IMPORT_IDLE, P_IRQ = IK_IMPORT_IRQ, P_IPI = IK_IMPORT_IPI,
       P_TIMER = IK_IMPORT_TIMER, P_TICK = IK_IMPORT_TICK };

struct plist {
	struct ik_trace_import_rec *v;
	size_t n, cap;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Printable excerpt of a line for messages. */
static void excerpt(char *dst, size_t n, const char *s, size_t len)
{
	size_t j = 0;
	for (size_t i = 0; i < len && j + 1 < n; i++)
		dst[j++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (len >= n && n > 4) {
		dst[n - 4] = dst[n - 3] = dst[n - 2] = '.';
		j = n - 1;
	}
	dst[j] = '\0';
}

/* Digits at s[*i..]: at most maxd of them, value <= max; -1 if none or too many. */
static int digits(const char *s, size_t len, size_t *i, int maxd, uint64_t max, uint64_t *v,
		  int *nd)
{
	uint64_t x = 0;
	int n = 0;
	while (*i < len && digit(s[*i])) {
		if (++n > maxd)
			return -1;
		x = x * 10 + (uint64_t)(s[*i] - '0');
		(*i)++;
	}
	if (n == 0 || x > max)
		return -1;
	*v = x;
	if (nd)
		*nd = n;
	return 0;
}

/*
 * "[CPU] SECONDS.FRACTION:" at l[p] (l[p] == '['): CPU, time in ns, and the index after the
 * colon; -1 if the text there is not that.
 */
static int stamp_at(const char *l, size_t len, size_t p, int *cpu, int64_t *t, size_t *after)
{
	size_t i = p + 1;
	uint64_t c, sec, frac;
	int nd;
	if (digits(l, len, &i, 5, IK_TRACE_MAX_CPUS - 1, &c, NULL) || i >= len || l[i] != ']')
		return -1;
	i++;
	if (i >= len || !blank(l[i]))
		return -1;
	while (i < len && blank(l[i]))
		i++;
	/* ftrace and trace-cmd report -l: the irq-info flags ("d..2.", "dNh1") before the time */
	if (i < len && !digit(l[i])) {
		size_t j = i;
		while (j < len && !blank(l[j]) && strchr("dDnNhHsSbBzZX.0123456789", l[j]))
			j++;
		if (j == i || j >= len || !blank(l[j]))
			return -1;
		i = j;
		while (i < len && blank(l[i]))
			i++;
	}
	/* Seconds: at most 9223372035, so that the time in ns fits an int64. */
	if (digits(l, len, &i, 10, (uint64_t)INT64_MAX / 1000000000u - 1, &sec, NULL) ||
	    i >= len || l[i] != '.')
		return -1;
	i++;
	if (digits(l, len, &i, 9, 999999999u, &frac, &nd) || i >= len || l[i] != ':')
		return -1;
	for (int k = nd; k < 9; k++)
		frac *= 10;
	*cpu = (int)c;
	*t = (int64_t)(sec * 1000000000u + frac);
	*after = i + 1;
	return 0;
}

/* The value of "KEY=" at the start of a word in [s, s+len), or NULL; its length in *vl. */
static const char *field(const char *s, size_t len, const char *key, size_t *vl)
{
	size_t kl = strlen(key);
	for (size_t i = 0; i + kl <= len; i++) {
		if ((i == 0 || blank(s[i - 1])) && memcmp(s + i, key, kl) == 0) {
			size_t j = i + kl;
			while (j < len && !blank(s[j]))
				j++;
			*vl = j - i - kl;
			return s + i + kl;
		}
	}
	return NULL;
}

/*
 * trace-cmd report's sched plugin (libtraceevent's plugin_sched_switch) prints a task as
 * "COMM:PID [PRIO]" instead of the event's own format: the PID before the " [" at
 * s[b] (b the index of the blank).  COMM may hold ':' and blanks, so from the right.
 */
static bool plugin_pid(const char *s, size_t b, uint64_t *pid)
{
	size_t e = b, i = b;
	while (i > 0 && digit(s[i - 1]))
		i--;
	if (i == e || i == 0 || s[i - 1] != ':')
		return false;
	size_t k = i;
	return digits(s, e, &k, 10, INT32_MAX, pid, NULL) == 0 && k == e;
}

/* The index of the last " [" in s[from, to), or SIZE_MAX. */
static size_t last_bracket(const char *s, size_t from, size_t to)
{
	for (size_t i = to; i >= from + 2; i--)
		if (s[i - 2] == ' ' && s[i - 1] == '[')
			return i - 2;
	return SIZE_MAX;
}

/* The plugin's sched_waking/_wakeup: "COMM:PID [PRIO] [success=1 ]CPU:NNN". */
static bool plugin_wakeup(const char *s, size_t len, uint64_t *pid, uint64_t *cpu)
{
	size_t vl, k = 0;
	const char *v = field(s, len, "CPU:", &vl);
	if (!v || digits(v, vl, &k, 10, IK_TRACE_MAX_CPUS - 1, cpu, NULL) || k != vl)
		return false;
	size_t b = last_bracket(s, 0, (size_t)(v - s));
	return b != SIZE_MAX && plugin_pid(s, b, pid);
}

/* The plugin's sched_switch: "PREV:PID [PRIO] STATE ==> NEXT:PID [PRIO]". */
static bool plugin_switch(const char *s, size_t len, uint64_t *prev, uint64_t *next)
{
	size_t a = SIZE_MAX;
	for (size_t i = 0; i + 5 <= len; i++)
		if (memcmp(s + i, " ==> ", 5) == 0)
			a = i; /* the last one: a COMM may hold it */
	if (a == SIZE_MAX)
		return false;
	size_t b = last_bracket(s, 0, a), c = last_bracket(s, a + 5, len);
	return b != SIZE_MAX && c != SIZE_MAX && plugin_pid(s, b, prev) && plugin_pid(s, c, next);
}

/* "KEY=0xHEX" (or bare hex) at a word start: true with *out set. */
static bool hex_field(const char *s, size_t len, const char *key, uint64_t *out)
{
	size_t vl;
	const char *v = field(s, len, key, &vl);
	if (!v)
		return false;
	if (vl > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		v += 2;
		vl -= 2;
	}
	if (vl == 0 || vl > 16)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < vl; i++) {
		char c = v[i];
		unsigned d = digit(c) ? (unsigned)(c - '0') : (c >= 'a' && c <= 'f') ? (unsigned)(c - 'a' + 10)
			   : (c >= 'A' && c <= 'F') ? (unsigned)(c - 'A' + 10) : 16u;
		if (d > 15)
			return false;
		x = x << 4 | d;
	}
	*out = x;
	return true;
}

static bool equals(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

/* The system of an event ftrace prints by name alone ("" if not one of ours). */
static const char *system_of(const char *name, size_t nl)
{
	static const struct { const char *sys, *name; } known[] = {
		{ "power", "cpu_idle" }, { "power", "cpu_frequency" },
		{ "irq", "irq_handler_entry" }, { "irq", "irq_handler_exit" },
		{ "irq", "softirq_entry" }, { "irq", "softirq_exit" },
		{ "irq_vectors", "reschedule_entry" }, { "irq_vectors", "reschedule_exit" },
		{ "irq_vectors", "call_function_entry" }, { "irq_vectors", "call_function_exit" },
		{ "irq_vectors", "call_function_single_entry" },
		{ "irq_vectors", "call_function_single_exit" },
		{ "ipi", "ipi_entry" }, { "ipi", "ipi_exit" }, { "ipi", "ipi_send_cpu" },
		{ "ipi", "ipi_send_cpumask" }, { "timer", "hrtimer_expire_entry" },
		{ "timer", "hrtimer_start" }, { "timer", "hrtimer_cancel" }, { "timer", "tick_stop" },
		{ "sched", "sched_waking" }, { "sched", "sched_wakeup" }, { "sched", "sched_switch" },
	};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i].name) == nl && memcmp(known[i].name, name, nl) == 0)
			return known[i].sys;
	return "";
}

/* What a line gives beyond its record: a cpumask's CPUs, an IRQ's name. */
struct pctx {
	bool bare_names;              /* events may be "NAME:" (ftrace, trace-cmd report) */
	struct ik_cpuset mask;        /* ipi_send_cpumask: the targets (r->arg = -2) */
	struct ik_trace_header names; /* IRQ names seen (nirqs, irqs) */
	bool names_full;
};

/*
 * One line: 0 with *r filled, 1 for an event of another kind, -1 if an event line is bad
 * (its event or a field: message in why), NOT_EVENT if the line has no "[CPU] TIME:" stamp
 * at all (message in why too: in a text's header that is a header line, elsewhere an
 * error).  maxstate: the largest state index accepted.
 */
#define NOT_EVENT (-2)

static int parse_line(struct pctx *px, const char *l, size_t len, int maxstate,
		      struct ik_trace_import_rec *r, char *why, size_t whylen)
{
	char got[80];
	size_t i = 0, after = 0;
	bool found = false;

	for (const char *q = memchr(l, '[', len); q; q = memchr(q + 1, '[', len - (size_t)(q + 1 - l))) {
		size_t p = (size_t)(q - l);
		if ((p == 0 || blank(l[p - 1])) && stamp_at(l, len, p, &r->cpu, &r->t_ns, &after) == 0) {
			found = true;
			break;
		}
		if (p + 1 >= len)
			break;
	}
	if (!found) {
		excerpt(got, sizeof(got), l, len);
		snprintf(why, whylen, "expected perf script's 'COMM PID [CPU] SECONDS.FRACTION: SYS:EVENT: FIELDS', got '%s'",
			 got);
		return NOT_EVENT;
	}
	i = after;
	while (i < len && blank(l[i]))
		i++;
	/* The event: SYS:NAME: */
	size_t e0 = i;
	while (i < len && !blank(l[i]))
		i++;
	size_t el = i - e0;
	const char *ev = l + e0;
	const char *colon = el >= 2 ? memchr(ev, ':', el - 1) : NULL;
	if (el < 2 || ev[el - 1] != ':' || colon == ev || (!colon && !px->bare_names) ||
	    (colon && el < 4)) {
		excerpt(got, sizeof(got), ev, el);
		snprintf(why, whylen, "expected an event '%s' after the time, got '%s'",
			 px->bare_names ? "NAME:' or 'SYS:NAME:" : "SYS:NAME:", got);
		return -1;
	}
	const char *sys, *name;
	size_t sl, nl;
	if (colon) {
		sys = ev;
		name = colon + 1;
		sl = (size_t)(colon - ev);
		nl = el - 1 - sl - 1;
	} else {
		/* ftrace and trace-cmd print the event's name alone */
		name = ev;
		nl = el - 1;
		sys = system_of(name, nl);
		sl = strlen(sys);
	}
	while (i < len && blank(l[i]))
		i++;
	const char *rest = l + i;
	size_t rl = len - i;
	size_t vl;
	const char *v;
	uint64_t x = 0;
	size_t k = 0;

	if (equals(sys, sl, "power") && equals(name, nl, "cpu_idle")) {
		v = field(rest, rl, "state=", &vl);
		if (v && vl == 2 && memcmp(v, "-1", 2) == 0) {
			r->arg = -1;
		} else if (!v || digits(v, vl, &k, 10, IDLE_EXIT_STATE, &x, NULL) || k != vl) {
			excerpt(got, sizeof(got), v ? v : rest, v ? vl : rl);
			snprintf(why, whylen, "expected 'state=N' in power:cpu_idle, got '%s'", got);
			return -1;
		} else if (x == IDLE_EXIT_STATE) {
			r->arg = -1;
		} else if (x > (uint64_t)maxstate) {
			snprintf(why, whylen, "expected a state 0..%d (the table's), got state=%" PRIu64,
				 maxstate, x);
			return -1;
		} else {
			r->arg = (int64_t)x;
		}
		r->kind = P_IDLE;
		return 0;
	}
	if (equals(sys, sl, "irq") && equals(name, nl, "irq_handler_entry")) {
		v = field(rest, rl, "irq=", &vl);
		if (!v || digits(v, vl, &k, 10, INT32_MAX, &x, NULL) || k != vl) {
			excerpt(got, sizeof(got), v ? v : rest, v ? vl : rl);
			snprintf(why, whylen, "expected 'irq=N' in irq:irq_handler_entry, got '%s'", got);
			return -1;
		}
		r->kind = P_IRQ;
		r->arg = (int64_t)x;
		v = field(rest, rl, "name=", &vl);
		if (v && vl > 0 && !px->names_full) {
			const char *old = ik_trace_irq_name(&px->names, r->arg);
			if (!old || strlen(old) != (vl < IK_TRACE_IRQ_NAME_LEN ? vl : IK_TRACE_IRQ_NAME_LEN - 1) ||
			    memcmp(old, v, strlen(old)) != 0)
				px->names_full = ik_trace_irq_name_set(&px->names, r->arg, v, vl) != 0;
		}
		return 0;
	}
	if (equals(sys, sl, "power") && equals(name, nl, "cpu_frequency")) {
		uint64_t khz, cpu;
		size_t k2 = 0;
		const char *sv = field(rest, rl, "state=", &vl);
		size_t svl = vl;
		v = field(rest, rl, "cpu_id=", &vl);
		if (!sv || digits(sv, svl, &k, 10, UINT32_MAX, &khz, NULL) || k != svl || khz == 0 || !v ||
		    digits(v, vl, &k2, 10, IK_TRACE_MAX_CPUS - 1, &cpu, NULL) || k2 != vl) {
			excerpt(got, sizeof(got), rest, rl);
			snprintf(why, whylen, "expected 'state=KHZ cpu_id=N' (N < %d) in power:cpu_frequency, got '%s'",
				 IK_TRACE_MAX_CPUS, got);
			return -1;
		}
		r->kind = IK_IMPORT_FREQ;
		r->arg2 = r->cpu;  /* the one that traced it: its stream (import_spill.c) */
		r->cpu = (int)cpu; /* the CPU changed, not the one that traced it */
		r->arg = (int64_t)khz;
		return 0;
	}
	if (equals(sys, sl, "irq") && equals(name, nl, "softirq_entry")) {
		v = field(rest, rl, "vec=", &vl);
		if (!v || digits(v, vl, &k, 10, INT32_MAX, &x, NULL) || k != vl) {
			excerpt(got, sizeof(got), v ? v : rest, v ? vl : rl);
			snprintf(why, whylen, "expected 'vec=N' in irq:softirq_entry, got '%s'", got);
			return -1;
		}
		r->kind = IK_IMPORT_SOFTIRQ;
		r->arg = (int64_t)x;
		return 0;
	}
	if (equals(sys, sl, "ipi") && equals(name, nl, "ipi_send_cpu")) {
		v = field(rest, rl, "cpu=", &vl);
		if (!v || digits(v, vl, &k, 10, IK_TRACE_MAX_CPUS - 1, &x, NULL) || k != vl) {
			excerpt(got, sizeof(got), v ? v : rest, v ? vl : rl);
			snprintf(why, whylen, "expected 'cpu=N' (N < %d) in ipi:ipi_send_cpu, got '%s'",
				 IK_TRACE_MAX_CPUS, got);
			return -1;
		}
		r->kind = IK_IMPORT_IPI_SEND;
		r->arg = (int64_t)x;
		return 0;
	}
	if (equals(sys, sl, "ipi") && equals(name, nl, "ipi_send_cpumask")) {
		char list[512], perr[128];
		v = field(rest, rl, "cpumask=", &vl);
		if (v && vl < sizeof(list)) {
			memcpy(list, v, vl);
			list[vl] = '\0';
		}
		if (!v || vl >= sizeof(list) ||
		    ik_cpulist_parse(list, IK_TRACE_MAX_CPUS, true, &px->mask, perr, sizeof(perr))) {
			excerpt(got, sizeof(got), v ? v : rest, v ? vl : rl);
			snprintf(why, whylen, "expected 'cpumask=LIST' (CPUs below %d, as 0-3,8) in ipi:ipi_send_cpumask, got '%s'",
				 IK_TRACE_MAX_CPUS, got);
			return -1;
		}
		r->kind = IK_IMPORT_IPI_SEND;
		r->arg = -2;
		return 0;
	}
	if ((equals(sys, sl, "ipi") && equals(name, nl, "ipi_exit")) ||
	    (equals(sys, sl, "irq_vectors") &&
	     (equals(name, nl, "reschedule_exit") || equals(name, nl, "call_function_exit") ||
	      equals(name, nl, "call_function_single_exit")))) {
		r->kind = IK_IMPORT_IPI_EXIT;
		return 0;
	}
	if ((equals(sys, sl, "irq_vectors") &&
	     (equals(name, nl, "reschedule_entry") || equals(name, nl, "call_function_entry") ||
	      equals(name, nl, "call_function_single_entry"))) ||
	    (equals(sys, sl, "ipi") && equals(name, nl, "ipi_entry"))) {
		r->kind = P_IPI;
		r->arg = -1;
		return 0;
	}
	if (equals(sys, sl, "timer") && equals(name, nl, "hrtimer_expire_entry")) {
		v = field(rest, rl, "function=", &vl);
		/*
		 * trace-cmd report prints "tick_nohz_handler/0x0" (the symbol's size after it);
		 * "+0x0" is the symbol's start too, any other offset is another function (one
		 * the file's kallsyms does not name).
		 */
		for (size_t j = 0; v && j < vl; j++)
			if (v[j] == '/') {
				vl = j;
				break;
			}
		if (v && vl > 4 && memcmp(v + vl - 4, "+0x0", 4) == 0)
			vl -= 4;
		bool tick = v && (equals(v, vl, "tick_nohz_handler") || equals(v, vl, "tick_sched_timer"));
		r->kind = tick ? P_TICK : P_TIMER;
		r->arg = -1;
		r->arg2 = -1;
		hex_field(rest, rl, "hrtimer=", &r->id);
		v = field(rest, rl, "now=", &vl);
		if (v && digits(v, vl, &k, 19, INT64_MAX, &x, NULL) == 0 && k == vl)
			r->arg2 = (int64_t)x; /* the hrtimer base's time at expiry: the clock check */
		return 0;
	}
	if (equals(sys, sl, "timer") && (equals(name, nl, "hrtimer_start") || equals(name, nl, "hrtimer_cancel"))) {
		bool start = name[8] == 's';
		v = start ? field(rest, rl, "expires=", &vl) : NULL;
		if (!hex_field(rest, rl, "hrtimer=", &r->id) ||
		    (start && (!v || digits(v, vl, &k, 19, INT64_MAX, &x, NULL) || k != vl))) {
			excerpt(got, sizeof(got), rest, rl);
			snprintf(why, whylen, "expected 'hrtimer=0xADDR%s' in timer:%s, got '%s'",
				 start ? " ... expires=N" : "", start ? "hrtimer_start" : "hrtimer_cancel", got);
			return -1;
		}
		r->kind = start ? IK_IMPORT_TSTART : IK_IMPORT_TCANCEL;
		r->arg = start ? (int64_t)x : -1;
		return 0;
	}
	if (equals(sys, sl, "sched") &&
	    (equals(name, nl, "sched_waking") || equals(name, nl, "sched_wakeup"))) {
		uint64_t pid, cpu;
		size_t k2 = 0;
		const char *pv = field(rest, rl, "pid=", &vl);
		size_t pl = vl;
		v = field(rest, rl, "target_cpu=", &vl);
		if ((!pv || digits(pv, pl, &k, 10, INT32_MAX, &pid, NULL) || k != pl || !v ||
		     digits(v, vl, &k2, 10, IK_TRACE_MAX_CPUS - 1, &cpu, NULL) || k2 != vl) &&
		    (pv || !plugin_wakeup(rest, rl, &pid, &cpu))) {
			excerpt(got, sizeof(got), rest, rl);
			snprintf(why, whylen, "expected 'pid=N ... target_cpu=C'%s (C < %d) in sched:%.12s, got '%s'",
				 pv ? "" : " or trace-cmd's 'COMM:N [PRIO] CPU:C'", IK_TRACE_MAX_CPUS, name, got);
			return -1;
		}
		r->kind = name[11] == 'g' ? IK_IMPORT_WAKING : IK_IMPORT_WAKEUP;
		r->arg = (int64_t)pid;
		r->arg2 = (int64_t)cpu;
		return 0;
	}
	if (equals(sys, sl, "sched") && equals(name, nl, "sched_switch")) {
		uint64_t prev, next;
		size_t k2 = 0;
		const char *pv = field(rest, rl, "prev_pid=", &vl);
		size_t pl = vl;
		v = field(rest, rl, "next_pid=", &vl);
		if ((!pv || digits(pv, pl, &k, 10, INT32_MAX, &prev, NULL) || k != pl || !v ||
		     digits(v, vl, &k2, 10, INT32_MAX, &next, NULL) || k2 != vl) &&
		    (pv || !plugin_switch(rest, rl, &prev, &next))) {
			excerpt(got, sizeof(got), rest, rl);
			snprintf(why, whylen, "expected 'prev_pid=N ... next_pid=M'%s in sched:sched_switch, got '%s'",
				 pv ? "" : " or trace-cmd's 'PREV:N [PRIO] S ==> NEXT:M [PRIO]'", got);
			return -1;
		}
		r->kind = IK_IMPORT_SWITCH;
		r->arg = (int64_t)prev;
		r->arg2 = (int64_t)next;
		return 0;
	}
	if (equals(sys, sl, "timer") && equals(name, nl, "tick_stop")) {
		v = field(rest, rl, "success=", &vl);
		if (!v || digits(v, vl, &k, 10, UINT32_MAX, &x, NULL) || k != vl) {
			excerpt(got, sizeof(got), v ? v : rest, v ? vl : rl);
			snprintf(why, whylen, "expected 'success=N' in timer:tick_stop, got '%s'", got);
			return -1;
		}
		r->kind = IK_IMPORT_TICK_STOP;
		r->arg = x != 0;
		return 0;
	}
	return 1;
}

static int by_time(const void *a, const void *b)
{
	const struct ik_trace_import_rec *x = a, *y = b;
	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The stream a text record spills to: the CPU that traced it (import_spill.c). */
static int stream_of(const struct ik_trace_import_rec *r)
{
	return r->kind == IK_IMPORT_FREQ ? (int)r->arg2 : r->cpu;
}

static int emit(FILE *out, struct ik_trace_import_stats *st, const struct ik_trace_event *ev)
{
	st->written++;
	return ik_trace_write_event(out, ev);
}

/*
 * Records in time order to trace events (src/trace/import_perf.c's rules, docs/trace-
 * format.md "Import"): per CPU, whether it is idle, whether its period still wants a cause,
 * when it exited and whether it did anything since, and the IPIs sent to it.
 */
struct wcpu {
	bool idle, want_cause, busy, seen; /* seen: a cpu_idle has been */
	int64_t exit_ns;
	int ipi_from;       /* the sender of the last IPI sent to it, not yet received (-1) */
	int in_ipi_from;    /* in an IPI handler: its sender (-1 unknown); -2 not in one */
	int64_t in_ipi_ns;  /* when that handler started */
};

struct writer {
	FILE *out;
	int cpus;
	bool timers, have_waking;
	bool mark_wakeups;  /* streaming: sched_wakeup lines marked '~' (kept or dropped at the
			       end, once it is known whether the input has sched_waking) */
	uint64_t marked;
	struct ik_trace_import_stats *st;
	struct wcpu *c;
};

static int writer_init(struct writer *w, FILE *out, int cpus, bool timers, bool have_waking,
		       struct ik_trace_import_stats *st)
{
	*w = (struct writer){ .out = out, .cpus = cpus, .timers = timers, .have_waking = have_waking,
			      .st = st };
	w->c = malloc((size_t)cpus * sizeof(*w->c));
	if (!w->c)
		return IK_TRACE_EFAIL;
	for (int i = 0; i < cpus; i++)
		w->c[i] = (struct wcpu){ .ipi_from = -1, .in_ipi_from = -2 };
	return IK_TRACE_OK;
}

static void writer_free(struct writer *w)
{
	free(w->c);
	w->c = NULL;
}

/* An interrupt-like record: the period's cause if it is the first one inside the period,
   or the first one right after the exit (IK_TRACE_WAKE_AFTER_EXIT_NS, nothing done since). */
static bool takes_cause(const struct wcpu *c, int64_t t)
{
	if (!c->want_cause)
		return false;
	return c->idle || (!c->busy && t - c->exit_ns <= IK_TRACE_WAKE_AFTER_EXIT_NS);
}

static int writer_record(struct writer *w, const struct ik_trace_import_rec *r)
{
	struct ik_trace_event ev = { .t_ns = r->t_ns, .cpu = r->cpu, .arg = -1 };
	struct wcpu *c = &w->c[r->cpu];
	struct ik_trace_import_stats *st = w->st;
	int rc;
	/* an IPI handler seen without its exit ends after the window */
	if (c->in_ipi_from != -2 && r->t_ns - c->in_ipi_ns > IK_TRACE_WAKE_AFTER_EXIT_NS)
		c->in_ipi_from = -2;
	switch (r->kind) {
	case P_IDLE:
		if (r->arg < 0 ? !c->idle : c->idle) {
			/* an exit before any entry: the CPU was idle when the recording began */
			if (r->arg < 0 && !c->seen)
				st->edge_start++;
			else
				st->dropped++; /* an entry or exit lost */
			c->seen = true;
			return IK_TRACE_OK;
		}
		c->seen = true;
		if (r->arg < 0) {
			ev.kind = IK_TRACE_IDLE_EXIT;
			c->idle = false;
			c->exit_ns = r->t_ns;
			c->busy = false;
		} else {
			ev.kind = IK_TRACE_IDLE_ENTER;
			ev.state = (int)r->arg;
			c->idle = c->want_cause = true;
			c->in_ipi_from = -2;
		}
		return emit(w->out, st, &ev);
	case IK_IMPORT_IPI_SEND:
		if (r->arg >= 0 && r->arg < w->cpus && r->arg != r->cpu)
			w->c[r->arg].ipi_from = r->cpu;
		if (!c->idle)
			c->busy = true;
		return IK_TRACE_OK;
	case IK_IMPORT_IPI_EXIT:
		c->in_ipi_from = -2;
		return IK_TRACE_OK;
	case IK_IMPORT_FREQ:
		ev.kind = IK_TRACE_FREQ;
		ev.arg = r->arg;
		return emit(w->out, st, &ev);
	case IK_IMPORT_WAKING:
	case IK_IMPORT_WAKEUP: {
		int src = r->cpu;
		/* traced on the wakee inside the IPI handler of a known sender: the sender's */
		if (r->arg2 == r->cpu && c->in_ipi_from >= 0)
			src = c->in_ipi_from;
		if (!ik_trace_sched_event(r->kind, src, r->arg, r->arg2, w->have_waking, w->cpus, &ev))
			return IK_TRACE_OK;
		if (src == r->cpu && !c->idle)
			c->busy = true;
		if (w->mark_wakeups && r->kind == IK_IMPORT_WAKEUP) {
			w->marked++;
			if (fputc('~', w->out) == EOF)
				return IK_TRACE_EFAIL;
		}
		return emit(w->out, st, &ev);
	}
	case IK_IMPORT_SWITCH:
	case IK_IMPORT_TICK_STOP:
		if (!ik_trace_sched_event(r->kind, r->cpu, r->arg, r->arg2, w->have_waking, w->cpus, &ev))
			return IK_TRACE_OK;
		if (!c->idle)
			c->busy = true;
		return emit(w->out, st, &ev);
	case IK_IMPORT_TSTART:
	case IK_IMPORT_TCANCEL:
		if (!c->idle)
			c->busy = true;
		if (!w->timers)
			return IK_TRACE_OK;
		ev.kind = r->kind == IK_IMPORT_TSTART ? IK_TRACE_TIMER_START : IK_TRACE_TIMER_CANCEL;
		ev.arg = r->kind == IK_IMPORT_TSTART ? r->arg : -1;
		ev.timer_id = r->id;
		return emit(w->out, st, &ev);
	default:
		break;
	}
	/* An interrupt: IRQ, IPI, softirq, timer or tick expiry. */
	if (r->kind == P_IPI) {
		c->in_ipi_from = c->ipi_from;
		c->in_ipi_ns = r->t_ns;
		c->ipi_from = -1;
	}
	if (takes_cause(c, r->t_ns)) {
		c->want_cause = false;
		ev.kind = IK_TRACE_WAKE;
		ev.cause = r->kind == P_IRQ ? IK_CAUSE_IRQ : r->kind == P_IPI ? IK_CAUSE_IPI :
			   r->kind == IK_IMPORT_SOFTIRQ ? IK_CAUSE_SOFTIRQ :
			   r->kind == P_TICK ? IK_CAUSE_TICK : IK_CAUSE_TIMER;
		ev.arg = r->kind == P_IRQ || r->kind == IK_IMPORT_SOFTIRQ ? r->arg : -1;
		if (r->kind == P_IPI && c->in_ipi_from >= 0) {
			ev.src_cpu = c->in_ipi_from;
			ev.ipi_src = true;
			st->ipi_senders++;
		}
		if ((rc = emit(w->out, st, &ev)) != IK_TRACE_OK)
			return rc;
	} else if (c->want_cause && !c->idle && (r->kind == P_TICK || r->kind == P_TIMER)) {
		st->late_ticks++; /* fired after the exit while the CPU was busy: not the cause */
	}
	/* With timers on the trace's clock, an expiry removes the timer. */
	if (!w->timers || (r->kind != P_TICK && r->kind != P_TIMER))
		return IK_TRACE_OK;
	ev = (struct ik_trace_event){ .t_ns = r->t_ns, .cpu = r->cpu, .arg = -1,
				      .kind = IK_TRACE_TIMER_EXPIRE, .timer_id = r->id };
	return emit(w->out, st, &ev);
}

/* The sorted records as trace events. */
static int write_events(FILE *out, const struct plist *pl, int cpus, bool timers,
			bool have_waking, struct ik_trace_import_stats *st)
{
	struct writer w;
	int rc = writer_init(&w, out, cpus, timers, have_waking, st);
	for (size_t i = 0; i < pl->n && rc == IK_TRACE_OK; i++)
		rc = writer_record(&w, &pl->v[i]);
	for (int i = 0; rc == IK_TRACE_OK && i < cpus; i++)
		st->edge_end += w.c[i].idle; /* still idle at the end: a partial period */
	writer_free(&w);
	return rc;
}

/* ---- Streaming: lines in, records through the reorder window, events to a spool -------- */

#define READ_CHUNK (1u << 20)

struct line_reader {
	FILE *in;
	char *buf;
	size_t len, pos; /* valid bytes, next unread */
	bool eof;
};

/* The next line without its '\n' (NULL at the end); *toolong when over LINE_LIMIT. */
static const char *read_line(struct line_reader *lr, size_t *len, bool *toolong, int *rc)
{
	*toolong = false;
	*rc = 0;
	for (;;) {
		const char *start = lr->buf + lr->pos;
		size_t avail = lr->len - lr->pos;
		const char *nl = memchr(start, '\n', avail);
		if (nl) {
			*len = (size_t)(nl - start);
			lr->pos += *len + 1;
			*toolong = *len >= LINE_LIMIT;
			return start;
		}
		if (lr->eof) {
			if (avail == 0)
				return NULL;
			*len = avail;
			lr->pos = lr->len;
			*toolong = *len >= LINE_LIMIT;
			return start;
		}
		if (avail >= LINE_LIMIT) { /* no end within the limit: skip to the next '\n' */
			*toolong = true;
			*len = 0;
			for (;;) {
				size_t got = fread(lr->buf, 1, READ_CHUNK, lr->in);
				lr->pos = 0;
				lr->len = got;
				if (got == 0) {
					lr->eof = true;
					if (ferror(lr->in))
						*rc = -1;
					return lr->buf;
				}
				const char *e = memchr(lr->buf, '\n', got);
				if (e) {
					lr->pos = (size_t)(e - lr->buf) + 1;
					return lr->buf;
				}
			}
		}
		memmove(lr->buf, start, avail);
		lr->len = avail;
		lr->pos = 0;
		size_t got = fread(lr->buf + avail, 1, READ_CHUNK, lr->in);
		lr->len += got;
		if (got == 0) {
			lr->eof = true;
			if (ferror(lr->in)) {
				*rc = -1;
				return NULL;
			}
		}
	}
}

/* trace_pipe's "CPU:N [LOST M EVENTS]" */
static bool has_lost(const char *l, size_t len)
{
	for (size_t i = 0; i + 6 <= len; i++)
		if (l[i] == '[' && memcmp(l + i, "[LOST ", 6) == 0)
			return true;
	return false;
}

/* The spool (events as written) after the header, sched_wakeup lines kept or dropped. */
static int copy_spool(FILE *spool, FILE *out, bool drop_marked, uint64_t marked,
		      struct ik_trace_import_stats *st)
{
	char buf[1 << 16];
	size_t n;
	if (fflush(spool) || fseek(spool, 0, SEEK_SET))
		return IK_TRACE_EFAIL;
	if (!marked) {
		while ((n = fread(buf, 1, sizeof(buf), spool)) > 0)
			if (fwrite(buf, 1, n, out) != n)
				return IK_TRACE_EFAIL;
		return ferror(spool) ? IK_TRACE_EFAIL : IK_TRACE_OK;
	}
	char line[IK_TRACE_LINE_MAX];
	while (fgets(line, sizeof(line), spool)) {
		if (line[0] == '~') {
			if (drop_marked) {
				st->written--;
				continue;
			}
			fputs(line + 1, out);
		} else {
			fputs(line, out);
		}
	}
	return ferror(spool) || ferror(out) ? IK_TRACE_EFAIL : IK_TRACE_OK;
}

/*
 * The header's state table: the given one, or (none given) the generic state0..stateN-1
 * with N = the deepest state seen + 1 (st->generic set); names made one word (blanks '_')
 * as the format wants.  st->nstates set.  -1 (message in err) if the table is refused.
 */
static int header_table(const struct ik_driver *given, int maxstate, struct ik_driver *tab,
			struct ik_trace_import_stats *st, char *err, size_t errlen)
{
	if (given) {
		*tab = *given;
	} else {
		memset(tab, 0, sizeof(*tab));
		snprintf(tab->name, sizeof(tab->name), "generic");
		tab->state_count = maxstate + 1 > 0 ? maxstate + 1 : 1;
		for (int s = 0; s < tab->state_count; s++) {
			/* s < IK_STATE_MAX: the modulo only tells the compiler so */
			snprintf(tab->states[s].name, sizeof(tab->states[s].name), "state%d",
				 s % IK_STATE_MAX);
			tab->states[s].power_usage = -1;
		}
		if (ik_driver_init(tab, err, errlen))
			return -1;
		st->generic = true;
	}
	for (int s = 0; s < tab->state_count; s++)
		for (char *c = tab->states[s].name; *c; c++)
			if (*c == ' ' || *c == '\t')
				*c = '_';
	st->nstates = tab->state_count;
	return 0;
}

/* How to record what the importer needs, per format. */
static const char *const text_how[] = {
	[IK_TEXT_PERF_SCRIPT] = "perf record -e power:cpu_idle -a",
	[IK_TEXT_FTRACE] = "echo 1 > /sys/kernel/tracing/events/power/cpu_idle/enable",
	[IK_TEXT_TRACE_CMD_REPORT] = "trace-cmd record -e power:cpu_idle",
};

int ik_trace_import_perf(FILE *in, const char *origin, FILE *out,
			 const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st,
			 char *err, size_t errlen)
{
	return ik_trace_import_text(in, origin, IK_TEXT_PERF_SCRIPT, out, o, st, err, errlen);
}

int ik_trace_import_text(FILE *in, const char *origin, enum ik_trace_text_format fmt, FILE *out,
			 const struct ik_trace_import_opts *o, struct ik_trace_import_stats *st,
			 char *err, size_t errlen)
{
	int rc = IK_TRACE_EINPUT;
	int limit = o->drv ? o->drv->state_count - 1 : IK_STATE_MAX - 1;
	int maxcpu = -1, maxstate = -1;
	bool any_idle = false, v11 = false, have_waking = false, in_header = fmt != IK_TEXT_PERF_SCRIPT;
	char why[200];
	struct ik_import_window win = { 0 };
	struct ik_import_spill sp = { 0 };
	bool spilling = false;
	struct writer w = { 0 };
	struct line_reader lr = { .in = in };
	FILE *spool = NULL;

	memset(st, 0, sizeof(*st));
	if ((unsigned)fmt > IK_TEXT_TRACE_CMD_REPORT) {
		snprintf(err, errlen, "%s: unknown text format %d", origin, (int)fmt);
		return IK_TRACE_EFAIL;
	}
	if (o->drv && (o->drv->state_count < 1 || o->drv->state_count > IK_STATE_MAX)) {
		snprintf(err, errlen, "%s: the state table has %d states, expected 1..%d", origin,
			 o->drv->state_count, IK_STATE_MAX);
		return IK_TRACE_EFAIL;
	}
	struct pctx *px = calloc(1, sizeof(*px));
	lr.buf = malloc(READ_CHUNK + LINE_LIMIT + 1);
	spool = tmpfile();
	if (!px || !lr.buf || !spool || ik_import_window_init(&win, IK_IMPORT_WINDOW) ||
	    writer_init(&w, spool, IK_TRACE_MAX_CPUS, o->clock_mono, false, st)) {
		snprintf(err, errlen, spool ? "out of memory" : "cannot create a temporary file");
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	px->bare_names = fmt != IK_TEXT_PERF_SCRIPT;
	win.any_order = true; /* the spill checks each CPU's order */
	w.mark_wakeups = true;
	const char *l;
	size_t len;
	bool toolong;
	int rrc;
	while ((l = read_line(&lr, &len, &toolong, &rrc)) != NULL) {
		st->lines++;
		if (len && l[len - 1] == '\r')
			len--;
		size_t i = 0;
		while (i < len && blank(l[i]))
			i++;
		if (i == len || l[i] == '#')
			continue;
		struct ik_trace_import_rec r = { 0 };
		int prc;
		if (toolong) {
			snprintf(why, sizeof(why), "expected a line shorter than %u bytes, got one longer",
				 LINE_LIMIT);
			prc = -1;
		} else {
			prc = parse_line(px, l, len, limit, &r, why, sizeof(why));
		}
		/* (only a line that is no event line: one refused for a field is refused) */
		if (prc == NOT_EVENT && fmt != IK_TEXT_PERF_SCRIPT && len > 6 && has_lost(l, len)) {
			st->lost++; /* trace_pipe: "CPU:N [LOST M EVENTS]" */
			continue;
		}
		if (prc == NOT_EVENT && in_header) {
			/* trace-cmd report's "cpus=N", "version = 6".  Only a line with no event
			   stamp: an event line refused for a field (a state deeper than the table's)
			   is as bad before the first good one as after it. */
			st->header_lines++;
			continue;
		}
		if (prc < 0) {
			if (!o->lenient) {
				snprintf(err, errlen, "%s:%" PRIu64 ": %s", origin, st->lines, why);
				goto out;
			}
			if (st->skipped++ == 0)
				snprintf(st->first_skip, sizeof(st->first_skip), "%s:%" PRIu64 ": %s",
					 origin, st->lines, why);
			continue;
		}
		in_header = false;
		if (prc > 0) {
			st->ignored++;
			continue;
		}
		if (r.kind == P_TICK && r.arg2 >= 0)
			/* The tick's hrtimer is on CLOCK_MONOTONIC: its now= is the event's time on
			   that clock; checked at the end (ik_trace_clock_mono). */
			ik_trace_clock_add(&st->clock, r.t_ns, r.arg2, st->lines, r.cpu);
		if ((r.kind == IK_IMPORT_TSTART || r.kind == IK_IMPORT_TCANCEL) && !o->clock_mono) {
			st->ignored++;
			st->timers_ignored++;
			continue;
		}
		st->used++;
		bool wake = r.kind == IK_IMPORT_WAKING || r.kind == IK_IMPORT_WAKEUP;
		if (r.cpu > maxcpu)
			maxcpu = r.cpu;
		if (wake && r.arg2 > maxcpu)
			maxcpu = (int)r.arg2;
		if (r.kind == P_IDLE) {
			any_idle = true;
			if (r.arg > maxstate)
				maxstate = (int)r.arg;
		}
		if ((r.kind >= IK_IMPORT_WAKING && r.kind <= IK_IMPORT_TICK_STOP) ||
		    r.kind == IK_IMPORT_SOFTIRQ || r.kind == IK_IMPORT_IPI_SEND || r.kind == IK_IMPORT_FREQ)
			v11 = true;
		int c = -1;
		bool mask = r.kind == IK_IMPORT_IPI_SEND && r.arg == -2;
		if (r.kind == IK_IMPORT_IPI_SEND && !mask)
			st->ipi_sends++;
		if (mask) {
			st->ipi_masks++;
			for (int k = ik_cpuset_next(&px->mask, -1); k >= 0; k = ik_cpuset_next(&px->mask, k))
				st->ipi_mask_targets++;
		}
		if (mask && (c = ik_cpuset_next(&px->mask, -1)) < 0)
			continue;
		int64_t last;
		if (spilling && ik_import_spill_late(&sp, stream_of(&r), r.t_ns, &last)) {
			snprintf(err, errlen, "%s:%" PRIu64 ": expected each CPU's events in time order within %d events of each other, got one traced on CPU %d at %" PRId64 " ns, before its %" PRId64 " ns already written (sort the input by time)",
				 origin, st->lines, IK_IMPORT_WINDOW, stream_of(&r), r.t_ns, last);
			goto out;
		}
		do {
			if (mask)
				r.arg = c;
			struct ik_trace_import_rec let;
			/* the window full: its earliest record to the spill (its CPU's stream) */
			if (ik_import_window_push(&win, &r, &let) > 0) {
				if (!spilling && ik_import_spill_init(&sp)) {
					snprintf(err, errlen, "out of memory");
					rc = IK_TRACE_EFAIL;
					goto out;
				}
				spilling = true;
				if (ik_import_spill_add(&sp, stream_of(&let), &let)) {
					snprintf(err, errlen, "%s: the spill of the records (a temporary file) failed: %s",
						 origin, strerror(errno));
					rc = IK_TRACE_EFAIL;
					goto out;
				}
			}
		} while (mask && (c = ik_cpuset_next(&px->mask, c)) >= 0);
		if (r.kind == IK_IMPORT_WAKING)
			have_waking = true;
	}
	if (rrc) {
		snprintf(err, errlen, "%s: read failed: %s", origin, strerror(errno));
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	/* Every record in time order: the window's (all of them, if it never filled), or the
	   window's added to the spill and the spill's streams merged. */
	struct ik_trace_import_rec let;
	int nrc = 1;
	while (ik_import_window_pop(&win, &let)) {
		if (spilling) {
			if (ik_import_spill_add(&sp, stream_of(&let), &let))
				nrc = -1;
			continue;
		}
		if (let.kind == IK_IMPORT_WAKING)
			w.have_waking = true;
		if ((rc = writer_record(&w, &let)) != IK_TRACE_OK)
			goto write_failed;
	}
	if (spilling && (nrc < 0 || ik_import_spill_merge(&sp)))
		nrc = -1;
	while (spilling && nrc > 0 && (nrc = ik_import_spill_next(&sp, &let)) > 0) {
		if (let.kind == IK_IMPORT_WAKING)
			w.have_waking = true;
		if ((rc = writer_record(&w, &let)) != IK_TRACE_OK)
			goto write_failed;
	}
	if (nrc < 0) {
		snprintf(err, errlen, "%s: the spill of the records (a temporary file) failed: %s", origin,
			 strerror(errno));
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	rc = IK_TRACE_EINPUT;
	int64_t tol;
	if (o->clock_mono && !ik_trace_clock_mono(&st->clock, o->hz, &tol)) {
		if (st->clock.n)
			snprintf(err, errlen, "%s:%" PRIu64 ": expected perf's clock to be CLOCK_MONOTONIC (perf record -k mono) with --clock mono, got a tick hrtimer expiring at now=%" PRId64 " ns, %" PRId64 " us from the event's time (tolerance %" PRId64 " us: twice the offsets' spread of %" PRId64 " us, at least %d us, at most a tenth of the tick)",
				 origin, st->clock.far_line, st->clock.far_t_ns + st->clock.far_ns,
				 st->clock.far_ns / 1000, tol / 1000,
				 (st->clock.max_ns - st->clock.min_ns) / 1000, IK_TRACE_CLOCK_MIN_TOL_NS / 1000);
		else
			snprintf(err, errlen, "%s:%" PRIu64 ": expected perf's clock to be CLOCK_MONOTONIC with --clock mono, and tick hrtimer_expire_entry events with now= to check it, got none",
				 origin, st->lines);
		goto out;
	}
	if (!any_idle) {
		if (st->lines)
			snprintf(err, errlen, "%s:%" PRIu64 ": expected power:cpu_idle events (%s), got none",
				 origin, st->lines, text_how[fmt]);
		else
			snprintf(err, errlen, "%s: expected power:cpu_idle events, got none", origin);
		goto out;
	}
	for (int i = 0; i <= maxcpu; i++)
		st->edge_end += w.c[i].idle;

	/* The header, now that the CPUs, the states and the IRQ names are known; then the spool. */
	struct ik_driver tab;
	if (header_table(o->drv, maxstate, &tab, st, err, errlen)) {
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	st->cpus = maxcpu + 1;
	struct ik_trace_header h;
	if (ik_trace_header_init(&h, o->hz > 0 ? o->hz : 250, st->cpus, &tab)) {
		snprintf(err, errlen, "out of memory");
		rc = IK_TRACE_EFAIL;
		goto out;
	}
	h.nirqs = px->names.nirqs; /* borrowed, given back below */
	h.irqs = px->names.irqs;
	h.minor = v11 || h.nirqs || w.marked ? 1 : 0;
	rc = ik_trace_write_header(out, &h);
	h.nirqs = 0;
	h.irqs = NULL;
	ik_trace_header_free(&h);
	if (rc == IK_TRACE_OK)
		rc = copy_spool(spool, out, have_waking, w.marked, st);
	if (rc == IK_TRACE_OK && ferror(out))
		rc = IK_TRACE_EFAIL;
write_failed:
	if (rc != IK_TRACE_OK)
		snprintf(err, errlen, "writing the trace failed");
out:
	if (spool)
		fclose(spool);
	writer_free(&w);
	ik_import_window_free(&win);
	if (spilling)
		ik_import_spill_free(&sp);
	free(lr.buf);
	if (px)
		ik_trace_header_free(&px->names);
	free(px);
	return rc;
}

bool ik_trace_sched_event(int kind, int cpu, int64_t arg, int64_t arg2, bool have_waking,
			  int cpus, struct ik_trace_event *ev)
{
	switch (kind) {
	case IK_IMPORT_WAKING:
	case IK_IMPORT_WAKEUP:
		if ((kind == IK_IMPORT_WAKEUP) == have_waking || arg2 < 0 || arg2 >= cpus)
			return false;
		ev->kind = IK_TRACE_TASK_WAKE;
		ev->cpu = (int)arg2;
		ev->src_cpu = cpu;
		ev->arg = arg < 0 ? 0 : arg;
		return true;
	case IK_IMPORT_SWITCH:
		ev->kind = IK_TRACE_SWITCH;
		ev->cpu = cpu;
		ev->arg = arg < 0 ? 0 : arg;
		ev->arg2 = arg2 < 0 ? 0 : arg2;
		return true;
	case IK_IMPORT_TICK_STOP:
		ev->kind = IK_TRACE_TICK_STOP;
		ev->cpu = cpu;
		ev->arg = arg;
		return true;
	}
	return false;
}

int ik_trace_import_records(struct ik_trace_import_rec *v, size_t n, const char *origin,
			    FILE *out, const struct ik_trace_import_opts *o,
			    struct ik_trace_import_stats *st, char *err, size_t errlen)
{
	int rc = IK_TRACE_EINPUT, maxcpu = -1, maxstate = -1;
	bool have_waking = false, sched = false;
	int limit = o->drv ? o->drv->state_count - 1 : IK_STATE_MAX - 1;
	struct plist pl = { .v = v };

	if (o->drv && (o->drv->state_count < 1 || o->drv->state_count > IK_STATE_MAX)) {
		snprintf(err, errlen, "%s: the state table has %d states, expected 1..%d", origin,
			 o->drv->state_count, IK_STATE_MAX);
		return IK_TRACE_EFAIL;
	}
	for (size_t i = 0; i < n; i++) {
		struct ik_trace_import_rec r = v[i];
		r.seq = i;
		bool wake = r.kind == IK_IMPORT_WAKING || r.kind == IK_IMPORT_WAKEUP;
		if (r.cpu < 0 || r.cpu >= IK_TRACE_MAX_CPUS || r.t_ns < 0 ||
		    (r.kind == P_IDLE && r.arg > limit) || r.kind < P_IDLE || r.kind >= IK_IMPORT_KINDS ||
		    (wake && (r.arg2 < 0 || r.arg2 >= IK_TRACE_MAX_CPUS)) ||
		    (r.kind == IK_IMPORT_IPI_SEND && (r.arg < 0 || r.arg >= IK_TRACE_MAX_CPUS))) {
			char why[200];
			snprintf(why, sizeof(why), "%s: expected CPUs 0..%d, times >= 0 and states 0..%d, got state %" PRId64 " on CPU %d at %" PRId64 " ns",
				 origin, IK_TRACE_MAX_CPUS - 1, limit, r.kind == P_IDLE ? r.arg : 0, r.cpu, r.t_ns);
			if (!o->lenient) {
				snprintf(err, errlen, "%s", why);
				return IK_TRACE_EINPUT;
			}
			if (st->skipped++ == 0)
				snprintf(st->first_skip, sizeof(st->first_skip), "%s", why);
			continue;
		}
		if (r.cpu > maxcpu)
			maxcpu = r.cpu;
		if (wake && r.arg2 > maxcpu)
			maxcpu = (int)r.arg2;
		if (r.kind == IK_IMPORT_WAKING)
			have_waking = true;
		if ((r.kind >= IK_IMPORT_WAKING && r.kind <= IK_IMPORT_TICK_STOP) ||
		    r.kind == IK_IMPORT_SOFTIRQ || r.kind == IK_IMPORT_IPI_SEND || r.kind == IK_IMPORT_FREQ)
			sched = true; /* format 1.1 */
		if (r.kind == P_IDLE && r.arg > maxstate)
			maxstate = (int)r.arg;
		v[pl.n++] = r;
	}
	bool any_idle = false;
	for (size_t i = 0; i < pl.n && !any_idle; i++)
		any_idle = pl.v[i].kind == P_IDLE;
	if (!any_idle) {
		if (st->lines)
			snprintf(err, errlen, "%s:%" PRIu64 ": expected power:cpu_idle events (perf record -e power:cpu_idle -a), got none",
				 origin, st->lines);
		else
			snprintf(err, errlen, "%s: expected power:cpu_idle events, got none", origin);
		return rc;
	}
	qsort(pl.v, pl.n, sizeof(*pl.v), by_time);

	struct ik_driver tab;
	if (header_table(o->drv, maxstate, &tab, st, err, errlen))
		return IK_TRACE_EFAIL;
	const struct ik_driver *drv = &tab;
	struct ik_trace_header h;
	st->cpus = maxcpu + 1;
	if (ik_trace_header_init(&h, o->hz > 0 ? o->hz : 250, st->cpus, drv)) {
		snprintf(err, errlen, "out of memory");
		rc = IK_TRACE_EFAIL;
		return rc;
	}
	const struct ik_trace_header *nm = o->irq_names;
	for (int i = 0; nm && i < nm->nirqs; i++)
		if (ik_trace_irq_name_set(&h, nm->irqs[i].irq, nm->irqs[i].name, strlen(nm->irqs[i].name))) {
			ik_trace_header_free(&h);
			snprintf(err, errlen, "out of memory");
			return IK_TRACE_EFAIL;
		}
	/* task_wake, switch, tick_stop, wake ipi SRC, wake softirq, irq names: format 1.1 */
	h.minor = sched || h.nirqs ? 1 : 0;
	rc = ik_trace_write_header(out, &h);
	if (rc == IK_TRACE_OK)
		rc = write_events(out, &pl, st->cpus, o->clock_mono, have_waking, st);
	ik_trace_header_free(&h);
	if (rc == IK_TRACE_OK && ferror(out))
		rc = IK_TRACE_EFAIL;
	if (rc)
		snprintf(err, errlen, "writing the trace failed");
	return rc;
}
