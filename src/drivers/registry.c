/* The idle drivers idlekit ships, by name. */
#include <string.h>

#include "idlekit/driver.h"

static const struct ik_idle_driver *const drivers[] = {
	&ik_driver_table,
};

const struct ik_idle_driver *ik_idle_driver_find(const char *name)
{
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (strcmp(drivers[i]->name, name) == 0)
			return drivers[i];
	return NULL;
}

const char *ik_idle_driver_names(void)
{
	/* Keep in step with drivers[] above. */
	return "table";
}
