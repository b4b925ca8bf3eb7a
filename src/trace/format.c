/*
 * idlekit's trace format (docs/trace-format.md): the streaming reader and the writer.
 *
 * The reader keeps one buffer of 64 KiB (a FILE is read in chunks, a buffer in memory is
 * used in place), the header, and one byte per CPU (idle or not), so its memory does not
 * grow with the trace.  Lines are found with memchr and numbers parsed by hand.
 *
 * Divisions: IRQ names and cause names; lines (splitting, numbers, words); the header; events
 * (parse, ik__trace_next); open and close; the writer (header init and free, header, events).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/format.h"
#include "util/cpuset.h"
#include "util/errmsg.h"
#include "util/freep.h"

#define BUF_SIZE (1u << 16)

struct ik_trace_reader {
	FILE *in; /* NULL: memory */
	const char *origin;
	bool lenient;
	char *buf; /* file: owned */
	const char *data;
	size_t len, pos; /* valid bytes in data, next unread */
	bool eof;
	uint64_t line;
	struct ik_trace_header h;
	uint8_t *idle; /* per CPU: 1 while idle */
	int64_t last_t;
	uint64_t events, skipped;
	char first_skip[256];
};

int ik__trace_max_states(const struct ik_trace_header *h)
{
	int n = 0;
	for (int d = 0; d < h->ndrivers; d++)
		if (h->drivers[d].drv.state_count > n)
			n = h->drivers[d].drv.state_count;
	return n;
}

const char *ik__trace_irq_name(const struct ik_trace_header *h, int64_t irq)
{
	int lo = 0, hi = h->nirqs - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (h->irqs[mid].irq == irq)
			return h->irqs[mid].name;
		if (h->irqs[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

int ik__trace_irq_name_set(struct ik_trace_header *h, int64_t irq, const char *name, size_t len)
{
	if (irq < 0 || irq > INT32_MAX || len == 0)
		return -1;
	int i = 0;
	while (i < h->nirqs && h->irqs[i].irq < irq)
		i++;
	if (i == h->nirqs || h->irqs[i].irq != irq) {
		if (h->nirqs >= IK_TRACE_MAX_IRQ_NAMES)
			return -1;
		/* grown in steps of 64 */
		if (h->nirqs % 64 == 0) {
			void *nv = realloc(h->irqs, (size_t)(h->nirqs + 64) * sizeof(*h->irqs));
			if (!nv)
				return -1;
			h->irqs = nv;
		}
		memmove(h->irqs + i + 1, h->irqs + i, (size_t)(h->nirqs - i) * sizeof(*h->irqs));
		h->nirqs++;
		h->irqs[i].irq = (int32_t)irq;
	}
	if (len >= IK_TRACE_IRQ_NAME_LEN)
		len = IK_TRACE_IRQ_NAME_LEN - 1;
	/* one word of printable ASCII, as the 'irq N NAME' line needs (an imported name may
	   hold anything up to a blank: a NUL wrote an empty name, found by fuzz_ftrace_text) */
	for (size_t k = 0; k < len; k++)
		h->irqs[i].name[k] = name[k] > 0x20 && name[k] < 0x7f ? name[k] : '_';
	h->irqs[i].name[len] = '\0';
	return 0;
}

const char *ik__trace_cause_name(enum ik_trace_cause c)
{
	static const char *const names[] = { "timer", "tick", "ipi", "irq", "unknown", "remote",
					     "softirq", "none" };
	return (unsigned)c <= IK_CAUSE_NONE ? names[c] : "none";
}

/* ---- Lines ------------------------------------------------------------------------------- */

/* The next line (without its '\n'), or NULL at the end; -1 in *rc on a read error. */
static const char *next_line(struct ik_trace_reader *r, size_t *len, int *rc, char *err,
			     size_t errlen)
{
	*rc = 0;
	for (;;) {
		const char *start = r->data + r->pos;
		size_t avail = r->len - r->pos;
		const char *nl = avail ? memchr(start, '\n', avail) : NULL;
		if (nl || ((!r->in || r->eof) && avail)) {
			*len = nl ? (size_t)(nl - start) : avail; /* the last line may have no newline */
			if (*len >= BUF_SIZE) /* as the FILE reader, whose buffer it would not fit */
				break;
			r->pos += nl ? *len + 1 : *len;
			r->line++;
			return start;
		}
		if (!r->in || r->eof)
			return NULL;
		/* Refill: keep the partial line at the front. */
		if (avail >= BUF_SIZE)
			break;
		memmove(r->buf, start, avail);
		size_t n = fread(r->buf + avail, 1, BUF_SIZE - avail, r->in);
		if (n == 0) {
			if (ferror(r->in)) {
				snprintf(err, errlen, "%s: read failed: %s", r->origin, strerror(errno));
				*rc = IK_TRACE_EFAIL;
				return NULL;
			}
			r->eof = true;
		}
		r->pos = 0;
		r->len = avail + n;
	}
	snprintf(err, errlen, "%s:%" PRIu64 ": expected a line shorter than %u bytes, got a longer one",
		 r->origin, r->line + 1, BUF_SIZE);
	*rc = IK_TRACE_EINPUT;
	return NULL;
}

/* Split a line into at most max words (the last one keeps the rest of the line if rest). */
static int split(char *line, char **w, int max, bool rest)
{
	int n = 0;
	char *p = line;
	while (n < max) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		w[n++] = p;
		if (rest && n == max) {
			size_t l = strlen(p);
			while (l && (p[l - 1] == ' ' || p[l - 1] == '\t' || p[l - 1] == '\r'))
				p[--l] = '\0';
			break;
		}
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* A decimal integer 0..max covering the whole of [s, s+len); -1 if not. */
static int parse_u64(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (len == 0 || len > 20)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_word(const char *s, uint64_t max, uint64_t *out)
{
	return parse_u64(s, strlen(s), max, out);
}

/* ---- The header -------------------------------------------------------------------------- */

static void show(char *dst, size_t n, const char *s, size_t len)
{
	if (len > n - 1)
		len = n - 1;
	size_t j = 0;
	for (size_t i = 0; i < len; i++)
		dst[j++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	dst[j] = '\0';
}

#define BAD(...)                                                                          \
	do {                                                                              \
		snprintf(err, errlen, __VA_ARGS__);                                       \
		return IK_TRACE_EINPUT;                                                   \
	} while (0)

/* A driver's table is complete: at least one state, normalised as the core does. */
/* The first line of another tool's trace: which import reads it (or ""). */
static const char *foreign_hint(const char *got)
{
	if (strstr(got, "Dtracing"))
		return " (a trace-cmd trace.dat: idlekit import trace-dat FILE -o OUT converts it)";
	if (strncmp(got, "cpus=", 5) == 0 || strncmp(got, "version = ", 10) == 0)
		return " (trace-cmd report's text: idlekit import trace-cmd-report FILE -o OUT "
		       "converts it)";
	const char *cpu = strstr(got, " [0");
	if (cpu && strchr(cpu, ':')) {
		/* ftrace's "comm-PID [CPU]", perf script's "comm PID [CPU]" */
		const char *p = cpu;
		while (p > got && p[-1] == ' ')
			p--;
		while (p > got && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p > got && p[-1] == '-')
			return " (ftrace's text: idlekit import ftrace FILE -o OUT converts it)";
		return " (perf script's text: idlekit import perf-script FILE -o OUT converts it)";
	}
	return "";
}

static int finish_driver(struct ik_trace_reader *r, struct ik_trace_driver *d, char *err,
			 size_t errlen)
{
	char e[160];
	if (d->drv.state_count == 0)
		return ik__errmsg(err, errlen,
				  "%s:%" PRIu64 ": expected at least one 'state' line for driver %s, got none",
				  r->origin, r->line, d->drv.name);
	if (ik_driver_init(&d->drv, e, sizeof(e)))
		return ik__errmsg(err, errlen, "%s:%" PRIu64 ": driver %s: %s", r->origin, r->line,
				  d->drv.name, e);
	return 0;
}

static int read_header(struct ik_trace_reader *r, char *err, size_t errlen)
{
	struct ik_trace_header *h = &r->h;
	char line[IK_TRACE_LINE_MAX], got[64];
	struct ik_cpuset *assigned = calloc(1, sizeof(*assigned));
	int rc = IK_TRACE_EINPUT;
	enum { WANT_MAGIC, WANT_HZ, WANT_CPUS, WANT_DRIVER, IN_DRIVER } st = WANT_MAGIC;

	if (!assigned) {
		snprintf(err, errlen, "out of memory");
		return IK_TRACE_EFAIL;
	}
	for (;;) {
		size_t len;
		int lrc;
		const char *l = next_line(r, &len, &lrc, err, errlen);
		if (!l) {
			if (lrc) {
				rc = lrc;
				goto out;
			}
			snprintf(err, errlen, "%s:%" PRIu64 ": expected %s, got the end of the file",
				 r->origin, r->line + 1,
				 st == WANT_MAGIC ? "'idlekit-trace 1'" : st == WANT_HZ ? "'hz N'" :
				 st == WANT_CPUS ? "'cpus N'" : st == WANT_DRIVER ? "'driver NAME CPULIST'" :
				 "'state ...' or 'events'");
			goto out;
		}
		if (len >= sizeof(line)) {
			snprintf(err, errlen, "%s:%" PRIu64 ": expected a header line under %zu bytes, got %zu",
				 r->origin, r->line, sizeof(line), len);
			goto out;
		}
		memcpy(line, l, len);
		line[len] = '\0';
		show(got, sizeof(got), line, len);
		char *w[6];
		int n = split(line, w, 6, false);
		if (n == 0 || w[0][0] == '#')
			continue;
		uint64_t v;
		switch (st) {
		case WANT_MAGIC:
			if (strcmp(w[0], "idlekit-trace") != 0 || n != 2) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected 'idlekit-trace 1', got '%s'%s",
					 r->origin, r->line, got, foreign_hint(got));
				goto out;
			}
			/* "1" or "1.1": a 1.1 trace may have task_wake, switch and tick_stop. */
			if (strcmp(w[1], "1.1") == 0) {
				v = IK_TRACE_VERSION;
				h->minor = 1;
			} else if (parse_word(w[1], INT32_MAX, &v) || v != IK_TRACE_VERSION) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected format version 1 or 1.1, got '%s'",
					 r->origin, r->line, w[1]);
				goto out;
			}
			h->version = (int)v;
			st = WANT_HZ;
			continue;
		case WANT_HZ:
			if (n != 2 || strcmp(w[0], "hz") != 0 || parse_word(w[1], 100000, &v) || v < 1) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected 'hz N' (N 1..100000), got '%s'",
					 r->origin, r->line, got);
				goto out;
			}
			h->hz = (int)v;
			st = WANT_CPUS;
			continue;
		case WANT_CPUS:
			if (n != 2 || strcmp(w[0], "cpus") != 0 ||
			    parse_word(w[1], IK_TRACE_MAX_CPUS, &v) || v < 1) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected 'cpus N' (N 1..%d), got '%s'",
					 r->origin, r->line, IK_TRACE_MAX_CPUS, got);
				goto out;
			}
			h->cpus = (int)v;
			h->cpu_driver = calloc((size_t)h->cpus, 1);
			r->idle = calloc((size_t)h->cpus, 1);
			if (!h->cpu_driver || !r->idle) {
				snprintf(err, errlen, "out of memory");
				rc = IK_TRACE_EFAIL;
				goto out;
			}
			st = WANT_DRIVER;
			continue;
		case WANT_DRIVER:
		case IN_DRIVER:
			break;
		}
		if (strcmp(w[0], "events") == 0 && n == 1 && st == IN_DRIVER) {
			if (ik__cpuset_count(assigned) != h->cpus) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected a driver for every CPU 0..%d, got %d CPUs with one",
					 r->origin, r->line, h->cpus - 1, ik__cpuset_count(assigned));
				goto out;
			}
			struct ik_trace_driver *d = &h->drivers[h->ndrivers - 1];
			if (finish_driver(r, d, err, errlen))
				goto out;
			rc = IK_TRACE_OK;
			goto out;
		}
		if (strcmp(w[0], "cpu") == 0) {
			/* 1.1: cpu CPU PACKAGE CORE, once per CPU at most, anywhere after 'cpus' */
			uint64_t cpu, pkg, core;
			if (h->minor < 1 || n != 4 || parse_word(w[1], (uint64_t)h->cpus - 1, &cpu) ||
			    parse_word(w[2], INT32_MAX, &pkg) || parse_word(w[3], INT32_MAX, &core) ||
			    (h->topo && h->topo[cpu].package >= 0)) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected %s, got '%s'", r->origin, r->line,
					 h->minor < 1 ? "no 'cpu' line before format 1.1" :
					 "'cpu CPU PACKAGE CORE' (CPU below 'cpus', each once; PACKAGE and CORE "
					 "the sysfs physical_package_id and core_id)", got);
				goto out;
			}
			if (!h->topo) {
				h->topo = malloc((size_t)h->cpus * sizeof(*h->topo));
				if (!h->topo) {
					snprintf(err, errlen, "out of memory");
					rc = IK_TRACE_EFAIL;
					goto out;
				}
				for (int c = 0; c < h->cpus; c++)
					h->topo[c].package = h->topo[c].core = -1;
			}
			h->topo[cpu].package = (int32_t)pkg;
			h->topo[cpu].core = (int32_t)core;
			continue;
		}
		if (strcmp(w[0], "irq") == 0) {
			/* 1.1: irq N NAME, each N once, anywhere after 'cpus' */
			uint64_t irq;
			if (h->minor < 1 || n != 3 || parse_word(w[1], INT32_MAX, &irq) ||
			    strlen(w[2]) >= IK_TRACE_IRQ_NAME_LEN || ik__trace_irq_name(h, (int64_t)irq)) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected %s, got '%s'", r->origin, r->line,
					 h->minor < 1 ? "no 'irq' line before format 1.1" :
					 "'irq N NAME' (each N once, NAME one word under 32 bytes)", got);
				goto out;
			}
			if (ik__trace_irq_name_set(h, (int64_t)irq, w[2], strlen(w[2]))) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected at most %d 'irq' lines, got more",
					 r->origin, r->line, IK_TRACE_MAX_IRQ_NAMES);
				goto out;
			}
			continue;
		}
		if (strcmp(w[0], "governor") == 0) {
			/* 1.1: governor NAME [KEY=VALUE ...], once, anywhere after 'cpus' */
			memcpy(line, l, len);
			line[len] = '\0';
			char *gw[IK_TRACE_MAX_PARAMS + 3];
			n = split(line, gw, IK_TRACE_MAX_PARAMS + 3, false);
			if (h->minor < 1 || h->governor[0] || n < 2 || n > IK_TRACE_MAX_PARAMS + 2 ||
			    strlen(gw[1]) >= IK_NAME_LEN) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected %s, got '%s'", r->origin, r->line,
					 h->minor < 1 ? "no 'governor' line before format 1.1" :
					 h->governor[0] ? "one 'governor' line only" :
					 "'governor NAME [KEY=VALUE ...]' (NAME under 16 bytes, at most 8 parameters)",
					 got);
				goto out;
			}
			snprintf(h->governor, sizeof(h->governor), "%s", gw[1]);
			for (int i = 2; i < n; i++) {
				char *eq = strchr(gw[i], '=');
				struct ik_trace_param *p = &h->params[h->nparams];
				if (!eq || eq == gw[i] || (size_t)(eq - gw[i]) >= sizeof(p->key) ||
				    parse_u64(eq + 1, strlen(eq + 1), UINT64_MAX, &p->value)) {
					snprintf(err, errlen, "%s:%" PRIu64 ": expected a governor parameter KEY=VALUE "
						 "(KEY under %d bytes, VALUE a decimal integer), got '%s'",
						 r->origin, r->line, (int)sizeof(p->key), gw[i]);
					goto out;
				}
				memcpy(p->key, gw[i], (size_t)(eq - gw[i]));
				p->key[eq - gw[i]] = '\0';
				h->nparams++;
			}
			continue;
		}
		if (strcmp(w[0], "driver") == 0) {
			if (n != 3 || strlen(w[1]) >= IK_NAME_LEN) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected 'driver NAME CPULIST' (NAME under %d bytes), got '%s'",
					 r->origin, r->line, IK_NAME_LEN, got);
				goto out;
			}
			if (st == IN_DRIVER) {
				struct ik_trace_driver *d = &h->drivers[h->ndrivers - 1];
				if (finish_driver(r, d, err, errlen))
					goto out;
			}
			if (h->ndrivers == IK_TRACE_MAX_DRIVERS) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected at most %d drivers, got more",
					 r->origin, r->line, IK_TRACE_MAX_DRIVERS);
				goto out;
			}
			struct ik_cpuset *set = calloc(1, sizeof(*set));
			char e[160];
			if (!set || ik__cpulist_parse(w[2], h->cpus, false, set, e, sizeof(e))) {
				if (set)
					snprintf(err, errlen, "%s:%" PRIu64 ": expected a CPU list of CPUs below %d, got '%s' (%s)",
						 r->origin, r->line, h->cpus, w[2], e);
				else
					snprintf(err, errlen, "out of memory");
				free(set);
				rc = set ? IK_TRACE_EINPUT : IK_TRACE_EFAIL;
				goto out;
			}
			struct ik_trace_driver *d = &h->drivers[h->ndrivers];
			memset(d, 0, sizeof(*d));
			snprintf(d->drv.name, sizeof(d->drv.name), "%s", w[1]);
			d->first_cpu = -1;
			for (int c = ik__cpuset_next(set, -1); c >= 0; c = ik__cpuset_next(set, c)) {
				if (ik__cpuset_has(assigned, c)) {
					snprintf(err, errlen, "%s:%" PRIu64 ": expected each CPU in one driver, got CPU %d twice",
						 r->origin, r->line, c);
					free(set);
					goto out;
				}
				ik__cpuset_add(assigned, c);
				h->cpu_driver[c] = (uint8_t)h->ndrivers;
				if (d->first_cpu < 0)
					d->first_cpu = c;
				d->ncpus++;
			}
			free(set);
			h->ndrivers++;
			st = IN_DRIVER;
			continue;
		}
		if (strcmp(w[0], "state") == 0 && st == IN_DRIVER) {
			/* state NAME LATENCY_US RESIDENCY_US FLAGS [DESC...] */
			memcpy(line, l, len);
			line[len] = '\0';
			n = split(line, w, 6, true);
			struct ik_driver *drv = &h->drivers[h->ndrivers - 1].drv;
			uint64_t lat, res, flags;
			char *end = NULL;
			if (n >= 5) {
				errno = 0;
				flags = strtoull(w[4], &end, 0);
			}
			if (n < 5 || strlen(w[1]) >= IK_NAME_LEN || parse_word(w[2], UINT32_MAX, &lat) ||
			    parse_word(w[3], UINT32_MAX, &res) || w[4][0] < '0' || w[4][0] > '9' ||
			    errno || *end || flags > UINT32_MAX) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected 'state NAME LATENCY_US RESIDENCY_US FLAGS [DESC]', got '%s'",
					 r->origin, r->line, got);
				goto out;
			}
			if (drv->state_count == IK_STATE_MAX) {
				snprintf(err, errlen, "%s:%" PRIu64 ": expected at most %d states per driver, got more",
					 r->origin, r->line, IK_STATE_MAX);
				goto out;
			}
			struct ik_state *s = &drv->states[drv->state_count++];
			snprintf(s->name, sizeof(s->name), "%s", w[1]);
			snprintf(s->desc, sizeof(s->desc), "%s", n == 6 ? w[5] : "");
			s->exit_latency = (uint32_t)lat;
			s->target_residency = (uint32_t)res;
			s->exit_latency_ns = (int64_t)lat * IK_NSEC_PER_USEC;
			s->target_residency_ns = (int64_t)res * IK_NSEC_PER_USEC;
			s->power_usage = -1;
			s->flags = (unsigned)flags;
			continue;
		}
		snprintf(err, errlen, "%s:%" PRIu64 ": expected %s, got '%s'", r->origin, r->line,
			 st == WANT_DRIVER ? "'driver NAME CPULIST'" :
					     "'state NAME LATENCY_US RESIDENCY_US FLAGS [DESC]', 'driver ...' or 'events'",
			 got);
		goto out;
	}
out:
	free(assigned);
	return rc;
}

/* ---- Events ------------------------------------------------------------------------------ */

static bool word_is(const char *s, size_t len, const char *lit)
{
	size_t l = strlen(lit);
	return len == l && memcmp(s, lit, l) == 0;
}

/* Parse one event line; IK_TRACE_OK, or IK_TRACE_EINPUT with a message. */
static int parse_event(struct ik_trace_reader *r, const char *l, size_t len,
		       struct ik_trace_event *ev, char *err, size_t errlen)
{
	const char *w[6];
	size_t wl[6];
	int n = 0;
	size_t i = 0;
	char got[64];

	while (i < len && n < 6) {
		while (i < len && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r'))
			i++;
		if (i >= len)
			break;
		w[n] = l + i;
		while (i < len && l[i] != ' ' && l[i] != '\t' && l[i] != '\r')
			i++;
		wl[n] = (size_t)(l + i - w[n]);
		n++;
	}
	while (i < len && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r'))
		i++;
	uint64_t t, cpu, v;
	if (n < 3 || parse_u64(w[0], wl[0], INT64_MAX, &t)) {
		show(got, sizeof(got), n ? w[0] : l, n ? wl[0] : len);
		BAD("%s:%" PRIu64 ": expected 'T_NS CPU EVENT ...' with T_NS an integer, got '%s'",
		    r->origin, r->line, got);
	}
	if (parse_u64(w[1], wl[1], (uint64_t)r->h.cpus - 1, &cpu)) {
		show(got, sizeof(got), w[1], wl[1]);
		BAD("%s:%" PRIu64 ": expected a CPU 0..%d, got '%s'", r->origin, r->line,
		    r->h.cpus - 1, got);
	}
	if ((int64_t)t < r->last_t)
		BAD("%s:%" PRIu64 ": expected a time >= %" PRId64 " ns (non-decreasing), got %" PRIu64,
		    r->origin, r->line, r->last_t, t);
	memset(ev, 0, sizeof(*ev));
	ev->t_ns = (int64_t)t;
	ev->cpu = (int)cpu;
	ev->arg = -1;
	const char *k = w[2];
	size_t kl = wl[2];
	int nargs = n - 3;
	if (i < len)
		nargs = 99; /* more than 6 words */
	const struct ik_driver *drv = &r->h.drivers[r->h.cpu_driver[cpu]].drv;

	if (word_is(k, kl, "idle_enter")) {
		if (nargs != 1 || parse_u64(w[3], wl[3], (uint64_t)drv->state_count - 1, &v)) {
			show(got, sizeof(got), nargs >= 1 ? w[3] : "", nargs >= 1 ? wl[3] : 0);
			BAD("%s:%" PRIu64 ": expected 'idle_enter STATE' with STATE 0..%d (driver %s), got '%s'",
			    r->origin, r->line, drv->state_count - 1, drv->name, got);
		}
		if (r->idle[cpu])
			BAD("%s:%" PRIu64 ": expected idle_exit on CPU %d before idle_enter, got idle_enter",
			    r->origin, r->line, (int)cpu);
		ev->kind = IK_TRACE_IDLE_ENTER;
		ev->state = (int)v;
	} else if (word_is(k, kl, "idle_exit")) {
		if (nargs != 0)
			BAD("%s:%" PRIu64 ": expected 'idle_exit' with no argument, got %d arguments",
			    r->origin, r->line, nargs);
		if (!r->idle[cpu])
			BAD("%s:%" PRIu64 ": expected idle_enter on CPU %d before idle_exit, got idle_exit",
			    r->origin, r->line, (int)cpu);
		ev->kind = IK_TRACE_IDLE_EXIT;
	} else if (word_is(k, kl, "wake")) {
		static const char *const causes[] = { "timer", "tick", "ipi", "irq", "unknown" };
		int c = -1;
		for (int j = 0; nargs >= 1 && j < IK_CAUSE_REMOTE; j++)
			if (word_is(w[3], wl[3], causes[j]))
				c = j;
		if (nargs >= 1 && r->h.minor >= 1 && word_is(w[3], wl[3], "softirq"))
			c = IK_CAUSE_SOFTIRQ;
		/* an argument: irq N, softirq VEC; 1.1: ipi SRC_CPU */
		bool arg_ok = c == IK_CAUSE_IRQ || c == IK_CAUSE_SOFTIRQ ||
			      (c == IK_CAUSE_IPI && r->h.minor >= 1);
		uint64_t max = c == IK_CAUSE_IPI ? (uint64_t)r->h.cpus - 1 : INT32_MAX;
		if (c < 0 || nargs > (arg_ok ? 2 : 1) ||
		    (nargs == 2 && parse_u64(w[4], wl[4], max, &v))) {
			show(got, sizeof(got), nargs >= 1 ? w[3] : "", nargs >= 1 ? (size_t)(l + len - w[3]) : 0);
			BAD("%s:%" PRIu64 ": expected 'wake timer|tick|ipi|unknown' or 'wake irq [N]'%s, got '%s'",
			    r->origin, r->line,
			    r->h.minor >= 1 ? " or 'wake ipi SRC_CPU' or 'wake softirq [VEC]'" : "", got);
		}
		ev->kind = IK_TRACE_WAKE;
		ev->cause = (enum ik_trace_cause)c;
		if (nargs == 2 && c == IK_CAUSE_IPI) {
			ev->src_cpu = (int)v;
			ev->ipi_src = true;
		} else if (nargs == 2)
			ev->arg = (int64_t)v;
	} else if (word_is(k, kl, "timer_start")) {
		if (nargs < 1 || nargs > 2 || parse_u64(w[3], wl[3], INT64_MAX, &v) ||
		    (nargs == 2 && parse_u64(w[4], wl[4], UINT64_MAX, &ev->timer_id))) {
			show(got, sizeof(got), nargs >= 1 ? w[3] : "", nargs >= 1 ? (size_t)(l + len - w[3]) : 0);
			BAD("%s:%" PRIu64 ": expected 'timer_start EXPIRES_NS [ID]', got '%s'", r->origin,
			    r->line, got);
		}
		ev->kind = IK_TRACE_TIMER_START;
		ev->arg = (int64_t)v;
	} else if (word_is(k, kl, "timer_cancel") || word_is(k, kl, "timer_expire")) {
		bool cancel = k[6] == 'c';
		if (nargs > 1 || (nargs == 1 && parse_u64(w[3], wl[3], UINT64_MAX, &ev->timer_id))) {
			show(got, sizeof(got), nargs >= 1 ? w[3] : "", nargs >= 1 ? (size_t)(l + len - w[3]) : 0);
			BAD("%s:%" PRIu64 ": expected '%s [ID]', got '%s'", r->origin, r->line,
			    cancel ? "timer_cancel" : "timer_expire", got);
		}
		ev->kind = cancel ? IK_TRACE_TIMER_CANCEL : IK_TRACE_TIMER_EXPIRE;
	} else if (r->h.minor >= 1 && word_is(k, kl, "task_wake")) {
		uint64_t src;
		if (nargs < 1 || nargs > 2 || parse_u64(w[3], wl[3], (uint64_t)r->h.cpus - 1, &src) ||
		    (nargs == 2 && parse_u64(w[4], wl[4], INT32_MAX, &v))) {
			show(got, sizeof(got), nargs >= 1 ? w[3] : "", nargs >= 1 ? (size_t)(l + len - w[3]) : 0);
			BAD("%s:%" PRIu64 ": expected 'task_wake SRC_CPU [PID]' with SRC_CPU 0..%d, got '%s'",
			    r->origin, r->line, r->h.cpus - 1, got);
		}
		ev->kind = IK_TRACE_TASK_WAKE;
		ev->src_cpu = (int)src;
		if (nargs == 2)
			ev->arg = (int64_t)v;
	} else if (r->h.minor >= 1 && word_is(k, kl, "switch")) {
		uint64_t prev;
		if (nargs != 2 || parse_u64(w[3], wl[3], INT32_MAX, &prev) ||
		    parse_u64(w[4], wl[4], INT32_MAX, &v)) {
			show(got, sizeof(got), nargs >= 1 ? w[3] : "", nargs >= 1 ? (size_t)(l + len - w[3]) : 0);
			BAD("%s:%" PRIu64 ": expected 'switch PREV_PID NEXT_PID', got '%s'", r->origin,
			    r->line, got);
		}
		ev->kind = IK_TRACE_SWITCH;
		ev->arg = (int64_t)prev;
		ev->arg2 = (int64_t)v;
	} else if (r->h.minor >= 1 && word_is(k, kl, "tick_stop")) {
		if (nargs != 1 || parse_u64(w[3], wl[3], 1, &v)) {
			show(got, sizeof(got), nargs >= 1 ? w[3] : "", nargs >= 1 ? (size_t)(l + len - w[3]) : 0);
			BAD("%s:%" PRIu64 ": expected 'tick_stop 0|1', got '%s'", r->origin, r->line, got);
		}
		ev->kind = IK_TRACE_TICK_STOP;
		ev->arg = (int64_t)v;
	} else if (r->h.minor >= 1 && word_is(k, kl, "freq")) {
		if (nargs != 1 || parse_u64(w[3], wl[3], UINT32_MAX, &v) || v == 0) {
			show(got, sizeof(got), nargs >= 1 ? w[3] : "", nargs >= 1 ? (size_t)(l + len - w[3]) : 0);
			BAD("%s:%" PRIu64 ": expected 'freq KHZ' (1..4294967295), got '%s'", r->origin, r->line, got);
		}
		ev->kind = IK_TRACE_FREQ;
		ev->arg = (int64_t)v;
	} else if (word_is(k, kl, "task_wake") || word_is(k, kl, "switch") || word_is(k, kl, "tick_stop") ||
		   word_is(k, kl, "freq")) {
		show(got, sizeof(got), k, kl);
		BAD("%s:%" PRIu64 ": expected an event of format 1 (the header says 'idlekit-trace 1'; '%s' needs 'idlekit-trace 1.1'), got '%s'",
		    r->origin, r->line, got, got);
	} else {
		show(got, sizeof(got), k, kl);
		BAD("%s:%" PRIu64 ": expected an event (idle_enter, idle_exit, wake, timer_start, timer_cancel, timer_expire%s), got '%s'",
		    r->origin, r->line, r->h.minor >= 1 ? ", task_wake, switch, tick_stop, freq" : "", got);
	}
	return IK_TRACE_OK;
}

int ik__trace_next(struct ik_trace_reader *r, struct ik_trace_event *ev, char *err,
		  size_t errlen)
{
	for (;;) {
		size_t len;
		int rc;
		const char *l = next_line(r, &len, &rc, err, errlen);
		if (!l)
			return rc ? rc : IK_TRACE_EOF;
		if (ik__trace_line_empty(l, len))
			continue;
		rc = parse_event(r, l, len, ev, err, errlen);
		if (rc == IK_TRACE_OK) {
			r->last_t = ev->t_ns;
			if (ev->kind == IK_TRACE_IDLE_ENTER)
				r->idle[ev->cpu] = 1;
			else if (ev->kind == IK_TRACE_IDLE_EXIT)
				r->idle[ev->cpu] = 0;
			r->events++;
			return IK_TRACE_OK;
		}
		if (!r->lenient)
			return rc;
		if (r->skipped++ == 0)
			snprintf(r->first_skip, sizeof(r->first_skip), "%s", err);
	}
}

/* ---- Open and close ---------------------------------------------------------------------- */

static int open_common(struct ik_trace_reader *r, const char *origin, bool lenient,
		       struct ik_trace_reader **out, char *err, size_t errlen)
{
	r->origin = origin;
	r->lenient = lenient;
	r->last_t = 0;
	int rc = read_header(r, err, errlen);
	if (rc) {
		ik__trace_close(r);
		return rc;
	}
	*out = r;
	return IK_TRACE_OK;
}

/* A reader of IN (through a buffer of its own), or with no IN of the LEN bytes at DATA. */
static int open_reader(FILE *in, const char *data, size_t len, const char *origin, bool lenient,
		       struct ik_trace_reader **out, char *err, size_t errlen)
{
	struct ik_trace_reader *r = calloc(1, sizeof(*r));
	char *buf = in ? malloc(BUF_SIZE) : NULL;
	if (!r || (in && !buf)) {
		free(r);
		free(buf);
		snprintf(err, errlen, "out of memory");
		return IK_TRACE_EFAIL;
	}
	r->in = in;
	r->buf = buf;
	r->data = in ? buf : data;
	r->len = in ? 0 : len;
	r->eof = !in;
	return open_common(r, origin, lenient, out, err, errlen);
}

int ik__trace_open_file(FILE *in, const char *origin, bool lenient, struct ik_trace_reader **out,
		       char *err, size_t errlen)
{
	return open_reader(in, NULL, 0, origin, lenient, out, err, errlen);
}

int ik__trace_open_mem(const char *data, size_t len, const char *origin, bool lenient,
		      struct ik_trace_reader **out, char *err, size_t errlen)
{
	return open_reader(NULL, data, len, origin, lenient, out, err, errlen);
}

const struct ik_trace_header *ik__trace_header(const struct ik_trace_reader *r)
{
	return &r->h;
}

uint64_t ik__trace_events_read(const struct ik_trace_reader *r)
{
	return r->events;
}

uint64_t ik__trace_skipped(const struct ik_trace_reader *r)
{
	return r->skipped;
}

const char *ik__trace_first_skip(const struct ik_trace_reader *r)
{
	return r->first_skip;
}

void ik__trace_close(struct ik_trace_reader *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r->idle);
	free(r->h.cpu_driver);
	free(r->h.topo);
	free(r->h.irqs);
	free(r);
}

/* ---- The writer -------------------------------------------------------------------------- */

int ik__trace_header_init(struct ik_trace_header *h, int hz, int cpus, const struct ik_driver *drv)
{
	memset(h, 0, sizeof(*h));
	h->version = IK_TRACE_VERSION;
	h->hz = hz;
	h->cpus = cpus;
	h->ndrivers = 1;
	h->drivers[0].drv = *drv;
	h->drivers[0].first_cpu = 0;
	h->drivers[0].ncpus = cpus;
	h->cpu_driver = calloc((size_t)cpus, 1);
	return h->cpu_driver ? 0 : -1;
}

void ik__trace_header_free(struct ik_trace_header *h)
{
	ik__freep(&h->cpu_driver);
	ik__freep(&h->topo);
	ik__freep(&h->irqs);
	h->nirqs = 0;
}

int ik__trace_write_header(FILE *out, const struct ik_trace_header *h)
{
	fprintf(out, "idlekit-trace %d%s\nhz %d\ncpus %d\n", IK_TRACE_VERSION, h->minor >= 1 ? ".1" : "",
		h->hz, h->cpus);
	if (h->minor >= 1 && h->governor[0]) {
		fprintf(out, "governor %s", h->governor);
		for (int i = 0; i < h->nparams && i < IK_TRACE_MAX_PARAMS; i++)
			fprintf(out, " %s=%" PRIu64, h->params[i].key, h->params[i].value);
		fputc('\n', out);
	}
	for (int c = 0; h->minor >= 1 && h->topo && c < h->cpus; c++)
		if (h->topo[c].package >= 0 && h->topo[c].core >= 0)
			fprintf(out, "cpu %d %" PRId32 " %" PRId32 "\n", c, h->topo[c].package,
				h->topo[c].core);
	for (int i = 0; h->minor >= 1 && i < h->nirqs; i++)
		fprintf(out, "irq %" PRId32 " %s\n", h->irqs[i].irq, h->irqs[i].name);
	for (int d = 0; d < h->ndrivers; d++) {
		const struct ik_driver *drv = &h->drivers[d].drv;
		/* The CPU list of this driver. */
		struct ik_cpuset *set = calloc(1, sizeof(*set));
		char list[4096];
		if (!set)
			return IK_TRACE_EFAIL;
		for (int c = 0; c < h->cpus; c++)
			if (h->cpu_driver[c] == d)
				ik__cpuset_add(set, c);
		ik__cpuset_format(set, list, sizeof(list));
		free(set);
		fprintf(out, "driver %s %s\n", drv->name, list);
		for (int i = 0; i < drv->state_count; i++) {
			const struct ik_state *s = &drv->states[i];
			fprintf(out, "state %s %" PRIu32 " %" PRIu32 " 0x%x%s%s\n", s->name,
				s->exit_latency, s->target_residency, s->flags, s->desc[0] ? " " : "",
				s->desc);
		}
	}
	fputs("events\n", out);
	return ferror(out) ? IK_TRACE_EFAIL : IK_TRACE_OK;
}

/* Decimal digits of v at p; returns the end.  (The writer is on the import's hot path.) */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

int ik__trace_write_event(FILE *out, const struct ik_trace_event *ev)
{
	char buf[192];
	char *p = put_i64(buf, ev->t_ns);
	*p++ = ' ';
	p = put_i64(p, ev->cpu);
	*p++ = ' ';
	switch (ev->kind) {
	case IK_TRACE_IDLE_ENTER:
		p = put_str(p, "idle_enter ");
		p = put_i64(p, ev->state);
		break;
	case IK_TRACE_IDLE_EXIT:
		p = put_str(p, "idle_exit");
		break;
	case IK_TRACE_WAKE:
		p = put_str(p, "wake ");
		p = put_str(p, ik__trace_cause_name(ev->cause));
		if ((ev->cause == IK_CAUSE_IRQ || ev->cause == IK_CAUSE_SOFTIRQ) && ev->arg >= 0) {
			*p++ = ' ';
			p = put_i64(p, ev->arg);
		} else if (ev->cause == IK_CAUSE_IPI && ev->ipi_src) {
			*p++ = ' ';
			p = put_i64(p, ev->src_cpu);
		}
		break;
	case IK_TRACE_TIMER_START:
		p = put_str(p, "timer_start ");
		p = put_i64(p, ev->arg);
		if (ev->timer_id) {
			*p++ = ' ';
			p = put_u64(p, ev->timer_id);
		}
		break;
	case IK_TRACE_TIMER_CANCEL:
	case IK_TRACE_TIMER_EXPIRE:
		p = put_str(p, ev->kind == IK_TRACE_TIMER_CANCEL ? "timer_cancel" : "timer_expire");
		if (ev->timer_id) {
			*p++ = ' ';
			p = put_u64(p, ev->timer_id);
		}
		break;
	case IK_TRACE_TASK_WAKE:
		p = put_str(p, "task_wake ");
		p = put_i64(p, ev->src_cpu);
		if (ev->arg >= 0) {
			*p++ = ' ';
			p = put_i64(p, ev->arg);
		}
		break;
	case IK_TRACE_SWITCH:
		p = put_str(p, "switch ");
		p = put_i64(p, ev->arg);
		*p++ = ' ';
		p = put_i64(p, ev->arg2);
		break;
	case IK_TRACE_TICK_STOP:
		p = put_str(p, ev->arg ? "tick_stop 1" : "tick_stop 0");
		break;
	case IK_TRACE_FREQ:
		p = put_str(p, "freq ");
		p = put_i64(p, ev->arg);
		break;
	}
	*p++ = '\n';
	size_t n = (size_t)(p - buf);
	return fwrite(buf, 1, n, out) == n ? IK_TRACE_OK : IK_TRACE_EFAIL;
}
