/*
 * Helpers the idle-driver tests share: a scenario on a built-in platform (or platform text)
 * with overrides, and the driver's table built from it.
 */
#ifndef IDLEKIT_TEST_DRIVER_TEST_H
#define IDLEKIT_TEST_DRIVER_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/registry.h"
#include "config/scenario.h"
#include "config/result.h"
#include "sim/sim.h"

static struct ik_scenario dt_sc;      /* large: off the stack */
static struct ik_driver_binding dt_b; /* the last probe */

/* Up to 30 overrides, NULL-terminated. */
__attribute__((unused)) static int dt_load_v(const char *platform, const char *driver, char *err, size_t errlen,
		     va_list ap)
{
	const char *ov[32];
	int n = 0;
	char drv[64];

	snprintf(drv, sizeof(drv), "cpuidle.driver=%s", driver);
	ov[n++] = drv;
	for (const char *o = va_arg(ap, const char *); o && n < 31; o = va_arg(ap, const char *))
		ov[n++] = o;
	char text[512];
	snprintf(text, sizeof(text), "[scenario]\nname = t\nplatform = %s\n", platform);
	return ik__scenario_parse_string("t.ini", text, ov, n, &dt_sc, err, errlen);
}

/* Load and probe; fails the test on any error.  Overrides end with NULL. */
__attribute__((unused)) static const struct ik_driver *dt_table(const char *platform, const char *driver, ...)
{
	char err[IK_ERR_LEN] = "";
	va_list ap;

	va_start(ap, driver);
	int rc = dt_load_v(platform, driver, err, sizeof(err), ap);
	va_end(ap);
	if (rc != 0)
		fail_msg("loading %s with %s: %s", platform, driver, err);
	if (ik__idle_driver_probe(&dt_sc, &dt_b, err, sizeof(err)) != 0)
		fail_msg("probing %s on %s: %s", driver, platform, err);
	return &dt_b.table;
}

/* The scenario must fail to load; its message must contain `needle`. */
__attribute__((unused)) static void dt_load_fails(const char *platform, const char *driver, const char *needle, ...)
{
	char err[IK_ERR_LEN] = "";
	va_list ap;

	va_start(ap, needle);
	int rc = dt_load_v(platform, driver, err, sizeof(err), ap);
	va_end(ap);
	if (rc == 0)
		fail_msg("expected %s on %s to fail", driver, platform);
	if (!strstr(err, needle))
		fail_msg("error '%s' lacks '%s'", err, needle);
	assert_null(strchr(err, '\n'));
}

/* The scenario loaded by the last dt_table()/dt_load: resolve its driver's name. */
__attribute__((unused)) static const char *dt_resolved(const char *platform, ...)
{
	char err[IK_ERR_LEN] = "";
	va_list ap;

	va_start(ap, platform);
	int rc = dt_load_v(platform, "auto", err, sizeof(err), ap);
	va_end(ap);
	if (rc != 0)
		fail_msg("loading %s: %s", platform, err);
	return dt_sc.driver;
}

__attribute__((unused)) static void dt_state_is(const struct ik_driver *drv, int i, const char *name, const char *desc,
			uint32_t latency, uint32_t residency)
{
	assert_true(i < drv->state_count);
	assert_string_equal(drv->states[i].name, name);
	assert_string_equal(drv->states[i].desc, desc);
	assert_int_equal(drv->states[i].exit_latency, latency);
	assert_int_equal(drv->states[i].target_residency, residency);
	assert_int_equal(drv->states[i].exit_latency_ns, (int64_t)latency * 1000);
	assert_int_equal(drv->states[i].target_residency_ns, (int64_t)residency * 1000);
}

/* The platform state table entry i runs in. */
__attribute__((unused)) static const struct ik_hw_state *dt_hw(int i)
{
	return &dt_sc.platform.states[dt_b.hw_state[i]];
}

__attribute__((unused)) static int dt_teardown(void **state)
{
	(void)state;
	return 0;
}

#endif
