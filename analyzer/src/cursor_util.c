/* Small libclang helpers shared by the stages that read cursors. */
#include "cursor_util.h"

#include <stdlib.h>

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData d)
{
	cursorvec *v = d;

	(void)parent;
	vec_push(v, c);
	return CXChildVisit_Continue;
}

cursorvec children_of(CXCursor c)
{
	cursorvec v = {0};

	clang_visitChildren(c, collect_child, &v);
	return v;
}

unsigned cursor_line(CXCursor c)
{
	unsigned line = 0;

	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	return line;
}

char *cxstr(CXString s)
{
	const char *p = clang_getCString(s);
	char *r = xstrdup(p ? p : "");

	clang_disposeString(s);
	return r;
}

char *cursor_name(CXCursor c)
{
	return cxstr(clang_getCursorSpelling(c));
}

/* An expression clang kept only to recover from an error in it: its
 * type is unknown. */
static int recovered(CXCursor c)
{
	enum CXTypeKind t = clang_getCursorType(c).kind;

	return t == CXType_Dependent || t == CXType_Invalid;
}

CXCursor strip(CXCursor c)
{
	for (;;) {
		enum CXCursorKind k = clang_getCursorKind(c);
		cursorvec kids;
		CXCursor next;

		if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr &&
		    k != CXCursor_CStyleCastExpr)
			return c;
		/* code clang could not make sense of (a RecoveryExpr, e.g.
		 * `geo->blocksize` when the struct is not declared): its
		 * child is not what it stands for */
		if (k == CXCursor_UnexposedExpr && recovered(c))
			return c;
		kids = children_of(c);
		if (kids.len == 0) {
			vec_free(&kids);
			return c;
		}
		next = kids.items[kids.len - 1];
		vec_free(&kids);
		if (clang_Cursor_isNull(next))
			return c;
		c = next;
	}
}

int eval_int(CXCursor c, int64_t *out)
{
	CXEvalResult r = clang_Cursor_Evaluate(c);
	int ok = 0;

	if (!r)
		return 0;
	if (clang_EvalResult_getKind(r) == CXEval_Int) {
		if (clang_EvalResult_isUnsignedInt(r))
			*out = (int64_t)clang_EvalResult_getAsUnsigned(r);
		else
			*out = clang_EvalResult_getAsLongLong(r);
		ok = 1;
	}
	clang_EvalResult_dispose(r);
	return ok;
}

int eval_scalar(CXCursor c, int64_t *out)
{
	if (eval_int(c, out))
		return 1;
	if (!is_null_constant(c))
		return 0;
	*out = 0;
	return 1;
}

int is_null_constant(CXCursor c)
{
	CXEvalResult r = clang_Cursor_Evaluate(strip(c));
	int null = 0;

	if (r) {
		null = clang_EvalResult_getKind(r) == CXEval_Int &&
			clang_EvalResult_getAsLongLong(r) == 0;
		clang_EvalResult_dispose(r);
	}
	return null;
}
