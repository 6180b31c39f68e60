#include "report_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands.h"

json_t *report_load(const char *path)
{
	json_error_t err;
	json_t *r = json_load_file(path, 0, &err);

	if (!r) {
		fprintf(stderr, "ioctl-scan: %s:%d: %s\n", path, err.line, err.text);
		return NULL;
	}
	if (!json_is_object(r) || !json_is_array(json_object_get(r, "handlers")) ||
	    strcmp(json_string_value(json_object_get(r, "tool")) ?: "", "ioctl-scan")) {
		fprintf(stderr, "ioctl-scan: %s: not an ioctl-scan report\n", path);
		json_decref(r);
		return NULL;
	}
	return r;
}

const char *report_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

const char *report_first_capability(json_t *command)
{
	const char *s = json_string_value(json_array_get(json_object_get(command, "capabilities"), 0));

	return s ? s : "";
}

uint32_t report_hex(json_t *o, const char *key)
{
	return (uint32_t)strtoul(report_str(o, key), NULL, 16);
}

int report_args(int argc, char **argv, const char *synopsis, const char **path,
		const char **out)
{
	*path = *out = NULL;
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-o") && a + 1 < argc)
			*out = argv[++a];
		else if (!*path && argv[a][0] != '-')
			*path = argv[a];
		else
			return subcommand_usage(synopsis);
	}
	return *path ? 0 : subcommand_usage(synopsis);
}
