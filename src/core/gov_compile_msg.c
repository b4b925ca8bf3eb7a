/*
 * The messages of a kernel governor file that does not compile: the compiler's first
 * error turned into one line that names what is missing, a kernel symbol, macro or header
 * the shim lacks or the file does not include, and where the kernel has it; and the
 * compiler's warnings for the user's own file.
 *
 * Divisions: what is known missing; reading the compiler's lines; where the shim has a
 * name; the message; the warnings.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/gov_internal.h"

/*
 * Kernel symbols that real releases have and the shim does not serve, and where the kernel
 * declares them (read in the v5.10.7 and v6.19 trees).
 */
static const struct {
	const char *name, *where;
} known_missing[] = {
	{ "tick_nohz_get_idle_calls_cpu", "include/linux/tick.h, v5.10 to v6.19" },
	{ "cpuidle_get_last_residency", "include/linux/cpuidle.h before v5.7 (microseconds)" },
};

/* The text between the first opening quote (' or `) at or after p and the next '. */
static bool quoted(const char *p, char *buf, size_t len)
{
	const char *q = strchr(p, '\''), *t = strchr(p, '`');
	if (t && (!q || t < q))
		q = t;
	if (!q)
		return false;
	q++;
	const char *e = strchr(q, '\'');
	if (!e || e == q || (size_t)(e - q) >= len)
		return false;
	memcpy(buf, q, (size_t)(e - q));
	buf[e - q] = '\0';
	return true;
}

/*
 * The symbol a compiler or linker error line says is missing (gcc and clang wording):
 * "implicit declaration of function 'X'", "'X' undeclared", "use of undeclared identifier
 * 'X'", "unknown type name 'X'", "undefined reference to `X'".
 */
static bool missing_symbol(const char *l, char *buf, size_t len)
{
	static const char *const after[] = { "implicit declaration of function",
					     "undeclared identifier", "unknown type name",
					     "undefined reference to" };
	for (size_t i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		const char *p = strstr(l, after[i]);
		if (p)
			return quoted(p + strlen(after[i]), buf, len);
	}
	const char *e = strstr(l, "error: ");
	if (e && strstr(e, "' undeclared"))
		return quoted(e, buf, len);
	return false;
}


/* ---- Where the shim has a name ----------------------------------------------------------- */

/* Does the line define (#define NAME) or (unless defines_only) declare (NAME( after a
   type) the name? */
static bool line_has(const char *line, const char *name, bool defines_only)
{
	size_t n = strlen(name);
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "#define", 7) == 0) {
		p += 7;
		while (*p == ' ' || *p == '\t')
			p++;
		return strncmp(p, name, n) == 0 && !(isalnum((unsigned char)p[n]) || p[n] == '_');
	}
	if (defines_only || *p == '#' || *p == '*' || *p == '/')
		return false;
	for (const char *q = strstr(p, name); q; q = strstr(q + 1, name)) {
		bool start = q == p || !(isalnum((unsigned char)q[-1]) || q[-1] == '_');
		if (start && q > p && (q[n] == '(' || q[n] == ';' || q[n] == '[') &&
		    (q[-1] == ' ' || q[-1] == '*'))
			return true;
	}
	return false;
}

static bool file_has(const char *file, const char *name, bool defines_only)
{
	FILE *f = fopen(file, "r");
	char line[1024];
	bool found = false;
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = line_has(line, name, defines_only);
	fclose(f);
	return found;
}

/* The shim header (as "linux/x.h") that defines or declares name, searched in name order. */
static bool search_dir(const char *root, const char *rel, const char *name, char *hdr,
		       size_t len, int depth)
{
	char dir[PATH_MAX];
	struct dirent **ents;
	bool found = false;
	snprintf(dir, sizeof(dir), "%s%s%s", root, rel[0] ? "/" : "", rel);
	int n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return false;
	for (int i = 0; i < n; i++) {
		const char *nm = ents[i]->d_name;
		char sub[PATH_MAX], full[PATH_MAX];
		struct stat st;
		if (!found && nm[0] != '.' &&
		    (size_t)snprintf(sub, sizeof(sub), "%s%s%s", rel, rel[0] ? "/" : "", nm) <
			    sizeof(sub) &&
		    (size_t)snprintf(full, sizeof(full), "%s/%s", root, sub) < sizeof(full) &&
		    stat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < 3)
				found = search_dir(root, sub, name, hdr, len, depth + 1);
			else if (S_ISREG(st.st_mode) && strlen(nm) > 2 &&
				 strcmp(nm + strlen(nm) - 2, ".h") == 0 && strcmp(rel, "ikk") != 0 &&
				 file_has(full, name, false)) {
				size_t sl = strlen(sub);
				if (sl < len) {
					memcpy(hdr, sub, sl + 1);
					found = true;
				}
			}
		}
		free(ents[i]);
	}
	free(ents);
	return found;
}

static bool shim_header_of(const char *shim, const char *name, char *hdr, size_t len)
{
	char root[PATH_MAX];
	if ((size_t)snprintf(root, sizeof(root), "%s/include", shim) >= sizeof(root))
		return false;
	return search_dir(root, "", name, hdr, len, 0);
}

/* ---- Reading the compiler's lines -------------------------------------------------------- */

/* Did the compiler's quote of the source show the header as #include "hdr"? */
static bool included_quoted(const char *out, const char *hdr)
{
	char q[260];
	snprintf(q, sizeof(q), "\"%s\"", hdr);
	return strstr(out, q) != NULL;
}

static bool is_keyword(const char *w)
{
	static const char *const kw[] = { "if", "for", "while", "switch", "return", "sizeof",
					  "typeof", "__typeof__", "__attribute__", "_Static_assert",
					  "static", "extern", "struct", "union", "enum" };
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strcmp(w, kw[i]) == 0)
			return true;
	return false;
}

/*
 * The first error "FILE:LINE:COL: error: ..." at a line of the user's file that reads, at
 * file scope, NAME(...) (after an optional "static"): a function cannot be called there, so
 * NAME is a macro the compiler did not know.  The file is read for the line.
 */
static bool macro_at_file_scope(const char *path, const char *l, char *name, size_t len)
{
	size_t pl = strlen(path);
	if (strncmp(l, path, pl) != 0 || l[pl] != ':')
		return false;
	long lineno = strtol(l + pl + 1, NULL, 10);
	if (lineno < 1)
		return false;
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[1024];
	long at = 0;
	bool got = false;
	while (fgets(line, sizeof(line), f))
		if (++at == lineno) {
			got = true;
			break;
		}
	fclose(f);
	if (!got || line[0] == ' ' || line[0] == '\t')
		return false; /* indented: inside a function, where a call would be fine */
	const char *p = line;
	if (strncmp(p, "static ", 7) == 0)
		p += 7;
	size_t n = 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	if (n == 0 || n >= len || p[n] != '(' || isdigit((unsigned char)p[0]))
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	if (is_keyword(name) || file_has(path, name, true))
		return false; /* the file's own macro: a real syntax error */
	return true;
}

/* ---- The message ----------------------------------------------------------------------------- */

/* The compiler's first error, turned into one message (shim: see gov_internal.h). */
/*
 * The message for a kernel name (what: "symbol" or "macro") the file uses, at (its place in
 * the compiler's line l), and the shim lacks as the file includes it: the shim has it in a
 * header the file does not include, or not at all.
 */
static void shim_lacks(char *err, size_t errlen, const char *what, const char *at,
		       const char *sym, const char *shim, const char *l)
{
	char hdr[200];
	if (shim && shim_header_of(shim, sym, hdr, sizeof(hdr)))
		snprintf(err, errlen,
			 "%s: kernel %s '%s' is not in idlekit's kernel shim as the file includes "
			 "it: the shim has it in <%s>, which the file does not include (in the "
			 "kernel another header may bring it in)",
			 at, what, sym, hdr);
	else
		snprintf(err, errlen,
			 "%s: kernel %s '%s' is not in idlekit's kernel shim (not part of the "
			 "cpuidle governor API of v5.4 and v5.5 to v6.19 it serves); compiler: %s",
			 at, what, sym, l);
}

void ik__gov_compile_message_shim(const char *path, const char *out, int status,
				 const char *shim, char *err, size_t errlen)
{
	const char *line = out;
	char l[1024];
	bool found = false;

	while (*line) {
		size_t n = strcspn(line, "\n");
		if (n >= sizeof(l))
			n = sizeof(l) - 1;
		memcpy(l, line, n);
		l[n] = '\0';
		if (strstr(l, "error:") || strstr(l, "undefined reference")) {
			found = true;
			break;
		}
		line += strcspn(line, "\n");
		if (*line)
			line++;
	}
	if (!found) {
		snprintf(err, errlen, "the compiler failed (status %d) on %s: %.300s", status, path,
			 out[0] ? out : "no message");
		for (char *p = err; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		return;
	}

	char sym[128], hdr[200];
	if (missing_symbol(l, sym, sizeof(sym))) {
		const char *where = NULL;
		for (size_t i = 0; i < sizeof(known_missing) / sizeof(known_missing[0]); i++)
			if (strcmp(known_missing[i].name, sym) == 0)
				where = known_missing[i].where;
		char loc[600];
		const char *e = strstr(l, ": error:");
		snprintf(loc, sizeof(loc), "%.*s", e ? (int)(e - l) : 0, l);
		if (where)
			snprintf(err, errlen,
				 "%s: kernel symbol '%s' is not in idlekit's kernel shim (the kernel has "
				 "it in %s; the shim serves the cpuidle governor API of v5.4 and v5.5 "
				 "to v6.19)",
				 loc[0] ? loc : path, sym, where);
		else
			shim_lacks(err, errlen, "symbol", loc[0] ? loc : path, sym, shim, l);
		return;
	}
	/* A file-scope use of a macro the file cannot see: a syntax error in the compiler's
	   words; named here as a missing symbol is (only when building: it reads the file). */
	if (shim && macro_at_file_scope(path, l, sym, sizeof(sym))) {
		char loc[600];
		const char *e = strstr(l, ": error:");
		snprintf(loc, sizeof(loc), "%.*s", e ? (int)(e - l) : 0, l);
		shim_lacks(err, errlen, "macro", loc[0] ? loc : path, sym, shim, l);
		return;
	}
	/* gcc and clang: "FILE:L:C: fatal error: 'linux/x.h' file not found" or "linux/x.h: No such file" */
	const char *fe = strstr(l, "fatal error: ");
	if (fe && (strstr(fe, "No such file") || strstr(fe, "file not found"))) {
		const char *h = fe + strlen("fatal error: ");
		size_t n = strcspn(h, ":'");
		if (*h == '\'')
			n = strcspn(++h, "'");
		snprintf(hdr, sizeof(hdr), "%.*s", (int)n, h);
		/* "file.h" is looked for beside the file first; <file.h> only in the shim */
		bool quoted_form = included_quoted(out, hdr);
		snprintf(err, errlen,
			 "%.*s: header '%s' is not in idlekit's kernel shim (it serves the cpuidle "
			 "governor API of v5.4 and v5.5 to v6.19)%s",
			 (int)(fe - l > 2 ? fe - l - 2 : 0), l, hdr,
			 quoted_form ? " nor beside the file" :
			 "; a <...> header is looked for in the shim only");
		return;
	}
	snprintf(err, errlen, "does not compile: %s", l);
}


void ik__gov_compile_message(const char *path, const char *out, int status, char *err,
			    size_t errlen)
{
	ik__gov_compile_message_shim(path, out, status, NULL, err, errlen);
}

/* ---- The warnings ---------------------------------------------------------------------------- */

int ik__gov_compile_warnings(const char *path, const char *out, char *buf, size_t len)
{
	size_t pl = strlen(path), o = 0;
	int count = 0;
	bool keep = false; /* the lines that follow a warning of ours: its quote of the source */
	if (len)
		buf[0] = '\0';
	for (const char *line = out; *line;) {
		size_t n = strcspn(line, "\n");
		bool located = n > pl && strncmp(line, path, pl) == 0 && line[pl] == ':';
		if (memmem(line, n, " generated.", 11)) /* clang's "2 warnings generated." */
			keep = false;
		bool header = !located && memchr(line, ':', n) && !(line[0] == ' ');
		if (located && memmem(line, n, ": warning:", 10)) {
			count++;
			keep = true;
		} else if (located || header) {
			keep = located && memmem(line, n, ": note:", 7) != NULL && keep;
		}
		if (keep && o + n + 2 < len) {
			memcpy(buf + o, line, n);
			o += n;
			buf[o++] = '\n';
			buf[o] = '\0';
		}
		line += n;
		if (*line)
			line++;
	}
	return count;
}
