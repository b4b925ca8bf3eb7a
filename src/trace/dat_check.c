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
 *           option, whose other options point at the sections (HEADER_INFO ... CMDLINES
 *           hold what v6 has in its header, one piece each; BUFFER with per-CPU data,
 *           compressed in chunks; BUFFER_TEXT)
 *
 * A compressed section or chunk (zstd or zlib) is unpacked and must give exactly the size
 * it claims; then its content is checked as an uncompressed one's.  The trace data is ring
 * buffer pages: each page's commit (the bytes of events in it) must fit in the page, with
 * the page header's layout from header_page when it gives one.
 *
 * Divisions: the byte source (memory or a file); primitive reads (numbers, strings, sized
 * blocks); the headers (header page, ftrace and event formats); ring buffer pages;
 * compressed data; version 6 (flyrecord); version 7 (sections); the check's entry point.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "trace/dat_check.h"

/* The ring buffer's commit field holds the page's event bytes in its low bits, flags above. */
#define COMMIT_MASK ((1u << 27) - 1)

struct rd {
	const struct ik_dat_src *s;
	bool big;
	char *err;
	size_t errlen;
	char within[80]; /* "" in the file, else " in the unpacked X section at N" */
};

/* What the whole check carries from piece to piece. */
struct ctx {
	struct ik_dat_info *info;
	int compression;              /* COMP_* */
	uint32_t page_header, commit_size; /* from header_page: data's offset, commit's size */
};
enum { COMP_NONE, COMP_ZSTD, COMP_ZLIB, COMP_OTHER };

void ik__dat_src_mem(struct ik_dat_src *s, const void *data, size_t len)
{
	s->mem = data;
	s->fd = -1;
	s->len = len;
}

int ik__dat_src_fd(struct ik_dat_src *s, int fd)
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
	snprintf(r->err, r->errlen, "offset %llu%s, %s: %s", (unsigned long long)off, r->within,
		 where, what);
	return -1;
}

/* n bytes at off, all inside the source. */
static int get(struct rd *r, uint64_t off, void *buf, size_t n, const char *where)
{
	if (off > r->s->len || n > r->s->len - off) {
		char what[96];
		snprintf(what, sizeof(what), "the %s ends at %llu, %zu bytes were expected here",
			 r->within[0] ? "section" : "file", (unsigned long long)r->s->len, n);
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

static int uint_n(struct rd *r, uint64_t off, int n, uint64_t *v, const char *where)
{
	unsigned char b[8];
	if (get(r, off, b, (size_t)n, where))
		return -1;
	*v = num(r, b, n);
	return 0;
}

static int u16(struct rd *r, uint64_t off, uint32_t *v, const char *where)
{
	uint64_t x = 0;
	int rc = uint_n(r, off, 2, &x, where);
	*v = (uint32_t)x;
	return rc;
}

static int u32(struct rd *r, uint64_t off, uint32_t *v, const char *where)
{
	uint64_t x = 0;
	int rc = uint_n(r, off, 4, &x, where);
	*v = (uint32_t)x;
	return rc;
}

static int u64(struct rd *r, uint64_t off, uint64_t *v, const char *where)
{
	return uint_n(r, off, 8, v, where);
}

/* A NUL-terminated string at off of at most max bytes before its NUL; *next after it. */
static int cstr(struct rd *r, uint64_t off, size_t max, char *out, size_t outlen, uint64_t *next,
		const char *where)
{
	char buf[512];
	size_t n = max + 1 < sizeof(buf) ? max + 1 : sizeof(buf);
	if (off >= r->s->len)
		return get(r, off, buf, 1, where);
	if (n > r->s->len - off)
		n = (size_t)(r->s->len - off);
	if (get(r, off, buf, n, where))
		return -1;
	const char *z = memchr(buf, '\0', n);
	if (!z && off + n == r->s->len)
		return bad(r, off, where, "the data ends inside this string");
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

/* size bytes from off lie inside the source (without reading them). */
static int span(struct rd *r, uint64_t off, uint64_t size, const char *where)
{
	if (off > r->s->len || size > r->s->len - off) {
		char what[128];
		snprintf(what, sizeof(what), "a size of %llu bytes runs past the end of the %s (%llu)",
			 (unsigned long long)size, r->within[0] ? "section" : "file",
			 (unsigned long long)r->s->len);
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
		snprintf(what, sizeof(what), "\"%.*s\" expected", (int)strcspn(want, " "), want);
		return bad(r, off, where, what);
	}
	return 0;
}

/* A 4- or 8-byte size at *off and that many bytes after it; *off moves past them. */
static int sized(struct rd *r, uint64_t *off, int width, const char *where)
{
	uint64_t size;
	if (uint_n(r, *off, width, &size, where))
		return -1;
	*off += (uint64_t)width;
	if (span(r, *off, size, where))
		return -1;
	*off += size;
	return 0;
}

/* ---- The pieces of metadata (v6: in turn in the header; v7: a section each) ----------- */

/* header_page's layout: the offset of "data" (the page header's size) and commit's size. */
static void page_layout(struct rd *r, uint64_t off, uint64_t size, struct ctx *c)
{
	char text[1024];
	size_t n = size < sizeof(text) - 1 ? (size_t)size : sizeof(text) - 1;
	if (get(r, off, text, n, "header_page"))
		return;
	text[n] = '\0';
	const char *commit = strstr(text, " commit;");
	const char *data = strstr(text, " data;");
	unsigned o, s, d;
	if (commit && data && sscanf(commit, " commit; offset:%u; size:%u;", &o, &s) == 2 &&
	    sscanf(data, " data; offset:%u;", &d) == 1 && (s == 4 || s == 8) && o + s <= d &&
	    d < 512) {
		c->commit_size = s;
		c->page_header = d;
	}
}

static int p_header_info(struct rd *r, uint64_t *off, struct ctx *c)
{
	uint64_t size;
	if (name(r, *off, "header_page", 12, "header_page"))
		return -1;
	*off += 12;
	if (u64(r, *off, &size, "header_page") || span(r, *off + 8, size, "header_page"))
		return -1;
	page_layout(r, *off + 8, size, c);
	*off += 8 + size;
	if (name(r, *off, "header_event", 13, "header_event"))
		return -1;
	*off += 13;
	return sized(r, off, 8, "header_event");
}

static int p_ftrace_formats(struct rd *r, uint64_t *off)
{
	uint32_t n;
	if (u32(r, *off, &n, "ftrace formats") || count(r, *off, n, "ftrace formats"))
		return -1;
	*off += 4;
	for (uint32_t i = 0; i < n; i++)
		if (sized(r, off, 8, "an ftrace format"))
			return -1;
	return 0;
}

static int p_event_formats(struct rd *r, uint64_t *off)
{
	uint32_t n, m;
	if (u32(r, *off, &n, "event systems") || count(r, *off, n, "event systems"))
		return -1;
	*off += 4;
	for (uint32_t i = 0; i < n; i++) {
		if (cstr(r, *off, 255, NULL, 0, off, "an event system's name") ||
		    u32(r, *off, &m, "a system's events") || count(r, *off, m, "a system's events"))
			return -1;
		*off += 4;
		for (uint32_t j = 0; j < m; j++)
			if (sized(r, off, 8, "an event format"))
				return -1;
	}
	return 0;
}

enum {
	SEC_OPTIONS = 0,
	OPT_DONE = 0,
	OPT_BUFFER = 3,
	OPT_CPUCOUNT = 8,
	SEC_STRINGS = 15,
	OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22,
};

/* The piece a metadata section (or v6's header, in order) holds. */
static int piece(struct rd *r, uint32_t id, uint64_t *off, struct ctx *c)
{
	switch (id) {
	case OPT_HEADER_INFO: return p_header_info(r, off, c);
	case OPT_FTRACE_EVENTS: return p_ftrace_formats(r, off);
	case OPT_EVENT_FORMATS: return p_event_formats(r, off);
	case OPT_KALLSYMS: return sized(r, off, 4, "kallsyms");
	case OPT_PRINTK: return sized(r, off, 4, "printk formats");
	case OPT_CMDLINES: return sized(r, off, 8, "saved cmdlines");
	default: return 0;
	}
}

/* ---- Trace data: ring buffer pages ---------------------------------------------------- */

/* n bytes of pages of page bytes each (from src r at off): each commit fits its page. */
static int pages(struct rd *r, uint64_t off, uint64_t n, uint32_t page, const struct ctx *c,
		 const char *where)
{
	uint32_t header = c->page_header ? c->page_header : 16;
	uint32_t csize = c->commit_size ? c->commit_size : 8;
	uint32_t commit_at = 8; /* after the 8-byte timestamp */
	for (uint64_t p = 0; p + header <= n; p += page) {
		uint64_t commit;
		if (uint_n(r, off + p + commit_at, (int)csize, &commit, where))
			return -1;
		uint64_t len = commit & COMMIT_MASK;
		if (len > page - header) {
			char what[128];
			snprintf(what, sizeof(what), "a ring buffer page holding %llu bytes of events, "
				 "more than its %u", (unsigned long long)len, page - header);
			return bad(r, off + p + commit_at, where, what);
		}
	}
	return 0;
}

/* ---- Compressed data ------------------------------------------------------------------ */

/* csize bytes at off (of r) unpacked into a new buffer of exactly usize bytes. */
static int unpack(struct rd *r, const struct ctx *c, uint64_t off, uint32_t csize,
		  uint32_t usize, unsigned char **out, const char *where)
{
	*out = NULL;
	unsigned char *in = malloc(csize ? csize : 1);
	unsigned char *u = malloc(usize ? usize : 1);
	if (!in || !u) {
		free(in);
		free(u);
		return bad(r, off, where, "out of memory");
	}
	if (get(r, off, in, csize, where)) {
		free(in);
		free(u);
		return -1;
	}
	bool ok;
	if (c->compression == COMP_ZSTD) {
		size_t got = ZSTD_decompress(u, usize, in, csize);
		ok = !ZSTD_isError(got) && got == usize;
	} else {
		uLongf got = usize;
		ok = uncompress(u, &got, in, csize) == Z_OK && got == usize;
	}
	free(in);
	if (!ok) {
		free(u);
		char what[96];
		snprintf(what, sizeof(what), "%u compressed bytes that do not unpack to the %u "
			 "claimed", csize, usize);
		return bad(r, off, where, what);
	}
	*out = u;
	return 0;
}

/* A reader over the unpacked bytes of section id at file offset at. */
static void sub_reader(struct rd *sub, struct ik_dat_src *src, const struct rd *r,
		       const unsigned char *data, size_t len, const char *what, uint64_t at)
{
	ik__dat_src_mem(src, data, len);
	*sub = *r;
	sub->s = src;
	snprintf(sub->within, sizeof(sub->within), " in the unpacked %s at %llu", what,
		 (unsigned long long)at);
}

/* ---- version 6 ------------------------------------------------------------------------ */

static int flyrecord(struct rd *r, uint64_t off, uint32_t cpus, uint32_t page, struct ctx *c)
{
	for (uint32_t k = 0; k < cpus; k++) {
		uint64_t at, size;
		if (u64(r, off, &at, "flyrecord CPU offsets") ||
		    u64(r, off + 8, &size, "flyrecord CPU sizes"))
			return -1;
		if (span(r, at, size, "a CPU's trace data (flyrecord)") ||
		    pages(r, at, size, page, c, "a CPU's trace data (flyrecord)"))
			return -1;
		c->info->data_bytes += size;
		off += 16;
	}
	c->info->buffers++;
	return 0;
}

static int check_v6(struct rd *r, uint64_t off, struct ctx *c)
{
	struct ik_dat_info *info = c->info;
	static const uint32_t order[] = { OPT_HEADER_INFO, OPT_FTRACE_EVENTS, OPT_EVENT_FORMATS,
					  OPT_KALLSYMS, OPT_PRINTK, OPT_CMDLINES };
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (piece(r, order[i], &off, c))
			return -1;
	if (u32(r, off, &info->cpus, "the CPU count") || count(r, off, info->cpus, "the CPU count"))
		return -1;
	off += 4;
	char kind[10];
	if (get(r, off, kind, 10, "options, latency or flyrecord"))
		return -1;
	if (memcmp(kind, "options  ", 10) == 0) {
		off += 10;
		for (uint32_t k = 0;; k++) {
			uint32_t id, size;
			if (k > IK_DAT_MAX_COUNT)
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
			if (id == OPT_BUFFER) {
				uint64_t at;
				if (size < 8 || u64(r, off, &at, "a BUFFER option"))
					return size < 8 ? bad(r, off, "a BUFFER option", "too short") : -1;
				if (name(r, at, "flyrecord", 10, "a BUFFER option's flyrecord") ||
				    flyrecord(r, at + 10, info->cpus, info->page_size, c))
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
	return flyrecord(r, off + 10, info->cpus, info->page_size, c);
}

/* ---- version 7 ------------------------------------------------------------------------ */

struct section {
	uint32_t id, flags;
	uint64_t size; /* in the file */
	uint64_t data; /* where its content (or its compression header) starts */
};

static const char *section_name(uint32_t id)
{
	static const char *const names[] = { "HEADER_INFO section", "FTRACE_EVENTS section",
					     "EVENT_FORMATS section", "KALLSYMS section",
					     "PRINTK section", "CMDLINES section" };
	if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES)
		return names[id - OPT_HEADER_INFO];
	return id == SEC_OPTIONS ? "options section" : id == OPT_BUFFER ? "BUFFER section" :
	       id == OPT_BUFFER_TEXT ? "BUFFER_TEXT section" : id == SEC_STRINGS ?
	       "strings section" : "a section";
}

/*
 * The section header at off, of section id want, and its size inside the file; a
 * metadata section's content (unpacked when compressed) checked as its piece.
 */
static int section_at(struct rd *r, uint64_t off, uint32_t want, struct ctx *c,
		      struct section *sec)
{
	const char *where = section_name(want);
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
	bool compressed = sec->flags & 1;
	if (compressed && c->compression == COMP_NONE)
		return bad(r, off, where, "compressed, in a file whose compression is \"none\"");
	if (want == OPT_BUFFER || want == SEC_OPTIONS)
		return 0; /* trace data has chunks (buffer_option); options are walked by the caller */
	uint64_t at = 0;
	if (!compressed) { /* the piece inside the section's bounds */
		struct ik_dat_src win = *r->s;
		struct rd sub = *r;
		win.len = sec->data + sec->size;
		sub.s = &win;
		snprintf(sub.within, sizeof(sub.within), " in the %s at %llu", where,
			 (unsigned long long)off);
		at = sec->data;
		return piece(&sub, want, &at, c);
	}
	uint32_t csize, usize;
	if (u32(r, sec->data, &csize, where) || u32(r, sec->data + 4, &usize, where))
		return -1;
	if (sec->size < 8 || csize > sec->size - 8)
		return bad(r, sec->data, where, "a compressed size larger than its section");
	if (usize > IK_DAT_MAX_UNCOMPRESSED) {
		char what[96];
		snprintf(what, sizeof(what), "an uncompressed size of %u bytes, more than the %u "
			 "idlekit allows", usize, IK_DAT_MAX_UNCOMPRESSED);
		return bad(r, sec->data + 4, where, what);
	}
	if (c->compression == COMP_OTHER)
		return 0; /* an algorithm idlekit does not unpack: libtracecmd's to judge */
	unsigned char *u;
	if (unpack(r, c, sec->data + 8, csize, usize, &u, where))
		return -1;
	struct ik_dat_src src;
	struct rd sub;
	sub_reader(&sub, &src, r, u, usize, where, off);
	int rc = piece(&sub, want, &at, c);
	free(u);
	return rc;
}

/*
 * A compressed CPU's data: a chunk count, then chunks of two sizes and the bytes, each
 * unpacked to whole pages; the CPU's size in its BUFFER option counts the chunks, not the
 * count before them (as trace-cmd 3.1 writes it).
 */
static int chunks(struct rd *r, uint64_t off, uint64_t size, uint32_t page, struct ctx *c)
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
		if (c->compression != COMP_OTHER) {
			unsigned char *u;
			if (unpack(r, c, off, csize, usize, &u, "a chunk"))
				return -1;
			struct ik_dat_src src;
			struct rd sub;
			sub_reader(&sub, &src, r, u, usize, "chunk", off - 8);
			int rc = pages(&sub, 0, usize, page, c, "a chunk's pages");
			free(u);
			if (rc)
				return -1;
		}
		off += csize;
	}
	return 0;
}

/* One BUFFER option's data (len bytes at off): its section and its CPUs' data. */
static int buffer_option(struct rd *r, uint64_t off, uint32_t len, struct ctx *c)
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
	if (section_at(r, at, OPT_BUFFER, c, &sec))
		return -1;
	for (uint32_t k = 0; k < cpus; k++, p += 20) {
		uint64_t coff, csize;
		if (u64(r, p + 4, &coff, "a BUFFER CPU") || u64(r, p + 12, &csize, "a BUFFER CPU"))
			return -1;
		if (span(r, coff, csize, "a CPU's trace data"))
			return -1;
		int rc = (sec.flags & 1) ? chunks(r, coff, csize, pagesz, c)
					 : pages(r, coff, csize, pagesz, c, "a CPU's trace data");
		if (rc)
			return -1;
		c->info->data_bytes += csize;
	}
	if (cpus > c->info->cpus)
		c->info->cpus = cpus;
	c->info->buffers++;
	return 0;
}

static int options_section(struct rd *r, const struct section *sec, struct ctx *c,
			   uint64_t *next)
{
	uint64_t off = sec->data, end = sec->data + sec->size;
	*next = 0;
	if (sec->flags & 1)
		return 0; /* compressed options: libtracecmd's to read (trace-cmd writes none) */
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
			if (u64(r, off, &at, section_name(id)) || section_at(r, at, id, c, &s))
				return -1;
		} else if (id == OPT_BUFFER) {
			if (buffer_option(r, off, size, c))
				return -1;
		} else if (id == OPT_BUFFER_TEXT) {
			if (size < 8 || u64(r, off, &at, "a BUFFER_TEXT option"))
				return size < 8 ? bad(r, off, "a BUFFER_TEXT option", "too short") : -1;
			if (section_at(r, at, OPT_BUFFER_TEXT, c, &s))
				return -1;
			c->info->buffers++;
		} else if (id == OPT_CPUCOUNT && size != 4) {
			return bad(r, off - 4, "the CPUCOUNT option", "size 4 expected");
		}
		off += size;
	}
}

static int check_v7(struct rd *r, uint64_t off, struct ctx *c)
{
	struct ik_dat_info *info = c->info;
	char version[32];
	uint64_t first;
	if (cstr(r, off, sizeof(info->compression) - 1, info->compression,
		 sizeof(info->compression), &off, "the compression's name") ||
	    cstr(r, off, sizeof(version) - 1, version, sizeof(version), &off,
		 "the compression's version") ||
	    u64(r, off, &first, "the first options section's offset"))
		return -1;
	c->compression = strcmp(info->compression, "none") == 0   ? COMP_NONE :
			 strcmp(info->compression, "zstd") == 0   ? COMP_ZSTD :
			 strcmp(info->compression, "zlib") == 0   ? COMP_ZLIB : COMP_OTHER;
	/* The pages' layout comes from HEADER_INFO, whose option trace-cmd writes before the
	   buffers' (until it is seen, a page header of 16 bytes with an 8-byte commit). */
	uint64_t at = first;
	for (int k = 0; at != 0; k++) {
		struct section sec;
		if (k == IK_DAT_MAX_OPTION_SECTIONS)
			return bad(r, at, "options section", "too many options sections (a loop?)");
		if (at < off + 8)
			return bad(r, at, "options section", "an offset inside the file's header");
		if (section_at(r, at, SEC_OPTIONS, c, &sec) || options_section(r, &sec, c, &at))
			return -1;
	}
	if (info->buffers == 0)
		return bad(r, first, "options section", "no BUFFER or BUFFER_TEXT option: the file "
			   "holds no trace data");
	return 0;
}

int ik__dat_check(const struct ik_dat_src *s, struct ik_dat_info *info, char *err, size_t errlen)
{
	struct rd r = { .s = s, .err = err, .errlen = errlen };
	struct ctx c = { .info = info };
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
	return info->version == 6 ? check_v6(&r, off, &c) : check_v7(&r, off, &c);
}
