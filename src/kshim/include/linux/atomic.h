/*
 * idlekit kernel shim: <linux/atomic.h>: atomic_t, atomic64_t and atomic_long_t, with the
 * compiler's atomic builtins (the _return and fetch forms fully ordered, as the kernel's).
 */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H
#include <linux/types.h>
#include <linux/compiler.h>
typedef atomic64_t atomic_long_t;
#define ATOMIC_INIT(i) { (i) }
#define ATOMIC64_INIT(i) { (i) }
#define ATOMIC_LONG_INIT(i) { (i) }

#define __ikk_atomic_ops(pfx, t, vt) \
static inline t pfx##_read(const vt *v) { return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); } \
static inline void pfx##_set(vt *v, t i) { __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); } \
static inline void pfx##_add(t i, vt *v) { __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); } \
static inline void pfx##_sub(t i, vt *v) { __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); } \
static inline void pfx##_inc(vt *v) { pfx##_add(1, v); } \
static inline void pfx##_dec(vt *v) { pfx##_sub(1, v); } \
static inline t pfx##_add_return(t i, vt *v) { return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_sub_return(t i, vt *v) { return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_inc_return(vt *v) { return pfx##_add_return(1, v); } \
static inline t pfx##_dec_return(vt *v) { return pfx##_sub_return(1, v); } \
static inline t pfx##_fetch_add(t i, vt *v) { return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_fetch_sub(t i, vt *v) { return __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline bool pfx##_dec_and_test(vt *v) { return pfx##_dec_return(v) == 0; } \
static inline bool pfx##_inc_and_test(vt *v) { return pfx##_inc_return(v) == 0; } \
static inline t pfx##_xchg(vt *v, t i) { return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST); } \
static inline t pfx##_cmpxchg(vt *v, t old, t new) \
{ \
	__atomic_compare_exchange_n(&v->counter, &old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
	return old; \
} \
static inline bool pfx##_try_cmpxchg(vt *v, t *old, t new) \
{ \
	return __atomic_compare_exchange_n(&v->counter, old, new, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
}
__ikk_atomic_ops(atomic, int, atomic_t)
__ikk_atomic_ops(atomic64, long, atomic64_t)
#define atomic_long_read atomic64_read
#define atomic_long_set atomic64_set
#define atomic_long_add atomic64_add
#define atomic_long_sub atomic64_sub
#define atomic_long_inc atomic64_inc
#define atomic_long_dec atomic64_dec
#define atomic_long_add_return atomic64_add_return
#define atomic_long_inc_return atomic64_inc_return
#define atomic_long_dec_return atomic64_dec_return
#define atomic_long_xchg atomic64_xchg
#define atomic_long_cmpxchg atomic64_cmpxchg
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#endif
