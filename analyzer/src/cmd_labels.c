/* ioctl-scan labels REPORT LABELS...: compares the report's classes with
 * hand labels (tests/labels/README.md) and prints, per label, agree /
 * DISAGREE / UNSAFE / missing, then the accuracy figures:
 *   class agreement    labels whose class the report gives exactly
 *   unsafe errors      labelled modify or admin, reported read
 *   capability agreement  admin labels whose capabilities the report has
 * Agreement is given over all labels (a label the report lacks counts as
 * a miss) and over the labels found. With --min-agreement P,
 * --min-capability P and --min-found P it exits 1 when a figure falls
 * below P percent (agreement over the found labels, capabilities, labels
 * found) or any unsafe error appears. */
#define _GNU_SOURCE
#include "subcommands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_read.h"
#include "util.h"

struct label {
	char *file, *handler, *command;
	enum ioctl_class class;
	char *caps, *why;
};

typedef VEC(struct label) label_list;

static json_t *find_command(json_t *report, const struct label *l)
{
	json_t *h, *c, *fallback = NULL, *same_name = NULL;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		int same_handler = !strcmp(json_string_value(json_object_get(h, "name")), l->handler);
		/* three drivers define a static watchdog_ioctl: the label's
		 * file says which */
		int same_file = same_handler &&
			!strcmp(json_string_value(json_object_get(h, "file")), l->file);

		json_array_foreach(json_object_get(h, "commands"), j, c) {
			if (strcmp(json_string_value(json_object_get(c, "name")), l->command))
				continue;
			if (same_file)
				return c;
			if (same_handler) {
				if (!same_name)
					same_name = c;
				continue;
			}
			/* a function reached from handlers of other files
			 * (cdrom_ioctl): the command as written in that file */
			if (!fallback && !strcmp(json_string_value(json_object_get(c, "file")), l->file))
				fallback = c;
		}
	}
	return same_name ? same_name : fallback;
}

static int has_caps(json_t *c, const char *caps)
{
	char *list = xstrdup(caps), *save;
	json_t *have = json_object_get(c, "capabilities");
	int ok = 1;

	for (char *cap = strtok_r(list, ",", &save); cap; cap = strtok_r(NULL, ",", &save)) {
		int found = 0;
		size_t i;
		json_t *v;

		json_array_foreach(have, i, v)
			found |= !strcmp(json_string_value(v), cap);
		ok &= found;
	}
	free(list);
	return ok;
}

static int read_labels(const char *path, label_list *out)
{
	char *text = read_file(path, NULL);
	int malformed = 0, lineno = 0;

	if (!text) {
		fprintf(stderr, "ioctl-scan: %s: cannot read\n", path);
		return -1;
	}
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		char *f[6] = {0};
		int n = 0;

		if (nl)
			*nl = '\0';
		lineno++;
		if (line[0] && line[0] != '#') {
			for (char *p = line; n < 6; n++) {
				f[n] = p;
				p = strchr(p, '\t');
				if (!p) {
					n++;
					break;
				}
				*p++ = '\0';
			}
			int cls = n == 6 ? ioctl_class_parse(f[3]) : -1;

			if (cls >= 0) {
				struct label l = {
					xstrdup(f[0]), xstrdup(f[1]), xstrdup(f[2]),
					(enum ioctl_class)cls, xstrdup(f[4]), xstrdup(f[5]),
				};
				vec_push(out, l);
			} else {
				/* a label that cannot be read must not leave the
				 * score unnoticed */
				fprintf(stderr, "ioctl-scan: %s:%d: malformed label: 6 tab-separated fields, "
					"the fourth a class (read, modify, admin)\n", path, lineno);
				malformed++;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return malformed ? -1 : 0;
}

int cmd_labels(int argc, char **argv)
{
	label_list labels = {0};
	double min_agree = -1, min_caps = -1, min_found = -1;
	const char *report_path = NULL;
	int found = 0, agree = 0, unsafe = 0, admin = 0, caps_ok = 0, unknown = 0;
	int status = 0;
	json_t *r;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--min-agreement") && a + 1 < argc)
			min_agree = atof(argv[++a]);
		else if (!strcmp(argv[a], "--min-capability") && a + 1 < argc)
			min_caps = atof(argv[++a]);
		else if (!strcmp(argv[a], "--min-found") && a + 1 < argc)
			min_found = atof(argv[++a]);
		else if (!report_path)
			report_path = argv[a];
		else if (read_labels(argv[a], &labels))
			return 2;
	}
	if (!report_path || !labels.len)
		return subcommand_usage("labels REPORT LABELS... [--min-agreement P] [--min-capability P] "
					"[--min-found P]");
	r = report_load(report_path);
	if (!r)
		return 2;
	for (size_t i = 0; i < labels.len; i++) {
		const struct label *l = &labels.items[i];
		json_t *c = find_command(r, l);
		const char *label = ioctl_class_name(l->class);
		enum ioctl_class got;
		const char *verdict;

		if (!c) {
			printf("missing\t%s\t%s\tlabel %s\n", l->handler, l->command, label);
			continue;
		}
		found++;
		got = report_class(c);
		if (got == l->class) {
			agree++;
			verdict = "agree";
		} else if (got == CLASS_READ) {
			unsafe++;
			verdict = "UNSAFE";
		} else {
			verdict = "DISAGREE";
		}
		unknown += got == CLASS_UNKNOWN;
		if (l->class == CLASS_ADMIN) {
			admin++;
			caps_ok += got == CLASS_ADMIN && has_caps(c, l->caps);
		}
		printf("%s\t%s\t%s\tlabel %s, report %s\t%s\n", verdict, l->handler, l->command,
		       label, ioctl_class_name(got), l->why);
	}
	printf("labels: %zu, found in the report: %d (%.1f%%)\n", labels.len, found,
	       100.0 * found / (double)labels.len);
	printf("class agreement over all labels: %d/%zu (%.1f%%)\n", agree, labels.len,
	       100.0 * agree / (double)labels.len);
	printf("class agreement: %d/%d (%.1f%%)\n", agree, found, found ? 100.0 * agree / found : 0);
	printf("reported unknown: %d\n", unknown);
	printf("unsafe errors (modify/admin reported read): %d\n", unsafe);
	printf("capability agreement on admin labels: %d/%d (%.1f%%)\n", caps_ok, admin,
	       admin ? 100.0 * caps_ok / admin : 100.0);
	if (unsafe)
		status = 1;
	if (min_agree >= 0 && (!found || 100.0 * agree / found < min_agree))
		status = 1;
	if (min_caps >= 0 && admin && 100.0 * caps_ok / admin < min_caps)
		status = 1;
	if (min_found >= 0 && 100.0 * found / (double)labels.len < min_found)
		status = 1;
	for (size_t i = 0; i < labels.len; i++) {
		struct label *l = &labels.items[i];

		free(l->file);
		free(l->handler);
		free(l->command);
		free(l->caps);
		free(l->why);
	}
	vec_free(&labels);
	json_decref(r);
	return status;
}
