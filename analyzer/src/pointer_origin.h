/* Where the pointers of one function point, as far as its own code shows:
 * into its own frame (&local, a local array, strchr(local, c)), into a
 * temporary it allocated (kzalloc), into what a parameter points to
 * (&param->field, param + 1), or unknown (a global, a pointer loaded from
 * memory, a call's result). A store through a pointer is local when the
 * pointer points into the frame or a temporary; through a parameter it is
 * the caller's to judge (classify.c follows it to the call site).
 *
 * Local pointer variables are followed through assignments. The answer is
 * flow-insensitive and conservative: a variable assigned two different
 * origins, whose address is taken, or assigned by a macro, is unknown; so
 * is a parameter that is reassigned. Since a later assignment can change
 * an earlier answer (in a loop), origins of variables are resolved when the
 * whole function has been read (origins_resolve). */
#ifndef IOCTL_SCAN_POINTER_ORIGIN_H
#define IOCTL_SCAN_POINTER_ORIGIN_H

#include <clang-c/Index.h>

#include "knowledge.h"

enum origin_kind {
	ORIGIN_UNKNOWN,	/* may be shared: a global, loaded from memory */
	ORIGIN_FRAME,	/* this call's own locals */
	ORIGIN_TEMP,	/* a fresh allocation of this call */
	ORIGIN_PARAM,	/* what parameter n points to */
	ORIGIN_VAR,	/* what variable n points to: resolve at the end */
};

struct origin {
	enum origin_kind kind;
	int n;
};

struct origins;

struct origins *origins_new(const struct knowledge *kn, const CXCursor *params, int nparams);
void origins_free(struct origins *o);
/* Where the pointer an expression evaluates to points. */
struct origin origin_of_pointer(struct origins *o, CXCursor e);
/* Where the memory an lvalue names lives (p->x: where p points). */
struct origin origin_of_lvalue(struct origins *o, CXCursor lv);
/* `var = rhs` (or var's initialiser); a null rhs: assigned unknowably. */
void origins_assign(struct origins *o, CXCursor var, const CXCursor *rhs);
/* An origin with the variables it goes through resolved (after the
 * whole function has been read): never ORIGIN_VAR. */
struct origin origins_resolve(const struct origins *o, struct origin or);

#endif
