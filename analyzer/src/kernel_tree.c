#define _GNU_SOURCE
#include "kernel_tree.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int makefile_var(const char *mk, const char *var, char *out, size_t outlen)
{
	size_t lv = strlen(var);

	for (const char *p = mk; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, var, lv) && (p[lv] == ' ' || p[lv] == '=')) {
			const char *v = strchr(p, '=');
			size_t n = 0;

			if (!v)
				return -1;
			v++;
			while (*v == ' ')
				v++;
			while (v[n] && v[n] != '\n' && n + 1 < outlen)
				n++;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
	}
	return -1;
}

static int count_config(const char *dotconfig)
{
	char *text = read_file(dotconfig, NULL);
	int n = 0;

	if (!text)
		return -1;
	for (char *p = text; (p = strstr(p, "\nCONFIG_")); p++) {
		char *eq = strchr(p + 1, '=');
		char *nl = strchr(p + 1, '\n');

		if (eq && (!nl || eq < nl) && (eq[1] == 'y' || eq[1] == 'm'))
			n++;
	}
	free(text);
	return n;
}

int kernel_tree_open(struct kernel_tree *kt, const char *ksrc,
		     const char *build_dir, char *err, size_t errlen)
{
	char abs[PATH_MAX], ver[64], patch[64], sub[64], extra[64];
	char *mk_path, *mk, *p;

	memset(kt, 0, sizeof(*kt));
	if (!realpath(ksrc, abs) || !path_is_dir(abs)) {
		snprintf(err, errlen, "%s: no such directory; pass the top of a kernel source tree", ksrc);
		return -1;
	}
	kt->ksrc = xstrdup(abs);
	mk_path = path_join(abs, "Makefile");
	mk = read_file(mk_path, NULL);
	free(mk_path);
	p = path_join(abs, "include/linux/fs.h");
	if (!mk || makefile_var(mk, "VERSION", ver, sizeof(ver)) ||
	    makefile_var(mk, "PATCHLEVEL", patch, sizeof(patch)) || !path_is_file(p)) {
		snprintf(err, errlen, "%s: not a kernel source tree (no top Makefile with VERSION, or no include/linux/fs.h)", ksrc);
		free(mk);
		free(p);
		return -1;
	}
	free(p);
	if (makefile_var(mk, "SUBLEVEL", sub, sizeof(sub)))
		strcpy(sub, "0");
	if (makefile_var(mk, "EXTRAVERSION", extra, sizeof(extra)))
		extra[0] = '\0';
	free(mk);
	kt->release = xasprintf("%s.%s.%s%s", ver, patch, sub, extra);

	if (build_dir && ends_with(build_dir, ".json")) {
		if (!realpath(build_dir, abs) || !path_is_file(abs)) {
			snprintf(err, errlen, "%s: compile database not found", build_dir);
			return -1;
		}
		kt->compile_commands = xstrdup(abs);
		kt->build_dir = path_dirname(abs);
	} else {
		const char *bd = build_dir ? build_dir : ksrc;
		char *autoconf;

		if (!realpath(bd, abs) || !path_is_dir(abs)) {
			snprintf(err, errlen, "%s: build directory not found; run 'make O=DIR allmodconfig prepare' in the tree", bd);
			return -1;
		}
		kt->build_dir = xstrdup(abs);
		p = path_join(abs, "compile_commands.json");
		if (path_is_file(p))
			kt->compile_commands = p;
		else
			free(p);
		autoconf = path_join(abs, "include/generated/autoconf.h");
		if (!kt->compile_commands && !path_is_file(autoconf)) {
			snprintf(err, errlen, "%s: tree not prepared (no include/generated/autoconf.h); run 'make O=%s LLVM=-14 allmodconfig prepare' or pass --build-dir", bd, bd);
			free(autoconf);
			return -1;
		}
		free(autoconf);
	}
	p = path_join(kt->build_dir, ".config");
	kt->config_options = count_config(p);
	free(p);
	return 0;
}

void kernel_tree_free(struct kernel_tree *kt)
{
	free(kt->ksrc);
	free(kt->build_dir);
	free(kt->compile_commands);
	free(kt->release);
}
