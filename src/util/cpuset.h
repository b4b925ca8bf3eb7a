/*
 * CPU sets, and the kernel's CPU list format ("0-3,8,10-11") that sysfs files such as
 * 'online' and 'present' use, that trace headers and ipi_send_cpumask events carry and that
 * users type after --cpu (src/util/cpuset.c).  Here, below trace and host, because both
 * read CPU lists and neither should need the other for it.
 *
 * host/host.h includes this header: the machine's API (present and online CPUs, the CPUs
 * a command may use) is written in these sets.
 */
#ifndef IDLEKIT_UTIL_CPUSET_H
#define IDLEKIT_UTIL_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IK_CPUSET_MAX 8192 /* the kernel's largest NR_CPUS on x86 */

struct ik_cpuset {
	uint64_t bits[IK_CPUSET_MAX / 64];
};

void ik__cpuset_clear(struct ik_cpuset *s);
void ik__cpuset_add(struct ik_cpuset *s, int cpu); /* ignored outside 0..IK_CPUSET_MAX-1 */
void ik__cpuset_remove(struct ik_cpuset *s, int cpu);
bool ik__cpuset_has(const struct ik_cpuset *s, int cpu);
int ik__cpuset_count(const struct ik_cpuset *s);
/* The first CPU in s greater than `after` (pass -1 to start), or -1. */
int ik__cpuset_next(const struct ik_cpuset *s, int after);
bool ik__cpuset_equal(const struct ik_cpuset *a, const struct ik_cpuset *b);
void ik__cpuset_and(struct ik_cpuset *into, const struct ik_cpuset *other);
void ik__cpuset_andnot(struct ik_cpuset *into, const struct ik_cpuset *other);
void ik__cpuset_or(struct ik_cpuset *into, const struct ik_cpuset *other);
/*
 * The kernel's list format ("0-3,8,10-11"; "" for the empty set) into buf, truncated to
 * fit; returns the length the whole list needs, as snprintf does.
 */
size_t ik__cpuset_format(const struct ik_cpuset *s, char *buf, size_t len);
/*
 * Parse a CPU list: comma-separated numbers and ranges "A-B" (A <= B), spaces around items
 * and a trailing newline allowed.  Every CPU must be below `limit` (at most
 * IK_CPUSET_MAX).  With allow_empty, "" is the empty set (sysfs 'offline' often is).
 * 0, or -1 with "CPU list '...': what was wrong" in err.
 */
int ik__cpulist_parse(const char *text, int limit, bool allow_empty, struct ik_cpuset *out,
		     char *err, size_t errlen);

#endif
