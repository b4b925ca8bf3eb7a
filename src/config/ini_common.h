/*
 * What the platform and scenario INI readers share: driving libinih line by line (so every
 * message knows its line), where a value came from (a file line or a --set override),
 * error messages in one style, and value parsers that say what they expected.
 *
 * Message style, one line: "FILE:LINE: [section] key: expected ..., got '...'", or
 * "--set section.key=value: ..." for an override, or "FILE: ..." when no line applies.
 */
#ifndef IDLEKIT_SIM_INI_COMMON_H
#define IDLEKIT_SIM_INI_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a value or section came from. */
struct ik_ini_where {
	int line;             /* 1-based line of the file; 0 = none */
	const char *override; /* the --set text, or NULL */
	/* a line of another file on top of this one (a scenario's own platform keys), or
	   NULL: messages name it, and it may set again what this file set */
	const char *file;
};

/* Per section: whether it exists, where, and where each of its keys was set. */
#define IK_INI_MAX_KEYS 40
struct ik_ini_section {
	bool present;
	struct ik_ini_where where;
	bool set[IK_INI_MAX_KEYS];
	struct ik_ini_where key_where[IK_INI_MAX_KEYS];
};

/* Error sink: the caller's buffer (may be NULL/0) and the origin (file name) for prefixes. */
struct ik_ini_err {
	const char *origin;
	char *buf;
	size_t len;
};

/* e writes into buf (len bytes, emptied here) for the file named origin. */
void ik__ini_err_init(struct ik_ini_err *e, const char *origin, char *buf, size_t len);
/* Writes "PREFIX: message" into e->buf; returns -1. */
int ik__ini_fail(const struct ik_ini_err *e, struct ik_ini_where w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Parse INI text with libinih.  `section` is called for every "[name]" header line,
 * `key` for every "key = value"; each gets the line number and returns 0, or -1 after
 * writing a message with ik__ini_fail.  Parsing stops at the first error; a syntax error
 * (no '=', unclosed '[') or a line too long for libinih is reported here.  Leading
 * whitespace is ignored (no multi-line values) and "; comment" ends a line.
 */
struct ik_ini_callbacks {
	int (*section)(void *user, const char *name, int line);
	int (*key)(void *user, const char *section, const char *key, const char *value, int line);
};
int ik__ini_parse_text(const struct ik_ini_err *e, const char *text,
		      const struct ik_ini_callbacks *cb, void *user);

/*
 * Read a whole text file (a regular file, at most 4 MiB, no NUL byte) into a malloc'd
 * NUL-terminated buffer.  Returns 0, or -1 with "PATH: cannot open: reason" in err, and
 * the errno in *errno_out (0 for other failures) when errno_out is not NULL.
 */
int ik__ini_read_file(const char *path, char **text, char *err, size_t errlen, int *errno_out);
/* The same for any text file of the configuration (an rt-app JSON file, a learned model):
   at most max_bytes, its length in *len_out (may be NULL). */
int ik__config_read_file(const char *path, size_t max_bytes, char **text, size_t *len_out,
			char *err, size_t errlen, int *errno_out);

/* A list of items separated by blanks or commas ("0, 1 4"): p past the separators before
   its next item, or NULL when none is left; and whether c ends an item (the end too). */
const char *ik__ini_list_item(const char *p);
bool ik__ini_list_sep(char c);

/*
 * A workload's file (an rt-app JSON file, a learned model): a regular file only (a FIFO
 * would block), at most 64 MiB, read whole and given to parse with out; parse's result.
 */
int ik__config_load_workload_file(const char *path,
				 int (*parse)(const char *path, const char *text, size_t len,
					      void *out, char *err, size_t errlen),
				 void *out, char *err, size_t errlen);

/* A copy of v for a message: printable ASCII, at most ~60 characters, "..." if cut. */
const char *ik__ini_shown(const char *v, char *buf, size_t buflen);

/*
 * -1, with "unknown WHAT 'ref'; built-in WHATs: NAME..." in err: ref is neither a file path
 * nor one of the built-in list (config/scenario.h's ik__builtin_platforms or _scenarios).
 */
struct ik_builtin;
int ik__ini_unknown_builtin(const struct ik_builtin *list, const char *what, const char *ref,
			   char *err, size_t errlen);

/*
 * Value parsers: 0, or -1 with "expected ..., got '...'" in msg.
 * Integers: decimal digits (or 0x hex when allow_hex), a '-' only when min < 0, no junk,
 * no overflow.
 */
int ik__ini_int(const char *v, int64_t min, int64_t max, bool allow_hex, int64_t *out,
	       char *msg, size_t msglen);
int ik__ini_u64(const char *v, uint64_t *out, char *msg, size_t msglen);
int ik__ini_real(const char *v, double min, double max, double *out, char *msg, size_t msglen);
/* The shortest decimal text that ik__ini_real reads back as x (an integer without a point). */
void ik__ini_format_real(double x, char *buf, size_t len);
int ik__ini_bool(const char *v, bool *out, char *msg, size_t msglen);
/* One of names[0..n-1] exactly; *out = its index. */
int ik__ini_enum(const char *v, const char *const *names, int n, int *out, char *msg,
		size_t msglen);
/* Text of at most maxlen-1 bytes; if name_chars, 1+ characters of [A-Za-z0-9_.-]. */
int ik__ini_text(const char *v, size_t maxlen, bool name_chars, char *out, char *msg,
		size_t msglen);

/* Index of key in names[0..n-1], or -1. */
int ik__ini_key_index(const char *key, const char *const *names, int n);
/* "a b c" (names joined by spaces) into buf. */
const char *ik__ini_join(const char *const *names, int n, char *buf, size_t buflen);

/*
 * Record a key in its section: -1 with "duplicate key" when a file sets it twice (overrides
 * may set anything again: that is their purpose).
 */
int ik__ini_mark_key(const struct ik_ini_err *e, struct ik_ini_section *s, const char *section,
		    int index, const char *key, struct ik_ini_where w);

/*
 * An override "section.key=value": copies it into a malloc'd buffer (*storage, to free)
 * and points section, key and value into it (whitespace around each trimmed).  Returns 0,
 * or -1 with a message naming the override.
 */
int ik__ini_split_override(const char *ov, char **storage, char **section, char **key,
			  char **value, char *err, size_t errlen);

/* "<prefix>N" with N = first..max-1 without leading zeros: N, else -1. */
int ik__ini_prefixed_index(const char *section, const char *prefix, int first, int max);
/* "stateN" with N = 0..max-1 without leading zeros: N, else -1. */
int ik__ini_state_index(const char *section, int max);

#endif
