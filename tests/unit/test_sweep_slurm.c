/*
 * The Slurm job array (src/sweep/slurm.c) without a cluster: option values that cannot sit
 * in an #SBATCH line refused, the default shard count (one per point, at most 100) and
 * more shards than points refused, and the script: the array, the options, and each task
 * running this idlekit on the spec into its shard's folder, every path quoted for sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/slurm.h"

static struct ik_sweep_spec *spec(const char *text)
{
	char err[IK_ERR_LEN];
	struct ik_sweep_spec *s = malloc(sizeof(*s));
	assert_non_null(s);
	assert_int_equal(ik__sweep_spec_parse_string("t.ini", text, s, err, sizeof(err)), 0);
	return s;
}

static void test_options(void **state)
{
	(void)state;
	char err[IK_ERR_LEN];
	struct ik_sweep_slurm so = { .partition = "batch", .time = "00:30:00", .cpus = 1 };
	assert_int_equal(ik__sweep_slurm_check(&so, err, sizeof(err)), 0);
	so.mem = "4 G";
	assert_int_equal(ik__sweep_slurm_check(&so, err, sizeof(err)), -1);
	assert_string_equal(err, "--mem: expected a value without spaces or quotes, got '4 G'");
	so.mem = NULL;
	so.account = "it's";
	assert_int_equal(ik__sweep_slurm_check(&so, err, sizeof(err)), -1);
	so.account = "";
	assert_int_equal(ik__sweep_slurm_check(&so, err, sizeof(err)), -1);
}

static void test_shards(void **state)
{
	(void)state;
	char err[IK_ERR_LEN];
	int n = 0;
	struct ik_sweep_spec *s = spec("[sweep]\nbase = default\nvary.workload.pairs = 1,2,3\n");
	struct ik_sweep_slurm so = { .cpus = 1 };
	assert_int_equal(ik__sweep_slurm_shards(&so, s, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3); /* one per point */
	so.shards = 4;
	assert_int_equal(ik__sweep_slurm_shards(&so, s, &n, err, sizeof(err)), -1);
	assert_string_equal(err, "--shards 4: the sweep has only 3 points: expected at most 3 shards");
	ik__sweep_spec_free(s);
	free(s);
	s = spec("[sweep]\nbase = default\nvary.workload.pairs = lin:1:500:500\n");
	so.shards = 0;
	assert_int_equal(ik__sweep_slurm_shards(&so, s, &n, err, sizeof(err)), 0);
	assert_int_equal(n, IK_SWEEP_SLURM_SHARDS_MAX);
	ik__sweep_spec_free(s);
	free(s);
}

static void test_script(void **state)
{
	(void)state;
	struct ik_sweep_spec *s = spec("[sweep]\nbase = default\nruns = 2\n"
				       "vary.workload.pairs = 1,2,3,4\n");
	struct ik_sweep_slurm so = { .partition = "debug", .account = "lab", .cpus = 4 };
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_non_null(m);
	assert_int_equal(ik__sweep_slurm_write(m, &so, 2, s, "/opt/idle kit/idlekit", "/s/it's.ini",
					      "/runs/a"), 0);
	assert_int_equal(fclose(m), 0);
	assert_non_null(strstr(text, "#!/bin/sh\n#SBATCH --job-name=idlekit-sweep\n"
				     "#SBATCH --array=0-1\n#SBATCH --cpus-per-task=4\n"
				     "#SBATCH --ntasks=1\n#SBATCH --output=/runs/a/logs/shard-%a.out\n"
				     "#SBATCH --partition=debug\n#SBATCH --account=lab\n#\n"));
	assert_null(strstr(text, "--time="));
	assert_non_null(strstr(text, "4 points x 2 runs"));
	assert_non_null(strstr(text, "\nset -e\ni=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))\n"
				     "exec '/opt/idle kit/idlekit' sweep '/s/it'\\''s.ini' -o '/runs/a'"
				     "\"/shard-$i\" -j \"${SLURM_CPUS_PER_TASK:-1}\" -q\n"));
	free(text);
	ik__sweep_spec_free(s);
	free(s);
}

static void test_submit_without_sbatch(void **state)
{
	(void)state;
	int spawn_errno = 0;
	const char *path = getenv("PATH");
	char *saved = path ? strdup(path) : NULL;
	setenv("PATH", "/nonexistent-idlekit-path", 1);
	assert_int_equal(ik__sweep_slurm_submit("/dev/null", &spawn_errno), -1);
	assert_int_not_equal(spawn_errno, 0);
	if (saved) {
		setenv("PATH", saved, 1);
		free(saved);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_shards),
		cmocka_unit_test(test_script),
		cmocka_unit_test(test_submit_without_sbatch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
