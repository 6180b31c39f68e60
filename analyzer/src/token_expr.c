/* A precedence-climbing parser over tokens; values are computed as they
 * are parsed. Only what command tests use is precise (constants, &, >>,
 * <<, |, ~, casts); everything else becomes unknown. */
#include "token_expr.h"

#include <stdlib.h>
#include <string.h>

struct parser {
	char **t;
	size_t n, i;
	ident_view_fn resolve;
	void *ctx;
};

static const char *peek(struct parser *p)
{
	return p->i < p->n ? p->t[p->i] : "";
}

static int accept(struct parser *p, const char *s)
{
	if (!strcmp(peek(p), s)) {
		p->i++;
		return 1;
	}
	return 0;
}

static struct sym unknown(void)
{
	struct sym s = { .kind = SYM_UNKNOWN };

	return s;
}

static struct sym constant(uint64_t v)
{
	struct sym s = { .kind = SYM_CONST, .value = v };

	return s;
}

static const char *const type_words[] = {
	"unsigned", "signed", "int", "long", "short", "char", "const", "volatile",
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "__u8", "__u16",
	"__u32", "__u64", "__s32", "size_t", "uint32_t", "uint64_t", "struct",
	"__kernel_size_t", "__kernel_ulong_t", "_Bool", "bool", "typeof",
	"__typeof__", "enum",
};

static int is_type_word(const char *s)
{
	for (size_t i = 0; i < sizeof(type_words) / sizeof(*type_words); i++)
		if (!strcmp(s, type_words[i]))
			return 1;
	return 0;
}

static void skip_balanced(struct parser *p)
{
	int level = 0;

	do {
		const char *t = peek(p);

		if (!*t)
			return;
		if (!strcmp(t, "("))
			level++;
		else if (!strcmp(t, ")"))
			level--;
		p->i++;
	} while (level > 0);
}

static struct sym parse_expr(struct parser *p, int min_prec);

static struct sym number(const char *s)
{
	char *end;
	uint64_t v;

	if (s[0] == '\'') {
		if (s[1] == '\\') {
			switch (s[2]) {
			case 'n': return constant('\n');
			case '0': return constant(0);
			default: return constant((unsigned char)s[2]);
			}
		}
		return constant((unsigned char)s[1]);
	}
	v = strtoull(s, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	return *end ? unknown() : constant(v);
}

static struct sym parse_unary(struct parser *p)
{
	const char *t = peek(p);
	struct sym s;

	if (!*t)
		return unknown();
	if (accept(p, "(")) {
		if (is_type_word(peek(p))) {
			p->i--;
			skip_balanced(p);	/* a cast: the value passes through */
			return parse_unary(p);
		}
		s = parse_expr(p, 0);
		if (!accept(p, ")"))
			return unknown();
		return s;
	}
	if (accept(p, "~")) {
		s = parse_unary(p);
		return s.kind == SYM_CONST ? constant(~s.value) : unknown();
	}
	if (accept(p, "-")) {
		s = parse_unary(p);
		return s.kind == SYM_CONST ? constant(-s.value) : unknown();
	}
	if (accept(p, "+"))
		return parse_unary(p);
	if (accept(p, "!")) {
		s = parse_unary(p);
		return s.kind == SYM_CONST ? constant(!s.value) : unknown();
	}
	if (!strcmp(t, "sizeof") || !strcmp(t, "__builtin_constant_p")) {
		p->i++;
		if (!strcmp(peek(p), "("))
			skip_balanced(p);
		else
			parse_unary(p);
		return unknown();
	}
	p->i++;
	if ((t[0] >= '0' && t[0] <= '9') || t[0] == '\'')
		return number(t);
	if (!strcmp(peek(p), "(")) {
		skip_balanced(p);	/* a call */
		return unknown();
	}
	{
		struct param_view v;

		if (p->resolve && p->resolve(p->ctx, t, &v)) {
			s.kind = SYM_VIEW;
			s.view = v;
			s.value = 0;
			return s;
		}
	}
	return unknown();
}

static int precedence(const char *op)
{
	static const struct { const char *op; int prec; } table[] = {
		{ "||", 1 }, { "&&", 2 }, { "|", 3 }, { "^", 4 }, { "&", 5 },
		{ "==", 6 }, { "!=", 6 }, { "<", 7 }, { ">", 7 }, { "<=", 7 }, { ">=", 7 },
		{ "<<", 8 }, { ">>", 8 }, { "+", 9 }, { "-", 9 }, { "*", 10 }, { "/", 10 },
		{ "%", 10 },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(*table); i++)
		if (!strcmp(op, table[i].op))
			return table[i].prec;
	return 0;
}

static struct sym apply(const char *op, struct sym l, struct sym r)
{
	if (l.kind == SYM_CONST && r.kind == SYM_CONST) {
		uint64_t a = l.value, b = r.value;

		switch (op[0]) {
		case '|': return constant(op[1] ? (a || b) : (a | b));
		case '&': return constant(op[1] ? (a && b) : (a & b));
		case '^': return constant(a ^ b);
		case '+': return constant(a + b);
		case '-': return constant(a - b);
		case '*': return constant(a * b);
		case '/': return b ? constant(a / b) : unknown();
		case '%': return b ? constant(a % b) : unknown();
		case '<':
			if (op[1] == '<')
				return b < 64 ? constant(a << b) : unknown();
			return constant(op[1] ? a <= b : a < b);
		case '>':
			if (op[1] == '>')
				return b < 64 ? constant(a >> b) : unknown();
			return constant(op[1] ? a >= b : a > b);
		case '=': return constant(a == b);
		case '!': return constant(a != b);
		}
		return unknown();
	}
	if (!strcmp(op, "&") && (l.kind == SYM_VIEW || r.kind == SYM_VIEW)) {
		struct sym v = l.kind == SYM_VIEW ? l : r;
		struct sym k = l.kind == SYM_VIEW ? r : l;

		if (k.kind != SYM_CONST)
			return unknown();
		v.view.mask &= k.value;
		return v;
	}
	if (!strcmp(op, ">>") && l.kind == SYM_VIEW && r.kind == SYM_CONST && r.value < 64) {
		l.view.shift += (int)r.value;
		l.view.mask >>= r.value;
		return l;
	}
	return unknown();
}

static struct sym parse_expr(struct parser *p, int min_prec)
{
	struct sym l = parse_unary(p);

	for (;;) {
		const char *op = peek(p);
		int prec = precedence(op);
		struct sym r;

		if (!prec || prec < min_prec) {
			if (!strcmp(op, "?") && min_prec == 0) {
				struct sym a, b;

				p->i++;
				a = parse_expr(p, 0);
				if (!accept(p, ":"))
					return unknown();
				b = parse_expr(p, 0);
				if (l.kind == SYM_CONST)
					return l.value ? a : b;
				return unknown();
			}
			return l;
		}
		p->i++;
		r = parse_expr(p, prec + 1);
		l = apply(op, l, r);
	}
}

struct sym token_expr_eval(char **toks, size_t n, ident_view_fn resolve, void *ctx)
{
	struct parser p = { .t = toks, .n = n, .resolve = resolve, .ctx = ctx };
	struct sym s = parse_expr(&p, 0);

	return p.i == n ? s : unknown();
}
