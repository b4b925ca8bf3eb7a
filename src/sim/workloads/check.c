/*
 * The checks of a workload's settings against the platform (ik__workload_check, made when
 * a scenario is read): those of every type here, then the type's own (ops->check), and
 * the pieces several types share (CPUs that must exist, pinned pairs that must fit, the
 * file a workload reads).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "sim/workload.h"

int sim_check_fail(struct ik_workload_check *c, const char *key, const char *fmt, ...)
{
	va_list ap;

	c->key = key;
	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int sim_check_cpus_exist(struct ik_workload_check *c, const char *key, const int *cpus, int n)
{
	const struct ik_platform *p = c->platform;

	for (int i = 0; i < n; i++)
		if (cpus[i] >= ik__platform_cpus(p))
			return sim_check_fail(c, key, "[workload] %s: CPU %d does not exist, platform "
					      "%s has %d CPUs", key, cpus[i], p->name,
					      ik__platform_cpus(p));
	return 0;
}

/* Pinned pairs (pingpong, stream) must fit the machine; say which constraint fails and why. */
int sim_check_spin_cpus(struct ik_workload *w, struct ik_workload_check *c)
{
	return sim_check_cpus_exist(c, "cpus", w->spin_cpus, w->nspin_cpus);
}

int sim_check_pinned_pairs(const struct ik_workload *w, struct ik_workload_check *c)
{
	const struct ik_platform *p = c->platform;

	if (w->placement == IK_PLACE_WAKE_IDLE)
		return 0;
	const char *key = c->given(c->user, "placement") ? "placement" : "pairs";
	const char *name = ik__workload_placement_name(w->placement);
	int cpus = ik__platform_cpus(p);
	int cores = p->packages * p->cores_per_package;
	int64_t tasks = 2 * (int64_t)w->pairs;

	if (tasks > cpus)
		return sim_check_fail(c, key, "[workload] placement %s: %d pairs pin %" PRId64 " tasks, "
				      "one per CPU, but platform %s has %d CPUs", name, w->pairs,
				      tasks, p->name, cpus);
	switch (w->placement) {
	case IK_PLACE_SAME_CORE:
		if (p->threads_per_core < 2)
			return sim_check_fail(c, key, "[workload] placement same_core puts a pair on "
					      "SMT siblings: needs threads_per_core >= 2, platform %s "
					      "has %d", p->name, p->threads_per_core);
		if (w->pairs > cores)
			return sim_check_fail(c, key, "[workload] placement same_core needs a core per "
					      "pair: %d pairs, platform %s has %d cores", w->pairs,
					      p->name, cores);
		break;
	case IK_PLACE_SAME_PACKAGE:
		if (p->cores_per_package < 2)
			return sim_check_fail(c, key, "[workload] placement same_package puts a pair on "
					      "two cores of one package: needs cores_per_package >= "
					      "2, platform %s has %d", p->name, p->cores_per_package);
		break;
	case IK_PLACE_CROSS_PACKAGE: {
		int per_package = p->cores_per_package * p->threads_per_core;
		if (p->packages < 2)
			return sim_check_fail(c, key, "[workload] placement cross_package puts the two "
					      "tasks of a pair on different packages: needs packages "
					      ">= 2, platform %s has %d", p->name, p->packages);
		if (w->pairs > per_package)
			return sim_check_fail(c, key, "[workload] placement cross_package needs a CPU "
					      "per pair in each package: %d pairs, platform %s has "
					      "%d CPUs per package", w->pairs, p->name, per_package);
		break;
	}
	case IK_PLACE_WAKE_IDLE:
		break;
	}
	return 0;
}

/*
 * The file a workload reads (rt-app JSON, a learned model) must open: a relative path is
 * tried as given, then next to the scenario file (and kept so).  `needs` is the message
 * when no file is given.  c->key is left at the key to blame for the file (file if given,
 * else type).
 */
int sim_check_file(struct ik_workload *w, struct ik_workload_check *c, const char *needs)
{
	const char *key = c->given(c->user, "file") ? "file" : "type";

	c->key = key; /* what a later message about the file names too */
	if (!w->file[0])
		return sim_check_fail(c, key, "%s", needs);
	FILE *f = fopen(w->file, "rb");
	if (!f && w->file[0] != '/' && c->base_dir && c->base_dir[0]) {
		char other[sizeof(w->file)];
		int n = snprintf(other, sizeof(other), "%s/%s", c->base_dir, w->file);
		if (n > 0 && (size_t)n < sizeof(other) && (f = fopen(other, "rb")))
			snprintf(w->file, sizeof(w->file), "%s", other);
	}
	if (!f)
		return sim_check_fail(c, key, "[workload] file: cannot open '%s'", w->file);
	fclose(f);
	return 0;
}

int ik__workload_check(struct ik_workload *w, struct ik_workload_check *c)
{
	const struct sim_workload_ops *ops = sim_workload_ops_of(w->kind);

	c->key = NULL;
	c->msg[0] = '\0';
	c->notes[0] = '\0';
	if (!ops)
		return sim_check_fail(c, "type", "[workload] type: no workload of kind %d",
				      (int)w->kind);
	if (sim_check_cpus_exist(c, "side_spin_cpus", w->side_spin_cpus, w->nside_spin_cpus))
		return -1;
	/* (the one key of one type that others could be given by mistake) */
	if (w->ack_timer_ns > 0 && (w->kind != IK_WORKLOAD_PERIODIC || w->burst_ios == 0))
		return sim_check_fail(c, "ack_timer_ms", "[workload] ack_timer_ms: the timer is "
				      "re-armed by the I/O bursts' completions, so expected type "
				      "periodic with burst_ios > 0 (or ack_timer_ms = 0)");
	return ops->check ? ops->check(w, c) : 0;
}
