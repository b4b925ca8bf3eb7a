/*
 * cpuidle as sysfs shows it: the driver and governor, and per CPU its idle-state table with
 * the counters (Documentation/admin-guide/pm/cpuidle.rst lists the files).
 *
 * The files that make a state (name, latency, residency) must be there; a state directory
 * without one of them is a partial tree and an error.  The others are optional: files added
 * later (desc, power, above, below, rejected, disable, default_status, s2idle/), and the
 * counters usage and time, which a dump of the table alone leaves out.  `have` records
 * which were found, so that a report can print "-" rather than a made-up 0.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID 1
#endif

#include "host/host.h"
#include "util/errmsg.h"
#include "util/freep.h"

#define REL_LEN 128

/* dir/file into out; sysfs names are short, so truncation only guards against misuse. */
static void join(char *out, size_t size, const char *dir, const char *file)
{
	int k = snprintf(out, size, "%s/%s", dir, file);
	if (k < 0 || (size_t)k >= size)
		out[size - 1] = '\0';
}

static void trim(char *s)
{
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	size_t lead = strspn(s, " \t");
	if (lead)
		memmove(s, s + lead, n - lead + 1);
}

/* ---- which CPUs ---------------------------------------------------------------------- */

struct cpu_scan {
	struct ik_cpuset *present;
	int too_big; /* a cpuN with N beyond IK_HOST_CPU_MAX */
};

static int scan_cpu_dir(const char *name, void *arg)
{
	struct cpu_scan *scan = arg;
	if (strncmp(name, "cpu", 3) != 0 || !name[3] || strspn(name + 3, "0123456789") !=
	    strlen(name + 3))
		return 0; /* cpufreq, cpuidle, ... */
	if (strlen(name + 3) > 6 || atol(name + 3) >= IK_HOST_CPU_MAX) {
		scan->too_big = 1;
		return 0;
	}
	ik__cpuset_add(scan->present, atoi(name + 3));
	return 0;
}

static int read_list_file(const struct ik_sysfs *fs, const char *rel, struct ik_cpuset *set,
			  char *err, size_t errlen)
{
	char buf[4096], msg[256], where[4096 + 256];
	int r = ik__sysfs_read(fs, rel, buf, sizeof(buf), err, errlen);
	if (r != IK_SYSFS_OK)
		return r;
	if (ik__cpulist_parse(buf, IK_HOST_CPU_MAX, true, set, msg, sizeof(msg)) != 0) {
		ik__sysfs_where(fs, rel, where, sizeof(where));
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", where, msg);
		return IK_SYSFS_ERROR;
	}
	return IK_SYSFS_OK;
}

int ik__host_cpus(const struct ik_sysfs *fs, struct ik_cpuset *present, struct ik_cpuset *online,
		 char *err, size_t errlen)
{
	struct cpu_scan scan = { present, 0 };

	ik__cpuset_clear(present);
	ik__cpuset_clear(online);
	int r = ik__sysfs_list(fs, "", scan_cpu_dir, &scan, err, errlen);
	if (r == IK_SYSFS_ERROR)
		return -1;
	if (scan.too_big)
		return ik__errmsg(err, errlen, "%s: a cpuN directory beyond cpu%d; at most %d CPUs "
				  "are supported", ik__sysfs_origin(fs), IK_HOST_CPU_MAX - 1,
				  IK_HOST_CPU_MAX);
	/* The kernel's 'present' list is the truth; a cpuN directory missing from a copied
	   tree or a dump does not make its CPU absent (it shows as "no cpuN directory").
	   A directory the list lacks (an inconsistent copy) still counts: it has data. */
	struct ik_cpuset listed;
	r = read_list_file(fs, "present", &listed, err, errlen);
	if (r == IK_SYSFS_ERROR)
		return -1;
	if (r == IK_SYSFS_OK)
		ik__cpuset_or(present, &listed);
	if (ik__cpuset_count(present) == 0)
		return ik__errmsg(err, errlen, "%s: no CPUs: expected cpuN directories or a "
				  "'present' file", ik__sysfs_origin(fs));

	r = read_list_file(fs, "online", online, err, errlen);
	if (r == IK_SYSFS_ERROR)
		return -1;
	if (r == IK_SYSFS_OK) {
		ik__cpuset_and(online, present);
		return 0;
	}
	/* No global 'online': each CPU's own file, which CPU 0 usually lacks (not hotpluggable). */
	for (int cpu = ik__cpuset_next(present, -1); cpu >= 0; cpu = ik__cpuset_next(present, cpu)) {
		char rel[REL_LEN];
		uint64_t v = 1;
		snprintf(rel, sizeof(rel), "cpu%d/online", cpu);
		if (ik__sysfs_read_u64(fs, rel, &v, err, errlen) == IK_SYSFS_ERROR)
			return -1;
		if (v)
			ik__cpuset_add(online, cpu);
	}
	return 0;
}

/* ---- one state --------------------------------------------------------------------------- */

static int missing(const struct ik_sysfs *fs, const char *rel, char *err, size_t errlen)
{
	if (err && errlen) {
		if (ik__sysfs_is_dump(fs))
			snprintf(err, errlen, "%s: no line for /sys/devices/system/cpu/%s (a partial "
				 "dump? every state has name, latency and residency)",
				 ik__sysfs_origin(fs), rel);
		else
			snprintf(err, errlen, "%s/%s: missing (a partial tree? every state has name, "
				 "latency and residency)", ik__sysfs_origin(fs), rel);
	}
	return -1;
}

/* Read dir/file as a number; required ones must exist.  *have gets bit when it does. */
static int state_u64(const struct ik_sysfs *fs, const char *dir, const char *file, bool required,
		     uint64_t *v, unsigned *have, unsigned bit, char *err, size_t errlen)
{
	char rel[REL_LEN];
	join(rel, sizeof(rel), dir, file);
	int r = ik__sysfs_read_u64(fs, rel, v, err, errlen);
	if (r == IK_SYSFS_ERROR)
		return -1;
	if (r == IK_SYSFS_MISSING) {
		*v = 0;
		return required ? missing(fs, rel, err, errlen) : 0;
	}
	if (have)
		*have |= bit;
	return 0;
}

static int state_text(const struct ik_sysfs *fs, const char *dir, const char *file,
		      bool required, char *out, size_t size, unsigned *have, unsigned bit, char *err,
		      size_t errlen)
{
	char rel[REL_LEN], buf[4096], where[4096 + 256];
	join(rel, sizeof(rel), dir, file);
	int r = ik__sysfs_read(fs, rel, buf, sizeof(buf), err, errlen);
	if (r == IK_SYSFS_ERROR)
		return -1;
	if (r == IK_SYSFS_MISSING) {
		out[0] = '\0';
		return required ? missing(fs, rel, err, errlen) : 0;
	}
	trim(buf);
	if (strlen(buf) >= size || strchr(buf, '\n')) {
		ik__sysfs_where(fs, rel, where, sizeof(where));
		return ik__errmsg(err, errlen, "%s: expected one line of at most %zu characters, "
				  "got '%.40s...'", where, size - 1, buf);
	}
	memcpy(out, buf, strlen(buf) + 1);
	if (have)
		*have |= bit;
	return 0;
}

static int read_counters(const struct ik_sysfs *fs, const char *dir, struct ik_host_state *s,
			 char *err, size_t errlen)
{
	unsigned have = s->have & ~(IK_HAVE_USAGE | IK_HAVE_TIME | IK_HAVE_ABOVE | IK_HAVE_BELOW |
				    IK_HAVE_REJECTED);
	if (state_u64(fs, dir, "usage", false, &s->usage, &have, IK_HAVE_USAGE, err, errlen) ||
	    state_u64(fs, dir, "time", false, &s->time_us, &have, IK_HAVE_TIME, err, errlen) ||
	    state_u64(fs, dir, "above", false, &s->above, &have, IK_HAVE_ABOVE, err, errlen) ||
	    state_u64(fs, dir, "below", false, &s->below, &have, IK_HAVE_BELOW, err, errlen) ||
	    state_u64(fs, dir, "rejected", false, &s->rejected, &have, IK_HAVE_REJECTED, err,
		      errlen))
		return -1;
	s->have = have;
	return 0;
}

static int read_state(const struct ik_sysfs *fs, const char *dir, struct ik_host_state *s,
		      char *err, size_t errlen)
{
	char status[32], rel[REL_LEN], where[4096 + 256];
	uint64_t disable = 0;

	memset(s, 0, sizeof(*s));
	s->power = IK_HOST_POWER_UNKNOWN;
	s->default_enabled = true;
	if (state_text(fs, dir, "name", true, s->name, sizeof(s->name), NULL, 0, err, errlen) ||
	    state_text(fs, dir, "desc", false, s->desc, sizeof(s->desc), &s->have, IK_HAVE_DESC,
		       err, errlen) ||
	    state_u64(fs, dir, "latency", true, &s->latency_us, NULL, 0, err, errlen) ||
	    state_u64(fs, dir, "residency", true, &s->residency_us, NULL, 0, err, errlen) ||
	    state_u64(fs, dir, "power", false, &s->power, &s->have, IK_HAVE_POWER, err, errlen) ||
	    state_u64(fs, dir, "disable", false, &disable, &s->have, IK_HAVE_DISABLE, err, errlen) ||
	    state_text(fs, dir, "default_status", false, status, sizeof(status), &s->have,
		       IK_HAVE_DEFAULT_STATUS, err, errlen))
		return -1;
	if (!(s->have & IK_HAVE_POWER))
		s->power = IK_HOST_POWER_UNKNOWN;
	s->disabled = disable != 0;
	if (s->have & IK_HAVE_DEFAULT_STATUS) {
		if (strcmp(status, "enabled") == 0) {
			s->default_enabled = true;
		} else if (strcmp(status, "disabled") == 0) {
			s->default_enabled = false;
		} else {
			join(rel, sizeof(rel), dir, "default_status");
			ik__sysfs_where(fs, rel, where, sizeof(where));
			return ik__errmsg(err, errlen, "%s: expected 'enabled' or 'disabled', got "
					  "'%s'", where, status);
		}
	}
	if (read_counters(fs, dir, s, err, errlen))
		return -1;
	/* s2idle/ exists only for states with an s2idle entry method. */
	char s2[REL_LEN];
	join(s2, sizeof(s2), dir, "s2idle");
	if (ik__sysfs_is_dir(fs, s2)) {
		if (state_u64(fs, s2, "usage", false, &s->s2idle_usage, &s->have, IK_HAVE_S2IDLE, err,
			      errlen) ||
		    state_u64(fs, s2, "time", false, &s->s2idle_time_us, NULL, 0, err, errlen))
			return -1;
	}
	return 0;
}

static int read_cpu(const struct ik_sysfs *fs, struct ik_host_cpu *c, char *err, size_t errlen)
{
	char dir[REL_LEN];

	snprintf(dir, sizeof(dir), "cpu%d", c->cpu);
	c->has_dir = ik__sysfs_is_dir(fs, dir);
	snprintf(dir, sizeof(dir), "cpu%d/cpuidle", c->cpu);
	c->has_cpuidle = ik__sysfs_is_dir(fs, dir);
	c->nstates = 0;
	if (!c->has_cpuidle)
		return 0;
	for (int i = 0; i < IK_STATE_MAX; i++) {
		snprintf(dir, sizeof(dir), "cpu%d/cpuidle/state%d", c->cpu, i);
		if (!ik__sysfs_is_dir(fs, dir))
			break;
		if (read_state(fs, dir, &c->states[i], err, errlen))
			return -1;
		c->nstates = i + 1;
	}
	return 0;
}

/* ---- the whole machine ------------------------------------------------------------------ */

static int read_global(const struct ik_sysfs *fs, const char *rel, char *out, size_t size,
		       char *err, size_t errlen)
{
	char buf[4096];
	int r = ik__sysfs_read(fs, rel, buf, sizeof(buf), err, errlen);
	out[0] = '\0';
	if (r != IK_SYSFS_OK)
		return r;
	trim(buf);
	size_t n = strlen(buf);
	if (n >= size)
		n = size - 1;
	memcpy(out, buf, n);
	out[n] = '\0';
	return IK_SYSFS_OK;
}

int ik__host_idle_read(const struct ik_sysfs *fs, const struct ik_cpuset *want,
		      struct ik_host_idle *idle, char *err, size_t errlen)
{
	memset(idle, 0, sizeof(*idle));
	if (ik__host_cpus(fs, &idle->present, &idle->online, err, errlen))
		return -1;
	struct ik_cpuset chosen = want ? *want : idle->present;
	struct ik_cpuset absent = chosen;
	ik__cpuset_andnot(&absent, &idle->present);
	if (ik__cpuset_count(&absent)) {
		char a[256], p[256];
		ik__cpuset_format(&absent, a, sizeof(a));
		ik__cpuset_format(&idle->present, p, sizeof(p));
		return ik__errmsg(err, errlen, "CPU %s not present in %s (present: %s)", a,
				  ik__sysfs_origin(fs), p);
	}

	idle->have_cpuidle_dir = ik__sysfs_is_dir(fs, "cpuidle");
	int r = read_global(fs, "cpuidle/current_driver", idle->driver, sizeof(idle->driver), err,
			    errlen);
	if (r == IK_SYSFS_ERROR)
		return -1;
	r = read_global(fs, "cpuidle/current_governor", idle->governor, sizeof(idle->governor), err,
			errlen);
	if (r == IK_SYSFS_MISSING)
		r = read_global(fs, "cpuidle/current_governor_ro", idle->governor,
				sizeof(idle->governor), err, errlen);
	if (r == IK_SYSFS_ERROR)
		return -1;
	if (read_global(fs, "cpuidle/available_governors", idle->available_governors,
			sizeof(idle->available_governors), err, errlen) == IK_SYSFS_ERROR)
		return -1;

	idle->ncpus = ik__cpuset_count(&chosen);
	idle->cpus = calloc(idle->ncpus ? (size_t)idle->ncpus : 1, sizeof(*idle->cpus));
	if (!idle->cpus)
		return ik__errmsg(err, errlen, "out of memory for %d CPUs", idle->ncpus);
	int i = 0, with_states = 0;
	for (int cpu = ik__cpuset_next(&chosen, -1); cpu >= 0; cpu = ik__cpuset_next(&chosen, cpu)) {
		struct ik_host_cpu *c = &idle->cpus[i++];
		c->cpu = cpu;
		c->online = ik__cpuset_has(&idle->online, cpu);
		if (read_cpu(fs, c, err, errlen)) {
			ik__host_idle_free(idle);
			return -1;
		}
		with_states += c->nstates > 0;
	}
	if (!idle->driver[0]) {
		/* No current_driver file: no cpuidle at all (CONFIG_CPU_IDLE=n), or a tree that
		 * lost it; the states, if any, still speak for themselves. */
		snprintf(idle->driver, sizeof(idle->driver), "%s", with_states ? "unknown" : "none");
	}
	return 0;
}

int ik__host_idle_refresh(const struct ik_sysfs *fs, struct ik_host_idle *idle, char *err,
			 size_t errlen)
{
	char dir[REL_LEN];
	for (int i = 0; i < idle->ncpus; i++) {
		struct ik_host_cpu *c = &idle->cpus[i];
		for (int k = 0; k < c->nstates; k++) {
			snprintf(dir, sizeof(dir), "cpu%d/cpuidle/state%d", c->cpu, k);
			if (read_counters(fs, dir, &c->states[k], err, errlen))
				return -1;
		}
	}
	return 0;
}

void ik__host_idle_free(struct ik_host_idle *idle)
{
	ik__freep(&idle->cpus);
	idle->ncpus = 0;
}

/* ---- folding ---------------------------------------------------------------------------- */

#define STATIC_HAVE (IK_HAVE_DESC | IK_HAVE_POWER | IK_HAVE_DISABLE | IK_HAVE_DEFAULT_STATUS)

bool ik__host_idle_has_states(const struct ik_host_idle *idle)
{
	for (int i = 0; i < idle->ncpus; i++)
		if (idle->cpus[i].has_cpuidle && idle->cpus[i].nstates > 0)
			return true;
	return false;
}

bool ik__host_same_table(const struct ik_host_cpu *a, const struct ik_host_cpu *b)
{
	if (a->nstates != b->nstates || a->has_cpuidle != b->has_cpuidle)
		return false;
	for (int i = 0; i < a->nstates; i++) {
		const struct ik_host_state *x = &a->states[i], *y = &b->states[i];
		if (strcmp(x->name, y->name) || strcmp(x->desc, y->desc) ||
		    x->latency_us != y->latency_us || x->residency_us != y->residency_us ||
		    x->power != y->power || x->disabled != y->disabled ||
		    x->default_enabled != y->default_enabled ||
		    (x->have & STATIC_HAVE) != (y->have & STATIC_HAVE))
			return false;
	}
	return true;
}

int ik__host_fold(const struct ik_host_idle *idle, int *group_of)
{
	int *leaders = malloc((idle->ncpus ? (size_t)idle->ncpus : 1) * sizeof(int));
	int ngroups = 0;

	for (int i = 0; i < idle->ncpus; i++) {
		const struct ik_host_cpu *c = &idle->cpus[i];
		group_of[i] = -1;
		if (!c->online || !c->has_cpuidle)
			continue;
		/* Tables are nearly always all alike: try the newest group first. */
		for (int g = ngroups - 1; leaders && g >= 0; g--) {
			if (ik__host_same_table(&idle->cpus[leaders[g]], c)) {
				group_of[i] = leaders[g];
				break;
			}
		}
		if (group_of[i] < 0) {
			group_of[i] = i;
			if (leaders)
				leaders[ngroups] = i;
			ngroups++;
		}
	}
	free(leaders);
	return ngroups;
}

/* ---- no driver: the default idle routine ------------------------------------------------- */

static bool read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return true;
}

/* The value of idle= on the kernel command line, or "". */
static void idle_option(const char *cmdline, char *out, size_t len)
{
	out[0] = '\0';
	for (const char *p = cmdline; (p = strstr(p, "idle=")); p += 5) {
		if (p != cmdline && p[-1] != ' ')
			continue; /* e.g. cpuidle_haltpoll... or intel_idle= */
		size_t n = strcspn(p + 5, " \n");
		snprintf(out, len, "%.*s", (int)n, p + 5);
	}
}

/* Is word one of the space-separated words on cpuinfo's line starting with key? */
static int cpuinfo_has(const char *cpuinfo, const char *key, const char *word)
{
	const char *line = strstr(cpuinfo, key);
	if (!line)
		return -1;
	const char *end = strchr(line + 1, '\n'); /* key may start with its newline */
	size_t n = strlen(word);
	for (const char *p = strchr(line, ':'); p && (!end || p < end); p++) {
		if ((p[-1] == ' ' || p[-1] == ':') && strncmp(p, word, n) == 0 &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

void ik__host_default_idle(const struct ik_sysfs *fs, char *buf, size_t len)
{
	const char *root = ik__sysfs_root(fs);
	char path[4200], text[1 << 16], opt[64];

	if (!root) {
		snprintf(buf, len, "unknown: a dump holds no /proc/cmdline or CPUID to tell");
		return;
	}
	bool live = strcmp(root, "/") == 0;
	const char *base = live ? "" : root;
	snprintf(path, sizeof(path), "%s/proc/cmdline", base);
	if (read_small(path, text, sizeof(text))) {
		idle_option(text, opt, sizeof(opt));
		if (strcmp(opt, "poll") == 0) {
			snprintf(buf, len, "polling loop (idle=poll on the kernel command line)");
			return;
		}
		if (strcmp(opt, "halt") == 0 || strcmp(opt, "nomwait") == 0) {
			snprintf(buf, len, "HLT (default_idle; idle=%s on the kernel command line)", opt);
			return;
		}
	}
	snprintf(path, sizeof(path), "%s/proc/cpuinfo", base);
	bool have_cpuinfo = read_small(path, text, sizeof(text));
	if (have_cpuinfo && cpuinfo_has(text, "\nbugs", "monitor") == 1) {
		snprintf(buf, len, "HLT (default_idle): the CPU has the MONITOR erratum (bugs: "
			 "monitor in %s)", path);
		return;
	}
#ifdef HAVE_CPUID
	if (live) {
		unsigned a, b, c, d, max;
		char vendor[13];
		struct utsname u;
		__cpuid(0, max, b, c, d);
		memcpy(vendor, &b, 4);
		memcpy(vendor + 4, &d, 4);
		memcpy(vendor + 8, &c, 4);
		vendor[12] = '\0';
		__cpuid(1, a, b, c, d);
		if (!(c & (1u << 3))) {
			snprintf(buf, len, "HLT (default_idle): the CPU offers no MONITOR/MWAIT "
				 "(CPUID.1:ECX[3] clear, usual in VMs)");
			return;
		}
		int major = 0;
		if (uname(&u) == 0)
			major = atoi(u.release);
		if (major > 0 && major < 6 && strcmp(vendor, "GenuineIntel") != 0) {
			snprintf(buf, len, "HLT (default_idle): kernel %s prefers MWAIT only on Intel "
				 "(changed in 6.0)", u.release);
			return;
		}
		if (max < 5) {
			snprintf(buf, len, "HLT (default_idle): no CPUID leaf 5 to vouch for MWAIT C1");
			return;
		}
		__cpuid(5, a, b, c, d);
		if (!(c & 1u) || ((d >> 4) & 0xf)) {
			snprintf(buf, len, "MWAIT C1 (mwait_idle): MONITOR/MWAIT with %s (CPUID.5)",
				 (c & 1u) ? "C1 sub-states" : "no MWAIT extensions");
			return;
		}
		snprintf(buf, len, "HLT (default_idle): MWAIT has no C1 sub-state (CPUID.5:EDX[7:4] "
			 "= 0)");
		return;
	}
#endif
	if (!have_cpuinfo) {
		snprintf(buf, len, "unknown: no %s to tell", path);
		return;
	}
	int monitor = cpuinfo_has(text, "\nflags", "monitor");
	if (monitor < 0)
		monitor = cpuinfo_has(text, "flags", "monitor");
	if (monitor == 0)
		snprintf(buf, len, "HLT (default_idle): no 'monitor' flag in %s", path);
	else if (monitor == 1)
		snprintf(buf, len, "MWAIT C1 (mwait_idle) if CPUID leaf 5 allows it, else HLT "
			 "(default_idle): leaf 5 cannot be read from %s", path);
	else
		snprintf(buf, len, "the architecture's default (no x86 flags in %s)", path);
}
