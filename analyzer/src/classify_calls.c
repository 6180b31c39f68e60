/* What a call on the path does: inline assembly, a request sent to a
 * device (request_codes.json), a kernel API by its knowledge entry, a call
 * through a struct member (a contract, a const object's member, or the
 * targets the tree installs), a parsed callee (through its summary, or
 * analysed for the command it is handed). Deciding only: what the scan
 * should parse next is asked of classify_wanted.c. */
#include "classify_internal.h"

#include "request_call.h"

#include <stdlib.h>
#include <string.h>

char *cap_entry(const char *name, int in_user_ns)
{
	return in_user_ns ? xasprintf("%s" CAP_IN_USER_NS, name) : xstrdup(name);
}

int cap_in_user_ns(const char *entry)
{
	return ends_with(entry, CAP_IN_USER_NS);
}

char *cap_name(const char *entry)
{
	return xstrndup(entry, strlen(entry) - (cap_in_user_ns(entry) ? strlen(CAP_IN_USER_NS) : 0));
}

/* Whether a capability check may be made in a user namespace other than
 * the initial one: it asks one its arguments name, and the call does not
 * pass &init_user_ns there (a wrapper passing its own parameter on may be
 * given any). Taking a check in the initial namespace for one that is not
 * would make the table ask a container's user for `capability` where the
 * driver asks `cap_userns`; the other way round costs nothing, as a check
 * in the initial namespace fails for a task outside it whatever SELinux
 * allows. */
static int checks_in_user_ns(const struct api_entry *a, const struct stmt *call)
{
	const char *ns;

	if (a->user_ns == API_NS_OBJECT)
		return 1;
	if (a->user_ns < 0)
		return 0;
	if ((size_t)a->user_ns >= call->args.len)
		return 1;
	ns = call->args.items[a->user_ns].spelling;
	return !ns || strcmp(ns, "init_user_ns");
}

/* The capabilities a call checks, if it is a capability check or a
 * driver-local wrapper around one; empty otherwise. */
void call_capabilities(struct classifier *c, const struct function_facts *from,
		       const struct stmt *call, strvec *caps)
{
	const struct api_entry *a = call->callee ? api_of(c, call->callee) : NULL;

	if (a && a->effect == API_CAPABILITY) {
		int in_user_ns = checks_in_user_ns(a, call);

		if (a->arg < 0) {
			for (size_t i = 0; i < a->caps.len; i++)
				vec_push(caps, cap_entry(a->caps.items[i], in_user_ns));
		} else if ((size_t)a->arg < call->args.len) {
			const struct call_arg *arg = &call->args.items[a->arg];

			if (arg->spelling && starts_with(arg->spelling, "CAP_"))
				vec_push(caps, cap_entry(arg->spelling, in_user_ns));
			else
				vec_push(caps, xasprintf("CAP_? (%s)", arg->spelling ? arg->spelling : "?"));
		}
		return;
	}
	if (!a && call->callee) {
		const struct function_facts *fn = function_index_find(c->fi, call->callee, from->unit);
		struct summary *s = fn ? summarise(c, fn) : NULL;

		for (size_t i = 0; s && i < s->wrapper_caps.len; i++)
			strvec_push(caps, s->wrapper_caps.items[i]);
	}
}

/* "a, b and 3 more" */
static void target_names(const struct function_facts *const *t, size_t n, struct strbuf *names)
{
	for (size_t i = 0; i < n && i < MAX_MEMBER_TARGETS; i++) {
		if (i)
			sb_add(names, ", ");
		sb_add(names, t[i]->name);
	}
	if (n > MAX_MEMBER_TARGETS) {
		char *more = xasprintf(" and %zu more", n - MAX_MEMBER_TARGETS);

		sb_add(names, more);
		free(more);
	}
}

/* The parsed targets of sname.field, up to max in t (how many: *n), its
 * installers and unparsed targets wanted when seek (seek_member): is the
 * member closed (these are all)? A member of an anonymous struct (sname
 * "": `static struct { drm_ioctl_compat_t *fn; ... } drm_compat_ioctls[]`)
 * has none that can be told: no other file can name the struct to set
 * it, and the name "" would gather every anonymous struct's member of
 * that name in the tree. */
int member_targets(struct classifier *c, const char *sname, const char *field,
		   size_t max, int seek, const struct function_facts **t, size_t *n)
{
	int all_named = 0;
	strvec missing = {0};

	*n = 0;
	if (!*sname)
		return 0;
	*n = function_index_member_targets(c->fi, sname, field, t, max, &all_named,
					   seek ? &missing : NULL);
	if (seek)
		want_member_targets(c, sname, field, max, &missing);
	strvec_clear(&missing);
	return all_named && *n <= max && function_index_member_closed(c->fi, sname, field);
}

/* The evidence that a call through `what` is decided by its n targets. */
char *resolved_what(const char *what, const struct function_facts *const *t, size_t n)
{
	struct strbuf names = {0};
	char *r;

	if (!n)
		return xasprintf("%s: the tree installs no target", what);
	target_names(t, n, &names);
	r = xasprintf("%s: the tree installs %zu target%s (%s), all analysed", what, n,
		      n == 1 ? "" : "s", names.buf);
	free(sb_detach(&names));
	return r;
}

/* A call that hands the command on from a function analysed for it
 * (vt_ioctl's "ret = vt_k_ioctl(tty, cmd, arg, perm); if (ret !=
 * -ENOIOCTLCMD) return ret;" before the dispatch that holds the command):
 * the callee is analysed for the command too, its tests on the command
 * following it, instead of through its summary for every command. */
/* The argument of call s (in fn) that hands on the command being
 * classified, or -1. */
int command_argument(const struct classifier *c, const struct function_facts *fn,
		     const struct stmt *s)
{
	int param = command_param(c, fn);

	for (size_t i = 0; param >= 0 && i < s->args.len; i++)
		if (passes_command(&s->args.items[i].view, param))
			return (int)i;
	return -1;
}

/* The callee handed a re-assigned command, analysed for its new value
 * too (the union: the store may sit on a branch the path did not take).
 * A value that constants do not make leaves the call unanalysed. */
static void analyse_rewritten(struct classifier *c, const struct function_facts *callee,
			      effect_list *out)
{
	const struct stmt *r = c->rewrite;
	const struct command *was = c->cmd;
	struct command now;

	if (!c->rewrite_known) {
		effect_add(out, EF_UNKNOWN, xasprintf("the command re-assigned (%s) before %s: new value not known",
						      r->target ? r->target : r->callee ? r->callee : "a call",
						      callee->name),
			   c->rewrite_fn->file, r->line, NULL);
		return;
	}
	now = rewritten_command(c);
	c->rewrite = NULL;
	c->cmd = &now;
	c->renamed++;
	analyse_block(c, callee, callee->body, 1, out);
	c->renamed--;
	c->cmd = was;
	c->rewrite = r;
}

/* The command as its re-assignment (c->rewrite, its value known) left it. */
struct command rewritten_command(const struct classifier *c)
{
	struct command now = *c->cmd;

	now.value = c->rewrite_value;
	now.mask = c->rewrite_mask;
	return now;
}

/* A store to the command parameter on the command's path: `cmd = K`,
 * or `cmd &= K` / `cmd |= K` / `cmd += K` / `cmd -= K` on a value known
 * so far (perf_compat_ioctl's size fix-up). */
void note_rewrite(struct classifier *c, const struct function_facts *fn,
		  const struct stmt *s)
{
	int again = c->rewrite && c->rewrite_fn == fn;
	int known = again ? c->rewrite_known : 1;
	uint64_t v = again ? c->rewrite_value : c->cmd->value;
	uint64_t m = again ? c->rewrite_mask : c->cmd->mask;
	uint64_t k = (uint64_t)(s->store_is_const ? s->store_value : s->compound_value);

	if (s->store_is_const) {
		known = 1;
		v = k;
		m = ~(uint64_t)0;
	} else if (s->compound_op == '&') {
		v &= k;
		m |= ~k;	/* the bits cleared are known */
	} else if (s->compound_op == '|') {
		v |= k;
		m |= k;		/* the bits set are known */
	} else if ((s->compound_op == '+' || s->compound_op == '-') && (m & 0xffffffffu) == 0xffffffffu) {
		v = s->compound_op == '+' ? v + k : v - k;
	} else {
		known = 0;
	}
	c->rewrite_fn = fn;
	c->rewrite = s;
	c->rewrite_known = known;
	c->rewrite_value = v & 0xffffffffu;
	c->rewrite_mask = m & 0xffffffffu;
}

/* Does call s take the address of the command's parameter (`&cmd`): may
 * it write a new value over the command? (cxgb_siocdevprivate's
 * copy_from_user(&cmd, useraddr, sizeof(cmd)), after which it switches
 * on a sub-command the user chose.) */
static int hands_command_address(const struct classifier *c, const struct function_facts *fn,
				 const struct stmt *s)
{
	int param = command_param(c, fn);
	const char *name = param >= 0 && (size_t)param < fn->params.len ?
		fn->params.items[param] : NULL;

	for (size_t i = 0; name && i < s->args.len; i++) {
		const struct call_arg *a = &s->args.items[i];

		if (a->points_to_frame && a->spelling && !strcmp(a->spelling, name))
			return 1;
	}
	return 0;
}

/* Call s writes through the address of the command's parameter: from
 * here on the command's value is not known (note_rewrite for a store). */
static void note_rewrite_unknown(struct classifier *c, const struct function_facts *fn,
				 const struct stmt *s)
{
	c->rewrite_fn = fn;
	c->rewrite = s;
	c->rewrite_known = 0;
}

/* Is call s (in fn) too deep to follow? A call handing on the command is
 * a link of its dispatch, bounded by MAX_EXTRA_LINKS instead (an ATM
 * socket's query reaches its PHY driver's ioctl six calls down). */
static int beyond_depth(const struct classifier *c, const struct function_facts *fn,
			const struct stmt *s)
{
	return c->depth >= CLASSIFY_MAX_DEPTH &&
	       (c->nextra >= MAX_EXTRA_LINKS || command_argument(c, fn, s) < 0);
}

/* Is callee, handed the command unchanged as its parameter passed,
 * being analysed for it already? */
static int recursion_for_command(const struct classifier *c, const struct function_facts *callee,
				 int passed)
{
	if (c->rewrite || c->renamed)
		return 0;
	for (int d = 0; d < c->site->chain_len; d++)
		if (c->site->chain[d].fn == callee && c->site->chain[d].cmd_param == passed)
			return 1;
	for (int d = 0; d < c->nextra; d++)
		if (c->extra[d].fn == callee && c->extra[d].cmd_param == passed)
			return 1;
	return 0;
}

static int analyse_for_command(struct classifier *c, const struct function_facts *fn,
			       const struct stmt *s, const struct function_facts *callee, int top,
			       effect_list *out)
{
	int passed = command_argument(c, fn, s);
	effect_list sub = {0};
	const struct function_facts *caller_flags_fn = c->flags_fn;
	unsigned char *caller_flag_maybe = c->flag_maybe;

	if (passed < 0)
		return 0;
	/* a recursion handing on the command unchanged (smc_ioctl calling
	 * its inner socket's ops->ioctl, which may be smc_ioctl): the
	 * command's path through the callee is being analysed already, and
	 * what it does there is counted once, not summarised for every
	 * command */
	if (recursion_for_command(c, callee, passed))
		return 1;
	if (c->nextra >= MAX_EXTRA_LINKS || in_command_context(c, callee))
		return 0;
	c->extra[c->nextra].fn = callee;
	c->extra[c->nextra].cmd_param = passed;
	c->nextra++;
	c->depth++;
	flags_start(c, callee);
	analyse_block(c, callee, callee->body, 1, &sub);
	if (c->rewrite && c->rewrite_fn == fn) {
		flags_leave(c);
		flags_start(c, callee);
		analyse_rewritten(c, callee, &sub);
	}
	flags_leave(c);
	c->flags_fn = caller_flags_fn;
	c->flag_maybe = caller_flag_maybe;
	c->depth--;
	c->nextra--;
	lift_callee(c, fn, s, callee, &sub, top, out);
	effects_free(&sub);
	return 1;
}

/* A call through an ops member whose interface contract the knowledge
 * file states (ops_contracts.json: rtc_class_ops.read_time queries,
 * rtc_class_ops.set_time modifies). The contract holds for every driver
 * that fills the member, so the targets the parsed files happen to show
 * are not read: the result does not depend on which files were parsed. */
static void apply_contract(const struct function_facts *fn, const struct stmt *s,
			   const struct api_entry *k, effect_list *out)
{
	const struct api_effect_info *e = &api_effect_info[k->effect];

	/* the loader accepts only the effects a contract can state */
	if (e->kind != EF_NONE)
		effect_add(out, e->kind,
			   xasprintf("indirect call %s (%s: %s by its interface contract)",
				     s->callee_text, k->name, e->name),
			   fn->file, s->line, NULL);
}

/* A call to a transport that sends the device a request
 * (request_codes.json): decided by the request code the calling function
 * puts in the block, without following the transport's queueing code.
 * Returns 0 when the code is not known there: the call is then followed as
 * any call is. */
static int analyse_request(struct classifier *c, const struct function_facts *fn,
			   const struct stmt *s, effect_list *out)
{
	struct request_verdict v = request_call(&c->kn->requests, fn, s);

	if (!v.known)
		return 0;
	if (v.query)
		effect_add(out, EF_QUERY, xasprintf("%s sends %s, a query by its request code",
						    v.transport->callee, v.query), fn->file, s->line,
			   NULL);
	else if (v.macro)
		effect_add(out, EF_HARDWARE,
			   xasprintf("%s sends %s (0x%02llx), not a known query", v.transport->callee,
				     v.macro, (unsigned long long)v.code), fn->file, s->line, NULL);
	else
		effect_add(out, EF_HARDWARE,
			   xasprintf("%s sends request code 0x%02llx, not a known query",
				     v.transport->callee, (unsigned long long)v.code), fn->file,
			   s->line, NULL);
	return 1;
}

/* A call whose one target t the facts name (a const object's member, the
 * element an index picks): followed as a direct call is. */
static void analyse_target(struct classifier *c, const struct function_facts *fn,
			   const struct stmt *s, const struct function_facts *t, int top,
			   effect_list *out)
{
	struct summary *sum;

	if (beyond_depth(c, fn, s)) {
		effect_add(out, EF_UNKNOWN, xasprintf("%s: beyond the call depth analysed", t->name),
			   fn->file, s->line, NULL);
		c->cuts++;
		return;
	}
	if (analyse_for_command(c, fn, s, t, top, out))
		return;
	sum = const_param_summary(c, fn, s, t);
	lift_callee(c, fn, s, t, &(sum ? sum : summarise(c, t))->effects, top, out);
}

/* A call through a parameter of a function of the command's chain, walked
 * for the command (video_usercopy's `func(file, cmd, parg)` after
 * check_array_args, where the dispatch found VIDIOC_QBUF on a subdevice
 * node, whose own code has no case for it): the chain's call to that
 * function names the function it hands there (subdev_ioctl's
 * `video_usercopy(file, cmd, arg, subdev_do_ioctl_lock)`). NULL when fn
 * is not such a function or the argument names no function parsed. A
 * call that is the link of another of the command's sites does not get
 * here (classify_walk.c:links_another_site). */
static const struct function_facts *chain_callback(const struct classifier *c,
						   const struct function_facts *fn,
						   const struct stmt *s)
{
	const struct stmt *call;
	const struct call_arg *a;

	if (!c->cmd || c->depth != c->nextra)
		return NULL;
	for (int d = 1; d < c->site->chain_len; d++) {
		if (c->site->chain[d].fn != fn || !(call = c->site->chain[d].call) ||
		    (size_t)s->callee_param >= call->args.len)
			continue;
		a = &call->args.items[s->callee_param];
		return a->function ? function_index_find(c->fi, a->function,
							 c->site->chain[d - 1].fn->unit) : NULL;
	}
	return NULL;
}

/* A call through an element of a static array indexed by the command
 * (drm_compat_ioctl's `(*fn)(filp, cmd, arg)` after `fn =
 * drm_compat_ioctls[nr].fn`): the command's index picks the element, and
 * only the function there is called. An index the initialiser leaves
 * empty holds a null pointer, which the code tests before the call (a
 * call through it would oops, not act): no call on this path. Returns 0
 * when the element is not known for this command (a summary for every
 * command, an index the command's value does not fix, the array's
 * initialiser not read, an element that names no function): the call is
 * then unanalysed. */
static int analyse_indexed_call(struct classifier *c, const struct function_facts *fn,
				const struct stmt *s, int top, effect_list *out)
{
	const struct param_view *v = &s->callee_index;
	const struct table_entry *e = NULL;
	const struct function_facts *t;
	const struct table_init *a;
	uint64_t index;

	if (!s->callee_array || v->param < 0 || v->param != command_param(c, fn) ||
	    reassigned_in(c, fn) || ((c->cmd->mask >> v->shift) & v->mask) != v->mask)
		return 0;
	a = function_index_find_fn_array(c->fi, s->callee_array, s->callee_array_field, fn->unit);
	if (!a)
		return 0;
	index = ((c->cmd->value >> v->shift) & v->mask) + (uint64_t)s->callee_index_offset;
	for (size_t i = 0; i < a->entries.len && !e; i++)
		if (a->entries.items[i].value == index)
			e = &a->entries.items[i];
	if (!e)
		return 1;
	if (!e->function || !(t = function_index_find(c->fi, e->function, a->unit)))
		return 0;
	analyse_target(c, fn, s, t, top, out);
	return 1;
}

static int collect_indexed(const struct stmt *s, void *ctx)
{
	VEC(const struct stmt *) *calls = ctx;

	if (s->kind == ST_CALL && s->callee_array)
		vec_push(calls, s);
	return 0;
}

/* The command's other way through a function of its dispatch chain: an
 * indexed call whose element the command picks, wherever it is in the
 * function (drm_compat_ioctl calls the translation the command has and
 * hands every other command to drm_ioctl; the dispatch found the command
 * on the second way). Its effects join the function's. */
void analyse_indexed_routes(struct classifier *c, const struct function_facts *fn,
			    effect_list *out)
{
	VEC(const struct stmt *) calls = {0};

	if (fn->body)
		stmt_any(fn->body, collect_indexed, &calls);
	for (size_t i = 0; i < calls.len; i++)
		analyse_indexed_call(c, fn, calls.items[i], 1, out);
	vec_free(&calls);
}

/* Does l hold a guard on exactly the capabilities caps? */
static int has_guard(const effect_list *l, const strvec *caps)
{
	for (size_t i = 0; i < l->len; i++) {
		const struct effect *e = &l->items[i];
		size_t j = 0;

		if (e->kind != EF_CAP_GUARD || e->caps.len != caps->len)
			continue;
		while (j < caps->len && strvec_contains(&e->caps, caps->items[j]))
			j++;
		if (j == caps->len)
			return 1;
	}
	return 0;
}

/* The n targets of a member call, each analysed as its own callee. The
 * command goes through one of them: a capability check one of them makes
 * on every path guards the caller's path when every target makes it and
 * the call itself is on every path (guarding). sit's SIOCADDTUNNEL:
 * ip_tunnel_siocdevprivate() calls dev->netdev_ops->ndo_tunnel_ctl, whose
 * two targets, ip_tunnel_ctl() and ipip6_tunnel_ctl(), both return -EPERM
 * without CAP_NET_ADMIN before they create a tunnel. A check that some
 * target lacks is a condition, as every target's check was before. */
static void analyse_targets(struct classifier *c, const struct function_facts *fn,
			    const struct stmt *s, const struct function_facts *const *t, size_t n,
			    int guarding, effect_list *out)
{
	effect_list *sub = xcalloc(n ? n : 1, sizeof(*sub));

	for (size_t i = 0; i < n; i++) {
		struct summary *sum;

		if (analyse_for_command(c, fn, s, t[i], guarding, &sub[i]))
			continue;
		sum = const_param_summary(c, fn, s, t[i]);
		lift_callee(c, fn, s, t[i], &(sum ? sum : summarise(c, t[i]))->effects, guarding,
			    &sub[i]);
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < sub[i].len; k++) {
			struct effect *e = &sub[i].items[k];
			enum effect_kind kind = e->kind;

			for (size_t j = 0; kind == EF_CAP_GUARD && j < n; j++)
				if (j != i && !has_guard(&sub[j], &e->caps))
					kind = EF_CAP_COND;
			effect_add_mapped(out, kind, xstrdup(e->what), e->file, e->line, &e->caps,
					  e->param, e->cbmap);
		}
	}
	for (size_t i = 0; i < n; i++)
		effects_free(&sub[i]);
	free(sub);
}

/* A call through a struct member (rtc->ops->read_time). The initialisers
 * of the parsed files show some of its targets; all of them only when the
 * member is closed (the scan parsed every file of the tree that may
 * install a function in it, function_index_member_closed) and every value
 * installed names a parsed function. Otherwise the call stays unanalysed
 * (it never lets a command be read); the targets that are seen add their
 * effects, so a command that one of them modifies with is modify. The
 * evidence names the targets considered. */
void analyse_member_call(struct classifier *c, const struct function_facts *fn,
			 const struct stmt *s, int top, effect_list *out)
{
	const struct function_facts *t[MAX_COMMAND_TARGETS];
	const struct api_entry *k = s->callee_struct ?
		knowledge_contract(c->kn, s->callee_struct, s->callee_field) : NULL;
	size_t n = 0, max = MAX_MEMBER_TARGETS;
	struct strbuf names = {0};
	int closed, seek;
	char *what;

	note_kind_entry(c, fn, s);
	if (s->callee_param >= 0 && (t[0] = chain_callback(c, fn, s))) {
		analyse_target(c, fn, s, t[0], top, out);
		return;
	}
	if (s->callee_param >= 0) {
		/* a callback: the caller's call says which function */
		signed char map[MAX_CB_ARGS];

		for (int j = 0; j < MAX_CB_ARGS; j++)
			map[j] = arg_target(s, j);
		effect_add_mapped(out, EF_UNKNOWN, xasprintf("indirect call %s", s->callee_text),
				  fn->file, s->line, NULL, s->callee_param, map);
		return;
	}
	/* a const object's member: what its initialiser installs
	 * (packet_ioctl's inet_dgram_ops.ioctl is inet_ioctl) */
	if (s->callee_object && s->callee_struct &&
	    (t[0] = function_index_object_member(c->fi, s->callee_struct, s->callee_field,
						  s->callee_object))) {
		analyse_target(c, fn, s, t[0], top, out);
		return;
	}
	if (k) {
		apply_contract(fn, s, k, out);
		return;
	}
	if (analyse_request(c, fn, s, out))
		return;
	if (command_argument(c, fn, s) >= 0)
		max = MAX_COMMAND_TARGETS;
	seek = seek_member(c, s, max == MAX_COMMAND_TARGETS);
	closed = s->callee_struct &&
		 member_targets(c, s->callee_struct, s->callee_field, max, seek, t, &n);
	what = xasprintf("indirect call %s", s->callee_text);
	if (!closed && (!n || n > max)) {
		effect_add(out, EF_UNKNOWN, what, fn->file, s->line, NULL);
		return;
	}
	if (closed) {
		effect_add(out, EF_RESOLVED, resolved_what(what, t, n), fn->file, s->line, NULL);
	} else {
		target_names(t, n, &names);
		effect_add(out, EF_UNKNOWN, xasprintf("%s (targets seen: %s; others not known)", what,
						     names.buf), fn->file, s->line, NULL);
		free(sb_detach(&names));
	}
	free(what);
	if (beyond_depth(c, fn, s)) {
		if (closed)	/* the targets are not analysed after all */
			effect_add(out, EF_UNKNOWN, xasprintf("indirect call %s: beyond the call depth analysed",
							     s->callee_text), fn->file, s->line, NULL);
		c->cuts++;
		return;
	}
	analyse_targets(c, fn, s, t, n, closed && top, out);
}

/* An API that writes through its argument a->arg (memset, the
 * destination of copy_from_user): a store where that argument points,
 * nothing when it points into this frame or a temporary. */
/*
 * An API that writes through its argument a->arg (memset, the
 * destination of copy_from_user: k EF_STORE) or links or unlinks the list
 * entry a->arg (list_add(&w.list, &dev->waiters): k EF_LINK). Nothing when
 * the argument points into this frame (for a store, a temporary too): a
 * stack entry cannot stay linked past the frame that holds it, so its
 * stay on a shared list is temporary, like a wait-queue entry's, while a
 * fresh allocation linked in stays.
 */
static void through_arg(const struct function_facts *fn, const struct stmt *s,
			const struct api_entry *a, enum effect_kind k, effect_list *out)
{
	const struct call_arg *arg = a->arg >= 0 && (size_t)a->arg < s->args.len ?
		&s->args.items[a->arg] : NULL;

	if (lands_in_frame(arg, k))
		return;
	if (s->is_macro || !arg) {
		effect_add(out, EF_API_MODIFY, xasprintf("%s (destination unknown)", s->callee),
			   fn->file, s->line, NULL);
		return;
	}
	effect_add_param(out, k, xasprintf(k == EF_LINK ? "%s of the entry %s" : "%s into %s",
					   s->callee, arg->spelling),
			 fn->file, s->line, NULL, pointer_param(arg));
}

/* The key a static call is made through: `static_call_mod(might_resched)()`
 * (include/linux/static_call.h: static_call, static_call_mod,
 * static_call_cond) calls whatever function the key might_resched holds
 * now, which the knowledge file may describe under the key's name.
 * Returns the name (to free), or NULL when s is not a static call. */
static char *static_call_key(const struct stmt *s)
{
	static const char *const forms[] = { "static_call(", "static_call_mod(", "static_call_cond(" };
	const char *t = s->callee_text;

	for (size_t i = 0; t && i < sizeof(forms) / sizeof(forms[0]); i++) {
		size_t n = strlen(forms[i]), len;

		if (strncmp(t, forms[i], n))
			continue;
		len = strcspn(t + n, ")");
		if (!len || strcmp(t + n + len, ")"))
			return NULL;
		return xstrndup(t + n, len);
	}
	return NULL;
}

void analyse_call(struct classifier *c, const struct function_facts *fn,
		  const struct stmt *s, int top, effect_list *out)
{
	const struct api_entry *a;
	const struct function_facts *callee;
	strvec caps = {0};
	char *key;

	if (hands_command_address(c, fn, s))
		note_rewrite_unknown(c, fn, s);
	if (s->is_asm) {
		effect_add(out, EF_UNKNOWN, xasprintf("inline assembly (%s): not analysed", s->callee_text),
			   fn->file, s->line, NULL);
		return;
	}
	if (!s->callee) {
		if (analyse_indexed_call(c, fn, s, top, out))
			return;
		key = static_call_key(s);
		if (key && api_of(c, key)) {
			struct stmt as_named = *s;	/* the same call, named by its key */

			as_named.callee = key;
			analyse_call(c, fn, &as_named, top, out);
		} else {
			analyse_member_call(c, fn, s, top, out);
		}
		free(key);
		return;
	}
	if (analyse_request(c, fn, s, out))
		return;
	a = api_of(c, s->callee);
	if (a) {
		const struct api_effect_info *e = &api_effect_info[a->effect];

		if (e->kind != EF_NONE)
			effect_add(out, e->kind, xstrdup(s->callee), fn->file, s->line, NULL);
		/* copy_from_user(dst, ...) also stores into dst (an entry
		 * that needs its argument has one: knowledge.c) */
		if (e->arg_kind != EF_NONE && a->arg >= 0)
			through_arg(fn, s, a, e->arg_kind, out);
		switch (a->effect) {
		case API_HW_READ:
			/* acquirewdt pings its watchdog with inb_p(wdt_start); */
			if (s->value_unused)
				effect_add(out, EF_HARDWARE,
					   xasprintf("%s with its result unused: read for its effect",
						     s->callee), fn->file, s->line, NULL);
			break;
		case API_REF_PUT:
			effect_add(out, EF_REF_PUT,
				   xasprintf("%s: drops a reference, and the path takes none", s->callee),
				   fn->file, s->line, NULL);
			break;
		case API_CAPABILITY:
			call_capabilities(c, fn, s, &caps);
			effect_add(out, EF_CAP_COND, xasprintf("%s() result not tested", s->callee),
				   fn->file, s->line, &caps);
			strvec_clear(&caps);
			break;
		default:	/* what the table says is all it does */
			break;
		}
		return;
	}
	callee = function_index_find(c->fi, s->callee, fn->unit);
	if (!callee) {
		want_callee(c, fn, s);
		effect_add(out, EF_UNKNOWN, xasprintf("%s: not in the scanned files or the knowledge file",
						     s->callee), fn->file, s->line, NULL);
		return;
	}
	if (beyond_depth(c, fn, s) && !ends_with(callee->file, ".h")) {
		effect_add(out, EF_UNKNOWN, xasprintf("%s: beyond the call depth analysed", s->callee),
			   fn->file, s->line, NULL);
		c->cuts++;
		return;
	}
	if (!analyse_for_command(c, fn, s, callee, top, out)) {
		struct summary *sum = const_param_summary(c, fn, s, callee);

		lift_callee(c, fn, s, callee, &(sum ? sum : summarise(c, callee))->effects, top,
			    out);
	}
}
