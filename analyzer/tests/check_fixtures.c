/* Runs ioctl-scan on each fixture of the miniature tree and checks the
 * expectations written in the fixture's trailing comment block (the sparse
 * validation/ style). Expected command values and masks are C expressions
 * evaluated by compiling the fixture into a probe: never typed-in numbers.
 *
 * usage: check_fixtures IOCTL_SCAN TREE WORKDIR [FIXTURE...]
 *
 * Expectation lines (between check-output-start and check-output-end):
 *   handler H KIND               H is reported with that kind
 *   fops H VAR                   H is installed by ops variable VAR
 *   command H NAME [value=E] [mask=E]
 *                                H has a command (name NAME, or any if *)
 *                                whose value is E & mask (default NAME) and
 *                                mask is E (default 0xffffffff)
 *   ncommands H N                H has exactly N commands
 *   default H ACTION             H's default branch
 *   forwarder H TARGET           H forwards to TARGET's commands
 *   class H NAME CLASS           the command's class
 *   at H NAME FILE:LINE          the report places the command there
 *   capability H NAME CAP        the admin command requires CAP
 *   user_ns H NAME CAP           every check of CAP guarding the command may
 *                                be made in a user namespace other than the
 *                                initial one (- : no capability is)
 *   evidence H NAME KIND         the command's evidence has an entry of KIND
 *                                (the reason for the class, not only the class)
 *   confidence H NAME LEVEL      the command's confidence, high or low
 *   path H NAME F1,F2,...        the command's path (functions and
 *                                table[COMMAND] entries, in order)
 *   object H MODULE CONFIG       H's file is linked into one object, MODULE,
 *                                built by CONFIG (- when built whenever
 *                                the kernel is)
 *   object H -                   the Makefiles do not say (objects null)
 *
 * The scans read the tree's fixtures.config as the configuration.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static int passed, failed;

static void result(int ok, const char *fixture, const char *what)
{
	printf("%s - %s: %s\n", ok ? "ok" : "not ok", fixture, what);
	if (ok)
		passed++;
	else
		failed++;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, len = 0, n;

	if (!fp)
		return NULL;
	do {
		if (len + 4096 > cap)
			buf = realloc(buf, cap = (cap + 4096) * 2);
		n = fread(buf + len, 1, 4096, fp);
		len += n;
	} while (n);
	fclose(fp);
	buf[len] = '\0';
	return buf;
}

struct expect {
	char orig[512];
	char line[512];
	char *words[8];
	int nwords;
	char *value_expr, *mask_expr;
	unsigned long long value, mask;
};

static int load_expectations(const char *path, struct expect *ex, int max)
{
	char *text = slurp(path), *p, *end;
	int n = 0;

	if (!text)
		return -1;
	p = strstr(text, "check-output-start");
	end = p ? strstr(p, "check-output-end") : NULL;
	if (!p || !end) {
		free(text);
		return -1;
	}
	p = strchr(p, '\n') + 1;
	while (p < end && n < max) {
		char *nl = strchr(p, '\n');
		char *l = p;

		*nl = '\0';
		while (*l == ' ' || *l == '*' || *l == '\t')
			l++;
		if (*l && l < end) {
			struct expect *e = &ex[n++];
			char *save;

			memset(e, 0, sizeof(*e));
			snprintf(e->line, sizeof(e->line), "%s", l);
			snprintf(e->orig, sizeof(e->orig), "%s", l);
			for (char *w = strtok_r(e->line, " ", &save); w && e->nwords < 8;
			     w = strtok_r(NULL, " ", &save)) {
				if (!strncmp(w, "value=", 6))
					e->value_expr = w + 6;
				else if (!strncmp(w, "mask=", 5))
					e->mask_expr = w + 5;
				else
					e->words[e->nwords++] = w;
			}
		}
		p = nl + 1;
	}
	free(text);
	return n;
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Compiles the fixture with a main() that prints every expression. At -O2
 * the fixture's unused static functions, and the kernel functions they
 * call, drop out, so the probe links without them. */
static int probe_values(const char *fixture_abs, const char *tree, const char *work,
			const char *name, struct expect *ex, int n)
{
	char *src, *bin, *cmd, *out;
	FILE *fp;
	int err = 0;

	if (asprintf(&src, "%s/probe_%s.c", work, name) < 0 ||
	    asprintf(&bin, "%s/probe_%s", work, name) < 0 ||
	    asprintf(&out, "%s/probe_%s.out", work, name) < 0)
		return -1;
	fp = fopen(src, "w");
	if (!fp)
		return -1;
	fprintf(fp, "#include \"%s\"\n#include <stdio.h>\nint main(void)\n{\n", fixture_abs);
	for (int i = 0; i < n; i++) {
		if (strcmp(ex[i].words[0], "command") || ex[i].nwords < 3)
			continue;
		fprintf(fp, "\tprintf(\"%%llx %%llx\\n\", (unsigned long long)(unsigned int)(%s), "
			"(unsigned long long)(unsigned int)(%s));\n",
			ex[i].value_expr ? ex[i].value_expr : ex[i].words[2],
			ex[i].mask_expr ? ex[i].mask_expr : "0xffffffffu");
	}
	fprintf(fp, "\treturn 0;\n}\n");
	fclose(fp);
	if (asprintf(&cmd, "cc -O2 -w -I%s/include -o %s %s && %s > %s",
		     tree, bin, src, bin, out) < 0)
		return -1;
	if (run(cmd) != 0) {
		err = -1;
	} else {
		fp = fopen(out, "r");
		for (int i = 0; fp && i < n; i++) {
			if (strcmp(ex[i].words[0], "command") || ex[i].nwords < 3)
				continue;
			if (fscanf(fp, "%llx %llx", &ex[i].value, &ex[i].mask) != 2)
				err = -1;
		}
		if (fp)
			fclose(fp);
	}
	free(cmd);
	free(src);
	free(bin);
	free(out);
	return err;
}

static json_t *find_handler(json_t *report, const char *name, const char *kind)
{
	json_t *h;
	size_t i;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		if (strcmp(json_string_value(json_object_get(h, "name")), name))
			continue;
		if (kind && strcmp(json_string_value(json_object_get(h, "kind")), kind))
			continue;
		return h;
	}
	return NULL;
}

static json_t *find_command(json_t *h, const char *name, unsigned long long value,
			    unsigned long long mask)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(h, "commands"), i, c) {
		unsigned long long v = strtoull(json_string_value(json_object_get(c, "value")), NULL, 16);
		unsigned long long m = strtoull(json_string_value(json_object_get(c, "mask")), NULL, 16);

		if (strcmp(name, "*") && strcmp(json_string_value(json_object_get(c, "name")), name))
			continue;
		if (m == mask && v == (value & mask))
			return c;
	}
	return NULL;
}

static json_t *command_named(json_t *h, const char *name)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(h, "commands"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), name))
			return c;
	return NULL;
}

static int list_contains(json_t *arr, const char *prefix)
{
	json_t *v;
	size_t i;

	json_array_foreach(arr, i, v)
		if (!strncmp(json_string_value(v), prefix, strlen(prefix)))
			return 1;
	return 0;
}

static void check_one(struct expect *e, json_t *report, const char *fx)
{
	const char *what = e->words[0];
	json_t *h = e->nwords > 1 ? find_handler(report, e->words[1],
						   !strcmp(what, "handler") ? e->words[2] : NULL) : NULL;
	char desc[600];
	int ok = 0;

	snprintf(desc, sizeof(desc), "%.500s", e->orig);
	if (!strcmp(what, "handler")) {
		ok = h != NULL;
	} else if (!h) {
		ok = 0;
	} else if (!strcmp(what, "fops") && e->nwords == 3) {
		ok = list_contains(json_object_get(h, "fops"), e->words[2]);
	} else if (!strcmp(what, "command") && e->nwords >= 3) {
		ok = find_command(h, e->words[2], e->value, e->mask) != NULL;
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
			 " (value %#llx mask %#llx)", e->value & e->mask, e->mask);
	} else if (!strcmp(what, "ncommands") && e->nwords == 3) {
		ok = json_array_size(json_object_get(h, "commands")) == strtoul(e->words[2], NULL, 10);
	} else if (!strcmp(what, "default") && e->nwords == 3) {
		ok = !strcmp(json_string_value(json_object_get(h, "default")), e->words[2]);
	} else if (!strcmp(what, "forwarder") && e->nwords == 3) {
		json_t *f = json_object_get(h, "forwarder_of");

		ok = f && !strcmp(json_string_value(f), e->words[2]);
	} else if (!strcmp(what, "class") && e->nwords == 4) {
		json_t *c = command_named(h, e->words[2]);

		ok = c && !strcmp(json_string_value(json_object_get(c, "class")), e->words[3]);
	} else if (!strcmp(what, "capability") && e->nwords == 4) {
		json_t *c = command_named(h, e->words[2]);

		ok = c && list_contains(json_object_get(c, "capabilities"), e->words[3]);
	} else if (!strcmp(what, "at") && e->nwords == 4) {
		/* where the report places the command: FILE:LINE */
		json_t *c = command_named(h, e->words[2]);
		char at[600];

		snprintf(at, sizeof(at), "%s:%lld", c ? json_string_value(json_object_get(c, "file")) : "",
			 c ? (long long)json_integer_value(json_object_get(c, "line")) : 0LL);
		ok = c && !strcmp(at, e->words[3]);
		if (!ok)
			snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), " (at %.200s)", at);
	} else if (!strcmp(what, "user_ns") && e->nwords == 4) {
		/* the capability is asked in a user namespace the code
		 * chooses; "-": no capability is */
		json_t *c = command_named(h, e->words[2]);
		json_t *l = c ? json_object_get(c, "capabilities_in_user_ns") : NULL;

		ok = json_is_array(l) && (!strcmp(e->words[3], "-") ? !json_array_size(l) :
					  list_contains(l, e->words[3]));
	} else if (!strcmp(what, "evidence") && e->nwords == 4) {
		json_t *c = command_named(h, e->words[2]), *ev;
		size_t i;

		json_array_foreach(c ? json_object_get(c, "evidence") : NULL, i, ev)
			ok |= !strcmp(json_string_value(json_object_get(ev, "kind")), e->words[3]);
	} else if (!strcmp(what, "confidence") && e->nwords == 4) {
		json_t *c = command_named(h, e->words[2]);

		ok = c && !strcmp(json_string_value(json_object_get(c, "confidence")), e->words[3]);
	} else if (!strcmp(what, "path") && e->nwords == 4) {
		/* the functions and table entry the kernel goes through,
		 * comma-separated */
		json_t *c = command_named(h, e->words[2]), *p = c ? json_object_get(c, "path") : NULL;
		char joined[512] = "";
		size_t i;
		json_t *v;

		json_array_foreach(p, i, v) {
			if (i)
				strncat(joined, ",", sizeof(joined) - strlen(joined) - 1);
			strncat(joined, json_string_value(v), sizeof(joined) - strlen(joined) - 1);
		}
		ok = c && !strcmp(joined, e->words[3]);
		if (!ok)
			snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), " (path %.200s)", joined);
	} else if (!strcmp(what, "object") && (e->nwords == 3 || e->nwords == 4)) {
		json_t *objs = json_object_get(h, "objects"), *o = json_array_get(objs, 0);
		json_t *cfg = json_object_get(o, "config");

		if (e->nwords == 3)
			ok = !strcmp(e->words[2], "-") && json_is_null(objs);
		else
			ok = json_array_size(objs) == 1 &&
			     !strcmp(json_string_value(json_object_get(o, "module")), e->words[2]) &&
			     (json_is_null(cfg) ? !strcmp(e->words[3], "-") :
			      !strcmp(json_string_value(cfg), e->words[3]));
	} else {
		snprintf(desc, sizeof(desc), "unknown expectation '%.500s'", e->orig);
	}
	result(ok, fx, desc);
}

static void check_fixture(const char *scan, const char *tree, const char *work, const char *file)
{
	struct expect ex[64];
	char *abs, *rel, *cmd, *report_path, name[128];
	json_error_t jerr;
	json_t *report;
	int n, rc;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(file, "."), file);
	if (asprintf(&abs, "%s/drivers/%s", tree, file) < 0 ||
	    asprintf(&rel, "drivers/%s", file) < 0 ||
	    asprintf(&report_path, "%s/%s.json", work, name) < 0)
		exit(2);
	n = load_expectations(abs, ex, 64);
	if (n <= 0) {
		result(0, file, "has a check-output block");
		return;
	}
	if (probe_values(abs, tree, work, name, ex, n)) {
		result(0, file, "probe compiles and prints the expected values");
		return;
	}
	/* a fixture scans in a second or two: one that runs for minutes has
	 * found a loop (anon_member.c once never ended), a failure, not a
	 * hung test run */
	if (asprintf(&cmd, "timeout -s KILL 120 %s -q --compile-commands %s/compile_commands.json -o %s %s %s",
		     scan, work, report_path, tree, rel) < 0)
		exit(2);
	rc = run(cmd);
	result(rc == 0, file, rc == 137 ? "ioctl-scan ends within 120 s" : "ioctl-scan exits 0");
	report = json_load_file(report_path, 0, &jerr);
	if (!report) {
		result(0, file, "report is valid JSON");
	} else {
		for (int i = 0; i < n; i++)
			check_one(&ex[i], report, file);
		json_decref(report);
	}
	free(cmd);
	free(abs);
	free(rel);
	free(report_path);
}

static void write_compile_db(const char *tree, const char *work, char **files, int n)
{
	char *path;
	FILE *fp;

	if (asprintf(&path, "%s/compile_commands.json", work) < 0 || !(fp = fopen(path, "w")))
		exit(2);
	fprintf(fp, "[\n");
	for (int i = 0; i < n; i++)
		fprintf(fp, "%s{ \"directory\": \"%s\", \"file\": \"%s/%s\", "
			"\"command\": \"cc -I%s/include -c %s/%s\" }\n",
			i ? "," : "", tree, tree, files[i], tree, tree, files[i]);
	fprintf(fp, "]\n");
	fclose(fp);
	free(path);
	/* the build directory is the compile database's: its .config */
	if (asprintf(&path, "cp %s/fixtures.config %s/.config", tree, work) < 0 || run(path))
		exit(2);
	free(path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_c_files(const char *tree, const char *sub, char **out, int max)
{
	char *dir;
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (asprintf(&dir, "%s/%s", tree, sub) < 0 || !(d = opendir(dir)))
		return 0;
	while ((de = readdir(d)) && n < max) {
		size_t l = strlen(de->d_name);

		if (l > 2 && !strcmp(de->d_name + l - 2, ".c"))
			out[n++] = strdup(de->d_name);
	}
	closedir(d);
	free(dir);
	qsort(out, (size_t)n, sizeof(char *), cmp_str);
	return n;
}

int main(int argc, char **argv)
{
	char *drivers[128], *fs[128], *all[256];
	int nd, nf, na = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: check_fixtures IOCTL_SCAN TREE WORKDIR [FIXTURE.c...]\n");
		return 2;
	}
	/* the probes and the compile database need absolute paths */
	argv[2] = realpath(argv[2], NULL);
	argv[3] = realpath(argv[3], NULL);
	if (!argv[2] || !argv[3]) {
		fprintf(stderr, "check_fixtures: TREE and WORKDIR must exist\n");
		return 2;
	}
	nd = list_c_files(argv[2], "drivers", drivers, 128);
	nf = list_c_files(argv[2], "fs", fs, 128);
	for (int i = 0; i < nd; i++)
		if (asprintf(&all[na++], "drivers/%s", drivers[i]) < 0)
			return 2;
	for (int i = 0; i < nf; i++)
		if (asprintf(&all[na++], "fs/%s", fs[i]) < 0)
			return 2;
	write_compile_db(argv[2], argv[3], all, na);
	for (int i = 0; i < nd; i++) {
		int wanted = argc == 4;

		for (int j = 4; j < argc; j++)
			wanted |= !strcmp(argv[j], drivers[i]);
		if (wanted)
			check_fixture(argv[1], argv[2], argv[3], drivers[i]);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
