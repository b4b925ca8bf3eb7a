/*
 * A trace.dat file's structure, checked before its reader trusts it: every length, offset
 * and count against the file and against IK_DAT_MAX_*.  The layouts (trace-cmd.dat.v6(5),
 * trace-cmd.dat.v7(5)):
 *
 *   both    magic 17 08 44 "tracing", the version as a string, endianness (1 byte), long
 *           size (1 byte), page size (4 bytes); then every number in the file's endianness
 *   v6      header_page and header_event (a name, an 8-byte size, the text), the ftrace
 *           formats (a count, each with an 8-byte size), the event systems (a count; each a
 *           name, a count of events, each with an 8-byte size), kallsyms and printk formats
 *           (4-byte sizes), saved cmdlines (8-byte size), the CPU count, then "options  "
 *           (options of a 2-byte id and a 4-byte size, ended by id 0), "latency  " (text to
 *           the end) or "flyrecord" (per CPU an 8-byte offset and size of its data)
 *   v7      the compression's name and version, the offset of the first options section;
 *           sections of a 16-byte header (id, flags, string id, size) with, when compressed,
 *           the compressed and uncompressed sizes; options sections chained by their DONE
 *           option, whose other options point at the sections (HEADER_INFO ... CMDLINES,
 *           BUFFER with per-CPU data, BUFFER_TEXT)
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/dat_check.h"

struct rd {
	const struct ik_dat_src *s;
	bool big;
	char *err;
	size_t errlen;
};

void ik_dat_src_mem(struct ik_dat_src *s, const void *data, size_t len)
{
	s->mem = data;
	s->fd = -1;
	s->len = len;
}

int ik_dat_src_fd(struct ik_dat_src *s, int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size < 0)
		return -1;
	s->mem = NULL;
	s->fd = fd;
	s->len = (uint64_t)st.st_size;
	return 0;
}

static int src_read(const struct ik_dat_src *s, uint64_t off, void *buf, size_t n)
{
	unsigned char *p = buf;
	if (s->mem) {
		memcpy(p, s->mem + off, n);
		return 0;
	}
	while (n > 0) {
		ssize_t got = pread(s->fd, p, n, (off_t)off);
		if (got <= 0)
			return -1;
		p += got, off += (uint64_t)got, n -= (size_t)got;
	}
	return 0;
}

static int bad(struct rd *r, uint64_t off, const char *where, const char *what)
{
	snprintf(r->err, r->errlen, "offset %llu, %s: %s", (unsigned long long)off, where, what);
	return -1;
}

/* n bytes at off, all inside the file. */
static int get(struct rd *r, uint64_t off, void *buf, size_t n, const char *where)
{
	if (off > r->s->len || n > r->s->len - off) {
		char what[96];
		snprintf(what, sizeof(what), "the file ends at %llu, %zu bytes were expected here",
			 (unsigned long long)r->s->len, n);
		return bad(r, off, where, what);
	}
	if (src_read(r->s, off, buf, n))
		return bad(r, off, where, "cannot be read");
	return 0;
}

static uint64_t num(const struct rd *r, const unsigned char *b, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)b[r->big ? n - 1 - i : i] << (8 * i);
	return v;
}

static int u16(struct rd *r, uint64_t off, uint32_t *v, const char *where)
{
	unsigned char b[2];
	if (get(r, off, b, 2, where))
		return -1;
	*v = (uint32_t)num(r, b, 2);
	return 0;
}

static int u32(struct rd *r, uint64_t off, uint32_t *v, const char *where)
{
	unsigned char b[4];
	if (get(r, off, b, 4, where))
		return -1;
	*v = (uint32_t)num(r, b, 4);
	return 0;
}

static int u64(struct rd *r, uint64_t off, uint64_t *v, const char *where)
{
	unsigned char b[8];
	if (get(r, off, b, 8, where))
		return -1;
	*v = num(r, b, 8);
	return 0;
}

/* A NUL-terminated string at off of at most max bytes before its NUL; *next after it. */
static int cstr(struct rd *r, uint64_t off, size_t max, char *out, size_t outlen, uint64_t *next,
		const char *where)
{
	char buf[512];
	size_t n = max + 1 < sizeof(buf) ? max + 1 : sizeof(buf);
	if (off > r->s->len)
		return get(r, off, buf, 1, where);
	if (n > r->s->len - off)
		n = (size_t)(r->s->len - off);
	if (n == 0 || get(r, off, buf, n, where))
		return n == 0 ? get(r, off, buf, 1, where) : -1;
	const char *z = memchr(buf, '\0', n);
	if (!z && off + n == r->s->len)
		return bad(r, off, where, "the file ends inside this string");
	if (!z) {
		char what[80];
		snprintf(what, sizeof(what), "a string of at most %zu bytes and its NUL expected", max);
		return bad(r, off, where, what);
	}
	if (out)
		snprintf(out, outlen, "%.*s", (int)(outlen - 1), buf);
	*next = off + (uint64_t)(z - buf) + 1;
	return 0;
}

/* size bytes from off lie inside the file (without reading them). */
static int span(struct rd *r, uint64_t off, uint64_t size, const char *where)
{
	if (off > r->s->len || size > r->s->len - off) {
		char what[128];
		snprintf(what, sizeof(what), "a size of %llu bytes runs past the end of the file (%llu)",
			 (unsigned long long)size, (unsigned long long)r->s->len);
		return bad(r, off, where, what);
	}
	return 0;
}

static int count(struct rd *r, uint64_t off, uint32_t n, const char *where)
{
	if (n > IK_DAT_MAX_COUNT) {
		char what[96];
		snprintf(what, sizeof(what), "a count of %u, more than the %u idlekit reads", n,
			 IK_DAT_MAX_COUNT);
		return bad(r, off, where, what);
	}
	return 0;
}

/* A fixed name (with its NUL) at off. */
static int name(struct rd *r, uint64_t off, const char *want, size_t n, const char *where)
{
	char buf[16];
	if (get(r, off, buf, n, where))
		return -1;
	if (memcmp(buf, want, n) != 0) {
		char what[64];
		snprintf(what, sizeof(what), "\"%.*s\" expected", (int)strcspn(want, " ") ,want);
		return bad(r, off, where, what);
	}
	return 0;
}

/* A 4- or 8-byte size at *off and that many bytes after it; *off moves past them. */
static int sized(struct rd *r, uint64_t *off, int width, const char *where)
{
	uint64_t size;
	uint32_t s32;
	if (width == 4 ? u32(r, *off, &s32, where) : u64(r, *off, &size, where))
		return -1;
	if (width == 4)
		size = s32;
	*off += (uint64_t)width;
	if (span(r, *off, size, where))
		return -1;
	*off += size;
	return 0;
}

/* ---- version 6 ------------------------------------------------------------------------ */

static int flyrecord(struct rd *r, uint64_t off, uint32_t cpus, struct ik_dat_info *info)
{
	for (uint32_t c = 0; c < cpus; c++) {
		uint64_t at, size;
		if (u64(r, off, &at, "flyrecord CPU offsets") ||
		    u64(r, off + 8, &size, "flyrecord CPU sizes"))
			return -1;
		if (span(r, at, size, "a CPU's trace data (flyrecord)"))
			return -1;
		info->data_bytes += size;
		off += 16;
	}
	info->buffers++;
	return 0;
}

static int check_v6(struct rd *r, uint64_t off, struct ik_dat_info *info)
{
	uint32_t n, m;

	if (name(r, off, "header_page", 12, "header_page"))
		return -1;
	off += 12;
	if (sized(r, &off, 8, "header_page") || name(r, off, "header_event", 13, "header_event"))
		return -1;
	off += 13;
	if (sized(r, &off, 8, "header_event"))
		return -1;
	if (u32(r, off, &n, "ftrace formats") || count(r, off, n, "ftrace formats"))
		return -1;
	off += 4;
	for (uint32_t i = 0; i < n; i++)
		if (sized(r, &off, 8, "an ftrace format"))
			return -1;
	if (u32(r, off, &n, "event systems") || count(r, off, n, "event systems"))
		return -1;
	off += 4;
	for (uint32_t i = 0; i < n; i++) {
		if (cstr(r, off, 255, NULL, 0, &off, "an event system's name") ||
		    u32(r, off, &m, "a system's events") || count(r, off, m, "a system's events"))
			return -1;
		off += 4;
		for (uint32_t j = 0; j < m; j++)
			if (sized(r, &off, 8, "an event format"))
				return -1;
	}
	if (sized(r, &off, 4, "kallsyms") || sized(r, &off, 4, "printk formats") ||
	    sized(r, &off, 8, "saved cmdlines"))
		return -1;
	if (u32(r, off, &info->cpus, "the CPU count") || count(r, off, info->cpus, "the CPU count"))
		return -1;
	off += 4;
	char kind[10];
	if (get(r, off, kind, 10, "options, latency or flyrecord"))
		return -1;
	if (memcmp(kind, "options  ", 10) == 0) {
		off += 10;
		for (int k = 0;; k++) {
			uint32_t id, size;
			if (k > (int)IK_DAT_MAX_COUNT)
				return bad(r, off, "options", "more options than idlekit reads");
			if (u16(r, off, &id, "an option's id"))
				return -1;
			off += 2;
			if (id == 0)
				break;
			if (u32(r, off, &size, "an option's size"))
				return -1;
			off += 4;
			if (span(r, off, size, "an option"))
				return -1;
			/* an instance's buffer: its own flyrecord, per CPU an offset and size */
			if (id == 3) {
				uint64_t at;
				if (size < 8 || u64(r, off, &at, "a BUFFER option"))
					return size < 8 ? bad(r, off, "a BUFFER option", "too short") : -1;
				if (name(r, at, "flyrecord", 10, "a BUFFER option's flyrecord") ||
				    flyrecord(r, at + 10, info->cpus, info))
					return -1;
			}
			off += size;
		}
		if (get(r, off, kind, 10, "latency or flyrecord"))
			return -1;
	}
	if (memcmp(kind, "latency  ", 10) == 0)
		return 0;
	if (memcmp(kind, "flyrecord", 10) != 0)
		return bad(r, off, "after the header", "\"options\", \"latency\" or \"flyrecord\" expected");
	return flyrecord(r, off + 10, info->cpus, info);
}

/* ---- version 7 ------------------------------------------------------------------------ */

enum {
	SEC_OPTIONS = 0,
	OPT_DONE = 0,
	OPT_BUFFER = 3,
	OPT_CPUCOUNT = 8,
	OPT_HEADER_INFO = 16,
	OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
};

struct section {
	uint32_t id, flags;
	uint64_t size;   /* in the file */
	uint64_t data;   /* where its content (or its compression header) starts */
};

static const char *section_name(uint32_t id)
{
	static const char *const names[] = { "HEADER_INFO", "FTRACE_EVENTS", "EVENT_FORMATS",
					     "KALLSYMS", "PRINTK", "CMDLINES" };
	if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES)
		return names[id - OPT_HEADER_INFO];
	return id == SEC_OPTIONS ? "options" : id == OPT_BUFFER ? "BUFFER" :
	       id == OPT_BUFFER_TEXT ? "BUFFER_TEXT" : id == 15 ? "strings" : "a";
}

/* The section header at off, of section id want, and its size inside the file. */
static int section_at(struct rd *r, uint64_t off, uint32_t want, bool compressed_file,
		      struct section *sec)
{
	char where[64];
	snprintf(where, sizeof(where), "%s section", section_name(want));
	uint32_t sid, string_id;
	if (u16(r, off, &sid, where) || u16(r, off + 2, &sec->flags, where) ||
	    u32(r, off + 4, &string_id, where) || u64(r, off + 8, &sec->size, where))
		return -1;
	if (sid != want) {
		char what[64];
		snprintf(what, sizeof(what), "section id %u expected, %u found", want, sid);
		return bad(r, off, where, what);
	}
	sec->id = sid;
	sec->data = off + 16;
	if (span(r, sec->data, sec->size, where))
		return -1;
	if ((sec->flags & 1) && !compressed_file)
		return bad(r, off, where, "compressed, in a file whose compression is \"none\"");
	/* A compressed section other than trace data: its two sizes (trace data has chunks). */
	if ((sec->flags & 1) && want != OPT_BUFFER) {
		uint32_t csize, usize;
		if (u32(r, sec->data, &csize, where) || u32(r, sec->data + 4, &usize, where))
			return -1;
		if (sec->size < 8 || csize > sec->size - 8)
			return bad(r, sec->data, where, "a compressed size larger than its section");
		if (usize > IK_DAT_MAX_UNCOMPRESSED) {
			char what[96];
			snprintf(what, sizeof(what), "an uncompressed size of %u bytes, more than the "
				 "%u idlekit allows", usize, IK_DAT_MAX_UNCOMPRESSED);
			return bad(r, sec->data + 4, where, what);
		}
	}
	return 0;
}

/*
 * A compressed CPU's data: a chunk count, then chunks of two sizes and the bytes; the
 * CPU's size in its BUFFER option counts the chunks, not the count before them (as
 * trace-cmd 3.1 writes it).
 */
static int chunks(struct rd *r, uint64_t off, uint64_t size, uint32_t page)
{
	uint32_t n;
	if (size == 0)
		return 0;
	if (u32(r, off, &n, "a CPU's compressed chunks") || count(r, off, n, "a CPU's chunks"))
		return -1;
	off += 4;
	if (span(r, off, size, "a CPU's compressed chunks"))
		return -1;
	uint64_t end = off + size;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t csize, usize;
		if (off + 8 > end)
			return bad(r, off, "a CPU's compressed chunks", "more chunks than its data holds");
		if (u32(r, off, &csize, "a chunk") || u32(r, off + 4, &usize, "a chunk"))
			return -1;
		off += 8;
		if (csize > end - off)
			return bad(r, off, "a chunk", "a compressed size past the CPU's data");
		if (usize > IK_DAT_MAX_UNCOMPRESSED)
			return bad(r, off - 4, "a chunk", "an uncompressed size past idlekit's limit");
		if (usize == 0 || usize % page != 0)
			return bad(r, off - 4, "a chunk", "an uncompressed size that is not a whole "
				   "number of trace pages");
		off += csize;
	}
	return 0;
}

/* One BUFFER option's data (len bytes at off): its section and its CPUs' data. */
static int buffer_option(struct rd *r, uint64_t off, uint32_t len, bool compressed,
			 struct ik_dat_info *info)
{
	uint64_t end = off + len, at, p;
	uint32_t pagesz, cpus;
	struct section sec;
	if (len < 8 || u64(r, off, &at, "a BUFFER option"))
		return len < 8 ? bad(r, off, "a BUFFER option", "too short") : -1;
	if (cstr(r, off + 8, 255, NULL, 0, &p, "a BUFFER option's instance name") ||
	    cstr(r, p, 63, NULL, 0, &p, "a BUFFER option's clock"))
		return -1;
	if (p + 8 > end)
		return bad(r, p, "a BUFFER option", "its page size and CPU count missing");
	if (u32(r, p, &pagesz, "a BUFFER option") || u32(r, p + 4, &cpus, "a BUFFER option") ||
	    count(r, p + 4, cpus, "a BUFFER option's CPUs"))
		return -1;
	if (pagesz < 512 || pagesz > (1u << 24) || (pagesz & (pagesz - 1)))
		return bad(r, p, "a BUFFER option's page size", "a power of two from 512 to 16 MiB "
			   "expected");
	p += 8;
	if ((uint64_t)cpus * 20 > end - p)
		return bad(r, p, "a BUFFER option", "fewer CPU entries than its count");
	if (section_at(r, at, OPT_BUFFER, compressed, &sec))
		return -1;
	for (uint32_t c = 0; c < cpus; c++, p += 20) {
		uint64_t coff, csize;
		if (u64(r, p + 4, &coff, "a BUFFER CPU") || u64(r, p + 12, &csize, "a BUFFER CPU"))
			return -1;
		if (span(r, coff, csize, "a CPU's trace data"))
			return -1;
		if (compressed && (sec.flags & 1) && chunks(r, coff, csize, pagesz))
			return -1;
		info->data_bytes += csize;
	}
	if (cpus > info->cpus)
		info->cpus = cpus;
	info->buffers++;
	return 0;
}

static int options_section(struct rd *r, const struct section *sec, bool compressed,
			   struct ik_dat_info *info, uint64_t *next)
{
	uint64_t off = sec->data, end = sec->data + sec->size;
	*next = 0;
	if (sec->flags & 1)
		return 0; /* compressed options: libtracecmd's to read (none written so far) */
	for (;;) {
		uint32_t id, size;
		if (off + 6 > end)
			return bad(r, off, "options section", "it ends without its DONE option");
		if (u16(r, off, &id, "an option") || u32(r, off + 2, &size, "an option"))
			return -1;
		off += 6;
		if (size > end - off)
			return bad(r, off - 4, "an option", "a size past its options section");
		if (id == OPT_DONE) {
			if (size != 8)
				return bad(r, off - 4, "the DONE option", "size 8 expected");
			return u64(r, off, next, "the DONE option");
		}
		uint64_t at;
		struct section s;
		if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES) {
			if (size != 8)
				return bad(r, off - 4, section_name(id), "an option of size 8 expected");
			if (u64(r, off, &at, section_name(id)) || section_at(r, at, id, compressed, &s))
				return -1;
		} else if (id == OPT_BUFFER) {
			if (buffer_option(r, off, size, compressed, info))
				return -1;
		} else if (id == OPT_BUFFER_TEXT) {
			if (size < 8 || u64(r, off, &at, "a BUFFER_TEXT option"))
				return size < 8 ? bad(r, off, "a BUFFER_TEXT option", "too short") : -1;
			if (section_at(r, at, OPT_BUFFER_TEXT, compressed, &s))
				return -1;
			info->buffers++;
		} else if (id == OPT_CPUCOUNT && size != 4) {
			return bad(r, off - 4, "the CPUCOUNT option", "size 4 expected");
		}
		off += size;
	}
}

static int check_v7(struct rd *r, uint64_t off, struct ik_dat_info *info)
{
	char version[32];
	uint64_t first;
	if (cstr(r, off, sizeof(info->compression) - 1, info->compression,
		 sizeof(info->compression), &off, "the compression's name") ||
	    cstr(r, off, sizeof(version) - 1, version, sizeof(version), &off,
		 "the compression's version") ||
	    u64(r, off, &first, "the first options section's offset"))
		return -1;
	bool compressed = strcmp(info->compression, "none") != 0;
	uint64_t at = first;
	for (int k = 0; at != 0; k++) {
		struct section sec;
		if (k == IK_DAT_MAX_OPTION_SECTIONS)
			return bad(r, at, "options section", "too many options sections (a loop?)");
		if (at < off + 8)
			return bad(r, at, "options section", "an offset inside the file's header");
		if (section_at(r, at, SEC_OPTIONS, compressed, &sec) ||
		    options_section(r, &sec, compressed, info, &at))
			return -1;
	}
	if (info->buffers == 0)
		return bad(r, first, "options section", "no BUFFER or BUFFER_TEXT option: the file "
			   "holds no trace data");
	return 0;
}

int ik_dat_check(const struct ik_dat_src *s, struct ik_dat_info *info, char *err, size_t errlen)
{
	struct rd r = { s, false, err, errlen };
	unsigned char head[10];
	char version[16];
	uint64_t off;

	memset(info, 0, sizeof(*info));
	if (get(&r, 0, head, sizeof(head), "the magic"))
		return -1;
	if (memcmp(head, "\x17\x08\x44tracing", 10) != 0)
		return bad(&r, 0, "the magic", "not a trace.dat (17 08 44 \"tracing\" expected)");
	if (cstr(&r, 10, sizeof(version) - 1, version, sizeof(version), &off, "the version"))
		return -1;
	if (strcmp(version, "6") == 0)
		info->version = 6;
	else if (strcmp(version, "7") == 0)
		info->version = 7;
	else {
		char what[64];
		snprintf(what, sizeof(what), "version \"%.15s\": idlekit reads 6 and 7", version);
		return bad(&r, 10, "the version", what);
	}
	unsigned char el[2];
	uint32_t page;
	if (get(&r, off, el, 2, "endianness and long size"))
		return -1;
	if (el[0] > 1)
		return bad(&r, off, "the endianness", "0 (little) or 1 (big) expected");
	if (el[1] != 4 && el[1] != 8)
		return bad(&r, off + 1, "the long size", "4 or 8 expected");
	r.big = el[0] == 1;
	info->long_size = el[1];
	if (u32(&r, off + 2, &page, "the page size"))
		return -1;
	if (page < 512 || page > (1u << 24) || (page & (page - 1)))
		return bad(&r, off + 2, "the page size", "a power of two from 512 to 16 MiB expected");
	info->page_size = page;
	off += 6;
	return info->version == 6 ? check_v6(&r, off, info) : check_v7(&r, off, info);
}
