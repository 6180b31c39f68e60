/* Where the pointers of one function point: see pointer_origin.h. */
#include "pointer_origin.h"

#include "cursor_util.h"

#include <stdlib.h>
#include <string.h>

enum var_state { VAR_UNSET, VAR_SET, VAR_CONFLICT };

struct var {
	CXCursor decl;
	enum var_state state;
	struct origin origin;	/* when VAR_SET */
};

struct origins {
	const struct knowledge *kn;
	const CXCursor *params;
	int nparams;
	VEC(struct var) vars;
};

struct origins *origins_new(const struct knowledge *kn, const CXCursor *params, int nparams)
{
	struct origins *o = xcalloc(1, sizeof(*o));

	o->kn = kn;
	o->params = params;
	o->nparams = nparams;
	return o;
}

void origins_free(struct origins *o)
{
	if (!o)
		return;
	vec_free(&o->vars);
	free(o);
}

static struct origin origin(enum origin_kind kind, int n)
{
	struct origin r = { kind, n };

	return r;
}

static int param_index(const struct origins *o, CXCursor decl)
{
	for (int i = 0; i < o->nparams; i++)
		if (clang_equalCursors(decl, o->params[i]))
			return i;
	return -1;
}

/* A local variable or parameter of this function (not a static local). */
static int is_frame_var(CXCursor decl)
{
	enum CXCursorKind k = clang_getCursorKind(decl);

	if (k == CXCursor_ParmDecl)
		return 1;
	return k == CXCursor_VarDecl && !clang_Cursor_hasVarDeclGlobalStorage(decl);
}

/* The variable's entry; a parameter starts out pointing where it was
 * passed. NULL for what is not a frame variable. */
static struct var *var_of(struct origins *o, CXCursor decl, int *index)
{
	struct var v = { decl, VAR_UNSET, { ORIGIN_UNKNOWN, 0 } };
	int p;

	if (!is_frame_var(decl))
		return NULL;
	for (size_t i = 0; i < o->vars.len; i++) {
		if (clang_equalCursors(o->vars.items[i].decl, decl)) {
			*index = (int)i;
			return &o->vars.items[i];
		}
	}
	p = param_index(o, decl);
	if (p >= 0) {
		v.state = VAR_SET;
		v.origin = origin(ORIGIN_PARAM, p);
	}
	vec_push(&o->vars, v);
	*index = (int)o->vars.len - 1;
	return &o->vars.items[o->vars.len - 1];
}

static void var_conflict(struct origins *o, CXCursor decl)
{
	int i;
	struct var *v = var_of(o, decl, &i);

	if (v)
		v->state = VAR_CONFLICT;
}

static CXType canonical_type(CXCursor c)
{
	return clang_getCanonicalType(clang_getCursorType(c));
}

static int is_pointer(CXType t)
{
	return t.kind == CXType_Pointer;
}

static int is_array(CXType t)
{
	return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray;
}

/* A unary operator told apart by types (its operator may be spelled in a
 * macro's body, where no token can be read): 1 for `&x`, -1 for `*p`. */
static int address_or_deref(CXCursor op, CXCursor operand)
{
	CXType r = canonical_type(op), t = canonical_type(operand);

	if (is_pointer(r) && clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(r)), t))
		return 1;
	if (is_pointer(t) && clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(t)), r))
		return -1;
	return 0;
}

static char *callee_name(CXCursor call)
{
	CXCursor d = clang_getCursorReferenced(call);

	if (clang_Cursor_isNull(d) || clang_getCursorKind(d) != CXCursor_FunctionDecl)
		return NULL;
	return cursor_name(d);
}

static struct origin origin_of_call(struct origins *o, CXCursor call)
{
	char *name = callee_name(call);
	struct origin r = origin(ORIGIN_UNKNOWN, 0);
	int arg;

	if (!name)
		return r;
	if (strvec_contains(&o->kn->allocators, name)) {
		r = origin(ORIGIN_TEMP, 0);
	} else if ((arg = knowledge_returns_argument(o->kn, name)) >= 0 &&
		   arg < clang_Cursor_getNumArguments(call)) {
		r = origin_of_pointer(o, clang_Cursor_getArgument(call, (unsigned)arg));
	}
	free(name);
	return r;
}

/* Memory of this call's own: its frame or a temporary it allocated. */
static int is_own(struct origin o)
{
	return o.kind == ORIGIN_FRAME || o.kind == ORIGIN_TEMP;
}

static int same_origin(struct origin a, struct origin b)
{
	return a.kind == b.kind && (a.kind != ORIGIN_PARAM && a.kind != ORIGIN_VAR ? 1 : a.n == b.n);
}

struct origin origin_of_pointer(struct origins *o, CXCursor e)
{
	CXCursor t = strip(e);
	enum CXCursorKind k = clang_getCursorKind(t);
	struct origin r = origin(ORIGIN_UNKNOWN, 0);
	cursorvec kids;

	/* an array used as a pointer: where the array lives */
	if (is_array(canonical_type(t)))
		return origin_of_lvalue(o, t);
	switch (k) {
	case CXCursor_DeclRefExpr: {
		CXCursor d = clang_getCursorReferenced(t);
		int i;

		if (var_of(o, d, &i))
			r = origin(ORIGIN_VAR, i);
		return r;
	}
	case CXCursor_CallExpr:
		return origin_of_call(o, t);
	case CXCursor_UnaryOperator:
		kids = children_of(t);
		if (kids.len == 1 && address_or_deref(t, kids.items[0]) > 0) {
			CXCursor x = strip(kids.items[0]);

			/* &p lets someone else repoint p */
			if (clang_getCursorKind(x) == CXCursor_DeclRefExpr &&
			    is_pointer(canonical_type(x)))
				var_conflict(o, clang_getCursorReferenced(x));
			r = origin_of_lvalue(o, kids.items[0]);
		} else if (kids.len == 1 && is_pointer(canonical_type(t)) &&
			   clang_equalTypes(canonical_type(t), canonical_type(kids.items[0]))) {
			r = origin_of_pointer(o, kids.items[0]);	/* p++, p-- */
		}
		vec_free(&kids);
		return r;
	case CXCursor_BinaryOperator:
		/* pointer arithmetic: p + n, n + p, p - n */
		kids = children_of(t);
		if (kids.len == 2 && is_pointer(canonical_type(t))) {
			int p0 = is_pointer(canonical_type(kids.items[0])) ||
				 is_array(canonical_type(strip(kids.items[0])));
			int p1 = is_pointer(canonical_type(kids.items[1])) ||
				 is_array(canonical_type(strip(kids.items[1])));

			if (p0 != p1)
				r = origin_of_pointer(o, kids.items[p0 ? 0 : 1]);
		}
		vec_free(&kids);
		return r;
	case CXCursor_ConditionalOperator:
		/* `want ? &local : NULL`: where the arms point, the null
		 * pointer pointing nowhere */
		kids = children_of(t);
		if (kids.len == 3) {
			int null1 = is_null_constant(kids.items[1]), null2 = is_null_constant(kids.items[2]);
			struct origin a = origin_of_pointer(o, kids.items[1]);
			struct origin b = origin_of_pointer(o, kids.items[2]);

			if (null1 && !null2)
				r = b;
			else if (null2 && !null1)
				r = a;
			else if (!null1 && same_origin(a, b))
				r = a;
		}
		vec_free(&kids);
		return r;
	default:
		return r;
	}
}

struct origin origin_of_lvalue(struct origins *o, CXCursor lv)
{
	CXCursor t = strip(lv);
	enum CXCursorKind k = clang_getCursorKind(t);
	struct origin r = origin(ORIGIN_UNKNOWN, 0);
	cursorvec kids;

	switch (k) {
	case CXCursor_DeclRefExpr:
		return is_frame_var(clang_getCursorReferenced(t)) ? origin(ORIGIN_FRAME, 0) : r;
	case CXCursor_MemberRefExpr:
	case CXCursor_ArraySubscriptExpr:
		kids = children_of(t);
		if (kids.len) {
			CXCursor base = kids.items[0];

			if (is_pointer(canonical_type(strip(base))))
				r = origin_of_pointer(o, base);		/* p->x, p[i] */
			else
				r = origin_of_lvalue(o, base);		/* s.x, a[i] */
		}
		vec_free(&kids);
		return r;
	case CXCursor_UnaryOperator:
		kids = children_of(t);
		if (kids.len == 1 && address_or_deref(t, kids.items[0]) < 0)
			r = origin_of_pointer(o, kids.items[0]);	/* *p */
		vec_free(&kids);
		return r;
	default:
		return r;
	}
}

void origins_assign(struct origins *o, CXCursor var, const CXCursor *rhs)
{
	int i;
	struct var *v = o ? var_of(o, var, &i) : NULL;
	struct origin r;

	if (!v)
		return;
	if (!rhs) {
		v->state = VAR_CONFLICT;
		return;
	}
	/* `p = NULL`: p points nowhere, and a store through it cannot
	 * land anywhere else (dvb_usercopy's `void *parg = NULL`) */
	if (is_null_constant(*rhs))
		return;
	r = origin_of_pointer(o, *rhs);
	v = &o->vars.items[i];	/* origin_of_pointer may have grown vars */
	if (r.kind == ORIGIN_VAR && r.n == i)
		return;		/* p = p + 1: still into the same object */
	if (v->state == VAR_UNSET) {
		v->state = VAR_SET;
		v->origin = r;
	} else if (v->state == VAR_SET && is_own(v->origin) && is_own(r)) {
		/* a stack buffer or a fresh one (drm_ioctl's kdata): this
		 * call's own memory either way, not the frame alone */
		if (!same_origin(v->origin, r))
			v->origin = origin(ORIGIN_TEMP, 0);
	} else if (v->state == VAR_SET && !same_origin(v->origin, r)) {
		v->state = VAR_CONFLICT;
	}
}

struct origin origins_resolve(const struct origins *o, struct origin or)
{
	for (int depth = 0; or.kind == ORIGIN_VAR; depth++) {
		const struct var *v = &o->vars.items[or.n];

		if (depth > 16 || v->state != VAR_SET)
			return origin(ORIGIN_UNKNOWN, 0);
		or = v->origin;
	}
	return or;
}
