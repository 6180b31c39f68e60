/* Where the pointers of one function point: see pointer_origin.h. */
#include "pointer_origin.h"

#include "cursor_util.h"

#include <stdlib.h>
#include <string.h>

/* The origins a variable is assigned, told apart by same_origin; more
 * than this makes it unknown. */
#define MAX_VAR_ORIGINS 4

struct var {
	CXCursor decl;
	int conflict;		/* its address is taken, too many origins, ... */
	int n;			/* 0: not assigned (yet) */
	struct origin origin[MAX_VAR_ORIGINS];
	/* also assigned an integer parameter cast to a pointer (`parg =
	 * (void *)arg`): that origin, kept apart; its kind is ORIGIN_UNKNOWN
	 * when there is none */
	struct origin int_param;
};

/* An assignment of a variable, where it is in the source. */
struct assignment {
	int var;
	struct origin origin;
	struct origin_place at;
	int dominates;		/* a statement of its own in its block ... */
	struct origin_place scope_end;	/* ... which ends here */
};

struct span {
	struct origin_place begin, end;
};

struct origins {
	const struct knowledge *kn;
	const CXCursor *params;
	int nparams;
	VEC(struct var) vars;
	VEC(struct assignment) assignments;
	VEC(struct span) loops;
	VEC(struct origin_place) labels;
	struct origin_statement stmt;	/* the block statement being walked */
};

struct origins *origins_new(const struct knowledge *kn, const CXCursor *params, int nparams)
{
	struct origins *o = xcalloc(1, sizeof(*o));

	o->kn = kn;
	o->params = params;
	o->nparams = nparams;
	o->stmt.stmt = clang_getNullCursor();
	return o;
}

void origins_free(struct origins *o)
{
	if (!o)
		return;
	vec_free(&o->vars);
	vec_free(&o->assignments);
	vec_free(&o->loops);
	vec_free(&o->labels);
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

static struct origin_place place_at(CXSourceLocation l)
{
	struct origin_place p;

	clang_getExpansionLocation(l, &p.file, NULL, NULL, &p.offset);
	return p;
}

struct origin_place origin_place_of(CXCursor c)
{
	return place_at(clang_getCursorLocation(c));
}

static struct origin_place extent_begin(CXCursor c)
{
	return place_at(clang_getRangeStart(clang_getCursorExtent(c)));
}

static struct origin_place extent_end(CXCursor c)
{
	return place_at(clang_getRangeEnd(clang_getCursorExtent(c)));
}

static int same_file(struct origin_place a, struct origin_place b)
{
	return a.file && b.file && clang_File_isEqual(a.file, b.file);
}

static int before(struct origin_place a, struct origin_place b)
{
	return same_file(a, b) && a.offset < b.offset;
}

static int within(struct origin_place p, struct origin_place begin, struct origin_place end)
{
	return same_file(p, begin) && same_file(p, end) && begin.offset <= p.offset &&
	       p.offset <= end.offset;
}

struct origin_statement origins_statement(struct origins *o, CXCursor stmt, CXCursor block)
{
	struct origin_statement saved = { .stmt = clang_getNullCursor() };

	if (!o)
		return saved;
	saved = o->stmt;
	o->stmt.stmt = stmt;
	o->stmt.begin = extent_begin(stmt);
	o->stmt.end = extent_end(stmt);
	o->stmt.scope_end = extent_end(block);
	return saved;
}

void origins_restore_statement(struct origins *o, struct origin_statement saved)
{
	if (o)
		o->stmt = saved;
}

void origins_loop(struct origins *o, CXCursor loop)
{
	struct span l = { extent_begin(loop), extent_end(loop) };

	if (o)
		vec_push(&o->loops, l);
}

void origins_label(struct origins *o, CXCursor label)
{
	if (o)
		vec_push(&o->labels, origin_place_of(label));
}

/* Is rhs assigned by the block statement being walked, whenever it runs:
 * a declaration's initialiser, or the right-hand side of the statement
 * `v = rhs;` itself (not of `x = c && (v = rhs)`, which may not run)? */
static int assigned_by_statement(const struct origins *o, CXCursor rhs, struct origin_place at)
{
	enum CXCursorKind k = clang_getCursorKind(o->stmt.stmt);
	cursorvec kids;
	int r;

	if (clang_Cursor_isNull(o->stmt.stmt) || !within(at, o->stmt.begin, o->stmt.end))
		return 0;
	if (k == CXCursor_DeclStmt)
		return 1;
	if (k != CXCursor_BinaryOperator)
		return 0;
	kids = children_of(o->stmt.stmt);
	r = kids.len == 2 && clang_equalCursors(kids.items[1], rhs);
	vec_free(&kids);
	return r;
}

static void note_assignment(struct origins *o, int var, struct origin r, CXCursor rhs)
{
	struct assignment a = { .var = var, .origin = r, .at = origin_place_of(rhs) };

	a.dominates = assigned_by_statement(o, rhs, a.at);
	a.scope_end = o->stmt.scope_end;
	vec_push(&o->assignments, a);
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
	struct var v = { .decl = decl, .int_param = { ORIGIN_UNKNOWN, 0 } };
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
	if (p >= 0)
		v.origin[v.n++] = origin(ORIGIN_PARAM, p);
	vec_push(&o->vars, v);
	*index = (int)o->vars.len - 1;
	return &o->vars.items[o->vars.len - 1];
}

static void var_conflict(struct origins *o, CXCursor decl)
{
	int i;
	struct var *v = var_of(o, decl, &i);

	if (v)
		v->conflict = 1;
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
	case CXCursor_StmtExpr:
		/* `({ ...; p; })`, a macro's value (container_of): where its
		 * last expression points */
		kids = children_of(t);
		if (kids.len == 1 && clang_getCursorKind(kids.items[0]) == CXCursor_CompoundStmt) {
			cursorvec body = children_of(kids.items[0]);

			if (body.len && clang_isExpression(clang_getCursorKind(body.items[body.len - 1])))
				r = origin_of_pointer(o, body.items[body.len - 1]);
			vec_free(&body);
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

/* An integer parameter made a pointer by a cast: `(void *)arg`, the
 * address an ioctl's `unsigned long arg` carries. */
static int is_int_param_cast(const struct origins *o, CXCursor rhs)
{
	CXCursor t = strip(rhs), d;

	if (clang_getCursorKind(t) != CXCursor_DeclRefExpr ||
	    !is_pointer(canonical_type(rhs)))
		return 0;
	d = clang_getCursorReferenced(t);
	if (param_index(o, d) < 0)
		return 0;
	switch (canonical_type(d).kind) {
	case CXType_Long: case CXType_ULong: case CXType_LongLong: case CXType_ULongLong:
	case CXType_Int: case CXType_UInt:
		return 1;
	default:
		return 0;
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
		v->conflict = 1;
		return;
	}
	/* `p = NULL`: p points nowhere, and a store through it cannot
	 * land anywhere else (dvb_usercopy's `void *parg = NULL`) */
	if (is_null_constant(*rhs)) {
		note_assignment(o, i, origin(ORIGIN_UNKNOWN, 0), *rhs);
		return;
	}
	r = origin_of_pointer(o, *rhs);
	note_assignment(o, i, r, *rhs);
	v = &o->vars.items[i];	/* origin_of_pointer may have grown vars */
	if (r.kind == ORIGIN_VAR && r.n == i)
		return;		/* p = p + 1: still into the same object */
	if (is_int_param_cast(o, *rhs) && v->int_param.kind == ORIGIN_UNKNOWN) {
		v->int_param = r;	/* judged with the rest at the end */
		return;
	}
	for (int k = 0; k < v->n; k++)
		if (same_origin(v->origin[k], r))
			return;
	if (v->n == MAX_VAR_ORIGINS)
		v->conflict = 1;
	else
		v->origin[v->n++] = r;
}

static struct origin resolve(const struct origins *o, struct origin or, int depth);

/* Where a variable points, all its assignments taken together (resolved
 * through the variables they name): where they all point, or this call's
 * own memory when each is a stack buffer or a fresh one (drm_ioctl's
 * kdata; video_usercopy's parg, assigned sbuf or mbuf, itself a
 * kmalloc'ed buffer), else unknown. A variable that was also an integer
 * parameter made a pointer and is otherwise this call's own memory
 * (video_usercopy's `parg = (void *)arg` when the command carries no
 * data) is the call's own: the kernel does not store through a user
 * address it was handed as a number (SMAP faults), so a store through it
 * lands in the buffer. Assigned that cast alone, it points where the
 * parameter does. */
static struct origin var_origin(const struct origins *o, const struct var *v, int depth)
{
	struct origin first, r;
	int own = 1, same = 1;

	if (v->conflict)
		return origin(ORIGIN_UNKNOWN, 0);
	if (!v->n)
		return v->int_param.kind == ORIGIN_UNKNOWN ? origin(ORIGIN_UNKNOWN, 0) :
			resolve(o, v->int_param, depth + 1);
	first = resolve(o, v->origin[0], depth + 1);
	for (int k = 0; k < v->n; k++) {
		r = k ? resolve(o, v->origin[k], depth + 1) : first;
		own &= is_own(r);
		same &= same_origin(r, first);
	}
	if (own)
		return same ? first : origin(ORIGIN_TEMP, 0);
	if (v->int_param.kind != ORIGIN_UNKNOWN || !same)
		return origin(ORIGIN_UNKNOWN, 0);
	return first;
}

static struct origin resolve(const struct origins *o, struct origin or, int depth)
{
	if (or.kind != ORIGIN_VAR)
		return or;
	if (depth > 16)
		return origin(ORIGIN_UNKNOWN, 0);
	return var_origin(o, &o->vars.items[or.n], depth);
}

struct origin origins_resolve(const struct origins *o, struct origin or)
{
	return resolve(o, or, 0);
}

/* The assignment of variable var that dominates place at (see
 * pointer_origin.h), or NULL. */
static const struct assignment *dominating_assignment(const struct origins *o, int var,
						      struct origin_place at)
{
	const struct assignment *last = NULL;

	for (size_t i = 0; i < o->assignments.len; i++) {
		const struct assignment *a = &o->assignments.items[i];

		if (a->var != var)
			continue;
		if (!same_file(a->at, at))
			return NULL;	/* in a header's macro: not told apart */
		if (before(a->at, at) && (!last || a->at.offset > last->at.offset))
			last = a;
	}
	if (!last || !last->dominates || !within(at, last->at, last->scope_end))
		return NULL;
	for (size_t i = 0; i < o->labels.len; i++)
		if (before(last->at, o->labels.items[i]) && before(o->labels.items[i], at))
			return NULL;
	for (size_t i = 0; i < o->loops.len; i++) {
		const struct span *l = &o->loops.items[i];

		if (!within(at, l->begin, l->end) || within(last->at, l->begin, l->end))
			continue;
		for (size_t k = 0; k < o->assignments.len; k++)
			if (o->assignments.items[k].var == var &&
			    within(o->assignments.items[k].at, l->begin, l->end))
				return NULL;
	}
	return last;
}

struct origin origins_resolve_at(const struct origins *o, struct origin or,
				 struct origin_place at)
{
	struct origin r = resolve(o, or, 0), d;
	const struct assignment *a;

	if (is_own(r) || or.kind != ORIGIN_VAR || o->vars.items[or.n].conflict)
		return r;
	a = dominating_assignment(o, or.n, at);
	if (!a)
		return r;
	d = resolve(o, a->origin, 0);
	return is_own(d) ? d : r;
}
