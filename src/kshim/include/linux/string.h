/* idlekit kernel shim: <linux/string.h> (the few routines governors use). */
#ifndef _LINUX_STRING_H_
#define _LINUX_STRING_H_
#include <linux/types.h>
void *memset(void *s, int c, size_t n);
void *memcpy(void *dest, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
size_t strcspn(const char *s, const char *reject);
#endif
