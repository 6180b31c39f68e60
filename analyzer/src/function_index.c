#include "function_index.h"

#include <stdlib.h>
#include <string.h>

#define BUCKETS 65536

struct entry {
	const struct function_facts *fn;
	unsigned hash;		/* of the name: most of a bucket's names differ */
	struct entry *next;
};

struct member_entry {
	const struct member_init *m;
	struct member_entry *next;
};

struct table_ref {
	const struct table_init *table;		/* a static table */
	/* or a function reading a member holding one: "struct.field" */
	char *member;
	const struct function_facts *fn;
};

/* What the initialisers of one member install, as function_index_member_targets
 * walks them: each installer's function (NULL when none is parsed) and its
 * name. Classification asks for the same members again and again (every
 * call through file->f_op->open walks every file_operations initialiser),
 * so the walk is kept until the index changes. */
struct member_walk {
	char *sname, *field;
	unsigned generation;
	VEC(struct walk_step { const struct function_facts *fn; const char *function; }) steps;
	struct member_walk *next;
};

struct function_index {
	VEC(struct table_ref) tables;
	VEC(const struct table_init *) fn_arrays;
	struct entry *bucket[BUCKETS];
	struct member_entry *member[BUCKETS];	/* by struct and field name */
	strvec closed;		/* "struct.member" whose installers are all parsed */
	/* bumped by every addition, which makes the kept walks stale; the
	 * walks live apart, so that a lookup through a const index keeps them */
	unsigned generation;
	struct member_walk **walks;	/* BUCKETS of them */
};

struct function_index *function_index_new(void)
{
	struct function_index *fi = xcalloc(1, sizeof(struct function_index));

	fi->walks = xcalloc(BUCKETS, sizeof(*fi->walks));
	return fi;
}

static int member_table_pred(const struct stmt *s, void *ctx)
{
	(void)ctx;
	return s->kind == ST_TABLE && s->callee_struct;
}

static int first_member_table(const struct stmt *s, void *ctx)
{
	const struct stmt **found = ctx;

	if (s->kind == ST_TABLE && s->callee_struct && !*found)
		*found = s;
	return 0;
}

/* The functions that read a member holding a table (drm_ioctl) */
static void add_table_dispatchers(struct function_index *fi, const struct function_facts *fn)
{
	const struct stmt *found = NULL;

	if (!fn->body || !stmt_any(fn->body, member_table_pred, NULL))
		return;
	stmt_any(fn->body, first_member_table, &found);
	if (found) {
		struct table_ref r = { NULL, xasprintf("%s.%s", found->callee_struct,
							found->callee_field), fn };

		vec_push(&fi->tables, r);
	}
}

void function_index_add_file(struct function_index *fi, struct file_facts *ff)
{
	fi->generation++;
	for (size_t i = 0; i < ff->tables.len; i++) {
		struct table_ref r = { &ff->tables.items[i], NULL, NULL };

		vec_push(&fi->tables, r);
	}
	for (size_t i = 0; i < ff->fn_arrays.len; i++)
		vec_push(&fi->fn_arrays, &ff->fn_arrays.items[i]);
	for (size_t i = 0; i < ff->functions.len; i++)
		add_table_dispatchers(fi, ff->functions.items[i]);
	for (size_t i = 0; i < ff->functions.len; i++) {
		struct entry *e = xmalloc(sizeof(*e));
		const char *name = ff->functions.items[i]->name;

		e->fn = ff->functions.items[i];
		e->hash = str_hash(name, strlen(name));
		e->next = fi->bucket[e->hash % BUCKETS];
		fi->bucket[e->hash % BUCKETS] = e;
	}
	for (size_t i = 0; i < ff->member_inits.len; i++)
		function_index_add_member_init(fi, &ff->member_inits.items[i]);
}

/* A member's bucket: by struct and field together, so that a lookup walks
 * only the initialisers of that member, not every struct's `.open`. */
static unsigned member_bucket(const char *sname, const char *field)
{
	return (str_hash(sname, strlen(sname)) * 31u + str_hash(field, strlen(field))) % BUCKETS;
}

void function_index_add_member_init(struct function_index *fi, const struct member_init *m)
{
	struct member_entry *e = xmalloc(sizeof(*e));
	unsigned h = member_bucket(m->struct_name, m->field);

	fi->generation++;
	e->m = m;
	e->next = fi->member[h];
	fi->member[h] = e;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct function_facts *x = *(const struct function_facts *const *)a;
	const struct function_facts *y = *(const struct function_facts *const *)b;
	int r = strcmp(x->name, y->name);

	return r ? r : strcmp(x->file, y->file);
}

/* The installers of sname.field in the order of the member's chain, each
 * with its parsed function: walked once per generation of the index. */
static const struct member_walk *member_walk(const struct function_index *fi,
					     const char *sname, const char *field)
{
	unsigned h = member_bucket(sname, field);
	struct member_walk *w;

	for (w = fi->walks[h]; w; w = w->next)
		if (!strcmp(w->field, field) && !strcmp(w->sname, sname))
			break;
	if (!w) {
		w = xcalloc(1, sizeof(*w));
		w->sname = xstrdup(sname);
		w->field = xstrdup(field);
		w->generation = fi->generation - 1;
		w->next = fi->walks[h];
		fi->walks[h] = w;
	}
	if (w->generation == fi->generation)
		return w;
	w->generation = fi->generation;
	w->steps.len = 0;
	for (const struct member_entry *e = fi->member[h]; e; e = e->next) {
		struct walk_step st;

		/* a setter's store: its callers' values are entries too */
		if (strcmp(e->m->field, field) || strcmp(e->m->struct_name, sname) || e->m->setter)
			continue;
		st.function = e->m->function;
		st.fn = st.function ? function_index_find(fi, st.function, e->m->file) : NULL;
		vec_push(&w->steps, st);
	}
	return w;
}

size_t function_index_member_targets(const struct function_index *fi, const char *sname,
				     const char *field, const struct function_facts **out,
				     size_t max, int *all_named, strvec *missing)
{
	const struct member_walk *w = member_walk(fi, sname, field);
	size_t n = 0;

	*all_named = 1;
	for (size_t k = 0; k < w->steps.len; k++) {
		const struct function_facts *fn = w->steps.items[k].fn;
		const char *function = w->steps.items[k].function;
		int seen = 0;

		if (!fn) {
			*all_named = 0;
			if (missing && function && !strvec_contains(missing, function))
				strvec_push(missing, function);
			continue;
		}
		for (size_t i = 0; i < n && i < max; i++)
			seen |= out[i] == fn;
		if (seen)
			continue;
		if (n < max)
			out[n] = fn;
		n++;
	}
	qsort(out, n < max ? n : max, sizeof(*out), cmp_fn);
	return n;
}

void function_index_close_member(struct function_index *fi, const char *sname,
				 const char *field)
{
	char *key = xasprintf("%s.%s", sname, field);

	if (!strvec_contains(&fi->closed, key))
		strvec_push(&fi->closed, key);
	free(key);
}

int function_index_member_closed(const struct function_index *fi, const char *sname,
				 const char *field)
{
	char *key = xasprintf("%s.%s", sname, field);
	int closed = strvec_contains(&fi->closed, key);

	free(key);
	return closed;
}

const struct function_facts *function_index_find(const struct function_index *fi,
						 const char *name, const char *from_file)
{
	const struct function_facts *global = NULL;
	unsigned h = str_hash(name, strlen(name));

	for (struct entry *e = fi->bucket[h % BUCKETS]; e; e = e->next) {
		const struct function_facts *fn = e->fn;

		if (e->hash != h || strcmp(fn->name, name))
			continue;
		if (from_file && (!strcmp(fn->file, from_file) || !strcmp(fn->unit, from_file)))
			return fn;
		if (!fn->is_static && (!global || strcmp(fn->file, global->file) < 0))
			global = fn;
	}
	return global;
}

const struct table_init *function_index_find_table(const struct function_index *fi,
						   const char *var, const char *from_file)
{
	const struct table_init *global = NULL;

	for (size_t i = 0; i < fi->tables.len; i++) {
		const struct table_init *t = fi->tables.items[i].table;

		if (!t || strcmp(t->var, var))
			continue;
		if (from_file && (!strcmp(t->unit, from_file) || !strcmp(t->file, from_file)))
			return t;
		if (!t->is_static && (!global || strcmp(t->file, global->file) < 0))
			global = t;
	}
	return global;
}

const struct table_init *function_index_find_fn_array(const struct function_index *fi,
						      const char *var, const char *field,
						      const char *unit)
{
	for (size_t i = 0; i < fi->fn_arrays.len; i++) {
		const struct table_init *t = fi->fn_arrays.items[i];

		if (!strcmp(t->var, var) && !strcmp(t->unit, unit) &&
		    (field ? t->struct_name && !strcmp(t->struct_name, field) : !t->struct_name))
			return t;
	}
	return NULL;
}

const struct function_facts *function_index_table_dispatcher(const struct function_index *fi,
							     const char *sname,
							     const char *field)
{
	char *key = xasprintf("%s.%s", sname, field);
	const struct function_facts *fn = NULL;

	for (size_t i = 0; i < fi->tables.len && !fn; i++)
		if (fi->tables.items[i].member && !strcmp(fi->tables.items[i].member, key))
			fn = fi->tables.items[i].fn;
	free(key);
	return fn;
}

const struct function_facts *function_index_object_member(const struct function_index *fi,
							  const char *sname, const char *field,
							  const char *object)
{
	const struct function_facts *found = NULL;

	for (const struct member_entry *e = fi->member[member_bucket(sname, field)];
	     e; e = e->next) {
		const struct function_facts *fn;

		if (!e->m->object || strcmp(e->m->object, object) || strcmp(e->m->field, field) ||
		    strcmp(e->m->struct_name, sname))
			continue;
		fn = e->m->function ? function_index_find(fi, e->m->function, e->m->file) : NULL;
		if (!fn || (found && found != fn))
			return NULL;
		found = fn;
	}
	return found;
}

void function_index_free(struct function_index *fi)
{
	if (!fi)
		return;
	for (size_t i = 0; i < fi->tables.len; i++)
		free(fi->tables.items[i].member);
	vec_free(&fi->tables);
	vec_free(&fi->fn_arrays);
	strvec_clear(&fi->closed);
	for (size_t i = 0; i < BUCKETS; i++) {
		struct entry *e = fi->bucket[i];

		while (e) {
			struct entry *n = e->next;

			free(e);
			e = n;
		}
		for (struct member_entry *m = fi->member[i], *n; m; m = n) {
			n = m->next;
			free(m);
		}
		for (struct member_walk *w = fi->walks[i], *n; w; w = n) {
			n = w->next;
			free(w->sname);
			free(w->field);
			vec_free(&w->steps);
			free(w);
		}
	}
	free(fi->walks);
	free(fi);
}
