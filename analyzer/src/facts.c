#include "facts.h"

#include <stdlib.h>

struct stmt *stmt_new(enum stmt_kind kind, unsigned line)
{
	struct stmt *s = xcalloc(1, sizeof(*s));

	s->kind = kind;
	s->line = line;
	s->on.param = -1;
	s->cmp_view.param = -1;
	s->store_param = -1;
	s->assigns_param = -1;
	s->callee_param = -1;
	s->callee_index.param = -1;
	return s;
}

void stmt_free(struct stmt *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->kids.len; i++)
		stmt_free(s->kids.items[i]);
	vec_free(&s->kids);
	stmt_free(s->then_s);
	stmt_free(s->else_s);
	for (size_t i = 0; i < s->segs.len; i++) {
		struct switch_segment *seg = &s->segs.items[i];

		for (size_t j = 0; j < seg->labels.len; j++)
			free(seg->labels.items[j].name);
		vec_free(&seg->labels);
		stmt_free(seg->body);
	}
	vec_free(&s->segs);
	free(s->label);
	free(s->callee);
	free(s->callee_text);
	free(s->callee_struct);
	free(s->callee_field);
	free(s->callee_object);
	free(s->callee_array);
	free(s->callee_array_field);
	for (size_t i = 0; i < s->args.len; i++)
	{
		free(s->args.items[i].spelling);
		free(s->args.items[i].function);
		free(s->args.items[i].member_struct);
		free(s->args.items[i].read_struct);
		free(s->args.items[i].read_field);
		free(s->args.items[i].member_field);
	}
	vec_free(&s->args);
	for (size_t i = 0; i < s->premises.len; i++)
		stmt_free(s->premises.items[i]);
	vec_free(&s->premises);
	free(s->target);
	free(s->flag);
	free(s->value_callee);
	free(s->value_local);
	free(s->test_local);
	free(s);
}

int stmt_any(const struct stmt *s, int (*pred)(const struct stmt *s, void *ctx), void *ctx)
{
	int r;

	if (!s)
		return 0;
	r = pred(s, ctx);
	if (r)
		return r > 0;
	for (size_t i = 0; i < s->kids.len; i++)
		if (stmt_any(s->kids.items[i], pred, ctx))
			return 1;
	if (stmt_any(s->then_s, pred, ctx) || stmt_any(s->else_s, pred, ctx))
		return 1;
	for (size_t i = 0; i < s->segs.len; i++)
		if (stmt_any(s->segs.items[i].body, pred, ctx))
			return 1;
	for (size_t i = 0; i < s->premises.len; i++)
		if (stmt_any(s->premises.items[i], pred, ctx))
			return 1;
	return 0;
}

static int is_target(const struct stmt *s, void *target)
{
	return s == target;
}

int stmt_contains(const struct stmt *s, const struct stmt *target)
{
	return stmt_any(s, is_target, (void *)target);
}

void add_diag(diag_vec *diags, const char *file, const char *severity,
	      const char *message)
{
	struct diag d = {
		.file = xstrdup(file ? file : ""),
		.severity = xstrdup(severity),
		.message = xstrdup(message),
	};

	vec_push(diags, d);
}

static void table_init_clear(struct table_init *t)
{
	for (size_t j = 0; j < t->entries.len; j++) {
		free(t->entries.items[j].command);
		free(t->entries.items[j].function);
	}
	vec_free(&t->entries);
	free(t->var);
	free(t->struct_name);
	free(t->file);
	free(t->unit);
}

void member_init_clear(struct member_init *m)
{
	free(m->struct_name);
	free(m->field);
	free(m->function);
	free(m->file);
	free(m->setter);
	free(m->object);
}

void function_facts_free(struct function_facts *fn)
{
	free(fn->name);
	free(fn->file);
	free(fn->unit);
	strvec_clear(&fn->params);
	stmt_free(fn->body);
	for (size_t j = 0; j < fn->flags.len; j++)
		free(fn->flags.items[j].key);
	vec_free(&fn->flags);
	free(fn);
}

void file_facts_free(struct file_facts *ff)
{
	if (!ff)
		return;
	for (size_t i = 0; i < ff->functions.len; i++)
		function_facts_free(ff->functions.items[i]);
	vec_free(&ff->functions);
	for (size_t i = 0; i < ff->ops.len; i++) {
		struct ops_init *o = &ff->ops.items[i];

		free(o->struct_name);
		free(o->field);
		free(o->handler);
		free(o->var);
		free(o->file);
	}
	vec_free(&ff->ops);
	for (size_t i = 0; i < ff->member_inits.len; i++)
		member_init_clear(&ff->member_inits.items[i]);
	vec_free(&ff->member_inits);
	for (size_t i = 0; i < ff->tables.len; i++)
		table_init_clear(&ff->tables.items[i]);
	vec_free(&ff->tables);
	for (size_t i = 0; i < ff->fn_arrays.len; i++)
		table_init_clear(&ff->fn_arrays.items[i]);
	vec_free(&ff->fn_arrays);
	for (size_t i = 0; i < ff->diags.len; i++) {
		free(ff->diags.items[i].file);
		free(ff->diags.items[i].severity);
		free(ff->diags.items[i].message);
	}
	vec_free(&ff->diags);
	free(ff->file);
	free(ff);
}
