/*
 * idlekit kernel shim: <linux/moduleparam.h>.  module_param() registers the variable so that
 * `--set governor.NAME=VALUE` (or govreplay --param NAME=VALUE) can set it, and every output
 * records it.  The permission bits are not used (there is no sysfs).
 */
#ifndef _LINUX_MODULE_PARAMS_H
#define _LINUX_MODULE_PARAMS_H
#include <linux/compiler.h>
#define __ikk_param(pname, var, ptype) \
	static const struct ikk_param __ikk_concat(__ikk_param_, pname) \
		__attribute__((__used__, __section__("ikk_params"), __aligned__(sizeof(void *)))) = \
		{ #pname, #ptype, &(var) }
#define module_param_named(name, value, type, perm) __ikk_param(name, value, type)
#define module_param(name, type, perm) module_param_named(name, name, type, perm)
#define module_param_unsafe(name, type, perm) module_param(name, type, perm)
#define core_param(name, var, type, perm) module_param_named(name, var, type, perm)
#define MODULE_PARM_DESC(parm, desc)
#endif
