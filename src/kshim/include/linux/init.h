/* idlekit kernel shim: <linux/init.h>: initcalls run when idlekit loads the governor. */
#ifndef _LINUX_INIT_H
#define _LINUX_INIT_H
#include <linux/compiler.h>
#define __init
#define __exit __attribute__((__unused__))
#define __initdata
#define __initconst
#define __exitdata
#define __ikk_initcall(fn) \
	static ikk_initcall_t __ikk_concat(__ikk_initcall_, fn) \
		__attribute__((__used__, __section__("ikk_initcalls"), __aligned__(sizeof(void *)))) = fn
#define pure_initcall(fn) __ikk_initcall(fn)
#define core_initcall(fn) __ikk_initcall(fn)
#define postcore_initcall(fn) __ikk_initcall(fn)
#define arch_initcall(fn) __ikk_initcall(fn)
#define subsys_initcall(fn) __ikk_initcall(fn)
#define fs_initcall(fn) __ikk_initcall(fn)
#define device_initcall(fn) __ikk_initcall(fn)
#define late_initcall(fn) __ikk_initcall(fn)
#endif
