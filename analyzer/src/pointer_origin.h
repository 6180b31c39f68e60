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
 * whole function has been read (origins_resolve).
 *
 * At one place, though, a variable holds what its dominating assignment
 * put there (origins_resolve_at): gpiolib's `descs = kmalloc_array(...)`
 * and the stores into descs[] in the same block after it, although descs
 * is &lr->lines[i].desc elsewhere in the function. Dominating is read
 * from the source's structure: the assignment is a statement of its own
 * in a block that holds the place, no other assignment of the variable
 * comes between, no label (goto's or a switch's) lies between, and no
 * loop around the place but not the assignment assigns the variable. It
 * only ever makes a store the call's own (a frame or a fresh temporary). */
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
/* Where in the function's file a cursor is, for origins_resolve_at. */
struct origin_place {
	CXFile file;
	unsigned offset;
};
struct origin_place origin_place_of(CXCursor c);
/* The same, at a place: a variable the call's own memory by the
 * assignment that dominates the place, if the function says less. */
struct origin origins_resolve_at(const struct origins *o, struct origin or,
				 struct origin_place at);
/* What the walk of the function tells the flow of assignments: the
 * statement of a block being walked (its assignments may dominate what
 * follows in the block; the previous one is returned, to restore), a
 * loop, a label a jump may land on. */
struct origin_statement {
	CXCursor stmt;
	struct origin_place begin, end;	/* the statement */
	struct origin_place scope_end;	/* the end of its block */
};
struct origin_statement origins_statement(struct origins *o, CXCursor stmt, CXCursor block);
void origins_restore_statement(struct origins *o, struct origin_statement saved);
void origins_loop(struct origins *o, CXCursor loop);
void origins_label(struct origins *o, CXCursor label);

#endif
