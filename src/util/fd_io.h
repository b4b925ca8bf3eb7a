/*
 * A whole read or write on a descriptor, tried again after a signal and continued after a
 * partial transfer: the wake-up handshakes of the host benchmarks (a pipe's byte, an
 * eventfd's count) and the records a trace.dat reader sends back through a pipe.
 */
#ifndef IDLEKIT_UTIL_FD_IO_H
#define IDLEKIT_UTIL_FD_IO_H

#include <stdbool.h>
#include <stddef.h>

/* LEN bytes to (writing) or from fd: 0, or the errno (EIO when the other end closes
   before all of them). */
int ik__fd_whole(int fd, bool writing, void *buf, size_t len);

#endif
