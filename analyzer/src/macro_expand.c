#include "macro_expand.h"
#include "cursor_util.h"
#include "file_location.h"

#include <stdlib.h>
#include <string.h>

#define MT_BUCKETS 16384
#define MAX_DEPTH 32
#define MAX_TOKENS 8192

struct macro_def {
	char *name;
	CXCursor cursor;
	int loaded, function_like, variadic;
	strvec params;
	strvec body;
	struct macro_def *next;
};

struct expansion_range {
	unsigned start, end;	/* file offsets in the main file */
};

/* The expansion of the macro invocation written at (file, offset): every
 * operator inside one invocation asks for the same expansion. */
struct expansion_memo {
	CXFile file;
	unsigned offset;
	int err;
	strvec toks;
	struct expansion_memo *next;
};

#define MEMO_BUCKETS 1024

struct macro_table {
	CXTranslationUnit tu;
	CXFile main_file;
	VEC(struct expansion_range) expansions;
	struct macro_def *bucket[MT_BUCKETS];
	struct expansion_memo *memo[MEMO_BUCKETS];
};

static enum CXChildVisitResult index_macro(CXCursor c, CXCursor parent, CXClientData d)
{
	struct macro_table *mt = d;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_MacroDefinition) {
		struct macro_def *m = xcalloc(1, sizeof(*m));
		unsigned h;

		m->name = cxstr(clang_getCursorSpelling(c));
		m->cursor = c;
		h = (str_hash(m->name, strlen(m->name)) % MT_BUCKETS);
		/* the last definition wins, as after a #undef/#define */
		m->next = mt->bucket[h];
		mt->bucket[h] = m;
	} else if (k == CXCursor_MacroExpansion &&
		   clang_Location_isFromMainFile(clang_getCursorLocation(c))) {
		CXSourceRange r = clang_getCursorExtent(c);
		struct expansion_range e;

		clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &e.start);
		clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e.end);
		vec_push(&mt->expansions, e);
	}
	return CXChildVisit_Continue;
}

static int cmp_range(const void *a, const void *b)
{
	const struct expansion_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

struct macro_table *macro_table_new(CXTranslationUnit tu)
{
	struct macro_table *mt = xcalloc(1, sizeof(*mt));

	CXString path = clang_getTranslationUnitSpelling(tu);

	mt->tu = tu;
	mt->main_file = clang_getFile(tu, clang_getCString(path));
	clang_disposeString(path);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), index_macro, mt);
	vec_sort(&mt->expansions, cmp_range);
	return mt;
}

int macro_is_expansion(const struct macro_table *mt, CXCursor c)
{
	unsigned off;
	size_t lo = 0, hi = mt->expansions.len;

	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &off);
	/* the last expansion starting at or before off */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (mt->expansions.items[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && off < mt->expansions.items[lo - 1].end;
}

int macro_may_expand(const struct macro_table *mt, CXCursor c)
{
	CXFile f;

	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	if (f && mt->main_file && !clang_File_isEqual(f, mt->main_file))
		return 1;
	return macro_is_expansion(mt, c);
}

/* Reads "NAME(params) body" from the definition's tokens. */
static void load_macro(struct macro_table *mt, struct macro_def *m)
{
	CXToken *toks = NULL;
	unsigned n = 0, i = 1;
	unsigned name_end = 0;

	m->loaded = 1;
	clang_tokenize(mt->tu, clang_getCursorExtent(m->cursor), &toks, &n);
	if (n == 0)
		return;
	if (n > 1) {
		CXSourceRange r0 = clang_getTokenExtent(mt->tu, toks[0]);
		CXSourceRange r1 = clang_getTokenExtent(mt->tu, toks[1]);
		unsigned o1;
		char *s1 = cxstr(clang_getTokenSpelling(mt->tu, toks[1]));

		clang_getExpansionLocation(clang_getRangeEnd(r0), NULL, NULL, NULL, &name_end);
		clang_getExpansionLocation(clang_getRangeStart(r1), NULL, NULL, NULL, &o1);
		/* function-like only when '(' touches the name */
		if (!strcmp(s1, "(") && o1 == name_end) {
			m->function_like = 1;
			for (i = 2; i < n; i++) {
				char *s = cxstr(clang_getTokenSpelling(mt->tu, toks[i]));

				if (!strcmp(s, ")")) {
					free(s);
					i++;
					break;
				}
				if (!strcmp(s, "...")) {
					m->variadic = 1;
					strvec_push(&m->params, "__VA_ARGS__");
				} else if (strcmp(s, ",")) {
					strvec_push(&m->params, s);
				}
				free(s);
			}
		}
		free(s1);
	}
	for (; i < n; i++)
		vec_push(&m->body, cxstr(clang_getTokenSpelling(mt->tu, toks[i])));
	clang_disposeTokens(mt->tu, toks, n);
}

static struct macro_def *lookup(struct macro_table *mt, const char *name)
{
	for (struct macro_def *m = mt->bucket[(str_hash(name, strlen(name)) % MT_BUCKETS)]; m; m = m->next) {
		if (!strcmp(m->name, name)) {
			if (!m->loaded)
				load_macro(mt, m);
			return m;
		}
	}
	return NULL;
}

typedef VEC(strvec) arg_list;

static int is_ident(const char *s)
{
	return (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_';
}

const char *macro_body_callee(struct macro_table *mt, const char *name)
{
	struct macro_def *m = lookup(mt, name);
	size_t depth = 0;

	if (!m || !m->function_like || m->body.len < 3 || !is_ident(m->body.items[0]) ||
	    strcmp(m->body.items[1], "("))
		return NULL;
	for (size_t i = 1; i < m->body.len; i++) {
		if (!strcmp(m->body.items[i], "("))
			depth++;
		else if (!strcmp(m->body.items[i], ")") && !--depth)
			return i == m->body.len - 1 ? m->body.items[0] : NULL;
	}
	return NULL;
}

static char *designated_paste(struct macro_table *mt, const char *name, const strvec *args,
			      const char *field, int depth);

/* The identifier tokens of m's body from *i up to the next "," or `end`,
 * pasted together with ## and with the invocation's arguments put in for
 * the parameters (ETNA_IOCTL's `ETNAVIV_##n`: ETNAVIV_GET_PARAM); NULL
 * for any other form, or a parameter the invocation gives no argument.
 * *i ends on the token that ended it. */
static char *paste_tokens(const struct macro_def *m, const strvec *args, size_t *i,
			  const char *end)
{
	struct strbuf sb = {0};
	int paste = 1;

	for (; *i < m->body.len && strcmp(m->body.items[*i], ",") &&
	       strcmp(m->body.items[*i], end); (*i)++) {
		const char *t = m->body.items[*i];
		size_t p;

		if (!strcmp(t, "##")) {
			paste = 1;
			continue;
		}
		if (!paste || !is_ident(t))
			goto fail;
		for (p = 0; p < m->params.len && strcmp(m->params.items[p], t); p++)
			;
		if (p < m->params.len && p >= args->len)
			goto fail;
		sb_add(&sb, p < m->params.len ? args->items[p] : t);
		paste = 0;
	}
	if (sb.buf && sb.buf[0])
		return sb_detach(&sb);
fail:
	free(sb_detach(&sb));
	return NULL;
}

/* A body that is one invocation of another macro (MEDIA_IOC's
 * MEDIA_IOC_ARG(__cmd, func, fl, ...), etnaviv's ETNA_IOCTL's
 * DRM_IOCTL_DEF_DRV(ETNAVIV_##n, ...)): that macro's paste, the
 * invocation's arguments put in for the parameters, as long as each is
 * identifiers pasted together. */
static char *paste_through(struct macro_table *mt, const struct macro_def *m, const strvec *args,
			   const char *field, int depth)
{
	strvec inner = {0};
	char *r = NULL;
	size_t i;

	if (m->body.len < 3 || !is_ident(m->body.items[0]) || strcmp(m->body.items[1], "("))
		return NULL;
	for (i = 2; i < m->body.len; i++) {
		char *a = paste_tokens(m, args, &i, ")");

		if (!a)
			break;
		vec_push(&inner, a);
		if (i >= m->body.len || strcmp(m->body.items[i], ","))
			break;
	}
	r = designated_paste(mt, m->body.items[0], &inner, field, depth + 1);
	strvec_clear(&inner);
	return r;
}

char *macro_designated_paste(struct macro_table *mt, const char *name, const strvec *args,
			     const char *field)
{
	return designated_paste(mt, name, args, field, 0);
}

static char *designated_paste(struct macro_table *mt, const char *name, const strvec *args,
			      const char *field, int depth)
{
	struct macro_def *m = lookup(mt, name);

	if (!m || !m->function_like || depth > 4)
		return NULL;
	for (size_t i = 0; i + 3 < m->body.len; i++) {
		size_t j = i + 3;

		if (strcmp(m->body.items[i], ".") || strcmp(m->body.items[i + 1], field) ||
		    strcmp(m->body.items[i + 2], "="))
			continue;
		return paste_tokens(m, args, &j, "}");
	}
	return paste_through(mt, m, args, field, depth);
}

static int expand(struct macro_table *mt, char **toks, size_t n, strvec *active,
		  int depth, strvec *out);

/* Collects the arguments of an invocation starting at toks[i] == "(";
 * returns the index after ")", or 0 if unbalanced. */
static size_t collect_args(char **toks, size_t n, size_t i, arg_list *args)
{
	int level = 0;
	strvec cur = {0};

	for (i++; i < n; i++) {
		const char *t = toks[i];

		if (!strcmp(t, "(")) {
			level++;
		} else if (!strcmp(t, ")")) {
			if (level-- == 0) {
				vec_push(args, cur);
				return i + 1;
			}
		} else if (!strcmp(t, ",") && level == 0) {
			vec_push(args, cur);
			memset(&cur, 0, sizeof(cur));
			continue;
		}
		strvec_push(&cur, t);
	}
	strvec_clear(&cur);
	return 0;
}

static int param_index(const struct macro_def *m, const char *t)
{
	for (size_t i = 0; i < m->params.len; i++)
		if (!strcmp(m->params.items[i], t))
			return (int)i;
	return -1;
}

static void append_arg(strvec *out, const strvec *arg)
{
	for (size_t i = 0; i < arg->len; i++)
		strvec_push(out, arg->items[i]);
}

static int substitute(struct macro_table *mt, const struct macro_def *m, arg_list *args,
		      strvec *active, int depth, strvec *out)
{
	strvec body = {0};
	int err = 0;

	for (size_t i = 0; i < m->body.len; i++) {
		const char *t = m->body.items[i];
		int p;

		if (!strcmp(t, "#") && i + 1 < m->body.len) {
			strvec_push(&body, "\"\"");	/* stringified: a string */
			i++;
			continue;
		}
		if (!strcmp(t, "##")) {
			if (body.len && i + 1 < m->body.len) {
				const char *next = m->body.items[++i];
				int q = param_index(m, next);
				char *last = body.items[body.len - 1];
				const char *tail = q >= 0 && (size_t)q < args->len && args->items[q].len ?
					args->items[q].items[0] : (q >= 0 ? "" : next);

				body.items[body.len - 1] = xasprintf("%s%s", last, tail);
				free(last);
				if (q >= 0 && (size_t)q < args->len)
					for (size_t k = 1; k < args->items[q].len; k++)
						strvec_push(&body, args->items[q].items[k]);
			}
			continue;
		}
		p = param_index(m, t);
		if (p >= 0) {
			strvec pre = {0};

			if ((size_t)p < args->len) {
				if (m->variadic && (size_t)p == m->params.len - 1) {
					for (size_t k = (size_t)p; k < args->len; k++) {
						if (k > (size_t)p)
							strvec_push(&body, ",");
						append_arg(&body, &args->items[k]);
					}
					continue;
				}
				err |= expand(mt, args->items[p].items, args->items[p].len, active,
					      depth + 1, &pre);
				append_arg(&body, &pre);
				strvec_clear(&pre);
			}
			continue;
		}
		strvec_push(&body, t);
	}
	strvec_push(active, m->name);
	err |= expand(mt, body.items, body.len, active, depth + 1, out);
	free(active->items[--active->len]);
	strvec_clear(&body);
	return err;
}

static int expand(struct macro_table *mt, char **toks, size_t n, strvec *active,
		  int depth, strvec *out)
{
	if (depth > MAX_DEPTH)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *t = toks[i];
		struct macro_def *m;

		if (out->len > MAX_TOKENS)
			return -1;
		if (!is_ident(t) || strvec_contains(active, t) || !(m = lookup(mt, t))) {
			strvec_push(out, t);
			continue;
		}
		if (!m->function_like) {
			int err;

			strvec_push(active, m->name);
			err = expand(mt, m->body.items, m->body.len, active, depth + 1, out);
			free(active->items[--active->len]);
			if (err)
				return err;
			continue;
		}
		if (i + 1 >= n || strcmp(toks[i + 1], "(")) {
			strvec_push(out, t);
			continue;
		}
		{
			arg_list args = {0};
			size_t next = collect_args(toks, n, i + 1, &args);
			int err = next ? substitute(mt, m, &args, active, depth, out) : -1;

			for (size_t k = 0; k < args.len; k++)
				strvec_clear(&args.items[k]);
			vec_free(&args);
			if (err)
				return err;
			i = next - 1;
		}
	}
	return 0;
}

/* The macro invocation at the start of c's expansion: libclang 14 maps a
 * range end inside an expansion to the expansion's start, so the end is
 * found here by matching parentheses. */
static int invocation_tokens(CXTranslationUnit tu, CXCursor c, strvec *out)
{
	CXFile f;
	unsigned off, n = 0;
	size_t size = 0;
	CXToken *toks = NULL;
	int level = 0;

	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &off);
	if (!f || !clang_getFileContents(tu, f, &size) || off >= size)
		return -1;
	{
		unsigned end = off + 4096 < size ? off + 4096 : (unsigned)size;

		clang_tokenize(tu, clang_getRange(file_location(tu, f, off),
						  file_location(tu, f, end)),
			       &toks, &n);
	}
	for (unsigned i = 0; i < n; i++) {
		char *s = cxstr(clang_getTokenSpelling(tu, toks[i]));

		if (i == 1 && strcmp(s, "(")) {
			free(s);
			break;	/* an object-like macro: one token */
		}
		if (!strcmp(s, "("))
			level++;
		else if (!strcmp(s, ")"))
			level--;
		vec_push(out, s);
		if (i > 0 && level == 0)
			break;
	}
	clang_disposeTokens(tu, toks, n);
	return out->len ? 0 : -1;
}

static int expand_invocation(struct macro_table *mt, CXCursor c, strvec *out)
{
	strvec in = {0}, active = {0};
	int err;

	if (invocation_tokens(mt->tu, c, &in)) {
		strvec_clear(&in);
		return -1;
	}
	err = expand(mt, in.items, in.len, &active, 0, out);
	strvec_clear(&in);
	strvec_clear(&active);
	return err;
}

const strvec *macro_expansion_at(struct macro_table *mt, CXCursor c)
{
	struct expansion_memo *m;
	CXFile f;
	unsigned off, h;

	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL,
				   &off);
	h = off % MEMO_BUCKETS;
	for (m = mt->memo[h]; m; m = m->next)
		if (m->offset == off && clang_File_isEqual(m->file, f))
			return m->err ? NULL : &m->toks;
	m = xcalloc(1, sizeof(*m));
	m->file = f;
	m->offset = off;
	m->err = expand_invocation(mt, c, &m->toks);
	m->next = mt->memo[h];
	mt->memo[h] = m;
	return m->err ? NULL : &m->toks;
}

void macro_table_free(struct macro_table *mt)
{
	if (!mt)
		return;
	for (size_t i = 0; i < MT_BUCKETS; i++) {
		struct macro_def *m = mt->bucket[i];

		while (m) {
			struct macro_def *next = m->next;

			free(m->name);
			strvec_clear(&m->params);
			strvec_clear(&m->body);
			free(m);
			m = next;
		}
	}
	for (size_t i = 0; i < MEMO_BUCKETS; i++) {
		struct expansion_memo *m = mt->memo[i];

		while (m) {
			struct expansion_memo *next = m->next;

			strvec_clear(&m->toks);
			free(m);
			m = next;
		}
	}
	vec_free(&mt->expansions);
	free(mt);
}
