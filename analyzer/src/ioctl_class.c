/* The classes' names: see ioctl_class.h. */
#include "ioctl_class.h"

#include <string.h>

static const char *const names[CLASS_COUNT] = {
	[CLASS_UNKNOWN] = "unknown",
	[CLASS_READ] = "read",
	[CLASS_MODIFY] = "modify",
	[CLASS_ADMIN] = "admin",
};

const char *ioctl_class_name(enum ioctl_class c)
{
	return c >= 0 && c < CLASS_COUNT ? names[c] : names[CLASS_UNKNOWN];
}

int ioctl_class_parse(const char *name)
{
	for (int c = 0; name && c < CLASS_COUNT; c++)
		if (!strcmp(name, names[c]))
			return c;
	return -1;
}
