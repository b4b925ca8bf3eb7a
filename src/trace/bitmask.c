/*
 * A kernel bitmask as a trace.dat record holds it (__bitmask, a __data_loc cpumask_t such as
 * ipi_send_cpumask's cpumask): an array of the recording machine's unsigned longs, in its
 * byte order, bit b of long w being CPU w * 8 * sizeof(long) + b.
 */
#include "trace/import.h"

int ik__trace_bitmask_cpus(const void *raw, size_t len, int long_size, bool big_endian,
			  int *cpus, int max)
{
	const unsigned char *p = raw;
	int n = 0;
	if (long_size != 4 && long_size != 8)
		return -1;
	for (size_t w = 0; w + (size_t)long_size <= len; w += (size_t)long_size) {
		uint64_t bits = 0;
		for (int i = 0; i < long_size; i++) {
			int byte = big_endian ? i : long_size - 1 - i; /* most significant first */
			bits = bits << 8 | p[w + (size_t)byte];
		}
		for (int b = 0; bits && b < long_size * 8; b++, bits >>= 1) {
			size_t cpu = w * 8 + (size_t)b;
			if (!(bits & 1))
				continue;
			if (cpu >= IK_TRACE_MAX_CPUS || n == max)
				return n;
			cpus[n++] = (int)cpu;
		}
	}
	return n;
}
