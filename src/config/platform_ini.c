/*
 * Platform files: the hardware a simulation runs on; the reader.
 *
 *   [platform]                  name, topology, IPI cost, busy power
 *   [state0] [state1] ...       the hardware's idle states, shallow to deep, with what each
 *                               really costs (the "table" driver registers them as listed)
 *   [cpuid]                     the CPU as the kernel sees it: vendor, MWAIT, leaf 5, bugs
 *   [acpi] [cst1] [cst2] ...    FADT facts and the _CST package, for acpi_idle/intel_idle
 *   [intel_idle]                which built-in table, package C6 enabled or not
 *   [dt_state0] ...             a POWER machine's device-tree idle states (powernv)
 *   [effects]                   turbo, SMT and package effects
 *   [os] [haltpoll]             what a real machine's kernel runs on it: driver, governor,
 *                               its options, timer slack, the haltpoll module parameters
 *
 * Every key is checked against its table (src/config/platform_keys.c, where each key is
 * named once with its type, field and range); anything unknown, repeated, malformed or out
 * of range is an error that names the file, line, section and key and says what was
 * expected.  Defaults that depend on other keys (a state's desc, its exit cost, whether
 * waking it needs an IPI) are filled in only after the whole file and any overrides are
 * read, so an override of latency_us also moves the default exit cost.
 *
 *   sections and keys            which section a name is, setting one key, the file's lines
 *   after the last key           defaults and checks
 *   finding and loading          a built-in by name or a file by path
 *   what a real machine runs     [os] and [haltpoll] as the scenario's defaults
 *   editing a file's text        one key's line replaced or added, comments kept
 *   the effective configuration  every key's value, given or derived
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/effective.h"
#include "config/platform_ini.h"
#include "config/platform_keys.h"
#include "util/errmsg.h"
#include "util/freep.h"
#include "idlekit/governor.h" /* ik_haltpoll_params_default: [haltpoll]'s defaults */

/* ---- sections and keys ----------------------------------------------------------------- */

static struct ik_ini_section *section_of(struct ik_platform_reader *r, int kind, int index)
{
	switch (kind) {
	case SEC_PLATFORM:
		return &r->platform;
	case SEC_STATE:
		return &r->state[index];
	case SEC_CPUID:
		return &r->cpuid;
	case SEC_ACPI:
		return &r->acpi;
	case SEC_CST:
		return &r->cst[index];
	case SEC_INTEL_IDLE:
		return &r->intel_idle;
	case SEC_EFFECTS:
		return &r->effects;
	case SEC_OS:
		return &r->os;
	case SEC_HALTPOLL:
		return &r->haltpoll;
	default:
		return &r->dt[index];
	}
}

static const struct ik_ini_where nowhere = { 0, NULL, NULL };

void ik__platform_reader_init(struct ik_platform_reader *r, const char *origin,
			     struct ik_platform *p, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->origin, sizeof(r->origin), "%s", origin ? origin : "<platform>");
	ik__ini_err_init(&r->e, r->origin, err, errlen);
	r->p = p;

	memset(p, 0, sizeof(*p));
	p->ipi_ns.kind = IK_DIST_CONSTANT;
	p->ipi_ns.a_ns = p->ipi_ns.b_ns = 1000;
	p->poll_wake_ns = 100;
	p->context_switch_ns = 1000;
	/* entry_ns defaults to "constant 0": the zeroed struct ik_dist already is. */

	/* Firmware defaults: what a machine without the quirk has. */
	p->acpi.cst_control = true;
	p->acpi.c2_mp_supported = true;
	p->acpi.wbinvd = true;
	p->acpi.pm_timer_read.kind = IK_DIST_CONSTANT;
	p->acpi.pm_timer_read.a_ns = p->acpi.pm_timer_read.b_ns = 1000;
	p->intel_idle.pc6 = true;
	p->effects.smt_sibling_busy = 1.0;
	p->effects.smt_sibling_lite = 1.0;

	/* [os] and [haltpoll]: not named, and the kernel's own defaults */
	p->os.haltpoll_force = -1;
	p->os.timer_slack_ns = 50000; /* init_task's timer_slack_ns */
	ik_haltpoll_params_default(&p->os.haltpoll);
}

bool ik__platform_section(const char *section)
{
	int index;
	return platform_section_kind(section, &index) >= 0;
}

int ik__platform_check_key(const char *section, const char *key, char *msg, size_t msglen)
{
	char list[400], shown[80];
	int index, kind = platform_section_kind(section, &index);

	if (kind < 0)
		kind = SEC_PLATFORM;
	if (platform_key_find(kind, key) >= 0)
		return 0;
	if (msg && msglen)
		snprintf(msg, msglen, "unknown key '%s' in [%s]; known keys: %s",
			 ik__ini_shown(key, shown, sizeof(shown)), section,
			 platform_key_list(kind, list, sizeof(list)));
	return -1;
}

int ik__platform_reader_set(struct ik_platform_reader *r, const char *section, const char *key,
			   const char *value, struct ik_ini_where w)
{
	char msg[500], shown[80];
	int index;

	if (section[0] == '\0')
		return ik__ini_fail(&r->e, w, "key '%s' is outside any section; platform files have "
				   "[platform], [state0], [state1], ...",
				   ik__ini_shown(key, shown, sizeof(shown)));
	int kind = platform_section_kind(section, &index);
	if (kind < 0)
		return ik__ini_fail(&r->e, w, "unknown section [%s]; known sections: "
				   IK_PLATFORM_SECTIONS, ik__ini_shown(section, shown, sizeof(shown)));
	struct ik_ini_section *sec = section_of(r, kind, index);
	int k = platform_key_find(kind, key);
	if (k < 0) {
		ik__platform_check_key(section, key, msg, sizeof(msg));
		return ik__ini_fail(&r->e, w, "%s", msg);
	}
	if (!sec->present) { /* a section only an override mentions */
		sec->present = true;
		sec->where = w;
	}
	if (ik__ini_mark_key(&r->e, sec, section, k, key, w) != 0)
		return -1;
	if (r->cfg) {
		enum ik_config_origin o = w.override ? IK_ORIGIN_SET :
			w.file ? IK_ORIGIN_SCENARIO : IK_ORIGIN_PLATFORM;
		if (ik__config_give(r->cfg, section, key, value, o, msg, sizeof(msg)) != 0)
			return ik__ini_fail(&r->e, w, "[%s] %s: %s", section, key, msg);
	}
	return platform_key_set(r, kind, index, section, k, value, w);
}

static int on_section(void *user, const char *name, int line)
{
	struct ik_platform_reader *r = user;
	struct ik_ini_where w = { line, NULL, NULL };
	char shown[80];
	int index, kind = platform_section_kind(name, &index);

	if (kind < 0) {
		if (ik__ini_state_index(name, 1000000) >= IK_STATE_MAX)
			return ik__ini_fail(&r->e, w, "[%s]: at most %d idle states (state0..state%d)",
					   ik__ini_shown(name, shown, sizeof(shown)), IK_STATE_MAX,
					   IK_STATE_MAX - 1);
		if (ik__ini_prefixed_index(name, "cst", 0, 1000000) >= 0)
			return ik__ini_fail(&r->e, w, "[%s]: _CST entries are [cst1]..[cst%d]",
					   ik__ini_shown(name, shown, sizeof(shown)), IK_CST_MAX);
		if (ik__ini_prefixed_index(name, "dt_state", 0, 1000000) >= 0)
			return ik__ini_fail(&r->e, w, "[%s]: at most %d device-tree idle states "
					   "(dt_state0..dt_state%d)", ik__ini_shown(name, shown, sizeof(shown)),
					   IK_DT_STATE_MAX, IK_DT_STATE_MAX - 1);
		return ik__ini_fail(&r->e, w, "unknown section [%s]; known sections: "
				   IK_PLATFORM_SECTIONS, ik__ini_shown(name, shown, sizeof(shown)));
	}
	struct ik_ini_section *sec = section_of(r, kind, index);
	if (sec->present)
		return ik__ini_fail(&r->e, w, "duplicate section [%s] (first on line %d)", name,
				   sec->where.line);
	sec->present = true;
	sec->where = w;
	return 0;
}

static int on_key(void *user, const char *section, const char *key, const char *value, int line)
{
	return ik__platform_reader_set(user, section, key, value, (struct ik_ini_where){ line, NULL, NULL });
}

int ik__platform_reader_parse(struct ik_platform_reader *r, const char *text)
{
	static const struct ik_ini_callbacks cb = { on_section, on_key };
	return ik__ini_parse_text(&r->e, text, &cb, r);
}

/* ---- after the last key: defaults and checks ----------------------------------------- */

/* The first key the table says a section of its kind must have that it lacks. */
static int require(struct ik_platform_reader *r, const struct ik_ini_section *sec, int kind,
		   const char *section)
{
	for (int k = 0; k < platform_key_count(kind); k++)
		if (platform_key_required(kind, k) && !sec->set[k])
			return ik__ini_fail(&r->e, sec->where, "[%s]: missing required key '%s'", section,
					   platform_key_name(kind, k));
	return 0;
}

/* Where a key was set, else where its section starts. */
static struct ik_ini_where key_where(const struct ik_ini_section *sec, int k)
{
	return sec->set[k] ? sec->key_where[k] : sec->where;
}

static int finish_platform_section(struct ik_platform_reader *r)
{
	struct ik_platform *p = r->p;

	if (!r->platform.present)
		return ik__ini_fail(&r->e, nowhere, "missing section [platform] (with at least name, "
				   "packages, cores_per_package, threads_per_core, active_power_mw)");
	if (require(r, &r->platform, SEC_PLATFORM, "platform"))
		return -1;
	int64_t cpus = (int64_t)p->packages * p->cores_per_package * p->threads_per_core;
	/* pointed at a --set of one of the three when there is one: that is what changed */
	struct ik_ini_where size_at = r->platform.where;
	static const int size_keys[] = { PK_PACKAGES, PK_CORES_PER_PACKAGE, PK_THREADS_PER_CORE };
	for (int i = 0; i < 3; i++) {
		struct ik_ini_where w = key_where(&r->platform, size_keys[i]);
		if (w.override)
			size_at = w;
	}
	if (cpus > IK_PLATFORM_MAX_CPUS)
		return ik__ini_fail(&r->e, size_at, "[platform]: packages * cores_per_package "
				   "* threads_per_core = %" PRId64 " CPUs, expected at most %d", cpus,
				   IK_PLATFORM_MAX_CPUS);
	if (!r->platform.set[PK_CORES_PER_LLC])
		p->cores_per_llc = p->cores_per_package;
	if (p->cores_per_package % p->cores_per_llc != 0)
		return ik__ini_fail(&r->e, key_where(&r->platform, PK_CORES_PER_LLC),
				   "[platform] cores_per_llc: expected a divisor of cores_per_package "
				   "(%d), got %d", p->cores_per_package, p->cores_per_llc);
	return 0;
}

static int finish_state(struct ik_platform_reader *r, int i)
{
	struct ik_ini_section *sec = &r->state[i];
	struct ik_hw_state *s = &r->p->states[i];
	char name[24];

	snprintf(name, sizeof(name), "state%d", i);
	if (require(r, sec, SEC_STATE, name))
		return -1;
	for (int j = 0; j < i; j++)
		if (strcmp(r->p->states[j].name, s->name) == 0)
			return ik__ini_fail(&r->e, key_where(sec, SK_NAME), "[%s] name: '%s' is already "
					   "the name of [state%d]; state names must be unique", name,
					   s->name, j);

	if (s->method == IK_METHOD_POLL) {
		if (i != 0)
			return ik__ini_fail(&r->e, key_where(sec, SK_METHOD), "[%s] method: poll is only "
					   "allowed for state0 (the kernel's POLL state)", name);
		s->flags |= IK_FLAG_POLLING;
	} else if (s->flags & IK_FLAG_POLLING) {
		return ik__ini_fail(&r->e, key_where(sec, SK_FLAGS), "[%s] flags: polling is only "
				   "allowed with method poll, got method %s", name,
				   ik__method_name(s->method));
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
 * Where to point for "states out of order" between state `before` and state i: at state
 * i's key, unless only the other's came from an override (the file alone was in order).
 */
static struct ik_ini_where order_where(const struct ik_platform_reader *r, int i, int before,
				       int k)
{
	struct ik_ini_where w = key_where(&r->state[i], k);
	struct ik_ini_where prev = key_where(&r->state[before], k);
	return (!w.override && prev.override) ? prev : w;
}

/* Sections numbered from `first` must have no gaps: [X3] needs [X2]. */
static int check_numbering(struct ik_platform_reader *r, const struct ik_ini_section *secs,
			   int first, int max, const char *prefix, int *count)
{
	int n = 0;

	*count = 0; /* defined on the error path too (gcc -O3 cannot see ik__ini_fail returns -1) */

	for (int i = first; i < max; i++)
		if (secs[i].present)
			n = i + 1;
	for (int i = first; i < n; i++)
		if (!secs[i].present) {
			int next = i + 1;
			while (!secs[next].present)
				next++;
			return ik__ini_fail(&r->e, secs[next].where, "[%s%d] without [%s%d]: numbered "
					   "from %s%d without gaps", prefix, next, prefix, i, prefix, first);
		}
	*count = n > first ? n - first : 0;
	return 0;
}

static int finish_cpuid(struct ik_platform_reader *r)
{
	struct ik_cpuid *c = &r->p->cpuid;

	r->p->has_cpuid = r->cpuid.present;
	if (!r->cpuid.present)
		return 0;
	if (require(r, &r->cpuid, SEC_CPUID, "cpuid"))
		return -1;
	if (!r->cpuid.set[CK_ZEN])
		c->zen = c->vendor == IK_VENDOR_AMD && c->family >= 0x17;
	if (c->kvm_hint_realtime && c->hypervisor != IK_HYPERVISOR_KVM)
		return ik__ini_fail(&r->e, key_where(&r->cpuid, CK_KVM_HINT_REALTIME),
				   "[cpuid] kvm_hint_realtime: only meaningful with hypervisor = kvm, "
				   "got hypervisor = %s", platform_hypervisor_name(c->hypervisor));
	return 0;
}

static int finish_acpi(struct ik_platform_reader *r)
{
	struct ik_acpi *a = &r->p->acpi;
	int count;

	if (check_numbering(r, r->cst, 1, IK_CST_MAX + 1, "cst", &count))
		return -1;
	a->cst_count = count;
	a->present = r->acpi.present || count > 0;
	for (int i = 1; i <= count; i++) {
		struct ik_ini_section *sec = &r->cst[i];
		struct ik_cst_entry *c = &a->cst[i - 1];
		char name[16];

		snprintf(name, sizeof(name), "cst%d", i);
		if (require(r, sec, SEC_CST, name))
			return -1;
		if (c->method != IK_CST_HALT && !sec->set[XK_ADDRESS])
			return ik__ini_fail(&r->e, sec->where, "[%s]: missing required key 'address' "
					   "(the %s for method %s)", name,
					   c->method == IK_CST_FFH ? "MWAIT hint" : "I/O port",
					   platform_cst_method_name(c->method));
		if (c->method == IK_CST_FFH && c->address > 0xff)
			return ik__ini_fail(&r->e, key_where(sec, XK_ADDRESS), "[%s] address: an MWAIT "
					   "hint is one byte (0x00..0xff), got 0x%" PRIx32, name,
					   c->address);
		if (c->method == IK_CST_SYSTEMIO && c->address > 0xffff)
			return ik__ini_fail(&r->e, key_where(sec, XK_ADDRESS), "[%s] address: an I/O "
					   "port is 0x0000..0xffff, got 0x%" PRIx32, name, c->address);
		if (!sec->set[XK_ACCESS_SIZE])
			c->access_size = 3;
	}
	return 0;
}

static int finish_dt(struct ik_platform_reader *r)
{
	struct ik_powernv *pn = &r->p->powernv;
	int count;

	if (check_numbering(r, r->dt, 0, IK_DT_STATE_MAX, "dt_state", &count))
		return -1;
	pn->count = count;
	for (int i = 0; i < count; i++) {
		struct ik_ini_section *sec = &r->dt[i];
		char name[24];

		snprintf(name, sizeof(name), "dt_state%d", i);
		if (require(r, sec, SEC_DT, name))
			return -1;
		if ((pn->states[i].flags & (IK_OPAL_STOP_FAST | IK_OPAL_STOP_DEEP)) &&
		    !sec->set[DK_PSSCR])
			return ik__ini_fail(&r->e, sec->where, "[%s]: missing required key 'psscr' "
					   "(a stop state's PSSCR value)", name);
	}
	return 0;
}

int ik__platform_reader_finish(struct ik_platform_reader *r)
{
	struct ik_platform *p = r->p;
	int count = 0;

	if (finish_platform_section(r))
		return -1;
	for (int i = 0; i < IK_STATE_MAX; i++)
		if (r->state[i].present)
			count = i + 1;
	if (count == 0)
		return ik__ini_fail(&r->e, nowhere, "no idle states: expected [state0], [state1], ... "
				   "(at least one)");
	for (int i = 0; i < count; i++)
		if (!r->state[i].present) {
			int next = i + 1;
			while (!r->state[next].present)
				next++;
			return ik__ini_fail(&r->e, r->state[next].where, "[state%d] without [state%d]: "
					   "states are numbered from state0 without gaps", next, i);
		}
	for (int i = 0; i < count; i++)
		if (finish_state(r, i))
			return -1;
	/* The table driver's states in order; unlisted states are outside that table. */
	int prev = -1;
	for (int i = 0; i < count; i++) {
		if (p->states[i].unlisted)
			continue;
		if (prev >= 0) {
			const struct ik_hw_state *a = &p->states[prev], *b = &p->states[i];
			if (b->latency_us < a->latency_us)
				return ik__ini_fail(&r->e, order_where(r, i, prev, SK_LATENCY_US),
						   "states out of order: state%d latency_us %" PRIu32
						   " < state%d latency_us %" PRIu32, i, b->latency_us,
						   prev, a->latency_us);
			if (b->residency_us < a->residency_us)
				return ik__ini_fail(&r->e, order_where(r, i, prev, SK_RESIDENCY_US),
						   "states out of order: state%d residency_us %" PRIu32
						   " < state%d residency_us %" PRIu32, i, b->residency_us,
						   prev, a->residency_us);
		}
		prev = i;
	}
	p->state_count = count;
	p->os.present = r->os.present;
	p->os.has_haltpoll = r->haltpoll.present;
	if (finish_cpuid(r) || finish_acpi(r) || finish_dt(r))
		return -1;
	return 0;
}

/* ---- finding and loading --------------------------------------------------------------- */

static bool is_path(const char *ref)
{
	size_t n = strlen(ref);
	return strchr(ref, '/') || (n >= 4 && strcmp(ref + n - 4, ".ini") == 0);
}

void ik__platform_text_free(struct ik_platform_text *t)
{
	ik__freep(&t->owned);
	t->text = NULL;
}

int ik__platform_find(const char *ref, const char *base_dir, struct ik_platform_text *t,
		     char *err, size_t errlen)
{
	char shown[160];

	memset(t, 0, sizeof(*t));
	if (!ref || !*ref)
		return ik__errmsg(err, errlen, "expected a built-in platform name or a path to an "
				  ".ini file, got ''");
	if (is_path(ref)) {
		int first_errno = 0;
		if (ik__ini_read_file(ref, &t->owned, err, errlen, &first_errno) == 0) {
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
		if (ik__ini_read_file(other, &t->owned, err2, sizeof(err2), &second_errno) == 0) {
			snprintf(t->origin, sizeof(t->origin), "%s", other);
			t->text = t->owned;
			return 0;
		}
		if (second_errno == ENOENT) {
			if (err && errlen) {
				size_t n = strlen(err);
				snprintf(err + n, errlen - n, " (also tried %s)",
					 ik__ini_shown(other, shown, sizeof(shown)));
			}
		} else if (err && errlen) {
			snprintf(err, errlen, "%s", err2); /* it exists there but is unreadable */
		}
		return -1;
	}
	for (const struct ik_builtin *b = ik__builtin_platforms; b->name; b++) {
		if (strcmp(b->name, ref) == 0) {
			snprintf(t->origin, sizeof(t->origin), "%s.ini (built-in)", b->name);
			t->text = b->text;
			return 0;
		}
	}
	return ik__ini_unknown_builtin(ik__builtin_platforms, "platform", ref, err, errlen);
}

int ik__platform_parse_string(const char *origin, const char *text, struct ik_platform *p,
			     char *err, size_t errlen)
{
	struct ik_platform_reader *r = malloc(sizeof(*r));
	if (!r)
		return ik__errmsg(err, errlen, "%s: out of memory", origin ? origin : "<platform>");
	ik__platform_reader_init(r, origin, p, err, errlen);
	int ret = ik__platform_reader_parse(r, text);
	if (ret == 0)
		ret = ik__platform_reader_finish(r);
	free(r);
	return ret;
}

int ik__platform_load(const char *ref, struct ik_platform *p, char *err, size_t errlen)
{
	struct ik_platform_text t;

	if (ik__platform_find(ref, NULL, &t, err, errlen) != 0)
		return -1;
	int ret = ik__platform_parse_string(t.origin, t.text, p, err, errlen);
	ik__platform_text_free(&t);
	return ret;
}

/* ---- what a real machine runs, for the scenario ---------------------------------------- */

int ik__platform_os_defaults(const struct ik_platform *p, const bool given[4],
			    struct ik_scenario *sc, struct ik_config *cfg, bool *governor_named,
			    char *msg, size_t msglen)
{
	*governor_named = false;
	if (p->os.driver[0] && !given[0]) {
		snprintf(sc->driver, sizeof(sc->driver), "%s", p->os.driver);
		if (ik__config_give(cfg, "cpuidle", "driver", sc->driver, IK_ORIGIN_PLATFORM, msg, msglen))
			return -1;
	}
	if (p->os.governor[0] && !given[1]) {
		snprintf(sc->governor, sizeof(sc->governor), "%s", p->os.governor);
		*governor_named = true;
		if (ik__config_give(cfg, "cpuidle", "governor", sc->governor, IK_ORIGIN_PLATFORM, msg,
				   msglen))
			return -1;
	}
	if (p->os.haltpoll_force >= 0 && !given[2]) {
		sc->opt.haltpoll_force = p->os.haltpoll_force;
		if (ik__config_give(cfg, "cpuidle", "haltpoll_force", p->os.haltpoll_force ? "yes" : "no",
				   IK_ORIGIN_PLATFORM, msg, msglen))
			return -1;
	}
	if (p->os.background_hz > 0 && !given[3]) {
		char v[32];
		sc->housekeeping_hz = p->os.background_hz;
		ik__ini_format_real(sc->housekeeping_hz, v, sizeof(v));
		if (ik__config_give(cfg, "kernel", "housekeeping_hz", v, IK_ORIGIN_PLATFORM, msg, msglen))
			return -1;
	}
	return 0;
}

int ik__platform_os_params(const struct ik_platform *p, struct ik_scenario *sc,
			  struct ik_config *cfg, char *msg, size_t msglen)
{
	const struct ik_haltpoll_params *hp = &p->os.haltpoll;
	const int nmax = (int)(sizeof(sc->gov_params) / sizeof(sc->gov_params[0]));
	char values[HK_COUNT][24];

	if (!p->os.has_haltpoll || strcmp(sc->governor, "haltpoll") != 0)
		return 0;
	/* as the governor's parameter parser takes them (uint, and Y/N for the bool) */
	snprintf(values[HK_GUEST_HALT_POLL_NS], 24, "%" PRIu64, hp->guest_halt_poll_ns);
	snprintf(values[HK_GUEST_HALT_POLL_SHRINK], 24, "%u", hp->guest_halt_poll_shrink);
	snprintf(values[HK_GUEST_HALT_POLL_GROW], 24, "%u", hp->guest_halt_poll_grow);
	snprintf(values[HK_GUEST_HALT_POLL_GROW_START], 24, "%" PRIu64,
		 hp->guest_halt_poll_grow_start);
	snprintf(values[HK_GUEST_HALT_POLL_ALLOW_SHRINK], 24, "%s",
		 hp->guest_halt_poll_allow_shrink ? "Y" : "N");
	for (int k = 0; k < HK_COUNT; k++) {
		const char *name = platform_key_name(SEC_HALTPOLL, k);
		bool have = false;
		for (int i = 0; i < sc->ngov_params; i++)
			have |= strcmp(sc->gov_params[i].name, name) == 0;
		if (have)
			continue; /* the scenario's own value wins */
		if (sc->ngov_params == nmax) {
			snprintf(msg, msglen, "[haltpoll] %s: more than %d governor parameters", name,
				 nmax);
			return -1;
		}
		int i = sc->ngov_params++;
		snprintf(sc->gov_params[i].name, sizeof(sc->gov_params[i].name), "%s", name);
		snprintf(sc->gov_params[i].value, sizeof(sc->gov_params[i].value), "%s", values[k]);
		if (ik__config_give(cfg, "governor", name, values[k], IK_ORIGIN_PLATFORM, msg, msglen))
			return -1;
	}
	return 0;
}

/* ---- editing a file's text ---------------------------------------------------------- */

/* Is line (without its newline) a section header?  Its name into name. */
static bool section_line(const char *line, size_t len, char *name, size_t size)
{
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	if (!len || *line != '[')
		return false;
	const char *end = memchr(line, ']', len);
	if (!end)
		return false;
	size_t n = (size_t)(end - line - 1);
	snprintf(name, size, "%.*s", (int)n, line + 1);
	return true;
}

/* Is line "key = ..." (spaces allowed around the key)? */
static bool key_line(const char *line, size_t len, const char *key)
{
	size_t k = strlen(key);
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	if (len < k || memcmp(line, key, k) != 0)
		return false;
	line += k;
	len -= k;
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	return len && *line == '=';
}

int ik__platform_text_set(char **text, const char *section, const char *key, const char *value,
			 const char *comment, bool only_if_present)
{
	const char *t = *text;
	size_t total = strlen(t);
	/* where the new line goes: replacing [cut_from, cut_to), or inserted at cut_from */
	size_t cut_from = total, cut_to = total, end_of_section = 0;
	bool in = false, found_section = false, found_key = false;
	char name[64];

	for (size_t pos = 0; pos < total && !found_key;) {
		const char *nl = memchr(t + pos, '\n', total - pos);
		size_t len = nl ? (size_t)(nl - (t + pos)) : total - pos;
		size_t next = nl ? pos + len + 1 : total;
		if (section_line(t + pos, len, name, sizeof(name))) {
			in = strcmp(name, section) == 0;
			if (in) {
				found_section = true;
				end_of_section = next;
			}
		} else if (in) {
			size_t lead = strspn(t + pos, " \t");
			bool blank = lead >= len || t[pos + lead] == ';' || t[pos + lead] == '#';
			if (key_line(t + pos, len, key)) {
				found_key = true;
				cut_from = pos;
				cut_to = next;
			} else if (!blank) {
				end_of_section = next; /* after the section's last key */
			}
		}
		pos = next;
	}
	if (!found_key && only_if_present)
		return 0;
	if (!found_key && found_section)
		cut_from = cut_to = end_of_section;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);
	if (!f)
		return -1;
	fwrite(t, 1, cut_from, f);
	if (cut_from > 0 && t[cut_from - 1] != '\n')
		fputc('\n', f);
	if (!found_section)
		fprintf(f, "\n[%s]\n", section);
	fprintf(f, "%s = %s%s%s\n", key, value, comment ? "  ; " : "", comment ? comment : "");
	fwrite(t + cut_to, 1, total - cut_to, f);
	if (fclose(f) != 0) {
		free(out);
		return -1;
	}
	free(*text);
	*text = out;
	return 1;
}

/* ---- the effective configuration --------------------------------------------------- */

/*
 * The keys of one section: a key given keeps its text; one not given is recorded with the
 * value the reader derived for it (origin derived), so that every result says what ran.
 * A section the platform does not have ([cpuid] of a POWER machine) has no values to
 * record: its keys are listed without text.
 */
static int emit_section(struct ik_platform_reader *r, int kind, int index, const char *section)
{
	char buf[IK_CONFIG_VALUE_LEN];
	bool have = true;
	if (kind == SEC_CPUID)
		have = r->p->has_cpuid;
	else if (kind == SEC_ACPI)
		have = r->p->acpi.present;
	for (int k = 0; k < platform_key_count(kind); k++) {
		platform_key_format(r->p, r->exit_ns, kind, index, k, buf, sizeof(buf));
		if (ik__config_emit_derived(r->cfg, section, platform_key_name(kind, k),
					   have ? buf : NULL))
			return -1;
	}
	return 0;
}

/*
 * Every key of the platform's tables, in the order of IK_PLATFORM_SECTIONS: the single
 * sections always (their defaults apply without them), numbered ones when present, and
 * [os] and [haltpoll] when present (a platform without them names nothing to run, and the
 * results of the built-in platforms stay as they were).
 */
int ik__platform_reader_config(struct ik_platform_reader *r)
{
	char name[32];
	int ret = 0;

	if (!r->cfg)
		return 0;
	ret |= emit_section(r, SEC_PLATFORM, 0, "platform");
	for (int i = 0; i < IK_STATE_MAX; i++)
		if (r->state[i].present) {
			snprintf(name, sizeof(name), "state%d", i);
			ret |= emit_section(r, SEC_STATE, i, name);
		}
	ret |= emit_section(r, SEC_CPUID, 0, "cpuid");
	ret |= emit_section(r, SEC_ACPI, 0, "acpi");
	for (int i = 1; i <= IK_CST_MAX; i++)
		if (r->cst[i].present) {
			snprintf(name, sizeof(name), "cst%d", i);
			ret |= emit_section(r, SEC_CST, i, name);
		}
	ret |= emit_section(r, SEC_INTEL_IDLE, 0, "intel_idle");
	for (int i = 0; i < IK_DT_STATE_MAX; i++)
		if (r->dt[i].present) {
			snprintf(name, sizeof(name), "dt_state%d", i);
			ret |= emit_section(r, SEC_DT, i, name);
		}
	ret |= emit_section(r, SEC_EFFECTS, 0, "effects");
	/* what a real machine runs: only a platform made from one has these */
	if (r->os.present)
		ret |= emit_section(r, SEC_OS, 0, "os");
	if (r->haltpoll.present)
		ret |= emit_section(r, SEC_HALTPOLL, 0, "haltpoll");
	return ret ? -1 : 0;
}
