/* Option values shared by the commands. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

int cli_parse_u64(const char *cmd, const char *opt, const char *text, uint64_t max, uint64_t *out)
{
	return cli_parse_range(cmd, opt, text, 0, max, out);
}

int cli_parse_range(const char *cmd, const char *opt, const char *text, uint64_t min, uint64_t max,
		    uint64_t *out)
{
	char *end;

	errno = 0;
	if (text[0] < '0' || text[0] > '9')
		goto bad;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || *end || v < min || v > max)
		goto bad;
	*out = v;
	return 0;
bad:
	fprintf(stderr, "idlekit %s: %s: expected an integer %" PRIu64 "..%" PRIu64 ", got '%s'\n",
		cmd, opt, min, max, text);
	return -1;
}
