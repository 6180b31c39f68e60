/* ioctl-scan coverage REPORT KSRC [--build-dir DIR] [--min-found P]
 * [--missing]: a yardstick of what the report finds that does not come
 * from the analyzer. It reads the tree as text, never parsing it:
 *
 *   command macros  names #defined with an _IOC encoding anywhere in the
 *                   tree (`_IOWR('d', 0x00, ...)`, or a wrapper whose name
 *                   ends in _IO, _IOR, _IOW or _IOWR: DRM_IOWR), and names
 *                   a uapi header defines as a legacy command number, 16
 *                   bits with a type byte (TCGETS 0x5401, LOOP_SET_FD
 *                   0x4C00), when a case label of a switch on a command
 *                   variable uses them;
 *   dispatch uses   in the .c files the configuration builds (those under
 *                   the PATHs, when given): a case label,
 *                   a comparison (`== NAME`, `NAME !=`), or a table entry
 *                   (`{ NAME,`, `.member = NAME`, `MACRO(NAME,` at file
 *                   scope).
 *
 * A use is found when some command of the report carries its name (or is
 * named MACRO(NAME)). It prints the uses, the distinct macros, how many
 * the report finds, and with --missing each one it does not, at file:line.
 * With --min-found P it exits 1 below P percent of the distinct macros.
 * Token-pasted table entries (DRM_IOCTL_DEF_DRV(I915_INIT, ...)) name no
 * macro in the text and are not counted. */
#define _GNU_SOURCE
#include "subcommands.h"

#include <ctype.h>
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kbuild_config.h"
#include "kernel_tree.h"
#include "report_read.h"
#include "util.h"

/* A set of names, open addressing. */
struct name_set {
	char **slot;
	size_t cap, len;
};

static size_t name_hash(const char *s, size_t n)
{
	return str_hash(s, n);
}

static int set_has_n(const struct name_set *s, const char *name, size_t n)
{
	if (!s->cap)
		return 0;
	for (size_t h = name_hash(name, n) % s->cap; s->slot[h]; h = (h + 1) % s->cap)
		if (strlen(s->slot[h]) == n && !strncmp(s->slot[h], name, n))
			return 1;
	return 0;
}

static void set_add_n(struct name_set *s, const char *name, size_t n)
{
	if (set_has_n(s, name, n))
		return;
	if (2 * (s->len + 1) > s->cap) {
		struct name_set bigger = { xcalloc(s->cap ? 2 * s->cap : 4096, sizeof(char *)),
					   s->cap ? 2 * s->cap : 4096, 0 };

		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i]) {
				set_add_n(&bigger, s->slot[i], strlen(s->slot[i]));
				free(s->slot[i]);
			}
		free(s->slot);
		*s = bigger;
	}
	{
		size_t h = name_hash(name, n) % s->cap;

		while (s->slot[h])
			h = (h + 1) % s->cap;
		s->slot[h] = xstrndup(name, n);
		s->len++;
	}
}

static void set_free(struct name_set *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slot[i]);
	free(s->slot);
}

static int ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Top-level directories that hold no kernel code of the configuration. */
static int skipped_dir(const char *rel)
{
	static const char *const skip[] = { "tools", "samples", "scripts", "Documentation",
					    "usr", ".git" };

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(rel, skip[i]))
			return 1;
	return !strncmp(rel, "arch/", 5) && strcmp(rel, "arch/x86") && strchr(rel + 5, '/') == NULL;
}

static void walk(const char *root, const char *rel, const char *build_rel, strvec *headers,
		 strvec *sources)
{
	char *abs = rel[0] ? path_join(root, rel) : xstrdup(root);
	DIR *d = opendir(abs);
	struct dirent *de;

	free(abs);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char *r;
		size_t n = strlen(de->d_name);
		struct stat st;
		char *full;

		if (de->d_name[0] == '.')
			continue;
		r = rel[0] ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		full = path_join(root, r);
		if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (!skipped_dir(r) && (!build_rel || strcmp(r, build_rel)))
				walk(root, r, build_rel, headers, sources);
		} else if (n > 2 && !strcmp(de->d_name + n - 2, ".h")) {
			strvec_push(headers, r);
		} else if (n > 2 && !strcmp(de->d_name + n - 2, ".c")) {
			strvec_push(sources, r);
		}
		free(full);
		free(r);
	}
	closedir(d);
}

/* Does the body of a #define (up to the end of its logical line) encode a
 * command: a call of _IO, _IOR, _IOW, _IOWR or of a wrapper ending so? */
static int encodes_command(const char *body, const char *end)
{
	for (const char *p = body; p + 3 < end; p++) {
		const char *q;

		if (strncmp(p, "_IO", 3))
			continue;
		q = p + 3;
		while (q < end && (*q == 'R' || *q == 'W'))
			q++;
		if (q < end && ident(*q))
			continue;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && *q == '(')
			return 1;
	}
	return 0;
}

/* A legacy command number: a bare number (optionally in parentheses) of
 * 16 bits whose high byte, the type, is not zero: 0x5401 (TCGETS, 'T'),
 * 0x4C00 (LOOP_SET_FD), 0x8912 (SIOCGIFCONF), 21505. Before _IOC, a
 * command was type << 8 | number; a smaller number (F_SETLK 6, IPC_RMID
 * 0, DTV_FREQUENCY 3, ethtool's TCP_V4_FLOW 1) or a larger one (reboot's
 * 0x01234567, quotactl's 0x800002) is another interface's sub-command
 * that happens to be switched on a variable named cmd. */
static int is_legacy_command(const char *body, const char *end)
{
	unsigned long long v;
	char *stop;

	while (body < end && (*body == ' ' || *body == '\t' || *body == '('))
		body++;
	if (body >= end || !isdigit((unsigned char)*body))
		return 0;
	v = strtoull(body, &stop, 0);
	body = stop;
	while (body < end && (*body == 'U' || *body == 'u' || *body == 'L' || *body == 'l'))
		body++;
	while (body < end && (*body == ' ' || *body == '\t' || *body == ')'))
		body++;
	if (body < end && *body != '/' && *body != '\n')
		return 0;
	return v >= 0x100 && v <= 0xffff;
}

/* Reads every #define of text: command encodings into commands, bare
 * numbers (for a uapi header) into numbers. */
static void read_defines(const char *text, int uapi, struct name_set *commands,
			 struct name_set *numbers)
{
	for (const char *p = strstr(text, "#define"); p; p = strstr(p + 1, "#define")) {
		const char *name, *body, *end;

		if (p > text && p[-1] != '\n')
			continue;
		name = p + 7;
		while (*name == ' ' || *name == '\t')
			name++;
		body = name;
		while (ident(*body))
			body++;
		if (body == name)
			continue;
		/* the logical line, continuations included */
		for (end = body; *end && !(*end == '\n' && end[-1] != '\\'); end++)
			;
		if (encodes_command(body, end))
			set_add_n(commands, name, (size_t)(body - name));
		else if (uapi && *body != '(' && is_legacy_command(body, end))
			set_add_n(numbers, name, (size_t)(body - name));
	}
}

struct use {
	char *name;
	char *file;
	unsigned line;
};

typedef VEC(struct use) use_vec;

/* The identifier at p, if one starts there (not inside another). */
static size_t ident_at(const char *text, const char *p)
{
	size_t n = 0;

	if (p > text && ident(p[-1]))
		return 0;
	if (!isalpha((unsigned char)*p) && *p != '_')
		return 0;
	while (ident(p[n]))
		n++;
	return n;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\\')
		p++;
	return p;
}

/* Is the switch being read (its controlling expression) on a command
 * variable? */
static int command_switch(const char *expr)
{
	/* not `code` nor `request`: BPF's insn->code, seccomp's and
	 * filter.c's switches on opcodes are not ioctl dispatch */
	static const char *const names[] = { "cmd", "command", "ioctl", "ioctl_cmd",
					     "ioctlnum", "cmnd" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);

		for (const char *p = strstr(expr, names[i]); p; p = strstr(p + 1, names[i]))
			if ((p == expr || !ident(p[-1])) && !ident(p[n]))
				return 1;
	}
	return 0;
}

#define MAX_SWITCH 64

/* The dispatch uses of command macros in one .c file. Comments and
 * strings are not skipped: a macro name in them is rarely in one of the
 * forms below. */
static void read_uses(const char *text, const char *file, const struct name_set *commands,
		      const struct name_set *numbers, use_vec *uses)
{
	unsigned line = 1;
	int depth = 0, nsw = 0, sw_depth[MAX_SWITCH], sw_cmd[MAX_SWITCH];

	for (const char *p = text; *p; p++) {
		size_t n;
		const char *after, *before;
		int is_use = 0;

		if (*p == '\n') {
			line++;
			continue;
		}
		if (*p == '{') {
			depth++;
			continue;
		}
		if (*p == '}') {
			depth--;
			while (nsw && sw_depth[nsw - 1] > depth)
				nsw--;
			continue;
		}
		n = ident_at(text, p);
		if (!n)
			continue;
		if (n == 6 && !strncmp(p, "switch", 6)) {
			const char *q = skip_blank(p + 6);

			if (*q == '(' && nsw < MAX_SWITCH) {
				const char *e = strchr(q, ')');
				char *expr = e ? xstrndup(q, (size_t)(e - q)) : xstrdup("");

				sw_depth[nsw] = depth + 1;
				sw_cmd[nsw++] = command_switch(expr);
				free(expr);
			}
			p += n - 1;
			continue;
		}
		if (!set_has_n(commands, p, n) && !set_has_n(numbers, p, n)) {
			p += n - 1;
			continue;
		}
		after = skip_blank(p + n);
		before = p;
		while (before > text && (before[-1] == ' ' || before[-1] == '\t'))
			before--;
		if (before - text >= 4 && !strncmp(before - 4, "case", 4) &&
		    (before - 4 == text || !ident(before[-5])))
			is_use = set_has_n(commands, p, n) || (nsw && sw_cmd[nsw - 1]);
		else if (set_has_n(commands, p, n) &&
			 ((before - text >= 2 && (!strncmp(before - 2, "==", 2) ||
						  !strncmp(before - 2, "!=", 2))) ||
			  !strncmp(after, "==", 2) || !strncmp(after, "!=", 2)))
			is_use = 1;
		else if (set_has_n(commands, p, n) && depth > 0 && !nsw &&
			 ((before > text && before[-1] == '{' && *after == ',') ||
			  (before > text && before[-1] == '=' && before - text >= 2 &&
			   before[-2] != '=' && before[-2] != '!') ||
			  (before > text && before[-1] == '(' && *after == ',')))
			is_use = 1;
		if (is_use) {
			struct use u = { xstrndup(p, n), xstrdup(file), line };

			vec_push(uses, u);
		}
		p += n - 1;
	}
}

/* The names the report's commands carry: NAME, and NAME of MACRO(NAME). */
static void report_names(json_t *report, struct name_set *names)
{
	json_t *h, *c;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		json_array_foreach(json_object_get(h, "commands"), j, c) {
			const char *name = json_string_value(json_object_get(c, "name"));
			const char *open = name ? strchr(name, '(') : NULL;

			if (!name)
				continue;
			set_add_n(names, name, open ? (size_t)(open - name) : strlen(name));
			if (open && strchr(open, ')'))
				set_add_n(names, open + 1, (size_t)(strchr(open, ')') - open - 1));
		}
	}
}

/* Is rel one of the paths or under one of them? */
static int under_any(const char *rel, char **paths, int n)
{
	for (int i = 0; i < n; i++) {
		size_t l = strlen(paths[i]);

		while (l && paths[i][l - 1] == '/')
			l--;
		if (!strncmp(rel, paths[i], l) && (rel[l] == '\0' || rel[l] == '/'))
			return 1;
	}
	return 0;
}

static int cmp_use(const void *a, const void *b)
{
	const struct use *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (!r)
		r = strcmp(x->file, y->file);
	return r ? r : (int)x->line - (int)y->line;
}

int cmd_coverage(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "build-dir", required_argument, NULL, 'b' },
		{ "min-found", required_argument, NULL, 'm' },
		{ "missing", no_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	const char *synopsis =
		"coverage REPORT KSRC [--build-dir DIR] [--min-found P] [--missing] [PATH...]";
	const char *build_dir = NULL;
	double min_found = -1;
	int show_missing = 0, opt, rc = 0;
	struct kernel_tree kt = {0};
	struct kbuild_config *kc;
	struct name_set commands = {0}, numbers = {0}, found = {0}, distinct = {0}, hit = {0};
	strvec headers = {0}, sources = {0};
	use_vec uses = {0};
	char err[512], *build_rel = NULL;
	json_t *report;
	size_t nfound = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == 'b')
			build_dir = optarg;
		else if (opt == 'm')
			min_found = atof(optarg);
		else if (opt == 'M')
			show_missing = 1;
		else
			return subcommand_usage(synopsis);
	}
	if (argc - optind < 2)
		return subcommand_usage(synopsis);
	report = report_load(argv[optind]);
	if (!report)
		return 2;
	if (kernel_tree_open(&kt, argv[optind + 1], build_dir, err, sizeof(err))) {
		fprintf(stderr, "ioctl-scan: %s\n", err);
		json_decref(report);
		return 2;
	}
	kc = kbuild_config_open(&kt);
	if (kt.build_dir && !strncmp(kt.build_dir, kt.ksrc, strlen(kt.ksrc)) &&
	    kt.build_dir[strlen(kt.ksrc)] == '/')
		build_rel = xstrdup(kt.build_dir + strlen(kt.ksrc) + 1);
	walk(kt.ksrc, "", build_rel, &headers, &sources);
	for (size_t i = 0; i < headers.len + sources.len; i++) {
		const char *rel = i < headers.len ? headers.items[i] : sources.items[i - headers.len];
		char *path = path_join(kt.ksrc, rel);
		char *text = read_file(path, NULL);

		if (text)
			read_defines(text, i < headers.len && strstr(rel, "uapi/") != NULL,
				     &commands, &numbers);
		free(text);
		free(path);
	}
	for (size_t i = 0; i < sources.len; i++) {
		char *path, *text;

		if (kc && !kbuild_config_builds(kc, sources.items[i]))
			continue;
		if (argc - optind > 2 && !under_any(sources.items[i], argv + optind + 2,
						     argc - optind - 2))
			continue;
		path = path_join(kt.ksrc, sources.items[i]);
		text = read_file(path, NULL);
		if (text)
			read_uses(text, sources.items[i], &commands, &numbers, &uses);
		free(text);
		free(path);
	}
	report_names(report, &found);
	qsort(uses.items, uses.len, sizeof(*uses.items), cmp_use);
	for (size_t i = 0; i < uses.len; i++) {
		const struct use *u = &uses.items[i];
		int f = set_has_n(&found, u->name, strlen(u->name));

		if (!set_has_n(&distinct, u->name, strlen(u->name))) {
			set_add_n(&distinct, u->name, strlen(u->name));
			if (f) {
				set_add_n(&hit, u->name, strlen(u->name));
				nfound++;
			}
		}
		if (!f && show_missing)
			printf("missing\t%s\t%s:%u\n", u->name, u->file, u->line);
	}
	printf("command macros defined: %zu encoded, %zu numeric in uapi headers\n",
	       commands.len, numbers.len);
	printf("dispatch uses in built files: %zu, of %zu distinct macros\n", uses.len,
	       distinct.len);
	printf("found in the report: %zu/%zu (%.1f%%)\n", nfound, distinct.len,
	       distinct.len ? 100.0 * (double)nfound / (double)distinct.len : 100.0);
	if (min_found >= 0 && distinct.len &&
	    100.0 * (double)nfound / (double)distinct.len < min_found) {
		fprintf(stderr, "ioctl-scan: found %.1f%% of the dispatched command macros, below %.1f%%\n",
			100.0 * (double)nfound / (double)distinct.len, min_found);
		rc = 1;
	}
	for (size_t i = 0; i < uses.len; i++) {
		free(uses.items[i].name);
		free(uses.items[i].file);
	}
	vec_free(&uses);
	set_free(&commands);
	set_free(&numbers);
	set_free(&found);
	set_free(&distinct);
	set_free(&hit);
	strvec_clear(&headers);
	strvec_clear(&sources);
	free(build_rel);
	if (kc)
		kbuild_config_free(kc);
	kernel_tree_free(&kt);
	json_decref(report);
	return rc;
}
