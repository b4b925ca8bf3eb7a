/* A whole read or write of a few bytes on a descriptor (util/fd_io.h). */
#include <errno.h>
#include <unistd.h>

#include "util/fd_io.h"

int ik_fd_whole(int fd, bool writing, void *buf, size_t len)
{
	ssize_t n;
	do
		n = writing ? write(fd, buf, len) : read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno;
	return (size_t)n == len ? 0 : EIO;
}
