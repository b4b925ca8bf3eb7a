/*
 * One line of event text (perf script, ftrace's trace or trace_pipe, trace-cmd report) to
 * an import record: the "[CPU] SECONDS:" stamp, the event's system and name, and the
 * fields each event used has (the list of events: import_perf.c's top comment).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/import.h"
#include "trace/import_internal.h"
#include "util/cpuset.h"

#define IDLE_EXIT_STATE 4294967295u

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

/* KEY1's and KEY2's values in the fields, decimal numbers at most max1 and max2: true when
   both are there and so. */
static bool number_pair(const char *rest, size_t rl, const char *key1, uint64_t max1,
			uint64_t *a, const char *key2, uint64_t max2, uint64_t *b)
{
	size_t l1, l2, k1 = 0, k2 = 0;
	const char *v1 = field(rest, rl, key1, &l1), *v2 = field(rest, rl, key2, &l2);
	return v1 && digits(v1, l1, &k1, 10, max1, a, NULL) == 0 && k1 == l1 && v2 &&
	       digits(v2, l2, &k2, 10, max2, b, NULL) == 0 && k2 == l2;
}

/* The events whose record is one number of their fields: which, in what range, as what. */
struct number_event {
	const char *sys, *name, *key;
	uint64_t max;
	int below; /* > 0: the message says the number is below it */
	int kind;  /* enum ik_trace_import_kind */
};

static const struct number_event *number_event_of(const char *sys, size_t sl, const char *name,
						  size_t nl)
{
	static const struct number_event events[] = {
		{ "irq", "irq_handler_entry", "irq=", INT32_MAX, 0, IK_IMPORT_IRQ },
		{ "irq", "softirq_entry", "vec=", INT32_MAX, 0, IK_IMPORT_SOFTIRQ },
		{ "ipi", "ipi_send_cpu", "cpu=", IK_TRACE_MAX_CPUS - 1, IK_TRACE_MAX_CPUS,
		  IK_IMPORT_IPI_SEND },
		{ "timer", "tick_stop", "success=", UINT32_MAX, 0, IK_IMPORT_TICK_STOP }, /* as 0/1 */
	};
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (equals(sys, sl, events[i].sys) && equals(name, nl, events[i].name))
			return &events[i];
	return NULL;
}

/* What a line gives beyond its record: a cpumask's CPUs, an IRQ's name. */


int ik__import_text_line(struct ik_import_text_ctx *px, const char *l, size_t len, int maxstate,
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
		return IK_IMPORT_NOT_EVENT;
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
		r->kind = IK_IMPORT_IDLE;
		return 0;
	}
	const struct number_event *ne = number_event_of(sys, sl, name, nl);
	if (ne) {
		v = field(rest, rl, ne->key, &vl);
		if (!v || digits(v, vl, &k, 10, ne->max, &x, NULL) || k != vl) {
			char note[32] = "";
			if (ne->below)
				snprintf(note, sizeof(note), " (N < %d)", ne->below);
			excerpt(got, sizeof(got), v ? v : rest, v ? vl : rl);
			snprintf(why, whylen, "expected '%sN'%s in %s:%s, got '%s'", ne->key, note, ne->sys,
				 ne->name, got);
			return -1;
		}
		r->kind = ne->kind;
		r->arg = ne->kind == IK_IMPORT_TICK_STOP ? x != 0 : (int64_t)x;
		v = ne->kind == IK_IMPORT_IRQ ? field(rest, rl, "name=", &vl) : NULL;
		if (v && vl > 0 && !px->names_full) {
			const char *old = ik__trace_irq_name(&px->names, r->arg);
			if (!old || strlen(old) != (vl < IK_TRACE_IRQ_NAME_LEN ? vl : IK_TRACE_IRQ_NAME_LEN - 1) ||
			    memcmp(old, v, strlen(old)) != 0)
				px->names_full = ik__trace_irq_name_set(&px->names, r->arg, v, vl) != 0;
		}
		return 0;
	}
	if (equals(sys, sl, "power") && equals(name, nl, "cpu_frequency")) {
		uint64_t khz, cpu;
		if (!number_pair(rest, rl, "state=", UINT32_MAX, &khz, "cpu_id=", IK_TRACE_MAX_CPUS - 1,
				 &cpu) || khz == 0) {
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
	if (equals(sys, sl, "ipi") && equals(name, nl, "ipi_send_cpumask")) {
		char list[512], perr[128];
		v = field(rest, rl, "cpumask=", &vl);
		if (v && vl < sizeof(list)) {
			memcpy(list, v, vl);
			list[vl] = '\0';
		}
		if (!v || vl >= sizeof(list) ||
		    ik__cpulist_parse(list, IK_TRACE_MAX_CPUS, true, &px->mask, perr, sizeof(perr))) {
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
		r->kind = IK_IMPORT_IPI;
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
		r->kind = tick ? IK_IMPORT_TICK : IK_IMPORT_TIMER;
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
		bool pv = field(rest, rl, "pid=", &vl) != NULL; /* else perhaps trace-cmd's words */
		if (!number_pair(rest, rl, "pid=", INT32_MAX, &pid, "target_cpu=",
				 IK_TRACE_MAX_CPUS - 1, &cpu) &&
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
		bool pv = field(rest, rl, "prev_pid=", &vl) != NULL;
		if (!number_pair(rest, rl, "prev_pid=", INT32_MAX, &prev, "next_pid=", INT32_MAX, &next) &&
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
	return 1;
}

