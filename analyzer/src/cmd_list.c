/* ioctl-scan list REPORT [--handler NAME]: one line per command,
 * tab-separated: handler, kind, command, value, mask, class, file:line. */
#include "subcommands.h"

#include <stdio.h>
#include <string.h>

#include "report_read.h"

int cmd_list(int argc, char **argv)
{
	const char *only = NULL, *path = NULL;
	json_t *r, *h;
	size_t i;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--handler") && a + 1 < argc)
			only = argv[++a];
		else if (!path)
			path = argv[a];
		else
			return subcommand_usage("list REPORT [--handler NAME]");
	}
	if (!path)
		return subcommand_usage("list REPORT [--handler NAME]");
	r = report_load(path);
	if (!r)
		return 2;
	json_array_foreach(json_object_get(r, "handlers"), i, h) {
		const char *name = json_string_value(json_object_get(h, "name"));
		json_t *c;
		size_t j;

		if (only && strcmp(only, name))
			continue;
		json_array_foreach(json_object_get(h, "commands"), j, c)
			printf("%s\t%s\t%s\t%s\t%s\t%s\t%s:%lld\n", name,
			       json_string_value(json_object_get(h, "kind")),
			       json_string_value(json_object_get(c, "name")),
			       json_string_value(json_object_get(c, "value")),
			       json_string_value(json_object_get(c, "mask")),
			       json_string_value(json_object_get(c, "class")),
			       json_string_value(json_object_get(c, "file")),
			       (long long)json_integer_value(json_object_get(c, "line")));
	}
	json_decref(r);
	return 0;
}
