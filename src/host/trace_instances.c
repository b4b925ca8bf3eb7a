/*
 * tracefs instances left behind by a killed `idlekit record`.
 *
 * record names its instance idlekit-record-PID.  If that process was killed (SIGKILL, a
 * crash) the instance stays: per-CPU ring buffers (16 MiB each by default) with events
 * enabled, until someone removes it.  An instance whose PID is no longer an idlekit process
 * is such a leftover; removing it is rmdir(2) of its directory, which tracefs allows for an
 * instance whatever files it holds.
 *
 * A recording in another PID namespace that shares this tracefs cannot be told from a dead
 * one by its PID; such set-ups are rare (containers do not usually share tracefs) and are
 * documented in docs/host.md.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/host.h"
#include "util/errmsg.h"

#define PREFIX "idlekit-record-"

/* Whether PID is a running idlekit (its comm); unknown counts as running. */
static bool idlekit_running(long pid)
{
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return false;
	char path[64], comm[64] = "";
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return true; /* no /proc to ask: assume it is ours and alive */
	bool ours = fgets(comm, sizeof(comm), f) && strncmp(comm, "idlekit", 7) == 0;
	fclose(f);
	return ours;
}

int ik__trace_instances_stale(const char *tracing_dir, bool remove, struct ik_stale_instance *out,
			     int max, char *err, size_t errlen)
{
	char dir[4096];
	if (snprintf(dir, sizeof(dir), "%s/instances", tracing_dir) >= (int)sizeof(dir))
		return ik__errmsg(err, errlen, "%s: path too long", tracing_dir);
	DIR *d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0; /* no instances at all */
		return ik__errmsg(err, errlen, "%s: cannot list: %s", dir, strerror(errno));
	}
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)) && n < max) {
		const char *p = de->d_name;
		if (strncmp(p, PREFIX, sizeof(PREFIX) - 1) != 0)
			continue;
		p += sizeof(PREFIX) - 1;
		char *end;
		errno = 0;
		long pid = strtol(p, &end, 10);
		if (errno || end == p || *end || pid <= 0 || p[0] == '0')
			continue; /* not a name record gives */
		if (pid == (long)getpid() || idlekit_running(pid))
			continue;
		struct ik_stale_instance *s = &out[n++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", de->d_name);
		snprintf(s->path, sizeof(s->path), "%.3800s/%s", dir, de->d_name);
		s->pid = pid;
		if (remove) {
			if (rmdir(s->path) == 0)
				s->removed = true;
			else
				s->error = errno;
		}
	}
	closedir(d);
	return n;
}
