/* ioctl-scan diff OLD.json NEW.json [--json]: what a new report changes.
 *
 * Per handler (matched by name and kind): commands added, removed, and
 * changed in class or capability, each with the evidence of both sides;
 * a summary first. Text by default, JSON with --json.
 *
 * Exit status says how permissions move, for scripts: 0 nothing changed
 * that the table would enforce differently, 1 only tightened (a command
 * now needs more: added to the table, or a stricter class), 4 loosened
 * (removed from the table, or a laxer class), 5 both; 2 usage error.
 * Strictness: unknown (not in the table) < read < modify < admin; a
 * different capability for an admin command counts as both. */
#include "subcommands.h"

#include <stdio.h>
#include <string.h>

#include "report_read.h"
#include "util.h"

#define TIGHTEN 1
#define LOOSEN 4

static int strictness(const char *cls)
{
	static const char *const order[] = { "unknown", "read", "modify", "admin" };

	for (int i = 0; i < 4; i++)
		if (cls && !strcmp(cls, order[i]))
			return i;
	return 0;
}

static char *handler_key(json_t *h)
{
	return xasprintf("%s\t%s", report_str(h, "name"), report_str(h, "kind"));
}

static char *command_key(json_t *c)
{
	return xasprintf("%s\t%s\t%s", report_str(c, "name"), report_str(c, "value"), report_str(c, "mask"));
}

/* key -> object, for one report's handlers or one handler's commands */
static json_t *index_by(json_t *arr, char *(*key)(json_t *))
{
	json_t *idx = json_object(), *v;
	size_t i;

	json_array_foreach(arr, i, v) {
		char *k = key(v);

		json_object_set(idx, k, v);
		free(k);
	}
	return idx;
}

static const char *first_cap(json_t *c)
{
	const char *s = json_string_value(json_array_get(json_object_get(c, "capabilities"), 0));

	return s ? s : "";
}

/* How a command's enforcement moves from o to n (either may be NULL). */
static int movement(json_t *o, json_t *n)
{
	int so = o ? strictness(report_str(o, "class")) : 0, sn = n ? strictness(report_str(n, "class")) : 0;

	if (sn > so)
		return TIGHTEN;
	if (sn < so)
		return LOOSEN;
	if (so == 3 && strcmp(first_cap(o), first_cap(n)))
		return TIGHTEN | LOOSEN;
	return 0;
}

struct totals {
	int added, removed, reclassified, handlers_added, handlers_removed, tighten, loosen;
};

static json_t *change(const char *what, json_t *o, json_t *n, int move)
{
	json_t *c = json_pack("{s:s, s:s, s:s}", "change", what,
			      "name", report_str(n ? n : o, "name"), "value", report_str(n ? n : o, "value"));

	if (o)
		json_object_set(c, "old", o);
	if (n)
		json_object_set(c, "new", n);
	json_object_set_new(c, "permissions", json_string(move == TIGHTEN ? "tighter" :
							  move == LOOSEN ? "looser" :
							  move ? "changed" : "same"));
	return c;
}

static void count(struct totals *t, int move)
{
	t->tighten += !!(move & TIGHTEN);
	t->loosen += !!(move & LOOSEN);
}

/* The changes of one handler present in either report. */
static json_t *diff_handler(json_t *oh, json_t *nh, struct totals *t)
{
	json_t *oi = index_by(json_object_get(oh, "commands"), command_key);
	json_t *ni = index_by(json_object_get(nh, "commands"), command_key);
	json_t *out = json_array(), *v;
	const char *k;

	json_object_foreach(oi, k, v) {
		json_t *n = json_object_get(ni, k);
		int move = movement(v, n);

		if (!n) {
			json_array_append_new(out, change("removed", v, NULL, move));
			t->removed++;
		} else if (strcmp(report_str(v, "class"), report_str(n, "class")) || strcmp(first_cap(v), first_cap(n))) {
			json_array_append_new(out, change("reclassified", v, n, move));
			t->reclassified++;
		} else {
			continue;
		}
		count(t, move);
	}
	json_object_foreach(ni, k, v) {
		int move;

		if (json_object_get(oi, k))
			continue;
		move = movement(NULL, v);
		json_array_append_new(out, change("added", NULL, v, move));
		t->added++;
		count(t, move);
	}
	json_decref(oi);
	json_decref(ni);
	return out;
}

static void print_evidence(const char *side, json_t *c)
{
	json_t *e;
	size_t i;

	printf("      %s: %s%s%s (%s confidence)\n", side, report_str(c, "class"),
	       *first_cap(c) ? " " : "", first_cap(c), report_str(c, "confidence"));
	json_array_foreach(json_object_get(c, "evidence"), i, e)
		printf("        %s %s at %s:%lld\n", report_str(e, "kind"), report_str(e, "what"), report_str(e, "file"),
		       (long long)json_integer_value(json_object_get(e, "line")));
}

static void print_text(json_t *result, const char *oldp, const char *newp)
{
	json_t *s = json_object_get(result, "summary"), *h;
	size_t i;

	printf("ioctl-scan diff: %s (%s) -> %s (%s)\n", oldp, report_str(s, "old_release"), newp,
	       report_str(s, "new_release"));
	printf("handlers: %lld added, %lld removed; commands: %lld added, %lld removed, %lld"
	       " reclassified; permissions: %lld tighter, %lld looser\n",
	       json_integer_value(json_object_get(s, "handlers_added")),
	       json_integer_value(json_object_get(s, "handlers_removed")),
	       json_integer_value(json_object_get(s, "commands_added")),
	       json_integer_value(json_object_get(s, "commands_removed")),
	       json_integer_value(json_object_get(s, "commands_reclassified")),
	       json_integer_value(json_object_get(s, "tighter")),
	       json_integer_value(json_object_get(s, "looser")));
	json_array_foreach(json_object_get(result, "handlers"), i, h) {
		json_t *c;
		size_t j;

		printf("\n%s (%s) %s%s%s\n", report_str(h, "name"), report_str(h, "kind"), report_str(h, "file"),
		       strcmp(report_str(h, "status"), "changed") ? ": handler " : "",
		       strcmp(report_str(h, "status"), "changed") ? report_str(h, "status") : "");
		json_array_foreach(json_object_get(h, "changes"), j, c) {
			const char *what = report_str(c, "change");
			json_t *o = json_object_get(c, "old"), *n = json_object_get(c, "new");

			printf("  %c %s %s: %s%s%s [%s]\n", what[0] == 'a' ? '+' : what[0] == 'r' &&
			       what[2] == 'm' ? '-' : '~', report_str(c, "name"), report_str(c, "value"),
			       o ? report_str(o, "class") : "", o && n ? " -> " : "", n ? report_str(n, "class") : "",
			       report_str(c, "permissions"));
			if (o)
				print_evidence("old", o);
			if (n)
				print_evidence("new", n);
		}
	}
}

int cmd_diff(int argc, char **argv)
{
	static const char synopsis[] = "diff OLD.json NEW.json [--json]";
	const char *paths[2] = { NULL, NULL };
	json_t *r[2], *oi, *ni, *handlers, *result, *v;
	struct totals t = { 0, 0, 0, 0, 0, 0, 0 };
	int as_json = 0, np = 0;
	const char *k;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--json"))
			as_json = 1;
		else if (np < 2 && argv[a][0] != '-')
			paths[np++] = argv[a];
		else
			return subcommand_usage(synopsis);
	}
	if (np != 2)
		return subcommand_usage(synopsis);
	for (int i = 0; i < 2; i++)
		if (!(r[i] = report_load(paths[i])))
			return 2;
	oi = index_by(json_object_get(r[0], "handlers"), handler_key);
	ni = index_by(json_object_get(r[1], "handlers"), handler_key);
	handlers = json_array();
	json_object_foreach(oi, k, v) {
		json_t *n = json_object_get(ni, k), *changes = diff_handler(v, n, &t);

		t.handlers_removed += !n;
		if (json_array_size(changes))
			json_array_append_new(handlers, json_pack("{s:s, s:s, s:s, s:s, s:o}",
				"name", report_str(v, "name"), "kind", report_str(v, "kind"),
				"file", report_str(n ? n : v, "file"), "status", n ? "changed" : "removed",
				"changes", changes));
		else
			json_decref(changes);
	}
	json_object_foreach(ni, k, v) {
		json_t *changes;

		if (json_object_get(oi, k))
			continue;
		t.handlers_added++;
		changes = diff_handler(NULL, v, &t);
		json_array_append_new(handlers, json_pack("{s:s, s:s, s:s, s:s, s:o}",
			"name", report_str(v, "name"), "kind", report_str(v, "kind"), "file", report_str(v, "file"),
			"status", "added", "changes", changes));
	}
	result = json_pack("{s:{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i}, s:o}", "summary",
		"old_release", report_str(json_object_get(r[0], "kernel"), "release"),
		"new_release", report_str(json_object_get(r[1], "kernel"), "release"),
		"handlers_added", t.handlers_added, "handlers_removed", t.handlers_removed,
		"commands_added", t.added, "commands_removed", t.removed,
		"commands_reclassified", t.reclassified, "tighter", t.tighten, "looser", t.loosen,
		"handlers", handlers);
	if (as_json) {
		json_dumpf(result, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
		putchar('\n');
	} else {
		print_text(result, paths[0], paths[1]);
	}
	json_decref(result);
	json_decref(oi);
	json_decref(ni);
	json_decref(r[0]);
	json_decref(r[1]);
	return (t.tighten ? TIGHTEN : 0) | (t.loosen ? LOOSEN : 0);
}
