/*
 * Between the governor registry (src/core/governor_registry.c) and the loaders of
 * kernel-source (gov_kernel.c) and plugin (gov_plugin.c) governors.  Not public API.
 */
#ifndef IDLEKIT_CORE_GOV_INTERNAL_H
#define IDLEKIT_CORE_GOV_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/governor_registry.h"

/* A loaded governor: its ops, its identity, and how to unload it. */
struct ik_gov_loaded {
	struct ik_governor ops;
	struct ik_governor_identity id;
	void (*close)(struct ik_gov_loaded *l);
};

/* Open kernel:PATH / plugin:PATH (path without the prefix, a regular file: checked by
   ik__governor_open).  0, -2 bad input, -1 failure. */
int ik__gov_kernel_open(const struct ik_governor_open_args *a, const char *path,
		       struct ik_gov_loaded **out, char *err, size_t errlen);
int ik__gov_plugin_open(const struct ik_governor_open_args *a, const char *path,
		       struct ik_gov_loaded **out, char *err, size_t errlen);

/*
 * The compiler's output (NUL-terminated) turned into one line: its first error, the missing
 * kernel symbol or header it names.  (fuzz/fuzz_gov_compiler_output.c)
 */
void ik__gov_compile_message(const char *path, const char *out, int status, char *err,
			    size_t errlen);
/* The same, and with the shim's directory (NULL: not known) it also says which shim
   header has a symbol or macro the file uses without including it. */
void ik__gov_compile_message_shim(const char *path, const char *out, int status,
				 const char *shim, char *err, size_t errlen);
/*
 * The compiler's warnings about the user's file (path:line:col: warning: and the lines
 * quoting its source) into buf; their count.
 */
int ik__gov_compile_warnings(const char *path, const char *out, char *buf, size_t len);
/*
 * Which release's cpuidle governor API a kernel: file was written against, from its source
 * (gov_release.c; fuzz/fuzz_gov_api.c): a release's own file, unmodified (its git blob id),
 * or the releases [lo, hi] whose API has every release-bound member, call and callback
 * signature it uses (0: no bound on that side).
 */
struct ik_gov_api {
	char blob[41];          /* the file's git blob id */
	const char *exact_file; /* "menu.c" when the blob is a known release's file, else NULL */
	int exact_lo, exact_hi; /* the first and last release known to have that blob */
	const char *exact_lo_tree, *exact_hi_tree; /* their trees, "6.12.0" */
	int exact_before, exact_after; /* the nearest releases known to have another file */
	int lo, hi;             /* version codes, 0: no bound */
	int markers;            /* how many release-bound uses were found */
	unsigned seen;
	bool versioned;         /* it tests LINUX_VERSION_CODE: written for several releases */
	char uses[320];         /* those uses, in words */
};
void ik__gov_api_recognise(const char *src, size_t len, struct ik_gov_api *api);
/* The exact_ fields for a git blob id (40 hex digits): exact_file NULL if not known. */
void ik__gov_api_known(const char *blob, struct ik_gov_api *api);
/* The recognition of the file at path in words ("" if it cannot be read). */
void ik__gov_kernel_describe_file(const char *path, char *buf, size_t len);
/* Whether a run as release vcode is one the file was written for (unknown: true). */
bool ik__gov_api_fits(const struct ik_gov_api *api, int vcode);
/* The recognition in words, after "the file is": "v6.19's drivers/cpuidle/governors/menu.c,
   unmodified (...)" or "written against the cpuidle governor API of v5.5 or later (...)". */
void ik__gov_api_describe(const struct ik_gov_api *api, char *buf, size_t len);
/* sha256 of the files' bytes one after the other, hex. 0, or -1 with a message. */
int ik__gov_sha256_files(const char *const *paths, int npaths, char out[65], char *err,
			size_t errlen);
/*
 * A private, loaded copy of a shared object (a memfd): the dlopen handle and the descriptor
 * to close after dlclose, or NULL and a message.
 */
void *ik__gov_dlopen_private(const char *path, int *fd, char *err, size_t errlen);
/* Unloads such a copy (nothing when dl is NULL): dlclose, then its descriptor. */
void ik__gov_dlclose_private(void *dl, int fd);

/*
 * Crash isolation (gov_guard.c).  A kernel governor's callback runs as
 *
 *	struct ik_gov_guard *g = ik__gov_guard_enter(&call);
 *	if (g) { int how = sigsetjmp(*ik__gov_guard_jmpbuf(g), 0);
 *		 if (how) ik__gov_guard_failed(g, how);   (does not return)
 *		 ik__gov_guard_arm(g); }
 *	... the call ...
 *	ik__gov_guard_leave(g);
 *
 * (sigsetjmp must be in the caller's frame).  A fault or a call past the time limit ends
 * the process with one message and IK_GOV_EXIT_CRASH; idlekit's answers to the governor
 * are bracketed by ik__gov_guard_host_enter/leave, where a fault is idlekit's own.
 */
#define IK_GOV_EXIT_CRASH 4
struct ik_device;
struct ik_gov_call {
	const char *path; /* the governor file */
	const char *what; /* "select", "reflect", "enable", "disable", "an initcall" */
	uint64_t decision;
	int index;                   /* reflect's state; -1 */
	const struct ik_device *dev; /* the inputs, read only for a report; NULL: none */
};
struct ik_gov_guard;
struct ik_gov_guard *ik__gov_guard_enter(const struct ik_gov_call *call);
sigjmp_buf *ik__gov_guard_jmpbuf(struct ik_gov_guard *g);
void ik__gov_guard_arm(struct ik_gov_guard *g);
void ik__gov_guard_leave(struct ik_gov_guard *g);
void ik__gov_guard_failed(struct ik_gov_guard *g, int how) __attribute__((noreturn));
void ik__gov_guard_host_enter(void);
void ik__gov_guard_host_leave(void);

#endif
