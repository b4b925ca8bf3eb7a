/*
 * The drivers against real machines: each fixture under tests/fixtures/sysfs is the cpuidle
 * sysfs of CPU 0 on a real machine (pepc test data, see its README).  The table our driver
 * builds from the matching platform's firmware description must show the same names,
 * descs, latencies, residencies and default status, and the dump's driver must be ours.
 * Run with the working directory tests/.
 */
#include "driver_test.h"

struct sysfs_state {
	char name[64], desc[64], default_status[16];
	long latency, residency;
	bool seen;
};
struct sysfs_dump {
	char driver[32];
	int count;
	struct sysfs_state s[IK_STATE_MAX];
};

static void read_dump(const char *machine, struct sysfs_dump *d)
{
	char path[256], line[512];
	static const char prefix[] = "/sys/devices/system/cpu/cpu0/cpuidle/state";

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), "fixtures/sysfs/%s.txt", machine);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (run from tests/)", path);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *path_start = strchr(line, '|');
		if (!path_start)
			continue;
		char *value = strchr(path_start + 1, '|');
		if (!value)
			continue;
		*value++ = '\0';
		const char *p = path_start + 1;
		if (strcmp(p, "/sys/devices/system/cpu/cpuidle/current_driver") == 0) {
			snprintf(d->driver, sizeof(d->driver), "%s", value);
			continue;
		}
		if (strncmp(p, prefix, sizeof(prefix) - 1) != 0)
			continue;
		char *end;
		long i = strtol(p + sizeof(prefix) - 1, &end, 10);
		if (*end != '/' || i < 0 || i >= IK_STATE_MAX)
			continue;
		struct sysfs_state *s = &d->s[i];
		const char *field = end + 1;
		s->seen = true;
		if (i + 1 > d->count)
			d->count = (int)i + 1;
		if (strcmp(field, "name") == 0)
			snprintf(s->name, sizeof(s->name), "%s", value);
		else if (strcmp(field, "desc") == 0)
			snprintf(s->desc, sizeof(s->desc), "%s", value);
		else if (strcmp(field, "latency") == 0)
			s->latency = strtol(value, NULL, 10);
		else if (strcmp(field, "residency") == 0)
			s->residency = strtol(value, NULL, 10);
		else if (strcmp(field, "default_status") == 0)
			snprintf(s->default_status, sizeof(s->default_status), "%s", value);
	}
	fclose(f);
	assert_true(d->count > 1);
}

/* Compare the last dt_table() with the machine's dump, state by state. */
static void matches(const char *machine)
{
	struct sysfs_dump d;
	const struct ik_driver *drv = &dt_b.table;

	read_dump(machine, &d);
	if (strcmp(d.driver, drv->name) != 0)
		fail_msg("%s: driver %s, the machine ran %s", machine, drv->name, d.driver);
	if (d.count != drv->state_count)
		fail_msg("%s: %d states, the machine has %d", machine, drv->state_count, d.count);
	for (int i = 0; i < d.count; i++) {
		const struct sysfs_state *s = &d.s[i];
		const struct ik_state *t = &drv->states[i];
		const char *status = (t->flags & IK_FLAG_OFF) ? "disabled" : "enabled";
		assert_true(s->seen);
		if (strcmp(s->name, t->name) || strcmp(s->desc, t->desc) ||
		    s->latency != (long)t->exit_latency || s->residency != (long)t->target_residency ||
		    strcmp(s->default_status, status))
			fail_msg("%s state%d: machine %s \"%s\" %ld/%ld %s, ours %s \"%s\" %u/%u %s",
				 machine, i, s->name, s->desc, s->latency, s->residency,
				 s->default_status, t->name, t->desc, (unsigned)t->exit_latency,
				 (unsigned)t->target_residency, status);
	}
}

/* acpi_idle on AMD: the _CST of each platform file gives the machine's table. */
static void amd_rome_acpi_idle(void **state)
{
	(void)state;
	dt_table("amd-zen2-rome", "auto", NULL);
	matches("rome0");
}

static void amd_milan_acpi_idle(void **state)
{
	(void)state;
	dt_table("amd-zen3-milan", "auto", NULL);
	matches("milan0");
}

static void intel_skylake_sp(void **state)
{
	(void)state;
	dt_table("intel-skx", "auto", NULL);
	matches("sklep0");
}

/* Cascade Lake (skx table) with package C6 disabled in its BIOS. */
static void intel_cascade_lake_pc6_off(void **state)
{
	(void)state;
	dt_table("intel-skx", "auto", "intel_idle.pc6=no", NULL);
	matches("clx2s0");
}

static void intel_ice_lake_sp(void **state)
{
	(void)state;
	dt_table("intel-icx", "auto", NULL);
	matches("icx2s0");
}

static void intel_sapphire_and_emerald_rapids(void **state)
{
	(void)state;
	dt_table("intel-spr", "auto", NULL);
	matches("spr1");
	dt_table("intel-spr", "auto", "cpuid.model=0xcf", NULL);
	matches("emr0");
}

static void intel_granite_rapids(void **state)
{
	(void)state;
	dt_table("intel-gnr", "auto", NULL);
	matches("gnr3");
}

static void intel_sierra_forest(void **state)
{
	(void)state;
	dt_table("intel-srf", "auto", NULL);
	matches("srf2");
}

/* Haswell-EP whose _CST lists C1 and C6 (control taken): C3 starts disabled. */
static void intel_haswell_ep(void **state)
{
	(void)state;
	dt_table("intel-hsx", "auto", "acpi.cst_control=ok", "cst2.type=C2", "cst2.method=ffh",
		 "cst2.address=0x20", "cst2.latency_us=133", NULL);
	matches("hswep0");
}

/*
 * Raptor Lake has no intel_idle table in that machine's kernel: C<n>_ACPI states from its
 * _CST (FFH 0x0 1 us, 0x21 127 us, 0x60 1048 us), on a Skylake-SP platform file changed into
 * that CPU and firmware.
 */
static void intel_raptor_lake_from_cst(void **state)
{
	(void)state;
	dt_table("intel-skx", "auto", "cpuid.model=0xb7", "cpuid.cpuid5_edx=0x10002020",
		 "cst1.latency_us=1", "cst2.address=0x21", "cst2.latency_us=127", "cst3.type=C3",
		 "cst3.method=ffh", "cst3.address=0x60", "cst3.latency_us=1048", "state5.name=C6P",
		 "state5.latency_us=127", "state5.residency_us=381", "state5.method=mwait",
		 "state5.hint=0x21", "state5.in_table=no", "state6.name=C10",
		 "state6.latency_us=1048", "state6.residency_us=3144", "state6.method=mwait",
		 "state6.hint=0x60", "state6.in_table=no", NULL);
	matches("rpl0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(amd_rome_acpi_idle),
		cmocka_unit_test(amd_milan_acpi_idle),
		cmocka_unit_test(intel_skylake_sp),
		cmocka_unit_test(intel_cascade_lake_pc6_off),
		cmocka_unit_test(intel_ice_lake_sp),
		cmocka_unit_test(intel_sapphire_and_emerald_rapids),
		cmocka_unit_test(intel_granite_rapids),
		cmocka_unit_test(intel_sierra_forest),
		cmocka_unit_test(intel_haswell_ep),
		cmocka_unit_test(intel_raptor_lake_from_cst),
	};
	return cmocka_run_group_tests(tests, NULL, dt_teardown);
}
