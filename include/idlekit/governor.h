/*
 * idlekit: cpuidle governors.
 *
 * One ops table per governor, as in drivers/cpuidle/governors/. A governor keeps its per-CPU
 * data in dev->governor_data (enable allocates it, disable frees it) and sees the world only
 * through struct ik_driver, struct ik_device and the services of cpuidle.h.
 */
#ifndef IDLEKIT_GOVERNOR_H
#define IDLEKIT_GOVERNOR_H

#include "idlekit/cpuidle.h"

struct ik_governor {
	const char *name;
	unsigned rating;
	/* ->enable: allocate and reset per-CPU data; 0 or -1 (out of memory). */
	int (*enable)(const struct ik_driver *drv, struct ik_device *dev);
	void (*disable)(const struct ik_driver *drv, struct ik_device *dev);
	/* ->select: returns a state index; may clear *stop_tick (it starts true). */
	int (*select)(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick);
	/* ->reflect: called after an entry that the driver did not reject. */
	void (*reflect)(struct ik_device *dev, int index);
	/* The loader's own data (kernel-source and plugin governors); NULL for built-ins. */
	void *priv;
	/*
	 * Optional: false if ->select never reads dev->in.cpu_util (sched_cpu_util()) on this
	 * release, so that the host may leave it 0 and not keep the utilisation signal up to
	 * date (the simulator then skips it: a few per cent of its time).  NULL: it may read it.
	 */
	bool (*reads_cpu_util)(const struct ik_kernel *kernel);
};

/* Whether gov's select may read dev->in.cpu_util on that release (NULL kernel: 6.19). */
bool ik_governor_reads_cpu_util(const struct ik_governor *gov, const struct ik_kernel *kernel);
/* A reads_cpu_util for a governor that reads it on no release. */
bool ik_governor_never_reads_cpu_util(const struct ik_kernel *kernel);

extern const struct ik_governor ik_governor_menu;
extern const struct ik_governor ik_governor_teo;
extern const struct ik_governor ik_governor_ladder;
extern const struct ik_governor ik_governor_haltpoll;

/* By name ("menu", "teo", "ladder", "haltpoll"); NULL if unknown or not built. */
const struct ik_governor *ik_governor_find(const char *name);
/* Names of the available governors, space separated, registration order (sysfs style). */
const char *ik_governor_names(void);

void ik_haltpoll_params_default(struct ik_haltpoll_params *p);

#endif
