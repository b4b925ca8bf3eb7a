/* idlekit kernel shim: <linux/export.h>: exports are no-ops. */
#ifndef _LINUX_EXPORT_H
#define _LINUX_EXPORT_H
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#endif
