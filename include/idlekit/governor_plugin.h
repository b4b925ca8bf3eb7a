/*
 * idlekit: native governor plugins (`--governor plugin:PATH.so`).
 *
 * A plugin is a shared object written against idlekit's own governor API
 * (idlekit/governor.h, idlekit/cpuidle.h: the same struct ik_governor the built-in menu,
 * teo, ladder and haltpoll are, and the same core services ik_sleep_length(),
 * ik_tick_stopped(), ik_got_tick(), ik_latency_req(), ik_poll_time()).  It exports one
 * function, ik_governor_plugin(), that says which ABI it was built for and hands over its
 * ops table.  idlekit refuses a plugin of another ABI version.
 *
 * Rules: keep per-CPU state in dev->governor_data (allocated by ->enable, freed by
 * ->disable), nothing in file-scope variables (each instance is a private copy anyway, but
 * CPUs of one machine share it); see the plugin in examples/ and docs/governor-lab.md.
 *
 *     #include <idlekit/governor_plugin.h>
 *     static const struct ik_governor mine = { .name = "mine", .select = mine_select, ... };
 *     IK_GOVERNOR_PLUGIN(mine)
 *
 * Build: cc -std=c11 -O2 -fPIC -shared -I IDLEKIT/include -o mine.so mine.c
 */
#ifndef IDLEKIT_GOVERNOR_PLUGIN_H
#define IDLEKIT_GOVERNOR_PLUGIN_H

#include "idlekit/governor.h"

/*
 * The ABI: the layout of struct ik_governor, ik_driver, ik_state, ik_state_usage,
 * ik_idle_inputs, ik_device and the services' signatures.  Bumped whenever one changes.
 */
/* 3: struct ik_device fields reordered (per-entry fields first); 4: struct ik_governor
   gained reads_cpu_util, the disable bits moved from ik_state_usage to
   ik_device.states_disable. */
#define IK_GOVERNOR_PLUGIN_ABI 4

struct ik_governor_plugin {
	unsigned abi_version;            /* IK_GOVERNOR_PLUGIN_ABI as the plugin was built */
	const struct ik_governor *governor;
};

/* The entry point's name and type. */
#define IK_GOVERNOR_PLUGIN_ENTRY "ik_governor_plugin"
typedef const struct ik_governor_plugin *(*ik_governor_plugin_entry)(void);

#define IK_GOVERNOR_PLUGIN(ops)                                                         \
	const struct ik_governor_plugin *ik_governor_plugin(void);                      \
	__attribute__((visibility("default"))) const struct ik_governor_plugin *        \
	ik_governor_plugin(void)                                                        \
	{                                                                               \
		static const struct ik_governor_plugin p = { IK_GOVERNOR_PLUGIN_ABI, &(ops) }; \
		return &p;                                                              \
	}

#endif
