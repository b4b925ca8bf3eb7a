/* A whole read or write on a descriptor (util/fd_io.h). */
#include <errno.h>
#include <unistd.h>

#include "util/fd_io.h"

int ik__fd_whole(int fd, bool writing, void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t n = writing ? write(fd, p, len) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return EIO; /* the other end is gone before the whole of it */
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
