/*
 * The CPU latency limit of PM QoS, held through /dev/cpu_dma_latency: whoever keeps the
 * device open with a value written keeps that limit in force; the kernel obeys the smallest
 * of all such values, and forgets one when its descriptor is closed (also when the process
 * dies, so nothing is ever left behind).  The value is a binary s32 in microseconds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host/host.h"
#include "util/errmsg.h"

int ik__pmqos_open(struct ik_pmqos *q, const char *path, char *err, size_t errlen)
{
	q->fd = -1;
	q->latency_us = -1;
	snprintf(q->path, sizeof(q->path), "%s", path ? path : IK_PMQOS_DEV);
	/* Close-on-exec: a command run meanwhile must not hold the limit after we drop it. */
	int fd = open(q->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		if (err && errlen) {
			if (e == EACCES || e == EPERM || e == EROFS)
				snprintf(err, errlen, "needs root (write access to %s): %s", q->path,
					 strerror(e));
			else
				snprintf(err, errlen, "%s: cannot open for writing: %s", q->path,
					 strerror(e));
		}
		return -1;
	}
	q->fd = fd;
	return 0;
}

int ik__pmqos_set(struct ik_pmqos *q, int32_t latency_us, char *err, size_t errlen)
{
	if (q->fd < 0 || latency_us < 0)
		return ik__errmsg(err, errlen, "%s: %s", q->path,
				  q->fd < 0 ? "not open" : "a latency limit cannot be negative");
	/* One write of the whole s32 at offset 0 (a stand-in regular file gets it there too). */
	ssize_t n = pwrite(q->fd, &latency_us, sizeof(latency_us), 0);
	if (n < 0 && errno == ESPIPE)
		n = write(q->fd, &latency_us, sizeof(latency_us));
	if (n != (ssize_t)sizeof(latency_us))
		return ik__errmsg(err, errlen, "%s: cannot write the latency limit: %s", q->path,
				  n < 0 ? strerror(errno) : "short write");
	q->latency_us = latency_us;
	return 0;
}

void ik__pmqos_close(struct ik_pmqos *q)
{
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	q->latency_us = -1;
}

int ik__pmqos_read(const char *path, int32_t *latency_us, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ik__errmsg(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	int32_t v;
	ssize_t n = read(fd, &v, sizeof(v));
	close(fd);
	if (n != (ssize_t)sizeof(v))
		return ik__errmsg(err, errlen, "%s: expected a 4-byte value, %s", path,
				  n < 0 ? strerror(errno) : "got fewer bytes");
	*latency_us = v;
	return 0;
}
