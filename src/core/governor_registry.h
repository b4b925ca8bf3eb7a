/*
 * idlekit: where a governor comes from.  A governor is named by a spec:
 *
 *   menu, teo, ladder, haltpoll   the built-in governors (src/governors/)
 *   kernel:PATH                   a governor file as it sits in a kernel tree
 *                                 (drivers/cpuidle/governors/menu.c or a patched copy),
 *                                 compiled unmodified against idlekit's kernel shim
 *                                 (src/kshim/), cached by its sha256 (src/core/gov_kernel.c)
 *   plugin:PATH.so                a shared object written against idlekit's own governor API
 *                                 (idlekit/governor_plugin.h; src/core/gov_plugin.c)
 *
 * Opening a spec gives an instance: its own copy of the governor's code and file-scope
 * state (a kernel governor's DEFINE_PER_CPU arrays and module parameters), so two
 * simulations in one process never share state.  One instance serves every CPU of one
 * machine (a simulation, a govreplay harness, or all CPUs of a trace replay).
 *
 * Implemented by governor_registry.c (the built-in list, kernel:FILE through gov_kernel.c,
 * plugin:.so through gov_plugin.c); gov_internal.h is what those three share.
 */
#ifndef IDLEKIT_GOVERNOR_LOAD_H
#define IDLEKIT_GOVERNOR_LOAD_H

#include <stddef.h>

#include "idlekit/governor.h"

enum ik_governor_kind { IK_GOVERNOR_BUILTIN, IK_GOVERNOR_KERNEL, IK_GOVERNOR_PLUGIN };

#define IK_GOV_PARAMS_MAX 32
#define IK_GOV_PARAM_NAME_LEN 64
#define IK_GOV_PARAM_VALUE_LEN 128

/* One module parameter: its name, its type as module_param() wrote it, its value as text. */
struct ik_gov_param {
	char name[IK_GOV_PARAM_NAME_LEN];
	char type[16];
	char value[IK_GOV_PARAM_VALUE_LEN];
};

/* What every output records as the governor's identity. */
struct ik_governor_identity {
	enum ik_governor_kind kind;
	char name[IK_NAME_LEN];   /* the registered name: "menu", or the kernel file's own */
	char path[4096];          /* kernel: and plugin: only, as given */
	char sha256[65];          /* of the file (and gov.h beside it, for kernel:), hex */
	char api[512];            /* kernel: only: the release whose API the file was written
				     against, in words after "the file is" (ik__gov_api_describe) */
	int nparams;              /* all its parameters, with their values after --set */
	struct ik_gov_param params[IK_GOV_PARAMS_MAX];
};

struct ik_governor_inst;

/* What opening needs: the machine's state table (registered) and HZ, and parameters. */
struct ik_governor_open_args {
	const char *spec;
	const struct ik_driver *drv;
	int hz;
	int nparams;              /* "set NAME to VALUE", applied in order */
	const char *const *param_names;
	const char *const *param_values;
	const char *kernel_version; /* "X.Y" whose governor API the shim serves; NULL = 6.19 */
	int ncpus;                  /* the machine's CPU count (a kernel file's nr_cpu_ids); 0 = unknown */
};

/*
 * Open an instance.  0, or a message in err and: -2 bad input (unknown name, a file that
 * does not compile, a missing kernel symbol, a plugin of another ABI, not a governor, an
 * unknown parameter or a bad value), -1 a failure of the machine (out of memory, the cache
 * cannot be written).
 */
int ik__governor_open(const struct ik_governor_open_args *a, struct ik_governor_inst **out,
		     char *err, size_t errlen);
/* The ops to run (dev->governor must point at them: ik_governor_enable does it). */
const struct ik_governor *ik__governor_inst_ops(const struct ik_governor_inst *inst);
const struct ik_governor_identity *ik__governor_inst_identity(const struct ik_governor_inst *inst);
/*
 * One of haltpoll's module parameters by its kernel name (guest_halt_poll_ns, _shrink,
 * _grow, _grow_start, _allow_shrink: nonzero is Y) set to v: 0, or -1 when there is no
 * such parameter or its field cannot hold v (shrink and grow are 32-bit).
 */
int ik__haltpoll_param_set(struct ik_haltpoll_params *p, const char *name, uint64_t v);

/* Built-in haltpoll's parameters as set (NULL for any other governor). */
const struct ik_haltpoll_params *ik__governor_inst_haltpoll(const struct ik_governor_inst *inst);
void ik__governor_close(struct ik_governor_inst *inst);
/* -q: a kernel:FILE governor's compiler warnings are shown as a count (default: in full). */
void ik__gov_kernel_set_quiet(bool quiet);

/*
 * One line naming the governor: "menu" for a built-in, else "NAME from kernel:PATH, sha256
 * HEX[, parameters a=1 b=2]".
 */
void ik__governor_identity_label(const struct ik_governor_identity *id, char *buf, size_t len);

/* "builtin", "kernel", "plugin". */
const char *ik__governor_kind_name(enum ik_governor_kind kind);

/*
 * Is this spec well formed (a built-in name, or kernel:/plugin: with a non-empty path)?
 * Checks nothing on disk.  For configuration readers.
 */
int ik__governor_spec_check(const char *spec, char *err, size_t errlen);

/*
 * The sha256 of a governor spec's file(s), hex, without loading it (for reports that have
 * only the spec): "" for a built-in name.  0, or -1 with a message.
 */
int ik__governor_spec_sha256(const char *spec, char out[65], char *err, size_t errlen);
/* For kernel:PATH, the release whose API the file was written against, in words after "the
   file is" (src/core/gov_release.c); "" for the others and a file that cannot be read. */
void ik__governor_spec_api(const char *spec, char *out, size_t len);

#endif
