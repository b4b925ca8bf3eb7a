/*
 * A whole read or write of a few bytes on a descriptor (a pipe's byte, an eventfd's count),
 * tried again after a signal: the wake-up handshakes of the host benchmarks, where a short
 * transfer is as much an error as a failed one.
 */
#ifndef IDLEKIT_UTIL_FD_IO_H
#define IDLEKIT_UTIL_FD_IO_H

#include <stdbool.h>
#include <stddef.h>

/* LEN bytes to (writing) or from fd: 0, or the errno (EIO for a short transfer). */
int ik_fd_whole(int fd, bool writing, void *buf, size_t len);

#endif
