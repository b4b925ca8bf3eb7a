/* idlekit kernel shim: <linux/module.h>: a governor file is built in, as in the kernel. */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/export.h>
struct module;
#define THIS_MODULE ((struct module *)0)
#define module_init(fn) device_initcall(fn)
#define module_exit(fn) static void (*__ikk_concat(__ikk_exit_, fn))(void) __attribute__((__unused__)) = fn
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_ALIAS(x)
#define MODULE_SOFTDEP(x)
#endif
