/*
 * Fuzz target: kernel release names ("6.12", "5.10.7") and switch flips ("NAME=on").
 * Parsing must never crash; a release that parses must print (ik_kernel_release_name) as
 * a name that parses to the same release; a failed parse leaves a message listing the
 * known releases.  The second half of the input, up to '=', is flipped as a switch.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	char err[1400], name[16];
	unsigned r1, r2;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char *flip = memchr(text, '\n', size);
	if (flip)
		*flip++ = '\0';
	if (ik_kernel_parse_release(text, &r1, err, sizeof(err)) == 0) {
		ik_kernel_release_name(r1, name, sizeof(name));
		if (ik_kernel_parse_release(name, &r2, err, sizeof(err)) != 0 || r1 != r2)
			abort();
	} else if (!strstr(err, "known releases: ")) {
		abort();
	}
	if (flip) {
		struct ik_kernel k;
		char *eq = strchr(flip, '=');
		ik_kernel_init(&k, IK_KERNEL_DEFAULT_RELEASE);
		if (eq) {
			*eq = '\0';
			if (ik_kernel_flip(&k, flip, eq + 1, err, sizeof(err)) == 0) {
				char desc[1024];
				ik_kernel_describe(&k, desc, sizeof(desc));
				(void)ik_kernel_check(&k, "menu", err, sizeof(err));
			}
		}
	}
	free(text);
	return 0;
}
