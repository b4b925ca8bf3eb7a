/* idlekit kernel shim: <linux/kvm_para.h>: a haltpoll governor runs as a KVM guest's. */
#ifndef __LINUX_KVM_PARA_H
#define __LINUX_KVM_PARA_H
#include <linux/types.h>
static inline bool kvm_para_available(void) { return true; }
static inline bool kvm_para_has_feature(unsigned int feature) { (void)feature; return true; }
#endif
