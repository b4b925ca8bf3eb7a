/*
 * idlekit kernel shim: <linux/spinlock.h>.  One loaded governor runs one callback at a time
 * (a simulated machine is one thread), so a lock only records that it is held; the flags
 * of the _irqsave forms are set to 0.
 */
#ifndef __LINUX_SPINLOCK_H
#define __LINUX_SPINLOCK_H
#include <linux/types.h>
typedef struct { int locked; } spinlock_t;
typedef struct { int locked; } raw_spinlock_t;
#define __SPIN_LOCK_UNLOCKED(name) { 0 }
#define __RAW_SPIN_LOCK_UNLOCKED(name) { 0 }
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
#define DEFINE_RAW_SPINLOCK(x) raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)
#define spin_lock_init(l) do { (l)->locked = 0; } while (0)
#define raw_spin_lock_init(l) spin_lock_init(l)
#define spin_lock(l) do { (l)->locked = 1; } while (0)
#define spin_unlock(l) do { (l)->locked = 0; } while (0)
#define spin_trylock(l) ((l)->locked ? 0 : ((l)->locked = 1))
#define spin_is_locked(l) ((l)->locked != 0)
#define spin_lock_irq(l) spin_lock(l)
#define spin_unlock_irq(l) spin_unlock(l)
#define spin_lock_bh(l) spin_lock(l)
#define spin_unlock_bh(l) spin_unlock(l)
#define spin_lock_irqsave(l, flags) do { (flags) = 0; spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, flags) do { (void)(flags); spin_unlock(l); } while (0)
#define raw_spin_lock(l) spin_lock(l)
#define raw_spin_unlock(l) spin_unlock(l)
#define raw_spin_trylock(l) spin_trylock(l)
#define raw_spin_lock_irq(l) spin_lock(l)
#define raw_spin_unlock_irq(l) spin_unlock(l)
#define raw_spin_lock_irqsave(l, flags) spin_lock_irqsave(l, flags)
#define raw_spin_unlock_irqrestore(l, flags) spin_unlock_irqrestore(l, flags)
#define local_irq_save(flags) do { (flags) = 0; } while (0)
#define local_irq_restore(flags) do { (void)(flags); } while (0)
#define local_irq_disable() do { } while (0)
#define local_irq_enable() do { } while (0)
#endif
