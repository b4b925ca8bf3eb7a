/* The idle drivers idlekit ships, by name, and the choice the kernel makes among them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/registry.h"
#include "util/errmsg.h"

static const struct ik_idle_driver *const drivers[] = {
	&ik__driver_table,   &ik__driver_acpi_idle, &ik__driver_intel_idle,
	&ik__driver_powernv, &ik__driver_haltpoll,  &ik__driver_default_idle,
};

const struct ik_idle_driver *ik__idle_driver_find(const char *name)
{
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (strcmp(drivers[i]->name, name) == 0)
			return drivers[i];
	return NULL;
}

const char *ik__idle_driver_names(void)
{
	/* Keep in step with drivers[] above. */
	return "table acpi_idle intel_idle powernv_idle haltpoll none";
}

int ik__idle_driver_probe(const struct ik_scenario *sc, struct ik_driver_binding *b, char *err,
			 size_t errlen)
{
	const struct ik_idle_driver *d = ik__idle_driver_find(sc->driver);

	memset(b, 0, sizeof(*b));
	if (!d)
		return ik__errmsg(err, errlen, "unknown cpuidle driver '%s'; available: %s auto",
				  sc->driver, ik__idle_driver_names());
	if (d->probe(sc, b, err, errlen) != 0) {
		memset(b, 0, sizeof(*b));
		return -1;
	}
	return 0;
}

/* Whether driver `name` loads on this scenario. */
static bool loads(struct ik_scenario *sc, const char *name)
{
	struct ik_driver_binding b;
	char err[512], saved[sizeof(sc->driver)];

	memcpy(saved, sc->driver, sizeof(saved));
	snprintf(sc->driver, sizeof(sc->driver), "%s", name);
	int rc = ik__idle_driver_probe(sc, &b, err, sizeof(err));
	memcpy(sc->driver, saved, sizeof(saved));
	return rc == 0;
}

void ik__idle_driver_resolve(struct ik_scenario *sc)
{
	static const char *const order[] = { "powernv_idle", "haltpoll", "intel_idle", "acpi_idle" };
	const char *chosen = "none";

	if (strcmp(sc->driver, "auto") != 0)
		return;
	if (!sc->platform.has_cpuid) {
		chosen = "table"; /* a platform described only by its table */
	} else if (sc->opt.idle != IK_IDLE_POLL) {
		for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
			if (loads(sc, order[i])) {
				chosen = order[i];
				break;
			}
		}
		if (strcmp(chosen, "none") == 0 && sc->platform.cpuid.vendor == IK_VENDOR_ARM)
			chosen = "table"; /* a device-tree driver: the table as given */
	}
	snprintf(sc->driver, sizeof(sc->driver), "%s", chosen);
}
