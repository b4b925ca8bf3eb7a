/*
 * A sweep folder is written by one sweep at a time (sweep.h, ik__sweep_lock): two sweeps
 * into one folder would both run every point into one rows file and leave it so that a
 * rerun fails.  The lock is an advisory flock(2) on FOLDER/.lock, held until the process
 * ends (the kernel drops it then, also after a crash or SIGKILL); the file holds the pid,
 * for the message the second sweep gives.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sweep/sweep.h"
#include "util/errmsg.h"

int ik__sweep_lock(const char *dir, char *err, size_t errlen)
{
	char path[4096], pid[32] = "";
	int n = snprintf(path, sizeof(path), "%s/.lock", dir);

	if (n < 0 || (size_t)n >= sizeof(path))
		return ik__errmsg(err, errlen, "%s: path too long", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return ik__errmsg(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;
		ssize_t k = read(fd, pid, sizeof(pid) - 1);
		pid[k > 0 ? k : 0] = '\0';
		pid[strcspn(pid, "\n")] = '\0';
		close(fd);
		if (e == EWOULDBLOCK)
			snprintf(err, errlen, "%s: another sweep is writing this folder (pid %s): wait for "
				 "it to end, or give another folder", dir, pid[0] ? pid : "?");
		else
			snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(e));
		return -1;
	}
	char mine[32];
	int m = snprintf(mine, sizeof(mine), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, mine, (size_t)m, 0) != m) {
		/* the lock holds without the pid; the message would only lack it */
	}
	return fd; /* kept open: the lock lasts as long as the process */
}
