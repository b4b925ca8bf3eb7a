/*
 * The spill's file when its user says where: `idlekit record` keeps its spool beside the
 * trace it will write (so a full disk there shows during the recording, and the temporary
 * is on the output's file system), where the import's spill takes tmpfile() at its first
 * chunk (import_spill.c).  The file is made now, so a folder that takes no file is said at
 * once, and unlinked at once, so nothing is left behind whatever happens.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/import_internal.h"
#include "util/errmsg.h"

int ik__import_spill_init_in(struct ik_import_spill *s, const char *dir, const char *prefix,
			    char *err, size_t errlen)
{
	char path[4200];
	if (ik__import_spill_init(s))
		return ik__errmsg(err, errlen, "out of memory");
	snprintf(path, sizeof(path), "%s/%s-XXXXXX", dir, prefix);
	int fd = mkstemp(path);
	if (fd < 0 || unlink(path) != 0 || !(s->f = fdopen(fd, "w+"))) {
		snprintf(err, errlen, "%.300s: cannot create a temporary file: %s", dir, strerror(errno));
		if (fd >= 0 && !s->f)
			close(fd);
		ik__import_spill_free(s);
		return -1;
	}
	return 0;
}
