/*
 * Shared machinery of the platform and scenario readers (see ini_common.h).
 *
 * libinih reports only the line of the first error, and calls its handler without a line
 * number.  So we hand it the text ourselves, one line per read: the reader counts lines,
 * which gives every handler call its line, and it also does the few things libinih would
 * do differently from what we want: a leading-whitespace line must not continue the
 * previous value, "; comment" must not count towards libinih's 200-byte line buffer
 * (a long comment would otherwise be split into a second, bogus line), and a section
 * header must be checked even when no key follows it.
 *
 * Divisions: messages; driving libinih (lines, the reader, syntax errors); files; values
 * (integers, reals, booleans, enums, text); keys, sections and overrides.
 */
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/ini_common.h"
#include "config/scenario.h"
#include "util/errmsg.h"
#include "util/read_file.h"

#define MAX_FILE_BYTES (4 << 20)
#define MAX_OVERRIDE_BYTES 4096

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

const char *ik__ini_shown(const char *v, char *buf, size_t buflen)
{
	size_t n = 0, i = 0;

	if (!buf || buflen == 0)
		return "";
	if (!v)
		v = "";
	for (; v[i] && n + 4 < buflen; i++) {
		unsigned char c = (unsigned char)v[i];
		buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (v[i] && n + 4 <= buflen) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

bool ik__ini_list_sep(char c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == ',';
}

const char *ik__ini_list_item(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == ',')
		p++;
	return *p ? p : NULL;
}

int ik__ini_unknown_builtin(const struct ik_builtin *list, const char *what, const char *ref,
			   char *err, size_t errlen)
{
	char shown[160], names[256];
	size_t len = 0;

	names[0] = '\0';
	for (const struct ik_builtin *b = list; b->name && len < sizeof(names); b++) {
		int k = snprintf(names + len, sizeof(names) - len, "%s%s", len ? " " : "", b->name);
		if (k < 0)
			break;
		len += (size_t)k;
	}
	return ik__errmsg(err, errlen, "unknown %s '%s'; built-in %ss: %s (a file path must "
			  "contain '/' or end in .ini)", what,
			  ik__ini_shown(ref, shown, sizeof(shown)), what,
			  names[0] ? names : "none");
}

void ik__ini_err_init(struct ik_ini_err *e, const char *origin, char *buf, size_t len)
{
	e->origin = origin;
	e->buf = buf;
	e->len = len;
	if (buf && len)
		buf[0] = '\0';
}

int ik__ini_fail(const struct ik_ini_err *e, struct ik_ini_where w, const char *fmt, ...)
{
	char shown[128];
	size_t n = 0;
	int k;

	if (!e->buf || e->len == 0)
		return -1;
	if (w.override)
		k = snprintf(e->buf, e->len, "--set %s: ", ik__ini_shown(w.override, shown, sizeof(shown)));
	else if (w.line > 0)
		k = snprintf(e->buf, e->len, "%s:%d: ", w.file ? w.file : e->origin ? e->origin : "",
			     w.line);
	else if (e->origin)
		k = snprintf(e->buf, e->len, "%s: ", e->origin);
	else
		k = 0;
	if (k > 0)
		n = (size_t)k < e->len ? (size_t)k : e->len - 1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->buf + n, e->len - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- driving libinih ---------------------------------------------------------------- */

struct parse_ctx {
	const struct ik_ini_err *e;
	const struct ik_ini_callbacks *cb;
	void *user;
	const char *pos; /* start of the next line */
	int lineno;      /* of the line last handed to libinih */
	bool failed;
	int err_line;
};

/* The part of a line that matters: without indentation, comment and trailing space. */
static size_t line_content(const char **line, size_t len, bool first)
{
	const char *s = *line;

	if (first && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
		s += 3;
		len -= 3;
	}
	while (len && is_space(*s)) {
		s++;
		len--;
	}
	if (len && (*s == ';' || *s == '#'))
		len = 0;
	for (size_t i = 1; i < len; i++) {
		if (s[i] == ';' && is_space(s[i - 1])) {
			len = i;
			break;
		}
	}
	while (len && is_space(s[len - 1]))
		len--;
	*line = s;
	return len;
}

static char *reader(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;

	if (c->failed || *c->pos == '\0')
		return NULL;
	const char *line = c->pos;
	const char *nl = strchr(line, '\n');
	size_t len = nl ? (size_t)(nl - line) : strlen(line);
	c->pos = nl ? nl + 1 : line + len;
	c->lineno++;

	len = line_content(&line, len, c->lineno == 1);
	if (num < 2 || len + 2 > (size_t)num) {
		ik__ini_fail(c->e, (struct ik_ini_where){ c->lineno, NULL, NULL },
			    "line too long: %zu characters without its comment, at most %d", len,
			    num - 2);
		c->failed = true;
		c->err_line = c->lineno;
		return NULL;
	}
	memcpy(str, line, len);
	str[len] = '\n';
	str[len + 1] = '\0';

	if (len && line[0] == '[' && c->cb->section) {
		const char *close = memchr(line, ']', len);
		if (close) {
			char name[128];
			size_t n = (size_t)(close - line - 1);
			if (n >= sizeof(name))
				n = sizeof(name) - 1;
			memcpy(name, line + 1, n);
			name[n] = '\0';
			if (c->cb->section(c->user, name, c->lineno) != 0) {
				c->failed = true;
				c->err_line = c->lineno;
				return NULL;
			}
		}
	}
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *c = user;

	if (c->failed)
		return 1;
	if (c->cb->key(c->user, section, name, value, c->lineno) != 0) {
		c->failed = true;
		c->err_line = c->lineno;
		return 0;
	}
	return 1;
}

/* Describe the syntax error libinih found on line `lineno`. */
static int syntax_error(const struct ik_ini_err *e, const char *text, int lineno)
{
	const char *line = text;
	char buf[256], shown[80];

	for (int i = 1; i < lineno && line; i++) {
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (!line)
		line = "";
	const char *nl = strchr(line, '\n');
	size_t len = nl ? (size_t)(nl - line) : strlen(line);
	len = line_content(&line, len, lineno == 1);
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';

	struct ik_ini_where w = { lineno, NULL, NULL };
	if (buf[0] == '[')
		return ik__ini_fail(e, w, "expected ']' to close the section name, got '%s'",
				   ik__ini_shown(buf, shown, sizeof(shown)));
	return ik__ini_fail(e, w, "expected 'key = value', a [section] or a '; comment', got '%s'",
			   ik__ini_shown(buf, shown, sizeof(shown)));
}

int ik__ini_parse_text(const struct ik_ini_err *e, const char *text,
		      const struct ik_ini_callbacks *cb, void *user)
{
	struct parse_ctx c = { .e = e, .cb = cb, .user = user, .pos = text ? text : "" };

	int ret = ini_parse_stream(reader, &c, handler, &c);
	if (ret < 0)
		return ik__ini_fail(e, (struct ik_ini_where){ 0, NULL, NULL }, "out of memory");
	if (ret > 0 && (!c.failed || ret < c.err_line))
		return syntax_error(e, text ? text : "", ret);
	return c.failed ? -1 : 0;
}

/* ---- files --------------------------------------------------------------------------- */

int ik__ini_read_file(const char *path, char **text, char *err, size_t errlen, int *errno_out)
{
	return ik__config_read_file(path, MAX_FILE_BYTES, text, NULL, err, errlen, errno_out);
}

int ik__config_load_workload_file(const char *path,
				 int (*parse)(const char *path, const char *text, size_t len,
					      void *out, char *err, size_t errlen),
				 void *out, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	if (ik__config_read_file(path, 64u << 20, &buf, &len, err, errlen, NULL) != 0)
		return -1;
	int rc = parse(path, buf, len, out, err, errlen);
	free(buf);
	return rc;
}

int ik__config_read_file(const char *path, size_t max_bytes, char **text, size_t *len_out,
			char *err, size_t errlen, int *errno_out)
{
	char shown[160];
	char *buf;
	size_t len;
	struct ik_read_failure why;

	*text = NULL;
	if (errno_out)
		*errno_out = 0;
	ik__ini_shown(path, shown, sizeof(shown));
	if (ik__read_file_whole(path, max_bytes, &buf, &len, &why)) {
		bool dir = why.why == IK_READ_NOT_REGULAR && S_ISDIR(why.mode);
		if (errno_out)
			*errno_out = why.why == IK_READ_OPEN ? why.errnum
				     : dir ? EISDIR : why.why == IK_READ_NOT_REGULAR ? EINVAL : 0;
		switch (why.why) {
		case IK_READ_OPEN:
			return ik__errmsg(err, errlen, "%s: cannot open: %s", shown,
					  strerror(why.errnum));
		case IK_READ_NOT_REGULAR:
			return ik__errmsg(err, errlen, "%s: cannot open: %s", shown,
					 dir ? strerror(EISDIR) : "not a regular file");
		case IK_READ_TOO_LARGE:
			if (why.size >= 0)
				return ik__errmsg(err, errlen, "%s: too large: %lld bytes, more "
						  "than %zu", shown, (long long)why.size,
						  max_bytes);
			return ik__errmsg(err, errlen, "%s: too large: more than %zu bytes", shown,
					 max_bytes);
		case IK_READ_NO_MEMORY:
			return ik__errmsg(err, errlen, "%s: out of memory", shown);
		case IK_READ_READ:
			break;
		}
		return ik__errmsg(err, errlen, "%s: cannot read: %s", shown, strerror(why.errnum));
	}
	if (memchr(buf, '\0', len)) {
		free(buf);
		return ik__errmsg(err, errlen, "%s: contains a NUL byte: not a text file", shown);
	}
	*text = buf;
	if (len_out)
		*len_out = len;
	return 0;
}

/* ---- values -------------------------------------------------------------------------- */

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* The digits of s, decimal or (allow_hex) 0x hex, as a u64: false if empty, bad or too big. */
static bool parse_unsigned(const char *s, bool allow_hex, uint64_t *out)
{
	unsigned base = 10;
	uint64_t acc = 0;

	if (allow_hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (*s == '\0')
		return false;
	for (; *s; s++) {
		unsigned d = (unsigned)digit_value(*s);
		if (d >= base || acc > (UINT64_MAX - d) / base)
			return false;
		acc = acc * base + d;
	}
	*out = acc;
	return true;
}

int ik__ini_int(const char *v, int64_t min, int64_t max, bool allow_hex, int64_t *out,
	       char *msg, size_t msglen)
{
	const char *s = v ? v : "";
	bool neg = false;
	uint64_t acc;
	int64_t value;
	char shown[80];

	if (*s == '-' && min < 0) {
		neg = true;
		s++;
	}
	if (!parse_unsigned(s, allow_hex, &acc))
		goto bad;
	if (neg) {
		if (acc > (uint64_t)INT64_MAX + 1)
			goto bad;
		value = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc;
	} else {
		if (acc > (uint64_t)INT64_MAX)
			goto bad;
		value = (int64_t)acc;
	}
	if (value < min || value > max)
		goto bad;
	*out = value;
	return 0;
bad:
	return ik__errmsg(msg, msglen, "expected an integer %" PRId64 "..%" PRId64 "%s, got '%s'",
			  min, max, allow_hex ? " (decimal or 0x hex)" : "",
			  ik__ini_shown(v, shown, sizeof(shown)));
}

int ik__ini_u64(const char *v, uint64_t *out, char *msg, size_t msglen)
{
	char shown[80];

	if (parse_unsigned(v ? v : "", true, out))
		return 0;
	return ik__errmsg(msg, msglen,
			  "expected an integer 0..%" PRIu64 " (decimal or 0x hex), got '%s'",
			  UINT64_MAX, ik__ini_shown(v, shown, sizeof(shown)));
}

int ik__ini_real(const char *v, double min, double max, double *out, char *msg, size_t msglen)
{
	const char *s = v ? v : "";
	char shown[80];
	char *end;

	/* Plain decimal notation: no hex floats, "inf" or "nan"; strtod does the rounding. */
	if (*s == '\0' || s[strspn(s, "0123456789.eE+-")] != '\0')
		goto bad;
	errno = 0;
	double x = strtod(s, &end);
	if (*end != '\0' || errno == ERANGE || !isfinite(x) || x < min || x > max)
		goto bad;
	*out = x + 0.0; /* -0 becomes 0 */
	return 0;
bad:
	return ik__errmsg(msg, msglen, "expected a number %.15g..%.15g, got '%s'", min, max,
			 ik__ini_shown(v, shown, sizeof(shown)));
}

int ik__ini_bool(const char *v, bool *out, char *msg, size_t msglen)
{
	static const char *const yes[] = { "yes", "true", "1" };
	static const char *const no[] = { "no", "false", "0" };
	char shown[80];

	for (int i = 0; i < 3; i++) {
		if (v && strcmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (v && strcmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return ik__errmsg(msg, msglen, "expected yes, no, true, false, 1 or 0, got '%s'",
			 ik__ini_shown(v, shown, sizeof(shown)));
}

int ik__ini_enum(const char *v, const char *const *names, int n, int *out, char *msg,
		size_t msglen)
{
	char list[256], shown[80];

	for (int i = 0; i < n; i++) {
		if (v && strcmp(v, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	return ik__errmsg(msg, msglen, "expected one of: %s, got '%s'",
			  ik__ini_join(names, n, list, sizeof(list)),
			  ik__ini_shown(v, shown, sizeof(shown)));
}

int ik__ini_text(const char *v, size_t maxlen, bool name_chars, char *out, char *msg,
		size_t msglen)
{
	char shown[80];
	size_t len = v ? strlen(v) : 0;

	if (!v)
		v = "";
	if (name_chars) {
		if (len == 0 || v[strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					  "0123456789_.-")] != '\0')
			return ik__errmsg(msg, msglen, "expected a name of letters, digits, '_', "
					  "'.' or '-', got '%s'",
					  ik__ini_shown(v, shown, sizeof(shown)));
	}
	if (len >= maxlen)
		return ik__errmsg(msg, msglen, "expected at most %zu characters, got %zu ('%s')",
				 maxlen - 1, len, ik__ini_shown(v, shown, sizeof(shown)));
	memcpy(out, v, len + 1);
	return 0;
}

/* ---- keys, sections and overrides ---------------------------------------------------- */

int ik__ini_key_index(const char *key, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(key, names[i]) == 0)
			return i;
	return -1;
}

const char *ik__ini_join(const char *const *names, int n, char *buf, size_t buflen)
{
	size_t len = 0;

	if (!buf || buflen == 0)
		return "";
	buf[0] = '\0';
	for (int i = 0; i < n && len < buflen; i++) {
		int k = snprintf(buf + len, buflen - len, "%s%s", i ? " " : "", names[i]);
		if (k < 0)
			break;
		len += (size_t)k;
	}
	return buf;
}

int ik__ini_mark_key(const struct ik_ini_err *e, struct ik_ini_section *s, const char *section,
		    int index, const char *key, struct ik_ini_where w)
{
	if (index < 0 || index >= IK_INI_MAX_KEYS)
		return ik__ini_fail(e, w, "[%s] %s: internal error: key index %d", section, key, index);
	if (!w.override && !w.file && s->set[index] && !s->key_where[index].override &&
	    !s->key_where[index].file)
		return ik__ini_fail(e, w, "[%s] %s: duplicate key (first set on line %d)", section, key,
				   s->key_where[index].line);
	s->set[index] = true;
	s->key_where[index] = w;
	return 0;
}

static char *trim(char *s)
{
	while (is_space(*s))
		s++;
	size_t n = strlen(s);
	while (n && is_space(s[n - 1]))
		s[--n] = '\0';
	return s;
}

int ik__ini_split_override(const char *ov, char **storage, char **section, char **key,
			  char **value, char *err, size_t errlen)
{
	char shown[128];
	size_t len;

	*storage = NULL;
	if (!ov)
		ov = "";
	len = strlen(ov);
	if (len > MAX_OVERRIDE_BYTES)
		return ik__errmsg(err, errlen, "--set %s: too long: %zu characters, at most %d",
				 ik__ini_shown(ov, shown, sizeof(shown)), len, MAX_OVERRIDE_BYTES);
	char *copy = malloc(len + 1);
	if (!copy)
		return ik__errmsg(err, errlen, "--set %s: out of memory",
				  ik__ini_shown(ov, shown, sizeof(shown)));
	memcpy(copy, ov, len + 1);

	char *eq = strchr(copy, '=');
	if (!eq) {
		free(copy);
		return ik__errmsg(err, errlen, "--set %s: expected section.key=value, found no '='",
				 ik__ini_shown(ov, shown, sizeof(shown)));
	}
	*eq = '\0';
	char *left = trim(copy);
	char *dot = strchr(left, '.');
	if (!dot) {
		free(copy);
		return ik__errmsg(err, errlen, "--set %s: expected section.key=value, found no '.' "
				  "between section and key",
				  ik__ini_shown(ov, shown, sizeof(shown)));
	}
	*dot = '\0';
	*section = trim(left);
	*key = trim(dot + 1);
	*value = trim(eq + 1);
	if (**section == '\0' || **key == '\0') {
		const char *what = **section ? "key" : "section";
		free(copy);
		return ik__errmsg(err, errlen, "--set %s: expected section.key=value, got an empty "
				  "%s", ik__ini_shown(ov, shown, sizeof(shown)), what);
	}
	*storage = copy;
	return 0;
}

int ik__ini_prefixed_index(const char *section, const char *prefix, int first, int max)
{
	size_t n = strlen(prefix);
	if (strncmp(section, prefix, n) != 0)
		return -1;
	const char *d = section + n;
	if (*d == '\0' || (d[0] == '0' && d[1] != '\0'))
		return -1;
	int v = 0;
	for (; *d; d++) {
		if (*d < '0' || *d > '9')
			return -1;
		v = v * 10 + (*d - '0');
		if (v >= max)
			return -1;
	}
	return v >= first ? v : -1;
}

int ik__ini_state_index(const char *section, int max)
{
	return ik__ini_prefixed_index(section, "state", 0, max);
}

void ik__ini_format_real(double x, char *buf, size_t len)
{
	if (x == (double)(int64_t)x && x > -1e15 && x < 1e15) {
		snprintf(buf, len, "%" PRId64, (int64_t)x);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}
