/* Input files opened safely: a FIFO or a directory named by mistake gets an error, not a hang. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* An open descriptor of PATH if it is a regular file; -1 with the message printed (and
 * *missing set when PATH does not exist, the message then left to the caller). */
static int open_regular(const char *cmd, const char *path, int *missing)
{
	*missing = 0;
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT) {
			*missing = 1;
			return -1;
		}
		fprintf(stderr, "idlekit %s: %s: cannot open: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	struct stat st;
	const char *what = NULL;
	if (fstat(fd, &st) != 0)
		what = strerror(errno);
	else if (S_ISDIR(st.st_mode))
		what = "is a directory; expected a file";
	else if (S_ISFIFO(st.st_mode))
		what = "is a FIFO; expected a regular file";
	else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		what = "is a device; expected a regular file";
	else if (!S_ISREG(st.st_mode))
		what = "not a regular file";
	if (what) {
		fprintf(stderr, "idlekit %s: %s: %s\n", cmd, path, what);
		close(fd);
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int cli_input_check(const char *cmd, const char *path)
{
	int missing;
	int fd = open_regular(cmd, path, &missing);
	if (fd < 0)
		return missing ? 0 : EXIT_USAGE;
	close(fd);
	return 0;
}

FILE *cli_input_fopen(const char *cmd, const char *path, int *rc_out)
{
	int missing;
	int fd = open_regular(cmd, path, &missing);
	if (fd < 0) {
		if (missing)
			fprintf(stderr, "idlekit %s: %s: cannot open: %s\n", cmd, path,
				strerror(ENOENT));
		*rc_out = EXIT_USAGE;
		return NULL;
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		fprintf(stderr, "idlekit %s: %s: %s\n", cmd, path, strerror(errno));
		close(fd);
		*rc_out = EXIT_FAIL;
	}
	return f;
}

FILE *cli_input_open(const char *cmd, const char *path, int *rc_out)
{
	return strcmp(path, "-") == 0 ? stdin : cli_input_fopen(cmd, path, rc_out);
}

void cli_input_close(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}
