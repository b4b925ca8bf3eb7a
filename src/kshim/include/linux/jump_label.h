/*
 * idlekit kernel shim: <linux/jump_label.h>: static keys.  The kernel patches the branch in
 * the code; here a key is a counter read at each branch, with the same meaning: enabled
 * while the count is above zero, static_branch_enable/disable set it to 1/0.
 */
#ifndef _LINUX_JUMP_LABEL_H
#define _LINUX_JUMP_LABEL_H
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/atomic.h>
struct static_key {
	atomic_t enabled;
};
struct static_key_true {
	struct static_key key;
};
struct static_key_false {
	struct static_key key;
};
#define STATIC_KEY_INIT_TRUE { .enabled = ATOMIC_INIT(1) }
#define STATIC_KEY_INIT_FALSE { .enabled = ATOMIC_INIT(0) }
#define STATIC_KEY_TRUE_INIT (struct static_key_true){ .key = STATIC_KEY_INIT_TRUE }
#define STATIC_KEY_FALSE_INIT (struct static_key_false){ .key = STATIC_KEY_INIT_FALSE }
#define DEFINE_STATIC_KEY_TRUE(name) struct static_key_true name = { .key = STATIC_KEY_INIT_TRUE }
#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = { .key = STATIC_KEY_INIT_FALSE }
#define DEFINE_STATIC_KEY_TRUE_RO(name) DEFINE_STATIC_KEY_TRUE(name)
#define DEFINE_STATIC_KEY_FALSE_RO(name) DEFINE_STATIC_KEY_FALSE(name)
#define DECLARE_STATIC_KEY_TRUE(name) extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
#define DEFINE_STATIC_KEY_ARRAY_TRUE(name, count) \
	struct static_key_true name[count] = { [0 ... (count) - 1] = { .key = STATIC_KEY_INIT_TRUE } }
#define DEFINE_STATIC_KEY_ARRAY_FALSE(name, count) \
	struct static_key_false name[count] = { [0 ... (count) - 1] = { .key = STATIC_KEY_INIT_FALSE } }

static inline bool static_key_enabled_(const struct static_key *k) { return atomic_read(&k->enabled) > 0; }
/* Takes a struct static_key, _true or _false (all hold .enabled first). */
#define static_key_enabled(x) static_key_enabled_((const struct static_key *)(x))
#define static_branch_likely(x) likely(static_key_enabled(&(x)->key))
#define static_branch_unlikely(x) unlikely(static_key_enabled(&(x)->key))
#define static_key_true(x) likely(static_key_enabled(x))
#define static_key_false(x) unlikely(static_key_enabled(x))
#define static_branch_enable(x) atomic_set(&(x)->key.enabled, 1)
#define static_branch_disable(x) atomic_set(&(x)->key.enabled, 0)
#define static_branch_enable_cpuslocked(x) static_branch_enable(x)
#define static_branch_disable_cpuslocked(x) static_branch_disable(x)
#define static_branch_inc(x) atomic_inc(&(x)->key.enabled)
#define static_branch_dec(x) atomic_dec(&(x)->key.enabled)
#define static_key_slow_inc(k) atomic_inc(&(k)->enabled)
#define static_key_slow_dec(k) atomic_dec(&(k)->enabled)
#define static_key_enable(k) atomic_set(&(k)->enabled, 1)
#define static_key_disable(k) atomic_set(&(k)->enabled, 0)
#endif
