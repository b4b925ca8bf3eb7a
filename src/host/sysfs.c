/*
 * A read-only view of /sys/devices/system/cpu, from a directory tree or from a dump.
 *
 * Callers name files relative to the cpu directory ("cpu3/cpuidle/state1/usage") and never
 * learn which kind of view they read, so every command runs the same on the live machine, on
 * a copied tree (--sysfs-root) and on a dump (--sysfs-dump).
 *
 * A dump is held in memory as an array of (relative path, value, line) sorted by path:
 * lookups are binary searches, and the entries of a directory are one contiguous run (every
 * path below "cpu3/" sorts between "cpu3/" and "cpu30").
 *
 * Divisions: the view's life (origin, root, close); trees (a live or copied sysfs
 * directory); dumps (a captured tree in one file: parse, open, look up); the view (read,
 * numbers, directories, lists, writable, paths), the same over either.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/host.h"
#include "util/errmsg.h"
#include "util/read_file.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define MAX_DUMP_BYTES (256u << 20) /* a dump of a 8192-CPU machine is well below this */
#define MAX_VALUE_BYTES 4096        /* a sysfs attribute is at most a page */

struct dump_entry {
	const char *path;  /* relative to CPU_DIR, no leading '/' */
	const char *value;
	int line;
	bool rw; /* the line's flag */
};

struct ik_sysfs {
	bool is_dump;
	char origin[4096]; /* ROOT/sys/devices/system/cpu, or the dump file */
	char root[4096];
	/* dump */
	char *text;
	struct dump_entry *entries;
	size_t count;
};

bool ik__sysfs_is_dump(const struct ik_sysfs *fs)
{
	return fs->is_dump;
}

const char *ik__sysfs_origin(const struct ik_sysfs *fs)
{
	return fs->origin;
}

const char *ik__sysfs_root(const struct ik_sysfs *fs)
{
	return fs->is_dump ? NULL : fs->root;
}

size_t ik__sysfs_dump_size(const struct ik_sysfs *fs)
{
	return fs->is_dump ? fs->count : 0;
}

void ik__sysfs_close(struct ik_sysfs *fs)
{
	if (!fs)
		return;
	free(fs->text);
	free(fs->entries);
	free(fs);
}

/* ---- trees --------------------------------------------------------------------------- */

int ik__sysfs_open_root(const char *root, struct ik_sysfs **out, char *err, size_t errlen)
{
	struct stat st;

	*out = NULL;
	if (!root || !*root)
		root = "/";
	struct ik_sysfs *fs = calloc(1, sizeof(*fs));
	if (!fs) {
		ik__errmsg(err, errlen, "%s: out of memory", root);
		return -1;
	}
	size_t n = strlen(root);
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (n >= sizeof(fs->root) - sizeof(CPU_DIR)) {
		ik__errmsg(err, errlen, "%.200s...: path too long", root);
		free(fs);
		return -1;
	}
	memcpy(fs->root, root, n);
	fs->root[n] = '\0';
	int k = snprintf(fs->origin, sizeof(fs->origin), "%s%s",
			 strcmp(fs->root, "/") == 0 ? "" : fs->root, CPU_DIR);
	if (k < 0 || (size_t)k >= sizeof(fs->origin))
		fs->origin[0] = '\0'; /* cannot happen: the length was checked above */
	const char *why = NULL;
	if (stat(fs->origin, &st) != 0)
		why = errno == ENOENT || errno == ENOTDIR ? "no such directory" : strerror(errno);
	else if (!S_ISDIR(st.st_mode))
		why = "not a directory";
	if (why) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s (the tree read is ROOT/sys/devices/system/cpu)",
				 fs->origin, why);
		free(fs);
		return -1;
	}
	*out = fs;
	return 0;
}

static int tree_path(const struct ik_sysfs *fs, const char *rel, char *buf, size_t len)
{
	int k = snprintf(buf, len, "%s%s%s", fs->origin, *rel ? "/" : "", rel);
	return k < 0 || (size_t)k >= len ? -1 : 0;
}

static int tree_read(const struct ik_sysfs *fs, const char *rel, char *buf, size_t len,
		     char *err, size_t errlen)
{
	char path[4096 + 256];

	if (tree_path(fs, rel, path, sizeof(path))) {
		ik__errmsg(err, errlen, "%s/%.200s: path too long", fs->origin, rel);
		return IK_SYSFS_ERROR;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return IK_SYSFS_MISSING;
		ik__errmsg(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		return IK_SYSFS_ERROR;
	}
	size_t used = 0;
	for (;;) {
		if (used + 1 >= len) {
			close(fd);
			ik__errmsg(err, errlen, "%s: value too long (more than %s bytes)", path,
				   len > 4096 ? "4096" : "expected");
			return IK_SYSFS_ERROR;
		}
		ssize_t got = read(fd, buf + used, len - 1 - used);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			ik__errmsg(err, errlen, "%s: cannot read: %s", path, strerror(errno));
			close(fd);
			return IK_SYSFS_ERROR;
		}
		if (got == 0)
			break;
		used += (size_t)got;
	}
	close(fd);
	buf[used] = '\0';
	if (memchr(buf, '\0', used)) {
		ik__errmsg(err, errlen, "%s: expected text, found a NUL byte", path);
		return IK_SYSFS_ERROR;
	}
	while (used && (buf[used - 1] == '\n' || buf[used - 1] == '\r'))
		buf[--used] = '\0';
	return IK_SYSFS_OK;
}

/* ---- dumps ----------------------------------------------------------------------------- */

static int entry_cmp(const void *a, const void *b)
{
	const struct dump_entry *x = a, *y = b;
	return strcmp(x->path, y->path);
}

/* Reject paths a real tree could not have: empty components, '.', '..'. */
static bool path_ok(const char *p)
{
	if (!*p)
		return false;
	for (;;) {
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (p[n] == '\0')
			return true;
		p += n + 1;
	}
}

static int dump_fail(char *err, size_t errlen, const char *origin, int line, const char *what,
		     const char *text, size_t textlen)
{
	if (err && errlen) {
		char shown[81];
		size_t n = textlen < 80 ? textlen : 80;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)text[i];
			shown[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
		}
		shown[n] = '\0';
		snprintf(err, errlen, "%s:%d: %s, got '%s%s'", origin, line, what, shown,
			 textlen > 80 ? "..." : "");
	}
	return -1;
}

int ik__sysfs_parse_dump(const char *origin, const char *text, size_t len, struct ik_sysfs **out,
			char *err, size_t errlen)
{
	static const char prefix[] = CPU_DIR "/";
	struct ik_sysfs *fs = calloc(1, sizeof(*fs));

	*out = NULL;
	if (!origin)
		origin = "<dump>";
	if (!fs || !(fs->text = malloc(len + 1))) {
		free(fs);
		ik__errmsg(err, errlen, "%s: out of memory", origin);
		return -1;
	}
	fs->is_dump = true;
	snprintf(fs->origin, sizeof(fs->origin), "%s", origin);
	memcpy(fs->text, text, len);
	fs->text[len] = '\0';

	/* Count lines for the array, then split in place. */
	size_t lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += fs->text[i] == '\n';
	fs->entries = malloc(lines * sizeof(*fs->entries));
	if (!fs->entries) {
		ik__sysfs_close(fs);
		ik__errmsg(err, errlen, "%s: out of memory", origin);
		return -1;
	}
	char *p = fs->text, *end = fs->text + len;
	int line = 0;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *stop = nl ? nl : end;
		line++;
		if (stop > p && stop[-1] == '\r')
			stop[-1] = '\0', stop--;
		*stop = '\0';
		size_t n = (size_t)(stop - p);
		char *next = nl ? nl + 1 : end;

		if (!nl && stop > p) {
			/* Every line a dump's writer finishes ends in a newline: one without is
			   where the copy was cut off, and its value may be cut short too. */
			dump_fail(err, errlen, origin, line, "the last line has no end of line "
				  "(a truncated dump?)", p, n);
			goto bad;
		}
		if (n == 0 || p[0] == '#') {
			p = next;
			continue;
		}
		if (memchr(p, '\0', n)) {
			dump_fail(err, errlen, origin, line, "expected text, found a NUL byte", p, n);
			goto bad;
		}
		const char *ctl = p;
		while (ctl < stop && ((unsigned char)*ctl >= 0x20 || *ctl == '\t'))
			ctl++;
		if (ctl < stop) {
			/* no sysfs file holds one, and a value written back could not keep it */
			char what[80];
			snprintf(what, sizeof(what), "expected printable text, found the control "
				 "character 0x%02x", (unsigned)(unsigned char)*ctl);
			dump_fail(err, errlen, origin, line, what, p, n);
			goto bad;
		}
		char *bar1 = strchr(p, '|');
		char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
		if (!bar2) {
			dump_fail(err, errlen, origin, line,
				  "expected 'rw|/sys/devices/system/cpu/...|value'", p, n);
			goto bad;
		}
		if (!((bar1 - p == 2) && (memcmp(p, "rw", 2) == 0 || memcmp(p, "ro", 2) == 0))) {
			dump_fail(err, errlen, origin, line,
				  "expected 'rw' or 'ro' before the first '|'", p, n);
			goto bad;
		}
		*bar2 = '\0';
		const char *path = bar1 + 1;
		if (strncmp(path, "/sys/", 5) != 0) {
			*bar2 = '|';
			dump_fail(err, errlen, origin, line, "expected a path starting with /sys/", p, n);
			goto bad;
		}
		if (strncmp(path, prefix, sizeof(prefix) - 1) != 0) {
			p = next; /* another part of sysfs: not ours to read */
			continue;
		}
		path += sizeof(prefix) - 1;
		if (!path_ok(path)) {
			*bar2 = '|';
			dump_fail(err, errlen, origin, line, "expected a path without empty, '.' or '..' "
				  "components or a trailing '/'", p, n);
			goto bad;
		}
		if (strlen(bar2 + 1) >= MAX_VALUE_BYTES) {
			*bar2 = '|';
			dump_fail(err, errlen, origin, line, "value longer than 4095 bytes", p, n);
			goto bad;
		}
		fs->entries[fs->count].path = path;
		fs->entries[fs->count].value = bar2 + 1;
		fs->entries[fs->count].line = line;
		fs->entries[fs->count].rw = p[1] == 'w';
		fs->count++;
		p = next;
	}
	qsort(fs->entries, fs->count, sizeof(*fs->entries), entry_cmp);
	for (size_t i = 1; i < fs->count; i++) {
		const struct dump_entry *a = &fs->entries[i - 1], *b = &fs->entries[i];
		if (strcmp(a->path, b->path) == 0) {
			const struct dump_entry *later = a->line > b->line ? a : b;
			const struct dump_entry *first = a->line > b->line ? b : a;
			if (err && errlen)
				snprintf(err, errlen, "%s:%d: %s%.200s given twice (first on line %d)",
					 origin, later->line, prefix, later->path, first->line);
			goto bad;
		}
	}
	/* A file that is also a directory ("cpu0/online" and "cpu0/online/x"): the entries
	   below it need not follow it ("cpu0/online-x" sorts between), so they are looked for */
	for (size_t i = 0; i < fs->count; i++) {
		const struct dump_entry *a = &fs->entries[i];
		size_t an = strlen(a->path), lo = i + 1, hi = fs->count;
		while (lo < hi) { /* the first entry not below "PATH/" in sorted order */
			size_t mid = lo + (hi - lo) / 2;
			const char *m = fs->entries[mid].path;
			int c = strncmp(m, a->path, an);
			if (c < 0 || (c == 0 && (unsigned char)m[an] < '/'))
				lo = mid + 1;
			else
				hi = mid;
		}
		const struct dump_entry *b = lo < fs->count ? &fs->entries[lo] : NULL;
		if (b && strncmp(b->path, a->path, an) == 0 && b->path[an] == '/') {
			if (err && errlen)
				snprintf(err, errlen, "%s:%d: %s%.200s is a file (line %d) and a "
					 "directory", origin, b->line, prefix, a->path, a->line);
			goto bad;
		}
	}
	*out = fs;
	return 0;
bad:
	ik__sysfs_close(fs);
	return -1;
}

int ik__sysfs_open_dump(const char *path, struct ik_sysfs **out, char *err, size_t errlen)
{
	*out = NULL;
	char *buf;
	size_t len;
	struct ik_read_failure why;
	if (ik__read_file_whole(path, MAX_DUMP_BYTES, &buf, &len, &why)) {
		switch (why.why) {
		case IK_READ_OPEN:
			ik__errmsg(err, errlen, "%s: cannot open: %s", path, strerror(why.errnum));
			break;
		case IK_READ_NOT_REGULAR:
			ik__errmsg(err, errlen, "%s: %s; expected a sysfs dump file", path,
				   S_ISDIR(why.mode) ? "is a directory (a copied tree is --sysfs-root DIR)"
				   : S_ISFIFO(why.mode) ? "is a FIFO" : "not a regular file");
			break;
		case IK_READ_TOO_LARGE:
			ik__errmsg(err, errlen, "%s: larger than 256 MiB; not a sysfs dump?", path);
			break;
		case IK_READ_NO_MEMORY:
		case IK_READ_READ:
			ik__errmsg(err, errlen, "%s: cannot read: %s", path,
				   why.why == IK_READ_READ ? strerror(why.errnum) : "out of memory");
			break;
		}
		return -1;
	}
	int ret = ik__sysfs_parse_dump(path, buf, len, out, err, errlen);
	free(buf);
	return ret;
}

/* Index of the first entry whose path is >= key. */
static size_t lower_bound(const struct ik_sysfs *fs, const char *key)
{
	size_t lo = 0, hi = fs->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(fs->entries[mid].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct dump_entry *dump_find(const struct ik_sysfs *fs, const char *rel)
{
	size_t i = lower_bound(fs, rel);
	if (i < fs->count && strcmp(fs->entries[i].path, rel) == 0)
		return &fs->entries[i];
	return NULL;
}

/* ---- the view -------------------------------------------------------------------------- */

int ik__sysfs_read(const struct ik_sysfs *fs, const char *rel, char *buf, size_t len, char *err,
		  size_t errlen)
{
	if (len == 0)
		return IK_SYSFS_ERROR;
	if (!fs->is_dump)
		return tree_read(fs, rel, buf, len, err, errlen);
	const struct dump_entry *e = dump_find(fs, rel);
	if (!e)
		return IK_SYSFS_MISSING;
	size_t n = strlen(e->value);
	if (n >= len) {
		if (err && errlen)
			snprintf(err, errlen, "%s:%d: value of %.200s too long (%zu bytes)", fs->origin,
				 e->line, rel, n);
		return IK_SYSFS_ERROR;
	}
	memcpy(buf, e->value, n + 1);
	return IK_SYSFS_OK;
}

void ik__sysfs_where(const struct ik_sysfs *fs, const char *rel, char *buf, size_t len)
{
	if (fs->is_dump) {
		const struct dump_entry *e = dump_find(fs, rel);
		if (e)
			snprintf(buf, len, "%s:%d: %s/%s", fs->origin, e->line, CPU_DIR, rel);
		else
			snprintf(buf, len, "%s (%s/%s)", fs->origin, CPU_DIR, rel);
		return;
	}
	if (tree_path(fs, rel, buf, len) && len)
		snprintf(buf, len, "%s/...", fs->origin);
}

int ik__sysfs_read_u64(const struct ik_sysfs *fs, const char *rel, uint64_t *value, char *err,
		      size_t errlen)
{
	char buf[64], where[4096 + 256];
	int r = ik__sysfs_read(fs, rel, buf, sizeof(buf), err, errlen);

	if (r != IK_SYSFS_OK) {
		if (r == IK_SYSFS_ERROR && err && errlen && !err[0]) {
			ik__sysfs_where(fs, rel, where, sizeof(where));
			snprintf(err, errlen, "%s: expected an unsigned integer", where);
		}
		return r;
	}
	const char *p = buf;
	while (*p == ' ')
		p++;
	uint64_t v = 0;
	bool any = false, overflow = false;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			overflow = true;
		v = v * 10 + d;
		any = true;
	}
	while (*p == ' ')
		p++;
	if (!any || *p || overflow) {
		if (err && errlen) {
			ik__sysfs_where(fs, rel, where, sizeof(where));
			snprintf(err, errlen, "%s: expected an unsigned integer%s, got '%.40s'", where,
				 overflow ? " below 2^64" : "", buf);
		}
		return IK_SYSFS_ERROR;
	}
	*value = v;
	return IK_SYSFS_OK;
}

bool ik__sysfs_is_dir(const struct ik_sysfs *fs, const char *rel)
{
	if (!fs->is_dump) {
		char path[4096 + 256];
		struct stat st;
		return tree_path(fs, rel, path, sizeof(path)) == 0 && stat(path, &st) == 0 &&
		       S_ISDIR(st.st_mode);
	}
	if (!*rel)
		return true;
	char key[4096];
	int k = snprintf(key, sizeof(key), "%s/", rel);
	if (k < 0 || (size_t)k >= sizeof(key))
		return false;
	size_t i = lower_bound(fs, key);
	return i < fs->count && strncmp(fs->entries[i].path, key, (size_t)k) == 0;
}

int ik__sysfs_list(const struct ik_sysfs *fs, const char *rel,
		  int (*fn)(const char *name, void *arg), void *arg, char *err, size_t errlen)
{
	if (!fs->is_dump) {
		char path[4096 + 256];
		if (tree_path(fs, rel, path, sizeof(path))) {
			ik__errmsg(err, errlen, "%s/%.200s: path too long", fs->origin, rel);
			return IK_SYSFS_ERROR;
		}
		DIR *d = opendir(path);
		if (!d) {
			if (errno == ENOENT || errno == ENOTDIR)
				return IK_SYSFS_MISSING;
			ik__errmsg(err, errlen, "%s: cannot list: %s", path, strerror(errno));
			return IK_SYSFS_ERROR;
		}
		int ret = 0;
		struct dirent *de;
		while (ret == 0 && (errno = 0, de = readdir(d))) {
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			ret = fn(de->d_name, arg);
		}
		if (ret == 0 && errno) {
			ik__errmsg(err, errlen, "%s: cannot list: %s", path, strerror(errno));
			ret = IK_SYSFS_ERROR;
		}
		closedir(d);
		return ret;
	}

	char key[4096];
	int k = *rel ? snprintf(key, sizeof(key), "%s/", rel) : 0;
	if (k < 0 || (size_t)k >= sizeof(key))
		return IK_SYSFS_MISSING;
	key[k] = '\0';
	size_t i = lower_bound(fs, key);
	if (i >= fs->count || strncmp(fs->entries[i].path, key, (size_t)k) != 0)
		return IK_SYSFS_MISSING;
	char name[4096];
	name[0] = '\0';
	for (; i < fs->count && strncmp(fs->entries[i].path, key, (size_t)k) == 0; i++) {
		const char *rest = fs->entries[i].path + k;
		size_t n = strcspn(rest, "/");
		/* All entries below one child are adjacent in sorted order, whatever its name:
		 * two children first differ inside their names, or where one name ends. */
		if (strlen(name) == n && strncmp(name, rest, n) == 0)
			continue;
		memcpy(name, rest, n);
		name[n] = '\0';
		int ret = fn(name, arg);
		if (ret)
			return ret;
	}
	return 0;
}

bool ik__sysfs_writable(const struct ik_sysfs *fs, const char *rel)
{
	if (fs->is_dump) {
		const struct dump_entry *e = dump_find(fs, rel);
		return e && e->rw;
	}
	char path[4096 + 256];
	struct stat st;
	return tree_path(fs, rel, path, sizeof(path)) == 0 && stat(path, &st) == 0 &&
	       (st.st_mode & S_IWUSR);
}

int ik__sysfs_path(const struct ik_sysfs *fs, const char *rel, char *buf, size_t len)
{
	if (fs->is_dump)
		return -1;
	return tree_path(fs, rel, buf, len);
}
