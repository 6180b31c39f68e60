/* Function summaries and lifting: the effects of a function for every call
 * (or for calls passing a constant it tests), memoised; and a callee's
 * effects as its caller sees them (a store through a parameter landing
 * where the caller's argument points, a callback resolved to the function
 * handed in). */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

/* The parameter into whose object an argument points (memset(tm, ...),
 * &info->id with tm, info parameters): a store through it is a store
 * through that parameter. */
int pointer_param(const struct call_arg *a)
{
	return a->ptr_param;
}

/* Does argument a point where a store (EF_STORE) or a linked entry
 * (EF_LINK) leaves nothing others see? */
int lands_in_frame(const struct call_arg *a, enum effect_kind k)
{
	return a && (k == EF_LINK ? a->points_to_frame : a->points_to_local);
}

/* A store (or a list entry linked, EF_LINK) through the callee's
 * parameter `param`, seen from the caller of `call`: 0 when it lands in
 * the caller's own frame (&local passed; for a store, a fresh allocation
 * too; NULL); otherwise 1, with the caller's parameter it goes through,
 * or -1. */
int store_through_call(const struct stmt *call, enum effect_kind k, int param,
		       int *caller_param)
{
	const struct call_arg *a = (size_t)param < call->args.len ? &call->args.items[param] : NULL;

	*caller_param = a ? pointer_param(a) : -1;
	return !lands_in_frame(a, k);
}

/* Effects that go where a parameter points: the caller places them. */
int lands_through_param(const struct effect *e)
{
	return (e->kind == EF_STORE || e->kind == EF_LINK) && e->param >= 0;
}

/* A callee's effects as the caller sees them. */
/* Where argument j of call s points, for a callback's cbmap. */
signed char arg_target(const struct stmt *s, int j)
{
	const struct call_arg *a;

	if (j < 0 || (size_t)j >= s->args.len)
		return CB_UNKNOWN;
	a = &s->args.items[j];
	if (a->points_to_local)
		return CB_LOCAL;
	return a->ptr_param >= 0 && a->ptr_param < 127 ? (signed char)a->ptr_param : CB_UNKNOWN;
}

/* The callback function cb that call s hands the callee, for the
 * callee's call through its parameter (effect e). */
static void lift_callback_target(struct classifier *c, const struct function_facts *fn,
				 const struct stmt *s, const struct effect *e,
				 const struct function_facts *cb, effect_list *out)
{
	const struct summary *sum = summarise(c, cb);
	effect_list sub = {0};

	/* stores through the callback's parameter j are stores through the
	 * callee's parameter cbmap[j] */
	for (size_t i = 0; i < sum->effects.len; i++) {
		const struct effect *f = &sum->effects.items[i];
		int m = f->param >= 0 && f->param < MAX_CB_ARGS ? e->cbmap[f->param] : CB_UNKNOWN;

		/* CB_LOCAL does not tell a frame from a fresh allocation: a
		 * list entry there still counts */
		if (f->kind == EF_STORE && f->param >= 0 && m == CB_LOCAL)
			continue;
		effect_add_mapped(&sub, f->kind == EF_CAP_GUARD ? EF_CAP_COND : f->kind,
				  xstrdup(f->what), f->file, f->line, &f->caps,
				  lands_through_param(f) && m >= 0 ? m : -1, NULL);
	}
	lift_callee(c, fn, s, cb, &sub, 0, out);
	effects_free(&sub);
}

/* A callback read from a member (`dev->ops->set_attr` handed on as the
 * callee's accessor): decided by the member's targets when it is closed,
 * as a call through it would be. Returns 0 when it is not. */
static int lift_member_callback(struct classifier *c, const struct function_facts *fn,
				const struct stmt *s, const struct effect *e,
				const struct call_arg *a, effect_list *out)
{
	const struct function_facts *t[MAX_MEMBER_TARGETS];
	int seek = seek_callback_member(c);
	size_t n;
	char *what;

	if (!member_targets(c, a->member_struct, a->member_field, MAX_MEMBER_TARGETS, seek, t, &n))
		return 0;
	what = xasprintf("%s, the callback %s.%s", e->what, a->member_struct, a->member_field);
	effect_add(out, EF_RESOLVED, resolved_what(what, t, n), fn->file, s->line, NULL);
	free(what);
	for (size_t i = 0; i < n; i++)
		lift_callback_target(c, fn, s, e, t[i], out);
	return 1;
}

/* A callee's call through its parameter e->param (a callback), seen from
 * the call s that hands it a function (or a closed member's targets):
 * that function's effects, its stores through its parameters landing
 * where the callee's call pointed them (cbmap), then where this call's
 * arguments point. A parameter of ours handed on stays a callback one
 * level up. Anything else is a call that cannot be analysed. */
static void lift_callback(struct classifier *c, const struct function_facts *fn,
			  const struct stmt *s, const struct effect *e, effect_list *out)
{
	const struct call_arg *a = (size_t)e->param < s->args.len ? &s->args.items[e->param] : NULL;
	const struct function_facts *cb = a && a->function ?
		function_index_find(c->fi, a->function, fn->unit) : NULL;
	signed char map[MAX_CB_ARGS];

	if (cb && c->depth < CLASSIFY_MAX_DEPTH) {
		lift_callback_target(c, fn, s, e, cb, out);
		return;
	}
	if (a && !a->function && a->member_struct && c->depth < CLASSIFY_MAX_DEPTH &&
	    lift_member_callback(c, fn, s, e, a, out))
		return;
	if (a && !a->function && a->view.param >= 0 && a->view.shift == 0) {
		for (int j = 0; j < MAX_CB_ARGS; j++)
			map[j] = e->cbmap[j] >= 0 ? arg_target(s, e->cbmap[j]) : e->cbmap[j];
		effect_add_mapped(out, EF_UNKNOWN, xstrdup(e->what), e->file, e->line, NULL,
				  a->view.param, map);
		return;
	}
	effect_add(out, EF_UNKNOWN, xstrdup(e->what), e->file, e->line, NULL);
}

void lift_callee(struct classifier *c, const struct function_facts *fn,
		 const struct stmt *s, const struct function_facts *callee,
		 const effect_list *sub, int top, effect_list *out)
{
	for (size_t i = 0; i < sub->len; i++) {
		const struct effect *e = &sub->items[i];
		enum effect_kind k = e->kind;
		int param = -1;

		if (k == EF_UNKNOWN && e->param >= 0) {
			lift_callback(c, fn, s, e, out);
			continue;
		}

		/* a guard inside a callee guards the caller only if
		 * the call itself is unconditional */
		if (k == EF_CAP_GUARD && (!top || bypassed(c)))
			k = EF_CAP_COND;
		/* the driver's own mode tests count, not those of
		 * functions of other files it calls */
		if (k == EF_MODE_WRITE && strcmp(callee->file, fn->file))
			continue;
		/* a store through the callee's parameter: where
		 * does this call's argument point? */
		if (lands_through_param(e) && !store_through_call(s, k, e->param, &param))
			continue;	/* into this call's own frame */
		effect_add_param(out, k, xstrdup(e->what), e->file, e->line, &e->caps, param);
	}
}

static unsigned hash_ptr(const void *p)
{
	return (unsigned)(((uintptr_t)p >> 4) % SUMMARY_BUCKETS);
}

/* `return capable(X);` (or a wrapper of one) makes a capability wrapper */
static void note_wrapper(struct classifier *c, struct summary *s)
{
	const struct stmt *body = s->fn->body;

	for (size_t i = 0; i + 1 < body->kids.len; i++) {
		const struct stmt *call = body->kids.items[i];
		const struct stmt *ret = body->kids.items[i + 1];

		if (call->kind == ST_CALL && ret->kind == ST_RETURN && ret->ret_has_call)
			call_capabilities(c, s->fn, call, &s->wrapper_caps);
	}
}

/* The summary of fn for calls that pass `value` as parameter `param`
 * (param -1: for every call). */
static struct summary *summarise_for(struct classifier *c, const struct function_facts *fn,
				     int param, int64_t value)
{
	unsigned h = hash_ptr(fn);
	struct summary *s;
	const struct function_facts *flags_fn, *const_fn = c->const_fn;
	int const_param = c->const_param, tracked, success;
	int64_t const_value = c->const_value;
	unsigned cuts;

	for (s = c->bucket[h]; s; s = s->next)
		if (s->fn == fn && s->cparam == param && (param < 0 || s->cvalue == value) &&
		    (!s->cut || s->busy || s->depth <= c->depth)) {
			c->cuts += s->cut;
			return s;	/* done, or busy in a recursion: what is known so far */
		}
	/* a summary cut short deeper down is made again from here, where
	 * more of it is in reach (the order commands are walked in must not
	 * decide what a function does) */
	s = xcalloc(1, sizeof(*s));
	s->fn = fn;
	s->cparam = param;
	s->cvalue = value;
	s->depth = c->depth;
	cuts = c->cuts;
	s->next = c->bucket[h];
	c->bucket[h] = s;
	s->busy = 1;
	note_wrapper(c, s);
	c->const_fn = param >= 0 ? fn : NULL;
	c->const_param = param;
	c->const_value = value;
	/* header functions are small (accessors, wrappers): they do not
	 * count towards the depth, which bounds the tree's own calls */
	c->depth += !ends_with(fn->file, ".h");
	c->via_header += ends_with(fn->file, ".h");
	flags_fn = c->flags_fn;
	c->flags_fn = NULL;	/* a summary holds for every path */
	tracked = c->bypass_tracked;
	success = c->success_return;
	c->bypass_tracked = 1;
	c->success_return = 0;
	c->summarising++;
	analyse_block(c, fn, fn->body, 1, &s->effects);
	c->summarising--;
	c->bypass_tracked = tracked;
	c->success_return = success;
	c->flags_fn = flags_fn;
	c->const_fn = const_fn;
	c->const_param = const_param;
	c->const_value = const_value;
	c->via_header -= ends_with(fn->file, ".h");
	c->depth -= !ends_with(fn->file, ".h");
	s->cut = c->cuts != cuts;
	s->busy = 0;
	s->done = 1;
	return s;
}

struct summary *summarise(struct classifier *c, const struct function_facts *fn)
{
	return summarise_for(c, fn, -1, 0);
}

struct param_use {
	int param;
	const char *name;
	/* with fi: a call handing the parameter on unchanged to a function
	 * that tests it counts, `hops` calls deep at most */
	const struct function_index *fi;
	const struct function_facts *fn;
	int hops;
};

static int tests_param(const struct function_index *fi, const struct function_facts *fn,
		       int param, int hops);

static int tests_param_pred(const struct stmt *s, void *ctx)
{
	const struct param_use *u = ctx;
	const struct function_facts *callee;

	/* a premise of a call: `(flags & DRM_ROOT_ONLY) && !capable(X)` */
	for (size_t i = 0; s->kind == ST_CALL && i < s->premises.len; i++)
		if (tests_param_pred(s->premises.items[i], ctx))
			return 1;
	/* handed on: drm_ioctl_kernel's drm_ioctl_permit(flags, file_priv) */
	for (size_t j = 0; s->kind == ST_CALL && u->fi && u->hops > 0 && s->callee &&
	     j < s->args.len; j++) {
		const struct call_arg *a = &s->args.items[j];

		if (a->view.param == u->param && !a->view.shift && !a->is_const &&
		    (callee = function_index_find(u->fi, s->callee, u->fn->unit)) &&
		    callee != u->fn && tests_param(u->fi, callee, (int)j, u->hops - 1))
			return 1;
	}
	return (s->kind == ST_IF && s->cmp_view.param == u->param &&
		(s->cond == COND_PARAM_TRUTH || (s->cond == COND_PARAM_CMP && s->segs.len))) ||
	       (s->kind == ST_SWITCH && s->on.param == u->param);
}

static int stores_param_pred(const struct stmt *s, void *ctx);

/* Does fn test its parameter `param` (itself, or through the calls it
 * hands it to unchanged, `hops` deep), and never assign it? */
static int tests_param(const struct function_index *fi, const struct function_facts *fn,
		       int param, int hops)
{
	struct param_use u = { param, NULL, fi, fn, hops };

	if (!fn->body || (size_t)param >= fn->params.len || !fn->params.items[param][0])
		return 0;
	u.name = fn->params.items[param];
	return stmt_any(fn->body, tests_param_pred, &u) &&
	       !stmt_any(fn->body, stores_param_pred, &u);
}

static int stores_param_pred(const struct stmt *s, void *ctx)
{
	const struct param_use *u = ctx;

	return s->kind == ST_STORE && s->target && !strcmp(s->target, u->name);
}

/*
 * A call passing a constant to a parameter that the callee tests and never
 * assigns (`mxser_ioctl_op_mode(port, index, false, p)` and its `if (set)`)
 * is summarised for that constant: only the branches it takes count.
 * Returns the summary, or NULL when no argument is such a constant.
 */
/* Is v a parameter of fn known to hold a constant: bound by the
 * command's dispatch (chain_link.has_const), or the one the summary
 * being made is for (drm_ioctl_kernel summarised for the flags
 * compat_r128_init passes hands them on to drm_ioctl_permit)? Then
 * *value is it. */
static int known_constant(const struct classifier *c, const struct function_facts *fn,
			  const struct param_view *v, int64_t *value)
{
	const struct chain_link *l = v->shift ? NULL : bound_link(c, fn, v->param);

	if (l) {
		*value = (int64_t)((uint64_t)l->const_value & v->mask);
		return 1;
	}
	if (fn == c->const_fn && v->param >= 0 && v->param == c->const_param && !v->shift) {
		*value = (int64_t)((uint64_t)c->const_value & v->mask);
		return 1;
	}
	return 0;
}

struct summary *const_param_summary(struct classifier *c, const struct function_facts *fn,
				    const struct stmt *call,
				    const struct function_facts *callee)
{
	int cmd_param = command_param(c, fn);

	for (size_t j = 0; j < call->args.len && j < callee->params.len; j++) {
		const struct call_arg *a = &call->args.items[j];
		int64_t value = a->value;

		if (!a->is_const && known_constant(c, fn, &a->view, &value)) {
			/* a table entry's flags, or a caller's constant flags,
			 * handed on (drm_ioctl_kernel's
			 * drm_ioctl_permit(flags, file_priv)) */
		} else if (!a->is_const) {
			/* `cmd == MOXA_SET_OP_MODE` on the command's path */
			struct case_label l = { a->cmp_value, a->cmp_value, NULL, 0 };
			enum label_match m;

			if (cmd_param < 0 || a->cmp_view.param != cmd_param)
				continue;
			m = command_label_match(c->cmd, a->cmp_view, &l);
			if (m == MATCH_MAYBE)
				continue;
			value = (m == MATCH_YES) == a->cmp_eq;
		}
		if (!tests_param(c->fi, callee, (int)j, CONST_PARAM_HOPS))
			continue;
		return summarise_for(c, callee, (int)j, value);
	}
	return NULL;
}
