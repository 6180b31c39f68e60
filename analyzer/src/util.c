#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void out_of_memory(void)
{
	fputs("ioctl-scan: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return s;
}

void strvec_push(strvec *v, const char *s)
{
	vec_push(v, xstrdup(s));
}

void strvec_clear(strvec *v)
{
	for (size_t i = 0; i < v->len; i++)
		free(v->items[i]);
	vec_free(v);
}

int strvec_contains(const strvec *v, const char *s)
{
	for (size_t i = 0; i < v->len; i++)
		if (!strcmp(v->items[i], s))
			return 1;
	return 0;
}

int strvec_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strvec_sort(strvec *v)
{
	vec_sort(v, strvec_cmp);
}

static void sb_grow(struct strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	sb->cap = (sb->len + extra + 1) * 2;
	sb->buf = xrealloc(sb->buf, sb->cap);
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	sb_add(sb, s);
	free(s);
}

char *sb_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

ssize_t read_file_into(const char *path, char **buf, size_t *cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t got = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return -1;
	}
	if (!*buf || *cap < (size_t)st.st_size + 1) {
		*cap = (size_t)st.st_size + 1 > 2 * *cap ? (size_t)st.st_size + 1 : 2 * *cap;
		free(*buf);
		*buf = xmalloc(*cap);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, *buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	(*buf)[got] = '\0';
	return (ssize_t)got;
}

char *read_file(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = read_file_into(path, &buf, &cap);

	if (n < 0)
		return NULL;	/* buf is still NULL: nothing was allocated */
	if (len)
		*len = (size_t)n;
	return buf;
}

int path_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int path_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (b[0] == '/')
		b++;
	return xasprintf("%.*s/%s", (int)la, a, b);
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
}

unsigned str_hash(const char *s, size_t n)
{
	unsigned h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* At most a few outputs are open at once; the signal path removes them. */
#define MAX_OPEN_ATOMIC 8
static struct atomic_file *open_atomic[MAX_OPEN_ATOMIC];

int atomic_open(struct atomic_file *af, const char *path)
{
	int fd;

	af->path = xstrdup(path);
	af->tmp_path = xasprintf("%s.tmp.XXXXXX", path);
	fd = mkstemp(af->tmp_path);
	if (fd < 0) {
		free(af->path);
		free(af->tmp_path);
		af->path = af->tmp_path = NULL;
		return -1;
	}
	fchmod(fd, 0644);
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		close(fd);
		unlink(af->tmp_path);
		return -1;
	}
	for (int i = 0; i < MAX_OPEN_ATOMIC; i++) {
		if (!open_atomic[i]) {
			open_atomic[i] = af;
			break;
		}
	}
	return 0;
}

static void atomic_forget(struct atomic_file *af)
{
	for (int i = 0; i < MAX_OPEN_ATOMIC; i++)
		if (open_atomic[i] == af)
			open_atomic[i] = NULL;
	free(af->path);
	free(af->tmp_path);
	af->path = af->tmp_path = NULL;
	af->fp = NULL;
}

int atomic_commit(struct atomic_file *af)
{
	int err = 0;

	if (fflush(af->fp) != 0 || fsync(fileno(af->fp)) != 0)
		err = -1;
	if (fclose(af->fp) != 0)
		err = -1;
	if (!err && rename(af->tmp_path, af->path) != 0)
		err = -1;
	if (err) {
		int saved = errno;

		unlink(af->tmp_path);
		errno = saved;
	}
	atomic_forget(af);
	return err;
}

void atomic_abort(struct atomic_file *af)
{
	if (!af->fp)
		return;
	fclose(af->fp);
	unlink(af->tmp_path);
	atomic_forget(af);
}

void atomic_abort_all(void)
{
	/* async-signal-safe: unlink only */
	for (int i = 0; i < MAX_OPEN_ATOMIC; i++)
		if (open_atomic[i] && open_atomic[i]->tmp_path)
			unlink(open_atomic[i]->tmp_path);
}
