#define _GNU_SOURCE
#include "kbuild_config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

struct makefile {
	char *dir;
	char *text;	/* continuation lines joined; NULL if none */
};

struct kbuild_config {
	const struct kernel_tree *kt;
	strvec enabled;		/* CONFIG_ symbols set to y or m, sorted */
	VEC(struct makefile) makefiles;
};

struct kbuild_config *kbuild_config_open(const struct kernel_tree *kt)
{
	struct kbuild_config *kc = xcalloc(1, sizeof(*kc));
	char *path = path_join(kt->build_dir, ".config");
	char *text = read_file(path, NULL);

	kc->kt = kt;
	free(path);
	for (char *l = text; l && *l;) {
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = '\0';
		if (starts_with(l, "CONFIG_")) {
			char *eq = strchr(l, '=');

			if (eq && (eq[1] == 'y' || eq[1] == 'm'))
				vec_push(&kc->enabled, xstrndup(l, (size_t)(eq - l)));
		}
		l = nl ? nl + 1 : NULL;
	}
	free(text);
	strvec_sort(&kc->enabled);
	return kc;
}

static int enabled(const struct kbuild_config *kc, const char *sym, size_t n)
{
	char *s = xstrndup(sym, n);
	int found = kc->enabled.len &&
		bsearch(&s, kc->enabled.items, kc->enabled.len, sizeof(char *), strvec_cmp) != NULL;

	free(s);
	return found;
}

static const char *makefile_of(struct kbuild_config *kc, const char *dir)
{
	struct makefile m;

	for (size_t i = 0; i < kc->makefiles.len; i++)
		if (!strcmp(kc->makefiles.items[i].dir, dir))
			return kc->makefiles.items[i].text;
	m.dir = xstrdup(dir);
	{
		char *p = xasprintf("%s/%s/Makefile", kc->kt->ksrc, dir);

		m.text = read_file(p, NULL);
		free(p);
		if (!m.text) {
			p = xasprintf("%s/%s/Kbuild", kc->kt->ksrc, dir);
			m.text = read_file(p, NULL);
			free(p);
		}
	}
	for (char *p = m.text; p && (p = strstr(p, "\\\n"));)
		p[0] = p[1] = ' ';
	vec_push(&kc->makefiles, m);
	return m.text;
}

/* The last dash of an assignment's left side (up to '+=' ':=' '='), whose
 * suffix says when the right side is linked: rtc-core-$(CONFIG_RTC_INTF_DEV).
 * NULL when the left side has none. */
static const char *lhs_last_dash(const char *line)
{
	size_t lhs = strcspn(line, "+:=");
	const char *dash = NULL;

	for (size_t i = 0; i < lhs; i++)
		if (line[i] == '-')
			dash = line + i;
	return dash;
}

/* Does the assignment's left side (up to '+=' ':=' '=') enable its right
 * side? "obj-y", "obj-m", "lib-y", "foo-y", "foo-objs": yes;
 * "obj-$(CONFIG_X)" and "foo-$(CONFIG_X)": when X is set; "obj-n": no.
 * *composite receives "foo" for foo-y/foo-objs/foo-$(..). */
static int lhs_enables(const struct kbuild_config *kc, const char *line, char **composite)
{
	const char *dash = lhs_last_dash(line), *cfg;

	*composite = NULL;
	if (!dash)
		return 0;
	if (strncmp(line, "obj", 3) && strncmp(line, "lib", 3))
		*composite = xstrndup(line, (size_t)(dash - line));
	if ((cfg = strstr(dash, "$(CONFIG_")) && cfg == dash + 1) {
		const char *s = cfg + 2, *e = strchr(s, ')');

		return e && enabled(kc, s, (size_t)(e - s));
	}
	return dash[1] == 'y' || dash[1] == 'm' || !strncmp(dash + 1, "objs", 4);
}

/* The next line of a Makefile, from *pos on, that names target (foo.o or dir/)
 * as a word right of its '=': a copy, or NULL when there is none. */
static char *next_mention(const char *target, const char **pos)
{
	size_t tl = strlen(target);

	while (*pos && **pos) {
		const char *l = *pos, *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *line = xstrndup(l, len);
		char *eq = strchr(line, '=');

		*pos = nl ? nl + 1 : NULL;
		for (char *p = eq; p && (p = strstr(p, target)); p += tl) {
			char before = p[-1];
			char after = p[tl];

			if ((isspace((unsigned char)before) || before == '=') &&
			    (isspace((unsigned char)after) || after == '\0'))
				return line;
		}
		free(line);
	}
	return NULL;
}

/* 1 yes, 0 no, -1 the Makefile does not mention target (foo.o or dir/). */
static int target_enabled(struct kbuild_config *kc, const char *dir, const char *target, int depth)
{
	const char *text = makefile_of(kc, dir), *pos = text;
	int seen = 0;
	char *line;

	if (!text || depth > 4)
		return -1;
	while ((line = next_mention(target, &pos))) {
		char *composite;
		int on;

		seen = 1;
		on = lhs_enables(kc, line, &composite);
		if (on && composite) {
			char *ct = xasprintf("%s.o", composite);

			on = target_enabled(kc, dir, ct, depth + 1) != 0;
			free(ct);
		}
		free(composite);
		free(line);
		if (on)
			return 1;
	}
	return seen ? 0 : -1;
}

static int dir_built(struct kbuild_config *kc, const char *dir, int depth)
{
	char *parent, *sub;
	const char *slash = strrchr(dir, '/');
	int r;

	if (!slash || depth > 16)
		return 1;	/* top-level directories: the top Makefile's lists */
	parent = xstrndup(dir, (size_t)(slash - dir));
	sub = xasprintf("%s/", slash + 1);
	r = target_enabled(kc, parent, sub, 0);
	if (r != 0)
		r = dir_built(kc, parent, depth + 1);
	free(parent);
	free(sub);
	return r != 0;
}

int kbuild_config_builds(struct kbuild_config *kc, const char *rel)
{
	char *dir = path_dirname(rel);
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	char *obj = xasprintf("%.*s.o", (int)(strlen(base) - 2), base);
	int r = target_enabled(kc, dir, obj, 0);

	if (r != 0)
		r = dir_built(kc, dir, 0);
	free(dir);
	free(obj);
	return r != 0;
}

/* The left side of an assignment, "obj-$(CONFIG_X)" or "foo-y": *prefix
 * gets what is before the last dash ("obj", "foo"), *config the symbol
 * when the suffix is $(CONFIG_X); returns 1 for those and for the suffixes
 * y and objs, 0 for anything else (obj-m, $(subst ...), ...). Stricter than
 * lhs_enables(), which only asks whether a file is built: naming the object
 * and its option must not guess. */
static int lhs_parts(const char *line, char **prefix, char **config)
{
	size_t lhs;
	const char *dash;

	*prefix = *config = NULL;
	line += strspn(line, " \t");	/* indented inside a conditional */
	lhs = strcspn(line, "+:=");
	dash = lhs_last_dash(line);
	if (!dash)
		return 0;
	{
		size_t n = lhs - (size_t)(dash + 1 - line);
		char *suffix = xstrndup(dash + 1, n);

		suffix[strcspn(suffix, " \t")] = '\0';
		n = strlen(suffix);
		if (starts_with(suffix, "$(CONFIG_") && suffix[n - 1] == ')')
			*config = xstrndup(suffix + 2, n - 3);
		else if (strcmp(suffix, "y") && strcmp(suffix, "objs"))
			n = 0;
		free(suffix);
		if (!n)
			return 0;
	}
	*prefix = xstrndup(line, (size_t)(dash - line));
	return 1;
}

static void object_add(kbuild_objects *out, const char *target, const char *config)
{
	const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	char *module = xstrndup(base, strcspn(base, "."));

	/* KBUILD_MODNAME: the object's name with dashes made underscores */
	for (char *p = module; *p; p++)
		if (*p == '-')
			*p = '_';
	for (size_t i = 0; i < out->len; i++)
		if (!strcmp(out->items[i].module, module) &&
		    !strcmp(out->items[i].config ? out->items[i].config : "",
			    config ? config : "")) {
			free(module);
			return;
		}
	vec_push(out, ((struct kbuild_object){ module, config ? xstrdup(config) : NULL }));
}

/* The symbol that enters dir: 1 and *config = its name, or NULL when the
 * directory is entered whenever the kernel is built (obj-y up to a
 * top-level directory); 0 when the Makefiles do not say. */
static int dir_gate(struct kbuild_config *kc, const char *dir, char **config, int depth)
{
	const char *slash = strrchr(dir, '/'), *text, *pos;
	char *parent, *sub, *line;
	int r = 0;

	*config = NULL;
	if (!slash)
		return 1;	/* a top-level directory */
	if (depth > 16)
		return 0;
	parent = xstrndup(dir, (size_t)(slash - dir));
	sub = xasprintf("%s/", slash + 1);
	text = pos = makefile_of(kc, parent);
	if (text && (line = next_mention(sub, &pos))) {
		char *prefix;

		if (lhs_parts(line, &prefix, config) && !strcmp(prefix, "obj"))
			r = *config ? 1 : dir_gate(kc, parent, config, depth + 1);
		free(prefix);
		free(line);
	}
	free(parent);
	free(sub);
	return r;
}

/* The conditional a Makefile line at offset `at` of text is inside: 1
 * and *config = NULL when none; 1 and *config = X inside
 * `ifeq ($(CONFIG_X),y)` (so an obj-y there is built in exactly when X is
 * y: kernel/time's posix-clock.o under POSIX_TIMERS); 0 for anything else
 * (ifdef, ifneq, an else branch, nested conditionals), which does not say
 * how the object is linked. */
static int conditional_gate(const char *text, size_t at, char **config)
{
	int depth = 0, usable = 0;
	char *gate = NULL;

	*config = NULL;
	for (const char *l = text; l && (size_t)(l - text) < at;) {
		const char *nl = strchr(l, '\n');
		const char *t = l + strspn(l, " \t");
		size_t len = (nl ? (size_t)(nl - t) : strlen(t));

		if (starts_with(t, "ifeq") || starts_with(t, "ifneq") || starts_with(t, "ifdef") ||
		    starts_with(t, "ifndef")) {
			char *sym = NULL;
			const char *e;

			if (!depth && starts_with(t, "ifeq") &&
			    (e = strstr(t, "$(CONFIG_")) && (size_t)(e - t) < len) {
				size_t n = strcspn(e + 2, ")");
				const char *rest = e + 2 + n;

				rest += strspn(rest, ") \t,");
				if (*rest == 'y' && strspn(rest + 1, ") \t") >= 1)
					sym = xstrndup(e + 2, n);
			}
			free(gate);
			gate = sym;
			usable = depth == 0 && sym;
			depth++;
		} else if (starts_with(t, "else")) {
			usable = 0;
		} else if (starts_with(t, "endif") && depth > 0) {
			if (--depth == 0) {
				free(gate);
				gate = NULL;
				usable = 0;
			}
		}
		l = nl ? nl + 1 : NULL;
	}
	if (!depth) {
		free(gate);
		return 1;
	}
	if (!usable) {
		free(gate);
		return 0;
	}
	*config = gate;
	return 1;
}

/* Adds the objects that link target (foo.o, or sub/foo.o from a parent
 * directory) as dir's Makefile names it. */
static void objects_of(struct kbuild_config *kc, const char *dir, const char *target,
		       kbuild_objects *out, int *unsure, int depth)
{
	const char *text = makefile_of(kc, dir), *pos = text;
	char *line;

	if (!text || depth > 4) {
		*unsure = 1;
		return;
	}
	for (const char *at = pos; (line = next_mention(target, &pos)); at = pos) {
		char *prefix, *config, *cond = NULL;

		/* the line's start: next_mention() stopped just after it */
		at = pos ? pos - strlen(line) - 1 : at + strlen(at) - strlen(line);
		if (!lhs_parts(line, &prefix, &config)) {
			*unsure = 1;
		} else if (strcmp(prefix, "obj") && strcmp(prefix, "lib")) {
			/* a part of the composite object prefix.o (whose own
			 * line says how it is linked, whatever conditional
			 * this part is in) */
			char *ct = xasprintf("%s.o", prefix);
			size_t before = out->len;

			objects_of(kc, dir, ct, out, unsure, depth + 1);
			if (out->len == before)
				*unsure = 1;
			free(ct);
		} else if (config) {
			object_add(out, target, config);
		} else if (!conditional_gate(text, (size_t)(at - text), &cond)) {
			*unsure = 1;
		} else {
			char *gate;

			/* obj-y: linked in whenever its directory is entered,
			 * and, inside ifeq ($(CONFIG_X),y), when X is y */
			if (dir_gate(kc, dir, &gate, 0) && !(cond && gate))
				object_add(out, target, cond ? cond : gate);
			else
				*unsure = 1;
			free(gate);
		}
		free(prefix);
		free(config);
		free(cond);
		free(line);
	}
}

/* The .c file of rel's directory that includes rel ("pcm_compat.c" in
 * pcm_native.c): rel is compiled as part of it. NULL when there is none;
 * of two, the first by name (readdir's order is the filesystem's). */
static char *includer_of(struct kbuild_config *kc, const char *rel)
{
	char *dir = path_dirname(rel), *abs = path_join(kc->kt->ksrc, dir), *found = NULL;
	char *directive = xasprintf("#include \"%s\"", strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel);
	DIR *d = opendir(abs);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *p, *text;

		if (!ends_with(de->d_name, ".c") ||
		    (found && strcmp(de->d_name, strrchr(found, '/') + 1) >= 0))
			continue;
		p = path_join(abs, de->d_name);
		text = read_file(p, NULL);
		if (text && strstr(text, directive)) {
			free(found);
			found = xasprintf("%s/%s", dir, de->d_name);
		}
		free(text);
		free(p);
	}
	if (d)
		closedir(d);
	free(directive);
	free(abs);
	free(dir);
	return found;
}

static int kbuild_objects_of_file(struct kbuild_config *kc, const char *rel, kbuild_objects *out,
				  int depth)
{
	char *dir = path_dirname(rel);
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	char *obj = xasprintf("%.*s.o", (int)strcspn(base, "."), base);
	int unsure = 0;

	out->len = 0;
	if (!ends_with(rel, ".c")) {
		free(dir);
		free(obj);
		return -1;
	}
	objects_of(kc, dir, obj, out, &unsure, 0);
	/* a parent directory's Makefile may name the file: sub/foo.o */
	if (!out->len && !unsure && strchr(dir, '/')) {
		char *parent = path_dirname(dir);
		char *sub = xasprintf("%s/%s", strrchr(dir, '/') + 1, obj);

		objects_of(kc, parent, sub, out, &unsure, 0);
		free(parent);
		free(sub);
	}
	free(dir);
	free(obj);
	if (!out->len && !unsure && depth < 2) {
		char *includer = includer_of(kc, rel);

		if (includer) {
			int r = kbuild_objects_of_file(kc, includer, out, depth + 1);

			free(includer);
			return r;
		}
	}
	if (unsure || !out->len) {
		kbuild_objects_clear(out);
		return -1;
	}
	return 0;
}

int kbuild_config_objects(struct kbuild_config *kc, const char *rel, kbuild_objects *out)
{
	return kbuild_objects_of_file(kc, rel, out, 0);
}

void kbuild_objects_clear(kbuild_objects *v)
{
	for (size_t i = 0; i < v->len; i++) {
		free(v->items[i].module);
		free(v->items[i].config);
	}
	vec_free(v);
}

void kbuild_config_free(struct kbuild_config *kc)
{
	if (!kc)
		return;
	strvec_clear(&kc->enabled);
	for (size_t i = 0; i < kc->makefiles.len; i++) {
		free(kc->makefiles.items[i].dir);
		free(kc->makefiles.items[i].text);
	}
	vec_free(&kc->makefiles);
	free(kc);
}
