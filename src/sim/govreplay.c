/*
 * The decision-stream harness: idle periods in, governor decisions out, through the same
 * core code the simulator's idle loop runs (src/sim/idle_loop.c), on one CPU.
 *
 * Per idle period (one input line) the harness does what the kernel's idle loop does:
 * fill in what tick_nohz_get_sleep_length() and PM QoS would say, call the governor's
 * select with stop_tick true, stop or keep the tick, "enter" the chosen state, let the
 * earliest wake event end it, account as cpuidle_enter_state() does, and reflect.  Nothing
 * is random and no hardware cost is modelled: the measured residency is the time of the
 * wake event plus the state's advertised exit latency, so the outcome is a pure function of
 * the input and can be worked out by hand (docs/govreplay.md, tests/govreplay/).
 *
 * The reader is built for streams of millions of lines: a large read buffer, memchr() to
 * find line ends, hand-written integer parsing, and output collected in a buffer.
 *
 * Divisions: one idle period (init, start, enter, the earliest event, exit, step); the input
 * stream (the header, the data lines parsed by hand, the chunked reader, the entry points
 * ik__govreplay_buffer and ik__govreplay_stream).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/idle_call.h"
#include "sim/govreplay.h"
#include "util/names.h"

/* ---- One idle period ------------------------------------------------------------------ */

int ik__govreplay_init(struct ik_govreplay *g, const struct ik_driver *drv,
		      const struct ik_governor *gov, int hz,
		      const struct ik_haltpoll_params *haltpoll, char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	if (!gov) {
		snprintf(err, errlen, "no governor given (available: %s)", ik_governor_names());
		return IK_GOVREPLAY_EINPUT;
	}
	if (hz < 1 || hz > 100000) {
		snprintf(err, errlen, "HZ %d: expected 1..100000", hz);
		return IK_GOVREPLAY_EINPUT;
	}
	if (drv->state_count < 1 || drv->state_count > IK_STATE_MAX) {
		snprintf(err, errlen, "driver %s: %d states, expected 1 to %d", drv->name,
			 drv->state_count, IK_STATE_MAX);
		return IK_GOVREPLAY_EINPUT;
	}
	g->drv = *drv;
	g->gov = gov;
	g->hz = hz;
	if (haltpoll)
		g->haltpoll = *haltpoll;
	else
		ik_haltpoll_params_default(&g->haltpoll);
	ik_device_init(&g->dev, &g->drv, 0, hz);
	g->dev.haltpoll = &g->haltpoll;
	return IK_GOVREPLAY_OK;
}

int ik__govreplay_disable(struct ik_govreplay *g, const char *state_name)
{
	for (int i = 0; i < g->drv.state_count; i++) {
		if (strcmp(g->drv.states[i].name, state_name) == 0) {
			g->dev.states_disable[i] |= IK_DISABLE_USER;
			return 0;
		}
	}
	return -1;
}

int ik__govreplay_start(struct ik_govreplay *g, char *err, size_t errlen)
{
	if (g->enabled)
		return IK_GOVREPLAY_OK;
	if (ik_governor_enable(g->gov, &g->drv, &g->dev)) {
		snprintf(err, errlen, "governor %s: out of memory", g->gov->name);
		return IK_GOVREPLAY_EFAIL;
	}
	g->enabled = true;
	return IK_GOVREPLAY_OK;
}

void ik__govreplay_free(struct ik_govreplay *g)
{
	if (g->enabled)
		ik__governor_disable(g->gov, &g->drv, &g->dev);
	g->enabled = false;
}

const char *ik__govreplay_event_name(enum ik_govreplay_event e)
{
	static const char *const names[] = {
		[IK_GOVREPLAY_WAKE] = "wake", [IK_GOVREPLAY_TIMER] = "timer",
		[IK_GOVREPLAY_TICK] = "tick", [IK_GOVREPLAY_POLL_LIMIT] = "poll_limit",
		[IK_GOVREPLAY_NO_EVENT] = "none",
	};
	return ik__name_of(names, IK_GOVREPLAY_NO_EVENT + 1, (int)e, "none");
}

/* The harness's side of the idle call: no driver model, the tick and poll limit noted. */
struct step_world {
	bool tick_stopped_now;
	bool polling;
	uint64_t poll_limit_ns;
};

static void world_stop_tick(void *ctx, struct ik_device *dev)
{
	(void)dev;
	((struct step_world *)ctx)->tick_stopped_now = true;
}

static void world_arm_poll_limit(void *ctx, struct ik_device *dev, uint64_t limit_ns)
{
	struct step_world *w = ctx;
	(void)dev;
	w->polling = true;
	w->poll_limit_ns = limit_ns;
}

void ik__govreplay_enter(struct ik_govreplay *g, const struct ik_govreplay_input *in,
			struct ik_govreplay_entered *e)
{
	const struct ik_driver *drv = &g->drv;
	struct ik_device *dev = &g->dev;
	int64_t sleep_ns = in->sleep_ns;
	struct step_world sw = { false, false, 0 };
	const struct ik_idle_world world = { &sw, world_stop_tick, NULL, world_arm_poll_limit };

	/*
	 * What the tick code says at idle entry: the sleep length ignores the tick; the next
	 * clock event is the nearer of the timer and the tick, unless the tick is stopped.
	 */
	dev->in.sleep_length_ns = sleep_ns;
	dev->in.delta_next_ns =
		in->tick_stopped || sleep_ns < in->tick_ns ? sleep_ns : in->tick_ns;
	dev->in.tick_stopped = in->tick_stopped;
	dev->in.latency_req_ns = in->latency_req_ns;
	dev->in.now_ns = g->clock_ns;

	bool stop_tick;
	e->state = ik__idle_call_enter(g->gov, drv, dev, &world, &stop_tick);
	e->stop_tick = stop_tick;
	e->tick_kept = !sw.tick_stopped_now;
	e->polling = sw.polling;
	e->poll_limit_ns = sw.poll_limit_ns;
}

enum ik_govreplay_event ik__govreplay_earliest(const struct ik_govreplay_input *in,
					      const struct ik_govreplay_entered *e,
					      int64_t *at_ns)
{
	/* On a tie the earlier in this order wins. */
	enum ik_govreplay_event woken_by = IK_GOVREPLAY_NO_EVENT;
	int64_t at = IK_KTIME_MAX;
	if (in->wake_ns != IK_KTIME_MAX) {
		at = in->wake_ns;
		woken_by = IK_GOVREPLAY_WAKE;
	}
	if (in->sleep_ns != IK_KTIME_MAX && in->sleep_ns < at) {
		at = in->sleep_ns;
		woken_by = IK_GOVREPLAY_TIMER;
	}
	if (e->tick_kept && in->tick_ns < at) {
		at = in->tick_ns;
		woken_by = IK_GOVREPLAY_TICK;
	}
	if (e->polling && e->poll_limit_ns < (uint64_t)at) {
		at = (int64_t)e->poll_limit_ns;
		woken_by = IK_GOVREPLAY_POLL_LIMIT;
	}
	if (woken_by == IK_GOVREPLAY_NO_EVENT)
		at = IK_GOVREPLAY_NO_EVENT_NS;
	*at_ns = at;
	return woken_by;
}

void ik__govreplay_exit(struct ik_govreplay *g, const struct ik_govreplay_entered *e,
		       enum ik_govreplay_event woken_by, int64_t at,
		       struct ik_govreplay_result *out)
{
	const struct ik_driver *drv = &g->drv;
	struct ik_device *dev = &g->dev;
	int idx = e->state;
	const struct ik_state *state = &drv->states[idx];

	/*
	 * The core measures entry to exit, so the exit latency is included (the advertised one:
	 * the harness has no hardware model).  A polling state is already running.  The sum is
	 * capped at KTIME_MAX, which only a time within an exit latency of it can reach.
	 */
	int64_t measured_ns = at;
	if (!e->polling) {
		int64_t exit_ns = state->exit_latency_ns;
		measured_ns = at > IK_KTIME_MAX - exit_ns ? IK_KTIME_MAX : at + exit_ns;
	}
	/* The harness's clock: the CPU wakes and goes idle again at once. */
	g->clock_ns = measured_ns > IK_KTIME_MAX - g->clock_ns ? IK_KTIME_MAX : g->clock_ns + measured_ns;
	dev->in.now_ns = g->clock_ns;
	ik__idle_call_exit(g->gov, drv, dev, idx, measured_ns, woken_by == IK_GOVREPLAY_TICK,
			  woken_by == IK_GOVREPLAY_POLL_LIMIT);

	g->lines++;
	if (e->stop_tick)
		g->stop_tick_count++;

	out->state = idx;
	out->stop_tick = e->stop_tick;
	out->tick_kept = e->tick_kept;
	out->woken_by = woken_by;
	out->wake_at_ns = at;
	out->last_residency_ns = dev->last_residency_ns;
}

void ik__govreplay_step(struct ik_govreplay *g, const struct ik_govreplay_input *in,
		       struct ik_govreplay_result *out)
{
	struct ik_govreplay_entered e;
	int64_t at;

	ik__govreplay_enter(g, in, &e);
	enum ik_govreplay_event woken_by = ik__govreplay_earliest(in, &e, &at);
	ik__govreplay_exit(g, &e, woken_by, at, out);
}

/* ---- The input stream ------------------------------------------------------------------ */

enum column {
	COL_SLEEP,
	COL_TICK,
	COL_WAKE,
	COL_LATENCY,
	COL_TICK_STOPPED,
	COL_NR_IOWAITERS,
	COL_CPU_UTIL,
	COLUMNS
};

static const char *const column_names[COLUMNS] = {
	"sleep_ns", "tick_ns", "wake_ns", "latency_req_ns", "tick_stopped", "nr_iowaiters",
	"cpu_util",
};
#define HEADER_HINT "sleep_ns,tick_ns,wake_ns[,latency_req_ns][,tick_stopped][,nr_iowaiters][,cpu_util]"
#define MAX_IOWAITERS 1000000 /* tasks waiting on I/O on one CPU */
#define MAX_CPU_UTIL 1024     /* sched_cpu_util() is at most the capacity, 1024 here */

#define READ_CHUNK (1u << 20) /* bytes per read, and the longest data line */
#define OUT_BUF (1u << 16)
#define SLACK 8 /* zeroed bytes after the data in the read buffer, for 8-byte loads */

struct reader {
	struct ik_govreplay *g;
	const char *origin;
	FILE *out;
	char *err;
	size_t errlen;
	uint64_t line;      /* number of the line being read, from 1 */
	bool have_header;
	bool skipping;      /* inside a comment line longer than the read buffer */
	int ncols;
	enum column cols[COLUMNS]; /* the column at each position */
	int64_t tick_nsec;
	const char *readable_end; /* memory may be read up to here (8-byte loads) */
	size_t olen;
	char obuf[OUT_BUF];
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A field's text for a message: at most 40 bytes, anything unprintable as \xNN. */
static void shown(const char *p, const char *end, char *buf, size_t len)
{
	size_t o = 0;
	const char *start = p;

	for (; p < end && o + 8 < len; p++) {
		unsigned char c = (unsigned char)*p;
		if (p - start >= 40) {
			o += (size_t)snprintf(buf + o, len - o, "...");
			break;
		}
		if (c < 0x20 || c >= 0x7f || c == '\'' || c == '\\')
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	buf[o] = '\0';
}

static int input_error(struct reader *r, const char *fmt, const char *what)
{
	snprintf(r->err, r->errlen, "%s:%llu: ", r->origin, (unsigned long long)r->line);
	size_t n = strlen(r->err);
	snprintf(r->err + n, r->errlen > n ? r->errlen - n : 0, fmt, what);
	return IK_GOVREPLAY_EINPUT;
}

static int count_fields(const char *p, const char *end)
{
	int n = 1;

	while ((p = memchr(p, ',', (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

/* The header names the columns; any order, each at most once, the first three required. */
static int parse_header(struct reader *r, const char *p, const char *end)
{
	const char *line = p;
	char text[200];

	r->ncols = 0;
	for (;;) {
		const char *f = p;
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *fend = comma ? comma : end;
		while (f < fend && is_blank(*f))
			f++;
		const char *e = fend;
		while (e > f && is_blank(e[-1]))
			e--;

		int col = -1;
		for (int c = 0; c < COLUMNS; c++) {
			if ((size_t)(e - f) == strlen(column_names[c]) &&
			    memcmp(f, column_names[c], (size_t)(e - f)) == 0)
				col = c;
		}
		if (col < 0) {
			bool data_like = r->ncols == 0 && f < e && ((*f >= '0' && *f <= '9') || *f == '-');
			/* A data line where the header should be: show the line. */
			shown(data_like ? line : f, data_like ? end : e, text, sizeof(text));
			if (data_like)
				return input_error(r,
						   "missing header: the first line must name the "
						   "columns, e.g. '" HEADER_HINT "', got '%s'",
						   text);
			return input_error(r,
					   "header: unknown column '%s' (expected " HEADER_HINT
					   ")",
					   text);
		}
		for (int k = 0; k < r->ncols; k++) {
			if ((int)r->cols[k] == col)
				return input_error(r, "header: column '%s' appears twice",
						   column_names[col]);
		}
		r->cols[r->ncols++] = (enum column)col;
		if (!comma)
			break;
		p = comma + 1;
	}
	for (int c = COL_SLEEP; c <= COL_WAKE; c++) {
		bool found = false;
		for (int k = 0; k < r->ncols; k++)
			found |= (int)r->cols[k] == c;
		if (!found)
			return input_error(r, "header: column '%s' is missing (expected "
					   HEADER_HINT ")", column_names[c]);
	}
	r->have_header = true;
	r->g->dev.in.nr_iowaiters = 0; /* no nr_iowaiters column: none waiting, every line */
	r->g->dev.in.cpu_util = 0;     /* no cpu_util column: an unused CPU, every line */
	return IK_GOVREPLAY_OK;
}

/* What a column accepts, for messages. */
static void column_expectation(const struct reader *r, enum column col, char *buf, size_t len)
{
	switch (col) {
	case COL_SLEEP:
	case COL_WAKE:
	case COL_LATENCY: /* a time, or '-' for none */
		snprintf(buf, len, "an integer 0..%lld (ns) or '-' (%s)", (long long)IK_KTIME_MAX,
			 col == COL_SLEEP ? "no timer" : col == COL_WAKE ? "no wakeup" : "no constraint");
		break;
	case COL_TICK:
		snprintf(buf, len, "an integer 1..%lld (TICK_NSEC at HZ %d)",
			 (long long)r->tick_nsec, r->g->hz);
		break;
	case COL_NR_IOWAITERS:
		snprintf(buf, len, "an integer 0..%d (tasks waiting on I/O)", MAX_IOWAITERS);
		break;
	case COL_CPU_UTIL:
		snprintf(buf, len, "an integer 0..%d (sched_cpu_util(), of capacity 1024)",
			 MAX_CPU_UTIL);
		break;
	case COL_TICK_STOPPED:
	case COLUMNS:
		snprintf(buf, len, "0 or 1");
		break;
	}
}

/*
 * A data line is bad: say why.  A wrong number of columns is named first, as it is the
 * likelier cause of any other complaint; otherwise the field at position k.
 */
static int data_error(struct reader *r, const char *line, const char *end, int k,
		      const char *field)
{
	char msg[400], expect[120], text[200];
	int nfields = count_fields(line, end);

	if (nfields != r->ncols) {
		char names[120] = "";
		size_t o = 0;
		for (int i = 0; i < r->ncols; i++)
			o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", i ? "," : "",
					      column_names[r->cols[i]]);
		snprintf(msg, sizeof(msg), "expected %d columns (%s), got %d", r->ncols, names,
			 nfields);
		return input_error(r, "%s", msg);
	}
	const char *fend = memchr(field, ',', (size_t)(end - field));
	if (!fend)
		fend = end;
	while (field < fend && is_blank(*field))
		field++;
	while (fend > field && is_blank(fend[-1]))
		fend--;
	shown(field, fend, text, sizeof(text));
	column_expectation(r, r->cols[k], expect, sizeof(expect));
	snprintf(msg, sizeof(msg), "column '%s': expected %s, got '%s'%s",
		 column_names[r->cols[k]], expect, text,
		 text[0] == '-' && text[1] >= '0' && text[1] <= '9' ? " (negative)" : "");
	return input_error(r, "%s", msg);
}

static int flush_output(struct reader *r)
{
	if (r->olen && r->out) {
		if (fwrite(r->obuf, 1, r->olen, r->out) != r->olen) {
			snprintf(r->err, r->errlen, "writing the output: %s", strerror(errno));
			r->olen = 0;
			return IK_GOVREPLAY_EFAIL;
		}
	}
	r->olen = 0;
	return IK_GOVREPLAY_OK;
}

/*
 * Up to 8 leading digits of p at once (little-endian SWAR): returns how many of the 8 bytes
 * at p are digits before the first non-digit, and their value.  A byte is a digit when
 * neither b + 0x46 nor b - 0x30 sets its top bit; carries and borrows only come out of
 * non-digit bytes and only move towards later bytes, so the first non-digit is found
 * exactly.  The digits are then aligned to the top and combined pairwise (10, 100, 10000).
 */
static inline unsigned digits8(const char *p, uint64_t *value)
{
	uint64_t x;

	memcpy(&x, p, 8);
	uint64_t nondigit = ((x + 0x4646464646464646ULL) | (x - 0x3030303030303030ULL)) &
			    0x8080808080808080ULL;
	unsigned n = nondigit ? (unsigned)__builtin_ctzll(nondigit) >> 3 : 8;
	if (n == 0)
		return 0;
	x = (x & 0x0F0F0F0F0F0F0F0FULL) << (8 * (8 - n));
	x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFULL;
	x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFULL;
	x = (x * 10000 + (x >> 32)) & 0x00000000FFFFFFFFULL;
	*value = x;
	return n;
}

/*
 * A non-negative decimal integer at *pp (not past end), at most INT64_MAX; leading zeros
 * allowed.  `readable` is how far memory may be read (8-byte loads may look past end).
 */
static inline bool parse_digits(const char **pp, const char *end, const char *readable,
				uint64_t *out)
{
	const char *p = *pp;
	uint64_t u = 0;

	while (p + 1 < end && p[0] == '0' && (unsigned)(p[1] - '0') < 10)
		p++; /* leading zeros do not count towards the 19 digits an int64 can have */
	const char *digits = p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (readable - p >= 8) {
		unsigned n = digits8(p, &u);
		if (n < 8 && n <= (unsigned)(end - p)) {
			if (n == 0)
				return false;
			*pp = p + n;
			*out = u;
			return true;
		}
		if (n == 8 && end - p >= 8)
			p += 8; /* a longer number: the loop below takes the rest */
		else
			u = 0; /* (digits past the line's end cannot be; to be safe, start over) */
	}
#endif
	while (p < end && (unsigned)(*p - '0') < 10) {
		if (p - digits >= 19)
			return false; /* 20 digits or more: beyond INT64_MAX */
		u = u * 10 + (uint64_t)(*p - '0');
		p++;
	}
	/* 19 digits fit a u64; an int64 is at most 9223372036854775807. */
	if (p == digits || u > (uint64_t)INT64_MAX)
		return false;
	*pp = p;
	*out = u;
	return true;
}

/*
 * One data line: parse every field (hand-written: this is the hot path), check the ranges,
 * step, and append "state,stop_tick\n" to the output buffer.
 */
static int parse_data(struct reader *r, const char *line, const char *end)
{
	struct ik_govreplay_input in = {
		.sleep_ns = 0,
		.tick_ns = 1,
		.wake_ns = 0,
		.latency_req_ns = IK_LATENCY_REQ_NONE_NS,
		.tick_stopped = false,
	};
	const char *p = line;

	for (int k = 0; k < r->ncols; k++) {
		const char *field = p;
		enum column col = r->cols[k];
		int64_t v;

		while (p < end && is_blank(*p))
			p++;
		if (p < end && *p == '-' && (p + 1 == end || p[1] == ',' || is_blank(p[1]))) {
			/* "-": none (KTIME_MAX), or the default latency limit. */
			if (col == COL_TICK || col == COL_TICK_STOPPED || col == COL_NR_IOWAITERS ||
			    col == COL_CPU_UTIL)
				return data_error(r, line, end, k, field);
			v = col == COL_LATENCY ? IK_LATENCY_REQ_NONE_NS : IK_KTIME_MAX;
			p++;
		} else {
			uint64_t u;
			if (!parse_digits(&p, end, r->readable_end, &u))
				return data_error(r, line, end, k, field);
			v = (int64_t)u;
		}
		while (p < end && is_blank(*p))
			p++;
		if (k < r->ncols - 1) {
			if (p == end || *p != ',')
				return data_error(r, line, end, k, field);
			p++;
		} else if (p != end) {
			return data_error(r, line, end, k, field);
		}
		/* Each field straight into its place (no array: loads would stall on it). */
		switch (col) {
		case COL_SLEEP:
			in.sleep_ns = v;
			break;
		case COL_TICK:
			if (v < 1 || v > r->tick_nsec)
				return data_error(r, line, end, k, field);
			in.tick_ns = v;
			break;
		case COL_WAKE:
			in.wake_ns = v;
			break;
		case COL_LATENCY:
			in.latency_req_ns = v;
			break;
		case COL_NR_IOWAITERS:
			if (v > MAX_IOWAITERS)
				return data_error(r, line, end, k, field);
			/* What nr_iowait_cpu() says at this entry (menu before 6.13 reads it).  Set
			   here, beside the parsing, rather than in the step sequence; without the
			   column it stays 0 (parse_header). */
			r->g->dev.in.nr_iowaiters = (unsigned)v;
			break;
		case COL_CPU_UTIL:
			if (v > MAX_CPU_UTIL)
				return data_error(r, line, end, k, field);
			/* What sched_cpu_util() says at this entry (teo 6.3-6.10 compares it with
			   the capacity >> 6); like nr_iowaiters, 0 without the column. */
			r->g->dev.in.cpu_util = (unsigned long)v;
			break;
		case COL_TICK_STOPPED:
		case COLUMNS:
			if (v > 1)
				return data_error(r, line, end, k, field);
			in.tick_stopped = v == 1;
			break;
		}
	}

	struct ik_govreplay_result res;
	ik__govreplay_step(r->g, &in, &res);

	if (r->g->trace)
		fprintf(r->g->trace,
			"line %llu: state %d stop_tick %d (tick %s), woken by %s at %lld ns, "
			"last_residency_ns %llu\n",
			(unsigned long long)r->line, res.state, res.stop_tick,
			res.tick_kept ? "kept" : "stopped", ik__govreplay_event_name(res.woken_by),
			(long long)res.wake_at_ns, (unsigned long long)res.last_residency_ns);
	if (r->g->decisions)
		fprintf(r->g->decisions, "%llu,%d,%d\n", (unsigned long long)r->line, res.state,
			res.stop_tick);
	if (r->out) {
		if (r->olen + 24 > sizeof(r->obuf) && flush_output(r))
			return IK_GOVREPLAY_EFAIL;
		char *o = r->obuf + r->olen;
		/* IK_STATE_MAX is 10: the index is one digit. */
		o[0] = (char)('0' + res.state);
		o[1] = ',';
		o[2] = res.stop_tick ? '1' : '0';
		o[3] = '\n';
		r->olen += 4;
	}
	return IK_GOVREPLAY_OK;
}

/* One line without its '\n': blank, comment, header or data. */
static int process_line(struct reader *r, const char *p, const char *end)
{
	if (end > p && end[-1] == '\r')
		end--;
	if (p < end && (unsigned)(*p - '0') < 10 && r->have_header)
		return parse_data(r, p, end); /* the common case first */

	const char *q = p;
	while (q < end && is_blank(*q))
		q++;
	if (q == end || *q == '#')
		return IK_GOVREPLAY_OK;
	if (!r->have_header)
		return parse_header(r, p, end);
	return parse_data(r, p, end);
}

/*
 * Every complete line of data[0, len); with `final`, a last line without '\n' too.  Sets
 * *consumed to the bytes used (the rest is an incomplete line).  `slack` bytes after the
 * data may be read (they are not digits).
 */
static int process_chunk(struct reader *r, const char *data, size_t len, size_t slack,
			 bool final, size_t *consumed)
{
	const char *p = data, *end = data + len;

	r->readable_end = end + slack;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			if (!final)
				break;
			nl = end;
		}
		r->line++;
		if (r->skipping) {
			r->skipping = false;
		} else {
			int rc = process_line(r, p, nl);
			if (rc) {
				*consumed = (size_t)(p - data);
				return rc;
			}
		}
		p = nl == end ? end : nl + 1;
	}
	*consumed = (size_t)(p - data);
	return IK_GOVREPLAY_OK;
}

static struct reader *reader_new(struct ik_govreplay *g, const char *origin, FILE *out,
				 char *err, size_t errlen)
{
	struct reader *r = malloc(sizeof(*r));

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r->g = g;
	r->origin = origin;
	r->out = out;
	r->err = err;
	r->errlen = errlen;
	r->line = 0;
	r->have_header = false;
	r->skipping = false;
	r->ncols = 0;
	r->tick_nsec = ik__govreplay_tick_nsec(g);
	r->olen = 0;
	return r;
}

/* The end of a stream: flush what good lines produced, whatever happened. */
static int reader_finish(struct reader *r, int rc)
{
	int frc = flush_output(r);

	if (rc == IK_GOVREPLAY_OK && frc == IK_GOVREPLAY_OK && !r->have_header) {
		snprintf(r->err, r->errlen,
			 "%s: no header line: expected a first line naming the columns, e.g. "
			 "'" HEADER_HINT "'",
			 r->origin);
		rc = IK_GOVREPLAY_EINPUT;
	}
	if (rc == IK_GOVREPLAY_OK)
		rc = frc;
	free(r);
	return rc;
}

int ik__govreplay_buffer(struct ik_govreplay *g, const char *data, size_t len, const char *origin,
			FILE *out, char *err, size_t errlen)
{
	int rc = ik__govreplay_start(g, err, errlen);
	if (rc)
		return rc;
	struct reader *r = reader_new(g, origin, out, err, errlen);
	if (!r)
		return IK_GOVREPLAY_EFAIL;
	size_t used;
	rc = process_chunk(r, data, len, 0, true, &used);
	return reader_finish(r, rc);
}

int ik__govreplay_stream(struct ik_govreplay *g, FILE *in, const char *origin, FILE *out,
			char *err, size_t errlen)
{
	int rc = ik__govreplay_start(g, err, errlen);
	if (rc)
		return rc;
	struct reader *r = reader_new(g, origin, out, err, errlen);
	char *buf = malloc(READ_CHUNK + SLACK);
	if (!r || !buf) {
		snprintf(err, errlen, "out of memory");
		free(buf);
		return r ? reader_finish(r, IK_GOVREPLAY_EFAIL) : IK_GOVREPLAY_EFAIL;
	}

	size_t have = 0; /* bytes in buf: the start of a line not yet complete */
	for (;;) {
		size_t n = fread(buf + have, 1, READ_CHUNK - have, in);
		if (n == 0) {
			if (ferror(in)) {
				snprintf(err, errlen, "%s: read failed: %s", origin, strerror(errno));
				rc = IK_GOVREPLAY_EFAIL;
				break;
			}
			/* End of input: whatever is left is the last line. */
			size_t used;
			memset(buf + have, 0, SLACK);
			rc = process_chunk(r, buf, have, SLACK, true, &used);
			break;
		}
		have += n;
		memset(buf + have, 0, SLACK);
		size_t used;
		rc = process_chunk(r, buf, have, SLACK, false, &used);
		if (rc)
			break;
		memmove(buf, buf + used, have - used);
		have -= used;
		if (have == READ_CHUNK) {
			/* A line fills the whole buffer: a long comment is skipped, else an error. */
			const char *q = buf;
			while (q < buf + have && is_blank(*q))
				q++;
			if (r->skipping || (q < buf + have && *q == '#')) {
				r->skipping = true;
				have = 0;
				continue;
			}
			r->line++;
			snprintf(err, errlen, "%s:%llu: line longer than %u bytes", origin,
				 (unsigned long long)r->line, READ_CHUNK);
			rc = IK_GOVREPLAY_EINPUT;
			break;
		}
	}
	free(buf);
	return reader_finish(r, rc);
}
