#define _GNU_SOURCE
#include "source_files.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEF_BUCKETS (1u << 20)	/* a power of two */
/* the words is_candidate looks for: ops structures' names and members */
#define WORD_SLOTS 1024		/* a power of two, well above twice their number */

/* Top-level directories that hold no kernel code of the configuration. */
static const char *const skipped_top[] = {
	"Documentation", "tools", "samples", "scripts", "usr", "LICENSES", ".git",
};

struct def_entry {
	char *name;
	size_t len;
	unsigned hash;
	strvec files;
	struct def_entry *next;
};

struct definition_index {
	struct def_entry *bucket[DEF_BUCKETS];
};

static struct def_entry *def_find(const struct definition_index *di, const char *name,
				  size_t n, unsigned hash)
{
	struct def_entry *e;

	for (e = di->bucket[hash & (DEF_BUCKETS - 1)]; e; e = e->next)
		if (e->hash == hash && e->len == n && !memcmp(e->name, name, n))
			break;
	return e;
}

static struct def_entry *def_entry_get(struct definition_index *di, const char *name, size_t n)
{
	unsigned h = str_hash(name, n);
	struct def_entry *e = def_find(di, name, n, h);

	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->name = xstrndup(name, n);
		e->len = n;
		e->hash = h;
		e->next = di->bucket[h & (DEF_BUCKETS - 1)];
		di->bucket[h & (DEF_BUCKETS - 1)] = e;
	}
	return e;
}

static void def_add(struct definition_index *di, const char *name, size_t n, const char *file)
{
	struct def_entry *e = def_entry_get(di, name, n);

	/* file is interned (source_files.h): one pointer per file */
	if (!e->files.len || e->files.items[e->files.len - 1] != file)
		vec_push(&e->files, (char *)file);
}

/* Names found in one file's text, each ended by '\0', in the order
 * found: read by a worker, added to an index in the tree's order. */
static void name_add(struct strbuf *names, const char *name, size_t n)
{
	sb_addn(names, name, n);
	sb_addn(names, "", 1);
}

static void def_add_names(struct definition_index *di, const struct strbuf *names,
			  const char *file)
{
	for (size_t i = 0; i < names->len; ) {
		size_t n = strlen(names->buf + i);

		def_add(di, names->buf + i, n, file);
		i += n + 1;
	}
}

/* The values of name: files, or names (the indexes of names). */
static const strvec *files_of(const struct definition_index *di, const char *name)
{
	size_t n = strlen(name);
	struct def_entry *e = def_find(di, name, n, str_hash(name, n));

	return e ? &e->files : NULL;
}

/* The identifier that ends just before p (blanks skipped), added. */
static void def_add_before(struct strbuf *di, const char *line, const char *p)
{
	const char *e = p, *b;

	while (e > line && e[-1] == ' ')
		e--;
	b = e;
	while (b > line && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
		b--;
	if (e > b)
		name_add(di, b, (size_t)(e - b));
}

/* Kernel style puts a definition's name at column 0 or after the return
 * type on the same line: "static long foo_ioctl(struct file *f, ...". A
 * line that starts at column 0 and whose first '(' follows an identifier
 * not ended by ';' on that line is taken as a possible definition; so is
 * an array's, "const struct drm_ioctl_desc mga_ioctls[] = {": a line with
 * no '(' whose '[' is followed by '=' (a table of command descriptors one
 * file defines and another installs). A false
 * positive only costs a parse when that name is looked up. */
static void index_definitions(struct strbuf *di, const char *text)
{
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);

		if (isalpha((unsigned char)*line) || *line == '_') {
			size_t n = (size_t)(end - line);
			const char *paren = memchr(line, '(', n);
			const char *bracket = memchr(line, '[', n);
			const char *eq = memchr(line, '=', n);

			if (paren && end[-1] != ';' && (!eq || eq > paren))
				def_add_before(di, line, paren);
			else if (!paren && bracket && eq && eq > bracket && end[-1] != ';')
				def_add_before(di, line, bracket);
		}
		line = nl ? nl + 1 : NULL;
	}
}

/* Every `.name =` and `->name =` (designated initialisers and member
 * assignments): the files that may set a struct member named name. */
static void index_member_sets(struct strbuf *di, const char *text)
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
			name_add(di, name, (size_t)(end - name));
	}
}

static unsigned char ident_chars[256];	/* set once, by source_files_scan */

static void ident_chars_init(void)
{
	for (int c = 0; c < 256; c++)
		ident_chars[c] = isalnum(c) || c == '_';
}

static int ident_char(char c)
{
	return ident_chars[(unsigned char)c];
}

/*
 * The words that make a file a candidate (is_candidate): each ops
 * structure's name and its member. A file's text is read once, identifier
 * by identifier (runs of letters, digits and '_'), noting which of these
 * words stand on their own, and which do so after `struct` and blanks:
 * `struct proto` but not `struct proto_ops`, nor `protocol`.
 */
struct candidate_words {
	const char *word[WORD_SLOTS];
	size_t len[WORD_SLOTS];
	unsigned char starts[256];	/* a word starts with this byte */
	size_t min_len, max_len;
	/* per kind: the slots of its structure's name and member, or -1 */
	int *struct_slot, *field_slot;
	/* 1: on its own; 2: after `struct`; 4: assigned through a member
	 * path (`hw->ops.ioctl = f`) */
	unsigned char seen[WORD_SLOTS];
};

static int word_slot(const struct candidate_words *cw, const char *w, size_t n)
{
	unsigned h = str_hash(w, n) & (WORD_SLOTS - 1);

	for (; cw->word[h]; h = (h + 1) & (WORD_SLOTS - 1))
		if (cw->len[h] == n && !memcmp(cw->word[h], w, n))
			return (int)h;
	return -(int)h - 1;	/* the free slot where it would go */
}

static int add_word(struct candidate_words *cw, const char *w)
{
	size_t n = strlen(w);
	int slot = word_slot(cw, w, n);

	if (slot < 0) {
		slot = -slot - 1;
		cw->word[slot] = w;
		cw->len[slot] = n;
		cw->starts[(unsigned char)*w] = 1;
		if (!cw->min_len || n < cw->min_len)
			cw->min_len = n;
		if (n > cw->max_len)
			cw->max_len = n;
	}
	return slot;
}

static void candidate_words_init(struct candidate_words *cw, const struct knowledge *kn)
{
	memset(cw, 0, sizeof(*cw));
	cw->struct_slot = xcalloc(kn->kinds.len + 1, sizeof(int));
	cw->field_slot = xcalloc(kn->kinds.len + 1, sizeof(int));
	for (size_t i = 0; i < kn->kinds.len; i++) {
		const struct handler_kind *k = &kn->kinds.items[i];

		cw->struct_slot[i] = k->struct_name ? add_word(cw, k->struct_name) : -1;
		cw->field_slot[i] = k->struct_name ? add_word(cw, k->field) : -1;
	}
}

static void candidate_words_free(struct candidate_words *cw)
{
	free(cw->struct_slot);
	free(cw->field_slot);
}

static int only_blanks(const char *p, const char *end)
{
	for (; p < end; p++)
		if (!isspace((unsigned char)*p))
			return 0;
	return 1;
}

/* Does an assignment (not a comparison) follow at a, blanks aside? */
static int assigned_at(const char *a)
{
	while (*a == ' ' || *a == '\t')
		a++;
	return a[0] == '=' && a[1] != '=';
}

/* Is the member word at w..w+n assigned through a member path, in a way
 * that need not name the structure that holds it: through an embedded
 * structure, `hw->ops.ioctl = f` or `x.ops.ioctl = f` (sound's `struct
 * snd_hwdep` embeds its `struct snd_hwdep_ops ops`), or through a
 * pointer, `p->ioctl = f`, whose type a header declares (iio's
 * `iio_dev_opaque->buffer_ioctl_handler->ioctl = iio_device_buffer_ioctl`
 * in 6.1)? */
static int assigned_through_member(const char *text, const char *w, size_t n)
{
	const char *b = w;

	if (b - text >= 2 && b[-1] == '>' && b[-2] == '-')
		return assigned_at(w + n);
	if (b == text || b[-1] != '.')
		return 0;
	b--;
	while (b > text && ident_char(b[-1]))
		b--;
	if (b == w - 1 || b == text)
		return 0;
	if (b[-1] != '.' && !(b[-1] == '>' && b - 1 > text && b[-2] == '-'))
		return 0;
	return assigned_at(w + n);
}

static void find_words(struct candidate_words *cw, const char *text)
{
	const char *prev = NULL, *prev_end = NULL;

	memset(cw->seen, 0, sizeof(cw->seen));
	for (const char *p = text; *p;) {
		const char *w = p;
		size_t n;
		int slot;

		if (!ident_char(*p)) {
			p++;
			continue;
		}
		while (ident_char(*p))
			p++;
		n = (size_t)(p - w);
		if (n >= cw->min_len && n <= cw->max_len && cw->starts[(unsigned char)*w] &&
		    (slot = word_slot(cw, w, n)) >= 0) {
			cw->seen[slot] |= 1;
			if (assigned_through_member(text, w, n))
				cw->seen[slot] |= 4;
			if (prev && prev_end - prev == 6 && !memcmp(prev, "struct", 6) &&
			    w > prev_end && only_blanks(prev_end, w))
				cw->seen[slot] |= 2;
		}
		prev = w;
		prev_end = p;
	}
}

/* A file that may install a handler: it names the ops structure and the
 * member, or assigns the member through a member path (or is a fixed
 * entry's file). */
static int is_candidate(struct candidate_words *cw, const char *text, const char *rel,
			const struct knowledge *kn)
{
	int found = 0;

	for (size_t i = 0; i < kn->kinds.len; i++)
		if (kn->kinds.items[i].file && !strcmp(kn->kinds.items[i].file, rel))
			return 1;
	find_words(cw, text);
	for (size_t i = 0; i < kn->kinds.len && !found; i++)
		found = cw->struct_slot[i] >= 0 &&
			(((cw->seen[cw->struct_slot[i]] & 2) && (cw->seen[cw->field_slot[i]] & 1)) ||
			 (cw->seen[cw->field_slot[i]] & 4));
	return found;
}

/* One .c or .h file of the tree, in the order of the walk, and what its
 * text says. */
struct tree_file {
	char *rel;
	int header;
	int read;		/* its text could be read */
	int candidate;
	struct strbuf defs, member_sets, positional;	/* names, each ended by '\0' */
	struct strbuf embeds;	/* pairs: held struct, holding struct */
	struct strbuf typed_embeds;	/* pairs: held type's name, holding struct */
	struct strbuf typedefs;	/* pairs: name, typedef name */
};

struct walk_state {
	struct source_files *sf;
	const struct kernel_tree *kt;
	const struct knowledge *kn;
	VEC(struct tree_file) files;
	char skip_dir[PATH_MAX];	/* the build directory when inside the tree */
};

/* Lists the .c and .h files under rel, sorted, so that the scan order and
 * everything after it is deterministic; their text is read later. */
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
		} else if (S_ISREG(st.st_mode) && (ends_with(n, ".h") || ends_with(n, ".c"))) {
			struct tree_file f = { .rel = r, .header = ends_with(n, ".h") };

			vec_push(&ws->files, f);
			r = NULL;
		}
		free(r);
		free(a);
	}
	strvec_clear(&names);
	free(abs);
}

/* Reads the listed files' text, shared out among workers: a file is the
 * same work whichever worker reads it, and the indexes are filled in the
 * walk's order afterwards. */
/* The identifier ending at e (exclusive) after blanks are skipped
 * backwards from e: its start in *b, or NULL. */
static const char *ident_before(const char *text, const char *e, const char **b)
{
	while (e > text && isspace((unsigned char)e[-1]))
		e--;
	*b = e;
	while (*b > text && (isalnum((unsigned char)(*b)[-1]) || (*b)[-1] == '_'))
		(*b)--;
	return *b < e ? e : NULL;
}

static int word_is(const char *b, const char *e, const char *w)
{
	return e && (size_t)(e - b) == strlen(w) && !memcmp(b, w, (size_t)(e - b));
}

/* What a `{` at p opens: the struct's name for `struct NAME {`, the
 * enclosing struct's (outer) for an anonymous `struct {` or `union {`
 * (its members are the enclosing struct's), else "" (a function body,
 * an initialiser, a named union). */
static const char *brace_owner(const char *text, const char *p, const char *outer,
			       size_t *len)
{
	const char *b1, *e1 = ident_before(text, p, &b1), *b2, *e2;

	*len = 0;
	if (!e1)
		return "";
	if (word_is(b1, e1, "struct") || word_is(b1, e1, "union")) {
		*len = strlen(outer);
		return outer;
	}
	e2 = ident_before(text, b1, &b2);
	if (!word_is(b2, e2, "struct"))
		return "";
	*len = (size_t)(e1 - b1);
	return b1;
}

/* Past a comment, a string or a character literal, or a preprocessor
 * line (with its continuations) starting at p; p itself otherwise. */
static const char *skip_noise(const char *text, const char *p)
{
	if (p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");

		return e ? e + 2 : p + strlen(p);
	}
	if ((p[0] == '/' && p[1] == '/') || (p[0] == '#' && (p == text || p[-1] == '\n'))) {
		while (*p && !(*p == '\n' && p[-1] != '\\'))
			p++;
		return p;
	}
	if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (*p && *p != q && *p != '\n')
			p += p[0] == '\\' && p[1] ? 2 : 1;
		return *p ? p + 1 : p;
	}
	return p;
}

/* Blanks, line continuations, comments and preprocessor lines. */
static const char *skip_blanks(const char *text, const char *p)
{
	for (;;) {
		const char *q;

		while (isspace((unsigned char)*p) || (p[0] == '\\' && p[1] == '\n'))
			p++;
		if (*p == '#') {	/* a directive, indented or not */
			while (*p && !(*p == '\n' && p[-1] != '\\'))
				p++;
			continue;
		}
		q = skip_noise(text, p);
		if (q == p || *p == '"' || *p == '\'')
			return p;
		p = q;
	}
}

static const char *skip_ident(const char *p)
{
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return p;
}

/* Back from e over blanks and comments. */
static const char *back_blanks(const char *text, const char *e)
{
	for (;;) {
		while (e > text && isspace((unsigned char)e[-1]))
			e--;
		if (e - text < 4 || e[-1] != '/' || e[-2] != '*')
			return e;
		for (e -= 2; e > text && !(e[0] == '/' && e[1] == '*'); e--)
			;
	}
}

/* Back from e, just past a close character, to its opening one; NULL if
 * the text has none. */
static const char *back_balanced(const char *text, const char *e, char open, char close)
{
	int depth = 0;

	while (e > text) {
		char c = *--e;

		if (c == close)
			depth++;
		else if (c == open && --depth == 0)
			return e;
	}
	return NULL;
}

/* Is the word at b..b+n one of list (NULL-ended)? */
static int word_among(const char *b, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (word_is(b, b + n, *list))
			return 1;
	return 0;
}

static int declaration_keyword(const char *b, size_t n)
{
	static const char *const kw[] = {
		"static", "const", "struct", "union", "extern", "volatile", "typedef", "return",
		NULL,
	};

	return word_among(b, n, kw);
}

static void add_words(struct strbuf *out, const char *b, const char *e)
{
	while (b < e) {
		const char *w;

		while (b < e && !ident_char(*b))
			b++;
		for (w = b; b < e && ident_char(*b); b++)
			;
		if (b > w && !isdigit((unsigned char)*w) && !declaration_keyword(w, (size_t)(b - w)))
			name_add(out, w, (size_t)(b - w));
	}
}

/* The words of the declaration whose initialiser's '=' ends at e,
 * read backwards to where the declaration starts: `static const struct
 * foo bar[] __initdata = {` gives foo, bar and __initdata; a struct
 * defined in the declaration (`struct h { ... } t[] = {`) is passed
 * over to its name, and the words inside parentheses are kept
 * (`DEFINE_PER_CPU(struct foo, bar) = {`). Which word is the type is not
 * told: the others cost an index entry no struct's name looks up. A
 * member's designator (`.base = {`) is no declaration. */
static void add_declaration_words(struct strbuf *out, const char *text, const char *e)
{
	size_t start = out->len;

	for (int parts = 0; parts < 32; parts++) {
		const char *b;

		e = back_blanks(text, e);
		if (e == text)
			return;
		if (e[-1] == ']') {
			e = back_balanced(text, e, '[', ']');
		} else if (e[-1] == '}') {
			/* a struct's body, or the end of what came before */
			const char *o = back_balanced(text, e, '{', '}');
			size_t n;

			if (!o || !*brace_owner(text, o, "-", &n))
				return;
			e = o;
		} else if (e[-1] == ')') {
			b = back_balanced(text, e, '(', ')');
			if (b)
				add_words(out, b, e);
			e = b;
		} else if (ident_char(e[-1])) {
			for (b = e; b > text && ident_char(b[-1]); b--)
				;
			add_words(out, b, e);
			e = b;
		} else {
			if (e[-1] == '.' || (e[-1] == '>' && e - text > 1 && e[-2] == '-'))
				out->len = start;	/* `.base = {`, `->x = {` */
			return;
		}
		if (!e)
			return;
	}
}

/* Is the '{' at p a compound literal's, `(struct foo){ f }` (the type's
 * words between parentheses, and no function or statement word before
 * them)? Its '(' in *open. */
static int compound_literal(const char *text, const char *p, const char **open)
{
	const char *e = back_blanks(text, p), *b;

	if (e == text || e[-1] != ')' || !(*open = back_balanced(text, e, '(', ')')))
		return 0;
	for (const char *q = *open + 1; q < e - 1; q++)
		if (!ident_char(*q) && !isspace((unsigned char)*q) && *q != '*')
			return 0;
	e = back_blanks(text, *open);
	for (b = e; b > text && ident_char(b[-1]); b--)
		;
	return b == e || (e - b == 6 && !memcmp(b, "return", 6));
}

/* Past the '{' at p: does the initialiser's first element go by
 * position (`{ pz_reset_real }`), in an array's first element too
 * (`{ { CMD, fn }, ... }`, `{ [CMD] = { fn }, ... }`)? */
static int first_element_positional(const char *text, const char *p)
{
	const char *q = skip_blanks(text, p + 1);

	if (*q == '[') {
		while (*q && *q != ']')
			q++;
		q = skip_blanks(text, *q ? q + 1 : q);
		if (*q != '=')
			return 0;
		q = skip_blanks(text, q + 1);
		if (*q != '{')
			return 0;
		q = skip_blanks(text, q + 1);
	} else if (*q == '{') {
		q = skip_blanks(text, q + 1);
	}
	return *q && *q != '.' && *q != '[' && *q != '}';
}

/* Every initialiser whose first element is not designated (`x = {
 * pz_reset_real }`, `(struct foo){ f }`): the words of what it
 * initialises (add_declaration_words), among them the name of a struct
 * or of a typedef whose members it may set by position, which no
 * `.member =` shows. */
static void index_positional_inits(struct strbuf *out, const char *text)
{
	for (const char *p = text; (p = strchr(p, '{')); p++) {
		const char *e = back_blanks(text, p), *open;

		if (!first_element_positional(text, p))
			continue;
		if (e - text >= 2 && e[-1] == '=' && !strchr("=!<>+-*/%&|^", e[-2]))
			add_declaration_words(out, text, e - 1);
		else if (compound_literal(text, p, &open))
			add_words(out, open, p);
	}
}

/* Every typedef of a struct or union (`typedef struct td_ops { ... }
 * td_ops_t, *td_ops_p;`, anonymous or not) and of another name
 * (`typedef td_ops_t td2_t;`): the pairs name, alias. An anonymous
 * struct's pairs have the name "". */
static void index_typedefs(struct strbuf *out, const char *text)
{
	for (const char *p = text; (p = strstr(p, "typedef")); ) {
		const char *b = p + 7, *e, *name = "";
		size_t name_len = 0;
		int record = 0;

		if ((p > text && ident_char(p[-1])) || !isspace((unsigned char)*b)) {
			p = b;
			continue;
		}
		b = skip_blanks(text, b);
		e = skip_ident(b);
		p = e;
		if (word_is(b, e, "struct") || word_is(b, e, "union")) {
			record = 1;
			b = skip_blanks(text, e);
			e = skip_ident(b);
			name = b;
			name_len = (size_t)(e - b);
			e = skip_blanks(text, e);
			if (*e == '{') {
				int depth = 0;

				for (; *e; ) {
					const char *q = skip_noise(text, e);

					if (q != e) {
						e = q;
						continue;
					}
					if (*e == '{')
						depth++;
					else if (*e == '}' && --depth == 0)
						break;
					e++;
				}
				if (*e)
					e++;
			}
		} else if (e > b) {	/* `typedef NAME ALIAS;` */
			name = b;
			name_len = (size_t)(e - b);
		} else {
			continue;
		}
		/* the aliases: `ALIAS;`, `ALIAS, *ALIAS_P;` */
		for (;;) {
			const char *a, *a_end;

			e = skip_blanks(text, e);
			while (*e == '*')
				e = skip_blanks(text, e + 1);
			a = e;
			a_end = skip_ident(a);
			if (a_end == a)
				break;
			e = skip_blanks(text, a_end);
			if (!record && *e != ';')
				break;
			name_add(out, name, name_len);
			name_add(out, a, (size_t)(a_end - a));
			if (*e != ',')
				break;
			e++;
		}
		p = e;
	}
}

/* The member declared by value at p, `struct A name;` (or `name[...]`,
 * `name, ...`) or `T name;`: A's (T's) extent in *a, *ae, and whether
 * it was `struct`. Returns the end of what was read, p if nothing. */
static const char *member_by_value(const char *p, const char **a, const char **ae, int *by_struct)
{
	const char *m, *me, *e = skip_ident(p);

	*by_struct = word_is(p, e, "struct");
	*a = p;
	if (*by_struct)
		for (*a = e; isspace((unsigned char)**a); (*a)++)
			;
	*ae = skip_ident(*a);
	for (m = *ae; isspace((unsigned char)*m); m++)
		;
	me = skip_ident(m);
	if (*ae == *a || me == m) {
		e = *by_struct ? *ae : e;
		*ae = *a;
		return e;
	}
	e = *by_struct ? me : *ae;	/* `const T name;`: T is read next */
	while (isspace((unsigned char)*me))
		me++;
	if (*me != ';' && *me != '[' && *me != ',')
		*ae = *a;
	return e;
}

/* A type no typedef can name: C's own. */
static int basic_type(const char *w, size_t n)
{
	static const char *const basic[] = {
		"int", "char", "long", "short", "unsigned", "signed", "void", "float", "double",
		"_Bool", "const", "volatile", NULL,
	};

	return word_among(w, n, basic);
}

/* Every member declared by value in the body of `struct E { ... }`: the
 * pairs A, E for `struct A name;` into out, and T, E for `T name;` into
 * typed (T may be a typedef of a struct: index_typedefs). A struct or
 * union without a name outside any other (`static struct { struct A a;
 * } x;`, `typedef struct { ... } t;`) is E = SOURCE_FILES_ANONYMOUS. */
static void index_embeddings(struct strbuf *out, struct strbuf *typed, const char *text)
{
	enum { DEPTH = 32 };
	const char *owner[DEPTH];
	size_t owner_len[DEPTH];
	int depth = 0;

	for (const char *p = text; *p;) {
		const char *q = skip_noise(text, p), *a, *ae;
		int by_struct;

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '{') {
			size_t n;
			const char *o = brace_owner(text, p, depth > 0 && depth <= DEPTH ?
						    owner[depth - 1] : SOURCE_FILES_ANONYMOUS, &n);

			if (depth < DEPTH) {
				owner[depth] = o;
				owner_len[depth] = n;
			}
			depth++;
			p++;
			continue;
		}
		if (*p == '}') {
			if (depth > 0)
				depth--;
			p++;
			continue;
		}
		if (depth == 0 || depth > DEPTH || !owner_len[depth - 1] || !ident_char(*p) ||
		    (p > text && ident_char(p[-1]))) {
			p++;
			continue;
		}
		q = member_by_value(p, &a, &ae, &by_struct);
		if (ae > a && (by_struct || !basic_type(a, (size_t)(ae - a)))) {
			name_add(by_struct ? out : typed, a, (size_t)(ae - a));
			name_add(by_struct ? out : typed, owner[depth - 1], owner_len[depth - 1]);
		}
		p = q > p ? q : p + 1;
	}
}

struct text_pool {
	struct walk_state *ws;
	const struct candidate_words *words;
	atomic_size_t next;
};

static void read_tree_file(struct text_pool *p, struct candidate_words *words, struct tree_file *f,
			   char **text, size_t *cap)
{
	char *a = path_join(p->ws->kt->ksrc, f->rel);

	f->read = read_file_into(a, text, cap) >= 0;
	free(a);
	if (!f->read)
		return;
	/* a header may install a member's target too (a static
	 * initialiser, a macro that expands to one) */
	if (!f->header) {
		f->candidate = is_candidate(words, *text, f->rel, p->ws->kn);
		index_definitions(&f->defs, *text);
	}
	index_member_sets(&f->member_sets, *text);
	index_positional_inits(&f->positional, *text);
	index_embeddings(&f->embeds, &f->typed_embeds, *text);
	index_typedefs(&f->typedefs, *text);
}

static void *text_worker(void *arg)
{
	struct text_pool *p = arg;
	struct candidate_words words = *p->words;	/* its own seen[] */
	char *text = NULL;
	size_t cap = 0;

	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);

		if (i >= p->ws->files.len)
			break;
		read_tree_file(p, &words, &p->ws->files.items[i], &text, &cap);
	}
	free(text);
	return NULL;
}

static void read_tree_files(struct walk_state *ws, const struct candidate_words *words, int jobs)
{
	struct text_pool p = { .ws = ws, .words = words };
	pthread_t *threads = xcalloc((size_t)(jobs > 1 ? jobs : 1), sizeof(*threads));
	int started = 0;

	atomic_init(&p.next, 0);
	for (int i = 0; i < jobs; i++)
		if (pthread_create(&threads[i], NULL, text_worker, &p) == 0)
			started++;
	if (!started)
		text_worker(&p);
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
}

/* Calls fn for each pair of a list of pairs (names, each ended by '\0'). */
static void for_each_pair(const struct strbuf *pairs, void (*fn)(struct source_files *sf,
								  const char *a, const char *b,
								  const char *file),
			  struct source_files *sf, const char *file)
{
	for (size_t i = 0; i < pairs->len; ) {
		const char *a = pairs->buf + i, *b = a + strlen(a) + 1;

		fn(sf, a, b, file);
		i = (size_t)(b - pairs->buf) + strlen(b) + 1;
	}
}

/* The one copy of a name the tree keeps: the indexes of names point at
 * it. */
static const char *interned(struct source_files *sf, const char *name)
{
	return def_entry_get(sf->names, name, strlen(name))->name;
}

static void add_typedef(struct source_files *sf, const char *name, const char *alias,
			const char *file)
{
	(void)file;
	if (!*name)	/* an anonymous struct's: index_embeddings' */
		return;
	def_add(sf->aliases, name, strlen(name), interned(sf, alias));
	def_add(sf->aliased, alias, strlen(alias), interned(sf, name));
}

/* Calls add(sf, N, ...) for each name N a typedef name word stands for,
 * through typedefs of typedefs. */
static void for_each_aliased(struct source_files *sf, const char *word, int depth,
			     void (*add)(struct source_files *sf, const char *name, const char *b,
					 const char *file),
			     const char *b, const char *file)
{
	enum { TYPEDEF_CHAIN = 4 };
	const strvec *names = files_of(sf->aliased, word);

	for (size_t i = 0; names && i < names->len && depth < TYPEDEF_CHAIN; i++) {
		add(sf, names->items[i], b, file);
		for_each_aliased(sf, names->items[i], depth + 1, add, b, file);
	}
}

static void add_embedding(struct source_files *sf, const char *held, const char *holder,
			  const char *file)
{
	(void)file;
	def_add(sf->embedders, held, strlen(held), interned(sf, holder));
}

static void add_positional(struct source_files *sf, const char *name, const char *unused,
			   const char *file)
{
	(void)unused;
	def_add(sf->positional, name, strlen(name), file);
}

/* A word of a positional initialiser's declaration, and the names it
 * stands for if it is a typedef's. */
static void add_positional_words(struct source_files *sf, const struct strbuf *words,
				 const char *file)
{
	for (size_t i = 0; i < words->len; ) {
		const char *w = words->buf + i;

		add_positional(sf, w, NULL, file);
		for_each_aliased(sf, w, 0, add_positional, NULL, file);
		i += strlen(w) + 1;
	}
}

int source_files_scan(struct source_files *sf, const struct kernel_tree *kt,
		      const struct knowledge *kn, int jobs)
{
	struct walk_state ws = { .sf = sf, .kt = kt, .kn = kn };
	struct candidate_words words;

	memset(sf, 0, sizeof(*sf));
	sf->defs = xcalloc(1, sizeof(*sf->defs));
	sf->member_sets = xcalloc(1, sizeof(*sf->member_sets));
	sf->positional = xcalloc(1, sizeof(*sf->positional));
	sf->embedders = xcalloc(1, sizeof(*sf->embedders));
	sf->aliases = xcalloc(1, sizeof(*sf->aliases));
	sf->aliased = xcalloc(1, sizeof(*sf->aliased));
	sf->names = xcalloc(1, sizeof(*sf->names));
	if (!realpath(kt->build_dir, ws.skip_dir))
		ws.skip_dir[0] = '\0';
	ident_chars_init();
	candidate_words_init(&words, kn);
	walk_dir(&ws, "");
	read_tree_files(&ws, &words, jobs);
	candidate_words_free(&words);
	/* the typedefs first: the other indexes see through them */
	for (size_t i = 0; i < ws.files.len; i++)
		for_each_pair(&ws.files.items[i].typedefs, add_typedef, sf, NULL);
	for (size_t i = 0; i < ws.files.len; i++) {
		struct tree_file *f = &ws.files.items[i];
		strvec *list = f->header ? &sf->headers : &sf->all;

		if (f->read) {
			const char *file;

			vec_push(list, f->rel);
			file = list->items[list->len - 1];
			if (f->candidate)
				strvec_push(&sf->candidates, file);
			def_add_names(sf->defs, &f->defs, file);
			def_add_names(sf->member_sets, &f->member_sets, file);
			add_positional_words(sf, &f->positional, file);
			for_each_pair(&f->embeds, add_embedding, sf, file);
			for_each_pair(&f->typed_embeds, add_embedding, sf, file);
		} else {
			free(f->rel);
		}
		free(f->defs.buf);
		free(f->member_sets.buf);
		free(f->positional.buf);
		free(f->embeds.buf);
		free(f->typed_embeds.buf);
		free(f->typedefs.buf);
	}
	vec_free(&ws.files);
	return 0;
}

const strvec *source_files_defining(const struct source_files *sf, const char *name)
{
	return files_of(sf->defs, name);
}

const strvec *source_files_setting_member(const struct source_files *sf, const char *member)
{
	return files_of(sf->member_sets, member);
}

const strvec *source_files_initialising_by_position(const struct source_files *sf,
						    const char *sname)
{
	return sf->positional ? files_of(sf->positional, sname) : NULL;
}

const strvec *source_files_embedding(const struct source_files *sf, const char *sname)
{
	return sf->embedders ? files_of(sf->embedders, sname) : NULL;
}

const strvec *source_files_typedef_names(const struct source_files *sf, const char *name)
{
	return sf->aliases ? files_of(sf->aliases, name) : NULL;
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
			vec_free(&e->files);	/* the names are sf->all's, sf->headers' */
			free(e);
			e = n;
		}
	}
	free(di);
}

void source_files_free(struct source_files *sf)
{
	index_free(sf->defs);
	index_free(sf->member_sets);
	index_free(sf->positional);
	index_free(sf->embedders);
	index_free(sf->aliases);
	index_free(sf->aliased);
	index_free(sf->names);
	strvec_clear(&sf->all);
	strvec_clear(&sf->headers);
	strvec_clear(&sf->candidates);
}
