/*
 * Fuzz target: sysfs dumps.  The input is a dump's text; parsing must never crash, hang or
 * leak.  A success must be a view every reader can walk (CPUs, idle states, listings); a
 * failure is a one-line message naming the dump and a line.  A success written back as a dump
 * (ik__sysfs_write_dump, `idlekit info --dump`) must parse again to the same CPUs and tables.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/host.h"

static int count_entry(const char *name, void *arg)
{
	(void)name;
	(*(int *)arg)++;
	return 0;
}

/* The view written as a dump reads back to the same machine. */
static void round_trip(const struct ik_sysfs *fs, const struct ik_host_idle *idle)
{
	char *text = NULL, err[IK_HOST_ERR_LEN] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		abort();
	int skipped = 0;
	if (ik__sysfs_write_dump(fs, f, &skipped, err, sizeof(err)) != 0 || skipped)
		abort(); /* everything in a dump is readable */
	fclose(f);
	struct ik_sysfs *back;
	if (ik__sysfs_parse_dump("back.txt", text, len, &back, err, sizeof(err)))
		abort();
	struct ik_host_idle again;
	if (ik__host_idle_read(back, NULL, &again, err, sizeof(err)))
		abort();
	/* the driver, and every CPU with cpuidle: the same CPU, online or not, the same states
	   (a cpuN holding only files the dump leaves out, cpufreq/ say, may drop out) */
	if (strcmp(again.driver, idle->driver))
		abort();
	for (int i = 0; i < idle->ncpus; i++) {
		const struct ik_host_cpu *a = &idle->cpus[i], *b = NULL;
		if (!a->has_cpuidle)
			continue;
		for (int j = 0; j < again.ncpus; j++)
			if (again.cpus[j].cpu == a->cpu)
				b = &again.cpus[j];
		if (!b || !b->has_dir || !b->has_cpuidle || a->online != b->online ||
		    a->nstates != b->nstates)
			abort();
		for (int k = 0; k < a->nstates; k++)
			if (a->states[k].latency_us != b->states[k].latency_us ||
			    a->states[k].usage != b->states[k].usage)
				abort();
	}
	ik__host_idle_free(&again);
	ik__sysfs_close(back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ik_sysfs *fs;
	char err[IK_HOST_ERR_LEN] = "";

	if (ik__sysfs_parse_dump("fuzz.txt", (const char *)data, size, &fs, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n') || strncmp(err, "fuzz.txt", 8) != 0)
			abort();
		return 0;
	}
	int n = 0;
	if (ik__sysfs_list(fs, "", count_entry, &n, err, sizeof(err)) == IK_SYSFS_ERROR)
		abort();

	struct ik_host_idle idle;
	err[0] = '\0';
	if (ik__host_idle_read(fs, NULL, &idle, err, sizeof(err)) == 0) {
		int *group_of = malloc((size_t)(idle.ncpus ? idle.ncpus : 1) * sizeof(int));
		if (!group_of)
			abort();
		int groups = ik__host_fold(&idle, group_of);
		if (groups < 0 || groups > idle.ncpus)
			abort();
		for (int i = 0; i < idle.ncpus; i++) {
			if (idle.cpus[i].nstates < 0 || idle.cpus[i].nstates > IK_STATE_MAX)
				abort();
			if (group_of[i] >= 0 && !ik__host_same_table(&idle.cpus[group_of[i]], &idle.cpus[i]))
				abort();
		}
		if (ik__host_idle_refresh(fs, &idle, err, sizeof(err)) != 0)
			abort(); /* a dump does not change between two reads */
		round_trip(fs, &idle);
		free(group_of);
		ik__host_idle_free(&idle);
	} else if (!err[0] || strchr(err, '\n')) {
		abort();
	}
	ik__sysfs_close(fs);
	return 0;
}
