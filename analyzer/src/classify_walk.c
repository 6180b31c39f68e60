/* Walking a function's statements along a command's path (or all of them,
 * for a summary): blocks in order, ifs and their capability checks,
 * switches, gotos and where they land, returns, stores. Each walker
 * returns how control leaves the statement (FLOW_ON, FLOW_OUT); which
 * branches are on the path is classify_path.c's, what a call does
 * classify_calls.c's. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

/* Whether control never falls out of b: b, or the last statement of b
 * and of its nested blocks, is a return, break or goto. (extract_facts.c's
 * ends_flow looks at the last statement of one block only, to mark switch
 * segments that fall through.) */
int always_leaves(const struct stmt *b)
{
	const struct stmt *last;

	if (!b)
		return 0;
	if (b->kind != ST_BLOCK)
		return b->kind == ST_RETURN || b->kind == ST_BREAK || b->kind == ST_GOTO;
	if (!b->kids.len)
		return 0;
	last = b->kids.items[b->kids.len - 1];
	return always_leaves(last);
}

/* Has the function being summarised returned success on a path that
 * comes before the check now met? */
int bypassed(const struct classifier *c)
{
	return c->bypass_tracked && c->success_return;
}

/* The then-branch of a failed check: it leaves (return, goto, break), or
 * only records an error code in a local for a later test
 * (`if (!capable(X)) err = -EPERM;`). */
static int error_exit(const struct stmt *b)
{
	if (always_leaves(b))
		return 1;
	if (!b || b->kind != ST_BLOCK || !b->kids.len)
		return 0;
	for (size_t i = 0; i < b->kids.len; i++) {
		const struct stmt *s = b->kids.items[i];

		if (!(s->kind == ST_STORE && !s->nonlocal && s->store_is_const && s->store_value < 0))
			return 0;
	}
	return 1;
}

/* The branches of an if: both, or the one a test on the command selects
 * (then analysed as surely run when the if is). */
static int analyse_branches(struct classifier *c, const struct function_facts *fn,
			    const struct stmt *s, int top, effect_list *out)
{
	enum label_match holds = if_holds(c, fn, s);
	int flow = 0;

	if (holds != MATCH_NO)
		flow |= analyse_block(c, fn, s->then_s, holds == MATCH_YES && top, out);
	if (holds != MATCH_YES)
		flow |= analyse_block(c, fn, s->else_s, holds == MATCH_NO && top, out);
	return flow;
}

/* The call of an if whose condition is exactly a call (or its negation)
 * that drops a reference and says whether it was the last
 * (kernel_api.json release_tests), or NULL. */
static const struct stmt *release_test(const struct classifier *c, const struct stmt *s)
{
	if (s->cond != COND_CALL && s->cond != COND_NOT_CALL)
		return NULL;
	for (size_t i = 0; i < s->kids.len; i++) {
		const struct stmt *k = s->kids.items[i];

		if (k->kind == ST_CALL)
			return k->callee && strvec_contains(&c->kn->release_tests, k->callee) ? k : NULL;
	}
	return NULL;
}

/* `if (refcount_dec_and_test(&d->ref)) destroy(d);` and `if
 * (!atomic_dec_and_test(&d->users)) return; destroy(d);`: a put written
 * out. Like kref_put's release, the destructor (the branch taken when the
 * last reference went, and what follows an if whose other branch leaves)
 * is not the command's doing. */
static int analyse_release(struct classifier *c, const struct function_facts *fn,
			   const struct stmt *s, const struct stmt *call, int top, effect_list *out)
{
	analyse_call(c, fn, call, top, out);
	return analyse_block(c, fn, s->cond == COND_CALL ? s->else_s : s->then_s, top, out);
}

/* if (!capable(X)) return ...; and if (!wrapper()) { err; break; } */
static int analyse_if(struct classifier *c, const struct function_facts *fn,
		      const struct stmt *s, int top, effect_list *out)
{
	const struct stmt *release = release_test(c, s);

	if (release)
		return analyse_release(c, fn, s, release, top, out);
	for (size_t i = 0; i < s->kids.len; i++) {
		const struct stmt *k = s->kids.items[i];
		strvec caps = {0};

		if (k->kind == ST_MODE_TEST) {
			if (!strcmp(k->target, "FMODE_WRITE"))
				effect_add(out, EF_MODE_WRITE, xstrdup("FMODE_WRITE test"), fn->file,
					   k->line, NULL);
			continue;
		}
		if (k->kind != ST_CALL) {
			/* a store in the condition (`if (dev->users++)`), the
			 * statements of a macro's ({ ... }) in it */
			analyse_stmt(c, fn, k, 0, out);
			continue;
		}
		call_capabilities(c, fn, k, &caps);
		if (caps.len) {
			/* `cmd != A && !capable(X)`: for A, capable() is
			 * not called; for other commands it guards */
			enum label_match p = premises_hold(c, fn, k);
			int guard = top && (k->negated_in_cond || (k->premises.len && p == MATCH_YES)) &&
				error_exit(s->then_s) && !bypassed(c);

			char *cap;

			if (k->premises.len && p == MATCH_NO) {
				strvec_clear(&caps);
				continue;
			}
			cap = cap_name(caps.items[0]);
			effect_add(out, guard ? EF_CAP_GUARD : EF_CAP_COND,
				   xasprintf("%s(%s)", k->callee, cap), fn->file, k->line, &caps);
			if (guard && on_dispatch_chain(c, fn))
				effect_add(&c->guards, EF_CAP_GUARD,
					   xasprintf("%s(%s)", k->callee, cap), fn->file, k->line, &caps);
			free(cap);
			strvec_clear(&caps);
			continue;
		}
		analyse_call(c, fn, k, top, out);
	}
	return analyse_branches(c, fn, s, top, out);
}

/* The switch's segments on the path (on[i], NULL: all): how control
 * leaves the switch. A segment that breaks, or the last one falling off,
 * continues after it; so does a command no segment surely takes. */
static int switch_flow(const struct stmt *s, const unsigned char *on, const int *seg_flow)
{
	int flow = 0, lands = 0;

	for (size_t i = 0; i < s->segs.len; i++) {
		if (on && on[i] == MATCH_NO)
			continue;
		if (s->segs.items[i].is_default || (on && on[i] == MATCH_YES))
			lands = 1;
		if (seg_flow[i] & FLOW_OUT)
			flow = FLOW_ON;
		if ((seg_flow[i] & FLOW_ON) && (i + 1 == s->segs.len || !s->segs.items[i].falls_through))
			flow = FLOW_ON;
	}
	return lands ? flow : FLOW_ON;
}

static int analyse_switch(struct classifier *c, const struct function_facts *fn,
			  const struct stmt *s, int top, effect_list *out)
{
	int param = command_param(c, fn), flow;
	unsigned char *on = NULL;
	int *seg_flow = xcalloc(s->segs.len + 1, sizeof(int));

	if (param >= 0 && s->on.param == param) {
		on = command_segments(c, fn, s);
	} else if (param >= 0 && s->callee_array_field) {
		on = searched_segments(c, fn, s);
	} else if (fn == c->const_fn && s->on.param == c->const_param) {
		/* vfio_container_ioctl_check_extension's call of an iommu
		 * driver's ioctl with VFIO_CHECK_EXTENSION: a constant's case */
		struct command known = const_command(c);

		on = xcalloc(s->segs.len + 1, 1);
		segments_on_path(&known, s, on);
	}
	for (size_t i = 0; i < s->segs.len; i++) {
		if (on && on[i] == MATCH_NO)
			continue;
		seg_flow[i] = analyse_block(c, fn, s->segs.items[i].body,
					    on && on[i] == MATCH_YES && top, out);
		/* the segment it falls into, when its end is reached (not
		 * after `if (err) return -EFAULT; else return 0;`) */
		if (on && i + 1 < s->segs.len && s->segs.items[i].falls_through &&
		    (seg_flow[i] & FLOW_ON) && on[i] > on[i + 1])
			on[i + 1] = on[i];
	}
	flow = switch_flow(s, on, seg_flow);
	free(on);
	free(seg_flow);
	return flow;
}

static void note_goto(struct classifier *c, const struct function_facts *fn, const char *label)
{
	if (c->ngotos < MAX_GOTOS) {
		c->gotos[c->ngotos].fn = fn;
		c->gotos[c->ngotos].label = label;
	}
	c->ngotos++;
}

/* Does the path come back at statement k, which follows one that
 * returned or jumped: a label a goto on the path names, or a statement
 * with a label somewhere inside. */
int resumes_at(const struct classifier *c, const struct function_facts *fn,
	       const struct stmt *k)
{
	if (!k->has_label)
		return 0;
	if (!k->label || c->ngotos > MAX_GOTOS)
		return 1;
	for (int i = 0; i < c->ngotos; i++)
		if (c->gotos[i].fn == fn && (!c->gotos[i].label || !strcmp(c->gotos[i].label, k->label)))
			return 1;
	return 0;
}

/* Statements in order; after one that returns or jumps, only a label
 * that a goto on the path names brings the path back. */
int analyse_seq_from(struct classifier *c, const struct function_facts *fn,
		     const struct stmt *const *kids, size_t n, int top, int reach,
		     effect_list *out)
{
	int out_flow = 0;

	for (size_t i = 0; i < n; i++) {
		int f;

		if (!reach && !resumes_at(c, fn, kids[i]))
			continue;
		flags_label(c, fn, kids[i]);
		f = analyse_stmt(c, fn, kids[i], top, out);
		out_flow |= f & FLOW_OUT;
		reach = f & FLOW_ON;
	}
	return (reach ? FLOW_ON : 0) | out_flow;
}

static int analyse_seq(struct classifier *c, const struct function_facts *fn,
		       const struct stmt *const *kids, size_t n, int top, effect_list *out)
{
	return analyse_seq_from(c, fn, kids, n, top, 1, out);
}

static int lands_pred(const struct stmt *s, void *ctx)
{
	const struct classifier *c = ((const void *const *)ctx)[0];
	const struct function_facts *fn = ((const void *const *)ctx)[1];

	if (!s->has_label)
		return -1;
	return s->label ? resumes_at(c, fn, s) : 0;
}

/* Does a goto on the path land in block s: a label of fn that one names? */
int goto_lands_in(const struct classifier *c, const struct function_facts *fn,
		  const struct stmt *s)
{
	const void *ctx[2] = { c, fn };

	/* a switch segment's block is made for the segment: only what it
	 * holds is marked */
	for (size_t i = 0; i < s->kids.len; i++)
		if (stmt_any(s->kids.items[i], lands_pred, ctx))
			return 1;
	return 0;
}

/* A return of the declining value (-ENOIOCTLCMD) in a link of the
 * command's dispatch chain. */
static void note_declined(struct classifier *c, const struct function_facts *fn,
			  const struct stmt *ret)
{
	for (int d = 0; d < c->site->chain_len && d < 32; d++) {
		if (c->site->chain[d].fn != fn)
			continue;
		if (d)
			c->declined_links |= 1u << d;
		else if (!c->declined)
			c->declined = ret;
	}
}

/* Is s the call to the next link of the chain: that call, or another
 * call through the same parameter (drm_ioctl_kernel calls its func in
 * both branches of its locking)? */
static int is_link_call(const struct classifier *c, const struct stmt *s)
{
	const struct stmt *l = c->link_call;

	if (!l || c->summarising)
		return 0;
	return s == l || (!l->callee && l->callee_param >= 0 && !s->callee &&
			  s->callee_param == l->callee_param);
}

/* Is call s, through a parameter of its function (a callback), a link of
 * another of the command's sites? Its effects for the command are that
 * site's, counted when the sites are joined: after video_usercopy's
 * check_array_args() returns from its `case VIDIOC_G_FMT:`, the call
 * func(file, cmd, parg) that follows is the link by which the command
 * reaches its v4l2_ioctls[] entry. This site cannot resolve the
 * callback; the other site knows the function its caller passed. (A
 * direct call handing on the command is analysed for the command here
 * as it is there.) Never in a summary: it is kept for every command, and
 * a call through drm_ioctl_kernel's func skipped there as DRM_IOCTL_VERSION's
 * link in drm_compat_ioctl was lost for vmwgfx's commands. */
static int links_another_site(const struct classifier *c, const struct stmt *s)
{
	const struct command *cmd = c->cmd;

	if (!cmd || !c->site || c->rewrite || c->renamed || c->summarising || s->callee ||
	    s->callee_param < 0)
		return 0;
	for (size_t k = 0; k < cmd->sites.len; k++) {
		const struct command_site *o = &cmd->sites.items[k];

		if (o == c->site)
			continue;
		for (int d = 1; d < o->chain_len; d++)
			if (o->chain[d].call == s)
				return 1;
	}
	return 0;
}

int analyse_stmt(struct classifier *c, const struct function_facts *fn,
		 const struct stmt *s, int top, effect_list *out)
{
	switch (s->kind) {
	case ST_BLOCK:
		return analyse_seq(c, fn, (const struct stmt *const *)s->kids.items, s->kids.len,
				   top, out);
	case ST_LOOP:
		flags_loop(c, fn, s);
		values_loop(c, fn, s);
		analyse_seq(c, fn, (const struct stmt *const *)s->kids.items, s->kids.len, 0, out);
		return FLOW_ON;
	case ST_IF:
		return analyse_if(c, fn, s, top, out);
	case ST_SWITCH:
		return analyse_switch(c, fn, s, top, out);
	case ST_CALL:
		if (is_link_call(c, s))
			c->link_reached = 1;
		else if (!links_another_site(c, s) && !translated_call(c, s))
			analyse_call(c, fn, s, top, out);
		return FLOW_ON;
	case ST_STORE:
		if (s->flag) {
			flag_store(c, fn, s);
			note_local_store(c, fn, s);
		}
		if (s->assigns_param >= 0 && s->assigns_param == command_param(c, fn))
			note_rewrite(c, fn, s);
		if (s->nonlocal) {
			effect_add_param(out, EF_STORE, xasprintf("store to %s", s->target), fn->file,
					 s->line, NULL, s->store_param);
		}
		return FLOW_ON;
	case ST_GOTO:
		/* `goto *p`: every label may be next, and which runs for
		 * the command is not known */
		if (!s->target)
			effect_add(out, EF_UNFOLLOWED, xstrdup("computed goto: where it lands is not followed"),
				   fn->file, s->line, NULL);
		note_goto(c, fn, s->target);
		return 0;
	case ST_RETURN:
		if (c->bypass_tracked && s->ret_is_const && s->ret_value >= 0)
			c->success_return = 1;
		note_return(c, fn, s);
		if (c->cmd && c->hkind && c->hkind->declined_struct && !c->depth &&
		    s->ret_is_const && s->ret_value == c->hkind->declined_value)
			note_declined(c, fn, s);
		return 0;
	case ST_BREAK:
		return FLOW_OUT;
	default:
		return FLOW_ON;
	}
}

int analyse_block(struct classifier *c, const struct function_facts *fn,
		  const struct stmt *b, int top, effect_list *out)
{
	if (!b)
		return FLOW_ON;
	if (b->kind != ST_BLOCK)
		return analyse_stmt(c, fn, b, top, out);
	return analyse_seq(c, fn, (const struct stmt *const *)b->kids.items, b->kids.len, top, out);
}
