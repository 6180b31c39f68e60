/* AST -> file_facts: the only stage that looks at libclang cursors.
 *
 * For every function defined in the main file it builds a reduced statement
 * tree (facts.h); for every initialiser or assignment of an ioctl member of a
 * known ops structure it records an ops_init. Values of case labels and
 * constants are evaluated by clang itself (clang_Cursor_Evaluate), never
 * decoded by hand. */
#define _GNU_SOURCE
#include "extract_facts.h"

#include "cursor_util.h"
#include "file_location.h"
#include "header_functions.h"
#include "local_flags.h"
#include "macro_expand.h"
#include "pointer_origin.h"
#include "token_expr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOCALS 256
#define MAX_LOCALS_TEXT "256"
#define MAX_HEADER_FUNCTIONS 4000

struct local_view {
	CXCursor decl;
	char *name;
	struct param_view view;
};

/* A store (arg < 0) or a call argument whose pointer's origin is known
 * only when the whole function has been read. */
struct pending_origin {
	struct stmt *s;
	int arg;
	struct origin origin;
	struct origin_place at;	/* where the store or the call is */
};

struct member_local {
	const void *decl;
	char *sname, *field;
	/* assigned only the address of an element of a const array of file
	 * scope, besides null pointers (kfd_ioctl's `ioctl =
	 * &amdkfd_ioctls[nr]`): that array; array_conflict when it was
	 * assigned anything else too */
	char *array;
	int array_conflict;
};

/* An element of a static array of file scope indexed by a parameter, or
 * a member of one (indexed_element): `drm_compat_ioctls[nr].fn`. */
struct indexed_ref {
	CXCursor array;		/* the array's VarDecl; null when none */
	char *field;		/* the member read, NULL for the element */
	struct param_view view;	/* the index: this view of a parameter */
	int64_t offset;		/* plus this */
	/* an array of records searched for the element whose member key
	 * equals the view (translated_by_search): field the member read
	 * from it, offset 0 */
	char *key;
};

typedef VEC(int64_t) int64_vec;

/* A local assigned only such an element, besides null pointers;
 * conflict when it was assigned anything else too. */
struct indexed_local {
	const void *decl;
	struct indexed_ref ref;
	int conflict;
};

struct walk {
	CXTranslationUnit tu;
	const struct knowledge *kn;
	struct file_facts *ff;
	/* the function being walked */
	CXCursor params[16];
	int nparams;
	struct local_view locals[MAX_LOCALS];
	int nlocals;
	const char *fn_name;
	unsigned limits_cut;	/* enum extract_limit bits reported for it */
	struct macro_table *macros;
	/* definitions in headers that calls reach, to extract after the
	 * file's own functions (header_functions.h); seen: their decls */
	const struct kernel_tree *kt;
	struct header_functions *hf;
	VEC(CXCursor) header_queue;
	const void **header_seen;
	size_t header_seen_cap, header_seen_len;
	/* where its pointers point; stores and arguments resolved at its end */
	struct origins *origins;
	VEC(struct pending_origin) pending;
	/* its local flags: candidates, stores and tests (local_flags.h) */
	struct local_flags *flags;
	/* inside an API macro's arguments (whose walk also meets the body's
	 * expressions, reported at the expansion) */
	int in_macro_args;
	unsigned nlabels;	/* label statements seen so far */
	/* calls of the current if's condition whose 0 makes it true */
	CXSourceRange negated_calls[8];
	/* for negated_calls[i], the tests that must hold too (an ST_BLOCK
	 * of premises), or NULL */
	struct stmt *negated_premises[8];
	int nnegated;
	CXFile main_file;	/* the file being parsed */
	/* the file-scope variable whose initialiser is being read */
	const char *table_var;
	int table_var_static;
	CXCursor table_var_decl;
	/* locals of the function assigned only a member read (drm_ioctl's
	 * `func = ioctl->func`): decl, struct, field; struct NULL once
	 * assigned anything else */
	VEC(struct member_local) member_locals;
	VEC(struct indexed_local) indexed_locals;
	/* arrays a call indexes, to record (file_facts.fn_arrays) once the
	 * file is read: decl and the member read (field NULL: the element) */
	VEC(struct indexed_ref) indexed_arrays;
	/* the last file asked about by in_own_code, and its answer */
	CXFile last_file;
	int last_own;
};

/* Written in the file being parsed, directly or by a macro expanded there
 * (SYSCALL_DEFINE3(ioctl, ...) defines __do_sys_ioctl), or in a `.c` file
 * it includes (sound/core/pcm_native.c's `#include "pcm_compat.c"`): code
 * of this translation unit, not a header's. Compared by file: asked of
 * every declaration of every header, it must be cheap. */
static int in_own_code(struct walk *w, CXCursor c)
{
	CXFile f;

	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	if (!f || !w->main_file)
		return 0;
	if (clang_File_isEqual(f, w->main_file))
		return 1;
	if (!w->last_file || !clang_File_isEqual(f, w->last_file)) {
		char *name = cxstr(clang_getFileName(f));
		size_t n = strlen(name);

		w->last_file = f;
		w->last_own = n > 2 && !strcmp(name + n - 2, ".c");
		free(name);
	}
	return w->last_own;
}


static int cursor_tokens(CXTranslationUnit tu, CXCursor c, CXToken **toks, unsigned *n);

static int offset_of(CXSourceLocation loc, CXFile *file)
{
	unsigned off;

	clang_getExpansionLocation(loc, file, NULL, NULL, &off);
	return (int)off;
}

static char *token_text(CXTranslationUnit tu, CXToken t)
{
	return cxstr(clang_getTokenSpelling(tu, t));
}

/* A type's spelling without its top-level qualifiers: `volatile int`
 * and `struct s *volatile` (a qualified pointer puts them last). */
static const char *unqualified(char *t)
{
	size_t n;

	while (!strncmp(t, "volatile ", 9) || !strncmp(t, "const ", 6))
		t += *t == 'v' ? 9 : 6;
	for (int again = 1; again; ) {
		n = strlen(t);
		again = 0;
		if (n > 9 && !strcmp(t + n - 9, " volatile")) {
			t[n - 9] = '\0';
			again = 1;
		} else if (n > 6 && !strcmp(t + n - 6, " const")) {
			t[n - 6] = '\0';
			again = 1;
		} else if (n > 9 && !strcmp(t + n - 9, "*volatile")) {
			t[n - 8] = '\0';
			again = 1;
		} else if (n > 6 && !strcmp(t + n - 6, "*const")) {
			t[n - 5] = '\0';
			again = 1;
		}
	}
	return t;
}

/* The same type but for top-level qualifiers: `*(volatile T *)&x = v`
 * has type volatile T. */
static int same_type(CXType a, CXType b)
{
	char *x = cxstr(clang_getTypeSpelling(clang_getCanonicalType(a)));
	char *y = cxstr(clang_getTypeSpelling(clang_getCanonicalType(b)));
	int same = !strcmp(unqualified(x), unqualified(y));

	free(x);
	free(y);
	return same;
}

/* The token an lvalue is written ending with: the member (d->mode), the
 * variable, `]`, or `)` (*(volatile T *)&(x)); NULL if it is no lvalue. */
static char *lvalue_last_token(CXCursor lhs)
{
	CXCursor l = lhs;

	/* through parentheses only: an implicit conversion makes an rvalue
	 * (`__ret_cond && ...` reads __ret_cond) */
	while (clang_getCursorKind(l) == CXCursor_ParenExpr) {
		cursorvec k = children_of(l);

		if (k.len != 1) {
			vec_free(&k);
			return NULL;
		}
		l = k.items[0];
		vec_free(&k);
	}
	switch (clang_getCursorKind(l)) {
	case CXCursor_MemberRefExpr:
	case CXCursor_DeclRefExpr:
		return cursor_name(l);
	case CXCursor_ArraySubscriptExpr:
		return xstrdup("]");
	case CXCursor_UnaryOperator:
		return xstrdup(")");
	default:
		return NULL;
	}
}

/* Can e be assigned to: a variable, a member, an element, *p? An
 * operand that is not (the !!(e) of BUILD_BUG_ON_ZERO's -!!(e)) is never
 * the operand of ++ or --. (For `=` no such test: a member access libclang
 * does not expose would make a store be missed.) */
static int lvalue_like(CXCursor e)
{
	CXCursor t = e;
	cursorvec kids;
	int deref = 0;

	while (clang_getCursorKind(t) == CXCursor_ParenExpr) {
		kids = children_of(t);
		if (kids.len != 1) {
			vec_free(&kids);
			return 0;
		}
		t = kids.items[0];
		vec_free(&kids);
	}
	switch (clang_getCursorKind(t)) {
	case CXCursor_DeclRefExpr:
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr:
	case CXCursor_UnexposedExpr:	/* not known: taken as one */
		return 1;
	case CXCursor_UnaryOperator:
		kids = children_of(t);
		if (kids.len == 1) {
			CXType p = clang_getCanonicalType(clang_getCursorType(kids.items[0]));

			deref = p.kind == CXType_Pointer &&
				clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(p)),
						 clang_getCanonicalType(clang_getCursorType(t)));
		}
		vec_free(&kids);
		return deref;
	default:
		return 0;
	}
}

/* An operator written in a macro's body (`#define SET(d, v) ((d)->mode =
 * (v))`): the file's tokens are the macro's use, and libclang 14 gives no
 * operator kind. The use's expansion shows whether the body assigns the
 * node's first operand: `mode =`, `mode ++`, `++ ... mode` among its
 * tokens, the operand an lvalue of the node's own type. Then the node is
 * taken for that store, so a store in a macro is never lost; any other
 * operator stays unknown. */
static char *operator_in_expansion(struct walk *w, CXCursor c, const cursorvec *kids)
{
	const strvec *toks = NULL;
	const char *found = NULL;
	char *last = lvalue_last_token(kids->items[0]);
	/* an operand the macro wraps in parentheses, `((x)++)`, ends in `)` */
	int paren = clang_getCursorKind(kids->items[0]) == CXCursor_ParenExpr;

	if (last && same_type(clang_getCursorType(c), clang_getCursorType(kids->items[0])) &&
	    (kids->len != 1 || lvalue_like(kids->items[0])))
		toks = macro_expansion_at(w->macros, c);

	for (size_t i = 1; toks && i < toks->len && !found; i++) {
		const char *t = toks->items[i], *before = toks->items[i - 1];
		int ends = !strcmp(before, last) || (paren && !strcmp(before, ")"));

		if (kids->len == 2 && !strcmp(t, "=") && ends)
			found = "=";
		else if (kids->len == 1 && (!strcmp(t, "++") || !strcmp(t, "--")) && ends)
			found = t;
		else if (kids->len == 1 && (!strcmp(before, "++") || !strcmp(before, "--")))
			for (size_t j = i; j < toks->len && j < i + 8 && !found; j++)
				if (!strcmp(toks->items[j], last))
					found = before;
	}
	free(last);
	return found ? xstrdup(found) : NULL;
}

/* The operator of a unary or binary expression. libclang 14 has no API for
 * it: for a binary operator it is the last token written before the right
 * operand; for a unary one the first token (prefix) or the last (postfix).
 * Inside a macro body no token is visible and the answer is NULL
 * (unknown); view_of reads macro expansions through macro_expand.c. */
/* Is c written in the source as a macro's argument (`flags & K` in
 * unlikely((flags & K) && ...)), its own tokens after the macro's name? */
static int macro_argument(CXCursor c)
{
	CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
	CXFile sf, ef;
	unsigned soff, eoff;

	clang_getSpellingLocation(loc, &sf, NULL, NULL, &soff);
	clang_getExpansionLocation(loc, &ef, NULL, NULL, &eoff);
	return sf && ef && clang_File_isEqual(sf, ef) && soff > eoff;
}

static char *operator_of(struct walk *w, CXCursor c)
{
	cursorvec kids = children_of(c);
	CXFile f1 = NULL, f2 = NULL;
	CXToken *toks = NULL;
	unsigned n = 0, total;
	char *op = NULL;
	int start;

	if (!kids.len)
		goto out;
	if (kids.len == 1 && macro_is_expansion(w->macros, c) && !macro_argument(c)) {
		op = operator_in_expansion(w, c, &kids);
		goto out;
	}
	start = offset_of(clang_getRangeStart(clang_getCursorExtent(c)), &f1);
	if (kids.len == 2) {
		CXSourceLocation rl = clang_getRangeStart(clang_getCursorExtent(kids.items[1]));
		int rhs = offset_of(rl, &f2);

		if (f1 && f1 == f2 && rhs <= start) {
			/* written as a macro's argument (unlikely(cmd == X)):
			 * where its own tokens are */
			CXFile s1, s2;
			unsigned p1, p2;

			clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)),
						  &s1, NULL, NULL, &p1);
			clang_getSpellingLocation(rl, &s2, NULL, NULL, &p2);
			if (s1 == f1 && s2 == f1 && (int)p1 > start && p2 > p1) {
				start = (int)p1;
				rhs = (int)p2;
			}
		}
		if (!f1 || f1 != f2 || rhs <= start)
			goto out;
		clang_tokenize(w->tu, clang_getRange(file_location(w->tu, f1, (unsigned)start),
						     file_location(w->tu, f1, (unsigned)rhs)),
			       &toks, &n);
		total = n;
		/* the range end may include the right operand's first token */
		while (n > 0) {
			CXSourceLocation tl = clang_getTokenLocation(w->tu, toks[n - 1]);
			int to = offset_of(tl, NULL);

			if (to < rhs) {
				op = token_text(w->tu, toks[n - 1]);
				break;
			}
			n--;
		}
		n = total;
	} else if (cursor_tokens(w->tu, c, &toks, &n)) {
		op = token_text(w->tu, toks[0]);
		if (clang_getTokenKind(toks[0]) != CXToken_Punctuation) {
			free(op);
			op = token_text(w->tu, toks[n - 1]);
		}
	}
	if (toks)
		clang_disposeTokens(w->tu, toks, n);
out:
	if (!op && kids.len == 2 && macro_may_expand(w->macros, c))
		op = operator_in_expansion(w, c, &kids);
	vec_free(&kids);
	return op;
}

/* Tokens of a cursor's extent as written where it is used: an expression
 * written as a macro's argument (capable(X) in unlikely(!capable(X))) by
 * its own tokens; a range inside a macro's body is widened to the
 * expansion in the file. */
static int cursor_tokens(CXTranslationUnit tu, CXCursor c, CXToken **toks, unsigned *n)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2, s1, s2;
	unsigned o1, o2, p1, p2;

	clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &o1);
	clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
	*toks = NULL;
	*n = 0;
	if (!f1 || f1 != f2 || o2 < o1)
		return 0;
	clang_getSpellingLocation(clang_getRangeStart(r), &s1, NULL, NULL, &p1);
	clang_getSpellingLocation(clang_getRangeEnd(r), &s2, NULL, NULL, &p2);
	if (s1 == f1 && s2 == f1 && o1 < p1 && p1 <= p2 && p2 - p1 < 4096) {
		o1 = p1;
		o2 = p2;
	}
	if (o2 == o1)
		o2++;	/* a single macro name: end == start after expansion */
	r = clang_getRange(file_location(tu, f1, o1),
			   file_location(tu, f2, o2));
	clang_tokenize(tu, r, toks, n);
	return *n > 0;
}

/* The name a reader sees for a constant: the macro as written, looking
 * through a macro whose single argument names the command (_IOC_NR(FOO),
 * EVIOC_MASK_SIZE(FOO) name FOO; EVIOCGNAME(0) names EVIOCGNAME); the
 * literal otherwise. */
static char *constant_name(struct walk *w, CXCursor c)
{
	CXToken *toks = NULL;
	unsigned n = 0, i = 0;
	char *name = NULL;
	struct strbuf sb = {0};

	if (!cursor_tokens(w->tu, c, &toks, &n))
		return xstrdup("?");
	while (i < n && clang_getTokenKind(toks[i]) == CXToken_Punctuation)
		i++;	/* leading parentheses or a sign */
	while (i + 3 < n && clang_getTokenKind(toks[i]) == CXToken_Identifier &&
	       clang_getTokenKind(toks[i + 2]) == CXToken_Identifier) {
		char *open = cxstr(clang_getTokenSpelling(w->tu, toks[i + 1]));
		char *after = cxstr(clang_getTokenSpelling(w->tu, toks[i + 3]));
		int inner = !strcmp(open, "(") && (!strcmp(after, ")") || !strcmp(after, "("));

		free(open);
		free(after);
		if (!inner)
			break;
		i += 2;
	}
	if (i < n && clang_getTokenKind(toks[i]) == CXToken_Identifier) {
		name = cxstr(clang_getTokenSpelling(w->tu, toks[i]));
	} else {
		for (unsigned j = 0; j < n; j++) {
			char *s = cxstr(clang_getTokenSpelling(w->tu, toks[j]));

			sb_add(&sb, s);
			free(s);
		}
		name = sb_detach(&sb);
	}
	clang_disposeTokens(w->tu, toks, n);
	return name;
}

static struct param_view no_view(void)
{
	struct param_view v = { .param = -1 };

	return v;
}

static uint64_t type_mask(CXType t)
{
	long long size = clang_Type_getSizeOf(t);

	if (size <= 0 || size >= 8)
		return ~(uint64_t)0;
	return ((uint64_t)1 << (size * 8)) - 1;
}

static struct param_view view_of(struct walk *w, CXCursor c);
static struct param_view view_of_expansion(struct walk *w, CXCursor c);

static struct param_view view_of_decl(struct walk *w, CXCursor ref)
{
	CXCursor d = clang_getCursorReferenced(ref);
	struct param_view v = no_view();

	if (clang_Cursor_isNull(d))
		return v;
	for (int i = 0; i < w->nparams; i++) {
		if (clang_equalCursors(d, w->params[i])) {
			v.param = i;
			v.shift = 0;
			v.mask = type_mask(clang_getCursorType(d));
			return v;
		}
	}
	for (int i = w->nlocals - 1; i >= 0; i--)
		if (clang_equalCursors(d, w->locals[i].decl))
			return w->locals[i].view;
	return v;
}

/* expr == ((param >> shift) & mask)? Follows &, >> and local copies. */
static struct param_view view_of(struct walk *w, CXCursor c)
{
	struct param_view v = no_view(), l, r;
	cursorvec kids;
	int64_t k;
	char *op;

	if (macro_is_expansion(w->macros, c) && clang_getCursorKind(strip(c)) != CXCursor_DeclRefExpr &&
	    !macro_argument(c))
		return view_of_expansion(w, c);
	c = strip(c);
	switch (clang_getCursorKind(c)) {
	case CXCursor_DeclRefExpr:
		return view_of_decl(w, c);
	case CXCursor_BinaryOperator:
		break;
	case CXCursor_CallExpr:
		/* video_translate_cmd(orig_cmd): its first argument's value */
		if (clang_Cursor_getNumArguments(c) >= 1) {
			char *name = cursor_name(clang_getCursorReferenced(c));
			int keeps = name && strvec_contains(&w->kn->value_preserving, name);

			free(name);
			if (keeps)
				return view_of(w, clang_Cursor_getArgument(c, 0));
		}
		return v;
	default:
		return v;
	}
	kids = children_of(c);
	if (kids.len != 2) {
		vec_free(&kids);
		return v;
	}
	op = operator_of(w, c);
	l = view_of(w, kids.items[0]);
	r = view_of(w, kids.items[1]);
	if (op && !strcmp(op, "&")) {
		if (l.param >= 0 && r.param < 0 && eval_int(kids.items[1], &k)) {
			v = l;
			v.mask &= (uint64_t)k;
		} else if (r.param >= 0 && l.param < 0 && eval_int(kids.items[0], &k)) {
			v = r;
			v.mask &= (uint64_t)k;
		}
	} else if (op && !strcmp(op, ">>")) {
		if (l.param >= 0 && r.param < 0 && eval_int(kids.items[1], &k) &&
		    k >= 0 && k < 64) {
			v = l;
			v.shift += (int)k;
			v.mask >>= k;
		}
	}
	free(op);
	vec_free(&kids);
	return v;
}

/* The fixed sizes extraction keeps per function. Past one, what is cut
 * is not followed (a parameter past the 16th is never the command, a
 * local past MAX_LOCALS never a view of it, a condition's ninth negated
 * call not a premise): the report says so, once per function and limit. */
enum extract_limit {
	LIMIT_PARAMS = 1,
	LIMIT_LOCALS = 2,
	LIMIT_NEGATED = 4,
};

static void limit_cut(struct walk *w, enum extract_limit which)
{
	char *msg;

	if (w->limits_cut & which)
		return;
	w->limits_cut |= which;
	msg = xasprintf("%s: extraction limit: %s", w->fn_name ? w->fn_name : "?",
			which == LIMIT_PARAMS ?
			"more than 16 parameters: those past the 16th are not followed" :
			which == LIMIT_LOCALS ?
			"more than " MAX_LOCALS_TEXT " locals hold a view of a parameter: "
			"the rest are not followed" :
			"a condition has more than 8 negated calls: the rest are not premises");
	add_diag(&w->ff->diags, w->ff->file, "warning", msg);
	free(msg);
}

static void remember_local(struct walk *w, CXCursor decl, struct param_view v)
{
	if (v.param < 0)
		return;
	if (w->nlocals >= MAX_LOCALS) {
		limit_cut(w, LIMIT_LOCALS);
		return;
	}
	w->locals[w->nlocals].decl = decl;
	w->locals[w->nlocals].name = cursor_name(decl);
	w->locals[w->nlocals].view = v;
	w->nlocals++;
}

static void forget_locals(struct walk *w)
{
	for (int i = 0; i < w->nlocals; i++)
		free(w->locals[i].name);
	w->nlocals = 0;
	for (size_t i = 0; i < w->member_locals.len; i++) {
		free(w->member_locals.items[i].sname);
		free(w->member_locals.items[i].field);
		free(w->member_locals.items[i].array);
	}
	vec_free(&w->member_locals);
	for (size_t i = 0; i < w->indexed_locals.len; i++)
		free(w->indexed_locals.items[i].ref.field);
	vec_free(&w->indexed_locals);
}

static int resolve_name(void *ctx, const char *name, struct param_view *out)
{
	struct walk *w = ctx;

	for (int i = 0; i < w->nparams; i++) {
		char *pn = cursor_name(w->params[i]);
		int same = !strcmp(pn, name);

		free(pn);
		if (same) {
			out->param = i;
			out->shift = 0;
			out->mask = type_mask(clang_getCursorType(w->params[i]));
			return 1;
		}
	}
	for (int i = w->nlocals - 1; i >= 0; i--) {
		if (!strcmp(w->locals[i].name, name)) {
			*out = w->locals[i].view;
			return 1;
		}
	}
	return 0;
}

/* What an expression or a body mentions: the parameters (bit N; every
 * one, or with first only until one of them or a local holding a view
 * of one is met, local then set). */
struct mention {
	const struct walk *w;
	int first;
	uint32_t params;
	int local;
};

static enum CXChildVisitResult mention_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
	struct mention *m = d;
	CXCursor ref;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	ref = clang_getCursorReferenced(c);
	for (int i = 0; i < m->w->nparams; i++)
		if (clang_equalCursors(ref, m->w->params[i]))
			m->params |= 1u << i;
	for (int i = 0; m->first && !m->params && i < m->w->nlocals && !m->local; i++)
		m->local = clang_equalCursors(ref, m->w->locals[i].decl);
	return m->first && (m->params || m->local) ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Does expression c refer to a parameter, or to a local that holds a
 * view of one? Only then can it be a view; expanding its macros to find
 * out is the costly part of reading a call's arguments. */
static int mentions_param(const struct walk *w, CXCursor c)
{
	struct mention m = { w, 1, 0, 0 };

	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
		mention_visitor(c, c, &m);
	else
		clang_visitChildren(c, mention_visitor, &m);
	return m.params || m.local;
}

/* A view computed from the macro expansion that c is the top of. */
static struct param_view view_of_expansion(struct walk *w, CXCursor c)
{
	const strvec *toks;
	struct param_view v = no_view();

	if (!mentions_param(w, c))
		return v;

	toks = macro_expansion_at(w->macros, c);
	if (toks) {
		struct sym s = token_expr_eval(toks->items, toks->len, resolve_name, w);

		if (s.kind == SYM_VIEW)
			v = s.view;
	}
	return v;
}

static int is_local_var(CXCursor ref)
{
	CXCursor d = clang_getCursorReferenced(ref);
	enum CXCursorKind k = clang_getCursorKind(d);

	if (k == CXCursor_ParmDecl)
		return 1;
	return k == CXCursor_VarDecl && !clang_Cursor_hasVarDeclGlobalStorage(d);
}

static char *extent_text(struct walk *w, CXCursor c)
{
	CXToken *toks = NULL;
	unsigned n = 0;
	struct strbuf sb = {0};

	if (!cursor_tokens(w->tu, c, &toks, &n))
		return xstrdup("");
	for (unsigned i = 0; i < n && sb.len < 120; i++) {
		char *s = cxstr(clang_getTokenSpelling(w->tu, toks[i]));

		sb_add(&sb, s);
		free(s);
	}
	clang_disposeTokens(w->tu, toks, n);
	return sb_detach(&sb);
}

static struct stmt *walk_stmt(struct walk *w, CXCursor c);
static void arg_comparison(struct walk *w, CXCursor a, struct call_arg *arg);
static void walk_expr(struct walk *w, CXCursor c, struct stmt *block);

/* A static variable a macro declares for itself (WARN_ONCE's
 * __already_done, printk_once's, DO_ONCE's): the macro's bookkeeping,
 * not state of the code that uses it. */
static int macro_bookkeeping(struct walk *w, CXCursor ref)
{
	CXCursor d = clang_getCursorReferenced(ref);

	return clang_getCursorKind(d) == CXCursor_VarDecl &&
	       clang_Cursor_hasVarDeclGlobalStorage(d) &&
	       clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_FunctionDecl &&
	       macro_may_expand(w->macros, d);
}

/* `x = array_index_nospec(x, n)`: the value stays x's (value_preserving). */
static int keeps_value(struct walk *w, CXCursor lhs, const CXCursor *rhs)
{
	CXToken *toks = NULL;
	unsigned n = 0;
	int keeps = 0;

	if (!rhs || !w->kn->value_preserving.len || !cursor_tokens(w->tu, *rhs, &toks, &n))
		return 0;
	if (n >= 3 && clang_getTokenKind(toks[0]) == CXToken_Identifier &&
	    clang_getTokenKind(toks[2]) == CXToken_Identifier) {
		char *m = cxstr(clang_getTokenSpelling(w->tu, toks[0]));
		char *a = cxstr(clang_getTokenSpelling(w->tu, toks[2]));
		char *x = cursor_name(clang_getCursorReferenced(strip(lhs)));

		keeps = strvec_contains(&w->kn->value_preserving, m) && !strcmp(a, x);
		free(m);
		free(a);
		free(x);
	}
	clang_disposeTokens(w->tu, toks, n);
	return keeps;
}

static char *api_macro_at(struct walk *w, CXCursor c);

/* What value e is, where the classifier follows values back (facts.h
 * value_callee, value_either): exactly a direct call's result (or an API
 * macro's, `return put_user(v, p);`), or a choice between two
 * constants. */
static void note_value(struct walk *w, CXCursor e, struct stmt *s)
{
	CXCursor x = strip(e);
	enum CXCursorKind k = clang_getCursorKind(x);
	cursorvec kids;

	if (macro_may_expand(w->macros, x) && (s->value_callee = api_macro_at(w, x))) {
		return;
	} else if (k == CXCursor_CallExpr) {
		CXCursor d = clang_getCursorReferenced(x);

		if (clang_getCursorKind(d) == CXCursor_FunctionDecl)
			s->value_callee = cursor_name(d);
	} else if (k == CXCursor_ConditionalOperator) {
		kids = children_of(x);
		s->value_either = kids.len == 3 && eval_int(kids.items[1], &s->either[0]) &&
				  eval_int(kids.items[2], &s->either[1]);
		vec_free(&kids);
	}
}

/* `int ret = f(...);`: the initial value of a scalar local, as a store
 * (a local holding an int that is later returned or tested) */
static void add_init_store(struct walk *w, CXCursor var, CXCursor init, struct stmt *block)
{
	enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(var)).kind;
	struct stmt *s;
	int64_t v;

	if (!w->flags || clang_Cursor_hasVarDeclGlobalStorage(var) ||
	    !((t >= CXType_Bool && t <= CXType_Int128) || t == CXType_Enum))
		return;
	s = stmt_new(ST_STORE, cursor_line(var));
	s->target = cursor_name(var);
	s->flag = xasprintf("%s@%u", s->target, cursor_line(var));
	if (eval_int(init, &v)) {
		s->store_is_const = 1;
		s->store_value = v;
	}
	note_value(w, init, s);
	vec_push(&block->kids, s);
}

static struct stmt *add_store(struct walk *w, CXCursor lhs, const CXCursor *rhs,
			      struct stmt *block)
{
	struct stmt *s = stmt_new(ST_STORE, cursor_line(lhs));
	int64_t v;

	s->target = extent_text(w, lhs);
	if (clang_getCursorKind(strip(lhs)) == CXCursor_DeclRefExpr) {
		/* the variable itself, pointer or not: re-pointing a parameter
		 * or a local (`tty = tty->link;`) changes only this frame */
		struct param_view v = view_of_decl(w, strip(lhs));

		s->nonlocal = !is_local_var(strip(lhs)) && !macro_bookkeeping(w, strip(lhs));
		s->flag = local_flag_key(lhs);
		if (v.param >= 0 && v.shift == 0 && !keeps_value(w, lhs, rhs))
			s->assigns_param = v.param;
	} else if (w->origins) {
		struct pending_origin p = { s, -1, origin_of_lvalue(w->origins, lhs),
					    origin_place_of(lhs) };

		vec_push(&w->pending, p);
	} else {
		s->nonlocal = 1;
	}
	if (rhs && eval_scalar(*rhs, &v)) {
		s->store_is_const = 1;
		s->store_value = v;
	}
	if (rhs)
		note_value(w, *rhs, s);
	vec_push(&block->kids, s);
	return s;
}

/* A local array initialised with a constant first element
 * (`char cmd[12] = { GPCMD_READ_TOC_PMA_ATIP, ... }`): recorded as the
 * local store `cmd[0] = 0x43`, which is where a transport's request code
 * is read (request_codes.h). */
static void add_first_element(CXCursor var, CXCursor init, struct stmt *block)
{
	cursorvec elems;
	struct stmt *s;
	int64_t v;
	char *name;

	if (clang_getCursorType(var).kind != CXType_ConstantArray)
		return;
	elems = children_of(init);
	if (elems.len && eval_int(elems.items[0], &v)) {
		name = cursor_name(var);
		s = stmt_new(ST_STORE, cursor_line(var));
		s->target = xasprintf("%s[0]", name);
		s->store_is_const = 1;
		s->store_value = v;
		vec_push(&block->kids, s);
		free(name);
	}
	vec_free(&elems);
}

/* Is the macro invocation the tokens start with only the start of the
 * expression (hsi_get_port(cl)->flush(cl): container_of under two driver
 * macros, then a call through what it yields)? Then the expression is not
 * that macro's. */
static int invocation_is_prefix(CXTranslationUnit tu, const CXToken *toks, unsigned n)
{
	int depth = 0;

	for (unsigned i = 1; i < n; i++) {
		char *t = cxstr(clang_getTokenSpelling(tu, toks[i]));
		int open = !strcmp(t, "("), close = !strcmp(t, ")");

		free(t);
		if (i == 1 && !open)
			return 0;
		depth += open - close;
		if (!depth)
			return i < n - 1;
	}
	return 0;
}

/* The API macro a driver's macro wraps, when its whole body calls one, at
 * most a few wrappers deep (queuefree(q) is snd_use_lock_free(&(q)->use_lock),
 * which the knowledge file calls neutral). Only API macros whose effect
 * does not land in an argument: a wrapper's arguments are not theirs, so
 * get_user and the like are not followed. */
static char *wrapped_api_macro(struct walk *w, const char *name)
{
	const char *m = name;

	for (int i = 0; i < 4 && (m = macro_body_callee(w->macros, m)); i++) {
		const struct api_entry *a;

		if (!strvec_contains(&w->kn->macro_calls, m))
			continue;
		a = knowledge_api(w->kn, m);
		if (!a || a->arg >= 0 || strvec_contains(&w->kn->macro_assigns, m))
			return NULL;
		return xstrdup(m);
	}
	return NULL;
}

/* The macro whose expansion starts at c, when it is an API macro that the
 * knowledge file wants recorded as a call (put_user, get_user, ...), or a
 * macro that wraps one. */
static char *api_macro_at(struct walk *w, CXCursor c)
{
	CXToken *toks = NULL;
	unsigned n = 0;
	char *name = NULL;

	if (!w->kn->macro_calls.len)
		return NULL;
	if (!cursor_tokens(w->tu, c, &toks, &n))
		return NULL;
	if (n >= 2 && clang_getTokenKind(toks[0]) == CXToken_Identifier &&
	    !invocation_is_prefix(w->tu, toks, n)) {
		char *s = cxstr(clang_getTokenSpelling(w->tu, toks[0]));

		if (strvec_contains(&w->kn->macro_calls, s)) {
			name = s;
		} else {
			name = wrapped_api_macro(w, s);
			free(s);
		}
	}
	clang_disposeTokens(w->tu, toks, n);
	return name;
}

static char *record_name(CXType t);

/* The struct and member an expression reads (rtc->ops->read_time:
 * rtc_class_ops, read_time), or nothing; returns the member. */
static CXCursor member_read(CXCursor e, char **sname, char **field)
{
	CXCursor m = strip(e);
	CXCursor f;

	if (clang_getCursorKind(m) != CXCursor_MemberRefExpr)
		return clang_getNullCursor();
	f = clang_getCursorReferenced(m);
	if (clang_getCursorKind(f) != CXCursor_FieldDecl)
		return clang_getNullCursor();
	*sname = record_name(clang_getCursorType(clang_getCursorSemanticParent(f)));
	if (*sname)
		*field = cursor_name(f);
	return f;
}

/* A local assigned only from a member read (note_member_local): that
 * member's struct and field, copied, when ref names one. */
static void member_of_local(const struct walk *w, CXCursor ref, char **sname, char **field)
{
	if (clang_getCursorKind(ref) != CXCursor_DeclRefExpr)
		return;
	for (size_t i = 0; i < w->member_locals.len; i++) {
		const struct member_local *m = &w->member_locals.items[i];

		if (m->decl == clang_getCursorReferenced(ref).data[0] && m->sname) {
			*sname = xstrdup(m->sname);
			*field = xstrdup(m->field);
			return;
		}
	}
}

/* The local ref names, when it points into one const array
 * (member_local's array), else NULL. */
static const char *array_of_local(const struct walk *w, CXCursor ref)
{
	if (clang_getCursorKind(ref) != CXCursor_DeclRefExpr)
		return NULL;
	for (size_t i = 0; i < w->member_locals.len; i++) {
		const struct member_local *m = &w->member_locals.items[i];

		if (m->decl == clang_getCursorReferenced(ref).data[0])
			return m->array_conflict ? NULL : m->array;
	}
	return NULL;
}

/* The name of a const array of records of file scope (amdkfd_ioctls),
 * or NULL: each element's members are what its initialiser says. */
static char *const_array_name(CXCursor d)
{
	CXType t = clang_getCursorType(d), c = clang_getCanonicalType(t), e;

	if (clang_getCursorKind(d) != CXCursor_VarDecl ||
	    clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit ||
	    (c.kind != CXType_ConstantArray && c.kind != CXType_IncompleteArray))
		return NULL;
	/* the element type as written keeps its const (the canonical
	 * array type's element does not, in libclang) */
	e = clang_getArrayElementType(t);
	if (!clang_isConstQualifiedType(e) || clang_getCanonicalType(e).kind != CXType_Record)
		return NULL;
	return cursor_name(d);
}

/* `&array[i]`, the address of an element of a const array: the array's
 * name, or NULL. */
static char *const_array_element(CXCursor value)
{
	CXCursor t = strip(value);
	cursorvec kids;
	char *name = NULL;

	if (clang_getCursorKind(t) != CXCursor_UnaryOperator)
		return NULL;
	kids = children_of(t);
	if (kids.len == 1 && clang_getCursorKind(strip(kids.items[0])) == CXCursor_ArraySubscriptExpr) {
		cursorvec sub = children_of(strip(kids.items[0]));
		CXCursor b = sub.len ? strip(sub.items[0]) : clang_getNullCursor();

		if (sub.len && clang_getCursorKind(b) == CXCursor_DeclRefExpr)
			name = const_array_name(clang_getCursorReferenced(b));
		vec_free(&sub);
	}
	vec_free(&kids);
	return name;
}

/* The name of a const object of file scope (inet_dgram_ops), or NULL:
 * its members are what its initialiser says, wherever it is read. */
static char *const_object_name(CXCursor d)
{
	CXType t = clang_getCursorType(d);

	if (clang_getCursorKind(d) != CXCursor_VarDecl ||
	    clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit ||
	    !clang_isConstQualifiedType(t) ||
	    clang_getCanonicalType(t).kind != CXType_Record)
		return NULL;
	return cursor_name(d);
}

/* The struct and member an indirect callee is read from (rtc->ops->read_time:
 * rtc_class_ops, read_time), directly or through a local assigned only
 * from it (_hl_ioctl's `func = ioctl->func; ... func(hpriv, kdata)`). */
static void note_member_callee(struct walk *w, CXCursor callee, struct stmt *s)
{
	CXCursor x = strip(callee);

	member_read(callee, &s->callee_struct, &s->callee_field);
	if (s->callee_struct && clang_getCursorKind(x) == CXCursor_MemberRefExpr) {
		cursorvec base = children_of(x);
		CXCursor b = base.len ? strip(base.items[0]) : clang_getNullCursor();

		if (base.len == 1 && clang_getCursorKind(b) == CXCursor_DeclRefExpr) {
			const char *array = array_of_local(w, b);

			s->callee_object = array ? xstrdup(array) :
				const_object_name(clang_getCursorReferenced(b));
		}
		vec_free(&base);
	}
	if (!s->callee_struct)
		member_of_local(w, x, &s->callee_struct, &s->callee_field);
}

static int is_function_pointer(CXType t);
static void note_indexed_callee(struct walk *w, CXCursor callee, struct stmt *s);

/* The pseudo-struct under which a hook variable's targets are recorded:
 * a function pointer of file scope with internal linkage, declared in
 * the file being read (net/socket.c's br_ioctl_hook), so every store to
 * it is in this file. NULL for any other variable. */
static char *hook_struct_name(struct walk *w, CXCursor var)
{
	if (clang_getCursorKind(var) != CXCursor_VarDecl ||
	    clang_getCursorKind(clang_getCursorSemanticParent(var)) != CXCursor_TranslationUnit ||
	    clang_getCursorLinkage(var) != CXLinkage_Internal || !in_own_code(w, var) ||
	    !is_function_pointer(clang_getCursorType(var)))
		return NULL;
	return xasprintf("hook in %s", w->ff->file);
}

/* A call through such a hook variable: like a member of its pseudo-struct. */
static void note_hook_callee(struct walk *w, CXCursor callee, struct stmt *s)
{
	CXCursor c = strip(callee);

	/* a local assigned from a member is that member (note_member_callee) */
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr || s->callee_struct)
		return;
	s->callee_struct = hook_struct_name(w, clang_getCursorReferenced(c));
	if (s->callee_struct)
		s->callee_field = cursor_name(clang_getCursorReferenced(c));
}

static int is_function_pointer_field(CXCursor field);

/* An argument that reads a function-pointer member (kvm_device_ioctl's
 * `dev->ops->set_attr` handed to kvm_device_ioctl_attr as its accessor). */
static void note_member_argument(struct walk *w, CXCursor a, struct call_arg *arg)
{
	CXCursor field = member_read(a, &arg->member_struct, &arg->member_field);
	CXCursor x = strip(a);

	if (arg->member_struct) {
		arg->read_struct = xstrdup(arg->member_struct);
		arg->read_field = xstrdup(arg->member_field);
	} else {
		member_of_local(w, x, &arg->read_struct, &arg->read_field);
	}

	if (arg->member_struct && !is_function_pointer_field(field)) {
		free(arg->member_struct);
		free(arg->member_field);
		arg->member_struct = arg->member_field = NULL;
	}
}

/* Open-addressing set of declarations already queued. */
static int header_seen_insert(struct walk *w, const void *decl)
{
	size_t h;

	if (2 * (w->header_seen_len + 1) > w->header_seen_cap) {
		const void **old = w->header_seen;
		size_t oldcap = w->header_seen_cap;

		w->header_seen_cap = oldcap ? 2 * oldcap : 256;
		w->header_seen = xcalloc(w->header_seen_cap, sizeof(*w->header_seen));
		w->header_seen_len = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				header_seen_insert(w, old[i]);
		free(old);
	}
	for (h = ((uintptr_t)decl >> 4) % w->header_seen_cap; w->header_seen[h];
	     h = (h + 1) % w->header_seen_cap)
		if (w->header_seen[h] == decl)
			return 0;
	w->header_seen[h] = decl;
	w->header_seen_len++;
	return 1;
}

/* A call to a function whose body is in a header: read that body too. */
static void queue_header_definition(struct walk *w, CXCursor callee)
{
	CXCursor def;

	if (!w->hf)
		return;
	def = clang_getCursorDefinition(callee);
	if (clang_Cursor_isNull(def) || !header_seen_insert(w, def.data[0]) || in_own_code(w, def))
		return;
	vec_push(&w->header_queue, def);
}

/* The tree-relative name of the file a definition is in: NULL outside the
 * source tree and the build directory (compiler headers). */
static char *tree_file_of(const struct walk *w, CXCursor def)
{
	CXFile f;
	char *abs, *rel = NULL;
	const char *roots[2] = { w->kt->ksrc, w->kt->build_dir };

	clang_getExpansionLocation(clang_getCursorLocation(def), &f, NULL, NULL, NULL);
	if (!f)
		return NULL;
	abs = cxstr(clang_getFileName(f));
	for (int i = 0; i < 2 && !rel; i++) {
		size_t n = roots[i] ? strlen(roots[i]) : 0;

		if (n && !strncmp(abs, roots[i], n) && abs[n] == '/')
			rel = xstrdup(abs + n + 1);
	}
	free(abs);
	return rel;
}

/* The tree-relative file code of this translation unit is written in:
 * the parsed file, or a `.c` file it includes (in_own_code). */
static char *own_file_of(const struct walk *w, CXCursor c)
{
	CXFile f;
	char *rel;

	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	if (!f || clang_File_isEqual(f, w->main_file))
		return xstrdup(w->ff->file);
	rel = tree_file_of(w, c);
	return rel ? rel : xstrdup(w->ff->file);
}

static void extract_function(struct walk *w, CXCursor fn, const char *file);

/* The header functions the file's calls reach, and those they call in
 * turn, each extracted by the first file that claims it. */
static void extract_header_functions(struct walk *w)
{
	for (size_t i = 0; i < w->header_queue.len && i < MAX_HEADER_FUNCTIONS; i++) {
		CXCursor def = w->header_queue.items[i];
		char *file = tree_file_of(w, def);
		char *name = cursor_name(def);

		if (file && header_functions_claim(w->hf, file, name)) {
			struct function_facts *f;

			extract_function(w, def, file);
			/* the same definition in every file that includes it */
			f = w->ff->functions.items[w->ff->functions.len - 1];
			f->is_static = 0;
			f->in_header = 1;
		}
		free(file);
		free(name);
	}
	vec_free(&w->header_queue);
	free(w->header_seen);
}

static char *function_named_by(CXCursor e);

/* An indirect callee that is one of the function's parameters, as such
 * (fn(handle, data) in input_handler_for_each_handle): a callback whose
 * target the caller names. */
static int callback_param(struct walk *w, CXCursor callee)
{
	CXCursor c = strip(callee);
	struct param_view v;

	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return -1;
	v = view_of_decl(w, c);
	return v.shift == 0 ? v.param : -1;
}

/* A copy of a premise (an ST_IF testing a parameter, no branches). */
static struct stmt *premise_copy(const struct stmt *p)
{
	struct stmt *q = stmt_new(ST_IF, p->line);

	q->cond = p->cond;
	q->cmp_view = p->cmp_view;
	q->cmp_eq = p->cmp_eq;
	for (size_t i = 0; i < p->segs.len; i++) {
		struct switch_segment seg = {0};

		for (size_t j = 0; j < p->segs.items[i].labels.len; j++) {
			struct case_label l = p->segs.items[i].labels.items[j];

			l.name = l.name ? xstrdup(l.name) : NULL;
			vec_push(&seg.labels, l);
		}
		vec_push(&q->segs, seg);
	}
	return q;
}

/* What a function the file defines does with the pointer its parameter
 * `out` points to (the caller's `&ptr`), as far as its body shows. */
struct out_param {
	struct walk *w;
	CXCursor param;
	struct origins *origins;	/* the callee's own */
	int uses;		/* of the parameter, anywhere */
	int stores;		/* of them, `*out = v` */
	cursorvec values;	/* the v of each store */
};

/* Is e `*p`, p naming decl? */
static int derefs(CXCursor e, CXCursor decl)
{
	CXCursor t = strip(e), x;
	cursorvec kids;
	int yes = 0;

	if (clang_getCursorKind(t) != CXCursor_UnaryOperator)
		return 0;
	kids = children_of(t);
	if (kids.len == 1) {
		x = strip(kids.items[0]);
		yes = clang_getCursorKind(x) == CXCursor_DeclRefExpr &&
		      clang_equalCursors(clang_getCursorReferenced(x), decl) &&
		      same_type(clang_getCursorType(t), clang_getPointeeType(clang_getCursorType(x)));
	}
	vec_free(&kids);
	return yes;
}

static enum CXChildVisitResult visit_out_param(CXCursor c, CXCursor parent, CXClientData data)
{
	struct out_param *op = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	cursorvec kids;
	char *oper;

	(void)parent;
	switch (k) {
	case CXCursor_DeclRefExpr:
		if (clang_equalCursors(clang_getCursorReferenced(c), op->param))
			op->uses++;
		break;
	case CXCursor_VarDecl:
		kids = children_of(c);
		for (size_t i = 0; i < kids.len; i++)
			if (clang_isExpression(clang_getCursorKind(kids.items[i])))
				origins_assign(op->origins, c, &kids.items[i]);
		vec_free(&kids);
		break;
	case CXCursor_UnaryOperator:
		/* `&p` of a pointer p of the callee's lets others repoint it */
		(void)origin_of_pointer(op->origins, c);
		break;
	case CXCursor_BinaryOperator:
		kids = children_of(c);
		oper = kids.len == 2 ? operator_of(op->w, c) : NULL;
		if (oper && !strcmp(oper, "=")) {
			CXCursor l = strip(kids.items[0]);

			if (derefs(l, op->param)) {
				op->stores++;
				vec_push(&op->values, kids.items[1]);
			} else if (clang_getCursorKind(l) == CXCursor_DeclRefExpr && is_local_var(l)) {
				origins_assign(op->origins, clang_getCursorReferenced(l), &kids.items[1]);
			}
		}
		free(oper);
		vec_free(&kids);
		break;
	default:
		break;
	}
	return CXChildVisit_Recurse;
}

/* The argument whose pointee a call of fn points *arg `out` at: when fn's
 * body (in this file) uses that parameter only as `*out = v`, and every v
 * but NULL points into what one parameter points to (check_array_args'
 * `*kernel_ptr = (void **)&buf->m.planes` with buf = parg), that
 * parameter's index; else -1. The caller's pointer then points where it
 * passed that argument (video_usercopy's kernel_ptr: into parg, the
 * kernel's copy of the argument), or nowhere. */
static int out_param_source(struct walk *w, CXCursor callee, int out)
{
	CXCursor def = clang_getCursorDefinition(callee), params[16], body = clang_getNullCursor();
	int nparams = clang_Cursor_getNumArguments(def), src = -1;
	struct out_param op = { .w = w };
	cursorvec kids;

	if (clang_Cursor_isNull(def) || out >= nparams || nparams > 16)
		return -1;
	for (int i = 0; i < nparams; i++)
		params[i] = clang_Cursor_getArgument(def, (unsigned)i);
	kids = children_of(def);
	for (size_t i = 0; i < kids.len; i++)
		if (clang_getCursorKind(kids.items[i]) == CXCursor_CompoundStmt)
			body = kids.items[i];
	vec_free(&kids);
	if (clang_Cursor_isNull(body))
		return -1;
	op.param = params[out];
	op.origins = origins_new(w->kn, params, nparams);
	clang_visitChildren(body, visit_out_param, &op);
	if (op.stores && op.uses == op.stores) {
		for (size_t i = 0; i < op.values.len; i++) {
			struct origin o;

			if (is_null_constant(op.values.items[i]))
				continue;
			o = origins_resolve(op.origins, origin_of_pointer(op.origins, op.values.items[i]));
			if (o.kind != ORIGIN_PARAM || (src >= 0 && o.n != src) || o.n == out) {
				src = -1;
				break;
			}
			src = o.n;
		}
	}
	vec_free(&op.values);
	origins_free(op.origins);
	return src;
}

/* The variable an argument `&p` hands a callee to point somewhere, p a
 * pointer of this frame; a null cursor otherwise. */
static CXCursor repointed_var(CXCursor a)
{
	CXCursor t = strip(a), x;
	cursorvec kids;
	CXCursor v = clang_getNullCursor();

	if (clang_getCursorKind(t) != CXCursor_UnaryOperator)
		return v;
	kids = children_of(t);
	if (kids.len == 1) {
		x = strip(kids.items[0]);
		if (clang_getCursorKind(x) == CXCursor_DeclRefExpr && is_local_var(x) &&
		    clang_getCanonicalType(clang_getCursorType(x)).kind == CXType_Pointer &&
		    same_type(clang_getPointeeType(clang_getCursorType(t)), clang_getCursorType(x)))
			v = clang_getCursorReferenced(x);
	}
	vec_free(&kids);
	return v;
}

/* Where a call's argument points; an argument `&p` by which a function of
 * this file points p into what another argument points to also assigns
 * p that argument (out_param_source). */
static struct origin call_arg_origin(struct walk *w, CXCursor c, CXCursor callee, int i)
{
	CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
	CXCursor v = repointed_var(a);
	int src;

	if (!clang_Cursor_isNull(v) && !clang_Cursor_isNull(callee) &&
	    clang_getCursorKind(callee) == CXCursor_FunctionDecl &&
	    (src = out_param_source(w, callee, i)) >= 0 &&
	    src < clang_Cursor_getNumArguments(c)) {
		CXCursor s = clang_Cursor_getArgument(c, (unsigned)src);
		struct origin frame = { ORIGIN_FRAME, 0 };

		origins_assign(w->origins, v, &s);
		return frame;
	}
	return origin_of_pointer(w->origins, a);
}

static void add_call(struct walk *w, CXCursor c, struct stmt *block)
{
	struct stmt *s = stmt_new(ST_CALL, cursor_line(c));
	CXCursor callee = clang_getCursorReferenced(c);
	int nargs = clang_Cursor_getNumArguments(c);

	if (!clang_Cursor_isNull(callee) &&
	    clang_getCursorKind(callee) == CXCursor_FunctionDecl) {
		s->callee = cursor_name(callee);
		queue_header_definition(w, callee);
	} else {
		cursorvec kids = children_of(c);

		s->callee_text = kids.len ? extent_text(w, kids.items[0]) : xstrdup("?");
		if (kids.len) {
			note_member_callee(w, kids.items[0], s);
			note_hook_callee(w, kids.items[0], s);
			note_indexed_callee(w, kids.items[0], s);
			s->callee_param = callback_param(w, kids.items[0]);
		}
		vec_free(&kids);
	}
	for (int i = 0; i < w->nnegated; i++) {
		if (!clang_equalRanges(clang_getCursorExtent(c), w->negated_calls[i]))
			continue;
		if (!w->negated_premises[i])
			s->negated_in_cond = 1;
		for (size_t j = 0; w->negated_premises[i] && j < w->negated_premises[i]->kids.len; j++)
			vec_push(&s->premises, premise_copy(w->negated_premises[i]->kids.items[j]));
	}
	for (int i = 0; i < nargs && i < 16; i++) {
		CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
		struct call_arg arg = {0};
		int64_t k;

		arg.view = view_of(w, a);
		arg.ptr_param = -1;
		if (w->origins) {
			struct pending_origin p = { s, i, call_arg_origin(w, c, callee, i),
						    origin_place_of(c) };

			if (p.origin.kind != ORIGIN_UNKNOWN)
				vec_push(&w->pending, p);
		}
		if (eval_int(a, &k)) {
			arg.is_const = 1;
			arg.value = k;
		}
		/* a null pointer: nothing is stored or linked through it */
		arg.is_null = is_null_constant(a);
		if (arg.is_null)
			arg.points_to_local = arg.points_to_frame = 1;
		arg.spelling = constant_name(w, a);
		arg.function = function_named_by(a);
		note_member_argument(w, a, &arg);
		arg_comparison(w, a, &arg);
		vec_push(&s->args, arg);
	}
	vec_push(&block->kids, s);
}

static void add_macro_call(CXCursor c, char *name, struct stmt *block)
{
	struct stmt *s = stmt_new(ST_CALL, cursor_line(c));

	s->callee = name;
	s->is_macro = 1;
	vec_push(&block->kids, s);
}


struct macro_args {
	struct walk *w;
	struct stmt *block;
	CXFile file;	/* where the macro is used */
};

static enum CXChildVisitResult macro_arg_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
	struct macro_args *ma = d;
	CXFile f = NULL;

	(void)parent;
	clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	if (clang_isExpression(clang_getCursorKind(c)) && f && clang_File_isEqual(f, ma->file)) {
		walk_expr(ma->w, c, ma->block);
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

/* The expressions written as arguments of an API macro recorded as a call
 * (put_user(dev->ops->get(dev), p)): their tokens are spelled where the
 * macro is used, the macro body's in its header. Those are walked, the
 * body's own code is not. */
static void walk_macro_args(struct walk *w, CXCursor c, struct stmt *block)
{
	struct macro_args ma = { w, block, NULL };

	clang_getExpansionLocation(clang_getCursorLocation(c), &ma.file, NULL, NULL, NULL);
	w->in_macro_args++;
	if (ma.file)
		clang_visitChildren(c, macro_arg_visitor, &ma);
	w->in_macro_args--;
}

struct macro_lvalue {
	CXFile file;
	unsigned offset;	/* where the argument starts */
	CXCursor found;
	int seen;
};

static enum CXChildVisitResult macro_lvalue_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
	struct macro_lvalue *ml = d;
	CXFile f = NULL;
	unsigned off;

	(void)parent;
	clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &off);
	if (clang_isExpression(clang_getCursorKind(c)) && f && clang_File_isEqual(f, ml->file) &&
	    off == ml->offset) {
		ml->found = c;
		ml->seen = 1;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Recurse;
}

/* An API macro that assigns its first argument (get_user(dev->mode, p)
 * stores into dev->mode): the store is in the macro body, where no
 * operator is visible, so it is recorded from the argument as written.
 * When the argument cannot be found the store counts as non-local. */
static void add_macro_lvalue_store(struct walk *w, CXCursor c, struct stmt *block)
{
	struct macro_lvalue ml = { NULL, 0, clang_getNullCursor(), 0 };
	struct strbuf arg = { 0 };
	CXToken *toks = NULL;
	unsigned n = 0;

	if (cursor_tokens(w->tu, c, &toks, &n) && n > 3) {
		clang_getExpansionLocation(clang_getTokenLocation(w->tu, toks[2]), &ml.file, NULL, NULL,
					   &ml.offset);
		if (ml.file)
			clang_visitChildren(c, macro_lvalue_visitor, &ml);
		/* the argument as written, for the evidence */
		for (unsigned i = 2, depth = 0; i < n; i++) {
			char *t = cxstr(clang_getTokenSpelling(w->tu, toks[i]));

			if (!depth && (!strcmp(t, ",") || !strcmp(t, ")"))) {
				free(t);
				break;
			}
			depth += !strcmp(t, "(") || !strcmp(t, "[");
			depth -= depth && (!strcmp(t, ")") || !strcmp(t, "]"));
			sb_add(&arg, t);
			free(t);
		}
	}
	if (toks)
		clang_disposeTokens(w->tu, toks, n);
	if (ml.seen) {
		if (clang_getCursorKind(strip(ml.found)) == CXCursor_DeclRefExpr)
			origins_assign(w->origins, clang_getCursorReferenced(strip(ml.found)), NULL);
		add_store(w, ml.found, NULL, block);
		free(block->kids.items[block->kids.len - 1]->target);
		block->kids.items[block->kids.len - 1]->target = arg.len ? sb_detach(&arg) :
								  xstrdup("(macro argument)");
	} else {
		struct stmt *s = stmt_new(ST_STORE, cursor_line(c));

		s->target = xstrdup("(the destination of an assigning macro)");
		if (w->flags)
			local_flags_poison(w->flags);
		free(sb_detach(&arg));
		s->nonlocal = 1;
		s->store_param = -1;
		vec_push(&block->kids, s);
	}
}

/* An API macro recorded as one call: its arguments as written, the store
 * into its first argument if it assigns it, then the call. */
static void walk_api_macro(struct walk *w, CXCursor c, char *macro, struct stmt *block)
{
	walk_macro_args(w, c, block);
	if (!w->in_macro_args && strvec_contains(&w->kn->macro_assigns, macro))
		add_macro_lvalue_store(w, c, block);
	add_macro_call(c, macro, block);
}

static void walk_kids(struct walk *w, CXCursor c, struct stmt *block)
{
	cursorvec kids = children_of(c);

	for (size_t i = 0; i < kids.len; i++)
		walk_expr(w, kids.items[i], block);
	vec_free(&kids);
}

/* A call of the function name itself (not a macro of that name). */
static int is_function_call_to(CXCursor c, const char *name)
{
	CXCursor callee;
	char *n;
	int same;

	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return 0;
	callee = clang_getCursorReferenced(c);
	if (clang_getCursorKind(callee) != CXCursor_FunctionDecl)
		return 0;
	n = cursor_name(callee);
	same = !strcmp(n, name);
	free(n);
	return same;
}

/* `local = x->field` (or its initialiser): remembered while every
 * assignment of the local is a read of that same member. */
static void note_member_local(struct walk *w, CXCursor decl, CXCursor value)
{
	char *sname = NULL, *field = NULL;
	const void *key = decl.data[0];
	int null = is_null_constant(value);
	char *array = null ? NULL : const_array_element(value);

	member_read(value, &sname, &field);
	for (size_t i = 0; i < w->member_locals.len; i++) {
		struct member_local *m = &w->member_locals.items[i];

		if (m->decl != key)
			continue;
		if (!null && (!array || (m->array && strcmp(m->array, array))))
			m->array_conflict = 1;
		else if (array && !m->array)
			m->array = xstrdup(array);
		free(array);
		if (m->sname && (!sname || strcmp(m->sname, sname) || strcmp(m->field, field))) {
			free(m->sname);
			free(m->field);
			m->sname = m->field = NULL;
		}
		free(sname);
		free(field);
		return;
	}
	{
		struct member_local m = { key, sname, sname ? field : NULL, array,
					  !null && !array };

		if (!sname)
			free(field);
		vec_push(&w->member_locals, m);
	}
}

/* `A[i]` or `A[i].f`, A an array of file scope with an initialiser in
 * this file and i a view of a parameter, plus or minus a constant
 * (`mga_compat_ioctls[nr - DRM_COMMAND_BASE].fn`): fills ref (field
 * allocated) and returns 1. */
static int indexed_element(struct walk *w, CXCursor e, struct indexed_ref *ref)
{
	CXCursor x = strip(e), base, index, d;
	cursorvec kids;
	char *field = NULL, *op;
	int64_t k, offset = 0;
	int ok = 0;

	if (clang_getCursorKind(x) == CXCursor_MemberRefExpr) {
		CXCursor f = clang_getCursorReferenced(x);

		kids = children_of(x);
		if (kids.len != 1 || clang_getCursorKind(f) != CXCursor_FieldDecl) {
			vec_free(&kids);
			return 0;
		}
		field = cursor_name(f);
		x = strip(kids.items[0]);
		vec_free(&kids);
	}
	kids = children_of(x);
	if (clang_getCursorKind(x) != CXCursor_ArraySubscriptExpr || kids.len != 2)
		goto out;
	base = strip(kids.items[0]);
	index = kids.items[1];
	d = clang_getCursorReferenced(base);
	if (clang_getCursorKind(base) != CXCursor_DeclRefExpr ||
	    clang_getCursorKind(d) != CXCursor_VarDecl ||
	    clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit)
		goto out;
	/* [nr - DRM_COMMAND_BASE] */
	if (clang_getCursorKind(strip(index)) == CXCursor_BinaryOperator) {
		cursorvec ops = children_of(strip(index));

		op = operator_of(w, strip(index));
		if (ops.len == 2 && op && (!strcmp(op, "-") || !strcmp(op, "+")) &&
		    eval_int(ops.items[1], &k)) {
			offset = !strcmp(op, "-") ? -k : k;
			index = ops.items[0];
		}
		free(op);
		vec_free(&ops);
	}
	ref->view = view_of(w, index);
	if (ref->view.param < 0)
		goto out;
	ref->array = d;
	ref->field = field;
	ref->offset = offset;
	field = NULL;
	ok = 1;
out:
	vec_free(&kids);
	free(field);
	return ok;
}

static int same_name(const char *a, const char *b)
{
	return a ? b && !strcmp(a, b) : !b;
}

static int same_array(const struct indexed_ref *a, const struct indexed_ref *b)
{
	return clang_equalCursors(a->array, b->array) && same_name(a->field, b->field) &&
	       same_name(a->key, b->key);
}

static int same_indexed(const struct indexed_ref *a, const struct indexed_ref *b)
{
	return same_array(a, b) &&
	       a->view.param == b->view.param && a->view.shift == b->view.shift &&
	       a->view.mask == b->view.mask && a->offset == b->offset;
}

/* A local assigned a value: whether it holds only an indexed element. */
static void note_indexed_local(struct walk *w, CXCursor decl, CXCursor value)
{
	struct indexed_ref ref = {0};
	int found = !is_null_constant(value) && indexed_element(w, value, &ref);

	if (is_null_constant(value))
		return;
	for (size_t i = 0; i < w->indexed_locals.len; i++) {
		struct indexed_local *l = &w->indexed_locals.items[i];

		if (l->decl != decl.data[0])
			continue;
		if (!found || (!clang_Cursor_isNull(l->ref.array) && !same_indexed(&l->ref, &ref)))
			l->conflict = 1;
		free(ref.field);
		return;
	}
	{
		struct indexed_local l = { decl.data[0], ref, !found };

		if (!found)
			l.ref.array = clang_getNullCursor();
		vec_push(&w->indexed_locals, l);
	}
}

/* An indexed element, directly or through a local holding only one (a
 * reference copied into ref, field allocated). */
static int indexed_value(struct walk *w, CXCursor x, struct indexed_ref *ref)
{
	const void *decl;

	if (clang_getCursorKind(x) != CXCursor_DeclRefExpr)
		return indexed_element(w, x, ref);
	decl = clang_getCursorReferenced(x).data[0];
	for (size_t i = 0; i < w->indexed_locals.len; i++) {
		const struct indexed_local *l = &w->indexed_locals.items[i];

		if (l->decl == decl && !l->conflict) {
			*ref = l->ref;
			ref->field = l->ref.field ? xstrdup(l->ref.field) : NULL;
			return 1;
		}
	}
	return 0;
}

/* s reads the element ref names (stmt.callee_array); the array is
 * recorded with the file's (record_fn_arrays). Takes ref's field. */
static void note_indexed(struct walk *w, const struct indexed_ref *ref, struct stmt *s)
{
	const char *member = ref->key ? ref->key : ref->field;

	s->callee_array = cursor_name(ref->array);
	s->callee_array_field = member ? xstrdup(member) : NULL;
	s->callee_index = ref->view;
	s->callee_index_offset = ref->offset;
	for (size_t i = 0; i < w->indexed_arrays.len; i++)
		if (same_array(&w->indexed_arrays.items[i], ref)) {
			free(ref->field);
			free(ref->key);
			return;
		}
	vec_push(&w->indexed_arrays, *ref);
}

/* An indirect callee that is an indexed element ((*fn)(filp, cmd, arg)):
 * stmt.callee_array. */
static void note_indexed_callee(struct walk *w, CXCursor callee, struct stmt *s)
{
	CXCursor x = strip(callee);
	struct indexed_ref ref = {0};

	if (clang_getCursorKind(x) == CXCursor_UnaryOperator) {
		cursorvec kids = children_of(x);

		if (kids.len == 1)
			x = strip(kids.items[0]);
		vec_free(&kids);
	}
	if (indexed_value(w, x, &ref))
		note_indexed(w, &ref, s);
}

static int binary_parts(struct walk *w, CXCursor c, cursorvec *kids, char **op);

/* `A[i].f`, A an array of file scope and i a variable: A's declaration,
 * i's, and the member's name (allocated). */
static int element_member(CXCursor e, CXCursor *array, const void **index, char **field)
{
	CXCursor x = strip(e), f = clang_getCursorReferenced(x), base, idx;
	cursorvec kids;
	int ok = 0;

	if (clang_getCursorKind(x) != CXCursor_MemberRefExpr ||
	    clang_getCursorKind(f) != CXCursor_FieldDecl)
		return 0;
	kids = children_of(x);
	if (kids.len == 1)
		x = strip(kids.items[0]);
	vec_free(&kids);
	kids = children_of(x);
	if (clang_getCursorKind(x) != CXCursor_ArraySubscriptExpr || kids.len != 2)
		goto out;
	base = strip(kids.items[0]);
	idx = strip(kids.items[1]);
	*array = clang_getCursorReferenced(base);
	if (clang_getCursorKind(base) != CXCursor_DeclRefExpr ||
	    clang_getCursorKind(*array) != CXCursor_VarDecl ||
	    clang_getCursorKind(clang_getCursorSemanticParent(*array)) != CXCursor_TranslationUnit ||
	    clang_getCursorKind(idx) != CXCursor_DeclRefExpr)
		goto out;
	*index = clang_getCursorReferenced(idx).data[0];
	*field = cursor_name(f);
	ok = 1;
out:
	vec_free(&kids);
	return ok;
}

/* A search of an array of records for the command (`if (cmd32 ==
 * atm_ioctl_map[i].cmd32)`): the array, the index variable, the member
 * compared and the view of the parameter compared with it. */
struct search_test {
	CXCursor array;
	const void *index;
	char *key;
	struct param_view view;
};

static int search_test(struct walk *w, CXCursor cond, struct search_test *t)
{
	cursorvec kids;
	char *op;
	int ok = 0;

	if (!binary_parts(w, cond, &kids, &op))
		return 0;
	for (int side = 0; !strcmp(op, "==") && side < 2 && !ok; side++) {
		struct param_view v = view_of(w, kids.items[side]);

		if (v.param >= 0 &&
		    element_member(kids.items[1 - side], &t->array, &t->index, &t->key)) {
			t->view = v;
			ok = 1;
		}
	}
	free(op);
	vec_free(&kids);
	return ok;
}

/* What the function's code stores in the local a switch tests. */
struct translation_search {
	struct walk *w;
	const void *local;
	struct indexed_ref ref;	/* array null until an element is stored */
	int has_init;		/* declared with a constant initialiser */
	int conflict;		/* stored anything else, or its address taken */
	int64_vec constants;	/* the constants stored */
};

static int names_local(const struct translation_search *q, CXCursor c)
{
	c = strip(c);
	return clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
	       clang_getCursorReferenced(c).data[0] == q->local;
}

/* `local = value` under the search test t (or none): an element's member
 * the test found, or a constant; anything else is a conflict. */
static void search_store(struct translation_search *q, CXCursor value,
			 const struct search_test *t)
{
	CXCursor array;
	const void *index;
	char *field = NULL;
	int64_t k;

	if (eval_int(value, &k)) {
		vec_push(&q->constants, k);
		return;
	}
	if (!t || !element_member(value, &array, &index, &field) ||
	    !clang_equalCursors(array, t->array) || index != t->index ||
	    (!clang_Cursor_isNull(q->ref.array) &&
	     (!clang_equalCursors(q->ref.array, array) || strcmp(q->ref.field, field) ||
	      strcmp(q->ref.key, t->key) || memcmp(&q->ref.view, &t->view, sizeof(t->view))))) {
		q->conflict = 1;
		free(field);
		return;
	}
	if (!clang_Cursor_isNull(q->ref.array)) {
		free(field);
		return;
	}
	q->ref.array = array;
	q->ref.field = field;
	q->ref.key = xstrdup(t->key);
	q->ref.view = t->view;
}

static void search_stores(struct translation_search *q, CXCursor c, const struct search_test *t)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	cursorvec kids = children_of(c);

	if (k == CXCursor_IfStmt && kids.len >= 2) {
		struct search_test mine = {0};
		int found = search_test(q->w, kids.items[0], &mine);

		for (size_t i = 0; i < kids.len; i++)
			search_stores(q, kids.items[i], i == 1 && found ? &mine : t);
		free(mine.key);
		vec_free(&kids);
		return;
	}
	if (k == CXCursor_VarDecl && c.data[0] == q->local) {
		int64_t v;

		/* the initialiser is the declaration's last child */
		if (kids.len && eval_int(kids.items[kids.len - 1], &v)) {
			q->has_init = 1;
			vec_push(&q->constants, v);
		}
	} else if (k == CXCursor_BinaryOperator && kids.len == 2 && names_local(q, kids.items[0])) {
		char *op = operator_of(q->w, c);

		if (op && !strcmp(op, "="))
			search_store(q, kids.items[1], t);
		free(op);
	} else if ((k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator) &&
		   kids.len && names_local(q, kids.items[0])) {
		char *op = k == CXCursor_UnaryOperator ? operator_of(q->w, c) : NULL;

		/* ++, --, &: changed, or may be through its address; a
		 * read (-x, !x, ~x) is not a store */
		if (k == CXCursor_CompoundAssignOperator || !op || !strcmp(op, "++") ||
		    !strcmp(op, "--") || !strcmp(op, "&"))
			q->conflict = 1;
		free(op);
	}
	for (size_t i = 0; i < kids.len; i++)
		search_stores(q, kids.items[i], t);
	vec_free(&kids);
}

/* A switch on a local that the function assigns only a member of the
 * element of a file-scope array of records it found by comparing another
 * member with a view of a parameter, besides constants, one of them its
 * initialiser (vcc_compat_ioctl's do_atm_ioctl: `for (i = 0; i <
 * NR_ATM_IOCTL; i++) if (cmd32 == atm_ioctl_map[i].cmd32) { cmd =
 * atm_ioctl_map[i].cmd; break; }`, then `switch (cmd)`): the command is
 * translated by search. ref gets the array, the member read and the
 * member compared (key); constants, what else the local may hold (the
 * initialiser: a command no element matches). */
static int translated_by_search(struct walk *w, CXCursor on, struct indexed_ref *ref,
				int64_vec *constants)
{
	CXCursor d = clang_getCursorReferenced(strip(on)), fn;
	struct translation_search q = { .w = w };

	if (clang_getCursorKind(strip(on)) != CXCursor_DeclRefExpr ||
	    clang_getCursorKind(d) != CXCursor_VarDecl)
		return 0;
	fn = clang_getCursorSemanticParent(d);
	if (clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return 0;
	q.local = d.data[0];
	q.ref.array = clang_getNullCursor();
	search_stores(&q, fn, NULL);
	if (q.conflict || !q.has_init || clang_Cursor_isNull(q.ref.array)) {
		free(q.ref.field);
		free(q.ref.key);
		vec_free(&q.constants);
		return 0;
	}
	*ref = q.ref;
	*constants = q.constants;
	return 1;
}

/* A switch on an element of an array of command values that a view of a
 * parameter indexes (dma_heap_ioctl's `kcmd = dma_heap_ioctl_cmds[nr];
 * switch (kcmd)`): the command is translated, and each case is reached
 * by the indexes whose element is its value (stmt.callee_array on
 * ST_SWITCH). Or one translated by search (translated_by_search): the
 * array is searched by its member key (stmt.callee_array_field), and
 * each case is reached by the values of key whose record holds its value;
 * the constants the local may hold otherwise are returned, for the
 * switch to check that no case takes them (a command no record matches
 * takes no case). */
static void note_translated_switch(struct walk *w, CXCursor on, struct stmt *s,
				   int64_vec *otherwise)
{
	struct indexed_ref ref = {0};

	if (s->on.param >= 0)
		return;
	if (!indexed_value(w, strip(on), &ref)) {
		if (translated_by_search(w, on, &ref, otherwise))
			note_indexed(w, &ref, s);
		return;
	}
	if (ref.field) {
		free(ref.field);
		return;
	}
	note_indexed(w, &ref, s);
}

/* A switch translated by search whose case takes a value the local may
 * hold when no record matches: not a translation after all. */
static void check_search_translation(struct stmt *s, const int64_vec *otherwise)
{
	for (size_t i = 0; i < s->segs.len; i++)
		for (size_t j = 0; j < s->segs.items[i].labels.len; j++)
			for (size_t k = 0; k < otherwise->len; k++) {
				const struct case_label *l = &s->segs.items[i].labels.items[j];
				uint64_t v = (uint64_t)otherwise->items[k];

				if (v < l->lo || v > l->hi)
					continue;
				free(s->callee_array);
				free(s->callee_array_field);
				s->callee_array = s->callee_array_field = NULL;
				return;
			}
}

/* The record a table kind names, if t is (a pointer to or an array of)
 * one: the struct name, else NULL. */
static char *table_struct_of(const struct walk *w, CXType t)
{
	CXType c = clang_getCanonicalType(t);
	char *name;

	if (c.kind == CXType_Pointer)
		c = clang_getCanonicalType(clang_getPointeeType(c));
	else if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray)
		c = clang_getCanonicalType(clang_getArrayElementType(c));
	else
		return NULL;
	name = record_name(c);
	if (name && !knowledge_table(w->kn, name)) {
		free(name);
		name = NULL;
	}
	return name;
}

/* A read of a static table (drm_ioctls) or of a member holding one
 * (dev->driver->ioctls): an ST_TABLE. */
static void note_table_use(struct walk *w, CXCursor c, struct stmt *block)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	CXCursor d = clang_getCursorReferenced(c);
	struct stmt *s;
	char *tname;

	if (k == CXCursor_DeclRefExpr && clang_getCursorKind(d) == CXCursor_VarDecl &&
	    clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_TranslationUnit) {
		CXType t = clang_getCanonicalType(clang_getCursorType(d));

		if (t.kind != CXType_ConstantArray && t.kind != CXType_IncompleteArray)
			return;
		tname = table_struct_of(w, t);
		if (!tname)
			return;
		s = stmt_new(ST_TABLE, cursor_line(c));
		s->target = cursor_name(d);
		free(tname);
		vec_push(&block->kids, s);
	} else if (k == CXCursor_MemberRefExpr && clang_getCursorKind(d) == CXCursor_FieldDecl) {
		CXType t = clang_getCanonicalType(clang_getCursorType(d));

		if (t.kind != CXType_Pointer || !(tname = table_struct_of(w, t)))
			return;
		free(tname);
		s = stmt_new(ST_TABLE, cursor_line(c));
		s->callee_struct = record_name(clang_getCursorType(clang_getCursorSemanticParent(d)));
		s->callee_field = cursor_name(d);
		if (!s->callee_struct) {
			stmt_free(s);
			return;
		}
		vec_push(&block->kids, s);
	}
}

static void walk_expr(struct walk *w, CXCursor c, struct stmt *block)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	cursorvec kids;
	char *op, *macro = NULL;

	if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)
		note_table_use(w, c, block);

	if (macro_may_expand(w->macros, c) && (macro = api_macro_at(w, c)) &&
	    is_function_call_to(c, macro)) {
		/* copy_from_user(...) inside unlikely(...): the function it
		 * is, its arguments read like any call's */
		free(macro);
		macro = NULL;
	}
	if (macro) {
		walk_api_macro(w, c, macro, block);
		return;
	}
	switch (k) {
	case CXCursor_CallExpr:
		walk_kids(w, c, block);
		add_call(w, c, block);
		return;
	case CXCursor_BinaryOperator:
		kids = children_of(c);
		op = operator_of(w, c);
		if (kids.len == 2 && op && !strcmp(op, "=")) {
			CXCursor l = strip(kids.items[0]);

			walk_expr(w, kids.items[1], block);
			walk_expr(w, kids.items[0], block);
			add_store(w, kids.items[0], &kids.items[1], block);
			if (clang_getCursorKind(l) == CXCursor_DeclRefExpr && is_local_var(l)) {
				remember_local(w, clang_getCursorReferenced(l),
					       view_of(w, kids.items[1]));
				origins_assign(w->origins, clang_getCursorReferenced(l), &kids.items[1]);
				note_member_local(w, clang_getCursorReferenced(l), kids.items[1]);
				note_indexed_local(w, clang_getCursorReferenced(l), kids.items[1]);
			}
		} else {
			for (size_t i = 0; i < kids.len; i++)
				walk_expr(w, kids.items[i], block);
		}
		free(op);
		vec_free(&kids);
		return;
	case CXCursor_CompoundAssignOperator:
		kids = children_of(c);
		op = operator_of(w, c);
		for (size_t i = 0; i < kids.len; i++)
			walk_expr(w, kids.items[i], block);
		if (kids.len == 2) {
			struct stmt *st = add_store(w, kids.items[0], NULL, block);
			int64_t k;

			if (op && strchr("&|+-", op[0]) && eval_int(kids.items[1], &k)) {
				st->compound_op = op[0];
				st->compound_value = k;
			}
		}
		free(op);
		vec_free(&kids);
		return;
	case CXCursor_UnaryOperator:
		kids = children_of(c);
		op = operator_of(w, c);
		for (size_t i = 0; i < kids.len; i++)
			walk_expr(w, kids.items[i], block);
		if (kids.len == 1 && op && (!strcmp(op, "++") || !strcmp(op, "--")))
			add_store(w, kids.items[0], NULL, block);
		/* &flag (or an operator the tokens do not show) */
		if (kids.len == 1 && w->flags && (!op || !strcmp(op, "&")))
			local_flags_escape(w->flags, kids.items[0]);
		free(op);
		vec_free(&kids);
		return;
	case CXCursor_VarDecl:
		if (w->flags)
			local_flags_declare(w->flags, c);
		kids = children_of(c);
		for (size_t i = 0; i < kids.len; i++) {
			enum CXCursorKind kk = clang_getCursorKind(kids.items[i]);

			if (clang_isExpression(kk)) {
				walk_expr(w, kids.items[i], block);
				remember_local(w, c, view_of(w, kids.items[i]));
				origins_assign(w->origins, c, &kids.items[i]);
				note_member_local(w, c, kids.items[i]);
				note_indexed_local(w, c, kids.items[i]);
				if (kk == CXCursor_InitListExpr)
					add_first_element(c, kids.items[i], block);
				else
					add_init_store(w, c, kids.items[i], block);
			}
		}
		vec_free(&kids);
		return;
	default:
		/* the body of a statement expression (a macro's ({ ... }):
		 * wait_event, cmpxchg) is statements: asm, ifs, loops */
		if (k == CXCursor_CompoundStmt) {
			struct stmt *s = walk_stmt(w, c);

			if (s)
				vec_push(&block->kids, s);
			return;
		}
		walk_kids(w, c, block);
		return;
	}
}

static struct stmt *walk_stmt(struct walk *w, CXCursor c);

static int ends_flow(const struct stmt *b)
{
	const struct stmt *last;

	if (!b || b->kind != ST_BLOCK || !b->kids.len)
		return 0;
	last = b->kids.items[b->kids.len - 1];
	return last->kind == ST_RETURN || last->kind == ST_BREAK || last->kind == ST_GOTO;
}

/* Appends the statement(s) for c to block; nested blocks are flattened
 * into their parent to keep trees shallow. */
static void walk_into(struct walk *w, CXCursor c, struct stmt *block)
{
	struct stmt *s = walk_stmt(w, c);

	if (!s)
		return;
	if (s->kind == ST_BLOCK) {
		for (size_t i = 0; i < s->kids.len; i++)
			vec_push(&block->kids, s->kids.items[i]);
		s->kids.len = 0;
		stmt_free(s);
	} else {
		vec_push(&block->kids, s);
	}
}

static void add_label(struct walk *w, struct switch_segment *seg, CXCursor lo,
		      CXCursor *hi)
{
	struct case_label lab = {0};
	int64_t v;

	lab.line = cursor_line(lo);
	lab.name = constant_name(w, lo);
	if (!eval_int(lo, &v)) {
		add_diag(&w->ff->diags, w->ff->file, "warning",
			 "case label could not be evaluated");
		free(lab.name);
		return;
	}
	lab.lo = lab.hi = (uint64_t)v;
	if (hi && eval_int(*hi, &v))
		lab.hi = (uint64_t)v;
	vec_push(&seg->labels, lab);
}

/* A case statement nests the next label of its group as its sub-statement:
 * case A: case B: x; is Case(A, Case(B, x)). */
static CXCursor collect_labels(struct walk *w, CXCursor c, struct switch_segment *seg)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		cursorvec kids;
		CXCursor sub;

		if (k != CXCursor_CaseStmt && k != CXCursor_DefaultStmt)
			return c;
		kids = children_of(c);
		if (!kids.len) {
			vec_free(&kids);
			return clang_getNullCursor();
		}
		if (k == CXCursor_DefaultStmt) {
			seg->is_default = 1;
		} else if (kids.len == 3) {
			add_label(w, seg, kids.items[0], &kids.items[1]);
		} else if (kids.len == 2) {
			add_label(w, seg, kids.items[0], NULL);
		}
		sub = kids.items[kids.len - 1];
		vec_free(&kids);
		if (k == CXCursor_CaseStmt && clang_Cursor_isNull(sub))
			return sub;
		c = sub;
	}
}

static struct stmt *walk_switch(struct walk *w, CXCursor c)
{
	cursorvec kids = children_of(c), body;
	struct stmt *s = stmt_new(ST_SWITCH, cursor_line(c));
	struct stmt *pre = stmt_new(ST_BLOCK, cursor_line(c));
	struct switch_segment *cur = NULL;
	int64_vec otherwise = {0};

	if (kids.len < 2) {
		vec_free(&kids);
		stmt_free(pre);
		return s;
	}
	s->on = view_of(w, kids.items[0]);
	note_translated_switch(w, kids.items[0], s, &otherwise);
	walk_expr(w, kids.items[0], pre);
	body = children_of(kids.items[kids.len - 1]);
	if (clang_getCursorKind(kids.items[kids.len - 1]) != CXCursor_CompoundStmt) {
		vec_free(&body);
		vec_push(&body, kids.items[kids.len - 1]);
	}
	for (size_t i = 0; i < body.len; i++) {
		enum CXCursorKind k = clang_getCursorKind(body.items[i]);
		CXCursor first = body.items[i];

		if (k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt) {
			struct switch_segment seg = {0};

			origins_label(w->origins, first);
			seg.body = stmt_new(ST_BLOCK, cursor_line(first));
			vec_push(&s->segs, seg);
			cur = &s->segs.items[s->segs.len - 1];
			first = collect_labels(w, first, cur);
			if (clang_Cursor_isNull(first))
				continue;
		}
		if (cur) {
			struct origin_statement outer =
				origins_statement(w->origins, first, kids.items[kids.len - 1]);

			walk_into(w, first, cur->body);
			origins_restore_statement(w->origins, outer);
		}
	}
	for (size_t i = 0; i < s->segs.len; i++)
		s->segs.items[i].falls_through = !ends_flow(s->segs.items[i].body);
	if (s->callee_array && s->callee_array_field)
		check_search_translation(s, &otherwise);
	vec_free(&otherwise);
	vec_free(&body);
	vec_free(&kids);
	if (pre->kids.len) {
		/* calls in the switch expression run before the dispatch */
		vec_push(&pre->kids, s);
		return pre;
	}
	stmt_free(pre);
	return s;
}

/* Fills the IF's comparison for `view == K`, `view != K`, and chains of
 * them joined by || (==) or && (!=). Returns 0 if c is not of that form. */
/* A binary operator's two operands and its operator; 0 (nothing to
 * free) when c is not one or its operator cannot be read. */
static int binary_parts(struct walk *w, CXCursor c, cursorvec *kids, char **op)
{
	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_BinaryOperator)
		return 0;
	*kids = children_of(c);
	*op = kids->len == 2 ? operator_of(w, c) : NULL;
	if (!*op) {
		vec_free(kids);
		return 0;
	}
	return 1;
}

static int param_cmp(struct walk *w, CXCursor c, struct stmt *s, const char *join)
{
	cursorvec kids;
	char *op;
	int ok = 0;

	if (!binary_parts(w, c, &kids, &op))
		return 0;
	if (!strcmp(op, "||") || !strcmp(op, "&&")) {
		if (join && strcmp(join, op))
			goto out;
		ok = param_cmp(w, kids.items[0], s, op) && param_cmp(w, kids.items[1], s, op);
	} else if (!strcmp(op, "==") || !strcmp(op, "!=")) {
		int eq = !strcmp(op, "==");
		struct param_view l = view_of(w, kids.items[0]);
		struct param_view r = view_of(w, kids.items[1]);
		CXCursor k = l.param >= 0 ? kids.items[1] : kids.items[0];
		struct param_view v = l.param >= 0 ? l : r;
		int64_t value;

		if ((l.param >= 0) == (r.param >= 0) || !eval_int(k, &value))
			goto out;
		if (join && ((!strcmp(join, "||") && !eq) || (!strcmp(join, "&&") && eq)))
			goto out;
		if (s->segs.len && memcmp(&s->cmp_view, &v, sizeof(v)))
			goto out;
		if (!s->segs.len) {
			struct switch_segment seg = {0};

			vec_push(&s->segs, seg);
		}
		{
			struct case_label lab = {
				.lo = (uint64_t)value, .hi = (uint64_t)value,
				.name = constant_name(w, k), .line = cursor_line(k),
			};
			vec_push(&s->segs.items[0].labels, lab);
		}
		s->cmp_view = v;
		s->cmp_eq = eq;
		ok = 1;
	}
out:
	free(op);
	vec_free(&kids);
	return ok;
}

static void forget_comparisons(struct stmt *s)
{
	for (size_t i = 0; i < s->segs.len; i++) {
		for (size_t j = 0; j < s->segs.items[i].labels.len; j++)
			free(s->segs.items[i].labels.items[j].name);
		vec_free(&s->segs.items[i].labels);
	}
	vec_free(&s->segs);
	s->cmp_view.param = -1;
	if (s->kind == ST_IF) {
		for (size_t i = 0; i < s->premises.len; i++)
			stmt_free(s->premises.items[i]);
		vec_free(&s->premises);
	}
}

/* An argument that compares a parameter with one constant. */
static void arg_comparison(struct walk *w, CXCursor a, struct call_arg *arg)
{
	struct stmt *t;

	arg->cmp_view.param = -1;
	if (clang_getCursorKind(strip(a)) != CXCursor_BinaryOperator)
		return;
	t = stmt_new(ST_IF, 0);
	if (param_cmp(w, a, t, NULL) && t->segs.len == 1 && t->segs.items[0].labels.len == 1) {
		arg->cmp_view = t->cmp_view;
		arg->cmp_eq = t->cmp_eq;
		arg->cmp_value = t->segs.items[0].labels.items[0].lo;
	}
	stmt_free(t);
}

/* Does condition c imply `param == one of the values collected`? A ||
 * of operands that each do: a comparison, or an && one of whose terms
 * does (md_ioctl's `cmd == STOP_ARRAY_RO || (err && cmd == STOP_ARRAY)`).
 * A term that fails after collecting values leaves them: more values
 * only make the implication weaker. */
static int implied_cmp(struct walk *w, CXCursor c, struct stmt *s);

/* Another operand of an `&&` that implies a comparison: kept among the
 * if's premises, each of which rules the branch out on its own
 * (spidev_compat_ioctl's `_IOC_TYPE(cmd) == SPI_IOC_MAGIC &&
 * _IOC_NR(cmd) == _IOC_NR(SPI_IOC_MESSAGE(0)) && ...`: the number decides
 * for a command of the same type). */
static void implied_premise(struct walk *w, CXCursor c, struct stmt *s)
{
	struct stmt *t = stmt_new(ST_IF, s->line);

	if (implied_cmp(w, c, t) && t->cmp_eq) {
		t->cond = COND_PARAM_IMPLIED;
		vec_push(&s->premises, t);
	} else {
		stmt_free(t);
	}
}

static int range_cmp(struct walk *w, CXCursor c, struct stmt *s);

/* `lo <= view && view <= hi` as a term of an implication: its range joins
 * the values collected (compat_sock_ioctl's `ret == -ENOIOCTLCMD && (cmd
 * >= SIOCIWFIRST && cmd <= SIOCIWLAST)` holds only for a wireless
 * command). */
static int implied_range(struct walk *w, CXCursor c, struct stmt *s)
{
	struct stmt *t = stmt_new(ST_IF, 0);
	int ok = range_cmp(w, c, t) && t->cmp_eq &&
		 (!s->segs.len || !memcmp(&s->cmp_view, &t->cmp_view, sizeof(t->cmp_view)));

	if (ok) {
		struct case_label lab = t->segs.items[0].labels.items[0];

		if (!s->segs.len) {
			struct switch_segment seg = {0};

			vec_push(&s->segs, seg);
		}
		lab.name = NULL;
		vec_push(&s->segs.items[0].labels, lab);
		s->cmp_view = t->cmp_view;
		s->cmp_eq = 1;
	}
	stmt_free(t);
	return ok;
}

static int implied_cmp(struct walk *w, CXCursor c, struct stmt *s)
{
	cursorvec kids;
	char *op;
	int ok = 0;

	if (implied_range(w, c, s))
		return 1;
	if (!binary_parts(w, c, &kids, &op))
		return 0;
	if (!strcmp(op, "||")) {
		ok = implied_cmp(w, kids.items[0], s) && implied_cmp(w, kids.items[1], s);
	} else if (!strcmp(op, "&&")) {
		ok = implied_cmp(w, kids.items[0], s);
		if (ok)
			implied_premise(w, kids.items[1], s);
		else
			ok = implied_cmp(w, kids.items[1], s);
	} else if (!strcmp(op, "=="))
		ok = param_cmp(w, c, s, "||");
	free(op);
	vec_free(&kids);
	return ok;
}

/* One side of a range: `v >= k` (also `v > k`, `k <= v`, `k < v`) is a
 * lower bound, `v <= k` (and the like) an upper one; inclusive. */
struct bound {
	struct param_view v;
	int lower;
	int64_t k;
};

static int bound_of(struct walk *w, CXCursor c, struct bound *b)
{
	cursorvec kids;
	char *op;
	int ok = 0;

	if (!binary_parts(w, c, &kids, &op))
		return 0;
	if (!strcmp(op, ">=") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, "<")) {
		struct param_view l = view_of(w, kids.items[0]);
		struct param_view r = view_of(w, kids.items[1]);
		int param_left = l.param >= 0;
		int greater = op[0] == '>';
		int strict = !op[1];

		if (param_left != (r.param >= 0) &&
		    eval_int(param_left ? kids.items[1] : kids.items[0], &b->k)) {
			b->v = param_left ? l : r;
			/* `k < v` is `v > k` */
			b->lower = param_left ? greater : !greater;
			if (strict)
				b->k += b->lower ? 1 : -1;
			ok = 1;
		}
	}
	free(op);
	vec_free(&kids);
	return ok;
}

/* `v >= A && v <= B`: v in A..B (cmp_eq); `v < A || v > B`: v outside
 * A..B. Recorded as one label lo..hi. */
static int range_cmp(struct walk *w, CXCursor c, struct stmt *s)
{
	cursorvec kids;
	char *op;
	struct bound a, b;
	int ok = 0;

	if (!binary_parts(w, c, &kids, &op))
		return 0;
	if ((!strcmp(op, "&&") || !strcmp(op, "||")) &&
	    bound_of(w, kids.items[0], &a) && bound_of(w, kids.items[1], &b) &&
	    a.lower != b.lower && !memcmp(&a.v, &b.v, sizeof(a.v))) {
		int inside = !strcmp(op, "&&");
		const struct bound *lo = a.lower ? &a : &b, *hi = a.lower ? &b : &a;
		/* outside: v <= hi.k || v >= lo.k, so not in hi.k+1 .. lo.k-1 */
		int64_t from = inside ? lo->k : hi->k + 1, to = inside ? hi->k : lo->k - 1;

		if (from >= 0 && from <= to) {
			struct switch_segment seg = {0};
			struct case_label lab = {
				.lo = (uint64_t)from, .hi = (uint64_t)to, .line = cursor_line(c),
			};

			vec_push(&seg.labels, lab);
			vec_push(&s->segs, seg);
			s->cmp_view = a.v;
			s->cmp_eq = inside;
			ok = 1;
		}
	}
	free(op);
	vec_free(&kids);
	return ok;
}

/* A condition that is a parameter itself (`if (set)`): its view. Only the
 * parameter named directly, not a local copy that the body may change. */
static int param_truth(struct walk *w, CXCursor c, struct stmt *s, int negated)
{
	CXCursor d;

	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return 0;
	d = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(d) || clang_getCursorKind(d) != CXCursor_ParmDecl)
		return 0;
	s->cmp_view = view_of_decl(w, c);
	s->cmp_eq = negated;
	return s->cmp_view.param >= 0;
}

/* Is c `!!x` (operators the tokens of a macro body may not show are
 * taken to be `!`: `!!` is how likely() and unlikely() write it)? x. */
static int double_negation(struct walk *w, CXCursor c, CXCursor *x)
{
	cursorvec outer = children_of(c), inner = {0};
	char *op1 = NULL, *op2 = NULL;
	int ok = 0;

	if (clang_getCursorKind(c) == CXCursor_UnaryOperator && outer.len == 1 &&
	    clang_getCursorKind(strip(outer.items[0])) == CXCursor_UnaryOperator) {
		inner = children_of(strip(outer.items[0]));
		op1 = operator_of(w, c);
		op2 = operator_of(w, strip(outer.items[0]));
		if (inner.len == 1 && (!op1 || !strcmp(op1, "!")) && (!op2 || !strcmp(op2, "!"))) {
			*x = inner.items[0];
			ok = 1;
		}
	}
	free(op1);
	free(op2);
	vec_free(&outer);
	vec_free(&inner);
	return ok;
}

/* The condition inside unlikely()/likely(): __builtin_expect(!!(x), k). */
static CXCursor expected_condition(struct walk *w, CXCursor c)
{
	cursorvec kids;
	char *name;
	CXCursor x = clang_getNullCursor();

	c = strip(c);
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return c;
	name = cursor_name(c);
	kids = children_of(c);
	/* kids: the callee, then the arguments */
	if (name && !strcmp(name, "__builtin_expect") && kids.len == 3 &&
	    !double_negation(w, strip(kids.items[1]), &x))
		x = kids.items[1];
	free(name);
	vec_free(&kids);
	return clang_Cursor_isNull(x) ? c : strip(x);
}

static int none_of_cmp(struct walk *w, CXCursor c, struct stmt *s);

static enum cond_kind classify_cond(struct walk *w, CXCursor cond, struct stmt *s)
{
	CXCursor c = expected_condition(w, cond);
	enum CXCursorKind k = clang_getCursorKind(c);

	if (k == CXCursor_CallExpr)
		return COND_CALL;
	if (param_truth(w, c, s, 0))
		return COND_PARAM_TRUTH;
	if (k == CXCursor_UnaryOperator) {
		char *op = operator_of(w, c);
		int neg = op && !strcmp(op, "!");
		cursorvec kids = children_of(c);
		enum cond_kind r = COND_OTHER;

		if (neg && kids.len == 1 &&
		    clang_getCursorKind(strip(kids.items[0])) == CXCursor_CallExpr)
			r = COND_NOT_CALL;
		else if (neg && kids.len == 1 && param_truth(w, kids.items[0], s, 1))
			r = COND_PARAM_TRUTH;
		free(op);
		vec_free(&kids);
		return r;
	}
	if (param_cmp(w, c, s, NULL))
		return COND_PARAM_CMP;
	forget_comparisons(s);
	if (range_cmp(w, c, s))
		return COND_PARAM_RANGE;
	forget_comparisons(s);
	if (implied_cmp(w, c, s) && s->cmp_eq)
		return COND_PARAM_IMPLIED;
	forget_comparisons(s);
	if (none_of_cmp(w, c, s))
		return COND_PARAM_NONE_OF;
	forget_comparisons(s);
	return COND_OTHER;
}

/* A condition that tests the file's open mode (FMODE_WRITE, ...): the
 * driver says what the command needs. Recorded as a call-like fact. */
static void note_mode_tests(struct walk *w, CXCursor cond, struct stmt *s)
{
	CXToken *toks = NULL;
	unsigned n = 0;

	if (!w->kn->mode_flags.len || !cursor_tokens(w->tu, cond, &toks, &n))
		return;
	for (unsigned i = 0; i < n; i++) {
		char *t;

		if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
			continue;
		t = cxstr(clang_getTokenSpelling(w->tu, toks[i]));
		if (strvec_contains(&w->kn->mode_flags, t)) {
			struct stmt *m = stmt_new(ST_MODE_TEST, cursor_line(cond));

			m->target = t;
			vec_push(&s->kids, m);
		} else {
			free(t);
		}
	}
	clang_disposeTokens(w->tu, toks, n);
}

/* The calls whose result 0 alone makes a condition true: `!f()`, an
 * operand of a top-level `||` chain that is one (`!perm || !capable(X)`),
 * `!(a && f())`. odd: under an odd number of `!`. (Through unlikely(),
 * walk_if hands it expected_condition: the `!!` of the macro's body has
 * no tokens, the argument's operators have.) */
static void find_negated_calls(struct walk *w, CXCursor cond, int odd)
{
	CXCursor c = strip(cond);
	enum CXCursorKind k = clang_getCursorKind(c);
	cursorvec kids;
	char *op = NULL;

	if (k == CXCursor_CallExpr) {
		if (odd && w->nnegated < 8)
			w->negated_calls[w->nnegated++] = clang_getCursorExtent(c);
		else if (odd)
			limit_cut(w, LIMIT_NEGATED);
		return;
	}
	if (k != CXCursor_UnaryOperator && k != CXCursor_BinaryOperator)
		return;
	kids = children_of(c);
	if (k == CXCursor_UnaryOperator) {
		op = operator_of(w, c);
		if (op && !strcmp(op, "!") && kids.len == 1)
			find_negated_calls(w, kids.items[0], !odd);
	} else {
		op = operator_of(w, c);
		/* a || b under even `!`, !(a && b) under odd: either operand suffices */
		if (op && kids.len == 2 && !strcmp(op, odd ? "&&" : "||")) {
			find_negated_calls(w, kids.items[0], odd);
			find_negated_calls(w, kids.items[1], odd);
		}
	}
	free(op);
	vec_free(&kids);
}

/* A test on a parameter that can be a premise: `cmd != A`, `cmd == A`,
 * `set`, `!set`, `flags & K`. NULL otherwise. */
static struct stmt *premise_of(struct walk *w, CXCursor op)
{
	struct stmt *t = stmt_new(ST_IF, cursor_line(op));
	CXCursor c = strip(op);
	cursorvec kids = {0};
	char *o = NULL;

	if (param_truth(w, c, t, 0)) {
		t->cond = COND_PARAM_TRUTH;
		return t;
	}
	/* `flags & DRM_ROOT_ONLY`: some bits of a parameter set */
	if (clang_getCursorKind(c) == CXCursor_BinaryOperator) {
		char *o2 = operator_of(w, c);

		if (o2 && !strcmp(o2, "&")) {
			t->cmp_view = view_of(w, c);


			if (t->cmp_view.param >= 0 && t->cmp_view.mask) {
				t->cond = COND_PARAM_TRUTH;
				free(o2);
				return t;
			}
		}
		free(o2);
	}
	if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
		kids = children_of(c);
		o = operator_of(w, c);
		if (o && !strcmp(o, "!") && kids.len == 1 && param_truth(w, kids.items[0], t, 1))
			t->cond = COND_PARAM_TRUTH;
		free(o);
		vec_free(&kids);
		if (t->cond == COND_PARAM_TRUTH)
			return t;
	} else if (param_cmp(w, c, t, NULL) && t->segs.len == 1 &&
		   t->segs.items[0].labels.len == 1) {
		t->cond = COND_PARAM_CMP;
		return t;
	}
	stmt_free(t);
	return NULL;
}

/* The operands of a chain of `&&` (a && b && c), left to right. */
static void and_operands(struct walk *w, CXCursor c, cursorvec *out)
{
	cursorvec kids;
	char *op;

	if (binary_parts(w, c, &kids, &op)) {
		if (!strcmp(op, "&&")) {
			and_operands(w, kids.items[0], out);
			and_operands(w, kids.items[1], out);
			free(op);
			vec_free(&kids);
			return;
		}
		free(op);
		vec_free(&kids);
	}
	vec_push(out, c);
}

/* `_IOC_TYPE(cmd) != MEGAIOC_MAGIC && cmd != USCSICMD` (megadev_ioctl):
 * an `&&` of `!=` tests of one parameter through different views, which
 * param_cmp, keeping one view, does not take. It holds when the parameter
 * is none of the values; each test is a premise (COND_PARAM_NONE_OF). */
static int none_of_cmp(struct walk *w, CXCursor c, struct stmt *s)
{
	cursorvec ops = {0};
	int ok;

	and_operands(w, c, &ops);
	ok = ops.len >= 2;
	for (size_t i = 0; ok && i < ops.len; i++) {
		struct stmt *t = premise_of(w, ops.items[i]);

		ok = t && t->cond == COND_PARAM_CMP && !t->cmp_eq &&
		     (!i || t->cmp_view.param == s->premises.items[0]->cmp_view.param);
		if (ok)
			vec_push(&s->premises, t);
		else if (t)
			stmt_free(t);
	}
	vec_free(&ops);
	return ok;
}

/* A condition `tests && rest` where every operand but one tests a
 * parameter (autofs's `cmd != VERSION_CMD && cmd != ISMOUNTPOINT_CMD &&
 * !capable(CAP_SYS_ADMIN)`, ksys_ioperm's `turn_on && (!capable(X) ||
 * ...)`): the calls whose result 0 makes that one operand hold make the
 * whole condition hold when the tests do. They are recorded with those
 * tests as premises. */
static void find_premised_calls(struct walk *w, CXCursor cond)
{
	cursorvec ops = {0};
	struct stmt *premises = stmt_new(ST_BLOCK, 0);
	int rest = -1, others = 0, from = w->nnegated;

	and_operands(w, cond, &ops);
	for (size_t i = 0; ops.len > 1 && i < ops.len; i++) {
		struct stmt *p = premise_of(w, ops.items[i]);

		if (p) {
			vec_push(&premises->kids, p);
		} else {
			rest = (int)i;
			others++;
		}
	}
	if (others == 1) {
		find_negated_calls(w, ops.items[rest], 0);

		for (int i = from; i < w->nnegated; i++) {
			w->negated_premises[i] = stmt_new(ST_BLOCK, 0);
			for (size_t j = 0; j < premises->kids.len; j++)
				vec_push(&w->negated_premises[i]->kids,
					 premise_copy(premises->kids.items[j]));
		}
	}
	stmt_free(premises);
	vec_free(&ops);
}

static void forget_negated(struct walk *w)
{
	for (int i = 0; i < w->nnegated; i++) {
		stmt_free(w->negated_premises[i]);
		w->negated_premises[i] = NULL;
	}
	w->nnegated = 0;
}

/* `if (ret)`, `if (!ret)`, `if (ret != -ENOIOCTLCMD)`, `if (err < 0)`:
 * a local compared with a constant (facts.h test_local) */
static void forget_local_test(struct stmt *s)
{
	free(s->test_local);
	s->test_local = NULL;
	s->test_op = 0;
	s->test_value = 0;
	s->test_join = 0;
}

/* The local an operand of a test names: `ret`, or the local assigned in
 * `(ret = f(...))` */
static char *local_operand_key(struct walk *w, CXCursor e)
{
	CXCursor x = strip(e);
	cursorvec kids;
	char *op, *key = NULL;

	if (clang_getCursorKind(x) != CXCursor_BinaryOperator)
		return local_flag_key(x);
	kids = children_of(x);
	op = operator_of(w, x);
	if (op && !strcmp(op, "=") && kids.len == 2)
		key = local_flag_key(kids.items[0]);
	free(op);
	vec_free(&kids);
	return key;
}

/* Is c a test of a local against a constant? Then s->test_* say so. */
static int local_test(struct walk *w, CXCursor c, struct stmt *s)
{
	static const char *const ops[] = { "==", "!=", "<", ">", "<=", ">=" };
	static const char codes[] = "=!<>lg", mirrored[] = "=!><gl";
	enum CXCursorKind k;
	cursorvec kids;
	char *op;

	c = expected_condition(w, c);
	k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr) {
		s->test_local = local_flag_key(c);
		s->test_op = '!';
		s->test_value = 0;
		return s->test_local != NULL;
	}
	kids = children_of(c);
	op = operator_of(w, c);
	if (k == CXCursor_UnaryOperator && op && !strcmp(op, "!") && kids.len == 1) {
		s->test_local = local_operand_key(w, kids.items[0]);
		s->test_op = '=';
		s->test_value = 0;
	} else if (k == CXCursor_BinaryOperator && op && kids.len == 2) {
		for (size_t i = 0; i < 6 && !s->test_local; i++) {
			if (strcmp(op, ops[i]))
				continue;
			if (eval_int(kids.items[1], &s->test_value)) {
				s->test_local = local_operand_key(w, kids.items[0]);
				s->test_op = codes[i];
			} else if (eval_int(kids.items[0], &s->test_value)) {
				s->test_local = local_operand_key(w, kids.items[1]);
				s->test_op = mirrored[i];
			}
		}
		/* an operand of `&&` (the condition needs it) or of `||`
		 * (it suffices): `ret == -ENOIOCTLCMD && ops->compat_ioctl` */
		for (size_t i = 0; !s->test_local && i < 2 && (!strcmp(op, "&&") || !strcmp(op, "||")); i++)
			if (local_test(w, kids.items[i], s) && (!s->test_join || s->test_join == op[0]))
				s->test_join = op[0];
			else
				forget_local_test(s);
	}
	free(op);
	vec_free(&kids);
	return s->test_local != NULL;
}

/* `if (ret)`, `if (!ret)`, `if (ret != -ENOIOCTLCMD)`, `if (err < 0)`,
 * `if ((ret = f(...)) != -ENOIOCTLCMD)`, and such a test as an operand of
 * `&&` or `||`: a local compared with a constant (facts.h test_local) */
static void note_local_test(struct walk *w, CXCursor cond, struct stmt *s)
{
	local_test(w, cond, s);
	local_flags_note_use(w->flags, &s->test_local);
}

/* `if (flag)` or `if (!flag)` on a local variable (local_flags.h), or
 * its comparison with 0 or a null pointer (nouveau_compat_ioctl's
 * `if (fn != NULL)`) */
static void note_flag_test(struct walk *w, CXCursor cond, struct stmt *s)
{
	CXCursor c = strip(cond);
	enum CXCursorKind k = clang_getCursorKind(c);

	if (k == CXCursor_DeclRefExpr) {
		local_flags_note_if(w->flags, c, 0, s);
	} else if (k == CXCursor_UnaryOperator || k == CXCursor_BinaryOperator) {
		cursorvec kids = children_of(c);
		char *op = operator_of(w, c);

		if (op && !strcmp(op, "!") && kids.len == 1)
			local_flags_note_if(w->flags, kids.items[0], 1, s);
		else if (op && (!strcmp(op, "!=") || !strcmp(op, "==")) && kids.len == 2 &&
			 is_null_constant(kids.items[1]))
			local_flags_note_if(w->flags, kids.items[0], !strcmp(op, "=="), s);
		free(op);
		vec_free(&kids);
	}
}

/* One if statement: its condition, its then-branch and its else-branch
 * (NULL for none). */
static struct stmt *if_stmt(struct walk *w, unsigned line, CXCursor cond, CXCursor then,
			    const CXCursor *els)
{
	struct stmt *s = stmt_new(ST_IF, line);

	s->cond = classify_cond(w, cond, s);
	if (s->cond == COND_OTHER && w->flags) {
		note_flag_test(w, cond, s);
		note_local_test(w, cond, s);
	}
	note_mode_tests(w, cond, s);
	forget_negated(w);
	/* inside unlikely()/likely(): the operators are the
	 * argument's, written in the source */
	find_negated_calls(w, expected_condition(w, cond), 0);
	find_premised_calls(w, expected_condition(w, cond));
	walk_expr(w, cond, s);
	forget_negated(w);
	s->then_s = stmt_new(ST_BLOCK, cursor_line(then));
	walk_into(w, then, s->then_s);
	if (els) {
		s->else_s = stmt_new(ST_BLOCK, cursor_line(*els));
		walk_into(w, *els, s->else_s);
	}
	return s;
}

/* A then-branch that only leaves: `return;`, `return K;` for a constant,
 * `goto L;`, alone or alone in braces. Walking it twice records the same. */
static int only_leaves(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	cursorvec kids = children_of(c);
	int64_t v;
	int r = 0;

	if (k == CXCursor_CompoundStmt)
		r = kids.len == 1 && only_leaves(kids.items[0]);
	else if (k == CXCursor_GotoStmt)
		r = 1;
	else if (k == CXCursor_ReturnStmt)
		r = !kids.len || eval_int(kids.items[0], &v);
	vec_free(&kids);
	return r;
}

/* The operands of a chain of || (a || b || c), in order. */
static void disjuncts(struct walk *w, CXCursor c, cursorvec *out)
{
	cursorvec kids;
	char *op;

	if (!binary_parts(w, c, &kids, &op)) {
		vec_push(out, c);
		return;
	}
	if (!strcmp(op, "||")) {
		disjuncts(w, kids.items[0], out);
		disjuncts(w, kids.items[1], out);
	} else {
		vec_push(out, c);
	}
	free(op);
	vec_free(&kids);
}

static int tests_param(struct walk *w, CXCursor c)
{
	struct stmt *probe = stmt_new(ST_IF, 0);
	enum cond_kind k = classify_cond(w, c, probe);

	stmt_free(probe);
	return k != COND_OTHER && k != COND_CALL && k != COND_NOT_CALL;
}

/*
 * `if (A || B || ...) return E;` (or goto L; no else) is `if (A) return E;
 * if (B) return E; ...`: each operand is tested only when those before it
 * are false. Written so, in a block of ifs spliced into the enclosing one,
 * when the condition as a whole tests no parameter and an operand does
 * (firewire's dispatch_ioctl: `if (_IOC_TYPE(cmd) != '#' || _IOC_NR(cmd) >=
 * ARRAY_SIZE(ioctl_handlers) || ...) return -ENOTTY;`), so that what
 * follows knows what the tests fixed (the command's type). NULL when not
 * of that form.
 */
static struct stmt *split_disjunction(struct walk *w, CXCursor c, const cursorvec *kids)
{
	CXCursor cond = expected_condition(w, kids->items[0]);
	cursorvec ds = {0};
	struct stmt *b = NULL;
	int any = 0;

	if (kids->len != 2 || !only_leaves(kids->items[1]) || tests_param(w, kids->items[0]))
		return NULL;
	disjuncts(w, cond, &ds);
	for (size_t i = 0; ds.len > 1 && i < ds.len && !any; i++)
		any = tests_param(w, ds.items[i]);
	if (any) {
		b = stmt_new(ST_BLOCK, cursor_line(c));
		for (size_t i = 0; i < ds.len; i++)
			vec_push(&b->kids, if_stmt(w, cursor_line(ds.items[i]), ds.items[i],
						   kids->items[1], NULL));
	}
	vec_free(&ds);
	return b;
}

static struct stmt *walk_if(struct walk *w, CXCursor c)
{
	cursorvec kids = children_of(c);
	struct stmt *s = split_disjunction(w, c, &kids);

	if (!s && kids.len >= 2)
		s = if_stmt(w, cursor_line(c), kids.items[0], kids.items[1],
			    kids.len >= 3 ? &kids.items[2] : NULL);
	if (!s)
		s = stmt_new(ST_IF, cursor_line(c));
	vec_free(&kids);
	return s;
}

/* An asm statement whose operands are all constants (or none; "i"
 * (__FILE__) in BUG()'s bug table is a string constant): it names
 * no C object it could write (barrier(), the trap of BUG() and WARN(),
 * pause, cli). */
static int asm_constant_operand(CXCursor op)
{
	CXCursor t = strip(op), d;
	cursorvec init;
	int64_t v;
	int constant = 0;

	if (clang_getCursorKind(t) == CXCursor_StringLiteral || eval_int(op, &v))
		return 1;
	/* a local initialised with a constant, as the macro that writes the
	 * asm keeps it (__WARN_FLAGS: __auto_type __flags = BUGFLAG_WARNING) */
	if (clang_getCursorKind(t) != CXCursor_DeclRefExpr)
		return 0;
	d = clang_getCursorReferenced(t);
	if (clang_getCursorKind(d) != CXCursor_VarDecl || clang_Cursor_hasVarDeclGlobalStorage(d))
		return 0;
	init = children_of(d);
	for (size_t i = 0; i < init.len; i++)
		if (clang_isExpression(clang_getCursorKind(init.items[i])))
			constant = eval_int(init.items[i], &v);
	vec_free(&init);
	return constant;
}

static int asm_constant_operands(CXCursor c)
{
	cursorvec kids = children_of(c);
	int constant = 1;

	for (size_t i = 0; i < kids.len && constant; i++)
		constant = asm_constant_operand(kids.items[i]);
	vec_free(&kids);
	return constant;
}

/* Inline assembly may write anything. With constant operands only it is
 * nothing; otherwise it is recorded by the macro it is written in (its
 * first token), and facts_bind_knowledge decides what it is. */
static struct stmt *asm_stmt(struct walk *w, CXCursor c)
{
	struct stmt *s;
	CXToken *toks = NULL;
	unsigned n = 0;
	char *first = NULL;

	if (w->flags) {
		cursorvec ops = children_of(c);

		/* an output operand writes its variable */
		for (size_t i = 0; i < ops.len; i++)
			local_flags_escape(w->flags, ops.items[i]);
		vec_free(&ops);
	}
	if (asm_constant_operands(c))
		return NULL;
	if (cursor_tokens(w->tu, c, &toks, &n)) {
		first = cxstr(clang_getTokenSpelling(w->tu, toks[0]));
		clang_disposeTokens(w->tu, toks, n);
	}
	s = stmt_new(ST_CALL, cursor_line(c));
	s->is_asm = 1;
	s->callee_text = first ? first : xstrdup("asm");
	return s;
}

/* Inline assembly written by a macro the knowledge file calls neutral is
 * nothing; by a macro it describes otherwise (cmpxchg), a call of that
 * macro; anything else stays a call that cannot be analysed. Returns 1
 * when s is to be dropped. */
static int bind_asm(struct stmt *s, const struct knowledge *kn)
{
	const struct api_entry *a;

	if (s->kind != ST_CALL || !s->is_asm || !strcmp(s->callee_text, "asm"))
		return 0;
	a = knowledge_api(kn, s->callee_text);
	if (!a)
		return 0;
	if (a->effect == API_NEUTRAL)
		return 1;
	s->callee = s->callee_text;
	s->callee_text = NULL;
	s->is_asm = 0;
	s->is_macro = 1;
	return 0;
}

static void bind_stmt(struct stmt *s, const struct knowledge *kn);

static void bind_kids(struct stmt *s, const struct knowledge *kn)
{
	size_t out = 0;

	for (size_t i = 0; i < s->kids.len; i++) {
		struct stmt *k = s->kids.items[i];

		if (bind_asm(k, kn)) {
			stmt_free(k);
			continue;
		}
		bind_stmt(k, kn);
		s->kids.items[out++] = k;
	}
	s->kids.len = out;
}

static void bind_stmt(struct stmt *s, const struct knowledge *kn)
{
	if (!s)
		return;
	bind_kids(s, kn);
	bind_stmt(s->then_s, kn);
	bind_stmt(s->else_s, kn);
	for (size_t i = 0; i < s->segs.len; i++) {
		bind_stmt(s->segs.items[i].body, kn);
		s->segs.items[i].falls_through = !ends_flow(s->segs.items[i].body);
	}
}

void facts_bind_knowledge(struct file_facts *ff, const struct knowledge *kn)
{
	for (size_t i = 0; i < ff->functions.len; i++)
		bind_stmt(ff->functions.items[i]->body, kn);
}

static struct stmt *walk_stmt_kind(struct walk *w, CXCursor c);

/* A statement, marked when a label is inside it: a jump can land there. */
static struct stmt *walk_stmt(struct walk *w, CXCursor c)
{
	unsigned labels = w->nlabels;
	struct stmt *s;

	if (clang_getCursorKind(c) == CXCursor_LabelStmt)
		w->nlabels++;
	s = walk_stmt_kind(w, c);
	if (s && w->nlabels != labels)
		s->has_label = 1;
	return s;
}

/* Looks for a break or continue that leaves the loop whose body is being
 * visited: not one of a nested loop, nor (break) of a nested switch. */
struct loop_exit {
	int found;
	int continue_only;	/* inside a nested switch */
};

static enum CXChildVisitResult loop_exit_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
	struct loop_exit *e = d;

	(void)parent;
	switch (clang_getCursorKind(c)) {
	case CXCursor_ContinueStmt:
		e->found = 1;
		return CXChildVisit_Break;
	case CXCursor_BreakStmt:
		e->found = !e->continue_only;
		return e->found ? CXChildVisit_Break : CXChildVisit_Continue;
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
		return CXChildVisit_Continue;
	case CXCursor_SwitchStmt: {
		struct loop_exit inner = { 0, 1 };

		clang_visitChildren(c, loop_exit_visitor, &inner);
		e->found |= inner.found;
		return e->found ? CXChildVisit_Break : CXChildVisit_Continue;
	}
	default:
		return CXChildVisit_Recurse;
	}
}

/* `do { ... } while (0)` with no break or continue of its own (vmci's
 * VMCI_DO_IOCTL(), whose body returns): its body runs once, as a block,
 * so a case made of it ends where the body ends, not in a loop that might
 * run no time and fall into the next case. */
static int runs_once(CXCursor c)
{
	cursorvec kids = children_of(c);
	struct loop_exit e = { 0, 0 };
	int64_t cond;
	int once = kids.len == 2 && eval_int(kids.items[1], &cond) && !cond;

	if (once)
		clang_visitChildren(kids.items[0], loop_exit_visitor, &e);
	vec_free(&kids);
	return once && !e.found;
}

static struct stmt *walk_once(struct walk *w, CXCursor c)
{
	struct stmt *s = stmt_new(ST_BLOCK, cursor_line(c));
	cursorvec kids = children_of(c);

	walk_into(w, kids.items[0], s);
	vec_free(&kids);
	return s;
}

static struct stmt *walk_stmt_kind(struct walk *w, CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);
	struct stmt *s;
	cursorvec kids;
	char *macro;

	switch (k) {
	case CXCursor_CompoundStmt:
	case CXCursor_DeclStmt:
		s = stmt_new(ST_BLOCK, cursor_line(c));
		kids = children_of(c);
		for (size_t i = 0; i < kids.len; i++) {
			if (k == CXCursor_DeclStmt) {
				walk_expr(w, kids.items[i], s);
			} else {
				struct origin_statement outer =
					origins_statement(w->origins, kids.items[i], c);

				walk_into(w, kids.items[i], s);
				origins_restore_statement(w->origins, outer);
			}
		}
		vec_free(&kids);
		return s;
	case CXCursor_IfStmt:
		return walk_if(w, c);
	case CXCursor_SwitchStmt:
		return walk_switch(w, c);
	case CXCursor_DoStmt:
		/* WRITE_ONCE(x, v): `do { ... } while (0)`, one API call, its
		 * inner statements (compile-time asserts, the store in its
		 * body, the literal 0) not read one by one */
		if (macro_may_expand(w->macros, c) && (macro = api_macro_at(w, c))) {
			s = stmt_new(ST_BLOCK, cursor_line(c));
			walk_api_macro(w, c, macro, s);
			return s;
		}
		if (runs_once(c))
			return walk_once(w, c);
		/* fall through */
	case CXCursor_WhileStmt:
	case CXCursor_ForStmt:
		origins_loop(w->origins, c);
		s = stmt_new(ST_LOOP, cursor_line(c));
		kids = children_of(c);
		for (size_t i = 0; i < kids.len; i++) {
			if (clang_isExpression(clang_getCursorKind(kids.items[i])))
				walk_expr(w, kids.items[i], s);
			else
				walk_into(w, kids.items[i], s);
		}
		vec_free(&kids);
		return s;
	case CXCursor_ReturnStmt: {
		struct stmt *blk = stmt_new(ST_BLOCK, cursor_line(c));
		struct stmt *ret = stmt_new(ST_RETURN, cursor_line(c));

		kids = children_of(c);
		if (kids.len) {
			int64_t v;
			size_t before;

			walk_expr(w, kids.items[0], blk);
			before = blk->kids.len;
			ret->ret_has_call = before > 0 &&
				blk->kids.items[before - 1]->kind == ST_CALL;
			if (eval_int(kids.items[0], &v)) {
				ret->ret_is_const = 1;
				ret->ret_value = v;
			}
			note_value(w, kids.items[0], ret);
			if (w->flags) {
				ret->value_local = local_flag_key(kids.items[0]);
				local_flags_note_use(w->flags, &ret->value_local);
			}
		}
		vec_free(&kids);
		vec_push(&blk->kids, ret);
		return blk;
	}
	case CXCursor_BreakStmt:
	case CXCursor_ContinueStmt:
		return stmt_new(ST_BREAK, cursor_line(c));
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
		s = stmt_new(ST_GOTO, cursor_line(c));
		kids = children_of(c);
		if (k == CXCursor_GotoStmt && kids.len == 1)
			s->target = cursor_name(kids.items[0]);	/* the LabelRef */
		vec_free(&kids);
		return s;
	case CXCursor_LabelStmt:
		/* a marker where the label is, then the labelled statement */
		origins_label(w->origins, c);
		s = stmt_new(ST_BLOCK, cursor_line(c));
		{
			struct stmt *mark = stmt_new(ST_BLOCK, cursor_line(c));

			mark->label = cursor_name(c);
			mark->has_label = 1;
			vec_push(&s->kids, mark);
		}
		kids = children_of(c);
		for (size_t i = 0; i < kids.len; i++)
			walk_into(w, kids.items[i], s);
		vec_free(&kids);
		return s;
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		origins_label(w->origins, c);
		s = stmt_new(ST_BLOCK, cursor_line(c));
		kids = children_of(c);
		for (size_t i = 0; i < kids.len; i++)
			walk_into(w, kids.items[i], s);
		vec_free(&kids);
		return s;
	case CXCursor_GCCAsmStmt:
	case CXCursor_MSAsmStmt:
		return asm_stmt(w, c);
	case CXCursor_NullStmt:
		return NULL;
	default:
		s = stmt_new(ST_BLOCK, cursor_line(c));
		walk_expr(w, c, s);
		/* `inb_p(port);`: the outermost call, recorded last */
		if (clang_getCursorKind(strip(c)) == CXCursor_CallExpr && s->kids.len &&
		    s->kids.items[s->kids.len - 1]->kind == ST_CALL)
			s->kids.items[s->kids.len - 1]->value_unused = 1;
		return s;
	}
}

/* Now that every assignment of the function has been seen: where its
 * stores land and what its pointer arguments point to. */
static void resolve_pending(struct walk *w)
{
	for (size_t i = 0; i < w->pending.len; i++) {
		struct pending_origin *p = &w->pending.items[i];
		struct origin o = origins_resolve_at(w->origins, p->origin, p->at);
		int local = o.kind == ORIGIN_FRAME || o.kind == ORIGIN_TEMP;
		int param = o.kind == ORIGIN_PARAM ? o.n : -1;

		if (p->arg < 0) {
			p->s->nonlocal = !local;
			p->s->store_param = param;
		} else {
			p->s->args.items[p->arg].points_to_local = local;
			p->s->args.items[p->arg].points_to_frame = o.kind == ORIGIN_FRAME;
			p->s->args.items[p->arg].ptr_param = param;
		}
	}
	vec_free(&w->pending);
}

/* The parameters body mentions anywhere: a parameter past the ones the
 * walk keeps (params[16]) counts as read. */
static uint32_t params_read_in(const struct walk *w, CXCursor body, int nargs)
{
	struct mention m = { w, 0, 0, 0 };

	for (int i = w->nparams; i < nargs && i < 32; i++)
		m.params |= 1u << i;
	if (nargs > 32)
		m.params = UINT32_MAX;
	clang_visitChildren(body, mention_visitor, &m);
	return m.params;
}

static void extract_function(struct walk *w, CXCursor fn, const char *file)
{
	struct function_facts *f = xcalloc(1, sizeof(*f));
	cursorvec kids = children_of(fn);
	int nargs = clang_Cursor_getNumArguments(fn);

	f->name = cursor_name(fn);
	f->file = xstrdup(file);
	f->unit = xstrdup(w->ff->file);
	f->line = cursor_line(fn);
	f->is_static = clang_Cursor_getStorageClass(fn) == CX_SC_Static;
	w->nparams = 0;
	w->fn_name = f->name;
	w->limits_cut = 0;
	forget_locals(w);
	for (int i = 0; i < nargs; i++) {
		CXCursor p = clang_Cursor_getArgument(fn, (unsigned)i);
		char *pn = cursor_name(p);

		if (i < 16)
			w->params[w->nparams++] = p;
		vec_push(&f->params, pn);
	}
	if (nargs > 16)
		limit_cut(w, LIMIT_PARAMS);
	w->origins = origins_new(w->kn, w->params, w->nparams);
	w->flags = local_flags_new();
	for (size_t i = 0; i < kids.len; i++) {
		if (clang_getCursorKind(kids.items[i]) == CXCursor_CompoundStmt) {
			f->body = walk_stmt(w, kids.items[i]);
			f->params_read = params_read_in(w, kids.items[i], nargs);
			break;
		}
	}
	vec_free(&kids);
	resolve_pending(w);
	origins_free(w->origins);
	w->origins = NULL;
	local_flags_resolve(w->flags, f);
	w->flags = NULL;
	if (!f->body)
		f->body = stmt_new(ST_BLOCK, f->line);
	vec_push(&w->ff->functions, f);
}

/* The function an initialiser or right-hand side names, if any. */
static char *function_named_by(CXCursor e)
{
	CXCursor c = strip(e);
	CXCursor d;

	if (clang_getCursorKind(c) == CXCursor_UnaryOperator) {
		cursorvec kids = children_of(c);

		if (kids.len == 1)
			c = strip(kids.items[0]);
		vec_free(&kids);
	}
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	d = clang_getCursorReferenced(c);
	if (clang_getCursorKind(d) != CXCursor_FunctionDecl)
		return NULL;
	return cursor_name(d);
}

static char *record_name(CXType t)
{
	CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));

	if (clang_Cursor_isNull(decl) || clang_getCursorKind(decl) != CXCursor_StructDecl)
		return NULL;
	return cursor_name(decl);
}

/* The file-scope variable an expression names (`i915_ioctls`), or NULL. */
static char *variable_named_by(CXCursor e)
{
	CXCursor c = strip(e), d;

	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	d = clang_getCursorReferenced(c);
	if (clang_getCursorKind(d) != CXCursor_VarDecl ||
	    clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit)
		return NULL;
	return cursor_name(d);
}

static void add_ops(struct walk *w, const char *sname, const char *field,
		    CXCursor value, const char *var, unsigned line)
{
	struct ops_init o = {0};
	const struct handler_kind *k = knowledge_kind_for(w->kn, sname, field);

	if (!k)
		return;
	o.struct_name = xstrdup(sname);
	o.field = xstrdup(field);
	/* a table member (drm_driver.ioctls) installs a table */
	o.handler = k->table_struct ? variable_named_by(value) : function_named_by(value);
	o.var = xstrdup(var ? var : "");
	o.file = own_file_of(w, value);
	o.line = line;
	vec_push(&w->ff->ops, o);
}

/* Does the member field hold a function pointer? */
static int is_function_pointer(CXType type)
{
	CXType t = clang_getCanonicalType(type);
	enum CXTypeKind k;

	if (t.kind != CXType_Pointer)
		return 0;
	k = clang_getCanonicalType(clang_getPointeeType(t)).kind;
	return k == CXType_FunctionProto || k == CXType_FunctionNoProto;
}

static int is_function_pointer_field(CXCursor field)
{
	return is_function_pointer(clang_getCursorType(field));
}

/* `.field = value` or `x->field = value` for a function-pointer member:
 * a target of calls through the member, or (function NULL) a value that
 * names no function (a variable, a conditional), which leaves the
 * member's targets open. */
static void add_member_init(struct walk *w, const char *sname, CXCursor field, CXCursor value)
{
	struct member_init m = { .setter_param = -1 };
	char *fn = function_named_by(value);

	/* a null pointer constant leaves the member without a target */
	if (!fn && (!is_function_pointer_field(field) || is_null_constant(value)))
		return;
	m.struct_name = xstrdup(sname);
	m.field = cursor_name(field);
	m.function = fn;
	m.file = xstrdup(w->ff->file);
	/* the initialiser of a const object itself, not one nested in it,
	 * or of an element of a const array of such objects */
	if (w->table_var && !clang_Cursor_isNull(w->table_var_decl)) {
		CXType t = clang_getCanonicalType(clang_getCursorType(w->table_var_decl));
		int array = t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray;
		char *vr = record_name(array ? clang_getArrayElementType(t) : t);

		if (vr && !strcmp(vr, sname))
			m.object = array ? const_array_name(w->table_var_decl) :
				const_object_name(w->table_var_decl);
		free(vr);
	}
	vec_push(&w->ff->member_inits, m);
}

/* The parameter of the function being read that value names, or -1. */
static int parameter_named_by(CXCursor value, CXCursor *fn)
{
	CXCursor c = strip(value), d;

	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return -1;
	d = clang_getCursorReferenced(c);
	if (clang_getCursorKind(d) != CXCursor_ParmDecl)
		return -1;
	*fn = clang_getCursorSemanticParent(d);
	for (int i = 0; i < clang_Cursor_getNumArguments(*fn); i++)
		if (clang_equalCursors(clang_Cursor_getArgument(*fn, (unsigned)i), d))
			return i;
	return -1;
}

/* `hook = value;` or a hook's initialiser (hook_struct_name): a target,
 * nothing for NULL, the setter's parameter (`br_ioctl_hook = hook;` in
 * brioctl_set), or any other value, which leaves the hook open. */
static void add_hook_init(struct walk *w, CXCursor var, CXCursor value)
{
	struct member_init m = { .setter_param = -1 };
	CXCursor fn;

	m.struct_name = hook_struct_name(w, var);
	if (!m.struct_name)
		return;
	m.function = function_named_by(value);
	if (!m.function && is_null_constant(value)) {
		free(m.struct_name);
		return;
	}
	if (!m.function) {
		m.setter_param = parameter_named_by(value, &fn);
		if (m.setter_param >= 0)
			m.setter = cursor_name(fn);
	}
	m.field = cursor_name(var);
	m.file = xstrdup(w->ff->file);
	vec_push(&w->ff->member_inits, m);
}

/* `&hook` (WRITE_ONCE(hook, f), xchg(&hook, f)): someone else may store
 * anything there; the hook is open. */
static void note_hook_address(struct walk *w, CXCursor unary)
{
	cursorvec kids = children_of(unary);
	CXCursor x = kids.len == 1 ? strip(kids.items[0]) : clang_getNullCursor();
	CXType t = clang_getCanonicalType(clang_getCursorType(unary));

	/* as a store of a value that names no function */
	if (clang_getCursorKind(x) == CXCursor_DeclRefExpr && t.kind == CXType_Pointer &&
	    clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(t)),
			     clang_getCanonicalType(clang_getCursorType(x))))
		add_hook_init(w, clang_getCursorReferenced(x), unary);
	vec_free(&kids);
}

struct field_at {
	unsigned want, seen;
	CXCursor field;
};

static enum CXVisitorResult field_at_visitor(CXCursor c, CXClientData d)
{
	struct field_at *f = d;

	if (f->seen++ == f->want) {
		f->field = c;
		return CXVisit_Break;
	}
	return CXVisit_Continue;
}

/* The name of the n-th member of a record (a positional initialiser). */
static char *field_name_at(CXType rec, unsigned n)
{
	struct field_at f = { n, 0, clang_getNullCursor() };

	clang_Type_visitFields(clang_getCanonicalType(rec), field_at_visitor, &f);
	return clang_Cursor_isNull(f.field) ? NULL : cursor_name(f.field);
}

/* The member item n of a record's initialiser list sets (allocated;
 * NULL when not known), and in *value the expression: `.field = value`
 * (a designator's MemberRef, then the value), or the n-th member. */
static char *init_member(CXCursor list, size_t n, CXCursor *value)
{
	cursorvec kids = children_of(list), d;
	char *field;

	*value = kids.items[n];
	d = children_of(kids.items[n]);
	if (d.len >= 2 && clang_getCursorKind(d.items[0]) == CXCursor_MemberRef) {
		field = cursor_name(d.items[0]);
		*value = d.items[d.len - 1];
	} else {
		field = field_name_at(clang_getCursorType(list), (unsigned)n);
	}
	vec_free(&d);
	vec_free(&kids);
	return field;
}

/* The name of a command the entry's macro pastes together
 * (DRM_IOCTL_DEF_DRV(I915_INIT, ...) makes DRM_IOCTL_I915_INIT, which no
 * file spells): read off the macro's body (macro_designated_paste), else
 * the invocation as `MACRO(FIRST)`; NULL when it is no invocation. */
static char *invocation_name(struct walk *w, CXCursor value, const char *field)
{
	CXToken *toks = NULL;
	unsigned n = 0;
	char *name = NULL;

	if (!cursor_tokens(w->tu, value, &toks, &n))
		return NULL;
	if (n >= 4 && clang_getTokenKind(toks[0]) == CXToken_Identifier &&
	    clang_getTokenKind(toks[2]) == CXToken_Identifier) {
		char *m = token_text(w->tu, toks[0]), *open = token_text(w->tu, toks[1]);
		char *a = token_text(w->tu, toks[2]), *sep = token_text(w->tu, toks[3]);

		if (!strcmp(open, "(") && (!strcmp(sep, ",") || !strcmp(sep, ")"))) {
			strvec args = {0};

			/* the invocation's arguments of one token each */
			for (unsigned i = 2; i + 1 < n; i += 2) {
				char *arg = token_text(w->tu, toks[i]), *next = token_text(w->tu, toks[i + 1]);
				int last = strcmp(next, ",");

				strvec_push(&args, arg);
				free(arg);
				free(next);
				if (last)
					break;
			}
			name = macro_designated_paste(w->macros, m, &args, field);
			if (!name)
				name = xasprintf("%s(%s)", m, a);
			strvec_clear(&args);
		}
		free(m);
		free(open);
		free(a);
		free(sep);
	}
	clang_disposeTokens(w->tu, toks, n);
	return name;
}

/* The command's name in a table entry: the macro argument it is written as
 * (DRM_IOCTL_DEF(DRM_IOCTL_VERSION, ...)'s first), else as constant_name
 * reads it. */
static char *table_command_name(struct walk *w, CXCursor value, const char *field)
{
	CXSourceLocation loc = clang_getCursorLocation(value);
	CXFile sf, ef;
	unsigned soff, eoff;
	char *name = NULL;

	clang_getSpellingLocation(loc, &sf, NULL, NULL, &soff);
	clang_getExpansionLocation(loc, &ef, NULL, NULL, &eoff);
	/* a macro's argument, written in the file */
	if (sf && ef && clang_File_isEqual(sf, ef) && soff != eoff) {
		CXToken *t = clang_getToken(w->tu, clang_getLocationForOffset(w->tu, sf, soff));

		if (t && clang_getTokenKind(*t) == CXToken_Identifier)
			name = cxstr(clang_getTokenSpelling(w->tu, *t));
		if (t)
			clang_disposeTokens(w->tu, t, 1);
	}
	if (!name)
		name = invocation_name(w, value, field);
	return name ? name : constant_name(w, value);
}

/* One element of a static table (table_struct_of): its command, function
 * and flags by the table kind's member names. */
static void add_table_entry(struct walk *w, const char *sname, CXCursor list)
{
	const struct table_kind *tk = knowledge_table(w->kn, sname);
	struct table_init *t = NULL;
	struct table_entry e = { .line = cursor_line(list) };
	cursorvec kids = children_of(list);
	int has_command = 0;

	for (size_t i = 0; i < w->ff->tables.len; i++)
		if (!strcmp(w->ff->tables.items[i].var, w->table_var))
			t = &w->ff->tables.items[i];
	for (size_t i = 0; i < kids.len; i++) {
		CXCursor value;
		char *field = init_member(list, i, &value);
		int64_t v;

		if (field && !strcmp(field, tk->command) && eval_int(value, &v)) {
			e.value = (uint64_t)v & 0xffffffffu;
			e.command = table_command_name(w, value, field);
			has_command = 1;
		} else if (field && !strcmp(field, tk->function)) {
			e.function = function_named_by(value);
		} else if (field && tk->flags && !strcmp(field, tk->flags) && eval_int(value, &v)) {
			e.has_flags = 1;
			e.flags = v;
		}
		free(field);
	}
	vec_free(&kids);
	/* the terminator of a table searched by value ({ 0, NULL }) */
	if (!has_command || !e.function) {
		free(e.command);
		free(e.function);
		return;
	}
	if (!t) {
		struct table_init n = { .var = xstrdup(w->table_var), .struct_name = xstrdup(sname),
					.file = own_file_of(w, list), .unit = xstrdup(w->ff->file),
					.is_static = w->table_var_static };

		vec_push(&w->ff->tables, n);
		t = &w->ff->tables.items[w->ff->tables.len - 1];
	}
	vec_push(&t->entries, e);
}

/* Designated initialisers: libclang shows `.field = value` as an unexposed
 * DesignatedInitExpr whose children are a MemberRef and the value. Every
 * function-valued member is recorded (member_inits), the ioctl members of
 * known ops structures also as ops. */
static void scan_init_list(struct walk *w, CXCursor list, const char *var)
{
	char *sname = record_name(clang_getCursorType(list));
	cursorvec kids = children_of(list);

	if (sname && w->table_var && knowledge_table(w->kn, sname))
		add_table_entry(w, sname, list);
	for (size_t i = 0; sname && i < kids.len; i++) {
		cursorvec d = children_of(kids.items[i]);

		if (d.len >= 2 && clang_getCursorKind(d.items[0]) == CXCursor_MemberRef) {
			char *field = cursor_name(d.items[0]);

			add_ops(w, sname, field, d.items[d.len - 1], var, cursor_line(d.items[0]));
			add_member_init(w, sname, clang_getCursorReferenced(d.items[0]),
					d.items[d.len - 1]);
			free(field);
		}
		vec_free(&d);
	}
	free(sname);
	vec_free(&kids);
}

/* `fops.unlocked_ioctl = f;` and `ops->ioctl = f;` */
static void scan_member_assign(struct walk *w, CXCursor assign, const char *var)
{
	cursorvec kids = children_of(assign);
	char *op = operator_of(w, assign);

	if (kids.len == 2 && op && !strcmp(op, "=") &&
	    clang_getCursorKind(strip(kids.items[0])) == CXCursor_DeclRefExpr)
		add_hook_init(w, clang_getCursorReferenced(strip(kids.items[0])), kids.items[1]);
	if (kids.len == 2 && op && !strcmp(op, "=") &&
	    clang_getCursorKind(strip(kids.items[0])) == CXCursor_MemberRefExpr) {
		CXCursor m = strip(kids.items[0]);
		CXCursor field = clang_getCursorReferenced(m);
		char *sname = record_name(clang_getCursorType(clang_getCursorSemanticParent(field)));

		if (sname) {
			char *fname = cursor_name(field);
			cursorvec base = children_of(m);
			char *obj = base.len ? extent_text(w, base.items[0]) : xstrdup(var);

			add_ops(w, sname, fname, kids.items[1], obj, cursor_line(assign));
			add_member_init(w, sname, field, kids.items[1]);
			free(obj);
			vec_free(&base);
			free(fname);
			free(sname);
		}
	}
	free(op);
	vec_free(&kids);
}

struct ops_scan {
	struct walk *w;
	char *var;
};

static enum CXChildVisitResult ops_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
	struct ops_scan *os = d;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k == CXCursor_InitListExpr) {
		scan_init_list(os->w, c, os->var);
	} else if (k == CXCursor_BinaryOperator) {
		scan_member_assign(os->w, c, os->var);
	} else if (k == CXCursor_UnaryOperator) {
		note_hook_address(os->w, c);
	} else if (k == CXCursor_VarDecl && !os->var) {
		struct ops_scan inner = { os->w, cursor_name(c) };

		clang_visitChildren(c, ops_visitor, &inner);
		free(inner.var);
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top_visitor(CXCursor c, CXCursor parent, CXClientData d)
{
	struct walk *w = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	struct ops_scan os = { w, NULL };

	(void)parent;
	if (!in_own_code(w, c))
		return CXChildVisit_Continue;
	if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
		char *name = cursor_name(c);
		char *file = own_file_of(w, c);

		os.var = name;
		extract_function(w, c, file);
		free(file);
		clang_visitChildren(c, ops_visitor, &os);
		free(name);
	} else if (k == CXCursor_VarDecl) {
		CXCursor init = clang_Cursor_getVarDeclInitializer(c);

		os.var = cursor_name(c);
		w->table_var = os.var;
		w->table_var_static = clang_getCursorLinkage(c) == CXLinkage_Internal;
		w->table_var_decl = c;
		clang_visitChildren(c, ops_visitor, &os);
		w->table_var = NULL;
		free(os.var);
		if (!clang_Cursor_isNull(init))
			add_hook_init(w, c, init);
	}
	return CXChildVisit_Continue;
}

/* The function member field of an element's initialiser (value), or the
 * element itself when field is NULL: its name; NULL when the value names
 * no function. *null is set when it is a null pointer or left out. */
static char *element_function(CXCursor value, const char *field, int *null)
{
	CXCursor list = strip(value);
	cursorvec kids;
	char *fn = NULL;

	*null = 0;
	if (!field) {
		*null = is_null_constant(value);
		return *null ? NULL : function_named_by(value);
	}
	if (clang_getCursorKind(list) != CXCursor_InitListExpr)
		return NULL;
	*null = 1;	/* a member the initialiser leaves out is zero */
	kids = children_of(list);
	for (size_t i = 0; i < kids.len; i++) {
		CXCursor v;
		char *name = init_member(list, i, &v);

		if (name && !strcmp(name, field)) {
			*null = is_null_constant(v);
			fn = *null ? NULL : function_named_by(v);
		}
		free(name);
	}
	vec_free(&kids);
	return fn;
}

/* The value of member name in the record initialiser list (positional
 * or designated): 1 when it is a constant. */
static int member_value(CXCursor list, const char *name, int64_t *v)
{
	cursorvec kids = children_of(list);
	int ok = 0;

	for (size_t i = 0; i < kids.len && !ok; i++) {
		CXCursor value;
		char *field = init_member(list, i, &value);

		if (field && !strcmp(field, name))
			ok = eval_int(value, v) ? 1 : -1;
		free(field);
	}
	vec_free(&kids);
	return ok == 1;
}

/* An array of records searched by its member key (translated_by_search):
 * an entry for each record, its value key's, its flags the member read. */
static void record_searched(const struct indexed_ref *r, cursorvec *kids, struct table_init *t)
{
	for (size_t j = 0; j < kids->len; j++) {
		CXCursor rec = kids->items[j];
		struct table_entry e = { .line = cursor_line(rec) };
		int64_t key;

		if (clang_getCursorKind(rec) != CXCursor_InitListExpr ||
		    !member_value(rec, r->key, &key))
			continue;
		e.value = (uint64_t)key & 0xffffffffu;
		e.has_flags = member_value(rec, r->field, &e.flags);
		vec_push(&t->entries, e);
	}
}

static int is_integral(CXType t)
{
	t = clang_getCanonicalType(t);
	return (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
}

/* The arrays the file's calls and switches index (stmt.callee_array):
 * the function each index holds, or for an array of integers the value,
 * by the array's initialiser (`[DRM_IOCTL_NR(x)] = {.fn = f}`, or
 * positions). */
static void record_fn_arrays(struct walk *w)
{
	for (size_t i = 0; i < w->indexed_arrays.len; i++) {
		struct indexed_ref *r = &w->indexed_arrays.items[i];
		CXCursor init = clang_Cursor_getVarDeclInitializer(r->array);
		struct table_init t = {0};
		cursorvec kids;
		int64_t next = 0;
		int integral;

		if (clang_Cursor_isNull(init) || clang_getCursorKind(init) != CXCursor_InitListExpr) {
			free(r->field);
			free(r->key);
			continue;
		}
		t.var = cursor_name(r->array);
		t.struct_name = r->key ? r->key : r->field;
		t.file = own_file_of(w, r->array);
		t.unit = xstrdup(w->ff->file);
		t.is_static = clang_getCursorLinkage(r->array) == CXLinkage_Internal;
		integral = !r->field && is_integral(clang_getArrayElementType(
						clang_getCanonicalType(clang_getCursorType(r->array))));
		kids = children_of(init);
		if (r->key) {
			record_searched(r, &kids, &t);
			free(r->field);
			vec_free(&kids);
			vec_push(&w->ff->fn_arrays, t);
			continue;
		}
		for (size_t j = 0; j < kids.len; j++) {
			cursorvec d = children_of(kids.items[j]);
			CXCursor value = kids.items[j];
			struct table_entry e = { .line = cursor_line(kids.items[j]) };
			int64_t index = next, k;
			int null;

			/* `[index] = value`: a DesignatedInitExpr */
			if (clang_getCursorKind(value) == CXCursor_UnexposedExpr && d.len == 2 &&
			    clang_getCursorKind(d.items[0]) != CXCursor_MemberRef &&
			    eval_int(d.items[0], &k)) {
				index = k;
				value = d.items[1];
			}
			next = index + 1;
			e.value = (uint64_t)index;
			if (integral) {
				/* an array of command values: each element's */
				e.has_flags = eval_int(value, &e.flags);
				vec_push(&t.entries, e);
				vec_free(&d);
				continue;
			}
			e.function = element_function(value, t.struct_name, &null);
			if (!null)
				vec_push(&t.entries, e);
			vec_free(&d);
		}
		vec_free(&kids);
		vec_push(&w->ff->fn_arrays, t);
	}
	vec_free(&w->indexed_arrays);
}

void extract_facts(CXTranslationUnit tu, const struct knowledge *kn,
		   const struct kernel_tree *kt, struct header_functions *hf,
		   struct file_facts *ff)
{
	struct walk w = { .tu = tu, .kn = kn, .ff = ff, .kt = kt, .hf = hf };

	w.macros = macro_table_new(tu);
	{
		CXString path = clang_getTranslationUnitSpelling(tu);

		w.main_file = clang_getFile(tu, clang_getCString(path));
		clang_disposeString(path);
	}

	clang_visitChildren(clang_getTranslationUnitCursor(tu), top_visitor, &w);
	extract_header_functions(&w);
	record_fn_arrays(&w);
	forget_locals(&w);
	macro_table_free(w.macros);
}
