/*
 * A trace.dat file's structure checked before libtracecmd reads it (src/trace/dat_check.c):
 * the initial format, and every size, offset and count of versions 6 and 7 (trace-cmd.dat(5),
 * trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)) against the file's length and against limits,
 * so that a damaged or hostile file is refused with the section and offset that are wrong
 * instead of reaching a reader that trusts them (an allocation of a claimed size, a read
 * past the end).  Nothing is decompressed: a compressed section's two sizes are checked,
 * not its content.  Internal: not part of the public API.
 */
#ifndef IDLEKIT_TRACE_DAT_CHECK_H
#define IDLEKIT_TRACE_DAT_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* The limits past which a file is refused (docs/trace-format.md, "trace.dat"). */
#define IK_DAT_MAX_COUNT 65536u                /* formats, systems, events, CPUs, options */
#define IK_DAT_MAX_UNCOMPRESSED (256u << 20)   /* one compressed section or chunk, bytes */
#define IK_DAT_MAX_OPTION_SECTIONS 4096

/* Where the bytes come from: memory (mem) or a file descriptor (pread). */
struct ik_dat_src {
	const unsigned char *mem; /* NULL: read fd */
	int fd;
	uint64_t len; /* the file's length */
};

struct ik_dat_info {
	int version;          /* 6 or 7 */
	int long_size;        /* 4 or 8 */
	uint32_t page_size;
	char compression[32]; /* v7: "none", "zstd", ...; v6: "" */
	uint32_t cpus;        /* v6: the header's count; v7: the most CPUs of one buffer */
	int buffers;          /* v7: BUFFER options; v6: 1 when flyrecord */
	uint64_t data_bytes;  /* the per-CPU trace data the file claims, in all */
};

/* A source over memory. */
void ik__dat_src_mem(struct ik_dat_src *s, const void *data, size_t len);
/* A source over an open file descriptor (pread); len is taken by fstat.  0, or -1. */
int ik__dat_src_fd(struct ik_dat_src *s, int fd);

/*
 * 0 when the structure holds together (info filled), or -1 with a message naming the
 * section, the offset and what was expected ("offset 37, HEADER_INFO section: ...").
 */
int ik__dat_check(const struct ik_dat_src *s, struct ik_dat_info *info, char *err,
		 size_t errlen);

#endif
