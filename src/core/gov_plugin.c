/*
 * Native governor plugins (`--governor plugin:PATH.so`, idlekit/governor_plugin.h): a
 * private copy of the shared object per instance, its entry point asked for the ABI
 * version and the ops table.  The ops are copied; ->priv stays the plugin's own.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gov_internal.h"
#include "idlekit/governor_plugin.h"
#include "util/errmsg.h"

struct pgov {
	struct ik_gov_loaded l;
	void *dl;
	int fd;
};

static void p_close(struct ik_gov_loaded *l)
{
	struct pgov *p = (struct pgov *)l;
	ik__gov_dlclose_private(p->dl, p->fd);
	free(p);
}

int ik__gov_plugin_open(const struct ik_governor_open_args *a, const char *path,
		       struct ik_gov_loaded **out, char *err, size_t errlen)
{
	const char *files[1] = { path };
	char sha[65];
	if (ik__gov_sha256_files(files, 1, sha, err, errlen))
		return -2;
	struct pgov *p = calloc(1, sizeof(*p));
	if (!p)
		return ik__errmsg(err, errlen, "out of memory");
	p->l.close = p_close;
	char derr[600];
	p->dl = ik__gov_dlopen_private(path, &p->fd, derr, sizeof(derr));
	if (!p->dl) {
		snprintf(err, errlen, "%s", derr);
		free(p);
		return -2;
	}
	ik_governor_plugin_entry entry =
		(ik_governor_plugin_entry)dlsym(p->dl, IK_GOVERNOR_PLUGIN_ENTRY);
	const struct ik_governor_plugin *pl = entry ? entry() : NULL;
	if (!pl) {
		snprintf(err, errlen,
			 "not an idlekit governor plugin (no %s() entry point; see "
			 "idlekit/governor_plugin.h)",
			 IK_GOVERNOR_PLUGIN_ENTRY);
		p_close(&p->l);
		return -2;
	}
	if (pl->abi_version != IK_GOVERNOR_PLUGIN_ABI) {
		snprintf(err, errlen,
			 "built for governor plugin ABI %u, this idlekit has ABI %u: rebuild it "
			 "against this idlekit's include/idlekit",
			 pl->abi_version, IK_GOVERNOR_PLUGIN_ABI);
		p_close(&p->l);
		return -2;
	}
	if (!pl->governor || !pl->governor->select || !pl->governor->name ||
	    !pl->governor->name[0]) {
		snprintf(err, errlen, "its governor has no %s",
			 !pl->governor ? "ops table" : !pl->governor->select ? "->select" : "name");
		p_close(&p->l);
		return -2;
	}
	if (a->nparams > 0) {
		snprintf(err, errlen, "governor.%s: plugin governors take no parameters",
			 a->param_names[0]);
		p_close(&p->l);
		return -2;
	}
	p->l.ops = *pl->governor;
	struct ik_governor_identity *id = &p->l.id;
	id->kind = IK_GOVERNOR_PLUGIN;
	snprintf(id->name, sizeof(id->name), "%s", pl->governor->name);
	snprintf(id->path, sizeof(id->path), "%s", path);
	memcpy(id->sha256, sha, sizeof(id->sha256));
	p->l.ops.name = id->name;
	*out = &p->l;
	return 0;
}
