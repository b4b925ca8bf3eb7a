/*
 * The machine as a platform file needs it beyond sysfs's idle-state table: the CPU as CPUID
 * describes it (what the kernel's idle drivers test: vendor, MONITOR/MWAIT, ARAT, whether
 * it runs under a hypervisor and which, KVM's dedicated-vCPU hint) and the module
 * parameters that decide which driver and governor a KVM guest runs and how it polls
 * (cpuidle_haltpoll.force, /sys/module/haltpoll/parameters).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "host/calibrate.h"
#include "util/errmsg.h"

/* A one-line file's text, without its newline: 1 read, 0 missing, -1 unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 1;
}

static int read_param_u64(const char *dir, const char *name, uint64_t *out, char *err,
			  size_t errlen)
{
	char path[4200], buf[64], *end;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int rc = read_line(path, buf, sizeof(buf));
	if (rc <= 0)
		return ik__errmsg(err, errlen, "%s: cannot read", path);
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (!buf[0] || *end || errno)
		return ik__errmsg(err, errlen, "%s: expected an unsigned integer, got '%.40s'",
				  path, buf);
	*out = v;
	return 0;
}

/* "Y"/"N" (the kernel's bool parameters), also "1"/"0". */
static int read_param_bool(const char *path, int *out, char *err, size_t errlen)
{
	char buf[16];
	int rc = read_line(path, buf, sizeof(buf));
	if (rc == 0) {
		*out = -1;
		return 0;
	}
	if (rc < 0 || (strcmp(buf, "Y") && strcmp(buf, "N") && strcmp(buf, "1") && strcmp(buf, "0")))
		return ik__errmsg(err, errlen, "%s: expected Y or N, got '%.10s'", path,
				  rc < 0 ? "" : buf);
	*out = buf[0] == 'Y' || buf[0] == '1';
	return 0;
}

static void read_cpuid(struct ik_host_machine *m)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	unsigned max = a;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	snprintf(m->vendor, sizeof(m->vendor), "%s",
		 strcmp(vendor, "GenuineIntel") == 0 ? "intel" :
		 strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0 ? "amd" :
		 "other");
	__cpuid(1, a, b, c, d);
	/* the display family and model, as the kernel computes them (x86_family, x86_model) */
	int family = (int)((a >> 8) & 0xf), model = (int)((a >> 4) & 0xf);
	if (family == 0xf)
		family += (int)((a >> 20) & 0xff);
	if (family >= 6)
		model += (int)((a >> 16) & 0xf) << 4;
	m->family = family;
	m->model = model;
	m->mwait = (c >> 3) & 1;
	m->hypervisor = (c >> 31) & 1;
	if (max >= 6) {
		__cpuid(6, a, b, c, d);
		m->arat = (a >> 2) & 1;
	}
	if (m->hypervisor) {
		/* the hypervisor leaves: its signature, then KVM's feature and hint bits */
		__cpuid(0x40000000, a, b, c, d);
		char sig[13];
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &c, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = '\0';
		m->kvm = memcmp(sig, "KVMKVMKVM", 9) == 0; /* padded with NULs to 12 */
		if (m->kvm && a >= 0x40000001) {
			__cpuid(0x40000001, a, b, c, d);
			m->kvm_hint_realtime = d & 1;
		}
	}
	m->have_cpuid = true;
#else
	(void)m;
#endif
}

int ik__host_machine_read(const char *root, struct ik_host_machine *m, char *err, size_t errlen)
{
	char dir[4096], path[4200];
	bool live = !root || strcmp(root, "/") == 0;

	memset(m, 0, sizeof(*m));
	m->haltpoll_force = -1;
	if (!root || strcmp(root, "/") == 0)
		root = "";
	if (live)
		read_cpuid(m);

	snprintf(path, sizeof(path), "%s/sys/module/cpuidle_haltpoll/parameters/force", root);
	if (read_param_bool(path, &m->haltpoll_force, err, errlen))
		return -1;

	snprintf(dir, sizeof(dir), "%s/sys/module/haltpoll/parameters", root);
	snprintf(path, sizeof(path), "%s/guest_halt_poll_ns", dir);
	char buf[16];
	if (read_line(path, buf, sizeof(buf)) == 0)
		return 0; /* no haltpoll governor here */
	if (read_param_u64(dir, "guest_halt_poll_ns", &m->guest_halt_poll_ns, err, errlen) ||
	    read_param_u64(dir, "guest_halt_poll_shrink", &m->guest_halt_poll_shrink, err, errlen) ||
	    read_param_u64(dir, "guest_halt_poll_grow", &m->guest_halt_poll_grow, err, errlen) ||
	    read_param_u64(dir, "guest_halt_poll_grow_start", &m->guest_halt_poll_grow_start, err,
			   errlen))
		return -1;
	int allow;
	snprintf(path, sizeof(path), "%s/guest_halt_poll_allow_shrink", dir);
	if (read_param_bool(path, &allow, err, errlen))
		return -1;
	m->guest_halt_poll_allow_shrink = allow != 0; /* missing: the kernel's default, Y */
	m->have_haltpoll = true;
	return 0;
}
