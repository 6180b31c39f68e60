#include "hook_setters.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *hook_file(const char *sname)
{
	size_t n = strlen(HOOK_STRUCT_PREFIX);

	return strncmp(sname, HOOK_STRUCT_PREFIX, n) ? NULL : sname + n;
}

struct setter_walk {
	const struct function_facts *fn;
	const char *setter, *sname, *field;
	int p;
	member_init_list *out;
};

static int setter_call(const struct stmt *s, void *ctx)
{
	struct setter_walk *sw = ctx;
	const struct call_arg *a;
	struct member_init *m;

	if (s->kind != ST_CALL || s->is_macro || !s->callee || strcmp(s->callee, sw->setter))
		return 0;
	a = (size_t)sw->p < s->args.len ? &s->args.items[sw->p] : NULL;
	if (a && a->is_null)
		return 0;
	m = xcalloc(1, sizeof(*m));
	m->struct_name = xstrdup(sw->sname);
	m->field = xstrdup(sw->field);
	m->function = a && a->function ? xstrdup(a->function) : NULL;
	m->file = xstrdup(sw->fn->file);
	m->setter_param = -1;
	vec_push(sw->out, m);
	return 0;
}

void hook_setter_calls(const struct file_facts *ff, const char *setter, int p,
		       const char *sname, const char *field, member_init_list *out)
{
	struct setter_walk sw = { NULL, setter, sname, field, p, out };

	for (size_t i = 0; i < ff->functions.len; i++) {
		sw.fn = ff->functions.items[i];
		stmt_any(sw.fn->body, setter_call, &sw);
	}
}

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int text_calls(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; (p = strstr(p, name)); p += n) {
		const char *q = p + n;

		if (p > text && is_ident(p[-1]))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '(')
			return 1;
	}
	return 0;
}

void hook_files_calling(const struct source_files *sf, const char *ksrc, const strvec *names,
			strvec *files)
{
	for (size_t i = 0; names->len && i < sf->all.len; i++) {
		char *path = path_join(ksrc, sf->all.items[i]);
		char *text = read_file(path, NULL);

		for (size_t n = 0; text && n < names->len; n++)
			if (text_calls(text, names->items[n]))
				strvec_push(&files[n], sf->all.items[i]);
		free(text);
		free(path);
	}
}

void member_init_free(struct member_init *m)
{
	member_init_clear(m);
	free(m);
}
