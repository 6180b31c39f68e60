#define _GNU_SOURCE
#include "parse_files.h"

#include <clang-c/Index.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "extract_facts.h"
#include "facts_cache.h"
#include "file_location.h"

volatile sig_atomic_t scan_interrupted;

/* A source file larger than this is not a driver: refuse it politely. */
#define MAX_SOURCE_BYTES (8u << 20)
#define MAX_ERRORS_KEPT 3

struct pool {
	const struct parse_request *req;
	const strvec *files;
	size_t *order;		/* indexes into files, largest file first */
	struct file_facts **out;
	atomic_size_t next;
	atomic_size_t done;
};

struct sized {
	size_t index;
	off_t size;
};

static int cmp_larger_first(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The order workers take files in: the largest first, so that the last
 * files of a round are small and no worker waits long for the others at
 * the end of it (a few big drivers take ten times the average). Results
 * keep the files' own order.
 */
static size_t *largest_first(const struct parse_request *req, const strvec *files)
{
	struct sized *s = xcalloc(files->len ? files->len : 1, sizeof(*s));
	size_t *order = xcalloc(files->len ? files->len : 1, sizeof(*order));

	for (size_t i = 0; i < files->len; i++) {
		char *abs = path_join(req->kt->ksrc, files->items[i]);
		struct stat st;

		s[i].index = i;
		s[i].size = stat(abs, &st) ? 0 : st.st_size;
		free(abs);
	}
	qsort(s, files->len, sizeof(*s), cmp_larger_first);
	for (size_t i = 0; i < files->len; i++)
		order[i] = s[i].index;
	free(s);
	return order;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Refuses files that are not plausible C sources; returns a reason. */
static const char *unfit_source(const char *path)
{
	struct stat st;
	char buf[4096];
	FILE *fp;
	size_t n;

	if (stat(path, &st) < 0)
		return "cannot be read";
	if (!S_ISREG(st.st_mode))
		return "not a regular file";
	if ((size_t)st.st_size > MAX_SOURCE_BYTES)
		return "larger than 8 MiB; not parsed";
	fp = fopen(path, "rb");
	if (!fp)
		return "cannot be read";
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	if (memchr(buf, '\0', n))
		return "binary file (contains NUL bytes); not parsed";
	return NULL;
}

static void record_diagnostics(CXTranslationUnit tu, struct file_facts *ff)
{
	unsigned n = clang_getNumDiagnostics(tu);
	int kept = 0;

	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);

		if (sev >= CXDiagnostic_Error) {
			ff->errors++;
			if (kept++ < MAX_ERRORS_KEPT) {
				CXString s = clang_formatDiagnostic(d,
					CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);

				add_diag(&ff->diags, ff->file, "error", clang_getCString(s));
				clang_disposeString(s);
			}
		}
		clang_disposeDiagnostic(d);
	}
}

/* Parses one file with libclang and extracts its facts; with a cache,
 * keeps them under key. Header functions are extracted in full here, so
 * that the facts are the file's own whatever was parsed before it. */
static struct file_facts *parse_fresh(CXIndex idx, const struct parse_request *req,
				      const char *rel, const char *abs, const strvec *args,
				      const unsigned char *key)
{
	struct file_facts *ff = xcalloc(1, sizeof(*ff));
	CXTranslationUnit tu = NULL;
	enum CXErrorCode err;

	ff->file = xstrdup(rel);
	err = clang_parseTranslationUnit2(idx, abs, (const char *const *)args->items,
					  (int)args->len, NULL, 0,
					  CXTranslationUnit_KeepGoing |
					  CXTranslationUnit_DetailedPreprocessingRecord |
					  CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles,
					  &tu);
	if (err != CXError_Success || !tu) {
		ff->errors = 1;
		add_diag(&ff->diags, rel, "error", "libclang could not parse the file");
		return ff;
	}
	ff->parsed = 1;
	record_diagnostics(tu, ff);
	{
		struct header_functions *own = header_functions_new();

		extract_facts(tu, req->kn, req->kt, own, ff);
		header_functions_free(own);
	}
	if (key)
		facts_cache_store(req->cache, key, tu, ff);
	file_location_forget();
	clang_disposeTranslationUnit(tu);
	return ff;
}

static struct file_facts *parse_one(CXIndex idx, const struct parse_request *req,
				    const char *rel)
{
	struct file_facts *ff = NULL;
	char *abs = path_join(req->kt->ksrc, rel);
	const char *why = unfit_source(abs);
	strvec args = {0};
	unsigned char key[DIGEST_BYTES];
	int keyed = 0;
	enum cache_outcome outcome = CACHE_MISS;
	double t0 = now();

	if (why) {
		ff = xcalloc(1, sizeof(*ff));
		ff->file = xstrdup(rel);
		ff->errors = 1;
		add_diag(&ff->diags, rel, "error", why);
		free(abs);
		return ff;
	}
	flags_for_file(req->flags, rel, &args);
	if (req->cache) {
		keyed = !facts_cache_key(req->cache, req->kt, rel, &args, key);
		if (keyed)
			ff = facts_cache_load(req->cache, key, rel, req->hf, &outcome);
		facts_cache_note(req->cache, rel, outcome);
	}
	if (!ff) {
		ff = parse_fresh(idx, req, rel, abs, &args, keyed ? key : NULL);
		header_functions_keep_first(req->hf, ff);
	}
	facts_bind_knowledge(ff, req->kn);
	ff->parse_seconds = now() - t0;
	strvec_clear(&args);
	free(abs);
	return ff;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	CXIndex idx = clang_createIndex(0, 0);

	while (!scan_interrupted) {
		size_t i = atomic_fetch_add(&p->next, 1);

		if (i >= p->files->len)
			break;
		i = p->order[i];
		p->out[i] = parse_one(idx, p->req, p->files->items[i]);
		atomic_fetch_add(&p->done, 1);
	}
	clang_disposeIndex(idx);
	return NULL;
}

static void show_progress(const struct pool *p, double start, int final)
{
	size_t done = atomic_load(&p->done), total = p->files->len;
	double el = now() - start;
	double eta = done ? el / (double)done * (double)(total - done) : 0;

	fprintf(stderr, "\r%s: %zu/%zu files, %.0fs elapsed, ~%.0fs left   %s",
		p->req->phase, done, total, el, eta, final ? "\n" : "");
}

struct file_facts **parse_files(const struct parse_request *req, const strvec *files)
{
	struct pool p = { .req = req, .files = files };
	int jobs = req->jobs > 0 ? req->jobs : 1;
	pthread_t *threads = xcalloc((size_t)jobs, sizeof(*threads));
	double start = now();
	int started = 0;

	p.out = xcalloc(files->len ? files->len : 1, sizeof(*p.out));
	p.order = largest_first(req, files);
	atomic_init(&p.next, 0);
	atomic_init(&p.done, 0);
	for (int i = 0; i < jobs; i++) {
		pthread_attr_t attr;

		/* libclang recurses deeply on kernel macros: give it room */
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64u << 20);
		if (pthread_create(&threads[i], &attr, worker, &p) == 0)
			started++;
		pthread_attr_destroy(&attr);
	}
	if (!started)
		worker(&p);
	while (req->show_progress && atomic_load(&p.done) < files->len && !scan_interrupted) {
		show_progress(&p, start, 0);
		usleep(250000);
	}
	for (int i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	if (req->show_progress && files->len)
		show_progress(&p, start, 1);
	free(threads);
	free(p.order);
	return p.out;
}
