/* A small C preprocessor over libclang tokens, for the one thing libclang 14
 * does not expose: the operators inside a macro expansion. The expansion of
 * `_IOC_NR(cmd)` is rebuilt from the macro definitions the translation unit
 * recorded, and token_expr.c reads it. No #if, no include: only object- and
 * function-like macro replacement with # and ## treated simply. */
#ifndef IOCTL_SCAN_MACRO_EXPAND_H
#define IOCTL_SCAN_MACRO_EXPAND_H

#include <clang-c/Index.h>

#include "util.h"

struct macro_table;

/* Indexes the macro definitions of the whole unit and the ranges of the
 * macro expansions written in the main file, in one pass. */
struct macro_table *macro_table_new(CXTranslationUnit tu);
/* Is the cursor's own location produced by a macro expansion? */
int macro_is_expansion(const struct macro_table *mt, CXCursor c);
/* Could it be? The table knows the main file's expansions only: outside
 * it (a header function) any cursor may come from a macro. */
int macro_may_expand(const struct macro_table *mt, CXCursor c);
void macro_table_free(struct macro_table *mt);
/* In the body of function-like macro name, `.field = ...` made of the
 * macro's parameters and identifiers pasted together (MEDIA_IOC's
 * `.cmd = MEDIA_IOC_##__cmd`), with args (one token each) for the
 * parameters: the identifier it makes (MEDIA_IOC_DEVICE_INFO), or NULL. */
char *macro_designated_paste(struct macro_table *mt, const char *name, const strvec *args,
			     const char *field);
/* The expansion of the macro invocation written where c is expanded (the
 * tokens spelled from there, as written), or NULL if it cannot be made.
 * Made once per invocation and kept with the table. */
const strvec *macro_expansion_at(struct macro_table *mt, CXCursor c);
/* What the body of function-like macro name calls, when the whole body is
 * one call `f(...)` (seq_queue.h's queuefree(q) is
 * snd_use_lock_free(&(q)->use_lock)); NULL otherwise. */
const char *macro_body_callee(struct macro_table *mt, const char *name);

#endif
