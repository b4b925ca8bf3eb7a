/* A whole file into memory (util/read_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/read_file.h"

static int failed(int fd, char *buf, struct ik_read_failure *why, enum ik_read_why what,
		  int errnum)
{
	if (fd >= 0)
		close(fd);
	free(buf);
	why->why = what;
	why->errnum = errnum;
	return -1;
}

int ik__read_file_whole(const char *path, size_t max_bytes, char **out, size_t *len_out,
			struct ik_read_failure *why)
{
	struct stat st;
	*out = NULL;
	*len_out = 0;
	why->errnum = 0;
	why->mode = 0;
	why->size = -1;
	/* O_NONBLOCK: a FIFO must not hang the open; only a regular file is read */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return failed(-1, NULL, why, IK_READ_OPEN, errno);
	if (fstat(fd, &st) != 0)
		return failed(fd, NULL, why, IK_READ_OPEN, errno ? errno : EIO);
	why->mode = st.st_mode;
	if (!S_ISREG(st.st_mode))
		return failed(fd, NULL, why, IK_READ_NOT_REGULAR, 0);
	if ((uint64_t)st.st_size > max_bytes) { /* refused before anything is read */
		why->size = (int64_t)st.st_size;
		return failed(fd, NULL, why, IK_READ_TOO_LARGE, 0);
	}
	size_t cap = st.st_size > 0 && (uint64_t)st.st_size < max_bytes ? (size_t)st.st_size + 2 : 4096;
	size_t len = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (!buf)
			return failed(fd, NULL, why, IK_READ_NO_MEMORY, 0);
		if (len + 1 >= cap) { /* room for the NUL kept */
			char *bigger = realloc(buf, cap * 2);
			if (!bigger)
				return failed(fd, buf, why, IK_READ_NO_MEMORY, 0);
			buf = bigger;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return failed(fd, buf, why, IK_READ_READ, errno);
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max_bytes) /* it grew while read */
			return failed(fd, buf, why, IK_READ_TOO_LARGE, 0);
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	*len_out = len;
	return 0;
}
