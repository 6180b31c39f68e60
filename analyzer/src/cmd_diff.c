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

#include "report_diff.h"
#include "report_read.h"

static void print_evidence(const char *side, json_t *c)
{
	const char *cap = report_first_capability(c);
	json_t *e;
	size_t i;

	printf("      %s: %s%s%s%s (%s confidence)\n", side, report_str(c, "class"), *cap ? " " : "", cap,
	       report_capability_in_user_ns(c) ? " in a user namespace" : "", report_str(c, "confidence"));
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
	json_t *r[2], *result;
	int as_json = 0, np = 0, moves;

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
	result = report_diff(r[0], r[1], &moves);
	if (as_json) {
		json_dumpf(result, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
		putchar('\n');
	} else {
		print_text(result, paths[0], paths[1]);
	}
	json_decref(result);
	json_decref(r[0]);
	json_decref(r[1]);
	return moves;
}
