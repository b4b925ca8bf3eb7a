/*
 * A whole file into memory: a regular file only (a FIFO, device or directory named by
 * mistake is refused before anything is read, and opening never blocks), within a size
 * bound checked before reading and again while reading.  The reader every file-reading
 * place shares; each words its own messages from the reason given.
 */
#ifndef IDLEKIT_UTIL_READ_FILE_H
#define IDLEKIT_UTIL_READ_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum ik_read_why {
	IK_READ_OPEN,	     /* open or fstat failed: errnum */
	IK_READ_NOT_REGULAR, /* a directory, FIFO, device or socket: mode */
	IK_READ_TOO_LARGE,   /* over the bound: size (-1 when it grew while read) */
	IK_READ_NO_MEMORY,
	IK_READ_READ,	     /* read failed: errnum */
};
struct ik_read_failure {
	enum ik_read_why why;
	int errnum;
	mode_t mode;
	int64_t size;
};

/* 0 with the bytes in *buf (malloc'd, a NUL after the last, not counted in *len); or -1
   with why filled and *buf NULL. */
int ik__read_file_whole(const char *path, size_t max_bytes, char **buf, size_t *len,
			struct ik_read_failure *why);

#endif
