/* Loads data/avc_narrowing.json (avc_narrowing.h); the file's comment says
 * what its parts mean. The JSON is kept as loaded and queried as it is:
 * explain asks a few questions per record. Not part of the knowledge
 * (knowledge.c): a scan never reads it, so it is no part of the facts
 * cache's key either. */
#include "avc_narrowing.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_read.h"
#include "util.h"

#define FILE_NAME "avc_narrowing.json"

static int is_string_array(json_t *a)
{
	json_t *v;
	size_t i;

	if (!json_is_array(a))
		return 0;
	json_array_foreach(a, i, v)
		if (!json_is_string(v))
			return 0;
	return 1;
}

/* Whether every name in the array is a set the file defines. */
static int names_sets(json_t *sets, json_t *names)
{
	json_t *v;
	size_t i;

	if (!is_string_array(names))
		return 0;
	json_array_foreach(names, i, v)
		if (!json_object_get(sets, json_string_value(v)))
			return 0;
	return 1;
}

static int check_sets(json_t *sets)
{
	const char *name;
	json_t *s;

	if (!json_is_object(sets))
		return -1;
	json_object_foreach(sets, name, s) {
		static const char *const keys[] = { "kinds", "handlers", "files" };

		for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
			json_t *a = json_object_get(s, keys[k]);

			if (a && !is_string_array(a)) {
				fprintf(stderr, "ioctl-scan: " FILE_NAME ": set %s: %s is not "
					"an array of patterns\n", name, keys[k]);
				return -1;
			}
		}
	}
	return 0;
}

static int check_targets(json_t *sets, json_t *targets)
{
	json_t *t;
	size_t i;

	json_array_foreach(targets, i, t) {
		json_t *paths = json_object_get(t, "paths");

		if (!is_string_array(json_object_get(t, "tclasses")) ||
		    (paths && !is_string_array(paths)) ||
		    !names_sets(sets, json_object_get(t, "sets")) ||
		    !json_is_string(json_object_get(t, "what"))) {
			fprintf(stderr, "ioctl-scan: " FILE_NAME ": target %zu needs tclasses, "
				"sets the file defines and what, and paths an array if given\n", i);
			return -1;
		}
	}
	return 0;
}

static int check_audit_names(json_t *names)
{
	const char *name;
	json_t *v;

	json_object_foreach(names, name, v) {
		char *end;
		unsigned long n = strtoul(json_string_value(v) ?: "", &end, 16);

		if (name[0] == '_')
			continue;
		if (!json_is_string(v) || *end || end == json_string_value(v) || n > 0xffff) {
			fprintf(stderr, "ioctl-scan: " FILE_NAME ": audit name %s: want a "
				"16-bit number in hex\n", name);
			return -1;
		}
	}
	return 0;
}

static int check(json_t *root)
{
	json_t *sets = json_object_get(root, "sets");

	if (check_sets(sets) || !json_is_array(json_object_get(root, "targets")) ||
	    !names_sets(sets, json_object_get(root, "every_file"))) {
		fputs("ioctl-scan: " FILE_NAME ": needs sets (an object), targets (an "
		      "array) and every_file (names of sets)\n", stderr);
		return -1;
	}
	return check_targets(sets, json_object_get(root, "targets")) ||
		check_audit_names(json_object_get(root, "audit_names")) ? -1 : 0;
}

int avc_narrowing_load(struct avc_narrowing *n, const char *dir)
{
	char *path = path_join(dir, FILE_NAME);

	n->root = load_json_file(path);
	free(path);
	if (n->root && check(n->root)) {
		json_decref(n->root);
		n->root = NULL;
	}
	return n->root ? 0 : -1;
}

void avc_narrowing_free(struct avc_narrowing *n)
{
	json_decref(n->root);
	n->root = NULL;
}

/* Whether s matches one of the patterns; never when s is NULL. */
static int matches_any(json_t *patterns, const char *s)
{
	json_t *p;
	size_t i;

	json_array_foreach(patterns, i, p)
		if (s && !fnmatch(json_string_value(p), s, 0))
			return 1;
	return 0;
}

json_t *avc_target(const struct avc_narrowing *n, const char *tclass, const char *path)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(n->root, "targets"), i, t) {
		json_t *paths = json_object_get(t, "paths");

		if (matches_any(json_object_get(t, "tclasses"), tclass) &&
		    (!paths || matches_any(paths, path)))
			return t;
	}
	return NULL;
}

const char *avc_target_what(json_t *target)
{
	return json_string_value(json_object_get(target, "what"));
}

static int in_set(json_t *set, json_t *h)
{
	return matches_any(json_object_get(set, "kinds"),
			   json_string_value(json_object_get(h, "kind"))) ||
		matches_any(json_object_get(set, "handlers"),
			    json_string_value(json_object_get(h, "name"))) ||
		matches_any(json_object_get(set, "files"),
			    json_string_value(json_object_get(h, "file")));
}

static int in_any_set(const struct avc_narrowing *n, json_t *names, json_t *h)
{
	json_t *sets = json_object_get(n->root, "sets"), *name;
	size_t i;

	json_array_foreach(names, i, name)
		if (in_set(json_object_get(sets, json_string_value(name)), h))
			return 1;
	return 0;
}

int avc_target_serves(const struct avc_narrowing *n, json_t *target, json_t *h)
{
	int in_sets;

	if (!target || in_any_set(n, json_object_get(n->root, "every_file"), h))
		return 1;
	in_sets = in_any_set(n, json_object_get(target, "sets"), h);
	return json_is_true(json_object_get(target, "all_but")) ? !in_sets : in_sets;
}

int avc_audit_name(const struct avc_narrowing *n, const char *name)
{
	const char *v = json_string_value(json_object_get(json_object_get(n->root, "audit_names"),
							  name));

	return v ? (int)strtol(v, NULL, 16) : -1;
}
