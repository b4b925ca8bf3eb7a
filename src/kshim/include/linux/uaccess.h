/* idlekit kernel shim: <linux/uaccess.h> (included by ladder.c, nothing used). */
#ifndef __LINUX_UACCESS_H__
#define __LINUX_UACCESS_H__
#include <linux/types.h>
#endif
