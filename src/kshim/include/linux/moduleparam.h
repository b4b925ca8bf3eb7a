/*
 * idlekit kernel shim: <linux/moduleparam.h>.  module_param() and its relatives register
 * the parameter so that `--set governor.NAME=VALUE` (or govreplay --param NAME=VALUE) can
 * set it and every output records it.  As in the kernel, the values are set before the
 * file's initcalls run (a module's at load, a built-in one's from the command line), and
 * every set and get goes through the parameter's kernel_param_ops: the standard ones
 * (param_ops_uint, ...) or the file's own (module_param_cb).  The permission bits are not
 * used (there is no sysfs).
 */
#ifndef _LINUX_MODULE_PARAMS_H
#define _LINUX_MODULE_PARAMS_H
#include <linux/compiler.h>
#include <linux/types.h>

struct kernel_param;
struct kernel_param_ops {
	unsigned int flags;
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
	void (*free)(void *arg);
};
struct kparam_array {
	unsigned int max;
	unsigned int elemsize;
	unsigned int *num;
	const struct kernel_param_ops *ops;
	void *elem;
};
struct kparam_string {
	unsigned int maxlen;
	char *string;
};
struct kernel_param {
	const char *name;
	struct module *mod;
	const struct kernel_param_ops *ops;
	const u16 perm;
	s8 level;
	u8 flags;
	union {
		void *arg;
		const struct kparam_string *str;
		const struct kparam_array *arr;
	};
};
/* What the shim's section lists: the parameter and its type as written (NULL: from ops). */
struct ikk_param {
	const char *type;
	const struct kernel_param *kp;
};

#define KERNEL_PARAM_OPS_FL_NOARG 1
#define __ikk_param(pname, ptype, pops, parg) \
	static const struct kernel_param __ikk_concat(__param_, pname) = { \
		.name = #pname, .ops = (pops), .arg = (void *)(parg) }; \
	static const struct ikk_param __ikk_concat(__ikk_param_, pname) \
		__attribute__((__used__, __section__("ikk_params"), __aligned__(sizeof(void *)))) = \
		{ ptype, &__ikk_concat(__param_, pname) }

#define module_param_named(name, value, type, perm) \
	__ikk_param(name, #type, &param_ops_##type, &(value))
#define module_param(name, type, perm) module_param_named(name, name, type, perm)
#define module_param_unsafe(name, type, perm) module_param(name, type, perm)
#define module_param_named_unsafe(name, value, type, perm) module_param_named(name, value, type, perm)
#define module_param_cb(name, ops, arg, perm) __ikk_param(name, (const char *)0, ops, arg)
#define module_param_cb_unsafe(name, ops, arg, perm) module_param_cb(name, ops, arg, perm)
#define core_param(name, var, type, perm) module_param_named(name, var, type, perm)
/* An array: "1,2,3" sets the first three elements and *nump (if not NULL) to 3. */
#define module_param_array_named(name, array, type, nump, perm) \
	static const struct kparam_array __ikk_concat(__param_arr_, name) = { \
		.max = ARRAY_SIZE(array), .elemsize = sizeof((array)[0]), .num = (nump), \
		.ops = &param_ops_##type, .elem = (array) }; \
	__ikk_param(name, "array of " #type, &param_array_ops, &__ikk_concat(__param_arr_, name))
#define module_param_array(name, type, nump, perm) module_param_array_named(name, name, type, nump, perm)
#define MODULE_PARM_DESC(parm, desc)
#define __moduleparam_const const
#define kernel_param_lock(mod) do { } while (0)
#define kernel_param_unlock(mod) do { } while (0)

/* The standard types: set parses as the kernel does (kstrto*, base 0), get prints. */
#define __ikk_param_type(t) \
	extern const struct kernel_param_ops param_ops_##t; \
	int param_set_##t(const char *val, const struct kernel_param *kp); \
	int param_get_##t(char *buffer, const struct kernel_param *kp)
__ikk_param_type(byte);
__ikk_param_type(short);
__ikk_param_type(ushort);
__ikk_param_type(int);
__ikk_param_type(uint);
__ikk_param_type(long);
__ikk_param_type(ulong);
__ikk_param_type(ullong);
__ikk_param_type(hexint);
__ikk_param_type(bool);
__ikk_param_type(invbool);
__ikk_param_type(charp);
extern const struct kernel_param_ops param_array_ops;
int param_set_uint_minmax(const char *val, const struct kernel_param *kp, unsigned int min,
			  unsigned int max);
int param_set_bool_enable_only(const char *val, const struct kernel_param *kp);
#endif
