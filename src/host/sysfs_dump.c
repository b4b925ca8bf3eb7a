/*
 * Writing a cpu tree's cpuidle files as a dump, in the format ik__sysfs_open_dump reads (the
 * one pepc writes): one line per file, 'rw|/sys/devices/system/cpu/REL|value' ('ro|' for a
 * read-only file), sorted by path, each ending in a newline.  `idlekit info --dump` uses it
 * so that a machine can be sent to a colleague as one text file.
 *
 * What is written: the CPU lists (online, present, possible, offline), everything under
 * cpuidle/ (driver, governor), and per CPU everything under cpuN/cache/, cpuN/cpuidle/ (the
 * states, their counters, s2idle) and cpuN/topology/ (platform import reads the caches and
 * the topology; topology/ also keeps a CPU without cpuidle in the dump), and cpuN/online.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host/host.h"

#define CPU_DIR "/sys/devices/system/cpu"

struct names {
	char **v;
	size_t n, cap;
	int oom;
};

static int collect(const char *name, void *arg)
{
	struct names *ns = arg;
	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? ns->cap * 2 : 64;
		char **v = realloc(ns->v, cap * sizeof(*v));
		if (!v) {
			ns->oom = 1;
			return 1;
		}
		ns->v = v;
		ns->cap = cap;
	}
	if (!(ns->v[ns->n] = strdup(name))) {
		ns->oom = 1;
		return 1;
	}
	ns->n++;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_free(struct names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
}

struct writer {
	const struct ik_sysfs *fs;
	FILE *out;
	int skipped; /* files that could not be read */
	char *err;
	size_t errlen;
};

static int write_file(struct writer *w, const char *rel)
{
	char value[4096], msg[IK_HOST_ERR_LEN] = "";
	int r = ik__sysfs_read(w->fs, rel, value, sizeof(value), msg, sizeof(msg));
	if (r != IK_SYSFS_OK) {
		w->skipped++; /* write-only or root-only files of a live tree */
		return 0;
	}
	for (char *p = value; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' '; /* one line per file */
	fprintf(w->out, "%s|%s/%s|%s\n", ik__sysfs_writable(w->fs, rel) ? "rw" : "ro", CPU_DIR,
		rel, value);
	return 0;
}

/* REL and everything below it, in sorted order. */
static int write_tree(struct writer *w, const char *rel)
{
	if (!ik__sysfs_is_dir(w->fs, rel))
		return write_file(w, rel);
	struct names ns = { 0 };
	int r = ik__sysfs_list(w->fs, rel, collect, &ns, w->err, w->errlen);
	if (ns.oom) {
		snprintf(w->err, w->errlen, "out of memory listing %s/%s", CPU_DIR, rel);
		names_free(&ns);
		return -1;
	}
	if (r == IK_SYSFS_ERROR) {
		names_free(&ns);
		return -1;
	}
	qsort(ns.v, ns.n, sizeof(*ns.v), name_cmp);
	int rc = 0;
	for (size_t i = 0; i < ns.n && rc == 0; i++) {
		char child[4096];
		if (snprintf(child, sizeof(child), "%s/%s", rel, ns.v[i]) >= (int)sizeof(child))
			continue;
		rc = write_tree(w, child);
	}
	names_free(&ns);
	return rc;
}

static int is_cpu_dir(const char *name)
{
	return strncmp(name, "cpu", 3) == 0 && name[3] && strspn(name + 3, "0123456789") ==
	       strlen(name + 3);
}

int ik__sysfs_write_dump(const struct ik_sysfs *fs, FILE *out, int *skipped, char *err,
			size_t errlen)
{
	struct writer w = { fs, out, 0, err, errlen };
	struct names top = { 0 };

	if (err && errlen)
		err[0] = '\0';
	int r = ik__sysfs_list(fs, "", collect, &top, err, errlen);
	if (top.oom || r == IK_SYSFS_ERROR || r == IK_SYSFS_MISSING) {
		if (top.oom || (r == IK_SYSFS_MISSING && err && errlen))
			snprintf(err, errlen, "%s: %s", ik__sysfs_origin(fs),
				 top.oom ? "out of memory" : "empty");
		names_free(&top);
		return -1;
	}
	/* The CPUs a reader sees are the 'present' list and the cpuN directories together; a
	   cpuN with none of the files written would vanish.  Unless a 'present' file lists
	   exactly those CPUs, write the list they make instead, marked as such. */
	struct ik_cpuset cpus, online;
	bool present_listed = false, keep_present = false;
	for (size_t i = 0; i < top.n; i++)
		present_listed |= !strcmp(top.v[i], "present");
	bool known = ik__host_cpus(fs, &cpus, &online, NULL, 0) == 0;
	if (present_listed && !ik__sysfs_is_dir(fs, "present")) {
		char v[8192];
		struct ik_cpuset listed;
		keep_present = !known; /* unreadable as a list: leave it as it is */
		if (known && ik__sysfs_read(fs, "present", v, sizeof(v), NULL, 0) == IK_SYSFS_OK &&
		    ik__cpulist_parse(v, IK_HOST_CPU_MAX, true, &listed, NULL, 0) == 0)
			keep_present = ik__cpuset_equal(&listed, &cpus);
	}
	if (!known)
		ik__cpuset_clear(&cpus);
	if (!present_listed && ik__cpuset_count(&cpus) && collect("present", &top)) {
		snprintf(err, errlen, "out of memory");
		names_free(&top);
		return -1;
	}
	qsort(top.v, top.n, sizeof(*top.v), name_cmp);
	fprintf(out, "# cpuidle sysfs of %s, written by idlekit info --dump\n", ik__sysfs_origin(fs));
	int rc = 0;
	for (size_t i = 0; i < top.n && rc == 0; i++) {
		const char *name = top.v[i];
		char rel[4096];
		if (!strcmp(name, "present") && !keep_present) {
			if (!ik__cpuset_count(&cpus))
				continue;
			char list[8192];
			ik__cpuset_format(&cpus, list, sizeof(list));
			fprintf(out, "# %s 'present' file in %s: the list of its CPUs and cpuN "
				     "directories\n" "ro|%s/present|%s\n", present_listed ?
				     "an incomplete or unreadable" : "no", ik__sysfs_origin(fs), CPU_DIR, list);
		} else if (!strcmp(name, "online") || !strcmp(name, "present") || !strcmp(name, "possible") ||
		    !strcmp(name, "offline") || !strcmp(name, "cpuidle")) {
			rc = write_tree(&w, name);
		} else if (is_cpu_dir(name) && ik__sysfs_is_dir(fs, name)) {
			/* in the order of their paths */
			static const char *const parts[] = { "cache", "cpuidle", "online", "topology" };
			for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]) && rc == 0; k++) {
				snprintf(rel, sizeof(rel), "%s/%s", name, parts[k]);
				if (ik__sysfs_is_dir(fs, rel)) {
					rc = write_tree(&w, rel);
				} else {
					char v[64];
					if (ik__sysfs_read(fs, rel, v, sizeof(v), NULL, 0) != IK_SYSFS_MISSING)
						rc = write_file(&w, rel);
				}
			}
		}
	}
	names_free(&top);
	if (skipped)
		*skipped = w.skipped;
	return rc;
}
