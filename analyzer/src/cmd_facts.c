/* ioctl-scan facts [--build-dir DIR] [--compile-commands F] [--data-dir D]
 *                  [--command NAME [--handler H]] KSRC FILE
 *
 * What the analyzer sees of one file: the reduced facts a parse yields
 * (facts_print.h), the way sparse's test-linearize shows its
 * intermediate form. With --command, instead, how the scan of FILE
 * decided that command: its handler, class, confidence, path,
 * capabilities and evidence, read from the report a scan of FILE writes
 * (nothing here classifies). The facts are parsed afresh, without the
 * facts cache, so they are the sources' of today. */
#define _GNU_SOURCE
#include "subcommands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facts_cache.h"
#include "facts_print.h"
#include "header_functions.h"
#include "parse_files.h"
#include "report_read.h"
#include "scan.h"

#define FACTS_SYNOPSIS \
	"facts [--build-dir DIR] [--compile-commands F] [--data-dir D] " \
	"[--command NAME [--handler H]] KSRC FILE"

struct facts_args {
	const char *build_dir, *data_dir, *command, *handler;
	const char *ksrc, *file;
};

static int parse_args(int argc, char **argv, struct facts_args *fa)
{
	int a = 1;

	for (; a + 1 < argc && !strncmp(argv[a], "--", 2); a += 2) {
		if (!strcmp(argv[a], "--build-dir") || !strcmp(argv[a], "--compile-commands"))
			fa->build_dir = argv[a + 1];
		else if (!strcmp(argv[a], "--data-dir"))
			fa->data_dir = argv[a + 1];
		else if (!strcmp(argv[a], "--command"))
			fa->command = argv[a + 1];
		else if (!strcmp(argv[a], "--handler"))
			fa->handler = argv[a + 1];
		else
			return -1;
	}
	if (argc - a != 2 || (fa->handler && !fa->command))
		return -1;
	fa->ksrc = argv[a];
	fa->file = argv[a + 1];
	return 0;
}

/* The file's facts, parsed with the scan's flags and knowledge. */
static int print_facts(const struct facts_args *fa, const struct kernel_tree *kt,
		       const char *data_dir)
{
	struct knowledge kn;
	struct flag_source *fs;
	struct parse_request req;
	struct file_facts **ff;
	strvec files = {0};
	char err[1024];
	int rc;

	if (knowledge_load(&kn, data_dir))
		return 2;
	fs = flag_source_open(kt, err, sizeof(err));
	if (!fs) {
		fprintf(stderr, "ioctl-scan: %s\n", err);
		knowledge_free(&kn);
		return 2;
	}
	req = (struct parse_request){ .kt = kt, .flags = fs, .kn = &kn,
				      .hf = header_functions_new(), .jobs = 1,
				      .phase = "parsing" };
	strvec_push(&files, fa->file);
	ff = parse_files(&req, &files);
	facts_print(stdout, ff[0]);
	rc = ff[0]->errors ? 1 : 0;
	file_facts_free(ff[0]);
	free(ff);
	strvec_clear(&files);
	header_functions_free(req.hf);
	flag_source_free(fs);
	knowledge_free(&kn);
	return rc;
}

static void print_list(const char *what, json_t *list)
{
	json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		printf("  %s %s\n", what, json_string_value(v));
}

/* One command of the report: where it is, its class and why. */
static void print_command(json_t *h, json_t *c)
{
	json_t *v;
	size_t i;

	printf("command %s = %s mask %s handler %s %s %s:%lld\n", report_str(c, "name"),
	       report_str(c, "value"), report_str(c, "mask"), report_str(h, "name"),
	       report_str(h, "kind"), report_str(c, "file"),
	       (long long)json_integer_value(json_object_get(c, "line")));
	printf("  class %s confidence %s\n", report_str(c, "class"), report_str(c, "confidence"));
	fputs("  path", stdout);
	json_array_foreach(json_object_get(c, "path"), i, v)
		printf("%s%s", i ? " -> " : " ", json_string_value(v));
	fputs("\n", stdout);
	print_list("capability", json_object_get(c, "capabilities"));
	print_list("conditional_capability", json_object_get(c, "conditional_capabilities"));
	json_array_foreach(json_object_get(c, "evidence"), i, v)
		printf("  evidence %s %s:%lld %s\n", report_str(v, "kind"), report_str(v, "file"),
		       (long long)json_integer_value(json_object_get(v, "line")), report_str(v, "what"));
}

/* Every command named fa->command of the handlers (or the handler
 * fa->handler) a scan of the file reports; 0 if there is one. */
static int print_decision(const struct facts_args *fa, json_t *report)
{
	json_t *h, *c;
	size_t i, j;
	int found = 0;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		if (fa->handler && strcmp(report_str(h, "name"), fa->handler))
			continue;
		json_array_foreach(json_object_get(h, "commands"), j, c)
			if (!strcmp(report_str(c, "name"), fa->command)) {
				print_command(h, c);
				found++;
			}
	}
	if (found)
		return 0;
	fprintf(stderr, "ioctl-scan: %s: no command %s in %s%s\n", fa->file, fa->command,
		fa->handler ? "the handler " : "the file's handlers",
		fa->handler ? fa->handler : "");
	return 1;
}

/* Scans the file alone, as `ioctl-scan KSRC FILE` does, into a report
 * of its own, and prints what it says of the command. */
static int explain_command(const struct facts_args *fa, const char *data_dir)
{
	const char *tmp = getenv("TMPDIR");
	char *report_path = xasprintf("%s/ioctl-scan-facts-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	struct scan_options opt = { 0 };
	char *cache_dir = facts_cache_default_dir();
	json_t *report = NULL;
	int fd = mkstemp(report_path), status, rc = 2;

	if (fd < 0) {
		perror("ioctl-scan: a temporary report");
		free(report_path);
		free(cache_dir);
		return 2;
	}
	close(fd);
	opt = (struct scan_options){ .ksrc = fa->ksrc, .build_dir = fa->build_dir,
				     .output = report_path, .data_dir = data_dir,
				     .cache_dir = cache_dir, .cache_max = FACTS_CACHE_DEFAULT_MAX,
				     .quiet = 1, .jobs = 1 };
	strvec_push(&opt.paths, fa->file);
	status = scan_run(&opt);
	if (status <= 1)
		report = report_load(report_path);
	if (report)
		rc = print_decision(fa, report);
	json_decref(report);
	unlink(report_path);
	free(report_path);
	strvec_clear(&opt.paths);
	free(cache_dir);
	return rc;
}

int cmd_facts(int argc, char **argv)
{
	struct facts_args fa = { 0 };
	struct kernel_tree kt;
	char err[1024], *data_dir, *path;
	int missing, rc;

	if (parse_args(argc, argv, &fa))
		return subcommand_usage(FACTS_SYNOPSIS);
	if (kernel_tree_open(&kt, fa.ksrc, fa.build_dir, err, sizeof(err))) {
		fprintf(stderr, "ioctl-scan: %s\n", err);
		kernel_tree_free(&kt);
		return 2;
	}
	path = path_join(kt.ksrc, fa.file);
	missing = access(path, R_OK) != 0;
	free(path);
	if (missing) {
		fprintf(stderr, "ioctl-scan: %s: no such file in %s (FILE is relative to KSRC)\n",
			fa.file, kt.ksrc);
		kernel_tree_free(&kt);
		return 2;
	}
	data_dir = fa.data_dir ? xstrdup(fa.data_dir) : default_data_dir();
	if (fa.command)
		rc = explain_command(&fa, data_dir);
	else
		rc = print_facts(&fa, &kt, data_dir);
	free(data_dir);
	kernel_tree_free(&kt);
	return rc;
}
