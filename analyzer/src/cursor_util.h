/* Small libclang helpers shared by the stages that read cursors. */
#ifndef IOCTL_SCAN_CURSOR_UTIL_H
#define IOCTL_SCAN_CURSOR_UTIL_H

#include <clang-c/Index.h>

#include "util.h"

typedef VEC(CXCursor) cursorvec;

/* The direct children of a cursor, in order; vec_free() the result. */
cursorvec children_of(CXCursor c);
/* The line where a cursor is written (its macro's expansion line). */
unsigned cursor_line(CXCursor c);
/* A CXString as a malloc'ed C string; disposes s. */
char *cxstr(CXString s);
char *cursor_name(CXCursor c);
/* Looks through parentheses, casts and implicit conversions. */
CXCursor strip(CXCursor c);
/* The value of an integer constant expression; 0 when it is not one. */
int eval_int(CXCursor c, int64_t *out);
/* A null pointer constant: NULL is ((void *)0), the integer under the
 * casts. */
int is_null_constant(CXCursor c);
/* The value of a scalar constant: an integer constant expression, or 0
 * for a null pointer constant (`service = NULL`, which eval_int does not
 * take: its type is a pointer). */
int eval_scalar(CXCursor c, int64_t *out);

#endif
