/* Loads data/request_codes.json (request_codes.h). */
#include "request_codes.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FILE_NAME "request_codes.json"

static int load_transports(struct request_codes *rc, json_t *arr)
{
	size_t i;
	json_t *t;

	if (!json_is_array(arr)) {
		fputs("ioctl-scan: " FILE_NAME ": no \"transports\" array\n", stderr);
		return -1;
	}
	json_array_foreach(arr, i, t) {
		json_t *callee = json_object_get(t, "callee"), *arg = json_object_get(t, "arg");
		json_t *field = json_object_get(t, "field"), *codes = json_object_get(t, "codes");
		struct request_transport rt;

		if (!json_is_string(callee) || !json_is_integer(arg) || json_integer_value(arg) < 0 ||
		    (field && !json_is_string(field)) || !json_is_string(codes)) {
			fprintf(stderr, "ioctl-scan: " FILE_NAME ": transport %zu needs callee, "
				"arg (an argument index) and codes, and field a string if "
				"given\n", i);
			return -1;
		}
		rt.callee = xstrdup(json_string_value(callee));
		rt.arg = (int)json_integer_value(arg);
		rt.field = field ? xstrdup(json_string_value(field)) : NULL;
		rt.codes = xstrdup(json_string_value(codes));
		vec_push(&rc->transports, rt);
	}
	return 0;
}

static int load_set(struct request_code_set *set, const char *name, json_t *map)
{
	const char *key;
	json_t *v;

	set->name = xstrdup(name);
	json_object_foreach(map, key, v) {
		struct request_code code = {0};
		char *end;

		if (key[0] == '_')
			continue;
		if (!json_is_string(v)) {
			fprintf(stderr, "ioctl-scan: " FILE_NAME ": code set %s: \"%s\": want the "
				"query's name\n", name, key);
			return -1;
		}
		/* a number, or the macro that names the code */
		code.value = strtoll(key, &end, 0);
		if (*end || end == key)
			code.macro = xstrdup(key);
		code.name = xstrdup(json_string_value(v));
		vec_push(&set->queries, code);
	}
	return 0;
}

int request_codes_load(struct request_codes *rc, json_t *root)
{
	json_t *sets, *v;
	const char *key;

	memset(rc, 0, sizeof(*rc));
	sets = json_object_get(root, "code_sets");
	if (load_transports(rc, json_object_get(root, "transports")))
		return -1;
	json_object_foreach(sets, key, v) {
		struct request_code_set set = {0};

		if (key[0] == '_')
			continue;
		vec_push(&rc->sets, set);
		if (load_set(&rc->sets.items[rc->sets.len - 1], key, v))
			return -1;
	}
	for (size_t i = 0; i < rc->transports.len; i++) {
		size_t j = 0;

		while (j < rc->sets.len && strcmp(rc->sets.items[j].name, rc->transports.items[i].codes))
			j++;
		if (j == rc->sets.len) {
			fprintf(stderr, "ioctl-scan: " FILE_NAME ": transport %s: no code set %s\n",
				rc->transports.items[i].callee, rc->transports.items[i].codes);
			return -1;
		}
	}
	return 0;
}

void request_codes_free(struct request_codes *rc)
{
	for (size_t i = 0; i < rc->transports.len; i++) {
		free(rc->transports.items[i].callee);
		free(rc->transports.items[i].field);
		free(rc->transports.items[i].codes);
	}
	vec_free(&rc->transports);
	for (size_t i = 0; i < rc->sets.len; i++) {
		for (size_t j = 0; j < rc->sets.items[i].queries.len; j++) {
			free(rc->sets.items[i].queries.items[j].macro);
			free(rc->sets.items[i].queries.items[j].name);
		}
		vec_free(&rc->sets.items[i].queries);
		free(rc->sets.items[i].name);
	}
	vec_free(&rc->sets);
}

const struct request_transport *request_transport_for(const struct request_codes *rc,
						      const char *name, const char *field)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < rc->transports.len; i++) {
		const char *c = rc->transports.items[i].callee;

		if (strncmp(c, name, n))
			continue;
		if (field ? c[n] == '.' && !strcmp(c + n + 1, field) : !c[n])
			return &rc->transports.items[i];
	}
	return NULL;
}

const char *request_query_name(const struct request_codes *rc,
			       const struct request_transport *t, int64_t value,
			       const char *macro)
{
	for (size_t i = 0; i < rc->sets.len; i++) {
		const struct request_code_set *set = &rc->sets.items[i];

		if (strcmp(set->name, t->codes))
			continue;
		for (size_t j = 0; j < set->queries.len; j++) {
			const struct request_code *q = &set->queries.items[j];

			if (q->macro ? macro && !strcmp(q->macro, macro) : q->value == value)
				return q->name;
		}
	}
	return NULL;
}
