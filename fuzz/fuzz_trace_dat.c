/*
 * Fuzz target: the trace.dat structure check (src/trace/dat_check.c) that `idlekit import
 * trace-dat` runs before libtracecmd sees a file.  The input is a whole trace.dat; it must
 * never crash, hang, leak or read out of bounds, and:
 *   - the memory source and the file-descriptor source (pread on a memfd) agree on the
 *     outcome and on the message;
 *   - a refusal's message starts with the offset it is about ("offset N, ...");
 *   - an accepted file has version 6 or 7, a long size of 4 or 8, a power-of-two page
 *     size, no more CPUs than IK_DAT_MAX_COUNT and at least one buffer when v7.
 * The corpus (fuzz/corpus/fuzz_trace_dat) holds the committed trace.dat fixtures of
 * tests/fixtures/traces (v7, zstd), their v6 conversion and small cut copies.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/dat_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ik_dat_src mem, fd;
	struct ik_dat_info a, b;
	char e1[320] = "", e2[320] = "";

	if (size > (4u << 20))
		return 0;
	ik__dat_src_mem(&mem, data, size);
	int r1 = ik__dat_check(&mem, &a, e1, sizeof(e1));

	int mfd = memfd_create("fuzz_trace_dat", MFD_CLOEXEC);
	if (mfd < 0)
		abort();
	if (size && write(mfd, data, size) != (ssize_t)size)
		abort();
	if (ik__dat_src_fd(&fd, mfd))
		abort();
	int r2 = ik__dat_check(&fd, &b, e2, sizeof(e2));
	close(mfd);

	if (r1 != r2 || strcmp(e1, e2) != 0)
		abort();
	if (r1 != 0) {
		unsigned long long off;
		if (sscanf(e1, "offset %llu", &off) != 1)
			abort();
		return 0;
	}
	if (memcmp(&a, &b, sizeof(a)) != 0)
		abort();
	if ((a.version != 6 && a.version != 7) || (a.long_size != 4 && a.long_size != 8))
		abort();
	if (a.page_size < 512 || (a.page_size & (a.page_size - 1)))
		abort();
	if (a.cpus > IK_DAT_MAX_COUNT || (a.version == 7 && a.buffers < 1))
		abort();
	return 0;
}
