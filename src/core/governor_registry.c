/*
 * The governors idlekit ships, in the kernel's registration order, and the one place a
 * governor spec (a built-in name, kernel:PATH, plugin:PATH) becomes an instance.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/gov_internal.h"
#include "util/errmsg.h"
#include "util/names.h"

static const struct ik_governor *const governors[] = {
	&ik_governor_ladder,
	&ik_governor_menu,
	&ik_governor_teo,
	&ik_governor_haltpoll,
};

const struct ik_governor *ik_governor_find(const char *name)
{
	for (size_t i = 0; i < sizeof(governors) / sizeof(governors[0]); i++)
		if (strcmp(governors[i]->name, name) == 0)
			return governors[i];
	return NULL;
}

bool ik_governor_reads_cpu_util(const struct ik_governor *gov, const struct ik_kernel *kernel)
{
	return !gov->reads_cpu_util || gov->reads_cpu_util(ik_kernel_or_default(kernel));
}

bool ik_governor_never_reads_cpu_util(const struct ik_kernel *kernel)
{
	(void)kernel;
	return false;
}

const char *ik_governor_names(void)
{
	/* Keep in step with governors[] above (sysfs available_governors style). */
	return "ladder menu teo haltpoll ";
}

const char *ik__governor_kind_name(enum ik_governor_kind kind)
{
	static const char *const names[] = { [IK_GOVERNOR_BUILTIN] = "builtin",
					     [IK_GOVERNOR_KERNEL] = "kernel",
					     [IK_GOVERNOR_PLUGIN] = "plugin" };
	return ik__name_of(names, 3, (int)kind, "builtin");
}

void ik__governor_identity_label(const struct ik_governor_identity *id, char *buf, size_t len)
{
	size_t o;

	if (id->kind == IK_GOVERNOR_BUILTIN) {
		snprintf(buf, len, "%s", id->name); /* (the caller says the haltpoll parameters) */
		return;
	}
	o = (size_t)snprintf(buf, len, "%s from %s:%s, sha256 %s", id->name,
			     ik__governor_kind_name(id->kind), id->path, id->sha256);
	for (int i = 0; i < id->nparams && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s=%s", i ? " " : ", parameters ",
				      id->params[i].name, id->params[i].value);
}

static const char *prefixed(const char *spec, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(spec, prefix, n) == 0 ? spec + n : NULL;
}

int ik__governor_spec_check(const char *spec, char *err, size_t errlen)
{
	const char *path = prefixed(spec, "kernel:");
	if (!path)
		path = prefixed(spec, "plugin:");
	if (path) {
		if (!path[0])
			return ik__errmsg(err, errlen, "'%s' needs a path after the colon", spec);
		return 0;
	}
	if (ik_governor_find(spec))
		return 0;
	return ik__errmsg(err, errlen, "unknown governor '%.100s'; available: ladder menu teo "
			  "haltpoll, kernel:PATH.c, plugin:PATH.so", spec);
}

int ik__governor_spec_sha256(const char *spec, char out[65], char *err, size_t errlen)
{
	const char *path = prefixed(spec, "kernel:");
	out[0] = '\0';
	if (path) {
		char gov_h[4096];
		const char *slash = strrchr(path, '/');
		snprintf(gov_h, sizeof(gov_h), "%.*sgov.h", slash ? (int)(slash - path + 1) : 0, path);
		FILE *f = fopen(gov_h, "r");
		const char *files[2] = { path, gov_h };
		if (f)
			fclose(f);
		return ik__gov_sha256_files(files, f ? 2 : 1, out, err, errlen);
	}
	path = prefixed(spec, "plugin:");
	if (path) {
		const char *files[1] = { path };
		return ik__gov_sha256_files(files, 1, out, err, errlen);
	}
	return 0;
}

void ik__governor_spec_api(const char *spec, char *out, size_t len)
{
	const char *path = prefixed(spec, "kernel:");
	out[0] = '\0';
	if (path && path[0])
		ik__gov_kernel_describe_file(path, out, len);
}

/* ---- Built-in governors: the ops, and haltpoll's module parameters ------------------------ */

struct builtin {
	struct ik_gov_loaded l;
	struct ik_haltpoll_params hp;
	bool is_haltpoll;
};

static void b_close(struct ik_gov_loaded *l)
{
	free(l);
}

static int set_u64(const char *v, uint64_t max, uint64_t *out)
{
	char *end;
	if (!v[0] || v[0] == '-' || v[0] == '+')
		return -1;
	errno = 0;
	unsigned long long u = strtoull(v, &end, 0);
	if (*end || errno || u > max)
		return -1;
	*out = u;
	return 0;
}

int ik__haltpoll_param_set(struct ik_haltpoll_params *p, const char *name, uint64_t v)
{
	if (strcmp(name, "guest_halt_poll_ns") == 0)
		p->guest_halt_poll_ns = v;
	else if (strcmp(name, "guest_halt_poll_shrink") == 0 && v <= UINT32_MAX)
		p->guest_halt_poll_shrink = (unsigned)v;
	else if (strcmp(name, "guest_halt_poll_grow") == 0 && v <= UINT32_MAX)
		p->guest_halt_poll_grow = (unsigned)v;
	else if (strcmp(name, "guest_halt_poll_grow_start") == 0)
		p->guest_halt_poll_grow_start = v;
	else if (strcmp(name, "guest_halt_poll_allow_shrink") == 0)
		p->guest_halt_poll_allow_shrink = v != 0;
	else
		return -1;
	return 0;
}

static int haltpoll_set(struct ik_haltpoll_params *p, const char *name, const char *v,
			char *err, size_t errlen)
{
	uint64_t u;
	if (strcmp(name, "guest_halt_poll_allow_shrink") == 0) {
		if (!strcmp(v, "1") || !strcmp(v, "y") || !strcmp(v, "Y") || !strcmp(v, "on"))
			p->guest_halt_poll_allow_shrink = true;
		else if (!strcmp(v, "0") || !strcmp(v, "n") || !strcmp(v, "N") || !strcmp(v, "off"))
			p->guest_halt_poll_allow_shrink = false;
		else
			goto bad_bool;
		return 0;
	}
	if (set_u64(v, UINT32_MAX, &u))
		goto bad_uint;
	return ik__haltpoll_param_set(p, name, u);
bad_uint:
	if (strcmp(name, "guest_halt_poll_ns") && strcmp(name, "guest_halt_poll_shrink") &&
	    strcmp(name, "guest_halt_poll_grow") && strcmp(name, "guest_halt_poll_grow_start"))
		return -1;
	snprintf(err, errlen, "governor.%s (uint): expected an integer 0..4294967295, got '%.60s'",
		 name, v);
	return -2;
bad_bool:
	snprintf(err, errlen, "governor.%s (bool): expected y, n, 1, 0, on or off, got '%.60s'",
		 name, v);
	return -2;
}

static void haltpoll_identity(const struct ik_haltpoll_params *p, struct ik_governor_identity *id)
{
	static const char *const names[] = { "guest_halt_poll_ns", "guest_halt_poll_shrink",
					     "guest_halt_poll_grow", "guest_halt_poll_grow_start",
					     "guest_halt_poll_allow_shrink" };
	unsigned long long v[] = { p->guest_halt_poll_ns, p->guest_halt_poll_shrink,
				   p->guest_halt_poll_grow, p->guest_halt_poll_grow_start, 0 };
	for (int i = 0; i < 5; i++) {
		struct ik_gov_param *q = &id->params[i];
		snprintf(q->name, sizeof(q->name), "%s", names[i]);
		snprintf(q->type, sizeof(q->type), "%s", i == 4 ? "bool" : "uint");
		if (i == 4)
			snprintf(q->value, sizeof(q->value), "%s",
				 p->guest_halt_poll_allow_shrink ? "Y" : "N");
		else
			snprintf(q->value, sizeof(q->value), "%llu", v[i]);
	}
	id->nparams = 5;
}

static int builtin_open(const struct ik_governor_open_args *a, const struct ik_governor *gov,
			struct ik_gov_loaded **out, char *err, size_t errlen)
{
	struct builtin *b = calloc(1, sizeof(*b));
	if (!b)
		return ik__errmsg(err, errlen, "out of memory");
	b->l.close = b_close;
	b->l.ops = *gov;
	b->is_haltpoll = gov == &ik_governor_haltpoll;
	ik_haltpoll_params_default(&b->hp);
	for (int i = 0; i < a->nparams; i++) {
		int rc = b->is_haltpoll ? haltpoll_set(&b->hp, a->param_names[i], a->param_values[i],
						       err, errlen)
					: -1;
		if (rc == -1)
			snprintf(err, errlen,
				 "governor.%s: governor %s has no parameter '%s' (its module "
				 "parameters: %s)",
				 a->param_names[i], gov->name, a->param_names[i],
				 b->is_haltpoll ? "guest_halt_poll_ns, guest_halt_poll_shrink, "
						  "guest_halt_poll_grow, guest_halt_poll_grow_start, "
						  "guest_halt_poll_allow_shrink"
						: "none");
		if (rc) {
			free(b);
			return -2;
		}
	}
	b->l.id.kind = IK_GOVERNOR_BUILTIN;
	snprintf(b->l.id.name, sizeof(b->l.id.name), "%s", gov->name);
	if (b->is_haltpoll)
		haltpoll_identity(&b->hp, &b->l.id);
	*out = &b->l;
	return 0;
}

/* ---- Instances ------------------------------------------------------------------------------ */

struct ik_governor_inst {
	struct ik_gov_loaded *l;
	bool builtin;
};

/* A kernel: or plugin: path names a regular file: 0, or -2 with the reason. */
static int governor_file_check(const char *path, const char *expected, char *err, size_t errlen)
{
	struct stat st;
	if (!path[0]) {
		snprintf(err, errlen, "expected %s", expected);
		return -2;
	}
	if (stat(path, &st)) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -2;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "not a regular file");
		return -2;
	}
	return 0;
}

int ik__governor_open(const struct ik_governor_open_args *a, struct ik_governor_inst **out,
		     char *err, size_t errlen)
{
	struct ik_governor_inst *inst = calloc(1, sizeof(*inst));
	const char *path;
	int rc;

	*out = NULL;
	if (!inst)
		return ik__errmsg(err, errlen, "out of memory");
	if ((path = prefixed(a->spec, "kernel:")) != NULL) {
		rc = governor_file_check(path, "kernel:PATH to a governor .c file", err, errlen);
		if (rc == 0)
			rc = ik__gov_kernel_open(a, path, &inst->l, err, errlen);
	} else if ((path = prefixed(a->spec, "plugin:")) != NULL) {
		rc = governor_file_check(path, "plugin:PATH to a shared object", err, errlen);
		if (rc == 0)
			rc = ik__gov_plugin_open(a, path, &inst->l, err, errlen);
	} else {
		const struct ik_governor *g = ik_governor_find(a->spec);
		inst->builtin = true;
		if (g)
			rc = builtin_open(a, g, &inst->l, err, errlen);
		else
			rc = -2, ik__governor_spec_check(a->spec, err, errlen);
	}
	if (rc) {
		if (!inst->builtin) {
			char why[800];
			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "governor %s: %s", a->spec, why);
		}
		free(inst);
		return rc;
	}
	*out = inst;
	return 0;
}

const struct ik_governor *ik__governor_inst_ops(const struct ik_governor_inst *inst)
{
	return &inst->l->ops;
}

const struct ik_governor_identity *ik__governor_inst_identity(const struct ik_governor_inst *inst)
{
	return &inst->l->id;
}

const struct ik_haltpoll_params *ik__governor_inst_haltpoll(const struct ik_governor_inst *inst)
{
	if (!inst->builtin)
		return NULL;
	const struct builtin *b = (const struct builtin *)inst->l;
	return b->is_haltpoll ? &b->hp : NULL;
}

void ik__governor_close(struct ik_governor_inst *inst)
{
	if (!inst)
		return;
	inst->l->close(inst->l);
	free(inst);
}
