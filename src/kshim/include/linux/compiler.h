/* idlekit kernel shim: <linux/compiler.h> and the attribute macros governors use. */
#ifndef __LINUX_COMPILER_H
#define __LINUX_COMPILER_H
#include <linux/types.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define __maybe_unused __attribute__((__unused__))
#define __always_unused __attribute__((__unused__))
#define __used __attribute__((__used__))
#define __packed __attribute__((__packed__))
#define __aligned(x) __attribute__((__aligned__(x)))
#define __cacheline_aligned __attribute__((__aligned__(64)))
#define ____cacheline_aligned __attribute__((__aligned__(64)))
#define __read_mostly
#define __cpuidle
#define __weak __attribute__((__weak__))
#define __must_check __attribute__((__warn_unused_result__))
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#define fallthrough __attribute__((__fallthrough__))
#define barrier() __asm__ __volatile__("" : : : "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val) do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON: " #cond)
#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)
#endif
