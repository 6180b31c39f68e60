/* Values handed back: when a command's code returns in a function its
 * dispatch called (a helper holding the command's case), the caller goes
 * on after the call for some of the values returned, and what it does
 * then is on the command's path:
 *
 *	ret = check(cmd);
 *	if (ret)
 *		return ret;
 *	dev->armed = 1;
 *
 * A case of check() that returns 0 arms the device; one that returns 1 does
 * not. vt_ioctl's `if (ret != -ENOIOCTLCMD) return ret;` after
 * vt_k_ioctl() goes on only for a command the helper declined.
 *
 * The returns met on the command's path in each link of its chain are
 * noted as they are walked (note_return), each as the values it may hand
 * back: a constant, one of two constants, what a direct call returns
 * (every return of that function, function_values), or what a local
 * holds (every store to it in the function). classify.c then walks each
 * caller after the call with the local that received the value bound to
 * those values: its tests of that local (facts.h test_local) are decided
 * by them (local_test_holds), until the local is stored to again. A value
 * not known makes every test of it possible: the caller's code after the
 * call is then on the path, an over-approximation, never a path left
 * out. */
#include "classify_internal.h"

#include <stdlib.h>
#include <string.h>

void values_add(struct value_set *s, int64_t v)
{
	if (s->unknown)
		return;
	for (int i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return;
	if (s->n == MAX_VALUES)
		s->unknown = 1;
	else
		s->v[s->n++] = v;
}

void values_join(struct value_set *s, const struct value_set *o)
{
	if (o->unknown)
		s->unknown = 1;
	s->nonnegative |= o->nonnegative;
	for (int i = 0; i < o->n; i++)
		values_add(s, o->v[i]);
}

static int test_value(int64_t x, char op, int64_t k)
{
	switch (op) {
	case '=':
		return x == k;
	case '!':
		return x != k;
	case '<':
		return x < k;
	case '>':
		return x > k;
	case 'l':
		return x <= k;
	case 'g':
		return x >= k;
	}
	return -1;
}

/* Does `x op k` hold for every x >= 0 (1), for none (0), or for some
 * (-1)? */
static int test_nonnegative(char op, int64_t k)
{
	switch (op) {
	case '=':
	case 'l':
		return k < 0 ? 0 : -1;
	case '!':
	case '>':
		return k < 0 ? 1 : -1;
	case '<':
		return k <= 0 ? 0 : -1;
	case 'g':
		return k <= 0 ? 1 : -1;
	}
	return -1;
}

/* Does `x op k` hold for every value of s (MATCH_YES), for none
 * (MATCH_NO), or for some? */
enum label_match values_test(const struct value_set *s, char op, int64_t k)
{
	int yes = 0, no = 0;

	if (s->unknown || (!s->n && !s->nonnegative))
		return MATCH_MAYBE;
	if (s->nonnegative) {
		int t = test_nonnegative(op, k);

		if (t < 0)
			return MATCH_MAYBE;
		yes |= t;
		no |= !t;
	}
	for (int i = 0; i < s->n; i++) {
		int t = test_value(s->v[i], op, k);

		if (t < 0)
			return MATCH_MAYBE;
		yes |= t;
		no |= !t;
	}
	return yes && no ? MATCH_MAYBE : yes ? MATCH_YES : MATCH_NO;
}

static void function_values(struct classifier *c, const struct function_facts *fn, int depth,
			    struct value_set *out);

/* What a direct call to name, made from fn, returns: what the
 * knowledge file says of an API, else every return of its definition. */
static void call_values(struct classifier *c, const struct function_facts *fn, const char *name,
			int depth, struct value_set *out)
{
	const struct api_returns *api = knowledge_return_values(c->kn, name);
	const struct function_facts *callee = function_index_find(c->fi, name, fn->unit);

	if (api) {
		out->nonnegative |= api->nonnegative;
		for (size_t i = 0; i < api->values.len; i++)
			values_add(out, api->values.items[i]);
	} else if (!callee || depth >= MAX_VALUE_DEPTH)
		out->unknown = 1;
	else
		function_values(c, callee, depth + 1, out);
}

/* The value a store puts, or a return hands back, when it is a constant,
 * one of two, or what a direct call returns; else not known. */
static void stored_values(struct classifier *c, const struct function_facts *fn,
			  const struct stmt *s, int depth, struct value_set *out)
{
	int is_const = s->kind == ST_RETURN ? s->ret_is_const : s->store_is_const;
	int64_t value = s->kind == ST_RETURN ? s->ret_value : s->store_value;

	if (is_const) {
		values_add(out, value);
	} else if (s->value_either) {
		values_add(out, s->either[0]);
		values_add(out, s->either[1]);
	} else if (s->value_callee) {
		call_values(c, fn, s->value_callee, depth, out);
	} else {
		out->unknown = 1;
	}
}

/* Is s a store to the local named by key? */
static int stores_local(const struct stmt *s, const char *key)
{
	return s->kind == ST_STORE && s->flag && !strcmp(s->flag, key);
}

struct local_search {
	struct classifier *c;
	const struct function_facts *fn;
	const char *key;
	int depth, found;
	struct value_set *out;
};

static int local_store_pred(const struct stmt *s, void *ctx)
{
	struct local_search *q = ctx;

	if (stores_local(s, q->key)) {
		q->found = 1;
		stored_values(q->c, q->fn, s, q->depth, q->out);
	}
	return 0;
}

/* Every value local key of fn is given anywhere in fn (its address is
 * never taken: facts.h). */
static void local_values(struct classifier *c, const struct function_facts *fn, const char *key,
			 int depth, struct value_set *out)
{
	struct local_search q = { c, fn, key, depth, 0, out };

	stmt_any(fn->body, local_store_pred, &q);
	if (!q.found)
		out->unknown = 1;
}

struct return_place {
	const struct stmt *ret;
	const struct stmt *block;	/* the block holding the return */
	size_t index;			/* its statement there */
};

static int return_place_pred(const struct stmt *s, void *ctx)
{
	struct return_place *q = ctx;

	if (s->kind != ST_BLOCK && s->kind != ST_LOOP)
		return 0;
	for (size_t i = 0; i < s->kids.len; i++) {
		const struct stmt *k = s->kids.items[i];

		/* the return, or the block made for it (its value's calls,
		 * then the return) */
		if (k == q->ret || (k->kind == ST_BLOCK && k->kids.len &&
				    k->kids.items[k->kids.len - 1] == q->ret)) {
			q->block = s;
			q->index = i;
			return 1;
		}
	}
	return 0;
}

struct store_search {
	const char *key;
};

static int stores_key_pred(const struct stmt *s, void *ctx)
{
	const struct store_search *q = ctx;

	return stores_local(s, q->key);
}

/* The last store to the local among the first n statements of block b,
 * when they run in order: NULL with *stop set when one of them may store
 * to it otherwise (a branch, a loop) or is jumped to, NULL alone when
 * none stores to it. A plain block (a declaration's) is looked into. */
static const struct stmt *last_store_before(const struct stmt *b, size_t n,
					    const struct store_search *k, int *stop)
{
	for (size_t j = n; j-- > 0 && !*stop;) {
		const struct stmt *s = b->kids.items[j], *found;

		if (s->has_label || s->label) {
			*stop = 1;
		} else if (stores_local(s, k->key)) {
			return s;
		} else if (s->kind == ST_BLOCK) {
			found = last_store_before(s, s->kids.len, k, stop);
			if (found)
				return found;
		} else if (stmt_any(s, stores_key_pred, (void *)k)) {
			*stop = 1;
		}
	}
	return NULL;
}

/* The store to local key that every path to return ret takes last: the
 * nearest one before it in its block, with nothing between that may
 * store to the local or be jumped to (`result = result ? -EFAULT : 0;
 * kfree(rinfo); return result;`). NULL when there is none such. */
static const struct stmt *reaching_store(const struct function_facts *fn, const struct stmt *ret,
					 const char *key)
{
	struct return_place q = { ret, NULL, 0 };
	struct store_search k = { key };

	int stop = 0;

	if (!stmt_any(fn->body, return_place_pred, &q))
		return NULL;
	return last_store_before(q.block, q.index, &k, &stop);
}

static void return_values(struct classifier *c, const struct function_facts *fn,
			  const struct stmt *ret, int depth, struct value_set *out)
{
	const struct stmt *last;

	if (!ret->value_local) {
		stored_values(c, fn, ret, depth, out);
	} else if ((last = reaching_store(fn, ret, ret->value_local))) {
		stored_values(c, fn, last, depth, out);
	} else {
		local_values(c, fn, ret->value_local, depth, out);
	}
}

struct return_search {
	struct classifier *c;
	const struct function_facts *fn;
	int depth, found;
	struct value_set *out;
};

static int return_pred(const struct stmt *s, void *ctx)
{
	struct return_search *q = ctx;

	if (s->kind == ST_RETURN) {
		q->found = 1;
		return_values(q->c, q->fn, s, q->depth, q->out);
	}
	return 0;
}

/* Every value fn may return, on any path (remembered). A function that
 * falls off its end returns nothing known. */
static void function_values(struct classifier *c, const struct function_facts *fn, int depth,
			    struct value_set *out)
{
	unsigned h = (unsigned)(((uintptr_t)fn >> 4) % VALUES_BUCKETS);
	struct values_memo *m;
	struct return_search q = { c, fn, depth, 0, NULL };

	for (m = c->values_memo[h]; m; m = m->next) {
		if (m->fn != fn)
			continue;
		if (m->busy)
			out->unknown = 1;
		else
			values_join(out, &m->values);
		return;
	}
	m = xcalloc(1, sizeof(*m));
	m->fn = fn;
	m->busy = 1;
	m->next = c->values_memo[h];
	c->values_memo[h] = m;
	q.out = &m->values;
	stmt_any(fn->body, return_pred, &q);
	if (!q.found)
		m->values.unknown = 1;
	m->busy = 0;
	/* made under a depth limit: not what a shallower caller would
	 * learn, so not kept unless complete */
	values_join(out, &m->values);
	if (m->values.unknown && depth) {
		struct values_memo **p = &c->values_memo[h];

		while (*p != m)
			p = &(*p)->next;
		*p = m->next;
		free(m);
	}
}

/* A return met on the command's path, in a link of its dispatch chain:
 * what that link hands back to its caller. `return next(...)` hands back
 * what the next link returns, known once that link's walk is done; a
 * local bound to what a call returned hands back those values. */
void note_return(struct classifier *c, const struct function_facts *fn, const struct stmt *ret)
{
	const struct command_site *site = c->site;

	if (!c->cmd || !site || c->depth)
		return;
	for (int d = 0; d < site->chain_len; d++) {
		if (site->chain[d].fn != fn)
			continue;
		if (d + 1 < site->chain_len && ret->value_callee &&
		    !strcmp(ret->value_callee, site->chain[d + 1].fn->name))
			c->returns_next[d] = 1;
		else if (ret->value_local && c->bound_fn == fn && c->bound_key &&
			 !strcmp(ret->value_local, c->bound_key))
			values_join(&c->link_returns[d], &c->bound);
		else
			return_values(c, fn, ret, 0, &c->link_returns[d]);
	}
}

/* A store to the bound local, other than the one that bound it, ends
 * what the binding says. */
void note_local_store(struct classifier *c, const struct function_facts *fn,
		      const struct stmt *s)
{
	if (c->bound_key && c->bound_fn == fn && !c->depth && s != c->bound_store &&
	    stores_local(s, c->bound_key))
		c->bound_key = NULL;
}

/* A loop (or the function, where a backward goto lands) may run its
 * stores to the bound local before its tests: the binding ends there. */
void values_loop(struct classifier *c, const struct function_facts *fn,
		 const struct stmt *loop)
{
	struct store_search q = { c->bound_key };

	if (c->bound_key && c->bound_fn == fn && !c->depth && stmt_any(loop, stores_key_pred, &q))
		c->bound_key = NULL;
}

/* Does the condition of if s, a test of a local (facts.h test_local),
 * hold for the local's values v? A test that is an operand of `&&` can
 * only rule the condition out, one of `||` only in. */
enum label_match values_if(const struct value_set *v, const struct stmt *s)
{
	enum label_match m = values_test(v, s->test_op, s->test_value);

	if (s->test_join == '&' && m == MATCH_YES)
		return MATCH_MAYBE;
	if (s->test_join == '|' && m == MATCH_NO)
		return MATCH_MAYBE;
	return m;
}

/* Does an if's test of a local hold for the values bound to it? */
enum label_match local_test_holds(const struct classifier *c, const struct function_facts *fn,
				  const struct stmt *s)
{
	if (!s->test_local || !c->bound_key || c->bound_fn != fn || c->depth ||
	    strcmp(s->test_local, c->bound_key))
		return MATCH_MAYBE;
	return values_if(&c->bound, s);
}

void values_forget(struct classifier *c)
{
	for (size_t i = 0; i < VALUES_BUCKETS; i++) {
		struct values_memo *m = c->values_memo[i];

		while (m) {
			struct values_memo *n = m->next;

			free(m);
			m = n;
		}
		c->values_memo[i] = NULL;
	}
}

/* Is the bound local's name the argument's spelling ("cmd" of key
 * "cmd@3341")? */
static int names_bound_local(const struct classifier *c, const struct call_arg *a)
{
	const char *at = strchr(c->bound_key, '@');
	size_t n = at ? (size_t)(at - c->bound_key) : strlen(c->bound_key);

	return a->spelling && !a->is_const && strlen(a->spelling) == n &&
	       !strncmp(a->spelling, c->bound_key, n);
}

/*
 * A command translated into another: the command's code returned one
 * known value into a local of a caller (video_usercopy's `cmd =
 * video_translate_cmd(orig_cmd)`, whose compat case returns
 * VIDIOC_G_FBUF for VIDIOC_G_FBUF32), and call s hands that local on
 * where a site of the handler's command of that value makes its next
 * link (`func(file, cmd, parg)`, the link to __video_do_ioctl). From
 * there on the path is that command's: walk_commands adds its effects,
 * and the call is not analysed here (this site cannot resolve func).
 */
int translated_call(struct classifier *c, const struct stmt *s)
{
	const struct handler *h = c->handler;

	if (!h || !c->cmd || !c->bound_key || c->depth || c->bound.unknown || c->bound.nonnegative ||
	    c->bound.n != 1)
		return 0;
	for (size_t i = 0; i < h->commands.len; i++) {
		const struct command *v = &h->commands.items[i];

		if (v == c->cmd || ((uint64_t)c->bound.v[0] & v->mask) != v->value)
			continue;
		for (size_t k = 0; k < v->sites.len; k++) {
			const struct command_site *o = &v->sites.items[k];

			for (int d = 1; d < o->chain_len; d++) {
				int p = o->chain[d].cmd_param;

				if (o->chain[d].call != s || p < 0 || (size_t)p >= s->args.len ||
				    !names_bound_local(c, &s->args.items[p]))
					continue;
				c->translated = v;
				return 1;
			}
		}
	}
	return 0;
}
