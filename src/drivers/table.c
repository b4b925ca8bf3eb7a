/*
 * The "table" driver: registers the states a platform file lists, one to one.  It stands
 * for any driver whose table is given (a device-tree driver, or a captured sysfs table):
 * the advertised latency and residency are the file's, and a POLL state 0 becomes the
 * core's polling state, as x86 drivers register it.  States the file marks in_table = no
 * exist in the hardware but are not registered.  As in v6.19, a state whose exit latency
 * exceeds its target residency makes registration fail.
 */
#include <stdio.h>
#include <string.h>

#include "drivers/drivers_internal.h"
#include "util/errmsg.h"

static int table_probe(const struct ik_scenario *sc, struct ik_driver_binding *out, char *err,
		       size_t errlen)
{
	const struct ik_platform *p = &sc->platform;
	struct ik_driver *drv = &out->table;

	drv_probe_begin(out, &ik__driver_table);
	int n = 0;
	for (int i = 0; i < p->state_count; i++) {
		const struct ik_hw_state *hw = &p->states[i];
		struct ik_state *s = &drv->states[n];

		if (hw->unlisted)
			continue;
		out->hw_state[n++] = i;
		drv->state_count = n;
		if (hw->method == IK_METHOD_POLL && i == 0) {
			ik_poll_state_init(drv);
			continue;
		}
		snprintf(s->name, sizeof(s->name), "%s", hw->name);
		snprintf(s->desc, sizeof(s->desc), "%s", hw->desc);
		s->exit_latency = hw->latency_us;
		s->target_residency = hw->residency_us;
		s->exit_latency_ns = (int64_t)hw->latency_us * IK_NSEC_PER_USEC;
		s->target_residency_ns = (int64_t)hw->residency_us * IK_NSEC_PER_USEC;
		s->power_usage = 0;
		s->flags = hw->flags & ~IK_FLAG_POLLING;
	}
	return drv_register(out, err, errlen);
}

const struct ik_idle_driver ik__driver_table = {
	.name = "table",
	.probe = table_probe,
};

void ik__driver_table_scenario(struct ik_scenario *sc, const char *ref, const char *governor,
			      int hz)
{
	snprintf(sc->platform_ref, sizeof(sc->platform_ref), "%s", ref);
	snprintf(sc->driver, sizeof(sc->driver), "table");
	snprintf(sc->governor, sizeof(sc->governor), "%s", governor);
	sc->hz = hz;
	sc->latency_limit_us = -1;
}

int ik__driver_table_bind(struct ik_scenario *sc, const char *ref, const char *governor, int hz,
			 struct ik_driver_binding *b, char *err, size_t errlen)
{
	char why[IK_ERR_LEN];
	ik__driver_table_scenario(sc, ref, governor, hz);
	if (ik__driver_table.probe(sc, b, why, sizeof(why)) == 0)
		return 0;
	return ik__errmsg(err, errlen, "platform %s: %s", ref, why);
}
