/* The governors idlekit ships, in the kernel's registration order. */
#include <string.h>

#include "idlekit/governor.h"

static const struct ik_governor *const governors[] = {
	&ik_governor_ladder,
	&ik_governor_menu,
	&ik_governor_teo,
	&ik_governor_haltpoll,
};

const struct ik_governor *ik_governor_find(const char *name)
{
	for (size_t i = 0; i < sizeof(governors) / sizeof(governors[0]); i++)
		if (strcmp(governors[i]->name, name) == 0)
			return governors[i];
	return NULL;
}

const char *ik_governor_names(void)
{
	/* Keep in step with governors[] above (sysfs available_governors style). */
	return "ladder menu teo haltpoll ";
}
