#define _GNU_SOURCE
#include "kbuild_config.h"

#include <ctype.h>
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

/* Does the assignment's left side (up to '+=' ':=' '=') enable its right
 * side? "obj-y", "obj-m", "lib-y", "foo-y", "foo-objs": yes;
 * "obj-$(CONFIG_X)" and "foo-$(CONFIG_X)": when X is set; "obj-n": no.
 * *composite receives "foo" for foo-y/foo-objs/foo-$(..). */
static int lhs_enables(const struct kbuild_config *kc, const char *line, char **composite)
{
	size_t lhs = strcspn(line, "+:=");
	const char *dash = NULL, *cfg;

	/* the last dash of the left side: rtc-core-$(CONFIG_RTC_INTF_DEV) */
	for (size_t i = 0; i < lhs; i++)
		if (line[i] == '-')
			dash = line + i;
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

/* 1 yes, 0 no, -1 the Makefile does not mention target (foo.o or dir/). */
static int target_enabled(struct kbuild_config *kc, const char *dir, const char *target, int depth)
{
	const char *text = makefile_of(kc, dir);
	size_t tl = strlen(target);
	int seen = 0;

	if (!text || depth > 4)
		return -1;
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char *line = xstrndup(l, len);
		char *eq = strchr(line, '=');

		for (char *p = eq; p && (p = strstr(p, target)); p += tl) {
			char before = p[-1];
			char after = p[tl];

			if (!(isspace((unsigned char)before) || before == '=') ||
			    !(isspace((unsigned char)after) || after == '\0'))
				continue;
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
			if (on) {
				free(line);
				return 1;
			}
			break;
		}
		free(line);
		l = nl ? nl + 1 : NULL;
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
