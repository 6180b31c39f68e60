/* Loads the knowledge data files with jansson. Keys starting with '_' are
 * comments. */
#include "knowledge.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static json_t *load_json(const char *dir, const char *name)
{
	char *path = path_join(dir, name);
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);

	if (!j)
		fprintf(stderr, "ioctl-scan: %s:%d: %s\n", path, err.line, err.text);
	free(path);
	return j;
}

static const char *str_member(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void load_strings(strvec *out, json_t *arr)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v))
			strvec_push(out, json_string_value(v));
}

static int load_kinds(struct knowledge *kn, json_t *root)
{
	json_t *arr = json_object_get(root, "kinds"), *k;
	size_t i;

	if (!json_is_array(arr)) {
		fputs("ioctl-scan: handler_kinds.json: no \"kinds\" array\n", stderr);
		return -1;
	}
	json_array_foreach(arr, i, k) {
		struct handler_kind hk = {0};

		hk.kind = dup_or_null(str_member(k, "kind"));
		hk.struct_name = dup_or_null(str_member(k, "struct"));
		hk.field = dup_or_null(str_member(k, "field"));
		hk.function = dup_or_null(str_member(k, "function"));
		hk.file = dup_or_null(str_member(k, "file"));
		hk.cmd_param = (int)json_integer_value(json_object_get(k, "cmd_param"));
		if (!hk.kind || (!hk.function && (!hk.struct_name || !hk.field))) {
			fprintf(stderr, "ioctl-scan: handler_kinds.json: entry %zu is incomplete\n", i);
			return -1;
		}
		vec_push(&kn->kinds, hk);
	}
	arr = json_object_get(root, "forwarders");
	json_array_foreach(arr, i, k) {
		struct forwarder f = {
			.function = dup_or_null(str_member(k, "function")),
			.to_field = dup_or_null(str_member(k, "to_field")),
		};

		if (f.function && f.to_field)
			vec_push(&kn->forwarders, f);
	}
	return 0;
}

int knowledge_load(struct knowledge *kn, const char *dir)
{
	json_t *kinds, *api;
	int err;

	memset(kn, 0, sizeof(*kn));
	kinds = load_json(dir, "handler_kinds.json");
	if (!kinds)
		return -1;
	err = load_kinds(kn, kinds);
	json_decref(kinds);
	if (err)
		return -1;
	api = load_json(dir, "kernel_api.json");
	if (!api)
		return -1;
	load_strings(&kn->macro_calls, json_object_get(api, "macro_calls"));
	json_decref(api);
	return 0;
}

void knowledge_free(struct knowledge *kn)
{
	for (size_t i = 0; i < kn->kinds.len; i++) {
		struct handler_kind *k = &kn->kinds.items[i];

		free(k->kind);
		free(k->struct_name);
		free(k->field);
		free(k->function);
		free(k->file);
	}
	vec_free(&kn->kinds);
	for (size_t i = 0; i < kn->forwarders.len; i++) {
		free(kn->forwarders.items[i].function);
		free(kn->forwarders.items[i].to_field);
	}
	vec_free(&kn->forwarders);
	strvec_clear(&kn->macro_calls);
}

const struct handler_kind *knowledge_kind_for(const struct knowledge *kn,
					      const char *struct_name,
					      const char *field)
{
	for (size_t i = 0; i < kn->kinds.len; i++) {
		const struct handler_kind *k = &kn->kinds.items[i];

		if (k->struct_name && !strcmp(k->struct_name, struct_name) &&
		    !strcmp(k->field, field))
			return k;
	}
	return NULL;
}

const struct forwarder *knowledge_forwarder(const struct knowledge *kn,
					    const char *function)
{
	for (size_t i = 0; i < kn->forwarders.len; i++)
		if (!strcmp(kn->forwarders.items[i].function, function))
			return &kn->forwarders.items[i];
	return NULL;
}
