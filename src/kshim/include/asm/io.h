/* idlekit kernel shim: <asm/io.h> (included by ladder.c, nothing used). */
#ifndef _ASM_X86_IO_H
#define _ASM_X86_IO_H
#include <linux/types.h>
#endif
