/*
 * Platform files: the hardware a simulation runs on.
 *
 *   [platform]                  name, topology, IPI cost, busy power
 *   [state0] [state1] ...       the idle-state table a driver registers, shallow to deep,
 *                               with what each state really costs
 *
 * Every key is checked against a table; anything unknown, repeated, malformed or out of
 * range is an error that names the file, line, section and key and says what was
 * expected.  Defaults that depend on other keys (a state's desc, its exit cost, whether
 * waking it needs an IPI) are filled in only after the whole file and any overrides are
 * read, so an override of latency_us also moves the default exit cost.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/platform_ini.h"

enum platform_key {
	PK_NAME,
	PK_DESCRIPTION,
	PK_SOURCE,
	PK_PACKAGES,
	PK_CORES_PER_PACKAGE,
	PK_THREADS_PER_CORE,
	PK_CORES_PER_LLC,
	PK_IPI_NS,
	PK_POLL_WAKE_NS,
	PK_CONTEXT_SWITCH_NS,
	PK_ACTIVE_POWER_MW,
	PK_COUNT
};
static const char *const platform_keys[PK_COUNT] = {
	"name", "description", "source", "packages", "cores_per_package", "threads_per_core",
	"cores_per_llc", "ipi_ns", "poll_wake_ns", "context_switch_ns", "active_power_mw",
};

enum state_key {
	SK_NAME,
	SK_DESC,
	SK_LATENCY_US,
	SK_RESIDENCY_US,
	SK_METHOD,
	SK_HINT,
	SK_FLAGS,
	SK_POWER_MW,
	SK_ENTRY_NS,
	SK_EXIT_NS,
	SK_EXIT_IPI_NS,
	SK_EXIT_TIMER_NS,
	SK_EXIT_IRQ_NS,
	SK_NEEDS_IPI,
	SK_COUNT
};
static const char *const state_keys[SK_COUNT] = {
	"name", "desc", "latency_us", "residency_us", "method", "hint", "flags", "power_mw",
	"entry_ns", "exit_ns", "exit_ipi_ns", "exit_timer_ns", "exit_irq_ns", "needs_ipi",
};

_Static_assert(PK_COUNT <= IK_INI_MAX_KEYS && SK_COUNT <= IK_INI_MAX_KEYS, "key tables");

static const struct {
	const char *name;
	unsigned flag;
} flag_names[] = {
	{ "polling", IK_FLAG_POLLING },	    { "timer_stop", IK_FLAG_TIMER_STOP },
	{ "tlb_flushed", IK_FLAG_TLB_FLUSHED }, { "off", IK_FLAG_OFF },
	{ "unusable", IK_FLAG_UNUSABLE },
};
#define FLAG_LIST "polling timer_stop tlb_flushed off unusable"

#define MAX_CPUS 8192
#define MAX_STATE_US 100000000
#define MAX_POWER_MW 1000000
#define MAX_COST_NS 1000000000 /* poll_wake_ns, context_switch_ns: a second is plenty */

/* Topology limits; SMT8 exists on POWER. */
#define MAX_THREADS_PER_CORE 8

static const struct ik_ini_where nowhere = { 0, NULL };

void ik_platform_reader_init(struct ik_platform_reader *r, const char *origin,
			     struct ik_platform *p, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->origin, sizeof(r->origin), "%s", origin ? origin : "<platform>");
	r->e.origin = r->origin;
	r->e.buf = err;
	r->e.len = errlen;
	if (err && errlen)
		err[0] = '\0';
	r->p = p;

	memset(p, 0, sizeof(*p));
	p->ipi_ns.kind = IK_DIST_CONSTANT;
	p->ipi_ns.a_ns = p->ipi_ns.b_ns = 1000;
	p->poll_wake_ns = 100;
	p->context_switch_ns = 1000;
	/* entry_ns defaults to "constant 0": the zeroed struct ik_dist already is. */
}

bool ik_platform_section(const char *section)
{
	return strcmp(section, "platform") == 0 || ik_ini_state_index(section, IK_STATE_MAX) >= 0;
}

int ik_platform_check_key(const char *section, const char *key, char *msg, size_t msglen)
{
	char list[256];
	const char *const *names = platform_keys;
	int n = PK_COUNT;

	if (strcmp(section, "platform") != 0) {
		names = state_keys;
		n = SK_COUNT;
	}
	if (ik_ini_key_index(key, names, n) >= 0)
		return 0;
	char shown[80];
	if (msg && msglen)
		snprintf(msg, msglen, "unknown key '%s' in [%s]; known keys: %s",
			 ik_ini_shown(key, shown, sizeof(shown)), section,
			 ik_ini_join(names, n, list, sizeof(list)));
	return -1;
}

/* "[section] key: <what was wrong>" at w. */
static int bad_value(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		     const char *key, const char *msg)
{
	return ik_ini_fail(&r->e, w, "[%s] %s: %s", section, key, msg);
}

static int set_int(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		   const char *key, const char *value, int64_t min, int64_t max, bool hex,
		   int64_t *out)
{
	char msg[256];
	if (ik_ini_int(value, min, max, hex, out, msg, sizeof(msg)) != 0)
		return bad_value(r, w, section, key, msg);
	return 0;
}

static int set_dist(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		    const char *key, const char *value, struct ik_dist *out)
{
	char msg[256];
	if (ik_dist_parse(value, out, msg, sizeof(msg)) != 0)
		return bad_value(r, w, section, key, msg);
	return 0;
}

static int set_text(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		    const char *key, const char *value, size_t size, bool name_chars, char *out)
{
	char msg[256];
	if (ik_ini_text(value, size, name_chars, out, msg, sizeof(msg)) != 0)
		return bad_value(r, w, section, key, msg);
	return 0;
}

static int parse_flags(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		       const char *value, unsigned *out)
{
	unsigned flags = 0;
	const char *p = value;
	char shown[80];

	if (strcmp(value, "none") == 0) {
		*out = 0;
		return 0;
	}
	while (*p) {
		size_t skip = strspn(p, ", \t");
		p += skip;
		size_t len = strcspn(p, ", \t");
		if (len == 0)
			break;
		bool found = false;
		for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++) {
			if (strlen(flag_names[i].name) == len && memcmp(p, flag_names[i].name, len) == 0) {
				flags |= flag_names[i].flag;
				found = true;
			}
		}
		if (!found) {
			char tok[64];
			snprintf(tok, sizeof(tok), "%.*s", (int)(len < 63 ? len : 63), p);
			return ik_ini_fail(&r->e, w, "[%s] flags: expected 'none' or a comma/space "
					   "separated list of: " FLAG_LIST ", got '%s'", section,
					   ik_ini_shown(tok, shown, sizeof(shown)));
		}
		p += len;
	}
	*out = flags;
	return 0;
}

static int set_platform_key(struct ik_platform_reader *r, int k, const char *value,
			    struct ik_ini_where w)
{
	struct ik_platform *p = r->p;
	const char *sec = "platform", *key = platform_keys[k];
	int64_t v;

	switch (k) {
	case PK_NAME:
		return set_text(r, w, sec, key, value, sizeof(p->name), true, p->name);
	case PK_DESCRIPTION:
		return set_text(r, w, sec, key, value, sizeof(p->description), false, p->description);
	case PK_SOURCE:
		return set_text(r, w, sec, key, value, sizeof(p->source), false, p->source);
	case PK_PACKAGES:
		if (set_int(r, w, sec, key, value, 1, MAX_CPUS, false, &v))
			return -1;
		p->packages = (int)v;
		return 0;
	case PK_CORES_PER_PACKAGE:
		if (set_int(r, w, sec, key, value, 1, MAX_CPUS, false, &v))
			return -1;
		p->cores_per_package = (int)v;
		return 0;
	case PK_THREADS_PER_CORE:
		if (set_int(r, w, sec, key, value, 1, MAX_THREADS_PER_CORE, false, &v))
			return -1;
		p->threads_per_core = (int)v;
		return 0;
	case PK_CORES_PER_LLC:
		if (set_int(r, w, sec, key, value, 1, MAX_CPUS, false, &v))
			return -1;
		p->cores_per_llc = (int)v;
		return 0;
	case PK_IPI_NS:
		return set_dist(r, w, sec, key, value, &p->ipi_ns);
	case PK_POLL_WAKE_NS:
		return set_int(r, w, sec, key, value, 0, MAX_COST_NS, false, &p->poll_wake_ns);
	case PK_CONTEXT_SWITCH_NS:
		return set_int(r, w, sec, key, value, 0, MAX_COST_NS, false, &p->context_switch_ns);
	case PK_ACTIVE_POWER_MW:
		if (set_int(r, w, sec, key, value, 0, MAX_POWER_MW, false, &v))
			return -1;
		p->active_power_mw = (int)v;
		return 0;
	}
	return ik_ini_fail(&r->e, w, "[platform] %s: internal error", key);
}

static int set_state_key(struct ik_platform_reader *r, int i, const char *sec, int k,
			 const char *value, struct ik_ini_where w)
{
	struct ik_hw_state *s = &r->p->states[i];
	const char *key = state_keys[k];
	char msg[256], shown[80];
	int64_t v;

	switch (k) {
	case SK_NAME:
		return set_text(r, w, sec, key, value, sizeof(s->name), true, s->name);
	case SK_DESC:
		return set_text(r, w, sec, key, value, sizeof(s->desc), false, s->desc);
	case SK_LATENCY_US:
		if (set_int(r, w, sec, key, value, 0, MAX_STATE_US, false, &v))
			return -1;
		s->latency_us = (uint32_t)v;
		return 0;
	case SK_RESIDENCY_US:
		if (set_int(r, w, sec, key, value, 0, MAX_STATE_US, false, &v))
			return -1;
		s->residency_us = (uint32_t)v;
		return 0;
	case SK_METHOD:
		if (ik_method_parse(value, &s->method) != 0)
			return ik_ini_fail(&r->e, w, "[%s] method: expected one of: poll mwait hlt "
					   "ioport stop wfi other, got '%s'", sec,
					   ik_ini_shown(value, shown, sizeof(shown)));
		return 0;
	case SK_HINT:
		if (set_int(r, w, sec, key, value, 0, UINT32_MAX, true, &v))
			return -1;
		s->hint = (uint32_t)v;
		return 0;
	case SK_FLAGS:
		return parse_flags(r, w, sec, value, &s->flags);
	case SK_POWER_MW:
		if (set_int(r, w, sec, key, value, 0, MAX_POWER_MW, false, &v))
			return -1;
		s->power_mw = (int)v;
		return 0;
	case SK_ENTRY_NS:
		return set_dist(r, w, sec, key, value, &s->entry);
	case SK_EXIT_NS:
		return set_dist(r, w, sec, key, value, &r->exit_ns[i]);
	case SK_EXIT_IPI_NS:
		return set_dist(r, w, sec, key, value, &s->exit[IK_WAKE_IPI]);
	case SK_EXIT_TIMER_NS:
		return set_dist(r, w, sec, key, value, &s->exit[IK_WAKE_TIMER]);
	case SK_EXIT_IRQ_NS:
		return set_dist(r, w, sec, key, value, &s->exit[IK_WAKE_IRQ]);
	case SK_NEEDS_IPI:
		if (ik_ini_bool(value, &s->needs_ipi, msg, sizeof(msg)) != 0)
			return bad_value(r, w, sec, key, msg);
		return 0;
	}
	return ik_ini_fail(&r->e, w, "[%s] %s: internal error", sec, key);
}

int ik_platform_reader_set(struct ik_platform_reader *r, const char *section, const char *key,
			   const char *value, struct ik_ini_where w)
{
	struct ik_ini_section *sec;
	const char *const *names;
	int n, state = -1;
	char msg[400], shown[80];

	if (section[0] == '\0')
		return ik_ini_fail(&r->e, w, "key '%s' is outside any section; platform files have "
				   "[platform], [state0], [state1], ...",
				   ik_ini_shown(key, shown, sizeof(shown)));
	if (strcmp(section, "platform") == 0) {
		sec = &r->platform;
		names = platform_keys;
		n = PK_COUNT;
	} else if ((state = ik_ini_state_index(section, IK_STATE_MAX)) >= 0) {
		sec = &r->state[state];
		names = state_keys;
		n = SK_COUNT;
	} else {
		return ik_ini_fail(&r->e, w, "unknown section [%s]; known sections: platform "
				   "state0..state%d", ik_ini_shown(section, shown, sizeof(shown)),
				   IK_STATE_MAX - 1);
	}
	int k = ik_ini_key_index(key, names, n);
	if (k < 0) {
		ik_platform_check_key(section, key, msg, sizeof(msg));
		return ik_ini_fail(&r->e, w, "%s", msg);
	}
	if (!sec->present) { /* a section only an override mentions */
		sec->present = true;
		sec->where = w;
	}
	if (ik_ini_mark_key(&r->e, sec, section, k, key, w) != 0)
		return -1;
	if (state >= 0)
		return set_state_key(r, state, section, k, value, w);
	return set_platform_key(r, k, value, w);
}

static int on_section(void *user, const char *name, int line)
{
	struct ik_platform_reader *r = user;
	struct ik_ini_where w = { line, NULL };
	struct ik_ini_section *sec = NULL;
	char shown[80];

	if (strcmp(name, "platform") == 0) {
		sec = &r->platform;
	} else {
		int i = ik_ini_state_index(name, IK_STATE_MAX);
		if (i >= 0)
			sec = &r->state[i];
	}
	if (!sec) {
		if (ik_ini_state_index(name, 1000000) >= IK_STATE_MAX)
			return ik_ini_fail(&r->e, w, "[%s]: at most %d idle states (state0..state%d)",
					   ik_ini_shown(name, shown, sizeof(shown)), IK_STATE_MAX,
					   IK_STATE_MAX - 1);
		return ik_ini_fail(&r->e, w, "unknown section [%s]; known sections: platform "
				   "state0..state%d", ik_ini_shown(name, shown, sizeof(shown)),
				   IK_STATE_MAX - 1);
	}
	if (sec->present)
		return ik_ini_fail(&r->e, w, "duplicate section [%s] (first on line %d)", name,
				   sec->where.line);
	sec->present = true;
	sec->where = w;
	return 0;
}

static int on_key(void *user, const char *section, const char *key, const char *value, int line)
{
	return ik_platform_reader_set(user, section, key, value, (struct ik_ini_where){ line, NULL });
}

int ik_platform_reader_parse(struct ik_platform_reader *r, const char *text)
{
	static const struct ik_ini_callbacks cb = { on_section, on_key };
	return ik_ini_parse_text(&r->e, text, &cb, r);
}

/* ---- after the last key: defaults and checks ----------------------------------------- */

static int require(struct ik_platform_reader *r, const struct ik_ini_section *sec,
		   const char *section, const char *const *names, const int *keys, int n)
{
	for (int i = 0; i < n; i++)
		if (!sec->set[keys[i]])
			return ik_ini_fail(&r->e, sec->where, "[%s]: missing required key '%s'", section,
					   names[keys[i]]);
	return 0;
}

/* Where a key was set, else where its section starts. */
static struct ik_ini_where key_where(const struct ik_ini_section *sec, int k)
{
	return sec->set[k] ? sec->key_where[k] : sec->where;
}

static int finish_platform_section(struct ik_platform_reader *r)
{
	static const int required[] = { PK_NAME, PK_PACKAGES, PK_CORES_PER_PACKAGE,
					PK_THREADS_PER_CORE, PK_ACTIVE_POWER_MW };
	struct ik_platform *p = r->p;

	if (!r->platform.present)
		return ik_ini_fail(&r->e, nowhere, "missing section [platform] (with at least name, "
				   "packages, cores_per_package, threads_per_core, active_power_mw)");
	if (require(r, &r->platform, "platform", platform_keys, required,
		    (int)(sizeof(required) / sizeof(required[0]))))
		return -1;
	int64_t cpus = (int64_t)p->packages * p->cores_per_package * p->threads_per_core;
	if (cpus > MAX_CPUS)
		return ik_ini_fail(&r->e, r->platform.where, "[platform]: packages * cores_per_package "
				   "* threads_per_core = %" PRId64 " CPUs, expected at most %d", cpus,
				   MAX_CPUS);
	if (!r->platform.set[PK_CORES_PER_LLC])
		p->cores_per_llc = p->cores_per_package;
	if (p->cores_per_package % p->cores_per_llc != 0)
		return ik_ini_fail(&r->e, key_where(&r->platform, PK_CORES_PER_LLC),
				   "[platform] cores_per_llc: expected a divisor of cores_per_package "
				   "(%d), got %d", p->cores_per_package, p->cores_per_llc);
	return 0;
}

static int finish_state(struct ik_platform_reader *r, int i)
{
	static const int required[] = { SK_NAME, SK_LATENCY_US, SK_RESIDENCY_US, SK_METHOD };
	struct ik_ini_section *sec = &r->state[i];
	struct ik_hw_state *s = &r->p->states[i];
	char name[24];

	snprintf(name, sizeof(name), "state%d", i);
	if (require(r, sec, name, state_keys, required, (int)(sizeof(required) / sizeof(required[0]))))
		return -1;
	for (int j = 0; j < i; j++)
		if (strcmp(r->p->states[j].name, s->name) == 0)
			return ik_ini_fail(&r->e, key_where(sec, SK_NAME), "[%s] name: '%s' is already "
					   "the name of [state%d]; state names must be unique", name,
					   s->name, j);

	if (s->method == IK_METHOD_POLL) {
		if (i != 0)
			return ik_ini_fail(&r->e, key_where(sec, SK_METHOD), "[%s] method: poll is only "
					   "allowed for state0 (the kernel's POLL state)", name);
		s->flags |= IK_FLAG_POLLING;
	} else if (s->flags & IK_FLAG_POLLING) {
		return ik_ini_fail(&r->e, key_where(sec, SK_FLAGS), "[%s] flags: polling is only "
				   "allowed with method poll, got method %s", name,
				   ik_method_name(s->method));
	}

	_Static_assert(sizeof(s->desc) >= sizeof(s->name), "desc holds a name");
	if (!sec->set[SK_DESC])
		memcpy(s->desc, s->name, sizeof(s->name));
	if (!sec->set[SK_EXIT_NS]) {
		memset(&r->exit_ns[i], 0, sizeof(r->exit_ns[i]));
		r->exit_ns[i].kind = IK_DIST_CONSTANT;
		r->exit_ns[i].a_ns = r->exit_ns[i].b_ns = (int64_t)s->latency_us * 1000;
	}
	static const int by_source[IK_WAKE_SOURCES] = {
		[IK_WAKE_IPI] = SK_EXIT_IPI_NS,
		[IK_WAKE_TIMER] = SK_EXIT_TIMER_NS,
		[IK_WAKE_IRQ] = SK_EXIT_IRQ_NS,
	};
	for (int src = 0; src < IK_WAKE_SOURCES; src++)
		if (!sec->set[by_source[src]])
			s->exit[src] = r->exit_ns[i];
	if (!sec->set[SK_NEEDS_IPI])
		s->needs_ipi = !(s->method == IK_METHOD_POLL || s->method == IK_METHOD_MWAIT);
	/* A polling CPU spins like a busy one; other states cost nothing unless told. */
	if (!sec->set[SK_POWER_MW])
		s->power_mw = s->method == IK_METHOD_POLL ? r->p->active_power_mw : 0;
	return 0;
}

/*
 * Where to point for "states out of order" between state i-1 and state i: at state i's
 * key, unless only state i-1's came from an override (the file alone was in order).
 */
static struct ik_ini_where order_where(const struct ik_platform_reader *r, int i, int k)
{
	struct ik_ini_where w = key_where(&r->state[i], k);
	struct ik_ini_where prev = key_where(&r->state[i - 1], k);
	return (!w.override && prev.override) ? prev : w;
}

int ik_platform_reader_finish(struct ik_platform_reader *r)
{
	struct ik_platform *p = r->p;
	int count = 0;

	if (finish_platform_section(r))
		return -1;
	for (int i = 0; i < IK_STATE_MAX; i++)
		if (r->state[i].present)
			count = i + 1;
	if (count == 0)
		return ik_ini_fail(&r->e, nowhere, "no idle states: expected [state0], [state1], ... "
				   "(at least one)");
	for (int i = 0; i < count; i++)
		if (!r->state[i].present) {
			int next = i + 1;
			while (!r->state[next].present)
				next++;
			return ik_ini_fail(&r->e, r->state[next].where, "[state%d] without [state%d]: "
					   "states are numbered from state0 without gaps", next, i);
		}
	for (int i = 0; i < count; i++)
		if (finish_state(r, i))
			return -1;
	for (int i = 1; i < count; i++) {
		const struct ik_hw_state *a = &p->states[i - 1], *b = &p->states[i];
		if (b->latency_us < a->latency_us)
			return ik_ini_fail(&r->e, order_where(r, i, SK_LATENCY_US),
					   "states out of order: state%d latency_us %" PRIu32
					   " < state%d latency_us %" PRIu32, i, b->latency_us, i - 1,
					   a->latency_us);
		if (b->residency_us < a->residency_us)
			return ik_ini_fail(&r->e, order_where(r, i, SK_RESIDENCY_US),
					   "states out of order: state%d residency_us %" PRIu32
					   " < state%d residency_us %" PRIu32, i, b->residency_us, i - 1,
					   a->residency_us);
	}
	p->state_count = count;
	return 0;
}

/* ---- finding and loading --------------------------------------------------------------- */

static bool is_path(const char *ref)
{
	size_t n = strlen(ref);
	return strchr(ref, '/') || (n >= 4 && strcmp(ref + n - 4, ".ini") == 0);
}

void ik_platform_text_free(struct ik_platform_text *t)
{
	free(t->owned);
	t->owned = NULL;
	t->text = NULL;
}

int ik_platform_find(const char *ref, const char *base_dir, struct ik_platform_text *t,
		     char *err, size_t errlen)
{
	char shown[160], names[256];
	size_t len = 0;

	memset(t, 0, sizeof(*t));
	if (!ref || !*ref) {
		if (err && errlen)
			snprintf(err, errlen, "expected a built-in platform name or a path to an .ini "
				 "file, got ''");
		return -1;
	}
	if (is_path(ref)) {
		int first_errno = 0;
		if (ik_ini_read_file(ref, &t->owned, err, errlen, &first_errno) == 0) {
			snprintf(t->origin, sizeof(t->origin), "%s", ref);
			t->text = t->owned;
			return 0;
		}
		if (ref[0] == '/' || !base_dir || !*base_dir || first_errno != ENOENT)
			return -1;
		char other[IK_PLATFORM_ORIGIN_LEN];
		int k = snprintf(other, sizeof(other), "%s/%s", base_dir, ref);
		if (k < 0 || (size_t)k >= sizeof(other))
			return -1;
		char err2[IK_ERR_LEN];
		int second_errno = 0;
		if (ik_ini_read_file(other, &t->owned, err2, sizeof(err2), &second_errno) == 0) {
			snprintf(t->origin, sizeof(t->origin), "%s", other);
			t->text = t->owned;
			return 0;
		}
		if (second_errno == ENOENT) {
			if (err && errlen) {
				size_t n = strlen(err);
				snprintf(err + n, errlen - n, " (also tried %s)",
					 ik_ini_shown(other, shown, sizeof(shown)));
			}
		} else if (err && errlen) {
			snprintf(err, errlen, "%s", err2); /* it exists there but is unreadable */
		}
		return -1;
	}
	for (const struct ik_builtin *b = ik_builtin_platforms; b->name; b++) {
		if (strcmp(b->name, ref) == 0) {
			snprintf(t->origin, sizeof(t->origin), "%s.ini (built-in)", b->name);
			t->text = b->text;
			return 0;
		}
	}
	names[0] = '\0';
	for (const struct ik_builtin *b = ik_builtin_platforms; b->name && len < sizeof(names); b++) {
		int k = snprintf(names + len, sizeof(names) - len, "%s%s", len ? " " : "", b->name);
		if (k < 0)
			break;
		len += (size_t)k;
	}
	if (err && errlen)
		snprintf(err, errlen, "unknown platform '%s'; built-in platforms: %s (a file path must "
			 "contain '/' or end in .ini)", ik_ini_shown(ref, shown, sizeof(shown)),
			 names[0] ? names : "none");
	return -1;
}

int ik_platform_parse_string(const char *origin, const char *text, struct ik_platform *p,
			     char *err, size_t errlen)
{
	struct ik_platform_reader *r = malloc(sizeof(*r));
	if (!r) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", origin ? origin : "<platform>");
		return -1;
	}
	ik_platform_reader_init(r, origin, p, err, errlen);
	int ret = ik_platform_reader_parse(r, text);
	if (ret == 0)
		ret = ik_platform_reader_finish(r);
	free(r);
	return ret;
}

int ik_platform_load(const char *ref, struct ik_platform *p, char *err, size_t errlen)
{
	struct ik_platform_text t;

	if (ik_platform_find(ref, NULL, &t, err, errlen) != 0)
		return -1;
	int ret = ik_platform_parse_string(t.origin, t.text, p, err, errlen);
	ik_platform_text_free(&t);
	return ret;
}
