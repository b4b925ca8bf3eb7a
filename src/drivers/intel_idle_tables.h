/* intel_idle's built-in C-state tables (intel_idle_tables.c). */
#ifndef IDLEKIT_INTEL_IDLE_TABLES_H
#define IDLEKIT_INTEL_IDLE_TABLES_H

#include <stdbool.h>
#include <stdint.h>

struct intel_cstate {
	const char *name;
	const char *desc;
	uint8_t hint;      /* MWAIT hint */
	unsigned flags;    /* core and intel_idle flags, without the hint */
	uint32_t exit_us;
	uint32_t residency_us;
};

struct intel_table {
	const char *name;
	const struct intel_cstate *states;
	int count;
	bool use_acpi;               /* honour _CST: states it does not list start disabled */
	/* With package C6 disabled in the BIOS, one state's numbers change (index, or -1). */
	int pc6_off_index;
	uint32_t pc6_off_exit_us;
	uint32_t pc6_off_residency_us;
	const uint8_t *models;       /* family-6 models that use this table, 0-terminated */
};

extern const struct intel_table intel_tables[];
extern const int intel_table_count;

const struct intel_table *intel_table_by_name(const char *name);
const struct intel_table *intel_table_by_model(int family, int model);

#endif
