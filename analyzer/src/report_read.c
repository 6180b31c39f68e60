#include "report_read.h"

#include <stdio.h>
#include <string.h>

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
