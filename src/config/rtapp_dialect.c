/*
 * rt-app's JSON dialect, made strict JSON for the reader (rtapp_json.c, jansson).
 *
 * rt-app reads its files with json-c, which takes C comments (slash-star and slash-slash)
 * and a comma before a closing brace or bracket; and its examples repeat keys (several
 * "run" events in one phase), which its workgen script makes unique by numbering the
 * repeats within their object in file order: the second "run" becomes "run1", a later one
 * the next free number ("run2"), the counter being shared by the object's keys as workgen
 * shares it.  rt-app matches events by prefix, so "run1" is a run event.  One repair is
 * made where a file leaves JSON for good: a key with no value (rt-app's own video examples
 * write `"suspend",`, an event whose value rt-app ignores) is read as "key": "".
 *
 * Comments and commas become spaces, so lines and columns of the text after them are
 * unchanged for the reader's messages; a renamed key or a repair lengthens its own line.
 * The numbering and the repair are each said in a note (rt-app users rely on neither
 * silently).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/rtapp_json.h"

#define MAX_DEPTH 64
#define KEY_MAX 128

struct frame {
	bool object;   /* else an array */
	bool want_key; /* an object's next string is a key */
	int curid;     /* workgen's counter for this object's repeated keys */
	char (*keys)[KEY_MAX];
	int nkeys, cap;
	int *slots;    /* a hash set of keys (indices + 1, 0 empty): an object of n keys is
			  read in O(n), not O(n^2) */
	int nslots;    /* a power of two, at least twice nkeys */
};

struct out {
	char *p;
	size_t n, cap;
	bool oom;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->oom)
		return;
	if (o->n + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		while (o->n + n + 1 > cap)
			cap *= 2;
		char *p = realloc(o->p, cap);
		if (!p) {
			o->oom = true;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = '\0';
}

static void note(char *notes, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One more line of notes (dropped when they are full). */
static void note(char *notes, size_t len, const char *fmt, ...)
{
	if (!notes || !len)
		return;
	size_t used = strlen(notes);
	if (used + 2 >= len)
		return;
	char one[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	snprintf(notes + used, len - used, "%s%s", used ? "\n" : "", one);
}

/* Skip white space and comments from i (comments written out as spaces, newlines kept). */
static size_t skip(const char *t, size_t len, size_t i, struct out *o, bool copy)
{
	for (;;) {
		if (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) {
			if (copy)
				put(o, t + i, 1);
			i++;
		} else if (i + 1 < len && t[i] == '/' && t[i + 1] == '/') {
			while (i < len && t[i] != '\n') {
				if (copy)
					put(o, " ", 1);
				i++;
			}
		} else if (i + 1 < len && t[i] == '/' && t[i + 1] == '*') {
			size_t end = i + 2;
			while (end + 1 < len && !(t[end] == '*' && t[end + 1] == '/'))
				end++;
			end = end + 1 < len ? end + 2 : len; /* an unclosed one runs to the end */
			for (; i < end; i++)
				if (copy)
					put(o, t[i] == '\n' ? "\n" : " ", 1);
		} else {
			return i;
		}
	}
}

/* The end of the string starting at t[i] == '"' (the index after its closing quote). */
static size_t string_end(const char *t, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (t[i] == '\\')
			i++;
		else if (t[i] == '"')
			return i + 1;
	}
	return len;
}

static uint32_t key_hash(const char *k)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 16777619u;
	return h;
}

static bool has_key(const struct frame *f, const char *k)
{
	if (!f->nslots)
		return false;
	for (uint32_t i = key_hash(k) & (uint32_t)(f->nslots - 1);; i = (i + 1) & (uint32_t)(f->nslots - 1)) {
		int at = f->slots[i];
		if (!at)
			return false;
		if (strcmp(f->keys[at - 1], k) == 0)
			return true;
	}
}

static void slot_in(int *slots, int nslots, const char *k, int index)
{
	uint32_t i = key_hash(k) & (uint32_t)(nslots - 1);
	while (slots[i])
		i = (i + 1) & (uint32_t)(nslots - 1);
	slots[i] = index + 1;
}

static int add_key(struct frame *f, const char *k)
{
	if (f->nkeys == f->cap) {
		int cap = f->cap ? 2 * f->cap : 16;
		char (*keys)[KEY_MAX] = realloc(f->keys, (size_t)cap * sizeof(*keys));
		if (!keys)
			return -1;
		f->keys = keys;
		f->cap = cap;
	}
	if (2 * (f->nkeys + 1) > f->nslots) {
		int nslots = f->nslots ? 2 * f->nslots : 32;
		int *slots = calloc((size_t)nslots, sizeof(*slots));
		if (!slots)
			return -1;
		for (int i = 0; i < f->nkeys; i++)
			slot_in(slots, nslots, f->keys[i], i);
		free(f->slots);
		f->slots = slots;
		f->nslots = nslots;
	}
	snprintf(f->keys[f->nkeys], KEY_MAX, "%s", k);
	slot_in(f->slots, f->nslots, f->keys[f->nkeys], f->nkeys);
	f->nkeys++;
	return 0;
}

static int line_of(const char *t, size_t i)
{
	int line = 1;
	for (size_t k = 0; k < i; k++)
		line += t[k] == '\n';
	return line;
}

int ik__rtapp_dialect(const char *origin, const char *text, size_t len, char **json,
		     size_t *json_len, char *notes, size_t noteslen)
{
	struct frame st[MAX_DEPTH];
	int depth = 0;
	struct out o = { 0 };
	size_t i = 0;
	int renamed = 0;
	char first[160] = ""; /* the first renamed key, for the note */
	int bare = 0;
	char first_bare[100] = "";

	if (notes && noteslen)
		notes[0] = '\0';
	memset(st, 0, sizeof(st));
	while (i < len && !o.oom) {
		i = skip(text, len, i, &o, true);
		if (i >= len)
			break;
		char c = text[i];
		struct frame *f = depth > 0 ? &st[depth - 1] : NULL;
		if (c == '{' || c == '[') {
			put(&o, text + i, 1);
			i++;
			if (depth < MAX_DEPTH) {
				struct frame *n = &st[depth++];
				n->object = c == '{';
				n->want_key = n->object;
				n->curid = 1;
				n->nkeys = 0;
				if (n->nslots)
					memset(n->slots, 0, (size_t)n->nslots * sizeof(*n->slots));
			}
			continue;
		}
		if (c == '}' || c == ']') {
			put(&o, text + i, 1);
			i++;
			if (depth > 0)
				depth--;
			if (depth > 0)
				st[depth - 1].want_key = false;
			continue;
		}
		if (c == ',') {
			size_t next = skip(text, len, i + 1, &o, false);
			if (next < len && (text[next] == '}' || text[next] == ']')) {
				put(&o, " ", 1); /* json-c's trailing comma */
			} else {
				put(&o, ",", 1);
				if (f && f->object)
					f->want_key = true;
			}
			i++;
			continue;
		}
		if (c == '"' && f && f->object && f->want_key) {
			size_t end = string_end(text, len, i);
			size_t after = skip(text, len, end, &o, false);
			/* the key, cut so that the number a repeated key gets (an int: up to 11
			 * characters) still fits in KEY_MAX */
			char key[KEY_MAX - 12];
			size_t klen = end - i >= 2 ? end - i - 2 : 0;
			snprintf(key, sizeof(key), "%.*s", (int)(klen < sizeof(key) ? klen : sizeof(key) - 1),
				 text + i + 1);
			char name[KEY_MAX];
			snprintf(name, sizeof(name), "%s", key);
			if (has_key(f, key)) {
				do
					snprintf(name, sizeof(name), "%s%d", key, f->curid);
				while (has_key(f, name) && ++f->curid < 1000000);
				if (renamed++ == 0)
					snprintf(first, sizeof(first), "line %d: \"%.60s\" read as \"%.60s\"",
						 line_of(text, i), key, name);
				put(&o, "\"", 1);
				put(&o, name, strlen(name));
				put(&o, "\"", 1);
			} else {
				put(&o, text + i, end - i);
			}
			if (add_key(f, name))
				o.oom = true;
			if (after < len && (text[after] == ',' || text[after] == '}')) {
				/* a key with no value: rt-app's video examples' "suspend", */
				put(&o, ": \"\"", 4);
				if (bare++ == 0)
					snprintf(first_bare, sizeof(first_bare), "line %d: \"%.60s\"",
						 line_of(text, i), key);
			}
			f->want_key = false;
			i = end;
			continue;
		}
		if (c == '"') {
			size_t end = string_end(text, len, i);
			put(&o, text + i, end - i);
			i = end;
			continue;
		}
		if (c == ':') {
			put(&o, ":", 1);
			if (f && f->object)
				f->want_key = false;
			i++;
			continue;
		}
		/* a number, true, false, null, or anything else the reader will judge */
		put(&o, text + i, 1);
		i++;
	}
	for (int k = 0; k < MAX_DEPTH; k++) {
		free(st[k].keys);
		free(st[k].slots);
	}
	if (bare)
		note(notes, noteslen, "%s: %d key%s with no value (not JSON; as rt-app's video "
		     "examples write \"suspend\",) read with the value \"\" (%s)", origin, bare,
		     bare > 1 ? "s" : "", first_bare);
	if (renamed)
		note(notes, noteslen, "%s: %d repeated key%s numbered in file order, as rt-app's "
		     "workgen does (%s)", origin, renamed, renamed > 1 ? "s" : "", first);
	if (o.oom) {
		free(o.p);
		return -1;
	}
	if (!o.p)
		put(&o, "", 0);
	if (o.oom)
		return -1;
	*json = o.p;
	*json_len = o.n;
	return 0;
}
