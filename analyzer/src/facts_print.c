/* The reduced facts of one file as text (facts_print.h).
 *
 * A function prints as a header line and its statement tree, one
 * statement a line: the source line, then two spaces per level of
 * nesting, then the kind and what the later stages read of it. A
 * parameter is pN (0-based); a view of it that shifts or masks prints
 * as (pN >> S) & 0xM. Blocks print only their statements (and a label
 * they mark); an if prints the calls of its condition, then "then" and
 * "else" with their statements a level deeper; a switch prints each
 * case label and default, each segment's statements a level deeper. The
 * words after a kind are fixed (doc/man/ioctl-scan-facts.1 lists them),
 * so tests can grep for whole lines. */
#include "facts_print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <string.h>

static void put_view(FILE *out, struct param_view v)
{
	if (v.param < 0)
		fputs("?", out);
	else if (v.shift == 0 && (v.mask == UINT64_MAX || v.mask == 0xffffffffu))
		fprintf(out, "p%d", v.param);
	else if (v.shift == 0)
		fprintf(out, "p%d & 0x%" PRIx64, v.param, v.mask);
	else
		fprintf(out, "(p%d >> %d) & 0x%" PRIx64, v.param, v.shift, v.mask);
}

static void put_label(FILE *out, const struct case_label *l)
{
	fprintf(out, "%s = 0x%" PRIx64, l->name ? l->name : "?", l->lo);
	if (l->hi != l->lo)
		fprintf(out, " ... 0x%" PRIx64, l->hi);
}

/* The start of a statement's line: its source line and the nesting. */
static void indent(FILE *out, unsigned line, int depth)
{
	fprintf(out, "%5u ", line);
	for (int i = 0; i < depth; i++)
		fputs("  ", out);
}

/* One argument as words: what it is, whichever facts hold of it. */
static void put_arg(FILE *out, const struct call_arg *a)
{
	int words = 0;

	if (a->view.param >= 0) {
		put_view(out, a->view);
		words++;
	}
	if (a->is_const) {
		char *end = NULL;

		/* a literal prints as its value, a macro as NAME=value */
		if (a->spelling && (strtoll(a->spelling, &end, 0) != a->value || *end))
			fprintf(out, "%s%s=", words ? " " : "", a->spelling);
		else
			fputs(words ? " " : "", out);
		fprintf(out, "%" PRId64, a->value);
		words++;
	} else if (a->spelling && a->view.param < 0 && !a->function) {
		fprintf(out, "%s%s", words++ ? " " : "", a->spelling);
	}
	if (a->is_null)
		fprintf(out, "%snull", words++ ? " " : "");
	if (a->function)
		fprintf(out, "%sfunction %s", words++ ? " " : "", a->function);
	if (a->points_to_frame)
		fprintf(out, "%sframe", words++ ? " " : "");
	else if (a->points_to_local)
		fprintf(out, "%slocal", words++ ? " " : "");
	if (a->ptr_param >= 0)
		fprintf(out, "%sinto p%d", words++ ? " " : "", a->ptr_param);
	if (a->member_struct)
		fprintf(out, "%smember %s.%s", words++ ? " " : "", a->member_struct,
			a->member_field ? a->member_field : "?");
	if (a->read_struct)
		fprintf(out, "%sreads %s.%s", words++ ? " " : "", a->read_struct,
			a->read_field ? a->read_field : "?");
	if (a->cmp_view.param >= 0) {
		fputs(words++ ? " " : "", out);
		put_view(out, a->cmp_view);
		fprintf(out, " %s 0x%" PRIx64, a->cmp_eq ? "==" : "!=", a->cmp_value);
	}
	if (!words)
		fputs("-", out);
}

/* An if's test on a parameter, as the words after "if". */
static void put_cond(FILE *out, const struct stmt *s)
{
	const struct switch_segment *seg = s->segs.len ? &s->segs.items[0] : NULL;

	switch (s->cond) {
	case COND_PARAM_CMP:
	case COND_PARAM_IMPLIED:
	case COND_PARAM_RANGE:
		if (s->cond == COND_PARAM_IMPLIED)
			fputs("implied ", out);
		put_view(out, s->cmp_view);
		if (s->cond == COND_PARAM_RANGE)
			fputs(s->cmp_eq ? " in" : " not in", out);
		else
			fputs(s->cmp_eq ? " ==" : " !=", out);
		/* the values are the labels of the first segment (facts.h) */
		for (size_t i = 0; seg && i < seg->labels.len; i++) {
			fputs(i ? ", " : " ", out);
			put_label(out, &seg->labels.items[i]);
		}
		break;
	case COND_PARAM_NONE_OF:
		fputs("none of", out);
		for (size_t i = 0; i < s->premises.len; i++) {
			fputs(i ? ", " : " ", out);
			put_cond(out, s->premises.items[i]);
		}
		break;
	case COND_PARAM_TRUTH:
		fputs(s->cmp_eq ? "!" : "", out);
		put_view(out, s->cmp_view);
		break;
	case COND_CALL:
	case COND_NOT_CALL:
		fputs(s->cond == COND_NOT_CALL ? "!call" : "call", out);
		break;
	case COND_OTHER:
		if (s->flag)
			fprintf(out, "%sflag %s", s->flag_neg ? "!" : "", s->flag);
		else
			fputs("other", out);
		break;
	}
	if (s->test_local) {
		static const char ops[] = "=!<>lg";
		static const char *const words[] = { "==", "!=", "<", ">", "<=", ">=" };
		const char *op = strchr(ops, s->test_op);

		fprintf(out, " %slocal %s %s %" PRId64,
			s->test_join == '&' ? "&& " : s->test_join == '|' ? "|| " : "", s->test_local,
			op && *op ? words[op - ops] : "?", s->test_value);
	}
}

static void print_stmt(FILE *out, const struct stmt *s, int depth);

/* A block's statements at depth, or s itself when it is not a block. */
static void print_body(FILE *out, const struct stmt *s, int depth)
{
	if (!s)
		return;
	if (s->kind != ST_BLOCK) {
		print_stmt(out, s, depth);
		return;
	}
	if (s->label) {
		indent(out, s->line, depth);
		fprintf(out, "label %s\n", s->label);
	}
	for (size_t i = 0; i < s->kids.len; i++)
		print_body(out, s->kids.items[i], depth);
}

/* The array element a call or a switch reads (stmt.callee_array). */
static void put_indexed(FILE *out, const struct stmt *s)
{
	if (!s->callee_array)
		return;
	fprintf(out, " array %s[", s->callee_array);
	put_view(out, s->callee_index);
	if (s->callee_index_offset)
		fprintf(out, " %+" PRId64, s->callee_index_offset);
	fprintf(out, "]%s%s", s->callee_array_field ? "." : "",
		s->callee_array_field ? s->callee_array_field : "");
}

static void print_call(FILE *out, const struct stmt *s)
{
	if (s->callee)
		fprintf(out, "call %s(", s->callee);
	else
		fprintf(out, "call indirect %s(", s->callee_text ? s->callee_text : "?");
	for (size_t i = 0; i < s->args.len; i++) {
		fputs(i ? ", " : "", out);
		put_arg(out, &s->args.items[i]);
	}
	fputs(")", out);
	if (s->callee_struct)
		fprintf(out, " member %s.%s", s->callee_struct, s->callee_field ? s->callee_field : "?");
	if (s->callee_object)
		fprintf(out, " object %s", s->callee_object);
	if (s->callee_param >= 0)
		fprintf(out, " param p%d", s->callee_param);
	put_indexed(out, s);
	if (s->is_macro)
		fputs(" macro", out);
	if (s->is_asm)
		fputs(" asm", out);
	if (s->value_unused)
		fputs(" unused", out);
	if (s->negated_in_cond)
		fputs(" negated", out);
	for (size_t i = 0; i < s->premises.len; i++) {
		fputs(i ? ", " : " premises ", out);
		put_cond(out, s->premises.items[i]);
	}
}

/* What a stored or returned value is (facts.h) */
static void print_value(FILE *out, const struct stmt *s)
{
	if (s->value_callee)
		fprintf(out, " from %s()", s->value_callee);
	if (s->value_either)
		fprintf(out, " either %" PRId64 " or %" PRId64, s->either[0], s->either[1]);
	if (s->value_local)
		fprintf(out, " local %s", s->value_local);
}

static void print_store(FILE *out, const struct stmt *s)
{
	fprintf(out, "store %s", s->target ? s->target : "?");
	fputs(s->nonlocal ? " nonlocal" : " local", out);
	if (s->store_param >= 0)
		fprintf(out, " through p%d", s->store_param);
	if (s->assigns_param >= 0)
		fprintf(out, " assigns p%d", s->assigns_param);
	if (s->store_is_const)
		fprintf(out, " = %" PRId64, s->store_value);
	if (s->compound_op)
		fprintf(out, " %c= %" PRId64, s->compound_op, s->compound_value);
	if (s->flag)
		fprintf(out, " flag %s", s->flag);
	print_value(out, s);
}

static void print_if(FILE *out, const struct stmt *s, int depth)
{
	fputs("if ", out);
	put_cond(out, s);
	if (s->cond == COND_PARAM_IMPLIED)
		for (size_t i = 0; i < s->premises.len; i++) {
			fputs(i ? ", " : " premises ", out);
			put_cond(out, s->premises.items[i]);
		}
	fputs("\n", out);
	for (size_t i = 0; i < s->kids.len; i++)
		print_stmt(out, s->kids.items[i], depth + 1);
	if (s->then_s) {
		indent(out, s->then_s->line, depth + 1);
		fputs("then\n", out);
		print_body(out, s->then_s, depth + 2);
	}
	if (s->else_s) {
		indent(out, s->else_s->line, depth + 1);
		fputs("else\n", out);
		print_body(out, s->else_s, depth + 2);
	}
}

static void print_switch(FILE *out, const struct stmt *s, int depth)
{
	fputs("switch ", out);
	put_view(out, s->on);
	put_indexed(out, s);
	fputs("\n", out);
	for (size_t i = 0; i < s->segs.len; i++) {
		const struct switch_segment *seg = &s->segs.items[i];

		for (size_t j = 0; j < seg->labels.len; j++) {
			indent(out, seg->labels.items[j].line, depth + 1);
			fputs("case ", out);
			put_label(out, &seg->labels.items[j]);
			fputs("\n", out);
		}
		if (seg->is_default) {
			indent(out, seg->body ? seg->body->line : s->line, depth + 1);
			fputs("default\n", out);
		}
		print_body(out, seg->body, depth + 2);
		if (seg->falls_through) {
			indent(out, seg->body ? seg->body->line : s->line, depth + 2);
			fputs("falls through\n", out);
		}
	}
}

static void print_stmt(FILE *out, const struct stmt *s, int depth)
{
	if (s->kind == ST_BLOCK) {
		print_body(out, s, depth);
		return;
	}
	indent(out, s->line, depth);
	switch (s->kind) {
	case ST_BLOCK:
		break;
	case ST_IF:
		print_if(out, s, depth);
		return;
	case ST_SWITCH:
		print_switch(out, s, depth);
		return;
	case ST_LOOP:
		fputs("loop\n", out);
		for (size_t i = 0; i < s->kids.len; i++)
			print_body(out, s->kids.items[i], depth + 1);
		return;
	case ST_CALL:
		print_call(out, s);
		break;
	case ST_STORE:
		print_store(out, s);
		break;
	case ST_RETURN:
		fputs("return", out);
		if (s->ret_is_const)
			fprintf(out, " %" PRId64, s->ret_value);
		if (s->ret_has_call)
			fputs(" call", out);
		print_value(out, s);
		break;
	case ST_BREAK:
		fputs("break", out);
		break;
	case ST_GOTO:
		fprintf(out, "goto %s", s->target ? s->target : "*");
		break;
	case ST_MODE_TEST:
		fprintf(out, "mode_test %s", s->target ? s->target : "?");
		break;
	case ST_TABLE:
		if (s->target)
			fprintf(out, "table %s", s->target);
		else
			fprintf(out, "table member %s.%s", s->callee_struct ? s->callee_struct : "?",
				s->callee_field ? s->callee_field : "?");
		break;
	}
	fputs("\n", out);
}

static void print_function(FILE *out, const struct function_facts *fn)
{
	fprintf(out, "function %s(", fn->name);
	for (size_t i = 0; i < fn->params.len; i++)
		fprintf(out, "%sp%zu %s", i ? ", " : "", i, fn->params.items[i]);
	fprintf(out, ") %s:%u", fn->file, fn->line);
	if (fn->is_static)
		fputs(" static", out);
	if (fn->in_header)
		fputs(" in_header", out);
	for (size_t i = 0; i < fn->params.len && i < 32; i++)
		if (!(fn->params_read & (1u << i)))
			fprintf(out, " unread p%zu", i);
	if (fn->unit && strcmp(fn->unit, fn->file))
		fprintf(out, " unit %s", fn->unit);
	fputs("\n", out);
	for (size_t i = 0; i < fn->flags.len; i++)
		fprintf(out, "      flag %s = %" PRId64 "\n", fn->flags.items[i].key,
			fn->flags.items[i].init);
	print_body(out, fn->body, 1);
}

static void print_inits(FILE *out, const struct file_facts *ff)
{
	for (size_t i = 0; i < ff->ops.len; i++) {
		const struct ops_init *o = &ff->ops.items[i];

		fprintf(out, "ops %s.%s = %s var %s %s:%u\n", o->struct_name, o->field,
			o->handler ? o->handler : "-", o->var && *o->var ? o->var : "-",
			o->file, o->line);
	}
	for (size_t i = 0; i < ff->member_inits.len; i++) {
		const struct member_init *m = &ff->member_inits.items[i];

		fprintf(out, "member %s.%s = %s %s", m->struct_name, m->field,
			m->function ? m->function : "-", m->file ? m->file : "-");
		if (m->object)
			fprintf(out, " object %s", m->object);
		if (m->setter)
			fprintf(out, " setter %s p%d", m->setter, m->setter_param);
		fputs("\n", out);
	}
	for (size_t i = 0; i < ff->tables.len; i++) {
		const struct table_init *t = &ff->tables.items[i];

		fprintf(out, "table %s struct %s %s%s\n", t->var, t->struct_name, t->file,
			t->is_static ? " static" : "");
		for (size_t j = 0; j < t->entries.len; j++) {
			const struct table_entry *e = &t->entries.items[j];

			indent(out, e->line, 1);
			fprintf(out, "entry %s = 0x%" PRIx64 " %s", e->command, e->value,
				e->function ? e->function : "-");
			if (e->has_flags)
				fprintf(out, " flags %" PRId64, e->flags);
			fputs("\n", out);
		}
	}
	for (size_t i = 0; i < ff->fn_arrays.len; i++) {
		const struct table_init *t = &ff->fn_arrays.items[i];

		fprintf(out, "array %s%s%s %s%s\n", t->var, t->struct_name ? "." : "",
			t->struct_name ? t->struct_name : "", t->file, t->is_static ? " static" : "");
		for (size_t j = 0; j < t->entries.len; j++) {
			const struct table_entry *e = &t->entries.items[j];

			indent(out, e->line, 1);
			fprintf(out, "[0x%" PRIx64 "] %s", e->value, e->function ? e->function : "-");
			if (e->has_flags)
				fprintf(out, " value %#" PRIx64, (uint64_t)e->flags);
			fputs("\n", out);
		}
	}
}

void facts_print(FILE *out, const struct file_facts *ff)
{
	fprintf(out, "file %s%s\n", ff->file, ff->parsed ? "" : " not parsed");
	for (size_t i = 0; i < ff->diags.len; i++)
		fprintf(out, "diagnostic %s %s\n", ff->diags.items[i].severity,
			ff->diags.items[i].message);
	for (size_t i = 0; i < ff->functions.len; i++)
		print_function(out, ff->functions.items[i]);
	print_inits(out, ff);
}
