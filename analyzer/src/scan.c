/* The pipeline of one scan, in order (scan_run):
 *   source files (text) -> parse candidates -> handlers from ops initialisers
 *   -> commands (dispatch) -> parse files the command leads to, and the
 *   installers of the members its calls go through (installers.c), repeat
 *   -> classify -> report. */
#define _GNU_SOURCE
#include "scan.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "classify.h"
#include "compile_flags.h"
#include "dispatch.h"
#include "header_functions.h"
#include "function_index.h"
#include "installers.h"
#include "kbuild_config.h"
#include "facts_cache.h"
#include "parse_files.h"
#include "report.h"
#include "sarif.h"
#include "source_files.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall-clock seconds per phase of the scan (--times-out, make bench):
 * "phase<TAB>seconds" lines, a phase that runs again adding up. */
struct phase_clock {
	double mark;
	strvec names;
	VEC(double) secs;
};

static void phase_done(struct phase_clock *pc, const char *name)
{
	double t = now();
	size_t i;

	for (i = 0; i < pc->names.len && strcmp(pc->names.items[i], name); i++)
		;
	if (i == pc->names.len) {
		strvec_push(&pc->names, name);
		vec_push(&pc->secs, 0.0);
	}
	pc->secs.items[i] += t - pc->mark;
	pc->mark = t;
}

static void phase_write(struct phase_clock *pc, const char *path)
{
	FILE *f;

	if (!pc->names.len)
		return;	/* nothing timed: --parse-only, or an error before the scan */
	f = path ? fopen(path, "w") : NULL;

	if (path && !f)
		fprintf(stderr, "ioctl-scan: cannot write %s: %s\n", path, strerror(errno));
	for (size_t i = 0; f && i < pc->names.len; i++)
		fprintf(f, "%s\t%.2f\n", pc->names.items[i], pc->secs.items[i]);
	if (f)
		fclose(f);
	strvec_clear(&pc->names);
	vec_free(&pc->secs);
}

int under_paths(const strvec *paths, const char *file)
{
	if (!paths->len)
		return 1;
	for (size_t i = 0; i < paths->len; i++) {
		const char *p = paths->items[i];
		size_t n = strlen(p);

		while (n > 1 && p[n - 1] == '/')
			n--;
		if (!strcmp(p, ".") || (!strncmp(file, p, n) && (file[n] == '\0' || file[n] == '/')))
			return 1;
	}
	return 0;
}

static struct handler *handler_for(struct scan_result *r, const char *name, const char *kind,
				   const char *file)
{
	struct handler h = {0};

	for (size_t i = 0; i < r->handlers.len; i++) {
		struct handler *o = &r->handlers.items[i];

		if (!strcmp(o->name, name) && !strcmp(o->kind, kind) && !strcmp(o->file, file))
			return o;
	}
	h.name = xstrdup(name);
	h.kind = kind;
	h.file = xstrdup(file);
	vec_push(&r->handlers, h);
	return &r->handlers.items[r->handlers.len - 1];
}

/* The unlocked_ioctl handler set in the same ops object as a forwarder. */
static const char *sibling_handler(const struct file_facts *ff, const struct ops_init *o,
				   const char *field)
{
	for (size_t i = 0; i < ff->ops.len; i++) {
		const struct ops_init *s = &ff->ops.items[i];

		if (!strcmp(s->var, o->var) && !strcmp(s->struct_name, o->struct_name) &&
		    !strcmp(s->field, field) && s->handler)
			return s->handler;
	}
	return NULL;
}

/* A handler is reported when its ops initialiser or its definition lies
 * under the PATHs (blkdev_ioctl is defined in block/ioctl.c and installed
 * in block/fops.c). */
static int handler_in_paths(const struct scan_options *opt, const struct knowledge *kn,
			    const struct function_index *fi, const struct ops_init *o)
{
	const struct function_facts *fn;

	if (under_paths(&opt->paths, o->file))
		return 1;
	if (knowledge_forwarder(kn, o->handler))
		return 0;	/* generic: compat_ptr_ioctl serves every driver */
	fn = function_index_find(fi, o->handler, o->file);
	return fn && under_paths(&opt->paths, fn->file);
}

static void collect_handlers(struct scan_result *r, const struct scan_options *opt,
			     const struct knowledge *kn, const struct function_index *fi,
			     const struct file_facts *ff)
{
	for (size_t i = 0; i < ff->ops.len; i++) {
		const struct ops_init *o = &ff->ops.items[i];
		const struct handler_kind *k = knowledge_kind_for(kn, o->struct_name, o->field);
		const struct forwarder *fw;
		struct handler *h;
		char *where;

		if (!k || !o->handler || !handler_in_paths(opt, kn, fi, o))
			continue;
		h = handler_for(r, o->handler, k->kind, o->file);
		h->cmd_param = k->cmd_param;
		where = xasprintf("%s (%s:%u)", o->var[0] ? o->var : "?", o->file, o->line);
		if (!strvec_contains(&h->fops, where))
			vec_push(&h->fops, where);
		else
			free(where);
		fw = knowledge_forwarder(kn, o->handler);
		if (fw && !h->forwarder_of) {
			const char *to = sibling_handler(ff, o, fw->to_field);

			if (to)
				h->forwarder_of = xstrdup(to);
		}
		if (!h->line)
			h->line = o->line;
	}
}

/* A forwarder (compat_ptr_ioctl) has no commands of its own: it forwards
 * to the handler it serves, so commands are never merged across drivers. */
static void split_forwarders(struct scan_result *r)
{
	for (size_t i = 0; i < r->handlers.len; i++) {
		struct handler *h = &r->handlers.items[i];

		if (h->forwarder_of && !h->fn) {
			free(h->default_action);
			h->default_action = xstrdup("forward");
			if (!strvec_contains(&h->forwards_to, h->forwarder_of))
				strvec_push(&h->forwards_to, h->forwarder_of);
		}
	}
}

static void add_fixed_handlers(struct scan_result *r, const struct scan_options *opt,
			       const struct knowledge *kn)
{
	for (size_t i = 0; i < kn->kinds.len; i++) {
		const struct handler_kind *k = &kn->kinds.items[i];
		struct handler *h;

		if (!k->function || !k->file || !under_paths(&opt->paths, k->file))
			continue;
		h = handler_for(r, k->function, k->kind, k->file);
		h->cmd_param = k->cmd_param;
	}
}

static void reset_commands(struct handler *h)
{
	for (size_t i = 0; i < h->commands.len; i++)
		command_free(&h->commands.items[i]);
	vec_free(&h->commands);
	strvec_clear(&h->forwards_to);
	strvec_clear(&h->unresolved);
	free(h->default_action);
	h->default_action = NULL;
}

const struct file_facts *parsed_file(const struct scan_result *r, const char *file)
{
	for (size_t i = 0; i < r->files.len; i++)
		if (!strcmp(r->files.items[i]->file, file))
			return r->files.items[i];
	return NULL;
}

int file_known(const struct scan_result *r, const char *file)
{
	return parsed_file(r, file) != NULL;
}

static void parse_into(struct scan_result *r, struct function_index *fi,
		       const struct parse_request *req, const strvec *files)
{
	struct file_facts **ff = parse_files(req, files);

	for (size_t i = 0; i < files->len; i++) {
		if (!ff[i])
			continue;
		vec_push(&r->files, ff[i]);
		function_index_add_file(fi, ff[i]);
	}
	free(ff);
}

/* The files that define the wanted functions and are not parsed yet: a
 * definition the configuration builds, when there is one. */
static void files_defining(const struct scan_result *r, const struct source_files *sf,
			   struct kbuild_config *kc, const struct knowledge *kn,
			   const strvec *wanted, strvec *to_parse)
{
	for (size_t i = 0; i < wanted->len; i++) {
		const strvec *defs = source_files_defining(sf, wanted->items[i]);

		for (int pass = 0; pass < 2; pass++) {
			size_t before = to_parse->len;
			int any = 0;

			for (size_t j = 0; defs && j < defs->len; j++) {
				const char *f = defs->items[j];

				if (!pass && !kbuild_config_builds(kc, f))
					continue;
				any = 1;
				if (knowledge_neutral_file(kn, f))
					continue;
				if (!file_known(r, f) && !strvec_contains(to_parse, f))
					strvec_push(to_parse, f);
			}
			if (any || to_parse->len > before)
				break;
		}
	}
}

/* One round: resolve handlers and dispatch; returns the files that define
 * functions the commands lead to and that are not parsed yet. */
static void dispatch_round(struct scan_result *r, const struct function_index *fi,
			   const struct source_files *sf, struct kbuild_config *kc,
			   const struct knowledge *kn, strvec *to_parse)
{
	strvec wanted = {0};

	for (size_t i = 0; i < r->handlers.len; i++) {
		struct handler *h = &r->handlers.items[i];
		const struct handler_kind *k = knowledge_kind_named(kn, h->kind);

		if (!h->fn && k && k->table_struct) {
			/* a table installed in an ops member: its dispatcher
			 * is whichever parsed function reads that member */
			if (!h->table)
				h->table = function_index_find_table(fi, h->name, h->file);
			h->fn = function_index_table_dispatcher(fi, k->struct_name, k->field);
			if (h->fn && h->table) {
				free(h->file);
				h->file = xstrdup(h->table->file);
				h->line = h->table->entries.len ? h->table->entries.items[0].line : 0;
			} else {
				h->fn = NULL;
			}
			/* a table another file defines (mga_ioctls, in
			 * mga_state.c for mga_drv.c): parse that file */
			if (!h->table && !strvec_contains(&wanted, h->name))
				strvec_push(&wanted, h->name);
		} else if (!h->fn) {
			h->fn = function_index_find(fi, h->name, h->file);
			if (h->fn) {
				free(h->file);
				h->file = xstrdup(h->fn->file);
				h->line = h->fn->line;
			} else if (!h->forwarder_of && !strvec_contains(&wanted, h->name)) {
				strvec_push(&wanted, h->name);
			}
		}
		reset_commands(h);
		dispatch_commands(h, fi, kn, &wanted);
	}
	files_defining(r, sf, kc, kn, &wanted, to_parse);
	strvec_clear(&wanted);
}

static int cmp_handler(const void *a, const void *b)
{
	const struct handler *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->kind, y->kind);
}

static int cmp_command(const void *a, const void *b)
{
	const struct command *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (x->mask != y->mask)
		return x->mask < y->mask ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* msg with every "<ksrc>/" taken out: clang names the files of its
 * messages by absolute path, and a report must not depend on where the
 * tree lies (the committed report is compared with a fresh scan made
 * elsewhere). */
static char *tree_relative(const char *msg, const char *ksrc)
{
	struct strbuf sb = {0};
	size_t n = strlen(ksrc);
	const char *p = msg, *hit;

	while ((hit = strstr(p, ksrc))) {
		int dir = hit[n] == '/';

		sb_addn(&sb, p, (size_t)(hit - p) + (dir ? 0 : n));
		p = hit + n + dir;
	}
	sb_add(&sb, p);
	return sb_detach(&sb);
}

static int cmp_diag(const void *a, const void *b)
{
	const struct diag *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : strcmp(x->message, y->message);
}

/* Handlers are first keyed by the file of their ops initialiser; once
 * resolved, entries for the same function and kind are one handler (for
 * a table kind, the same table: every one has the same dispatcher). */
static void merge_handlers(struct scan_result *r)
{
	size_t out = 0;

	for (size_t i = 0; i < r->handlers.len; i++) {
		struct handler *h = &r->handlers.items[i];
		struct handler *into = NULL;

		for (size_t j = 0; j < out && h->fn; j++) {
			struct handler *o = &r->handlers.items[j];

			if (o->fn == h->fn && !strcmp(o->kind, h->kind) && o->table == h->table)
				into = o;
		}
		if (!into) {
			if (out != i)
				r->handlers.items[out] = *h;
			out++;
			continue;
		}
		for (size_t k = 0; k < h->fops.len; k++)
			if (!strvec_contains(&into->fops, h->fops.items[k]))
				strvec_push(&into->fops, h->fops.items[k]);
		handler_free(h);
	}
	r->handlers.len = out;
}

/* The function a table entry's command runs: the last link of its first
 * site's chain; NULL for a command not found through a table. */
static const struct function_facts *entry_function(const struct command *c)
{
	const struct command_site *s = c->sites.len ? &c->sites.items[0] : NULL;

	return s && s->table && s->chain_len ? s->chain[s->chain_len - 1].fn : NULL;
}

/* The object each handler is linked into, so that the kernel can bind a
 * handler's commands to its own code and not to another file's function
 * of the same name; and for a table entry's command the object of the
 * entry's function, which the kernel finds by address (a helper of the
 * DRM core, drm_noop, is not the driver's). A function written in a
 * header is compiled into whichever file includes it: not said. */
static void bind_objects(struct scan_result *r, struct kbuild_config *kc)
{
	for (size_t i = 0; i < r->handlers.len; i++) {
		struct handler *h = &r->handlers.items[i];

		h->objects_known = kbuild_config_objects(kc, h->file, &h->objects) == 0;
		for (size_t k = 0; k < h->commands.len; k++) {
			struct command *c = &h->commands.items[k];
			const struct function_facts *fn = entry_function(c);

			if (fn && !fn->in_header)
				c->entry_objects_known =
					kbuild_config_objects(kc, fn->unit ? fn->unit : fn->file,
							      &c->entry_objects) == 0;
		}
	}
}

static void finish(struct scan_result *r, const struct source_files *sf, size_t candidates)
{
	struct scan_stats *s = &r->stats;

	merge_handlers(r);
	vec_sort(&r->handlers, cmp_handler);
	for (size_t i = 0; i < r->handlers.len; i++) {
		struct handler *h = &r->handlers.items[i];

		vec_sort(&h->commands, cmp_command);
		strvec_sort(&h->fops);
		strvec_sort(&h->forwards_to);
		strvec_sort(&h->unresolved);
		s->commands += h->commands.len;
	}
	for (size_t i = 0; i < r->files.len; i++) {
		const struct file_facts *ff = r->files.items[i];

		if (ff->errors)
			s->files_failed++;
		else
			s->files_parsed++;
		for (size_t j = 0; j < ff->diags.len; j++) {
			char *msg = tree_relative(ff->diags.items[j].message, r->kt.ksrc);

			add_diag(&r->diags, ff->diags.items[j].file, ff->diags.items[j].severity, msg);
			free(msg);
		}
	}
	vec_sort(&r->diags, cmp_diag);
	s->files_total = sf->all.len;
	s->files_considered = r->files.len;
	s->files_followed = r->files.len - candidates;
	s->other_arch_dirs = sf->other_arch;
}

static void count_unlocked(struct scan_result *r, const struct scan_options *opt)
{
	for (size_t i = 0; i < r->files.len; i++) {
		const struct file_facts *ff = r->files.items[i];

		for (size_t j = 0; j < ff->ops.len; j++) {
			const struct ops_init *o = &ff->ops.items[j];

			if (strcmp(o->field, "unlocked_ioctl") || strcmp(o->struct_name, "file_operations") ||
			    !under_paths(&opt->paths, o->file))
				continue;
			r->stats.ops_unlocked++;
			for (size_t k = 0; o->handler && k < r->handlers.len; k++) {
				const struct handler *h = &r->handlers.items[k];

				if (!strcmp(h->name, o->handler) && !strcmp(h->kind, "unlocked_ioctl") &&
				    h->commands.len) {
					char *where = xasprintf("%s (%s:%u)", o->var[0] ? o->var : "?",
								o->file, o->line);

					if (strvec_contains(&h->fops, where)) {
						r->stats.ops_unlocked_resolved++;
						free(where);
						break;
					}
					free(where);
				}
			}
		}
	}
}

static void select_files(const struct source_files *sf, const struct scan_options *opt,
			 struct kbuild_config *kc, strvec *out, struct scan_result *r)
{
	for (size_t i = 0; i < sf->candidates.len; i++) {
		const char *f = sf->candidates.items[i];

		if (!under_paths(&opt->paths, f))
			continue;
		if (!kbuild_config_builds(kc, f) && !strvec_contains(&opt->paths, f)) {
			r->stats.files_outside_config++;
			add_diag(&r->diags, f, "info",
				 "not built by the configuration (Kbuild Makefiles); not parsed");
			continue;
		}
		strvec_push(out, f);
	}
	/* a file named explicitly is parsed even if the text scan missed it */
	for (size_t i = 0; i < opt->paths.len; i++)
		if (ends_with(opt->paths.items[i], ".c") && !strvec_contains(out, opt->paths.items[i]))
			strvec_push(out, opt->paths.items[i]);
}

static void write_files_list(const struct scan_result *r, const char *path)
{
	struct atomic_file af;

	if (atomic_open(&af, path)) {
		fprintf(stderr, "ioctl-scan: cannot write %s\n", path);
		return;
	}
	for (size_t i = 0; i < r->files.len; i++)
		fprintf(af.fp, "%s\n", r->files.items[i]->file);
	if (atomic_commit(&af))
		fprintf(stderr, "ioctl-scan: cannot write %s\n", path);
}


static void result_free(struct scan_result *r)
{
	for (size_t i = 0; i < r->handlers.len; i++)
		handler_free(&r->handlers.items[i]);
	vec_free(&r->handlers);
	for (size_t i = 0; i < r->diags.len; i++) {
		free(r->diags.items[i].file);
		free(r->diags.items[i].severity);
		free(r->diags.items[i].message);
	}
	vec_free(&r->diags);
	for (size_t i = 0; i < r->files.len; i++)
		file_facts_free(r->files.items[i]);
	vec_free(&r->files);
	free(r->flags_description);
	kernel_tree_free(&r->kt);
}

static int check_paths(const struct scan_options *opt, const struct kernel_tree *kt)
{
	for (size_t i = 0; i < opt->paths.len; i++) {
		char *p = path_join(kt->ksrc, opt->paths.items[i]);
		int ok = path_is_dir(p) || path_is_file(p);

		free(p);
		if (!ok) {
			fprintf(stderr, "ioctl-scan: %s: no such file or directory in %s (PATHs are relative to KSRC)\n",
				opt->paths.items[i], kt->ksrc);
			return -1;
		}
	}
	return 0;
}

/* Keeps the cache within its limit and says what it saved. */
static void close_cache(struct facts_cache *cache, const struct scan_options *opt)
{
	struct facts_cache_stats st;
	size_t parsed;

	if (!cache)
		return;
	facts_cache_close(cache, &st);
	parsed = st.misses + st.stale + st.corrupt;
	if (!opt->quiet)
		fprintf(stderr, "facts cache: %zu files, %zu from the cache, %zu parsed "
			"(%zu new, %zu changed, %zu unusable); %.1f MiB in %s\n",
			st.hits + parsed, st.hits, parsed, st.misses, st.stale, st.corrupt,
			(double)st.bytes / (1 << 20), opt->cache_dir);
}

/* --parse-only: parse exactly the files given (filling the cache) and
 * stop; make bench times the parse stage against clang with it. */
static int parse_only(const struct scan_options *opt, struct parse_request *req)
{
	struct file_facts **ff = parse_files(req, &opt->paths);
	int failed = 0;

	for (size_t i = 0; i < opt->paths.len; i++) {
		failed |= !ff[i] || !ff[i]->parsed;
		file_facts_free(ff[i]);
	}
	free(ff);
	if (scan_interrupted)
		return 130;
	return failed ? 1 : 0;
}

/* The handlers' files: the candidates, and for a scan of some PATHs the
 * files outside them that install a function defined under them. */
static void parse_handler_files(struct scan_result *r, struct function_index *fi,
				struct parse_request *req, const struct source_files *sf,
				struct kbuild_config *kc, const struct knowledge *kn,
				const struct scan_options *opt, const strvec *files)
{
	strvec installers = {0};

	parse_into(r, fi, req, files);
	if (!opt->paths.len)
		return;
	installing_files(r, sf, kc, kn, &opt->paths, &installers);
	parse_into(r, fi, req, &installers);
	strvec_clear(&installers);
}

/* Handlers: the functions the parsed ops initialisers install, and the
 * fixed functions under the PATHs. */
static void find_handlers(struct scan_result *r, const struct scan_options *opt,
			  const struct knowledge *kn, const struct function_index *fi)
{
	for (size_t i = 0; i < r->files.len; i++)
		collect_handlers(r, opt, kn, fi, r->files.items[i]);
	add_fixed_handlers(r, opt, kn);
	split_forwarders(r);
}

/* The rounds of "dispatch, then parse the files the commands lead to":
 * the functions the commands reach (classify_wanted) and the installers
 * of the members their calls go through (installers.c). */
static void follow_calls(struct scan_result *r, struct function_index *fi,
			 const struct source_files *sf, struct kbuild_config *kc,
			 const struct knowledge *kn, struct parse_request *req,
			 struct member_search *ms, struct phase_clock *pc)
{
	for (int round = 0; round < FOLLOW_ROUNDS && !scan_interrupted; round++) {
		strvec more = {0}, names = {0};
		wanted_members members = {0};

		read_setter_calls(ms, r, fi);
		dispatch_round(r, fi, sf, kc, kn, &more);
		/* the last round parses nothing more */
		if (round < FOLLOW_ROUNDS - 1)
			classify_wanted(r, fi, kn, round < CLASSIFY_ROUNDS, &names, &members);
		files_defining(r, sf, kc, kn, &names, &more);
		seek_members(ms, r, sf, kc, fi, &members, &more);
		strvec_clear(&names);
		for (size_t i = 0; i < members.len; i++) {
			free(members.items[i].sname);
			free(members.items[i].field);
		}
		vec_free(&members);
		phase_done(pc, "finding the calls to follow");
		if (!more.len || round == FOLLOW_ROUNDS - 1) {
			strvec_clear(&more);
			break;
		}
		req->phase = "following calls";
		parse_into(r, fi, req, &more);
		strvec_clear(&more);
		phase_done(pc, "parsing the files calls lead to");
	}
}

/* The report (or SARIF) written; returns the exit status. */
static int write_report(struct scan_result *r, const struct scan_options *opt,
			const struct knowledge *kn)
{
	json_t *report = report_build(r, opt, kn);
	int status;

	if (opt->sarif) {
		json_t *sarif = sarif_from_report(report);

		json_decref(report);
		report = sarif;
	}
	if (report_write(report, opt->output)) {
		fprintf(stderr, "ioctl-scan: cannot write %s: %s\n",
			opt->output ? opt->output : "stdout", strerror(errno));
		status = 2;
	} else {
		status = r->stats.files_failed ? 1 : 0;
	}
	json_decref(report);
	return status;
}

int scan_run(const struct scan_options *opt)
{
	struct scan_result r = {0};
	struct knowledge kn;
	struct flag_source *flags = NULL;
	struct source_files sf = {0};
	struct function_index *fi = NULL;
	struct kbuild_config *kc = NULL;
	struct parse_request req = {0};
	struct facts_cache *cache = NULL;
	struct member_search *ms = NULL;
	strvec files = {0};
	char err[1024];
	int status = 2;
	double t0 = now();
	struct phase_clock pc = { .mark = t0 };

	/* nothing is held yet */
	if (knowledge_load(&kn, opt->data_dir))
		return 2;

	/* the tree, the PATHs in it, its compile flags and the facts cache */
	if (kernel_tree_open(&r.kt, opt->ksrc, opt->build_dir, err, sizeof(err))) {
		fprintf(stderr, "ioctl-scan: %s\n", err);
		goto out;
	}
	if (check_paths(opt, &r.kt))
		goto out;
	flags = flag_source_open(&r.kt, err, sizeof(err));
	if (!flags) {
		fprintf(stderr, "ioctl-scan: %s\n", err);
		goto out;
	}
	r.flags_description = xstrdup(flag_source_describe(flags));
	if (opt->cache_dir) {
		cache = facts_cache_open(opt->cache_dir, opt->cache_max, &kn, opt->cache_log,
					 err, sizeof(err));
		if (!cache && opt->cache_required) {
			fprintf(stderr, "ioctl-scan: %s\n", err);
			goto out;
		}
		if (!cache)
			fprintf(stderr, "ioctl-scan: warning: %s; scanning without a cache\n", err);
	}
	req = (struct parse_request){ .kt = &r.kt, .flags = flags, .kn = &kn,
				      .hf = header_functions_new(), .cache = cache,
				      .jobs = opt->jobs, .show_progress = opt->progress,
				      .phase = opt->parse_only ? "parsing" : "parsing handlers" };
	if (opt->parse_only) {
		status = parse_only(opt, &req);
		goto out;
	}

	/* candidate files, read as text */
	source_files_scan(&sf, &r.kt, &kn, opt->jobs > 0 ? opt->jobs : 1);
	kc = kbuild_config_open(&r.kt);
	select_files(&sf, opt, kc, &files, &r);
	phase_done(&pc, "finding files (reading the tree)");

	/* parse them; the handlers their ops initialisers install */
	fi = function_index_new();
	parse_handler_files(&r, fi, &req, &sf, kc, &kn, opt, &files);
	phase_done(&pc, "parsing handler files");
	find_handlers(&r, opt, &kn, fi);

	/* commands, following calls into the files they lead to */
	ms = member_search_new();
	follow_calls(&r, fi, &sf, kc, &kn, &req, ms, &pc);
	if (scan_interrupted) {
		fputs("ioctl-scan: interrupted; no report written\n", stderr);
		status = 130;
		goto out;
	}
	read_setter_calls(ms, &r, fi);
	close_members(ms, &r, fi);
	if (opt->files_out)
		write_files_list(&r, opt->files_out);

	/* classify; the report */
	classify_handlers(&r, fi, &kn);
	phase_done(&pc, "classifying");
	finish(&r, &sf, files.len);
	bind_objects(&r, kc);
	count_unlocked(&r, opt);
	r.stats.seconds = now() - t0;
	status = write_report(&r, opt, &kn);
	phase_done(&pc, "writing the report");
out:
	close_cache(cache, opt);
	phase_write(&pc, opt->times_out);
	member_search_free(ms);
	strvec_clear(&files);
	function_index_free(fi);
	header_functions_free(req.hf);
	source_files_free(&sf);
	flag_source_free(flags);
	kbuild_config_free(kc);
	result_free(&r);
	knowledge_free(&kn);
	return status;
}
