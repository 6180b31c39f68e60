/* Facts to bytes and back (facts_serial.h). Integers are LEB128 varints
 * (signed ones zigzag-coded), strings a length plus one (0 for NULL) and
 * their bytes, vectors a count and their items. */
#include "facts_serial.h"

#include "header_functions.h"

#include <stdlib.h>
#include <string.h>

/*
 * A tripwire, not a format: when a structure of facts.h grows a field, its
 * size changes and the build stops here, so that the field is written and
 * read below before the cache can lose it silently. Update the size once
 * the field is handled (x86_64).
 */
_Static_assert(sizeof(struct stmt) == 432, "struct stmt changed: update stmt_write/stmt_read");
_Static_assert(sizeof(struct call_arg) == 128, "struct call_arg changed: update arg_write/arg_read");
_Static_assert(sizeof(struct switch_segment) == 48, "struct switch_segment changed");
_Static_assert(sizeof(struct case_label) == 32, "struct case_label changed");
_Static_assert(sizeof(struct function_facts) == 96, "struct function_facts changed");
_Static_assert(sizeof(struct local_flag) == 16, "struct local_flag changed");
_Static_assert(sizeof(struct table_entry) == 48, "struct table_entry changed");
_Static_assert(sizeof(struct table_init) == 64, "struct table_init changed");
_Static_assert(sizeof(struct ops_init) == 48, "struct ops_init changed");
_Static_assert(sizeof(struct member_init) == 56, "struct member_init changed");
_Static_assert(sizeof(struct diag) == 24, "struct diag changed");
_Static_assert(sizeof(struct file_facts) == 168, "struct file_facts changed");

/* Deeper statement nesting than this is not something a parse produces. */
#define MAX_NESTING 10000

void ser_u64(struct strbuf *out, uint64_t v)
{
	char b[10];
	size_t n = 0;

	do {
		b[n] = (char)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= (char)0x80;
		n++;
	} while (v);
	sb_addn(out, b, n);
}

static void ser_i64(struct strbuf *out, int64_t v)
{
	ser_u64(out, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void ser_str(struct strbuf *out, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	ser_u64(out, s ? n + 1 : 0);
	sb_addn(out, s ? s : "", n);
}

uint64_t deser_u64(struct ser_reader *r)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		unsigned char b;

		if (r->p >= r->end)
			break;
		b = *r->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

static int64_t deser_i64(struct ser_reader *r)
{
	uint64_t v = deser_u64(r);

	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static int deser_int(struct ser_reader *r)
{
	return (int)deser_i64(r);
}

const unsigned char *deser_bytes(struct ser_reader *r, size_t n)
{
	const unsigned char *p = r->p;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return NULL;
	}
	r->p += n;
	return p;
}

char *deser_str(struct ser_reader *r)
{
	uint64_t n = deser_u64(r);
	const unsigned char *p;

	if (!n || r->bad)
		return NULL;
	p = deser_bytes(r, (size_t)(n - 1));
	if (!p || memchr(p, '\0', (size_t)(n - 1))) {
		r->bad = 1;
		return NULL;
	}
	return xstrndup((const char *)p, (size_t)(n - 1));
}

/* A count of items, each at least one byte: no more than what remains. */
static size_t deser_count(struct ser_reader *r)
{
	uint64_t n = deser_u64(r);

	if (n > (uint64_t)(r->end - r->p)) {
		r->bad = 1;
		return 0;
	}
	return (size_t)n;
}

static void view_write(struct strbuf *out, const struct param_view *v)
{
	ser_i64(out, v->param);
	ser_i64(out, v->shift);
	ser_u64(out, v->mask);
}

static void view_read(struct ser_reader *r, struct param_view *v)
{
	v->param = deser_int(r);
	v->shift = deser_int(r);
	v->mask = deser_u64(r);
}

static void arg_write(struct strbuf *out, const struct call_arg *a)
{
	view_write(out, &a->view);
	ser_i64(out, a->points_to_local);
	ser_i64(out, a->points_to_frame);
	ser_i64(out, a->ptr_param);
	ser_i64(out, a->is_const);
	ser_i64(out, a->value);
	ser_str(out, a->spelling);
	ser_str(out, a->function);
	ser_i64(out, a->is_null);
	ser_str(out, a->member_struct);
	ser_str(out, a->member_field);
	ser_str(out, a->read_struct);
	ser_str(out, a->read_field);
	view_write(out, &a->cmp_view);
	ser_i64(out, a->cmp_eq);
	ser_u64(out, a->cmp_value);
}

static void arg_read(struct ser_reader *r, struct call_arg *a)
{
	view_read(r, &a->view);
	a->points_to_local = deser_int(r);
	a->points_to_frame = deser_int(r);
	a->ptr_param = deser_int(r);
	a->is_const = deser_int(r);
	a->value = deser_i64(r);
	a->spelling = deser_str(r);
	a->function = deser_str(r);
	a->is_null = deser_int(r);
	a->member_struct = deser_str(r);
	a->member_field = deser_str(r);
	a->read_struct = deser_str(r);
	a->read_field = deser_str(r);
	view_read(r, &a->cmp_view);
	a->cmp_eq = deser_int(r);
	a->cmp_value = deser_u64(r);
}

static void stmt_write(struct strbuf *out, const struct stmt *s);

static void stmts_write(struct strbuf *out, const struct stmt *const *items, size_t n)
{
	ser_u64(out, n);
	for (size_t i = 0; i < n; i++)
		stmt_write(out, items[i]);
}

/* A statement, or 0 for none; otherwise 1 + its kind, then its fields. */
static void stmt_write(struct strbuf *out, const struct stmt *s)
{
	if (!s) {
		ser_u64(out, 0);
		return;
	}
	ser_u64(out, 1 + (uint64_t)s->kind);
	ser_u64(out, s->line);
	ser_i64(out, s->has_label);
	ser_str(out, s->label);
	stmts_write(out, (const struct stmt *const *)s->kids.items, s->kids.len);
	ser_u64(out, s->cond);
	view_write(out, &s->cmp_view);
	ser_i64(out, s->cmp_eq);
	stmt_write(out, s->then_s);
	stmt_write(out, s->else_s);
	view_write(out, &s->on);
	ser_u64(out, s->segs.len);
	for (size_t i = 0; i < s->segs.len; i++) {
		const struct switch_segment *seg = &s->segs.items[i];

		ser_u64(out, seg->labels.len);
		for (size_t j = 0; j < seg->labels.len; j++) {
			const struct case_label *l = &seg->labels.items[j];

			ser_u64(out, l->lo);
			ser_u64(out, l->hi);
			ser_str(out, l->name);
			ser_u64(out, l->line);
		}
		ser_i64(out, seg->is_default);
		stmt_write(out, seg->body);
		ser_i64(out, seg->falls_through);
	}
	ser_str(out, s->callee);
	ser_str(out, s->callee_text);
	ser_str(out, s->callee_struct);
	ser_str(out, s->callee_field);
	ser_str(out, s->callee_object);
	ser_i64(out, s->callee_param);
	ser_str(out, s->callee_array);
	ser_str(out, s->callee_array_field);
	view_write(out, &s->callee_index);
	ser_i64(out, s->callee_index_offset);
	ser_i64(out, s->is_macro);
	ser_i64(out, s->is_asm);
	ser_i64(out, s->value_unused);
	ser_i64(out, s->negated_in_cond);
	stmts_write(out, (const struct stmt *const *)s->premises.items, s->premises.len);
	ser_u64(out, s->args.len);
	for (size_t i = 0; i < s->args.len; i++)
		arg_write(out, &s->args.items[i]);
	ser_str(out, s->target);
	ser_i64(out, s->nonlocal);
	ser_i64(out, s->store_param);
	ser_i64(out, s->store_is_const);
	ser_i64(out, s->store_value);
	ser_i64(out, s->assigns_param);
	ser_i64(out, s->compound_op);
	ser_i64(out, s->compound_value);
	ser_str(out, s->flag);
	ser_i64(out, s->flag_neg);
	ser_i64(out, s->ret_is_const);
	ser_i64(out, s->ret_value);
	ser_i64(out, s->ret_has_call);
	ser_str(out, s->value_callee);
	ser_i64(out, s->value_either);
	ser_i64(out, s->either[0]);
	ser_i64(out, s->either[1]);
	ser_str(out, s->value_local);
	ser_str(out, s->test_local);
	ser_i64(out, s->test_op);
	ser_i64(out, s->test_join);
	ser_i64(out, s->test_value);
}

static struct stmt *stmt_read(struct ser_reader *r, int depth);

static void stmts_read(struct ser_reader *r, int depth, struct stmt ***items, size_t *len,
		       size_t *cap)
{
	size_t n = deser_count(r);

	*items = n ? xcalloc(n, sizeof(**items)) : NULL;
	*cap = n;
	for (*len = 0; *len < n && !r->bad; (*len)++)
		(*items)[*len] = stmt_read(r, depth + 1);
}

static struct stmt *stmt_read(struct ser_reader *r, int depth)
{
	uint64_t tag = deser_u64(r);
	struct stmt *s;
	size_t n;

	if (!tag || r->bad)
		return NULL;
	if (tag > 1 + (uint64_t)ST_TABLE || depth > MAX_NESTING) {
		r->bad = 1;
		return NULL;
	}
	s = stmt_new((enum stmt_kind)(tag - 1), 0);
	s->line = (unsigned)deser_u64(r);
	s->has_label = deser_int(r);
	s->label = deser_str(r);
	stmts_read(r, depth, &s->kids.items, &s->kids.len, &s->kids.cap);
	s->cond = (enum cond_kind)deser_u64(r);
	if (s->cond > COND_PARAM_NONE_OF)
		r->bad = 1;
	view_read(r, &s->cmp_view);
	s->cmp_eq = deser_int(r);
	s->then_s = stmt_read(r, depth + 1);
	s->else_s = stmt_read(r, depth + 1);
	view_read(r, &s->on);
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct switch_segment seg = {0};
		size_t nl = deser_count(r);

		for (size_t j = 0; j < nl && !r->bad; j++) {
			struct case_label l;

			l.lo = deser_u64(r);
			l.hi = deser_u64(r);
			l.name = deser_str(r);
			l.line = (unsigned)deser_u64(r);
			vec_push(&seg.labels, l);
		}
		seg.is_default = deser_int(r);
		seg.body = stmt_read(r, depth + 1);
		seg.falls_through = deser_int(r);
		vec_push(&s->segs, seg);
	}
	s->callee = deser_str(r);
	s->callee_text = deser_str(r);
	s->callee_struct = deser_str(r);
	s->callee_field = deser_str(r);
	s->callee_object = deser_str(r);
	s->callee_param = deser_int(r);
	s->callee_array = deser_str(r);
	s->callee_array_field = deser_str(r);
	view_read(r, &s->callee_index);
	s->callee_index_offset = deser_i64(r);
	s->is_macro = deser_int(r);
	s->is_asm = deser_int(r);
	s->value_unused = deser_int(r);
	s->negated_in_cond = deser_int(r);
	stmts_read(r, depth, &s->premises.items, &s->premises.len, &s->premises.cap);
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct call_arg a = {0};

		arg_read(r, &a);
		vec_push(&s->args, a);
	}
	s->target = deser_str(r);
	s->nonlocal = deser_int(r);
	s->store_param = deser_int(r);
	s->store_is_const = deser_int(r);
	s->store_value = deser_i64(r);
	s->assigns_param = deser_int(r);
	s->compound_op = (char)deser_i64(r);
	s->compound_value = deser_i64(r);
	s->flag = deser_str(r);
	s->flag_neg = deser_int(r);
	s->ret_is_const = deser_int(r);
	s->ret_value = deser_i64(r);
	s->ret_has_call = deser_int(r);
	s->value_callee = deser_str(r);
	s->value_either = deser_int(r);
	s->either[0] = deser_i64(r);
	s->either[1] = deser_i64(r);
	s->value_local = deser_str(r);
	s->test_local = deser_str(r);
	s->test_op = (char)deser_i64(r);
	s->test_join = (char)deser_i64(r);
	s->test_value = deser_i64(r);
	return s;
}

static void strvec_write(struct strbuf *out, const strvec *v)
{
	ser_u64(out, v->len);
	for (size_t i = 0; i < v->len; i++)
		ser_str(out, v->items[i]);
}

static void strvec_read(struct ser_reader *r, strvec *v)
{
	size_t n = deser_count(r);

	for (size_t i = 0; i < n && !r->bad; i++) {
		char *s = deser_str(r);

		if (!s) {
			r->bad = 1;
			break;
		}
		vec_push(v, s);
	}
}

static void function_write(struct strbuf *out, const struct function_facts *f)
{
	ser_str(out, f->name);
	ser_str(out, f->file);
	ser_str(out, f->unit);
	ser_u64(out, f->line);
	ser_i64(out, f->is_static);
	ser_i64(out, f->in_header);
	ser_i64(out, f->params_read);
	strvec_write(out, &f->params);
	stmt_write(out, f->body);
	ser_u64(out, f->flags.len);
	for (size_t i = 0; i < f->flags.len; i++) {
		ser_str(out, f->flags.items[i].key);
		ser_i64(out, f->flags.items[i].init);
	}
}

/* A function, or NULL when it is a header function another file has
 * already given (hf): its record is skipped unread, which is most of a
 * file's header functions. */
static struct function_facts *function_read(struct ser_reader *r, struct header_functions *hf,
					    int *claimed)
{
	struct function_facts *f = xcalloc(1, sizeof(*f));
	size_t n = deser_count(r);
	const unsigned char *end = r->p + n;

	f->name = deser_str(r);
	f->file = deser_str(r);
	f->unit = deser_str(r);
	f->line = (unsigned)deser_u64(r);
	f->is_static = deser_int(r);
	f->in_header = deser_int(r);
	f->params_read = (uint32_t)deser_i64(r);
	*claimed = 0;
	if (!r->bad && hf && f->in_header && f->name && f->file) {
		if (!header_functions_claim(hf, f->file, f->name)) {
			r->p = end;
			function_facts_free(f);
			return NULL;
		}
		*claimed = 1;
	}
	strvec_read(r, &f->params);
	f->body = stmt_read(r, 0);
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct local_flag lf;

		lf.key = deser_str(r);
		lf.init = deser_i64(r);
		vec_push(&f->flags, lf);
	}
	return f;
}

static void table_write(struct strbuf *out, const struct table_init *t)
{
	ser_str(out, t->var);
	ser_str(out, t->struct_name);
	ser_str(out, t->file);
	ser_str(out, t->unit);
	ser_i64(out, t->is_static);
	ser_u64(out, t->entries.len);
	for (size_t i = 0; i < t->entries.len; i++) {
		const struct table_entry *e = &t->entries.items[i];

		ser_str(out, e->command);
		ser_u64(out, e->value);
		ser_str(out, e->function);
		ser_i64(out, e->has_flags);
		ser_i64(out, e->flags);
		ser_u64(out, e->line);
	}
}

static void table_read(struct ser_reader *r, struct table_init *t)
{
	size_t n;

	t->var = deser_str(r);
	t->struct_name = deser_str(r);
	t->file = deser_str(r);
	t->unit = deser_str(r);
	t->is_static = deser_int(r);
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct table_entry e;

		e.command = deser_str(r);
		e.value = deser_u64(r);
		e.function = deser_str(r);
		e.has_flags = deser_int(r);
		e.flags = deser_i64(r);
		e.line = (unsigned)deser_u64(r);
		vec_push(&t->entries, e);
	}
}

void facts_write(struct strbuf *out, const struct file_facts *ff)
{
	ser_str(out, ff->file);
	ser_i64(out, ff->parsed);
	ser_i64(out, ff->errors);
	ser_u64(out, ff->diags.len);
	for (size_t i = 0; i < ff->diags.len; i++) {
		ser_str(out, ff->diags.items[i].file);
		ser_str(out, ff->diags.items[i].severity);
		ser_str(out, ff->diags.items[i].message);
	}
	ser_u64(out, ff->functions.len);
	for (size_t i = 0; i < ff->functions.len; i++) {
		/* each function with its length, so that a reader can skip it */
		struct strbuf fn = {0};

		function_write(&fn, ff->functions.items[i]);
		ser_u64(out, fn.len);
		sb_addn(out, fn.buf, fn.len);
		free(fn.buf);
	}
	ser_u64(out, ff->ops.len);
	for (size_t i = 0; i < ff->ops.len; i++) {
		const struct ops_init *o = &ff->ops.items[i];

		ser_str(out, o->struct_name);
		ser_str(out, o->field);
		ser_str(out, o->handler);
		ser_str(out, o->var);
		ser_str(out, o->file);
		ser_u64(out, o->line);
	}
	ser_u64(out, ff->member_inits.len);
	for (size_t i = 0; i < ff->member_inits.len; i++) {
		const struct member_init *m = &ff->member_inits.items[i];

		ser_str(out, m->struct_name);
		ser_str(out, m->field);
		ser_str(out, m->function);
		ser_str(out, m->file);
		ser_str(out, m->object);
		ser_str(out, m->setter);
		ser_i64(out, m->setter_param);
	}
	ser_u64(out, ff->tables.len);
	for (size_t i = 0; i < ff->tables.len; i++)
		table_write(out, &ff->tables.items[i]);
	ser_u64(out, ff->fn_arrays.len);
	for (size_t i = 0; i < ff->fn_arrays.len; i++)
		table_write(out, &ff->fn_arrays.items[i]);
}

struct file_facts *facts_read(struct ser_reader *r, const char *file,
			      struct header_functions *hf)
{
	struct file_facts *ff = xcalloc(1, sizeof(*ff));
	VEC(struct function_facts *) claims = {0};
	size_t n;

	ff->file = deser_str(r);
	if (!ff->file || strcmp(ff->file, file))
		r->bad = 1;
	ff->parsed = deser_int(r);
	ff->errors = deser_int(r);
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct diag d;

		d.file = deser_str(r);
		d.severity = deser_str(r);
		d.message = deser_str(r);
		vec_push(&ff->diags, d);
	}
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		int claimed;
		struct function_facts *f = function_read(r, hf, &claimed);

		if (f)
			vec_push(&ff->functions, f);
		if (f && claimed)
			vec_push(&claims, f);
	}
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct ops_init o;

		o.struct_name = deser_str(r);
		o.field = deser_str(r);
		o.handler = deser_str(r);
		o.var = deser_str(r);
		o.file = deser_str(r);
		o.line = (unsigned)deser_u64(r);
		vec_push(&ff->ops, o);
	}
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct member_init m;

		m.struct_name = deser_str(r);
		m.field = deser_str(r);
		m.function = deser_str(r);
		m.file = deser_str(r);
		m.object = deser_str(r);
		m.setter = deser_str(r);
		m.setter_param = deser_int(r);
		vec_push(&ff->member_inits, m);
	}
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct table_init t = {0};

		table_read(r, &t);
		vec_push(&ff->tables, t);
	}
	n = deser_count(r);
	for (size_t i = 0; i < n && !r->bad; i++) {
		struct table_init t = {0};

		table_read(r, &t);
		vec_push(&ff->fn_arrays, t);
	}
	if (r->p != r->end)
		r->bad = 1;
	if (r->bad) {
		/* malformed after all: give back the header functions it
		 * claimed, so that the file parsed again can claim them */
		for (size_t i = 0; i < claims.len; i++)
			header_functions_unclaim(hf, claims.items[i]->file, claims.items[i]->name);
		vec_free(&claims);
		file_facts_free(ff);
		return NULL;
	}
	vec_free(&claims);
	return ff;
}
