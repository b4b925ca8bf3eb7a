/*
 * The platform reader in steps, for the scenario reader: a scenario loads its platform,
 * applies "--set platform.x=..." and "--set stateN.x=..." overrides to it as if they were
 * in the platform file, and only then validates it.  (ik__platform_load() and
 * ik__platform_parse_string() in scenario.h are these steps without overrides.)
 */
#ifndef IDLEKIT_SIM_PLATFORM_INI_H
#define IDLEKIT_SIM_PLATFORM_INI_H

#include <stdio.h>

#include "config/scenario.h"
#include "config/ini_common.h"
#include "config/config.h"

#define IK_PLATFORM_ORIGIN_LEN 512
/* What the reader accepts. */
#define IK_PLATFORM_MAX_CPUS 8192
#define IK_PLATFORM_MAX_THREADS_PER_CORE 8 /* SMT8 exists on POWER */
#define IK_PLATFORM_MAX_STATE_US 100000000
#define IK_PLATFORM_MAX_POWER_MW 1000000
/* poll_wake_ns, context_switch_ns: a second is plenty */
#define IK_PLATFORM_MAX_COST_NS 1000000000
/* The platform sections, for "known sections" messages. */
#define IK_PLATFORM_SECTIONS "platform state0..state9 cpuid acpi cst1..cst8 intel_idle dt_state0..dt_state15 effects os haltpoll"


struct ik_platform_reader {
	char origin[IK_PLATFORM_ORIGIN_LEN]; /* the file name in messages */
	struct ik_ini_err e;
	struct ik_platform *p;
	struct ik_ini_section platform;
	struct ik_ini_section state[IK_STATE_MAX];
	struct ik_ini_section cpuid;
	struct ik_ini_section acpi;
	struct ik_ini_section cst[IK_CST_MAX + 1]; /* [cst1]..[cst8]; cst[0] unused */
	struct ik_ini_section intel_idle;
	struct ik_ini_section effects;
	struct ik_ini_section os;
	struct ik_ini_section haltpoll;
	struct ik_ini_section dt[IK_DT_STATE_MAX];
	struct ik_dist exit_ns[IK_STATE_MAX]; /* exit_ns as given, the default per wake source */
	struct ik_config *cfg; /* where to record the keys given (NULL = nowhere) */
};

/* Sets p to the defaults and messages to say `origin`. */
void ik__platform_reader_init(struct ik_platform_reader *r, const char *origin,
			     struct ik_platform *p, char *err, size_t errlen);
/* Reads a platform file's text; 0 or -1. */
int ik__platform_reader_parse(struct ik_platform_reader *r, const char *text);
/* One key, from an override (w.override set) or a file line; 0 or -1. */
int ik__platform_reader_set(struct ik_platform_reader *r, const char *section, const char *key,
			   const char *value, struct ik_ini_where w);
/* Defaults that depend on other keys, then the checks; 0 or -1. */
int ik__platform_reader_finish(struct ik_platform_reader *r);
/* Every platform key into r->cfg (config/config.h), after finish; 0 or -1. */
int ik__platform_reader_config(struct ik_platform_reader *r);

/*
 * What a platform made from a real machine runs ([os], [haltpoll]), as a scenario's defaults
 * (src/config/platform_ini.c).  ik__platform_os_defaults: the driver, the governor and
 * haltpoll_force the platform names, and its background wake-ups as kernel.housekeeping_hz,
 * for each the scenario did not give (given[0..3]: driver, governor, haltpoll_force,
 * housekeeping_hz), recorded in cfg (may be NULL) with origin platform;
 * *governor_named says whether the governor is now the platform's (it then wins over the
 * driver's own).  ik__platform_os_params, once the governor is known: the [haltpoll] module
 * parameters the scenario did not give, when the governor is haltpoll.  0, or -1 + msg.
 */
int ik__platform_os_defaults(const struct ik_platform *p, const bool given[4],
			    struct ik_scenario *sc, struct ik_config *cfg, bool *governor_named,
			    char *msg, size_t msglen);
int ik__platform_os_params(const struct ik_platform *p, struct ik_scenario *sc,
			  struct ik_config *cfg, char *msg, size_t msglen);

/*
 * Whether `section` is a platform section: platform, state0..state9, cpuid, acpi,
 * cst1..cst8, intel_idle, dt_state0..dt_state15, effects, os, haltpoll.
 */
bool ik__platform_section(const char *section);
/* 0 if `key` exists in platform section `section`, else -1 with "unknown key ..." in msg. */
int ik__platform_check_key(const char *section, const char *key, char *msg, size_t msglen);

/*
 * The text of platform `ref`: a built-in name, or a file path (it contains '/' or ends in
 * ".ini").  A relative path that cannot be opened as given is tried in base_dir too (the
 * directory of the scenario naming it; NULL = no second try).
 */
struct ik_platform_text {
	char origin[IK_PLATFORM_ORIGIN_LEN];
	const char *text;
	char *owned; /* what to free, or NULL for a built-in */
};
int ik__platform_find(const char *ref, const char *base_dir, struct ik_platform_text *t,
		     char *err, size_t errlen);
void ik__platform_text_free(struct ik_platform_text *t);

/*
 * Writing a platform file (src/config/platform_keys.c): a section's "[name]" line, then
 * the keys the caller chooses, one "key = value" line each with the value formatted by the
 * key table (the text the reader takes back), and an optional "  ; comment" after it.  The
 * caller writes its own comment lines to f between them.  The same formatting gives the
 * effective configuration its platform values (ik__platform_reader_config).
 */
struct ik_platform_writer {
	FILE *f;
	const struct ik_platform *p;
	const struct ik_dist *exit_ns; /* the states' exit_ns key, or NULL: it is not written */
	int kind, index;               /* the section being written; kind -1: none yet */
	char section[32];
};
void ik__platform_writer_init(struct ik_platform_writer *w, FILE *f, const struct ik_platform *p);
/* "\n[section]\n": 0, or -1 if it is not a platform section. */
int ik__platform_write_section(struct ik_platform_writer *w, const char *section);
/* "key = value\n" (or "key = value  ; comment\n"): 0, or -1 if the section has no such key. */
int ik__platform_write_key(struct ik_platform_writer *w, const char *key, const char *comment);

/*
 * Edit a platform file's text (*text, malloc'd, replaced): the line "key = ..." of
 * [section] becomes "key = value  ; comment" (comment may be NULL); a key not there is
 * added at the end of its section, and a section not there at the end of the file, unless
 * only_if_present (then nothing changes).  Everything else, comments too, stays.  Returns
 * 1 if the text changed, 0 if not, -1 when out of memory.
 */
int ik__platform_text_set(char **text, const char *section, const char *key, const char *value,
			 const char *comment, bool only_if_present);

#endif
