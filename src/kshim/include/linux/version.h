/* idlekit kernel shim: <linux/version.h>; the release is the one idlekit compiles for. */
#ifndef _LINUX_VERSION_H
#define _LINUX_VERSION_H
#include <ikk/shim.h>
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE IKK_LINUX_VERSION_CODE
#define LINUX_VERSION_MAJOR (LINUX_VERSION_CODE >> 16)
#define LINUX_VERSION_PATCHLEVEL ((LINUX_VERSION_CODE >> 8) & 0xff)
#endif
