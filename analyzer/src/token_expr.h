/* Evaluates a macro-expanded C expression (a token list) symbolically: each
 * value is a constant, a view of a function parameter (param >> s) & m, or
 * unknown. Used where libclang 14 hides the operators (inside macros). */
#ifndef IOCTL_SCAN_TOKEN_EXPR_H
#define IOCTL_SCAN_TOKEN_EXPR_H

#include "facts.h"

enum sym_kind { SYM_UNKNOWN, SYM_CONST, SYM_VIEW };

struct sym {
	enum sym_kind kind;
	uint64_t value;
	struct param_view view;
};

/* Resolves an identifier to a view (parameter or local copy of one). */
typedef int (*ident_view_fn)(void *ctx, const char *name, struct param_view *out);

struct sym token_expr_eval(char **toks, size_t n, ident_view_fn resolve, void *ctx);

#endif
