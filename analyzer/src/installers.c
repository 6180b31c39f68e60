/* Installers: the files of the tree that may put a function into an ops
 * member or a hook variable, found by reading their text, not parsing it.
 *
 * Member closing. A call that hands on the command through a member
 * (tty_ldisc's ld->ops->ioctl) can reach only the functions installed in
 * it. The classifier asks for such members (classify_wanted); here each
 * is sought: the files that set a member of that name and name its
 * struct, a typedef name of it, or a struct holding it (a hook's: the
 * files calling its setters) are its installers, and the scan parses
 * them. Once every installer is parsed the member is closed
 * (function_index_close_member): the functions the index holds for it
 * are all it can hold. A member set in a header, in more files than its
 * cap, by a positional initialiser, or held by a struct without a name
 * stays open.
 *
 * And, for a scan of some PATHs, the files outside them that install a
 * function defined under them (installing_files). */
#define _GNU_SOURCE
#include "installers.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hook_setters.h"

/* Candidate files outside the PATHs that may install a function defined
 * under them: their text names it after '=' (a designated initialiser or
 * an assignment). Read as text; only those are parsed. */
void installing_files(const struct scan_result *r, const struct source_files *sf,
		      struct kbuild_config *kc, const struct knowledge *kn, const strvec *paths,
		      strvec *out)
{
	strvec names = {0};

	for (size_t i = 0; i < r->files.len; i++) {
		const struct file_facts *ff = r->files.items[i];

		/* the file's own functions, not the header functions it reads */
		for (size_t j = 0; j < ff->functions.len; j++)
			if (!knowledge_forwarder(kn, ff->functions.items[j]->name) &&
			    !strcmp(ff->functions.items[j]->file, ff->file))
				strvec_push(&names, ff->functions.items[j]->name);
	}
	strvec_sort(&names);
	if (!names.len) {
		strvec_clear(&names);
		return;
	}
	for (size_t i = 0; i < sf->candidates.len; i++) {
		const char *f = sf->candidates.items[i];
		char *path, *text;
		int hit = 0;

		if (under_paths(paths, f) || file_known(r, f) || !kbuild_config_builds(kc, f))
			continue;
		path = path_join(r->kt.ksrc, f);
		text = read_file(path, NULL);
		free(path);
		/* every identifier right after an '=' */
		for (const char *p = text; text && !hit && (p = strchr(p, '=')); ) {
			const char *b, *e;
			char *id;

			for (b = ++p; *b == ' ' || *b == '\t'; b++)
				;
			for (e = b; isalnum((unsigned char)*e) || *e == '_'; e++)
				;
			if (e == b)
				continue;
			id = xstrndup(b, (size_t)(e - b));
			hit = bsearch(&id, names.items, names.len, sizeof(char *), strvec_cmp) != NULL;
			free(id);
		}
		if (hit)
			strvec_push(out, f);
		free(text);
	}
	strvec_clear(&names);
}

/* A member that calls handing on the command go through (ld->ops->ioctl),
 * and the files of the tree whose text may install a function in it. */
struct sought_member {
	char *sname, *field;
	size_t cap;	/* the installer files followed at most */
	strvec files;
	int open;	/* a header sets it, or too many files to follow */
	/* a hook's setters, the parameter each installs, and how many of
	 * the parsed files their calls were read in (hook_setters.h) */
	strvec setters;
	VEC(int) setter_params;
	size_t files_read;
	strvec to_search;	/* setters whose callers are not looked for yet */
};

static void sought_free(struct sought_member *m)
{
	free(m->sname);
	free(m->field);
	strvec_clear(&m->files);
	strvec_clear(&m->setters);
	vec_free(&m->setter_params);
	strvec_clear(&m->to_search);
}

typedef VEC(struct sought_member) member_list;

/* The names each parsed file calls, sorted, made when first asked for:
 * most files call no setter, and a look here spares walking all their
 * statements once for every setter. */
struct callee_names {
	VEC(const char *) names;
	int made;
};
typedef VEC(struct callee_names) callee_table;

/* What the scan keeps between its rounds: the members sought, the values
 * their setters' calls install, and the names each parsed file calls. */
struct member_search {
	member_list sought;
	member_init_list installed;
	callee_table calls;
};

static int ident_at(const char *p)
{
	return isalnum((unsigned char)*p) || *p == '_';
}

/* Each place the text holds the word w on its own (no letter, digit or
 * '_' either side), after the previous one, p; NULL past the last. */
static const char *next_word(const char *text, const char *p, const char *w, size_t n)
{
	for (p = p ? p + n : text; (p = strstr(p, w)); p += n)
		if (!ident_at(p + n) && !(p > text && ident_at(p - 1)))
			return p;
	return NULL;
}

/* Does the text name `struct sname` (an object or a pointer of the type
 * is declared: what an initialiser or an assignment to its member needs)? */
static int names_struct(const char *text, const char *sname)
{
	size_t n = strlen(sname);
	const char *p = NULL;

	if (!n)		/* an anonymous struct: no text names it */
		return 0;
	while ((p = next_word(text, p, sname, n))) {
		const char *q = p;

		while (q > text && isspace((unsigned char)q[-1]))
			q--;
		if (q - text >= 6 && q < p && !strncmp(q - 6, "struct", 6) &&
		    (q - text == 6 || !ident_at(q - 7)))
			return 1;
	}
	return 0;
}

/* Does the text name a typedef name (the word on its own)? */
static int names_word(const char *text, const char *w)
{
	return *w && next_word(text, NULL, w, strlen(w));
}

enum { MAX_HOLDERS = 64 };

/* The structs that hold one named name by value (source_files_embedding)
 * join out; 0 if they cannot all be told (more than it keeps, or a
 * struct without a name among them). */
static int add_holders(const struct source_files *sf, const char *name, strvec *out)
{
	const strvec *h = source_files_embedding(sf, name);

	for (size_t j = 0; h && j < h->len; j++) {
		if (strvec_contains(out, h->items[j]))
			continue;
		if (out->len == MAX_HOLDERS || !strcmp(h->items[j], SOURCE_FILES_ANONYMOUS))
			return 0;
		strvec_push(out, h->items[j]);
	}
	return 1;
}

/* name's typedef names, and theirs, join typedefs; 0 past the cap. */
static int add_typedef_names(const struct source_files *sf, const char *name, strvec *typedefs)
{
	size_t next = typedefs->len;

	for (const char *of = name;; of = typedefs->items[next++]) {
		const strvec *t = source_files_typedef_names(sf, of);

		for (size_t j = 0; t && j < t->len; j++) {
			if (strvec_contains(typedefs, t->items[j]))
				continue;
			if (typedefs->len == MAX_HOLDERS)
				return 0;
			strvec_push(typedefs, t->items[j]);
		}
		if (next == typedefs->len)
			return 1;
	}
}

/* sname and the structs that hold it by value, at any depth, in out: an
 * initialiser of any of them may set sname's members, `.base = {
 * .set_param = adreno_set_param }` in a `struct adreno_gpu_funcs` for
 * msm_gpu_funcs.set_param; and their typedef names, in typedefs (a
 * holder may hold one by such a name). Returns 0 when the installers
 * cannot all be told. */
static int holding_structs(const struct source_files *sf, const char *sname, strvec *out,
			   strvec *typedefs)
{
	strvec_push(out, sname);
	for (size_t i = 0; i < out->len; i++) {
		size_t first = typedefs->len;

		if (!add_typedef_names(sf, out->items[i], typedefs) ||
		    !add_holders(sf, out->items[i], out))
			return 0;
		for (size_t j = first; j < typedefs->len; j++)
			if (!add_holders(sf, typedefs->items[j], out))
				return 0;
	}
	return 1;
}

/* Does the text name one of the structs, or one of the typedef names as
 * a word of its own? */
static int names_any_struct(const char *text, const strvec *snames, const strvec *typedefs)
{
	for (size_t i = 0; i < snames->len; i++)
		if (names_struct(text, snames->items[i]))
			return 1;
	for (size_t i = 0; i < typedefs->len; i++)
		if (names_word(text, typedefs->items[i]))
			return 1;
	return 0;
}

/* f installs in m if the configuration builds it; past the cap, m is
 * open. Returns whether f is one of m's installers. */
static int add_installer(struct kbuild_config *kc, struct sought_member *m, const char *f)
{
	if (!kbuild_config_builds(kc, f))
		return 0;
	if (strvec_contains(&m->files, f))
		return 1;
	if (m->files.len == m->cap) {
		m->open = 1;
		return 0;
	}
	strvec_push(&m->files, f);
	return 1;
}

/* A hook variable's installers: its own file, which holds every store to
 * it, and the files that call a setter storing its parameter there
 * (looked for with the other members' setters, search_setters). */
static void find_hook_installers(const struct scan_result *r, const struct function_index *fi,
				 const char *file, struct sought_member *m)
{
	const struct file_facts *ff = parsed_file(r, file);

	if (!ff) {
		m->open = 1;
		return;
	}
	strvec_push(&m->files, file);
	for (size_t i = 0; i < ff->member_inits.len && !m->open; i++) {
		const struct member_init *mi = &ff->member_inits.items[i];
		const struct function_facts *setter;

		if (!mi->setter || strcmp(mi->struct_name, m->sname) || strcmp(mi->field, m->field) ||
		    strvec_contains(&m->setters, mi->setter))
			continue;
		strvec_push(&m->setters, mi->setter);
		vec_push(&m->setter_params, mi->setter_param);
		/* a static setter is called from this file only */
		setter = function_index_find(fi, mi->setter, file);
		if (setter && setter->is_static)
			continue;
		strvec_push(&m->to_search, mi->setter);
	}
}

/* The files that call the setters the sought members wait for: one pass
 * over the tree; they are installers, to be parsed. */
static void search_setters(const struct scan_result *r, const struct source_files *sf,
			   struct kbuild_config *kc, member_list *sought, strvec *to_parse)
{
	strvec names = {0};
	strvec *files;

	for (size_t i = 0; i < sought->len; i++)
		for (size_t j = 0; j < sought->items[i].to_search.len; j++)
			if (!strvec_contains(&names, sought->items[i].to_search.items[j]))
				strvec_push(&names, sought->items[i].to_search.items[j]);
	if (!names.len)
		return;
	files = xcalloc(names.len, sizeof(*files));
	hook_files_calling(sf, r->kt.ksrc, &names, files);
	for (size_t i = 0; i < sought->len; i++) {
		struct sought_member *m = &sought->items[i];

		for (size_t j = 0; j < m->to_search.len; j++) {
			const strvec *callers = NULL;

			for (size_t n = 0; n < names.len && !callers; n++)
				if (!strcmp(names.items[n], m->to_search.items[j]))
					callers = &files[n];
			for (size_t k = 0; callers && k < callers->len && !m->open; k++) {
				const char *f = callers->items[k];

				if (add_installer(kc, m, f) && !file_known(r, f) &&
				    !strvec_contains(to_parse, f))
					strvec_push(to_parse, f);
			}
		}
		strvec_clear(&m->to_search);
	}
	for (size_t n = 0; n < names.len; n++)
		strvec_clear(&files[n]);
	free(files);
	strvec_clear(&names);
}

/* The installers of sname.field: the files that set a member of that
 * name and name `struct sname` or a struct holding one. A header among
 * them (a macro or static initialiser whose users cannot be told) leaves
 * the member open. */
static void find_installers(const struct scan_result *r, const struct source_files *sf,
			    struct kbuild_config *kc, const struct function_index *fi,
			    struct sought_member *m)
{
	const strvec *setting = source_files_setting_member(sf, m->field);
	strvec holders = {0}, typedefs = {0};

	if (hook_file(m->sname)) {
		find_hook_installers(r, fi, hook_file(m->sname), m);
		return;
	}

	if (!holding_structs(sf, m->sname, &holders, &typedefs))
		m->open = 1;
	for (size_t i = 0; setting && i < setting->len && !m->open; i++) {
		const char *f = setting->items[i];
		int header = ends_with(f, ".h");
		char *path, *text;

		if (!header && !kbuild_config_builds(kc, f))
			continue;
		path = path_join(r->kt.ksrc, f);
		text = read_file(path, NULL);
		free(path);
		/* an unreadable file may install */
		if (!text || names_any_struct(text, &holders, &typedefs)) {
			if (header)
				m->open = 1;
			else
				add_installer(kc, m, f);
		}
		free(text);
	}
	/* a file that sets it by position, which no `.field =` shows and
	 * the facts do not record (`{ pz_reset_real }`), leaves it open */
	for (size_t i = 0; i < holders.len && !m->open; i++) {
		const strvec *positional = source_files_initialising_by_position(sf, holders.items[i]);

		for (size_t j = 0; positional && j < positional->len && !m->open; j++)
			if (ends_with(positional->items[j], ".h") ||
			    kbuild_config_builds(kc, positional->items[j]))
				m->open = 1;
	}
	strvec_clear(&holders);
	strvec_clear(&typedefs);
}

/* New members sought: their installers join the files to parse. A
 * member sought again with a larger cap is looked at again. */
void seek_members(struct member_search *ms, const struct scan_result *r,
		  const struct source_files *sf, struct kbuild_config *kc,
		  const struct function_index *fi, const wanted_members *wanted, strvec *to_parse)
{
	member_list *sought = &ms->sought;

	for (size_t i = 0; i < wanted->len; i++) {
		const struct wanted_member *w = &wanted->items[i];
		struct sought_member m = { .cap = w->cap }, *seen = NULL;

		for (size_t j = 0; j < sought->len && !seen; j++)
			if (!strcmp(sought->items[j].sname, w->sname) &&
			    !strcmp(sought->items[j].field, w->field))
				seen = &sought->items[j];
		if (seen && seen->cap >= w->cap)
			continue;
		m.sname = xstrdup(w->sname);
		m.field = xstrdup(w->field);
		find_installers(r, sf, kc, fi, &m);
		for (size_t j = 0; !m.open && j < m.files.len; j++)
			if (!file_known(r, m.files.items[j]) &&
			    !strvec_contains(to_parse, m.files.items[j]))
				strvec_push(to_parse, m.files.items[j]);
		if (seen) {
			sought_free(seen);
			*seen = m;
		} else {
			vec_push(sought, m);
		}
	}
	search_setters(r, sf, kc, sought, to_parse);
}

static int collect_callee(const struct stmt *s, void *ctx)
{
	struct callee_names *cn = ctx;

	/* the calls hook_setter_calls takes (setter_call) */
	if (s->kind == ST_CALL && !s->is_macro && s->callee)
		vec_push(&cn->names, s->callee);
	return 0;
}

static int cmp_name_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int file_calls(callee_table *t, const struct scan_result *r, size_t f, const char *name)
{
	struct callee_names *cn;

	while (t->len < r->files.len) {
		struct callee_names none = {0};

		vec_push(t, none);
	}
	cn = &t->items[f];
	if (!cn->made) {
		const struct file_facts *ff = r->files.items[f];
		size_t n = 0;

		for (size_t i = 0; i < ff->functions.len; i++)
			stmt_any(ff->functions.items[i]->body, collect_callee, cn);
		if (cn->names.len)
			qsort(cn->names.items, cn->names.len, sizeof(char *), cmp_name_ptr);
		for (size_t i = 0; i < cn->names.len; i++)
			if (!n || strcmp(cn->names.items[i], cn->names.items[n - 1]))
				cn->names.items[n++] = cn->names.items[i];
		cn->names.len = n;
		cn->made = 1;
	}
	return cn->names.len &&
	       bsearch(&name, cn->names.items, cn->names.len, sizeof(char *), cmp_name_ptr);
}

static void callee_table_free(callee_table *t)
{
	for (size_t i = 0; i < t->len; i++)
		vec_free(&t->items[i].names);
	vec_free(t);
}

/* The values that the parsed files' calls to the sought hooks' setters
 * install, added to the function index (read once per file). */
void read_setter_calls(struct member_search *ms, const struct scan_result *r,
		       struct function_index *fi)
{
	member_list *sought = &ms->sought;
	member_init_list *installed = &ms->installed;
	callee_table *calls = &ms->calls;

	for (size_t i = 0; i < sought->len; i++) {
		struct sought_member *m = &sought->items[i];
		size_t before = installed->len;

		for (size_t f = m->files_read; f < r->files.len; f++)
			for (size_t j = 0; j < m->setters.len; j++)
				if (file_calls(calls, r, f, m->setters.items[j]))
					hook_setter_calls(r->files.items[f], m->setters.items[j],
							  m->setter_params.items[j], m->sname,
							  m->field, installed);
		m->files_read = r->files.len;
		for (size_t j = before; j < installed->len; j++)
			function_index_add_member_init(fi, installed->items[j]);
	}
}

/* A member is closed when every installer was parsed. */
void close_members(const struct member_search *ms, const struct scan_result *r,
		   struct function_index *fi)
{
	const member_list *sought = &ms->sought;

	for (size_t i = 0; i < sought->len; i++) {
		const struct sought_member *m = &sought->items[i];
		int all = !m->open;

		for (size_t j = 0; all && j < m->files.len; j++)
			all = file_known(r, m->files.items[j]);
		if (all)
			function_index_close_member(fi, m->sname, m->field);
	}
}

struct member_search *member_search_new(void)
{
	return xcalloc(1, sizeof(struct member_search));
}

void member_search_free(struct member_search *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < ms->sought.len; i++)
		sought_free(&ms->sought.items[i]);
	vec_free(&ms->sought);
	callee_table_free(&ms->calls);
	for (size_t i = 0; i < ms->installed.len; i++)
		member_init_free(ms->installed.items[i]);
	vec_free(&ms->installed);
	free(ms);
}
