/* The words of an enumeration's values (util/names.h). */
#include <string.h>

#include "util/names.h"

const char *ik__name_of(const char *const *names, int n, int value, const char *unknown)
{
	return value >= 0 && value < n ? names[value] : unknown;
}

int ik__name_find(const char *const *names, int n, const char *text)
{
	for (int i = 0; i < n; i++)
		if (strcmp(text, names[i]) == 0)
			return i;
	return -1;
}
