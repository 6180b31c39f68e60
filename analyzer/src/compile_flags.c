#define _GNU_SOURCE
#include "compile_flags.h"

#include <clang-c/CXCompilationDatabase.h>
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define BASE_CMD_FILE "arch/x86/kernel/.asm-offsets.s.cmd"

struct dir_flags {
	char *dir;
	strvec own;	/* ccflags-y of this directory */
	strvec subdir;	/* subdir-ccflags-y, inherited by subdirectories */
	int has_makefile;	/* a Makefile or Kbuild is there */
};

/* The plain variables a Makefile sets before it uses them
 * (FULL_AMD_PATH=$(srctree)/$(src)/.., NOUVEAU_PATH ?= $(srctree)):
 * names[i] = values[i], the last assignment winning. */
struct make_vars {
	strvec names, values;
};

struct flag_source {
	const struct kernel_tree *kt;
	strvec base;
	CXCompilationDatabase db;
	char *describe;
	pthread_mutex_t lock;
	VEC(struct dir_flags) dirs;	/* cache of parsed directory Makefiles */
};

/* Splits a shell-ish command line on blanks, honouring single and double
 * quotes (Kbuild quotes -DKBUILD_MODFILE='"..."'). */
static void split_words(const char *s, strvec *out)
{
	struct strbuf w = {0};
	char q = 0;

	for (;; s++) {
		if (!*s || (!q && isspace((unsigned char)*s))) {
			if (w.len)
				vec_push(out, sb_detach(&w));
			if (!*s)
				break;
			continue;
		}
		if (!q && (*s == '\'' || *s == '"')) {
			q = *s;
			continue;
		}
		if (q && *s == q) {
			q = 0;
			continue;
		}
		sb_addn(&w, s, 1);
	}
	free(w.buf);
}

static char *absolute(const struct kernel_tree *kt, const char *p, int in_obj)
{
	if (p[0] == '/')
		return xstrdup(p);
	if (starts_with(p, "./"))
		p += 2;
	return path_join(in_obj ? kt->build_dir : kt->ksrc, p);
}

static int drop_flag(const char *a)
{
	static const char *const prefixes[] = {
		"-Wp,", "-fsanitize", "-W", "-DKBUILD_", "-D__KBUILD_MODNAME",
		"-fmacro-prefix-map", "-fverbose-asm", "-pg", "-ftrivial-auto-var-init",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts_with(a, prefixes[i]))
			return 1;
	return !strcmp(a, "-S") || !strcmp(a, "-c");
}

static int load_base(struct flag_source *fs, char *err, size_t errlen)
{
	char *path = path_join(fs->kt->build_dir, BASE_CMD_FILE);
	char *text = read_file(path, NULL), *line, *nl;
	strvec words = {0};

	if (!text) {
		snprintf(err, errlen, "%s: missing; the build is not prepared: run 'make O=%s LLVM=-14 prepare'",
			 path, fs->kt->build_dir);
		free(path);
		return -1;
	}
	free(path);
	line = strstr(text, ":= ");
	if (!line) {
		snprintf(err, errlen, "%s: no recorded command", BASE_CMD_FILE);
		free(text);
		return -1;
	}
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	split_words(line + 3, &words);
	/* words[0] is the compiler, the last word the source file */
	for (size_t i = 1; i + 1 < words.len; i++) {
		const char *a = words.items[i];

		if (!strcmp(a, "-mllvm") || !strcmp(a, "--param") || !strcmp(a, "-o")) {
			i++;
		} else if (!strcmp(a, "-I") && i + 2 < words.len) {
			/* the per-directory pair "-I $(srctree)/$(src) -I $(obj)" */
			i++;
		} else if (!strcmp(a, "-include") && i + 2 < words.len) {
			vec_push(&fs->base, xstrdup("-include"));
			vec_push(&fs->base, absolute(fs->kt, words.items[++i], 0));
		} else if (starts_with(a, "-I")) {
			char *p = absolute(fs->kt, a + 2, 1);

			vec_push(&fs->base, xasprintf("-I%s", p));
			free(p);
		} else if (!drop_flag(a)) {
			strvec_push(&fs->base, a);
		}
	}
	strvec_push(&fs->base, "-w");
	strvec_push(&fs->base, "-ferror-limit=0");
	strvec_clear(&words);
	free(text);
	return 0;
}

struct flag_source *flag_source_open(const struct kernel_tree *kt, char *err,
				     size_t errlen)
{
	struct flag_source *fs = xcalloc(1, sizeof(*fs));

	fs->kt = kt;
	pthread_mutex_init(&fs->lock, NULL);
	if (kt->compile_commands) {
		CXCompilationDatabase_Error e;
		char *dir = path_dirname(kt->compile_commands);

		fs->db = clang_CompilationDatabase_fromDirectory(dir, &e);
		free(dir);
		if (e != CXCompilationDatabase_NoError || !fs->db) {
			snprintf(err, errlen, "%s: cannot be read as a compile database", kt->compile_commands);
			flag_source_free(fs);
			return NULL;
		}
		fs->describe = xasprintf("compile database %s", kt->compile_commands);
		return fs;
	}
	if (load_base(fs, err, errlen)) {
		flag_source_free(fs);
		return NULL;
	}
	fs->describe = xasprintf("Kbuild flags from %s/%s plus per-directory ccflags-y",
				 kt->build_dir, BASE_CMD_FILE);
	return fs;
}

/* Expands val into sb: $(srctree), $(objtree), $(src), $(obj) and the
 * Makefile's own plain variables. 0 when something cannot be expanded. */
static int expand_make(const struct kernel_tree *kt, const char *dir,
		       const struct make_vars *vars, const char *val, struct strbuf *sb,
		       int depth)
{
	for (const char *p = val; *p;) {
		if (starts_with(p, "$(srctree)")) {
			sb_add(sb, kt->ksrc);
			p += 10;
		} else if (starts_with(p, "$(objtree)")) {
			sb_add(sb, kt->build_dir);
			p += 10;
		} else if (starts_with(p, "$(src)") || starts_with(p, "$(obj)")) {
			sb_add(sb, dir);
			p += 6;
		} else if (starts_with(p, "$(")) {
			const char *end = strchr(p, ')');
			char *name = end ? xstrndup(p + 2, (size_t)(end - p - 2)) : NULL;
			int ok = 0;

			for (size_t i = vars->names.len; name && depth < 8 && i-- > 0;) {
				if (!strcmp(vars->names.items[i], name)) {
					ok = expand_make(kt, dir, vars, vars->values.items[i], sb,
							 depth + 1);
					break;
				}
			}
			free(name);
			if (!ok)
				return 0;
			p = end + 1;
		} else if (p[0] == '$') {
			return 0;
		} else {
			sb_addn(sb, p, 1);
			p++;
		}
	}
	return 1;
}

/* Makefile variables of the forms ccflags-y, ccflags-$(CONFIG_X),
 * subdir-ccflags-y, EXTRA_CFLAGS, CFLAGS_<file>.o: include paths and
 * defines only. $(srctree), $(objtree), $(src), $(obj) and the Makefile's
 * own plain variables are expanded; anything else unexpandable is
 * skipped. */
static void add_makefile_flag(const struct kernel_tree *kt, const char *dir,
			      const struct make_vars *vars, const char *word,
			      const char *next, strvec *out, int *used_next)
{
	const char *val = NULL;
	char opt[3] = {0};
	struct strbuf sb = {0};

	*used_next = 0;
	if ((starts_with(word, "-I") || starts_with(word, "-D")) && word[2]) {
		opt[0] = word[0];
		opt[1] = word[1];
		val = word + 2;
	} else if ((!strcmp(word, "-I") || !strcmp(word, "-D")) && next) {
		opt[0] = word[0];
		opt[1] = word[1];
		val = next;
		*used_next = 1;
	} else {
		return;
	}
	if (!expand_make(kt, dir, vars, val, &sb, 0)) {
		free(sb.buf);
		return;
	}
	if (opt[1] == 'I') {
		char *path = sb_detach(&sb);

		if (path[0] != '/') {
			char *a = path_join(kt->ksrc, path);
			char *b = path_join(kt->build_dir, path);

			vec_push(out, xasprintf("-I%s", a));
			vec_push(out, xasprintf("-I%s", b));
			free(a);
			free(b);
		} else {
			vec_push(out, xasprintf("-I%s", path));
		}
		free(path);
	} else {
		char *d = sb_detach(&sb);

		vec_push(out, xasprintf("-D%s", d));
		free(d);
	}
}

/* NAME = value, NAME := value, NAME ?= value: a plain variable. */
static void note_make_var(char *line, struct make_vars *vars)
{
	size_t n = 0;
	char *v;

	while (isalnum((unsigned char)line[n]) || line[n] == '_')
		n++;
	if (!n || isdigit((unsigned char)line[0]))
		return;
	v = line + n;
	while (*v == ' ' || *v == '\t')
		v++;
	if (*v == ':' || *v == '?')
		v++;
	if (*v != '=')
		return;
	v++;
	while (*v == ' ' || *v == '\t')
		v++;
	vec_push(&vars->names, xstrndup(line, n));
	vec_push(&vars->values, xstrndup(v, strcspn(v, " \t#")));
}

/* The directory's Kbuild file (which Kbuild reads before a Makefile), or
 * its Makefile. */
static char *read_dir_makefile(const struct kernel_tree *kt, const char *dir)
{
	static const char *const names[] = { "Kbuild", "Makefile" };
	char *text = NULL;

	for (size_t i = 0; !text && i < sizeof(names) / sizeof(*names); i++) {
		char *path = xasprintf("%s/%s/%s", kt->ksrc, dir, names[i]);

		text = read_file(path, NULL);
		free(path);
	}
	return text;
}

static void parse_dir_makefile(const struct kernel_tree *kt, struct dir_flags *df)
{
	char *text = read_dir_makefile(kt, df->dir);
	struct make_vars vars = {0};

	if (!text)
		return;
	df->has_makefile = 1;
	/* join continuation lines */
	for (char *p = text; (p = strstr(p, "\\\n")); )
		p[0] = p[1] = ' ';
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		strvec *dst = NULL;
		char *eq;

		if (nl)
			*nl = '\0';
		note_make_var(line, &vars);
		if (starts_with(line, "subdir-ccflags"))
			dst = &df->subdir;
		else if (starts_with(line, "ccflags") || starts_with(line, "EXTRA_CFLAGS"))
			dst = &df->own;
		eq = strchr(line, '=');
		if (dst && eq) {
			strvec words = {0};

			split_words(eq + 1, &words);
			for (size_t i = 0; i < words.len; i++) {
				int used = 0;

				add_makefile_flag(kt, df->dir, &vars, words.items[i],
						  i + 1 < words.len ? words.items[i + 1] : NULL,
						  dst, &used);
				i += (size_t)used;
			}
			strvec_clear(&words);
		}
		line = nl ? nl + 1 : NULL;
	}
	strvec_clear(&vars.names);
	strvec_clear(&vars.values);
	free(text);
}

static struct dir_flags *dir_flags_get(struct flag_source *fs, const char *dir)
{
	struct dir_flags df = {0};

	for (size_t i = 0; i < fs->dirs.len; i++)
		if (!strcmp(fs->dirs.items[i].dir, dir))
			return &fs->dirs.items[i];
	df.dir = xstrdup(dir);
	parse_dir_makefile(fs->kt, &df);
	vec_push(&fs->dirs, df);
	return &fs->dirs.items[fs->dirs.len - 1];
}

static void append_all(strvec *out, const strvec *in)
{
	for (size_t i = 0; i < in->len; i++)
		strvec_push(out, in->items[i]);
}

static void flags_from_db(struct flag_source *fs, const char *rel, strvec *out)
{
	char *abs = path_join(fs->kt->ksrc, rel);
	CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(fs->db, abs);
	unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;

	free(abs);
	if (n) {
		CXCompileCommand cmd = clang_CompileCommands_getCommand(cmds, 0);
		unsigned nargs = clang_CompileCommand_getNumArgs(cmd);
		CXString wd = clang_CompileCommand_getDirectory(cmd);
		const char *wds = clang_getCString(wd);

		for (unsigned i = 1; i < nargs; i++) {
			CXString s = clang_CompileCommand_getArg(cmd, i);
			const char *a = clang_getCString(s);

			if (!strcmp(a, "-o") || !strcmp(a, "-mllvm") || !strcmp(a, "--param")) {
				i++;
			} else if (ends_with(a, rel) || drop_flag(a)) {
				;
			} else if (starts_with(a, "-I") && a[2] && a[2] != '/') {
				char *p = path_join(wds, a + 2);

				vec_push(out, xasprintf("-I%s", p));
				free(p);
			} else {
				strvec_push(out, a);
			}
			clang_disposeString(s);
		}
		clang_disposeString(wd);
		strvec_push(out, "-w");
	}
	if (cmds)
		clang_CompileCommands_dispose(cmds);
}

void flags_for_file(struct flag_source *fs, const char *rel, strvec *out)
{
	char *dir = path_dirname(rel);
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	char *mod = xstrndup(base, strcspn(base, "."));

	if (fs->db) {
		flags_from_db(fs, rel, out);
		free(dir);
		free(mod);
		return;
	}
	for (char *p = mod; *p; p++)
		if (*p == '-')
			*p = '_';
	append_all(out, &fs->base);
	vec_push(out, xasprintf("-I%s/%s", fs->kt->ksrc, dir));
	vec_push(out, xasprintf("-I%s/%s", fs->kt->build_dir, dir));
	vec_push(out, xasprintf("-DKBUILD_MODFILE=\"%s/%s\"", dir, mod));
	vec_push(out, xasprintf("-DKBUILD_BASENAME=\"%s\"", mod));
	vec_push(out, xasprintf("-DKBUILD_MODNAME=\"%s\"", mod));
	vec_push(out, xasprintf("-D__KBUILD_MODNAME=kmod_%s", mod));

	pthread_mutex_lock(&fs->lock);
	/* subdir-ccflags of every ancestor, then this directory's own */
	{
		char *d = xstrdup(dir);
		strvec chain = {0};

		while (strcmp(d, ".")) {
			strvec_push(&chain, d);
			char *up = path_dirname(d);

			free(d);
			d = up;
		}
		free(d);
		struct dir_flags *own = NULL;

		for (size_t i = chain.len; i-- > 0;)
			append_all(out, &dir_flags_get(fs, chain.items[i])->subdir);
		/* a directory without a Makefile (fs/xfs/libxfs,
		 * arch/x86/kvm/mmu) is built by its parent's, whose
		 * ccflags-y apply */
		for (size_t i = 0; i < chain.len && !(own && own->has_makefile); i++)
			own = dir_flags_get(fs, chain.items[i]);
		if (own)
			append_all(out, &own->own);
		strvec_clear(&chain);
	}
	pthread_mutex_unlock(&fs->lock);
	free(dir);
	free(mod);
}

const char *flag_source_describe(const struct flag_source *fs)
{
	return fs->describe;
}

void flag_source_free(struct flag_source *fs)
{
	if (!fs)
		return;
	strvec_clear(&fs->base);
	if (fs->db)
		clang_CompilationDatabase_dispose(fs->db);
	for (size_t i = 0; i < fs->dirs.len; i++) {
		free(fs->dirs.items[i].dir);
		strvec_clear(&fs->dirs.items[i].own);
		strvec_clear(&fs->dirs.items[i].subdir);
	}
	vec_free(&fs->dirs);
	pthread_mutex_destroy(&fs->lock);
	free(fs->describe);
	free(fs);
}
