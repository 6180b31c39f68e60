/* commands -> class: the walk over every handler's commands, and over
 * each place (site) a command's code is, from the prologues of the
 * functions its dispatch went through to the command's own code and what
 * follows it; the effects found there, lifted link by link to the
 * handler, decide the command's class (classify_evidence.c).
 *
 * The classifier is split by concern, its shared state and internal
 * interfaces in classify_internal.h:
 *   classify.c           the commands, their sites and dispatch chains
 *   classify_walk.c      walking a function's statements (if, switch, goto)
 *   classify_path.c      which branches are on the path: tests on the
 *                        command, local flags, constants handed on
 *   classify_calls.c     what a call does: knowledge, transports, calls
 *                        through members, callees handed the command
 *   classify_summary.c   per-function summaries and lifting a callee's
 *                        effects into its caller
 *   classify_evidence.c  the effect set, the decision and its evidence
 *   classify_entries.c   checks a core makes before an inner handler kind
 *   classify_values.c    values a command's code hands back to its callers
 *   classify_wanted.c    what to parse next (functions, members)
 *
 * A function's summary is computed once (memoised) and lists its effects:
 * capability checks (and whether they guard every successful path), stores
 * that outlive the call, hardware writes, object lifetimes, open-mode tests,
 * copies to and from user space, and calls that cannot be analysed. The
 * rules that turn effects into a class are in decide() and in
 * doc/classes.md. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

static struct name_slot *name_map_slot(const struct name_map *m, const char *name, unsigned h)
{
	for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1))
		if (!m->slots[i].name || (m->slots[i].hash == h && !strcmp(m->slots[i].name, name)))
			return &m->slots[i];
}

/* Is name in m? Its value in *value. */
int name_map_find(const struct name_map *m, const char *name, const void **value)
{
	struct name_slot *s;

	if (!m->cap)
		return 0;
	s = name_map_slot(m, name, str_hash(name, strlen(name)));
	if (s->name && value)
		*value = s->value;
	return s->name != NULL;
}

void name_map_put(struct name_map *m, const char *name, const void *value)
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

void name_map_free(struct name_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

/* knowledge_api, remembered: the same callees are looked up at every call */
const struct api_entry *api_of(struct classifier *c, const char *name)
{
	const void *a;

	if (!name_map_find(&c->apis, name, &a)) {
		a = knowledge_api(c->kn, name);
		name_map_put(&c->apis, name, a);
	}
	return a;
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

struct result_search {
	const char *callee;
	const struct stmt *found;
};

static int result_store_pred(const struct stmt *s, void *ctx)
{
	struct result_search *q = ctx;

	if (s->kind == ST_STORE && s->flag && s->value_callee && !strcmp(s->value_callee, q->callee)) {
		q->found = s;
		return 1;
	}
	return 0;
}

/* The store of what the call to the next link returns into a local of
 * the caller (`ret = next(...);`, `int ret = next(...);`): in the
 * statement holding the call, or the one after it; NULL if none. */
static const struct stmt *result_store(const struct stmt *body, size_t n, const char *callee)
{
	struct result_search q = { callee, NULL };

	if (!stmt_any(body->kids.items[n], result_store_pred, &q) && n + 1 < body->kids.len)
		stmt_any(body->kids.items[n + 1], result_store_pred, &q);
	return q.found;
}

/* Does the condition of holder, an if, hold for the values the call in
 * it returns: `if (next(...))`, `if ((ret = next(...)) != -ENOIOCTLCMD)`
 * (key: the local the call's value is stored in)? */
static enum label_match holder_test(const struct stmt *holder, const struct stmt *call,
				    const char *key, const struct value_set *v)
{
	if (holder->kind != ST_IF)
		return MATCH_MAYBE;
	if ((holder->cond == COND_CALL || holder->cond == COND_NOT_CALL) && holder->kids.len &&
	    holder->kids.items[holder->kids.len - 1] == call)
		return values_test(v, holder->cond == COND_CALL ? '!' : '=', 0);
	if (key && holder->test_local && !strcmp(holder->test_local, key))
		return values_if(v, holder);
	return MATCH_MAYBE;
}

struct return_of_call {
	const struct stmt *call;
};

static int returns_call_pred(const struct stmt *s, void *ctx)
{
	const struct return_of_call *q = ctx;
	const struct stmt *last;

	if (s->kind != ST_BLOCK || s->kids.len < 2)
		return 0;
	last = s->kids.items[s->kids.len - 1];
	return last->kind == ST_RETURN && s->kids.items[s->kids.len - 2] == q->call &&
	       last->value_callee && q->call->callee && !strcmp(last->value_callee, q->call->callee);
}

/* Is the call returned as soon as it returns (`return next(...);`,
 * wherever it sits in the statement: `if (in_compat_syscall()) return
 * v4l2_compat_translate_cmd(cmd);`)? */
static int returned_at_once(const struct stmt *holder, const struct stmt *call)
{
	struct return_of_call q = { call };

	return stmt_any(holder, returns_call_pred, &q);
}

/* Can the caller's code after the statement holding the call go on, for
 * the values the call returns? flow is how the statement's walk left it;
 * `if (next(...)) return -EINVAL;` is decided by the values. */
static int goes_on_after(const struct stmt *holder, const struct stmt *call, const char *key,
			 int flow, const struct value_set *v)
{
	enum label_match m;

	if (!(flow & (FLOW_ON | FLOW_OUT)) || returned_at_once(holder, call))
		return 0;
	m = holder_test(holder, call, key, v);
	return !((m == MATCH_YES && always_leaves(holder->then_s)) ||
		 (m == MATCH_NO && always_leaves(holder->else_s)));
}

/* The command's code returned, in a function its dispatch called: each
 * caller goes on after the call for the values it may hand back
 * (classify_values.c), with the local that holds them bound to them
 * (`ret = check(cmd); if (ret) return ret; dev->armed = 1;`). */
static void after_return(struct classifier *c, const struct command_site *site,
			 const int *holder_flow, effect_list *link)
{
	for (int d = site->chain_len - 2; d >= 0; d--) {
		const struct function_facts *fn = site->chain[d].fn;
		size_t n = site->chain[d].prologue_len;
		const struct value_set *v = &c->link_returns[d + 1];

		if (c->returns_next[d])
			values_join(&c->link_returns[d], v);
		if (n >= fn->body->kids.len)
			continue;
		c->bound_store = result_store(fn->body, n, site->chain[d + 1].fn->name);
		c->bound_key = c->bound_store ? c->bound_store->flag : NULL;
		c->bound_fn = fn;
		c->bound = *v;
		/* when the statement does not go on, only a label a goto on
		 * the path names brings the path back */
		analyse_rest(c, fn, fn->body, n + 1,
			     goes_on_after(fn->body->kids.items[n], site->chain[d + 1].call,
					   c->bound_key, holder_flow[d], v),
			     &link[d]);
		c->bound_fn = NULL;
		c->bound_key = NULL;
		c->bound_store = NULL;
	}
}

static void site_path_effects(struct classifier *c, const struct command_site *site,
			      effect_list *link)
{
	effect_list *own = &link[site->chain_len - 1];
	int flow, reach, holder_flow[MAX_CHAIN] = {0};

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
			holder_flow[d] = analyse_stmt(c, fn, holder, 1, &link[d]);
			/* tests on the command keep the call off its path
			 * (sock_ioctl's `if (unlikely(cmd >= SIOCDEVPRIVATE &&
			 * ...)) dev_ioctl(...)` for SIOCGIFFLAGS) */
			if (!c->link_reached && stmt_contains(holder, c->link_call))
				c->site_off_path = 1;
			c->link_call = NULL;
			analyse_indexed_routes(c, fn, &link[d]);
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
		if (returns(sw->segs.items[last].body)) {
			after_return(c, site, holder_flow, link);
			return;
		}
	} else if (!site->is_call && returns(site->body)) {
		after_return(c, site, holder_flow, link);
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
	if (!site->is_call) {
		/* the rest of the site's function, then its callers after
		 * the call, with the values it hands back */
		analyse_rest(c, site->fn, site->fn->body, site->chain[site->chain_len - 1].prologue_len + 1,
			     reach, own);
		after_return(c, site, holder_flow, link);
		return;
	}
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
	memset(c->link_returns, 0, sizeof(c->link_returns));
	memset(c->returns_next, 0, sizeof(c->returns_next));
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

void classifier_reset(struct classifier *c)
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
	values_forget(c);
}

/* The effects of the command on its paths: through the sites its path
 * goes through (all of them if it seems to go through none); the
 * command it was translated into, if any, in *translated. */
static void command_effects(struct classifier *c, const struct command *cmd, effect_list *l,
			    const struct command **translated)
{
	effect_list *per = xcalloc(cmd->sites.len + 1, sizeof(*per));
	int *on = xcalloc(cmd->sites.len + 1, sizeof(*on)), any = 0;
	const struct chain_link top = {0};

	c->translated = NULL;
	for (size_t k = 0; k < cmd->sites.len; k++)
		any |= on[k] = site_effects(c, cmd, &cmd->sites.items[k], &per[k]);
	*translated = c->translated;
	c->translated = NULL;
	for (size_t k = 0; k < cmd->sites.len; k++) {
		if (on[k] || !any)
			lift_link(&top, &per[k], l);
		effects_free(&per[k]);
	}
	free(per);
	free(on);
}

void walk_commands(struct classifier *c, struct scan_result *r, int decide_classes,
		   enum walk_phase phase)
{
	for (size_t i = 0; i < r->handlers.len; i++) {
		struct handler *h = &r->handlers.items[i];
		size_t n = h->commands.len;
		effect_list *l, *via;
		const struct command **into;
		const struct chain_link top = {0};

		c->hkind = knowledge_kind_named(c->kn, h->kind);
		c->hname = h->name;
		c->handler = h;
		if (phase != WALK_ALL && entry_kind(c->hkind) != (phase == WALK_ENTRY_KINDS))
			continue;
		l = xcalloc(n + 1, sizeof(*l));
		via = xcalloc(n + 1, sizeof(*via));
		into = xcalloc(n + 1, sizeof(*into));
		for (size_t j = 0; j < n; j++)
			command_effects(c, &h->commands.items[j], &l[j], &into[j]);
		/* a command translated into another goes on as that one
		 * does (classify_values.c, translated_call): its effects as
		 * walked, not what it was translated into in turn */
		for (size_t j = 0; j < n; j++)
			if (into[j])
				lift_link(&top, &l[into[j] - h->commands.items], &via[j]);
		for (size_t j = 0; j < n; j++) {
			struct command *cmd = &h->commands.items[j];

			lift_link(&top, &via[j], &l[j]);
			if (!decide_classes)
				continue;
			if (phase == WALK_INNER_KINDS)
				inherit_entry_guards(c, cmd, &l[j]);
			decide(cmd, &l[j]);
		}
		for (size_t j = 0; j < n; j++) {
			effects_free(&l[j]);
			effects_free(&via[j]);
		}
		free(l);
		free(via);
		free(into);
		c->handler = NULL;
	}
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
	c->record_entries = RECORD_ENTRY;
	walk_commands(c, r, 1, WALK_ENTRY_KINDS);
	/* then the paths the inner kinds' commands take into other inner
	 * kinds, before any of them is decided */
	c->record_entries = RECORD_INNER;
	walk_commands(c, r, 0, WALK_INNER_KINDS);
	c->record_entries = RECORD_NONE;
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
