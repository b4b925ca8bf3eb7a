/*
 * idlekit kernel shim: what the shim's headers share.  Not a kernel header: governor files
 * never include it themselves.  The shim is written for the kernel's C dialect (gnu11,
 * -fno-strict-overflow -fno-strict-aliasing) and is compiled with -nostdinc, so nothing
 * from the system's headers can stand in for a kernel header by accident.
 *
 * The governor API served: v5.5 to v6.19 (v5.10's nanosecond layout; the v5.7.14 and v5.9.1
 * governor files are v5.10.7's), and v5.4's microsecond layout for v5.1 to v5.4 (v5.2.1's
 * teo.c and ladder.c need nothing else) (IKK_LINUX_VERSION_CODE, set by idlekit,
 * picks the release; default v6.19).
 */
#ifndef IKK_SHIM_H
#define IKK_SHIM_H

#ifndef IKK_LINUX_VERSION_CODE
#define IKK_LINUX_VERSION_CODE 398080 /* KERNEL_VERSION(6, 19, 0) */
#endif
#if IKK_LINUX_VERSION_CODE < 327936
#error "idlekit's kernel shim serves the cpuidle governor API of v5.1 to v5.4 (v5.4's layout) and of v5.5 to v6.19 (v5.10's)"
#endif

#define IKK_NR_CPUS_SHIM 8192

/*
 * The kernel configuration the governor files see: an SMP kernel, as every kernel for the
 * machines idlekit models is (v6.3-v6.10 teo.c reads sched_cpu_util() only under it).
 */
#define CONFIG_SMP 1

/* The CPU whose governor callback is running (set by the runtime around each call). */
extern int ikk_this_cpu __attribute__((visibility("hidden")));
extern int ikk_hz __attribute__((visibility("hidden")));
extern long ikk_tick_nsec __attribute__((visibility("hidden")));

/* The section the initcall macros fill in (module parameters: <linux/moduleparam.h>). */
typedef int (*ikk_initcall_t)(void);

#define __ikk_concat2(a, b) a##b
#define __ikk_concat(a, b) __ikk_concat2(a, b)

#endif
