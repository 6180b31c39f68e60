/* The facts cache (facts_cache.h).
 *
 * An entry, cache_dir/ab/cdef...(the key in hex), is
 *
 *	"IOSCFACT"                  magic, 8 bytes
 *	format                      string: FACTS_FORMAT, the derived version
 *	payload length              varint
 *	payload                     key, included files, facts (facts_serial.h)
 *	SHA-256 of the payload      32 bytes
 *
 * and is read whole, checked (magic, format, length, checksum, key) and
 * only then decoded. */
#define _GNU_SOURCE
#include "facts_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "facts_format.h"
#include "facts_serial.h"

#define MAGIC "IOSCFACT"
#define MAGIC_LEN 8
#define INCLUDE_BUCKETS 8192
/* Temporary files older than this were left by a scan that died. */
#define STALE_TMP_SECONDS 3600

/* The digest of an included file's content, computed once per scan. */
struct content {
	char *path;
	int readable;
	unsigned char digest[DIGEST_BYTES];
	struct content *next;
};

struct facts_cache {
	char *dir;
	uint64_t max_bytes;
	/* what every key starts with: format, libclang, knowledge */
	unsigned char context[DIGEST_BYTES];
	pthread_mutex_t lock;	/* contents, log and stats */
	struct content *contents[INCLUDE_BUCKETS];
	FILE *log;
	struct facts_cache_stats stats;
};

static int make_dir(const char *path)
{
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char *p = xstrdup(path);
	int err = 0;

	for (char *s = strchr(p + 1, '/'); s && !err; s = strchr(s + 1, '/')) {
		*s = '\0';
		err = make_dir(p);
		*s = '/';
	}
	if (!err)
		err = make_dir(p);
	free(p);
	return err;
}

struct facts_cache *facts_cache_open(const char *dir, uint64_t max_bytes,
				     const struct knowledge *kn, const char *log,
				     char *err, size_t errlen)
{
	struct facts_cache *c;
	struct digest d;
	CXString version;

	if (make_dirs(dir) || access(dir, W_OK | X_OK)) {
		snprintf(err, errlen, "cache directory %s: %s (use --cache-dir DIR or --no-cache)",
			 dir, strerror(errno));
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	if (log) {
		c->log = fopen(log, "w");
		if (!c->log) {
			snprintf(err, errlen, "cannot write %s: %s", log, strerror(errno));
			free(c);
			return NULL;
		}
	}
	c->dir = xstrdup(dir);
	c->max_bytes = max_bytes;
	pthread_mutex_init(&c->lock, NULL);
	version = clang_getClangVersion();
	digest_init(&d);
	digest_add_str(&d, FACTS_FORMAT);
	digest_add_str(&d, clang_getCString(version));
	digest_add_str(&d, kn->digest);
	digest_final(&d, c->context);
	clang_disposeString(version);
	return c;
}

/* The digest of a file's content, once per scan; 0, or -1 when it cannot
 * be read. */
static int content_digest(struct facts_cache *c, const char *path,
			  unsigned char out[DIGEST_BYTES])
{
	unsigned h = str_hash(path, strlen(path)) % INCLUDE_BUCKETS;
	struct content *e;
	char *text;
	size_t len;

	pthread_mutex_lock(&c->lock);
	for (e = c->contents[h]; e; e = e->next)
		if (!strcmp(e->path, path))
			break;
	pthread_mutex_unlock(&c->lock);
	if (!e) {
		/* two workers may both read a header the first time: harmless */
		e = xcalloc(1, sizeof(*e));
		e->path = xstrdup(path);
		text = read_file(path, &len);
		e->readable = text != NULL;
		if (text)
			digest_of(text, len, e->digest);
		free(text);
		pthread_mutex_lock(&c->lock);
		e->next = c->contents[h];
		c->contents[h] = e;
		pthread_mutex_unlock(&c->lock);
	}
	memcpy(out, e->digest, DIGEST_BYTES);
	return e->readable ? 0 : -1;
}

int facts_cache_key(struct facts_cache *c, const struct kernel_tree *kt, const char *rel,
		    const strvec *args, unsigned char key[DIGEST_BYTES])
{
	char *abs = path_join(kt->ksrc, rel);
	unsigned char content[DIGEST_BYTES];
	struct digest d;
	int err = content_digest(c, abs, content);

	if (!err) {
		digest_init(&d);
		digest_add(&d, c->context, DIGEST_BYTES);
		digest_add_str(&d, abs);
		digest_add(&d, content, DIGEST_BYTES);
		for (size_t i = 0; i < args->len; i++)
			digest_add_str(&d, args->items[i]);
		digest_final(&d, key);
	}
	free(abs);
	return err;
}

static char *entry_path(const struct facts_cache *c, const unsigned char key[DIGEST_BYTES])
{
	char hex[DIGEST_HEX];

	digest_hex(key, hex);
	return xasprintf("%s/%.2s/%s", c->dir, hex, hex + 2);
}

static void warn_corrupt(const char *path, const char *why)
{
	fprintf(stderr, "ioctl-scan: warning: cache entry %s %s; discarded, the file is parsed again\n",
		path, why);
}

/* The payload of an entry after its checks, or NULL with why set. */
static const unsigned char *entry_payload(const char *text, size_t len, size_t *plen,
					  const char **why)
{
	struct ser_reader r = { (const unsigned char *)text, (const unsigned char *)text + len, 0 };
	const unsigned char *magic = deser_bytes(&r, MAGIC_LEN);
	char *format;
	uint64_t n;
	const unsigned char *payload, *sum;
	unsigned char check[DIGEST_BYTES];

	if (!magic || memcmp(magic, MAGIC, MAGIC_LEN)) {
		*why = "is not a facts cache entry";
		return NULL;
	}
	format = deser_str(&r);
	if (!format || strcmp(format, FACTS_FORMAT)) {
		/* the key covers the format, so another format here means
		 * the entry was damaged or replaced */
		free(format);
		*why = "was written in another facts format";
		return NULL;
	}
	free(format);
	n = deser_u64(&r);
	if (r.bad || n > (uint64_t)(r.end - r.p) || (uint64_t)(r.end - r.p) - n != DIGEST_BYTES) {
		*why = "is truncated";
		return NULL;
	}
	payload = deser_bytes(&r, (size_t)n);
	sum = deser_bytes(&r, DIGEST_BYTES);
	digest_of(payload, (size_t)n, check);
	if (memcmp(sum, check, DIGEST_BYTES)) {
		*why = "fails its checksum";
		return NULL;
	}
	*plen = (size_t)n;
	return payload;
}

/* Do the included files still have the content the entry recorded? */
static int includes_unchanged(struct facts_cache *c, struct ser_reader *r)
{
	size_t n = (size_t)deser_u64(r);

	for (size_t i = 0; i < n && !r->bad; i++) {
		char *path = deser_str(r);
		const unsigned char *was = deser_bytes(r, DIGEST_BYTES);
		unsigned char now[DIGEST_BYTES];
		int same = path && was && !content_digest(c, path, now) &&
			   !memcmp(was, now, DIGEST_BYTES);

		free(path);
		if (!same)
			return 0;
	}
	return !r->bad;
}

struct file_facts *facts_cache_load(struct facts_cache *c, const unsigned char key[DIGEST_BYTES],
				    const char *rel, struct header_functions *hf,
				    enum cache_outcome *outcome)
{
	char *path = entry_path(c, key);
	size_t len, plen = 0;
	char *text = read_file(path, &len);
	const char *why = NULL;
	const unsigned char *payload = text ? entry_payload(text, len, &plen, &why) : NULL;
	struct ser_reader r = { payload, payload + plen, 0 };
	const unsigned char *stored_key;
	struct file_facts *ff = NULL;

	*outcome = CACHE_MISS;
	if (!payload) {
		if (text) {
			warn_corrupt(path, why);
			*outcome = CACHE_CORRUPT;
		}
		goto out;
	}
	stored_key = deser_bytes(&r, DIGEST_BYTES);
	if (!stored_key || memcmp(stored_key, key, DIGEST_BYTES)) {
		warn_corrupt(path, "holds another key");
		*outcome = CACHE_CORRUPT;
		goto out;
	}
	if (!includes_unchanged(c, &r)) {
		*outcome = r.bad ? CACHE_CORRUPT : CACHE_STALE;
		if (r.bad)
			warn_corrupt(path, "has a malformed list of included files");
		goto out;
	}
	ff = facts_read(&r, rel, hf);
	if (!ff) {
		warn_corrupt(path, "holds malformed facts");
		*outcome = CACHE_CORRUPT;
		goto out;
	}
	*outcome = CACHE_HIT;
	/* used now: the last to be evicted */
	utimensat(AT_FDCWD, path, NULL, 0);
out:
	free(text);
	free(path);
	return ff;
}

struct inclusions {
	strvec paths;
};

static void add_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	struct inclusions *inc = data;
	CXString name = clang_getFileName(f);

	(void)stack;
	(void)depth;
	if (clang_getCString(name))
		strvec_push(&inc->paths, clang_getCString(name));
	clang_disposeString(name);
}

/* Writes the entry to a temporary file beside it and renames it into place. */
static int write_entry(const char *path, const struct strbuf *entry)
{
	char *dir = path_dirname(path);
	char *tmp = xasprintf("%s.tmp.XXXXXX", path);
	int fd = -1, err = make_dir(dir);

	if (!err)
		fd = mkstemp(tmp);
	if (fd < 0) {
		err = -1;
	} else {
		size_t done = 0;

		fchmod(fd, 0644);
		while (done < entry->len && !err) {
			ssize_t n = write(fd, entry->buf + done, entry->len - done);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				err = -1;
			else
				done += (size_t)n;
		}
		if (close(fd) || err || rename(tmp, path)) {
			err = -1;
			unlink(tmp);
		}
	}
	free(tmp);
	free(dir);
	return err;
}

void facts_cache_store(struct facts_cache *c, const unsigned char key[DIGEST_BYTES],
		       CXTranslationUnit tu, const struct file_facts *ff)
{
	struct inclusions inc = {0};
	struct strbuf payload = {0}, entry = {0};
	unsigned char sum[DIGEST_BYTES];
	char *path;
	size_t n = 0;
	int unreadable = 0;

	clang_getInclusions(tu, add_inclusion, &inc);
	strvec_sort(&inc.paths);
	for (size_t i = 0; i < inc.paths.len; i++) {
		if (n && !strcmp(inc.paths.items[i], inc.paths.items[n - 1]))
			free(inc.paths.items[i]);
		else
			inc.paths.items[n++] = inc.paths.items[i];
	}
	inc.paths.len = n;
	sb_addn(&payload, (const char *)key, DIGEST_BYTES);
	ser_u64(&payload, inc.paths.len);
	for (size_t i = 0; i < inc.paths.len && !unreadable; i++) {
		unsigned char d[DIGEST_BYTES];

		/* a file the parse read but we cannot: the entry could never
		 * be checked, so it is not kept */
		unreadable = content_digest(c, inc.paths.items[i], d);
		ser_str(&payload, inc.paths.items[i]);
		sb_addn(&payload, (const char *)d, DIGEST_BYTES);
	}
	facts_write(&payload, ff);
	sb_addn(&entry, MAGIC, MAGIC_LEN);
	ser_str(&entry, FACTS_FORMAT);
	ser_u64(&entry, payload.len);
	sb_addn(&entry, payload.buf, payload.len);
	digest_of(payload.buf, payload.len, sum);
	sb_addn(&entry, (const char *)sum, DIGEST_BYTES);
	path = entry_path(c, key);
	if (!unreadable && !write_entry(path, &entry)) {
		pthread_mutex_lock(&c->lock);
		c->stats.stored++;
		pthread_mutex_unlock(&c->lock);
	}
	free(path);
	free(payload.buf);
	free(entry.buf);
	strvec_clear(&inc.paths);
}

static const char *const outcome_names[] = {
	[CACHE_HIT] = "hit",
	[CACHE_MISS] = "miss",
	[CACHE_STALE] = "stale",
	[CACHE_CORRUPT] = "corrupt",
};

void facts_cache_note(struct facts_cache *c, const char *rel, enum cache_outcome outcome)
{
	pthread_mutex_lock(&c->lock);
	switch (outcome) {
	case CACHE_HIT:
		c->stats.hits++;
		break;
	case CACHE_MISS:
		c->stats.misses++;
		break;
	case CACHE_STALE:
		c->stats.stale++;
		break;
	case CACHE_CORRUPT:
		c->stats.corrupt++;
		break;
	}
	if (c->log)
		fprintf(c->log, "%s\t%s\n", outcome_names[outcome], rel);
	pthread_mutex_unlock(&c->lock);
}

struct entry_file {
	char *path;
	uint64_t size;
	struct timespec used;
};

typedef VEC(struct entry_file) entry_list;

static int cmp_least_recent(const void *a, const void *b)
{
	const struct entry_file *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* The entries of the cache, with their sizes and last use; temporary files
 * a dead scan left behind are removed on the way. */
static void list_entries(const struct facts_cache *c, entry_list *out)
{
	DIR *top = opendir(c->dir);
	struct dirent *de;
	time_t now = time(NULL);

	while (top && (de = readdir(top))) {
		char *sub;
		DIR *d;
		struct dirent *fe;

		if (strlen(de->d_name) != 2 || de->d_name[0] == '.')
			continue;
		sub = path_join(c->dir, de->d_name);
		d = opendir(sub);
		while (d && (fe = readdir(d))) {
			struct entry_file e;
			struct stat st;

			if (fe->d_name[0] == '.')
				continue;
			e.path = path_join(sub, fe->d_name);
			if (stat(e.path, &st) || !S_ISREG(st.st_mode)) {
				free(e.path);
				continue;
			}
			if (strstr(fe->d_name, ".tmp.")) {
				if (now - st.st_mtime > STALE_TMP_SECONDS)
					unlink(e.path);
				free(e.path);
				continue;
			}
			e.size = (uint64_t)st.st_size;
			e.used = st.st_mtim;
			vec_push(out, e);
		}
		if (d)
			closedir(d);
		free(sub);
	}
	if (top)
		closedir(top);
}

/* Removes the least recently used entries until the cache is at most 90%
 * of its limit, so that the next scans do not evict at every turn. */
static void evict(struct facts_cache *c)
{
	entry_list entries = {0};
	uint64_t total = 0;

	list_entries(c, &entries);
	for (size_t i = 0; i < entries.len; i++)
		total += entries.items[i].size;
	if (total > c->max_bytes) {
		uint64_t goal = c->max_bytes / 10 * 9;

		vec_sort(&entries, cmp_least_recent);
		for (size_t i = 0; i < entries.len && total > goal; i++) {
			if (unlink(entries.items[i].path) == 0) {
				total -= entries.items[i].size;
				c->stats.evicted += entries.items[i].size;
			}
		}
	}
	c->stats.bytes = total;
	for (size_t i = 0; i < entries.len; i++)
		free(entries.items[i].path);
	vec_free(&entries);
}

void facts_cache_close(struct facts_cache *c, struct facts_cache_stats *stats)
{
	if (!c)
		return;
	evict(c);
	if (stats)
		*stats = c->stats;
	for (size_t i = 0; i < INCLUDE_BUCKETS; i++) {
		for (struct content *e = c->contents[i], *n; e; e = n) {
			n = e->next;
			free(e->path);
			free(e);
		}
	}
	if (c->log)
		fclose(c->log);
	pthread_mutex_destroy(&c->lock);
	free(c->dir);
	free(c);
}

char *facts_cache_default_dir(void)
{
	const char *own = getenv("IOCTL_SCAN_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (own && *own)
		return xstrdup(own);
	if (xdg && *xdg == '/')
		return path_join(xdg, "ioctl-scan");
	if (home && *home)
		return xasprintf("%s/.cache/ioctl-scan", home);
	return NULL;
}

int facts_cache_parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	unsigned long long n;
	int shift = 0;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (end == s || errno || *s == '-')
		return -1;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		break;
	case 'm': case 'M':
		shift = 20;
		break;
	case 'g': case 'G':
		shift = 30;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (*end && end[1])
		return -1;
	if (shift && n > (UINT64_MAX >> shift))
		return -1;
	*bytes = (uint64_t)n << shift;
	return 0;
}
