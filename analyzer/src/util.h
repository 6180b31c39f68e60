/* Small utilities used everywhere: checked allocation, growable arrays,
 * string building, file reading, atomic file writing. */
#ifndef IOCTL_SCAN_UTIL_H
#define IOCTL_SCAN_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable array of T: declare `VEC(T) v = {0};`, then vec_push(&v, x). */
#define VEC(T) struct { T *items; size_t len, cap; }
#define vec_push(v, x) do { \
	if ((v)->len == (v)->cap) { \
		(v)->cap = (v)->cap ? (v)->cap * 2 : 8; \
		(v)->items = xrealloc((v)->items, (v)->cap * sizeof(*(v)->items)); \
	} \
	(v)->items[(v)->len++] = (x); \
} while (0)
/* qsort, which must not see a NULL array even when it is empty */
#define vec_sort(v, cmp) do { \
	if ((v)->len > 1) \
		qsort((v)->items, (v)->len, sizeof(*(v)->items), cmp); \
} while (0)
#define vec_free(v) do { free((v)->items); (v)->items = NULL; (v)->len = (v)->cap = 0; } while (0)

typedef VEC(char *) strvec;
void strvec_push(strvec *v, const char *s);
void strvec_clear(strvec *v);
int strvec_contains(const strvec *v, const char *s);
int strvec_cmp(const void *a, const void *b);
void strvec_sort(strvec *v);

struct strbuf {
	char *buf;
	size_t len, cap;
};
void sb_add(struct strbuf *sb, const char *s);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sb_detach(struct strbuf *sb);

/* Reads a whole file; returns NULL and sets errno on failure. */
char *read_file(const char *path, size_t *len);
/* Reads a whole file into *buf, NUL-terminated, growing it (and *cap) as
 * needed, so that one buffer serves many files; returns its length, or -1
 * with errno set. */
ssize_t read_file_into(const char *path, char **buf, size_t *cap);
int path_is_dir(const char *path);
int path_is_file(const char *path);
/* Joins a and b with one '/' between them. */
char *path_join(const char *a, const char *b);
/* Directory part of a relative path ("." for none). */
char *path_dirname(const char *path);
/* FNV-1a over n bytes of s, for the hash tables of names */
unsigned str_hash(const char *s, size_t n);
int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);

/* Writes through a temporary file in the same directory and renames it into
 * place, so a failed or interrupted run never leaves a truncated file. */
struct atomic_file {
	char *path;
	char *tmp_path;
	FILE *fp;
};
int atomic_open(struct atomic_file *af, const char *path);
int atomic_commit(struct atomic_file *af);
void atomic_abort(struct atomic_file *af);
/* Removes any temporary file still open (used from the signal path). */
void atomic_abort_all(void);

#endif
