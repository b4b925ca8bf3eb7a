/*
 * idlekit platform import: a platform file for `idlekit sim` from the live machine's sysfs
 * (or a copied tree, or a dump).
 *
 * sysfs gives the idle-state table as the driver registered it (name, desc, latency,
 * residency, power, default_status) and, in a tree, the topology.  Everything else a
 * platform file holds (real exit costs, IPI cost, busy power, state flags) is not there:
 * those keys are left to the simulator's defaults or filled with a placeholder, and the
 * file's comments say which; `platform calibrate` (platform_calibrate.c) measures them.
 * From the live machine also its CPU (CPUID) and what its kernel runs ([os]: driver,
 * governor, haltpoll_force; [haltpoll]: the haltpoll governor's parameters), so that a sim
 * on the file runs what the machine runs.
 *
 * Divisions: names and guesses (method, hint); the topology; the machine's CPU and what its
 * kernel runs; the file (make_platform); the check that its driver loads; the import as
 * text (for `platform calibrate` too); the command.
 */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/host_cli.h"
#include "cli/platform_calibrate.h"
#include "host/calibrate.h"
#include "config/platform_ini.h"
#include "config/scenario.h"
#include "hw/hw.h"

static const char import_usage[] =
	"usage: idlekit platform import [OPTIONS]\n"
	"\n"
	"Write a platform file (the INI that `idlekit sim` and `platform show` read) from the\n"
	"live machine's sysfs, a copied tree or a dump: the idle-state table of one CPU and the\n"
	"topology.  What sysfs does not tell (real exit costs, IPI cost, busy power, state\n"
	"flags; the topology of a dump) is guessed or left to the defaults, and the file's\n"
	"comments say so.  From the live machine also [cpuid] (the CPUID instruction: vendor,\n"
	"MWAIT, ARAT, hypervisor) and [os] / [haltpoll]: the cpuidle driver and governor it\n"
	"runs and the haltpoll governor's module parameters, so that `idlekit sim` on the file\n"
	"runs them (a driver that would not load on the file is left out, and said so).\n"
	"\n"
	"Options:\n"
	"  --cpu N                  take CPU N's table (default: the first online CPU)\n"
	"  --name NAME              the platform's name (default: from the dump's file name,\n"
	"                           the tree's directory, or host-HOSTNAME)\n"
	"  -o, --output FILE        write to FILE (atomically) instead of standard output\n"
	"  --calibrate              also measure the costs sysfs does not give (root): the same\n"
	"                           as `idlekit platform calibrate` (its options apply)\n"
	HOST_SOURCE_HELP
	"  -h, --help               this text\n";

#define MAX_STATE_US IK_PLATFORM_MAX_STATE_US /* what the platform reader accepts */
#define MAX_POWER_MW IK_PLATFORM_MAX_POWER_MW
#define ACTIVE_POWER_PLACEHOLDER_MW 1000

/* Characters the parser takes in names; anything else becomes '_'. */
static void to_name(char *out, size_t size, const char *in)
{
	size_t n = 0;
	for (; *in && n + 1 < size; in++)
		out[n++] = (isalnum((unsigned char)*in) || *in == '_' || *in == '.' || *in == '-')
				   ? *in
				   : '_';
	out[n] = '\0';
}

/* A value safe in an INI line: no comment characters, no control characters. */
static void to_text(char *out, size_t size, const char *in)
{
	size_t n = 0;
	for (; *in && n + 1 < size; in++) {
		unsigned char c = (unsigned char)*in;
		out[n++] = (c < 0x20 || c == 0x7f || c == ';' || c == '#') ? '_' : (char)c;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

static bool contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

/* The entry method, from the words drivers put in desc and name. */
static const char *guess_method(int index, const struct ik_host_state *s)
{
	if (index == 0 && (strcmp(s->name, "POLL") == 0 || contains_ci(s->desc, "POLL IDLE") ||
			   strcmp(s->name, "snooze") == 0))
		return "poll";
	if (contains_ci(s->desc, "MWAIT") || contains_ci(s->desc, "FFH"))
		return "mwait";
	if (contains_ci(s->desc, "IOPORT"))
		return "ioport";
	if (contains_ci(s->desc, "HLT") || contains_ci(s->desc, "halt") ||
	    contains_ci(s->name, "halt"))
		return "hlt";
	if (strncasecmp(s->name, "stop", 4) == 0)
		return "stop";
	return "other";
}

/* "MWAIT 0x20", "ACPI IOPORT 0x414": the number after 0x, if any. */
static bool guess_hint(const struct ik_host_state *s, unsigned long *hint)
{
	const char *p = strstr(s->desc, "0x");
	if (!p || !isxdigit((unsigned char)p[2]))
		return false;
	*hint = strtoul(p + 2, NULL, 16);
	return *hint <= UINT32_MAX;
}

struct topology {
	int packages, cores_per_package, threads_per_core, cores_per_llc;
	char how[256]; /* how it was found, or what was guessed */
};

static int read_list_count(const struct ik_sysfs *fs, const char *rel)
{
	char buf[4096], err[IK_HOST_ERR_LEN];
	struct ik_cpuset set;
	if (ik__sysfs_read(fs, rel, buf, sizeof(buf), err, sizeof(err)) != IK_SYSFS_OK ||
	    ik__cpulist_parse(buf, IK_HOST_CPU_MAX, false, &set, err, sizeof(err)))
		return -1;
	return ik__cpuset_count(&set);
}

/* The last-level cache: the highest cache level's shared_cpu_list, in CPUs. */
static int llc_cpus(const struct ik_sysfs *fs, int cpu)
{
	int best_level = 0, cpus = -1;
	for (int i = 0; i < 8; i++) {
		char rel[128];
		uint64_t level;
		char err[IK_HOST_ERR_LEN];
		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/level", cpu, i);
		if (ik__sysfs_read_u64(fs, rel, &level, err, sizeof(err)) != IK_SYSFS_OK)
			continue;
		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/shared_cpu_list", cpu, i);
		int n = read_list_count(fs, rel);
		if (n > 0 && (int)level >= best_level) {
			best_level = (int)level;
			cpus = n;
		}
	}
	return cpus;
}

static void guess_topology(const struct ik_sysfs *fs, const struct ik_host_idle *idle,
			   struct topology *t)
{
	int online = ik__cpuset_count(&idle->online);
	struct ik_cpuset packages;
	int threads = -1;
	bool uniform = true, have = true;
	char err[IK_HOST_ERR_LEN];

	ik__cpuset_clear(&packages);
	for (int cpu = ik__cpuset_next(&idle->online, -1); cpu >= 0 && have;
	     cpu = ik__cpuset_next(&idle->online, cpu)) {
		char rel[128];
		uint64_t pkg;
		snprintf(rel, sizeof(rel), "cpu%d/topology/physical_package_id", cpu);
		if (ik__sysfs_read_u64(fs, rel, &pkg, err, sizeof(err)) != IK_SYSFS_OK ||
		    pkg >= IK_HOST_CPU_MAX) {
			have = false;
			break;
		}
		ik__cpuset_add(&packages, (int)pkg);
		snprintf(rel, sizeof(rel), "cpu%d/topology/core_cpus_list", cpu);
		int n = read_list_count(fs, rel);
		if (n < 0) {
			snprintf(rel, sizeof(rel), "cpu%d/topology/thread_siblings_list", cpu);
			n = read_list_count(fs, rel);
		}
		if (n < 1) {
			have = false;
			break;
		}
		if (threads >= 0 && n != threads)
			uniform = false;
		if (n > threads)
			threads = n;
	}
	int npkg = ik__cpuset_count(&packages);
	if (have && uniform && threads >= 1 && threads <= 8 && online % threads == 0 &&
	    (online / threads) % npkg == 0) {
		t->packages = npkg;
		t->threads_per_core = threads;
		t->cores_per_package = online / threads / npkg;
		int first = ik__cpuset_next(&idle->online, -1);
		int llc = llc_cpus(fs, first);
		if (llc > 0 && llc % threads == 0 && t->cores_per_package % (llc / threads) == 0) {
			t->cores_per_llc = llc / threads;
			snprintf(t->how, sizeof(t->how), "from cpuN/topology (package ids, core siblings) "
				 "and cpu%d/cache (last-level cache sharing)", first);
		} else {
			t->cores_per_llc = t->cores_per_package;
			snprintf(t->how, sizeof(t->how), "from cpuN/topology (package ids, core siblings); "
				 "cores_per_llc guessed: one LLC per package");
		}
		return;
	}
	t->packages = 1;
	t->threads_per_core = 1;
	t->cores_per_package = online;
	t->cores_per_llc = online;
	snprintf(t->how, sizeof(t->how), "guessed: %s, so one package with every online CPU as "
		 "a core", !have ? "no cpuN/topology files" : "an irregular topology");
}

static void default_name(const struct host_source *src, char *out, size_t size)
{
	char raw[256] = "";
	if (src->dump) {
		const char *base = strrchr(src->dump, '/');
		snprintf(raw, sizeof(raw), "%s", base ? base + 1 : src->dump);
		char *dot = strrchr(raw, '.');
		if (dot && dot != raw)
			*dot = '\0';
	} else if (src->root && strcmp(src->root, "/") != 0) {
		char copy[256];
		snprintf(copy, sizeof(copy), "%s", src->root);
		size_t n = strlen(copy);
		while (n > 1 && copy[n - 1] == '/')
			copy[--n] = '\0';
		const char *base = strrchr(copy, '/');
		snprintf(raw, sizeof(raw), "%s", base ? base + 1 : copy);
	} else {
		char host[200] = "";
		gethostname(host, sizeof(host) - 1);
		snprintf(raw, sizeof(raw), "host-%s", host[0] ? host : "unknown");
	}
	to_name(out, size, raw[0] ? raw : "imported");
}

/* The entry method, from the words drivers put in desc and name. */
static enum ik_method method_of(int index, const struct ik_host_state *s)
{
	enum ik_method m = IK_METHOD_OTHER;
	ik__method_parse(guess_method(index, s), &m);
	return m;
}

static bool one_of(const char *name, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/*
 * [cpuid], [os] and [haltpoll] of the live machine: what makes a sim on the file run what
 * the machine runs (its driver loads only where the CPU says what the kernel tested, a
 * KVM guest's haltpoll driver only where [cpuid] says kvm).  no_driver: why [os] driver is
 * left out (it does not load on the file), or NULL.
 */
static void write_machine(struct ik_platform_writer *w, FILE *f, struct ik_platform *p,
			  const struct ik_host_idle *idle, const struct ik_host_machine *m,
			  const char *no_driver)
{
	static const char *const drivers[] = { "acpi_idle", "intel_idle", "powernv_idle",
					       "haltpoll", "none" };
	static const char *const governors[] = { "menu", "teo", "ladder", "haltpoll" };

	if (m->have_cpuid) {
		struct ik_cpuid *c = &p->cpuid;
		c->vendor = strcmp(m->vendor, "intel") == 0 ? IK_VENDOR_INTEL :
			    strcmp(m->vendor, "amd") == 0 ? IK_VENDOR_AMD : IK_VENDOR_OTHER;
		c->family = m->family;
		c->model = m->model;
		c->mwait = m->mwait;
		c->arat = m->arat;
		c->hypervisor = !m->hypervisor ? IK_HYPERVISOR_NONE :
				m->kvm ? IK_HYPERVISOR_KVM : IK_HYPERVISOR_OTHER;
		c->kvm_hint_realtime = m->kvm && m->kvm_hint_realtime;
		ik__platform_write_section(w, "cpuid");
		fprintf(f, "; From the CPUID instruction on this machine (leaves 0, 1, 6 and the "
			"hypervisor's 0x40000000).\n");
		ik__platform_write_key(w, "vendor", NULL);
		ik__platform_write_key(w, "family", NULL);
		ik__platform_write_key(w, "model", NULL);
		ik__platform_write_key(w, "mwait", "CPUID.1:ECX MONITOR");
		ik__platform_write_key(w, "arat", "CPUID.6:EAX ARAT");
		ik__platform_write_key(w, "hypervisor", m->hypervisor ? (m->kvm ? "leaf 0x40000000: "
						"KVMKVMKVM" : "CPUID.1:ECX bit 31, not KVM")
					: "CPUID.1:ECX bit 31 clear");
		if (m->kvm)
			ik__platform_write_key(w, "kvm_hint_realtime", "leaf 0x40000001 EDX bit 0");
	}
	ik__platform_write_section(w, "os");
	fprintf(f, "; What this machine's kernel runs: a scenario that names no driver or governor "
		"runs these.\n");
	if (no_driver)
		fprintf(f, "; driver = %s   (left out: %s)\n", idle->driver, no_driver);
	else if (one_of(idle->driver, drivers, 5)) {
		snprintf(p->os.driver, sizeof(p->os.driver), "%.15s", idle->driver); /* one of drivers */
		ik__platform_write_key(w, "driver", "cpuidle/current_driver");
	} else
		fprintf(f, "; driver %s: not one idlekit models\n", idle->driver);
	if (one_of(idle->governor, governors, 4)) {
		snprintf(p->os.governor, sizeof(p->os.governor), "%.15s", idle->governor);
		ik__platform_write_key(w, "governor", "cpuidle/current_governor");
	} else
		fprintf(f, "; governor %s: not one idlekit models\n",
			idle->governor[0] ? idle->governor : "unknown");
	if (m->haltpoll_force >= 0) {
		p->os.haltpoll_force = m->haltpoll_force;
		ik__platform_write_key(w, "haltpoll_force", "/sys/module/cpuidle_haltpoll/parameters/force");
	}
	if (m->have_haltpoll) {
		struct ik_haltpoll_params *hp = &p->os.haltpoll;
		hp->guest_halt_poll_ns = m->guest_halt_poll_ns;
		hp->guest_halt_poll_shrink = (unsigned)m->guest_halt_poll_shrink;
		hp->guest_halt_poll_grow = (unsigned)m->guest_halt_poll_grow;
		hp->guest_halt_poll_grow_start = m->guest_halt_poll_grow_start;
		hp->guest_halt_poll_allow_shrink = m->guest_halt_poll_allow_shrink;
		ik__platform_write_section(w, "haltpoll");
		fprintf(f, "; /sys/module/haltpoll/parameters: the haltpoll governor's, when it runs.\n");
		ik__platform_write_key(w, "guest_halt_poll_ns", NULL);
		ik__platform_write_key(w, "guest_halt_poll_shrink", NULL);
		ik__platform_write_key(w, "guest_halt_poll_grow", NULL);
		ik__platform_write_key(w, "guest_halt_poll_grow_start", NULL);
		ik__platform_write_key(w, "guest_halt_poll_allow_shrink", NULL);
	}
}

/*
 * The platform file as text (malloc'd), or NULL with a message printed.  The values go
 * into a struct ik_platform and out through the platform writer (config/platform_ini.h),
 * which formats them as the reader takes them back; the comments say where each came from.
 */
static char *make_platform(const struct ik_sysfs *fs, const struct ik_host_idle *idle, int ref,
			   int ngroups, const char *name, const struct ik_host_machine *m,
			   const char *no_driver)
{
	const struct ik_host_cpu *c = &idle->cpus[ref];
	struct topology topo;
	char *text = NULL;
	size_t len = 0;
	struct ik_platform *p = calloc(1, sizeof(*p));
	FILE *f = p ? open_memstream(&text, &len) : NULL;
	char origin[300], buf[512];
	struct ik_platform_writer w;

	if (!f) {
		free(p);
		fprintf(stderr, "idlekit platform import: out of memory\n");
		return NULL;
	}
	guess_topology(fs, idle, &topo);
	to_text(origin, sizeof(origin), ik__sysfs_origin(fs));

	fprintf(f, "; Imported by `idlekit platform import` from %s\n", origin);
	fprintf(f, "; (cpuidle driver %s, governor %s), idle states of CPU %d.\n", idle->driver,
		idle->governor[0] ? idle->governor : "unknown", c->cpu);
	fprintf(f, ";\n; From sysfs: each state's name, desc, latency_us, residency_us, power (when "
		"the driver\n; gives one) and default_status (flags = off).\n");
	fprintf(f, "; Guessed: method and hint from desc (MWAIT/FFH -> mwait, IOPORT -> ioport, "
		"HLT -> hlt,\n; POLL -> poll); the topology: %s.\n", topo.how);
	fprintf(f, "; Not in sysfs, left to the simulator's defaults: exit_ns (the advertised "
		"latency),\n; entry_ns, ipi_ns, poll_wake_ns, context_switch_ns and state flags "
		"(timer_stop,\n; tlb_flushed); active_power_mw is a placeholder.\n");
	if (ngroups > 1)
		fprintf(f, "; Note: the online CPUs have %d different idle-state tables; this is CPU "
			"%d's.\n", ngroups, c->cpu);

	ik__platform_writer_init(&w, f, p);
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(buf, sizeof(buf), "imported: %s, %d CPUs, %d idle states", idle->driver,
		 ik__cpuset_count(&idle->online), c->nstates);
	to_text(p->description, sizeof(p->description), buf);
	snprintf(buf, sizeof(buf), "idlekit platform import, %s, CPU %d", origin, c->cpu);
	to_text(p->source, sizeof(p->source), buf);
	p->packages = topo.packages;
	p->cores_per_package = topo.cores_per_package;
	p->threads_per_core = topo.threads_per_core;
	p->cores_per_llc = topo.cores_per_llc;
	p->active_power_mw = ACTIVE_POWER_PLACEHOLDER_MW;
	ik__platform_write_section(&w, "platform");
	static const char *const platform_keys[] = { "name", "description", "source", "packages",
						     "cores_per_package", "threads_per_core",
						     "cores_per_llc" };
	for (size_t k = 0; k < sizeof(platform_keys) / sizeof(platform_keys[0]); k++)
		ik__platform_write_key(&w, platform_keys[k], NULL);
	ik__platform_write_key(&w, "active_power_mw", "placeholder: sysfs has no busy power");

	uint64_t prev_lat = 0, prev_res = 0;
	for (int k = 0; k < c->nstates; k++) {
		const struct ik_host_state *s = &c->states[k];
		struct ik_hw_state *hs = &p->states[k];
		char section[24]; /* "state" and any int */
		to_name(hs->name, sizeof(hs->name), s->name);
		if (!hs->name[0])
			snprintf(hs->name, sizeof(hs->name), "S%d", k % 10);
		for (int j = 0; j < k; j++) /* names must be unique */
			if (strcmp(p->states[j].name, hs->name) == 0) {
				char suffix[4] = { '_', (char)('0' + k % 10), '\0', '\0' };
				hs->name[IK_NAME_LEN - 1 - strlen(suffix)] = '\0';
				strcat(hs->name, suffix);
			}
		snprintf(section, sizeof(section), "state%d", k);
		ik__platform_write_section(&w, section);
		if (strcmp(hs->name, s->name) != 0)
			fprintf(f, "; sysfs name '%s', made a valid name\n", s->name);
		ik__platform_write_key(&w, "name", NULL);
		to_text(hs->desc, sizeof(hs->desc), (s->have & IK_HAVE_DESC) ? s->desc : s->name);
		if (hs->desc[0])
			ik__platform_write_key(&w, "desc", NULL);

		uint64_t lat = s->latency_us, res = s->residency_us;
		if (lat > MAX_STATE_US || res > MAX_STATE_US) {
			fprintf(f, "; sysfs latency %" PRIu64 " / residency %" PRIu64 " us, clamped\n", lat,
				res);
			lat = lat > MAX_STATE_US ? MAX_STATE_US : lat;
			res = res > MAX_STATE_US ? MAX_STATE_US : res;
		}
		if (lat < prev_lat || res < prev_res) {
			fprintf(f, "; sysfs latency %" PRIu64 " / residency %" PRIu64 " us raised to keep the "
				"table ordered shallow to deep\n", lat, res);
			lat = lat < prev_lat ? prev_lat : lat;
			res = res < prev_res ? prev_res : res;
		}
		prev_lat = lat;
		prev_res = res;
		hs->latency_us = (uint32_t)lat;
		hs->residency_us = (uint32_t)res;
		hs->method = method_of(k, s);
		ik__platform_write_key(&w, "latency_us", NULL);
		ik__platform_write_key(&w, "residency_us", NULL);
		ik__platform_write_key(&w, "method", NULL);
		unsigned long hint;
		if (hs->method != IK_METHOD_POLL && guess_hint(s, &hint)) {
			hs->hint = (uint32_t)hint;
			ik__platform_write_key(&w, "hint", NULL);
		}
		if ((s->have & IK_HAVE_DEFAULT_STATUS) && !s->default_enabled) {
			hs->flags = IK_FLAG_OFF;
			ik__platform_write_key(&w, "flags", "default_status: disabled");
		}
		long long mw = host_power_mw(s->power);
		if ((s->have & IK_HAVE_POWER) && mw > 0 && mw <= MAX_POWER_MW) {
			hs->power_mw = (int)mw;
			ik__platform_write_key(&w, "power_mw", NULL);
		}
		if (s->disabled)
			fprintf(f, "; disabled through sysfs on CPU %d when imported (not a platform "
				"property)\n", c->cpu);
	}
	if (m)
		write_machine(&w, f, p, idle, m, no_driver);
	free(p);
	if (fclose(f) != 0) {
		free(text);
		fprintf(stderr, "idlekit platform import: out of memory\n");
		return NULL;
	}
	return text;
}

/*
 * Does a sim on this text run the driver its [os] names?  NULL if so (or it names none),
 * else why not.  The scenario reader wants a file: the text goes through a temporary one.
 */
static const char *driver_fails(const char *text, char *why, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char path[4096], err[IK_ERR_LEN];
	snprintf(path, sizeof(path), "%s/idlekit-import-XXXXXX.ini", dir && *dir ? dir : "/tmp");
	int fd = mkstemps(path, 4);
	if (fd < 0)
		return NULL; /* cannot tell: the reader's check at sim time still applies */
	FILE *f = fdopen(fd, "w");
	bool ok = f && fputs(text, f) >= 0;
	if (f && fclose(f) != 0)
		ok = false;
	struct ik_scenario *sc = malloc(sizeof(*sc));
	char scenario[4200];
	snprintf(scenario, sizeof(scenario), "[scenario]\nname = import\nplatform = %s\n", path);
	const char *res = NULL;
	if (ok && sc && ik__scenario_parse_string("import", scenario, NULL, 0, sc, err, sizeof(err))) {
		const char *p = strstr(err, "does not load");
		snprintf(why, len, "%s", p ? p : err);
		res = why;
	}
	free(sc);
	unlink(path);
	return res;
}

int cli_platform_import_text(const struct host_source *src, long cpu, const char *name_opt,
			     const char *cmd, char **out)
{
	struct ik_sysfs *fs;
	struct ik_host_idle idle = { 0 };
	char err[IK_HOST_ERR_LEN] = "", name[64];
	char *text = NULL;
	int rc = EXIT_USAGE;

	*out = NULL;
	if (name_opt) {
		to_name(name, sizeof(name), name_opt);
		if (strcmp(name, name_opt) != 0 || !name[0]) {
			fprintf(stderr, "idlekit %s: --name: expected at most 63 letters, digits, "
				"'_', '.' or '-', got '%s'\n", cmd, name_opt);
			return EXIT_USAGE;
		}
	}
	if (host_open(cmd, src, &fs))
		return EXIT_USAGE;
	if (ik__host_idle_read(fs, NULL, &idle, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		goto out;
	}
	int *group_of = malloc((size_t)(idle.ncpus ? idle.ncpus : 1) * sizeof(int));
	if (!group_of) {
		rc = EXIT_FAIL;
		goto out;
	}
	int ngroups = ik__host_fold(&idle, group_of);
	free(group_of);
	int ref = -1;
	for (int i = 0; i < idle.ncpus && ref < 0; i++) {
		const struct ik_host_cpu *h = &idle.cpus[i];
		if (cpu >= 0 ? h->cpu == cpu : (h->online && h->nstates > 0))
			ref = i;
	}
	if (cpu >= 0 && ref < 0) {
		fprintf(stderr, "idlekit %s: --cpu %ld: not present in %s\n", cmd, cpu,
			ik__sysfs_origin(fs));
		goto out;
	}
	if (ref < 0 || idle.cpus[ref].nstates == 0) {
		fprintf(stderr, "idlekit %s: %s: no idle states to import (cpuidle driver: %s); a "
			"platform needs at least one\n", cmd, ik__sysfs_origin(fs), idle.driver);
		rc = EXIT_FAIL;
		goto out;
	}
	if (!name_opt)
		default_name(src, name, sizeof(name));
	/* The live machine: also its CPU and what its kernel runs (a copy has no CPUID). */
	struct ik_host_machine machine, *m = NULL;
	bool live = !src->dump && (!src->root || strcmp(src->root, "/") == 0);
	if (live) {
		if (ik__host_machine_read("/", &machine, err, sizeof(err))) {
			fprintf(stderr, "idlekit %s: %s\n", cmd, err);
			rc = EXIT_FAIL;
			goto out;
		}
		m = &machine;
	}
	text = make_platform(fs, &idle, ref, ngroups, name, m, NULL);
	char why[IK_ERR_LEN];
	if (text && m && driver_fails(text, why, sizeof(why))) {
		free(text);
		text = make_platform(fs, &idle, ref, ngroups, name, m, why);
	}
	rc = EXIT_FAIL;
	if (!text)
		goto out;

	/* What we write must be what sim accepts: check it before it replaces anything. */
	struct ik_platform *p = malloc(sizeof(*p));
	char perr[IK_ERR_LEN];
	if (!p || ik__platform_parse_string("imported platform", text, p, perr, sizeof(perr))) {
		fprintf(stderr, "idlekit %s: internal error, the platform made does not parse: %s\n",
			cmd, p ? perr : "out of memory");
		free(p);
		free(text);
		goto out;
	}
	free(p);
	*out = text;
	rc = EXIT_OK;
out:
	ik__host_idle_free(&idle);
	ik__sysfs_close(fs);
	return rc;
}

int cmd_platform_import(int argc, char **argv)
{
	enum { OPT_CPU = 256, OPT_NAME, OPT_CALIBRATE };
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "calibrate", no_argument, NULL, OPT_CALIBRATE },
		CLI_OPTION_OUTPUT,
		HOST_SOURCE_OPTIONS,
		CLI_OPTIONS_END,
	};
	struct host_source src = { NULL, NULL };
	const char *name_opt = NULL;
	long cpu = -1;
	struct cli_opts opt = { .cmd = "platform import", .usage = import_usage, .shortopts = "ho:",
				.longopts = opts, .no_args = true };
	int c;

	/* --calibrate: the import and the measurements, `platform calibrate`'s job */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--calibrate") == 0)
			return cmd_platform_calibrate(argc, argv);
	while ((c = cli_getopt(&opt, argc, argv)) != -1) {
		switch (c) {
		case OPT_CPU:
			if (host_long_arg("platform import", "--cpu", optarg, 0, IK_HOST_CPU_MAX - 1, &cpu))
				return EXIT_USAGE;
			break;
		case OPT_NAME:
			name_opt = optarg;
			break;
		default: /* --sysfs-root, --sysfs-dump */
			host_source_opt(c, optarg, &src);
		}
	}
	if (opt.done)
		return opt.status;
	const char *outpath = opt.output;
	if (cli_output_check("platform import", outpath))
		return EXIT_USAGE;
	char *text;
	int rc = cli_platform_import_text(&src, cpu, name_opt, "platform import", &text);
	if (rc != EXIT_OK)
		return rc;
	struct cli_output o;
	rc = EXIT_FAIL;
	if (cli_output_open(&o, outpath) == 0) {
		fputs(text, o.fp);
		rc = cli_output_close(&o, 1) == 0 ? EXIT_OK : EXIT_FAIL;
	}
	free(text);
	return rc;
}
