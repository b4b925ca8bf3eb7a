/*
 * A failure's message: printf-style into the caller's buffer, for the functions that
 * answer 0 or -1 with the reason in (err, errlen).
 */
#ifndef IDLEKIT_UTIL_ERRMSG_H
#define IDLEKIT_UTIL_ERRMSG_H

#include <stddef.h>

/* -1, the message written into err when err is not NULL and errlen is not 0. */
int ik__errmsg(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The message made one printable line: each control byte (a newline or tab quoted from the
   input, a name read from a file) becomes '?'.  ik__errmsg does it to what it writes. */
void ik__errmsg_one_line(char *err);

#endif
