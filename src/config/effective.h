/*
 * How the readers fill the effective configuration (config/config.h): what they were
 * given, and then every key of their tables, in order.  All take cfg == NULL (no record).
 */
#ifndef IDLEKIT_CONFIG_EFFECTIVE_H
#define IDLEKIT_CONFIG_EFFECTIVE_H

#include <stddef.h>

#include "config/config.h"

/* A key as given (file line or override); a later one replaces it.  0, or -1 + msg. */
int ik__config_give(struct ik_config *cfg, const char *section, const char *key,
		   const char *value, enum ik_config_origin origin, char *msg, size_t msglen);
const struct ik_config_entry *ik__config_given(const struct ik_config *cfg, const char *section,
					      const char *key);
/* An [origin] line "KIND #TAG" of a printed configuration for section.key; 0, or -1 + msg. */
int ik__config_carry(struct ik_config *cfg, const char *section, const char *key,
		    const char *text, char *msg, size_t msglen);
/* "default" .. "set" (len bytes of name) into *out: 0, or -1. */
int ik__config_origin_parse(const char *name, size_t len, enum ik_config_origin *out);
/*
 * The next key of the effective configuration: the given value and origin if the key was
 * given, else default_value (NULL = nothing to record: the key has no value) with
 * default_origin.  0, or -1 when the configuration is full (cannot happen with the built-in
 * tables).
 */
int ik__config_emit(struct ik_config *cfg, const char *section, const char *key,
		   const char *default_value, enum ik_config_origin default_origin);
/*
 * The same for a key whose default the reader derives when it is absent (a state's exit
 * cost from its latency, say): `value` is what it derived, recorded with origin derived and
 * marked implicit, so that --print-config shows it as a comment and the printed file lets the
 * reader derive it again (from edited keys too).  NULL = a section the platform lacks.
 */
int ik__config_emit_derived(struct ik_config *cfg, const char *section, const char *key,
			   const char *value);

#endif
