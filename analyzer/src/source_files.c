#define _GNU_SOURCE
#include "source_files.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEF_BUCKETS 131072

/* Top-level directories that hold no kernel code of the configuration. */
static const char *const skipped_top[] = {
	"Documentation", "tools", "samples", "scripts", "usr", "LICENSES", ".git",
};

struct def_entry {
	char *name;
	strvec files;
	struct def_entry *next;
};

struct definition_index {
	struct def_entry *bucket[DEF_BUCKETS];
};

static void def_add(struct definition_index *di, const char *name, size_t n, const char *file)
{
	unsigned h = (str_hash(name, n) % DEF_BUCKETS);
	struct def_entry *e;

	for (e = di->bucket[h]; e; e = e->next)
		if (strlen(e->name) == n && !strncmp(e->name, name, n))
			break;
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->name = xstrndup(name, n);
		e->next = di->bucket[h];
		di->bucket[h] = e;
	}
	if (!e->files.len || strcmp(e->files.items[e->files.len - 1], file))
		strvec_push(&e->files, file);
}

/* Kernel style puts a definition's name at column 0 or after the return
 * type on the same line: "static long foo_ioctl(struct file *f, ...". A
 * line that starts at column 0 and whose first '(' follows an identifier
 * not ended by ';' on that line is taken as a possible definition; a false
 * positive only costs a parse when that name is looked up. */
static void index_definitions(struct definition_index *di, const char *text, const char *file)
{
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);

		if (isalpha((unsigned char)*line) || *line == '_') {
			const char *paren = memchr(line, '(', (size_t)(end - line));

			if (paren && end[-1] != ';' && memchr(line, '=', (size_t)(paren - line)) == NULL) {
				const char *e = paren, *b;

				while (e > line && e[-1] == ' ')
					e--;
				b = e;
				while (b > line && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
					b--;
				if (e > b)
					def_add(di, b, (size_t)(e - b), file);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* Every `.name =` and `->name =` (designated initialisers and member
 * assignments): the files that may set a struct member named name. */
static void index_member_sets(struct definition_index *di, const char *text, const char *file)
{
	for (const char *p = text; (p = strpbrk(p, ".>")); ) {
		const char *name = p + 1, *end = name, *q;

		if (*p == '>' && (p == text || p[-1] != '-')) {
			p++;
			continue;
		}
		while (isalnum((unsigned char)*end) || *end == '_')
			end++;
		p = end;
		if (end == name || isdigit((unsigned char)*name))
			continue;
		for (q = end; *q == ' ' || *q == '\t'; q++)
			;
		if (*q == '=' && q[1] != '=')
			def_add(di, name, (size_t)(end - name), file);
	}
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Is word in text as an identifier of its own (after `struct` and
 * blanks, when tagged): `struct proto` but not `struct proto_ops`, nor
 * `protocol`. */
static int has_word(const char *text, const char *word, int tagged)
{
	size_t n = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		const char *q = p;

		if (ident_char(p[n]) || (p > text && ident_char(p[-1])))
			continue;
		if (!tagged)
			return 1;
		while (q > text && isspace((unsigned char)q[-1]))
			q--;
		if (q - text >= 6 && q != p && !strncmp(q - 6, "struct", 6) &&
		    (q - 6 == text || !ident_char(q[-7])))
			return 1;
	}
	return 0;
}

/* A file that may install a handler: it names the ops structure and the
 * member (or is a fixed entry's file). */
static int is_candidate(const char *text, const char *rel, const struct knowledge *kn)
{
	for (size_t i = 0; i < kn->kinds.len; i++) {
		const struct handler_kind *k = &kn->kinds.items[i];

		if (k->file && !strcmp(k->file, rel))
			return 1;
		if (k->struct_name && has_word(text, k->struct_name, 1) && has_word(text, k->field, 0))
			return 1;
	}
	return 0;
}

struct walk_state {
	struct source_files *sf;
	const struct kernel_tree *kt;
	const struct knowledge *kn;
	char skip_dir[PATH_MAX];	/* the build directory when inside the tree */
};

static void walk_dir(struct walk_state *ws, const char *rel)
{
	char *abs = rel[0] ? path_join(ws->kt->ksrc, rel) : xstrdup(ws->kt->ksrc);
	DIR *d = opendir(abs);
	struct dirent *de;
	strvec names = {0};

	if (!d) {
		free(abs);
		return;
	}
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			strvec_push(&names, de->d_name);
	closedir(d);
	/* sorted, so the scan order and everything after it is deterministic */
	strvec_sort(&names);
	for (size_t i = 0; i < names.len; i++) {
		const char *n = names.items[i];
		char *r = rel[0] ? path_join(rel, n) : xstrdup(n);
		char *a = path_join(abs, n);
		struct stat st;

		if (lstat(a, &st) == 0 && S_ISDIR(st.st_mode)) {
			int skip = !strcmp(a, ws->skip_dir);

			for (size_t k = 0; !rel[0] && k < sizeof(skipped_top) / sizeof(*skipped_top); k++)
				skip |= !strcmp(n, skipped_top[k]);
			/* other architectures, and user-mode Linux's x86 files,
			 * which only ARCH=um builds (arch/x86/um/delay.c would
			 * stand in for the real __delay) */
			if ((!strcmp(rel, "arch") && strcmp(n, "x86")) ||
			    (!strcmp(rel, "arch/x86") && !strcmp(n, "um"))) {
				ws->sf->other_arch++;
				skip = 1;
			}
			if (!skip)
				walk_dir(ws, r);
		} else if (S_ISREG(st.st_mode) && ends_with(n, ".h")) {
			/* a header may install a member's target too (a
			 * static initialiser, a macro that expands to one) */
			char *text = read_file(a, NULL);

			if (text) {
				index_member_sets(ws->sf->member_sets, text, r);
				free(text);
			}
		} else if (S_ISREG(st.st_mode) && ends_with(n, ".c")) {
			char *text = read_file(a, NULL);

			if (text) {
				strvec_push(&ws->sf->all, r);
				if (is_candidate(text, r, ws->kn))
					strvec_push(&ws->sf->candidates, r);
				index_definitions(ws->sf->defs, text, ws->sf->all.items[ws->sf->all.len - 1]);
				index_member_sets(ws->sf->member_sets, text,
						  ws->sf->all.items[ws->sf->all.len - 1]);
				free(text);
			}
		}
		free(r);
		free(a);
	}
	strvec_clear(&names);
	free(abs);
}

int source_files_scan(struct source_files *sf, const struct kernel_tree *kt,
		      const struct knowledge *kn)
{
	struct walk_state ws = { .sf = sf, .kt = kt, .kn = kn };

	memset(sf, 0, sizeof(*sf));
	sf->defs = xcalloc(1, sizeof(*sf->defs));
	sf->member_sets = xcalloc(1, sizeof(*sf->member_sets));
	if (!realpath(kt->build_dir, ws.skip_dir))
		ws.skip_dir[0] = '\0';
	walk_dir(&ws, "");
	return 0;
}

static const strvec *files_of(const struct definition_index *di, const char *name)
{
	for (struct def_entry *e = di->bucket[(str_hash(name, strlen(name)) % DEF_BUCKETS)]; e; e = e->next)
		if (!strcmp(e->name, name))
			return &e->files;
	return NULL;
}

const strvec *source_files_defining(const struct source_files *sf, const char *name)
{
	return files_of(sf->defs, name);
}

const strvec *source_files_setting_member(const struct source_files *sf, const char *member)
{
	return files_of(sf->member_sets, member);
}

static void index_free(struct definition_index *di)
{
	if (!di)
		return;
	for (size_t i = 0; i < DEF_BUCKETS; i++) {
		struct def_entry *e = di->bucket[i];

		while (e) {
			struct def_entry *n = e->next;

			free(e->name);
			strvec_clear(&e->files);
			free(e);
			e = n;
		}
	}
	free(di);
}

void source_files_free(struct source_files *sf)
{
	strvec_clear(&sf->all);
	strvec_clear(&sf->candidates);
	index_free(sf->defs);
	index_free(sf->member_sets);
}
