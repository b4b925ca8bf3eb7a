/*
 * Between the governor registry (src/core/governor_registry.c) and the loaders of
 * kernel-source (gov_kernel.c) and plugin (gov_plugin.c) governors.  Not public API.
 */
#ifndef IDLEKIT_CORE_GOV_INTERNAL_H
#define IDLEKIT_CORE_GOV_INTERNAL_H

#include <stddef.h>

#include "core/governor_registry.h"

/* A loaded governor: its ops, its identity, and how to unload it. */
struct ik_gov_loaded {
	struct ik_governor ops;
	struct ik_governor_identity id;
	void (*close)(struct ik_gov_loaded *l);
};

/* Open kernel:PATH / plugin:PATH (path without the prefix, a regular file: checked by
   ik_governor_open).  0, -2 bad input, -1 failure. */
int ik_gov_kernel_open(const struct ik_governor_open_args *a, const char *path,
		       struct ik_gov_loaded **out, char *err, size_t errlen);
int ik_gov_plugin_open(const struct ik_governor_open_args *a, const char *path,
		       struct ik_gov_loaded **out, char *err, size_t errlen);

/*
 * The compiler's output (NUL-terminated) turned into one line: its first error, the missing
 * kernel symbol or header it names.  (fuzz/fuzz_gov_compiler_output.c)
 */
void ik_gov_compile_message(const char *path, const char *out, int status, char *err,
			    size_t errlen);
/* sha256 of the files' bytes one after the other, hex. 0, or -1 with a message. */
int ik_gov_sha256_files(const char *const *paths, int npaths, char out[65], char *err,
			size_t errlen);
/*
 * A private, loaded copy of a shared object (a memfd): the dlopen handle and the descriptor
 * to close after dlclose, or NULL and a message.
 */
void *ik_gov_dlopen_private(const char *path, int *fd, char *err, size_t errlen);
/* Unloads such a copy (nothing when dl is NULL): dlclose, then its descriptor. */
void ik_gov_dlclose_private(void *dl, int fd);

#endif
