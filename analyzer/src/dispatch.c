#include "dispatch.h"

#include <inttypes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMD_BITS 0xffffffffull

/* A conjunction of bit tests on the command: (cmd & mask) == value. */
struct constraint {
	uint64_t mask, value;
};

/* A test on part of the command whose code goes on to what follows it:
 * what follows may tell the commands apart (defer_partial). */
struct deferred {
	const struct case_label *lab;
	const char *file;
	struct constraint c;
	struct command_site site;
	size_t before;		/* commands the handler had found before it */
};

/* A label and the file of the function whose test it is: a command is
 * placed where it was named, which may be a function the walk left for the
 * code the command reaches (blkdev_ioctl's `case BLKRESETZONE:` in
 * block/ioctl.c, then blkdev_zone_mgmt_ioctl's switch in
 * block/blk-zoned.c). */
struct named_label {
	const struct case_label *lab;
	const char *file;
};

struct dispatch_walk {
	struct handler *h;
	const struct function_index *fi;
	const struct knowledge *kn;
	strvec *wanted;
	const struct function_facts *stack[DISPATCH_MAX_DEPTH + 1];
	size_t top_index[DISPATCH_MAX_DEPTH + 1];	/* top-level statement being walked */
	int param[DISPATCH_MAX_DEPTH + 1];	/* the command's parameter there */
	const struct stmt *call[DISPATCH_MAX_DEPTH + 1];	/* the call that led there */
	/* a parameter bound to a constant there (a table entry's flags) */
	int bound_param[DISPATCH_MAX_DEPTH + 1];
	int64_t bound_value[DISPATCH_MAX_DEPTH + 1];
	/* the blocks being walked and the statement in each, innermost
	 * last; those of the function at depth d start at level_base[d] */
	struct site_level levels[DISPATCH_MAX_DEPTH * MAX_SITE_LEVELS];
	int nlevels;
	int level_base[DISPATCH_MAX_DEPTH + 1];
	VEC(struct deferred) deferred;
	/* the labels the walk made for truth tests of the command (`if
	 * (cmd)`), which name command 0; freed with the walk */
	VEC(struct case_label *) zero_labels;
	int depth;
	int default_seen;
	/* the label that fixed every bit of the command on the path walked
	 * (`case MPT3IOCINFO:`): a later test of a part of it (`if
	 * (_IOC_SIZE(cmd) == sizeof(struct mpt3_ioctl_iocinfo))`) narrows
	 * nothing and does not rename it */
	struct named_label named;
	/* past a switch that refuses the values it does not list
	 * (refuses_unlisted()): a command found there is one of its cases,
	 * so a site is added to a command found before, never a new one */
	int sites_only;
};

static int full(struct constraint c)
{
	return (c.mask & CMD_BITS) == CMD_BITS;
}

/* The name for a command that label lab's test (made under constraint
 * before) leads to. */
static const struct case_label *name_for(const struct dispatch_walk *w,
					 const struct case_label *lab, struct constraint before)
{
	return full(before) && w->named.lab ? w->named.lab : lab;
}

/* Names what follows after lab, a test of fn or the label kept from
 * before (name_for). */
static void set_named(struct dispatch_walk *w, const struct case_label *lab,
		      const struct function_facts *fn)
{
	if (lab != w->named.lab)
		w->named.file = fn->file;
	w->named.lab = lab;
}

/* The file label lab is in: the named label's, or fn's. */
static const char *label_file(const struct dispatch_walk *w, const struct case_label *lab,
			      const struct function_facts *fn)
{
	return lab == w->named.lab && w->named.file ? w->named.file : fn->file;
}

static int constrain(struct constraint c, struct param_view v, uint64_t label,
		     struct constraint *out)
{
	uint64_t m = (v.mask << v.shift) & CMD_BITS;
	uint64_t val = ((label & v.mask) << v.shift) & CMD_BITS;

	/* a negative constant against a narrower value (`qid == -1` on an
	 * int): its bits beyond the value's are the sign's */
	if ((label | v.mask) == UINT64_MAX && label >> 63)
		label &= v.mask;
	if (label & ~v.mask)
		return 0;	/* the test can never hold */
	if ((c.value ^ val) & c.mask & m)
		return 0;	/* contradicts an enclosing test */
	out->mask = c.mask | m;
	out->value = c.value | val;
	return 1;
}

int passes_command(const struct param_view *v, int param)
{
	return v->param == param && !v->shift && (v->mask & CMD_BITS) == CMD_BITS;
}

/* One value of a test on the command against the command's bits. */
static enum label_match value_match(const struct command *cmd, struct param_view v, uint64_t label)
{
	struct constraint c = { cmd->mask, cmd->value }, both;

	if (!constrain(c, v, label, &both))
		return MATCH_NO;
	/* the test looks at bits the command's dispatch did not fix */
	return both.mask != c.mask ? MATCH_MAYBE : MATCH_YES;
}

enum label_match command_label_match(const struct command *cmd, struct param_view v,
				     const struct case_label *lab)
{
	enum label_match r = MATCH_NO;

	if (lab->hi - lab->lo >= 256)
		return MATCH_MAYBE;
	/* counted, not `x <= hi`: a label of ~0 (`qid == NVME_QID_ANY`)
	 * would wrap x to 0 and go on up to the command's value */
	for (uint64_t k = 0; k <= lab->hi - lab->lo; k++) {
		enum label_match m = value_match(cmd, v, lab->lo + k);

		if (m == MATCH_YES)
			return MATCH_YES;
		if (m == MATCH_MAYBE)
			r = MATCH_MAYBE;
	}
	return r;
}

static int same_chain(const struct command_site *a, const struct command_site *b)
{
	if (a->chain_len != b->chain_len)
		return 0;
	for (int d = 0; d < a->chain_len; d++)
		if (a->chain[d].call != b->chain[d].call)
			return 0;
	return 1;
}

/* Where the walk is: the site of a command found here. */
static struct command_site site_here(const struct dispatch_walk *w, const struct function_facts *fn,
				     const struct stmt *body, const struct stmt *sw, size_t seg,
				     const char *table)
{
	struct command_site site = { .fn = fn, .body = body, .dispatch = sw, .segment = seg,
				     .is_call = table != NULL, .table = table };

	/* the function's own body is level_base: its prologue is the chain's */
	for (int l = w->level_base[w->depth] + 1; l < w->nlevels && site.naround < MAX_SITE_LEVELS; l++)
		site.around[site.naround++] = w->levels[l];

	for (int d = 0; d <= w->depth && d < MAX_CHAIN; d++) {
		site.chain[d].fn = w->stack[d];
		site.chain[d].prologue_len = w->top_index[d];
		site.chain[d].cmd_param = w->param[d];
		site.chain[d].call = w->call[d];
		site.chain[d].has_const = w->bound_param[d] >= 0;
		site.chain[d].const_param = w->bound_param[d];
		site.chain[d].const_value = w->bound_value[d];
		site.chain_len = d + 1;
	}
	return site;
}

static int add_command(struct dispatch_walk *w, const struct case_label *lab, const char *file,
		       struct constraint c, const struct command_site *site)
{
	struct command cmd = {0};

	for (size_t i = 0; i < w->h->commands.len; i++) {
		struct command *o = &w->h->commands.items[i];

		if (o->value == c.value && o->mask == c.mask) {
			/* a name the tree writes over an array element's
			 * (walk_indexed): ix2_compat_ioctls[0x2] is IX_PEEK */
			if (strchr(o->name, '[') && !strchr(lab->name, '[') && !w->sites_only) {
				free(o->name);
				free(o->file);
				o->name = xstrdup(lab->name);
				o->file = xstrdup(file);
				o->line = lab->line;
			}
			/* the same code through another chain of calls is
			 * another site: one chain's tests on the command may
			 * keep it off that path (sock_ioctl's SIOCDEVPRIVATE
			 * range) while the other's do not */
			for (size_t k = 0; k < o->sites.len; k++)
				if (o->sites.items[k].body == site->body &&
				    same_chain(&o->sites.items[k], site))
					return 1;
			vec_push(&o->sites, *site);
			return 1;
		}
	}
	if (w->sites_only)
		return 0;
	cmd.name = xstrdup(lab->name);
	cmd.value = c.value;
	cmd.mask = c.mask;
	cmd.file = xstrdup(file);
	cmd.line = lab->line;
	vec_push(&cmd.sites, *site);
	vec_push(&w->h->commands, cmd);
	return 1;
}

static int emit_site(struct dispatch_walk *w, const struct case_label *lab, const char *file,
		     struct constraint c, const struct function_facts *fn,
		     const struct stmt *body, const struct stmt *sw, size_t seg,
		     const char *table)
{
	struct command_site site = site_here(w, fn, body, sw, seg, table);

	return add_command(w, lab, file, c, &site);
}

/* Does a block's code end by leaving (return, goto), so that nothing after
 * the test holding it runs for the command? */
/* The last statement a block ends with, through trailing nested blocks;
 * NULL for an empty one. */
static const struct stmt *last_stmt(const struct stmt *b)
{
	while (b && b->kind == ST_BLOCK)
		b = b->kids.len ? b->kids.items[b->kids.len - 1] : NULL;
	return b;
}

static int leaves(const struct stmt *b)
{
	const struct stmt *last = last_stmt(b);

	return last && (last->kind == ST_RETURN || last->kind == ST_GOTO);
}

static int ends_in_break(const struct stmt *b)
{
	const struct stmt *last = last_stmt(b);

	return last && last->kind == ST_BREAK;
}

/* A test of part of the command whose code goes on to what follows
 * (dvb_usercopy's `switch (_IOC_DIR(cmd))`, choosing how to copy the
 * argument; v4l_printk_ioctl's `switch (_IOC_TYPE(cmd))`, printing it)
 * names no command when the block holding the test dispatches commands
 * before it or after it, or when it selects commands found before it: it
 * is put off to the end of that block (walk_block) to see. */
static int defer_partial(struct dispatch_walk *w, const struct case_label *lab, struct constraint c,
			 const struct function_facts *fn, const struct stmt *body,
			 const struct stmt *sw, size_t seg)
{
	struct deferred d = { lab, label_file(w, lab, fn), c, site_here(w, fn, body, sw, seg, NULL),
			      w->h->commands.len };

	vec_push(&w->deferred, d);
	return 1;
}

static int emit(struct dispatch_walk *w, const struct case_label *lab, struct constraint c,
		const struct function_facts *fn, const struct stmt *body,
		const struct stmt *sw, size_t seg)
{
	return emit_site(w, lab, label_file(w, lab, fn), c, fn, body, sw, seg, NULL);
}

static int walk_block(struct dispatch_walk *w, const struct function_facts *fn,
		      const struct stmt *b, int param, struct constraint c);

/* The function a call through a parameter reaches, when the call that led
 * here passes one there: gpiolib-cdev's call_ioctl_locked(file, cmd, arg,
 * gdev, linehandle_ioctl_unlocked) calls `func(file, cmd, arg)`. */
static const char *bound_callee(const struct dispatch_walk *w, const struct stmt *call)
{
	const struct stmt *in = w->call[w->depth];

	if (call->callee)
		return call->callee;
	if (call->callee_param < 0 || !w->depth || !in ||
	    (size_t)call->callee_param >= in->args.len)
		return NULL;
	return in->args.items[call->callee_param].function;
}

static int follow_call(struct dispatch_walk *w, const struct function_facts *fn,
		       const struct stmt *call, int param, struct constraint c)
{
	const char *name = bound_callee(w, call);
	/* a function handed in is named in the caller's file */
	const char *unit = call->callee || !name ? fn->unit : w->stack[w->depth - 1]->unit;
	int n = 0;

	for (size_t i = 0; i < call->args.len; i++) {
		const struct param_view *v = &call->args.items[i].view;
		const struct function_facts *callee;

		if (!passes_command(v, param))
			continue;
		if (!name) {
			char *s = xasprintf("indirect: %s", call->callee_text);

			if (!strvec_contains(&w->h->forwards_to, s))
				vec_push(&w->h->forwards_to, s);
			else
				free(s);
			continue;
		}
		callee = function_index_find(w->fi, name, unit);
		if (!callee) {
			if (!strvec_contains(w->wanted, name))
				strvec_push(w->wanted, name);
			if (!strvec_contains(&w->h->unresolved, name))
				strvec_push(&w->h->unresolved, name);
			continue;
		}
		if (w->depth >= DISPATCH_MAX_DEPTH)
			continue;
		{
			int cycle = 0;

			for (int d = 0; d <= w->depth; d++)
				cycle |= w->stack[d] == callee;
			if (cycle)
				continue;
		}
		w->stack[++w->depth] = callee;
		w->param[w->depth] = (int)i;
		w->call[w->depth] = call;
		w->bound_param[w->depth] = -1;
		w->level_base[w->depth] = w->nlevels;
		n += walk_block(w, callee, callee->body, (int)i, c);
		w->depth--;
	}
	return n;
}

/* What the returns in b give, wherever they are (RETURNS_ERROR: a
 * negative constant, RETURNS_OTHER: anything else), or 0 when none. */
enum { RETURNS_ERROR = 1, RETURNS_OTHER = 2 };

static int returns_in(const struct stmt *b)
{
	int r = 0;

	if (!b)
		return 0;
	if (b->kind == ST_RETURN)
		r |= b->ret_is_const && b->ret_value < 0 ? RETURNS_ERROR : RETURNS_OTHER;
	for (size_t i = 0; i < b->kids.len; i++)
		r |= returns_in(b->kids.items[i]);
	for (size_t i = 0; i < b->segs.len; i++)
		r |= returns_in(b->segs.items[i].body);
	return r | returns_in(b->then_s) | returns_in(b->else_s);
}

static void note_default(struct dispatch_walk *w, const struct switch_segment *seg, int n,
			 size_t forwards_before)
{
	if (w->default_seen)
		return;
	w->default_seen = 1;
	free(w->h->default_action);
	if (n || w->h->forwards_to.len > forwards_before)
		w->h->default_action = xstrdup("forward");
	else if (returns_in(seg->body) & RETURNS_ERROR)
		w->h->default_action = xstrdup("error");
	else
		w->h->default_action = xstrdup("other");
}

/* Does a switch on the command refuse every value it does not list: a
 * default that returns (ext4_compat_ioctl's `default: return
 * -ENOIOCTLCMD;`)? Then what follows the switch runs only for the cases
 * that break out of it, which the switch has found, with what follows as
 * their code (a case that renames the command, `cmd = EXT4_IOC_GETVERSION;
 * break;`, included): a dispatch after it (a call passing the command on,
 * hci_sock_ioctl's second switch) adds sites to those cases and finds no
 * other command. */
static int refuses_unlisted(const struct stmt *sw, int param)
{
	if (sw->on.param != param)
		return 0;
	for (size_t i = 0; i < sw->segs.len; i++) {
		const struct stmt *last = last_stmt(sw->segs.items[i].body);

		if (sw->segs.items[i].is_default)
			return last && last->kind == ST_RETURN;
	}
	return 0;
}

/* Does the segment's code end by leaving the switch (`break;`)? */
static int leaves_switch(const struct stmt *sw, size_t i)
{
	const struct stmt *b = sw->segs.items[i].body;

	if (b && b->kids.len && b->kids.items[b->kids.len - 1]->kind == ST_BREAK)
		return 1;
	return sw->segs.items[i].falls_through && i + 1 == sw->segs.len;
}

/* A switch's default: what it finds, and what it does with the values
 * no case names (note_default). */
static int walk_default(struct dispatch_walk *w, const struct function_facts *fn,
			const struct switch_segment *seg, int param, struct constraint c)
{
	size_t before = w->h->forwards_to.len;
	int k = walk_block(w, fn, seg->body, param, c);

	note_default(w, seg, k, before);
	return k;
}

/* A case of a switch on a translated command (walk_translated): the
 * command is every index whose element is the label's value. */
static int walk_translated_case(struct dispatch_walk *w, const struct function_facts *fn,
				const struct stmt *s, size_t i, const struct case_label *lab,
				const struct table_init *a, int param, struct constraint c)
{
	int n = 0;

	for (size_t j = 0; j < a->entries.len; j++) {
		const struct table_entry *e = &a->entries.items[j];
		const struct named_label named = w->named;
		struct constraint cc;
		int k;

		if (!e->has_flags || (uint64_t)e->flags < lab->lo || (uint64_t)e->flags > lab->hi ||
		    !constrain(c, s->callee_index, e->value - (uint64_t)s->callee_index_offset, &cc))
			continue;
		set_named(w, name_for(w, lab, c), fn);
		k = walk_block(w, fn, s->segs.items[i].body, param, cc);
		if (!k)
			k = emit(w, w->named.lab, cc, fn, s->segs.items[i].body, s, i);
		w->named = named;
		n += k;
	}
	return n;
}

/* A switch on an element of an array of command values that a field of
 * the command indexes (dma_heap_ioctl's `kcmd =
 * dma_heap_ioctl_cmds[_IOC_NR(ucmd)]; switch (kcmd)`, which lets the
 * argument's size differ from the value's): each case serves the
 * commands whose field is an index of its value, named by the case;
 * a, the array (translation_of). A switch translated by searching an
 * array of records (facts.h, callee_array_field: do_atm_ioctl's
 * atm_ioctl_map[]) is not a source of commands yet: the facts do not
 * name the value searched for (ATM_SETESI32), only the case's (the
 * native ATM_SETESI, another command), and a callee handed the local
 * (do_atmif_sioc(sock, cmd, arg)) is not walked for the value it holds.
 * The walk of a command through one (classify_path.c) is decided. */
static const struct table_init *translation_of(const struct dispatch_walk *w,
					       const struct function_facts *fn,
					       const struct stmt *s, int param)
{
	if (!s->callee_array || s->callee_array_field || s->callee_index.param != param)
		return NULL;
	return function_index_find_fn_array(w->fi, s->callee_array, NULL, fn->unit);
}

static int walk_translated(struct dispatch_walk *w, const struct function_facts *fn,
			   const struct stmt *s, const struct table_init *a, int param,
			   struct constraint c)
{
	int n = 0;

	for (size_t i = 0; i < s->segs.len; i++) {
		const struct switch_segment *seg = &s->segs.items[i];

		if (seg->is_default)
			n += walk_default(w, fn, seg, param, c);
		for (size_t j = 0; j < seg->labels.len; j++)
			n += walk_translated_case(w, fn, s, i, &seg->labels.items[j], a, param, c);
	}
	return n;
}

static int walk_switch(struct dispatch_walk *w, const struct function_facts *fn,
		       const struct stmt *s, int param, struct constraint c)
{
	int n = 0;

	if (s->on.param != param) {
		const struct table_init *a = translation_of(w, fn, s, param);

		if (a)
			return walk_translated(w, fn, s, a, param, c);
		for (size_t i = 0; i < s->segs.len; i++)
			n += walk_block(w, fn, s->segs.items[i].body, param, c);
		return n;
	}
	for (size_t i = 0; i < s->segs.len; i++) {
		const struct switch_segment *seg = &s->segs.items[i];

		if (seg->is_default)
			n += walk_default(w, fn, seg, param, c);
		for (size_t j = 0; j < seg->labels.len; j++) {
			const struct case_label *lab = &seg->labels.items[j];

			for (uint64_t v = lab->lo; v <= lab->hi && v - lab->lo < 256; v++) {
				struct constraint cc;
				int k;

				const struct named_label named = w->named;

				if (!constrain(c, s->on, v, &cc))
					continue;
				set_named(w, name_for(w, lab, c), fn);
				k = walk_block(w, fn, seg->body, param, cc);
				if (!k && !full(cc) && leaves_switch(s, i))
					k = defer_partial(w, w->named.lab, cc, fn, seg->body, s, i) - 1;
				else if (!k)
					k = emit(w, w->named.lab, cc, fn, seg->body, s, i);
				w->named = named;
				n += k;
			}
		}
	}
	return n;
}

/* The values an if compares the command with (facts.h: the labels of its
 * one segment). */
struct values {
	const struct case_label *items;
	size_t len;
};

static struct values if_values(const struct stmt *s)
{
	struct values v = { NULL, 0 };

	if (s->segs.len)
		v = (struct values){ s->segs.items[0].labels.items, s->segs.items[0].labels.len };
	return v;
}

/* Is s a test that the command is none of some values, each through a
 * view of its own (`_IOC_TYPE(cmd) != MEGAIOC_MAGIC && cmd !=
 * USCSICMD`)? */
static int none_of(const struct stmt *s, int param)
{
	if (s->cond != COND_PARAM_NONE_OF || !s->premises.len)
		return 0;
	for (size_t i = 0; i < s->premises.len; i++) {
		const struct stmt *p = s->premises.items[i];

		if (p->cmp_view.param != param || !p->segs.len || p->segs.items[0].labels.len != 1)
			return 0;
	}
	return 1;
}

/* The commands a none-of test lets through, each value under its view,
 * their code body: an else branch (walked for each), or (guard) the
 * block the test leaves early from. */
static int emit_none_of(struct dispatch_walk *w, const struct function_facts *fn,
			const struct stmt *s, const struct stmt *body, int param,
			struct constraint c, int walk)
{
	int n = 0;

	for (size_t i = 0; i < s->premises.len; i++) {
		const struct stmt *p = s->premises.items[i];
		const struct case_label *lab = &p->segs.items[0].labels.items[0];
		const struct named_label named = w->named;
		struct constraint cc;
		int k = 0;

		if (!constrain(c, p->cmp_view, lab->lo, &cc))
			continue;
		set_named(w, name_for(w, lab, c), fn);
		if (walk)
			k = walk_block(w, fn, body, param, cc);
		if (!k)
			k = emit(w, w->named.lab, cc, fn, body, NULL, 0);
		w->named = named;
		n += k;
	}
	return n;
}

/* `if (none of the values) ...; else <their code>`; or `if (none of them)
 * return -EINVAL;`, whose block walk_block ends with the commands
 * (emit_none_of) when what follows the test dispatched none. */
static int walk_none_of(struct dispatch_walk *w, const struct function_facts *fn,
			const struct stmt *s, int param, struct constraint c)
{
	int n = walk_block(w, fn, s->then_s, param, c);

	if (s->else_s && s->else_s->kids.len)
		n += emit_none_of(w, fn, s, s->else_s, param, c, 1);
	return n;
}

/* A none-of test whose branch leaves, with no else: what follows in its
 * block is the values' code. */
static int none_of_guard(const struct stmt *s, int param)
{
	return s->kind == ST_IF && none_of(s, param) && leaves(s->then_s) &&
	       !(s->else_s && s->else_s->kids.len);
}

static int walk_if(struct dispatch_walk *w, const struct function_facts *fn,
		   const struct stmt *s, int param, struct constraint *c, int *rest_constrained,
		   const struct case_label **rest_label)
{
	int n = 0;

	for (size_t i = 0; i < s->kids.len; i++)
		if (s->kids.items[i]->kind == ST_CALL)
			n += follow_call(w, fn, s->kids.items[i], param, *c);
	/* `if (cmd) return -ENOIOCTLCMD;` (tracing_buffers_ioctl): a truth
	 * test is cmd != 0, and what follows serves command 0 */
	int truth = s->cond == COND_PARAM_TRUTH && !s->cmp_eq && s->cmp_view.param == param;
	struct case_label *zero = NULL;

	if (truth) {
		zero = xcalloc(1, sizeof(*zero));
		zero->name = xstrdup("0");
		zero->line = s->line;
		vec_push(&w->zero_labels, zero);
	}
	if (none_of(s, param))
		return n + walk_none_of(w, fn, s, param, *c);
	if (!truth && (s->cond != COND_PARAM_CMP || s->cmp_view.param != param || !s->segs.len)) {
		n += walk_block(w, fn, s->then_s, param, *c);
		n += walk_block(w, fn, s->else_s, param, *c);
		return n;
	}
	const struct values labs_of_truth = { zero, 1 }, if_labs = if_values(s),
		*labs = truth ? &labs_of_truth : &if_labs;

	if (s->cmp_eq) {
		for (size_t j = 0; j < labs->len; j++) {
			struct constraint cc;
			int k;

			const struct named_label named = w->named;

			if (!constrain(*c, s->cmp_view, labs->items[j].lo, &cc))
				continue;
			set_named(w, name_for(w, &labs->items[j], *c), fn);
			k = walk_block(w, fn, s->then_s, param, cc);
			if (!k && !full(cc) && !leaves(s->then_s))
				k = defer_partial(w, w->named.lab, cc, fn, s->then_s, NULL, 0) - 1;
			else if (!k)
				k = emit(w, w->named.lab, cc, fn, s->then_s, NULL, 0);
			w->named = named;
			n += k;
		}
		n += walk_block(w, fn, s->else_s, param, *c);
		return n;
	}
	/* cmd != K: the then-branch sees other commands */
	n += walk_block(w, fn, s->then_s, param, *c);
	if (labs->len == 1) {
		struct constraint cc;

		if (!constrain(*c, s->cmp_view, labs->items[0].lo, &cc))
			return n;
		const struct case_label *lab = name_for(w, &labs->items[0], *c);

		if (s->else_s && s->else_s->kids.len) {
			const struct named_label named = w->named;
			int k;

			set_named(w, lab, fn);
			k = walk_block(w, fn, s->else_s, param, cc);
			if (!k)
				k = emit(w, lab, cc, fn, s->else_s, NULL, 0);
			w->named = named;
			n += k;
		} else if (leaves(s->then_s) || ends_in_break(s->then_s)) {
			/* `if (cmd != K) return -E;`: what follows is K's */
			*c = cc;
			*rest_constrained = 1;
			*rest_label = lab;
		} else if (!full(cc)) {
			/* `if (_IOC_DIR(cmd) != _IOC_NONE) { copy in }`: what
			 * follows is every command's, K's too */
			defer_partial(w, lab, cc, fn, s->else_s, NULL, 0);
		} else {
			/* aoeblk's `if (cmd != SG_IO) pr_info(...);` */
			n += emit(w, lab, cc, fn, s->else_s, NULL, 0);
		}
	} else {
		for (size_t j = 0; j < labs->len; j++) {
			struct constraint cc;

			if (constrain(*c, s->cmp_view, labs->items[j].lo, &cc))
				n += emit(w, name_for(w, &labs->items[j], *c), cc, fn, s->else_s,
					  NULL, 0);
		}
	}
	return n;
}

/* Where a dispatcher calls a table entry's function: a call through the
 * entry's function member (seq's `handler->func(client, &buf)`), or a call
 * handed it (drm_ioctl_kernel(filp, func, kdata, ioctl->flags), whose
 * `func(dev, kdata, file_priv)` calls it) with the entry's flags maybe
 * handed on too. */
struct entry_call {
	const struct stmt *outer;	/* in the dispatcher: the call made */
	const struct function_facts *via;	/* NULL, or the function it calls */
	const struct stmt *inner;	/* in via: the call through its parameter */
	int flags_param;		/* via's parameter given the entry's flags, or -1 */
};

struct entry_call_search {
	const struct function_index *fi;
	const struct function_facts *fn;
	const struct table_kind *tk;
	const char *sname;
	struct entry_call *found;
};

static int arg_reads(const struct call_arg *a, const char *sname, const char *field)
{
	return field && a->read_struct && !strcmp(a->read_struct, sname) &&
	       !strcmp(a->read_field, field);
}

struct param_call {
	int param;
	const struct stmt *found;
};

/* The first call through parameter param. */
static int param_call_pred(const struct stmt *s, void *ctx)
{
	struct param_call *p = ctx;

	if (s->kind != ST_CALL || s->callee || s->callee_param != p->param)
		return 0;
	p->found = s;
	return 1;
}

/* A call through the entry's function member. */
static int member_call_pred(const struct stmt *s, void *ctx)
{
	struct entry_call_search *q = ctx;

	if (s->kind != ST_CALL || s->callee || !s->callee_struct ||
	    strcmp(s->callee_struct, q->sname) || strcmp(s->callee_field, q->tk->function))
		return 0;
	q->found->outer = s;
	return 1;
}

static int entry_call_pred(const struct stmt *s, void *ctx)
{
	struct entry_call_search *q = ctx;
	struct entry_call *e = q->found;

	if (e->outer || s->kind != ST_CALL)
		return 0;
	if (member_call_pred(s, ctx))
		return 1;
	if (!s->callee)
		return 0;
	/* a callee handed the entry itself, which calls its function
	 * (hl_ioctl's _hl_ioctl(filep, cmd, arg, ioctl, dev)) */
	{
		const struct function_facts *via = function_index_find(q->fi, s->callee, q->fn->unit);
		struct entry_call inner = {0};
		struct entry_call_search q2 = { q->fi, via, q->tk, q->sname, &inner };

		if (via && via->body && via != q->fn && stmt_any(via->body, member_call_pred, &q2)) {
			e->outer = s;
			e->via = via;
			e->inner = inner.outer;
			e->flags_param = -1;
			return 1;
		}
	}
	for (size_t j = 0; j < s->args.len; j++) {
		const struct function_facts *via;
		struct param_call f = { (int)j, NULL };

		if (!arg_reads(&s->args.items[j], q->sname, q->tk->function))
			continue;
		via = function_index_find(q->fi, s->callee, q->fn->unit);
		if (!via || !via->body || !stmt_any(via->body, param_call_pred, &f))
			continue;
		e->outer = s;
		e->via = via;
		e->inner = f.found;
		e->flags_param = -1;
		for (size_t k = 0; k < s->args.len; k++)
			if (arg_reads(&s->args.items[k], q->sname, q->tk->flags))
				e->flags_param = (int)k;
		return 1;
	}
	return 0;
}

/* The index of fn's top-level statement holding s. */
static size_t top_holding(const struct function_facts *fn, const struct stmt *s)
{
	for (size_t i = 0; i < fn->body->kids.len; i++)
		if (stmt_contains(fn->body->kids.items[i], s))
			return i;
	return 0;
}

/* The function an entry or element names, parsed with its body; NULL
 * (and the name wanted for the next round) when no parsed file defines
 * it yet. */
static const struct function_facts *entry_function(struct dispatch_walk *w, const char *name,
						   const char *unit)
{
	const struct function_facts *f = function_index_find(w->fi, name, unit);

	if (f && f->body)
		return f;
	if (!strvec_contains(w->wanted, name))
		strvec_push(w->wanted, name);
	return NULL;
}

/* The command an entry's function serves (a table entry's, an array
 * element's), called by `call`: the function as the chain's last link,
 * then back to where the walk was. */
static int emit_entry(struct dispatch_walk *w, const struct case_label *lab, const char *file,
		      struct constraint c, const struct function_facts *entry,
		      const struct stmt *call, const char *table)
{
	int d0 = w->depth, n;

	w->stack[++w->depth] = entry;
	w->param[w->depth] = -1;
	w->call[w->depth] = call;
	w->bound_param[w->depth] = -1;
	w->top_index[w->depth] = 0;
	w->level_base[w->depth] = w->nlevels;
	n = emit_site(w, lab, file, c, entry, entry->body, NULL, 0, table);
	w->depth = d0;
	return n;
}

/* A function reads a table of command descriptors: each entry whose
 * command the constraint allows is a command, its code the entry's
 * function, reached through the dispatcher's call of it (entry_call). A
 * table handler (drm_driver.ioctls) walks its own table alone; any other
 * handler the static tables its dispatcher reads. */
static int walk_table(struct dispatch_walk *w, const struct function_facts *fn,
		      const struct stmt *s, int param, struct constraint c)
{
	const struct table_init *t;
	const struct table_kind *tk;
	struct entry_call ec = {0};
	struct entry_call_search q;
	int n = 0, d0 = w->depth;
	size_t top = w->top_index[d0];

	if (s->target) {
		t = w->h->table ? NULL : function_index_find_table(w->fi, s->target, fn->unit);
	} else {
		char *what = xasprintf("table %s.%s", s->callee_struct, s->callee_field);

		t = w->h->table;
		if (!t && !strvec_contains(&w->h->forwards_to, what))
			strvec_push(&w->h->forwards_to, what);
		free(what);
	}
	tk = t ? knowledge_table(w->kn, t->struct_name) : NULL;
	if (!tk || w->depth + 2 > DISPATCH_MAX_DEPTH)
		return 0;
	q = (struct entry_call_search){ w->fi, fn, tk, t->struct_name, &ec };
	if (!stmt_any(fn->body, entry_call_pred, &q) || !ec.outer)
		return 0;
	for (size_t i = 0; i < t->entries.len; i++) {
		const struct table_entry *e = &t->entries.items[i];
		struct param_view v = { param, 0, tk->select };
		struct case_label lab = { e->value, e->value, e->command, e->line };
		const struct function_facts *entry;
		struct constraint cc;

		if (!constrain(c, v, e->value & tk->select, &cc))
			continue;
		entry = entry_function(w, e->function, t->unit);
		if (!entry)
			continue;
		w->top_index[d0] = top_holding(fn, ec.outer);
		if (ec.via) {
			w->stack[++w->depth] = ec.via;
			w->param[w->depth] = -1;
			w->call[w->depth] = ec.outer;
			w->bound_param[w->depth] = ec.flags_param >= 0 && e->has_flags ? ec.flags_param : -1;
			w->bound_value[w->depth] = e->flags;
			w->top_index[w->depth] = top_holding(ec.via, ec.inner);
			w->level_base[w->depth] = w->nlevels;
		}
		n += emit_entry(w, &lab, t->file, cc, entry, ec.via ? ec.inner : ec.outer, t->var);
		w->depth = d0;
	}
	w->top_index[d0] = top;
	return n;
}

/* A call through an element of a static array of functions that a field
 * of the command picks (firewire's `ioctl_handlers[_IOC_NR(cmd)](client,
 * buffer)`, whose entries name no command): each element naming a
 * function serves the commands whose field is its index, under what the
 * tests before the call fixed (the type). The command is named for the
 * element, ARRAY[INDEX], at the element's line; its path goes through the
 * element to its function. */
static int walk_indexed(struct dispatch_walk *w, const struct function_facts *fn,
			const struct stmt *call, int param, struct constraint c)
{
	const struct table_init *a;
	int n = 0, d0 = w->depth;
	size_t top = w->top_index[d0];

	if (!call->callee_array || call->callee_array_field || call->callee_index.param != param ||
	    w->depth + 1 > DISPATCH_MAX_DEPTH)
		return 0;
	a = function_index_find_fn_array(w->fi, call->callee_array, NULL, fn->unit);
	if (!a)
		return 0;
	for (size_t i = 0; i < a->entries.len; i++) {
		const struct table_entry *e = &a->entries.items[i];
		const struct function_facts *entry;
		struct constraint cc;
		struct case_label lab;
		char name[128];

		if (!e->function ||
		    !constrain(c, call->callee_index, e->value - (uint64_t)call->callee_index_offset, &cc))
			continue;
		entry = entry_function(w, e->function, a->unit);
		if (!entry)
			continue;
		snprintf(name, sizeof(name), "%s[%#" PRIx64 "]", a->var, e->value);
		lab = (struct case_label){ e->value, e->value, name, e->line };
		w->top_index[d0] = top_holding(fn, call);
		n += emit_entry(w, &lab, a->file, cc, entry, call, a->var);
	}
	w->top_index[d0] = top;
	return n;
}

static int walk_block(struct dispatch_walk *w, const struct function_facts *fn,
		      const struct stmt *b, int param, struct constraint c)
{
	int n = 0, rest_constrained = 0;
	const struct case_label *rest_label = NULL;
	size_t rest_from = 0;
	int n_before_rest = 0;
	const struct named_label named = w->named;
	/* past the deepest level kept, the walk goes on with no level of
	 * its own: the sites inside keep the levels around it */
	int level = w->nlevels < (int)(sizeof(w->levels) / sizeof(w->levels[0])) ? w->nlevels : -1;
	/* partial tests of this block's statements (defer_partial), and
	 * whether the block dispatched commands around them */
	size_t deferred_from = w->deferred.len;
	int around = 0, marked = 0, n_after = 0, sites_only = w->sites_only;
	/* the first none-of test that leaves early (none_of_guard) */
	const struct stmt *guard = NULL;
	struct constraint guard_c = c;
	int n_after_guard = 0;

	if (!b)
		return 0;
	if (level >= 0)
		w->levels[w->nlevels++].block = b;
	for (size_t i = 0; i < b->kids.len; i++) {
		const struct stmt *s = b->kids.items[i];
		size_t deferred_before = w->deferred.len;
		int n_before = n;

		if (b == fn->body)
			w->top_index[w->depth] = i;
		if (level >= 0)
			w->levels[level].index = i;
		switch (s->kind) {
		case ST_SWITCH:
			n += walk_switch(w, fn, s, param, c);
			w->sites_only |= refuses_unlisted(s, param);
			break;
		case ST_IF: {
			int was = rest_constrained;

			n += walk_if(w, fn, s, param, &c, &rest_constrained, &rest_label);
			if (!guard && none_of_guard(s, param)) {
				guard = s;
				guard_c = c;
				n_after_guard = n;
			}
			if (rest_constrained && !was) {
				rest_from = i + 1;
				n_before_rest = n;
				/* what follows is that command's */
				set_named(w, rest_label, fn);
			}
			break;
		}
		case ST_LOOP:
		case ST_BLOCK:
			n += walk_block(w, fn, s, param, c);
			break;
		case ST_CALL:
			n += follow_call(w, fn, s, param, c);
			n += walk_indexed(w, fn, s, param, c);
			break;
		case ST_TABLE:
			n += walk_table(w, fn, s, param, c);
			break;
		default:
			break;
		}
		if (w->deferred.len > deferred_before && !marked) {
			/* the first statement with a partial test */
			marked = 1;
			around |= n_before > 0;
			n_after = n;
		}
	}
	/* partial tests are commands when the block dispatched none before
	 * or after them (its other cases do not count) */
	around |= marked && n > n_after;
	for (size_t k = deferred_from; k < w->deferred.len && !around; k++) {
		const struct deferred *d = &w->deferred.items[k];
		int told = 0;

		/* nor selects commands found before it (v4l_printk_ioctl's
		 * switch on _IOC_DIR, printing a command the table served) */
		for (size_t j = 0; j < d->before && !told; j++)
			told = (w->h->commands.items[j].value & d->c.mask) == d->c.value;
		if (!told)
			n += add_command(w, d->lab, d->file, d->c, &d->site);
	}
	w->deferred.len = deferred_from;
	/* what holds the block is what follows its sites */
	if (level >= 0)
		w->nlevels--;
	/* `if (cmd != K) return ...; <K's code>`: a full test names a
	 * command, whatever a switch after the test refuses (cxgb3's
	 * `if (cmd != SIOCCHIOCTL) return ...;`, then a switch on a
	 * subcommand it reads into cmd) */
	w->sites_only = sites_only;
	if (rest_constrained && n == n_before_rest && full(c) && rest_from <= b->kids.len)
		n += emit(w, rest_label, c, fn, b, NULL, 0);
	else if (guard && n == n_after_guard)
		n += emit_none_of(w, fn, guard, b, param, guard_c, 0);
	w->named = named;
	return n;
}

/* A handler that never reads its command (hsmp_ioctl, whose one command
 * is never tested; snd_wavefront_fx_ioctl, which switches on a field of
 * its argument) does the same for every command: one command `*` under
 * mask 0, its code the whole function. Not for one whose every return is
 * an error (sock_no_ioctl's `return -EOPNOTSUPP;`): it serves no
 * command. */
static void every_command(struct dispatch_walk *w)
{
	const struct function_facts *fn = w->h->fn;
	int p = w->h->cmd_param;
	struct case_label every = { .name = "*", .line = fn->line };
	struct command_site site = { .fn = fn, .body = fn->body, .is_call = 1, .chain_len = 1 };

	if (w->h->commands.len || p < 0 || p >= 32 || (fn->params_read & (1u << p)) ||
	    returns_in(fn->body) == RETURNS_ERROR)
		return;
	site.chain[0].fn = fn;
	site.chain[0].cmd_param = p;
	add_command(w, &every, fn->file, (struct constraint){ 0, 0 }, &site);
}

void dispatch_commands(struct handler *h, const struct function_index *fi,
		       const struct knowledge *kn, strvec *wanted)
{
	struct dispatch_walk w = { .h = h, .fi = fi, .kn = kn, .wanted = wanted };
	struct constraint c = { 0, 0 };

	if (!h->fn)
		return;
	w.stack[0] = h->fn;
	w.param[0] = h->cmd_param;
	w.level_base[0] = 0;
	w.bound_param[0] = -1;
	walk_block(&w, h->fn, h->fn->body, h->cmd_param, c);
	every_command(&w);
	vec_free(&w.deferred);
	for (size_t i = 0; i < w.zero_labels.len; i++) {
		free(w.zero_labels.items[i]->name);
		free(w.zero_labels.items[i]);
	}
	vec_free(&w.zero_labels);
	if (!h->default_action)
		h->default_action = xstrdup("none");
}
