/*
 * The effective configuration of a simulation: every key of the scenario and of its
 * platform as the run used it, with where each value came from, and the idlekit version.
 *
 * It is built by the same readers (and from the same key tables) that parse the files, so
 * a key added to a reader is in the configuration without anything else to change.  Every
 * result carries it (JSON "config", CSV, text header, HTML settings) and `idlekit sim
 * --print-config` writes it as a scenario file that reproduces the result byte for byte
 * (docs/json-schema.md, "config").
 *
 * The module's public side, what the reports and --print-config read; config/effective.h
 * beside it is the readers' side (how scenario_ini.c and platform_ini.c fill it).  The code
 * is effective.c, with the loaders' entry points in scenario_ini.c.
 */
#ifndef IDLEKIT_CONFIG_H
#define IDLEKIT_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "config/scenario.h"

/* Where a value came from. */
enum ik_config_origin {
	IK_ORIGIN_DEFAULT,  /* the reader's built-in default */
	IK_ORIGIN_DERIVED,  /* chosen from other keys (the driver's own governor) */
	IK_ORIGIN_SCENARIO, /* the scenario file */
	IK_ORIGIN_PLATFORM, /* the platform file */
	IK_ORIGIN_SET,      /* a --set override (or --runs/--seed) */
	IK_ORIGIN_COUNT
};
/* "default", "derived", "scenario", "platform", "set". */
const char *ik__config_origin_name(enum ik_config_origin o);

#define IK_CONFIG_SECTION_LEN 16
#define IK_CONFIG_KEY_LEN 48 /* kernel.switch.NAME is the longest */
#define IK_CONFIG_VALUE_LEN 256
#define IK_CONFIG_MAX 768

struct ik_config_entry {
	char section[IK_CONFIG_SECTION_LEN];
	char key[IK_CONFIG_KEY_LEN];
	/* the value as INI text; has_value false = nothing to record (no workload file, a
	   platform section the platform lacks) */
	bool has_value;
	/* a value the reader derived because the key was absent (a state's desc, its exit
	   cost, ...): recorded, and printed by --print-config as a comment */
	bool implicit;
	char value[IK_CONFIG_VALUE_LEN];
	enum ik_config_origin origin;
};

struct ik_config {
	/* the effective configuration, in key-table order: [scenario] [kernel] [cpuidle]
	   [workload], then the platform's sections */
	int n;
	struct ik_config_entry entry[IK_CONFIG_MAX];
	/* what the readers were given, in reading order (later entries win) */
	int ngiven;
	struct ik_config_entry given[IK_CONFIG_MAX];
	/* [origin] of a printed configuration: origins it carries ("default 250") */
	int ncarried;
	struct ik_config_entry carried[IK_CONFIG_MAX];
};

/* A zeroed configuration (malloc'd; NULL when out of memory) and its release. */
struct ik_config *ik__config_new(void);
void ik__config_free(struct ik_config *cfg);

/*
 * ik__scenario_load() that also fills cfg (NULL = don't).  sc->config points at cfg
 * afterwards, so every report records it.
 */
int ik__scenario_load_config(const char *ref, const char *const *overrides, int noverrides,
			    struct ik_scenario *sc, struct ik_config *cfg, char *err,
			    size_t errlen);
int ik__scenario_parse_string_config(const char *origin, const char *text,
				    const char *const *overrides, int noverrides,
				    struct ik_scenario *sc, struct ik_config *cfg, char *err,
				    size_t errlen);

/* The entry of section.key, or NULL. */
const struct ik_config_entry *ik__config_find(const struct ik_config *cfg, const char *section,
					     const char *key);

/*
 * The configuration as a scenario file: every key with a value, and an [origin] section
 * that carries each key's origin, so that the file run again records the same config.
 * `command` (may be NULL) is shown in the header comment.  0, or -1 on a write error.
 */
int ik__config_print_ini(FILE *out, const struct ik_config *cfg, const char *command);

/* "0.1.0" from CMake's project version, with `git describe` when the build had one. */
const char *ik__version(void);

#endif
