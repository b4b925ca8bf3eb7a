/*
 * Where a CPU sits: package, core, SMT thread and last-level-cache group.
 *
 * CPUs are numbered as Linux enumerates x86 machines: the first thread of every core of
 * every package, then the second threads in the same order, and so on:
 *
 *   cpu = thread * (packages * cores_per_package) + package * cores_per_package + core_in_package
 *
 * so on a 2 x 20 x 2 Skylake-SP CPUs 0-19 are package 0, 20-39 package 1, and CPU 40 is the
 * SMT sibling of CPU 0.  A core's LLC group is its global core index / cores_per_llc (a CCX
 * of 8 cores on Zen 3, the whole package on Skylake-SP).
 */
#include "hw/hw.h"

void ik__platform_topology(const struct ik_platform *p, int cpu, struct ik_cpu_topo *t)
{
	int cores = p->packages * p->cores_per_package; /* <= 8192 on a validated platform */

	if (p->packages < 1 || p->cores_per_package < 1 || p->threads_per_core < 1 ||
	    cpu < 0 || cpu >= cores * p->threads_per_core) {
		t->package = t->core = t->thread = t->llc = -1;
		return;
	}
	int core = cpu % cores;
	int per_llc = p->cores_per_llc > 0 ? p->cores_per_llc : p->cores_per_package;

	t->thread = cpu / cores;
	t->package = core / p->cores_per_package;
	t->core = core;
	t->llc = core / per_llc;
}
