/*
 * The platform file's keys (src/config/platform_keys.c), for the reader in platform_ini.c:
 * the kinds of section and, per kind, the key table, the one place each key is named, with
 * its type, field and range.  From the table a value is read into a struct ik_platform and
 * written back as the text the reader takes.  The enums are the tables' indexes, for the
 * reader's checks of what was given (sec->set[SK_DESC]); their order is the tables' order,
 * which is the order keys are listed and written in.
 */
#ifndef IDLEKIT_CONFIG_PLATFORM_KEYS_H
#define IDLEKIT_CONFIG_PLATFORM_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "config/platform_ini.h"

/* The kinds of section, in the order of IK_PLATFORM_SECTIONS. */
enum sec_kind {
	SEC_PLATFORM,
	SEC_STATE,
	SEC_CPUID,
	SEC_ACPI,
	SEC_CST,
	SEC_INTEL_IDLE,
	SEC_DT,
	SEC_EFFECTS,
	SEC_OS,
	SEC_HALTPOLL,
	SEC_KINDS
};

enum platform_key {
	PK_NAME, PK_DESCRIPTION, PK_SOURCE, PK_PACKAGES, PK_CORES_PER_PACKAGE,
	PK_THREADS_PER_CORE, PK_CORES_PER_LLC, PK_IPI_NS, PK_POLL_WAKE_NS, PK_CONTEXT_SWITCH_NS,
	PK_ACTIVE_POWER_MW, PK_COUNT
};
enum state_key {
	SK_NAME, SK_DESC, SK_LATENCY_US, SK_RESIDENCY_US, SK_METHOD, SK_HINT, SK_FLAGS,
	SK_POWER_MW, SK_ENTRY_NS, SK_EXIT_NS, SK_EXIT_IPI_NS, SK_EXIT_TIMER_NS, SK_EXIT_IRQ_NS,
	SK_NEEDS_IPI, SK_IN_TABLE, SK_LITE, SK_CORE_OFF, SK_EXIT_AFTER_IDLE_NS,
	SK_EXIT_TIMER_AFTER_IDLE_NS, SK_ENTRY_BUSY_NS, SK_COUNT
};
enum cpuid_key {
	CK_VENDOR, CK_FAMILY, CK_MODEL, CK_MWAIT, CK_MONITOR_BUG, CK_ARAT, CK_ZEN, CK_AMD_E400,
	CK_AMD_APIC_C1E, CK_HYPERVISOR, CK_KVM_HINT_REALTIME, CK_CPUID5_ECX, CK_CPUID5_EDX,
	CK_COUNT
};
enum acpi_key {
	AK_CST_CONTROL, AK_PBLK, AK_C2_LATENCY_US, AK_C3_LATENCY_US, AK_C2_MP_SUPPORTED,
	AK_WBINVD, AK_PM_TIMER_PORT, AK_PM_TIMER_READ_NS, AK_BM_ACTIVITY, AK_COUNT
};
enum cst_key {
	XK_TYPE, XK_METHOD, XK_ADDRESS, XK_LATENCY_US, XK_POWER_MW, XK_ACCESS_SIZE, XK_COUNT
};
enum intel_idle_key { IK_KEY_TABLE, IK_KEY_PC6, IK_KEY_COUNT };
enum dt_key { DK_NAME, DK_FLAGS, DK_LATENCY_NS, DK_RESIDENCY_NS, DK_PSSCR, DK_COUNT };
enum effects_key {
	EK_BASE_MHZ, EK_TURBO_MHZ, EK_SMT_SIBLING_BUSY, EK_SMT_SIBLING_LITE, EK_PKG_EXIT_NS,
	EK_PKG_ACTIVE_MW, EK_PKG_IDLE_MW, EK_COUNT
};
enum os_key { OK_DRIVER, OK_GOVERNOR, OK_HALTPOLL_FORCE, OK_TIMER_SLACK_NS, OK_BACKGROUND_HZ,
	       OK_COUNT };
enum haltpoll_key {
	HK_GUEST_HALT_POLL_NS, HK_GUEST_HALT_POLL_SHRINK, HK_GUEST_HALT_POLL_GROW,
	HK_GUEST_HALT_POLL_GROW_START, HK_GUEST_HALT_POLL_ALLOW_SHRINK, HK_COUNT
};

/* The kind of a section and its number (state, cst, dt_state) in *index, or -1. */
int platform_section_kind(const char *section, int *index);

int platform_key_count(int kind);
const char *platform_key_name(int kind, int k);
/* The index of key in kind's table, or -1. */
int platform_key_find(int kind, const char *key);
/* Is the key one a section of its kind must have? */
bool platform_key_required(int kind, int k);
/* "a b c": kind's keys joined by spaces, for "known keys" messages. */
const char *platform_key_list(int kind, char *buf, size_t len);

/* Key k of section `sec` (of `kind`, number `index`) set from value: 0, or -1 + message. */
int platform_key_set(struct ik_platform_reader *r, int kind, int index, const char *sec, int k,
		     const char *value, struct ik_ini_where w);
/*
 * The value of key k of a section as the INI text the reader takes back.  exit_ns: the
 * states' exit_ns as the reader has them (the default per wake source, not a field of the
 * platform); NULL gives "" for that key.
 */
void platform_key_format(const struct ik_platform *p, const struct ik_dist *exit_ns, int kind,
			 int index, int k, char *buf, size_t len);

const char *platform_hypervisor_name(int h);
const char *platform_cst_method_name(int m);

#endif
