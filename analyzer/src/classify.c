/* commands -> class, from effect summaries of the code on each command's
 * path: the prologues of the handler and of every function the dispatch
 * went through, the command's own code, and everything they call.
 *
 * A function's summary is computed once (memoised) and lists its effects:
 * capability checks (and whether they guard every successful path), stores
 * that outlive the call, hardware writes, object lifetimes, open-mode tests,
 * copies to and from user space, and calls that cannot be analysed. The
 * rules that turn effects into a class are in decide() and in
 * doc/classes.md. */
#include "classify.h"

#include "dispatch.h"
#include "request_call.h"

#include <stdlib.h>
#include <string.h>

/* Calls are followed this deep below a command's own code. Command paths
 * in 6.1 reach their state changes within four calls (tty_ioctl ->
 * tty_mode_ioctl -> set_termios -> tty_set_termios); what lies deeper is
 * reported as not analysed (confidence low), never as read. */
#define CLASSIFY_MAX_DEPTH 6
/* Files are parsed for functions this close to a command's code only: a
 * kernel call graph's closure is most of the kernel. Beyond, the knowledge
 * file decides or the call is reported as not analysed. */
#define CLASSIFY_FOLLOW_DEPTH 2
#define MAX_EVIDENCE 6
/* How many calls deep a callee that receives the command is analysed for
 * the command (beyond, its summary for every command is used). Eight: an
 * interface query handed from sock_ioctl through a protocol's ioctl, a
 * layered socket's inner one (SMC) and an ATM device to its PHY. */
#define MAX_EXTRA_LINKS 8
/* Labels remembered as jumped to, per command or summary. */
#define MAX_GOTOS 256

enum effect_kind {
	EF_CAP_GUARD,		/* capability check guarding what follows */
	EF_CAP_COND,		/* capability check on some paths only */
	EF_STORE,
	EF_API_MODIFY,
	EF_LINK,		/* a list entry linked or unlinked */
	EF_HARDWARE,
	EF_LIFETIME,
	EF_MODE_WRITE,		/* the driver tests FMODE_WRITE */
	EF_USER_OUT,
	EF_USER_IN,
	EF_UNKNOWN,		/* a call that could not be analysed */
	EF_UNFOLLOWED,		/* control flow the walk cannot follow */
	EF_RESOLVED,		/* a call through a member, all its targets analysed */
	EF_QUERY,		/* a request the device only answers (request_call.h) */
};

static const char *const effect_kind_names[] = {
	[EF_CAP_GUARD] = "capability_check", [EF_CAP_COND] = "conditional_capability",
	[EF_STORE] = "store", [EF_API_MODIFY] = "modifying_call", [EF_LINK] = "modifying_call",
	[EF_HARDWARE] = "hardware_write", [EF_LIFETIME] = "object_lifetime",
	[EF_MODE_WRITE] = "fmode_write_check", [EF_USER_OUT] = "user_copy_out",
	[EF_USER_IN] = "user_copy_in", [EF_UNKNOWN] = "unanalysed_call",
	[EF_UNFOLLOWED] = "unfollowed_flow",
	[EF_RESOLVED] = "indirect_call_resolved", [EF_QUERY] = "query_request",
};

/* The effect a call to a kernel API has, by its knowledge-file effect. */
static const enum effect_kind api_effect_kind[] = {
	[API_USER_OUT] = EF_USER_OUT, [API_USER_IN] = EF_USER_IN,
	[API_MODIFY] = EF_API_MODIFY, [API_HARDWARE] = EF_HARDWARE,
	[API_LIFETIME] = EF_LIFETIME,
};

/* A callback's arguments: where the pointer argument j of a call through
 * a parameter points, as seen in the function making that call. */
#define MAX_CB_ARGS 6
enum { CB_UNKNOWN = -1, CB_LOCAL = -2 };

struct effect {
	enum effect_kind kind;
	char *what;
	const char *file;
	unsigned line;
	strvec caps;
	/* EF_STORE or EF_LINK through the function's parameter N; EF_UNKNOWN: a call
	 * through parameter N (a callback), cbmap[j] telling into what its
	 * argument j points: parameter M, CB_LOCAL or CB_UNKNOWN. Else -1. */
	int param;
	signed char cbmap[MAX_CB_ARGS];
};

typedef VEC(struct effect) effect_list;

struct summary {
	const struct function_facts *fn;
	/* a summary for a call passing constant cvalue as parameter cparam
	 * (const_param_summary); cparam -1 for the one that holds for every call */
	int cparam;
	int64_t cvalue;
	effect_list effects;
	int done, busy;
	/* made at this depth, and cut short by CLASSIFY_MAX_DEPTH somewhere
	 * below: not what a call from higher up would see */
	int depth, cut;
	strvec wrapper_caps;	/* the function returns the result of a capability check */
	struct summary *next;
};

#define SUMMARY_BUCKETS 8192

/* What the core checks before it hands a command to a handler kind's
 * member (dev_ioctl's `case SIOCGMIIREG: if (!ns_capable(net->user_ns,
 * CAP_NET_ADMIN)) return -EPERM; ... dev_ifsioc(net, ifr, data, cmd);`,
 * which calls ops->ndo_eth_ioctl(dev, ifr, cmd)): met while the handlers
 * where the system call enters are walked, each time a command's path
 * calls such a member and hands it the command. A driver's handler of
 * that kind inherits the checks made on every such path (doc/classes.md:
 * the check may sit before the dispatch). */
struct kind_entry {
	const struct handler_kind *kind;
	uint64_t value, mask;	/* the command handed on (a family: some bits) */
	strvec via;		/* the handlers whose commands' paths they are */
	effect_list guards;	/* the checks made on every path so far: none
				 * once one path has none */
};
typedef VEC(struct kind_entry) kind_entries;

/* Strings to pointers by content: the classifier's own memory of what it
 * looked up. The names are not copied and outlive the map. */
struct name_map {
	struct name_slot {
		const char *name;
		unsigned hash;
		const void *value;
	} *slots;
	size_t cap, len;	/* cap: a power of two, or 0 */
};

static struct name_slot *name_map_slot(const struct name_map *m, const char *name, unsigned h)
{
	for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1))
		if (!m->slots[i].name || (m->slots[i].hash == h && !strcmp(m->slots[i].name, name)))
			return &m->slots[i];
}

/* Is name in m? Its value in *value. */
static int name_map_find(const struct name_map *m, const char *name, const void **value)
{
	struct name_slot *s;

	if (!m->cap)
		return 0;
	s = name_map_slot(m, name, str_hash(name, strlen(name)));
	if (s->name && value)
		*value = s->value;
	return s->name != NULL;
}

static void name_map_put(struct name_map *m, const char *name, const void *value)
{
	unsigned h = str_hash(name, strlen(name));
	struct name_slot *s;

	if (2 * (m->len + 1) > m->cap) {
		struct name_map bigger = { xcalloc(m->cap ? 2 * m->cap : 256, sizeof(struct name_slot)),
					   m->cap ? 2 * m->cap : 256, m->len };

		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i].name)
				*name_map_slot(&bigger, m->slots[i].name, m->slots[i].hash) = m->slots[i];
		free(m->slots);
		*m = bigger;
	}
	s = name_map_slot(m, name, h);
	if (!s->name)
		m->len++;
	s->name = name;
	s->hash = h;
	s->value = value;
}

static void name_map_free(struct name_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

struct classifier {
	const struct function_index *fi;
	const struct knowledge *kn;
	struct summary *bucket[SUMMARY_BUCKETS];
	int depth;
	unsigned cuts;		/* calls left out for the depth, so far */
	int via_header;		/* analysing under a function defined in a header */
	/* summarising a function (bypass_tracked), and a success return (a
	 * constant >= 0) already met on its walk (success_return): a
	 * capability check past it guards nothing for the function's
	 * callers, who go on after either return (drm_master_check_perm's
	 * `if (was_master && same pid) return 0;` before capable()) */
	int bypass_tracked, success_return;
	/* the labels gotos on the path jump to (label NULL: a computed goto,
	 * any label of fn); past MAX_GOTOS every label is reached */
	struct { const struct function_facts *fn; const char *label; } gotos[MAX_GOTOS];
	int ngotos;
	strvec *wanted;		/* functions to parse, when collecting */
	struct name_map wanted_set;	/* the same names, to look up */
	struct name_map apis;	/* callee -> its knowledge_api entry or NULL */
	int want_callees;	/* the callees on command paths too, or only
				 * the targets of closed members */
	wanted_members *wanted_members;	/* members whose installers to parse */
	/* the command whose path site_effects is walking: in the functions
	 * of its dispatch chain (analysed directly, depth 0), tests on the
	 * command decide which branches are on its path */
	const struct command *cmd;
	const struct command_site *site;
	/* callees that the command was handed to from those functions,
	 * analysed for it too (analyse_for_command) */
	struct chain_link extra[MAX_EXTRA_LINKS];
	int nextra;
	/* the local flags of the site's own function (local_flags.h):
	 * flag_maybe[i] when fn->flags[i] may be nonzero on the path so far */
	const struct function_facts *flags_fn;
	unsigned char *flag_maybe;
	/* the function whose summary is being made for a constant argument:
	 * its tests on that parameter decide (const_param_summary) */
	const struct function_facts *const_fn;
	int const_param;
	int64_t const_value;
	/* the kind of the handler whose commands are walked; the return by
	 * which the handler's own code declines the command being
	 * classified, and which later links of its dispatch chain return
	 * that value on its path (bit d for chain[d], d >= 1) */
	const struct handler_kind *hkind;
	const char *hname;
	const struct stmt *declined;
	unsigned declined_links;
	/* the command re-assigned on its path in rewrite_fn (a compat
	 * handler's `cmd = EXT4_IOC_SETVERSION; break;` before it hands the
	 * command on): calls there that hand it on are analysed for the new
	 * value as well */
	const struct function_facts *rewrite_fn;
	const struct stmt *rewrite;
	int rewrite_known;	/* and its value (the bits of mask known), */
	uint64_t rewrite_value, rewrite_mask;	/* when constants made it */
	int renamed;		/* analysing a callee for such a new value */
	/* the call to the next link of the site's chain, left out while
	 * the statement holding it is walked (the callee is that link);
	 * whether the command's path reached it, and whether some link's
	 * call was off the path (the site is not the command's) */
	const struct stmt *link_call;
	int link_reached, site_off_path;
	/* the capability checks that guard the rest of the command's path,
	 * made at the top of the functions of its dispatch chain; and, when
	 * recording them, the paths into handler kinds seen so far */
	effect_list guards;
	kind_entries *entries;
	int record_entries;
};

/* knowledge_api, remembered: the same callees are looked up at every call */
static const struct api_entry *api_of(struct classifier *c, const char *name)
{
	const void *a;

	if (!name_map_find(&c->apis, name, &a)) {
		a = knowledge_api(c->kn, name);
		name_map_put(&c->apis, name, a);
	}
	return a;
}

/* Adds name to the functions wanted, once. */
static void want_function(struct classifier *c, const char *name)
{
	if (name_map_find(&c->wanted_set, name, NULL))
		return;
	strvec_push(c->wanted, name);
	name_map_put(&c->wanted_set, c->wanted->items[c->wanted->len - 1], NULL);
}

/* Effects are a set: the same fact reached along many call paths is kept
 * once, and a few of each kind are enough to decide and to show (capability
 * checks keep every distinct capability). Without this a summary would grow
 * with the number of paths through the call graph. Stores through a
 * parameter are counted apart from other stores, per parameter: a caller
 * drops those into its own frame, and they must not crowd out the stores
 * that stay (input_ff_upload's many stores into its argument hid its store
 * to ff->effects). */
#define MAX_PER_KIND 8

static void effect_add_mapped(effect_list *l, enum effect_kind k, char *what, const char *file,
			      unsigned line, const strvec *caps, int param, const signed char *cbmap)
{
	struct effect e = { .kind = k, .what = what, .file = file, .line = line, .param = param };
	int same_kind = 0;

	if (cbmap)
		memcpy(e.cbmap, cbmap, sizeof(e.cbmap));
	for (size_t i = 0; i < l->len; i++) {
		struct effect *o = &l->items[i];

		if (o->kind != k || o->param != param || memcmp(o->cbmap, e.cbmap, sizeof(e.cbmap)))
			continue;
		same_kind++;
		if (o->line == line && !strcmp(o->file, file)) {
			for (size_t j = 0; caps && j < caps->len; j++)
				if (!strvec_contains(&o->caps, caps->items[j]))
					strvec_push(&o->caps, caps->items[j]);
			free(what);
			return;
		}
	}
	if (same_kind >= MAX_PER_KIND && !(caps && caps->len)) {
		free(what);
		return;
	}

	for (size_t i = 0; caps && i < caps->len; i++)
		strvec_push(&e.caps, caps->items[i]);
	vec_push(l, e);
}

static void effect_add_param(effect_list *l, enum effect_kind k, char *what, const char *file,
			     unsigned line, const strvec *caps, int param)
{
	effect_add_mapped(l, k, what, file, line, caps, param, NULL);
}

static void effect_add(effect_list *l, enum effect_kind k, char *what, const char *file,
		       unsigned line, const strvec *caps)
{
	effect_add_param(l, k, what, file, line, caps, -1);
}

static void effects_free(effect_list *l)
{
	for (size_t i = 0; i < l->len; i++) {
		free(l->items[i].what);
		strvec_clear(&l->items[i].caps);
	}
	vec_free(l);
}

static struct summary *summarise(struct classifier *c, const struct function_facts *fn);
static struct summary *const_param_summary(struct classifier *c, const struct function_facts *fn,
					   const struct stmt *call,
					   const struct function_facts *callee);

/* The capabilities a call checks, if it is a capability check or a
 * driver-local wrapper around one; empty otherwise. */
static void call_capabilities(struct classifier *c, const struct function_facts *from,
			      const struct stmt *call, strvec *caps)
{
	const struct api_entry *a = call->callee ? api_of(c, call->callee) : NULL;

	if (a && a->effect == API_CAPABILITY) {
		if (a->arg < 0) {
			for (size_t i = 0; i < a->caps.len; i++)
				strvec_push(caps, a->caps.items[i]);
		} else if ((size_t)a->arg < call->args.len) {
			const struct call_arg *arg = &call->args.items[a->arg];

			if (arg->spelling && starts_with(arg->spelling, "CAP_"))
				strvec_push(caps, arg->spelling);
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

/* Whether control never falls out of b: b, or the last statement of b
 * and of its nested blocks, is a return, break or goto. (extract_facts.c's
 * ends_flow looks at the last statement of one block only, to mark switch
 * segments that fall through.) */
static int always_leaves(const struct stmt *b)
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
static int bypassed(const struct classifier *c)
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

/* How control can leave a statement: to the next one (FLOW_ON), out of
 * the enclosing switch or loop (FLOW_OUT: break, continue); with neither,
 * it returns or jumps to a label, and what follows it up to the next label
 * is not on the path. */
enum { FLOW_ON = 1, FLOW_OUT = 2 };

static int analyse_block(struct classifier *c, const struct function_facts *fn,
			 const struct stmt *b, int top, effect_list *out);
static int analyse_stmt(struct classifier *c, const struct function_facts *fn,
			const struct stmt *s, int top, effect_list *out);

/* The parameter into whose object an argument points (memset(tm, ...),
 * &info->id with tm, info parameters): a store through it is a store
 * through that parameter. */
static int pointer_param(const struct call_arg *a)
{
	return a->ptr_param;
}

/* Does argument a point where a store (EF_STORE) or a linked entry
 * (EF_LINK) leaves nothing others see? */
static int lands_in_frame(const struct call_arg *a, enum effect_kind k)
{
	return a && (k == EF_LINK ? a->points_to_frame : a->points_to_local);
}

/* A store (or a list entry linked, EF_LINK) through the callee's
 * parameter `param`, seen from the caller of `call`: 0 when it lands in
 * the caller's own frame (&local passed; for a store, a fresh allocation
 * too; NULL); otherwise 1, with the caller's parameter it goes through,
 * or -1. */
static int store_through_call(const struct stmt *call, enum effect_kind k, int param,
			      int *caller_param)
{
	const struct call_arg *a = (size_t)param < call->args.len ? &call->args.items[param] : NULL;

	*caller_param = a ? pointer_param(a) : -1;
	return !lands_in_frame(a, k);
}

/* Effects that go where a parameter points: the caller places them. */
static int lands_through_param(const struct effect *e)
{
	return (e->kind == EF_STORE || e->kind == EF_LINK) && e->param >= 0;
}

/* A callee's effects as the caller sees them. */
/* Where argument j of call s points, for a callback's cbmap. */
static signed char arg_target(const struct stmt *s, int j)
{
	const struct call_arg *a;

	if (j < 0 || (size_t)j >= s->args.len)
		return CB_UNKNOWN;
	a = &s->args.items[j];
	if (a->points_to_local)
		return CB_LOCAL;
	return a->ptr_param >= 0 && a->ptr_param < 127 ? (signed char)a->ptr_param : CB_UNKNOWN;
}

static void lift_callee(struct classifier *c, const struct function_facts *fn,
			const struct stmt *s, const struct function_facts *callee,
			const effect_list *sub, int top, effect_list *out);

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

static void want_member(wanted_members *w, const char *sname, const char *field, size_t cap);

/* The parsed targets of sname.field, up to max in t (how many: *n), its
 * installers wanted when seek: is the member closed (these are all)? */
static int member_targets(struct classifier *c, const char *sname, const char *field,
			  size_t max, int seek, const struct function_facts **t, size_t *n)
{
	int all_named = 0;
	strvec missing = {0};

	if (seek)
		want_member(c->wanted_members, sname, field, max);
	/* when collecting, the targets installed by name whose files are
	 * not parsed yet are wanted too */
	*n = function_index_member_targets(c->fi, sname, field, t, max, &all_named,
					   seek ? &missing : NULL);
	for (size_t i = 0; i < missing.len; i++)
		want_function(c, missing.items[i]);
	strvec_clear(&missing);
	return all_named && *n <= max && function_index_member_closed(c->fi, sname, field);
}

/* The evidence that a call through `what` is decided by its n targets. */
static char *resolved_what(const char *what, const struct function_facts *const *t, size_t n)
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
	int seek = c->wanted_members && c->want_callees && c->depth <= CLASSIFY_FOLLOW_DEPTH &&
		   !c->via_header;
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

static void lift_callee(struct classifier *c, const struct function_facts *fn,
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

static int command_param(const struct classifier *c, const struct function_facts *fn);
static int in_command_context(const struct classifier *c, const struct function_facts *fn);

/* A call that hands the command on from a function analysed for it
 * (vt_ioctl's "ret = vt_k_ioctl(tty, cmd, arg, perm); if (ret !=
 * -ENOIOCTLCMD) return ret;" before the dispatch that holds the command):
 * the callee is analysed for the command too, its tests on the command
 * following it, instead of through its summary for every command. */
/* The argument of call s (in fn) that hands on the command being
 * classified, or -1. */
static int command_argument(const struct classifier *c, const struct function_facts *fn,
			    const struct stmt *s)
{
	int param = command_param(c, fn);

	for (size_t i = 0; param >= 0 && i < s->args.len; i++)
		if (passes_command(&s->args.items[i].view, param))
			return (int)i;
	return -1;
}

static int analyse_block(struct classifier *c, const struct function_facts *fn,
			 const struct stmt *b, int top, effect_list *out);

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
						      r->target, callee->name),
			   c->rewrite_fn->file, r->line, NULL);
		return;
	}
	now = *was;
	now.value = c->rewrite_value;
	now.mask = c->rewrite_mask;
	c->rewrite = NULL;
	c->cmd = &now;
	c->renamed++;
	analyse_block(c, callee, callee->body, 1, out);
	c->renamed--;
	c->cmd = was;
	c->rewrite = r;
}

/* A store to the command parameter on the command's path: `cmd = K`,
 * or `cmd &= K` / `cmd |= K` / `cmd += K` / `cmd -= K` on a value known
 * so far (perf_compat_ioctl's size fix-up). */
static void note_rewrite(struct classifier *c, const struct function_facts *fn,
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

static void flags_start(struct classifier *c, const struct function_facts *fn);
static void flags_leave(struct classifier *c);

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
	switch (k->effect) {
	case API_NEUTRAL:
		break;
	case API_USER_OUT:
	case API_USER_IN:
	case API_MODIFY:
	case API_HARDWARE:
	case API_LIFETIME:
		effect_add(out, api_effect_kind[k->effect],
			   xasprintf("indirect call %s (%s: %s by its interface contract)",
				     s->callee_text, k->name, api_effect_name(k->effect)),
			   fn->file, s->line, NULL);
		break;
	default:	/* the loader accepts only the effects above for members */
		effect_add(out, EF_UNKNOWN, xasprintf("indirect call %s", s->callee_text),
			   fn->file, s->line, NULL);
		break;
	}
}

/* A call through a struct member (rtc->ops->read_time). The initialisers
 * of the parsed files show some of its targets; all of them only when the
 * member is closed (the scan parsed every file of the tree that may
 * install a function in it, function_index_member_closed) and every value
 * installed names a parsed function. Otherwise the call stays unanalysed
 * (it never lets a command be read); the targets that are seen add their
 * effects, so a command that one of them modifies with is modify. The
 * evidence names the targets considered. */
static void want_member(wanted_members *w, const char *sname, const char *field, size_t cap)
{
	struct wanted_member m;

	for (size_t i = 0; i < w->len; i++) {
		if (!strcmp(w->items[i].sname, sname) && !strcmp(w->items[i].field, field)) {
			if (w->items[i].cap < cap)
				w->items[i].cap = cap;
			return;
		}
	}
	m.sname = xstrdup(sname);
	m.field = xstrdup(field);
	m.cap = cap;
	vec_push(w, m);
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

/* Is fn a function of the dispatch chain of the command being walked,
 * analysed for it at the top (not a callee it was handed to)? A check at
 * its top guards the rest of the command's path. */
static int on_dispatch_chain(const struct classifier *c, const struct function_facts *fn)
{
	if (!c->cmd || c->depth || c->via_header || c->renamed)
		return 0;
	for (int d = 0; d < c->site->chain_len; d++)
		if (c->site->chain[d].fn == fn)
			return 1;
	return 0;
}

static struct kind_entry *kind_entry_of(kind_entries *l, const struct handler_kind *k,
					uint64_t value, uint64_t mask)
{
	for (size_t i = 0; i < l->len; i++)
		if (l->items[i].kind == k && l->items[i].value == value && l->items[i].mask == mask)
			return &l->items[i];
	return NULL;
}

/* Keeps the effects of l that keep() accepts, freeing the others. */
static void effects_filter(effect_list *l, int (*keep)(const struct effect *, const void *),
			   const void *ctx)
{
	size_t out = 0;

	for (size_t i = 0; i < l->len; i++) {
		struct effect *e = &l->items[i];

		if (!keep(e, ctx)) {
			free(e->what);
			strvec_clear(&e->caps);
			continue;
		}
		l->items[out++] = *e;
	}
	l->len = out;
}

/* Is check e made on this path (a list of checks) too? */
static int made_on_path(const struct effect *e, const void *path)
{
	const effect_list *p = path;

	for (size_t j = 0; j < p->len; j++)
		if (p->items[j].line == e->line && !strcmp(p->items[j].file, e->file))
			return 1;
	return 0;
}

/* Keeps of the checks in l those made on this path too. */
static void keep_guards_in(effect_list *l, const effect_list *path)
{
	effects_filter(l, made_on_path, path);
}

/* A call through a handler kind's member that hands on the command being
 * walked (dev_eth_ioctl's ops->ndo_eth_ioctl(dev, ifr, cmd)): one more
 * path into that kind for the command, with the checks made before it. */
static void note_kind_entry(struct classifier *c, const struct function_facts *fn,
			    const struct stmt *s)
{
	const struct handler_kind *k;
	struct kind_entry *e, fresh = {0};

	if (!c->record_entries || !c->cmd || !s->callee_struct || command_argument(c, fn, s) < 0)
		return;
	k = knowledge_kind_for(c->kn, s->callee_struct, s->callee_field);
	if (!k)
		return;
	e = kind_entry_of(c->entries, k, c->cmd->value, c->cmd->mask);
	if (!e) {
		fresh.kind = k;
		fresh.value = c->cmd->value;
		fresh.mask = c->cmd->mask;
		for (size_t i = 0; i < c->guards.len; i++)
			effect_add(&fresh.guards, EF_CAP_GUARD, xstrdup(c->guards.items[i].what),
				   c->guards.items[i].file, c->guards.items[i].line,
				   &c->guards.items[i].caps);
		vec_push(c->entries, fresh);
		e = &c->entries->items[c->entries->len - 1];
	} else {
		keep_guards_in(&e->guards, &c->guards);
	}
	if (!strvec_contains(&e->via, c->hname))
		strvec_push(&e->via, c->hname);
}

static void analyse_member_call(struct classifier *c, const struct function_facts *fn,
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
		struct summary *sum;

		if (beyond_depth(c, fn, s)) {
			effect_add(out, EF_UNKNOWN, xasprintf("%s: beyond the call depth analysed",
							     t[0]->name), fn->file, s->line, NULL);
			c->cuts++;
			return;
		}
		if (analyse_for_command(c, fn, s, t[0], top, out))
			return;
		sum = const_param_summary(c, fn, s, t[0]);
		lift_callee(c, fn, s, t[0], &(sum ? sum : summarise(c, t[0]))->effects, top, out);
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
	/* the members that calls handing on the command go through, and
	 * the others near the command's code, as callees are */
	seek = s->callee_struct && c->wanted_members &&
		(max == MAX_COMMAND_TARGETS ||
		 (c->want_callees && c->depth <= CLASSIFY_FOLLOW_DEPTH && !c->via_header));
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
	for (size_t i = 0; i < n; i++) {
		struct summary *sum;

		if (analyse_for_command(c, fn, s, t[i], 0, out))
			continue;
		sum = const_param_summary(c, fn, s, t[i]);
		lift_callee(c, fn, s, t[i], &(sum ? sum : summarise(c, t[i]))->effects, 0, out);
	}
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

static void analyse_call(struct classifier *c, const struct function_facts *fn,
			 const struct stmt *s, int top, effect_list *out)
{
	const struct api_entry *a;
	const struct function_facts *callee;
	strvec caps = {0};

	if (s->is_asm) {
		effect_add(out, EF_UNKNOWN, xasprintf("inline assembly (%s): not analysed", s->callee_text),
			   fn->file, s->line, NULL);
		return;
	}
	if (!s->callee) {
		analyse_member_call(c, fn, s, top, out);
		return;
	}
	if (analyse_request(c, fn, s, out))
		return;
	a = api_of(c, s->callee);
	if (a) {
		switch (a->effect) {
		case API_NEUTRAL:
			break;
		case API_USER_IN:
			effect_add(out, EF_USER_IN, xstrdup(s->callee), fn->file, s->line, NULL);
			/* copy_from_user(dst, ...) also stores into dst */
			if (a->arg >= 0)
				through_arg(fn, s, a, EF_STORE, out);
			break;
		case API_USER_OUT:
		case API_MODIFY:
		case API_HARDWARE:
		case API_LIFETIME:
			effect_add(out, api_effect_kind[a->effect], xstrdup(s->callee), fn->file,
				   s->line, NULL);
			break;
		case API_WRITES_ARG:
			through_arg(fn, s, a, EF_STORE, out);
			break;
		case API_LINKS_ARG:
			through_arg(fn, s, a, EF_LINK, out);
			break;
		case API_HW_READ:
			/* acquirewdt pings its watchdog with inb_p(wdt_start); */
			if (s->value_unused)
				effect_add(out, EF_HARDWARE,
					   xasprintf("%s with its result unused: read for its effect",
						     s->callee), fn->file, s->line, NULL);
			break;
		case API_CAPABILITY:
			call_capabilities(c, fn, s, &caps);
			effect_add(out, EF_CAP_COND, xasprintf("%s() result not tested", s->callee),
				   fn->file, s->line, &caps);
			strvec_clear(&caps);
			break;
		}
		return;
	}
	callee = function_index_find(c->fi, s->callee, fn->unit);
	if (!callee) {
		/* calls under header functions do not pull in more files:
		 * the parse set stays what the tree's own code leads to; a
		 * call that hands on the command (raw_ioctl's default:
		 * ipmr_ioctl(sk, cmd, ...)) is the command's dispatch going
		 * on, followed in every round */
		if (c->wanted && !c->via_header &&
		    ((c->want_callees && c->depth <= CLASSIFY_FOLLOW_DEPTH) ||
		     command_argument(c, fn, s) >= 0))
			want_function(c, s->callee);
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

/* The parameter that holds the command being classified, when fn is a
 * function of its dispatch chain analysed for this command; -1 otherwise
 * (summaries of callees hold for every command). */
static int command_param(const struct classifier *c, const struct function_facts *fn)
{
	if (!c->cmd || c->depth != c->nextra)
		return -1;
	for (int d = 0; d < c->site->chain_len; d++)
		if (c->site->chain[d].fn == fn)
			return c->site->chain[d].cmd_param;
	for (int d = 0; d < c->nextra; d++)
		if (c->extra[d].fn == fn)
			return c->extra[d].cmd_param;
	return -1;
}

/* Is fn being analysed for the command already (a recursion)? */
static int in_command_context(const struct classifier *c, const struct function_facts *fn)
{
	for (int d = 0; d < c->site->chain_len; d++)
		if (c->site->chain[d].fn == fn)
			return 1;
	for (int d = 0; d < c->nextra; d++)
		if (c->extra[d].fn == fn)
			return 1;
	return 0;
}

/* Does `if (cmd == A || cmd == B)` (or `cmd != A && cmd != B`) hold for
 * the command? */
static enum label_match cmp_holds(const struct command *cmd, const struct stmt *s)
{
	int yes = 0, maybe = 0;
	const struct switch_segment *seg = &s->segs.items[0];

	for (size_t i = 0; i < seg->labels.len; i++) {
		enum label_match m = command_label_match(cmd, s->cmp_view, &seg->labels.items[i]);

		yes |= m == MATCH_YES;
		maybe |= m == MATCH_MAYBE;
	}
	if (yes)
		return s->cmp_eq ? MATCH_YES : MATCH_NO;
	if (maybe)
		return MATCH_MAYBE;
	return s->cmp_eq ? MATCH_NO : MATCH_YES;
}

/* Local flags on the command's path in the site's function: a flag that
 * nothing on the path so far set to anything but 0 still holds its
 * initial 0. Stores outside the dispatch are assumed done (flags_enter). */
static int flag_index(const struct classifier *c, const struct function_facts *fn,
		      const char *key)
{
	if (c->flags_fn != fn)
		return -1;
	for (size_t i = 0; i < fn->flags.len; i++)
		if (!strcmp(fn->flags.items[i].key, key))
			return (int)i;
	return -1;
}

static int flag_surely_zero(const struct classifier *c, const struct function_facts *fn,
			    const char *key)
{
	int i = flag_index(c, fn, key);

	return i >= 0 && !c->flag_maybe[i];
}

/* A store that may leave the flag other than 0. */
static int raises_flag(const struct stmt *s, const char *key)
{
	return s->kind == ST_STORE && s->flag && !strcmp(s->flag, key) &&
	       !(s->store_is_const && s->store_value == 0);
}

static void flag_store(struct classifier *c, const struct function_facts *fn,
		       const struct stmt *s)
{
	int i = flag_index(c, fn, s->flag);

	if (i >= 0 && raises_flag(s, s->flag))
		c->flag_maybe[i] = 1;
}

struct flag_search {
	const char *key;
	const struct command_site *site;
};

/* With a site, its command's own code and its dispatch's segments are
 * left out (the path walks its command's own), except segments holding
 * a label a goto may enter. */
static int raises_flag_pred(const struct stmt *s, void *ctx)
{
	const struct flag_search *fs = ctx;
	const struct stmt *sw = fs->site ? fs->site->dispatch : NULL;

	if (fs->site && s == fs->site->body)
		return -1;
	for (size_t i = 0; sw && i < sw->segs.len; i++)
		if (s == sw->segs.items[i].body && !s->has_label)
			return -1;
	return raises_flag(s, fs->key);
}

/* Does statement s, or anything in it, store something but 0 to the
 * flag key (leaving out a site's own code, as above)? */
static int sets_flag(const struct stmt *s, const char *key, const struct command_site *site)
{
	struct flag_search fs = { key, site };

	return stmt_any(s, raises_flag_pred, &fs);
}

/* The site's function starts its path with its flags at their initial
 * values, except those set somewhere off the command's own code. */
static void flags_enter(struct classifier *c, const struct command_site *site)
{
	const struct function_facts *fn = site->fn;

	c->flags_fn = NULL;
	if (!fn->flags.len)
		return;
	c->flag_maybe = xcalloc(fn->flags.len, 1);
	for (size_t i = 0; i < fn->flags.len; i++)
		c->flag_maybe[i] = fn->flags.items[i].init != 0 ||
				   sets_flag(fn->body, fn->flags.items[i].key, site);
	c->flags_fn = fn;
}

/* A loop's body may run again after any of its stores: what it sets
 * anywhere may be set at its start. So may what the whole function sets
 * where a backward goto lands (loop is then its body). */
static void flags_loop(struct classifier *c, const struct function_facts *fn,
		       const struct stmt *loop)
{
	if (c->flags_fn != fn)
		return;
	for (size_t i = 0; i < fn->flags.len; i++)
		if (!c->flag_maybe[i] && sets_flag(loop, fn->flags.items[i].key, NULL))
			c->flag_maybe[i] = 1;
}

struct label_ref {
	const char *label;
	unsigned line;
};

static int jumps_back_pred(const struct stmt *s, void *ctx)
{
	const struct label_ref *l = ctx;

	return s->kind == ST_GOTO &&
	       (!s->target || (!strcmp(s->target, l->label) && s->line >= l->line));
}

/* Is there a goto to label written at or after the label's line (or a
 * computed goto)? Forward gotos come from code the path walked before. */
static int jumps_back(const struct stmt *s, const char *label, unsigned line)
{
	struct label_ref l = { label, line };

	return stmt_any(s, jumps_back_pred, &l);
}

static void flags_label(struct classifier *c, const struct function_facts *fn,
			const struct stmt *s)
{
	if (c->flags_fn == fn && s->label && jumps_back(fn->body, s->label, s->line))
		flags_loop(c, fn, fn->body);
}

static void flags_leave(struct classifier *c)
{
	free(c->flag_maybe);
	c->flag_maybe = NULL;
	c->flags_fn = NULL;
}

/* A callee analysed for the command is walked from its start (tun's
 * compat handler hands TUNGETSNDBUF to __tun_chr_ioctl, whose
 * `do_notify` only other commands raise): its flags hold their initial
 * values until a store on the path raises them. */
static void flags_start(struct classifier *c, const struct function_facts *fn)
{
	c->flags_fn = NULL;
	c->flag_maybe = NULL;
	if (!fn->flags.len)
		return;
	c->flag_maybe = xcalloc(fn->flags.len, 1);
	for (size_t i = 0; i < fn->flags.len; i++)
		c->flag_maybe[i] = fn->flags.items[i].init != 0;
	c->flags_fn = fn;
}

/* The constant the summary being made is for, as a command whose every
 * bit is known: tests and switches on its parameter read it so. */
static struct command const_command(const struct classifier *c)
{
	struct command known = { .value = (uint64_t)c->const_value, .mask = UINT64_MAX };

	return known;
}

/* Does the test hold for the constant that the summary being made is for
 * (`if (set)` in mxser_ioctl_op_mode(port, index, false, p))? */
static enum label_match value_holds(struct command known, const struct stmt *s);

static enum label_match const_param_holds(const struct classifier *c, const struct stmt *s)
{
	if (s->cmp_view.param != c->const_param)
		return MATCH_MAYBE;
	return value_holds(const_command(c), s);
}

/* Does the test hold for a parameter the command's dispatch bound to a
 * constant (tm_call's `(flags & ROOT_ONLY) && !capable(X)` for a table
 * entry's flags)? */
/* The link of the command's chain that is fn with parameter param bound
 * to a constant by the dispatch (chain_link.has_const), or NULL. */
static const struct chain_link *bound_link(const struct classifier *c,
					   const struct function_facts *fn, int param)
{
	for (int d = 0; c->cmd && param >= 0 && d < c->site->chain_len; d++) {
		const struct chain_link *l = &c->site->chain[d];

		if (l->fn == fn && l->has_const && l->const_param == param)
			return l;
	}
	return NULL;
}

static enum label_match bound_param_holds(const struct classifier *c,
					  const struct function_facts *fn, const struct stmt *s)
{
	const struct chain_link *l = bound_link(c, fn, s->cmp_view.param);
	struct command known = { .value = l ? (uint64_t)l->const_value : 0, .mask = UINT64_MAX };

	return l ? value_holds(known, s) : MATCH_MAYBE;
}

static enum label_match value_holds(struct command known, const struct stmt *s)
{
	if (s->cond == COND_PARAM_TRUTH) {
		uint64_t v = (known.value >> s->cmp_view.shift) & s->cmp_view.mask;

		return (v != 0) != s->cmp_eq ? MATCH_YES : MATCH_NO;
	}
	if ((s->cond == COND_PARAM_CMP || s->cond == COND_PARAM_RANGE) && s->segs.len)
		return cmp_holds(&known, s);
	return MATCH_MAYBE;
}

/* Does an if's condition hold on this path: a test on the command, an
 * implied one (which rules a branch out, never in), a local flag still 0,
 * a parameter the summary is made for a constant of? */
static enum label_match if_holds(const struct classifier *c, const struct function_facts *fn,
				 const struct stmt *s)
{
	int param = command_param(c, fn);
	enum label_match holds = MATCH_MAYBE;

	if (param >= 0 && (s->cond == COND_PARAM_CMP || s->cond == COND_PARAM_RANGE) &&
	    s->cmp_view.param == param && s->segs.len)
		holds = cmp_holds(c->cmd, s);
	/* an implied comparison rules the branch out, never in; so does
	 * each one another operand of its `&&` implies */
	if (param >= 0 && s->cond == COND_PARAM_IMPLIED && s->cmp_view.param == param &&
	    s->segs.len && cmp_holds(c->cmd, s) == MATCH_NO)
		holds = MATCH_NO;
	for (size_t i = 0; s->kind == ST_IF && s->cond == COND_PARAM_IMPLIED &&
	     holds == MATCH_MAYBE && i < s->premises.len; i++)
		if (if_holds(c, fn, s->premises.items[i]) == MATCH_NO)
			holds = MATCH_NO;
	if (holds == MATCH_MAYBE && s->flag && flag_surely_zero(c, fn, s->flag))
		holds = s->flag_neg ? MATCH_YES : MATCH_NO;
	if (holds == MATCH_MAYBE && fn == c->const_fn)
		holds = const_param_holds(c, s);
	if (holds == MATCH_MAYBE && s->cmp_view.param >= 0 && s->cmp_view.param != param)
		holds = bound_param_holds(c, fn, s);
	return holds;
}

/* Do a call's premises (`cmd != A` in `cmd != A && !capable(X)`) hold? */
static enum label_match premises_hold(const struct classifier *c,
				      const struct function_facts *fn, const struct stmt *call)
{
	int maybe = 0;

	for (size_t i = 0; i < call->premises.len; i++) {
		enum label_match m = if_holds(c, fn, call->premises.items[i]);

		if (m == MATCH_NO)
			return MATCH_NO;
		maybe |= m == MATCH_MAYBE;
	}
	return maybe ? MATCH_MAYBE : MATCH_YES;
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

			if (k->premises.len && p == MATCH_NO) {
				strvec_clear(&caps);
				continue;
			}
			effect_add(out, guard ? EF_CAP_GUARD : EF_CAP_COND,
				   xasprintf("%s(%s)", k->callee, caps.items[0]), fn->file, k->line, &caps);
			if (guard && on_dispatch_chain(c, fn))
				effect_add(&c->guards, EF_CAP_GUARD,
					   xasprintf("%s(%s)", k->callee, caps.items[0]), fn->file,
					   k->line, &caps);
			strvec_clear(&caps);
			continue;
		}
		analyse_call(c, fn, k, top, out);
	}
	return analyse_branches(c, fn, s, top, out);
}

/* Which segments of a switch on the command its path enters: those with
 * a label that can match it, and the default unless a label surely does
 * (analyse_switch adds the segments they fall into). on[i] is a
 * label_match. */
static void segments_on_path(const struct command *cmd, const struct stmt *sw, unsigned char *on)
{
	enum label_match best = MATCH_NO;

	for (size_t i = 0; i < sw->segs.len; i++) {
		const struct switch_segment *seg = &sw->segs.items[i];

		on[i] = MATCH_NO;
		for (size_t j = 0; j < seg->labels.len; j++) {
			enum label_match m = command_label_match(cmd, sw->on, &seg->labels.items[j]);

			if (m > on[i])
				on[i] = m;
		}
		if (on[i] > best)
			best = on[i];
	}
	for (size_t i = 0; i < sw->segs.len; i++)
		if (sw->segs.items[i].is_default && best != MATCH_YES)
			on[i] = best == MATCH_NO ? MATCH_YES : MATCH_MAYBE;
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
		on = xcalloc(s->segs.len + 1, 1);
		segments_on_path(c->cmd, s, on);
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
static int resumes_at(const struct classifier *c, const struct function_facts *fn,
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
static int analyse_seq_from(struct classifier *c, const struct function_facts *fn,
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
static int goto_lands_in(const struct classifier *c, const struct function_facts *fn,
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

	if (!l)
		return 0;
	return s == l || (!l->callee && l->callee_param >= 0 && !s->callee &&
			  s->callee_param == l->callee_param);
}

static int analyse_stmt(struct classifier *c, const struct function_facts *fn,
			const struct stmt *s, int top, effect_list *out)
{
	switch (s->kind) {
	case ST_BLOCK:
		return analyse_seq(c, fn, (const struct stmt *const *)s->kids.items, s->kids.len,
				   top, out);
	case ST_LOOP:
		flags_loop(c, fn, s);
		analyse_seq(c, fn, (const struct stmt *const *)s->kids.items, s->kids.len, 0, out);
		return FLOW_ON;
	case ST_IF:
		return analyse_if(c, fn, s, top, out);
	case ST_SWITCH:
		return analyse_switch(c, fn, s, top, out);
	case ST_CALL:
		if (!is_link_call(c, s))
			analyse_call(c, fn, s, top, out);
		else
			c->link_reached = 1;
		return FLOW_ON;
	case ST_STORE:
		if (s->flag)
			flag_store(c, fn, s);
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

static int analyse_block(struct classifier *c, const struct function_facts *fn,
			 const struct stmt *b, int top, effect_list *out)
{
	if (!b)
		return FLOW_ON;
	if (b->kind != ST_BLOCK)
		return analyse_stmt(c, fn, b, top, out);
	return analyse_seq(c, fn, (const struct stmt *const *)b->kids.items, b->kids.len, top, out);
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
	analyse_block(c, fn, fn->body, 1, &s->effects);
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

static struct summary *summarise(struct classifier *c, const struct function_facts *fn)
{
	return summarise_for(c, fn, -1, 0);
}

struct param_use {
	int param;
	const char *name;
};

static int tests_param_pred(const struct stmt *s, void *ctx)
{
	const struct param_use *u = ctx;

	/* a premise of a call: `(flags & DRM_ROOT_ONLY) && !capable(X)` */
	for (size_t i = 0; s->kind == ST_CALL && i < s->premises.len; i++)
		if (tests_param_pred(s->premises.items[i], ctx))
			return 1;
	return (s->kind == ST_IF && s->cmp_view.param == u->param &&
		(s->cond == COND_PARAM_TRUTH || (s->cond == COND_PARAM_CMP && s->segs.len))) ||
	       (s->kind == ST_SWITCH && s->on.param == u->param);
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
/* Is v a parameter of fn that the command's dispatch bound to a constant
 * (chain_link.has_const)? Then *value is it. */
static int bound_constant(const struct classifier *c, const struct function_facts *fn,
			  const struct param_view *v, int64_t *value)
{
	const struct chain_link *l = v->shift ? NULL : bound_link(c, fn, v->param);

	if (l)
		*value = (int64_t)((uint64_t)l->const_value & v->mask);
	return l != NULL;
}

static struct summary *const_param_summary(struct classifier *c, const struct function_facts *fn,
					   const struct stmt *call,
					   const struct function_facts *callee)
{
	int cmd_param = command_param(c, fn);

	for (size_t j = 0; j < call->args.len && j < callee->params.len; j++) {
		const struct call_arg *a = &call->args.items[j];
		struct param_use u = { (int)j, callee->params.items[j] };
		int64_t value = a->value;

		if (!a->is_const && bound_constant(c, fn, &a->view, &value)) {
			/* a table entry's flags, handed on (drm_ioctl_kernel's
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
		if (!u.name[0] || !stmt_any(callee->body, tests_param_pred, &u) ||
		    stmt_any(callee->body, stores_param_pred, &u))
			continue;
		return summarise_for(c, callee, (int)j, value);
	}
	return NULL;
}

static void add_evidence(struct command *cmd, const struct effect *e)
{
	struct evidence ev = {
		.kind = xstrdup(effect_kind_names[e->kind]),
		.what = xstrdup(e->what),
		.file = xstrdup(e->file),
		.line = e->line,
	};

	for (size_t i = 0; i < cmd->evidence.len; i++) {
		const struct evidence *o = &cmd->evidence.items[i];

		if (!strcmp(o->kind, ev.kind) && !strcmp(o->file, ev.file) && o->line == ev.line) {
			free(ev.kind);
			free(ev.what);
			free(ev.file);
			return;
		}
	}
	vec_push(&cmd->evidence, ev);
}

static void add_evidence_of(struct command *cmd, const effect_list *l, enum effect_kind k)
{
	for (size_t i = 0; i < l->len && cmd->evidence.len < MAX_EVIDENCE; i++)
		if (l->items[i].kind == k)
			add_evidence(cmd, &l->items[i]);
}

static int count_kind(const effect_list *l, enum effect_kind k)
{
	int n = 0;

	for (size_t i = 0; i < l->len; i++)
		n += l->items[i].kind == k;
	return n;
}

/* The class from the effects on the command's path (doc/classes.md). */
static void decide(struct command *cmd, const effect_list *l)
{
	int unknown = count_kind(l, EF_UNKNOWN) + count_kind(l, EF_UNFOLLOWED);
	/* calls through function pointers decided on the tree's targets:
	 * right for this tree, not for a module from outside it */
	int resolved = count_kind(l, EF_RESOLVED);
	int modifies = count_kind(l, EF_STORE) + count_kind(l, EF_API_MODIFY) +
		count_kind(l, EF_LINK) +
		count_kind(l, EF_HARDWARE) + count_kind(l, EF_LIFETIME) +
		count_kind(l, EF_MODE_WRITE);

	for (size_t i = 0; i < l->len; i++) {
		const struct effect *e = &l->items[i];
		strvec *dst = e->kind == EF_CAP_GUARD ? &cmd->capabilities :
			e->kind == EF_CAP_COND ? &cmd->conditional_capabilities : NULL;

		for (size_t j = 0; dst && j < e->caps.len; j++)
			if (!strvec_contains(dst, e->caps.items[j]))
				strvec_push(dst, e->caps.items[j]);
	}
	if (cmd->capabilities.len) {
		cmd->class = CLASS_ADMIN;
		cmd->confidence = xstrdup("high");
		add_evidence_of(cmd, l, EF_CAP_GUARD);
	} else if (modifies) {
		cmd->class = CLASS_MODIFY;
		cmd->confidence = xstrdup(unknown || resolved ? "low" : "high");
		add_evidence_of(cmd, l, EF_MODE_WRITE);
		add_evidence_of(cmd, l, EF_HARDWARE);
		add_evidence_of(cmd, l, EF_LIFETIME);
		add_evidence_of(cmd, l, EF_API_MODIFY);
		add_evidence_of(cmd, l, EF_LINK);
		add_evidence_of(cmd, l, EF_STORE);
	} else if (unknown) {
		cmd->class = CLASS_UNKNOWN;
		cmd->confidence = xstrdup("low");
		add_evidence_of(cmd, l, EF_UNFOLLOWED);
		add_evidence_of(cmd, l, EF_UNKNOWN);
	} else {
		cmd->class = CLASS_READ;
		cmd->confidence = xstrdup(resolved ? "low" : "high");
		add_evidence_of(cmd, l, EF_RESOLVED);
		add_evidence_of(cmd, l, EF_QUERY);
		add_evidence_of(cmd, l, EF_USER_OUT);
		if (!cmd->evidence.len) {
			struct evidence ev = {
				.kind = xstrdup("no_state_change"),
				.what = xstrdup("no store, state-changing call or unanalysed call on the path"),
				.file = xstrdup(cmd->file),
				.line = cmd->line,
			};

			vec_push(&cmd->evidence, ev);
		}
	}
	add_evidence_of(cmd, l, EF_CAP_COND);
}

/* Does the command's own code end by returning? */
static int returns(const struct stmt *b)
{
	if (!b)
		return 0;
	if (b->kind == ST_RETURN)
		return 1;
	if (b->kind != ST_BLOCK || !b->kids.len)
		return 0;
	return returns(b->kids.items[b->kids.len - 1]);
}

/* Effects of one place a command's code is: the prologues of the chain,
 * then the command's own code (its case and the cases it falls into).
 * Effects are collected per link of the chain: the command's own code
 * belongs to the last. */
/* What follows statement `from` of block b on the path, not known to
 * be certain (break and continue count as going on); reach: whether the
 * path gets there by falling through. Returns whether it reaches the end. */
static int analyse_rest(struct classifier *c, const struct function_facts *fn,
			const struct stmt *b, size_t from, int reach, effect_list *out)
{
	for (size_t i = from; i < b->kids.len; i++) {
		if (!reach && !resumes_at(c, fn, b->kids.items[i]))
			continue;
		flags_label(c, fn, b->kids.items[i]);
		reach = analyse_stmt(c, fn, b->kids.items[i], 0, out) != 0;
	}
	return reach;
}

static void site_path_effects(struct classifier *c, const struct command_site *site,
			      effect_list *link)
{
	effect_list *own = &link[site->chain_len - 1];
	int flow, reach;

	for (int d = 0; d < site->chain_len; d++) {
		const struct function_facts *fn = site->chain[d].fn;
		size_t n = site->chain[d].prologue_len;

		for (size_t i = 0; i < n && i < fn->body->kids.len; i++)
			analyse_stmt(c, fn, fn->body->kids.items[i], 1, &link[d]);
		/* the statement that holds the call to the next link, on the
		 * command's path up to the call and after it: dev_ioctl's
		 * `case SIOCSIFNAME: if (!ns_capable(...)) return -EPERM; ...
		 * dev_ifsioc(net, ifr, data, cmd);` guards what dev_ifsioc does */
		if (d + 1 < site->chain_len && n < fn->body->kids.len) {
			const struct stmt *holder = fn->body->kids.items[n];

			c->link_call = site->chain[d + 1].call;
			c->link_reached = 0;
			analyse_stmt(c, fn, holder, 1, &link[d]);
			/* tests on the command keep the call off its path
			 * (sock_ioctl's `if (unlikely(cmd >= SIOCDEVPRIVATE &&
			 * ...)) dev_ioctl(...)` for SIOCGIFFLAGS) */
			if (!c->link_reached && stmt_contains(holder, c->link_call))
				c->site_off_path = 1;
			c->link_call = NULL;
		}
	}
	/* the statements before the dispatch in each block around it */
	for (int k = 0; k < site->naround; k++) {
		const struct site_level *l = &site->around[k];

		for (size_t i = 0; i < l->index && i < l->block->kids.len; i++)
			analyse_stmt(c, site->fn, l->block->kids.items[i], 1, own);
	}
	flow = analyse_block(c, site->fn, site->body, 1, own);
	if (site->dispatch) {
		const struct stmt *sw = site->dispatch;
		size_t last = site->segment;

		/* the cases it falls into, and those whose code a goto
		 * lands in, from the label on (KVM_CREATE_PIT's `goto
		 * create_pit;` into KVM_CREATE_PIT2's case) */
		for (size_t i = site->segment + 1; i < sw->segs.len; i++) {
			const struct stmt *body = sw->segs.items[i].body;

			if (last == i - 1 && sw->segs.items[i - 1].falls_through && (flow & FLOW_ON))
				flow = analyse_block(c, site->fn, body, 1, own);
			else if (goto_lands_in(c, site->fn, body))
				flow = analyse_seq_from(c, site->fn,
							(const struct stmt *const *)body->kids.items,
							body->kids.len, 1, 0, own);
			else
				continue;
			last = i;
		}
		if (returns(sw->segs.items[last].body))
			return;
	} else if (!site->is_call && returns(site->body)) {
		return;
	}
	/* The command's code leaves the dispatch without returning (break,
	 * goto, falling off): what follows the dispatch runs too, in its
	 * function and in every caller on the way (sg_ioctl_common breaks
	 * out for SG_GET_TRANSFORM, then sg_ioctl hands it to scsi_ioctl).
	 * Over-approximated: everything after, on any path; after a goto
	 * (md_ioctl's RAID_VERSION: goto out) only from the next label on. */
	reach = flow & (FLOW_ON | FLOW_OUT);
	for (int k = site->naround - 1; k >= 0; k--)
		reach = analyse_rest(c, site->fn, site->around[k].block, site->around[k].index + 1,
				     reach, own);
	for (int d = 0; d < site->chain_len - (site->is_call ? 1 : 0); d++) {
		/* the jump's label may be further out in the site's function;
		 * a caller goes on after the call (a table entry's function
		 * was walked whole) */
		analyse_rest(c, site->chain[d].fn, site->chain[d].fn->body,
			     site->chain[d].prologue_len + 1, d == site->chain_len - 1 ? reach : 1,
			     &link[d]);
	}
}

/* Hands a chain link's effects to the link that called it (the handler's
 * go to the command as they are): a store through the link's parameter
 * goes where the call's argument points (dev_ioctl's *need_copyout = true
 * lands in sock_ioctl's local). */
static void lift_link(const struct chain_link *link, const effect_list *from, effect_list *out)
{
	for (size_t i = 0; i < from->len; i++) {
		const struct effect *e = &from->items[i];
		/* a callback of the chain's own is not resolved */
		int param = e->kind == EF_UNKNOWN ? -1 : e->param;

		if (link->call && lands_through_param(e) &&
		    !store_through_call(link->call, e->kind, e->param, &param))
			continue;
		effect_add_param(out, e->kind, xstrdup(e->what), e->file, e->line, &e->caps, param);
	}
}

/* Tests on the command in the chain's own code follow the command. */
/* Does the handler decline the command? Its own code returns the value;
 * when the command's code is in a function it calls (vt_ioctl's
 * vt_k_ioctl), that function must return it too, or the handler's later
 * return (vt_ioctl's default after `if (ret != -ENOIOCTLCMD) return ret;`)
 * is not reached for this command. */
static int declines(const struct classifier *c, const struct command_site *site)
{
	return c->declined && (site->chain_len == 1 || c->declined_links);
}

/* The command the handler's own code declines on some path (rfcomm's
 * tty driver: `case TCSETS: return -ENOIOCTLCMD;`) goes on where its kind
 * says (tty_ioctl hands it to the line discipline's ioctl, which sets the
 * termios): a call through that member, handing on the command, is on the
 * command's path too. */
static void declined_effects(struct classifier *c, const struct command_site *site,
			     effect_list *out)
{
	const struct handler_kind *k = c->hkind;
	const struct function_facts *fn = site->chain[0].fn;
	struct stmt *call = stmt_new(ST_CALL, c->declined->line);

	call->callee_struct = xstrdup(k->declined_struct);
	call->callee_field = xstrdup(k->declined_field);
	call->callee_param = -1;
	call->callee_text = xasprintf("%s.%s, where the caller of %s takes a command it declines",
				      k->declined_struct, k->declined_field, fn->name);
	for (int i = 0; i <= k->declined_cmd_param; i++) {
		struct call_arg a = { .view = { -1, 0, 0 }, .ptr_param = -1 };

		if (i == k->declined_cmd_param)
			a.view = (struct param_view){ site->chain[0].cmd_param, 0, ~(uint64_t)0 };
		vec_push(&call->args, a);
	}
	analyse_member_call(c, fn, call, 0, out);
	stmt_free(call);
}

/* The effects of the command on the path through one site; 0 when the
 * command's own tests keep it off that path. */
/* Stores through the handler's parameter that points to the core's copy
 * of the argument (handler_kinds.json arg_copy: an ifreq the core copied
 * in and copies back out) fill the reply; they change no state. */
static int not_reply_store(const struct effect *e, const void *kind)
{
	const struct handler_kind *k = kind;

	return !(k && k->arg_copy >= 0 && (e->kind == EF_STORE || e->kind == EF_LINK) &&
		 e->param == k->arg_copy);
}

static void drop_reply_stores(const struct handler_kind *k, effect_list *l)
{
	effects_filter(l, not_reply_store, k);
}

static int site_effects(struct classifier *c, const struct command *cmd,
			const struct command_site *site, effect_list *out)
{
	effect_list link[MAX_CHAIN] = {{0}};

	c->cmd = cmd;
	c->site = site;
	c->site_off_path = 0;
	c->ngotos = 0;
	c->rewrite = NULL;
	c->declined = NULL;
	c->declined_links = 0;
	effects_free(&c->guards);
	flags_enter(c, site);
	site_path_effects(c, site, link);
	if (declines(c, site))
		declined_effects(c, site, &link[0]);
	c->declined = NULL;
	flags_leave(c);
	effects_free(&c->guards);
	c->cmd = NULL;
	c->site = NULL;
	for (int d = site->chain_len - 1; d > 0; d--) {
		lift_link(&site->chain[d], &link[d], &link[d - 1]);
		effects_free(&link[d]);
	}
	drop_reply_stores(c->hkind, &link[0]);
	lift_link(&site->chain[0], &link[0], out);
	effects_free(&link[0]);
	return !c->site_off_path;
}

static void classifier_reset(struct classifier *c)
{
	for (size_t i = 0; i < SUMMARY_BUCKETS; i++) {
		struct summary *s = c->bucket[i];

		while (s) {
			struct summary *n = s->next;

			effects_free(&s->effects);
			strvec_clear(&s->wrapper_caps);
			free(s);
			s = n;
		}
		c->bucket[i] = NULL;
	}
}

/* Does the system call enter at handlers of this kind (file_operations,
 * the VFS's own functions), rather than through a core that may check
 * before it calls them? */
static int entry_kind(const struct handler_kind *k)
{
	return !k || !k->struct_name || !strcmp(k->struct_name, "file_operations");
}

/* The checks the core makes on every path that hands the command to a
 * handler of this kind (note_kind_entry), as the command's own. */
static void inherit_entry_guards(const struct classifier *c, const struct command *cmd,
				 effect_list *l)
{
	effect_list guards = {0};
	strvec via = {0};
	struct strbuf names = {0};
	int paths = 0;

	if (!c->entries || cmd->mask != 0xffffffffu)
		return;
	/* every path that hands on this value: its own, and those of
	 * families (ranges, renamed commands) that take it in */
	for (size_t i = 0; i < c->entries->len; i++) {
		const struct kind_entry *e = &c->entries->items[i];

		if (e->kind != c->hkind || (cmd->value & e->mask) != (e->value & e->mask))
			continue;
		if (!paths++)
			for (size_t j = 0; j < e->guards.len; j++)
				effect_add(&guards, EF_CAP_GUARD, xstrdup(e->guards.items[j].what),
					   e->guards.items[j].file, e->guards.items[j].line,
					   &e->guards.items[j].caps);
		else
			keep_guards_in(&guards, &e->guards);
		for (size_t j = 0; j < e->via.len; j++)
			if (!strvec_contains(&via, e->via.items[j]))
				strvec_push(&via, e->via.items[j]);
	}
	for (size_t i = 0; i < via.len; i++)
		sb_addf(&names, "%s%s", i ? ", " : "", via.items[i]);
	for (size_t i = 0; i < guards.len; i++)
		effect_add(l, EF_CAP_GUARD,
			   xasprintf("%s, before the core calls %s.%s, on every path analysed (from %s)",
				     guards.items[i].what, c->hkind->struct_name, c->hkind->field,
				     names.buf),
			   guards.items[i].file, guards.items[i].line, &guards.items[i].caps);
	free(sb_detach(&names));
	strvec_clear(&via);
	effects_free(&guards);
}

enum walk_phase { WALK_ALL, WALK_ENTRY_KINDS, WALK_INNER_KINDS };

static void walk_commands(struct classifier *c, struct scan_result *r, int decide_classes,
			  enum walk_phase phase)
{
	for (size_t i = 0; i < r->handlers.len; i++) {
		struct handler *h = &r->handlers.items[i];

		c->hkind = knowledge_kind_named(c->kn, h->kind);
		c->hname = h->name;
		if (phase != WALK_ALL && entry_kind(c->hkind) != (phase == WALK_ENTRY_KINDS))
			continue;
		for (size_t j = 0; j < h->commands.len; j++) {
			struct command *cmd = &h->commands.items[j];
			effect_list l = {0}, *per = xcalloc(cmd->sites.len + 1, sizeof(*per));
			int *on = xcalloc(cmd->sites.len + 1, sizeof(*on)), any = 0;
			const struct chain_link top = {0};

			/* the sites the command's path goes through; all of
			 * them if it seems to go through none */
			for (size_t k = 0; k < cmd->sites.len; k++)
				any |= on[k] = site_effects(c, cmd, &cmd->sites.items[k], &per[k]);
			for (size_t k = 0; k < cmd->sites.len; k++) {
				if (on[k] || !any)
					lift_link(&top, &per[k], &l);
				effects_free(&per[k]);
			}
			free(per);
			free(on);
			if (phase == WALK_INNER_KINDS)
				inherit_entry_guards(c, cmd, &l);
			if (decide_classes)
				decide(cmd, &l);
			effects_free(&l);
		}
	}
}

void classify_wanted(struct scan_result *r, const struct function_index *fi,
		     const struct knowledge *kn, int callees, strvec *wanted,
		     wanted_members *members)
{
	struct classifier *c = xcalloc(1, sizeof(*c));

	c->fi = fi;
	c->kn = kn;
	c->want_callees = callees;
	c->wanted = wanted;
	for (size_t i = 0; i < wanted->len; i++)
		name_map_put(&c->wanted_set, wanted->items[i], NULL);
	c->wanted_members = members;
	walk_commands(c, r, 0, WALK_ALL);
	classifier_reset(c);
	name_map_free(&c->wanted_set);
	name_map_free(&c->apis);
	free(c);
}

void classify_handlers(struct scan_result *r, const struct function_index *fi,
		       const struct knowledge *kn)
{
	struct classifier *c = xcalloc(1, sizeof(*c));
	kind_entries entries = {0};

	c->fi = fi;
	c->kn = kn;
	/* where the system call enters first, recording what the core checks
	 * on the way into each inner kind; then the inner kinds */
	c->entries = &entries;
	c->record_entries = 1;
	walk_commands(c, r, 1, WALK_ENTRY_KINDS);
	c->record_entries = 0;
	walk_commands(c, r, 1, WALK_INNER_KINDS);
	classifier_reset(c);
	for (size_t i = 0; i < entries.len; i++) {
		effects_free(&entries.items[i].guards);
		strvec_clear(&entries.items[i].via);
	}
	vec_free(&entries);
	name_map_free(&c->apis);
	free(c);
}
