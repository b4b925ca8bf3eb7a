/*
 * Fuzz target: sysfs dumps.  The input is a dump's text; parsing must never crash, hang or
 * leak.  A success must be a view every reader can walk (CPUs, idle states, listings); a
 * failure is a one-line message naming the dump and a line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "idlekit/host.h"

static int count_entry(const char *name, void *arg)
{
	(void)name;
	(*(int *)arg)++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ik_sysfs *fs;
	char err[IK_HOST_ERR_LEN] = "";

	if (ik_sysfs_parse_dump("fuzz.txt", (const char *)data, size, &fs, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n') || strncmp(err, "fuzz.txt", 8) != 0)
			abort();
		return 0;
	}
	int n = 0;
	if (ik_sysfs_list(fs, "", count_entry, &n, err, sizeof(err)) == IK_SYSFS_ERROR)
		abort();

	struct ik_host_idle idle;
	err[0] = '\0';
	if (ik_host_idle_read(fs, NULL, &idle, err, sizeof(err)) == 0) {
		int *group_of = malloc((size_t)(idle.ncpus ? idle.ncpus : 1) * sizeof(int));
		if (!group_of)
			abort();
		int groups = ik_host_fold(&idle, group_of);
		if (groups < 0 || groups > idle.ncpus)
			abort();
		for (int i = 0; i < idle.ncpus; i++) {
			if (idle.cpus[i].nstates < 0 || idle.cpus[i].nstates > IK_STATE_MAX)
				abort();
			if (group_of[i] >= 0 && !ik_host_same_table(&idle.cpus[group_of[i]], &idle.cpus[i]))
				abort();
		}
		if (ik_host_idle_refresh(fs, &idle, err, sizeof(err)) != 0)
			abort(); /* a dump does not change between two reads */
		free(group_of);
		ik_host_idle_free(&idle);
	} else if (!err[0] || strchr(err, '\n')) {
		abort();
	}
	ik_sysfs_close(fs);
	return 0;
}
