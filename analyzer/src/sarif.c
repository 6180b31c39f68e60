/* A report as SARIF 2.1.0: one result per command that a reviewer should
 * look at, located at the command's case label, with the evidence lines
 * as related locations. The rules (analyzer/doc/sarif.md):
 *   ioctl-admin               admin: the table will require a capability
 *   ioctl-modify-low-confidence  modify, but an unanalysed call was on the path
 *   ioctl-unknown             not classified: the command keeps today's checks */
#include "sarif.h"

#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_read.h"
#include "util.h"

static const struct {
	const char *id, *level, *text;
} rules[] = {
	{ "ioctl-admin", "note",
	  "The command is admin: every successful path passes a capability check, so the "
	  "generated table requires file:write and the capability permission." },
	{ "ioctl-modify-low-confidence", "warning",
	  "The command changes state (modify), but a call on its path could not be analysed: "
	  "check the evidence." },
	{ "ioctl-unknown", "warning",
	  "The command could not be classified and keeps today's checks: the evidence names "
	  "what could not be analysed." },
};

static int rule_of(json_t *c)
{
	switch (report_class(c)) {
	case CLASS_ADMIN:
		return 0;
	case CLASS_MODIFY:
		return strcmp(report_str(c, "confidence"), "low") ? -1 : 1;
	case CLASS_UNKNOWN:
		return 2;
	default:
		return -1;
	}
}

static json_t *location(const char *file, json_int_t line, const char *msg)
{
	json_t *l = json_pack("{s:{s:{s:s, s:s}, s:{s:I}}}", "physicalLocation",
			      "artifactLocation", "uri", file, "uriBaseId", "KSRC",
			      "region", "startLine", line > 0 ? line : 1);

	if (msg)
		json_object_set_new(l, "message", json_pack("{s:s}", "text", msg));
	return l;
}

static json_t *result_of(json_t *h, json_t *c, int rule)
{
	json_t *related = json_array(), *e, *caps = json_object_get(c, "capabilities");
	char msg[512];
	size_t i;

	json_array_foreach(json_object_get(c, "evidence"), i, e) {
		char text[384];

		snprintf(text, sizeof(text), "%s: %s", report_str(e, "kind"), report_str(e, "what"));
		json_array_append_new(related, location(report_str(e, "file"),
			json_integer_value(json_object_get(e, "line")), text));
	}
	snprintf(msg, sizeof(msg), "%s %s (%s) of %s: %s%s%s, %s confidence", report_str(c, "name"),
		 report_str(c, "value"), report_str(c, "dir"), report_str(h, "name"), report_str(c, "class"),
		 json_array_size(caps) ? " " : "", json_array_size(caps) ?
		 json_string_value(json_array_get(caps, 0)) : "", report_str(c, "confidence"));
	return json_pack("{s:s, s:i, s:s, s:{s:s}, s:[o], s:o, s:{s:s, s:s, s:s}}",
			 "ruleId", rules[rule].id, "ruleIndex", rule, "level", rules[rule].level,
			 "message", "text", msg,
			 "locations", location(report_str(c, "file"),
					       json_integer_value(json_object_get(c, "line")), NULL),
			 "relatedLocations", related,
			 "properties", "handler", report_str(h, "name"), "kind", report_str(h, "kind"),
			 "command", report_str(c, "name"));
}

json_t *sarif_from_report(json_t *report)
{
	json_t *results = json_array(), *rule_arr = json_array(), *h, *c, *out;
	char *base = xasprintf("file://%s/", report_str(json_object_get(report, "kernel"), "source"));
	size_t i, j;

	for (size_t r = 0; r < sizeof(rules) / sizeof(*rules); r++)
		json_array_append_new(rule_arr, json_pack("{s:s, s:{s:s}, s:{s:s}}", "id",
			rules[r].id, "shortDescription", "text", rules[r].text,
			"defaultConfiguration", "level", rules[r].level));
	json_array_foreach(json_object_get(report, "handlers"), i, h)
		json_array_foreach(json_object_get(h, "commands"), j, c) {
			int rule = rule_of(c);

			if (rule >= 0)
				json_array_append_new(results, result_of(h, c, rule));
		}
	out = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:o}}, s:{s:{s:s}}, s:o}]}",
		"$schema", "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0",
		"runs", "tool", "driver", "name", "ioctl-scan", "version", IOCTL_SCAN_VERSION,
		"rules", rule_arr, "originalUriBaseIds", "KSRC", "uri", base, "results", results);
	free(base);
	return out;
}
