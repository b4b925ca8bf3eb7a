/* Output files written whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

int cli_output_open(struct cli_output *o, const char *path)
{
	o->path = path;
	if (!path) {
		o->fp = stdout;
		return 0;
	}
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%ld", path, (long)getpid());
	o->fp = fopen(o->tmp, "w");
	if (!o->fp) {
		fprintf(stderr, "idlekit: %s: cannot create: %s\n", o->tmp, strerror(errno));
		return -1;
	}
	return 0;
}

int cli_output_close(struct cli_output *o, int ok)
{
	if (!o->path) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "idlekit: writing standard output: %s\n", strerror(errno));
			return -1;
		}
		return ok ? 0 : -1;
	}
	int bad = ferror(o->fp);
	if (fclose(o->fp) != 0)
		bad = 1;
	if (!ok || bad) {
		if (bad)
			fprintf(stderr, "idlekit: %s: write failed: %s\n", o->tmp, strerror(errno));
		unlink(o->tmp);
		return -1;
	}
	if (rename(o->tmp, o->path) != 0) {
		fprintf(stderr, "idlekit: %s: cannot rename into place: %s\n", o->path,
			strerror(errno));
		unlink(o->tmp);
		return -1;
	}
	return 0;
}
