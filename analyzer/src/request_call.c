/* Reading a transport call's request code (request_call.h).
 *
 * The code is what block.field[0] holds when the call is made. The
 * statements that may run before the call in the same function are the
 * earlier statements of each block around it, the condition's calls of an
 * if around it, the cases that fall through into its case, and all of a
 * loop around it; with a label before the call (a goto may come back),
 * the whole function. The code is known when one store to the place runs
 * on every way to the call (it stands in a block around the call, before
 * it), every store to the place among the statements that may run before
 * the call is a constant, and no call handed the block runs after the
 * first such sure store (a helper that may rewrite the code). A write
 * through another pointer to the block (`u8 *c = cgc.cmd; c[0] = ...`)
 * is not seen. Unknown codes leave the transport to be followed as any
 * call. A transport that takes the code as an argument
 * (gb_operation_sync's type) is decided by that argument when it is a
 * constant. */
#include "request_call.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 64

struct frame {
	const struct stmt *a;		/* a statement around the call */
	const struct stmt *k;		/* its part that holds the call */
	size_t seg;			/* for a switch: k's segment */
};

struct code_search {
	const struct request_codes *rc;
	const struct request_transport *t;
	const char *block;		/* the variable passed as the block */
	char *place[2];			/* "cgc.cmd[0]", "cgc->cmd[0]" */
	const struct stmt *call;	/* the transport call */
	unsigned sure;			/* line of the first store on every way */
	int nonconst;
	int64_t code;			/* first code that is not a query */
	const char *query;		/* name of a query code seen */
	int nonquery;
	int helper;			/* a call handed the block after `sure` */
};

static int64_t byte_code(int64_t v)
{
	/* `char cmd[12] = { 0xbe, ... }` evaluates as a signed char */
	return v < 0 && v >= -128 ? v & 0xff : v;
}

static int is_place(const struct code_search *q, const struct stmt *s)
{
	return s->kind == ST_STORE && s->target &&
	       ((q->place[0] && !strcmp(s->target, q->place[0])) ||
		(q->place[1] && !strcmp(s->target, q->place[1])));
}

static int path_to(const struct stmt *a, const struct stmt *call, struct frame *path, int n);

/* Records that part (of a, in segment seg) holds the call, and goes on
 * into it. */
static int descend(const struct stmt *a, const struct stmt *part, size_t seg,
		   const struct stmt *call, struct frame *path, int n)
{
	path[n] = (struct frame){ a, part, seg };
	return part == call ? n + 1 : path_to(part, call, path, n + 1);
}

/* The statements around the call, outermost first; their number, or -1. */
static int path_to(const struct stmt *a, const struct stmt *call, struct frame *path, int n)
{
	if (n >= MAX_NESTING)
		return -1;
	for (size_t i = 0; i < a->kids.len; i++)
		if (stmt_contains(a->kids.items[i], call))
			return descend(a, a->kids.items[i], 0, call, path, n);
	if (stmt_contains(a->then_s, call))
		return descend(a, a->then_s, 0, call, path, n);
	if (stmt_contains(a->else_s, call))
		return descend(a, a->else_s, 0, call, path, n);
	for (size_t i = 0; i < a->segs.len; i++)
		if (stmt_contains(a->segs.items[i].body, call))
			return descend(a, a->segs.items[i].body, i, call, path, n);
	return -1;
}

static int note_store(const struct stmt *s, void *ctx)
{
	struct code_search *q = ctx;
	const char *name;

	if (!is_place(q, s))
		return 0;
	if (!s->store_is_const || s->compound_op) {
		q->nonconst = 1;
		return 0;
	}
	name = request_query_name(q->rc, q->t, byte_code(s->store_value), NULL);
	if (name) {
		q->query = name;
	} else if (!q->nonquery) {
		q->nonquery = 1;
		q->code = byte_code(s->store_value);
	}
	return 0;
}

static int hands_block(const struct code_search *q, const struct stmt *s)
{
	for (size_t i = 0; s->kind == ST_CALL && i < s->args.len; i++)
		if (!s->args.items[i].is_const && s->args.items[i].spelling &&
		    !strcmp(s->args.items[i].spelling, q->block))
			return 1;
	return 0;
}

/* The transport a call goes to, if any: by the function's name, or by
 * "struct.member" for a call through an ops member. */
static const struct request_transport *transport_of(const struct request_codes *rc,
						    const struct stmt *s)
{
	if (s->callee)
		return request_transport_for(rc, s->callee, NULL);
	return s->callee_struct ?
		request_transport_for(rc, s->callee_struct, s->callee_field) : NULL;
}

static int note_helper(const struct stmt *s, void *ctx)
{
	struct code_search *q = ctx;

	/* a transport sends the block, it does not rewrite the code
	 * (cdrom_get_track_info sends READ TRACK INFORMATION twice, the
	 * second time for the whole answer) */
	if (s != q->call && hands_block(q, s) && s->line > q->sure && !transport_of(q->rc, s))
		q->helper = 1;
	return 0;
}

/* Runs f over the statements that may run before the call. */
static void before_call(const struct frame *path, int n, int (*f)(const struct stmt *, void *),
			struct code_search *q)
{
	for (int d = n - 1; d >= 0; d--) {
		const struct stmt *a = path[d].a;
		/* all of a loop; all of an if's condition when the call is
		 * in a branch */
		int whole = a->kind == ST_LOOP ||
			(a->kind == ST_IF && (path[d].k == a->then_s || path[d].k == a->else_s));

		for (size_t i = 0; i < a->kids.len; i++) {
			if (a->kids.items[i] == path[d].k && !whole)
				break;
			stmt_any(a->kids.items[i], f, q);
		}
		for (size_t i = path[d].seg; a->kind == ST_SWITCH && i > 0; i--) {
			if (!a->segs.items[i - 1].falls_through)
				break;
			stmt_any(a->segs.items[i - 1].body, f, q);
		}
	}
}

/* The first store to the place that runs on every way to the call: one
 * in a block around the call, before it. */
static void find_sure_store(const struct frame *path, int n, struct code_search *q)
{
	for (int d = 0; d < n; d++) {
		const struct stmt *a = path[d].a;

		if (a->kind != ST_BLOCK && a->kind != ST_LOOP)
			continue;
		for (size_t i = 0; i < a->kids.len && a->kids.items[i] != path[d].k; i++) {
			if (is_place(q, a->kids.items[i])) {
				q->sure = a->kids.items[i]->line;
				return;
			}
		}
	}
}

static int label_pred(const struct stmt *s, void *ctx)
{
	return s->label && s->line <= ((const struct stmt *)ctx)->line;
}

struct request_verdict request_call(const struct request_codes *rc,
				    const struct function_facts *fn, const struct stmt *s)
{
	struct request_verdict v = { transport_of(rc, s), 0, 0, NULL, NULL };
	struct code_search q = { .rc = rc, .t = v.transport, .call = s };
	struct frame path[MAX_NESTING];
	const struct call_arg *a;
	int n;

	if (!v.transport || (size_t)v.transport->arg >= s->args.len || !fn->body)
		return v;
	a = &s->args.items[v.transport->arg];
	if (!v.transport->field) {
		/* the code is the argument: gb_operation_sync(conn, TYPE, ...) */
		if (a->is_const) {
			v.known = 1;
			v.code = a->value;
			v.macro = a->spelling;
			v.query = request_query_name(rc, v.transport, a->value, a->spelling);
		}
		return v;
	}
	if (a->is_const || !a->spelling || !strcmp(a->spelling, "?"))
		return v;
	n = path_to(fn->body, s, path, 0);
	if (n <= 0)
		return v;
	q.block = a->spelling;
	if (*v.transport->field) {
		q.place[0] = xasprintf("%s.%s[0]", q.block, v.transport->field);
		q.place[1] = xasprintf("%s->%s[0]", q.block, v.transport->field);
	} else {
		q.place[0] = xasprintf("%s[0]", q.block);
	}
	find_sure_store(path, n, &q);
	if (q.sure) {
		if (stmt_any(fn->body, label_pred, (void *)s)) {
			/* a goto may come back to a label before the call */
			stmt_any(fn->body, note_store, &q);
			stmt_any(fn->body, note_helper, &q);
		} else {
			before_call(path, n, note_store, &q);
			before_call(path, n, note_helper, &q);
		}
		if (!q.nonconst && !q.helper) {
			v.known = 1;
			v.code = q.code;
			v.query = q.nonquery ? NULL : q.query;
		}
	}
	free(q.place[0]);
	free(q.place[1]);
	return v;
}
