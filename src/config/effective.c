/*
 * The effective configuration (config/config.h): what the readers were given, the
 * ordered list of every key they know with its value and origin, and that list printed
 * back as a scenario file.
 *
 * The readers own the key tables; they call ik__config_emit() once per key of each table,
 * in table order, so the configuration cannot miss a key a reader accepts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/effective.h"

extern const char ik__version_text[]; /* generated at build time (cmake/version.cmake) */

const char *ik__version(void)
{
	return ik__version_text;
}

static const char *const origin_names[IK_ORIGIN_COUNT] = {
	[IK_ORIGIN_DEFAULT] = "default",   [IK_ORIGIN_DERIVED] = "derived",
	[IK_ORIGIN_SCENARIO] = "scenario", [IK_ORIGIN_PLATFORM] = "platform",
	[IK_ORIGIN_SET] = "set",
};

const char *ik__config_origin_name(enum ik_config_origin o)
{
	return (unsigned)o < IK_ORIGIN_COUNT ? origin_names[o] : "?";
}

int ik__config_origin_parse(const char *name, size_t len, enum ik_config_origin *out)
{
	for (int i = 0; i < IK_ORIGIN_COUNT; i++)
		if (strlen(origin_names[i]) == len && memcmp(origin_names[i], name, len) == 0) {
			*out = (enum ik_config_origin)i;
			return 0;
		}
	return -1;
}

struct ik_config *ik__config_new(void)
{
	return calloc(1, sizeof(struct ik_config));
}

void ik__config_free(struct ik_config *cfg)
{
	free(cfg);
}

static struct ik_config_entry *find(struct ik_config_entry *list, int n, const char *section,
				    const char *key)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i].section, section) == 0 && strcmp(list[i].key, key) == 0)
			return &list[i];
	return NULL;
}

const struct ik_config_entry *ik__config_find(const struct ik_config *cfg, const char *section,
					     const char *key)
{
	return cfg ? find((struct ik_config_entry *)cfg->entry, cfg->n, section, key) : NULL;
}

/* Into list: replace section.key or append; -1 with a message when it does not fit. */
static int put(struct ik_config_entry *list, int *n, const char *section, const char *key,
	       const char *value, enum ik_config_origin origin, char *msg, size_t msglen)
{
	if (strlen(section) >= IK_CONFIG_SECTION_LEN || strlen(key) >= IK_CONFIG_KEY_LEN) {
		snprintf(msg, msglen, "expected a section of at most %d and a key of at most %d "
			 "characters", IK_CONFIG_SECTION_LEN - 1, IK_CONFIG_KEY_LEN - 1);
		return -1;
	}
	if (value && strlen(value) >= IK_CONFIG_VALUE_LEN) {
		snprintf(msg, msglen, "expected a value of at most %d characters (to be recorded "
			 "in the result)", IK_CONFIG_VALUE_LEN - 1);
		return -1;
	}
	struct ik_config_entry *e = find(list, *n, section, key);
	if (!e) {
		if (*n >= IK_CONFIG_MAX) {
			snprintf(msg, msglen, "more than %d keys in one configuration", IK_CONFIG_MAX);
			return -1;
		}
		e = &list[(*n)++];
		memset(e, 0, sizeof(*e));
		memcpy(e->section, section, strlen(section) + 1);
		memcpy(e->key, key, strlen(key) + 1);
	}
	e->has_value = value != NULL;
	e->value[0] = '\0';
	if (value)
		memcpy(e->value, value, strlen(value) + 1);
	e->origin = origin;
	return 0;
}

int ik__config_give(struct ik_config *cfg, const char *section, const char *key,
		   const char *value, enum ik_config_origin origin, char *msg, size_t msglen)
{
	if (!cfg)
		return 0;
	return put(cfg->given, &cfg->ngiven, section, key, value, origin, msg, msglen);
}

const struct ik_config_entry *ik__config_given(const struct ik_config *cfg, const char *section,
					      const char *key)
{
	return cfg ? find((struct ik_config_entry *)cfg->given, cfg->ngiven, section, key) : NULL;
}

/* FNV-1a of a value, as 8 hex digits: which value an [origin] line is for, in a short line. */
static void value_tag(const char *v, char out[12])
{
	unsigned long h = 2166136261UL;
	for (; *v; v++)
		h = ((h ^ (unsigned char)*v) * 16777619UL) & 0xffffffffUL;
	snprintf(out, 12, "#%08lx", h);
}

int ik__config_carry(struct ik_config *cfg, const char *section, const char *key,
		    const char *text, char *msg, size_t msglen)
{
	size_t len = strcspn(text, " \t");
	enum ik_config_origin o;
	const char *tag = text + len;
	tag += strspn(tag, " \t");

	if (ik__config_origin_parse(text, len, &o) != 0 || tag[0] != '#' || strlen(tag) != 9 ||
	    strspn(tag + 1, "0123456789abcdef") != 8) {
		snprintf(msg, msglen, "expected an origin (default, derived, scenario, platform or "
			 "set) and the tag of the value it is for, e.g. 'default #1a2b3c4d'");
		return -1;
	}
	if (!cfg)
		return 0;
	return put(cfg->carried, &cfg->ncarried, section, key, tag, o, msg, msglen);
}

int ik__config_emit(struct ik_config *cfg, const char *section, const char *key,
		   const char *default_value, enum ik_config_origin default_origin)
{
	char msg[160];

	if (!cfg)
		return 0;
	const struct ik_config_entry *g = ik__config_given(cfg, section, key);
	const char *value = g ? (g->has_value ? g->value : NULL) : default_value;
	enum ik_config_origin origin = g ? g->origin : default_origin;
	/* A printed configuration says where its values first came from; an edited value
	   no longer matches and keeps the origin of the file it is in. */
	const struct ik_config_entry *c = find(cfg->carried, cfg->ncarried, section, key);
	char tag[12];
	if (c && value) {
		value_tag(value, tag);
		if (strcmp(c->value, tag) == 0)
			origin = c->origin;
	}
	return put(cfg->entry, &cfg->n, section, key, value, origin, msg, sizeof(msg));
}

int ik__config_emit_derived(struct ik_config *cfg, const char *section, const char *key,
			   const char *value)
{
	if (!cfg)
		return 0;
	bool given = ik__config_given(cfg, section, key) != NULL;
	if (ik__config_emit(cfg, section, key, value, IK_ORIGIN_DERIVED))
		return -1;
	struct ik_config_entry *e = find(cfg->entry, cfg->n, section, key);
	if (e)
		e->implicit = !given && value;
	return 0;
}

/* A value that reads back the same from a "key = value" line: no " ;" (a comment there),
   no line end, and short enough for the reader's line buffer. */
#define MAX_LINE 190
static bool printable(const struct ik_config_entry *e)
{
	const char *v = e->value;
	for (size_t i = 1; v[0] && v[i]; i++)
		if (v[i] == ';' && (v[i - 1] == ' ' || v[i - 1] == '\t'))
			return false;
	return strchr(v, '\n') == NULL && v[0] != ';' &&
	       strlen(e->key) + 3 + strlen(v) <= MAX_LINE;
}

int ik__config_print_ini(FILE *out, const struct ik_config *cfg, const char *command)
{
	const char *section = "";

	fprintf(out, "; The effective configuration, printed by idlekit %s%s%s.\n", ik__version(),
		command ? ": " : "", command ? command : "");
	fprintf(out, "; Run it again (idlekit sim FILE) for the same result, byte for byte.\n"
		     "; The platform keys below apply on top of the platform the scenario names;\n"
		     "; [origin] records where each value first came from (edit a value and its\n"
		     "; origin becomes this file).\n");
	for (int i = 0; i < cfg->n; i++) {
		const struct ik_config_entry *e = &cfg->entry[i];
		if (strcmp(e->section, section) != 0) {
			fprintf(out, "\n[%s]\n", e->section);
			section = e->section;
		}
		if (!e->has_value)
			fprintf(out, "; %s: not set (nothing to record)\n", e->key);
		else if (e->implicit)
			fprintf(out, "; %s = %s   (not given: the reader's default)\n", e->key,
				e->value);
		else if (!printable(e))
			fprintf(out, "; %s: this value cannot be written back in an INI line\n",
				e->key);
		else
			fprintf(out, "%s = %s\n", e->key, e->value);
	}
	fprintf(out, "\n[origin]\n");
	for (int i = 0; i < cfg->n; i++) {
		const struct ik_config_entry *e = &cfg->entry[i];
		char tag[12];
		if (!e->has_value || e->implicit || e->origin == IK_ORIGIN_SCENARIO || !printable(e))
			continue;
		value_tag(e->value, tag);
		fprintf(out, "%s.%s = %s %s\n", e->section, e->key, ik__config_origin_name(e->origin),
			tag);
	}
	return ferror(out) ? -1 : 0;
}
