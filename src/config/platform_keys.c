/*
 * The platform file's keys: one table per kind of section, the one place each key is named.
 * A row gives the key's name, its type and the field it fills (an offset into the section's
 * struct) with its range; the few keys that are not one field of one type (a state's
 * method, exit_ns, in_table, lite and core_off; [acpi] cst_control; a _CST entry's type and
 * method; [intel_idle] table; [effects] turbo_mhz; [os] driver, governor and
 * haltpoll_force) have a setter and a formatter of their own in the row instead.  From the table the reader sets a key (platform_key_set) and the
 * effective configuration and the platform writer format it (platform_key_format), so a
 * value reads back as it was written.
 *
 *   flag lists                 "polling timer_stop": parsed and formatted
 *   the keys that are special  their setters and formatters
 *   the tables                 one row per key
 *   setting and formatting     by type, through the row
 *   the writer                 "[section]" and "key = value" lines of a platform file
 *
 * Divisions: names of the enums; flag lists; the keys that are special (their own setter
 * and formatter); the tables (one per section); setting and formatting by table; the writer
 * (sections and keys of a platform file).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/registry.h"
#include "config/platform_keys.h"

enum key_type {
	T_TEXT,  /* char[size]: any text */
	T_NAME,  /* char[size]: letters, digits, '_', '.', '-' */
	T_INT,   /* int, in [min, max] */
	T_U32,   /* uint32_t, in [min, max] */
	T_I64,   /* int64_t, in [min, max] */
	T_U64,   /* uint64_t, in [min, max] */
	T_BOOL,  /* bool: yes/no */
	T_DIST,  /* struct ik_dist */
	T_REAL,  /* double, in [rmin, rmax] */
	T_ENUM,  /* an enum (int-sized): one of names[0..nnames-1] */
	T_FLAGS, /* uint32_t: a list of flag names, or none */
	T_CURVE, /* struct ik_exit_curve */
	T_OWN,   /* the row's own set and get */
};

struct flag_name {
	const char *name;
	uint32_t flag;
};
struct flag_table {
	const struct flag_name *v;
	int n;
};

/* A row of a key table (written with the K, F, RANGE, OWN and REQ shorthands below). */
struct key {
	const char *name;
	enum key_type type;
	size_t off, size; /* the field in the section's struct; T_TEXT/T_NAME: its size */
	int64_t min, max; /* integers */
	bool required;
	bool hex;         /* integers: 0x... accepted, and written so */
	int digits;       /* hex: at least this many digits written */
	double rmin, rmax; /* T_REAL */
	const char *const *names; /* T_ENUM */
	int nnames;
	const struct flag_table *flags; /* T_FLAGS */
	/* T_OWN, or a T_ENUM with a message of its own: set from the text, and format */
	int (*set)(struct ik_platform_reader *r, int index, const char *sec, const char *value,
		   struct ik_ini_where w);
	void (*get)(const struct ik_platform *p, const struct ik_dist *exit_ns, int index,
		    char *buf, size_t len);
};

static const char *const vendor_names[] = { "other", "intel", "amd", "ibm", "arm" };
static const char *const hypervisor_names[] = { "none", "kvm", "other" };
static const char *const cst_method_names[] = { "ffh", "systemio", "halt" };

static const struct flag_name state_flag_names[] = {
	{ "polling", IK_FLAG_POLLING },	    { "timer_stop", IK_FLAG_TIMER_STOP },
	{ "tlb_flushed", IK_FLAG_TLB_FLUSHED }, { "off", IK_FLAG_OFF },
	{ "unusable", IK_FLAG_UNUSABLE },
};
static const struct flag_name opal_flag_names[] = {
	{ "dec_stop", IK_OPAL_DEC_STOP },
	{ "timebase_stop", IK_OPAL_TIMEBASE_STOP },
	{ "lose_user_context", IK_OPAL_LOSE_USER_CONTEXT },
	{ "lose_hyp_context", IK_OPAL_LOSE_HYP_CONTEXT },
	{ "lose_full_context", IK_OPAL_LOSE_FULL_CONTEXT },
	{ "nap", IK_OPAL_NAP },
	{ "sleep", IK_OPAL_SLEEP },
	{ "winkle", IK_OPAL_WINKLE },
	{ "sleep_er1", IK_OPAL_SLEEP_ER1 },
	{ "stop_fast", IK_OPAL_STOP_FAST },
	{ "stop_deep", IK_OPAL_STOP_DEEP },
};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
static const struct flag_table state_flags = { state_flag_names, COUNT(state_flag_names) };
static const struct flag_table opal_flags = { opal_flag_names, COUNT(opal_flag_names) };

_Static_assert(sizeof(unsigned) == sizeof(uint32_t), "a state's flags are 32 bits");
_Static_assert(sizeof(enum ik_cpu_vendor) == sizeof(int) &&
		       sizeof(enum ik_hypervisor) == sizeof(int) &&
		       sizeof(enum ik_cst_method) == sizeof(int),
	       "enum keys are stored as int");

const char *platform_hypervisor_name(int h)
{
	return (unsigned)h < 3 ? hypervisor_names[h] : "?";
}

const char *platform_cst_method_name(int m)
{
	return (unsigned)m < 3 ? cst_method_names[m] : "?";
}

const char *ik__vendor_name(enum ik_cpu_vendor v)
{
	return (unsigned)v < 5 ? vendor_names[v] : "?";
}

/* ---- flag lists ------------------------------------------------------------------------ */

/* "[section] key: <what was wrong>" at w. */
static int bad_value(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		     const char *key, const char *msg)
{
	return ik__ini_fail(&r->e, w, "[%s] %s: %s", section, key, msg);
}

/* "polling, timer_stop": flags from t; "none" = 0. */
static int parse_flags(struct ik_platform_reader *r, struct ik_ini_where w, const char *section,
		       const char *value, const struct flag_table *t, uint32_t *out)
{
	uint32_t flags = 0;
	const char *p = value;
	char shown[80], list[256];

	if (strcmp(value, "none") == 0) {
		*out = 0;
		return 0;
	}
	while (*p) {
		p += strspn(p, ", \t");
		size_t len = strcspn(p, ", \t");
		if (len == 0)
			break;
		bool found = false;
		for (int i = 0; i < t->n; i++) {
			if (strlen(t->v[i].name) == len && memcmp(p, t->v[i].name, len) == 0) {
				flags |= t->v[i].flag;
				found = true;
			}
		}
		if (!found) {
			char tok[64];
			size_t used = 0;
			list[0] = '\0';
			for (int i = 0; i < t->n; i++)
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
							 i ? " " : "", t->v[i].name);
			snprintf(tok, sizeof(tok), "%.*s", (int)(len < 63 ? len : 63), p);
			return ik__ini_fail(&r->e, w, "[%s] flags: expected 'none' or a comma/space "
					   "separated list of: %s, got '%s'", section, list,
					   ik__ini_shown(tok, shown, sizeof(shown)));
		}
		p += len;
	}
	*out = flags;
	return 0;
}

static void format_flags(uint32_t flags, const struct flag_table *t, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < t->n && used < len; i++)
		if (flags & t->v[i].flag)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
						 t->v[i].name);
	if (!buf[0])
		snprintf(buf, len, "none");
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

/* ---- the keys that are special ---------------------------------------------------------- */

static int set_method(struct ik_platform_reader *r, int i, const char *sec, const char *value,
		      struct ik_ini_where w)
{
	char shown[80];
	if (ik__method_parse(value, &r->p->states[i].method) != 0)
		return ik__ini_fail(&r->e, w, "[%s] method: expected one of: poll mwait hlt ioport "
				   "stop wfi other, got '%s'", sec,
				   ik__ini_shown(value, shown, sizeof(shown)));
	return 0;
}

static void get_method(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
		       char *buf, size_t len)
{
	(void)exit_ns;
	snprintf(buf, len, "%s", ik__method_name(p->states[i].method));
}

/* A state's exit_ns: the reader's, the default of the three exit costs by wake source. */
static int set_exit_ns(struct ik_platform_reader *r, int i, const char *sec, const char *value,
		       struct ik_ini_where w)
{
	char msg[256];
	if (ik__dist_parse(value, &r->exit_ns[i], msg, sizeof(msg)) != 0)
		return bad_value(r, w, sec, "exit_ns", msg);
	return 0;
}

static void get_exit_ns(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			char *buf, size_t len)
{
	(void)p;
	if (exit_ns)
		ik__dist_format(&exit_ns[i], buf, len);
	else
		buf[0] = '\0';
}

/* in_table, lite, core_off: yes or no, into a field the state's struct does not hold. */
static bool *state_bool(struct ik_platform *p, int i, int which)
{
	return which == SK_IN_TABLE ? &p->states[i].unlisted :
	       which == SK_LITE ? &p->effects.state_lite[i] : &p->effects.state_core_off[i];
}

static int set_state_bool(struct ik_platform_reader *r, int i, const char *sec,
			  const char *value, struct ik_ini_where w, int which, const char *key)
{
	char msg[256];
	bool v;
	if (ik__ini_bool(value, &v, msg, sizeof(msg)) != 0)
		return bad_value(r, w, sec, key, msg);
	*state_bool(r->p, i, which) = which == SK_IN_TABLE ? !v : v; /* in_table = !unlisted */
	return 0;
}

static void get_state_bool(const struct ik_platform *p, int i, int which, char *buf, size_t len)
{
	bool v = *state_bool((struct ik_platform *)p, i, which);
	snprintf(buf, len, "%s", yes_no(which == SK_IN_TABLE ? !v : v));
}

static int set_in_table(struct ik_platform_reader *r, int i, const char *sec, const char *value,
			struct ik_ini_where w)
{
	return set_state_bool(r, i, sec, value, w, SK_IN_TABLE, "in_table");
}

static int set_lite(struct ik_platform_reader *r, int i, const char *sec, const char *value,
		    struct ik_ini_where w)
{
	return set_state_bool(r, i, sec, value, w, SK_LITE, "lite");
}

static int set_core_off(struct ik_platform_reader *r, int i, const char *sec, const char *value,
			struct ik_ini_where w)
{
	return set_state_bool(r, i, sec, value, w, SK_CORE_OFF, "core_off");
}

static void get_in_table(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			 char *buf, size_t len)
{
	(void)exit_ns;
	get_state_bool(p, i, SK_IN_TABLE, buf, len);
}

static void get_lite(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
		     char *buf, size_t len)
{
	(void)exit_ns;
	get_state_bool(p, i, SK_LITE, buf, len);
}

static void get_core_off(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			 char *buf, size_t len)
{
	(void)exit_ns;
	get_state_bool(p, i, SK_CORE_OFF, buf, len);
}

/* [acpi] cst_control: whether taking _CST control succeeds, "ok" or "fail". */
static int set_cst_control(struct ik_platform_reader *r, int i, const char *sec,
			   const char *value, struct ik_ini_where w)
{
	static const char *const control[] = { "fail", "ok" };
	char msg[400];
	int idx;
	(void)i;
	if (ik__ini_enum(value, control, 2, &idx, msg, sizeof(msg)) != 0)
		return bad_value(r, w, sec, "cst_control", msg);
	r->p->acpi.cst_control = idx == 1;
	return 0;
}

static void get_cst_control(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			    char *buf, size_t len)
{
	(void)exit_ns;
	(void)i;
	snprintf(buf, len, "%s", p->acpi.cst_control ? "ok" : "fail");
}

/* A _CST entry's type: C1, C2, C3 or 1..3. */
static int set_cst_type(struct ik_platform_reader *r, int i, const char *sec, const char *value,
			struct ik_ini_where w)
{
	static const char *const types[] = { "C1", "C2", "C3" };
	struct ik_cst_entry *c = &r->p->acpi.cst[i - 1];
	char shown[80];
	int64_t v;
	int idx;

	if (ik__ini_enum(value, types, 3, &idx, NULL, 0) == 0) {
		c->type = idx + 1;
		return 0;
	}
	if (ik__ini_int(value, 1, 3, false, &v, NULL, 0) == 0) {
		c->type = (int)v;
		return 0;
	}
	return ik__ini_fail(&r->e, w, "[%s] type: expected an ACPI C-state type C1, C2 or C3 "
			   "(or 1..3), got '%s'", sec, ik__ini_shown(value, shown, sizeof(shown)));
}

static void get_cst_type(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			 char *buf, size_t len)
{
	(void)exit_ns;
	snprintf(buf, len, "C%d", p->acpi.cst[i - 1].type);
}

/* A _CST entry's method (a T_ENUM whose message says what each one means). */
static int set_cst_method(struct ik_platform_reader *r, int i, const char *sec,
			  const char *value, struct ik_ini_where w)
{
	char shown[80];
	int idx;
	if (ik__ini_enum(value, cst_method_names, 3, &idx, NULL, 0) != 0)
		return ik__ini_fail(&r->e, w, "[%s] method: expected one of: ffh (FIXED_HARDWARE, "
				   "MWAIT hint in address) systemio (SYSTEM_IO port in address) "
				   "halt (FIXED_HARDWARE without MWAIT), got '%s'", sec,
				   ik__ini_shown(value, shown, sizeof(shown)));
	r->p->acpi.cst[i - 1].method = (enum ik_cst_method)idx;
	return 0;
}

/* [intel_idle] table: auto (by CPU model), acpi, or a built-in table's name. */
static int set_intel_table(struct ik_platform_reader *r, int i, const char *sec,
			   const char *value, struct ik_ini_where w)
{
	struct ik_intel_idle_hw *h = &r->p->intel_idle;
	char shown[80];
	(void)i;
	(void)sec;
	if (strcmp(value, "auto") == 0) {
		h->table[0] = '\0';
		return 0;
	}
	if (strcmp(value, "acpi") != 0 && !ik__intel_idle_table_exists(value))
		return ik__ini_fail(&r->e, w, "[intel_idle] table: expected auto (by CPU model), "
				   "acpi (no built-in table: states from _CST) or one of: %s, "
				   "got '%s'", ik__intel_idle_table_names(),
				   ik__ini_shown(value, shown, sizeof(shown)));
	snprintf(h->table, sizeof(h->table), "%s", value);
	return 0;
}

static void get_intel_table(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			    char *buf, size_t len)
{
	(void)exit_ns;
	(void)i;
	snprintf(buf, len, "%s", p->intel_idle.table[0] ? p->intel_idle.table : "auto");
}

/* "turbo_mhz = 1:3600 2:3500 4:3300 18:2800": MHz for up to N active cores, N ascending. */
static int set_turbo(struct ik_platform_reader *r, int i, const char *sec, const char *value,
		     struct ik_ini_where w)
{
	struct ik_hw_effects *fx = &r->p->effects;
	char shown[80], *end = NULL;
	int n = 0;
	(void)i;
	(void)sec;

	for (const char *p = ik__ini_list_item(value); p; p = ik__ini_list_item(end)) {
		errno = 0;
		long cores = strtol(p, &end, 10);
		if (end == p || *end != ':' || errno || cores < 1 || cores > IK_PLATFORM_MAX_CPUS)
			goto bad;
		p = end + 1;
		long mhz = strtol(p, &end, 10);
		if (end == p || errno || mhz < 1 || mhz > 100000 || !ik__ini_list_sep(*end))
			goto bad;
		if (n == IK_TURBO_MAX)
			return ik__ini_fail(&r->e, w, "[effects] turbo_mhz: at most %d CORES:MHZ pairs",
					   IK_TURBO_MAX);
		if (n > 0 && cores <= fx->turbo_cores[n - 1])
			return ik__ini_fail(&r->e, w, "[effects] turbo_mhz: core counts must increase, "
					   "got %ld after %d", cores, fx->turbo_cores[n - 1]);
		fx->turbo_cores[n] = (int)cores;
		fx->turbo_mhz[n] = (int)mhz;
		n++;
	}
	fx->nturbo = n;
	return 0;
bad:
	return ik__ini_fail(&r->e, w, "[effects] turbo_mhz: expected CORES:MHZ pairs such as "
			   "'1:3600 2:3500 18:2800', got '%s'", ik__ini_shown(value, shown, sizeof(shown)));
}

static void get_turbo(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
		      char *buf, size_t len)
{
	const struct ik_hw_effects *fx = &p->effects;
	size_t used = 0;
	(void)exit_ns;
	(void)i;
	buf[0] = '\0';
	for (int k = 0; k < fx->nturbo && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%d:%d", k ? " " : "",
					 fx->turbo_cores[k], fx->turbo_mhz[k]);
}

/*
 * [os] driver and governor: a name idlekit models, kept as text ("" = not named), so that a
 * scenario can tell a platform that names one from one that does not.
 */
static const char *const os_drivers[] = { "table",    "acpi_idle", "intel_idle",
					  "powernv_idle", "haltpoll", "none" };
static const char *const os_governors[] = { "menu", "teo", "ladder", "haltpoll" };

/* One of names, copied into out: 0, or -1 with the names expected. */
static int set_os_name(struct ik_platform_reader *r, struct ik_ini_where w, const char *sec,
		       const char *key, const char *value, const char *const *names, int n,
		       char *out, size_t size)
{
	char msg[400];
	int idx;
	if (ik__ini_enum(value, names, n, &idx, msg, sizeof(msg)) != 0)
		return bad_value(r, w, sec, key, msg);
	snprintf(out, size, "%s", names[idx]);
	return 0;
}

static int set_os_driver(struct ik_platform_reader *r, int i, const char *sec, const char *value,
			 struct ik_ini_where w)
{
	(void)i;
	return set_os_name(r, w, sec, "driver", value, os_drivers, COUNT(os_drivers),
			   r->p->os.driver, sizeof(r->p->os.driver));
}

static int set_os_governor(struct ik_platform_reader *r, int i, const char *sec,
			   const char *value, struct ik_ini_where w)
{
	(void)i;
	return set_os_name(r, w, sec, "governor", value, os_governors, COUNT(os_governors),
			   r->p->os.governor, sizeof(r->p->os.governor));
}

static void get_os_driver(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			  char *buf, size_t len)
{
	(void)exit_ns;
	(void)i;
	snprintf(buf, len, "%s", p->os.driver);
}

static void get_os_governor(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			    char *buf, size_t len)
{
	(void)exit_ns;
	(void)i;
	snprintf(buf, len, "%s", p->os.governor);
}

/* [os] haltpoll_force: yes or no; not named (-1) until given. */
static int set_os_force(struct ik_platform_reader *r, int i, const char *sec, const char *value,
			struct ik_ini_where w)
{
	char msg[256];
	bool v;
	(void)i;
	if (ik__ini_bool(value, &v, msg, sizeof(msg)) != 0)
		return bad_value(r, w, sec, "haltpoll_force", msg);
	r->p->os.haltpoll_force = v;
	return 0;
}

static void get_os_force(const struct ik_platform *p, const struct ik_dist *exit_ns, int i,
			 char *buf, size_t len)
{
	(void)exit_ns;
	(void)i;
	snprintf(buf, len, "%s", p->os.haltpoll_force < 0 ? "" : yes_no(p->os.haltpoll_force));
}

/* ---- the tables ------------------------------------------------------------------------- */

#define K(key, t) .name = key, .type = t
#define F(type, field) .off = offsetof(type, field), .size = sizeof(((type *)0)->field)
#define RANGE(lo, hi) .min = lo, .max = hi
#define OWN(setter, getter) .set = setter, .get = getter
#define REQ .required = true
#define MAX_CPUS IK_PLATFORM_MAX_CPUS
#define MAX_US IK_PLATFORM_MAX_STATE_US
#define MAX_MW IK_PLATFORM_MAX_POWER_MW
#define MAX_SMT IK_PLATFORM_MAX_THREADS_PER_CORE
#define MAX_COST IK_PLATFORM_MAX_COST_NS
#define MAX_NS ((int64_t)IK_PLATFORM_MAX_STATE_US * 1000)

#define PLAT struct ik_platform
static const struct key platform_keys[PK_COUNT] = {
	[PK_NAME] = { K("name", T_NAME), F(PLAT, name), REQ },
	[PK_DESCRIPTION] = { K("description", T_TEXT), F(PLAT, description) },
	[PK_SOURCE] = { K("source", T_TEXT), F(PLAT, source) },
	[PK_PACKAGES] = { K("packages", T_INT), F(PLAT, packages), RANGE(1, MAX_CPUS), REQ },
	[PK_CORES_PER_PACKAGE] = { K("cores_per_package", T_INT), F(PLAT, cores_per_package),
				   RANGE(1, MAX_CPUS), REQ },
	[PK_THREADS_PER_CORE] = { K("threads_per_core", T_INT), F(PLAT, threads_per_core),
				  RANGE(1, MAX_SMT), REQ },
	[PK_CORES_PER_LLC] = { K("cores_per_llc", T_INT), F(PLAT, cores_per_llc),
			       RANGE(1, MAX_CPUS) },
	[PK_IPI_NS] = { K("ipi_ns", T_DIST), F(PLAT, ipi_ns) },
	[PK_POLL_WAKE_NS] = { K("poll_wake_ns", T_I64), F(PLAT, poll_wake_ns), RANGE(0, MAX_COST) },
	[PK_CONTEXT_SWITCH_NS] = { K("context_switch_ns", T_I64), F(PLAT, context_switch_ns),
				   RANGE(0, MAX_COST) },
	[PK_ACTIVE_POWER_MW] = { K("active_power_mw", T_INT), F(PLAT, active_power_mw),
				 RANGE(0, MAX_MW), REQ },
};

#define HWS struct ik_hw_state
static const struct key state_keys[SK_COUNT] = {
	[SK_NAME] = { K("name", T_NAME), F(HWS, name), REQ },
	[SK_DESC] = { K("desc", T_TEXT), F(HWS, desc) },
	[SK_LATENCY_US] = { K("latency_us", T_U32), F(HWS, latency_us), RANGE(0, MAX_US), REQ },
	[SK_RESIDENCY_US] = { K("residency_us", T_U32), F(HWS, residency_us), RANGE(0, MAX_US),
			      REQ },
	[SK_METHOD] = { K("method", T_OWN), OWN(set_method, get_method), REQ },
	[SK_HINT] = { K("hint", T_U32), F(HWS, hint), RANGE(0, UINT32_MAX), .hex = true },
	[SK_FLAGS] = { K("flags", T_FLAGS), F(HWS, flags), .flags = &state_flags },
	[SK_POWER_MW] = { K("power_mw", T_INT), F(HWS, power_mw), RANGE(0, MAX_MW) },
	[SK_ENTRY_NS] = { K("entry_ns", T_DIST), F(HWS, entry) },
	[SK_EXIT_NS] = { K("exit_ns", T_OWN), OWN(set_exit_ns, get_exit_ns) },
	[SK_EXIT_IPI_NS] = { K("exit_ipi_ns", T_DIST), F(HWS, exit[IK_WAKE_IPI]) },
	[SK_EXIT_TIMER_NS] = { K("exit_timer_ns", T_DIST), F(HWS, exit[IK_WAKE_TIMER]) },
	[SK_EXIT_IRQ_NS] = { K("exit_irq_ns", T_DIST), F(HWS, exit[IK_WAKE_IRQ]) },
	[SK_NEEDS_IPI] = { K("needs_ipi", T_BOOL), F(HWS, needs_ipi) },
	[SK_IN_TABLE] = { K("in_table", T_OWN), OWN(set_in_table, get_in_table) },
	[SK_LITE] = { K("lite", T_OWN), OWN(set_lite, get_lite) },
	[SK_CORE_OFF] = { K("core_off", T_OWN), OWN(set_core_off, get_core_off) },
	[SK_EXIT_AFTER_IDLE_NS] = { K("exit_after_idle_ns", T_CURVE), F(HWS, after_idle) },
	[SK_EXIT_TIMER_AFTER_IDLE_NS] = { K("exit_timer_after_idle_ns", T_CURVE),
					  F(HWS, timer_after_idle) },
	[SK_ENTRY_BUSY_NS] = { K("entry_busy_ns", T_I64), F(HWS, entry_busy_ns),
			       RANGE(0, MAX_COST) },
};

#define CPUID struct ik_cpuid
static const struct key cpuid_keys[CK_COUNT] = {
	[CK_VENDOR] = { K("vendor", T_ENUM), F(CPUID, vendor), REQ, .names = vendor_names,
			.nnames = 5 },
	[CK_FAMILY] = { K("family", T_INT), F(CPUID, family), RANGE(0, 0xfff), .hex = true },
	[CK_MODEL] = { K("model", T_INT), F(CPUID, model), RANGE(0, 0xfff), .hex = true,
		       .digits = 2 },
	[CK_MWAIT] = { K("mwait", T_BOOL), F(CPUID, mwait) },
	[CK_MONITOR_BUG] = { K("monitor_bug", T_BOOL), F(CPUID, monitor_bug) },
	[CK_ARAT] = { K("arat", T_BOOL), F(CPUID, arat) },
	[CK_ZEN] = { K("zen", T_BOOL), F(CPUID, zen) },
	[CK_AMD_E400] = { K("amd_e400", T_BOOL), F(CPUID, amd_e400) },
	[CK_AMD_APIC_C1E] = { K("amd_apic_c1e", T_BOOL), F(CPUID, amd_apic_c1e) },
	[CK_HYPERVISOR] = { K("hypervisor", T_ENUM), F(CPUID, hypervisor),
			    .names = hypervisor_names, .nnames = 3 },
	[CK_KVM_HINT_REALTIME] = { K("kvm_hint_realtime", T_BOOL), F(CPUID, kvm_hint_realtime) },
	[CK_CPUID5_ECX] = { K("cpuid5_ecx", T_U32), F(CPUID, cpuid5_ecx), RANGE(0, UINT32_MAX),
			    .hex = true },
	[CK_CPUID5_EDX] = { K("cpuid5_edx", T_U32), F(CPUID, cpuid5_edx), RANGE(0, UINT32_MAX),
			    .hex = true },
};

#define ACPI struct ik_acpi
static const struct key acpi_keys[AK_COUNT] = {
	[AK_CST_CONTROL] = { K("cst_control", T_OWN), OWN(set_cst_control, get_cst_control) },
	[AK_PBLK] = { K("pblk", T_U32), F(ACPI, pblk), RANGE(0, 0xffff), .hex = true },
	[AK_C2_LATENCY_US] = { K("c2_latency_us", T_U32), F(ACPI, c2_latency_us),
			       RANGE(0, 0xffff) },
	[AK_C3_LATENCY_US] = { K("c3_latency_us", T_U32), F(ACPI, c3_latency_us),
			       RANGE(0, 0xffff) },
	[AK_C2_MP_SUPPORTED] = { K("c2_mp_supported", T_BOOL), F(ACPI, c2_mp_supported) },
	[AK_WBINVD] = { K("wbinvd", T_BOOL), F(ACPI, wbinvd) },
	[AK_PM_TIMER_PORT] = { K("pm_timer_port", T_U32), F(ACPI, pm_timer_port), RANGE(0, 0xffff),
			       .hex = true },
	[AK_PM_TIMER_READ_NS] = { K("pm_timer_read_ns", T_DIST), F(ACPI, pm_timer_read) },
	[AK_BM_ACTIVITY] = { K("bm_activity", T_REAL), F(ACPI, bm_activity), .rmin = 0.0,
			     .rmax = 1.0 },
};

#define CST struct ik_cst_entry
static const struct key cst_keys[XK_COUNT] = {
	[XK_TYPE] = { K("type", T_OWN), OWN(set_cst_type, get_cst_type), REQ },
	[XK_METHOD] = { K("method", T_ENUM), F(CST, method), REQ, .names = cst_method_names,
			.nnames = 3, .set = set_cst_method },
	[XK_ADDRESS] = { K("address", T_U32), F(CST, address), RANGE(0, UINT32_MAX), .hex = true },
	[XK_LATENCY_US] = { K("latency_us", T_U32), F(CST, latency_us), RANGE(0, MAX_US), REQ },
	[XK_POWER_MW] = { K("power_mw", T_U32), F(CST, power_mw), RANGE(0, MAX_MW) },
	[XK_ACCESS_SIZE] = { K("access_size", T_U32), F(CST, access_size), RANGE(0, 4) },
};

static const struct key intel_idle_keys[IK_KEY_COUNT] = {
	[IK_KEY_TABLE] = { K("table", T_OWN), OWN(set_intel_table, get_intel_table) },
	[IK_KEY_PC6] = { K("pc6", T_BOOL), F(struct ik_intel_idle_hw, pc6) },
};

#define DT struct ik_dt_state
static const struct key dt_keys[DK_COUNT] = {
	[DK_NAME] = { K("name", T_NAME), F(DT, name), REQ },
	[DK_FLAGS] = { K("flags", T_FLAGS), F(DT, flags), REQ, .flags = &opal_flags },
	[DK_LATENCY_NS] = { K("latency_ns", T_U64), F(DT, latency_ns), RANGE(0, MAX_NS), REQ },
	[DK_RESIDENCY_NS] = { K("residency_ns", T_U64), F(DT, residency_ns), RANGE(0, MAX_NS),
			      REQ },
	[DK_PSSCR] = { K("psscr", T_U32), F(DT, psscr), RANGE(0, UINT32_MAX), .hex = true },
};

#define FX struct ik_hw_effects
static const struct key effects_keys[EK_COUNT] = {
	[EK_BASE_MHZ] = { K("base_mhz", T_INT), F(FX, base_mhz), RANGE(0, 100000) },
	[EK_TURBO_MHZ] = { K("turbo_mhz", T_OWN), OWN(set_turbo, get_turbo) },
	[EK_SMT_SIBLING_BUSY] = { K("smt_sibling_busy", T_REAL), F(FX, smt_sibling_busy),
				  .rmin = 0.01, .rmax = 1.0 },
	[EK_SMT_SIBLING_LITE] = { K("smt_sibling_lite", T_REAL), F(FX, smt_sibling_lite),
				  .rmin = 0.01, .rmax = 1.0 },
	[EK_PKG_EXIT_NS] = { K("pkg_exit_ns", T_DIST), F(FX, pkg_exit_ns) },
	[EK_PKG_ACTIVE_MW] = { K("pkg_active_mw", T_INT), F(FX, pkg_active_mw), RANGE(0, MAX_MW) },
	[EK_PKG_IDLE_MW] = { K("pkg_idle_mw", T_INT), F(FX, pkg_idle_mw), RANGE(0, MAX_MW) },
};

#define OS struct ik_os
static const struct key os_keys[OK_COUNT] = {
	[OK_DRIVER] = { K("driver", T_OWN), OWN(set_os_driver, get_os_driver) },
	[OK_GOVERNOR] = { K("governor", T_OWN), OWN(set_os_governor, get_os_governor) },
	[OK_HALTPOLL_FORCE] = { K("haltpoll_force", T_OWN), OWN(set_os_force, get_os_force) },
	[OK_TIMER_SLACK_NS] = { K("timer_slack_ns", T_I64), F(OS, timer_slack_ns),
				RANGE(0, MAX_COST) },
	[OK_BACKGROUND_HZ] = { K("background_hz", T_REAL), F(OS, background_hz), .rmin = 0,
			       .rmax = 100000 },
};

/* The kernel's module parameters are uint: 32 bits. */
#define HP struct ik_haltpoll_params
static const struct key haltpoll_keys[HK_COUNT] = {
	[HK_GUEST_HALT_POLL_NS] = { K("guest_halt_poll_ns", T_U64), F(HP, guest_halt_poll_ns),
				    RANGE(0, UINT32_MAX) },
	[HK_GUEST_HALT_POLL_SHRINK] = { K("guest_halt_poll_shrink", T_U32),
					F(HP, guest_halt_poll_shrink), RANGE(0, UINT32_MAX) },
	[HK_GUEST_HALT_POLL_GROW] = { K("guest_halt_poll_grow", T_U32), F(HP, guest_halt_poll_grow),
				      RANGE(0, UINT32_MAX) },
	[HK_GUEST_HALT_POLL_GROW_START] = { K("guest_halt_poll_grow_start", T_U64),
					    F(HP, guest_halt_poll_grow_start), RANGE(0, UINT32_MAX) },
	[HK_GUEST_HALT_POLL_ALLOW_SHRINK] = { K("guest_halt_poll_allow_shrink", T_BOOL),
					      F(HP, guest_halt_poll_allow_shrink) },
};

static const struct {
	const struct key *keys;
	int n;
} tables[SEC_KINDS] = {
	[SEC_PLATFORM] = { platform_keys, PK_COUNT },
	[SEC_STATE] = { state_keys, SK_COUNT },
	[SEC_CPUID] = { cpuid_keys, CK_COUNT },
	[SEC_ACPI] = { acpi_keys, AK_COUNT },
	[SEC_CST] = { cst_keys, XK_COUNT },
	[SEC_INTEL_IDLE] = { intel_idle_keys, IK_KEY_COUNT },
	[SEC_DT] = { dt_keys, DK_COUNT },
	[SEC_EFFECTS] = { effects_keys, EK_COUNT },
	[SEC_OS] = { os_keys, OK_COUNT },
	[SEC_HALTPOLL] = { haltpoll_keys, HK_COUNT },
};
_Static_assert(PK_COUNT <= IK_INI_MAX_KEYS && SK_COUNT <= IK_INI_MAX_KEYS &&
		       CK_COUNT <= IK_INI_MAX_KEYS && AK_COUNT <= IK_INI_MAX_KEYS &&
		       XK_COUNT <= IK_INI_MAX_KEYS && DK_COUNT <= IK_INI_MAX_KEYS &&
		       EK_COUNT <= IK_INI_MAX_KEYS && OK_COUNT <= IK_INI_MAX_KEYS &&
		       HK_COUNT <= IK_INI_MAX_KEYS,
	       "key tables");

/* ---- setting and formatting ------------------------------------------------------------- */

int platform_section_kind(const char *section, int *index)
{
	static const struct {
		const char *name;
		enum sec_kind kind;
	} single[] = {
		{ "platform", SEC_PLATFORM }, { "cpuid", SEC_CPUID },	{ "acpi", SEC_ACPI },
		{ "intel_idle", SEC_INTEL_IDLE }, { "effects", SEC_EFFECTS },
		{ "os", SEC_OS }, { "haltpoll", SEC_HALTPOLL },
	};
	int i;

	*index = 0;
	for (int k = 0; k < COUNT(single); k++)
		if (strcmp(section, single[k].name) == 0)
			return single[k].kind;
	if ((i = ik__ini_state_index(section, IK_STATE_MAX)) >= 0) {
		*index = i;
		return SEC_STATE;
	}
	if ((i = ik__ini_prefixed_index(section, "cst", 1, IK_CST_MAX + 1)) >= 0) {
		*index = i;
		return SEC_CST;
	}
	if ((i = ik__ini_prefixed_index(section, "dt_state", 0, IK_DT_STATE_MAX)) >= 0) {
		*index = i;
		return SEC_DT;
	}
	return -1;
}

int platform_key_count(int kind)
{
	return tables[kind].n;
}

const char *platform_key_name(int kind, int k)
{
	return tables[kind].keys[k].name;
}

int platform_key_find(int kind, const char *key)
{
	for (int k = 0; k < tables[kind].n; k++)
		if (strcmp(tables[kind].keys[k].name, key) == 0)
			return k;
	return -1;
}

bool platform_key_required(int kind, int k)
{
	return tables[kind].keys[k].required;
}

const char *platform_key_list(int kind, char *buf, size_t len)
{
	const char *names[IK_INI_MAX_KEYS];
	for (int k = 0; k < tables[kind].n; k++)
		names[k] = tables[kind].keys[k].name;
	return ik__ini_join(names, tables[kind].n, buf, len);
}

/* The struct a section's keys are fields of. */
static void *section_struct(struct ik_platform *p, int kind, int index)
{
	switch ((enum sec_kind)kind) {
	case SEC_PLATFORM: return p;
	case SEC_STATE: return &p->states[index];
	case SEC_CPUID: return &p->cpuid;
	case SEC_ACPI: return &p->acpi;
	case SEC_CST: return &p->acpi.cst[index - 1];
	case SEC_INTEL_IDLE: return &p->intel_idle;
	case SEC_DT: return &p->powernv.states[index];
	case SEC_EFFECTS: return &p->effects;
	case SEC_OS: return &p->os;
	case SEC_HALTPOLL: return &p->os.haltpoll;
	case SEC_KINDS: break;
	}
	return NULL;
}

int platform_key_set(struct ik_platform_reader *r, int kind, int index, const char *sec, int k,
		     const char *value, struct ik_ini_where w)
{
	const struct key *key = &tables[kind].keys[k];
	unsigned char *f = (unsigned char *)section_struct(r->p, kind, index) + key->off;
	char msg[400];
	size_t mlen = key->type == T_ENUM ? 400 : 256; /* as long as a message ever was */
	int64_t v = 0;
	int rc = 0;

	if (key->set)
		return key->set(r, index, sec, value, w);
	switch (key->type) {
	case T_TEXT:
	case T_NAME:
		rc = ik__ini_text(value, key->size, key->type == T_NAME, (char *)f, msg, mlen);
		break;
	case T_INT:
	case T_U32:
	case T_I64:
	case T_U64:
		rc = ik__ini_int(value, key->min, key->max, key->hex, &v, msg, mlen);
		if (rc == 0 && key->type == T_INT)
			*(int *)(void *)f = (int)v;
		else if (rc == 0 && key->type == T_U32)
			*(uint32_t *)(void *)f = (uint32_t)v;
		else if (rc == 0 && key->type == T_I64)
			*(int64_t *)(void *)f = v;
		else if (rc == 0)
			*(uint64_t *)(void *)f = (uint64_t)v;
		break;
	case T_BOOL:
		rc = ik__ini_bool(value, (bool *)(void *)f, msg, mlen);
		break;
	case T_DIST:
		rc = ik__dist_parse(value, (struct ik_dist *)(void *)f, msg, mlen);
		break;
	case T_REAL:
		rc = ik__ini_real(value, key->rmin, key->rmax, (double *)(void *)f, msg, mlen);
		break;
	case T_ENUM: {
		int idx;
		rc = ik__ini_enum(value, key->names, key->nnames, &idx, msg, mlen);
		if (rc == 0)
			*(int *)(void *)f = idx;
		break;
	}
	case T_FLAGS:
		return parse_flags(r, w, sec, value, key->flags, (uint32_t *)(void *)f);
	case T_CURVE:
		rc = ik__exit_curve_parse(value, (struct ik_exit_curve *)(void *)f, msg, mlen);
		break;
	case T_OWN:
		break;
	}
	return rc ? bad_value(r, w, sec, key->name, msg) : 0;
}

void platform_key_format(const struct ik_platform *p, const struct ik_dist *exit_ns, int kind,
			 int index, int k, char *buf, size_t len)
{
	const struct key *key = &tables[kind].keys[k];
	const unsigned char *f =
		(const unsigned char *)section_struct((struct ik_platform *)p, kind, index) + key->off;
	long long v = 0;

	buf[0] = '\0';
	if (key->get) {
		key->get(p, exit_ns, index, buf, len);
		return;
	}
	switch (key->type) {
	case T_TEXT:
	case T_NAME:
		snprintf(buf, len, "%s", (const char *)f);
		return;
	case T_INT:
	case T_U32:
	case T_I64:
		v = key->type == T_INT ? *(const int *)(const void *)f :
		    key->type == T_U32 ? (long long)*(const uint32_t *)(const void *)f :
					 *(const int64_t *)(const void *)f;
		if (key->hex)
			snprintf(buf, len, "0x%0*llx", key->digits, (unsigned long long)v);
		else
			snprintf(buf, len, "%lld", v);
		return;
	case T_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)(const void *)f);
		return;
	case T_BOOL:
		snprintf(buf, len, "%s", yes_no(*(const bool *)(const void *)f));
		return;
	case T_DIST:
		ik__dist_format((const struct ik_dist *)(const void *)f, buf, len);
		return;
	case T_REAL:
		ik__ini_format_real(*(const double *)(const void *)f, buf, len);
		return;
	case T_ENUM: {
		int e = *(const int *)(const void *)f;
		snprintf(buf, len, "%s", (unsigned)e < (unsigned)key->nnames ? key->names[e] : "?");
		return;
	}
	case T_FLAGS:
		format_flags(*(const uint32_t *)(const void *)f, key->flags, buf, len);
		return;
	case T_CURVE:
		ik__exit_curve_format((const struct ik_exit_curve *)(const void *)f, buf, len);
		return;
	case T_OWN:
		return;
	}
}

/* ---- the writer ------------------------------------------------------------------------- */

void ik__platform_writer_init(struct ik_platform_writer *w, FILE *f, const struct ik_platform *p)
{
	*w = (struct ik_platform_writer){ .f = f, .p = p, .kind = -1 };
}

int ik__platform_write_section(struct ik_platform_writer *w, const char *section)
{
	int index, kind = platform_section_kind(section, &index);
	if (kind < 0)
		return -1;
	w->kind = kind;
	w->index = index;
	snprintf(w->section, sizeof(w->section), "%s", section);
	fprintf(w->f, "\n[%s]\n", section);
	return 0;
}

int ik__platform_write_key(struct ik_platform_writer *w, const char *key, const char *comment)
{
	char buf[IK_CONFIG_VALUE_LEN];
	int k = w->kind >= 0 ? platform_key_find(w->kind, key) : -1;
	if (k < 0 || (k == SK_EXIT_NS && w->kind == SEC_STATE && !w->exit_ns))
		return -1;
	platform_key_format(w->p, w->exit_ns, w->kind, w->index, k, buf, sizeof(buf));
	fprintf(w->f, "%s = %s%s%s\n", key, buf, comment ? "  ; " : "", comment ? comment : "");
	return 0;
}
