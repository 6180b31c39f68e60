#include "report_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "subcommands.h"

json_t *load_json_file(const char *path)
{
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);

	if (!j)
		fprintf(stderr, "ioctl-scan: %s:%d: %s\n", path, err.line, err.text);
	return j;
}

json_t *report_load(const char *path)
{
	json_t *r = load_json_file(path);

	if (!r)
		return NULL;
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

enum ioctl_class report_class(json_t *cmd)
{
	int c = ioctl_class_parse(json_string_value(json_object_get(cmd, "class")));

	return c < 0 ? CLASS_UNKNOWN : (enum ioctl_class)c;
}

int report_list_contains(json_t *list, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), s))
			return 1;
	return 0;
}

const char *report_first_capability(json_t *command)
{
	const char *s = json_string_value(json_array_get(json_object_get(command, "capabilities"), 0));

	return s ? s : "";
}

int report_capability_in_user_ns(json_t *command)
{
	const char *cap = report_first_capability(command);

	return *cap && report_list_contains(json_object_get(command, "capabilities_in_user_ns"), cap);
}

uint32_t report_hex(json_t *o, const char *key)
{
	return (uint32_t)strtoul(report_str(o, key), NULL, 16);
}

void report_low16(json_t *c, uint16_t *value, uint16_t *mask)
{
	uint32_t m = json_object_get(c, "mask") ? report_hex(c, "mask") : 0xffffffff;

	*mask = m & 0xffff;
	*value = report_hex(c, "value") & m & 0xffff;
}

int report_compat_handler(json_t *h)
{
	return strstr(report_str(h, "kind"), "compat") != NULL;
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
