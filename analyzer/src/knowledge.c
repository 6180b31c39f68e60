/* Loads the knowledge data files with jansson, checking their shape: an
 * unknown key, a missing required one or one of the wrong type is an
 * error naming the file and the entry. Keys starting with '_' are
 * comments, except in the maps of names (kernel_api.json's "functions",
 * ops_contracts.json's "members"), where only "_comment..." keys are. */
#include "knowledge.h"

#include "digest.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Loads one data file; when d is not NULL, adds its name and bytes to
 * that digest. */
static json_t *load_json(const char *dir, const char *name)
{
	char *path = path_join(dir, name);
	json_error_t err;
	size_t len;
	char *text = read_file(path, &len);
	json_t *j = NULL;

	if (!text) {
		fprintf(stderr, "ioctl-scan: %s: %s\n", path, strerror(errno));
	} else {
		j = json_loadb(text, len, 0, &err);
		if (!j)
			fprintf(stderr, "ioctl-scan: %s:%d: %s\n", path, err.line, err.text);
	}
	free(text);
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

/* Every key of object o is one of allowed (NULL-terminated) or a comment
 * ('_'); otherwise a one-line error naming the file and the entry. */
static int known_keys(json_t *o, const char *file, const char *entry,
		      const char *const *allowed)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o)) {
		fprintf(stderr, "ioctl-scan: %s: %s is not an object\n", file, entry);
		return -1;
	}
	json_object_foreach(o, key, v) {
		size_t i;

		if (key[0] == '_')
			continue;
		for (i = 0; allowed[i] && strcmp(allowed[i], key); i++)
			;
		if (!allowed[i]) {
			fprintf(stderr, "ioctl-scan: %s: %s: unknown key \"%s\"\n", file, entry, key);
			return -1;
		}
	}
	return 0;
}

/* A required integer member, or an error naming the entry. */
static int int_member(json_t *o, const char *key, const char *file, const char *entry,
		      int *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_integer(v)) {
		fprintf(stderr, "ioctl-scan: %s: %s: \"%s\" must be an integer\n", file, entry, key);
		return -1;
	}
	*out = (int)json_integer_value(v);
	return 0;
}

static int load_strings(strvec *out, json_t *api, const char *key)
{
	json_t *arr = json_object_get(api, key), *v;
	size_t i;

	if (arr && !json_is_array(arr)) {
		fprintf(stderr, "ioctl-scan: kernel_api.json: \"%s\" must be an array of names\n", key);
		return -1;
	}
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v)) {
			fprintf(stderr, "ioctl-scan: kernel_api.json: %s[%zu] must be a name\n", key, i);
			return -1;
		}
		strvec_push(out, json_string_value(v));
	}
	return 0;
}

static const char *const kinds_file_keys[] = { "kinds", "tables", "forwarders", NULL };
static const char *const kind_keys[] = {
	"kind", "struct", "field", "function", "file", "cmd_param", "table", "arg_copy",
	"declined_to", NULL
};
static const char *const declined_keys[] = { "struct", "field", "cmd_param", "returning", NULL };
static const char *const forwarder_keys[] = { "function", "to_field", NULL };
static const char *const table_keys[] = { "struct", "command", "function", "flags", "select", NULL };

static void free_kind(struct handler_kind *k);

static int load_kind(struct handler_kind *hk, json_t *k, size_t i)
{
	const char *f = "handler_kinds.json";
	char entry[64];
	json_t *d = json_object_get(k, "declined_to");

	snprintf(entry, sizeof(entry), "kinds[%zu]", i);
	if (known_keys(k, f, entry, kind_keys))
		return -1;
	hk->kind = dup_or_null(str_member(k, "kind"));
	hk->struct_name = dup_or_null(str_member(k, "struct"));
	hk->field = dup_or_null(str_member(k, "field"));
	hk->function = dup_or_null(str_member(k, "function"));
	hk->file = dup_or_null(str_member(k, "file"));
	hk->table_struct = dup_or_null(str_member(k, "table"));
	hk->arg_copy = -1;
	if (!hk->kind || (hk->function ? !hk->file : !hk->struct_name || !hk->field)) {
		fprintf(stderr, "ioctl-scan: %s: %s: needs kind, and struct and field or "
			"function and file\n", f, entry);
		return -1;
	}
	if (int_member(k, "cmd_param", f, entry, &hk->cmd_param) ||
	    (json_object_get(k, "arg_copy") && int_member(k, "arg_copy", f, entry, &hk->arg_copy)))
		return -1;
	if (!d)
		return 0;
	snprintf(entry, sizeof(entry), "kinds[%zu].declined_to", i);
	if (known_keys(d, f, entry, declined_keys))
		return -1;
	hk->declined_struct = dup_or_null(str_member(d, "struct"));
	hk->declined_field = dup_or_null(str_member(d, "field"));
	if (!hk->declined_struct || !hk->declined_field ||
	    int_member(d, "cmd_param", f, entry, &hk->declined_cmd_param) ||
	    !json_is_integer(json_object_get(d, "returning"))) {
		fprintf(stderr, "ioctl-scan: %s: %s needs struct, field, cmd_param and "
			"returning\n", f, entry);
		return -1;
	}
	hk->declined_value = json_integer_value(json_object_get(d, "returning"));
	return 0;
}

static int load_kinds(struct knowledge *kn, json_t *root)
{
	const char *f = "handler_kinds.json";
	json_t *arr = json_object_get(root, "kinds"), *k;
	size_t i;
	char entry[64];

	if (known_keys(root, f, "the file", kinds_file_keys))
		return -1;
	if (!json_is_array(arr)) {
		fprintf(stderr, "ioctl-scan: %s: no \"kinds\" array\n", f);
		return -1;
	}
	json_array_foreach(arr, i, k) {
		struct handler_kind hk = {0};

		if (load_kind(&hk, k, i)) {
			free_kind(&hk);
			return -1;
		}
		vec_push(&kn->kinds, hk);
	}
	arr = json_object_get(root, "forwarders");
	json_array_foreach(arr, i, k) {
		struct forwarder fw;

		snprintf(entry, sizeof(entry), "forwarders[%zu]", i);
		if (known_keys(k, f, entry, forwarder_keys))
			return -1;
		if (!str_member(k, "function") || !str_member(k, "to_field")) {
			fprintf(stderr, "ioctl-scan: %s: %s needs function and to_field\n", f, entry);
			return -1;
		}
		fw.function = xstrdup(str_member(k, "function"));
		fw.to_field = xstrdup(str_member(k, "to_field"));
		vec_push(&kn->forwarders, fw);
	}
	arr = json_object_get(root, "tables");
	json_array_foreach(arr, i, k) {
		struct table_kind t = {0};
		const char *select = str_member(k, "select");

		snprintf(entry, sizeof(entry), "tables[%zu]", i);
		if (known_keys(k, f, entry, table_keys))
			return -1;
		t.struct_name = dup_or_null(str_member(k, "struct"));
		t.command = dup_or_null(str_member(k, "command"));
		t.function = dup_or_null(str_member(k, "function"));
		t.flags = dup_or_null(str_member(k, "flags"));
		if (!t.struct_name || !t.command || !t.function || !select ||
		    (strcmp(select, "nr") && strcmp(select, "value"))) {
			fprintf(stderr, "ioctl-scan: %s: %s needs struct, command, function and "
				"select (\"nr\" or \"value\")\n", f, entry);
			free(t.struct_name);
			free(t.command);
			free(t.function);
			free(t.flags);
			return -1;
		}
		t.select = !strcmp(select, "nr") ? 0xff : 0xffffffff;
		vec_push(&kn->tables, t);
	}
	return 0;
}

#define API_EFFECT_INFO(effect, name, kind, arg_kind, takes, contract) \
	[effect] = { name, kind, arg_kind, takes, contract },
const struct api_effect_info api_effect_info[API_EFFECT_COUNT] = {
	API_EFFECTS(API_EFFECT_INFO)
};
#undef API_EFFECT_INFO

/* " user_ns" or " user_ns:N" after a capability check's effect: the
 * namespace it is made in is one an object of its arguments names, or
 * argument N (kernel_api.json's "_comment_capability"). */
static int parse_user_ns(const char *file, const char *name, const char *spec,
			 struct api_entry *a)
{
	char *end;

	a->user_ns = API_NS_INITIAL;
	if (!spec)
		return 0;
	if (a->effect == API_CAPABILITY && !strcmp(spec, " user_ns")) {
		a->user_ns = API_NS_OBJECT;
		return 0;
	}
	if (a->effect == API_CAPABILITY && starts_with(spec, " user_ns:")) {
		a->user_ns = (int)strtol(spec + strlen(" user_ns:"), &end, 10);
		if (end != spec + strlen(" user_ns:") && !*end && a->user_ns >= 0)
			return 0;
	}
	fprintf(stderr, "ioctl-scan: %s: %s: cannot read '%s' (only a capability check "
		"takes \" user_ns\" or \" user_ns:N\")\n", file, name, spec + 1);
	return -1;
}

static int parse_effect(const char *file, const char *name, const char *spec,
			struct api_entry *a)
{
	const char *ns = strchr(spec, ' ');
	const char *arg = strpbrk(spec, ":=");
	size_t n;

	if (arg && ns && arg > ns)
		arg = NULL;
	n = arg ? (size_t)(arg - spec) : ns ? (size_t)(ns - spec) : strlen(spec);
	a->arg = -1;		/* no argument named */
	for (size_t i = 0; i < API_EFFECT_COUNT; i++) {
		const struct api_effect_info *e = &api_effect_info[i];

		if (strlen(e->name) != n || strncmp(e->name, spec, n))
			continue;
		a->effect = (enum api_effect)i;
		if ((arg && e->takes == API_TAKES_NOTHING) ||
		    (arg && *arg == '=' && e->takes != API_TAKES_CAPS) ||
		    (!arg && e->takes == API_NEEDS_ARG)) {
			fprintf(stderr, "ioctl-scan: %s: %s: '%s' %s\n", file, name, spec,
				e->takes == API_NEEDS_ARG ? "needs the argument it acts on (\":N\")" :
				e->takes == API_TAKES_NOTHING ? "takes no argument" :
				"takes an argument's index (\":N\"), not a list");
			return -1;
		}
		if (arg && *arg == ':')
			a->arg = atoi(arg + 1);
		if (arg && *arg == '=') {
			char *list = ns ? xstrndup(arg + 1, (size_t)(ns - arg - 1)) :
				xstrdup(arg + 1), *save;

			for (char *c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save))
				strvec_push(&a->caps, c);
			free(list);
		}
		return parse_user_ns(file, name, ns, a);
	}
	fprintf(stderr, "ioctl-scan: %s: %s: unknown effect '%s'\n", file, name, spec);
	return -1;
}

static int cmp_api(const void *a, const void *b)
{
	return strcmp(((const struct api_entry *)a)->name, ((const struct api_entry *)b)->name);
}

static int load_apis(api_table *t, json_t *map, const char *file)
{
	const char *name;
	json_t *v;

	json_object_foreach(map, name, v) {
		struct api_entry a = {0};

		if (starts_with(name, "_comment"))
			continue;	/* "_comment", "_comment_lockdep": notes on a group */
		if (!json_is_string(v)) {
			fprintf(stderr, "ioctl-scan: %s: %s: the effect must be a string\n", file, name);
			return -1;
		}
		if (parse_effect(file, name, json_string_value(v), &a))
			return -1;
		a.name = xstrdup(name);
		vec_push(t, a);
	}
	vec_sort(t, cmp_api);
	for (size_t i = 0; i < t->len; i++)
		if (ends_with(t->items[i].name, "*"))
			vec_push(&t->prefixes, i);
	return 0;
}

static const struct api_entry *api_lookup(const api_table *t, const char *name)
{
	struct api_entry key = { .name = (char *)name };
	const struct api_entry *hit = NULL;

	if (t->len)
		hit = bsearch(&key, t->items, t->len, sizeof(key), cmp_api);
	if (hit)
		return hit;
	for (size_t i = 0; i < t->prefixes.len; i++) {
		const struct api_entry *e = &t->items[t->prefixes.items[i]];

		if (!strncmp(e->name, name, strlen(e->name) - 1))
			return e;
	}
	return NULL;
}

const struct api_entry *knowledge_api(const struct knowledge *kn, const char *name)
{
	return api_lookup(&kn->apis, name);
}

const struct api_entry *knowledge_contract(const struct knowledge *kn, const char *struct_name,
					   const char *field)
{
	char *key = xasprintf("%s.%s", struct_name, field);
	const struct api_entry *hit = api_lookup(&kn->contracts, key);

	free(key);
	return hit;
}

static int load_returns_argument(struct knowledge *kn, json_t *map)
{
	const char *name;
	json_t *v;

	json_object_foreach(map, name, v) {
		struct returns_argument r;

		if (starts_with(name, "_comment"))
			continue;
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			fprintf(stderr, "ioctl-scan: kernel_api.json: returns_argument: %s: "
				"want an argument index\n", name);
			return -1;
		}
		r.name = xstrdup(name);
		r.arg = (int)json_integer_value(v);
		vec_push(&kn->returns_argument, r);
	}
	return 0;
}

/* "put_user": [0, -14] or "copy_to_user": "nonnegative" */
static int load_return_values(struct knowledge *kn, json_t *map)
{
	const char *name;
	json_t *v, *x;
	size_t i;

	json_object_foreach(map, name, v) {
		struct api_returns r = {0};

		if (starts_with(name, "_comment"))
			continue;
		if (json_is_string(v) && !strcmp(json_string_value(v), "nonnegative")) {
			r.nonnegative = 1;
		} else if (json_is_array(v)) {
			json_array_foreach(v, i, x) {
				if (!json_is_integer(x))
					break;
				vec_push(&r.values, (int64_t)json_integer_value(x));
			}
		}
		if (!r.nonnegative && (!json_is_array(v) || r.values.len != json_array_size(v) ||
				       !r.values.len)) {
			fprintf(stderr, "ioctl-scan: kernel_api.json: return_values: %s: want "
				"\"nonnegative\" or a list of integers\n", name);
			vec_free(&r.values);
			return -1;
		}
		r.name = xstrdup(name);
		vec_push(&kn->return_values, r);
	}
	return 0;
}

const struct api_returns *knowledge_return_values(const struct knowledge *kn, const char *name)
{
	for (size_t i = 0; i < kn->return_values.len; i++)
		if (!strcmp(kn->return_values.items[i].name, name))
			return &kn->return_values.items[i];
	return NULL;
}

int knowledge_returns_argument(const struct knowledge *kn, const char *name)
{
	for (size_t i = 0; i < kn->returns_argument.len; i++)
		if (!strcmp(kn->returns_argument.items[i].name, name))
			return kn->returns_argument.items[i].arg;
	return -1;
}

int knowledge_neutral_file(const struct knowledge *kn, const char *file)
{
	for (size_t i = 0; i < kn->neutral_paths.len; i++)
		if (starts_with(file, kn->neutral_paths.items[i]))
			return 1;
	return 0;
}

static const char *const api_file_keys[] = {
	"macro_calls", "macro_assigns", "mode_flags", "allocators", "value_preserving",
	"neutral_paths", "release_tests", "functions", "returns_argument", "return_values", NULL
};
static const char *const contracts_file_keys[] = { "members", NULL };

/* The data files in the order they are read. */
static int load_files(struct knowledge *kn, const char *dir)
{
	json_t *kinds, *api;
	int err;

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
	err = known_keys(api, "kernel_api.json", "the file", api_file_keys) ||
	      load_strings(&kn->macro_calls, api, "macro_calls") ||
	      load_strings(&kn->macro_assigns, api, "macro_assigns") ||
	      load_strings(&kn->mode_flags, api, "mode_flags") ||
	      load_strings(&kn->allocators, api, "allocators") ||
	      load_strings(&kn->value_preserving, api, "value_preserving") ||
	      load_strings(&kn->neutral_paths, api, "neutral_paths") ||
	      load_strings(&kn->release_tests, api, "release_tests") ||
	      load_apis(&kn->apis, json_object_get(api, "functions"), "kernel_api.json") ||
	      load_returns_argument(kn, json_object_get(api, "returns_argument")) ||
	      load_return_values(kn, json_object_get(api, "return_values"));
	json_decref(api);
	if (err)
		return -1;
	api = load_json(dir, "ops_contracts.json");
	if (!api)
		return -1;
	err = known_keys(api, "ops_contracts.json", "the file", contracts_file_keys) ||
	      load_apis(&kn->contracts, json_object_get(api, "members"), "ops_contracts.json");
	json_decref(api);
	for (size_t i = 0; !err && i < kn->contracts.len; i++)
		if (!api_effect_info[kn->contracts.items[i].effect].contract) {
			fprintf(stderr, "ioctl-scan: ops_contracts.json: %s: '%s' is not an "
				"effect a member's contract can state\n", kn->contracts.items[i].name,
				api_effect_info[kn->contracts.items[i].effect].name);
			err = -1;
		}
	if (err)
		return -1;
	api = load_json(dir, "request_codes.json");
	if (!api)
		return -1;
	err = request_codes_load(&kn->requests, api);
	json_decref(api);
	return err ? -1 : 0;
}

static void digest_strings(struct digest *d, const char *what, const strvec *v)
{
	digest_add_str(d, what);
	digest_add(d, &v->len, sizeof(v->len));
	for (size_t i = 0; i < v->len; i++)
		digest_add_str(d, v->items[i]);
}

/*
 * The knowledge per-file facts depend on, and nothing else: extract_facts.c
 * records the initialisers of the ops members handler_kinds.json names
 * (struct, member, and whether the member holds a table) and the entries
 * of its tables (every field of a table kind); it reads the macro lists,
 * the value preserving macros, the open-mode flags and what the entries of
 * kernel_api.json say of the macros it records as calls (wrapped_api_macro);
 * pointer_origin.c reads the allocators and returns_argument. A kind's
 * command parameter, its argument copy, what a declined command goes on
 * to, the forwarders, what a function does, an ops contract or a request
 * code are read when classifying, so a change there leaves every cached
 * file's facts valid and costs no parse.
 */
static void digest_facts_knowledge(const struct knowledge *kn, struct digest *d)
{
	digest_add_str(d, "kinds");
	digest_add(d, &kn->kinds.len, sizeof(kn->kinds.len));
	for (size_t i = 0; i < kn->kinds.len; i++) {
		const struct handler_kind *k = &kn->kinds.items[i];

		digest_add_str(d, k->struct_name ? k->struct_name : "-");
		digest_add_str(d, k->field ? k->field : "-");
		digest_add_str(d, k->table_struct ? k->table_struct : "-");
	}
	digest_add_str(d, "tables");
	digest_add(d, &kn->tables.len, sizeof(kn->tables.len));
	for (size_t i = 0; i < kn->tables.len; i++) {
		const struct table_kind *t = &kn->tables.items[i];

		digest_add_str(d, t->struct_name);
		digest_add_str(d, t->command);
		digest_add_str(d, t->function);
		digest_add_str(d, t->flags ? t->flags : "-");
		digest_add(d, &t->select, sizeof(t->select));
	}
	digest_strings(d, "macro_calls", &kn->macro_calls);
	digest_strings(d, "macro_assigns", &kn->macro_assigns);
	digest_strings(d, "mode_flags", &kn->mode_flags);
	digest_strings(d, "allocators", &kn->allocators);
	digest_strings(d, "value_preserving", &kn->value_preserving);
	for (size_t i = 0; i < kn->returns_argument.len; i++) {
		digest_add_str(d, kn->returns_argument.items[i].name);
		digest_add(d, &kn->returns_argument.items[i].arg, sizeof(int));
	}
	for (size_t i = 0; i < kn->macro_calls.len; i++) {
		const struct api_entry *a = knowledge_api(kn, kn->macro_calls.items[i]);

		digest_add_str(d, a ? a->name : "-");
		if (a) {
			digest_add(d, &a->effect, sizeof(a->effect));
			digest_add(d, &a->arg, sizeof(a->arg));
		}
	}
}

int knowledge_load(struct knowledge *kn, const char *dir)
{
	struct digest d;
	unsigned char raw[DIGEST_BYTES];
	int err;

	memset(kn, 0, sizeof(*kn));
	digest_init(&d);
	err = load_files(kn, dir);
	if (!err)
		digest_facts_knowledge(kn, &d);
	digest_final(&d, raw);
	digest_hex(raw, kn->digest);
	return err;
}

static void free_apis(api_table *t)
{
	for (size_t i = 0; i < t->len; i++) {
		free(t->items[i].name);
		strvec_clear(&t->items[i].caps);
	}
	vec_free(t);
	vec_free(&t->prefixes);
}

static void free_kind(struct handler_kind *k)
{
	free(k->kind);
	free(k->struct_name);
	free(k->field);
	free(k->function);
	free(k->file);
	free(k->declined_struct);
	free(k->declined_field);
	free(k->table_struct);
}

void knowledge_free(struct knowledge *kn)
{
	for (size_t i = 0; i < kn->kinds.len; i++)
		free_kind(&kn->kinds.items[i]);
	vec_free(&kn->kinds);
	for (size_t i = 0; i < kn->tables.len; i++) {
		free(kn->tables.items[i].struct_name);
		free(kn->tables.items[i].command);
		free(kn->tables.items[i].function);
		free(kn->tables.items[i].flags);
	}
	vec_free(&kn->tables);
	for (size_t i = 0; i < kn->forwarders.len; i++) {
		free(kn->forwarders.items[i].function);
		free(kn->forwarders.items[i].to_field);
	}
	vec_free(&kn->forwarders);
	strvec_clear(&kn->macro_calls);
	strvec_clear(&kn->macro_assigns);
	strvec_clear(&kn->mode_flags);
	strvec_clear(&kn->allocators);
	strvec_clear(&kn->value_preserving);
	for (size_t i = 0; i < kn->returns_argument.len; i++)
		free(kn->returns_argument.items[i].name);
	vec_free(&kn->returns_argument);
	for (size_t i = 0; i < kn->return_values.len; i++) {
		free(kn->return_values.items[i].name);
		vec_free(&kn->return_values.items[i].values);
	}
	vec_free(&kn->return_values);
	strvec_clear(&kn->neutral_paths);
	strvec_clear(&kn->release_tests);
	free_apis(&kn->apis);
	free_apis(&kn->contracts);
	request_codes_free(&kn->requests);
}

const struct table_kind *knowledge_table(const struct knowledge *kn, const char *struct_name)
{
	for (size_t i = 0; struct_name && i < kn->tables.len; i++)
		if (!strcmp(kn->tables.items[i].struct_name, struct_name))
			return &kn->tables.items[i];
	return NULL;
}

const struct handler_kind *knowledge_kind_named(const struct knowledge *kn, const char *kind)
{
	for (size_t i = 0; kind && i < kn->kinds.len; i++)
		if (!strcmp(kn->kinds.items[i].kind, kind))
			return &kn->kinds.items[i];
	return NULL;
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
