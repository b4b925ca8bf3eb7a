/* A failure's message (util/errmsg.h). */
#include <stdarg.h>
#include <stdio.h>

#include "util/errmsg.h"

int ik__errmsg(char *err, size_t errlen, const char *fmt, ...)
{
	if (err && errlen) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
		ik__errmsg_one_line(err);
	}
	return -1;
}

void ik__errmsg_one_line(char *err)
{
	for (char *c = err; c && *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}
