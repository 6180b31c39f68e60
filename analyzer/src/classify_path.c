/* Path logic: which branches and switch segments a command's path takes.
 * Tests on the command in the functions analysed for it, local flags still
 * at their initial value (local_flags.h), a constant the summary being made
 * is for, a parameter the dispatch bound to a constant. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

/* Is fn a function of the dispatch chain of the command being walked,
 * analysed for it at the top (not a callee it was handed to)? A check at
 * its top guards the rest of the command's path. */
int on_dispatch_chain(const struct classifier *c, const struct function_facts *fn)
{
	if (!c->cmd || c->depth || c->via_header || c->renamed)
		return 0;
	for (int d = 0; d < c->site->chain_len; d++)
		if (c->site->chain[d].fn == fn)
			return 1;
	return 0;
}

/* The parameter that holds the command being classified, when fn is a
 * function of its dispatch chain analysed for this command; -1 otherwise
 * (summaries of callees hold for every command). */
int command_param(const struct classifier *c, const struct function_facts *fn)
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
int in_command_context(const struct classifier *c, const struct function_facts *fn)
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

static int sets_flag(const struct stmt *s, const char *key, const struct command_site *site);

/* A flag of a function whose flags the walk does not follow (a caller on
 * the command's chain, walked after its call): 0 wherever it is tested
 * when it starts at 0 and no statement of the function raises it
 * (nouveau_compat_ioctl's `fn = NULL` whose one store is compiled out). */
static int flag_never_raised(const struct function_facts *fn, const char *key)
{
	for (size_t i = 0; i < fn->flags.len; i++)
		if (!strcmp(fn->flags.items[i].key, key))
			return fn->flags.items[i].init == 0 && !sets_flag(fn->body, key, NULL);
	return 0;
}

static int flag_surely_zero(const struct classifier *c, const struct function_facts *fn,
			    const char *key)
{
	int i = flag_index(c, fn, key);

	if (c->flags_fn != fn)
		return flag_never_raised(fn, key);
	return i >= 0 && !c->flag_maybe[i];
}

/* A store that may leave the flag other than 0. */
static int raises_flag(const struct stmt *s, const char *key)
{
	return s->kind == ST_STORE && s->flag && !strcmp(s->flag, key) &&
	       !(s->store_is_const && s->store_value == 0);
}

void flag_store(struct classifier *c, const struct function_facts *fn,
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
void flags_enter(struct classifier *c, const struct command_site *site)
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
void flags_loop(struct classifier *c, const struct function_facts *fn,
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

void flags_label(struct classifier *c, const struct function_facts *fn,
		 const struct stmt *s)
{
	if (s->label && (c->flags_fn == fn || c->bound_fn == fn) &&
	    jumps_back(fn->body, s->label, s->line)) {
		flags_loop(c, fn, fn->body);
		values_loop(c, fn, fn->body);
	}
}

void flags_leave(struct classifier *c)
{
	free(c->flag_maybe);
	c->flag_maybe = NULL;
	c->flags_fn = NULL;
}

/* A callee analysed for the command is walked from its start (tun's
 * compat handler hands TUNGETSNDBUF to __tun_chr_ioctl, whose
 * `do_notify` only other commands raise): its flags hold their initial
 * values until a store on the path raises them. */
void flags_start(struct classifier *c, const struct function_facts *fn)
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
struct command const_command(const struct classifier *c)
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
const struct chain_link *bound_link(const struct classifier *c,
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

/* The command's code in fn re-assigned the command (c->rewrite): its
 * tests after that hold for the value before or the value after (the
 * store may sit on a branch the path did not take), or for any value
 * when the new one is not known (cxgb_siocdevprivate's
 * copy_from_user(&cmd, useraddr, ...) reads a sub-command over it). */
int reassigned_in(const struct classifier *c, const struct function_facts *fn)
{
	return c->rewrite && c->rewrite_fn == fn;
}

static enum label_match join_match(enum label_match a, enum label_match b)
{
	return a == b ? a : MATCH_MAYBE;
}

/* cmp_holds for the command as fn tests it. */
static enum label_match command_holds(const struct classifier *c, const struct function_facts *fn,
				      const struct stmt *s)
{
	struct command now;

	if (!reassigned_in(c, fn))
		return cmp_holds(c->cmd, s);
	if (!c->rewrite_known)
		return MATCH_MAYBE;
	now = rewritten_command(c);
	return join_match(cmp_holds(c->cmd, s), cmp_holds(&now, s));
}

/* segments_on_path for the command as fn's switch sw tests it: NULL
 * (every segment, none surely) when its new value is not known. */
unsigned char *command_segments(const struct classifier *c, const struct function_facts *fn,
				const struct stmt *sw)
{
	unsigned char *on, *after;
	struct command now;

	if (reassigned_in(c, fn) && !c->rewrite_known)
		return NULL;
	on = xcalloc(sw->segs.len + 1, 1);
	segments_on_path(c->cmd, sw, on);
	if (!reassigned_in(c, fn))
		return on;
	now = rewritten_command(c);
	after = xcalloc(sw->segs.len + 1, 1);
	segments_on_path(&now, sw, after);
	for (size_t i = 0; i < sw->segs.len; i++)
		on[i] = join_match(on[i], after[i]);
	free(after);
	return on;
}

static void segments_through(const struct command *cmd, const struct stmt *sw,
			     struct param_view on_view, unsigned char *on);

/* The segments of a switch translated by search (facts.h: an ST_SWITCH
 * whose callee_array_field names the member searched) that the command
 * takes: those holding the value of the record the command's value
 * matches; none but the default when it matches none (the local then
 * holds a constant no case takes: extract_facts.c checks it). NULL
 * (every segment) when the command's value through the view is not known,
 * or a matching record's value is not. */
unsigned char *searched_segments(const struct classifier *c, const struct function_facts *fn,
				 const struct stmt *sw)
{
	const struct param_view *v = &sw->callee_index;
	const struct param_view whole = { .param = -1, .shift = 0, .mask = 0xffffffffu };
	const struct table_init *a;
	unsigned char *on, *one;
	uint64_t key;
	int matched = 0;

	if (!sw->callee_array || !sw->callee_array_field || v->param != command_param(c, fn) ||
	    reassigned_in(c, fn) || ((c->cmd->mask >> v->shift) & v->mask) != v->mask)
		return NULL;
	a = function_index_find_fn_array(c->fi, sw->callee_array, sw->callee_array_field,
					 fn->unit);
	if (!a)
		return NULL;
	key = (c->cmd->value >> v->shift) & v->mask;
	on = xcalloc(sw->segs.len + 1, 1);
	one = xcalloc(sw->segs.len + 1, 1);
	for (size_t i = 0; i < a->entries.len; i++) {
		const struct table_entry *e = &a->entries.items[i];
		/* the local holds the record's value, all of it */
		struct command held = { .value = (uint64_t)e->flags & 0xffffffffu,
					.mask = 0xffffffffu };

		if (e->value != key)
			continue;
		if (!e->has_flags) {
			free(one);
			free(on);
			return NULL;
		}
		matched = 1;
		segments_through(&held, sw, whole, one);
		for (size_t j = 0; j < sw->segs.len; j++)
			on[j] = one[j] > on[j] ? one[j] : on[j];
	}
	free(one);
	for (size_t j = 0; !matched && j < sw->segs.len; j++)
		if (sw->segs.items[j].is_default)
			on[j] = MATCH_YES;
	return on;
}

/* Does an if's condition hold on this path: a test on the command, an
 * implied one (which rules a branch out, never in), a local flag still 0,
 * a local holding what the command's code handed back
 * (classify_values.c), a parameter the summary is made for a constant
 * of? */
enum label_match if_holds(const struct classifier *c, const struct function_facts *fn,
			  const struct stmt *s)
{
	int param = command_param(c, fn);
	enum label_match holds = MATCH_MAYBE;

	if (param >= 0 && (s->cond == COND_PARAM_CMP || s->cond == COND_PARAM_RANGE) &&
	    s->cmp_view.param == param && s->segs.len)
		holds = command_holds(c, fn, s);
	/* an implied comparison rules the branch out, never in; so does
	 * each one another operand of its `&&` implies */
	if (param >= 0 && s->cond == COND_PARAM_IMPLIED && s->cmp_view.param == param &&
	    s->segs.len && command_holds(c, fn, s) == MATCH_NO)
		holds = MATCH_NO;
	for (size_t i = 0; s->kind == ST_IF && s->cond == COND_PARAM_IMPLIED &&
	     holds == MATCH_MAYBE && i < s->premises.len; i++)
		if (if_holds(c, fn, s->premises.items[i]) == MATCH_NO)
			holds = MATCH_NO;
	/* none of the values: each test is needed */
	if (s->kind == ST_IF && s->cond == COND_PARAM_NONE_OF)
		holds = premises_hold(c, fn, s);
	if (holds == MATCH_MAYBE && s->flag && flag_surely_zero(c, fn, s->flag))
		holds = s->flag_neg ? MATCH_YES : MATCH_NO;
	if (holds == MATCH_MAYBE && s->test_local)
		holds = local_test_holds(c, fn, s);
	if (holds == MATCH_MAYBE && fn == c->const_fn)
		holds = const_param_holds(c, s);
	if (holds == MATCH_MAYBE && s->cmp_view.param >= 0 && s->cmp_view.param != param)
		holds = bound_param_holds(c, fn, s);
	return holds;
}

/* Do a statement's premises hold: a call's (`cmd != A` in `cmd != A &&
 * !capable(X)`), a none-of test's (COND_PARAM_NONE_OF)? */
enum label_match premises_hold(const struct classifier *c,
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

/* Which segments of a switch on the command its path enters: those with
 * a label that can match it, and the default unless a label surely does
 * (analyse_switch adds the segments they fall into). on[i] is a
 * label_match. */
static void segments_through(const struct command *cmd, const struct stmt *sw,
			     struct param_view on_view, unsigned char *on)
{
	enum label_match best = MATCH_NO;

	for (size_t i = 0; i < sw->segs.len; i++) {
		const struct switch_segment *seg = &sw->segs.items[i];

		on[i] = MATCH_NO;
		for (size_t j = 0; j < seg->labels.len; j++) {
			enum label_match m = command_label_match(cmd, on_view, &seg->labels.items[j]);

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

void segments_on_path(const struct command *cmd, const struct stmt *sw, unsigned char *on)
{
	segments_through(cmd, sw, sw->on, on);
}
